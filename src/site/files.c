/* files: the site readers' toolkit; see files.h. */
#include "autoconfig.h"

#include "site/files.h"

#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/hash.h"
#include "lib/progress.h"
#include "lib/strbuf.h"
#include "site/frontmatter.h"
#include "site/withheld.h"

#define YAML_SUFFIX ".yaml"

void files_init(struct site_files *files, const char *root, value_t previous)
{
	files->root = xstrdup(root);
	files->problems = NULL;
	files->nproblems = 0;
	files->unreadable = NULL;
	files->previous = previous;
	files->sources = (struct value_builder)VALUE_BUILDER_INIT;
	/* Most of the last read's sources come again (taken from the memo):
	 * room for them at once, not grown by copying doublings. */
	if (!value_is_missing(previous))
		strbuf_grow(&files->sources.buf, value_size(previous) + 64);
	vb_map_begin(&files->sources);
	files->held = NULL;
	files->last = NULL;
	files->changed = NULL;
	files->memo = (struct files_memo){NULL, 0, 0};
	files->taken = 0;
	files->stat_dir = NULL;
	files->stat_fd = -1;
	files->reads = NULL;
	files->nreads = files->reads_alloc = 0;
}

void files_remember_nothing(struct site_files *files)
{
	files_finish(files); /* a closed map: remember() adds nothing to it */
}

void files_finish(struct site_files *files)
{
	if (files->sources.depth > 0)
		vb_map_end(&files->sources);
}

void files_free(struct site_files *files)
{
	for (size_t i = 0; i < files->nproblems; i++) {
		free(files->problems[i].path);
		free(files->problems[i].message);
	}
	free(files->problems);
	free(files->root);
	free(files->unreadable);
	vb_release(&files->sources);
	files_memo_free(&files->memo);
	free(files->stat_dir);
	files->stat_dir = NULL;
	if (files->stat_fd >= 0)
		close(files->stat_fd);
	files->stat_fd = -1;
	for (size_t i = 0; i < files->nreads; i++)
		free(files->reads[i].path);
	free(files->reads);
	files->reads = NULL;
	files->nreads = files->reads_alloc = 0;
	files->root = NULL;
	files->problems = NULL;
	files->nproblems = 0;
	files->unreadable = NULL;
}

void files_unreadable(struct site_files *files, const char *rel, const char *why)
{
	files_problem(files, false, rel, 0, "cannot be read: %s", why);
	if (!files->unreadable) {
		struct strbuf s = STRBUF_INIT;
		strbuf_addf(&s, "%s/%s: %s", files->root, rel, why);
		files->unreadable = strbuf_detach(&s, NULL);
	}
}

/* Records a problem about rel, its message made of fmt and ap. */
static void add_problem(struct site_files *files, bool warning, bool left_out, const char *rel,
                        int line, const char *fmt, va_list ap)
{
	struct strbuf message = STRBUF_INIT;
	strbuf_vaddf(&message, fmt, ap);
	files->problems =
		xrealloc(files->problems, (files->nproblems + 1) * sizeof *files->problems);
	struct problem *p = &files->problems[files->nproblems++];
	p->path = xstrdup(rel);
	p->line = line;
	p->warning = warning;
	p->left_out = left_out;
	p->message = strbuf_detach(&message, NULL);
}

void files_problem(struct site_files *files, bool warning, const char *rel, int line,
                   const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	add_problem(files, warning, false, rel, line, fmt, ap);
	va_end(ap);
}

void files_left_out(struct site_files *files, bool warning, const char *rel, int line,
                    const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	add_problem(files, warning, true, rel, line, fmt, ap);
	va_end(ap);
}

size_t files_errors(const struct site_files *files)
{
	size_t errors = 0;
	for (size_t i = 0; i < files->nproblems; i++)
		errors += !files->problems[i].warning;
	return errors;
}

char *files_join(const char *a, const char *b)
{
	/* Not through printf: a build joins millions of paths. */
	size_t la = strlen(a), lb = strlen(b);
	char *path = xmalloc(la + lb + 2);
	memcpy(path, a, la);
	path[la] = '/';
	memcpy(path + la + 1, b, lb + 1);
	return path;
}

void files_memo_free(struct files_memo *memo)
{
	free(memo->slots);
	*memo = (struct files_memo){NULL, 0, 0};
}

