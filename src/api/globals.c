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
#include "api/output.h"
#include "lib/strbuf.h"

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

/* The set as the API shows it: its variables but the appended and the
 * excluded keys, then handle and api_url. */
static void build_set(const struct api_ctx *ctx, value_t set, value_t variables,
                      struct value_builder *out)
{
	const char *handle = value_str(value_map_getz(set, "handle"), NULL);
	struct value_iter it;
	vb_map_begin(out);
	value_iter_init(&it, variables);
	while (value_iter_next(&it)) {
		if (appended_key(it.key, it.key_len) ||
		    strlist_contains_counted(&ctx->cfg->excluded_keys, it.key, it.key_len))
			continue;
		vb_key(out, it.key, it.key_len);
		vb_value(out, it.value);
	}
	vb_keyz(out, "handle");
	vb_strz(out, handle);
	struct strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "globals/%s", handle);
	vb_keyz(out, "api_url");
	vb_url(out, URL_API, path.ptr, path.len);
	strbuf_release(&path);
	vb_map_end(out);
}

/* The set through what the request asks more of it (api/output.h), with
 * fields when it honours them: whether it asks anything. */
static bool write_output(struct api_ctx *ctx, const struct item_out *out, struct jsonw *w,
                         value_t set, value_t variables)
{
	const char *handle = value_str(value_map_getz(set, "handle"), NULL);
	if (api_output_plain(ctx, out, handle))
		return false;
	struct value_builder item = VALUE_BUILDER_INIT;
	build_set(ctx, set, variables, &item);
	api_output_write(ctx, out, handle, w, vb_result(&item));
	vb_release(&item);
	return true;
}

/* The set as build_set makes it, written. */
static void write_set(struct api_ctx *ctx, struct jsonw *w, value_t set, value_t variables)
{
	struct value_builder item = VALUE_BUILDER_INIT;
	build_set(ctx, set, variables, &item);
	jsonw_value(w, vb_result(&item));
	vb_release(&item);
}

int api_globals_index(struct api_ctx *ctx)
{
	const char *site;
	struct item_out out;
	int status = requested_site(ctx, &site);
	if (status == 0)
		status = api_output_read(ctx, SHAPE_GLOBALS, &out);
	if (status != 0)
		return status;
	/* The list ignores fields, as Statamic's does. */
	strlist_free(&out.fields);
	out.fields_dotted = false;
	struct jsonw w;
	api_begin_data(ctx, &w);
	api_tag_extras_list(ctx, "globals");
	jsonw_array_begin(&w);
	struct value_iter it;
	value_iter_init(&it, snap_extras(ctx->snap, "globals"));
	while (value_iter_next(&it)) {
		const char *handle = value_str(value_map_getz(it.value, "handle"), NULL);
		value_t variables = variables_in(it.value, site);
		if (!handle_enabled(ctx->cfg, RES_GLOBALS, handle) || value_is_missing(variables))
			continue;
		api_tag_extra(ctx, "globals", it.value);
		if (!write_output(ctx, &out, &w, it.value, variables))
			write_set(ctx, &w, it.value, variables);
	}
	jsonw_array_end(&w);
	api_end_data(&w);
	api_output_free(&out);
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
	struct item_out out;
	status = api_output_read(ctx, SHAPE_GLOBALS, &out);
	if (status != 0)
		return status;
	api_tag_extra(ctx, "globals", set);
	struct jsonw w;
	api_begin_data(ctx, &w);
	if (!write_output(ctx, &out, &w, set, variables)) {
		if (out.fields.len)
			write_set_fields(ctx, &w, set, variables, &out.fields);
		else
			write_set(ctx, &w, set, variables);
	}
	api_end_data(&w);
	api_output_free(&out);
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
