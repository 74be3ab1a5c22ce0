/* Unit tests: frontmatter, Statamic's split of YAML and body. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "site/frontmatter.h"
#include "unit.h"

static struct value_builder b;
static struct yaml_error err;

static int parse(const char *text)
{
	vb_release(&b);
	return frontmatter_parse(text, strlen(text), &b, &err);
}

static const char *str(const char *key)
{
	return value_str(value_map_getz(vb_result(&b), key), NULL);
}

static void test_split_and_body(void)
{
	CU_ASSERT_EQUAL_FATAL(parse("---\nid: x\ntitle: Hello\n---\n\n  Body *text*\n"), 0);
	CU_ASSERT_STRING_EQUAL(str("title"), "Hello");
	CU_ASSERT_STRING_EQUAL(str("content"), "Body *text*\n");
	/* content comes last */
	struct value_iter it;
	value_iter_init(&it, vb_result(&b));
	const char *last = NULL;
	while (value_iter_next(&it))
		last = it.key;
	CU_ASSERT_STRING_EQUAL(last, "content");
}

static void test_crlf(void)
{
	CU_ASSERT_EQUAL_FATAL(parse("---\r\ntitle: Win\r\n---\r\nLine one\r\nLine two\r\n"), 0);
	CU_ASSERT_STRING_EQUAL(str("title"), "Win");
	CU_ASSERT_STRING_EQUAL(str("content"), "Line one\nLine two\n");
}

static void test_body_keeps_later_delimiters(void)
{
	CU_ASSERT_EQUAL_FATAL(parse("---\ntitle: T\n---\nabove\n---\nbelow\n"), 0);
	CU_ASSERT_STRING_EQUAL(str("content"), "above\n---\nbelow\n");
}

static void test_no_front_matter_is_all_yaml(void)
{
	CU_ASSERT_EQUAL_FATAL(parse("title: Plain\ncount: 3\n"), 0);
	CU_ASSERT_STRING_EQUAL(str("title"), "Plain");
	CU_ASSERT_TRUE(value_is_missing(value_map_getz(vb_result(&b), "content")));
}

static void test_front_matter_without_body(void)
{
	CU_ASSERT_EQUAL_FATAL(parse("---\ntitle: Only\n---\n\n\n"), 0);
	CU_ASSERT_EQUAL(value_count(vb_result(&b)), 1);
	CU_ASSERT_EQUAL_FATAL(parse("---\ncontent: kept\n---\n"), 0);
	CU_ASSERT_STRING_EQUAL(str("content"), "kept");
}

static void test_content_clash(void)
{
	CU_ASSERT_EQUAL(parse("---\ncontent: x\n---\nbody\n"), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "content"));
	CU_ASSERT_EQUAL(b.buf.len, 0);
}

static void test_scalar_root_rejected(void)
{
	CU_ASSERT_EQUAL(parse("just a string\n"), -1);
	CU_ASSERT_STRING_EQUAL(err.message, "expected a map at the top level");
	CU_ASSERT_EQUAL(parse("- a\n- b\n"), -1);
}

static void test_empty_files(void)
{
	CU_ASSERT_EQUAL_FATAL(parse(""), 0);
	CU_ASSERT_EQUAL(value_type(vb_result(&b)), VALUE_MAP);
	CU_ASSERT_EQUAL_FATAL(parse("  \n\n"), 0);
	CU_ASSERT_EQUAL(value_count(vb_result(&b)), 0);
	CU_ASSERT_EQUAL_FATAL(parse("---\n---\nBody\n"), 0);
	CU_ASSERT_STRING_EQUAL(str("content"), "Body\n");
}

static void test_error_lines_are_file_lines(void)
{
	CU_ASSERT_EQUAL(parse("---\nid: 1\ntitle: 'open\n---\nbody\n"), -1);
	CU_ASSERT_TRUE(err.line >= 3);
}

static void test_files(void)
{
	char *dir = unit_tempdir();
	CU_ASSERT_EQUAL_FATAL(unit_write_file(dir, "a.md", "---\ntitle: File\n---\nHi\n"), 0);
	char path[512];
	snprintf(path, sizeof path, "%s/a.md", dir);
	vb_release(&b);
	CU_ASSERT_EQUAL(frontmatter_parse_file(path, &b, &err), 0);
	CU_ASSERT_STRING_EQUAL(str("content"), "Hi\n");
	snprintf(path, sizeof path, "%s/missing.md", dir);
	vb_release(&b);
	CU_ASSERT_EQUAL(frontmatter_parse_file(path, &b, &err), -1);
	CU_ASSERT_STRING_EQUAL(err.message, "No such file or directory");
	CU_ASSERT_EQUAL(err.line, 0);
	vb_release(&b);
	unit_rmtree(dir);
	free(dir);
}

void suite_frontmatter(void)
{
	CU_pSuite s = unit_add_suite("frontmatter");
	unit_add_test(s, "split and body", test_split_and_body);
	unit_add_test(s, "CRLF", test_crlf);
	unit_add_test(s, "later --- lines stay in the body", test_body_keeps_later_delimiters);
	unit_add_test(s, "no front matter: all YAML", test_no_front_matter_is_all_yaml);
	unit_add_test(s, "front matter without body", test_front_matter_without_body);
	unit_add_test(s, "content clash", test_content_clash);
	unit_add_test(s, "scalar root rejected", test_scalar_root_rejected);
	unit_add_test(s, "empty files", test_empty_files);
	unit_add_test(s, "error lines are file lines", test_error_lines_are_file_lines);
	unit_add_test(s, "files", test_files);
}
