/* snapshot: the site index as shareable bytes; see snapshot.h. */
#include "autoconfig.h"

#include "site/snapshot.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/ascii.h"
#include "lib/hash.h"
#include "lib/php.h"
#include "lib/publish.h"
#include "site/augment.h"
#include "site/blueprints.h"
#include "site/entries.h"
#include "site/files.h"
#include "site/navpages.h"

#define SNAP_MAGIC "CMSAPIX\0"
#define SNAP_VERSION 12

/* --- on-disk records (native byte order: a snapshot never leaves its
 * machine) --- */

struct rec_header {
	char magic[8];
	uint32_t version, header_size;
	uint64_t total_size, signature;
	int64_t built_at;
	uint32_t nsites, ncollections, nentries, nproblems, nslots, multisite;
	uint64_t sites_off, collections_off, entries_off, problems_off, slots_off;
	uint64_t blob_off, blob_size;
	uint64_t extras; /* blob offset of the extras map */
	uint64_t slug_slots_off; /* entry number + 1 by (collection, site, slug) */
	uint32_t nslug_slots, pad;
	uint64_t by_date_off; /* nentries entry numbers: each collection's, by date */
	uint64_t sources;     /* blob offset of the map rel path -> parsed file */
	uint32_t incomplete;  /* a folder could not be read: not the whole site */
	uint32_t pad2;
	uint64_t published_off; /* nentries slots: each dated collection's published dated
	                         * entries in date order, from its first entry's slot */
	uint64_t title_ends_off; /* nentries slots: where each of those entries' titles ends
	                         * in its collection's `titles` */
};

struct rec_site {
	uint32_t handle, name, locale, short_locale, lang, url;
};

enum { C_STRUCTURED = 1, C_EXPECTS_ROOT = 2, C_DATED = 4, C_PAST_PRIVATE = 8, C_FUTURE_PRIVATE = 16 };

struct rec_collection {
	uint32_t handle, title, mount, flags;
	int32_t max_depth;
	uint32_t settings, first_entry, nentries;
	uint32_t npublished;       /* dated: its published entries with a date */
	uint32_t published_undated; /* dated: its published entries without one */
	uint32_t titles, titles_len; /* dated: blob offset and length of those entries'
	                           * titles as text, A-Z lowered, one after another */
};

enum { E_PUBLISHED = 1, E_HAS_DATE = 2 };

struct rec_entry {
	uint32_t id, path, slug, uri, redirect, collection, site, origin, parent, data;
	uint32_t blueprint, blueprint_title;
	uint32_t title; /* blob offset of the data's title value, SNAP_NONE without one */
	int32_t order, depth;
	uint32_t flags;
	int64_t date, mtime;
};

struct rec_problem {
	uint32_t path, message;
	int32_t line;
	uint32_t warning;
};

struct snapshot {
	char *bytes;
	size_t len;
	bool mapped;
	const struct rec_header *h;
	const struct rec_site *sites;
	const struct rec_collection *collections;
	const struct rec_entry *entries;
	const struct rec_problem *problems;
	const uint32_t *slots;
	const uint32_t *slug_slots;
	const uint32_t *by_date;
	const uint32_t *published;
	const uint32_t *title_ends;
	const char *blob;
};

/* --- writing --- */

static uint32_t put_string(struct strbuf *blob, const char *s)
{
	if (!s)
		return SNAP_NONE;
	uint32_t at = (uint32_t)blob->len;
	strbuf_add(blob, s, strlen(s) + 1);
	return at;
}

static uint32_t put_value(struct strbuf *blob, value_t v)
{
	uint32_t at = (uint32_t)blob->len;
	if (value_is_missing(v)) {
		char null_tag = VALUE_NULL;
		strbuf_add(blob, &null_tag, 1);
	} else {
		strbuf_add(blob, v.p, value_size(v));
	}
	return at;
}

