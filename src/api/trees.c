/*
 * api/trees: GET /{route}/collections/{c}/tree, /navs, /navs/{nav} and
 * /navs/{nav}/tree (statamic-api.md §9, spec §4). A node is {page, depth,
 * children}; depth starts at 1; max_depth cuts the children; a page is
 * the entry's item plus entry_id (and for navigations the item's own id,
 * title and data). Unpublished pages are left out with their children.
 */
#include "autoconfig.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "api/entries.h"
#include "strbuf.h"

struct tree_req {
	struct api_ctx *ctx;
	uint32_t site;
	long max_depth;          /* 0: unlimited */
	struct strlist fields;
};

/* ?site= (default: the first site) and ?max_depth=; 404 or 400 answered
 * here, returning -1. */
static int read_tree_params(struct api_ctx *ctx, struct tree_req *t)
{
	memset(t, 0, sizeof *t);
	t->ctx = ctx;
	const char *site = request_param(ctx->req, "site");
	t->site = site ? snap_site_find(ctx->snap, site) : 0;
	if (t->site == SNAP_NONE) {
		response_not_found(ctx->res);
		return -1;
	}
	const char *depth = request_param(ctx->req, "max_depth");
	if (depth && *depth) {
		char *end;
		long v = strtol(depth, &end, 10);
		if (!isdigit((unsigned char)*depth) || *end || v < 0) {
			char message[300];
			snprintf(message, sizeof message,
			         "The max_depth parameter must be a whole number, not \"%.200s\".", depth);
			response_error(ctx->res, 400, message);
			return -1;
		}
		t->max_depth = v;
	}
	entries_requested_fields(ctx->req, &t->fields);
	return 0;
}

static void begin_node(struct jsonw *w)
{
	jsonw_object_begin(w);
	jsonw_keyz(w, "page");
}

/* --- collection trees --- */

struct collection_tree {
	struct tree_req *t;
	struct entries_req *r;
	struct entry_filters *filters;
};

static void write_level(struct collection_tree *ct, struct jsonw *w, uint32_t parent, int depth)
{
	const struct snapshot *s = ct->t->ctx->snap;
	const struct snap_collection *c = &ct->r->collection;
	/* Siblings in tree order: the collection's entries of the site whose
	 * parent is this one, sorted by their order. */
	uint32_t *kids = xmalloc((c->nentries + 1) * sizeof *kids);
	size_t n = 0;
	for (uint32_t i = 0; i < c->nentries; i++) {
		struct snap_entry e = snap_entry_at(s, c->first_entry + i);
		if (e.site == ct->t->site && e.parent == parent && e.order > 0)
			kids[n++] = e.number;
	}
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && snap_entry_at(s, kids[j]).order < snap_entry_at(s, kids[j - 1]).order; j--) {
			uint32_t tmp = kids[j];
			kids[j] = kids[j - 1];
			kids[j - 1] = tmp;
		}
	jsonw_array_begin(w);
	for (size_t i = 0; i < n; i++) {
		struct snap_entry e = snap_entry_at(s, kids[i]);
		if (!entries_pass(ct->r, ct->filters, &e))
			continue;
		struct value_builder extras = VALUE_BUILDER_INIT, item = VALUE_BUILDER_INIT;
		vb_map_begin(&extras);
		vb_keyz(&extras, "entry_id");
		vb_strz(&extras, e.id);
		vb_map_end(&extras);
		entries_build_item(ct->r, &e, vb_result(&extras), &item);
		begin_node(w);
		entries_write_item(w, vb_result(&item), &ct->t->fields);
		jsonw_keyz(w, "depth");
		jsonw_int(w, depth);
		jsonw_keyz(w, "children");
		if (ct->t->max_depth && depth >= ct->t->max_depth) {
			jsonw_array_begin(w);
			jsonw_array_end(w);
		} else {
			write_level(ct, w, e.number, depth + 1);
		}
		jsonw_object_end(w);
		vb_release(&extras);
		vb_release(&item);
	}
	jsonw_array_end(w);
	free(kids);
}

/* A collection exists in its `sites` (multi-site), else the default. */
static bool collection_in_site(const struct api_ctx *ctx, const struct snap_collection *c,
                               uint32_t site)
{
	value_t sites = value_map_getz(c->settings, "sites");
	if (!snap_multisite(ctx->snap) || value_count(sites) == 0)
		return site == 0;
	struct value_iter it;
	value_iter_init(&it, sites);
	while (value_iter_next(&it))
		if (strcmp(value_str(it.value, NULL), snap_site_at(ctx->snap, site).handle) == 0)
			return true;
	return false;
}

