/*
 * api/trees: GET /{route}/collections/{c}/tree, /navs, /navs/{nav} and
 * /navs/{nav}/tree (statamic-api.md §9, spec §4). A node is {page, depth,
 * children}; depth starts at 1; max_depth cuts the children; a page is
 * the entry's item plus entry_id (and for navigations the item's own id,
 * title and data). Unpublished pages are left out with their children.
 */
#include "autoconfig.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "api/items.h"
#include "api/tags.h"
#include "api/entries.h"
#include "api/listing.h"
#include "api/output.h"
#include "lib/strbuf.h"
#include "site/augment.h"

/* Deeper levels are cut (their pages shown without children): the JSON
 * writer's nesting, three containers a level, stays within its limit. */
#define TREE_MAX_DEPTH 300

struct tree_req {
	struct api_ctx *ctx;
	uint32_t site;
	long max_depth;          /* 0: unlimited */
	bool ancestors;          /* keep=ancestors: a page a filter keeps keeps its ancestors */
	struct listing_filters *nav_filters; /* owned: a navigation's, with keep=ancestors */
	struct nav_kept *kept;   /* owned: the navigation items decided, by address */
	size_t nkept;
	struct item_out out;     /* what the request asks of each page: fields, ... */
	const char *handle;      /* the collection's or navigation's: its pages' shape */
};

/* True when depth is as deep as the tree goes: its children are []. */
static bool at_depth_limit(const struct tree_req *t, int depth)
{
	return (t->max_depth && depth >= t->max_depth) || depth >= TREE_MAX_DEPTH;
}

/* ?site= (default: the first site) and ?max_depth= (a positive whole
 * number), and what is asked of each page (api/output.h); returns 0, or
 * 404 for an unknown site, 400 for a bad depth (t then holds nothing to
 * free). */
static int read_tree_params(struct api_ctx *ctx, const char *handle, struct tree_req *t)
{
	memset(t, 0, sizeof *t);
	t->ctx = ctx;
	t->handle = handle;
	const char *site = request_param(ctx->req, "site");
	t->site = site ? snap_site_find(ctx->snap, site) : 0;
	if (t->site == SNAP_NONE)
		return api_not_found(ctx);
	const char *depth = request_param(ctx->req, "max_depth");
	if (depth) {
		char *end;
		long v = isdigit((unsigned char)*depth) ? strtol(depth, &end, 10) : 0;
		if (v < 1 || *end)
			return api_fail(ctx, 400,
			                "The max_depth parameter must be a whole number from 1, not \"%.200s\".",
			                depth);
		t->max_depth = v;
	}
	const char *keep = request_param(ctx->req, "keep");
	if (keep && strcmp(keep, "ancestors") != 0)
		return api_fail(ctx, 400, "The keep parameter must be \"ancestors\", not \"%.200s\".",
		                keep);
	t->ancestors = keep != NULL;
	return api_output_read(ctx, SHAPE_PAGES, &t->out);
}

static void begin_node(struct jsonw *w)
{
	jsonw_object_begin(w);
	jsonw_keyz(w, "page");
}

static void empty_children(struct jsonw *w)
{
	jsonw_array_begin(w);
	jsonw_array_end(w);
}

/* PHP's (array) cast: null is [], a list or a map stays, anything else
 * is a list of it. */
static void as_array(value_t v, struct value_builder *out)
{
	if (value_type(v) == VALUE_ARRAY || value_type(v) == VALUE_MAP) {
		vb_value(out, v);
		return;
	}
	vb_array_begin(out);
	if (!value_is_null(v))
		vb_value(out, v);
	vb_array_end(out);
}

/*
 * Writes a page as a tree shows it, with the request's fields: Statamic's
 * page asks for no relations, so each relationship field (a REF_FIELD,
 * value.h) is its stored value as a list rather than the objects an item's
 * own endpoint shows, and `parent` is not an API key of a page.
 */
