/*
 * globals: global sets in all three layouts (content-format.md §9) into
 * the index's extras as "globals": a list of
 *   {handle, title, fields: {handle: config}, sites: {site: {variable: value}}}
 * with each site's values resolved over its origin site's (keys sorted).
 * Layouts: v3-v5 single-site `data:` in the set file; values in
 * content/globals/{site}/{handle}.yaml with an optional `origin: site`
 * (v3-v5 multi-site); v6 values files with origins in the set file's
 * `sites: {site: origin}` (and `origin:` in values files ignored).
 */
#include "autoconfig.h"

#include "site/globals.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/strbuf.h"
#include "site/blueprints.h"
#include "site/files.h"
#include "site/withheld.h"

#define MAX_ORIGIN_DEPTH 8

struct site_values {
	bool present;
	struct value_builder values; /* the file's map */
	const char *origin;          /* a site handle, or NULL; points into values or the set */
};

static size_t site_number(const struct site_index *idx, const char *handle)
{
	for (size_t i = 0; i < idx->nsites; i++)
		if (strcmp(idx->sites[i].handle, handle) == 0)
			return i;
	return (size_t)-1;
}

static int compare_strings(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Adds the keys of a site and of its origins (not `origin` itself, nor
 * the keys never served). */
static void collect(const struct site_index *idx, struct site_values *all, size_t site,
                    char ***keys, size_t *n, int depth)
{
	struct value_iter it;
	value_iter_init(&it, vb_result(&all[site].values));
	while (value_iter_next(&it)) {
		char *k = xstrndup(it.key, it.key_len);
		bool skip = strcmp(k, "origin") == 0 || withheld_key(k, strlen(k));
		for (size_t i = 0; i < *n && !skip; i++)
			skip = strcmp((*keys)[i], k) == 0;
		if (skip) {
			free(k);
			continue;
		}
		*keys = xrealloc(*keys, (*n + 1) * sizeof **keys);
		(*keys)[(*n)++] = k;
	}
	size_t origin = all[site].origin ? site_number(idx, all[site].origin) : (size_t)-1;
	if (origin != (size_t)-1 && origin != site && depth < MAX_ORIGIN_DEPTH && all[origin].present)
		collect(idx, all, origin, keys, n, depth + 1);
}

static value_t lookup(const struct site_index *idx, struct site_values *all, size_t site,
                      const char *key, int depth)
{
	value_t v = value_map_getz(vb_result(&all[site].values), key);
	if (!value_is_missing(v) || depth >= MAX_ORIGIN_DEPTH)
		return v;
	size_t origin = all[site].origin ? site_number(idx, all[site].origin) : (size_t)-1;
	if (origin == (size_t)-1 || origin == site || !all[origin].present)
		return v;
	return lookup(idx, all, origin, key, depth + 1);
}

static void emit_site_values(struct site_index *idx, struct site_values *all, size_t site)
{
	char **keys = NULL;
	size_t n = 0;
	collect(idx, all, site, &keys, &n, 0);
	if (n > 1)
		qsort(keys, n, sizeof *keys, compare_strings);
	vb_keyz(&idx->extras, idx->sites[site].handle);
	vb_map_begin(&idx->extras);
	for (size_t i = 0; i < n; i++) {
		vb_keyz(&idx->extras, keys[i]);
		vb_value(&idx->extras, lookup(idx, all, site, keys[i], 0));
		free(keys[i]);
	}
	vb_map_end(&idx->extras);
	free(keys);
}

static void read_values(struct site_index *idx, const char *handle, value_t set,
                        struct site_values *all)
{
	value_t v6_sites = value_map_getz(set, "sites");
	bool v6 = value_type(v6_sites) == VALUE_MAP;
	bool any_file = false;
	for (size_t s = 0; s < idx->nsites; s++) {
		struct strbuf rel = STRBUF_INIT;
		strbuf_addf(&rel, "content/globals/%s/%s.yaml", idx->sites[s].handle, handle);
		all[s].values = (struct value_builder)VALUE_BUILDER_INIT;
		if (files_exists(&idx->files, rel.ptr) &&
		    files_read(&idx->files, rel.ptr, &all[s].values) == 0) {
			all[s].present = any_file = true;
			value_t origin = v6 ? value_map_getz(v6_sites, idx->sites[s].handle)
			                    : value_map_getz(vb_result(&all[s].values), "origin");
			if (value_type(origin) == VALUE_STRING)
				all[s].origin = value_str(origin, NULL);
		}
		strbuf_release(&rel);
	}
	/* v3-v5 single site: the values live in the set file, and a set
	 * without any has them empty. */
	value_t data = value_map_getz(set, "data");
	if (!any_file && (!value_is_missing(data) || idx->nsites == 1)) {
		vb_value(&all[0].values, value_type(data) == VALUE_MAP ? data : VALUE_MISSING);
		all[0].present = true;
	}
}

static void load_set(void *ctx, const char *handle, value_t set)
{
	struct site_index *idx = ctx;
	struct site_values *all = xcalloc(idx->nsites, sizeof *all);
	read_values(idx, handle, set, all);
	struct value_builder *out = &idx->extras;
	const char *title = value_str(value_map_getz(set, "title"), NULL);
	vb_map_begin(out);
	vb_keyz(out, "handle");
	vb_strz(out, handle);
	vb_keyz(out, "title");
	vb_strz(out, *title ? title : handle);
	vb_keyz(out, "fields");
	struct strbuf bp = STRBUF_INIT;
	strbuf_addf(&bp, "resources/blueprints/globals/%s.yaml", handle);
	blueprint_fields(idx, bp.ptr, out);
	strbuf_release(&bp);
	vb_keyz(out, "sites");
	vb_map_begin(out);
	for (size_t s = 0; s < idx->nsites; s++)
		if (all[s].present)
			emit_site_values(idx, all, s);
	vb_map_end(out);
	vb_map_end(out);
	for (size_t s = 0; s < idx->nsites; s++)
		vb_release(&all[s].values);
	free(all);
}

void globals_load(struct site_index *idx)
{
	vb_keyz(&idx->extras, "globals");
	vb_array_begin(&idx->extras);
	files_each_yaml(&idx->files, "content/globals", load_set, idx);
	vb_array_end(&idx->extras);
}
