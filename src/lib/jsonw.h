/*
 * jsonw: writes JSON the way PHP's json_encode($x, 0) does, since
 * Statamic's API is PHP: '/' is escaped as "\/", every non-ASCII character
 * as \uXXXX (surrogate pairs above U+FFFF), invalid UTF-8 bytes become
 * U+FFFD, doubles are printed in their shortest round-trip form with ".0"
 * kept on integral values (1.0, 1.0e+25), and INF/NaN print as 0 (PHP
 * would fail the whole response).
 *
 * The writer tracks whether a comma is due, so callers just emit keys and
 * values in order.
 */
#ifndef CMS_API_JSONW_H
#define CMS_API_JSONW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/strbuf.h"
#include "lib/value.h"

/* Containers nest this deep at most (packed values nest 64 deep; trees
 * cut their levels to stay within it). Deeper, commas go wrong but
 * nothing is read or written out of bounds. */
#define JSONW_MAX_DEPTH 1024

struct jsonw;

/*
 * What a response completes per request (value.h's URL and REF values):
 * the absolute bases that URL paths are written below, and the writer of
 * references. The same environment serves every handler of a request.
 */
struct jsonw_env {
	const char *site_base; /* e.g. "http://localhost"; not owned */
	const char *api_base;  /* e.g. "http://localhost/api"; not owned */
	/* Writes the delivered form of the reference ref at w's position and
	 * returns true, or returns false having written nothing when the
	 * reference is not shown (an unpublished entry). NULL: references are
	 * written as their raw values. */
	bool (*write_ref)(struct jsonw *w, value_t ref, const void *ctx);
	const void *ref_ctx;
};

/*
 * Templates: JSON written once and copied into many answers, whatever
 * their bases. While a writer records marks, a URL is written without its
 * base, and a mark notes where in the output the base belongs; a template
 * copy puts each request's base back there. Everything else a template
 * holds is final text.
 */
struct jsonw_mark {
	size_t at;          /* offset in the output, just after the URL's opening quote */
	enum url_base base;
};

struct jsonw_marks {
	struct jsonw_mark *items; /* owned */
	size_t len, cap;
};

/* An env's bases as JSON text (escaped; the API's with the "\/" that
 * follows it), made once for many template copies. */
struct jsonw_bases {
	struct strbuf site, api;
};

struct jsonw {
	struct strbuf *out;           /* not owned */
	const struct jsonw_env *env;  /* not owned; NULL: URLs as bare paths, raw references */
	struct jsonw_marks *marks;    /* not owned; non-NULL: URLs are written as marks */
	bool need_comma[JSONW_MAX_DEPTH];
	int depth;
	bool after_key;               /* a key was written; its value is next */
};

void jsonw_init(struct jsonw *w, struct strbuf *out);
void jsonw_set_env(struct jsonw *w, const struct jsonw_env *env);
void jsonw_object_begin(struct jsonw *w);
void jsonw_object_end(struct jsonw *w);
void jsonw_array_begin(struct jsonw *w);
void jsonw_array_end(struct jsonw *w);
void jsonw_key(struct jsonw *w, const char *key, size_t len);
void jsonw_keyz(struct jsonw *w, const char *key);
void jsonw_null(struct jsonw *w);
void jsonw_bool(struct jsonw *w, bool v);
void jsonw_int(struct jsonw *w, int64_t v);
void jsonw_double(struct jsonw *w, double v);
void jsonw_string(struct jsonw *w, const char *s, size_t len);
void jsonw_stringz(struct jsonw *w, const char *s);
/* A string or null when s is NULL. */
void jsonw_stringz_or_null(struct jsonw *w, const char *s);
/* Writes a packed value; an empty map prints as [] like an empty PHP
 * array, a missing value as null; a URL as its base (from the env) and
 * path; a reference through the env's writer (a hidden one is left out
 * of a list, and is null where a value must stand). */
void jsonw_value(struct jsonw *w, value_t v);
/* Writes a URL: base + "/" + path below the API root, base + path below
 * the site root (as jsonw_value writes a URL value). */
void jsonw_url(struct jsonw *w, enum url_base base, const char *path, size_t len);
/* Appends already-encoded JSON text as one value. */
void jsonw_raw(struct jsonw *w, const char *json, size_t len);

/* From now on, w writes every URL without its base and records a mark
 * for it in marks (a template, see above); NULL stops that. */
void jsonw_record_marks(struct jsonw *w, struct jsonw_marks *marks);
void jsonw_marks_release(struct jsonw_marks *marks);

/* Sets b to env's bases (as jsonw_url writes them); b must start zeroed. */
void jsonw_bases_set(struct jsonw_bases *b, const struct jsonw_env *env);
void jsonw_bases_release(struct jsonw_bases *b);

/* Writes one value from a template: text (a complete JSON value, written
 * under marks) with each mark's base from bases. */
void jsonw_template(struct jsonw *w, const char *text, size_t len, const struct jsonw_mark *marks,
                    size_t nmarks, const struct jsonw_bases *bases);

/* Appends s[0..len) JSON-escaped (without quotes) to out. */
void json_escape(struct strbuf *out, const char *s, size_t len);
/* Appends the PHP form of d to out. */
void json_format_double(struct strbuf *out, double d);

#endif
