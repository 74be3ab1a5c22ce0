/*
 * frontmatter: one content file read the way Statamic's Yaml::parse reads
 * it (frontmatter.h, content-format.md §1): CRLF to LF, an optional "---"
 * front-matter block split off at the first "\n---", the YAML part parsed
 * by yaml.c and the body added last as `content`.
 */
#include "autoconfig.h"

#include "site/frontmatter.h"

#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/strbuf.h"

#define MAX_FILE_SIZE ((size_t)16 << 20)

/* A file cut into its YAML and its body (body_len 0: no body). */
struct parts {
	const char *yaml;
	size_t yaml_len;
	const char *body;
	size_t body_len;
	int body_line; /* line of the closing "---" */
};

static void set_error(struct yaml_error *err, int line, const char *message)
{
	err->line = line;
	snprintf(err->message, sizeof err->message, "%s", message);
}

/* The text with the \r of every \r\n dropped; a lone \r stays. */
static void copy_without_crlf(const char *text, size_t len, struct strbuf *out)
{
	strbuf_grow(out, len);
	for (size_t i = 0; i < len; i++)
		if (text[i] != '\r' || i + 1 == len || text[i + 1] != '\n')
			strbuf_addch(out, text[i]);
}

/* The characters PHP's ltrim() removes by default. */
static bool is_php_space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\0';
}

static bool is_blank_text(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!is_php_space(s[i]) && s[i] != '\f')
			return false;
	return true;
}

/* Offset of the first "\n---", or len when there is none. */
static size_t find_closing_delimiter(const char *s, size_t len)
{
	for (size_t i = 0; i + 4 <= len; i++)
		if (s[i] == '\n' && memcmp(s + i + 1, "---", 3) == 0)
			return i;
	return len;
}

static int count_newlines(const char *s, size_t len)
{
	int lines = 0;
	for (size_t i = 0; i < len; i++)
		lines += s[i] == '\n';
	return lines;
}

/* Statamic splits once on /\n---/: the rest of that delimiter line and
 * everything after it is the body, whatever "---" lines it holds. */
static void split_file(const char *s, size_t len, struct parts *p)
{
	*p = (struct parts){s, len, NULL, 0, 0};
	if (len < 3 || memcmp(s, "---", 3) != 0)
		return;
	size_t close = find_closing_delimiter(s, len);
	if (close == len)
		return;
	size_t body = close + 4;
	while (body < len && is_php_space(s[body]))
		body++;
	p->yaml_len = close;
	p->body = s + body;
	p->body_len = len - body;
	p->body_line = count_newlines(s, close) + 2;
}

/* The YAML map's pairs, then the body as `content`, as a new map in out. */
static void emit_file_map(value_t yaml, const struct parts *p, struct value_builder *out)
{
	struct value_iter it;
	vb_map_begin(out);
	value_iter_init(&it, yaml);
	while (value_iter_next(&it)) {
		vb_key(out, it.key, it.key_len);
		vb_value(out, it.value);
	}
	if (p->body_len > 0) {
		vb_keyz(out, "content");
		vb_str(out, p->body, p->body_len);
	}
	vb_map_end(out);
}

/* A null document and an empty list are both PHP's empty array. */
static bool is_map_like(value_t v)
{
	enum value_type t = value_type(v);
	return t == VALUE_MAP || t == VALUE_NULL || (t == VALUE_ARRAY && value_count(v) == 0);
}

static int parse_parts(const struct parts *p, struct value_builder *out, struct yaml_error *err)
{
	struct value_builder yaml = VALUE_BUILDER_INIT;
	int rc = -1;
	if (yaml_parse(p->yaml, p->yaml_len, 0, &yaml, err) != 0)
		goto done;
	value_t root = vb_result(&yaml);
	if (!is_map_like(root)) {
		set_error(err, 1, "expected a map at the top level");
		goto done;
	}
	if (p->body_len > 0 && !value_is_missing(value_map_getz(root, "content"))) {
		set_error(err, p->body_line,
		          "a YAML key named content cannot be used while the file has a body");
		goto done;
	}
	emit_file_map(root, p, out);
	rc = 0;
done:
	vb_release(&yaml);
	return rc;
}

