/*
 * assets: asset containers and their files (content-format.md §12) into
 * the index's extras as "assets": a list of
 *   {handle, title, disk, url, blueprint: {title, handle}, fields,
 *    files: [{path, basename, folder, extension, data, size, last_modified,
 *             width, height, mime_type, duration}],
 *    file_offsets}
 * A container's files live under its disk's root ([disks.*] in the INI);
 * `.meta/{basename}.yaml` beside a file holds its data (alt, focus, ...)
 * and the facts Statamic cached when it last looked at the file (size,
 * last_modified, width, height, mime_type): as Statamic (Asset::meta),
 * those are believed when the .meta has them, and only a missing or null
 * one is read from the file itself. Nothing
 * outside the disk's root is listed: symbolic links that leave it are
 * skipped, and so are hidden files and folders (.meta among them).
 *
 * Files are listed in the order of their paths (strcmp's, Statamic's
 * sortKeys), so that one is found by its path in a binary search:
 * file_offsets is a string of 4-byte little-endian offsets, one per file,
 * of each file's map from the start of the files array (assets_find_file
 * reads it). A file whose .meta lacks its MIME type or (for an image) its
 * size gets them from its extension and its header, read now, never at
 * request time. `fields` is the container's blueprint's fields, handle ->
 * config (resources/blueprints/assets/{handle}.yaml, else Statamic's
 * default: an `alt` text field).
 */
#include "autoconfig.h"

#include "site/assets.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "lib/progress.h"
#include "lib/strbuf.h"
#include "lib/url.h"
#include "site/blueprints.h"
#include "site/files.h"
#include "site/frontmatter.h"
#include "site/media.h"
#include "site/withheld.h"

/* A walk that reaches this deep stops: a loop of linked folders inside
 * the disk would otherwise never end. */
#define MAX_FOLDER_DEPTH 32

/* One file found on the disk. */
struct disk_file {
	char *rel; /* owned: its path below the root */
	struct stat st;
};

struct walker {
	struct site_index *idx;
	const char *root;        /* the disk's root, resolved */
	struct disk_file *files; /* owned, with each rel */
	size_t n, cap;
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

/* --- one file --- */

static void emit_meta_value(struct value_builder *out, value_t meta, const char *key)
{
	vb_keyz(out, key);
	vb_value(out, value_map_getz(meta, key));
}

static void emit_size_value(struct value_builder *out, double v, bool is_float)
{
	if (is_float)
		vb_double(out, v);
	else
		vb_int(out, (int64_t)v);
}

/* The .meta's number at key (a size, a time), else the file's own. */
static int64_t meta_int(value_t meta, const char *key, int64_t own)
{
	value_t v = value_map_getz(meta, key);
	if (value_type(v) == VALUE_INT)
		return value_int(v);
	if (value_type(v) == VALUE_DOUBLE)
		return value_int_of_double(value_double(v));
	return own;
}

/* width and height: the .meta's, else (when it lacks one) the header's. */
static void emit_dimensions(struct value_builder *out, value_t meta, const char *abs,
                            const char *ext)
{
	struct media_size size;
	if ((value_is_null(value_map_getz(meta, "width")) ||
	     value_is_null(value_map_getz(meta, "height"))) &&
	    media_image_size(abs, ext, &size)) {
		vb_keyz(out, "width");
		emit_size_value(out, size.width, size.is_float);
		vb_keyz(out, "height");
		emit_size_value(out, size.height, size.is_float);
		return;
	}
	emit_meta_value(out, meta, "width");
	emit_meta_value(out, meta, "height");
}

static void emit_mime_type(struct value_builder *out, value_t meta, const char *ext)
{
	value_t own = value_map_getz(meta, "mime_type");
	const char *guess = media_mime_type(ext);
	vb_keyz(out, "mime_type");
	if (value_type(own) == VALUE_STRING && value_str(own, NULL)[0])
		vb_value(out, own);
	else if (guess)
		vb_strz(out, guess);
	else
		vb_null(out);
}

/* The parsed .meta of the file at rel, or an empty builder. */
static void read_meta(struct walker *w, const char *folder, const char *base,
                      struct value_builder *meta)
{
	struct strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "%s/%s%s.meta/%s.yaml", w->root, folder, *folder ? "/" : "", base);
	struct yaml_error err;
	struct stat st;
	if (stat(path.ptr, &st) == 0 && frontmatter_parse_file(path.ptr, meta, &err) != 0)
		files_problem(&w->idx->files, true, path.ptr, err.line, "%s", err.message);
	strbuf_release(&path);
}

