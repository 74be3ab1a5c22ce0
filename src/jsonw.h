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

#include "strbuf.h"
#include "value.h"

#define JSONW_MAX_DEPTH 128

struct jsonw {
	struct strbuf *out;           /* not owned */
	const char *site_base;        /* completes marked site URLs (augment.h); not owned */
	const char *api_base;         /* completes marked API URLs; not owned */
	bool need_comma[JSONW_MAX_DEPTH];
	int depth;
	bool after_key;               /* a key was written; its value is next */
};

void jsonw_init(struct jsonw *w, struct strbuf *out);

/* Strings that start with the byte 0x01 are written as site_base + the
 * rest, those with 0x02 as api_base + "/" + the rest: absolute URLs stored
 * in the index without the request's host (see augment.h). */
void jsonw_set_bases(struct jsonw *w, const char *site_base, const char *api_base);
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
 * array, a missing value as null. */
void jsonw_value(struct jsonw *w, value_t v);
/* Appends already-encoded JSON text as one value. */
void jsonw_raw(struct jsonw *w, const char *json, size_t len);

/* Appends s[0..len) JSON-escaped (without quotes) to out. */
void json_escape(struct strbuf *out, const char *s, size_t len);
/* Appends the PHP form of d to out. */
void json_format_double(struct strbuf *out, double d);

#endif
