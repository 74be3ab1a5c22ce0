/*
 * taxonomies: taxonomies and their terms (content-format.md §8) into the
 * index's extras as "taxonomies": a list of
 *   {handle, title, settings, blueprints: {handle: {title, fields}},
 *    terms: [{slug, file_slug, site, title, data, entries, mtime}]}
 * where a term appears once per site of its taxonomy (its localization
 * over its default values over the taxonomy's inject, keys sorted), terms
 * implied by entry values that have no file are added (title = the value),
 * terms come in Statamic's order (those entries name first, see
 * order_terms),
 * entries lists the entries (index numbers) that use the term, and mtime
 * is its file's modification time (null for a term without a file).
 */
#include "autoconfig.h"

#include "site/taxonomies.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/strbuf.h"
#include "site/blueprints.h"
#include "site/entries.h"
#include "site/files.h"
#include "site/withheld.h"

struct term {
	char *slug;            /* owned: in its site (a localization may rename it) */
	char *file_slug;       /* owned: the file's name, which entries use */
	size_t site;
	char *title;           /* owned: title, else the slug (or the implying value) */
	struct value_builder data; /* owned, resolved */
	size_t *entries;       /* owned */
	size_t nentries;
	long long mtime;       /* the file's, 0 for a term implied by entries */
	size_t rank;           /* 1 + how many terms entries named before this one; 0: none */
	size_t at;             /* its place among the terms as read */
};

struct taxonomy {
	const char *handle;
	value_t settings;
	size_t *sites;
	size_t nsites;
	struct term *terms;
	size_t nterms;
	size_t ranked;         /* terms entries named so far */
};

/* Statamic's Str::slug for ASCII: lower case, runs of other characters
 * become one '-', none at the ends. */
static char *slugify(const char *s)
{
	struct strbuf out = STRBUF_INIT;
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (isalnum(*p) || *p >= 0x80)
			strbuf_addch(&out, (char)tolower(*p));
		else if (out.len && out.ptr[out.len - 1] != '-')
			strbuf_addch(&out, '-');
	}
	while (out.len && out.ptr[out.len - 1] == '-')
		strbuf_truncate(&out, out.len - 1);
	return strbuf_detach(&out, NULL);
}

static size_t site_of(const struct site_index *idx, const char *handle)
{
	for (size_t i = 0; i < idx->nsites; i++)
		if (strcmp(idx->sites[i].handle, handle) == 0)
			return i;
	return (size_t)-1;
}

/* The taxonomy's sites: its `sites` list in a multi-site layout, else the
 * default site. */
static void taxonomy_sites(const struct site_index *idx, struct taxonomy *t)
{
	value_t list = value_map_getz(t->settings, "sites");
	struct value_iter it;
	value_iter_init(&it, idx->multisite ? list : VALUE_MISSING);
	while (value_iter_next(&it)) {
		size_t s = site_of(idx, value_str(it.value, NULL));
		if (s == (size_t)-1)
			continue;
		t->sites = xrealloc(t->sites, (t->nsites + 1) * sizeof *t->sites);
		t->sites[t->nsites++] = s;
	}
	if (t->nsites == 0) {
		t->sites = xrealloc(t->sites, sizeof *t->sites);
		t->sites[t->nsites++] = 0;
	}
}

static struct term *find_term(struct taxonomy *t, const char *slug, size_t site)
{
	for (size_t i = 0; i < t->nterms; i++)
		if (t->terms[i].site == site && (strcmp(t->terms[i].slug, slug) == 0 ||
		                                 strcmp(t->terms[i].file_slug, slug) == 0))
			return &t->terms[i];
	return NULL;
}

