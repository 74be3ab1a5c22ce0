/*
 * api/taxonomies: GET /{route}/taxonomies, /taxonomies/{t},
 * /taxonomies/{t}/terms and /taxonomies/{t}/terms/{slug} (spec §4,
 * statamic-api.md §10.2, §11).
 *
 * A taxonomy is {handle, title, api_url}. A term is its data (augmented
 * through its blueprint when the index was built) with Statamic's
 * computed keys over it, keys sorted, never `entries` or `collection`.
 * Every localization of a term is an item of the list, and terms that
 * only exist as values in entries are terms too (the index made them).
 * The list takes ?site= to keep one site's terms; a term is shown from
 * ?site=, else from the default site, else from the first site that has
 * it.
 */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "api/items.h"
#include "api/tags.h"
#include "api/entries.h"
#include "api/items.h"
#include "api/listing.h"
#include "api/output.h"
#include "lib/strbuf.h"
#include "site/augment.h"

/* The keys Statamic computes for every term, sorted. */
static const char *const computed_keys[] = {
	"api_url", "entries_count", "id", "is_term", "locale", "permalink", "slug",
	"taxonomy", "title", "updated_at", "updated_by", "uri", "url",
};
#define NCOMPUTED (sizeof computed_keys / sizeof computed_keys[0])

/* One request's view of a taxonomy's terms. */
struct term_list {
	struct api_ctx *ctx;
	value_t taxonomy;
	const char *handle;
	value_t *terms; /* owned array of views into the snapshot */
	size_t n;
	const struct item_out *out; /* borrowed: what the request asks more of each term, or NULL */
};

static bool is_computed(const char *key)
{
	for (size_t i = 0; i < NCOMPUTED; i++)
		if (strcmp(computed_keys[i], key) == 0)
			return true;
	return false;
}

/* Never delivered, even when asked for by name (statamic-api.md §10.2). */
static bool never_shown(const char *key, size_t len)
{
	return (len == 7 && memcmp(key, "entries", 7) == 0) ||
	       (len == 10 && memcmp(key, "collection", 10) == 0);
}

static const char *term_string(value_t term, const char *key)
{
	return value_str(value_map_getz(term, key), NULL);
}

static struct snap_site term_site(const struct term_list *l, value_t term)
{
	uint32_t n = snap_site_find(l->ctx->snap, term_string(term, "site"));
	return snap_site_at(l->ctx->snap, n == SNAP_NONE ? 0 : n);
}

/* /{taxonomy, '-' for '_'}[/{slug}]: term routes are fixed. */
static void taxonomy_uri(const char *handle, const char *slug, struct strbuf *out)
{
	strbuf_addch(out, '/');
	for (const char *p = handle; *p; p++)
		strbuf_addch(out, *p == '_' ? '-' : *p);
	if (slug)
		strbuf_addf(out, "/%s", slug);
}

/* url, then permalink, of uri in the site. */
static void write_urls(const struct snap_site *site, const char *uri, struct value_builder *b,
                       bool url, bool permalink)
{
	if (url) {
		struct strbuf s = STRBUF_INIT;
		augment_url(site->url, uri, &s);
		vb_str(b, s.ptr, s.len);
		strbuf_release(&s);
	}
	if (permalink)
		augment_permalink(site->url, uri, b);
}

/* {title, handle, uri, url, permalink} of the term's taxonomy, in its site. */
static void taxonomy_object(const struct term_list *l, const struct snap_site *site,
                            struct value_builder *b)
{
	struct strbuf uri = STRBUF_INIT;
	taxonomy_uri(l->handle, NULL, &uri);
	vb_map_begin(b);
	vb_keyz(b, "title");
	vb_value(b, value_map_getz(l->taxonomy, "title"));
	vb_keyz(b, "handle");
	vb_strz(b, l->handle);
	vb_keyz(b, "uri");
	vb_str(b, uri.ptr, uri.len);
	vb_keyz(b, "url");
	write_urls(site, uri.ptr, b, true, false);
	vb_keyz(b, "permalink");
	write_urls(site, uri.ptr, b, false, true);
	vb_map_end(b);
	strbuf_release(&uri);
}

/* Published entries with the term, at the request's moment. */
static long entries_count(const struct term_list *l, value_t term)
{
	long n = 0;
	struct value_iter it;
	value_iter_init(&it, value_map_getz(term, "entries"));
	while (value_iter_next(&it)) {
		int64_t number = value_int(it.value);
		if (number < 0 || (uint64_t)number >= snap_entry_count(l->ctx->snap))
			continue;
		struct snap_entry e = snap_entry_at(l->ctx->snap, (uint32_t)number);
		n += api_entry_status(l->ctx, &e) == ENTRY_PUBLISHED;
	}
	return n;
}

