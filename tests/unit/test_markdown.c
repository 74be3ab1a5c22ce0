/* Unit tests: markdown, Statamic's markdown fieldtype (league/commonmark's
 * HTML, cmark-gfm's parse). The expected HTML of the cases below is what
 * league/commonmark 2.8.0, set up as Statamic 6.1 sets it up (Table,
 * Attributes, Strikethrough, DescriptionList, Footnote and TaskList
 * extensions; a soft break as "<br />\n"), gave for the same input. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "site/markdown.h"
#include "unit.h"

static const struct markdown_options breaks = {.line_breaks = true};
static const struct markdown_options plain = {.line_breaks = false};

static void assert_with(const char *md, const struct markdown_options *opt, const char *want)
{
	struct strbuf out = STRBUF_INIT;
	CU_ASSERT_EQUAL(markdown_to_html(md, strlen(md), opt, &out), 0);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&out), want);
	if (strcmp(strbuf_str(&out), want) != 0)
		fprintf(stderr, "\nmarkdown %s\n got: %s\nwant: %s\n", md, strbuf_str(&out), want);
	strbuf_release(&out);
}

static void assert_html(const char *md, bool line_breaks, const char *want)
{
	assert_with(md, line_breaks ? &breaks : &plain, want);
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
	CU_ASSERT_EQUAL(markdown_to_html(NULL, 0, &breaks, &out), 0);
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

/* league's box: attributes in its order, no "/", inside the item's text. */
static void test_task_list(void)
{
	assert_html("- [x] done\n- [ ] todo", true,
	            "<ul>\n<li><input checked=\"\" disabled=\"\" type=\"checkbox\"> done</li>\n"
	            "<li><input disabled=\"\" type=\"checkbox\"> todo</li>\n</ul>\n");
}

/* Bare URLs are links only when the field asks (automatic_links). */
static void test_autolink(void)
{
	static const struct markdown_options links = {.line_breaks = true, .auto_links = true};
	assert_with("see https://example.com now", &links,
	            "<p>see <a href=\"https://example.com\">https://example.com</a> now</p>\n");
	assert_with("www.example.com", &links,
	            "<p><a href=\"http://www.example.com\">www.example.com</a></p>\n");
	assert_html("see https://example.com now", true, "<p>see https://example.com now</p>\n");
	assert_html("write to a@b.example", true, "<p>write to a@b.example</p>\n");
}

static void test_raw_html(void)
{
	assert_html("<div class=\"note\">raw</div>", true, "<div class=\"note\">raw</div>\n");
	assert_html("a <span>b</span>", true, "<p>a <span>b</span></p>\n");
	/* tagfilter is not attached: GitHub-only tags pass through. */
	assert_html("<title>t</title>", true, "<title>t</title>\n");
}

static void test_escape_markup(void)
{
	static const struct markdown_options escape = {.line_breaks = true, .escape_markup = true};
	assert_with("a <span class=\"x\">b</span> & <B>c</B>\n\n<div>\"d\"</div>", &escape,
	            "<p>a &lt;span class=\"x\"&gt;b&lt;/span&gt; &amp; &lt;B&gt;c&lt;/B&gt;</p>\n"
	            "&lt;div&gt;\"d\"&lt;/div&gt;\n");
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
	CU_ASSERT_EQUAL(markdown_to_html(STR_LEN("Hi"), &breaks, &out), 0);
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
	CU_ASSERT_EQUAL(markdown_to_html(big, n, &breaks, &out), -1);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&out), "x");
	strbuf_reset(&out);
	/* Exactly at the cap is still accepted. */
	CU_ASSERT_EQUAL(markdown_to_html(big, n - 1, &breaks, &out), 0);
	CU_ASSERT_EQUAL(out.len, strlen("<p></p>\n") + n - 1);
	strbuf_release(&out);
	free(big);
}

/* --- league's HTML, case by case --- */