static struct term *add_term(struct taxonomy *t, const char *slug, const char *file_slug,
                             size_t site)
{
	t->terms = xrealloc(t->terms, (t->nterms + 1) * sizeof *t->terms);
	struct term *term = &t->terms[t->nterms++];
	memset(term, 0, sizeof *term);
	term->slug = xstrdup(slug);
	term->file_slug = xstrdup(file_slug);
	term->site = site;
	term->data = (struct value_builder)VALUE_BUILDER_INIT;
	return term;
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* layers[0] over layers[1] over ...: one map with sorted keys, without
 * `localizations` and the keys never served. */
static void merge_layers(const value_t *layers, size_t n, struct value_builder *out)
{
	char **keys = NULL;
	size_t nkeys = 0;
	for (size_t l = 0; l < n; l++) {
		struct value_iter it;
		value_iter_init(&it, layers[l]);
		while (value_iter_next(&it)) {
			char *k = xstrndup(it.key, it.key_len);
			bool dup = strcmp(k, "localizations") == 0 || withheld_key(k, strlen(k));
			for (size_t i = 0; i < nkeys && !dup; i++)
				dup = strcmp(keys[i], k) == 0;
			if (dup) {
				free(k);
				continue;
			}
			keys = xrealloc(keys, (nkeys + 1) * sizeof *keys);
			keys[nkeys++] = k;
		}
	}
	if (nkeys > 1)
		qsort(keys, nkeys, sizeof *keys, compare_strings);
	vb_map_begin(out);
	for (size_t i = 0; i < nkeys; i++) {
		vb_keyz(out, keys[i]);
		value_t v = VALUE_MISSING;
		for (size_t l = 0; l < n && value_is_missing(v); l++)
			v = value_map_getz(layers[l], keys[i]);
		vb_value(out, v);
		free(keys[i]);
	}
	vb_map_end(out);
	free(keys);
}

static void read_term_file(struct site_index *idx, struct taxonomy *t, const char *rel,
                           const char *file_name)
{
	struct value_builder raw = VALUE_BUILDER_INIT;
	if (files_read(&idx->files, rel, &raw) != 0) {
		vb_release(&raw);
		return;
	}
	value_t data = vb_result(&raw);
	char *slug = files_handle(file_name);
	char *abs = files_join(idx->files.root, rel);
	struct stat st;
	long long mtime = stat(abs, &st) == 0 ? (long long)st.st_mtime : 0;
	free(abs);
	value_t inject = value_map_getz(t->settings, "inject");
	value_t localizations = value_map_getz(data, "localizations");
	for (size_t i = 0; i < t->nsites; i++) {
		size_t site = t->sites[i];
		value_t local = i == 0 ? VALUE_MISSING
		                       : value_map_getz(localizations, idx->sites[site].handle);
		const char *local_slug = value_str(value_map_getz(local, "slug"), NULL);
		struct term *term = add_term(t, *local_slug ? local_slug : slug, slug, site);
		value_t layers[] = {local, data, inject};
		merge_layers(layers, 3, &term->data);
		const char *title = value_str(value_map_getz(vb_result(&term->data), "title"), NULL);
		term->title = xstrdup(*title ? title : term->slug);
		term->mtime = mtime;
	}
	free(slug);
	vb_release(&raw);
}

static void read_terms(struct site_index *idx, struct taxonomy *t)
{
	struct strbuf dir_rel = STRBUF_INIT;
	strbuf_addf(&dir_rel, "content/taxonomies/%s", t->handle);
	char *dir = files_join(idx->files.root, dir_rel.ptr);
	size_t n;
	char **names = files_list(&idx->files, dir, ".yaml", &n);
	for (size_t i = 0; i < n; i++) {
		char *rel = files_join(dir_rel.ptr, names[i]);
		read_term_file(idx, t, rel, names[i]);
		free(rel);
	}
	files_free_names(names, n);
	free(dir);
	strbuf_release(&dir_rel);
}

static bool collection_uses(const struct collection_info *c, const char *taxonomy)
{
	struct value_iter it;
	value_iter_init(&it, value_map_getz(vb_result(&c->settings), "taxonomies"));
	while (value_iter_next(&it))
		if (strcmp(value_str(it.value, NULL), taxonomy) == 0)
			return true;
	return false;
}

static void link_value(struct taxonomy *t, size_t entry, size_t site, value_t v)
{
	char buf[32];
	const char *text = value_str(v, NULL);
	if (value_type(v) == VALUE_INT) {
		snprintf(buf, sizeof buf, "%lld", (long long)value_int(v));
		text = buf;
	} else if (value_type(v) != VALUE_STRING) {
		return;
	}
	/* "tags::news" when a field targets several taxonomies. */
	size_t hn = strlen(t->handle);
	if (strncmp(text, t->handle, hn) == 0 && strncmp(text + hn, "::", 2) == 0)
		text += hn + 2;
	char *slug = slugify(text);
	struct term *term = *slug ? find_term(t, slug, site) : NULL;
	if (*slug && !term) {
		term = add_term(t, slug, slug, site);
		vb_map_begin(&term->data);
		vb_keyz(&term->data, "title");
		vb_strz(&term->data, text);
		vb_map_end(&term->data);
		term->title = xstrdup(text);
	}
	if (term && !term->rank)
		term->rank = ++t->ranked;
	if (term && (term->nentries == 0 || term->entries[term->nentries - 1] != entry)) {
		term->entries = xrealloc(term->entries, (term->nentries + 1) * sizeof *term->entries);
		term->entries[term->nentries++] = entry;
	}
	free(slug);
}

/* Entries name their terms in the field named like the taxonomy. */
static void link_entries(struct site_index *idx, struct taxonomy *t)
{
	for (size_t i = 0; i < idx->nentries; i++) {
		const struct entry *e = &idx->entries[i];
		if (!collection_uses(&idx->collections[e->collection], t->handle))
			continue;
		value_t v = entry_field(idx, e, t->handle);
		if (value_type(v) == VALUE_ARRAY) {
			struct value_iter it;
			value_iter_init(&it, v);
			while (value_iter_next(&it))
				link_value(t, i, e->site, it.value);
		} else {
			link_value(t, i, e->site, v);
		}
	}
}

static int compare_terms(const void *a, const void *b)
{
	const struct term *x = a, *y = b;
	size_t rx = x->rank ? x->rank : SIZE_MAX, ry = y->rank ? y->rank : SIZE_MAX;
	if (rx != ry)
		return rx < ry ? -1 : 1;
	return (x->at > y->at) - (x->at < y->at);
}

/* Statamic's order of a taxonomy's terms (its Value index): those entries
 * name, as they first name them (entries in collection, then path
 * order), then the others as their files come. */
static void order_terms(struct taxonomy *t)
{
	for (size_t i = 0; i < t->nterms; i++)
		t->terms[i].at = i;
	if (t->nterms > 1)
		qsort(t->terms, t->nterms, sizeof *t->terms, compare_terms);
}

static void emit_taxonomy(struct site_index *idx, const struct taxonomy *t, const char *title)
{
	struct value_builder *out = &idx->extras;
	vb_map_begin(out);
	vb_keyz(out, "handle");
	vb_strz(out, t->handle);
	vb_keyz(out, "title");
	vb_strz(out, title);
	vb_keyz(out, "settings");
	vb_value(out, t->settings);
	vb_keyz(out, "blueprints");
	term_blueprints(idx, t->handle, title, out);
	vb_keyz(out, "terms");
	vb_array_begin(out);
	for (size_t i = 0; i < t->nterms; i++) {
		const struct term *term = &t->terms[i];
		vb_map_begin(out);
		vb_keyz(out, "slug");
		vb_strz(out, term->slug);
		vb_keyz(out, "file_slug");
		vb_strz(out, term->file_slug);
		vb_keyz(out, "site");
		vb_strz(out, idx->sites[term->site].handle);
		vb_keyz(out, "title");
		vb_strz(out, term->title);
		vb_keyz(out, "data");
		vb_value(out, vb_result(&term->data));
		vb_keyz(out, "entries");
		vb_array_begin(out);
		for (size_t k = 0; k < term->nentries; k++)
			vb_int(out, (int64_t)term->entries[k]);
		vb_array_end(out);
		vb_keyz(out, "mtime");
		if (term->mtime)
			vb_int(out, term->mtime);
		else
			vb_null(out);
		vb_map_end(out);
	}
	vb_array_end(out);
	vb_map_end(out);
}

static void free_taxonomy(struct taxonomy *t)
{
	for (size_t i = 0; i < t->nterms; i++) {
		free(t->terms[i].slug);
		free(t->terms[i].file_slug);
		free(t->terms[i].title);
		free(t->terms[i].entries);
		vb_release(&t->terms[i].data);
	}
	free(t->terms);
	free(t->sites);
}

static void load_taxonomy(void *ctx, const char *handle, value_t settings)
{
	struct site_index *idx = ctx;
	struct taxonomy t = {handle, settings, NULL, 0, NULL, 0, 0};
	taxonomy_sites(idx, &t);
	read_terms(idx, &t);
	link_entries(idx, &t);
	order_terms(&t);
	char *title = files_title(settings, handle);
	emit_taxonomy(idx, &t, title);
	free(title);
	free_taxonomy(&t);
}

void taxonomies_load(struct site_index *idx)
{
	vb_keyz(&idx->extras, "taxonomies");
	vb_array_begin(&idx->extras);
	files_each_yaml(&idx->files, "content/taxonomies", load_taxonomy, idx);
	vb_array_end(&idx->extras);
}