static void write_page(struct tree_req *t, struct jsonw *w, value_t item)
{
	struct value_builder page = VALUE_BUILDER_INIT;
	struct value_iter it;
	vb_map_begin(&page);
	value_iter_init(&it, item);
	while (value_iter_next(&it)) {
		if (it.key_len == 6 && memcmp(it.key, "parent", 6) == 0)
			continue;
		vb_key(&page, it.key, it.key_len);
		if (value_ref_kind(it.value) == REF_FIELD)
			as_array(value_ref_raw(it.value), &page);
		else
			vb_value(&page, it.value);
	}
	vb_map_end(&page);
	begin_node(w);
	if (api_output_plain(t->ctx, &t->out, t->handle))
		entries_write_item(w, vb_result(&page), &t->out.fields);
	else
		api_output_write(t->ctx, &t->out, t->handle, w, vb_result(&page));
	vb_release(&page);
}

/* --- collection trees --- */

/*
 * The children of every page of one site's tree, made in one pass: the
 * index numbers pages in tree order (order 1, 2, ... depth first), so
 * placing each page by its order and then appending it to its parent's
 * list gives every list in sibling order. Lists are slices of one array
 * (kids[first[p] .. first[p + 1])), slot n being the top level.
 */
struct tree_children {
	uint32_t *kids;  /* entry numbers */
	uint32_t *first; /* n + 2 offsets into kids */
	uint32_t base, n; /* the collection's entries: [base, base + n) */
};

/* The slot of a parent: its place in the collection, n for the top
 * level, or n + 1 for a parent outside the collection (not shown). */
static uint32_t parent_slot(const struct tree_children *tc, uint32_t parent)
{
	if (parent == SNAP_NONE)
		return tc->n;
	return parent - tc->base < tc->n ? parent - tc->base : tc->n + 1;
}

static void tree_children_build(struct tree_children *tc, const struct snapshot *s,
                                const struct snap_collection *c, uint32_t site)
{
	uint32_t n = c->nentries;
	tc->base = c->first_entry;
	tc->n = n;
	uint32_t *by_order = xmalloc((n + 1) * sizeof *by_order);
	for (uint32_t i = 0; i < n; i++)
		by_order[i] = SNAP_NONE;
	for (uint32_t i = 0; i < n; i++) {
		struct snap_entry e = snap_entry_at(s, c->first_entry + i);
		if (e.site == site && e.order > 0 && (uint32_t)e.order <= n &&
		    by_order[e.order - 1] == SNAP_NONE)
			by_order[e.order - 1] = e.number;
	}
	tc->first = xcalloc((size_t)n + 3, sizeof *tc->first);
	tc->kids = xmalloc((n + 1) * sizeof *tc->kids);
	for (uint32_t i = 0; i < n; i++)
		if (by_order[i] != SNAP_NONE)
			tc->first[parent_slot(tc, snap_entry_at(s, by_order[i]).parent) + 1]++;
	for (uint32_t p = 1; p < n + 3; p++)
		tc->first[p] += tc->first[p - 1];
	uint32_t *fill = xmalloc(((size_t)n + 2) * sizeof *fill);
	memcpy(fill, tc->first, ((size_t)n + 2) * sizeof *fill);
	for (uint32_t i = 0; i < n; i++) {
		if (by_order[i] == SNAP_NONE)
			continue;
		uint32_t p = parent_slot(tc, snap_entry_at(s, by_order[i]).parent);
		tc->kids[fill[p]++] = by_order[i];
	}
	free(fill);
	free(by_order);
}

static void tree_children_free(struct tree_children *tc)
{
	free(tc->kids);
	free(tc->first);
}

struct collection_tree {
	struct tree_req *t;
	struct entries_req *r;
	struct entry_filters *filters;
	struct tree_children children;
	bool *shown; /* owned: by place in children.kids, the pages that pass */
};