static const struct {
	const char *name, *md, *html;
} league_cases[] = {
	{"heading: id and classes",
	 "# Heading {#top .a .b}\n",
	 "<h1 class=\"a b\" id=\"top\">Heading</h1>\n"},
	{"heading: a class after the text",
	 "## Title {.js-toc-ignore}\n"
	   "\n"
	   "text",
	 "<h2 class=\"js-toc-ignore\">Title</h2>\n"
	   "<p>text</p>\n"},
	{"paragraph: a class after the text",
	 "Para {.x}\n",
	 "<p class=\"x\">Para</p>\n"},
	{"paragraph: a line of attributes after it",
	 "Para\n"
	   "{.x}\n",
	 "<p class=\"x\">Para</p>\n"},
	{"line of attributes, then a blank line",
	 "Para\n"
	   "{.x}\n"
	   "\n"
	   "Next",
	 "<p class=\"x\">Para</p>\n"
	   "<p>Next</p>\n"},
	{"line of attributes before a paragraph",
	 "{.x}\n"
	   "Para",
	 "<p class=\"x\">Para</p>\n"},
	{"line of attributes, blank line, paragraph (the container's)",
	 "{.x}\n"
	   "\n"
	   "Para",
	 "<p>Para</p>\n"},
	{"line of attributes between blank lines",
	 "Para\n"
	   "\n"
	   "{.x}\n"
	   "\n"
	   "Next",
	 "<p>Para</p>\n"
	   "<p>Next</p>\n"},
	{"line of attributes in the middle splits the paragraph",
	 "Line one\n"
	   "{.mid}\n"
	   "Line two\n",
	 "<p>Line one</p>\n"
	   "<p class=\"mid\">Line two</p>\n"},
	{"line of attributes after a heading",
	 "# H\n"
	   "{.x}\n",
	 "<h1 class=\"x\">H</h1>\n"},
	{"heading, blank line, attributes (lost to the document)",
	 "# H\n"
	   "\n"
	   "{.x}\n",
	 "<h1>H</h1>\n"},
	{"line of attributes before a heading",
	 "{.x}\n"
	   "# H\n",
	 "<h1 class=\"x\">H</h1>\n"},
	{"tight list: the item takes them",
	 "- a {.x}\n"
	   "- b\n",
	 "<ul>\n"
	   "<li class=\"x\">a</li>\n"
	   "<li>b</li>\n"
	   "</ul>\n"},
	{"loose list: line of attributes in the item",
	 "- a\n"
	   "\n"
	   "  {.x}\n"
	   "\n"
	   "- b\n",
	 "<ul>\n"
	   "<li class=\"x\">\n"
	   "<p>a</p>\n"
	   "</li>\n"
	   "<li>\n"
	   "<p>b</p>\n"
	   "</li>\n"
	   "</ul>\n"},
	{"tight list: id on an item",
	 "* one\n"
	   "* two {#two}\n",
	 "<ul>\n"
	   "<li>one</li>\n"
	   "<li id=\"two\">two</li>\n"
	   "</ul>\n"},
	{"image",
	 "![alt](/img.png){.expandable-image}\n",
	 "<p><img class=\"expandable-image\" src=\"/img.png\" alt=\"alt\" /></p>\n"},
	{"image with a title and several attributes",
	 "![alt](/img.png \"Title\"){.a #b data-x=y}\n",
	 "<p><img class=\"a\" id=\"b\" data-x=\"y\" src=\"/img.png\" alt=\"alt\" title=\"Title\" /></p>\n"},
	{"link: {:target} adds rel",
	 "[link](https://x.y){:target=\"_blank\"}\n",
	 "<p><a target=\"_blank\" href=\"https://x.y\" rel=\"noopener noreferrer\">link</a></p>\n"},
	{"link: target and rel given",
	 "[link](https://x.y){:target=\"_blank\" rel=\"noopener noreferrer\"}\n",
	 "<p><a target=\"_blank\" rel=\"noopener noreferrer\" href=\"https://x.y\">link</a></p>\n"},
	{"link: bare values",
	 "[link](https://x.y){target=_blank rel=me}\n",
	 "<p><a target=\"_blank\" rel=\"me\" href=\"https://x.y\">link</a></p>\n"},
	{"emphasis, strong and code spans",
	 "*em*{.e} and **strong**{.s} and `code`{.c}\n",
	 "<p><em class=\"e\">em</em> and <strong class=\"s\">strong</strong> and <code class=\"c\">code</code></p>\n"},
	{"right after a word: to the text (dropped)",
	 "word{.x} and more\n",
	 "<p>word and more</p>\n"},
	{"at the start: to the block",
	 "{.lead} First words\n",
	 "<p class=\"lead\">First words</p>\n"},
	{"table cells",
	 "| a | b |\n"
	   "|---|---|\n"
	   "| c <br/> {.t} | d |\n"
	   "| {.only} | e |\n",
	 "<table>\n"
	   "<thead>\n"
	   "<tr>\n"
	   "<th>a</th>\n"
	   "<th>b</th>\n"
	   "</tr>\n"
	   "</thead>\n"
	   "<tbody>\n"
	   "<tr>\n"
	   "<td class=\"t\">c <br/></td>\n"
	   "<td>d</td>\n"
	   "</tr>\n"
	   "<tr>\n"
	   "<td class=\"only\"></td>\n"
	   "<td>e</td>\n"
	   "</tr>\n"
	   "</tbody>\n"
	   "</table>\n"},
	{"event handlers are dropped",
	 "text {onclick=alert(1) .ok}\n",
	 "<p class=\"ok\">text</p>\n"},
	{"quoted values, a boolean",
	 "text {class=\"a b\" title='T' data-n=5 hidden=true}\n",
	 "<p class=\"a b\" title=\"T\" data-n=\"5\" hidden>text</p>\n"},
	{"fenced code: the info's braces are not attributes",
	 "```js {.x}\n"
	   "code\n"
	   "```\n",
	 "<pre><code class=\"language-js\">code\n"
	   "</code></pre>\n"},
	{"fenced code: a line of attributes before it",
	 "{.y}\n"
	   "```js\n"
	   "c\n"
	   "```\n",
	 "<pre><code class=\"y language-js\">c\n"
	   "</code></pre>\n"},
	{"fenced code: language- kept",
	 "```language-php\n"
	   "x\n"
	   "```\n",
	 "<pre><code class=\"language-php\">x\n"
	   "</code></pre>\n"},
	{"block quote",
	 "> quote {#q}\n"
	   "> line ![i](u){.img}\n",
	 "<blockquote>\n"
	   "<p id=\"q\">quote<br />\n"
	   "line <img class=\"img\" src=\"u\" alt=\"i\" /></p>\n"
	   "</blockquote>\n"},
	{"Antlers and other braces stay text",
	 "{{ partial:card }} and {{ var }}\n",
	 "<p>{{ partial:card }} and {{ var }}</p>\n"},
	{"not attribute lists",
	 "Some {not attrs} here and {.} and {#} and {.-a} {._b}\n",
	 "<p class=\"-a _b\">Some {not attrs} here and {.} and {#} and</p>\n"},
	{"two lists in a row",
	 "a {.x}{.y}\n",
	 "<p class=\"x\">a</p>\n"},
	{"two lists after a word",
	 "a{.x}{.y} b\n",
	 "<p>a b</p>\n"},
	{"image, then a line",
	 "![a](u){.x}\n"
	   "next line\n",
	 "<p><img class=\"x\" src=\"u\" alt=\"a\" /><br />\n"
	   "next line</p>\n"},
	{"inline HTML: upper case is text",
	 "Text with <BRAND> and <Foo> and <span class=\"x\">ok</span> and <a HREF=\"y\">z</a> and <!-- c -->\n",
	 "<p>Text with &lt;BRAND&gt; and &lt;Foo&gt; and <span class=\"x\">ok</span> and &lt;a HREF=&quot;y&quot;&gt;z</a> and <!-- c --></p>\n"},
	{"no autolinks by default",
	 "Bare https://example.com/x and user@example.com stay text\n",
	 "<p>Bare https://example.com/x and user@example.com stay text</p>\n"},
	{"autolinks in angle brackets",
	 "<https://auto.link/x> and <me@here.com>\n",
	 "<p><a href=\"https://auto.link/x\">https://auto.link/x</a> and <a href=\"mailto:me@here.com\">me@here.com</a></p>\n"},
	{"URLs encoded as league encodes them",
	 "[q](https://en.wikipedia.org/wiki/Simpson's_paradox) [b](https://x.y/{ID}?a=1&b=\"2\") [u](/\xc3""\xa9"" \xc3""\xbc"") [p](/a%20b%zz)\n",
	 "<p><a href=\"https://en.wikipedia.org/wiki/Simpson's_paradox\">q</a> <a href=\"https://x.y/%7BID%7D?a=1&amp;b=%222%22\">b</a> [u](/\xc3""\xa9"" \xc3""\xbc"") <a href=\"/a%20b%25zz\">p</a></p>\n"},
	{"task list",
	 "- [x] done\n"
	   "- [ ] todo\n",
	 "<ul>\n"
	   "<li><input checked=\"\" disabled=\"\" type=\"checkbox\"> done</li>\n"
	   "<li><input disabled=\"\" type=\"checkbox\"> todo</li>\n"
	   "</ul>\n"},
	{"task list: loose, blanks kept",
	 "1. [x]  loose\n"
	   "\n"
	   "   para\n",
	 "<ol>\n"
	   "<li>\n"
	   "<p><input checked=\"\" disabled=\"\" type=\"checkbox\">  loose</p>\n"
	   "<p>para</p>\n"
	   "</li>\n"
	   "</ol>\n"},
	{"footnotes",
	 "A[^b] B[^a] C[^b] D[^zz]\n"
	   "\n"
	   "[^a]: note a\n"
	   "[^unused]: x\n"
	   "[^b]: note b\n"
	   "\n"
	   "    more b\n",
	 "<p>A<sup id=\"fnref:b\"><a class=\"footnote-ref\" href=\"#fn:b\" role=\"doc-noteref\">1</a></sup> B<sup id=\"fnref:a\"><a class=\"footnote-ref\" href=\"#fn:a\" role=\"doc-noteref\">2</a></sup> C<sup id=\"fnref:b__2\"><a class=\"footnote-ref\" href=\"#fn:b\" role=\"doc-noteref\">1</a></sup> D[^zz]</p>\n"
	   "<div class=\"footnotes\" role=\"doc-endnotes\"><hr /><ol><li class=\"footnote\" id=\"fn:b\" role=\"doc-endnote\"><p>note b</p>\n"
	   "<p>more b&nbsp;<a class=\"footnote-backref\" rev=\"footnote\" href=\"#fnref:b\" role=\"doc-backlink\">\xe2""\x86""\xa9""</a>&nbsp;<a class=\"footnote-backref\" rev=\"footnote\" href=\"#fnref:b__2\" role=\"doc-backlink\">\xe2""\x86""\xa9""</a></p></li>\n"
	   "<li class=\"footnote\" id=\"fn:a\" role=\"doc-endnote\"><p>note a&nbsp;<a class=\"footnote-backref\" rev=\"footnote\" href=\"#fnref:a\" role=\"doc-backlink\">\xe2""\x86""\xa9""</a></p></li></ol></div>\n"},
	{"strikethrough",
	 "~~gone~~ and ~one~\n",
	 "<p><del>gone</del> and <del>one</del></p>\n"},
	{"soft and hard breaks",
	 "one\n"
	   "two  \n"
	   "three\\\n"
	   "four\n",
	 "<p>one<br />\n"
	   "two<br />\n"
	   "three<br />\n"
	   "four</p>\n"},
	{"loose list",
	 "* a\n"
	   "\n"
	   "* b\n",
	 "<ul>\n"
	   "<li>\n"
	   "<p>a</p>\n"
	   "</li>\n"
	   "<li>\n"
	   "<p>b</p>\n"
	   "</li>\n"
	   "</ul>\n"},
	{"code in a list item: blank lines empty",
	 "- a\n"
	   "  ```\n"
	   "  x\n"
	   "      \n"
	   "  y\n"
	   "  ```\n",
	 "<ul>\n"
	   "<li>a\n"
	   "<pre><code>x\n"
	   "\n"
	   "y\n"
	   "</code></pre>\n"
	   "</li>\n"
	   "</ul>\n"},
	{"table alignment",
	 "| a | b |\n"
	   "|:--|--:|\n"
	   "| 1 | 2 |\n",
	 "<table>\n"
	   "<thead>\n"
	   "<tr>\n"
	   "<th align=\"left\">a</th>\n"
	   "<th align=\"right\">b</th>\n"
	   "</tr>\n"
	   "</thead>\n"
	   "<tbody>\n"
	   "<tr>\n"
	   "<td align=\"left\">1</td>\n"
	   "<td align=\"right\">2</td>\n"
	   "</tr>\n"
	   "</tbody>\n"
	   "</table>\n"},
	{"table: a lone pipe is an empty row",
	 "| a |\n"
	   "| --- |\n"
	   "| |\n"
	   "lazy line\n"
	   "|x\n",
	 "<table>\n"
	   "<thead>\n"
	   "<tr>\n"
	   "<th>a</th>\n"
	   "</tr>\n"
	   "</thead>\n"
	   "<tbody>\n"
	   "<tr>\n"
	   "<td></td>\n"
	   "</tr>\n"
	   "<tr>\n"
	   "<td>lazy line</td>\n"
	   "</tr>\n"
	   "<tr>\n"
	   "<td>x</td>\n"
	   "</tr>\n"
	   "</tbody>\n"
	   "</table>\n"},
	{"table: an indented row is a row",
	 "| a | b |\n"
	   "|---|---|\n"
	   "| 1 | 2 |\n"
	   "              |\n"
	   "| 3 | 4 |\n",
	 "<table>\n"
	   "<thead>\n"
	   "<tr>\n"
	   "<th>a</th>\n"
	   "<th>b</th>\n"
	   "</tr>\n"
	   "</thead>\n"
	   "<tbody>\n"
	   "<tr>\n"
	   "<td>1</td>\n"
	   "<td>2</td>\n"
	   "</tr>\n"
	   "<tr>\n"
	   "<td></td>\n"
	   "<td></td>\n"
	   "</tr>\n"
	   "<tr>\n"
	   "<td>3</td>\n"
	   "<td>4</td>\n"
	   "</tr>\n"
	   "</tbody>\n"
	   "</table>\n"},
	{"HTML block",
	 "<div>\n"
	   "block\n"
	   "</div>\n"
	   "\n"
	   "after\n",
	 "<div>\n"
	   "block\n"
	   "</div>\n"
	   "<p>after</p>\n"},
	{"thematic breaks",
	 "---\n"
	   "\n"
	   "***\n",
	 "<hr />\n"
	   "<hr />\n"},
	{"setext headings",
	 "Setext\n"
	   "======\n"
	   "\n"
	   "sub\n"
	   "---\n",
	 "<h1>Setext</h1>\n"
	   "<h2>sub</h2>\n"},
	{"indented code",
	 "  indented\n"
	   "\n"
	   "      code block\n",
	 "<p>indented</p>\n"
	   "<pre><code>  code block\n"
	   "</code></pre>\n"},
	{"entities and quotes",
	 "&copy; &amp; &#123; &lt;x&gt; \"q\" 'a'\n",
	 "<p>\xc2""\xa9"" &amp; { &lt;x&gt; &quot;q&quot; 'a'</p>\n"},
	{"reference links",
	 "[ref][r]\n"
	   "\n"
	   "[r]: /url \"T\"\n",
	 "<p><a href=\"/url\" title=\"T\">ref</a></p>\n"},
	{"code span over a lazy line",
	 "* `United\n"
	   " States`\n",
	 "<ul>\n"
	   "<li><code>United States</code></li>\n"
	   "</ul>\n"},
	{"code span over a line",
	 "para `a\n"
	   "   b` end\n",
	 "<p>para <code>a b</code> end</p>\n"},
	{"image alt text",
	 "![a *b* `c`\n"
	   "d](/x.png)\n",
	 "<p><img src=\"/x.png\" alt=\"a b c\n"
	   "d\" /></p>\n"},
	{"block quote: attributes after a list and a blank line",
	 "> - a\n"
	   ">\n"
	   "> {.x}\n",
	 "<blockquote>\n"
	   "<ul class=\"x\">\n"
	   "<li>a</li>\n"
	   "</ul>\n"
	   "</blockquote>\n"},
	{"ordered list start",
	 "3. three\n"
	   "4. four\n",
	 "<ol start=\"3\">\n"
	   "<li>three</li>\n"
	   "<li>four</li>\n"
	   "</ol>\n"},
	{"ordered list from zero",
	 "0. zero\n",
	 "<ol start=\"0\">\n"
	   "<li>zero</li>\n"
	   "</ol>\n"},
	{"a list right after a block-like one goes to the trimmed text (lost)",
	 "a **s**{.k} {.c}{.j}\n",
	 "<p class=\"c\">a <strong class=\"k\">s</strong></p>\n"},
	{"an id, then a list: both placed as league places them",
	 "[l](/u) {#id}{.k} x\n",
	 "<p id=\"id\"><a href=\"/u\">l</a> x</p>\n"},
	{"footnote references counted in the source's order",
	 "[^1]: note it's [^1]\n"
	   "\n"
	   "[^1] x\n",
	 "<p><sup id=\"fnref:1__2\"><a class=\"footnote-ref\" href=\"#fn:1\" role=\"doc-noteref\">1</a></sup> x</p>\n"
	   "<div class=\"footnotes\" role=\"doc-endnotes\"><hr /><ol><li class=\"footnote\" id=\"fn:1\" role=\"doc-endnote\"><p>note it's <sup id=\"fnref:1\"><a class=\"footnote-ref\" href=\"#fn:1\" role=\"doc-noteref\">1</a></sup>&nbsp;<a class=\"footnote-backref\" rev=\"footnote\" href=\"#fnref:1\" role=\"doc-backlink\">\xe2""\x86""\xa9""</a>&nbsp;<a class=\"footnote-backref\" rev=\"footnote\" href=\"#fnref:1__2\" role=\"doc-backlink\">\xe2""\x86""\xa9""</a></p></li></ol></div>\n"},
};