static int compare_keys(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void collect_keys(value_t map, char ***keys, size_t *n)
{
	struct value_iter it;
	value_iter_init(&it, map);
	while (value_iter_next(&it)) {
		bool seen = false;
		for (size_t i = 0; i < *n && !seen; i++)
			seen = strlen((*keys)[i]) == it.key_len && memcmp((*keys)[i], it.key, it.key_len) == 0;
		if (seen)
			continue;
		*keys = xrealloc(*keys, (*n + 1) * sizeof **keys);
		(*keys)[(*n)++] = xstrndup(it.key, it.key_len);
	}
}

/* Keys the API computes for every entry; a blueprint field of the same
 * name adds no data key. (A `parent` field does: the API shows the key
 * with the entry's page above it, query/entries.c.) */
static bool computed_key(const char *key, size_t len)
{
	static const char *const names[] = {"id", "slug", "date"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strlen(names[i]) == len && memcmp(names[i], key, len) == 0)
			return true;
	return false;
}

static void collect_field_keys(value_t fields, char ***keys, size_t *n)
{
	struct value_builder filtered = VALUE_BUILDER_INIT;
	struct value_iter it;
	vb_map_begin(&filtered);
	value_iter_init(&it, fields);
	while (value_iter_next(&it)) {
		if (computed_key(it.key, it.key_len))
			continue;
		vb_key(&filtered, it.key, it.key_len);
		vb_null(&filtered);
	}
	vb_map_end(&filtered);
	collect_keys(vb_result(&filtered), keys, n);
	vb_release(&filtered);
}

/* Where the values of a map being written come from: an entry (through
 * its origins and inject) or a plain map. */
struct value_source {
	const struct site_index *idx;
	const struct entry *entry; /* or NULL: */
	value_t map;
};

static value_t source_value(const struct value_source *src, const char *key)
{
	return src->entry ? entry_field(src->idx, src->entry, key) : value_map_getz(src->map, key);
}

/* Writes a map of keys (sorted, then freed with the array), each value
 * from src augmented through its field (which supplies a default). */
static void write_augmented(const struct augment_ctx *ctx, char **keys, size_t n, value_t fields,
                            const struct value_source *src, struct value_builder *out)
{
	if (n > 1)
		qsort(keys, n, sizeof *keys, compare_keys);
	vb_map_begin(out);
	for (size_t i = 0; i < n; i++) {
		value_t field = value_map_getz(fields, keys[i]);
		value_t v = source_value(src, keys[i]);
		vb_keyz(out, keys[i]);
		/* Who saved it last is a user, whatever the blueprint says. */
		if (value_is_missing(field) && strcmp(keys[i], "updated_by") == 0)
			augment_user(ctx, v, out);
		else
			augment_item_field(ctx, keys[i], v, field, out);
		free(keys[i]);
	}
	vb_map_end(out);
	free(keys);
}

/*
 * Each collection's blueprints as its entries use them: the blueprint's
 * fields plus a terms field for each taxonomy of the collection that the
 * blueprint does not declare (Statamic's ensureEntryBlueprintFields), so
 * an entry's terms are term objects whatever its blueprint says. Slot
 * nblueprints is for entries without a blueprint.
 */
struct entry_fields {
	struct value_builder **of; /* [collection][blueprint] */
	size_t ncollections;
};

static void add_taxonomy_fields(value_t settings, value_t declared, struct value_builder *out)
{
	struct value_iter it;
	value_iter_init(&it, value_map_getz(settings, "taxonomies"));
	while (value_iter_next(&it)) {
		size_t len;
		const char *handle = value_str(it.value, &len);
		if (!len || !value_is_missing(value_map_get(declared, handle, len)))
			continue;
		vb_key(out, handle, len);
		vb_map_begin(out);
		vb_keyz(out, "type");
		vb_strz(out, "terms");
		vb_keyz(out, "taxonomies");
		vb_array_begin(out);
		vb_str(out, handle, len);
		vb_array_end(out);
		vb_map_end(out);
	}
}

static void entry_fields_build(const struct site_index *idx, struct entry_fields *f)
{
	f->ncollections = idx->ncollections;
	f->of = xcalloc(idx->ncollections + 1, sizeof *f->of);
	for (size_t c = 0; c < idx->ncollections; c++) {
		const struct collection_info *col = &idx->collections[c];
		f->of[c] = xcalloc(col->nblueprints + 1, sizeof **f->of);
		for (size_t b = 0; b <= col->nblueprints; b++) {
			value_t declared = b < col->nblueprints ? vb_result(&col->blueprints[b].fields)
			                                        : VALUE_MISSING;
			struct value_builder *out = &f->of[c][b];
			vb_map_begin(out);
			struct value_iter it;
			value_iter_init(&it, declared);
			while (value_iter_next(&it)) {
				vb_key(out, it.key, it.key_len);
				vb_value(out, it.value);
			}
			add_taxonomy_fields(vb_result(&col->settings), declared, out);
			vb_map_end(out);
		}
	}
}

static void entry_fields_free(const struct site_index *idx, struct entry_fields *f)
{
	for (size_t c = 0; c < f->ncollections; c++) {
		for (size_t b = 0; b <= idx->collections[c].nblueprints; b++)
			vb_release(&f->of[c][b]);
		free(f->of[c]);
	}
	free(f->of);
}

static value_t fields_of(const struct entry_fields *f, const struct collection_info *c,
                         size_t collection, const struct blueprint *bp)
{
	size_t b = bp ? (size_t)(bp - c->blueprints) : c->nblueprints;
	return vb_result(&f->of[collection][b]);
}

/* The entry's values as a request sees them: its own over its origins'
 * over the collection's inject, plus every field of its blueprint (its
 * default, or null), augmented, one map with sorted keys. */
static void resolved_data(const struct augment_ctx *ctx, const struct entry_fields *ef,
                          const struct entry *e, struct value_builder *out)
{
	const struct site_index *idx = ctx->idx;
	char **keys = NULL;
	size_t n = 0;
	for (const struct entry *x = e; x; x = x->origin)
		collect_keys(vb_result(&x->own), &keys, &n);
	const struct collection_info *c = &idx->collections[e->collection];
	collect_keys(value_map_getz(vb_result(&c->settings), "inject"), &keys, &n);
	value_t fields = fields_of(ef, c, e->collection, entry_blueprint(idx, e));
	collect_field_keys(fields, &keys, &n);
	struct value_source src = {idx, e, VALUE_MISSING};
	vb_reset(out);
	write_augmented(ctx, keys, n, fields, &src, out);
}

/* --- slugs --- */

static uint64_t slug_hash(uint32_t collection, uint32_t site, const char *slug)
{
	return hash_fnv1a(slug) ^ ((uint64_t)collection * 0x9e3779b97f4a7c15ULL) ^
	       ((uint64_t)site * 0xc2b2ae3d27d4eb4fULL);
}

/* An open-addressing table of entry number + 1 by (collection, site,
 * slug); the first entry in path order keeps a slug two files share. */
static uint32_t *slug_table(const struct site_index *idx, size_t *nslots)
{
	size_t n = 16;
	while (n < idx->nentries * 2)
		n *= 2;
	uint32_t *slots = xcalloc(n, sizeof *slots);
	for (size_t i = 0; i < idx->nentries; i++) {
		const struct entry *e = &idx->entries[i];
		if (!e->slug)
			continue;
		for (size_t at = slug_hash((uint32_t)e->collection, (uint32_t)e->site, e->slug) & (n - 1);;
		     at = (at + 1) & (n - 1)) {
			if (slots[at] == 0) {
				slots[at] = (uint32_t)i + 1;
				break;
			}
			const struct entry *o = &idx->entries[slots[at] - 1];
			if (o->collection == e->collection && o->site == e->site && strcmp(o->slug, e->slug) == 0)
				break;
		}
	}
	*nslots = n;
	return slots;
}

/* --- the extras, augmented now that every kind of content is read --- */

/* data's keys and the fields' (default or null), sorted, augmented. */
static void augmented_map(const struct augment_ctx *ctx, value_t data, value_t fields,
                          struct value_builder *out)
{
	char **keys = NULL;
	size_t n = 0;
	collect_keys(data, &keys, &n);
	collect_field_keys(fields, &keys, &n);
	struct value_source src = {ctx->idx, NULL, data};
	write_augmented(ctx, keys, n, fields, &src, out);
}

/* Copies map, letting rewrite() write the value of the keys it handles. */
typedef bool (*rewrite_fn)(const struct augment_ctx *ctx, value_t parent, const char *key,
                           value_t v, struct value_builder *out);

static void copy_map(const struct augment_ctx *ctx, value_t map, rewrite_fn rewrite,
                     struct value_builder *out)
{
	struct value_iter it;
	vb_map_begin(out);
	value_iter_init(&it, map);
	while (value_iter_next(&it)) {
		char *key = xstrndup(it.key, it.key_len);
		vb_key(out, it.key, it.key_len);
		if (!rewrite(ctx, map, key, it.value, out))
			vb_value(out, it.value);
		free(key);
	}
	vb_map_end(out);
}

/* A term's blueprint, {title, fields}, and its handle: its own
 * `blueprint` (the handle, then its singular), else the taxonomy's first. */
static value_t term_blueprint(value_t taxonomy, value_t term, struct strbuf *handle)
{
	value_t blueprints = value_map_getz(taxonomy, "blueprints");
	const char *own = value_str(value_map_getz(value_map_getz(term, "data"), "blueprint"), NULL);
	char *one = singular_handle(own);
	const char *names[] = {own, one};
	value_t found = VALUE_MISSING;
	for (size_t i = 0; i < 2 && value_is_missing(found); i++) {
		found = value_map_getz(blueprints, names[i]);
		strbuf_reset(handle);
		strbuf_addstr(handle, names[i]);
	}
	free(one);
	struct value_iter it;
	value_iter_init(&it, blueprints);
	if (value_is_missing(found) && value_iter_next(&it)) {
		found = it.value;
		strbuf_reset(handle);
		strbuf_add(handle, it.key, it.key_len);
	}
	return found;
}

/* A term's data through its blueprint; its `blueprint`, when it names one,
 * is the blueprint's {title, handle}. */
static void term_data(const struct augment_ctx *ctx, value_t taxonomy, value_t term,
                      struct value_builder *out)
{
	struct strbuf handle = STRBUF_INIT;
	value_t bp = term_blueprint(taxonomy, term, &handle);
	struct value_builder data = VALUE_BUILDER_INIT;
	augmented_map(ctx, value_map_getz(term, "data"), value_map_getz(bp, "fields"), &data);
	struct value_iter it;
	vb_map_begin(out);
	value_iter_init(&it, vb_result(&data));
	while (value_iter_next(&it)) {
		vb_key(out, it.key, it.key_len);
		if (it.key_len != 9 || memcmp(it.key, "blueprint", 9) != 0 || value_is_missing(bp)) {
			vb_value(out, it.value);
			continue;
		}
		vb_map_begin(out);
		vb_keyz(out, "title");
		vb_value(out, value_map_getz(bp, "title"));
		vb_keyz(out, "handle");
		vb_str(out, handle.ptr, handle.len);
		vb_map_end(out);
	}
	vb_map_end(out);
	vb_release(&data);
	strbuf_release(&handle);
}

static void copy_term(const struct augment_ctx *site_ctx, value_t taxonomy, value_t term,
                      struct value_builder *out)
{
	struct augment_ctx term_ctx =
		augment_in_site(site_ctx, value_str(value_map_getz(term, "site"), NULL));
	const struct augment_ctx *ctx = &term_ctx;
	struct value_iter it;
	vb_map_begin(out);
	value_iter_init(&it, term);
	while (value_iter_next(&it)) {
		vb_key(out, it.key, it.key_len);
		if (it.key_len == 4 && memcmp(it.key, "data", 4) == 0)
			term_data(ctx, taxonomy, term, out);
		else
			vb_value(out, it.value);
	}
	vb_map_end(out);
}

static bool rewrite_taxonomy(const struct augment_ctx *ctx, value_t taxonomy, const char *key,
                             value_t v, struct value_builder *out)
{
	if (strcmp(key, "terms") != 0)
		return false;
	struct value_iter it;
	vb_array_begin(out);
	value_iter_init(&it, v);
	while (value_iter_next(&it))
		copy_term(ctx, taxonomy, it.value, out);
	vb_array_end(out);
	return true;
}

static bool rewrite_global(const struct augment_ctx *ctx, value_t set, const char *key, value_t v,
                           struct value_builder *out)
{
	if (strcmp(key, "sites") != 0)
		return false;
	struct value_iter it;
	vb_map_begin(out);
	value_iter_init(&it, v);
	while (value_iter_next(&it)) {
		vb_key(out, it.key, it.key_len);
		char *site = xstrndup(it.key, it.key_len);
		struct augment_ctx site_ctx = augment_in_site(ctx, site);
		augmented_map(&site_ctx, it.value, value_map_getz(set, "fields"), out);
		free(site);
	}
	vb_map_end(out);
	return true;
}

static bool rewrite_nav(const struct augment_ctx *ctx, value_t nav, const char *key, value_t v,
                        struct value_builder *out)
{
	if (strcmp(key, "trees") != 0)
		return false;
	navpages_augment_trees(ctx, value_map_getz(nav, "fields"), v, out);
	return true;
}

static bool rewrite_kind(const struct augment_ctx *ctx, value_t extras, const char *key, value_t v,
                         struct value_builder *out)
{
	rewrite_fn item;
	if (strcmp(key, "taxonomies") == 0)
		item = rewrite_taxonomy;
	else if (strcmp(key, "globals") == 0)
		item = rewrite_global;
	else if (strcmp(key, "navs") == 0)
		item = rewrite_nav;
	else
		return false;
	struct value_iter it;
	vb_array_begin(out);
	value_iter_init(&it, v);
	while (value_iter_next(&it))
		copy_map(ctx, it.value, item, out);
	vb_array_end(out);
	return true;
}

/* Terms, global variables and navigation pages delivered through their
 * blueprints. */
static void augmented_extras(const struct augment_ctx *ctx, struct value_builder *out)
{
	copy_map(ctx, vb_result(&ctx->idx->extras), rewrite_kind, out);
}

/* Where the title of data written at data_at sits in the blob: filters
 * and sorts on title then skip the walk through the map. */
static uint32_t title_offset(uint32_t data_at, value_t data)
{
	value_t title = value_map_getz(data, "title");
	if (value_is_missing(title))
		return SNAP_NONE;
	return data_at + (uint32_t)(title.p - data.p);
}

/*
 * Copies every entry's title next to the others and points the records at
 * the copies. A title filter or sort reads every title: side by side they
 * share cache lines and pages, where inside each entry's data they cost a
 * cache miss each (10 ms on 100,000 entries).
 */
static void gather_titles(size_t n, struct rec_entry *recs, struct strbuf *blob)
{
	struct value_builder copy = VALUE_BUILDER_INIT;
	for (size_t i = 0; i < n; i++) {
		if (recs[i].title == SNAP_NONE)
			continue;
		/* The blob may move while it grows: copy the title aside first. */
		vb_reset(&copy);
		vb_value(&copy, (value_t){(const unsigned char *)blob->ptr + recs[i].title});
		recs[i].title = put_value(blob, vb_result(&copy));
	}
	vb_release(&copy);
}

static uint32_t entry_number_or_none(const struct site_index *idx, const struct entry *e)
{
	return e ? (uint32_t)(e - idx->entries) : SNAP_NONE;
}

static void write_entries(const struct site_index *idx, const struct augment_tables *tables,
                          struct rec_entry *recs, struct strbuf *blob)
{
	struct value_builder data = VALUE_BUILDER_INIT;
	struct entry_fields fields;
	entry_fields_build(idx, &fields);
	for (size_t i = 0; i < idx->nentries; i++) {
		const struct entry *e = &idx->entries[i];
		struct rec_entry *r = &recs[i];
		struct augment_ctx ctx = {.idx = idx, .tables = tables, .site = e->site, .entry = e};
		resolved_data(&ctx, &fields, e, &data);
		/* Statamic's fallback blueprint is the collection's singular. */
		const struct blueprint *bp = entry_blueprint(idx, e);
		char *fallback = bp ? NULL : singular_handle(idx->collections[e->collection].handle);
		char *fallback_title = fallback ? files_title(VALUE_MISSING, fallback) : NULL;
		const char *bp_handle = bp ? bp->handle : fallback;
		const char *bp_title = bp ? bp->title : fallback_title;
		uint32_t data_at = put_value(blob, vb_result(&data));
		uint32_t title_at = title_offset(data_at, vb_result(&data));
		*r = (struct rec_entry){
			.id = put_string(blob, e->id),
			.path = put_string(blob, e->path),
			.slug = put_string(blob, e->slug),
			.uri = put_string(blob, e->uri),
			.redirect = put_string(blob, e->redirect),
			.collection = (uint32_t)e->collection,
			.site = (uint32_t)e->site,
			.origin = entry_number_or_none(idx, e->origin),
			.parent = entry_number_or_none(idx, e->parent),
			.data = data_at,
			.title = title_at,
			.blueprint = put_string(blob, bp_handle),
			.blueprint_title = put_string(blob, bp_title),
			.order = (int32_t)e->order,
			.depth = e->depth,
			.flags = (e->published ? E_PUBLISHED : 0) | (e->has_date ? E_HAS_DATE : 0),
			.date = e->date,
			.mtime = e->mtime,
		};
		free(fallback);
		free(fallback_title);
	}
	vb_release(&data);
	entry_fields_free(idx, &fields);
	gather_titles(idx->nentries, recs, blob);
}

/* Orders entry numbers by date, then number (a stable sort's order);
 * entries without a date come last. entries is the index's array. */
static int by_date_then_number(const void *a, const void *b, void *entries)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	const struct entry *ex = (const struct entry *)entries + x, *ey = (const struct entry *)entries + y;
	if (ex->has_date != ey->has_date)
		return ex->has_date ? -1 : 1;
	if (ex->has_date && ex->date != ey->date)
		return ex->date < ey->date ? -1 : 1;
	return (x > y) - (x < y);
}