/* Decides which pages pass the filters before anything is written: a
 * regex budget that runs out half way refuses the request instead of
 * cutting the tree short. */
static void choose_level(struct collection_tree *ct, uint32_t slot, int depth)
{
	const struct snapshot *s = ct->t->ctx->snap;
	for (uint32_t k = ct->children.first[slot]; k < ct->children.first[slot + 1]; k++) {
		if (ct->t->ctx->regex_budget.spent)
			return;
		struct snap_entry e = snap_entry_at(s, ct->children.kids[k]);
		ct->shown[k] = entries_pass(&ct->r->q, ct->filters, &e);
		if (ct->shown[k] && !at_depth_limit(ct->t, depth))
			choose_level(ct, e.number - ct->children.base, depth + 1);
	}
}

/*
 * keep=ancestors: a page shows when the filters keep it or it leads down
 * to one they keep (within max_depth), so that every page kept comes with
 * the path from the top to it and nothing else. A page the default status
 * filter leaves out (a draft) still leaves out all below it: a draft
 * never shows as anyone's ancestor. Returns whether any page of the level
 * shows.
 */
static bool choose_with_ancestors(struct collection_tree *ct, uint32_t slot, int depth)
{
	const struct snapshot *s = ct->t->ctx->snap;
	struct entries_query *q = &ct->r->q;
	bool any = false;
	for (uint32_t k = ct->children.first[slot]; k < ct->children.first[slot + 1]; k++) {
		if (ct->t->ctx->regex_budget.spent)
			return any;
		struct snap_entry e = snap_entry_at(s, ct->children.kids[k]);
		ct->shown[k] = false;
		if (!entries_pass_status(q, ct->filters, &e))
			continue;
		bool below = !at_depth_limit(ct->t, depth) &&
		             choose_with_ancestors(ct, e.number - ct->children.base, depth + 1);
		ct->shown[k] = below || entries_pass_filters(q, ct->filters, &e);
		any |= ct->shown[k];
	}
	return any;
}

