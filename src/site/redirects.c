/* redirects: where redirect entries send; see redirects.h. */
#include "autoconfig.h"

#include "site/redirects.h"

#include <stdlib.h>
#include <string.h>

#include "lib/strbuf.h"
#include "site/assets.h"
#include "site/augment.h"
#include "site/entries.h"

/* Redirects to redirects are followed this far, no further (a loop). */
#define MAX_HOPS 8

static bool entry_url(const struct site_index *idx, const struct entry *e, struct strbuf *out,
                      int hops);

/* The first page below e in its tree (ResolveRedirect::firstChild): for
 * the root page, the first top-level page after it; else its first
 * child. NULL when there is none. */
static const struct entry *first_child(const struct site_index *idx, const struct entry *e)
{
	const struct collection_info *c = &idx->collections[e->collection];
	bool root = c->structured && c->expects_root && e->order == 1;
	const struct entry *first = NULL;
	for (size_t i = 0; i < c->nentries && e->order > 0; i++) {
		const struct entry *x = c->entries[i];
		bool below = root ? x->site == e->site && !x->parent && x->order > 1 : x->parent == e;
		if (below && x->order > 0 && (!first || x->order < first->order))
			first = x;
	}
	return first;
}

/* asset::{container}::{path}: the asset's url, when it is there. */
static bool asset_url(const struct site_index *idx, const char *id, struct strbuf *out)
{
	const char *sep = strstr(id, "::");
	if (!sep)
		return false;
	struct value_iter it;
	value_iter_init(&it, value_map_getz(vb_result(&idx->extras), "assets"));
	while (value_iter_next(&it)) {
		size_t len;
		const char *handle = value_str(value_map_getz(it.value, "handle"), &len);
		if (len == (size_t)(sep - id) && memcmp(handle, id, len) == 0)
			return !value_is_missing(assets_find_file(it.value, sep + 2)) &&
			       assets_url(it.value, sep + 2, out);
	}
	return false;
}

/* Whether text is a number PHP's is_numeric takes, and which. */
static bool numeric(const char *text, long long *n)
{
	char *end;
	*n = strtoll(text, &end, 10);
	return *text && !*end;
}

/* Where e's `redirect` sends, into out; false when it sends nowhere. */
static bool redirect_url(const struct site_index *idx, const struct entry *e, struct strbuf *out,
                         int hops)
{
	value_t v = entry_field(idx, e, "redirect");
	if (value_type(v) == VALUE_MAP)
		v = value_map_getz(v, "url"); /* a link in a group, or {url: ...} */
	struct strbuf text = STRBUF_INIT;
	if (value_type(v) == VALUE_STRING)
		strbuf_addstr(&text, value_str(v, NULL));
	else if (value_type(v) == VALUE_INT)
		strbuf_addf(&text, "%lld", (long long)value_int(v));
	const char *s = strbuf_str(&text);
	long long n;
	bool found;
	if (hops > MAX_HOPS || !*s)
		found = false;
	else if (strcmp(s, "@child") == 0) {
		const struct entry *child = first_child(idx, e);
		found = child && entry_url(idx, child, out, hops + 1);
	} else if (strncmp(s, "entry::", 7) == 0) {
		const struct entry *target = site_index_entry(idx, s + 7);
		found = target && entry_url(idx, target, out, hops + 1);
	} else if (strncmp(s, "asset::", 7) == 0) {
		found = asset_url(idx, s + 7, out);
	} else if (numeric(s, &n)) {
		/* 404 (or 0) is Statamic's "no redirect". */
		found = n != 404 && n != 0;
		if (found)
			strbuf_addf(out, "%lld", n);
	} else {
		strbuf_addstr(out, s);
		found = true;
	}
	strbuf_release(&text);
	return found;
}

/* e's url as Statamic's Entry::url() gives it: where its redirect sends,
 * else its site's url and its uri; false when it has neither. */
static bool entry_url(const struct site_index *idx, const struct entry *e, struct strbuf *out,
                      int hops)
{
	size_t at = out->len;
	if (redirect_url(idx, e, out, hops))
		return true;
	strbuf_truncate(out, at);
	if (!e->uri)
		return false;
	augment_url(idx->sites[e->site].url, e->uri, out);
	return true;
}

void redirects_resolve(struct site_index *idx)
{
	struct strbuf url = STRBUF_INIT;
	for (size_t i = 0; i < idx->nentries; i++) {
		strbuf_reset(&url);
		if (redirect_url(idx, &idx->entries[i], &url, 0))
			idx->entries[i].redirect = strbuf_detach(&url, NULL);
	}
	strbuf_release(&url);
}
