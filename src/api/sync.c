/*
 * api/sync: GET /{route}/sync, the sync feed (Contentful's sync API, for
 * static site builders and apps that keep a copy): without a token every
 * item the config enables (entries, terms, global sets, navigations,
 * assets), with ?sync_token=T what changed and what was deleted since
 * the answer that gave T. A page holds ?limit= items (default_limit), in a
 * fixed order (kind, handle, file); links.next carries on after the last
 * one (a position in that order, so an item deleted meanwhile never makes
 * the next page skip one), and the last page gives next_sync_token: the
 * generation of the first page, so what changed while the client paged
 * comes with the next sync. What changed is read from the journal the
 * watcher keeps (site/journal.h): a request never compares the site with
 * anything. A token older than [sync] generations, or from before a
 * change of the whole site (a blueprint, the sites), is a 410: start
 * again without one.
 */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "api/items.h"
#include "api/listing.h"
#include "lib/strbuf.h"
#include "lib/url.h"
#include "site/assets.h"
#include "site/journal.h"

/* One item of a page: present (written whole) or deleted (named). */
struct sync_item {
	enum journal_kind kind;
	const char *handle, *key; /* borrowed: the order's keys (an entry's or an asset's path,
	                           * a term's slug, "" for a set or a navigation) */
	bool deleted;
	const char *id;           /* borrowed: a deleted entry's id */
	uint32_t entry;           /* entries: its number */
	value_t value;            /* the term, set, navigation or asset file */
};

struct sync_list {
	struct sync_item *items; /* owned */
	size_t n, alloc;
};

static void add(struct sync_list *l, struct sync_item it)
{
	if (l->n == l->alloc) {
		l->alloc = l->alloc ? l->alloc * 2 : 64;
		l->items = xrealloc(l->items, l->alloc * sizeof *l->items);
	}
	l->items[l->n++] = it;
}

static int compare_keys(enum journal_kind ka, const char *ha, const char *ka_key,
                        enum journal_kind kb, const char *hb, const char *kb_key)
{
	if (ka != kb)
		return ka < kb ? -1 : 1;
	int c = strcmp(ha, hb);
	return c ? c : strcmp(ka_key, kb_key);
}

static int compare_items(const void *a, const void *b)
{
	const struct sync_item *x = a, *y = b;
	return compare_keys(x->kind, x->handle, x->key, y->kind, y->handle, y->key);
}

/* --- what there is --- */

static bool entry_shown(const struct api_ctx *ctx, uint32_t n)
{
	struct snap_entry e = snap_entry_at(ctx->snap, n);
	return e.published && handle_enabled(ctx->cfg, RES_COLLECTIONS,
	                                     snap_collection_at(ctx->snap, e.collection).handle);
}

static const char *str_of(value_t map, const char *key)
{
	return value_str(value_map_getz(map, key), NULL);
}

static void add_entries(const struct api_ctx *ctx, struct sync_list *l)
{
	for (uint32_t n = 0; n < snap_entry_count(ctx->snap); n++) {
		if (!entry_shown(ctx, n))
			continue;
		struct snap_entry e = snap_entry_at(ctx->snap, n);
		const char *handle = snap_collection_at(ctx->snap, e.collection).handle;
		add(l, (struct sync_item){JOURNAL_ENTRY, handle, e.path, false, NULL, n, VALUE_MISSING});
	}
}

/* A taxonomy's term with that slug in the default site, or missing. */
static value_t term_in(const struct api_ctx *ctx, value_t taxonomy, const char *slug)
{
	const char *site = snap_site_at(ctx->snap, 0).handle;
	struct value_iter it;
	value_iter_init(&it, value_map_getz(taxonomy, "terms"));
	while (value_iter_next(&it))
		if (strcmp(str_of(it.value, "site"), site) == 0 &&
		    (!slug || strcmp(str_of(it.value, "file_slug"), slug) == 0))
			return it.value;
	return VALUE_MISSING;
}

static void add_terms(const struct api_ctx *ctx, struct sync_list *l)
{
	const char *site = snap_site_at(ctx->snap, 0).handle;
	struct value_iter t;
	value_iter_init(&t, snap_extras(ctx->snap, "taxonomies"));
	while (value_iter_next(&t)) {
		const char *handle = str_of(t.value, "handle");
		if (!handle_enabled(ctx->cfg, RES_TAXONOMIES, handle))
			continue;
		struct value_iter it;
		value_iter_init(&it, value_map_getz(t.value, "terms"));
		while (value_iter_next(&it))
			if (strcmp(str_of(it.value, "site"), site) == 0)
				add(l, (struct sync_item){JOURNAL_TERM, handle, str_of(it.value, "file_slug"),
				                          false, NULL, 0, it.value});
	}
}

