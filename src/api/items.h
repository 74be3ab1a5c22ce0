/*
 * api/items: one item of each kind, for the handlers of other kinds, as
 * its own endpoint makes it, in two uses:
 *
 * - found by what a relation's reference holds (value.h's references)
 *   and built as a value: a dotted filter reads a related item's keys
 *   (filter.h relation_reader), an include writes the related item whole
 *   (api/relations.c). Entries have theirs in query/entries.h
 *   (entries_value, entries_build_item).
 * - written whole, as its own show endpoint writes it (tags included,
 *   api/tags.h), for an answer that gathers items of every kind: the
 *   sync feed (api/sync.c).
 *
 * Each is in its handler's file.
 */
#ifndef CMS_API_API_ITEMS_H
#define CMS_API_API_ITEMS_H

#include <stdint.h>

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
/* A term of the taxonomy with that handle, written with its tags. */
void api_write_term(struct api_ctx *ctx, struct jsonw *w, const char *taxonomy, value_t term);

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
/* A file of the container with that handle, written with its tags. */
void api_write_asset(struct api_ctx *ctx, struct jsonw *w, const char *container, value_t file);

/* Entry n (api/entries.c), written with its tags. */
void api_write_entry(struct api_ctx *ctx, struct jsonw *w, uint32_t n);

/* A global set in the default site (api/globals.c); false, writing
 * nothing, when the set has no values there. */
bool api_write_global(struct api_ctx *ctx, struct jsonw *w, value_t set);

/* A navigation (api/trees.c). */
void api_write_nav(struct api_ctx *ctx, struct jsonw *w, value_t nav);

#endif
