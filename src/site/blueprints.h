/*
 * blueprints: the fields a blueprint defines (content-format.md §13), in
 * all three layouts (v4+ tabs with sections, v3 sections, a bare fields
 * list), with fieldset imports (with prefix) and field references
 * ("fieldset.field", with config overrides) resolved, also in the field
 * lists nested inside fields (grid and group `fields`, replicator and
 * Bard `sets`), which become [{handle, field}] lists of inline configs.
 */
#ifndef CMS_API_BLUEPRINTS_H
#define CMS_API_BLUEPRINTS_H

#include "lib/value.h"
#include "site/model.h"

/* Appends a map handle -> field config, in blueprint order, for the
 * blueprint file at rel (relative to the site root) to out. A missing file
 * gives an empty map; unreadable files and missing fieldsets are recorded
 * as problems. Returns 0 when the file exists, -1 otherwise. */
int blueprint_fields(struct site_index *idx, const char *rel, struct value_builder *out);

/* Frees what a blueprint holds (not the struct). */
void blueprint_release(struct blueprint *bp);

/* Appends a taxonomy's term blueprints, {handle: {title, fields}}, from
 * resources/blueprints/taxonomies/{taxonomy} (in file order: the first is
 * the default), or the fallback blueprint after its title when it has
 * none. */
void term_blueprints(struct site_index *idx, const char *taxonomy, const char *title,
                     struct value_builder *out);

/* Reads each collection's blueprints (the .yaml files of
 * resources/blueprints/collections/{handle}) into its blueprints, sorted
 * for the default choice: by `order`, then title; a collection without
 * any gets the fallback blueprint. Needs the collections read. */
void collection_blueprints_load(struct site_index *idx);

/* The blueprint an entry uses: its own or its origin's `blueprint` (the
 * exact handle, then its singular), else the collection's first visible
 * one (the fallback when it has none of its own); NULL only for a
 * collection whose blueprints were never loaded. */
const struct blueprint *entry_blueprint(const struct site_index *idx, const struct entry *e);

/* Laravel's Str::singular for the regular English plurals handles and
 * titles use ("posts" -> "post", "categories" -> "category", "Legacy
 * Charts" -> "Legacy Chart"); newly allocated. */
char *singular_handle(const char *word);

/* A blueprint's title as Statamic gives it: its `title`, else its handle
 * humanised ("social_images" -> "Social images"); newly allocated. */
char *blueprint_title(value_t blueprint, const char *handle);

/* Appends the fields of Statamic's fallback blueprint, handle -> config:
 * resources/blueprints/default.yaml's when the site has one, else one
 * markdown `content`. */
void default_blueprint_fields(struct site_index *idx, struct value_builder *out);

/* The blueprint of a collection or taxonomy that has none of its own
 * (Statamic's fallbackEntryBlueprint and fallbackTermBlueprint): handle
 * and title the singulars of the collection's (taxonomy's), the default
 * blueprint's fields. The caller owns what out holds. */
void fallback_blueprint(struct site_index *idx, const char *handle, const char *title,
                        struct blueprint *out);

#endif