static void updated_at(value_t term, struct value_builder *b)
{
	value_t own = value_map_getz(value_map_getz(term, "data"), "updated_at");
	value_t mtime = value_map_getz(term, "mtime");
	if (value_type(own) == VALUE_INT)
		augment_iso8601(value_int(own), b);
	else if (value_type(mtime) == VALUE_INT)
		augment_iso8601(value_int(mtime), b);
	else
		vb_null(b);
}

/* Appends the computed value of key for the term. */
static void computed_value(const struct term_list *l, value_t term, const char *key,
                           struct value_builder *b)
{
	const char *slug = term_string(term, "slug");
	struct snap_site site = term_site(l, term);
	struct strbuf s = STRBUF_INIT;
	if (strcmp(key, "api_url") == 0) {
		strbuf_addf(&s, "taxonomies/%s/terms/%s", l->handle, slug);
		vb_url(b, URL_API, s.ptr, s.len);
	} else if (strcmp(key, "entries_count") == 0) {
		vb_int(b, entries_count(l, term));
	} else if (strcmp(key, "id") == 0) {
		/* Every localization shares the id of the term's file. */
		strbuf_addf(&s, "%s::%s", l->handle, term_string(term, "file_slug"));
		vb_str(b, s.ptr, s.len);
	} else if (strcmp(key, "is_term") == 0) {
		vb_bool(b, true);
	} else if (strcmp(key, "locale") == 0) {
		vb_strz(b, site.handle);
	} else if (strcmp(key, "slug") == 0) {
		vb_strz(b, slug);
	} else if (strcmp(key, "taxonomy") == 0) {
		taxonomy_object(l, &site, b);
	} else if (strcmp(key, "title") == 0) {
		vb_value(b, value_map_getz(term, "title"));
	} else if (strcmp(key, "updated_at") == 0) {
		updated_at(term, b);
	} else if (strcmp(key, "updated_by") == 0) {
		/* The index made it a user reference, or left what it could not. */
		value_t by = value_map_getz(value_map_getz(term, "data"), "updated_by");
		if (value_is_missing(by))
			vb_null(b);
		else
			vb_value(b, by);
	} else {
		taxonomy_uri(l->handle, slug, &s);
		if (strcmp(key, "uri") == 0)
			vb_str(b, s.ptr, s.len);
		else
			write_urls(&site, s.ptr, b, strcmp(key, "url") == 0, strcmp(key, "permalink") == 0);
	}
	strbuf_release(&s);
}

/* The template a term renders with, when it has the key and leaves it
 * null (LocalizedTerm::template()): its taxonomy's term_template, else
 * "{taxonomy}.show". */
static value_t term_template(const struct term_list *l, value_t own,
                             struct value_builder *scratch)
{
	if (!value_is_null(own))
		return own;
	value_t set = value_map_getz(value_map_getz(l->taxonomy, "settings"), "term_template");
	if (value_type(set) == VALUE_STRING)
		return set;
	struct strbuf t = STRBUF_INIT;
	strbuf_addf(&t, "%s.show", l->handle);
	vb_reset(scratch);
	vb_str(scratch, t.ptr, t.len);
	strbuf_release(&t);
	return vb_result(scratch);
}

/* The term's value of key, computed or its data's; missing for the keys
 * never shown and those it lacks. */
