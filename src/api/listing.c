/* api/listing: the paginated list machinery; see listing.h. */
#include "autoconfig.h"

#include "api/listing.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "http/request.h"
#include "lib/strbuf.h"
#include "query/filter.h"
#include "query/filterparams.h"
#include "query/paginate.h"
#include "query/search.h"
#include "query/sort.h"

/* --- parameters --- */

static bool positive_integer(const char *s, long max, long *out)
{
	char *end;
	if (!s || !isdigit((unsigned char)*s))
		return false;
	long v = strtol(s, &end, 10);
	if (*end || v < 1 || v > max)
		return false;
	*out = v;
	return true;
}

int listing_read_paging(struct api_ctx *ctx, long *limit, long *page)
{
	const char *l = request_param(ctx->req, "limit"), *p = request_param(ctx->req, "page");
	*limit = ctx->cfg->default_limit;
	*page = 1;
	if (l && !positive_integer(l, ctx->cfg->max_limit, limit))
		return api_fail(ctx, 400,
		                "The limit parameter must be a whole number from 1 to %ld, not \"%.200s\".",
		                ctx->cfg->max_limit, l);
	if (p && !positive_integer(p, 1000000000L, page))
		return api_fail(ctx, 400,
		                "The page parameter must be a whole number from 1, not \"%.200s\".", p);
	return 0;
}

int listing_check_filters(struct api_ctx *ctx, bool on, const struct strlist *allowed)
{
	struct filter_params params;
	int status = filter_params_read(ctx->req, &params, ctx->error);
	if (status != 0)
		return status;
	struct strlist forbidden = {NULL, 0};
	for (size_t i = 0; i < params.n; i++) {
		char *field = filter_param_field(params.items[i].key);
		if (!on || !strlist_contains(allowed, field))
			strlist_add(&forbidden, field);
		free(field);
	}
	filter_params_free(&params);
	if (forbidden.len == 0)
		return 0;
	struct strbuf msg = STRBUF_INIT;
	strbuf_addf(&msg, "Forbidden filter%s: ", forbidden.len > 1 ? "s" : "");
	for (size_t i = 0; i < forbidden.len; i++)
		strbuf_addf(&msg, "%s%s", i ? ", " : "", forbidden.items[i]);
	status = api_fail(ctx, 422, "%s", msg.ptr);
	strbuf_release(&msg);
	strlist_free(&forbidden);
	return status;
}

/* --- query scopes --- */

/* The scopes a request names: query_scope=a,b, or Statamic's
 * query_scope[a]=... (whose values a PHP class would read: none here). */
static void scopes_asked(const struct request *req, struct strlist *out)
{
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < req->nparams; i++) {
		const char *name = req->params[i].name;
		if (strcmp(name, "query_scope") == 0) {
			strlist_split(out, req->params[i].value);
		} else if (strncmp(name, "query_scope[", 12) == 0) {
			char *scope = xstrndup(name + 12, strcspn(name + 12, "]"));
			strlist_add_unique(out, scope);
			free(scope);
		}
	}
}

/* 422 naming every scope asked for that the config has not, or not for
 * this list; else 0, with the scopes' filters added to q and their sort
 * taken when the request has none. */
static int apply_scopes(struct api_ctx *ctx, enum resource_type type, const char *handle,
                        struct list_query *q)
{
	struct strlist asked, forbidden = {NULL, 0};
	scopes_asked(ctx->req, &asked);
	for (size_t i = 0; i < asked.len; i++) {
		const struct scope_def *s = config_scope(ctx->cfg, asked.items[i]);
		if (!s || !scope_applies(s, type, handle)) {
			strlist_add(&forbidden, asked.items[i]);
			continue;
		}
		for (size_t k = 0; k < s->nfilters; k++)
			filter_params_add(&q->filters, s->filters[k].key, s->filters[k].value);
		if (!q->sort && s->sort)
			q->sort = s->sort;
	}
	int status = 0;
	if (forbidden.len) {
		struct strbuf msg = STRBUF_INIT;
		for (size_t i = 0; i < forbidden.len; i++)
			strbuf_addf(&msg, "%s%s", i ? ", " : "", forbidden.items[i]);
		status = api_fail(ctx, 422, "Forbidden query scope%s: %s", forbidden.len > 1 ? "s" : "",
		                  msg.ptr);
		strbuf_release(&msg);
	}
	strlist_free(&asked);
	strlist_free(&forbidden);
	return status;
}

