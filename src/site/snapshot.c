/* snapshot: the site index as shareable bytes; see snapshot.h. */
#include "autoconfig.h"

#include "site/snapshot.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>
#include <xxhash.h>

#include "lib/ascii.h"
#include "lib/hash.h"
#include "lib/php.h"
#include "lib/publish.h"
#include "site/augment.h"
#include "site/blueprints.h"
#include "site/entries.h"
#include "site/files.h"
#include "site/navpages.h"
#include "site/segment.h"

#define SNAP_MAGIC "CMSAPIX\0"
/* 13: main's 12 (an entry's redirect) and this branch's 11 (head and
 * segments), both. 14: a snapshot of files holds no sources (the indexer
 * keeps them). */
#define SNAP_VERSION 14

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
	uint64_t sources;     /* blob offset of the map rel path -> parsed file, or SNAP_NONE:
	                       * only a snapshot in one block has it (snapshot_write) */
	uint32_t incomplete;  /* a folder could not be read: not the whole site */
	uint32_t pad2;
	uint64_t published_off; /* nentries slots: each dated collection's published dated
	                         * entries in date order, from its first entry's slot */
	uint64_t title_ends_off; /* nentries slots: where each of those entries' titles ends
	                         * in its collection's `titles` */
	uint64_t prints_off;   /* nentries fingerprints: what each entry was rendered from */
	uint64_t segments_off; /* nsegments rec_segment: where the entries' blobs are */
	uint64_t refs_off;     /* nrefs rec_ref: the short objects of the entries' relations */
	uint32_t nsegments, nrefs;
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

/* An entry: what it renders to (its blob: its strings and data) sits in a
 * segment, at offsets of that segment; what the next build may change
 * without rendering it again (its URI, its place) sits in the head. */
struct rec_entry {
	uint32_t segment;    /* which of the head's segments holds its blob */
	uint32_t blob, blob_len; /* the blob: id first, data last */
	uint32_t path, slug, blueprint, blueprint_title, data; /* in the segment */
	uint32_t uri;        /* in the head's blob */
	uint32_t redirect;   /* in the head's blob: where it sends, resolved per index */
	uint32_t title;      /* head blob offset of the data's title value, SNAP_NONE without one */
	uint32_t collection, site, origin, parent;
	int32_t order, depth;
	uint32_t flags;
	uint32_t pad;
	int64_t date, mtime;
};

struct rec_problem {
	uint32_t path, message;
	int32_t line;
	uint32_t warning; /* P_WARNING, P_LEFT_OUT */
};

enum { P_WARNING = 1, P_LEFT_OUT = 2 };

/* A segment the head names: a file beside it, or bytes of its own block. */
struct rec_segment {
	uint32_t name;   /* head blob: the file's name; SNAP_NONE: embedded */
	uint32_t pad;
	uint64_t offset; /* embedded: where the segment starts in the snapshot's bytes */
	uint64_t size;   /* its bytes */
	uint64_t live;   /* bytes of it that the entries' blobs take */
};

/* A relation's short object, kept once for every entry that has it: an
 * entry's data holds references whose object is null and whose target is
 * a number in this table. */
struct rec_ref {
	uint32_t kind;   /* enum ref_kind */
	uint32_t target; /* REF_ENTRY: the entry's number in this snapshot, else SNAP_NONE */
	uint32_t object; /* head blob offset of the object */
	uint32_t pad;
};

struct snapshot {
	char *bytes;
	size_t len;
	bool mapped;
	char *dir; /* owned: where its segment files are, NULL when all are embedded */
	const struct rec_header *h;
	const struct rec_site *sites;
	const struct rec_collection *collections;
	const struct rec_entry *entries;
	const struct rec_problem *problems;
	const struct rec_segment *segrecs;
	const struct rec_ref *refs;
	const uint64_t *prints;
	const uint32_t *slots;
	const uint32_t *slug_slots;
	const uint32_t *by_date;
	const uint32_t *published;
	const uint32_t *title_ends;
	const char *blob;
	struct segment_in *segs; /* owned: nsegments, open */
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
		collect_keys(x->own, &keys, &n);
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

/* --- what rendering an entry reads: its fingerprint --- */

/*
 * An entry's data (resolved_data) is made from its own values and its
 * origins', its collection's settings (inject, taxonomies), the fields of
 * its blueprint (entry_fields), its site and the sites' URLs, and, where
 * its fields relate (augment.h), from what the related items show: other
 * entries (ids, titles, URIs, sites, localizations, places in a tree:
 * entries, link and bard fields), terms (titles), users and assets. Its
 * fingerprint hashes all of that, the renderer (this build of cms-api)
 * and what it reads of the config: an entry whose fingerprint did not change renders to the same
 * bytes, so a build takes its blob from the last snapshot instead.
 */

enum relates {
	RELATES_ENTRIES = 1,
	RELATES_TERMS = 2,
	RELATES_USERS = 4,
	RELATES_ASSETS = 8,
	RELATES_LINKS = 16, /* statamic:// links of Markdown: entries' URLs alone */
};
#define RELATES_KINDS 5

static bool is_key(const struct value_iter *it, const char *key)
{
	return it->key && it->key_len == strlen(key) && memcmp(it->key, key, it->key_len) == 0;
}

/* The kinds of items fields relate to: the type of every field in them,
 * nested fields (replicator sets, grids, groups) included. */
static unsigned relates_of(value_t fields)
{
	unsigned kinds = 0;
	struct value_iter it;
	value_iter_init(&it, fields);
	while (value_iter_next(&it)) {
		const char *type = value_type(it.value) == VALUE_STRING && is_key(&it, "type")
		                           ? value_str(it.value, NULL)
		                           : "";
		if (strcmp(type, "entries") == 0)
			kinds |= RELATES_ENTRIES;
		else if (strcmp(type, "terms") == 0) /* their URLs: under a mounted entry's */
			kinds |= RELATES_TERMS | RELATES_LINKS;
		else if (strcmp(type, "users") == 0)
			kinds |= RELATES_USERS;
		else if (strcmp(type, "assets") == 0)
			kinds |= RELATES_ASSETS;
		else if (strcmp(type, "link") == 0 || strcmp(type, "bard") == 0)
			kinds |= RELATES_ENTRIES | RELATES_ASSETS;
		else if (strcmp(type, "markdown") == 0)
			kinds |= RELATES_LINKS | RELATES_ASSETS;
		kinds |= relates_of(it.value);
	}
	return kinds;
}

static uint64_t hash_bytes(uint64_t h, const void *p, size_t n)
{
	return XXH3_64bits_withSeed(p, n, h);
}

static uint64_t hash_str(uint64_t h, const char *s)
{
	return s ? hash_bytes(h, s, strlen(s) + 1) : hash_bytes(h, "", 0) ^ 0x9e3779b97f4a7c15ULL;
}

static uint64_t hash_value(uint64_t h, value_t v)
{
	return value_is_missing(v) ? hash_str(h, NULL) : hash_bytes(h, v.p, value_size(v));
}

/* What renders: this program. An entry rendered by another build of
 * cms-api is rendered again. */
static uint64_t renderer(void)
{
	static uint64_t id;
	if (id)
		return id;
	id = 0x5eed;
	int fd = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	struct stat st;
	void *map = fd >= 0 && fstat(fd, &st) == 0 && st.st_size > 0
	                    ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)
	                    : MAP_FAILED;
	if (map != MAP_FAILED) {
		id = hash_bytes(id, map, (size_t)st.st_size);
		munmap(map, (size_t)st.st_size);
	} else {
		/* No /proc: the version (not __DATE__, which the Debian build
		 * refuses as unreproducible); a build of the same version that
		 * renders otherwise is then not told apart. */
		id = hash_str(id, PACKAGE_VERSION);
	}
	if (fd >= 0)
		close(fd);
	return id;
}