/* The slot of hash in memo: its own, or the free one it would take. */
static struct memo_slot *memo_slot(const struct files_memo *memo, uint64_t hash)
{
	size_t at = (size_t)hash & (memo->nslots - 1);
	while (memo->slots[at].hash && memo->slots[at].hash != hash)
		at = (at + 1) & (memo->nslots - 1);
	return &memo->slots[at];
}

static uint64_t memo_hash(const char *rel)
{
	return hash_fnv1a(rel) | 1; /* never 0, the free slot's */
}

static void memo_put(struct files_memo *memo, uint64_t hash, const struct file_stamp *stamp,
                     size_t at)
{
	if ((memo->n + 1) * 4 > memo->nslots * 3) {
		struct files_memo grown = {NULL, memo->nslots ? memo->nslots * 2 : 1024, memo->n};
		grown.slots = xcalloc(grown.nslots, sizeof *grown.slots);
		for (size_t i = 0; i < memo->nslots; i++)
			if (memo->slots[i].hash)
				*memo_slot(&grown, memo->slots[i].hash) = memo->slots[i];
		free(memo->slots);
		*memo = grown;
	}
	struct memo_slot *slot = memo_slot(memo, hash);
	memo->n += slot->hash == 0;
	*slot = (struct memo_slot){hash, *stamp, at};
}

/* Whether a version stamped so may be taken again by stamp alone: not
 * when it changed within the last second (a write in the same tick of
 * the file system's clock would not change its stamp). */
static bool settled_long_enough(const struct file_stamp *stamp)
{
	struct timespec now;
	clock_gettime(CLOCK_REALTIME, &now);
	long long now_ns = (long long)now.tv_sec * 1000000000LL + now.tv_nsec;
	return stamp->ctime_ns < now_ns - 1000000000LL && stamp->mtime_ns < now_ns - 1000000000LL;
}

/* Remembers rel's map for the next read to fall back on, without what is
 * never served: users' files (passwords, tokens) and forms' (e-mail
 * settings) are not kept at all, other files without their withheld keys
 * (which every reader leaves out anyway). With the version's stamp (NULL:
 * not read now), the next read may take it in place of the file. A map
 * that comes from the previous read's sources (kept) is already without
 * them: copied as it is. */
static void remember(struct site_files *files, const char *rel, value_t map,
                     const struct file_stamp *stamp, bool kept)
{
	if (files->sources.depth == 0 || strncmp(rel, "users/", 6) == 0 ||
	    strncmp(rel, "resources/forms/", 16) == 0 || strncmp(rel, "storage/", 8) == 0)
		return;
	vb_keyz(&files->sources, rel);
	size_t at = files->sources.buf.len;
	if (kept)
		vb_value(&files->sources, map);
	else
		withheld_copy(map, &files->sources);
	if (stamp && settled_long_enough(stamp))
		memo_put(&files->memo, memo_hash(rel), stamp, at);
}

/* Notes that the file at path (taken) was read in the version stamp. */
static void note_read(struct site_files *files, char *path, const struct file_stamp *stamp,
                      bool taken)
{
	if (files->nreads == files->reads_alloc) {
		files->reads_alloc = files->reads_alloc ? files->reads_alloc * 2 : 256;
		files->reads = xrealloc(files->reads, files->reads_alloc * sizeof *files->reads);
	}
	files->reads[files->nreads++] = (struct file_read){path, *stamp, taken};
}

/* A file held (being written): its last good version, not read now. */
static int read_held(struct site_files *files, const char *rel, struct value_builder *out)
{
	value_t last = value_map_getz(files->previous, rel);
	if (value_is_missing(last))
		return -1;
	vb_value(out, last);
	remember(files, rel, last, NULL, true);
	return 0;
}

/* The stamp of the file at path, stat()ed at the descriptor of its folder
 * (kept open from one file to the next: the files of a folder come one
 * after another, and the path of each is not walked again). */
