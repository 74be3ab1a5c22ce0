/* blueprints: field lists of blueprints and fieldsets; see blueprints.h. */
#include "autoconfig.h"

#include "site/blueprints.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "lib/strbuf.h"
#include "site/entries.h"
#include "site/files.h"

#define MAX_IMPORT_DEPTH 8
/* Field lists inside fields (grid, group, replicator and bard sets) are
 * resolved this deep; deeper ones are kept as written. */
#define MAX_NESTING 16

struct field_sink {
	struct site_index *idx;
	struct value_builder *out;
	const char *rel; /* the file being read, for messages */
	bool as_list;    /* a nested field list: [{handle, field}]; else {handle: field} */
	int nesting;     /* how deep inside other fields this list is */
};

static void add_items(struct field_sink *s, value_t items, const char *prefix, int depth);

/* resources/fieldsets/a/b.yaml for the handle "a.b". */
static char *fieldset_path(const char *handle)
{
	struct strbuf rel = STRBUF_INIT;
	strbuf_addstr(&rel, "resources/fieldsets/");
	for (const char *p = handle; *p; p++)
		strbuf_addch(&rel, *p == '.' ? '/' : *p);
	strbuf_addstr(&rel, ".yaml");
	return strbuf_detach(&rel, NULL);
}

/* Reads a fieldset's file; returns false (with a problem) when missing. */
static bool read_fieldset(struct field_sink *s, const char *handle, struct value_builder *out)
{
	char *rel = fieldset_path(handle);
	bool ok = files_exists(&s->idx->files, rel) && files_read(&s->idx->files, rel, out) == 0;
	if (!ok && !files_exists(&s->idx->files, rel))
		files_problem(&s->idx->files, true, s->rel, 0, "fieldset %s not found", handle);
	free(rel);
	return ok;
}

static void write_sets(struct field_sink *s, value_t sets);

/* A list of field items inside a field (a grid's or group's fields, a
 * set's fields), with its imports and references resolved like the
 * blueprint's own, as [{handle, field}]. */
static void write_nested_fields(struct field_sink *s, value_t items)
{
	if (s->nesting >= MAX_NESTING) {
		vb_value(s->out, items);
		return;
	}
	struct field_sink nested = {s->idx, s->out, s->rel, true, s->nesting + 1};
	vb_array_begin(s->out);
	add_items(&nested, items, "", 0);
	vb_array_end(s->out);
}

/* One config value: field lists and sets resolved, the rest as written.
 * An empty list of fields is null: Statamic reads a set whose config
 * lists no fields (not one that imports none) as having none. */
static void write_config_value(struct field_sink *s, const char *key, size_t len, value_t v)
{
	bool fields = len == 6 && memcmp(key, "fields", 6) == 0 && value_type(v) == VALUE_ARRAY;
	if (fields && value_count(v) == 0)
		vb_null(s->out);
	else if (fields)
		write_nested_fields(s, v);
	else if (len == 4 && memcmp(key, "sets", 4) == 0 && value_type(v) == VALUE_MAP &&
	         s->nesting < MAX_NESTING)
		write_sets(s, v);
	else
		vb_value(s->out, v);
}

/* Replicator and Bard sets: {handle: {fields: [...]}}, or grouped (v5+)
 * {group: {sets: {handle: {fields: [...]}}}}. */
static void write_sets(struct field_sink *s, value_t sets)
{
	struct field_sink inner = {s->idx, s->out, s->rel, s->as_list, s->nesting + 1};
	struct value_iter set, k;
	vb_map_begin(s->out);
	value_iter_init(&set, sets);
	while (value_iter_next(&set)) {
		vb_key(s->out, set.key, set.key_len);
		if (value_type(set.value) != VALUE_MAP) {
			vb_value(s->out, set.value);
			continue;
		}
		vb_map_begin(s->out);
		value_iter_init(&k, set.value);
		while (value_iter_next(&k)) {
			vb_key(s->out, k.key, k.key_len);
			write_config_value(&inner, k.key, k.key_len, k.value);
		}
		vb_map_end(s->out);
	}
	vb_map_end(s->out);
}