static void test_league_cases(void)
{
	for (size_t i = 0; i < sizeof league_cases / sizeof league_cases[0]; i++) {
		struct strbuf out = STRBUF_INIT;
		const char *md = league_cases[i].md;
		CU_ASSERT_EQUAL(markdown_to_html(md, strlen(md), &breaks, &out), 0);
		CU_ASSERT_STRING_EQUAL(strbuf_str(&out), league_cases[i].html);
		if (strcmp(strbuf_str(&out), league_cases[i].html) != 0)
			fprintf(stderr, "\nmarkdown case \"%s\"\n got: %s\nwant: %s\n", league_cases[i].name,
			        strbuf_str(&out), league_cases[i].html);
		strbuf_release(&out);
	}
}

/* A footnote whose only reference sits in a definition nothing refers
 * to: its number has no reference to name it (fuzz_markdown found the
 * label read as NULL). Its label is the definition's own. */
static void test_footnote_named_by_no_reference(void)
{
	const char *md = "\n[^a]:[^unused]\n[^b]:[^b]\n[^unused]:";
	struct strbuf out = STRBUF_INIT;
	CU_ASSERT_EQUAL(markdown_to_html(md, strlen(md), &breaks, &out), 0);
	CU_ASSERT_PTR_NULL(strstr(strbuf_str(&out), "(null)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(strbuf_str(&out), "<div class=\"footnotes\""));
	strbuf_release(&out);
}