/* Global sets and navigations: one item per handle. */
static void add_handled(const struct api_ctx *ctx, struct sync_list *l, enum journal_kind kind)
{
	bool globals = kind == JOURNAL_GLOBAL;
	struct value_iter it;
	value_iter_init(&it, snap_extras(ctx->snap, globals ? "globals" : "navs"));
	while (value_iter_next(&it)) {
		const char *handle = str_of(it.value, "handle");
		if (handle_enabled(ctx->cfg, globals ? RES_GLOBALS : RES_NAVS, handle))
			add(l, (struct sync_item){kind, handle, "", false, NULL, 0, it.value});
	}
}

static void add_assets(const struct api_ctx *ctx, struct sync_list *l)
{
	struct value_iter c;
	value_iter_init(&c, snap_extras(ctx->snap, "assets"));
	while (value_iter_next(&c)) {
		const char *handle = str_of(c.value, "handle");
		if (!handle_enabled(ctx->cfg, RES_ASSETS, handle))
			continue;
		struct value_iter it;
		value_iter_init(&it, value_map_getz(c.value, "files"));
		while (value_iter_next(&it))
			add(l, (struct sync_item){JOURNAL_ASSET, handle, str_of(it.value, "path"), false,
			                          NULL, 0, it.value});
	}
}

static void everything(const struct api_ctx *ctx, struct sync_list *l)
{
	add_entries(ctx, l);
	add_terms(ctx, l);
	add_handled(ctx, l, JOURNAL_GLOBAL);
	add_handled(ctx, l, JOURNAL_NAV);
	add_assets(ctx, l);
}

/* --- what changed --- */

/* The item a journal item names as it is now: present, or deleted (with
 * the id the journal kept for an entry); false when it is to be left out
 * (an entry gone whose id was never known, a disabled handle). */
static bool now_of(const struct api_ctx *ctx, const struct journal_item *j, struct sync_item *out)
{
	*out = (struct sync_item){j->kind, j->handle, j->path, true, j->id, 0, VALUE_MISSING};
	switch (j->kind) {
	case JOURNAL_ENTRY: {
		uint32_t n = journal_entry_at(ctx->snap, j->handle, j->path);
		if (n != SNAP_NONE && entry_shown(ctx, n)) {
			out->deleted = false;
			out->entry = n;
			out->id = snap_entry_at(ctx->snap, n).id;
		} else if (n != SNAP_NONE) {
			out->id = snap_entry_at(ctx->snap, n).id; /* a draft now */
		}
		return handle_enabled(ctx->cfg, RES_COLLECTIONS, j->handle) && *out->id;
	}
	case JOURNAL_TERM:
		out->key = j->id;
		out->value = term_in(ctx, snap_extras_find(ctx->snap, "taxonomies", j->handle), j->id);
		out->deleted = value_is_missing(out->value);
		return handle_enabled(ctx->cfg, RES_TAXONOMIES, j->handle);
	case JOURNAL_GLOBAL:
	case JOURNAL_NAV: {
		bool globals = j->kind == JOURNAL_GLOBAL;
		out->key = "";
		out->value = snap_extras_find(ctx->snap, globals ? "globals" : "navs", j->handle);
		out->deleted = value_is_missing(out->value);
		return handle_enabled(ctx->cfg, globals ? RES_GLOBALS : RES_NAVS, j->handle);
	}
	case JOURNAL_ASSET:
		out->value = assets_find_file(snap_extras_find(ctx->snap, "assets", j->handle), j->path);
		out->deleted = value_is_missing(out->value);
		return handle_enabled(ctx->cfg, RES_ASSETS, j->handle);
	}
	return false;
}

/* An entry both deleted (its old file) and present (its new one: a
 * rename) is present only. */
static bool renamed(const struct sync_list *l, const struct sync_item *it)
{
	if (!it->deleted || it->kind != JOURNAL_ENTRY)
		return false;
	for (size_t i = 0; i < l->n; i++)
		if (!l->items[i].deleted && l->items[i].kind == JOURNAL_ENTRY &&
		    strcmp(l->items[i].id, it->id) == 0)
			return true;
	return false;
}

/* The items of the journal's records [first, end), each once (its last
 * mention), as they are now. */
