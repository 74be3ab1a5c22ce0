/*
 * api/terms: GET /{route}/taxonomies/{t}/terms/{slug}/entries, the
 * entries that use a term (statamic-api.md §1.2, §2.1): the taxonomy must
 * be enabled, and the entries' collections; filters must be allowed by
 * every collection the entries come from.
 */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "api/tags.h"
#include "api/entries.h"
#include "lib/strbuf.h"

static bool listed(const uint32_t *items, size_t n, uint32_t v)
{
	for (size_t i = 0; i < n; i++)
		if (items[i] == v)
			return true;
	return false;
}

/* The term's entries (every site's term of that slug) in enabled
 * collections; returns how many, or -1 when there is no such term. */
static long term_entries(struct api_ctx *ctx, value_t taxonomy, const char *slug, uint32_t **out)
{
	long found = -1;
	size_t n = 0;
	*out = NULL;
	struct value_iter t;
	value_iter_init(&t, value_map_getz(taxonomy, "terms"));
	while (value_iter_next(&t)) {
		if (strcmp(value_str(value_map_getz(t.value, "slug"), NULL), slug) != 0)
			continue;
		found = 0;
		struct value_iter e;
		value_iter_init(&e, value_map_getz(t.value, "entries"));
		while (value_iter_next(&e)) {
			uint32_t number = (uint32_t)value_int(e.value);
			if (number >= snap_entry_count(ctx->snap) || listed(*out, n, number))
				continue;
			struct snap_entry entry = snap_entry_at(ctx->snap, number);
			const char *c = snap_collection_at(ctx->snap, entry.collection).handle;
			if (!handle_enabled(ctx->cfg, RES_COLLECTIONS, c))
				continue;
			*out = xrealloc(*out, (n + 1) * sizeof **out);
			(*out)[n++] = number;
		}
	}
	return found < 0 ? -1 : (long)n;
}

/* What every collection of the entries allows (none: filtering is off). */
static bool common_filters(struct api_ctx *ctx, const uint32_t *items, size_t n,
                           struct strlist *out)
{
	memset(out, 0, sizeof *out);
	bool first = true, on = n > 0;
	for (size_t i = 0; i < n && on; i++) {
		const char *c = snap_collection_at(ctx->snap, snap_entry_at(ctx->snap, items[i]).collection).handle;
		struct strlist allowed;
		on = allowed_filters(ctx->cfg, RES_COLLECTIONS, c, &allowed);
		if (first) {
			for (size_t k = 0; k < allowed.len; k++)
				strlist_add(out, allowed.items[k]);
			first = false;
		} else {
			struct strlist both = {NULL, 0};
			for (size_t k = 0; k < out->len; k++)
				if (strlist_contains(&allowed, out->items[k]))
					strlist_add(&both, out->items[k]);
			strlist_free(out);
			*out = both;
		}
		strlist_free(&allowed);
	}
	return on;
}

int api_term_entries(struct api_ctx *ctx)
{
	const char *taxonomy_handle = ctx->params[0], *slug = ctx->params[1];
	value_t taxonomy = snap_extras_find(ctx->snap, "taxonomies", taxonomy_handle);
	uint32_t *items = NULL;
	long n = -1;
	if (!value_is_missing(taxonomy))
		n = term_entries(ctx, taxonomy, slug, &items);
	if (n < 0) {
		free(items);
		return api_not_found(ctx);
	}
	/* A term no entry names lists nothing: never NULL, which would ask
	 * entries_list for a whole collection. */
	if (!items)
		items = xmalloc(sizeof *items);
	/* An entry of any collection may take the term. */
	for (uint32_t c = 0; c < snap_collection_count(ctx->snap); c++)
		api_tag(ctx, TAG_ENTRIES, snap_collection_at(ctx->snap, c).handle, NULL);
	struct entries_req r;
	entries_attach(ctx, &r, n > 0 ? snap_entry_at(ctx->snap, items[0]).collection : 0);
	struct strlist allowed;
	bool on = common_filters(ctx, items, (size_t)n, &allowed);
	int status = entries_check_filters(&r, on, &allowed);
	if (status == 0) {
		struct strbuf path = STRBUF_INIT;
		strbuf_addf(&path, "taxonomies/%s/terms/%s/entries", taxonomy_handle, slug);
		status = entries_list(&r, items, (size_t)n, path.ptr);
		strbuf_release(&path);
	}
	strlist_free(&allowed);
	entries_close(&r);
	free(items);
	return status;
}