/* --- statamic:// links, resolved in the text before it is parsed --- */

static bool fake_url(const char *ref, struct strbuf *out, const void *ctx)
{
	(void)ctx;
	if (strcmp(ref, "entry::e1") == 0)
		strbuf_addstr(out, "/blog/one");
	else if (strcmp(ref, "asset::assets::img/a.png") == 0)
		strbuf_addstr(out, "/assets/img/a.png");
	else
		return false;
	return true;
}

static void test_statamic_links(void)
{
	static const struct statamic_links links = {fake_url, NULL, NULL};
	const struct markdown_options opt = {.line_breaks = true, .links = &links};
	assert_with("[one](statamic://entry::e1#top) ![a](statamic://asset::assets::img/a.png)", &opt,
	            "<p><a href=\"/blog/one#top\">one</a> <img src=\"/assets/img/a.png\" alt=\"a\" /></p>\n");
	/* Not found: "" (its query and fragment too); the scheme in any case;
	 * only between ( ) or " ": anywhere else the text stays. */
	assert_with("![gone](statamic://asset::help::x.png?w=2) [e](STATAMIC://entry::e1) "
	            "<a href=\"statamic://entry::e1\">h</a> statamic://entry::e1", &opt,
	            "<p><img src=\"\" alt=\"gone\" /> <a href=\"/blog/one\">e</a> "
	            "<a href=\"/blog/one\">h</a> statamic://entry::e1</p>\n");
	/* Without links, left as they are. */
	assert_html("[a](statamic://entry::e1)", true, "<p><a href=\"statamic://entry::e1\">a</a></p>\n");
}