static void emit_field(struct field_sink *s, const char *prefix, const char *handle, value_t config,
                       value_t overrides)
{
	struct strbuf name = STRBUF_INIT;
	strbuf_addf(&name, "%s%s", prefix, handle);
	if (s->as_list) {
		vb_map_begin(s->out);
		vb_keyz(s->out, "handle");
		vb_str(s->out, name.ptr, name.len);
		vb_keyz(s->out, "field");
	} else {
		vb_key(s->out, name.ptr, name.len);
	}
	/* The referenced config, then the overrides in place or appended. */
	vb_map_begin(s->out);
	struct value_iter it;
	value_iter_init(&it, config);
	while (value_iter_next(&it)) {
		vb_key(s->out, it.key, it.key_len);
		value_t over = value_map_get(overrides, it.key, it.key_len);
		write_config_value(s, it.key, it.key_len, value_is_missing(over) ? it.value : over);
	}
	value_iter_init(&it, overrides);
	while (value_iter_next(&it)) {
		if (value_is_missing(value_map_get(config, it.key, it.key_len))) {
			vb_key(s->out, it.key, it.key_len);
			write_config_value(s, it.key, it.key_len, it.value);
		}
	}
	vb_map_end(s->out);
	if (s->as_list)
		vb_map_end(s->out);
	strbuf_release(&name);
}

/* "fieldset.field": that field of that fieldset (split at the first dot). */
static void add_reference(struct field_sink *s, const char *prefix, const char *handle,
                          const char *ref, value_t overrides)
{
	const char *dot = strchr(ref, '.');
	if (!dot) {
		files_problem(&s->idx->files, true, s->rel, 0,
		              "field %s refers to %s, not fieldset.field", handle, ref);
		return;
	}
	char *set = xstrndup(ref, (size_t)(dot - ref));
	struct value_builder fs = VALUE_BUILDER_INIT;
	if (read_fieldset(s, set, &fs)) {
		struct value_iter it;
		value_iter_init(&it, value_map_getz(vb_result(&fs), "fields"));
		while (value_iter_next(&it)) {
			value_t h = value_map_getz(it.value, "handle");
			if (strcmp(value_str(h, NULL), dot + 1) == 0)
				emit_field(s, prefix, handle, value_map_getz(it.value, "field"), overrides);
		}
	}
	vb_release(&fs);
	free(set);
}

static void add_import(struct field_sink *s, const char *prefix, value_t item, int depth)
{
	const char *set = value_str(value_map_getz(item, "import"), NULL);
	struct strbuf full_prefix = STRBUF_INIT;
	strbuf_addf(&full_prefix, "%s%s", prefix, value_str(value_map_getz(item, "prefix"), NULL));
	struct value_builder fs = VALUE_BUILDER_INIT;
	if (depth >= MAX_IMPORT_DEPTH)
		files_problem(&s->idx->files, true, s->rel, 0, "fieldset imports nest too deep at %s",
		              set);
	else if (read_fieldset(s, set, &fs))
		add_items(s, value_map_getz(vb_result(&fs), "fields"), full_prefix.ptr, depth + 1);
	vb_release(&fs);
	strbuf_release(&full_prefix);
}

static void add_items(struct field_sink *s, value_t items, const char *prefix, int depth)
{
	struct value_iter it;
	value_iter_init(&it, items);
	while (value_iter_next(&it)) {
		value_t item = it.value;
		if (!value_is_missing(value_map_getz(item, "import"))) {
			add_import(s, prefix, item, depth);
			continue;
		}
		const char *handle = value_str(value_map_getz(item, "handle"), NULL);
		value_t field = value_map_getz(item, "field");
		if (!*handle)
			continue;
		if (value_type(field) == VALUE_STRING)
			add_reference(s, prefix, handle, value_str(field, NULL),
			              value_map_getz(item, "config"));
		else
			emit_field(s, prefix, handle, field, VALUE_MISSING);
	}
}

/* Each tab holds a list of sections; a v3 section holds fields. */
static void add_sections(struct field_sink *s, value_t sections)
{
	struct value_iter it;
	value_iter_init(&it, sections);
	while (value_iter_next(&it))
		add_items(s, value_map_getz(it.value, "fields"), "", 0);
}

/* The fields of the blueprint b, read from rel, as blueprint_fields. */
static void fields_of(struct site_index *idx, const char *rel, value_t b, struct value_builder *out)
{
	struct field_sink s = {idx, out, rel, false, 0};
	vb_map_begin(out);
	struct value_iter tab;
	value_iter_init(&tab, value_map_getz(b, "tabs"));
	while (value_iter_next(&tab))
		add_sections(&s, value_map_getz(tab.value, "sections"));
	add_sections(&s, value_map_getz(b, "sections"));
	add_items(&s, value_map_getz(b, "fields"), "", 0);
	vb_map_end(out);
}

