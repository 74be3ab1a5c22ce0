/*
 * api/entries: what the entry endpoints share with the tree endpoints:
 * one request's view of a collection, entry items (Statamic's computed
 * keys over the entry's data, keys sorted), filters and field selection.
 */
#ifndef CMS_API_API_ENTRIES_H
#define CMS_API_API_ENTRIES_H

#include "api/api.h"
#include "query/filter.h"
#include "site/status.h"

struct entries_req {
	struct api_ctx *ctx;
	struct snap_collection collection;
	uint32_t collection_number;
	long long now;
	struct value_builder scratch[2]; /* values made for filters and sort */
	int next_scratch;
};

enum tax_mode { TAX_ANY, TAX_NONE, TAX_ALL };

struct tax_filter {
	char *taxonomy; /* owned */
	enum tax_mode mode;
	struct strlist slugs;
};

/* Where a field filter reads an entry's value, decided once a request. */
enum entry_field_source { FIELD_DATA, FIELD_COMPUTED, FIELD_TITLE };

struct entry_field {
	const char *key; /* the filter's first path part, "locale" for site; not owned */
	enum entry_field_source source;
};

struct entry_filters {
	struct filter *fields;    /* owned */
	struct entry_field *from; /* owned: where each of fields reads */
	size_t nfields;
	struct tax_filter *taxes; /* owned */
	size_t ntaxes;
	bool default_published;   /* no filter on status or published */
};

/* Opens the collection handle for one request (the router's gate has
 * found it enabled); returns 0, or 404 for a missing one. */
int entries_open(struct api_ctx *ctx, struct entries_req *r, const char *handle);
void entries_close(struct entries_req *r);

/* The same for a collection by number, whatever the config says (a nav
 * tree shows entries of any collection). */
void entries_attach(struct api_ctx *ctx, struct entries_req *r, uint32_t collection);

enum entry_status entries_status(const struct entries_req *r, const struct snap_entry *e);
/* The same for any entry, at the request's moment. */
enum entry_status api_entry_status(const struct api_ctx *ctx, const struct snap_entry *e);

/* The filters of the request: each returns 0, or 422 for fields the
 * collection does not allow, 400 for an unknown condition or a bad
 * regex. */
int entries_check_allowed(struct entries_req *r);
/* The same against a given allow-list (on false: filtering is off). */
int entries_check_filters(struct entries_req *r, bool on, const struct strlist *allowed);
int entries_read_filters(struct entries_req *r, struct entry_filters *f);
bool entries_pass(struct entries_req *r, const struct entry_filters *f, const struct snap_entry *e);
void entries_free_filters(struct entry_filters *f);

/* The entry as the API delivers it into out: computed keys, data, and
 * extras (a map, or missing) over both; keys sorted; excluded_keys out. */
void entries_build_item(struct entries_req *r, const struct snap_entry *e, value_t extras,
                        struct value_builder *out);

/* Writes item whole, or only the fields asked for (in their order, null
 * when absent). */
void entries_write_item(struct jsonw *w, value_t item, const struct strlist *fields);

/* Filters (with the default published-only one), sorts and answers one
 * page of the candidate entry numbers (reordered in place), or of the
 * whole collection's when items is NULL; path is the list's URL below the
 * API root. Returns 0, or the status of the error the parameters call
 * for. */
int entries_list(struct entries_req *r, uint32_t *items, size_t n, const char *path);

#endif
