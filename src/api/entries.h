/*
 * api/entries: what the entry endpoints share with the tree and the term
 * endpoints: one request's view of a collection (its query,
 * query/entries.h), the filters read from the request, an entry written
 * as an item, and a list of entries answered a page at a time.
 */
#ifndef CMS_API_API_ENTRIES_H
#define CMS_API_API_ENTRIES_H

#include "api/api.h"
#include "api/output.h"
#include "query/entries.h"

/* One request's view of a collection: the query, and the request that
 * runs it. */
struct entries_req {
	struct api_ctx *ctx;
	struct entries_query q;
	struct relation_reader related; /* what q.related points at */
	const struct item_out *out;     /* borrowed: what the request asks of each entry it
	                                 * writes (api/output.h), NULL: nothing more */
};

/* Opens the collection handle for one request (the router's gate has
 * found it enabled); returns 0, or 404 for a missing one. */
int entries_open(struct api_ctx *ctx, struct entries_req *r, const char *handle);
void entries_close(struct entries_req *r);

/* The same for a collection by number, whatever the config says (a nav
 * tree shows entries of any collection). */
void entries_attach(struct api_ctx *ctx, struct entries_req *r, uint32_t collection);

/* The entry's status at the request's moment (entries_status_at). */
enum entry_status api_entry_status(const struct api_ctx *ctx, const struct snap_entry *e);

/* The filters of the request: each returns 0, or 422 for fields the
 * collection does not allow, 400 for an unknown condition or a bad
 * regex. */
int entries_check_allowed(struct entries_req *r);
/* The same against a given allow-list (on false: filtering is off). */
int entries_check_filters(struct entries_req *r, bool on, const struct strlist *allowed);
/* The filters of a list query (api/listing.h) into f; returns 0, or 400
 * for an unknown condition or a bad regex. */
int entries_read_filters(struct entries_req *r, const struct filter_params *p,
                         struct entry_filters *f);

/* Writes item whole, or only the fields asked for (in their order, null
 * when absent). */
void entries_write_item(struct jsonw *w, value_t item, const struct strlist *fields);

/* Filters (with the default published-only one and the query scopes
 * asked for), sorts and answers one page of the candidate entry numbers
 * (reordered in place), or of the whole collection's when items is NULL;
 * path is the list's URL below the API root. Returns 0, or the status of
 * the error the parameters call for. */
int entries_list(struct entries_req *r, uint32_t *items, size_t n, const char *path);

#endif