void api_collection_tree(struct api_ctx *ctx)
{
	struct entries_req r;
	struct entry_filters filters = {0};
	struct tree_req t;
	if (entries_open(ctx, &r, ctx->params[0]) != 0)
		return;
	if (!r.collection.structured) {
		response_not_found(ctx->res);
	} else if (read_tree_params(ctx, &t) == 0) {
		if (!collection_in_site(ctx, &r.collection, t.site)) {
			response_not_found(ctx->res);
		} else if (entries_check_allowed(&r) == 0 && entries_read_filters(&r, &filters) == 0) {
			struct collection_tree ct = {&t, &r, &filters};
			struct jsonw w;
			api_begin_data(ctx, &w);
			jsonw_set_bases(&w, ctx->base, ctx->api_base);
			write_level(&ct, &w, SNAP_NONE, 1);
			api_end_data(&w);
		}
		strlist_free(&t.fields);
	}
	entries_free_filters(&filters);
	entries_close(&r);
}

/* --- navigations --- */

static void write_nav(struct api_ctx *ctx, struct jsonw *w, value_t nav)
{
	const char *handle = value_str(value_map_getz(nav, "handle"), NULL);
	jsonw_object_begin(w);
	jsonw_keyz(w, "handle");
	jsonw_stringz(w, handle);
	jsonw_keyz(w, "title");
	jsonw_value(w, value_map_getz(nav, "title"));
	jsonw_keyz(w, "max_depth");
	jsonw_value(w, value_map_getz(nav, "max_depth"));
	jsonw_keyz(w, "expects_root");
	jsonw_value(w, value_map_getz(nav, "expects_root"));
	jsonw_keyz(w, "api_url");
	struct strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "navs/%s", handle);
	api_write_url(ctx, w, path.ptr);
	strbuf_release(&path);
	jsonw_object_end(w);
}

void api_navs_index(struct api_ctx *ctx)
{
	if (!resource_enabled(ctx->cfg, RES_NAVS)) {
		response_not_found(ctx->res);
		return;
	}
	struct jsonw w;
	api_begin_data(ctx, &w);
	jsonw_array_begin(&w);
	struct value_iter it;
	value_iter_init(&it, snap_extras(ctx->snap, "navs"));
	while (value_iter_next(&it))
		if (handle_enabled(ctx->cfg, RES_NAVS, value_str(value_map_getz(it.value, "handle"), NULL)))
			write_nav(ctx, &w, it.value);
	jsonw_array_end(&w);
	api_end_data(&w);
}

static value_t open_nav(struct api_ctx *ctx)
{
	value_t nav = snap_extras_find(ctx->snap, "navs", ctx->params[0]);
	if (value_is_missing(nav) || !handle_enabled(ctx->cfg, RES_NAVS, ctx->params[0]))
		response_not_found(ctx->res);
	return nav;
}

void api_navs_show(struct api_ctx *ctx)
{
	value_t nav = open_nav(ctx);
	if (value_is_missing(nav))
		return;
	struct jsonw w;
	api_begin_data(ctx, &w);
	write_nav(ctx, &w, nav);
	api_end_data(&w);
}

/* The item's own keys for its page: id, title (when it sets one), data. */
static void item_extras(value_t item, const char *entry_id, struct value_builder *out)
{
	vb_map_begin(out);
	struct value_iter it;
	value_iter_init(&it, value_map_getz(item, "data"));
	while (value_iter_next(&it)) {
		vb_key(out, it.key, it.key_len);
		vb_value(out, it.value);
	}
	vb_keyz(out, "entry_id");
	if (entry_id)
		vb_strz(out, entry_id);
	else
		vb_null(out);
	vb_keyz(out, "id");
	vb_value(out, value_map_getz(item, "id"));
	if (value_type(value_map_getz(item, "title")) == VALUE_STRING) {
		vb_keyz(out, "title");
		vb_value(out, value_map_getz(item, "title"));
	}
	vb_map_end(out);
}

/* A link or heading item: {entry_id, id, permalink, title, uri, url} and
 * its data, sorted. */