int listing_read_query(struct api_ctx *ctx, enum resource_type type, const char *handle,
                       struct list_query *out)
{
	int status = filter_params_read(ctx->req, &out->filters, ctx->error);
	out->sort = request_param(ctx->req, "sort");
	if (status == 0)
		status = apply_scopes(ctx, type, handle, out);
	if (status != 0)
		listing_query_free(out);
	return status;
}

void listing_query_free(struct list_query *q)
{
	filter_params_free(&q->filters);
	q->sort = NULL;
}

/* The names fields= and fields[]= ask for, in order, repeats kept. */
static void fields_asked_all(const struct request *req, struct strlist *out)
{
	memset(out, 0, sizeof *out);
	for (size_t i = 0; i < req->nparams; i++)
		if (strcmp(req->params[i].name, "fields") == 0 ||
		    strcmp(req->params[i].name, "fields[]") == 0)
			strlist_split(out, req->params[i].value);
}

static size_t fields_asked(const struct request *req)
{
	struct strlist asked;
	fields_asked_all(req, &asked);
	size_t n = asked.len;
	strlist_free(&asked);
	return n;
}

static size_t filters_asked(const struct request *req)
{
	size_t n = 0;
	for (size_t i = 0; i < req->nparams; i++) {
		char *key = filter_param_key(req->params[i].name);
		n += key != NULL;
		free(key);
	}
	return n;
}

/* Whether count goes past bound (0: no bound). */
static bool beyond(size_t count, long bound)
{
	return bound > 0 && count > (size_t)bound;
}

int listing_check_bounds(const struct config *cfg, const struct request *req,
                         struct http_error *e)
{
	if (beyond(strlen(req->query), cfg->max_query_length))
		return http_error_set(e, 400,
		                      "The query string is longer than %ld bytes (max_query_length).",
		                      cfg->max_query_length);
	if (beyond(filters_asked(req), cfg->max_filters))
		return http_error_set(e, 400, "The query has more than %ld filters (max_filters).",
		                      cfg->max_filters);
	if (beyond(sort_key_count(request_param(req, "sort")), cfg->max_sort_keys))
		return http_error_set(e, 400, "The sort parameter has more than %ld keys (max_sort_keys).",
		                      cfg->max_sort_keys);
	if (beyond(fields_asked(req), cfg->max_fields))
		return http_error_set(e, 400, "The query asks for more than %ld fields (max_fields).",
		                      cfg->max_fields);
	return 0;
}

void listing_requested_fields(const struct request *req, struct strlist *out)
{
	struct strlist asked;
	fields_asked_all(req, &asked);
	memset(out, 0, sizeof *out);
	for (size_t k = 0; k < asked.len; k++)
		strlist_add_unique(out, asked.items[k]);
	strlist_free(&asked);
}

int listing_check_budget(struct api_ctx *ctx)
{
	if (!ctx->regex_budget.spent)
		return 0;
	return api_fail(ctx, 400,
	                "The regex in %.200s needs more work than this API allows (regex_budget).",
	                ctx->regex_budget.spent_by[0] ? ctx->regex_budget.spent_by : "a filter");
}

/* --- one page --- */

void listing_write_page(struct api_ctx *ctx, const uint32_t *items, size_t n, long limit,
                        long page, const char *path, listing_write_fn write, void *self)
{
	struct strlist fields;
	listing_requested_fields(ctx->req, &fields);
	struct strbuf url = STRBUF_INIT;
	strbuf_addf(&url, "%s/%s", ctx->env.api_base, path);
	struct page p = {(long)n, limit, page, url.ptr};
	struct jsonw w;
	api_begin_json(ctx, &w);
	jsonw_object_begin(&w);
	jsonw_keyz(&w, "data");
	jsonw_array_begin(&w);
	for (long i = page_from(&p) - 1; page_from(&p) && i < page_to(&p); i++)
		write(self, &w, items[i], &fields);
	jsonw_array_end(&w);
	paginate_write(&w, &p, ctx->req);
	jsonw_object_end(&w);
	strbuf_release(&url);
	strlist_free(&fields);
}