static void changes(const struct api_ctx *ctx, const struct journal *j, size_t first, size_t end,
                    struct sync_list *l)
{
	struct sync_list all = {NULL, 0, 0};
	for (size_t g = first; g < end; g++) {
		for (size_t i = 0; i < j->gens[g].n; i++) {
			struct sync_item it;
			if (now_of(ctx, &j->gens[g].items[i], &it))
				add(&all, it);
		}
	}
	/* Sorted, the mentions of one item are together, and say the same:
	 * each is the item as it is now. */
	qsort(all.items, all.n, sizeof *all.items, compare_items);
	for (size_t i = 0; i < all.n; i++)
		if (i + 1 == all.n || compare_items(&all.items[i], &all.items[i + 1]) != 0)
			add(l, all.items[i]);
	size_t kept = 0;
	for (size_t i = 0; i < l->n; i++)
		if (!renamed(l, &l->items[i]))
			l->items[kept++] = l->items[i];
	l->n = kept;
	free(all.items);
}

/* --- the page --- */

/* Where a page starts: after the item of kind, handle and key. */
struct cursor {
	bool set;
	enum journal_kind kind;
	char *handle, *key; /* owned */
};

/* ?after= is "KIND:HANDLE:KEY", each part percent-encoded. */
static bool read_cursor(const char *s, struct cursor *c)
{
	memset(c, 0, sizeof *c);
	if (!s)
		return true;
	const char *a = strchr(s, ':'), *b = a ? strchr(a + 1, ':') : NULL;
	if (!b || a - s != 1 || s[0] < '0' || s[0] >= '0' + JOURNAL_KINDS)
		return false;
	c->set = true;
	c->kind = (enum journal_kind)(s[0] - '0');
	c->handle = url_decode(a + 1, (size_t)(b - a - 1), false);
	c->key = url_decode(b + 1, strlen(b + 1), false);
	return true;
}

static void write_cursor(const struct sync_item *it, struct strbuf *out)
{
	strbuf_addf(out, "%d:", (int)it->kind);
	url_encode(it->handle, out);
	strbuf_addch(out, ':');
	url_encode(it->key, out);
}

static bool after_cursor(const struct cursor *c, const struct sync_item *it)
{
	return !c->set || compare_keys(it->kind, it->handle, it->key, c->kind, c->handle, c->key) > 0;
}

/* The item's name: its type, handle and id. */
static void write_name(struct api_ctx *ctx, struct jsonw *w, const struct sync_item *it)
{
	jsonw_keyz(w, "type");
	jsonw_stringz(w, journal_kind_name(it->kind));
	jsonw_keyz(w, "handle");
	jsonw_stringz(w, it->handle);
	jsonw_keyz(w, "id");
	struct strbuf id = STRBUF_INIT;
	if (it->kind == JOURNAL_ENTRY)
		strbuf_addstr(&id, it->id ? it->id : snap_entry_at(ctx->snap, it->entry).id);
	else if (it->kind == JOURNAL_TERM || it->kind == JOURNAL_ASSET)
		strbuf_addf(&id, "%s::%s", it->handle, it->key);
	else
		strbuf_addstr(&id, it->handle);
	jsonw_stringz(w, id.ptr);
	strbuf_release(&id);
}

static void write_present(struct api_ctx *ctx, struct jsonw *w, const struct sync_item *it)
{
	jsonw_object_begin(w);
	write_name(ctx, w, it);
	jsonw_keyz(w, "data");
	switch (it->kind) {
	case JOURNAL_ENTRY: api_write_entry(ctx, w, it->entry); break;
	case JOURNAL_TERM: api_write_term(ctx, w, it->handle, it->value); break;
	case JOURNAL_GLOBAL:
		if (!api_write_global(ctx, w, it->value))
			jsonw_null(w);
		break;
	case JOURNAL_NAV: api_write_nav(ctx, w, it->value); break;
	case JOURNAL_ASSET: api_write_asset(ctx, w, it->handle, it->value); break;
	}
	jsonw_object_end(w);
}

/* A page's parts: its items (borrowed) and what comes after. */
struct page {
	const struct sync_item **items;
	size_t n;
	bool more;
};

static void choose_page(const struct sync_list *l, const struct cursor *c, long limit,
                        struct page *p)
{
	p->items = xmalloc(((size_t)limit + 1) * sizeof *p->items);
	p->n = 0;
	p->more = false;
	for (size_t i = 0; i < l->n; i++) {
		if (!after_cursor(c, &l->items[i]))
			continue;
		if (p->n == (size_t)limit) {
			p->more = true;
			break;
		}
		p->items[p->n++] = &l->items[i];
	}
}

/* links.next: this request's own query, after the page's last item and
 * at the first page's generation. */