/* What entry relations show of every entry. */
static uint64_t entries_shown(const struct site_index *idx)
{
	uint64_t h = 1;
	for (size_t i = 0; i < idx->nentries; i++) {
		const struct entry *e = &idx->entries[i];
		h = hash_str(h, e->id);
		h = hash_str(h, idx->collections[e->collection].handle);
		h = hash_str(h, e->uri);
		h = hash_str(h, e->redirect);
		h = hash_value(h, entry_field(idx, e, "title"));
		uint64_t place[4] = {e->site, e->origin ? (uint64_t)(e->origin - idx->entries) : ~0ULL,
		                     e->parent ? (uint64_t)(e->parent - idx->entries) : ~0ULL,
		                     (uint64_t)e->order};
		h = hash_bytes(h, place, sizeof place);
	}
	return h;
}

/* What a statamic:// link to an entry shows: its URL. */
static uint64_t links_shown(const struct site_index *idx)
{
	uint64_t h = 6;
	for (size_t i = 0; i < idx->nentries; i++) {
		const struct entry *e = &idx->entries[i];
		h = hash_str(hash_str(hash_str(h, e->id), e->uri), e->redirect);
		h = hash_bytes(h, &e->site, sizeof e->site);
	}
	return h;
}

/* What term relations show: every term but the entries that use it. */
static uint64_t terms_shown(value_t taxonomies)
{
	uint64_t h = 2;
	struct value_iter tax, term, part;
	value_iter_init(&tax, taxonomies);
	while (value_iter_next(&tax)) {
		h = hash_value(h, value_map_getz(tax.value, "handle"));
		value_iter_init(&term, value_map_getz(tax.value, "terms"));
		while (value_iter_next(&term)) {
			value_iter_init(&part, term.value);
			while (value_iter_next(&part))
				if (!is_key(&part, "entries"))
					h = hash_value(hash_bytes(h, part.key, part.key_len), part.value);
		}
	}
	return h;
}

/* The icon folders' files an icon field renders (names, sizes and
 * modification times, in any order): an entry is rendered again when
 * one changes. */
static uint64_t icons_shown(const struct site_index *idx)
{
	uint64_t sum = 5;
	for (size_t i = 0; i < idx->nicons; i++) {
		const char *folder = idx->icons[i].folder;
		sum += hash_str(hash_str(6, idx->icons[i].name), folder);
		DIR *d = folder ? opendir(folder) : NULL;
		struct dirent *e;
		while (d && (e = readdir(d)) != NULL) {
			struct strbuf path = STRBUF_INIT;
			strbuf_addf(&path, "%s/%s", folder, e->d_name);
			struct stat st;
			if (e->d_name[0] != '.' && stat(path.ptr, &st) == 0) {
				int64_t facts[3] = {st.st_size, st.st_mtim.tv_sec, st.st_mtim.tv_nsec};
				sum += hash_bytes(hash_str(hash_str(7, folder), e->d_name), facts,
				                  sizeof facts);
			}
			strbuf_release(&path);
		}
		if (d)
			closedir(d);
	}
	return sum;
}

/* Everything an entry's fingerprint takes from the whole site. */
struct render_inputs {
	uint64_t common;      /* the renderer and the sites */
	uint64_t *collection; /* per collection: its settings */
	uint64_t **fields;    /* per collection and blueprint slot (entry_fields) */
	unsigned **relates;   /* per collection and blueprint slot */
	uint64_t shown[RELATES_KINDS]; /* what relations show: entries, terms, users, assets,
	                                * links */
};

static void render_inputs_build(const struct site_index *idx, const struct entry_fields *ef,
                                struct render_inputs *in)
{
	memset(in, 0, sizeof *in);
	/* The config too: an INI taken up anew with other sites, base_url,
	 * disks or icons renders every entry again. */
	in->common = hash_bytes(renderer(), &idx->config_print, sizeof idx->config_print);
	for (size_t s = 0; s < idx->nsites; s++) {
		const struct site_info *si = &idx->sites[s];
		const char *parts[] = {si->handle, si->name, si->locale, si->short_locale, si->lang,
		                       si->url};
		for (size_t i = 0; i < sizeof parts / sizeof parts[0]; i++)
			in->common = hash_str(in->common, parts[i]);
	}
	in->common = hash_bytes(in->common, &idx->multisite, sizeof idx->multisite);
	if (idx->nicons)
		in->common = hash_bytes(in->common, &(uint64_t){icons_shown(idx)}, sizeof(uint64_t));
	size_t n = idx->ncollections ? idx->ncollections : 1;
	in->collection = xcalloc(n, sizeof *in->collection);
	in->fields = xcalloc(n, sizeof *in->fields);
	in->relates = xcalloc(n, sizeof *in->relates);
	unsigned all = RELATES_USERS; /* updated_by is a user whatever the blueprint says */
	for (size_t c = 0; c < idx->ncollections; c++) {
		const struct collection_info *col = &idx->collections[c];
		in->collection[c] = hash_value(hash_str(in->common, col->handle),
		                               vb_result(&col->settings));
		in->fields[c] = xcalloc(col->nblueprints + 1, sizeof **in->fields);
		in->relates[c] = xcalloc(col->nblueprints + 1, sizeof **in->relates);
		for (size_t b = 0; b <= col->nblueprints; b++) {
			value_t fields = vb_result(&ef->of[c][b]);
			const char *handle = b < col->nblueprints ? col->blueprints[b].handle : NULL;
			const char *title = b < col->nblueprints ? col->blueprints[b].title : NULL;
			in->fields[c][b] = hash_value(hash_str(hash_str(7, handle), title), fields);
			in->relates[c][b] = relates_of(fields) | RELATES_USERS;
			all |= in->relates[c][b];
		}
	}
	value_t extras = vb_result(&idx->extras);
	in->shown[0] = all & RELATES_ENTRIES ? entries_shown(idx) : 0;
	in->shown[1] = all & RELATES_TERMS ? terms_shown(value_map_getz(extras, "taxonomies")) : 0;
	in->shown[2] = hash_value(3, value_map_getz(extras, "users"));
	in->shown[3] = all & RELATES_ASSETS ? hash_value(4, value_map_getz(extras, "assets")) : 0;
	in->shown[4] = all & RELATES_LINKS ? links_shown(idx) : 0;
}

static void render_inputs_free(const struct site_index *idx, struct render_inputs *in)
{
	for (size_t c = 0; c < idx->ncollections; c++) {
		free(in->fields[c]);
		free(in->relates[c]);
	}
	free(in->collection);
	free(in->fields);
	free(in->relates);
}

/* The fingerprint of entry e: see above. */
static uint64_t fingerprint(const struct site_index *idx, const struct render_inputs *in,
                            const struct entry *e)
{
	const struct collection_info *c = &idx->collections[e->collection];
	const struct blueprint *bp = entry_blueprint(idx, e);
	size_t b = bp ? (size_t)(bp - c->blueprints) : c->nblueprints;
	uint64_t h = hash_str(in->collection[e->collection] ^ in->fields[e->collection][b], e->path);
	h = hash_bytes(h, &e->site, sizeof e->site);
	for (const struct entry *x = e; x; x = x->origin)
		h = hash_value(hash_str(h, x->id), x->own);
	unsigned kinds = in->relates[e->collection][b];
	for (int k = 0; k < RELATES_KINDS; k++)
		if (kinds & (1u << k))
			h = hash_bytes(h, &in->shown[k], sizeof in->shown[k]);
	return h;
}