/*
 * Every collection's entries in date order, where the collection's own
 * entries sit in the entries array: a list sorted by date then walks this
 * order instead of sorting (statamic sorts dated collections by date more
 * than by anything else).
 */
static uint32_t *date_orders(const struct site_index *idx)
{
	uint32_t *order = xcalloc(idx->nentries ? idx->nentries : 1, sizeof *order);
	for (size_t i = 0; i < idx->nentries; i++)
		order[i] = (uint32_t)i;
	for (size_t c = 0; c < idx->ncollections; c++) {
		const struct collection_info *col = &idx->collections[c];
		if (!col->dated || col->nentries < 2)
			continue;
		size_t first = (size_t)(col->entries[0] - idx->entries);
		qsort_r(order + first, col->nentries, sizeof *order, by_date_then_number, idx->entries);
	}
	return order;
}

/*
 * Of each dated collection's date order, its published entries with a
 * date, in the same slots (from the collection's first entry on), with
 * their counts in cols: at any moment the entries of a dated collection
 * that are published are one run of these (the scheduled ones come after
 * it, the expired ones before), so a list need not read the others.
 */
static uint32_t *published_orders(const struct site_index *idx, const uint32_t *by_date,
                                  struct rec_collection *cols)
{
	uint32_t *published = xcalloc(idx->nentries ? idx->nentries : 1, sizeof *published);
	for (size_t c = 0; c < idx->ncollections; c++) {
		const struct collection_info *col = &idx->collections[c];
		if (!col->dated || col->nentries == 0)
			continue;
		size_t first = (size_t)(col->entries[0] - idx->entries);
		for (size_t j = first; j < first + col->nentries; j++) {
			const struct entry *e = &idx->entries[by_date[j]];
			if (e->published && e->has_date)
				published[first + cols[c].npublished++] = by_date[j];
			else if (e->published)
				cols[c].published_undated++;
		}
	}
	return published;
}

