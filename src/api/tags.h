/*
 * api/tags: the cache tags of an answer (site/tags.h), added by the
 * handlers as they write what the answer shows: each entry (its file,
 * its origin's, its ancestors' and its collection's mount's, whose slugs
 * make its url), each term, global set, navigation, form and asset, and
 * everything their values relate to (references, value.h); a list adds
 * its resource's list tag, which any new item of it purges. The app puts
 * them in the [edge] tags_header (edge/edge.h). With tags off ctx->tags
 * is NULL and every call does nothing.
 */
#ifndef CMS_API_API_TAGS_H
#define CMS_API_API_TAGS_H

#include <stdint.h>

#include "api/api.h"
#include "site/tags.h"

/* A tag of kind for a and b (tag_name's). */
void api_tag(struct api_ctx *ctx, enum tag_kind kind, const char *a, const char *b);

/* Entry n, as above, and what its data relates to. */
void api_tag_entry(struct api_ctx *ctx, uint32_t n);

/* Whatever the references inside v point at. */
void api_tag_refs(struct api_ctx *ctx, value_t v);

/* The asset at path in container (a handle of snap_extras "assets"). */
void api_tag_asset(struct api_ctx *ctx, const char *container, const char *path);

/* An item of one of the smaller kinds (snap_extras: "navs", "forms",
 * "globals"; the rest have no tag of their own) and its references. */
void api_tag_extra(struct api_ctx *ctx, const char *kind, value_t item);

/* The list of a smaller kind's items. */
void api_tag_extras_list(struct api_ctx *ctx, const char *kind);

#endif