/* --- relations: their short objects kept once --- */

/*
 * The short objects of the entries' relations, each kept once in the
 * head (the tags of 100,000 entries took 43 MB when every entry held its
 * own copies). A number, once given, names the same object for as long
 * as a build goes on from the last: reused blobs hold those numbers.
 */
struct interner {
	struct strbuf objects; /* owned: every object, one after another */
	uint32_t *at;          /* owned: where object i starts in objects */
	uint32_t *kind;        /* owned: its enum ref_kind */
	uint32_t n, cap;
	uint32_t *slots;       /* owned: object number + 1, by hash */
	uint32_t nslots;       /* a power of two, at least twice n */
};

static value_t interned(const struct interner *in, uint32_t i)
{
	return (value_t){(const unsigned char *)in->objects.ptr + in->at[i]};
}

static uint64_t object_hash(uint32_t kind, value_t object)
{
	return hash_value(kind, object);
}

static void intern_slot(struct interner *in, uint32_t i)
{
	uint32_t at = (uint32_t)(object_hash(in->kind[i], interned(in, i)) & (in->nslots - 1));
	while (in->slots[at])
		at = (at + 1) & (in->nslots - 1);
	in->slots[at] = i + 1;
}

static void intern_grow(struct interner *in)
{
	in->cap = in->cap ? in->cap * 2 : 256;
	in->at = xrealloc(in->at, in->cap * sizeof *in->at);
	in->kind = xrealloc(in->kind, in->cap * sizeof *in->kind);
	free(in->slots);
	in->nslots = in->cap * 2;
	in->slots = xcalloc(in->nslots, sizeof *in->slots);
	for (uint32_t i = 0; i < in->n; i++)
		intern_slot(in, i);
}

/* Adds object (of a relation of kind) under the next number. */
static uint32_t intern_add(struct interner *in, uint32_t kind, value_t object)
{
	if (in->n == in->cap)
		intern_grow(in);
	uint32_t i = in->n++;
	in->at[i] = (uint32_t)in->objects.len;
	in->kind[i] = kind;
	if (value_is_missing(object))
		strbuf_addch(&in->objects, VALUE_NULL);
	else
		strbuf_add(&in->objects, object.p, value_size(object));
	intern_slot(in, i);
	return i;
}

/* The number of object (of a relation of kind), kept once. */
static uint32_t intern(struct interner *in, uint32_t kind, value_t object)
{
	uint32_t mask = in->nslots ? in->nslots - 1 : 0;
	for (uint32_t at = (uint32_t)(object_hash(kind, object) & mask); in->nslots && in->slots[at];
	     at = (at + 1) & mask) {
		uint32_t v = in->slots[at];
		if (in->kind[v - 1] == kind && value_equal(interned(in, v - 1), object))
			return v - 1;
	}
	return intern_add(in, kind, object);
}

static void interner_free(struct interner *in)
{
	strbuf_release(&in->objects);
	free(in->at);
	free(in->kind);
	free(in->slots);
	memset(in, 0, sizeof *in);
}

static bool holds_ref(value_t v)
{
	if (value_type(v) == VALUE_REF)
		return true;
	struct value_iter it;
	value_iter_init(&it, v);
	while (value_iter_next(&it))
		if (holds_ref(it.value))
			return true;
	return false;
}

/* Copies v into out, every relation's short object replaced by its
 * number in in (the reference's target; its object is null). A whole
 * relationship field (REF_FIELD) stays a reference of its own, holding
 * the field as delivered, whose references are interned. */
static void intern_copy(struct interner *in, value_t v, struct value_builder *out)
{
	struct value_iter it;
	if (!holds_ref(v)) {
		vb_value(out, v);
		return;
	}
	switch (value_type(v)) {
	case VALUE_REF:
		if (value_ref_kind(v) == REF_FIELD) {
			/* A whole relationship field: kept in place, its
			 * references within interned. */
			vb_ref_begin(out, REF_FIELD, value_ref_target(v));
			vb_value(out, value_ref_raw(v));
			intern_copy(in, value_ref_object(v), out);
			vb_ref_end(out);
			return;
		}
		vb_ref_begin(out, value_ref_kind(v),
		             intern(in, (uint32_t)value_ref_kind(v), value_ref_object(v)));
		vb_value(out, value_ref_raw(v));
		vb_null(out);
		vb_ref_end(out);
		return;
	case VALUE_ARRAY:
		vb_array_begin(out);
		value_iter_init(&it, v);
		while (value_iter_next(&it))
			intern_copy(in, it.value, out);
		vb_array_end(out);
		return;
	default: /* a map: nothing else holds values */
		vb_map_begin(out);
		value_iter_init(&it, v);
		while (value_iter_next(&it)) {
			vb_key(out, it.key, it.key_len);
			intern_copy(in, it.value, out);
		}
		vb_map_end(out);
	}
}

/* --- entries' blobs --- */

/* Where the parts of a blob are, from its start. */
struct blob_parts {
	uint32_t path, slug, blueprint, blueprint_title, data, len;
};

/* An entry's blob: id, path, slug, blueprint and its title, then data. */
static void entry_blob(const char *id, const char *path, const char *slug, const char *bp,
                       const char *bp_title, value_t data, struct strbuf *out,
                       struct blob_parts *parts)
{
	strbuf_reset(out);
	put_string(out, id);
	parts->path = put_string(out, path);
	parts->slug = put_string(out, slug);
	parts->blueprint = put_string(out, bp);
	parts->blueprint_title = put_string(out, bp_title);
	parts->data = (uint32_t)out->len;
	strbuf_add(out, data.p, value_size(data));
	parts->len = (uint32_t)out->len;
}

