/*
 * frontmatter: one content file read as Statamic's Yaml::parse reads it;
 * see frontmatter.h for the rules.
 */
#include "autoconfig.h"

#include "site/frontmatter.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "strbuf.h"

#define MAX_FILE_SIZE (16u << 20)

static void set_error(struct yaml_error *err, int line, const char *message)
{
	err->line = line;
	snprintf(err->message, sizeof err->message, "%s", message);
}

/* A copy of text with every "\r\n" turned into "\n". */
static char *without_crlf(const char *text, size_t len, size_t *out_len)
{
	char *copy = xmalloc(len + 1);
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		if (!(text[i] == '\r' && i + 1 < len && text[i + 1] == '\n'))
			copy[n++] = text[i];
	copy[n] = '\0';
	*out_len = n;
	return copy;
}

static bool only_whitespace(const char *s, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (!isspace((unsigned char)s[i]))
			return false;
	return true;
}

/* Copies the pairs of map into out as a new map, then `content` = body. */
static void emit_with_body(struct value_builder *out, value_t map, const char *body,
                           size_t body_len)
{
	struct value_iter it;
	vb_map_begin(out);
	value_iter_init(&it, map);
	while (value_iter_next(&it)) {
		vb_key(out, it.key, it.key_len);
		vb_value(out, it.value);
	}
	vb_keyz(out, "content");
	vb_str(out, body, body_len);
	vb_map_end(out);
}

/* Parses yaml and appends the file's map (with the body, if any) to out. */
static int build_map(const char *yaml, size_t yaml_len, const char *body, size_t body_len,
                     struct value_builder *out, struct yaml_error *err)
{
	struct value_builder scratch = VALUE_BUILDER_INIT;
	int rc = -1;
	if (yaml_parse(yaml, yaml_len, 0, &scratch, err) != 0)
		goto done;
	value_t map = vb_result(&scratch);
	if (value_type(map) == VALUE_NULL ||
	    (value_type(map) == VALUE_ARRAY && value_count(map) == 0)) {
		vb_reset(&scratch);
		vb_map_begin(&scratch);
		vb_map_end(&scratch);
		map = vb_result(&scratch);
	}
	if (value_type(map) != VALUE_MAP) {
		set_error(err, 1, "expected a map at the top level");
		goto done;
	}
	if (body_len == 0) {
		vb_value(out, map);
	} else if (!value_is_missing(value_map_getz(map, "content"))) {
		set_error(err, 1, "a YAML key named content cannot be used while the file has a body");
		goto done;
	} else {
		emit_with_body(out, map, body, body_len);
	}
	rc = 0;
done:
	vb_release(&scratch);
	return rc;
}

int frontmatter_parse(const char *text, size_t len, struct value_builder *out,
                      struct yaml_error *err)
{
	size_t n;
	char *copy = without_crlf(text, len, &n);
	int rc;
	memset(err, 0, sizeof *err);
	if (only_whitespace(copy, n)) {
		vb_map_begin(out);
		vb_map_end(out);
		free(copy);
		return 0;
	}
	const char *body = NULL;
	size_t yaml_len = n, body_len = 0;
	if (strncmp(copy, "---", 3) == 0) {
		/* Statamic splits once on "\n---": the rest of that line and all
		 * that follows is the body, whatever "---" lines it holds. */
		const char *close = strstr(copy + 3, "\n---");
		if (close) {
			yaml_len = (size_t)(close - copy);
			body = close + 4;
			while (*body && isspace((unsigned char)*body))
				body++;
			body_len = n - (size_t)(body - copy);
		}
	}
	rc = build_map(copy, yaml_len, body, body_len, out, err);
	free(copy);
	return rc;
}

int frontmatter_parse_file(const char *path, struct value_builder *out, struct yaml_error *err)
{
	memset(err, 0, sizeof *err);
	FILE *f = fopen(path, "re");
	if (!f) {
		set_error(err, 0, strerror(errno));
		return -1;
	}
	struct stat st;
	if (fstat(fileno(f), &st) != 0 || st.st_size > (off_t)MAX_FILE_SIZE) {
		set_error(err, 0, "file is larger than 16 MiB");
		fclose(f);
		return -1;
	}
	size_t size = (size_t)st.st_size;
	char *text = xmalloc(size + 1);
	size_t got = fread(text, 1, size, f);
	int read_failed = ferror(f);
	fclose(f);
	if (read_failed || got != size) {
		set_error(err, 0, "read error");
		free(text);
		return -1;
	}
	int rc = frontmatter_parse(text, size, out, err);
	free(text);
	return rc;
}