static void write_next(struct jsonw *w, const char *since, long limit, const char *at,
                       const struct page *p)
{
	if (!p->more) {
		jsonw_null(w);
		return;
	}
	struct strbuf url = STRBUF_INIT, cursor = STRBUF_INIT;
	strbuf_addstr(&url, "sync?");
	if (since)
		strbuf_addf(&url, "sync_token=%s&", since);
	write_cursor(p->items[p->n - 1], &cursor);
	strbuf_addf(&url, "limit=%ld&", limit);
	if (at)
		strbuf_addf(&url, "at=%s&", at);
	strbuf_addstr(&url, "after=");
	url_encode(cursor.ptr, &url);
	api_write_url(w, url.ptr);
	strbuf_release(&url);
	strbuf_release(&cursor);
}

static void answer_page(struct api_ctx *ctx, const struct page *p, const char *since, long limit,
                        const char *at)
{
	struct jsonw w;
	api_begin_json(ctx, &w);
	jsonw_object_begin(&w);
	jsonw_keyz(&w, "data");
	jsonw_array_begin(&w);
	for (size_t i = 0; i < p->n; i++)
		if (!p->items[i]->deleted)
			write_present(ctx, &w, p->items[i]);
	jsonw_array_end(&w);
	jsonw_keyz(&w, "deleted");
	jsonw_array_begin(&w);
	for (size_t i = 0; i < p->n; i++) {
		if (p->items[i]->deleted) {
			jsonw_object_begin(&w);
			write_name(ctx, &w, p->items[i]);
			jsonw_object_end(&w);
		}
	}
	jsonw_array_end(&w);
	jsonw_keyz(&w, "links");
	jsonw_object_begin(&w);
	jsonw_keyz(&w, "next");
	write_next(&w, since, limit, at, p);
	jsonw_object_end(&w);
	jsonw_keyz(&w, "meta");
	jsonw_object_begin(&w);
	jsonw_keyz(&w, "per_page");
	jsonw_int(&w, limit);
	jsonw_keyz(&w, "sync_token");
	jsonw_stringz_or_null(&w, since);
	jsonw_object_end(&w);
	jsonw_keyz(&w, "next_sync_token");
	jsonw_stringz_or_null(&w, p->more ? NULL : at);
	jsonw_object_end(&w);
}

/* The items since the token into l, borrowing from j (the journal, the
 * caller's to free): 0, or the status of why not (410: start again; 503:
 * the journal is being written). */
static int since_token(struct api_ctx *ctx, const char *token, struct journal *j,
                       struct sync_list *l)
{
	static const char *const again = "This sync token can no longer be answered (too old, "
	                                 "from before a change of the whole site, or not one of "
	                                 "this site's): start again with GET /sync.";
	uint64_t since;
	if (!journal_token_parse(token, &since))
		return api_fail(ctx, 400, "sync_token: not a sync token: %s", token);
	if (!ctx->sync_journal || !ctx->generation)
		return api_fail(ctx, 410, "%s", again);
	if (since == ctx->generation)
		return 0;
	if (journal_read(ctx->sync_journal, j) != 0)
		return api_fail(ctx, 410, "%s", again);
	size_t first, end;
	if (journal_since(j, since, ctx->generation, &first, &end) != JOURNAL_FOUND)
		return api_fail(ctx, 410, "%s", again);
	/* The watcher writes a generation's record just after the generation:
	 * an answer made without it would be cached without its changes. */
	if (end == j->n && (j->n == 0 || j->gens[j->n - 1].signature != ctx->generation))
		return api_fail(ctx, 503, "The change history is being written: try again in a "
		                "moment.");
	changes(ctx, j, first, end, l);
	return 0;
}

int api_sync(struct api_ctx *ctx)
{
	long limit, page;
	int status = listing_read_paging(ctx, &limit, &page);
	if (status != 0)
		return status;
	const char *token = request_param(ctx->req, "sync_token");
	const char *at = request_param(ctx->req, "at");
	const char *after = request_param(ctx->req, "after");
	uint64_t at_signature;
	if (at && !journal_token_parse(at, &at_signature))
		return api_fail(ctx, 400, "at: not a sync token: %s", at);
	struct cursor c;
	if (!read_cursor(after, &c))
		return api_fail(ctx, 400, "after: not a position in the sync feed: %s", after);
	char now[17];
	journal_token(ctx->generation, now);
	struct sync_list l = {NULL, 0, 0};
	struct journal j = {NULL, 0};
	if (token) {
		status = since_token(ctx, token, &j, &l);
	} else {
		everything(ctx, &l);
		qsort(l.items, l.n, sizeof *l.items, compare_items);
	}
	if (status == 0) {
		struct page p;
		choose_page(&l, &c, limit, &p);
		answer_page(ctx, &p, token, limit, at ? at : ctx->generation ? now : NULL);
		free(p.items);
	}
	free(l.items);
	journal_free(&j);
	free(c.handle);
	free(c.key);
	return status;
}
