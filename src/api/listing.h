/*
 * api/listing: what every paginated list shares (spec §4, statamic-api.md
 * §3.2, §7, §8): limit and page, the filter allow-list and its 422, field
 * selection, filters, sort, and the page with its links and meta.
 *
 * A list endpoint describes its items with a listing_source (how to read
 * one item's value of a key, how to write one item) and hands its
 * candidate item numbers to listing_answer, which answers the request
 * with one page, or returns the status of the one error the parameters
 * call for (api_fail).
 */
#ifndef CMS_API_LISTING_H
#define CMS_API_LISTING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "api/api.h"
#include "query/filterparams.h"

struct listing_source {
	/* The item's value of key as a filter or a sort sees it: a value that
	 * stays valid while the snapshot is open, or one written to scratch
	 * (which the source resets first). Missing when the item has no such
	 * key. URL values are made absolute by the listing. */
	value_t (*value)(void *self, uint32_t item, const char *key, struct value_builder *scratch);
	/* Writes the item: whole, or the fields asked for (never empty when
	 * given). */
	void (*write)(void *self, struct jsonw *w, uint32_t item, const struct strlist *fields);
	void *self;
};

/*
 * The bounds of [api] on a query (max_query_length, max_filters,
 * max_sort_keys, max_fields; 0 is no bound), counted alike for every
 * endpoint before any reads the query: returns 0, or 400 with its
 * message, which names the bound, in e. Filters count once per name (a
 * repeated one keeps its last value), sort keys and fields as written,
 * repeats included.
 */
int listing_check_bounds(const struct config *cfg, const struct request *req,
                         struct http_error *e);

/* ?limit= (1..max_limit, default default_limit) and ?page= (from 1);
 * returns 0, or 400 naming the parameter when one is malformed. */
int listing_read_paging(struct api_ctx *ctx, long *limit, long *page);

/* Returns 422 "Forbidden filter(s): a, b" (query order, repeats kept)
 * when a filter (of an OR group too: query/filterparams.h) names a field
 * the allow-list lacks, or any field when filtering is off (on ==
 * false); 400 for a malformed group; else 0. The field of filter[a.b:c]
 * is a.b, as written; of filter[taxonomy:t:c] it is taxonomy:t. */
int listing_check_filters(struct api_ctx *ctx, bool on, const struct strlist *allowed);

/* What a list request asks of its items besides paging: its filters (its
 * OR groups' too) with those of the query scopes it names (config.h
 * scope_def), and its sort, else the first of its scopes' that has one. */
struct list_query {
	struct filter_params filters; /* owned */
	const char *sort;             /* borrowed from the request or the config; NULL: none */
};

/* Reads the list query of a list of a type's handle (NULL for users):
 * returns 0, or 400 for a malformed filter group, 422 "Forbidden query
 * scope(s): a, b" for scopes the config lacks or keeps from this list
 * (out then holds nothing). Call it after the filter allow-list: its 422
 * comes first. */
int listing_read_query(struct api_ctx *ctx, enum resource_type type, const char *handle,
                       struct list_query *out);
void listing_query_free(struct list_query *q);

/* Returns 400 naming the filter when the request's regex budget ran out
 * (the list it was choosing from is not whole), else 0. */
int listing_check_budget(struct api_ctx *ctx);

/* fields=a,b or fields[]=a&fields[]=b; a key asked for twice is kept
 * once, where it was first asked for. */
void listing_requested_fields(const struct request *req, struct strlist *out);

/* Where listing_write_page gets each item written. */
typedef void (*listing_write_fn)(void *self, struct jsonw *w, uint32_t item,
                                 const struct strlist *fields);

/* Answers 200 with one page of items (n of them, in order):
 * {"data": [...], "links": ..., "meta": ...}; path is the list's URL
 * below the API root. */
void listing_write_page(struct api_ctx *ctx, const uint32_t *items, size_t n, long limit,
                        long page, const char *path, listing_write_fn write, void *self);

/*
 * The whole list request over the candidates (reordered in place):
 * paging, the filters of q (already allowed by the caller), its sort, one
 * page. filter[site] reads the item's "site" key as the source gives it.
 * Returns 0 (answered), or the status of the error the parameters call
 * for.
 */
int listing_answer(struct api_ctx *ctx, const struct listing_source *src,
                   const struct list_query *q, uint32_t *items, size_t n, const char *path);

/* Filters asked of items that are not in a list (a navigation's pages),
 * each a map of its keys: open reads those of p (already allowed) and
 * returns 0, or 400 for a bad one; pass says whether a map passes. */
struct listing_filters;
int listing_filters_open(struct api_ctx *ctx, const struct filter_params *p,
                         struct listing_filters **out);
bool listing_filters_pass(struct api_ctx *ctx, const struct listing_filters *f, value_t map);
void listing_filters_close(struct listing_filters *f);

/* The same over all n items of src (numbered 0..n-1), after the filter
 * allow-list of type and handle (handle NULL for users): 422 for a
 * filter it lacks. path is below the API root. */
int listing_answer_all(struct api_ctx *ctx, enum resource_type type, const char *handle,
                       const struct listing_source *src, size_t n, const char *path);

#endif