static void write_level(struct collection_tree *ct, struct jsonw *w, uint32_t slot, int depth)
{
	const struct snapshot *s = ct->t->ctx->snap;
	jsonw_array_begin(w);
	for (uint32_t k = ct->children.first[slot]; k < ct->children.first[slot + 1]; k++) {
		struct snap_entry e = snap_entry_at(s, ct->children.kids[k]);
		if (!ct->shown[k])
			continue;
		struct value_builder extras = VALUE_BUILDER_INIT, item = VALUE_BUILDER_INIT;
		vb_map_begin(&extras);
		vb_keyz(&extras, "entry_id");
		vb_strz(&extras, e.id);
		vb_map_end(&extras);
		ct->r->q.tree_page = true;
		entries_build_item(&ct->r->q, &e, vb_result(&extras), &item);
		api_tag_entry(ct->t->ctx, e.number);
		write_page(ct->t, w, vb_result(&item));
		jsonw_keyz(w, "depth");
		jsonw_int(w, depth);
		jsonw_keyz(w, "children");
		if (at_depth_limit(ct->t, depth))
			empty_children(w);
		else
			write_level(ct, w, e.number - ct->children.base, depth + 1);
		jsonw_object_end(w);
		vb_release(&extras);
		vb_release(&item);
	}
	jsonw_array_end(w);
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

/* Answers the tree of the pages that pass the filters; returns 0, or 400
 * when the regex budget ran out choosing them. */
static int write_collection_tree(struct api_ctx *ctx, struct tree_req *t, struct entries_req *r,
                                 struct entry_filters *filters)
{
	struct collection_tree ct = {t, r, filters, {NULL, NULL, 0, 0}, NULL};
	tree_children_build(&ct.children, ctx->snap, &r->q.collection, t->site);
	ct.shown = xcalloc((size_t)ct.children.n + 1, sizeof *ct.shown);
	if (t->ancestors)
		choose_with_ancestors(&ct, ct.children.n, 1);
	else
		choose_level(&ct, ct.children.n, 1);
	int status = listing_check_budget(ctx);
	if (status == 0) {
		struct jsonw w;
		api_begin_data(ctx, &w);
		write_level(&ct, &w, ct.children.n, 1);
		api_end_data(&w);
	}
	free(ct.shown);
	tree_children_free(&ct.children);
	return status;
}

/* The tree of r's structured collection in the site t names, its pages
 * filtered. */
static int answer_collection_tree(struct api_ctx *ctx, struct entries_req *r, struct tree_req *t)
{
	if (!collection_in_site(ctx, &r->q.collection, t->site))
		return api_not_found(ctx);
	api_tag(ctx, TAG_ENTRIES, r->q.collection.handle, NULL);
	struct entry_filters filters = {0};
	struct filter_params params = {NULL, 0, 0};
	int status = entries_check_allowed(r);
	if (status == 0)
		status = filter_params_read(ctx->req, &params, ctx->error);
	if (status == 0)
		status = entries_read_filters(r, &params, &filters);
	if (status == 0)
		status = write_collection_tree(ctx, t, r, &filters);
	entries_free_filters(&filters);
	filter_params_free(&params);
	return status;
}

int api_collection_tree(struct api_ctx *ctx)
{
	struct entries_req r;
	struct tree_req t;
	int status = entries_open(ctx, &r, ctx->params[0]);
	if (status != 0)
		return status;
	if (!r.q.collection.structured)
		status = api_not_found(ctx);
	else
		status = read_tree_params(ctx, r.q.collection.handle, &t);
	if (status == 0) {
		status = answer_collection_tree(ctx, &r, &t);
		api_output_free(&t.out);
	}
	entries_close(&r);
	return status;
}

/* --- navigations --- */

static void write_nav(struct jsonw *w, value_t nav)
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
	api_write_item_url(w, "navs", handle);
	jsonw_object_end(w);
}

int api_navs_index(struct api_ctx *ctx)
{
	api_extras_index(ctx, "navs", RES_NAVS, write_nav);
	return 0;
}

int api_navs_show(struct api_ctx *ctx)
{
	return api_extras_show(ctx, "navs", write_nav);
}

/* The item's own keys for its page: entry_id, id, title (when it sets
 * one), then its data, whose keys do not replace those. */
static void item_extras(value_t item, const char *entry_id, struct value_builder *out)
{
	vb_map_begin(out);
	vb_keyz(out, "entry_id");
	if (entry_id)
		vb_strz(out, entry_id);
	else
		vb_null(out);
	vb_keyz(out, "id");
	vb_value(out, value_map_getz(item, "id"));
	bool titled = value_type(value_map_getz(item, "title")) == VALUE_STRING;
	if (titled) {
		vb_keyz(out, "title");
		vb_value(out, value_map_getz(item, "title"));
	}
	struct value_iter it;
	value_iter_init(&it, value_map_getz(item, "data"));
	while (value_iter_next(&it)) {
		bool own = (it.key_len == 8 && memcmp(it.key, "entry_id", 8) == 0) ||
		           (it.key_len == 2 && memcmp(it.key, "id", 2) == 0) ||
		           (titled && it.key_len == 5 && memcmp(it.key, "title", 5) == 0);
		if (own)
			continue;
		vb_key(out, it.key, it.key_len);
		vb_value(out, it.value);
	}
	vb_map_end(out);
}

/* One key of a page being assembled: its name and where its value is. */
struct page_key {
	const char *name;
	size_t len;
	value_t value;
};

static int compare_page_keys(const void *a, const void *b)
{
	const struct page_key *x = a, *y = b;
	int c = memcmp(x->name, y->name, x->len < y->len ? x->len : y->len);
	return c ? c : (x->len > y->len) - (x->len < y->len);
}

