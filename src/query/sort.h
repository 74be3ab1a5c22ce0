/*
 * sort: the `sort` parameter of Statamic's API (statamic-api.md §8):
 * "one,-two,nested->field", '-' for descending, later keys breaking ties,
 * stable. Values are normalised as Statamic's DataCollection does (a list
 * or map by its first item, an empty one as null, a relation by the value
 * the content stores) and compare as its Comparator does: anything
 * against a boolean by truthiness (false before true), numbers and
 * numeric strings numerically, the rest as lower-cased text; null after
 * everything ascending (so first descending), as statamic-api.md §8 says.
 */
#ifndef CMS_API_SORT_H
#define CMS_API_SORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/config.h"
#include "lib/value.h"

struct sort_key {
	char **path; /* owned: the field split on "->" */
	size_t npath;
	bool descending;
};

struct sort_spec {
	struct sort_key *keys; /* owned */
	size_t n;
};

/* Parses a sort parameter (empty keys are skipped). Never fails. */
void sort_parse(const char *param, struct sort_spec *out);
void sort_free(struct sort_spec *spec);

/*
 * The keys of spec that items serve, as a view (its keys array its own,
 * each key's path spec's; sort_view_free it before sort_free(spec)):
 * every key but those whose field, the first part of the path, is one of
 * withheld ([api] excluded_keys). A sort by a key the answer never shows
 * would still tell how its values rank (a sort each way recovers the
 * order), so it is ignored, as Statamic ignores a sort by a field that no
 * item has: the order is that of the other keys, or unchanged.
 */
void sort_view_served(const struct sort_spec *spec, const struct strlist *withheld,
                      struct sort_spec *view);
void sort_view_free(struct sort_spec *view);

/* How many keys sort_parse would make of param, without making them. */
size_t sort_key_count(const char *param);

/* The ascending comparison of two values (<0, 0, >0), null last. */
int sort_compare(value_t a, value_t b);

/* Where an item's value for a key comes from. Each is asked for once, and
 * must stay valid until the sort returns. */
typedef value_t (*sort_value_fn)(void *ctx, uint32_t item, const struct sort_key *key);

/* Sorts items (item numbers) in place by spec, stably. */
void sort_items(uint32_t *items, size_t n, const struct sort_spec *spec, sort_value_fn get,
                void *ctx);

/* The same as far as the first `first` items go: they end up at the front
 * in the order sort_items gives them; the rest are left in no particular
 * order. A page needs only the items up to its end, and choosing those
 * costs n log first comparisons at worst where sorting everything costs
 * n log n. */
void sort_items_first(uint32_t *items, size_t n, size_t first, const struct sort_spec *spec,
                      sort_value_fn get, void *ctx);

/* sort_items_first asking get for each item's value of each key once,
 * not once per comparison (a computed value may be a formatted string). */
void sort_items_first_cached(uint32_t *items, size_t n, size_t first,
                             const struct sort_spec *spec, sort_value_fn get, void *get_ctx);

/* Makes items[i] what items[order[i]] was, for i < n (order holds
 * positions in items). */
void sort_reorder(uint32_t *items, const uint32_t *order, size_t n);

/* The value at key's path in a map (the usual sort_value_fn building
 * block). */
value_t sort_key_value(const struct sort_key *key, value_t map);

#endif
