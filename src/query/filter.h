/*
 * filter: one `filter[field:condition]=value` of Statamic's API (statamic-
 * api.md §7.1, §7.3), parsed once per request and matched against item
 * values (packed values, value.h). Every condition and alias of §7.3:
 *   is/equals, not/isnt/aint/¯\_(ツ)_/¯, contains, doesnt_contain,
 *   starts_with/begins_with, doesnt_start_with/doesnt_begin_with,
 *   ends_with, doesnt_end_with, gt/greater_than, gte/
 *   greater_than_or_equal_to, lt/less_than, lte/less_than_or_equal_to,
 *   in, not_in, matches/match/regex, doesnt_match, is_empty/is_blank/
 *   doesnt_exist/not_set/isnt_set/null, exists/isset, is_alpha,
 *   is_alpha_numeric, is_numeric, is_url, is_embeddable, is_email,
 *   is_numberwang, is_after/is_future, is_before/is_past, overlaps,
 *   doesnt_overlap.
 * The value is coerced as Statamic does (true/false, numbers). Like and
 * regex conditions are case-insensitive and multi-line, through PCRE2
 * (query/regex.h), and every match draws on the request's one regex
 * budget: once it runs out, filter_match says no to everything and the
 * budget names the filter, so that the caller refuses the request instead
 * of answering from part of the list. The contract's decision holds: gt/gte/lt/lte never
 * match a missing or null value. is_empty=true and exists=false are
 * Statamic's loose "= null" (null, missing, '' and false), exists=true and
 * is_empty=false its strict "!= null" (anything but null, missing and ''),
 * so false is both empty and set. Items are matched by their raw values
 * (a relation by the id, slug or path the content stores).
 */
#ifndef CMS_API_FILTER_H
#define CMS_API_FILTER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/jsonw.h"
#include "lib/value.h"
#include "query/regex.h"

#define FILTER_ERR_LEN 256

enum filter_kind {
	FILTER_IS, FILTER_NOT, FILTER_LIKE, FILTER_COMPARE, FILTER_IN, FILTER_REGEX,
	FILTER_EMPTY, FILTER_DATE, FILTER_OVERLAPS,
};

struct lazy_regex;

struct filter {
	char *param;             /* owned: the parameter's name, "filter[title:regex]" */
	char *field;             /* owned: the part before the first ':' */
	char **path;             /* owned: field split on '.' (nested fields) */
	size_t npath;
	enum filter_kind kind;
	bool negate;             /* doesnt_*, not_in, doesnt_match, exists, ... */
	int compare;             /* FILTER_COMPARE: -2 lt, -1 lte, 1 gte, 2 gt */
	struct value_builder value; /* owned: the coerced value (or list for in/overlaps) */
	struct regex *regex;     /* owned: like/regex/is_* conditions but a contains of
	                          * plain text (needle), else NULL */
	struct regex_budget *budget; /* borrowed: what its matches draw on */
	char *needle;            /* owned: contains of plain ASCII text, lowercased and
	                          * matched without the regex engine; NULL otherwise */
	size_t needle_len;
	struct lazy_regex *folds; /* owned: the needle has a k or an s: the regex that a
	                          * text holding U+212A or U+017F (which fold to them) is
	                          * asked of, compiled the first time one is; else NULL */
	long long when;          /* FILTER_DATE: the moment compared with */
	bool after;              /* FILTER_DATE: item must be after `when` */
};

/*
 * Parses key ("title:contains", or "title" for is) and its raw value.
 * now is the time is_before/is_after compare with; budget (borrowed, it
 * must outlive the filter) is the request's, shared by all its filters.
 * Returns 0, or -1 with err naming the problem: an unknown condition or a
 * bad regex.
 */
int filter_parse(const char *key, const char *value, long long now, struct regex_budget *budget,
                 struct filter *out, char err[FILTER_ERR_LEN]);

/* True when item (the field's value, missing when the item has none)
 * passes the filter. False for every item once the budget is spent
 * (budget->spent, budget->spent_by naming the filter that ran out). */
bool filter_match(const struct filter *f, value_t item);

/*
 * filter_match over many texts at once, for a contains or doesnt_contain
 * filter of plain text: the texts are `lowered`, PHP's string of each
 * item with A-Z lowered, one after another; text i (from..to) ends at
 * ends[i] and starts where text i - 1 ends (at 0 for i == 0). Sets pass[i
 * - from] for each, as filter_match would say of the item, and returns
 * true; returns false, setting nothing, for any other filter.
 */
bool filter_match_lowered(const struct filter *f, const char *lowered, const uint32_t *ends,
                          size_t from, size_t to, unsigned char *pass);

/* Whether matching f runs its regex on every item (and so draws on the
 * budget as it goes). A contains of plain text does not: a needle with a
 * k or an s asks the regex only of the rare texts holding U+212A or
 * U+017F, whatever the order the items are tried in. */
bool filter_uses_regex(const struct filter *f);

/* A URL value as a filter or a sort compares it: the absolute text a
 * client reads (env's bases), written to scratch. Any other value is
 * returned as is. */
value_t filter_absolute(const struct jsonw_env *env, value_t v, struct value_builder *scratch);

/* The value of f's (possibly dotted) field in a map. */
value_t filter_field_value(const struct filter *f, value_t map);

/*
 * How a filter reads the items a relation names, supplied by the layer
 * that knows every kind of item (api/): value writes (or points at) the
 * value of key on the item the reference ref names (an entry, a term, a
 * user or an asset: value.h), as a filter of that item's own list reads
 * it; missing when the item is not shown at the request's moment or has
 * no such key. What it writes goes to scratch (reset first); what it
 * points at lives in the snapshot.
 */
struct relation_reader {
	value_t (*value)(void *ctx, value_t ref, const char *key,
	                 struct value_builder *scratch);
	/* The short object of ref, wherever it is kept (site/snapshot.h:
	 * the snapshot's table of relations, or the reference itself). */
	value_t (*object)(void *ctx, value_t ref);
	void *ctx;
};

/*
 * filter_match of the value at f's path[from..] below v, the value of
 * path[0..from), stepping through relations: a relationship field stands
 * for its related items, and the item passes when one of them does (with
 * none related, the value read is missing); a reference's item is read
 * through rr (NULL: it reads as missing). Maps are walked key by key, as
 * filter_field_value walks them.
 */
bool filter_match_path(const struct filter *f, value_t v, size_t from,
                       const struct relation_reader *rr);

void filter_free(struct filter *f);

/* The name of condition i, aliases included, in the order of the list
 * above; NULL past the last (what the OpenAPI document lists). */
const char *filter_condition_at(size_t i);

#endif