static void emit_file(struct walker *w, const struct disk_file *f, struct value_builder *out)
{
	const char *rel = f->rel;
	const char *base = strrchr(rel, '/') ? strrchr(rel, '/') + 1 : rel;
	const char *dot = strrchr(base, '.');
	const char *ext = dot && dot != base ? dot + 1 : "";
	struct strbuf folder = STRBUF_INIT, abs = STRBUF_INIT;
	strbuf_add(&folder, rel, base > rel ? (size_t)(base - rel - 1) : 0);
	strbuf_addf(&abs, "%s/%s", w->root, rel);
	struct value_builder meta = VALUE_BUILDER_INIT;
	read_meta(w, strbuf_str(&folder), base, &meta);
	value_t m = vb_result(&meta);
	vb_map_begin(out);
	vb_keyz(out, "path");
	vb_strz(out, rel);
	vb_keyz(out, "basename");
	vb_strz(out, base);
	vb_keyz(out, "folder");
	vb_strz(out, folder.len ? folder.ptr : "/");
	vb_keyz(out, "extension");
	vb_strz(out, ext);
	vb_keyz(out, "data");
	value_t data = value_map_getz(m, "data");
	if (value_type(data) == VALUE_MAP)
		withheld_copy(data, out);
	else {
		vb_map_begin(out);
		vb_map_end(out);
	}
	vb_keyz(out, "size");
	vb_int(out, meta_int(m, "size", (int64_t)f->st.st_size));
	vb_keyz(out, "last_modified");
	vb_int(out, meta_int(m, "last_modified", (int64_t)f->st.st_mtime));
	emit_dimensions(out, m, abs.ptr, ext);
	emit_mime_type(out, m, ext);
	emit_meta_value(out, m, "duration");
	vb_map_end(out);
	vb_release(&meta);
	strbuf_release(&folder);
	strbuf_release(&abs);
}

/* --- the disk --- */

static void add_file(struct walker *w, const char *rel, const struct stat *st)
{
	if (w->n == w->cap) {
		w->cap = w->cap ? 2 * w->cap : 64;
		w->files = xrealloc(w->files, w->cap * sizeof *w->files);
	}
	w->files[w->n++] = (struct disk_file){xstrdup(rel), *st};
	progress_tick();
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
		if (ok && S_ISDIR(st.st_mode) && depth < MAX_FOLDER_DEPTH)
			walk(w, child_rel.ptr, depth + 1);
		else if (ok && S_ISREG(st.st_mode))
			add_file(w, child_rel.ptr, &st);
		strbuf_release(&child);
		strbuf_release(&child_rel);
	}
	files_free_names(names, n);
	strbuf_release(&abs);
}

static int compare_paths(const void *a, const void *b)
{
	return strcmp(((const struct disk_file *)a)->rel, ((const struct disk_file *)b)->rel);
}

static void put_le32(unsigned char *p, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		p[i] = (unsigned char)(v >> (8 * i));
}

/* files and file_offsets of the disk at root (resolved), sorted by path. */
static void emit_files(struct site_index *idx, const char *root, struct value_builder *out)
{
	struct walker w = {idx, root, NULL, 0, 0};
	if (root)
		walk(&w, "", 0);
	if (w.n > 1)
		qsort(w.files, w.n, sizeof *w.files, compare_paths);
	unsigned char *offsets = xmalloc(4 * w.n + 1);
	vb_keyz(out, "files");
	size_t files_at = out->buf.len;
	vb_array_begin(out);
	for (size_t i = 0; i < w.n; i++) {
		put_le32(offsets + 4 * i, (uint32_t)(out->buf.len - files_at));
		emit_file(&w, &w.files[i], out);
		free(w.files[i].rel);
	}
	vb_array_end(out);
	vb_keyz(out, "file_offsets");
	vb_str(out, (const char *)offsets, 4 * w.n);
	free(offsets);
	free(w.files);
}

/* --- the container --- */

/* blueprint {title, handle} and fields: its file's, or Statamic's default
 * (titled after the container, one `alt` text field). */
