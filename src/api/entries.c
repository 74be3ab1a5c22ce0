/*
 * api/entries: GET /{route}/collections/{c}/entries and .../entries/{id}
 * (spec §4, statamic-api.md §7, §8, §10.1): the filter allow-list, then
 * the request's paging, filters and sort handed to the entries query
 * (query/entries.h) and the page it chose written with the fields asked
 * for; an entry by id, else by slug.
 */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "api/items.h"
#include "api/entries.h"
#include "api/listing.h"
#include "api/renders.h"
#include "api/tags.h"
#include "lib/strbuf.h"
#include "query/search.h"
#include "query/sort.h"

/* --- writing entries --- */

enum entry_status api_entry_status(const struct api_ctx *ctx, const struct snap_entry *e)
{
	struct snap_collection c = snap_collection_at(ctx->snap, e->collection);
	return entries_status_at(&c, e, ctx->now, ctx->span);
}

void entries_write_item(struct jsonw *w, value_t item, const struct strlist *fields)
{
	if (fields->len == 0) {
		jsonw_value(w, item);
		return;
	}
	jsonw_object_begin(w);
	for (size_t i = 0; i < fields->len; i++) {
		jsonw_keyz(w, fields->items[i]);
		jsonw_value(w, value_map_getz(item, fields->items[i]));
	}
	jsonw_object_end(w);
}

static void write_entry(struct entries_req *r, struct jsonw *w, const struct snap_entry *e,
                        const struct strlist *fields)
{
	struct value_builder item = VALUE_BUILDER_INIT;
	entries_build_item(&r->q, e, VALUE_MISSING, &item);
	entries_write_item(w, vb_result(&item), fields);
	vb_release(&item);
}

/* Renders entry n whole for the worker's cache: its JSON as a template
 * (URLs without their bases), with the moments over which the statuses
 * it read hold. */
static const struct render *render_entry(struct entries_req *r, uint32_t n)
{
	struct api_ctx *ctx = r->ctx;
	struct snap_entry e = snap_entry_at(ctx->snap, n);
	struct value_builder item = VALUE_BUILDER_INIT;
	struct strbuf text = STRBUF_INIT;
	struct jsonw_marks marks = {NULL, 0, 0};
	struct status_span span = status_span_all();
	struct jsonw w;
	jsonw_init(&w, &text);
	jsonw_set_env(&w, &ctx->env);
	jsonw_record_marks(&w, &marks);
	/* The statuses the entry reads itself (the query's) and those its
	 * relations read as they are written (api_write_ref's). */
	ctx->span = &span;
	r->q.span = &span;
	entries_build_item(&r->q, &e, VALUE_MISSING, &item);
	jsonw_value(&w, vb_result(&item));
	ctx->span = NULL;
	r->q.span = NULL;
	const struct render *done = renders_put(ctx->renders, n, text.ptr, text.len, &marks, span);
	jsonw_marks_release(&marks);
	strbuf_release(&text);
	vb_release(&item);
	return done;
}

/* Entry n through what the request asks more of it (api/output.h):
 * whether it asks anything. */
static bool write_output(struct entries_req *r, struct jsonw *w, uint32_t n)
{
	struct api_ctx *ctx = r->ctx;
	if (!r->out)
		return false;
	struct snap_entry e = snap_entry_at(ctx->snap, n);
	const char *handle = snap_collection_at(ctx->snap, e.collection).handle;
	if (api_output_plain(ctx, r->out, handle))
		return false;
	struct value_builder item = VALUE_BUILDER_INIT;
	entries_build_item(&r->q, &e, VALUE_MISSING, &item);
	api_output_write(ctx, r->out, handle, w, vb_result(&item));
	vb_release(&item);
	return true;
}

/* Entry n whole or its fields: a whole entry is copied from the worker's
 * rendered entries (rendered first when none holds at this moment). */
static void write_numbered_entry(struct entries_req *r, struct jsonw *w, uint32_t n,
                                 const struct strlist *fields)
{
	if (write_output(r, w, n))
		return;
	struct renders *renders = r->ctx->renders;
	api_tag_entry(r->ctx, n);
	if (fields->len == 0 && renders && !r->ctx->span) {
		const struct render *done = renders_find(renders, n, r->q.now);
		renders_write(renders, w, done ? done : render_entry(r, n));
		return;
	}
	struct snap_entry e = snap_entry_at(r->ctx->snap, n);
	write_entry(r, w, &e, fields);
}