static bool stamp_of_path(struct site_files *files, const char *path, struct file_stamp *stamp)
{
	const char *slash = strrchr(path, '/');
	if (!slash)
		return frontmatter_stamp(path, stamp);
	size_t len = (size_t)(slash - path);
	if (!files->stat_dir || strncmp(files->stat_dir, path, len) != 0 ||
	    files->stat_dir[len] != '\0') {
		if (files->stat_fd >= 0)
			close(files->stat_fd);
		free(files->stat_dir);
		files->stat_dir = xstrndup(path, len);
		files->stat_fd = open(files->stat_dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	}
	if (files->stat_fd < 0)
		return frontmatter_stamp(path, stamp);
	return frontmatter_stamp_at(files->stat_fd, slash + 1, stamp);
}

/* The last read's map of rel, when the file at path (taken when it
 * is) is still the version it parsed: appended to out, remembered and
 * noted as read. */
static bool take_memo(struct site_files *files, const char *rel, char *path,
                      struct value_builder *out, value_t *view)
{
	if (!files->last || !files->last->n || value_is_missing(files->previous))
		return false;
	const struct memo_slot *slot = memo_slot(files->last, memo_hash(rel));
	if (!slot->hash)
		return false;
	/* Told which files changed since (the watcher's events), a file not
	 * among them is the version parsed: no stat to ask. */
	struct file_stamp now = slot->stamp;
	bool unchanged = files->changed && !strmap_get(files->changed, path);
	if (!unchanged &&
	    (!stamp_of_path(files, path, &now) || !file_stamp_equal(&now, &slot->stamp)))
		return false;
	value_t map = {files->previous.p + slot->at};
	if (view)
		*view = map;
	else
		vb_value(out, map);
	note_read(files, path, &now, true);
	remember(files, rel, map, &now, true);
	files->taken++;
	return true;
}

/* files_read; a map taken from the memo is given in *view (when not
 * NULL) instead of appended to out. */
static int read_or_view(struct site_files *files, const char *rel, struct value_builder *out,
                        value_t *view)
{
	char *path = files_join(files->root, rel);
	if (files->held && strmap_get(files->held, path)) {
		free(path);
		return read_held(files, rel, out);
	}
	if (take_memo(files, rel, path, out, view))
		return 0;
	struct yaml_error err;
	struct file_stamp stamp;
	size_t at = out->buf.len;
	progress_tick();
	int rc = frontmatter_parse_file_stamped(path, out, &err, &stamp);
	if (rc == 0) {
		note_read(files, path, &stamp, false);
		remember(files, rel, (value_t){(const unsigned char *)out->buf.ptr + at}, &stamp, false);
		return 0;
	}
	/* Removed since it was listed: deleted, not a file to stand in for. */
	struct stat st;
	bool deleted = lstat(path, &st) != 0 && errno == ENOENT;
	free(path);
	if (deleted) {
		files_left_out(files, true, rel, 0, "deleted");
		return -1;
	}
	value_t last = value_map_getz(files->previous, rel);
	if (value_is_missing(last)) {
		files_left_out(files, false, rel, err.line, "%s", err.message);
		return -1;
	}
	files_problem(files, false, rel, err.line, "%s (its last good version is served)",
	              err.message);
	vb_value(out, last);
	remember(files, rel, last, NULL, true);
	return 0;
}

int files_read(struct site_files *files, const char *rel, struct value_builder *out)
{
	return read_or_view(files, rel, out, NULL);
}

int files_read_view(struct site_files *files, const char *rel, struct value_builder *out,
                    value_t *map)
{
	*map = VALUE_MISSING;
	size_t at = out->buf.len;
	int rc = read_or_view(files, rel, out, map);
	if (rc == 0 && value_is_missing(*map))
		*map = (value_t){(const unsigned char *)out->buf.ptr + at};
	return rc;
}

bool files_exists(const struct site_files *files, const char *rel)
{
	char *path = files_join(files->root, rel);
	struct stat st;
	bool ok = stat(path, &st) == 0 && S_ISREG(st.st_mode);
	free(path);
	return ok;
}

static int compare_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* rel of an absolute path below the root ("" for the root itself). */
static const char *relative_to_root(const struct site_files *files, const char *path)
{
	size_t n = strlen(files->root);
	if (strncmp(path, files->root, n) == 0 && (path[n] == '/' || path[n] == '\0'))
		return path[n] == '/' ? path + n + 1 : "";
	return path;
}

char **files_list(struct site_files *files, const char *dir, const char *suffix, size_t *count)
{
	return files_list_kinds(files, dir, suffix, count, NULL);
}

/* What a directory entry is, as its type says (without a stat). */
static signed char kind_of(const struct dirent *e)
{
#ifdef _DIRENT_HAVE_D_TYPE
	if (e->d_type == DT_DIR)
		return FILES_DIR;
	if (e->d_type == DT_REG)
		return FILES_NOT_DIR;
#endif
	(void)e;
	return FILES_UNKNOWN; /* a link, or a file system that does not say */
}

struct named_kind {
	char *name;
	signed char kind;
};

static int compare_named(const void *a, const void *b)
{
	return strcmp(((const struct named_kind *)a)->name, ((const struct named_kind *)b)->name);
}

/* Sorts names, and kinds (when not NULL) along with them. */
static void sort_names(char **names, signed char *kinds, size_t n)
{
	if (!kinds) {
		qsort(names, n, sizeof *names, compare_names);
		return;
	}
	struct named_kind *pairs = xmalloc(n * sizeof *pairs);
	for (size_t i = 0; i < n; i++)
		pairs[i] = (struct named_kind){names[i], kinds[i]};
	qsort(pairs, n, sizeof *pairs, compare_named);
	for (size_t i = 0; i < n; i++) {
		names[i] = pairs[i].name;
		kinds[i] = pairs[i].kind;
	}
	free(pairs);
}

char **files_list_kinds(struct site_files *files, const char *dir, const char *suffix,
                        size_t *count, signed char **kinds)
{
	char **names = NULL;
	signed char *k = NULL;
	size_t n = 0;
	DIR *d = opendir(dir);
	*count = 0;
	if (kinds)
		*kinds = NULL;
	if (!d) {
		/* Not there: empty. There but closed to us: not the same thing. */
		if (files && errno != ENOENT && errno != ENOTDIR)
			files_unreadable(files, relative_to_root(files, dir), strerror(errno));
		return NULL;
	}
	struct dirent *e;
	size_t suffix_len = suffix ? strlen(suffix) : 0;
	while ((e = readdir(d)) != NULL) {
		size_t len = strlen(e->d_name);
		if (e->d_name[0] == '.')
			continue;
		if (suffix && (len <= suffix_len || strcmp(e->d_name + len - suffix_len, suffix) != 0))
			continue;
		names = xrealloc(names, (n + 1) * sizeof *names);
		if (kinds) {
			k = xrealloc(k, n + 1);
			k[n] = kind_of(e);
		}
		names[n++] = xstrdup(e->d_name);
	}
	closedir(d);
	if (n > 1)
		sort_names(names, k, n);
	*count = n;
	if (kinds)
		*kinds = k;
	return names;
}

void files_free_names(char **names, size_t count)
{
	for (size_t i = 0; i < count; i++)
		free(names[i]);
	free(names);
}

char *files_handle(const char *file_name)
{
	size_t len = strlen(file_name), suffix_len = strlen(YAML_SUFFIX);
	if (len > suffix_len && strcmp(file_name + len - suffix_len, YAML_SUFFIX) == 0)
		len -= suffix_len;
	return xstrndup(file_name, len);
}

char *files_title(value_t settings, const char *handle)
{
	const char *title = value_str(value_map_getz(settings, "title"), NULL);
	if (*title)
		return xstrdup(title);
	char *t = xstrdup(handle);
	t[0] = (char)toupper((unsigned char)t[0]);
	return t;
}

void files_each_yaml(struct site_files *files, const char *folder, files_yaml_fn fn, void *ctx)
{
	char *dir = files_join(files->root, folder);
	size_t n;
	char **names = files_list(files, dir, YAML_SUFFIX, &n);
	for (size_t i = 0; i < n; i++) {
		char *rel = files_join(folder, names[i]);
		struct value_builder settings = VALUE_BUILDER_INIT;
		if (files_read(files, rel, &settings) == 0) {
			char *handle = files_handle(names[i]);
			fn(ctx, handle, vb_result(&settings));
			free(handle);
		}
		vb_release(&settings);
		free(rel);
	}
	files_free_names(names, n);
	free(dir);
}

void files_problem_line(struct strbuf *out, const char *root, const char *path, int line,
                        const char *message)
{
	strbuf_addf(out, "%s%s%s", root, *path ? "/" : "", path);
	if (line > 0)
		strbuf_addf(out, ":%d", line);
	strbuf_addf(out, ": %s", message);
}
