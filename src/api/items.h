/*
 * api/items: one item of each kind written whole, as its own show
 * endpoint writes it (tags included, api/tags.h), for an answer that
 * gathers items of every kind: the sync feed (api/sync.c). Each is the
 * writer of its resource's file.
 */
#ifndef CMS_API_API_ITEMS_H
#define CMS_API_API_ITEMS_H

#include <stdint.h>

#include "api/api.h"

/* Entry n (api/entries.c). */
void api_write_entry(struct api_ctx *ctx, struct jsonw *w, uint32_t n);

/* A term of the taxonomy with that handle (api/taxonomies.c). */
void api_write_term(struct api_ctx *ctx, struct jsonw *w, const char *taxonomy, value_t term);

/* A global set in the default site (api/globals.c); false, writing
 * nothing, when the set has no values there. */
bool api_write_global(struct api_ctx *ctx, struct jsonw *w, value_t set);

/* A navigation (api/trees.c). */
void api_write_nav(struct api_ctx *ctx, struct jsonw *w, value_t nav);

/* A file of the container with that handle (api/assets.c). */
void api_write_asset(struct api_ctx *ctx, struct jsonw *w, const char *container, value_t file);

#endif