/* --- the whole request --- */

struct list_run {
	struct api_ctx *ctx;
	const struct listing_source *src;
	struct value_builder scratch[2]; /* the source's value, then its absolute form */
	struct relation_reader related;  /* how a dotted filter reads related items */
};

/* The value at path[1..] below v, the item's value of path[0]. */
static value_t value_below(struct list_run *run, value_t v, char *const *path, size_t npath)
{
	for (size_t i = 1; i < npath; i++)
		v = value_map_getz(v, path[i]);
	return filter_absolute(&run->ctx->env, v, &run->scratch[1]);
}

/* The value at path below the item's value of path[0]. */
static value_t value_at(struct list_run *run, uint32_t item, char *const *path, size_t npath)
{
	value_t v = run->src->value(run->src->self, item, path[0], &run->scratch[0]);
	return value_below(run, v, path, npath);
}

static value_t run_sort_value(void *ctx, uint32_t item, const struct sort_key *key)
{
	struct list_run *run = ctx;
	return value_at(run, item, key->path, key->npath);
}

/* The filters of a list: those that must all pass, then the OR groups
 * one of which must. */
struct list_filters {
	struct filter *all; /* owned */
	size_t nall;
	struct list_filters *any; /* owned */
	size_t nany;
};

static void free_filters(struct list_filters *f)
{
	for (size_t i = 0; i < f->nall; i++)
		filter_free(&f->all[i]);
	free(f->all);
	for (size_t i = 0; i < f->nany; i++)
		free_filters(&f->any[i]);
	free(f->any);
	memset(f, 0, sizeof *f);
}

/* Parses every filter of q into out; returns 0, or 400 for a bad one. */
static int read_filters(struct api_ctx *ctx, const struct list_query *q, struct list_filters *out)
{
	memset(out, 0, sizeof *out);
	if (q->filters.ngroups) {
		out->any = xcalloc(q->filters.ngroups, sizeof *out->any);
		out->nany = q->filters.ngroups;
	}
	for (size_t i = 0; i < q->filters.n; i++) {
		const struct filter_param *p = &q->filters.items[i];
		struct list_filters *to = p->group == FILTER_TOP ? out : &out->any[p->group];
		struct filter one;
		char err[FILTER_ERR_LEN];
		if (filter_parse(p->key, p->value, ctx->now, &ctx->regex_budget, &one, err) != 0)
			return api_fail(ctx, 400, "%s", err);
		to->all = xrealloc(to->all, (to->nall + 1) * sizeof *to->all);
		to->all[to->nall++] = one;
	}
	return 0;
}

/* Whether the item passes f: through a relation when the first part of a
 * dotted field is one (filter.h), else as the item's value at the path. */
static bool passes_one(struct list_run *run, const struct filter *f, uint32_t item)
{
	value_t v = run->src->value(run->src->self, item, f->path[0], &run->scratch[0]);
	if (f->npath > 1 && value_ref_kind(v) != 0)
		return filter_match_path(f, v, 1, &run->related);
	return filter_match(f, value_below(run, v, f->path, f->npath));
}

static bool passes_all(struct list_run *run, const struct list_filters *f, uint32_t item)
{
	for (size_t i = 0; i < f->nall; i++)
		if (!passes_one(run, &f->all[i], item))
			return false;
	return true;
}

static bool passes(struct list_run *run, const struct list_filters *f, uint32_t item)
{
	if (!passes_all(run, f, item))
		return false;
	for (size_t g = 0; g < f->nany; g++)
		if (passes_all(run, &f->any[g], item))
			return true;
	return f->nany == 0;
}

/* --- filters asked of maps --- */

struct listing_filters {
	struct list_filters f;
};

int listing_filters_open(struct api_ctx *ctx, const struct filter_params *p,
                         struct listing_filters **out)
{
	*out = xcalloc(1, sizeof **out);
	struct list_query q = {*p, NULL};
	int status = read_filters(ctx, &q, &(*out)->f);
	if (status != 0) {
		listing_filters_close(*out);
		*out = NULL;
	}
	return status;
}

static value_t map_value(void *self, uint32_t item, const char *key,
                         struct value_builder *scratch)
{
	(void)item;
	(void)scratch;
	return value_map_getz(*(const value_t *)self, key);
}