/* A record's blob parts moved to start at `at`: */
static uint32_t rebased(uint32_t off, uint32_t old_blob, uint32_t new_blob)
{
	return off == SNAP_NONE ? SNAP_NONE : off - old_blob + new_blob;
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

/* --- a build --- */

/* A segment of the last snapshot, as this build sees it. */
struct old_segment {
	uint64_t live;    /* bytes of it the entries reused from it take */
	uint32_t number;  /* kept as it is: its number in the new head; else SNAP_NONE (its
	                   * reused blobs are copied into the new segments) */
};

/* Everything one build makes and reads. */
struct build {
	const struct site_index *idx;
	const struct snapshot *prev;   /* may be NULL */
	struct segment_writer segw;
	struct strbuf blob;            /* the head's */
	struct interner refs;
	struct render_inputs inputs;
	uint64_t *prints;              /* per entry */
	uint32_t *reused;              /* per entry: its number in prev, or SNAP_NONE */
	struct old_segment *old;       /* per segment of prev */
	uint32_t nkept;                /* segments of prev kept: numbers [0, nkept) */
	struct rec_entry *recs;
	struct snapshot_build_stats stats;
	bool with_sources;             /* the head holds the files' sources */
};

/* Entries of the last snapshot by fingerprint: their numbers + 1. */
static uint32_t *prints_table(const struct snapshot *prev, uint32_t *nslots)
{
	uint32_t n = 16;
	while (n < prev->h->nentries * 2)
		n *= 2;
	uint32_t *slots = xcalloc(n, sizeof *slots);
	for (uint32_t i = 0; i < prev->h->nentries; i++) {
		uint32_t at = (uint32_t)(prev->prints[i] & (n - 1));
		while (slots[at])
			at = (at + 1) & (n - 1);
		slots[at] = i + 1;
	}
	*nslots = n;
	return slots;
}

/* Which entries can take their blob from the last snapshot: those whose
 * fingerprint it has. */
static void find_reusable(struct build *b)
{
	const struct snapshot *prev = b->prev;
	for (size_t i = 0; i < b->idx->nentries; i++)
		b->reused[i] = SNAP_NONE;
	if (!prev || prev->h->nentries == 0)
		return;
	uint32_t nslots;
	uint32_t *slots = prints_table(prev, &nslots);
	for (size_t i = 0; i < b->idx->nentries; i++) {
		for (uint32_t at = (uint32_t)(b->prints[i] & (nslots - 1)); slots[at];
		     at = (at + 1) & (nslots - 1)) {
			if (prev->prints[slots[at] - 1] == b->prints[i]) {
				b->reused[i] = slots[at] - 1;
				b->old[prev->entries[slots[at] - 1].segment].live +=
				        prev->entries[slots[at] - 1].blob_len;
				break;
			}
		}
	}
	free(slots);
}

/*
 * Which segments of the last snapshot the new head names as they are.
 * One with nothing reused goes; in memory nothing is kept (the blobs
 * reused are copied). Then, while more than a fifth of what the kept
 * segments take is dead (blobs no entry uses any more), the one with the
 * least alive is given up, its live blobs copied into the new segments:
 * the snapshot stays within about 1.25 times what its entries take.
 */
static void choose_kept(struct build *b)
{
	const struct snapshot *prev = b->prev;
	uint32_t n = prev ? prev->h->nsegments : 0;
	uint64_t size = 0, live = 0;
	for (uint32_t s = 0; s < n; s++) {
		bool keep = b->segw.dir && prev->segrecs[s].name != SNAP_NONE && b->old[s].live > 0;
		b->old[s].number = keep ? 0 : SNAP_NONE;
		if (keep) {
			size += prev->segrecs[s].size;
			live += b->old[s].live;
		}
	}
	while (size - live > live / 4) {
		uint32_t worst = SNAP_NONE;
		for (uint32_t s = 0; s < n; s++)
			if (b->old[s].number != SNAP_NONE &&
			    (worst == SNAP_NONE || b->old[s].live * prev->segrecs[worst].size <
			                                   b->old[worst].live * prev->segrecs[s].size))
				worst = s;
		if (worst == SNAP_NONE)
			break;
		b->old[worst].number = SNAP_NONE;
		size -= prev->segrecs[worst].size;
		live -= b->old[worst].live;
	}
	for (uint32_t s = 0; s < n; s++)
		if (b->old[s].number != SNAP_NONE)
			b->old[s].number = b->nkept++;
}

/* The interner of a build that goes on from prev: prev's objects under
 * the same numbers, which the blobs it reuses hold. */
static void interner_seed(struct interner *in, const struct snapshot *prev)
{
	for (uint32_t i = 0; prev && i < prev->h->nrefs; i++)
		intern_add(in, prev->refs[i].kind,
		           (value_t){(const unsigned char *)prev->blob + prev->refs[i].object});
}

/* The record of entry i reused from the last snapshot: as it was where
 * its segment is kept, else its blob copied into the new segments. */
static struct rec_entry reuse_entry(struct build *b, uint32_t j, value_t *data)
{
	const struct snapshot *prev = b->prev;
	struct rec_entry r = prev->entries[j];
	const struct segment_in *seg = &prev->segs[r.segment];
	*data = (value_t){(const unsigned char *)seg->base + r.data};
	uint32_t number = b->old[r.segment].number;
	b->stats.reused++;
	if (number != SNAP_NONE) {
		r.segment = number;
		return r;
	}
	uint32_t segment, at;
	segment_append(&b->segw, seg->base + r.blob, r.blob_len, &segment, &at);
	r.path = rebased(r.path, r.blob, at);
	r.slug = rebased(r.slug, r.blob, at);
	r.blueprint = rebased(r.blueprint, r.blob, at);
	r.blueprint_title = rebased(r.blueprint_title, r.blob, at);
	r.data = rebased(r.data, r.blob, at);
	r.blob = at;
	r.segment = b->nkept + segment;
	b->stats.moved++;
	return r;
}

/* The record of entry e, rendered now into the new segments; *data is
 * its data as written (in scratch). */
static struct rec_entry render_entry(struct build *b, const struct augment_tables *tables,
                                     const struct entry_fields *ef, const struct entry *e,
                                     struct value_builder *scratch, value_t *data)
{
	const struct site_index *idx = b->idx;
	struct value_builder resolved = VALUE_BUILDER_INIT;
	struct augment_ctx ctx = {.idx = idx, .tables = tables, .site = e->site, .entry = e};
	resolved_data(&ctx, ef, e, &resolved);
	vb_reset(scratch);
	intern_copy(&b->refs, vb_result(&resolved), scratch);
	vb_release(&resolved);
	/* Statamic's fallback blueprint is the collection's singular. */
	const struct blueprint *bp = entry_blueprint(idx, e);
	char *fallback = bp ? NULL : singular_handle(idx->collections[e->collection].handle);
	char *fallback_title = fallback ? files_title(VALUE_MISSING, fallback) : NULL;
	struct strbuf blob = STRBUF_INIT;
	struct blob_parts parts;
	entry_blob(e->id, e->path, e->slug, bp ? bp->handle : fallback,
	           bp ? bp->title : fallback_title, vb_result(scratch), &blob, &parts);
	uint32_t segment, at;
	segment_append(&b->segw, blob.ptr, blob.len, &segment, &at);
	strbuf_release(&blob);
	free(fallback);
	free(fallback_title);
	*data = vb_result(scratch);
	b->stats.rendered++;
	return (struct rec_entry){
		.segment = b->nkept + segment,
		.blob = at,
		.blob_len = parts.len,
		.path = at + parts.path,
		.slug = rebased(parts.slug, 0, at),
		.blueprint = at + parts.blueprint,
		.blueprint_title = at + parts.blueprint_title,
		.data = at + parts.data,
	};
}

static uint32_t entry_number_or_none(const struct site_index *idx, const struct entry *e)
{
	return e ? (uint32_t)(e - idx->entries) : SNAP_NONE;
}

/* What a record says of the entry that a later build may change without
 * rendering it: its place and status, its URI, its title (copied beside
 * the other entries' titles: a title filter or sort reads every title,
 * and side by side they share cache lines and pages). */
static void place_entry(struct build *b, const struct entry *e, value_t data, struct rec_entry *r)
{
	const struct site_index *idx = b->idx;
	value_t title = value_map_getz(data, "title");
	r->uri = put_string(&b->blob, e->uri);
	r->redirect = put_string(&b->blob, e->redirect);
	r->title = value_is_missing(title) ? SNAP_NONE : put_value(&b->blob, title);
	r->collection = (uint32_t)e->collection;
	r->site = (uint32_t)e->site;
	r->origin = entry_number_or_none(idx, e->origin);
	r->parent = entry_number_or_none(idx, e->parent);
	r->order = (int32_t)e->order;
	r->depth = e->depth;
	r->flags = (e->published ? E_PUBLISHED : 0) | (e->has_date ? E_HAS_DATE : 0);
	r->pad = 0;
	r->date = e->date;
	r->mtime = e->mtime;
}

/* Every entry's record and blob: taken from the last snapshot where it
 * can be, else rendered. */
static void write_entries(struct build *b)
{
	const struct site_index *idx = b->idx;
	struct augment_tables *tables = augment_tables_build(idx);
	struct entry_fields ef;
	entry_fields_build(idx, &ef);
	render_inputs_build(idx, &ef, &b->inputs);
	for (size_t i = 0; i < idx->nentries; i++)
		b->prints[i] = fingerprint(idx, &b->inputs, &idx->entries[i]);
	find_reusable(b);
	choose_kept(b);
	interner_seed(&b->refs, b->prev);
	struct value_builder scratch = VALUE_BUILDER_INIT;
	for (size_t i = 0; i < idx->nentries; i++) {
		value_t data;
		b->recs[i] = b->reused[i] != SNAP_NONE
		                     ? reuse_entry(b, b->reused[i], &data)
		                     : render_entry(b, tables, &ef, &idx->entries[i], &scratch, &data);
		place_entry(b, &idx->entries[i], data, &b->recs[i]);
	}
	vb_release(&scratch);
	render_inputs_free(idx, &b->inputs);
	entry_fields_free(idx, &ef);
	augment_tables_free(tables);
}

/* The relations' objects, and the entry each of an entry relation names
 * now (by its id: numbers move as entries come and go). */
static struct rec_ref *write_refs(struct build *b)
{
	struct rec_ref *refs = xcalloc(b->refs.n ? b->refs.n : 1, sizeof *refs);
	for (uint32_t i = 0; i < b->refs.n; i++) {
		value_t object = interned(&b->refs, i);
		const struct entry *target =
		        b->refs.kind[i] == REF_ENTRY
		                ? site_index_entry(b->idx, value_str(value_map_getz(object, "id"), NULL))
		                : NULL;
		refs[i] = (struct rec_ref){b->refs.kind[i], entry_number_or_none(b->idx, target),
		                           put_value(&b->blob, object), 0};
	}
	return refs;
}

/* The head's table of segments: those of prev kept, then the new ones.
 * live is what the entries' blobs take in each. */
static struct rec_segment *write_segments(struct build *b, uint32_t *count)
{
	uint32_t n = b->nkept + (uint32_t)b->segw.nouts;
	struct rec_segment *segs = xcalloc(n ? n : 1, sizeof *segs);
	for (uint32_t s = 0; b->prev && s < b->prev->h->nsegments; s++) {
		uint32_t k = b->old[s].number;
		if (k == SNAP_NONE)
			continue;
		const struct rec_segment *old = &b->prev->segrecs[s];
		segs[k] = (struct rec_segment){put_string(&b->blob, b->prev->blob + old->name), 0, 0,
		                               old->size, 0};
	}
	for (size_t i = 0; i < b->segw.nouts; i++) {
		const struct segment_out *o = &b->segw.outs[i];
		segs[b->nkept + i] =
		        (struct rec_segment){o->name ? put_string(&b->blob, o->name) : SNAP_NONE, 0, 0,
		                             o->size, 0};
	}
	for (size_t i = 0; i < b->idx->nentries; i++)
		segs[b->recs[i].segment].live += b->recs[i].blob_len;
	*count = n;
	return segs;
}

/* One section of the head: count items of size bytes, at *off. */
struct section {
	const void *data;
	size_t bytes;
	uint64_t *off;
};

/* Lays the sections out after the header, each on 8 bytes, then the
 * blob; returns the head's size. */
static size_t lay_out(struct rec_header *h, struct section *s, size_t n, size_t blob_len)
{
	size_t at = align8(sizeof *h);
	for (size_t i = 0; i < n; i++) {
		*s[i].off = at;
		at = align8(at + s[i].bytes);
	}
	h->blob_off = at;
	h->blob_size = blob_len;
	return at + blob_len;
}

/* A head laid out, ready to be written: the header, its sections (their
 * offsets set in h), the blob, and in memory the one segment after it. */
struct head_out {
	struct rec_header h;
	struct section sections[12];
	size_t nsections;
	const struct strbuf *blob;     /* the build's */
	const struct strbuf *embedded; /* NULL, or the in-memory segment */
	size_t head;                   /* bytes of the head itself */
	void *owned[10];               /* the sections' arrays, freed by head_out_free */
};

/* Where head bytes go: a buffer, or a file as they are made. */
typedef int (*emit_fn)(void *arg, const void *data, size_t len);

static int emit_to_buf(void *arg, const void *data, size_t len)
{
	strbuf_add(arg, data, len);
	return 0;
}

static int emit_to_fd(void *arg, const void *data, size_t len)
{
	return publish_write_all(*(int *)arg, data, len);
}

/* n zero bytes. */
static int emit_zeros(emit_fn emit, void *arg, size_t n)
{
	static const char zeros[4096];
	for (size_t k; n > 0; n -= k) {
		k = n < sizeof zeros ? n : sizeof zeros;
		if (emit(arg, zeros, k) != 0)
			return -1;
	}
	return 0;
}

/* Writes the head o lays out, each byte once (the sections, the zeros
 * between them, the blob, the embedded segment), through emit. 0 or -1. */
static int emit_head(const struct head_out *o, emit_fn emit, void *arg)
{
	const struct rec_header *h = &o->h;
	uint64_t at = sizeof *h;
	if (emit(arg, h, sizeof *h) != 0)
		return -1;
	for (size_t i = 0; i < o->nsections; i++) {
		const struct section *sec = &o->sections[i];
		if (emit_zeros(emit, arg, *sec->off - at) != 0 ||
		    (sec->bytes && emit(arg, sec->data, sec->bytes) != 0))
			return -1;
		at = *sec->off + sec->bytes;
	}
	if (emit_zeros(emit, arg, h->blob_off - at) != 0 ||
	    emit(arg, o->blob->ptr, o->blob->len) != 0)
		return -1;
	if (!o->embedded)
		return 0;
	if (emit_zeros(emit, arg, align8(o->head) - o->head) != 0)
		return -1;
	return emit(arg, o->embedded->ptr, o->embedded->len);
}

static void head_out_free(struct head_out *o)
{
	for (size_t i = 0; i < sizeof o->owned / sizeof o->owned[0]; i++)
		free(o->owned[i]);
}

/* Lays out the head of the build (and, in memory, the one segment after
 * it) in o, the strings and values it names added to the build's blob. */
static void lay_head(struct build *b, uint64_t signature, struct head_out *o)
{
	const struct site_index *idx = b->idx;
	struct strbuf *blob = &b->blob;
	memset(o, 0, sizeof *o);
	struct rec_site *sites = xcalloc(idx->nsites ? idx->nsites : 1, sizeof *sites);
	for (size_t i = 0; i < idx->nsites; i++) {
		const struct site_info *s = &idx->sites[i];
		sites[i] = (struct rec_site){put_string(blob, s->handle), put_string(blob, s->name),
		                             put_string(blob, s->locale), put_string(blob, s->short_locale),
		                             put_string(blob, s->lang), put_string(blob, s->url)};
	}
	struct rec_collection *cols = xcalloc(idx->ncollections ? idx->ncollections : 1, sizeof *cols);
	for (size_t i = 0; i < idx->ncollections; i++) {
		const struct collection_info *c = &idx->collections[i];
		cols[i] = (struct rec_collection){
			put_string(blob, c->handle), put_string(blob, c->title), put_string(blob, c->mount),
			collection_flags(c), (int32_t)c->max_depth, put_value(blob, vb_result(&c->settings)),
			c->nentries ? entry_number_or_none(idx, c->entries[0]) : 0, (uint32_t)c->nentries,
			0, 0, 0, 0}; /* set by published_orders and published_titles */
	}
	struct rec_problem *problems = xcalloc(idx->files.nproblems ? idx->files.nproblems : 1,
	                                       sizeof *problems);
	for (size_t i = 0; i < idx->files.nproblems; i++) {
		const struct problem *p = &idx->files.problems[i];
		problems[i] = (struct rec_problem){put_string(blob, p->path), put_string(blob, p->message),
		                                   p->line, (p->warning ? P_WARNING : 0) |
		                                                    (p->left_out ? P_LEFT_OUT : 0)};
	}
	struct augment_tables *tables = augment_tables_build(idx);
	struct value_builder augmented = VALUE_BUILDER_INIT;
	struct augment_ctx ctx = {.idx = idx, .tables = tables};
	augmented_extras(&ctx, &augmented);
	augment_tables_free(tables);
	struct rec_header *h = &o->h;
	h->extras = put_value(blob, vb_result(&augmented));
	vb_release(&augmented);
	h->sources = b->with_sources ? put_value(blob, vb_result(&idx->files.sources)) : SNAP_NONE;
	struct rec_ref *refs = write_refs(b);
	uint32_t nsegments;
	struct rec_segment *segs = write_segments(b, &nsegments);
	size_t nslug_slots;
	uint32_t *slug_slots = slug_table(idx, &nslug_slots);
	uint32_t *slots = xcalloc(idx->nslots ? idx->nslots : 1, sizeof *slots);
	for (size_t i = 0; i < idx->nslots; i++)
		slots[i] = (uint32_t)idx->entry_slots[i];
	uint32_t *by_date = date_orders(idx);
	uint32_t *published = published_orders(idx, by_date, cols);
	uint32_t *title_ends = xcalloc(idx->nentries ? idx->nentries : 1, sizeof *title_ends);
	published_titles(idx, published, b->recs, cols, title_ends, blob);
	strbuf_addch(blob, '\0'); /* every string ends inside the blob */

	memcpy(h->magic, SNAP_MAGIC, 8);
	h->version = SNAP_VERSION;
	h->header_size = sizeof *h;
	h->signature = signature;
	h->built_at = (int64_t)time(NULL);
	h->nsites = (uint32_t)idx->nsites;
	h->ncollections = (uint32_t)idx->ncollections;
	h->nentries = (uint32_t)idx->nentries;
	h->nproblems = (uint32_t)idx->files.nproblems;
	h->nslots = (uint32_t)idx->nslots;
	h->nslug_slots = (uint32_t)nslug_slots;
	h->multisite = idx->multisite;
	h->incomplete = idx->files.unreadable != NULL;
	h->nsegments = nsegments;
	h->nrefs = b->refs.n;
	size_t n = idx->nentries;
	struct section sections[] = {
		{sites, idx->nsites * sizeof *sites, &h->sites_off},
		{cols, idx->ncollections * sizeof *cols, &h->collections_off},
		{b->recs, n * sizeof *b->recs, &h->entries_off},
		{problems, idx->files.nproblems * sizeof *problems, &h->problems_off},
		{slots, idx->nslots * sizeof *slots, &h->slots_off},
		{slug_slots, nslug_slots * sizeof *slug_slots, &h->slug_slots_off},
		{by_date, n * sizeof *by_date, &h->by_date_off},
		{published, n * sizeof *published, &h->published_off},
		{title_ends, n * sizeof *title_ends, &h->title_ends_off},
		{b->prints, n * sizeof *b->prints, &h->prints_off},
		{segs, nsegments * sizeof *segs, &h->segments_off},
		{refs, b->refs.n * sizeof *refs, &h->refs_off},
	};
	o->nsections = sizeof sections / sizeof sections[0];
	memcpy(o->sections, sections, sizeof sections);
	void *owned[] = {sites, cols, problems, refs, segs, slots, slug_slots, by_date, published,
	                 title_ends};
	memcpy(o->owned, owned, sizeof owned);
	o->blob = blob;
	o->head = lay_out(h, o->sections, o->nsections, blob->len);
	/* In memory the one segment follows the head. */
	o->embedded = !b->segw.dir && b->segw.nouts ? &b->segw.outs[0].buf : NULL;
	if (o->embedded)
		segs[0].offset = align8(o->head);
	h->total_size = o->embedded ? align8(o->head) + o->embedded->len : o->head;
}

static void build_init(struct build *b, const struct site_index *idx, const struct snapshot *prev,
                       const char *dir, const char *prefix)
{
	memset(b, 0, sizeof *b);
	b->idx = idx;
	b->prev = prev;
	segment_writer_init(&b->segw, dir, prefix);
	b->blob = (struct strbuf)STRBUF_INIT;
	strbuf_addch(&b->blob, '\0'); /* offset 0 is "", never a real string */
	size_t n = idx->nentries ? idx->nentries : 1;
	b->prints = xcalloc(n, sizeof *b->prints);
	b->reused = xcalloc(n, sizeof *b->reused);
	b->recs = xcalloc(n, sizeof *b->recs);
	b->old = xcalloc(prev && prev->h->nsegments ? prev->h->nsegments : 1, sizeof *b->old);
}

static void build_free(struct build *b)
{
	strbuf_release(&b->blob);
	interner_free(&b->refs);
	free(b->prints);
	free(b->reused);
	free(b->recs);
	free(b->old);
}

/* Renders (or reuses) every entry into the new segments and flushes
 * them. 0, or -1 with err when a segment could not be written. */
static int write_segments_all(struct build *b, char err[SNAP_ERR_LEN])
{
	write_entries(b);
	if (segment_writer_finish(&b->segw) != 0) {
		snprintf(err, SNAP_ERR_LEN, "%s", b->segw.err);
		return -1;
	}
	return 0;
}

/* The build's entries rendered, and its head with them, appended to
 * out (in memory). -1 with err as write_segments_all. */
static int build_bytes(struct build *b, uint64_t signature, struct strbuf *out,
                       char err[SNAP_ERR_LEN])
{
	if (write_segments_all(b, err) != 0)
		return -1;
	struct head_out o;
	lay_head(b, signature, &o);
	strbuf_grow(out, o.h.total_size);
	emit_head(&o, emit_to_buf, out);
	head_out_free(&o);
	return 0;
}

static int fill_head(int fd, void *arg)
{
	return emit_head(arg, emit_to_fd, &fd);
}

/* The build's entries rendered to its segment files, then its head
 * written to path as it is laid out (no copy of it in memory), flushed
 * and renamed into place. 0, or -1 with err. */
static int build_files(struct build *b, uint64_t signature, const char *path,
                       char err[SNAP_ERR_LEN])
{
	if (write_segments_all(b, err) != 0)
		return -1;
	struct head_out o;
	lay_head(b, signature, &o);
	int rc = publish_file(path, 0644, PUBLISH_SYNC, fill_head, &o);
	if (rc != 0)
		snprintf(err, SNAP_ERR_LEN, "%s: %s", path, strerror(errno ? errno : EIO));
	head_out_free(&o);
	return rc;
}

void snapshot_write(const struct site_index *idx, uint64_t signature, struct strbuf *out)
{
	struct build b;
	char err[SNAP_ERR_LEN];
	build_init(&b, idx, NULL, NULL, NULL);
	b.with_sources = true; /* the process that keeps it falls back on them */
	if (build_bytes(&b, signature, out, err) != 0) {
		/* Only an index beyond 4 GiB, which one block cannot hold. */
		fprintf(stderr, "cms-api: cannot build the index in memory: %s\n", err);
		abort();
	}
	segment_writer_free(&b.segw);
	build_free(&b);
}

/* snapshot_build in memory: one block. */
static struct snapshot *build_in_memory(struct build *b, uint64_t signature,
                                        char err[SNAP_ERR_LEN])
{
	struct strbuf bytes = STRBUF_INIT;
	if (build_bytes(b, signature, &bytes, err) != 0) {
		strbuf_release(&bytes);
		return NULL;
	}
	size_t len;
	char *data = strbuf_detach(&bytes, &len);
	return snapshot_from_bytes(data, len, err);
}

/* snapshot_build to files: the head at dir/head_name, mapped. */
static struct snapshot *build_to_files(struct build *b, uint64_t signature,
                                       const struct snapshot_how *how, char err[SNAP_ERR_LEN])
{
	struct strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "%s/%s", how->dir, how->head_name);
	struct snapshot *snap = NULL;
	if (build_files(b, signature, path.ptr, err) == 0)
		snap = snapshot_map(path.ptr, err);
	strbuf_release(&path);
	return snap;
}

