/*
 * index_internal: what the readers of site/ (index.c, entries.c, trees.c)
 * share while they build a site_index. Not for the rest of cms-api.
 */
#ifndef CMS_API_SITE_INDEX_INTERNAL_H
#define CMS_API_SITE_INDEX_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "site/index.h"
#include "value.h"

/* Records an error (or a warning) about path (relative to the root). */
void index_problem(struct site_index *idx, bool warning, const char *path, int line,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

/* a + "/" + b, newly allocated. */
char *index_join(const char *a, const char *b);

/* Parses root/rel (YAML or front matter) and appends its map to out; a
 * failure is recorded as an error and returns -1. */
int index_read_file(struct site_index *idx, const char *rel, struct value_builder *out);

/* True when root/rel is a regular file. */
bool index_file_exists(const struct site_index *idx, const char *rel);

/* settings' `title`, else the handle with its first letter upper-cased
 * (Statamic's default); newly allocated. */
char *index_title(value_t settings, const char *handle);

/* For a folder of top-level {handle}.yaml files (collections-style):
 * writes key and a list into the open idx->extras map, calling load for
 * each readable file in name order to write its item. */
typedef void (*handle_loader)(struct site_index *idx, const char *handle, value_t settings);
void index_load_each(struct site_index *idx, const char *key, const char *folder,
                     handle_loader load);

/* The visible entries of dir ending in suffix (any when NULL), sorted; dot
 * files are invisible, as in Statamic. Free with index_free_names. */
char **index_list_dir(const char *dir, const char *suffix, size_t *count);
void index_free_names(char **names, size_t count);

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
