/*
 * filterparams: the filter[...] parameters of a list request, read once
 * into what they ask, before any is parsed as a condition (filter.h).
 *
 *   filter[title:contains]=a               a filter of the list (all must hold)
 *   filter[or][0][title:contains]=a        a filter of OR group 0
 *   filter[or][0][featured]=true           ... which holds when all of its own do
 *   filter[or][1][tags:in]=b               the list keeps what one group passes
 *
 * Groups nest one level only (no filter[or][0][or][...]): an item passes
 * when it passes every top-level filter and, if there are groups, every
 * filter of at least one of them. A group is named by a number of at most
 * FILTER_GROUP_MAX_DIGITS digits; groups with the same number are one
 * group, whatever the order of the parameters. `filter[or]=x` (nothing
 * after it) is a plain filter on a field called "or", as before.
 */
#ifndef CMS_API_FILTERPARAMS_H
#define CMS_API_FILTERPARAMS_H

#include <stddef.h>

#include "http/error.h"
#include "http/request.h"

#define FILTER_GROUP_MAX_DIGITS 4

struct filter_param {
	char *key;         /* owned: what filter[KEY] names, "title:contains" */
	const char *value; /* borrowed from the request (or a scope) */
	size_t group;      /* FILTER_TOP, or the group's place in the groups */
};

#define FILTER_TOP ((size_t)-1)

struct filter_params {
	struct filter_param *items; /* owned, in the request's order */
	size_t n;
	size_t ngroups;             /* groups are numbered 0 .. ngroups - 1 */
};

/* "filter[KEY]" -> KEY (newly allocated), NULL for any other name. */
char *filter_param_key(const char *name);

/*
 * Reads every filter[...] of req into out. Returns 0, or 400 with its
 * message in e for a group parameter that is malformed (no field, a group
 * that is not a number, a group inside a group). out holds nothing to
 * free after an error.
 */
int filter_params_read(const struct request *req, struct filter_params *out,
                       struct http_error *e);

/* Appends a top-level filter (a query scope's): key is copied, value is
 * borrowed and must outlive out. */
void filter_params_add(struct filter_params *out, const char *key, const char *value);

void filter_params_free(struct filter_params *p);

/* The field the allow-list checks for a key: the part before the first
 * ':', or taxonomy:<handle> for a taxonomy filter. Newly allocated. */
char *filter_param_field(const char *key);

#endif
