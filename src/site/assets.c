/*
 * assets: asset containers and their files (content-format.md §12) into
 * the index's extras as "assets": a list of
 *   {handle, title, disk, url, files: [{path, basename, folder, extension,
 *    data, size, last_modified, width, height, mime_type, duration}]}
 * A container's files live under its disk's root ([disks.*] in the INI);
 * `.meta/{basename}.yaml` beside a file holds its data (alt, focus, ...)
 * and cached facts, which the file's own size and time override. Nothing
 * outside the disk's root is listed: symbolic links that leave it are
 * skipped.
 */
#include "autoconfig.h"

#include "site/assets.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "site/files.h"
#include "site/withheld.h"
#include "site/frontmatter.h"
#include "strbuf.h"

struct walker {
	struct site_index *idx;
	const char *root;     /* the disk's root, resolved */
	struct value_builder *out;
	size_t count;
};

static const struct disk_def *disk_named(const struct config *cfg, const char *name)
{
	for (size_t i = 0; cfg && i < cfg->ndisks; i++)
		if (strcmp(cfg->disks[i].name, name) == 0)
			return &cfg->disks[i];
	return NULL;
}

/* True when path resolves to a place inside root (or is root). */
static bool inside(const char *root, const char *path)
{
	char resolved[PATH_MAX];
	if (!realpath(path, resolved))
		return false;
	size_t n = strlen(root);
	return strncmp(resolved, root, n) == 0 && (resolved[n] == '/' || resolved[n] == '\0');
}

static void emit_meta_value(struct value_builder *out, value_t meta, const char *key)
{
	vb_keyz(out, key);
	vb_value(out, value_map_getz(meta, key));
}

static void emit_file(struct walker *w, const char *rel, const struct stat *st)
{
	const char *base = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
	struct strbuf folder = STRBUF_INIT, meta_path = STRBUF_INIT;
	strbuf_add(&folder, rel, (size_t)(base - rel));
	if (folder.len)
		strbuf_truncate(&folder, folder.len - 1);
	strbuf_addf(&meta_path, "%s/%s%s.meta/%s.yaml", w->root, strbuf_str(&folder),
	            folder.len ? "/" : "", base);
	struct value_builder meta = VALUE_BUILDER_INIT;
	struct yaml_error err;
	struct stat ms;
	if (stat(meta_path.ptr, &ms) == 0 && frontmatter_parse_file(meta_path.ptr, &meta, &err) != 0)
		files_problem(&w->idx->files, true, meta_path.ptr, err.line, "%s", err.message);
	value_t m = vb_result(&meta);
	const char *dot = strrchr(base, '.');
	struct value_builder *out = w->out;
	vb_map_begin(out);
	vb_keyz(out, "path");
	vb_strz(out, rel);
	vb_keyz(out, "basename");
	vb_strz(out, base);
	vb_keyz(out, "folder");
	vb_strz(out, folder.len ? folder.ptr : "/");
	vb_keyz(out, "extension");
	vb_strz(out, dot && dot != base ? dot + 1 : "");
	vb_keyz(out, "data");
	value_t data = value_map_getz(m, "data");
	if (value_type(data) == VALUE_MAP)
		withheld_copy(data, out);
	else {
		vb_map_begin(out);
		vb_map_end(out);
	}
	vb_keyz(out, "size");
	vb_int(out, (int64_t)st->st_size);
	vb_keyz(out, "last_modified");
	vb_int(out, (int64_t)st->st_mtime);
	emit_meta_value(out, m, "width");
	emit_meta_value(out, m, "height");
	emit_meta_value(out, m, "mime_type");
	emit_meta_value(out, m, "duration");
	vb_map_end(out);
	vb_release(&meta);
	strbuf_release(&folder);
	strbuf_release(&meta_path);
	w->count++;
}

static void walk(struct walker *w, const char *rel, int depth)
{
	struct strbuf abs = STRBUF_INIT;
	strbuf_addf(&abs, "%s%s%s", w->root, *rel ? "/" : "", rel);
	size_t n;
	char **names = files_list(NULL, abs.ptr, NULL, &n); /* a disk is not the site */
	for (size_t i = 0; i < n; i++) {
		struct strbuf child = STRBUF_INIT, child_rel = STRBUF_INIT;
		strbuf_addf(&child, "%s/%s", abs.ptr, names[i]);
		strbuf_addf(&child_rel, "%s%s%s", rel, *rel ? "/" : "", names[i]);
		struct stat st, lst;
		bool ok = lstat(child.ptr, &lst) == 0 && stat(child.ptr, &st) == 0 &&
		          (!S_ISLNK(lst.st_mode) || inside(w->root, child.ptr));
		if (ok && S_ISDIR(st.st_mode) && depth < 32)
			walk(w, child_rel.ptr, depth + 1);
		else if (ok && S_ISREG(st.st_mode))
			emit_file(w, child_rel.ptr, &st);
		strbuf_release(&child);
		strbuf_release(&child_rel);
	}
	files_free_names(names, n);
	strbuf_release(&abs);
}

static void load_container(void *ctx, const char *handle, value_t settings)
{
	struct site_index *idx = ctx;
	struct value_builder *out = &idx->extras;
	const char *disk_name = value_str(value_map_getz(settings, "disk"), NULL);
	const struct disk_def *disk = disk_named(idx->cfg, *disk_name ? disk_name : handle);
	const char *title = value_str(value_map_getz(settings, "title"), NULL);
	vb_map_begin(out);
	vb_keyz(out, "handle");
	vb_strz(out, handle);
	vb_keyz(out, "title");
	vb_strz(out, *title ? title : handle);
	vb_keyz(out, "disk");
	vb_strz(out, disk_name);
	vb_keyz(out, "url");
	if (disk && disk->url)
		vb_strz(out, disk->url);
	else
		vb_null(out);
	vb_keyz(out, "files");
	vb_array_begin(out);
	char root[PATH_MAX];
	if (disk && disk->root && realpath(disk->root, root)) {
		struct walker w = {idx, root, out, 0};
		walk(&w, "", 0);
	} else if (!disk) {
		files_problem(&idx->files, true, "content/assets", 0,
		              "container %s: disk %s has no [disks.%s] section; it lists no files",
		              handle, disk_name, *disk_name ? disk_name : handle);
	}
	vb_array_end(out);
	vb_map_end(out);
}

void assets_load(struct site_index *idx)
{
	vb_keyz(&idx->extras, "assets");
	vb_array_begin(&idx->extras);
	files_each_yaml(&idx->files, "content/assets", load_container, idx);
	vb_array_end(&idx->extras);
}
