/*
 * api/items: one item of each kind that a relation names (value.h's
 * references), found by what the reference holds and built as a value
 * the way its own endpoint writes it, for the handlers of other kinds: a
 * dotted filter reads a related item's keys (filter.h relation_reader), an
 * include writes the related item whole (api/relations.c).
 *
 * Entries have theirs in query/entries.h (entries_value, entries_build_item);
 * these are the others', each in its handler's file.
 */
#ifndef CMS_API_ITEMS_H
#define CMS_API_ITEMS_H

#include "api/api.h"

/* api/taxonomies.c. The term a reference's id ("tags::news") names, its
 * localization in site if it has one, else the default site's, else any;
 * missing when there is none. *taxonomy is its taxonomy's handle (in the
 * snapshot). */
value_t api_term_find(const struct api_ctx *ctx, const char *id, uint32_t site,
                      const char **taxonomy);
/* The term's value of key as a filter of its list reads it (missing for
 * the keys never shown and those it lacks); scratch holds what is made. */
value_t api_term_value(struct api_ctx *ctx, const char *taxonomy, value_t term, const char *key,
                       struct value_builder *scratch);
/* The whole term, as /taxonomies/{t}/terms/{slug} writes it. */
void api_term_build(struct api_ctx *ctx, const char *taxonomy, value_t term,
                    struct value_builder *out);

/* api/users.c. The user whose id is id, or missing. */
value_t api_user_find(const struct api_ctx *ctx, const char *id);
value_t api_user_value(value_t user, const char *key, struct value_builder *scratch);
/* The whole user: the five keys users show, without the excluded ones. */
void api_user_build(const struct api_ctx *ctx, value_t user, struct value_builder *out);

/* api/assets.c. The asset "container::path" names, or missing; *container
 * is its container. */
value_t api_asset_find(const struct api_ctx *ctx, const char *id, value_t *container);
value_t api_asset_value(struct api_ctx *ctx, value_t container, value_t file, const char *key,
                        struct value_builder *scratch);
/* The whole asset, as /assets/{c}/{path} writes it. */
void api_asset_build(struct api_ctx *ctx, value_t container, value_t file,
                     struct value_builder *out);

#endif
