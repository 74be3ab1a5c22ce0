/*
 * index_internal: what the readers of site/ (index.c, entries.c, trees.c)
 * share while they build a site_index, besides files.h. Not for the rest
 * of cms-api.
 */
#ifndef CMS_API_SITE_INDEX_INTERNAL_H
#define CMS_API_SITE_INDEX_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "site/files.h"
#include "site/index.h"
#include "value.h"

/* Laravel's Str::singular for regular plurals ("posts" -> "post",
 * "categories" -> "category"); newly allocated (blueprints.c). */
char *singular_handle(const char *word);

/* Reads each collection's blueprints (blueprints.c). */
void collection_blueprints_load(struct site_index *idx);

/* Reads every collection's entries (entries.c); entries_free undoes it. */
void entries_load(struct site_index *idx);
void entries_free(struct site_index *idx);

/* Reads the collection trees and computes order, parents and URIs
 * (trees.c). */
void trees_load(struct site_index *idx);

/* Statamic's Str::slug (ASCII): newly allocated. */
char *index_slugify(const char *s);

/* Each appends its key and value to the open idx->extras map:
 * "taxonomies" (taxonomies.c), "navs" (navs.c), "globals" (globals.c),
 * "forms" and "users" (people.c). */
void taxonomies_load(struct site_index *idx);
void navs_load(struct site_index *idx);
void globals_load(struct site_index *idx);
void forms_load(struct site_index *idx);
void users_load(struct site_index *idx);
/* "assets" (assets.c). */
void assets_load(struct site_index *idx);

#endif