struct snapshot *snapshot_build(const struct site_index *idx, uint64_t signature,
                                const struct snapshot_how *how, char err[SNAP_ERR_LEN])
{
	struct build b;
	build_init(&b, idx, how->previous, how->dir, how->segment_prefix);
	struct snapshot *snap = how->dir ? build_to_files(&b, signature, how, err)
	                                 : build_in_memory(&b, signature, err);
	if (how->stats)
		*how->stats = b.stats;
	if (snap)
		segment_writer_free(&b.segw);
	else
		segment_writer_discard(&b.segw);
	build_free(&b);
	return snap;
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

/* Whether off is a part of the blob of r (a string, or its data). */
static bool in_blob(const struct rec_entry *r, uint32_t off, bool may_be_none)
{
	return (may_be_none && off == SNAP_NONE) || (off >= r->blob && off - r->blob < r->blob_len);
}

/* An entry's record: its segment and its blob's parts in it, what it
 * names in the head. (A blob's bytes are read only when the entry is: a
 * new worker maps the segments without reading them.) */
static bool entry_ok(const struct snapshot *s, const struct rec_entry *r)
{
	const struct rec_header *h = s->h;
	return r->segment < h->nsegments && r->blob_len > 0 &&
	       r->blob <= s->segs[r->segment].len - r->blob_len &&
	       in_blob(r, r->path, false) && in_blob(r, r->slug, true) &&
	       in_blob(r, r->blueprint, false) && in_blob(r, r->blueprint_title, false) &&
	       in_blob(r, r->data, false) && offset_ok(s, r->uri, true) &&
	       offset_ok(s, r->redirect, true) &&
	       (r->title == SNAP_NONE || value_ok(s, r->title)) && r->collection < h->ncollections &&
	       r->site < h->nsites && (r->origin == SNAP_NONE || r->origin < h->nentries) &&
	       (r->parent == SNAP_NONE || r->parent < h->nentries);
}

static bool collection_ok(const struct snapshot *s, const struct rec_collection *r)
{
	const struct rec_header *h = s->h;
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
		if (s->published[j] < r->first_entry || s->published[j] >= r->first_entry + r->nentries ||
		    s->title_ends[j] > r->titles_len ||
		    (j > r->first_entry && s->title_ends[j] < s->title_ends[j - 1]))
			return false;
	return r->titles <= h->blob_size && r->titles_len <= h->blob_size - r->titles;
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
	for (uint32_t i = 0; i < h->ncollections; i++)
		if (!collection_ok(s, &s->collections[i]))
			return false;
	for (uint32_t i = 0; i < h->nentries; i++)
		if (!entry_ok(s, &s->entries[i]))
			return false;
	for (uint32_t i = 0; i < h->nproblems; i++)
		if (!offset_ok(s, s->problems[i].path, false) || !offset_ok(s, s->problems[i].message, false))
			return false;
	for (uint32_t i = 0; i < h->nrefs; i++)
		if (!value_ok(s, s->refs[i].object) ||
		    (s->refs[i].target != SNAP_NONE && s->refs[i].target >= h->nentries))
			return false;
	for (uint32_t i = 0; i < h->nslots; i++)
		if (s->slots[i] > h->nentries)
			return false;
	for (uint32_t i = 0; i < h->nslug_slots; i++)
		if (s->slug_slots[i] > h->nentries)
			return false;
	return (h->nslots == 0 || (h->nslots & (h->nslots - 1)) == 0) &&
	       h->extras < UINT32_MAX && value_ok(s, (uint32_t)h->extras) &&
	       (h->sources == SNAP_NONE ||
	        (h->sources < UINT32_MAX && value_ok(s, (uint32_t)h->sources)));
}

static bool sections_ok(const struct rec_header *h, size_t len, const char *bytes)
{
	return h->blob_off <= len && h->blob_size <= len - h->blob_off && h->blob_size > 0 &&
	       h->total_size == len && bytes[h->blob_off + h->blob_size - 1] == '\0' &&
	       section_fits(h, h->sites_off, h->nsites, sizeof(struct rec_site)) &&
	       section_fits(h, h->collections_off, h->ncollections, sizeof(struct rec_collection)) &&
	       section_fits(h, h->entries_off, h->nentries, sizeof(struct rec_entry)) &&
	       section_fits(h, h->problems_off, h->nproblems, sizeof(struct rec_problem)) &&
	       section_fits(h, h->slots_off, h->nslots, sizeof(uint32_t)) &&
	       section_fits(h, h->slug_slots_off, h->nslug_slots, sizeof(uint32_t)) &&
	       section_fits(h, h->by_date_off, h->nentries, sizeof(uint32_t)) &&
	       section_fits(h, h->published_off, h->nentries, sizeof(uint32_t)) &&
	       section_fits(h, h->title_ends_off, h->nentries, sizeof(uint32_t)) &&
	       section_fits(h, h->prints_off, h->nentries, sizeof(uint64_t)) &&
	       section_fits(h, h->segments_off, h->nsegments, sizeof(struct rec_segment)) &&
	       section_fits(h, h->refs_off, h->nrefs, sizeof(struct rec_ref)) &&
	       h->nslug_slots != 0 && (h->nslug_slots & (h->nslug_slots - 1)) == 0;
}

/* Opens the segments the head names: embedded ones in its own bytes
 * (after the blob), files in s->dir. */
static bool open_segments(struct snapshot *s, char err[SNAP_ERR_LEN])
{
	const struct rec_header *h = s->h;
	uint64_t head = h->blob_off + h->blob_size;
	s->segs = xcalloc(h->nsegments ? h->nsegments : 1, sizeof *s->segs);
	for (uint32_t i = 0; i < h->nsegments; i++) {
		const struct rec_segment *r = &s->segrecs[i];
		char why[SEGMENT_ERR_LEN] = "";
		if (r->name == SNAP_NONE) {
			if (r->offset >= head && r->offset <= s->len && r->size <= s->len - r->offset &&
			    segment_check(s->bytes + r->offset, r->size, why) == 0) {
				s->segs[i] = (struct segment_in){s->bytes + r->offset, r->size, false};
				continue;
			}
		} else if (r->name < h->blob_size && s->dir &&
		           segment_map(s->dir, s->blob + r->name, r->size, &s->segs[i], why) == 0) {
			continue;
		}
		snprintf(err, SNAP_ERR_LEN, "a segment of the snapshot cannot be read%s%.160s",
		         *why ? ": " : "", why);
		return false;
	}
	return true;
}

static void close_segments(struct snapshot *s)
{
	for (uint32_t i = 0; s->segs && i < s->h->nsegments; i++)
		segment_unmap(&s->segs[i]);
	free(s->segs);
	s->segs = NULL;
}

static struct snapshot *open_bytes(char *bytes, size_t len, bool mapped, const char *dir,
                                   char err[SNAP_ERR_LEN])
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
	if (!sections_ok(h, len, bytes)) {
		snprintf(err, SNAP_ERR_LEN, "snapshot is truncated or damaged");
		return NULL;
	}
	struct snapshot *s = xcalloc(1, sizeof *s);
	s->bytes = bytes;
	s->len = len;
	s->mapped = mapped;
	s->dir = dir ? xstrdup(dir) : NULL;
	s->h = h;
	s->sites = (const struct rec_site *)(bytes + h->sites_off);
	s->collections = (const struct rec_collection *)(bytes + h->collections_off);
	s->entries = (const struct rec_entry *)(bytes + h->entries_off);
	s->problems = (const struct rec_problem *)(bytes + h->problems_off);
	s->segrecs = (const struct rec_segment *)(bytes + h->segments_off);
	s->refs = (const struct rec_ref *)(bytes + h->refs_off);
	s->prints = (const uint64_t *)(bytes + h->prints_off);
	s->slots = (const uint32_t *)(bytes + h->slots_off);
	s->slug_slots = (const uint32_t *)(bytes + h->slug_slots_off);
	s->by_date = (const uint32_t *)(bytes + h->by_date_off);
	s->published = (const uint32_t *)(bytes + h->published_off);
	s->title_ends = (const uint32_t *)(bytes + h->title_ends_off);
	s->blob = bytes + h->blob_off;
	if (!open_segments(s, err)) {
		close_segments(s);
		free(s->dir);
		free(s);
		return NULL;
	}
	if (!records_ok(s)) {
		close_segments(s);
		free(s->dir);
		free(s);
		snprintf(err, SNAP_ERR_LEN, "snapshot records point outside it");
		return NULL;
	}
	return s;
}

