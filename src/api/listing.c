/* api/listing: the paginated list machinery; see listing.h. */
#include "autoconfig.h"

#include "api/listing.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lib/strbuf.h"
#include "query/filter.h"
#include "query/paginate.h"
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

char *listing_filter_key(const char *name)
{
	size_t n = strlen(name);
	if (n < 9 || strncmp(name, "filter[", 7) != 0 || name[n - 1] != ']')
		return NULL;
	return xstrndup(name + 7, n - 8);
}

/* What the allow-list checks: the field, or taxonomy:<handle>. */
static char *allow_name(const char *key)
{
	if (strncmp(key, "taxonomy:", 9) == 0)
		return xstrndup(key, 9 + strcspn(key + 9, ":"));
	return xstrndup(key, strcspn(key, ":"));
}

int listing_check_filters(struct api_ctx *ctx, bool on, const struct strlist *allowed)
{
	struct strlist forbidden = {NULL, 0};
	for (size_t i = 0; i < ctx->req->nparams; i++) {
		char *key = listing_filter_key(ctx->req->params[i].name);
		if (!key)
			continue;
		char *field = allow_name(key);
		if (!on || !strlist_contains(allowed, field))
			strlist_add(&forbidden, field);
		free(field);
		free(key);
	}
	if (forbidden.len == 0)
		return 0;
	struct strbuf msg = STRBUF_INIT;
	strbuf_addf(&msg, "Forbidden filter%s: ", forbidden.len > 1 ? "s" : "");
	for (size_t i = 0; i < forbidden.len; i++)
		strbuf_addf(&msg, "%s%s", i ? ", " : "", forbidden.items[i]);
	int status = api_fail(ctx, 422, "%s", msg.ptr);
	strbuf_release(&msg);
	strlist_free(&forbidden);
	return status;
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
		char *key = listing_filter_key(req->params[i].name);
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
};

/* The value at path below the item's value of path[0]. */
static value_t value_at(struct list_run *run, uint32_t item, char *const *path, size_t npath)
{
	value_t v = run->src->value(run->src->self, item, path[0], &run->scratch[0]);
	for (size_t i = 1; i < npath; i++)
		v = value_map_getz(v, path[i]);
	return filter_absolute(&run->ctx->env, v, &run->scratch[1]);
}

static value_t run_sort_value(void *ctx, uint32_t item, const struct sort_key *key)
{
	struct list_run *run = ctx;
	return value_at(run, item, key->path, key->npath);
}

static void free_filters(struct filter *filters, size_t n)
{
	for (size_t i = 0; i < n; i++)
		filter_free(&filters[i]);
	free(filters);
}

/* Every filter[...] of the request; returns 0, or 400 for a bad one. */
static int read_filters(struct api_ctx *ctx, struct filter **out, size_t *n)
{
	*out = NULL;
	*n = 0;
	for (size_t i = 0; i < ctx->req->nparams; i++) {
		const struct query_param *q = &ctx->req->params[i];
		char *key = listing_filter_key(q->name);
		if (!key)
			continue;
		struct filter one;
		char err[FILTER_ERR_LEN];
		int rc = filter_parse(key, q->value, ctx->now, &ctx->regex_budget, &one, err);
		free(key);
		if (rc != 0)
			return api_fail(ctx, 400, "%s", err);
		*out = xrealloc(*out, (*n + 1) * sizeof **out);
		(*out)[(*n)++] = one;
	}
	return 0;
}

static bool passes(struct list_run *run, const struct filter *filters, size_t n, uint32_t item)
{
	for (size_t i = 0; i < n; i++)
		if (!filter_match(&filters[i], value_at(run, item, filters[i].path, filters[i].npath)))
			return false;
	return true;
}

/* Sorts the items that passed (kept of them) as far as the page's end
 * and answers that page. */
static void answer_page(struct list_run *run, uint32_t *items, size_t kept, long limit,
                        long page, const char *path)
{
	struct api_ctx *ctx = run->ctx;
	/* Only the items up to the page's end need their order. */
	size_t page_end = (size_t)page <= kept / (size_t)limit ? (size_t)page * (size_t)limit : kept;
	struct sort_spec asked, sort;
	sort_parse(request_param(ctx->req, "sort"), &asked);
	sort_view_served(&asked, &ctx->cfg->excluded_keys, &sort);
	sort_items_first_cached(items, kept, page_end, &sort, run_sort_value, run);
	listing_write_page(ctx, items, kept, limit, page, path, run->src->write, run->src->self);
	sort_view_free(&sort);
	sort_free(&asked);
}

int listing_answer(struct api_ctx *ctx, const struct listing_source *src, uint32_t *items,
                   size_t n, const char *path)
{
	long limit, page;
	struct filter *filters = NULL;
	size_t nfilters = 0;
	int status = listing_read_paging(ctx, &limit, &page);
	if (status == 0)
		status = read_filters(ctx, &filters, &nfilters);
	if (status != 0) {
		free_filters(filters, nfilters);
		return status;
	}
	struct list_run run = {ctx, src, {VALUE_BUILDER_INIT, VALUE_BUILDER_INIT}};
	size_t kept = 0;
	for (size_t i = 0; i < n && !ctx->regex_budget.spent; i++)
		if (passes(&run, filters, nfilters, items[i]))
			items[kept++] = items[i];
	status = listing_check_budget(ctx);
	if (status == 0)
		answer_page(&run, items, kept, limit, page, path);
	free_filters(filters, nfilters);
	vb_release(&run.scratch[0]);
	vb_release(&run.scratch[1]);
	return status;
}

int listing_answer_all(struct api_ctx *ctx, enum resource_type type, const char *handle,
                       const struct listing_source *src, size_t n, const char *path)
{
	struct strlist allowed;
	bool on = allowed_filters(ctx->cfg, type, handle, &allowed);
	int status = listing_check_filters(ctx, on, &allowed);
	if (status == 0) {
		uint32_t *items = xmalloc((n + 1) * sizeof *items);
		for (size_t i = 0; i < n; i++)
			items[i] = (uint32_t)i;
		status = listing_answer(ctx, src, items, n, path);
		free(items);
	}
	strlist_free(&allowed);
	return status;
}