/* A link or heading item: its data, entry_id, id, title, and url, uri
 * and permalink from its url, keys sorted as every page has them. A data
 * key the computed ones share is replaced by them; only excluded_keys
 * are left out. */
static void link_page(const struct config *cfg, value_t item, struct value_builder *out)
{
	struct value_builder extras = VALUE_BUILDER_INIT, computed = VALUE_BUILDER_INIT;
	item_extras(item, NULL, &extras);
	value_t url = value_map_getz(item, "url");
	size_t url_len;
	const char *u = value_str(url, &url_len);
	vb_map_begin(&computed);
	if (value_is_missing(value_map_getz(vb_result(&extras), "title"))) {
		vb_keyz(&computed, "title");
		vb_null(&computed);
	}
	vb_keyz(&computed, "url");
	vb_value(&computed, url);
	vb_keyz(&computed, "uri");
	vb_value(&computed, url);
	vb_keyz(&computed, "permalink");
	if (url_len) /* "/about", "#faqs": below the request's base */
		augment_absolute(u, &computed);
	else
		vb_value(&computed, url);
	vb_map_end(&computed);

	size_t n = value_count(vb_result(&extras)) + value_count(vb_result(&computed)), k = 0;
	struct page_key *keys = xmalloc((n ? n : 1) * sizeof *keys);
	value_t parts[] = {vb_result(&computed), vb_result(&extras)};
	for (size_t p = 0; p < 2; p++) {
		struct value_iter it;
		value_iter_init(&it, parts[p]);
		while (value_iter_next(&it)) {
			bool seen = false;
			for (size_t i = 0; i < k && !seen; i++)
				seen = keys[i].len == it.key_len && memcmp(keys[i].name, it.key, it.key_len) == 0;
			if (!seen && !strlist_contains_counted(&cfg->excluded_keys, it.key, it.key_len))
				keys[k++] = (struct page_key){it.key, it.key_len, it.value};
		}
	}
	qsort(keys, k, sizeof *keys, compare_page_keys);
	vb_map_begin(out);
	for (size_t i = 0; i < k; i++) {
		vb_key(out, keys[i].name, keys[i].len);
		vb_value(out, keys[i].value);
	}
	vb_map_end(out);
	free(keys);
	vb_release(&computed);
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
	bool shown = entries_status(&r.q, &e) == ENTRY_PUBLISHED;
	if (shown) {
		struct value_builder extras = VALUE_BUILDER_INIT;
		item_extras(item, e.id, &extras);
		r.q.tree_page = true;
		entries_build_item(&r.q, &e, vb_result(&extras), out);
		api_tag_entry(t->ctx, n);
		vb_release(&extras);
	}
	entries_close(&r);
	return shown;
}

/* The page of a navigation item into page; false when it has none (an
 * entry missing or not published). */
static bool nav_page(struct tree_req *t, value_t item, struct value_builder *page)
{
	if (!value_is_missing(value_map_getz(item, "entry")))
		return entry_page(t, item, page);
	link_page(t->ctx->cfg, item, page);
	return true;
}

/* --- navigation trees with keep=ancestors --- */

/* Whether the navigation item at `item` shows. */
struct nav_kept {
	const unsigned char *item;
	bool shown;
};

static int compare_kept(const void *a, const void *b)
{
	const struct nav_kept *x = a, *y = b;
	return (x->item > y->item) - (x->item < y->item);
}

/* Decides every item of a level as choose_with_ancestors does, before
 * anything is written; returns whether one of them shows. */