static void test_mend_tables(void)
{
	struct strbuf out = STRBUF_INIT;
	const char *md = "| a |\n|---|\n|\n        | x |\nlazy\n\n|\n```\n| a |\n|---|\n|\n```\n";
	markdown_mend_tables(md, strlen(md), &out);
	/* In the table, a lone pipe is an empty row and an indented row a row;
	 * outside one, and in code, lines stay. */
	CU_ASSERT_STRING_EQUAL(strbuf_str(&out),
	                       "| a |\n|---|\n| |\n| x |\nlazy\n\n|\n```\n| a |\n|---|\n|\n```\n");
	strbuf_release(&out);
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
	unit_add_test(s, "escape_markup", test_escape_markup);
	unit_add_test(s, "fenced code", test_fenced_code);
	unit_add_test(s, "appends to out", test_appends);
	unit_add_test(s, "init repeatable", test_init_repeatable);
	unit_add_test(s, "size cap", test_size_cap);
	unit_add_test(s, "league/commonmark's HTML, case by case", test_league_cases);
	unit_add_test(s, "a footnote named by no reference", test_footnote_named_by_no_reference);
	unit_add_test(s, "statamic:// links", test_statamic_links);
	unit_add_test(s, "tables mended for cmark-gfm", test_mend_tables);
}