/*
 * The titles of each dated collection's published entries (in the order
 * of published_orders) as a contains filter reads them: PHP's string of
 * each, A-Z lowered, one after another in the blob, each ending at
 * ends[slot] (from the start of its collection's text), so that a search
 * for plain text runs over all of them at once.
 */
static void published_titles(const struct site_index *idx, const uint32_t *published,
                             const struct rec_entry *recs, struct rec_collection *cols,
                             uint32_t *ends, struct strbuf *blob)
{
	struct strbuf text = STRBUF_INIT;
	for (size_t c = 0; c < idx->ncollections; c++) {
		const struct collection_info *col = &idx->collections[c];
		if (!col->dated || col->nentries == 0)
			continue;
		size_t first = (size_t)(col->entries[0] - idx->entries);
		strbuf_reset(&text);
		for (size_t j = first; j < first + cols[c].npublished; j++) {
			uint32_t title = recs[published[j]].title;
			if (title != SNAP_NONE)
				php_string((value_t){(const unsigned char *)blob->ptr + title}, &text);
			ends[j] = (uint32_t)text.len;
		}
		for (size_t i = 0; i < text.len; i++)
			text.ptr[i] = ascii_lower(text.ptr[i]);
		cols[c].titles = (uint32_t)blob->len;
		cols[c].titles_len = (uint32_t)text.len;
		strbuf_add(blob, text.ptr ? text.ptr : "", text.len);
	}
	strbuf_release(&text);
}