static bool nav_decide(struct tree_req *t, value_t items, int depth)
{
	bool any = false;
	struct value_iter it;
	value_iter_init(&it, items);
	while (value_iter_next(&it) && !t->ctx->regex_budget.spent) {
		struct value_builder page = VALUE_BUILDER_INIT;
		bool shown = false;
		if (nav_page(t, it.value, &page)) {
			bool below = !at_depth_limit(t, depth) &&
			             nav_decide(t, value_map_getz(it.value, "children"), depth + 1);
			shown = below || listing_filters_pass(t->ctx, t->nav_filters, vb_result(&page));
		}
		vb_release(&page);
		t->kept = xrealloc(t->kept, (t->nkept + 1) * sizeof *t->kept);
		t->kept[t->nkept++] = (struct nav_kept){it.value.p, shown};
		any |= shown;
	}
	return any;
}

static bool nav_shown(const struct tree_req *t, value_t item)
{
	if (!t->nav_filters)
		return true;
	struct nav_kept key = {item.p, false};
	const struct nav_kept *found = bsearch(&key, t->kept, t->nkept, sizeof *t->kept, compare_kept);
	return found && found->shown;
}

/* keep=ancestors on a navigation: its filters, checked against the
 * navigation's allow-list ([resources.navs.<nav>] allowed_filters), and
 * every item decided. Returns 0, or 422 / 400 as a list's filters do. */
static int nav_filters_decide(struct tree_req *t, value_t tree)
{
	struct api_ctx *ctx = t->ctx;
	struct strlist allowed;
	bool on = allowed_filters(ctx->cfg, RES_NAVS, t->handle, &allowed);
	struct filter_params params = {NULL, 0, 0};
	int status = listing_check_filters(ctx, on, &allowed);
	if (status == 0)
		status = filter_params_read(ctx->req, &params, ctx->error);
	if (status == 0)
		status = listing_filters_open(ctx, &params, &t->nav_filters);
	if (status == 0) {
		nav_decide(t, tree, 1);
		qsort(t->kept, t->nkept, sizeof *t->kept, compare_kept);
		status = listing_check_budget(ctx);
	}
	filter_params_free(&params);
	strlist_free(&allowed);
	return status;
}

static void write_nav_level(struct tree_req *t, struct jsonw *w, value_t items, int depth)
{
	jsonw_array_begin(w);
	struct value_iter it;
	value_iter_init(&it, items);
	while (value_iter_next(&it)) {
		struct value_builder page = VALUE_BUILDER_INIT;
		if (nav_shown(t, it.value) && nav_page(t, it.value, &page)) {
			write_page(t, w, vb_result(&page));
			jsonw_keyz(w, "depth");
			jsonw_int(w, depth);
			jsonw_keyz(w, "children");
			if (at_depth_limit(t, depth))
				empty_children(w);
			else
				write_nav_level(t, w, value_map_getz(it.value, "children"), depth + 1);
			jsonw_object_end(w);
		}
		vb_release(&page);
	}
	jsonw_array_end(w);
}

int api_navs_tree(struct api_ctx *ctx)
{
	/* The gate found the navigation the route names enabled. */
	value_t nav = snap_extras_find(ctx->snap, "navs", ctx->params[0]);
	if (value_is_missing(nav))
		return api_not_found(ctx);
	api_tag_extra(ctx, "navs", nav);
	struct tree_req t;
	int status = read_tree_params(ctx, ctx->params[0], &t);
	if (status != 0)
		return status;
	value_t tree = value_map_getz(value_map_getz(nav, "trees"), snap_site_at(ctx->snap, t.site).handle);
	if (value_is_missing(tree))
		status = api_not_found(ctx);
	/* Statamic reads no filter on a navigation; keep=ancestors does. */
	else if (t.ancestors)
		status = nav_filters_decide(&t, tree);
	if (status == 0) {
		struct jsonw w;
		api_begin_data(ctx, &w);
		write_nav_level(&t, &w, tree, 1);
		api_end_data(&w);
	}
	listing_filters_close(t.nav_filters);
	free(t.kept);
	api_output_free(&t.out);
	return status;
}

void api_write_nav(struct api_ctx *ctx, struct jsonw *w, value_t nav)
{
	api_tag_extra(ctx, "navs", nav);
	write_nav(w, nav);
}
