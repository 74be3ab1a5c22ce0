/*
 * paginate: the `links` and `meta` of a paginated list, as Laravel's
 * LengthAwarePaginator writes them for Statamic (statamic-api.md §3.2,
 * §3.3), with the contract's decisions (spec §4): link URLs carry every
 * query parameter of the request, always `limit`, and `page` last.
 * meta has current_page, from, last_page, links (Laravel's window of page
 * links, three on each side), path, per_page, to, total.
 */
#ifndef CMS_API_PAGINATE_H
#define CMS_API_PAGINATE_H

#include "http/request.h"
#include "lib/jsonw.h"

struct page {
	long total;    /* items in the whole list */
	long per_page; /* the limit, >= 1 */
	long current;  /* the requested page, >= 1 (may lie past the last) */
	const char *path; /* the endpoint's absolute URL, without a query */
};

/* The page's first item number (1-based) and last, both 0 when the page
 * is empty (past the end). */
long page_from(const struct page *p);
long page_to(const struct page *p);
long page_last(const struct page *p);

/* Writes the keys "links" and "meta" with their values into the object
 * the writer has open. */
void paginate_write(struct jsonw *w, const struct page *p, const struct request *req);

#endif
