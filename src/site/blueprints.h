/*
 * blueprints: the fields a blueprint defines (content-format.md §13), in
 * all three layouts (v4+ tabs with sections, v3 sections, a bare fields
 * list), with fieldset imports (with prefix) and field references
 * ("fieldset.field", with config overrides) resolved.
 */
#ifndef CMS_API_BLUEPRINTS_H
#define CMS_API_BLUEPRINTS_H

#include "site/index.h"
#include "value.h"

/* Appends a map handle -> field config, in blueprint order, for the
 * blueprint file at rel (relative to the site root) to out. A missing file
 * gives an empty map; unreadable files and missing fieldsets are recorded
 * as problems. Returns 0 when the file exists, -1 otherwise. */
int blueprint_fields(struct site_index *idx, const char *rel, struct value_builder *out);

#endif
