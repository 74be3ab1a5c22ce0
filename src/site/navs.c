/*
 * navs: navigations and their trees (content-format.md §7) into the
 * index's extras as "navs": a list of
 *   {handle, title, max_depth, expects_root, settings, fields,
 *    trees: {site: [item]}}
 * where fields are the navigation's blueprint (handle -> config, from
 * resources/blueprints/navigation/{handle}.yaml) and an item is kept as
 * written (id, entry, url, title, data, children), but for the keys never
 * served in its data (withheld.h). The snapshot augments each item's data
 * through the blueprint (navpages.h); the API resolves entries and drops
 * unpublished ones per request. Trees whose navigation has no file are
 * ignored, as Statamic does.
 */
#include "autoconfig.h"

#include "site/navs.h"

#include <stdlib.h>
#include <string.h>

#include "lib/strbuf.h"
#include "site/blueprints.h"
#include "site/files.h"
#include "site/withheld.h"

/* Copies tree items as written, but for the keys never served in their
 * data. A list stays a list; anything else is copied as it is. */
static void copy_items(value_t items, struct value_builder *out, int depth)
{
	if (value_type(items) != VALUE_ARRAY || depth > VALUE_MAX_DEPTH) {
		vb_value(out, items);
		return;
	}
	struct value_iter it;
	value_iter_init(&it, items);
	vb_array_begin(out);
	while (value_iter_next(&it)) {
		if (value_type(it.value) != VALUE_MAP) {
			vb_value(out, it.value);
			continue;
		}
		struct value_iter k;
		value_iter_init(&k, it.value);
		vb_map_begin(out);
		while (value_iter_next(&k)) {
			vb_key(out, k.key, k.key_len);
			if (k.key_len == 4 && memcmp(k.key, "data", 4) == 0)
				withheld_copy(k.value, out);
			else if (k.key_len == 8 && memcmp(k.key, "children", 8) == 0)
				copy_items(k.value, out, depth + 1);
			else
				vb_value(out, k.value);
		}
		vb_map_end(out);
	}
	vb_array_end(out);
}

/* The file of a navigation's tree in a site, if there is one:
 * content/trees/navigation/{site}/{handle}.yaml, or without the site
 * folder for the default site (the stores are lenient), or in a v3.0
 * multi-site layout content/navigation/{site}/{handle}.yaml. */
static bool tree_file(struct site_index *idx, const char *handle, size_t site, struct strbuf *rel)
{
	static const struct {
		const char *folder;
		bool site_folder;
	} forms[] = {{"content/trees/navigation", true},
	             {"content/trees/navigation", false},
	             {"content/navigation", true}};
	for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
		if ((!forms[i].site_folder && site != 0) || (i == 2 && !idx->multisite))
			continue;
		strbuf_reset(rel);
		strbuf_addf(rel, "%s/", forms[i].folder);
		if (forms[i].site_folder)
			strbuf_addf(rel, "%s/", idx->sites[site].handle);
		strbuf_addf(rel, "%s.yaml", handle);
		if (files_exists(&idx->files, rel->ptr))
			return true;
	}
	return false;
}

/* A navigation's tree in a site: its tree file's (tree_file), or in a
 * v3.0 single-site layout the tree inside the navigation file. */
static void emit_tree(struct site_index *idx, const char *handle, size_t site, value_t settings)
{
	struct strbuf rel = STRBUF_INIT;
	struct value_builder tree = VALUE_BUILDER_INIT;
	if (tree_file(idx, handle, site, &rel)) {
		if (files_read(&idx->files, rel.ptr, &tree) == 0) {
			vb_keyz(&idx->extras, idx->sites[site].handle);
			value_t items = value_map_getz(vb_result(&tree), "tree");
			if (value_is_missing(items)) {
				vb_array_begin(&idx->extras); /* "{  }": an empty tree */
				vb_array_end(&idx->extras);
			} else {
				copy_items(items, &idx->extras, 0);
			}
		}
	} else if (site == 0 && !idx->multisite &&
	           !value_is_missing(value_map_getz(settings, "tree"))) {
		vb_keyz(&idx->extras, idx->sites[site].handle);
		copy_items(value_map_getz(settings, "tree"), &idx->extras, 0);
	}
	vb_release(&tree);
	strbuf_release(&rel);
}

static void emit_nav(void *ctx, const char *handle, value_t settings)
{
	struct site_index *idx = ctx;
	struct value_builder *out = &idx->extras;
	char *title = files_title(settings, handle);
	vb_map_begin(out);
	vb_keyz(out, "handle");
	vb_strz(out, handle);
	vb_keyz(out, "title");
	vb_strz(out, title);
	free(title);
	vb_keyz(out, "max_depth");
	value_t depth = value_map_getz(settings, "max_depth");
	if (value_type(depth) == VALUE_INT && value_int(depth) > 0)
		vb_int(out, value_int(depth));
	else
		vb_null(out);
	vb_keyz(out, "expects_root");
	vb_bool(out, value_bool(value_map_getz(settings, "root")));
	vb_keyz(out, "settings");
	vb_value(out, settings);
	vb_keyz(out, "fields");
	struct strbuf bp = STRBUF_INIT;
	strbuf_addf(&bp, "resources/blueprints/navigation/%s.yaml", handle);
	blueprint_fields(idx, bp.ptr, out);
	strbuf_release(&bp);
	vb_keyz(out, "trees");
	vb_map_begin(out);
	for (size_t s = 0; s < idx->nsites; s++)
		emit_tree(idx, handle, s, settings);
	vb_map_end(out);
	vb_map_end(out);
}

void navs_load(struct site_index *idx)
{
	vb_keyz(&idx->extras, "navs");
	vb_array_begin(&idx->extras);
	files_each_yaml(&idx->files, "content/navigation", emit_nav, idx);
	vb_array_end(&idx->extras);
}