static uint32_t collection_flags(const struct collection_info *c)
{
	return (c->structured ? C_STRUCTURED : 0) | (c->expects_root ? C_EXPECTS_ROOT : 0) |
	       (c->dated ? C_DATED : 0) | (c->past_private ? C_PAST_PRIVATE : 0) |
	       (c->future_private ? C_FUTURE_PRIVATE : 0);
}

static size_t align8(size_t n)
{
	return (n + 7) & ~(size_t)7;
}

void snapshot_write(const struct site_index *idx, uint64_t signature, struct strbuf *out)
{
	struct strbuf blob = STRBUF_INIT;
	strbuf_addch(&blob, '\0'); /* offset 0 is "", never a real string */
	struct rec_site *sites = xcalloc(idx->nsites, sizeof *sites);
	for (size_t i = 0; i < idx->nsites; i++) {
		const struct site_info *s = &idx->sites[i];
		sites[i] = (struct rec_site){put_string(&blob, s->handle), put_string(&blob, s->name),
		                             put_string(&blob, s->locale),
		                             put_string(&blob, s->short_locale),
		                             put_string(&blob, s->lang), put_string(&blob, s->url)};
	}
	struct rec_collection *cols = xcalloc(idx->ncollections, sizeof *cols);
	for (size_t i = 0; i < idx->ncollections; i++) {
		const struct collection_info *c = &idx->collections[i];
		cols[i] = (struct rec_collection){
			put_string(&blob, c->handle), put_string(&blob, c->title), put_string(&blob, c->mount),
			collection_flags(c), (int32_t)c->max_depth, put_value(&blob, vb_result(&c->settings)),
			c->nentries ? entry_number_or_none(idx, c->entries[0]) : 0, (uint32_t)c->nentries,
			0, 0, 0, 0}; /* set by published_orders and published_titles */
	}
	struct augment_tables *tables = augment_tables_build(idx);
	struct rec_entry *entries = xcalloc(idx->nentries, sizeof *entries);
	write_entries(idx, tables, entries, &blob);
	struct rec_problem *problems = xcalloc(idx->files.nproblems, sizeof *problems);
	for (size_t i = 0; i < idx->files.nproblems; i++) {
		const struct problem *p = &idx->files.problems[i];
		problems[i] = (struct rec_problem){put_string(&blob, p->path), put_string(&blob, p->message),
		                                   p->line, p->warning};
	}
	struct value_builder augmented = VALUE_BUILDER_INIT;
	struct augment_ctx ctx = {.idx = idx, .tables = tables};
	augmented_extras(&ctx, &augmented);
	uint64_t extras = put_value(&blob, vb_result(&augmented));
	vb_release(&augmented);
	augment_tables_free(tables);
	uint64_t sources = put_value(&blob, vb_result(&idx->files.sources));
	size_t nslug_slots;
	uint32_t *slug_slots = slug_table(idx, &nslug_slots);
	uint32_t *slots = xcalloc(idx->nslots, sizeof *slots);
	for (size_t i = 0; i < idx->nslots; i++)
		slots[i] = (uint32_t)idx->entry_slots[i];
	uint32_t *by_date = date_orders(idx);
	uint32_t *published = published_orders(idx, by_date, cols);
	uint32_t *title_ends = xcalloc(idx->nentries ? idx->nentries : 1, sizeof *title_ends);
	published_titles(idx, published, entries, cols, title_ends, &blob);
	strbuf_addch(&blob, '\0'); /* every string ends inside the blob */

	struct rec_header h;
	memset(&h, 0, sizeof h);
	memcpy(h.magic, SNAP_MAGIC, 8);
	h.version = SNAP_VERSION;
	h.header_size = sizeof h;
	h.signature = signature;
	h.built_at = (int64_t)time(NULL);
	h.nsites = (uint32_t)idx->nsites;
	h.ncollections = (uint32_t)idx->ncollections;
	h.nentries = (uint32_t)idx->nentries;
	h.nproblems = (uint32_t)idx->files.nproblems;
	h.nslots = (uint32_t)idx->nslots;
	h.multisite = idx->multisite;
	h.sites_off = align8(sizeof h);
	h.collections_off = align8(h.sites_off + idx->nsites * sizeof *sites);
	h.entries_off = align8(h.collections_off + idx->ncollections * sizeof *cols);
	h.problems_off = align8(h.entries_off + idx->nentries * sizeof *entries);
	h.slots_off = align8(h.problems_off + idx->files.nproblems * sizeof *problems);
	h.slug_slots_off = align8(h.slots_off + idx->nslots * sizeof *slots);
	h.nslug_slots = (uint32_t)nslug_slots;
	h.by_date_off = align8(h.slug_slots_off + nslug_slots * sizeof *slug_slots);
	h.published_off = align8(h.by_date_off + idx->nentries * sizeof *by_date);
	h.title_ends_off = align8(h.published_off + idx->nentries * sizeof *published);
	h.blob_off = align8(h.title_ends_off + idx->nentries * sizeof *title_ends);
	h.blob_size = blob.len;
	h.extras = extras;
	h.sources = sources;
	h.incomplete = idx->files.unreadable != NULL;
	h.total_size = h.blob_off + blob.len;

	size_t base = out->len;
	strbuf_grow(out, h.total_size);
	memset(out->ptr + base, 0, h.total_size);
	memcpy(out->ptr + base, &h, sizeof h);
	memcpy(out->ptr + base + h.sites_off, sites, idx->nsites * sizeof *sites);
	memcpy(out->ptr + base + h.collections_off, cols, idx->ncollections * sizeof *cols);
	memcpy(out->ptr + base + h.entries_off, entries, idx->nentries * sizeof *entries);
	memcpy(out->ptr + base + h.problems_off, problems, idx->files.nproblems * sizeof *problems);
	memcpy(out->ptr + base + h.slots_off, slots, idx->nslots * sizeof *slots);
	memcpy(out->ptr + base + h.slug_slots_off, slug_slots, nslug_slots * sizeof *slug_slots);
	memcpy(out->ptr + base + h.by_date_off, by_date, idx->nentries * sizeof *by_date);
	memcpy(out->ptr + base + h.published_off, published, idx->nentries * sizeof *published);
	memcpy(out->ptr + base + h.title_ends_off, title_ends, idx->nentries * sizeof *title_ends);
	memcpy(out->ptr + base + h.blob_off, blob.ptr, blob.len);
	out->len = base + h.total_size;
	out->ptr[out->len] = '\0';
	free(sites);
	free(cols);
	free(entries);
	free(problems);
	free(slots);
	free(slug_slots);
	free(by_date);
	free(published);
	free(title_ends);
	strbuf_release(&blob);
}

