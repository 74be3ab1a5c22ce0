/*
 * api/output: an item on its way to the JSON, for the requests and the
 * configs that ask more of it than Statamic's API does, in this order:
 *
 *   1. include=author,categories or depth=N (at most 3): the related
 *      items written whole instead of as short objects, their own
 *      relations as deep as asked, an item already on the way down left
 *      short (a cycle cut) (api/expand.c);
 *   2. the INI's shape of the item's kind: [shape.<type>.<handle>], else
 *      [shape.<type>] (api/shape.c);
 *   3. the shape plug-in, [shape] plugin (api/shape_plugin.c);
 *   4. fields=, whose dotted names select inside relations and maps
 *      (fields=title,author.name).
 *
 * An item none of that touches (api_output_plain) is written as its
 * handler always wrote it, byte for byte and as fast.
 */
#ifndef CMS_API_OUTPUT_H
#define CMS_API_OUTPUT_H

#include <stdbool.h>

#include "api/api.h"

/* include= and depth=, as a tree of the relations to write whole. */
struct include {
	char *name;             /* owned; NULL at the root */
	struct include *kids;   /* owned */
	size_t nkids;
	int all;                /* depth=: every relation this many levels down */
};

/* The deepest include=a.b.c and depth= there are. */
#define INCLUDE_MAX_DEPTH 3

/* What a request asks of every item it writes. */
struct item_out {
	enum shape_type type;
	struct strlist fields;    /* owned: fields= and fields[]=, as asked */
	bool fields_dotted;       /* one of them names a key inside another */
	struct include *include;  /* owned; NULL: neither include= nor depth= */
};

/* Reads what the request asks of its items of type: returns 0, or 400
 * for an include= or depth= out of bounds (o then holds nothing). */
int api_output_read(struct api_ctx *ctx, enum shape_type type, struct item_out *o);
void api_output_free(struct item_out *o);

/* Whether the items of handle (NULL for users) go out as their handler
 * writes them, with o->fields as every handler reads fields. */
bool api_output_plain(const struct api_ctx *ctx, const struct item_out *o, const char *handle);

/* Writes item (a map as the handler built it, references and all), an
 * item of handle, through steps 1 to 4. */
void api_output_write(struct api_ctx *ctx, const struct item_out *o, const char *handle,
                      struct jsonw *w, value_t item);

/* api/shape.c: the INI's shape s applied to item (step 2), into out:
 * the keys it keeps, in its order, renamed, a relation's or a map's own
 * keys narrowed; never a key excluded_keys names. */
void api_shape_apply(const struct api_ctx *ctx, const struct shape_def *s, value_t item,
                     struct value_builder *out);

/* v narrowed to paths ("name", "avatar.url"), the dotted names of keys
 * inside it: a map keeps those keys, in their order (null when missing),
 * a list narrows each of its items, a relation its related items (what
 * api_write_ref shows of them); anything else is itself. Appended to out. */
void api_narrow(const struct api_ctx *ctx, value_t v, const struct strlist *paths,
                struct value_builder *out);

/* api/expand.c: item (a map, of type) with the relations inc names
 * written whole (step 1), into out; the item itself (its "id") is never
 * written again below itself. */
void api_expand(struct api_ctx *ctx, const struct include *inc, enum shape_type type,
                value_t item, struct value_builder *out);

#endif
