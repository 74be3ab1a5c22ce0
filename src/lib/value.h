/*
 * value: typed content values in one packed, position-independent byte
 * format.
 *
 * Everything read from a site (YAML scalars, maps, lists, augmented
 * fields) is stored in this form. Because a packed value holds no
 * pointers it can live in a heap buffer or in a read-only snapshot file
 * mapped by every worker, and it is read in place without decoding.
 *
 * Layout, one tag byte then the payload (integers little-endian):
 *   NULL, FALSE, TRUE      no payload
 *   INT                    int64
 *   DOUBLE                 IEEE double
 *   STRING                 u32 length, bytes, NUL
 *   ARRAY, MAP             u32 payload size, u32 count, items;
 *                          a map item is a key (u32 length, bytes, NUL)
 *                          followed by its value
 *   URL                    u8 base, then a string's payload (the path)
 *   REF                    u32 payload size, u32 count (2), u8 kind,
 *                          u32 target, then two values: the raw value
 *                          and the short object (REF_FIELD: the field)
 * Map keys keep their insertion (file) order.
 *
 * URL and REF carry, out of band, what a response must complete per
 * request: a URL is a path below the site's or the API's absolute base,
 * which depends on the request (or base_url); a REF is a relation to
 * another item, written as its short object only if it is visible at
 * request time. No byte of a string's content ever changes how it is
 * written: content is data, never markup.
 */
#ifndef CMS_API_VALUE_H
#define CMS_API_VALUE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/strbuf.h"

enum value_type {
	VALUE_NULL = 0,
	VALUE_FALSE,
	VALUE_TRUE,
	VALUE_INT,
	VALUE_DOUBLE,
	VALUE_STRING,
	VALUE_ARRAY,
	VALUE_MAP,
	VALUE_URL,
	VALUE_REF,
};

/* What a URL's path is relative to. */
enum url_base {
	URL_SITE = 1, /* the site root: http://host + "/blog/x" */
	URL_API = 2,  /* the API root: http://host/api + "/" + "collections/blog" */
};

/* What a reference points at. REF_OBJECT is any other item's short
 * object (a form, a collection, a linked entry), shown whatever the
 * request. REF_FIELD is a whole relationship field of an item: its raw
 * value is the value stored, its object the field as delivered (a
 * reference, a list of them, null), because Statamic shows one where it
 * shows an item and the other on a tree page. */
enum ref_kind { REF_ENTRY = 1, REF_TERM, REF_USER, REF_ASSET, REF_FIELD, REF_OBJECT };

/* A read-only view of one packed value. A view with p == NULL is the
 * "missing" value: it reads as null and iterates as empty. */
typedef struct {
	const unsigned char *p;
} value_t;

#define VALUE_MISSING ((value_t){NULL})

/* Readers. Each accepts any value and answers sensibly for the wrong
 * type (0, "", empty), so callers check value_type() only when the
 * difference matters. */
enum value_type value_type(value_t v);
bool value_is_missing(value_t v);
/* True for missing and null. */
bool value_is_null(value_t v);
bool value_is_bool(value_t v);
bool value_bool(value_t v);
/* PHP's (int) of a double: 0 for INF and NaN, larger values wrapped
 * modulo 2^64 (C leaves the plain cast undefined there). */
int64_t value_int_of_double(double d);
int64_t value_int(value_t v);
double value_double(value_t v);
/* The string's bytes (NUL-terminated) and length; a URL's path; "" for
 * anything else. */
const char *value_str(value_t v, size_t *len);
/* Items of an array or pairs of a map; 0 otherwise. */
uint32_t value_count(value_t v);
/* Total encoded size in bytes, tag included. */
size_t value_size(value_t v);

/* Iteration over arrays and maps:
 *   struct value_iter it; value_iter_init(&it, v);
 *   while (value_iter_next(&it)) { it.key, it.key_len (maps), it.value }
 */
struct value_iter {
	const unsigned char *pos, *end;
	bool is_map;
	const char *key;
	size_t key_len;
	value_t value;
};
void value_iter_init(struct value_iter *it, value_t container);
bool value_iter_next(struct value_iter *it);

/* The value under key in a map, or VALUE_MISSING. */
value_t value_map_get(value_t map, const char *key, size_t key_len);
value_t value_map_getz(value_t map, const char *key);
/* The n-th item of an array (0-based), or VALUE_MISSING. */
value_t value_array_get(value_t array, uint32_t n);

/* A URL's base (0 for anything else). */
enum url_base value_url_base(value_t v);

/* A reference's parts: its kind, its target (an entry number for
 * REF_ENTRY, else SNAP_NONE's value UINT32_MAX), the value stored in the
 * content (an id, a slug, a path) and the short object delivered for it.
 * Each reads as 0 / missing on a value that is not a reference. */
enum ref_kind value_ref_kind(value_t v);
uint32_t value_ref_target(value_t v);
value_t value_ref_raw(value_t v);
value_t value_ref_object(value_t v);

/* The value a query compares: a reference's raw value (what the content
 * stores, as Statamic's queries see it), anything else itself. */
value_t value_raw(value_t v);

/*
 * Builder: appends packed values to a strbuf.
 *
 *   struct value_builder b = VALUE_BUILDER_INIT;
 *   vb_map_begin(&b); vb_key(&b, STR_LEN("title")); vb_str(&b, ...);
 *   vb_map_end(&b);
 *
 * Containers nest up to VALUE_MAX_DEPTH; deeper input is refused with
 * vb_error set, so a hostile file cannot exhaust the stack.
 */
#define VALUE_MAX_DEPTH 64

struct value_builder {
	struct strbuf buf;
	size_t open[VALUE_MAX_DEPTH];   /* offsets of open containers */
	uint32_t count[VALUE_MAX_DEPTH]; /* items so far in each */
	int depth;
	bool error; /* set when nesting was too deep; the output is unusable */
};

#define VALUE_BUILDER_INIT {STRBUF_INIT, {0}, {0}, 0, false}

void vb_null(struct value_builder *b);
void vb_bool(struct value_builder *b, bool v);
void vb_int(struct value_builder *b, int64_t v);
void vb_double(struct value_builder *b, double v);
void vb_str(struct value_builder *b, const char *s, size_t len);
void vb_strz(struct value_builder *b, const char *s);
/* Appends a copy of an already packed value. */
void vb_value(struct value_builder *b, value_t v);
void vb_array_begin(struct value_builder *b);
void vb_array_end(struct value_builder *b);
void vb_map_begin(struct value_builder *b);
/* Writes a map key; the next value written is its value. */
void vb_key(struct value_builder *b, const char *k, size_t len);
void vb_keyz(struct value_builder *b, const char *k);
void vb_map_end(struct value_builder *b);
/* A URL value: path below base. */
void vb_url(struct value_builder *b, enum url_base base, const char *path, size_t len);
/* A reference: after vb_ref_begin write exactly two values, the raw value
 * and the short object (a map; for REF_FIELD any value), then vb_ref_end. */
void vb_ref_begin(struct value_builder *b, enum ref_kind kind, uint32_t target);
void vb_ref_end(struct value_builder *b);
/* The finished value (valid until the builder's buffer next grows). */
value_t vb_result(const struct value_builder *b);
void vb_reset(struct value_builder *b);
void vb_release(struct value_builder *b);

/* Rewrites the map that starts at byte offset `at` of the builder's
 * buffer (and runs to its end) as an array of its values, in order. */
void vb_map_to_array(struct value_builder *b, size_t at);

/* Compares two values for equality of type and contents (map keys in
 * order). */
bool value_equal(value_t a, value_t b);

#endif