/* --- opening --- */

static bool section_fits(const struct rec_header *h, uint64_t off, uint64_t count, size_t size)
{
	return off >= h->header_size && off % 8 == 0 && count <= (h->blob_off - off) / size;
}

static bool offset_ok(const struct snapshot *s, uint32_t off, bool may_be_none)
{
	return (may_be_none && off == SNAP_NONE) || off < s->h->blob_size;
}

static bool value_ok(const struct snapshot *s, uint32_t off)
{
	return off < s->h->blob_size &&
	       value_size((value_t){(const unsigned char *)s->blob + off}) <= s->h->blob_size - off;
}

/* Checks every offset, so that a damaged file is refused rather than
 * read out of bounds. */
static bool records_ok(const struct snapshot *s)
{
	const struct rec_header *h = s->h;
	for (uint32_t i = 0; i < h->nsites; i++) {
		const struct rec_site *r = &s->sites[i];
		if (!offset_ok(s, r->handle, false) || !offset_ok(s, r->name, false) ||
		    !offset_ok(s, r->locale, false) || !offset_ok(s, r->short_locale, false) ||
		    !offset_ok(s, r->lang, false) || !offset_ok(s, r->url, false))
			return false;
	}
	for (uint32_t i = 0; i < h->ncollections; i++) {
		const struct rec_collection *r = &s->collections[i];
		if (!offset_ok(s, r->handle, false) || !offset_ok(s, r->title, false) ||
		    !offset_ok(s, r->mount, true) || !value_ok(s, r->settings) ||
		    r->first_entry > h->nentries || r->nentries > h->nentries - r->first_entry)
			return false;
		/* A collection's date order names its own entries only. */
		for (uint32_t j = r->first_entry; j < r->first_entry + r->nentries; j++)
			if (s->by_date[j] < r->first_entry || s->by_date[j] >= r->first_entry + r->nentries)
				return false;
		/* And so do its published ones. */
		if (r->npublished > r->nentries || r->published_undated > r->nentries - r->npublished)
			return false;
		for (uint32_t j = r->first_entry; j < r->first_entry + r->npublished; j++)
			if (s->published[j] < r->first_entry ||
			    s->published[j] >= r->first_entry + r->nentries ||
			    s->title_ends[j] > r->titles_len ||
			    (j > r->first_entry && s->title_ends[j] < s->title_ends[j - 1]))
				return false;
		if (r->titles > h->blob_size || r->titles_len > h->blob_size - r->titles)
			return false;
	}
	for (uint32_t i = 0; i < h->nentries; i++) {
		const struct rec_entry *r = &s->entries[i];
		if (!offset_ok(s, r->id, false) || !offset_ok(s, r->path, false) ||
		    !offset_ok(s, r->slug, true) || !offset_ok(s, r->uri, true) ||
		    !offset_ok(s, r->redirect, true) ||
		    !offset_ok(s, r->blueprint, false) || !offset_ok(s, r->blueprint_title, false) ||
		    (r->title != SNAP_NONE && !value_ok(s, r->title)) ||
		    r->collection >= h->ncollections || r->site >= h->nsites ||
		    (r->origin != SNAP_NONE && r->origin >= h->nentries) ||
		    (r->parent != SNAP_NONE && r->parent >= h->nentries) || !value_ok(s, r->data))
			return false;
	}
	for (uint32_t i = 0; i < h->nproblems; i++)
		if (!offset_ok(s, s->problems[i].path, false) || !offset_ok(s, s->problems[i].message, false))
			return false;
	for (uint32_t i = 0; i < h->nslots; i++)
		if (s->slots[i] > h->nentries)
			return false;
	for (uint32_t i = 0; i < h->nslug_slots; i++)
		if (s->slug_slots[i] > h->nentries)
			return false;
	return (h->nslots == 0 || (h->nslots & (h->nslots - 1)) == 0) &&
	       h->extras < UINT32_MAX && value_ok(s, (uint32_t)h->extras) &&
	       h->sources < UINT32_MAX && value_ok(s, (uint32_t)h->sources);
}

