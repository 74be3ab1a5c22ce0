/* Unit tests: markdown, Statamic's markdown fieldtype through cmark-gfm. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "site/markdown.h"
#include "unit.h"

static void assert_html(const char *md, bool line_breaks, const char *want)
{
	struct strbuf out = STRBUF_INIT;
	CU_ASSERT_EQUAL(markdown_to_html(md, strlen(md), line_breaks, &out), 0);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&out), want);
	if (strcmp(strbuf_str(&out), want) != 0)
		fprintf(stderr, "\nmarkdown %s\n got: %s\nwant: %s\n", md, strbuf_str(&out), want);
	strbuf_release(&out);
}

static void test_paragraph(void)
{
	assert_html("Hi", true, "<p>Hi</p>\n");
	assert_html("Hi\n\nthere", false, "<p>Hi</p>\n<p>there</p>\n");
}

static void test_empty(void)
{
	assert_html("", true, "");
	assert_html("\n\n", false, "");
	struct strbuf out = STRBUF_INIT;
	CU_ASSERT_EQUAL(markdown_to_html(NULL, 0, true, &out), 0);
	CU_ASSERT_EQUAL(out.len, 0);
	strbuf_release(&out);
}

static void test_soft_break_line_breaks(void)
{
	assert_html("one\ntwo", true, "<p>one<br />\ntwo</p>\n");
}

static void test_soft_break_plain(void)
{
	assert_html("one\ntwo", false, "<p>one\ntwo</p>\n");
	/* A hard break is one either way. */
	assert_html("one  \ntwo", false, "<p>one<br />\ntwo</p>\n");
}

static void test_emphasis(void)
{
	assert_html("**bold** and *em*", true, "<p><strong>bold</strong> and <em>em</em></p>\n");
}

static void test_link(void)
{
	assert_html("[docs](https://example.com/a \"Docs\")", true,
	            "<p><a href=\"https://example.com/a\" title=\"Docs\">docs</a></p>\n");
}

static void test_list(void)
{
	assert_html("- a\n- b", true, "<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n");
	assert_html("1. a\n2. b", true, "<ol>\n<li>a</li>\n<li>b</li>\n</ol>\n");
}

static void test_table(void)
{
	assert_html("| a | b |\n|---|--:|\n| 1 | 2 |", true,
	            "<table>\n<thead>\n<tr>\n<th>a</th>\n<th align=\"right\">b</th>\n</tr>\n</thead>\n"
	            "<tbody>\n<tr>\n<td>1</td>\n<td align=\"right\">2</td>\n</tr>\n</tbody>\n</table>\n");
}

static void test_strikethrough(void)
{
	assert_html("~~gone~~", true, "<p><del>gone</del></p>\n");
}

static void test_task_list(void)
{
	assert_html("- [x] done\n- [ ] todo", true,
	            "<ul>\n<li><input type=\"checkbox\" checked=\"\" disabled=\"\" /> done</li>\n"
	            "<li><input type=\"checkbox\" disabled=\"\" /> todo</li>\n</ul>\n");
}

static void test_autolink(void)
{
	assert_html("see https://example.com now", true,
	            "<p>see <a href=\"https://example.com\">https://example.com</a> now</p>\n");
	assert_html("www.example.com", true,
	            "<p><a href=\"http://www.example.com\">www.example.com</a></p>\n");
}

static void test_raw_html(void)
{
	assert_html("<div class=\"note\">raw</div>", true, "<div class=\"note\">raw</div>\n");
	assert_html("a <span>b</span>", true, "<p>a <span>b</span></p>\n");
	/* tagfilter is not attached: GitHub-only tags pass through. */
	assert_html("<title>t</title>", true, "<title>t</title>\n");
}

static void test_fenced_code(void)
{
	assert_html("```js\nx = 1;\n```", true,
	            "<pre><code class=\"language-js\">x = 1;\n</code></pre>\n");
	assert_html("```\na\nb\n```", true, "<pre><code>a\nb\n</code></pre>\n");
}

static void test_appends(void)
{
	struct strbuf out = STRBUF_INIT;
	strbuf_addstr(&out, "x");
	CU_ASSERT_EQUAL(markdown_to_html(STR_LEN("Hi"), true, &out), 0);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&out), "x<p>Hi</p>\n");
	strbuf_release(&out);
}

static void test_init_repeatable(void)
{
	markdown_init();
	markdown_init();
	assert_html("~~s~~", true, "<p><del>s</del></p>\n");
}

static void test_size_cap(void)
{
	size_t n = MARKDOWN_MAX_INPUT + 1;
	char *big = malloc(n);
	CU_ASSERT_PTR_NOT_NULL_FATAL(big);
	memset(big, 'a', n);
	struct strbuf out = STRBUF_INIT;
	strbuf_addstr(&out, "x");
	CU_ASSERT_EQUAL(markdown_to_html(big, n, true, &out), -1);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&out), "x");
	strbuf_reset(&out);
	/* Exactly at the cap is still accepted. */
	CU_ASSERT_EQUAL(markdown_to_html(big, n - 1, true, &out), 0);
	CU_ASSERT_EQUAL(out.len, strlen("<p></p>\n") + n - 1);
	strbuf_release(&out);
	free(big);
}

void suite_markdown(void)
{
	CU_pSuite s = unit_add_suite("markdown");
	unit_add_test(s, "paragraph", test_paragraph);
	unit_add_test(s, "empty input", test_empty);
	unit_add_test(s, "soft break with line_breaks", test_soft_break_line_breaks);
	unit_add_test(s, "soft break without line_breaks", test_soft_break_plain);
	unit_add_test(s, "emphasis", test_emphasis);
	unit_add_test(s, "link", test_link);
	unit_add_test(s, "list", test_list);
	unit_add_test(s, "table", test_table);
	unit_add_test(s, "strikethrough", test_strikethrough);
	unit_add_test(s, "task list", test_task_list);
	unit_add_test(s, "autolink", test_autolink);
	unit_add_test(s, "raw HTML kept", test_raw_html);
	unit_add_test(s, "fenced code", test_fenced_code);
	unit_add_test(s, "appends to out", test_appends);
	unit_add_test(s, "init repeatable", test_init_repeatable);
	unit_add_test(s, "size cap", test_size_cap);
}