static value_t term_value(const struct term_list *l, value_t term, const char *key,
                          struct value_builder *scratch)
{
	if (never_shown(key, strlen(key)))
		return VALUE_MISSING;
	if (strcmp(key, "template") == 0) {
		value_t own = value_map_getz(value_map_getz(term, "data"), key);
		return value_is_missing(own) ? own : term_template(l, own, scratch);
	}
	if (!is_computed(key))
		return value_map_getz(value_map_getz(term, "data"), key);
	vb_reset(scratch);
	computed_value(l, term, key, scratch);
	return vb_result(scratch);
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The item's keys: the computed ones and the data's, sorted, once each,
 * without the never-shown and the excluded ones. */
static char **item_keys(const struct term_list *l, value_t data, size_t *n)
{
	char **keys = xmalloc((NCOMPUTED + value_count(data)) * sizeof *keys);
	*n = 0;
	for (size_t i = 0; i < NCOMPUTED; i++)
		keys[(*n)++] = xstrdup(computed_keys[i]);
	struct value_iter it;
	value_iter_init(&it, data);
	while (value_iter_next(&it)) {
		char *key = xstrndup(it.key, it.key_len);
		if (never_shown(it.key, it.key_len) || is_computed(key)) {
			free(key);
			continue;
		}
		keys[(*n)++] = key;
	}
	qsort(keys, *n, sizeof *keys, compare_names);
	size_t kept = 0;
	for (size_t i = 0; i < *n; i++) {
		if (strlist_contains(&l->ctx->cfg->excluded_keys, keys[i]))
			free(keys[i]);
		else
			keys[kept++] = keys[i];
	}
	*n = kept;
	return keys;
}

/* The whole term: its keys sorted, each once, without the never-shown
 * and the excluded ones. */
static void build_term(const struct term_list *l, value_t term, struct value_builder *out)
{
	struct value_builder scratch = VALUE_BUILDER_INIT;
	size_t n;
	char **keys = item_keys(l, value_map_getz(term, "data"), &n);
	vb_map_begin(out);
	for (size_t i = 0; i < n; i++) {
		vb_keyz(out, keys[i]);
		vb_value(out, term_value(l, term, keys[i], &scratch));
		free(keys[i]);
	}
	vb_map_end(out);
	free(keys);
	vb_release(&scratch);
}

static void write_term(const struct term_list *l, struct jsonw *w, value_t term,
                       const struct strlist *fields)
{
	api_tag(l->ctx, TAG_TERM, l->handle, term_string(term, "file_slug"));
	api_tag_refs(l->ctx, value_map_getz(term, "data"));
	if (l->out && !api_output_plain(l->ctx, l->out, l->handle)) {
		struct value_builder item = VALUE_BUILDER_INIT;
		build_term(l, term, &item);
		api_output_write(l->ctx, l->out, l->handle, w, vb_result(&item));
		vb_release(&item);
		return;
	}
	if (!fields->len) {
		struct value_builder item = VALUE_BUILDER_INIT;
		build_term(l, term, &item);
		jsonw_value(w, vb_result(&item));
		vb_release(&item);
		return;
	}
	struct value_builder scratch = VALUE_BUILDER_INIT;
	jsonw_object_begin(w);
	for (size_t i = 0; i < fields->len; i++) {
		const char *key = fields->items[i];
		if (never_shown(key, strlen(key)))
			continue;
		/* An excluded key asked for by name is null, as an entry's. */
		bool excluded = strlist_contains(&l->ctx->cfg->excluded_keys, key);
		jsonw_keyz(w, key);
		jsonw_value(w, excluded ? VALUE_MISSING : term_value(l, term, key, &scratch));
	}
	jsonw_object_end(w);
	vb_release(&scratch);
}

/* --- the list's source --- */

static value_t listed_value(void *self, uint32_t item, const char *key,
                            struct value_builder *scratch)
{
	const struct term_list *l = self;
	/* filter[site] is the term's locale. */
	return term_value(l, l->terms[item], strcmp(key, "site") == 0 ? "locale" : key, scratch);
}

static void write_listed(void *self, struct jsonw *w, uint32_t item, const struct strlist *fields)
{
	const struct term_list *l = self;
	write_term(l, w, l->terms[item], fields);
}

/* Opens the taxonomy named by the first parameter and its terms (in the
 * site named, or all when site is NULL); returns 0, or 404 when it does
 * not exist. */
static int open_terms(struct api_ctx *ctx, struct term_list *l, const char *site)
{
	memset(l, 0, sizeof *l);
	l->ctx = ctx;
	l->handle = ctx->params[0];
	l->taxonomy = snap_extras_find(ctx->snap, "taxonomies", l->handle);
	if (value_is_missing(l->taxonomy))
		return api_not_found(ctx);
	value_t terms = value_map_getz(l->taxonomy, "terms");
	l->terms = xmalloc((value_count(terms) + 1) * sizeof *l->terms);
	struct value_iter it;
	value_iter_init(&it, terms);
	while (value_iter_next(&it))
		if (!site || strcmp(term_string(it.value, "site"), site) == 0)
			l->terms[l->n++] = it.value;
	return 0;
}

/* ?site= must name a site; returns 0, or 404 otherwise. */
static int read_site(struct api_ctx *ctx, const char **site)
{
	*site = request_param(ctx->req, "site");
	if (*site && snap_site_find(ctx->snap, *site) == SNAP_NONE)
		return api_not_found(ctx);
	return 0;
}

int api_terms_index(struct api_ctx *ctx)
{
	const char *site;
	struct term_list l;
	int status = read_site(ctx, &site);
	if (status == 0)
		status = open_terms(ctx, &l, site);
	if (status != 0)
		return status;
	struct item_out out;
	status = api_output_read(ctx, SHAPE_TERMS, &out);
	if (status == 0) {
		l.out = &out;
		struct listing_source src = {listed_value, write_listed, &l};
		api_tag(ctx, TAG_TERMS, l.handle, NULL);
		struct strbuf path = STRBUF_INIT;
		strbuf_addf(&path, "taxonomies/%s/terms", l.handle);
		status = listing_answer_all(ctx, RES_TAXONOMIES, l.handle, &src, l.n, path.ptr);
		strbuf_release(&path);
		api_output_free(&out);
	}
	free(l.terms);
	return status;
}

/* The term with that slug (its own or its file's) in the site, or in the
 * default site and then any other when none is asked for. */
static value_t find_term(const struct term_list *l, const char *slug, const char *site)
{
	const char *first_site = snap_site_at(l->ctx->snap, 0).handle;
	value_t found = VALUE_MISSING;
	for (size_t i = 0; i < l->n; i++) {
		value_t t = l->terms[i];
		if (strcmp(term_string(t, "slug"), slug) != 0 &&
		    strcmp(term_string(t, "file_slug"), slug) != 0)
			continue;
		const char *in = term_string(t, "site");
		if (strcmp(in, site ? site : first_site) == 0)
			return t;
		if (!site && value_is_missing(found))
			found = t;
	}
	return found;
}

int api_terms_show(struct api_ctx *ctx)
{
	const char *site;
	struct term_list l;
	int status = read_site(ctx, &site);
	if (status == 0)
		status = open_terms(ctx, &l, NULL);
	if (status != 0)
		return status;
	value_t term = find_term(&l, ctx->params[1], site);
	struct item_out out;
	if (value_is_missing(term))
		status = api_not_found(ctx);
	else
		status = api_output_read(ctx, SHAPE_TERMS, &out);
	if (status == 0) {
		l.out = &out;
		struct jsonw w;
		api_begin_data(ctx, &w);
		write_term(&l, &w, term, &out.fields);
		api_end_data(&w);
		api_output_free(&out);
	}
	free(l.terms);
	return status;
}

/* --- taxonomies --- */

static void write_taxonomy(struct jsonw *w, value_t taxonomy)
{
	api_write_titled(w, taxonomy, "taxonomies");
}

int api_taxonomies_index(struct api_ctx *ctx)
{
	api_extras_index(ctx, "taxonomies", RES_TAXONOMIES, write_taxonomy);
	return 0;
}

int api_taxonomies_show(struct api_ctx *ctx)
{
	return api_extras_show(ctx, "taxonomies", write_taxonomy);
}

/* --- a term for the handlers of other kinds (items.h) --- */

static struct term_list term_list_of(struct api_ctx *ctx, const char *taxonomy)
{
	struct term_list l = {ctx, snap_extras_find(ctx->snap, "taxonomies", taxonomy), taxonomy,
	                      NULL, 0, NULL};
	return l;
}

value_t api_term_find(const struct api_ctx *ctx, const char *id, uint32_t site,
                      const char **taxonomy)
{
	const char *sep = strstr(id, "::");
	if (!sep)
		return VALUE_MISSING;
	char *handle = xstrndup(id, (size_t)(sep - id));
	value_t tax = snap_extras_find(ctx->snap, "taxonomies", handle);
	free(handle);
	*taxonomy = value_str(value_map_getz(tax, "handle"), NULL);
	const char *want = snap_site_at(ctx->snap, site < snap_site_count(ctx->snap) ? site : 0).handle;
	const char *first_site = snap_site_at(ctx->snap, 0).handle;
	value_t in_site = VALUE_MISSING, in_first = VALUE_MISSING, any = VALUE_MISSING;
	struct value_iter it;
	value_iter_init(&it, value_map_getz(tax, "terms"));
	while (value_iter_next(&it)) {
		if (strcmp(term_string(it.value, "file_slug"), sep + 2) != 0 &&
		    strcmp(term_string(it.value, "slug"), sep + 2) != 0)
			continue;
		const char *in = term_string(it.value, "site");
		if (strcmp(in, want) == 0 && value_is_missing(in_site))
			in_site = it.value;
		if (strcmp(in, first_site) == 0 && value_is_missing(in_first))
			in_first = it.value;
		if (value_is_missing(any))
			any = it.value;
	}
	return !value_is_missing(in_site) ? in_site : !value_is_missing(in_first) ? in_first : any;
}

value_t api_term_value(struct api_ctx *ctx, const char *taxonomy, value_t term, const char *key,
                       struct value_builder *scratch)
{
	struct term_list l = term_list_of(ctx, taxonomy);
	return term_value(&l, term, key, scratch);
}

void api_term_build(struct api_ctx *ctx, const char *taxonomy, value_t term,
                    struct value_builder *out)
{
	struct term_list l = term_list_of(ctx, taxonomy);
	build_term(&l, term, out);
}

/* --- a term for the sync feed (items.h) --- */

void api_write_term(struct api_ctx *ctx, struct jsonw *w, const char *taxonomy, value_t term)
{
	struct term_list l = term_list_of(ctx, taxonomy);
	struct strlist whole = {NULL, 0};
	write_term(&l, w, term, &whole);
}
