/*
 * api/globals: GET /{route}/globals and /globals/{handle} (spec §4,
 * statamic-api.md §10.3, §11).
 *
 * A global set is its variables in one site (?site=, else the default
 * site), delivered through its blueprint when the index was built, each
 * variable missing there taken from the site's origin, keys sorted and
 * without the config's excluded_keys; then `handle` and `api_url`,
 * appended last as Statamic does (so excluded_keys never removes them).
 * A set that has no values in the site is not there: 404 on show, left
 * out of the index (Statamic answers 500). An unknown site is 404.
 * Filters have no effect here, as in Statamic; `fields` narrows one set
 * (spec §4: fields is honoured on single items) to the keys asked for, in
 * their order, a key the set lacks as null, but not the list, where
 * Statamic ignores it.
 */
#include "autoconfig.h"

#include <string.h>

#include "api/api.h"
#include "api/items.h"
#include "api/tags.h"
#include "api/listing.h"

/* ?site=, else the default site, into *site; returns 0, or 404 for a
 * site the index does not know. */
static int requested_site(struct api_ctx *ctx, const char **site)
{
	*site = request_param(ctx->req, "site");
	if (!*site)
		*site = snap_site_at(ctx->snap, 0).handle;
	else if (snap_site_find(ctx->snap, *site) == SNAP_NONE)
		return api_not_found(ctx);
	return 0;
}

/* The set's variables in the site, or missing when it has none there. */
static value_t variables_in(value_t set, const char *site)
{
	return value_map_getz(value_map_getz(set, "sites"), site);
}

static bool appended_key(const char *key, size_t len)
{
	return (len == 6 && memcmp(key, "handle", 6) == 0) ||
	       (len == 7 && memcmp(key, "api_url", 7) == 0);
}

static void write_set(struct api_ctx *ctx, struct jsonw *w, value_t set, value_t variables)
{
	const char *handle = value_str(value_map_getz(set, "handle"), NULL);
	jsonw_object_begin(w);
	struct value_iter it;
	value_iter_init(&it, variables);
	while (value_iter_next(&it)) {
		if (appended_key(it.key, it.key_len) ||
		    strlist_contains_counted(&ctx->cfg->excluded_keys, it.key, it.key_len))
			continue;
		jsonw_key(w, it.key, it.key_len);
		jsonw_value(w, it.value);
	}
	jsonw_keyz(w, "handle");
	jsonw_stringz(w, handle);
	jsonw_keyz(w, "api_url");
	api_write_item_url(w, "globals", handle);
	jsonw_object_end(w);
}

int api_globals_index(struct api_ctx *ctx)
{
	const char *site;
	int status = requested_site(ctx, &site);
	if (status != 0)
		return status;
	struct jsonw w;
	api_begin_data(ctx, &w);
	api_tag_extras_list(ctx, "globals");
	jsonw_array_begin(&w);
	struct value_iter it;
	value_iter_init(&it, snap_extras(ctx->snap, "globals"));
	while (value_iter_next(&it)) {
		const char *handle = value_str(value_map_getz(it.value, "handle"), NULL);
		value_t variables = variables_in(it.value, site);
		if (handle_enabled(ctx->cfg, RES_GLOBALS, handle) && !value_is_missing(variables)) {
			api_tag_extra(ctx, "globals", it.value);
			write_set(ctx, &w, it.value, variables);
		}
	}
	jsonw_array_end(&w);
	api_end_data(&w);
	return 0;
}

/* The set with only the keys asked for, in their order. */
static void write_set_fields(struct api_ctx *ctx, struct jsonw *w, value_t set, value_t variables,
                             const struct strlist *fields)
{
	const char *handle = value_str(value_map_getz(set, "handle"), NULL);
	jsonw_object_begin(w);
	for (size_t i = 0; i < fields->len; i++) {
		const char *key = fields->items[i];
		jsonw_keyz(w, key);
		if (strcmp(key, "handle") == 0)
			jsonw_stringz(w, handle);
		else if (strcmp(key, "api_url") == 0)
			api_write_item_url(w, "globals", handle);
		else if (strlist_contains(&ctx->cfg->excluded_keys, key))
			jsonw_null(w);
		else
			jsonw_value(w, value_map_getz(variables, key));
	}
	jsonw_object_end(w);
}

int api_globals_show(struct api_ctx *ctx)
{
	const char *site;
	int status = requested_site(ctx, &site);
	if (status != 0)
		return status;
	value_t set = snap_extras_find(ctx->snap, "globals", ctx->params[0]);
	value_t variables = variables_in(set, site);
	if (value_is_missing(variables))
		return api_not_found(ctx);
	struct strlist fields;
	listing_requested_fields(ctx->req, &fields);
	api_tag_extra(ctx, "globals", set);
	struct jsonw w;
	api_begin_data(ctx, &w);
	if (fields.len)
		write_set_fields(ctx, &w, set, variables, &fields);
	else
		write_set(ctx, &w, set, variables);
	api_end_data(&w);
	strlist_free(&fields);
	return 0;
}

bool api_write_global(struct api_ctx *ctx, struct jsonw *w, value_t set)
{
	value_t variables = variables_in(set, snap_site_at(ctx->snap, 0).handle);
	if (value_is_missing(variables))
		return false;
	api_tag_extra(ctx, "globals", set);
	write_set(ctx, w, set, variables);
	return true;
}