int frontmatter_parse(const char *text, size_t len, struct value_builder *out,
                      struct yaml_error *err)
{
	struct strbuf lf = STRBUF_INIT;
	struct parts parts;
	int rc = 0;
	memset(err, 0, sizeof *err);
	copy_without_crlf(text, len, &lf);
	if (is_blank_text(strbuf_str(&lf), lf.len)) {
		vb_map_begin(out);
		vb_map_end(out);
	} else {
		split_file(lf.ptr, lf.len, &parts);
		rc = parse_parts(&parts, out, err);
	}
	strbuf_release(&lf);
	return rc;
}

static int fail_errno(struct yaml_error *err, int fd)
{
	int saved = errno;
	if (fd >= 0)
		close(fd);
	set_error(err, 0, strerror(saved));
	return -1;
}

static int fail_too_large(struct yaml_error *err, int fd)
{
	close(fd);
	set_error(err, 0, "file is larger than 16 MiB");
	return -1;
}

static void stamp_of(const struct stat *st, struct file_stamp *stamp)
{
	stamp->ino = (unsigned long long)st->st_ino;
	stamp->size = (unsigned long long)st->st_size;
	stamp->mtime_ns = (long long)st->st_mtim.tv_sec * 1000000000LL + st->st_mtim.tv_nsec;
	stamp->ctime_ns = (long long)st->st_ctim.tv_sec * 1000000000LL + st->st_ctim.tv_nsec;
}

bool file_stamp_equal(const struct file_stamp *a, const struct file_stamp *b)
{
	return a->ino == b->ino && a->size == b->size && a->mtime_ns == b->mtime_ns &&
	       a->ctime_ns == b->ctime_ns;
}

bool frontmatter_stamp_at(int dirfd, const char *name, struct file_stamp *stamp)
{
	struct stat st;
	if (fstatat(dirfd, name, &st, 0) != 0)
		return false;
	stamp_of(&st, stamp);
	return true;
}

bool frontmatter_stamp(const char *path, struct file_stamp *stamp)
{
	struct stat st;
	if (stat(path, &st) != 0)
		return false;
	stamp_of(&st, stamp);
	return true;
}

/* Whether two looks at a file saw the same version of it. */
static bool same_version(const struct stat *a, const struct stat *b)
{
	struct file_stamp x, y;
	stamp_of(a, &x);
	stamp_of(b, &y);
	return file_stamp_equal(&x, &y);
}

/* Reads the whole file into text once, refusing more than MAX_FILE_SIZE;
 * *settled says whether it did not change while it was read (the same
 * version before and after, all of it read). */
static int read_once(const char *path, struct strbuf *text, struct yaml_error *err,
                     bool *settled, struct file_stamp *stamp)
{
	char chunk[16384];
	struct stat before, after;
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0 || fstat(fd, &before) != 0)
		return fail_errno(err, fd);
	if (before.st_size > (off_t)MAX_FILE_SIZE)
		return fail_too_large(err, fd);
	for (;;) {
		ssize_t n = read(fd, chunk, sizeof chunk);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return fail_errno(err, fd);
		if (n == 0)
			break;
		/* The file may have grown since fstat. */
		if (text->len + (size_t)n > MAX_FILE_SIZE)
			return fail_too_large(err, fd);
		strbuf_add(text, chunk, (size_t)n);
	}
	*settled = fstat(fd, &after) == 0 && same_version(&before, &after) &&
	           (off_t)text->len == after.st_size;
	stamp_of(&before, stamp);
	close(fd);
	return 0;
}

/* Reads the whole file into text: again when it changed while it was
 * read (a writer that truncates, then writes), so that what is parsed is
 * one version of it, whole. */
static int read_file(const char *path, struct strbuf *text, struct yaml_error *err,
                     struct file_stamp *stamp)
{
	for (int tries = 0; tries < 5; tries++) {
		bool settled;
		strbuf_reset(text);
		if (read_once(path, text, err, &settled, stamp) != 0)
			return -1;
		if (settled)
			return 0;
	}
	set_error(err, 0, "it kept changing while it was read");
	return -1;
}

int frontmatter_parse_file_stamped(const char *path, struct value_builder *out,
                                   struct yaml_error *err, struct file_stamp *stamp)
{
	struct strbuf text = STRBUF_INIT;
	memset(err, 0, sizeof *err);
	int rc = read_file(path, &text, err, stamp);
	if (rc == 0)
		rc = frontmatter_parse(strbuf_str(&text), text.len, out, err);
	strbuf_release(&text);
	return rc;
}

int frontmatter_parse_file(const char *path, struct value_builder *out, struct yaml_error *err)
{
	struct file_stamp stamp;
	return frontmatter_parse_file_stamped(path, out, err, &stamp);
}