int blueprint_fields(struct site_index *idx, const char *rel, struct value_builder *out)
{
	struct value_builder bp = VALUE_BUILDER_INIT;
	int rc = -1;
	if (files_exists(&idx->files, rel) && files_read(&idx->files, rel, &bp) == 0) {
		fields_of(idx, rel, vb_result(&bp), out);
		rc = 0;
	} else {
		vb_map_begin(out);
		vb_map_end(out);
	}
	vb_release(&bp);
	return rc;
}

/* --- a collection's blueprints --- */

/* Statamic picks the default blueprint by `order`, then title. */
static int compare_blueprints(const void *a, const void *b)
{
	const struct blueprint *x = a, *y = b;
	if (x->order != y->order)
		return x->order < y->order ? -1 : 1;
	return strcmp(x->title, y->title);
}

static void load_blueprint(struct site_index *idx, struct collection_info *c, const char *rel,
                           const char *file_name)
{
	struct value_builder raw = VALUE_BUILDER_INIT;
	if (files_read(&idx->files, rel, &raw) != 0) {
		vb_release(&raw);
		return;
	}
	value_t b = vb_result(&raw);
	c->blueprints = xrealloc(c->blueprints, (c->nblueprints + 1) * sizeof *c->blueprints);
	struct blueprint *bp = &c->blueprints[c->nblueprints++];
	memset(bp, 0, sizeof *bp);
	bp->handle = files_handle(file_name);
	bp->title = blueprint_title(b, bp->handle);
	bp->hidden = value_bool(value_map_getz(b, "hide"));
	value_t order = value_map_getz(b, "order");
	bp->order = value_type(order) == VALUE_INT ? (long)value_int(order) : LONG_MAX;
	bp->fields = (struct value_builder)VALUE_BUILDER_INIT;
	fields_of(idx, rel, b, &bp->fields);
	vb_release(&raw);
}

char *blueprint_title(value_t blueprint, const char *handle)
{
	const char *title = value_str(value_map_getz(blueprint, "title"), NULL);
	if (*title)
		return xstrdup(title);
	/* Stringy's humanize: "_id" dropped, '_' a space, trimmed, the first
	 * letter upper-cased. */
	struct strbuf t = STRBUF_INIT;
	for (const char *p = handle; *p; p++) {
		if (strncmp(p, "_id", 3) == 0)
			p += 2;
		else
			strbuf_addch(&t, *p == '_' ? ' ' : *p);
	}
	char *h = strbuf_detach(&t, NULL);
	size_t start = strspn(h, " "), len = strlen(h);
	while (len > start && h[len - 1] == ' ')
		len--;
	memmove(h, h + start, len - start);
	h[len - start] = '\0';
	h[0] = (char)toupper((unsigned char)h[0]);
	return h;
}

void default_blueprint_fields(struct site_index *idx, struct value_builder *out)
{
	static const char rel[] = "resources/blueprints/default.yaml";
	if (files_exists(&idx->files, rel)) {
		blueprint_fields(idx, rel, out);
		return;
	}
	vb_map_begin(out);
	vb_keyz(out, "content");
	vb_map_begin(out);
	vb_keyz(out, "type");
	vb_strz(out, "markdown");
	vb_keyz(out, "localizable");
	vb_bool(out, true);
	vb_map_end(out);
	vb_map_end(out);
}

void fallback_blueprint(struct site_index *idx, const char *handle, const char *title,
                        struct blueprint *out)
{
	memset(out, 0, sizeof *out);
	out->handle = singular_handle(handle);
	out->title = singular_handle(title);
	out->order = LONG_MAX;
	out->fields = (struct value_builder)VALUE_BUILDER_INIT;
	default_blueprint_fields(idx, &out->fields);
}

static void emit_term_blueprint(struct value_builder *out, const char *handle, const char *title,
                                value_t fields)
{
	vb_keyz(out, handle);
	vb_map_begin(out);
	vb_keyz(out, "title");
	vb_strz(out, title);
	vb_keyz(out, "fields");
	vb_value(out, fields);
	vb_map_end(out);
}

