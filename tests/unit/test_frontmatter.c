/* Unit tests: frontmatter, Statamic's reading of a content file. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "site/frontmatter.h"
#include "unit.h"

/* Parses text into b (emptied first) and returns the map, failing the
 * test when the parse fails. */
static value_t parse_ok(struct value_builder *b, const char *text)
{
	struct yaml_error err;
	vb_reset(b);
	int rc = frontmatter_parse(text, strlen(text), b, &err);
	if (rc != 0)
		fprintf(stderr, "\nunexpected error: %d: %s\n", err.line, err.message);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	value_t v = vb_result(b);
	CU_ASSERT_EQUAL(value_type(v), VALUE_MAP);
	CU_ASSERT_EQUAL(value_size(v), b->buf.len);
	return v;
}

/* Parses text expecting an error, which it returns. */
static struct yaml_error parse_fails(const char *text)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	struct yaml_error err;
	CU_ASSERT_EQUAL(frontmatter_parse(text, strlen(text), &b, &err), -1);
	CU_ASSERT_EQUAL(b.buf.len, 0);
	vb_release(&b);
	return err;
}

static void assert_string(value_t v, const char *expected)
{
	size_t len;
	const char *s = value_str(v, &len);
	CU_ASSERT_EQUAL(value_type(v), VALUE_STRING);
	CU_ASSERT_EQUAL(len, strlen(expected));
	CU_ASSERT_STRING_EQUAL(s, expected);
}

/* Asserts the map's keys, in order. */
static void assert_keys(value_t map, const char *const *keys, size_t n)
{
	struct value_iter it;
	size_t i = 0;
	CU_ASSERT_EQUAL(value_count(map), n);
	value_iter_init(&it, map);
	while (value_iter_next(&it) && i < n) {
		CU_ASSERT_EQUAL(it.key_len, strlen(keys[i]));
		CU_ASSERT_STRING_EQUAL(it.key, keys[i]);
		i++;
	}
	CU_ASSERT_EQUAL(i, n);
}

static void test_split_yaml_and_body(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	value_t v = parse_ok(&b, "---\ntitle: Hello\ncount: 3\n---\nBody text\n");
	assert_string(value_map_getz(v, "title"), "Hello");
	CU_ASSERT_EQUAL(value_int(value_map_getz(v, "count")), 3);
	assert_string(value_map_getz(v, "content"), "Body text\n");
	vb_release(&b);
}

static void test_crlf(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	value_t v = parse_ok(&b, "---\r\ntitle: Hi\r\nlist:\r\n  - a\r\n---\r\nLine 1\r\nLine 2\r\n");
	assert_string(value_map_getz(v, "title"), "Hi");
	assert_string(value_array_get(value_map_getz(v, "list"), 0), "a");
	assert_string(value_map_getz(v, "content"), "Line 1\nLine 2\n");
	/* A lone \r is kept. */
	v = parse_ok(&b, "---\na: 1\n---\nx\ry\r\n");
	assert_string(value_map_getz(v, "content"), "x\ry\n");
	vb_release(&b);
}

static void test_body_left_trimmed(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	value_t v = parse_ok(&b, "---\na: 1\n---\n\n\n  \t  Indented first line\n  second\n");
	assert_string(value_map_getz(v, "content"), "Indented first line\n  second\n");
	/* The rest of the delimiter line belongs to the body. */
	v = parse_ok(&b, "---\na: 1\n--- trailing\nBody");
	assert_string(value_map_getz(v, "content"), "trailing\nBody");
	v = parse_ok(&b, "---\na: 1\n-----\nBody");
	assert_string(value_map_getz(v, "content"), "--\nBody");
	vb_release(&b);
}

static void test_body_with_more_delimiters_kept_whole(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	value_t v = parse_ok(&b, "---\na: 1\n---\nIntro\n---\nb: 2\n---\nEnd\n");
	assert_string(value_map_getz(v, "content"), "Intro\n---\nb: 2\n---\nEnd\n");
	CU_ASSERT_TRUE(value_is_missing(value_map_getz(v, "b")));
	vb_release(&b);
}