static void emit_blueprint(struct site_index *idx, const char *handle, struct value_builder *out)
{
	struct strbuf rel = STRBUF_INIT;
	strbuf_addf(&rel, "resources/blueprints/assets/%s.yaml", handle);
	struct value_builder raw = VALUE_BUILDER_INIT;
	bool own = files_exists(&idx->files, rel.ptr) && files_read(&idx->files, rel.ptr, &raw) == 0;
	char *title = blueprint_title(own ? vb_result(&raw) : VALUE_MISSING, handle);
	vb_keyz(out, "blueprint");
	vb_map_begin(out);
	vb_keyz(out, "title");
	vb_strz(out, title);
	vb_keyz(out, "handle");
	vb_strz(out, handle);
	vb_map_end(out);
	vb_keyz(out, "fields");
	if (own) {
		blueprint_fields(idx, rel.ptr, out);
	} else {
		vb_map_begin(out);
		vb_keyz(out, "alt");
		vb_map_begin(out);
		vb_keyz(out, "type");
		vb_strz(out, "text");
		vb_keyz(out, "display");
		vb_strz(out, "Alt Text");
		vb_map_end(out);
		vb_map_end(out);
	}
	free(title);
	vb_release(&raw);
	strbuf_release(&rel);
}

static void load_container(void *ctx, const char *handle, value_t settings)
{
	struct site_index *idx = ctx;
	struct value_builder *out = &idx->extras;
	const char *named = value_str(value_map_getz(settings, "disk"), NULL);
	const char *disk_name = *named ? named : handle;
	const struct disk_def *disk = disk_named(idx->cfg, disk_name);
	char *title = files_title(settings, handle);
	vb_map_begin(out);
	vb_keyz(out, "handle");
	vb_strz(out, handle);
	vb_keyz(out, "title");
	vb_strz(out, title);
	vb_keyz(out, "disk");
	vb_strz(out, disk_name);
	vb_keyz(out, "url");
	if (disk && disk->url)
		vb_strz(out, disk->url);
	else
		vb_null(out);
	emit_blueprint(idx, handle, out);
	char root[PATH_MAX];
	bool readable = disk && disk->root && realpath(disk->root, root);
	emit_files(idx, readable ? root : NULL, out);
	if (!disk)
		files_problem(&idx->files, true, "content/assets", 0,
		              "container %s: disk %s has no [disks.%s] section; it lists no files",
		              handle, disk_name, disk_name);
	vb_map_end(out);
	free(title);
}

void assets_load(struct site_index *idx)
{
	vb_keyz(&idx->extras, "assets");
	vb_array_begin(&idx->extras);
	files_each_yaml(&idx->files, "content/assets", load_container, idx);
	vb_array_end(&idx->extras);
}

/* --- reading it back --- */

static uint32_t get_le32(const unsigned char *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

value_t assets_find_file(value_t container, const char *path)
{
	value_t files = value_map_getz(container, "files");
	size_t len;
	const unsigned char *offsets =
	    (const unsigned char *)value_str(value_map_getz(container, "file_offsets"), &len);
	size_t lo = 0, hi = len / 4, size = value_size(files);
	if (value_type(files) != VALUE_ARRAY || hi != value_count(files))
		return VALUE_MISSING;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		uint32_t at = get_le32(offsets + 4 * mid);
		/* Offsets this module wrote; still, never read outside the list. */
		if (at >= size)
			return VALUE_MISSING;
		value_t file = {files.p + at};
		if (value_type(file) != VALUE_MAP || value_size(file) > size - at)
			return VALUE_MISSING;
		int order = strcmp(path, value_str(value_map_getz(file, "path"), NULL));
		if (order == 0)
			return file;
		if (order < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return VALUE_MISSING;
}

bool assets_url(value_t container, const char *path, struct strbuf *out)
{
	value_t base = value_map_getz(container, "url");
	if (value_type(base) != VALUE_STRING)
		return false;
	const char *b = value_str(base, NULL);
	strbuf_addf(out, "%s/%s", strcmp(b, "/") == 0 ? "" : b, path);
	return true;
}

/* Appends a segment as Laravel's route URLs spell it: rawurlencode, then
 * the characters its URL generator puts back (@ : ; , = + ! * | &) bare,
 * but for '?', '#' and '%', which it also puts back and which would end
 * the path or start an escape: those stay encoded. */
static void encode_segment(const char *s, size_t len, struct strbuf *out)
{
	for (size_t i = 0; i < len; i++) {
		if (strchr("@:;,=+!*|&", s[i]) && s[i]) {
			strbuf_addch(out, s[i]);
		} else {
			char one[2] = {s[i], '\0'};
			url_encode(one, out);
		}
	}
}

void assets_api_path(const char *container, const char *path, struct strbuf *out)
{
	strbuf_addstr(out, "assets/");
	encode_segment(container, strlen(container), out);
	for (const char *p = path; *p;) {
		size_t len = strcspn(p, "/");
		strbuf_addch(out, '/');
		encode_segment(p, len, out);
		p += len + (p[len] == '/');
	}
}
