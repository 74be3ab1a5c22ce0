/* Unit tests: markdown, Statamic's markdown fieldtype through cmark-gfm. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
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

static void test_inline(void)
{
	assert_html("Hi", true, "<p>Hi</p>\n");
	assert_html("", true, "");
	assert_html("**bold** and *em*", true, "<p><strong>bold</strong> and <em>em</em></p>\n");
	assert_html("[docs](https://example.com/a)", true,
	            "<p><a href=\"https://example.com/a\">docs</a></p>\n");
	assert_html("~~gone~~", true, "<p><del>gone</del></p>\n");
	assert_html("see https://example.com now", true,
	            "<p>see <a href=\"https://example.com\">https://example.com</a> now</p>\n");
}

static void test_soft_breaks(void)
{
	assert_html("one\ntwo", true, "<p>one<br />\ntwo</p>\n");
	assert_html("one\ntwo", false, "<p>one\ntwo</p>\n");
}

static void test_blocks(void)
{
	assert_html("- a\n- b", true, "<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n");
	assert_html("- [x] done\n- [ ] todo", true,
	            "<ul>\n<li><input type=\"checkbox\" checked=\"\" disabled=\"\" /> done</li>\n"
	            "<li><input type=\"checkbox\" disabled=\"\" /> todo</li>\n</ul>\n");
	assert_html("| a | b |\n|---|---|\n| 1 | 2 |", true,
	            "<table>\n<thead>\n<tr>\n<th>a</th>\n<th>b</th>\n</tr>\n</thead>\n<tbody>\n"
	            "<tr>\n<td>1</td>\n<td>2</td>\n</tr>\n</tbody>\n</table>\n");
	assert_html("```js\nx = 1;\n```", true,
	            "<pre><code class=\"language-js\">x = 1;\n</code></pre>\n");
	assert_html("<div class=\"note\">raw</div>", true, "<div class=\"note\">raw</div>\n");
}

static void test_oversized_input(void)
{
	size_t n = MARKDOWN_MAX_INPUT + 1;
	char *big = malloc(n);
	memset(big, 'a', n);
	struct strbuf out = STRBUF_INIT;
	CU_ASSERT_EQUAL(markdown_to_html(big, n, true, &out), -1);
	CU_ASSERT_EQUAL(out.len, 0);
	strbuf_release(&out);
	free(big);
}

void suite_markdown(void)
{
	CU_pSuite s = unit_add_suite("markdown");
	unit_add_test(s, "inline", test_inline);
	unit_add_test(s, "soft breaks", test_soft_breaks);
	unit_add_test(s, "blocks", test_blocks);
	unit_add_test(s, "oversized input", test_oversized_input);
}