static void test_no_leading_delimiter_is_all_yaml(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	value_t v = parse_ok(&b, "title: Plain\ncontent: from yaml\n");
	const char *keys[] = {"title", "content"};
	assert_keys(v, keys, 2);
	assert_string(value_map_getz(v, "content"), "from yaml");
	/* A later "---" is a YAML document marker, not a split. */
	v = parse_ok(&b, "a: 1\n---\nb: 2\n");
	const char *only_a[] = {"a"};
	assert_keys(v, only_a, 1);
	vb_release(&b);
}

static void test_no_closing_delimiter_is_all_yaml(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	value_t v = parse_ok(&b, "---\ntitle: Open\n");
	const char *keys[] = {"title"};
	assert_keys(v, keys, 1);
	vb_release(&b);
}

static void test_content_clash(void)
{
	struct yaml_error err = parse_fails("---\ntitle: x\ncontent: yaml\n---\nBody\n");
	CU_ASSERT_STRING_EQUAL(err.message,
	                       "a YAML key named content cannot be used while the file has a body");
	CU_ASSERT_EQUAL(err.line, 4);
	/* With an empty body the YAML key is fine. */
	struct value_builder b = VALUE_BUILDER_INIT;
	value_t v = parse_ok(&b, "---\ncontent: yaml\n---\n\n  \n");
	assert_string(value_map_getz(v, "content"), "yaml");
	CU_ASSERT_EQUAL(value_count(v), 1);
	vb_release(&b);
}

static void test_non_map_root_rejected(void)
{
	const char *texts[] = {"---\njust text\n---\nBody\n", "hello\n", "- a\n- b\n", "42"};
	for (size_t i = 0; i < sizeof texts / sizeof *texts; i++) {
		struct yaml_error err = parse_fails(texts[i]);
		CU_ASSERT_STRING_EQUAL(err.message, "expected a map at the top level");
		CU_ASSERT_EQUAL(err.line, 1);
	}
}

static void test_empty_file(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	const char *empties[] = {"", "   \n\t\n", "\r\n", "---\n", "---\n---\n", "~\n", "[]\n"};
	for (size_t i = 0; i < sizeof empties / sizeof *empties; i++) {
		value_t v = parse_ok(&b, empties[i]);
		CU_ASSERT_EQUAL(value_count(v), 0);
	}
	vb_release(&b);
}

static void test_front_matter_without_body(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	const char *keys[] = {"title"};
	value_t v = parse_ok(&b, "---\ntitle: Only\n---\n");
	assert_keys(v, keys, 1);
	v = parse_ok(&b, "---\ntitle: Only\n---");
	assert_keys(v, keys, 1);
	vb_release(&b);
}

static void test_content_key_last(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	value_t v = parse_ok(&b, "---\nz: 1\na: [x]\nm: {k: v}\n---\nBody");
	const char *keys[] = {"z", "a", "m", "content"};
	assert_keys(v, keys, 4);
	assert_string(value_map_getz(v, "content"), "Body");
	assert_string(value_map_getz(value_map_getz(v, "m"), "k"), "v");
	/* Empty front matter and a body: content alone. */
	v = parse_ok(&b, "---\n---\nJust a body");
	const char *only[] = {"content"};
	assert_keys(v, only, 1);
	vb_release(&b);
}

static void test_yaml_error_lines_are_file_lines(void)
{
	struct yaml_error err = parse_fails("---\na: 1\nb: c: d\n---\nBody\n");
	CU_ASSERT_EQUAL(err.line, 3);
	err = parse_fails("---\na: 1\nb: 2\na: 3\n---\n");
	CU_ASSERT_STRING_EQUAL(err.message, "duplicate key \"a\"");
	CU_ASSERT_EQUAL(err.line, 4);
}

