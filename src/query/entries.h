/*
 * query/entries: a query over the entries of one collection of the
 * snapshot at one moment (spec §4, statamic-api.md §7, §8), nothing of
 * HTTP in it: api/entries.c reads a request's parameters, runs the query
 * and writes what it chose.
 *
 * It knows each entry's values as a filter, a sort or the API sees them
 * (Statamic's computed keys over the entry's data; an entry's item, keys
 * sorted, is built of them), the filters of a list (fields, dotted paths,
 * taxonomies, and the default one that keeps published entries only),
 * and the choice of a page's entries: filtered, then put in order as far
 * as the page's end, a dated collection's date order taken from the
 * snapshot instead of sorted where it can be.
 */
#ifndef CMS_API_QUERY_ENTRIES_H
#define CMS_API_QUERY_ENTRIES_H

#include "core/config.h"
#include "http/error.h"
#include "lib/jsonw.h"
#include "query/filter.h"
#include "query/filterparams.h"
#include "query/regex.h"
#include "query/sort.h"
#include "site/snapshot.h"
#include "site/status.h"

/* One query over the entries of a collection of the snapshot, at one
 * moment. */
struct entries_query {
	const struct snapshot *snap;
	const struct config *cfg;         /* excluded_keys, which items leave out */
	long long now;                    /* the moment statuses are read at */
	struct regex_budget *budget;      /* borrowed: what the filters' regexes draw on */
	const struct jsonw_env *env;      /* borrowed: the bases URL values compare with */
	struct status_span *span;         /* NULL, or narrowed by every status read while an
	                                   * entry is rendered for the cache (api/renders.h) */
	const struct relation_reader *related; /* borrowed, or NULL: how a dotted filter
	                                   * reads the items a relation names */
	struct snap_collection collection;
	uint32_t collection_number;
	struct value_builder scratch[2];  /* values made for filters and sort */
	int next_scratch;
	bool tree_page;                   /* items are tree pages: without `parent`, which
	                                   * Statamic's AugmentedPage keeps out of the API */
	uint32_t root_of[3];              /* the last root page found: collection, site, entry */
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
	struct entry_filters *any; /* owned: the OR groups (query/filterparams.h), one of
	                           * which must pass besides the filters above; each
	                           * group's own default_published is not read */
	size_t nany;
};

/* The entries of a list as far as one page's end (entries_query_page). */
struct entries_page {
	uint32_t *items; /* those that pass, in the list's order up to the page's end */
	size_t n;        /* how many pass: the list's length */
	uint32_t *own;   /* owned: the array items is when the query made it, else NULL */
};

/* Starts q over collection number `collection` of snap at the moment now;
 * cfg, budget and env are borrowed for q's life. */
void entries_query_init(struct entries_query *q, const struct snapshot *snap, uint32_t collection,
                        long long now, const struct config *cfg, struct regex_budget *budget,
                        const struct jsonw_env *env);
void entries_query_free(struct entries_query *q);

/* The entry's status at q's moment. */
enum entry_status entries_status(const struct entries_query *q, const struct snap_entry *e);
/* The same for any entry of collection c at now; span (unless NULL) is
 * narrowed to the moments over which that status holds. */
enum entry_status entries_status_at(const struct snap_collection *c, const struct snap_entry *e,
                                    long long now, struct status_span *span);

/* Filters with nothing in them but the default published-only one. */
void entries_filters_init(struct entry_filters *f);
/* Adds filter[key]=value to f: a taxonomy filter (key taxonomy:<handle>,
 * then a modifier) or a field's. A filter on status or published lifts
 * the default published-only one, status=any with nothing in its place.
 * Returns 0, or 400 with its message in e for an unknown condition or
 * modifier or a bad regex. */
int entries_add_filter(struct entries_query *q, struct entry_filters *f, const char *key,
                       const char *value, struct http_error *e);
/* Adds every filter of p to f, those of OR groups to f's groups; a filter
 * on status or published anywhere lifts the default one. Returns 0, or
 * 400 with its message in e (entries_add_filter). */
int entries_add_params(struct entries_query *q, struct entry_filters *f,
                       const struct filter_params *p, struct http_error *e);
/* Whether e passes every filter of f (the default one at q's moment). */
bool entries_pass(struct entries_query *q, const struct entry_filters *f,
                  const struct snap_entry *e);
/* The same in two parts: the default published-only filter (true when f
 * has none), and every other filter of f. */
bool entries_pass_status(struct entries_query *q, const struct entry_filters *f,
                         const struct snap_entry *e);
bool entries_pass_filters(struct entries_query *q, const struct entry_filters *f,
                          const struct snap_entry *e);
void entries_free_filters(struct entry_filters *f);

/* The value of key for e as a filter or a sort reads it (computed or
 * data), valid until q's scratch is used twice more. */
value_t entries_value(struct entries_query *q, const struct snap_entry *e, const char *key);

/* The entry as the API delivers it into out: computed keys, data, and
 * extras (a map, or missing) over both; keys sorted; excluded_keys out. */
void entries_build_item(struct entries_query *q, const struct snap_entry *e, value_t extras,
                        struct value_builder *out);

/*
 * Runs the query for one page (limit entries a page, page from 1): of the
 * candidate entry numbers (reordered in place), or of the whole
 * collection's when items is NULL, those that pass f, in sort's order as
 * far as the page's end, into out (entries_page_free); a sort key the
 * entries never serve (excluded_keys) is ignored (sort_view_served).
 * When the regex budget runs out the list is left unsorted and not
 * whole: the caller refuses the request.
 */
void entries_query_page(struct entries_query *q, const struct entry_filters *f,
                        const struct sort_spec *sort, uint32_t *items, size_t n, long limit,
                        long page, struct entries_page *out);
void entries_page_free(struct entries_page *p);

#endif