void term_blueprints(struct site_index *idx, const char *taxonomy, const char *title,
                     struct value_builder *out)
{
	struct strbuf dir_rel = STRBUF_INIT;
	strbuf_addf(&dir_rel, "resources/blueprints/taxonomies/%s", taxonomy);
	char *dir = files_join(idx->files.root, dir_rel.ptr);
	size_t n;
	char **names = files_list(&idx->files, dir, ".yaml", &n);
	vb_map_begin(out);
	for (size_t i = 0; i < n; i++) {
		char *rel = files_join(dir_rel.ptr, names[i]);
		struct blueprint bp = {files_handle(names[i]), NULL, false, LONG_MAX, VALUE_BUILDER_INIT};
		struct value_builder raw = VALUE_BUILDER_INIT;
		if (files_read(&idx->files, rel, &raw) == 0) {
			bp.title = blueprint_title(vb_result(&raw), bp.handle);
			fields_of(idx, rel, vb_result(&raw), &bp.fields);
			emit_term_blueprint(out, bp.handle, bp.title, vb_result(&bp.fields));
		}
		blueprint_release(&bp);
		vb_release(&raw);
		free(rel);
	}
	if (n == 0) {
		struct blueprint bp;
		fallback_blueprint(idx, taxonomy, title, &bp);
		emit_term_blueprint(out, bp.handle, bp.title, vb_result(&bp.fields));
		blueprint_release(&bp);
	}
	vb_map_end(out);
	files_free_names(names, n);
	free(dir);
	strbuf_release(&dir_rel);
}

void blueprint_release(struct blueprint *bp)
{
	free(bp->handle);
	free(bp->title);
	vb_release(&bp->fields);
}

void collection_blueprints_load(struct site_index *idx)
{
	for (size_t ci = 0; ci < idx->ncollections; ci++) {
		struct collection_info *c = &idx->collections[ci];
		struct strbuf dir_rel = STRBUF_INIT;
		strbuf_addf(&dir_rel, "resources/blueprints/collections/%s", c->handle);
		char *dir = files_join(idx->files.root, dir_rel.ptr);
		size_t n;
		char **names = files_list(&idx->files, dir, ".yaml", &n);
		for (size_t i = 0; i < n; i++) {
			char *rel = files_join(dir_rel.ptr, names[i]);
			load_blueprint(idx, c, rel, names[i]);
			free(rel);
		}
		if (c->nblueprints > 1)
			qsort(c->blueprints, c->nblueprints, sizeof *c->blueprints, compare_blueprints);
		if (c->nblueprints == 0) {
			c->blueprints = xcalloc(1, sizeof *c->blueprints);
			c->nblueprints = 1;
			fallback_blueprint(idx, c->handle, c->title, &c->blueprints[0]);
		}
		files_free_names(names, n);
		free(dir);
		strbuf_release(&dir_rel);
	}
}

static const struct blueprint *blueprint_named(const struct collection_info *c, const char *name)
{
	for (size_t i = 0; i < c->nblueprints; i++)
		if (strcmp(c->blueprints[i].handle, name) == 0)
			return &c->blueprints[i];
	return NULL;
}

static bool ends_with(const char *word, size_t n, const char *suffix)
{
	size_t k = strlen(suffix);
	return n >= k && strcasecmp(word + n - k, suffix) == 0;
}

/* Laravel's Str::singular (Doctrine's inflector) for the regular English
 * plurals handles and titles use, on the last word: "categories" ->
 * "category", "boxes" -> "box", "statuses" -> "status", "APIs" -> "API";
 * words ending in ss or us are kept. */
char *singular_handle(const char *word)
{
	size_t n = strlen(word);
	bool upper = n && isupper((unsigned char)word[n - 1]);
	if (ends_with(word, n, "ies") && n > 3 && !strchr("aeiouAEIOU", word[n - 4])) {
		char *s = xmalloc(n);
		memcpy(s, word, n - 3);
		strcpy(s + n - 3, upper ? "Y" : "y");
		return s;
	}
	if (ends_with(word, n, "ouses"))
		return xstrndup(word, n - 1);
	if (ends_with(word, n, "sses") || ends_with(word, n, "xes") || ends_with(word, n, "ches") ||
	    ends_with(word, n, "shes") || ends_with(word, n, "uses"))
		return xstrndup(word, n - 2);
	if (ends_with(word, n, "s") && !ends_with(word, n, "ss") && !ends_with(word, n, "us"))
		return xstrndup(word, n - 1);
	return xstrdup(word);
}

const struct blueprint *entry_blueprint(const struct site_index *idx, const struct entry *e)
{
	const struct collection_info *c = &idx->collections[e->collection];
	value_t named = entry_field(idx, e, "blueprint");
	if (value_type(named) == VALUE_STRING) {
		const struct blueprint *bp = blueprint_named(c, value_str(named, NULL));
		if (bp)
			return bp;
		char *one = singular_handle(value_str(named, NULL));
		bp = blueprint_named(c, one);
		free(one);
		if (bp)
			return bp;
	}
	for (size_t i = 0; i < c->nblueprints; i++)
		if (!c->blueprints[i].hidden)
			return &c->blueprints[i];
	return c->nblueprints ? &c->blueprints[0] : NULL;
}