static struct snapshot *open_bytes(char *bytes, size_t len, bool mapped, char err[SNAP_ERR_LEN])
{
	const struct rec_header *h = (const struct rec_header *)bytes;
	if (len < sizeof *h || memcmp(h->magic, SNAP_MAGIC, 8) != 0) {
		snprintf(err, SNAP_ERR_LEN, "not a cms-api index snapshot");
		return NULL;
	}
	if (h->version != SNAP_VERSION || h->header_size != sizeof *h) {
		snprintf(err, SNAP_ERR_LEN, "snapshot version %u, this cms-api reads %u", h->version,
		         SNAP_VERSION);
		return NULL;
	}
	if (h->total_size != len || h->blob_off > len || h->blob_size != len - h->blob_off ||
	    h->blob_size == 0 || bytes[len - 1] != '\0' ||
	    !section_fits(h, h->sites_off, h->nsites, sizeof(struct rec_site)) ||
	    !section_fits(h, h->collections_off, h->ncollections, sizeof(struct rec_collection)) ||
	    !section_fits(h, h->entries_off, h->nentries, sizeof(struct rec_entry)) ||
	    !section_fits(h, h->problems_off, h->nproblems, sizeof(struct rec_problem)) ||
	    !section_fits(h, h->slots_off, h->nslots, sizeof(uint32_t)) ||
	    !section_fits(h, h->slug_slots_off, h->nslug_slots, sizeof(uint32_t)) ||
	    !section_fits(h, h->by_date_off, h->nentries, sizeof(uint32_t)) ||
	    !section_fits(h, h->published_off, h->nentries, sizeof(uint32_t)) ||
	    !section_fits(h, h->title_ends_off, h->nentries, sizeof(uint32_t)) ||
	    h->nslug_slots == 0 || (h->nslug_slots & (h->nslug_slots - 1)) != 0) {
		snprintf(err, SNAP_ERR_LEN, "snapshot is truncated or damaged");
		return NULL;
	}
	struct snapshot *s = xcalloc(1, sizeof *s);
	s->bytes = bytes;
	s->len = len;
	s->mapped = mapped;
	s->h = h;
	s->sites = (const struct rec_site *)(bytes + h->sites_off);
	s->collections = (const struct rec_collection *)(bytes + h->collections_off);
	s->entries = (const struct rec_entry *)(bytes + h->entries_off);
	s->problems = (const struct rec_problem *)(bytes + h->problems_off);
	s->slots = (const uint32_t *)(bytes + h->slots_off);
	s->slug_slots = (const uint32_t *)(bytes + h->slug_slots_off);
	s->by_date = (const uint32_t *)(bytes + h->by_date_off);
	s->published = (const uint32_t *)(bytes + h->published_off);
	s->title_ends = (const uint32_t *)(bytes + h->title_ends_off);
	s->blob = bytes + h->blob_off;
	if (!records_ok(s)) {
		free(s);
		snprintf(err, SNAP_ERR_LEN, "snapshot records point outside it");
		return NULL;
	}
	return s;
}

struct snapshot *snapshot_from_bytes(char *bytes, size_t len, char err[SNAP_ERR_LEN])
{
	struct snapshot *s = open_bytes(bytes, len, false, err);
	if (!s)
		free(bytes);
	return s;
}

struct snapshot *snapshot_map(const char *path, char err[SNAP_ERR_LEN])
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		snprintf(err, SNAP_ERR_LEN, "%s: %s", path, strerror(errno));
		return NULL;
	}
	struct stat st;
	if (fstat(fd, &st) != 0 || st.st_size < (off_t)sizeof(struct rec_header)) {
		snprintf(err, SNAP_ERR_LEN, "%s: too short to be a snapshot", path);
		close(fd);
		return NULL;
	}
	size_t len = (size_t)st.st_size;
	void *map = mmap(NULL, len, PROT_READ, MAP_SHARED, fd, 0);
	close(fd);
	if (map == MAP_FAILED) {
		snprintf(err, SNAP_ERR_LEN, "%s: mmap: %s", path, strerror(errno));
		return NULL;
	}
	struct snapshot *s = open_bytes(map, len, true, err);
	if (!s)
		munmap(map, len);
	return s;
}

int snapshot_save_open(const struct snapshot *snap, const char *path, char err[SNAP_ERR_LEN])
{
	struct strbuf view = {snap->bytes, snap->len, snap->len};
	return snapshot_save(&view, path, err);
}

int snapshot_save(const struct strbuf *bytes, const char *path, char err[SNAP_ERR_LEN])
{
	if (publish_bytes(path, bytes->ptr, bytes->len, 0644, PUBLISH_SYNC) != 0) {
		snprintf(err, SNAP_ERR_LEN, "%s: %s", path, strerror(errno ? errno : EIO));
		return -1;
	}
	return 0;
}

void snapshot_close(struct snapshot *s)
{
	if (!s)
		return;
	if (s->mapped)
		munmap(s->bytes, s->len);
	else
		free(s->bytes);
	free(s);
}

/* --- readers --- */

static const char *str_at(const struct snapshot *s, uint32_t off)
{
	return off == SNAP_NONE ? NULL : s->blob + off;
}

static value_t value_at(const struct snapshot *s, uint32_t off)
{
	return (value_t){(const unsigned char *)s->blob + off};
}

uint64_t snapshot_signature_of(const struct snapshot *s) { return s->h->signature; }
bool snapshot_incomplete(const struct snapshot *s) { return s->h->incomplete != 0; }
value_t snapshot_sources(const struct snapshot *s) { return value_at(s, (uint32_t)s->h->sources); }
long long snapshot_built_at(const struct snapshot *s) { return s->h->built_at; }
size_t snapshot_size(const struct snapshot *s) { return s->len; }
uint32_t snap_site_count(const struct snapshot *s) { return s->h->nsites; }
bool snap_multisite(const struct snapshot *s) { return s->h->multisite != 0; }
uint32_t snap_collection_count(const struct snapshot *s) { return s->h->ncollections; }
uint32_t snap_entry_count(const struct snapshot *s) { return s->h->nentries; }
uint32_t snap_problem_count(const struct snapshot *s) { return s->h->nproblems; }

struct snap_site snap_site_at(const struct snapshot *s, uint32_t i)
{
	const struct rec_site *r = &s->sites[i];
	return (struct snap_site){str_at(s, r->handle), str_at(s, r->name), str_at(s, r->locale),
	                          str_at(s, r->short_locale), str_at(s, r->lang), str_at(s, r->url)};
}

uint32_t snap_site_find(const struct snapshot *s, const char *handle)
{
	for (uint32_t i = 0; i < s->h->nsites; i++)
		if (strcmp(str_at(s, s->sites[i].handle), handle) == 0)
			return i;
	return SNAP_NONE;
}