struct snapshot *snapshot_from_bytes(char *bytes, size_t len, char err[SNAP_ERR_LEN])
{
	struct snapshot *s = open_bytes(bytes, len, false, NULL, err);
	if (!s)
		free(bytes);
	return s;
}

/* The folder of the file at path ("." for a bare name); the caller frees it. */
static char *folder_of(const char *path)
{
	const char *slash = strrchr(path, '/');
	return slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
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
	char *dir = folder_of(path);
	struct snapshot *s = open_bytes(map, len, true, dir, err);
	free(dir);
	if (!s)
		munmap(map, len);
	return s;
}

int snapshot_save_open(const struct snapshot *snap, const char *path, char err[SNAP_ERR_LEN])
{
	if (snap->dir) {
		/* Its segments are files beside its head: saved elsewhere, the
		 * head would name files that are not there. */
		snprintf(err, SNAP_ERR_LEN, "%s: a snapshot of files is not saved again", path);
		return -1;
	}
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
	close_segments(s);
	if (s->mapped)
		munmap(s->bytes, s->len);
	else
		free(s->bytes);
	free(s->dir);
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

/* A string of an entry's blob, in its segment. */
static const char *blob_str(const struct snapshot *s, const struct rec_entry *r, uint32_t off)
{
	return off == SNAP_NONE ? NULL : s->segs[r->segment].base + off;
}

/* An entry's data: its value in the segment, checked now that it is
 * read (a damaged one reads as missing). */
static value_t blob_data(const struct snapshot *s, const struct rec_entry *r)
{
	value_t data = {(const unsigned char *)s->segs[r->segment].base + r->data};
	return value_size(data) <= r->blob + r->blob_len - r->data ? data : VALUE_MISSING;
}

uint64_t snapshot_signature_of(const struct snapshot *s) { return s->h->signature; }
bool snapshot_incomplete(const struct snapshot *s) { return s->h->incomplete != 0; }
value_t snapshot_sources(const struct snapshot *s)
{
	return s->h->sources == SNAP_NONE ? VALUE_MISSING : value_at(s, (uint32_t)s->h->sources);
}
long long snapshot_built_at(const struct snapshot *s) { return s->h->built_at; }
uint32_t snap_site_count(const struct snapshot *s) { return s->h->nsites; }
bool snap_multisite(const struct snapshot *s) { return s->h->multisite != 0; }
uint32_t snap_collection_count(const struct snapshot *s) { return s->h->ncollections; }
uint32_t snap_entry_count(const struct snapshot *s) { return s->h->nentries; }
uint32_t snap_problem_count(const struct snapshot *s) { return s->h->nproblems; }

size_t snapshot_size(const struct snapshot *s)
{
	size_t size = s->len;
	for (uint32_t i = 0; i < s->h->nsegments; i++)
		size += s->segs[i].mapped ? s->segs[i].len : 0;
	return size;
}

void snapshot_space(const struct snapshot *s, uint64_t *segments, uint64_t *live)
{
	*segments = *live = 0;
	for (uint32_t i = 0; i < s->h->nsegments; i++) {
		*segments += s->segrecs[i].size;
		*live += s->segrecs[i].live;
	}
}

uint32_t snapshot_segment_count(const struct snapshot *s) { return s->h->nsegments; }

const char *snapshot_segment_name(const struct snapshot *s, uint32_t i)
{
	return i < s->h->nsegments ? str_at(s, s->segrecs[i].name) : NULL;
}
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
		.id = blob_str(s, r, r->blob),
		.path = blob_str(s, r, r->path),
		.slug = blob_str(s, r, r->slug),
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
		.data = blob_data(s, r),
		.title = r->title == SNAP_NONE ? VALUE_MISSING : value_at(s, r->title),
		.blueprint = blob_str(s, r, r->blueprint),
		.blueprint_title = blob_str(s, r, r->blueprint_title),
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
		const struct rec_entry *r = &s->entries[v - 1];
		if (strcmp(blob_str(s, r, r->blob), id) == 0)
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
		    strcmp(blob_str(s, r, r->slug), slug) == 0)
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
	                             (r->warning & P_WARNING) != 0, (r->warning & P_LEFT_OUT) != 0};
}

/* Whether ref's short object is kept in the head's table (the entries'
 * relations), rather than in the reference itself. */
static bool ref_interned(const struct snapshot *s, value_t ref)
{
	return value_type(ref) == VALUE_REF && value_is_null(value_ref_object(ref)) &&
	       value_ref_target(ref) < s->h->nrefs;
}

value_t snap_ref_object(const struct snapshot *s, value_t ref)
{
	return ref_interned(s, ref) ? value_at(s, s->refs[value_ref_target(ref)].object)
	                            : value_ref_object(ref);
}

uint32_t snap_ref_target(const struct snapshot *s, value_t ref)
{
	if (ref_interned(s, ref))
		return s->refs[value_ref_target(ref)].target;
	return value_ref_kind(ref) == REF_ENTRY ? value_ref_target(ref) : SNAP_NONE;
}