static void write_listed_entry(void *self, struct jsonw *w, uint32_t item,
                               const struct strlist *fields)
{
	write_numbered_entry(self, w, item, fields);
}

/* --- the request --- */

void entries_attach(struct api_ctx *ctx, struct entries_req *r, uint32_t collection)
{
	r->ctx = ctx;
	entries_query_init(&r->q, ctx->snap, collection, ctx->now, ctx->cfg, &ctx->regex_budget,
	                   &ctx->env);
	r->related = api_relation_reader(ctx);
	r->q.related = &r->related;
	r->out = NULL;
}

int entries_open(struct api_ctx *ctx, struct entries_req *r, const char *handle)
{
	uint32_t n = snap_collection_find(ctx->snap, handle);
	if (n == SNAP_NONE) {
		memset(r, 0, sizeof *r);
		return api_not_found(ctx);
	}
	entries_attach(ctx, r, n);
	return 0;
}

void entries_close(struct entries_req *r)
{
	entries_query_free(&r->q);
}

/* 422 with every forbidden field, in query order, repeats kept. */
int entries_check_allowed(struct entries_req *r)
{
	struct strlist allowed;
	bool on = allowed_filters(r->ctx->cfg, RES_COLLECTIONS, r->q.collection.handle, &allowed);
	int rc = entries_check_filters(r, on, &allowed);
	strlist_free(&allowed);
	return rc;
}

int entries_check_filters(struct entries_req *r, bool on, const struct strlist *allowed)
{
	return listing_check_filters(r->ctx, on, allowed);
}

int entries_read_filters(struct entries_req *r, const struct filter_params *p,
                         struct entry_filters *f)
{
	entries_filters_init(f);
	return entries_add_params(&r->q, f, p, r->ctx->error);
}

/* Filters, sorts and writes one page of the candidate entries (the whole
 * collection's when items is NULL), with the list's own URL (path, below
 * the API root) in links and meta. */
int entries_list(struct entries_req *r, uint32_t *items, size_t n, const char *path)
{
	api_tag(r->ctx, TAG_ENTRIES, r->q.collection.handle, NULL);
	struct api_ctx *ctx = r->ctx;
	struct entry_filters filters = {0};
	struct list_query lq = {{NULL, 0, 0}, NULL};
	struct item_out out = {0};
	long limit, page;
	int status = listing_read_paging(ctx, &limit, &page);
	if (status == 0)
		status = api_output_read(ctx, SHAPE_ENTRIES, &out);
	r->out = &out;
	if (status == 0)
		status = listing_read_query(ctx, RES_COLLECTIONS, r->q.collection.handle, &lq);
	if (status == 0)
		status = entries_read_filters(r, &lq.filters, &filters);
	if (status == 0) {
		struct sort_spec sort;
		struct entries_page chosen;
		sort_parse(lq.sort, &sort);
		entries_query_page(&r->q, &filters, &sort, items, n, limit, page, &chosen);
		status = listing_check_budget(ctx);
		if (status == 0)
			listing_write_page(ctx, chosen.items, chosen.n, limit, page, path,
			                   write_listed_entry, r);
		entries_page_free(&chosen);
		sort_free(&sort);
	}
	entries_free_filters(&filters);
	listing_query_free(&lq);
	api_output_free(&out);
	r->out = NULL;
	return status;
}

/* The collection's entry number base + item, as q= reads it. */
static value_t search_value(void *self, uint32_t item, const char *key,
                            struct value_builder *scratch)
{
	struct entries_req *r = self;
	(void)scratch;
	struct snap_entry e = snap_entry_at(r->ctx->snap, r->q.collection.first_entry + item);
	return entries_value(&r->q, &e, key);
}

/* q= on the collection (api_search), among items (NULL: every entry). */
static int search_entries(struct entries_req *r, const uint32_t *items, size_t *n,
                          uint32_t **ranked)
{
	struct search_source src = {r->q.collection.nentries, search_value, r};
	struct strbuf list = STRBUF_INIT;
	strbuf_addf(&list, "entries/%s", r->q.collection.handle);
	int status = api_search(r->ctx, RES_COLLECTIONS, r->q.collection.handle, list.ptr, &src,
	                        r->q.collection.first_entry, items, n, ranked);
	strbuf_release(&list);
	return status;
}

