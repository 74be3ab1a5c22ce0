/*
 * withheld: the keys cms-api never serves, whatever item they appear in
 * (spec §6, content-format.md §11): passwords and their hashes, remember
 * tokens, two-factor and passkey data, control-panel preferences. The
 * readers leave them out of every item's data as they read it (entries,
 * terms, global variables, navigation items, asset metadata; users keep
 * only their four public keys anyway), so no filter, sort or `fields=`
 * can reach them.
 */
#ifndef CMS_API_SITE_WITHHELD_H
#define CMS_API_SITE_WITHHELD_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/value.h"

/* Whether the top-level key key[0..len) is never served. */
bool withheld_key(const char *key, size_t len);

/* Appends map without its withheld keys (a non-map as it is). */
void withheld_copy(value_t map, struct value_builder *out);

#endif
