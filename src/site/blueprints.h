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

/* Reads each collection's blueprints (the .yaml files of
 * resources/blueprints/collections/{handle}) into its blueprints, sorted
 * for the default choice: by `order`, then title. Needs the collections
 * read. */
void collection_blueprints_load(struct site_index *idx);

/* The blueprint an entry uses: its own or its origin's `blueprint` (the
 * exact handle, then its singular), else the collection's first visible
 * one; NULL when the collection has none (Statamic's built-in fallback:
 * a markdown `content`). */
const struct blueprint *entry_blueprint(const struct site_index *idx, const struct entry *e);

/* Laravel's Str::singular for the regular English plurals blueprints use
 * ("posts" -> "post", "categories" -> "category"); newly allocated. */
char *singular_handle(const char *word);

#endif