static void link_page(value_t item, struct value_builder *out)
{
	struct value_builder extras = VALUE_BUILDER_INIT;
	item_extras(item, NULL, &extras);
	value_t url = value_map_getz(item, "url");
	struct value_builder all = VALUE_BUILDER_INIT;
	vb_map_begin(&all);
	struct value_iter it;
	value_iter_init(&it, vb_result(&extras));
	while (value_iter_next(&it)) {
		vb_key(&all, it.key, it.key_len);
		vb_value(&all, it.value);
	}
	if (value_is_missing(value_map_getz(vb_result(&extras), "title"))) {
		vb_keyz(&all, "title");
		vb_null(&all);
	}
	vb_keyz(&all, "url");
	vb_value(&all, url);
	vb_keyz(&all, "uri");
	vb_value(&all, url);
	vb_keyz(&all, "permalink");
	const char *u = value_str(url, NULL);
	if (u[0] == '/') {
		struct strbuf marked = STRBUF_INIT;
		strbuf_addch(&marked, '\x01');
		strbuf_addstr(&marked, u);
		vb_str(&all, marked.ptr, marked.len);
		strbuf_release(&marked);
	} else {
		vb_value(&all, url);
	}
	vb_map_end(&all);
	/* Sort the keys the way every page has them. */
	const char *order[32];
	size_t n = 0;
	value_iter_init(&it, vb_result(&all));
	while (value_iter_next(&it) && n < 32)
		order[n++] = it.key;
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && strcmp(order[j], order[j - 1]) < 0; j--) {
			const char *tmp = order[j];
			order[j] = order[j - 1];
			order[j - 1] = tmp;
		}
	vb_map_begin(out);
	for (size_t i = 0; i < n; i++) {
		vb_keyz(out, order[i]);
		vb_value(out, value_map_getz(vb_result(&all), order[i]));
	}
	vb_map_end(out);
	vb_release(&all);
	vb_release(&extras);
}

/* An entry item's page, or false when it is missing or not published. */
static bool entry_page(struct tree_req *t, value_t item, struct value_builder *out)
{
	const struct snapshot *s = t->ctx->snap;
	uint32_t n = snap_entry_find(s, value_str(value_map_getz(item, "entry"), NULL));
	if (n == SNAP_NONE)
		return false;
	struct snap_entry e = snap_entry_at(s, n);
	struct entries_req r;
	entries_attach(t->ctx, &r, e.collection);
	bool shown = entries_status(&r, &e) == ENTRY_PUBLISHED;
	if (shown) {
		struct value_builder extras = VALUE_BUILDER_INIT;
		item_extras(item, e.id, &extras);
		entries_build_item(&r, &e, vb_result(&extras), out);
		vb_release(&extras);
	}
	entries_close(&r);
	return shown;
}

static void write_nav_level(struct tree_req *t, struct jsonw *w, value_t items, int depth)
{
	jsonw_array_begin(w);
	struct value_iter it;
	value_iter_init(&it, items);
	while (value_iter_next(&it)) {
		struct value_builder page = VALUE_BUILDER_INIT;
		bool linked = !value_is_missing(value_map_getz(it.value, "entry"));
		if (linked ? entry_page(t, it.value, &page) : (link_page(it.value, &page), true)) {
			begin_node(w);
			entries_write_item(w, vb_result(&page), &t->fields);
			jsonw_keyz(w, "depth");
			jsonw_int(w, depth);
			jsonw_keyz(w, "children");
			if (t->max_depth && depth >= t->max_depth) {
				jsonw_array_begin(w);
				jsonw_array_end(w);
			} else {
				write_nav_level(t, w, value_map_getz(it.value, "children"), depth + 1);
			}
			jsonw_object_end(w);
		}
		vb_release(&page);
	}
	jsonw_array_end(w);
}

void api_navs_tree(struct api_ctx *ctx)
{
	value_t nav = open_nav(ctx);
	struct tree_req t;
	if (value_is_missing(nav) || read_tree_params(ctx, &t) != 0)
		return;
	value_t tree = value_map_getz(value_map_getz(nav, "trees"), snap_site_at(ctx->snap, t.site).handle);
	if (value_is_missing(tree)) {
		response_not_found(ctx->res);
	} else {
		struct jsonw w;
		api_begin_data(ctx, &w);
		jsonw_set_bases(&w, ctx->base, ctx->api_base);
		write_nav_level(&t, &w, tree, 1);
		api_end_data(&w);
	}
	strlist_free(&t.fields);
}
