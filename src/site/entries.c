/*
 * entries: reads every collection's entry files into the site index
 * (content-format.md §5): the file-name grammar, site folders, ids (made
 * up, with a warning, when missing; the first in path order wins when two
 * files share one), localizations through `origin`, and dates.
 */
#include "autoconfig.h"

#include "site/entries.h"

#include <ctype.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/hash.h"
#include "lib/strbuf.h"
#include "site/files.h"
#include "site/withheld.h"
#include "site/yaml.h"

/* --- the file-name grammar: [DATE "."] SLUG ["." N] "." EXT --- */

struct file_name {
	bool has_date;
	long long date; /* Unix seconds, UTC */
	char *slug;     /* owned */
};

static bool digits_at(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

static int number_at(const char *s, size_t n)
{
	int v = 0;
	for (size_t i = 0; i < n; i++)
		v = v * 10 + (s[i] - '0');
	return v;
}

/* YYYY-MM-DD, YYYY-MM-DD-HHMM or YYYY-MM-DD-HHMMSS followed by '.';
 * returns the length of the date part (without the '.'), or 0. */
static size_t parse_date_prefix(const char *name, long long *date)
{
	size_t len = strcspn(name, ".");
	if (name[len] != '.' || (len != 10 && len != 15 && len != 17))
		return 0;
	if (!digits_at(name, 4) || name[4] != '-' || !digits_at(name + 5, 2) || name[7] != '-' ||
	    !digits_at(name + 8, 2))
		return 0;
	if (len > 10 && (name[10] != '-' || !digits_at(name + 11, len - 11)))
		return 0;
	long long day;
	if (yaml_parse_timestamp(name, 10, &day) != 0)
		return 0;
	int hours = len > 10 ? number_at(name + 11, 2) : 0;
	int minutes = len > 10 ? number_at(name + 13, 2) : 0;
	int seconds = len == 17 ? number_at(name + 15, 2) : 0;
	*date = day + hours * 3600 + minutes * 60 + seconds;
	return len;
}

static void parse_file_name(const char *base, bool dated, struct file_name *out)
{
	memset(out, 0, sizeof *out);
	const char *dot = strrchr(base, '.');
	size_t len = dot && dot != base ? (size_t)(dot - base) : strlen(base);
	char *name = xstrndup(base, len);
	const char *slug = name;
	long long date;
	size_t date_len = parse_date_prefix(name, &date);
	if (date_len) {
		/* In an undated collection the prefix is dropped all the same. */
		slug = name + date_len + 1;
		if (dated) {
			out->has_date = true;
			out->date = date;
		}
	}
	/* The slug ends at the next '.': a ".N" suffix (two files with the
	 * same slug told apart) or any other dotted part ("llms.txt.md") is
	 * not part of it, as in Statamic's GetSlugFromPath. */
	out->slug = xstrndup(slug, strcspn(slug, "."));
	free(name);
}

/* --- discovery --- */

struct found_file {
	char *rel;  /* owned: path relative to the site root */
	size_t site;
};

struct file_list {
	struct found_file *files;
	size_t n;
};

/* Whether path is a folder: as its directory said (kind), else by a stat
 * (a link, or a file system that does not say). */
static bool is_directory(const char *path, signed char kind)
{
	if (kind != FILES_UNKNOWN)
		return kind == FILES_DIR;
	struct stat st;
	return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

/* Collects entry files (any extension but .yaml) under rel, recursively. */
static void walk(struct site_index *idx, const char *rel, size_t site, struct file_list *out,
                 int depth)
{
	char *abs = files_join(idx->files.root, rel);
	size_t n;
	signed char *kinds;
	char **names = files_list_kinds(&idx->files, abs, NULL, &n, &kinds);
	for (size_t i = 0; i < n; i++) {
		char *child_rel = files_join(rel, names[i]);
		char *child_abs = files_join(abs, names[i]);
		size_t len = strlen(names[i]);
		if (is_directory(child_abs, kinds[i])) {
			if (depth < 32)
				walk(idx, child_rel, site, out, depth + 1);
			free(child_rel);
		} else if (len > 5 && strcmp(names[i] + len - 5, ".yaml") == 0) {
			free(child_rel);
		} else {
			out->files = xrealloc(out->files, (out->n + 1) * sizeof *out->files);
			out->files[out->n].rel = child_rel;
			out->files[out->n].site = site;
			out->n++;
		}
		free(child_abs);
	}
	files_free_names(names, n);
	free(kinds);
	free(abs);
}

static size_t site_number(const struct site_index *idx, const char *handle)
{
	for (size_t i = 0; i < idx->nsites; i++)
		if (strcmp(idx->sites[i].handle, handle) == 0)
			return i;
	return (size_t)-1;
}

/* Whether the collection exists in site number site: its `sites` list
 * names it, or it has none and site is the default one. */
static bool collection_in_site(const struct site_index *idx, const struct collection_info *c,
                               size_t site)
{
	value_t sites = value_map_getz(vb_result(&c->settings), "sites");
	if (value_count(sites) == 0)
		return site == 0;
	struct value_iter it;
	value_iter_init(&it, sites);
	while (value_iter_next(&it))
		if (strcmp(value_str(it.value, NULL), idx->sites[site].handle) == 0)
			return true;
	return false;
}

/* In a multi-site layout the first folder is the site, one of the
 * collection's (Statamic reads no other); single-site sites may use
 * sub-folders freely. */
static void discover(struct site_index *idx, const struct collection_info *c,
                     struct file_list *out)
{
	struct strbuf rel = STRBUF_INIT;
	strbuf_addf(&rel, "content/collections/%s", c->handle);
	if (!idx->multisite) {
		walk(idx, rel.ptr, 0, out, 0);
		strbuf_release(&rel);
		return;
	}
	char *abs = files_join(idx->files.root, rel.ptr);
	size_t n;
	char **names = files_list(&idx->files, abs, NULL, &n);
	for (size_t i = 0; i < n; i++) {
		char *child_rel = files_join(rel.ptr, names[i]);
		size_t site = site_number(idx, names[i]);
		char *child_abs = files_join(abs, names[i]);
		if (!is_directory(child_abs, FILES_UNKNOWN))
			files_left_out(&idx->files, true, child_rel, 0, "not in a site folder; left out");
		else if (site == (size_t)-1)
			files_left_out(&idx->files, true, child_rel, 0, "no site is named %s; left out",
			               names[i]);
		else if (!collection_in_site(idx, c, site))
			files_left_out(&idx->files, true, child_rel, 0,
			               "site %s is not one of the collection's sites; left out", names[i]);
		else
			walk(idx, child_rel, site, out, 0);
		free(child_rel);
		free(child_abs);
	}
	files_free_names(names, n);
	free(abs);
	strbuf_release(&rel);
}

/* --- reading one file --- */

static char *take_string(value_t map, const char *key)
{
	value_t v = value_map_getz(map, key);
	switch (value_type(v)) {
	case VALUE_STRING:
		return xstrdup(value_str(v, NULL));
	case VALUE_INT: {
		char buf[32];
		snprintf(buf, sizeof buf, "%lld", (long long)value_int(v));
		return xstrdup(buf);
	}
	default:
		return NULL;
	}
}

/* Copies map into out without the keys Statamic lifts out of the data,
 * nor those never served. */
static void copy_data(value_t map, struct value_builder *out)
{
	struct value_iter it;
	vb_map_begin(out);
	value_iter_init(&it, map);
	while (value_iter_next(&it)) {
		if ((it.key_len == 2 && memcmp(it.key, "id", 2) == 0) ||
		    (it.key_len == 6 && memcmp(it.key, "origin", 6) == 0) ||
		    (it.key_len == 9 && memcmp(it.key, "published", 9) == 0) ||
		    withheld_key(it.key, it.key_len))
			continue;
		vb_key(out, it.key, it.key_len);
		vb_value(out, it.value);
	}
	vb_map_end(out);
}

/* copy_data's map in bytes of its own, no more than it takes (the
 * builder's room to grow is given back): the entry's `own`. */
static value_t own_copy(value_t map)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	copy_data(map, &b);
	size_t len;
	char *bytes = strbuf_detach(&b.buf, &len);
	return (value_t){xrealloc(bytes, len ? len : 1)};
}

/* A stable id for a file without one: the same path gives the same id. */
static char *made_up_id(const char *rel)
{
	char buf[40];
	snprintf(buf, sizeof buf, "cms-api-%016llx", (unsigned long long)hash_fnv1a(rel));
	return xstrdup(buf);
}

/* The modification time (seconds) of the file rel just read: that of
 * the version read, when files_read read it (it noted a read beyond the
 * first `reads`), else (its last good version standing in) the file's
 * now. */
static long long file_mtime(const struct site_files *files, const char *rel, size_t reads)
{
	if (files->nreads > reads) {
		long long ns = files->reads[files->nreads - 1].stamp.mtime_ns;
		return ns / 1000000000LL - (ns % 1000000000LL < 0); /* floored, as st_mtime */
	}
	struct stat st;
	char *abs = files_join(files->root, rel);
	long long mtime = stat(abs, &st) == 0 ? (long long)st.st_mtime : 0;
	free(abs);
	return mtime;
}

static bool read_entry(struct site_index *idx, size_t collection, const struct found_file *f,
                       struct entry *e)
{
	const struct collection_info *c = &idx->collections[collection];
	struct value_builder raw = VALUE_BUILDER_INIT;
	memset(e, 0, sizeof *e);
	size_t reads = idx->files.nreads;
	value_t data;
	if (files_read_view(&idx->files, f->rel, &raw, &data) != 0) {
		vb_release(&raw);
		return false;
	}
	const char *base = strrchr(f->rel, '/') ? strrchr(f->rel, '/') + 1 : f->rel;
	struct file_name name;
	parse_file_name(base, c->dated, &name);

	e->path = xstrdup(f->rel);
	e->collection = collection;
	e->site = f->site;
	e->id = take_string(data, "id");
	if (!e->id) {
		e->id = made_up_id(f->rel);
		files_problem(&idx->files, true, f->rel, 0, "no id; using %s", e->id);
	}
	e->origin_id = take_string(data, "origin");
	e->published = value_type(value_map_getz(data, "published")) != VALUE_FALSE;
	e->has_date = name.has_date;
	e->date = name.date;
	/* A slugless collection names files by id: such an entry has no slug. */
	bool slugless = value_type(value_map_getz(vb_result(&c->settings), "slugs")) == VALUE_FALSE;
	if (slugless && strcmp(name.slug, e->id) == 0) {
		free(name.slug);
		name.slug = NULL;
	}
	e->slug = name.slug;
	e->order = -1;
	e->mtime = file_mtime(&idx->files, f->rel, reads);
	e->own = own_copy(data);
	vb_release(&raw);
	return true;
}

/* --- the id table --- */

static size_t slot_of(const struct site_index *idx, const char *id)
{
	return (size_t)hash_fnv1a(id) & (idx->nslots - 1);
}

const struct entry *site_index_entry(const struct site_index *idx, const char *id)
{
	if (idx->nslots == 0)
		return NULL;
	for (size_t s = slot_of(idx, id);; s = (s + 1) & (idx->nslots - 1)) {
		size_t v = idx->entry_slots[s];
		if (v == 0)
			return NULL;
		if (strcmp(idx->entries[v - 1].id, id) == 0)
			return &idx->entries[v - 1];
	}
}

/* Adds entry i to the id table; false when its id is taken already. */
static bool claim_id(struct site_index *idx, size_t i)
{
	const char *id = idx->entries[i].id;
	for (size_t s = slot_of(idx, id);; s = (s + 1) & (idx->nslots - 1)) {
		size_t v = idx->entry_slots[s];
		if (v == 0) {
			idx->entry_slots[s] = i + 1;
			return true;
		}
		if (strcmp(idx->entries[v - 1].id, id) == 0)
			return false;
	}
}

static void free_entry(struct entry *e)
{
	free(e->id);
	free(e->path);
	free(e->slug);
	free(e->origin_id);
	free(e->uri);
	free(e->redirect);
	free((void *)e->own.p);
}

/* First in path order wins a shared id; the others are left out. */
static void drop_duplicate_ids(struct site_index *idx)
{
	idx->nslots = 16;
	while (idx->nslots < idx->nentries * 2)
		idx->nslots *= 2;
	idx->entry_slots = xcalloc(idx->nslots, sizeof *idx->entry_slots);
	size_t kept = 0;
	for (size_t i = 0; i < idx->nentries; i++) {
		struct entry *e = &idx->entries[i];
		if (kept != i)
			idx->entries[kept] = *e;
		if (claim_id(idx, kept)) {
			kept++;
			continue;
		}
		const struct entry *first = site_index_entry(idx, idx->entries[kept].id);
		files_left_out(&idx->files, true, idx->entries[kept].path, 0, "duplicate id %s (kept %s)",
		               idx->entries[kept].id, first->path);
		free_entry(&idx->entries[kept]);
	}
	idx->nentries = kept;
}

/* --- dates and origins --- */

static void link_origins(struct site_index *idx)
{
	for (size_t i = 0; i < idx->nentries; i++) {
		struct entry *e = &idx->entries[i];
		if (!e->origin_id)
			continue;
		e->origin = site_index_entry(idx, e->origin_id);
		if (!e->origin || e->origin == e)
			files_problem(&idx->files, true, e->path, 0, "origin %s is not an entry",
			              e->origin_id);
		if (e->origin == e)
			e->origin = NULL;
	}
	/* A cycle of origins would make every lookup loop: cut it. */
	for (size_t i = 0; i < idx->nentries; i++) {
		const struct entry *slow = &idx->entries[i], *fast = slow;
		while (fast && fast->origin) {
			slow = slow->origin;
			fast = fast->origin->origin;
			if (fast && slow == fast) {
				files_problem(&idx->files, true, idx->entries[i].path, 0, "origins form a loop");
				idx->entries[i].origin = NULL;
				break;
			}
		}
	}
}

static size_t entry_number(const struct site_index *idx, const struct entry *e)
{
	return (size_t)(e - idx->entries);
}

static const struct entry *root_of(const struct entry *e)
{
	while (e->origin)
		e = e->origin;
	return e;
}

/* Every entry's place in its root's row of sites (origin loops are cut
 * by now); the first entry in path order wins a place two files claim. */
static void index_localizations(struct site_index *idx)
{
	idx->localized = xcalloc(idx->nentries * idx->nsites + 1, sizeof *idx->localized);
	for (size_t i = 0; i < idx->nentries; i++) {
		const struct entry *e = &idx->entries[i];
		size_t *slot = &idx->localized[entry_number(idx, root_of(e)) * idx->nsites + e->site];
		if (*slot == 0)
			*slot = i + 1;
	}
}

const struct entry *entry_in_site(const struct site_index *idx, const struct entry *e,
                                  size_t site)
{
	if (e->site == site)
		return e;
	if (site >= idx->nsites || !idx->localized)
		return NULL;
	size_t v = idx->localized[entry_number(idx, root_of(e)) * idx->nsites + site];
	return v ? &idx->entries[v - 1] : NULL;
}

/* --- public readers --- */

value_t entry_field(const struct site_index *idx, const struct entry *e, const char *key)
{
	const struct collection_info *c = &idx->collections[e->collection];
	for (const struct entry *x = e; x; x = x->origin) {
		value_t v = value_map_getz(x->own, key);
		if (!value_is_missing(v))
			return v;
	}
	return value_map_getz(value_map_getz(vb_result(&c->settings), "inject"), key);
}

/* --- the whole load --- */

static int compare_found(const void *a, const void *b)
{
	return strcmp(((const struct found_file *)a)->rel, ((const struct found_file *)b)->rel);
}

void entries_load(struct site_index *idx)
{
	for (size_t ci = 0; ci < idx->ncollections; ci++) {
		struct file_list files = {NULL, 0};
		discover(idx, &idx->collections[ci], &files);
		if (files.n > 1)
			qsort(files.files, files.n, sizeof *files.files, compare_found);
		idx->entries = xrealloc(idx->entries, (idx->nentries + files.n) * sizeof *idx->entries);
		for (size_t i = 0; i < files.n; i++) {
			if (read_entry(idx, ci, &files.files[i], &idx->entries[idx->nentries]))
				idx->nentries++;
			free(files.files[i].rel);
		}
		free(files.files);
	}
	drop_duplicate_ids(idx);
	link_origins(idx);
	index_localizations(idx);
	/* Each collection lists its own entries; the array no longer moves. */
	for (size_t i = 0; i < idx->nentries; i++) {
		struct collection_info *c = &idx->collections[idx->entries[i].collection];
		c->entries = xrealloc(c->entries, (c->nentries + 1) * sizeof *c->entries);
		c->entries[c->nentries++] = &idx->entries[i];
	}
}

void entries_free(struct site_index *idx)
{
	for (size_t i = 0; i < idx->nentries; i++)
		free_entry(&idx->entries[i]);
	free(idx->entries);
	free(idx->entry_slots);
	free(idx->localized);
	for (size_t i = 0; i < idx->ncollections; i++)
		free(idx->collections[i].entries);
}
