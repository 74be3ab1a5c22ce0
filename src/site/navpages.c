/* navpages: navigation tree pages augmented; see navpages.h. */
#include "autoconfig.h"

#include "site/navpages.h"

#include <stdlib.h>
#include <string.h>

#include "lib/php.h"
#include "site/blueprints.h"
#include "site/entries.h"

static void add_key(char ***keys, size_t *n, const char *key, size_t len)
{
	for (size_t i = 0; i < *n; i++)
		if (strlen((*keys)[i]) == len && memcmp((*keys)[i], key, len) == 0)
			return;
	*keys = xrealloc(*keys, (*n + 1) * sizeof **keys);
	(*keys)[(*n)++] = xstrndup(key, len);
}

static int compare_keys(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The keys of a page's values: its data's, and for an entry's page every
 * field of the navigation's blueprint; sorted, owned by the caller. */
static char **page_keys(value_t data, value_t fields, bool linked, size_t *n)
{
	char **keys = NULL;
	struct value_iter it;
	*n = 0;
	value_iter_init(&it, data);
	while (value_iter_next(&it))
		add_key(&keys, n, it.key, it.key_len);
	value_iter_init(&it, linked ? fields : VALUE_MISSING);
	while (value_iter_next(&it))
		add_key(&keys, n, it.key, it.key_len);
	if (*n > 1)
		qsort(keys, *n, sizeof *keys, compare_keys);
	return keys;
}

/* The page's values (Statamic's Page::value and its blueprint fields): the
 * item's own value when truthy, else the entry's; through the
 * navigation's field, else the entry blueprint's. */
static void page_values(const struct augment_ctx *ctx, value_t fields, value_t item,
                        const struct entry *e, struct value_builder *out)
{
	value_t data = value_map_getz(item, "data");
	const struct blueprint *bp = e ? entry_blueprint(ctx->idx, e) : NULL;
	size_t n;
	char **keys = page_keys(data, fields, e != NULL, &n);
	vb_map_begin(out);
	for (size_t i = 0; i < n; i++) {
		value_t v = value_map_getz(data, keys[i]);
		value_t field = value_map_getz(fields, keys[i]);
		if (e && !php_truthy(v))
			v = entry_field(ctx->idx, e, keys[i]);
		if (bp && value_is_missing(field))
			field = value_map_getz(vb_result(&bp->fields), keys[i]);
		vb_keyz(out, keys[i]);
		augment_item_field(ctx, keys[i], v, field, out);
		free(keys[i]);
	}
	vb_map_end(out);
	free(keys);
}

static void augment_items(const struct augment_ctx *ctx, value_t fields, value_t items,
                          struct value_builder *out);

/* An item as written, its data replaced by its page's values. */
static void augment_item(const struct augment_ctx *site_ctx, value_t fields, value_t item,
                         struct value_builder *out)
{
	const char *id = value_str(value_map_getz(item, "entry"), NULL);
	const struct entry *e = *id ? site_index_entry(site_ctx->idx, id) : NULL;
	struct augment_ctx ctx = *site_ctx;
	ctx.entry = e;
	bool has_data = false;
	struct value_iter it;
	vb_map_begin(out);
	value_iter_init(&it, item);
	while (value_iter_next(&it)) {
		vb_key(out, it.key, it.key_len);
		if (it.key_len == 4 && memcmp(it.key, "data", 4) == 0) {
			page_values(&ctx, fields, item, e, out);
			has_data = true;
		} else if (it.key_len == 8 && memcmp(it.key, "children", 8) == 0) {
			augment_items(site_ctx, fields, it.value, out);
		} else {
			vb_value(out, it.value);
		}
	}
	if (!has_data && e) {
		vb_keyz(out, "data");
		page_values(&ctx, fields, item, e, out);
	}
	vb_map_end(out);
}

static void augment_items(const struct augment_ctx *ctx, value_t fields, value_t items,
                          struct value_builder *out)
{
	if (value_type(items) != VALUE_ARRAY) {
		vb_value(out, items);
		return;
	}
	struct value_iter it;
	vb_array_begin(out);
	value_iter_init(&it, items);
	while (value_iter_next(&it)) {
		if (value_type(it.value) == VALUE_MAP)
			augment_item(ctx, fields, it.value, out);
		else
			vb_value(out, it.value);
	}
	vb_array_end(out);
}

void navpages_augment_trees(const struct augment_ctx *ctx, value_t fields, value_t trees,
                            struct value_builder *out)
{
	struct value_iter it;
	vb_map_begin(out);
	value_iter_init(&it, trees);
	while (value_iter_next(&it)) {
		char *site = xstrndup(it.key, it.key_len);
		struct augment_ctx site_ctx = augment_in_site(ctx, site);
		vb_key(out, it.key, it.key_len);
		augment_items(&site_ctx, fields, it.value, out);
		free(site);
	}
	vb_map_end(out);
}