bool listing_filters_pass(struct api_ctx *ctx, const struct listing_filters *f, value_t map)
{
	struct listing_source src = {map_value, NULL, &map};
	struct list_run run = {ctx, &src, {VALUE_BUILDER_INIT, VALUE_BUILDER_INIT},
	                       api_relation_reader(ctx)};
	bool pass = passes(&run, &f->f, 0);
	vb_release(&run.scratch[0]);
	vb_release(&run.scratch[1]);
	return pass;
}

void listing_filters_close(struct listing_filters *f)
{
	if (!f)
		return;
	free_filters(&f->f);
	free(f);
}

/* Sorts the items that passed (kept of them) as far as the page's end
 * and answers that page. */
static void answer_page(struct list_run *run, uint32_t *items, size_t kept, long limit,
                        long page, const char *sort_param, const char *path)
{
	struct api_ctx *ctx = run->ctx;
	/* Only the items up to the page's end need their order. */
	size_t page_end = (size_t)page <= kept / (size_t)limit ? (size_t)page * (size_t)limit : kept;
	struct sort_spec asked, sort;
	sort_parse(sort_param, &asked);
	sort_view_served(&asked, &ctx->cfg->excluded_keys, &sort);
	sort_items_first_cached(items, kept, page_end, &sort, run_sort_value, run);
	listing_write_page(ctx, items, kept, limit, page, path, run->src->write, run->src->self);
	sort_view_free(&sort);
	sort_free(&asked);
}

int listing_answer(struct api_ctx *ctx, const struct listing_source *src,
                   const struct list_query *q, uint32_t *items, size_t n, const char *path)
{
	long limit, page;
	struct list_filters filters = {0};
	int status = listing_read_paging(ctx, &limit, &page);
	if (status == 0)
		status = read_filters(ctx, q, &filters);
	if (status != 0) {
		free_filters(&filters);
		return status;
	}
	struct list_run run = {ctx, src, {VALUE_BUILDER_INIT, VALUE_BUILDER_INIT},
	                       api_relation_reader(ctx)};
	size_t kept = 0;
	for (size_t i = 0; i < n && !ctx->regex_budget.spent; i++)
		if (passes(&run, &filters, items[i]))
			items[kept++] = items[i];
	status = listing_check_budget(ctx);
	if (status == 0)
		answer_page(&run, items, kept, limit, page, q->sort, path);
	free_filters(&filters);
	vb_release(&run.scratch[0]);
	vb_release(&run.scratch[1]);
	return status;
}

/* q= on a taxonomy's n terms (api_search): the list is the terms of the
 * request's ?site= (every site's without it). */
static int search_terms(struct api_ctx *ctx, const char *handle, const struct listing_source *src,
                        size_t *n, uint32_t **ranked)
{
	const char *site = request_param(ctx->req, "site");
	struct search_source from = {*n, src->value, src->self};
	struct strbuf list = STRBUF_INIT;
	strbuf_addf(&list, "terms/%s/%s", handle, site ? site : "*");
	int status = api_search(ctx, RES_TAXONOMIES, handle, list.ptr, &from, 0, NULL, n, ranked);
	strbuf_release(&list);
	return status;
}

int listing_answer_all(struct api_ctx *ctx, enum resource_type type, const char *handle,
                       const struct listing_source *src, size_t n, const char *path)
{
	struct strlist allowed;
	bool on = allowed_filters(ctx->cfg, type, handle, &allowed);
	int status = listing_check_filters(ctx, on, &allowed);
	struct list_query q = {{NULL, 0, 0}, NULL};
	if (status == 0)
		status = listing_read_query(ctx, type, handle, &q);
	if (status == 0) {
		uint32_t *items = NULL; /* q= on terms: those that match, best first */
		if (type == RES_TAXONOMIES)
			status = search_terms(ctx, handle, src, &n, &items);
		if (status == 0 && !items) {
			items = xmalloc((n + 1) * sizeof *items);
			for (size_t i = 0; i < n; i++)
				items[i] = (uint32_t)i;
		}
		if (status == 0)
			status = listing_answer(ctx, src, &q, items, n, path);
		free(items);
		listing_query_free(&q);
	}
	strlist_free(&allowed);
	return status;
}