static void test_output_appended_and_restored(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	struct yaml_error err;
	const char *good = "---\na: 1\n---\nBody";
	const char *bad = "---\ncontent: 1\n---\nBody";
	vb_array_begin(&b);
	CU_ASSERT_EQUAL(frontmatter_parse(good, strlen(good), &b, &err), 0);
	size_t len = b.buf.len;
	CU_ASSERT_EQUAL(frontmatter_parse(bad, strlen(bad), &b, &err), -1);
	CU_ASSERT_EQUAL(b.buf.len, len);
	vb_array_end(&b);
	value_t v = vb_result(&b);
	CU_ASSERT_EQUAL(value_count(v), 1);
	assert_string(value_map_getz(value_array_get(v, 0), "content"), "Body");
	vb_release(&b);
}

static void test_parse_file(void)
{
	char *dir = unit_tempdir();
	char path[4096];
	struct value_builder b = VALUE_BUILDER_INIT;
	struct yaml_error err;
	CU_ASSERT_EQUAL(unit_write_file(dir, "entry.md", "---\r\ntitle: File\r\n---\r\nText\r\n"), 0);
	snprintf(path, sizeof path, "%s/entry.md", dir);
	CU_ASSERT_EQUAL(frontmatter_parse_file(path, &b, &err), 0);
	value_t v = vb_result(&b);
	assert_string(value_map_getz(v, "title"), "File");
	assert_string(value_map_getz(v, "content"), "Text\n");
	vb_release(&b);

	snprintf(path, sizeof path, "%s/missing.md", dir);
	CU_ASSERT_EQUAL(frontmatter_parse_file(path, &b, &err), -1);
	CU_ASSERT_EQUAL(err.line, 0);
	CU_ASSERT_STRING_EQUAL(err.message, strerror(ENOENT));
	CU_ASSERT_EQUAL(b.buf.len, 0);
	unit_rmtree(dir);
	free(dir);
}

static void test_parse_file_too_large(void)
{
	char *dir = unit_tempdir();
	char path[4096];
	struct value_builder b = VALUE_BUILDER_INIT;
	struct yaml_error err;
	snprintf(path, sizeof path, "%s/huge.md", dir);
	int fd = open(path, O_WRONLY | O_CREAT, 0644);
	CU_ASSERT_TRUE(fd >= 0);
	if (fd >= 0) {
		CU_ASSERT_EQUAL(ftruncate(fd, (16 << 20) + 1), 0); /* sparse: no disk used */
		close(fd);
	}
	CU_ASSERT_EQUAL(frontmatter_parse_file(path, &b, &err), -1);
	CU_ASSERT_STRING_EQUAL(err.message, "file is larger than 16 MiB");
	CU_ASSERT_EQUAL(err.line, 0);
	CU_ASSERT_EQUAL(b.buf.len, 0);
	unit_rmtree(dir);
	free(dir);
}

void suite_frontmatter(void)
{
	CU_pSuite s = unit_add_suite("frontmatter");
	unit_add_test(s, "split YAML and body", test_split_yaml_and_body);
	unit_add_test(s, "CRLF", test_crlf);
	unit_add_test(s, "body left-trimmed", test_body_left_trimmed);
	unit_add_test(s, "body with more --- lines kept whole",
	              test_body_with_more_delimiters_kept_whole);
	unit_add_test(s, "no leading --- is all YAML", test_no_leading_delimiter_is_all_yaml);
	unit_add_test(s, "no closing --- is all YAML", test_no_closing_delimiter_is_all_yaml);
	unit_add_test(s, "content clash", test_content_clash);
	unit_add_test(s, "non-map root rejected", test_non_map_root_rejected);
	unit_add_test(s, "empty file", test_empty_file);
	unit_add_test(s, "front matter without body", test_front_matter_without_body);
	unit_add_test(s, "content key last", test_content_key_last);
	unit_add_test(s, "YAML error lines are file lines", test_yaml_error_lines_are_file_lines);
	unit_add_test(s, "output appended and restored", test_output_appended_and_restored);
	unit_add_test(s, "parse a file", test_parse_file);
	unit_add_test(s, "file too large", test_parse_file_too_large);
}