int api_entries_index(struct api_ctx *ctx)
{
	struct entries_req r;
	int status = entries_open(ctx, &r, ctx->params[0]);
	if (status != 0)
		return status;
	/* ?site= keeps one site's entries (an unknown site has none). */
	const char *site = request_param(ctx->req, "site");
	uint32_t site_number = site ? snap_site_find(ctx->snap, site) : SNAP_NONE;
	if (site && site_number == SNAP_NONE)
		status = api_not_found(ctx);
	else
		status = entries_check_allowed(&r);
	if (status == 0) {
		uint32_t *items = NULL; /* without ?site=, the whole collection */
		size_t n = 0;
		if (site) {
			items = xmalloc((r.q.collection.nentries + 1) * sizeof *items);
			for (uint32_t i = 0; i < r.q.collection.nentries; i++) {
				uint32_t number = r.q.collection.first_entry + i;
				if (snap_entry_brief_at(ctx->snap, number).site == site_number)
					items[n++] = number;
			}
		}
		uint32_t *ranked;
		status = search_entries(&r, items, &n, &ranked);
		struct strbuf path = STRBUF_INIT;
		strbuf_addf(&path, "collections/%s/entries", r.q.collection.handle);
		if (status == 0)
			status = entries_list(&r, ranked ? ranked : items, n, path.ptr);
		strbuf_release(&path);
		free(ranked);
		free(items);
	}
	entries_close(&r);
	return status;
}

/* The collection's first site: the first of its `sites` in a multi-site
 * layout, else the default site. */
static uint32_t first_site(const struct entries_req *r)
{
	value_t first = value_array_get(value_map_getz(r->q.collection.settings, "sites"), 0);
	if (!snap_multisite(r->ctx->snap) || value_type(first) != VALUE_STRING)
		return 0;
	uint32_t n = snap_site_find(r->ctx->snap, value_str(first, NULL));
	return n == SNAP_NONE ? 0 : n;
}

/* An id first; else a slug, in ?site= or the collection's first site.
 * With ?site=, an id of another site's entry comes after a slug of that
 * site: it does not hide the entry the slug names there. */
static uint32_t find_entry(struct entries_req *r, const char *key)
{
	const struct snapshot *s = r->ctx->snap;
	uint32_t n = snap_entry_find(s, key);
	if (n != SNAP_NONE && snap_entry_at(s, n).collection != r->q.collection_number)
		n = SNAP_NONE;
	const char *site = request_param(r->ctx->req, "site");
	uint32_t want = site ? snap_site_find(s, site) : first_site(r);
	if (n != SNAP_NONE && (!site || snap_entry_at(s, n).site == want))
		return n;
	uint32_t by_slug = want == SNAP_NONE ? SNAP_NONE
	                                     : snap_entry_find_slug(s, r->q.collection_number, want, key);
	return by_slug != SNAP_NONE ? by_slug : n;
}

int api_entries_show(struct api_ctx *ctx)
{
	struct entries_req r;
	int status = entries_open(ctx, &r, ctx->params[0]);
	if (status != 0)
		return status;
	uint32_t n = find_entry(&r, ctx->params[1]);
	struct snap_entry e;
	if (n != SNAP_NONE)
		e = snap_entry_at(ctx->snap, n);
	/* Show hides drafts only, not scheduled or expired entries. */
	if (n == SNAP_NONE || !e.published) {
		entries_close(&r);
		return api_not_found(ctx);
	}
	struct item_out out;
	status = api_output_read(ctx, SHAPE_ENTRIES, &out);
	if (status == 0) {
		r.out = &out;
		struct jsonw w;
		api_begin_data(ctx, &w);
		write_numbered_entry(&r, &w, n, &out.fields);
		api_end_data(&w);
		api_output_free(&out);
	}
	entries_close(&r);
	return status;
}

void api_write_entry(struct api_ctx *ctx, struct jsonw *w, uint32_t n)
{
	struct entries_req r;
	struct strlist whole = {NULL, 0};
	entries_attach(ctx, &r, snap_entry_at(ctx->snap, n).collection);
	write_numbered_entry(&r, w, n, &whole);
	entries_close(&r);
}