struct snap_collection snap_collection_at(const struct snapshot *s, uint32_t i)
{
	const struct rec_collection *r = &s->collections[i];
	return (struct snap_collection){
		.handle = str_at(s, r->handle),
		.title = str_at(s, r->title),
		.mount = str_at(s, r->mount),
		.structured = r->flags & C_STRUCTURED,
		.expects_root = r->flags & C_EXPECTS_ROOT,
		.dated = r->flags & C_DATED,
		.past_private = r->flags & C_PAST_PRIVATE,
		.future_private = r->flags & C_FUTURE_PRIVATE,
		.max_depth = r->max_depth,
		.settings = value_at(s, r->settings),
		.first_entry = r->first_entry,
		.nentries = r->nentries,
		.by_date = r->flags & C_DATED ? s->by_date + r->first_entry : NULL,
		.published = r->flags & C_DATED ? s->published + r->first_entry : NULL,
		.titles = r->flags & C_DATED ? s->blob + r->titles : NULL,
		.title_ends = r->flags & C_DATED ? s->title_ends + r->first_entry : NULL,
		.npublished = r->npublished,
		.published_undated = r->published_undated,
	};
}

uint32_t snap_collection_find(const struct snapshot *s, const char *handle)
{
	uint32_t lo = 0, hi = s->h->ncollections;
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		int cmp = strcmp(str_at(s, s->collections[mid].handle), handle);
		if (cmp == 0)
			return mid;
		if (cmp < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return SNAP_NONE;
}

struct snap_entry snap_entry_at(const struct snapshot *s, uint32_t i)
{
	const struct rec_entry *r = &s->entries[i];
	return (struct snap_entry){
		.id = str_at(s, r->id),
		.path = str_at(s, r->path),
		.slug = str_at(s, r->slug),
		.uri = str_at(s, r->uri),
		.redirect = str_at(s, r->redirect),
		.number = i,
		.collection = r->collection,
		.site = r->site,
		.origin = r->origin,
		.parent = r->parent,
		.published = r->flags & E_PUBLISHED,
		.has_date = r->flags & E_HAS_DATE,
		.date = r->date,
		.mtime = r->mtime,
		.order = r->order,
		.depth = r->depth,
		.data = value_at(s, r->data),
		.title = r->title == SNAP_NONE ? VALUE_MISSING : value_at(s, r->title),
		.blueprint = str_at(s, r->blueprint),
		.blueprint_title = str_at(s, r->blueprint_title),
	};
}

bool snap_entry_date(const struct snapshot *s, uint32_t i, long long *date, uint32_t *collection)
{
	const struct rec_entry *r = &s->entries[i];
	*date = r->date;
	*collection = r->collection;
	return r->flags & E_HAS_DATE;
}

struct snap_entry_brief snap_entry_brief_at(const struct snapshot *s, uint32_t i)
{
	const struct rec_entry *r = &s->entries[i];
	return (struct snap_entry_brief){
		.collection = r->collection,
		.site = r->site,
		.published = r->flags & E_PUBLISHED,
		.has_date = r->flags & E_HAS_DATE,
		.date = r->date,
	};
}

value_t snap_entry_title(const struct snapshot *s, uint32_t i)
{
	uint32_t title = s->entries[i].title;
	return title == SNAP_NONE ? VALUE_MISSING : value_at(s, title);
}

uint32_t snap_entry_find(const struct snapshot *s, const char *id)
{
	uint32_t n = s->h->nslots;
	if (n == 0)
		return SNAP_NONE;
	/* Bounded: a damaged table without a free slot must not loop. */
	for (uint32_t probe = 0, at = (uint32_t)(hash_fnv1a(id) & (n - 1)); probe < n;
	     probe++, at = (at + 1) & (n - 1)) {
		uint32_t v = s->slots[at];
		if (v == 0)
			return SNAP_NONE;
		if (strcmp(str_at(s, s->entries[v - 1].id), id) == 0)
			return v - 1;
	}
	return SNAP_NONE;
}

size_t snapshot_report(const struct snapshot *s, const char *root, struct strbuf *out)
{
	size_t errors = 0;
	for (uint32_t i = 0; i < s->h->nproblems; i++) {
		struct snap_problem p = snap_problem_at(s, i);
		strbuf_addf(out, "%s/%s:", root, p.path);
		if (p.line > 0)
			strbuf_addf(out, "%d:", p.line);
		strbuf_addf(out, " %s%s\n", p.warning ? "warning: " : "", p.message);
		errors += !p.warning;
	}
	return errors;
}

value_t snap_extras(const struct snapshot *s, const char *kind)
{
	return value_map_getz(value_at(s, (uint32_t)s->h->extras), kind);
}

uint32_t snap_entry_find_slug(const struct snapshot *s, uint32_t collection, uint32_t site,
                              const char *slug)
{
	uint32_t n = s->h->nslug_slots;
	for (uint32_t probe = 0, at = (uint32_t)(slug_hash(collection, site, slug) & (n - 1)); probe < n;
	     probe++, at = (at + 1) & (n - 1)) {
		uint32_t v = s->slug_slots[at];
		if (v == 0)
			return SNAP_NONE;
		const struct rec_entry *r = &s->entries[v - 1];
		if (r->collection == collection && r->site == site && r->slug != SNAP_NONE &&
		    strcmp(str_at(s, r->slug), slug) == 0)
			return v - 1;
	}
	return SNAP_NONE;
}

value_t snap_extras_find(const struct snapshot *s, const char *kind, const char *handle)
{
	struct value_iter it;
	value_iter_init(&it, snap_extras(s, kind));
	while (value_iter_next(&it))
		if (strcmp(value_str(value_map_getz(it.value, "handle"), NULL), handle) == 0)
			return it.value;
	return VALUE_MISSING;
}

struct snap_problem snap_problem_at(const struct snapshot *s, uint32_t i)
{
	const struct rec_problem *r = &s->problems[i];
	return (struct snap_problem){str_at(s, r->path), str_at(s, r->message), r->line,
	                             r->warning != 0};
}
