/* Unit tests: bard, Bard content to HTML. The expected HTML of the cases
 * is what tiptap-php 2.0.0, with the extensions Statamic 6.1 registers
 * (BardServiceProvider) and the types camelized as Bard's augment
 * camelizes them, gave for the same document. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "site/bard.h"
#include "site/yaml.h"
#include "unit.h"

static const struct {
	const char *name, *doc, *html;
} tiptap_cases[] = {
	{"paragraph: text escaped as htmlspecialchars",
	 "[{\"type\": \"paragraph\", \"content\": [{\"type\": \"text\", \"text\": \"a < b & \\\"c\\\" 'd' \xc3""\xa9""\"}]}]",
	 "<p>a &lt; b &amp; &quot;c&quot; &#039;d&#039; \xc3""\xa9""</p>"},
	{"heading, marks, hard break, link",
	 "[{\"type\": \"heading\", \"attrs\": {\"level\": 2}, \"content\": [{\"type\": \"text\", \"text\": \"Hi\"}]}, {\"type\": \"paragraph\", \"content\": [{\"type\": \"text\", \"text\": \"bold\", \"marks\": [{\"type\": \"bold\"}, {\"type\": \"italic\"}]}, {\"type\": \"hardBreak\"}, {\"type\": \"text\", \"text\": \"go\", \"marks\": [{\"type\": \"link\", \"attrs\": {\"href\": \"https://x.test/?a=1&b=2\", \"target\": \"_blank\"}}]}]}]",
	 "<h2>Hi</h2><p><strong><em>bold</em></strong><br><a target=\"_blank\" href=\"https://x.test/?a=1&amp;b=2\">go</a></p>"},
	{"ordered list, code block, rule, image, empty paragraph",
	 "[{\"type\": \"orderedList\", \"attrs\": {\"order\": 3}, \"content\": [{\"type\": \"listItem\", \"content\": [{\"type\": \"paragraph\", \"content\": [{\"type\": \"text\", \"text\": \"x\"}]}]}]}, {\"type\": \"codeBlock\", \"attrs\": {\"language\": \"js\"}, \"content\": [{\"type\": \"text\", \"text\": \"a<b\"}]}, {\"type\": \"horizontalRule\"}, {\"type\": \"image\", \"attrs\": {\"src\": \"/i.png\", \"alt\": \"Pic\"}}, {\"type\": \"paragraph\"}]",
	 "<ol><li><p>x</p></li></ol><pre><code class=\"language-js\">a&lt;b</code></pre><hr><img src=\"/i.png\" alt=\"Pic\"><p></p>"},
	{"Statamic 3: snake_case nodes",
	 "[{\"type\": \"paragraph\", \"content\": [{\"type\": \"text\", \"text\": \"one\"}, {\"type\": \"hard_break\"}, {\"type\": \"text\", \"text\": \"two\"}]}, {\"type\": \"bullet_list\", \"content\": [{\"type\": \"list_item\", \"content\": [{\"type\": \"paragraph\", \"content\": [{\"type\": \"text\", \"text\": \"a\"}]}]}, {\"type\": \"list_item\", \"content\": [{\"type\": \"paragraph\", \"content\": [{\"type\": \"text\", \"text\": \"b\"}]}]}]}, {\"type\": \"ordered_list\", \"attrs\": {\"order\": 1}, \"content\": [{\"type\": \"list_item\", \"content\": [{\"type\": \"paragraph\", \"content\": [{\"type\": \"text\", \"text\": \"c\"}]}]}]}, {\"type\": \"horizontal_rule\"}, {\"type\": \"code_block\", \"attrs\": {\"language\": \"php\"}, \"content\": [{\"type\": \"text\", \"text\": \"echo 1;\"}]}, {\"type\": \"table\", \"content\": [{\"type\": \"table_row\", \"content\": [{\"type\": \"table_header\", \"attrs\": {\"colspan\": 1, \"rowspan\": 1}, \"content\": [{\"type\": \"paragraph\", \"content\": [{\"type\": \"text\", \"text\": \"h\"}]}]}]}, {\"type\": \"table_row\", \"content\": [{\"type\": \"table_cell\", \"attrs\": {\"colspan\": 2, \"rowspan\": 1, \"colwidth\": [100, 50]}, \"content\": [{\"type\": \"paragraph\", \"content\": [{\"type\": \"text\", \"text\": \"d\"}]}]}]}]}]",
	 "<p>one<br>two</p><ul><li><p>a</p></li><li><p>b</p></li></ul><ol><li><p>c</p></li></ol><hr><pre><code class=\"language-php\">echo 1;</code></pre><table><tbody><tr><th rowspan=\"1\" colspan=\"1\"><p>h</p></th></tr><tr><td rowspan=\"1\" colspan=\"2\" data-colwidth=\"100,50\"><p>d</p></td></tr></tbody></table>"},
	{"Statamic 3: snake_case marks",
	 "[{\"type\": \"paragraph\", \"content\": [{\"type\": \"text\", \"text\": \"s\", \"marks\": [{\"type\": \"bold\"}, {\"type\": \"strike\"}, {\"type\": \"underline\"}, {\"type\": \"subscript\"}, {\"type\": \"superscript\"}, {\"type\": \"code\"}, {\"type\": \"small\"}, {\"type\": \"italic\"}]}]}]",
	 "<p><strong><s><u><sub><sup><code><small><em>s</em></small></code></sup></sub></u></s></strong></p>"},
	{"camelCase and kebab-case too",
	 "[{\"type\": \"blockquote\", \"content\": [{\"type\": \"paragraph\", \"content\": [{\"type\": \"text\", \"text\": \"q\"}, {\"type\": \"hardBreak\"}, {\"type\": \"text\", \"text\": \"r\"}]}]}, {\"type\": \"bullet-list\", \"content\": [{\"type\": \"list-item\", \"content\": [{\"type\": \"paragraph\", \"content\": [{\"type\": \"text\", \"text\": \"k\"}]}]}]}]",
	 "<blockquote><p>q<br>r</p></blockquote><ul><li><p>k</p></li></ul>"},
	{"a mark over several text nodes opens once",
	 "[{\"type\": \"paragraph\", \"content\": [{\"type\": \"text\", \"text\": \"a \", \"marks\": [{\"type\": \"bold\"}]}, {\"type\": \"text\", \"text\": \"b\", \"marks\": [{\"type\": \"bold\"}, {\"type\": \"italic\"}]}, {\"type\": \"text\", \"text\": \" c\", \"marks\": [{\"type\": \"bold\"}]}, {\"type\": \"text\", \"text\": \" d\"}]}]",
	 "<p><strong>a <em>b</em> c</strong> d</p>"},
	{"overlapping marks close and reopen",
	 "[{\"type\": \"paragraph\", \"content\": [{\"type\": \"text\", \"text\": \"a\", \"marks\": [{\"type\": \"bold\"}]}, {\"type\": \"text\", \"text\": \"b\", \"marks\": [{\"type\": \"bold\"}, {\"type\": \"italic\"}]}, {\"type\": \"text\", \"text\": \"c\", \"marks\": [{\"type\": \"italic\"}]}]}]",
	 "<p><strong>a<em>b</em></strong><em>c</em></p>"},
	{"link attributes in Statamic's order",
	 "[{\"type\": \"paragraph\", \"content\": [{\"type\": \"text\", \"text\": \"x\", \"marks\": [{\"type\": \"link\", \"attrs\": {\"href\": \"https://e.x/\xc3""\xa9""?a=1&b=2\", \"target\": \"_blank\", \"rel\": \"noopener\", \"title\": \"T \xc3""\xa9""\"}}]}, {\"type\": \"text\", \"text\": \"y\", \"marks\": [{\"type\": \"link\", \"attrs\": {\"href\": \"#\", \"rel\": \"noopener\", \"target\": null}}]}, {\"type\": \"text\", \"text\": \"z\", \"marks\": [{\"type\": \"link\", \"attrs\": {\"href\": \"javascript:alert(1)\"}}]}, {\"type\": \"text\", \"text\": \"w\", \"marks\": [{\"type\": \"link\", \"attrs\": {\"href\": \"mailto:a@b.c\", \"class\": \"btn\"}}]}]}]",
	 "<p><a rel=\"noopener\" target=\"_blank\" href=\"https://e.x/&eacute;?a=1&amp;b=2\" title=\"T &eacute;\">x</a><a rel=\"noopener\" href=\"#\">y</a><a>z</a><a href=\"mailto:a@b.c\">w</a></p>"},
	{"text-align and heading levels",
	 "[{\"type\": \"paragraph\", \"attrs\": {\"textAlign\": \"center\"}, \"content\": [{\"type\": \"text\", \"text\": \"c\"}]}, {\"type\": \"paragraph\", \"attrs\": {\"textAlign\": \"left\"}, \"content\": [{\"type\": \"text\", \"text\": \"l\"}]}, {\"type\": \"heading\", \"attrs\": {\"level\": \"3\", \"textAlign\": \"right\"}, \"content\": [{\"type\": \"text\", \"text\": \"h\"}]}, {\"type\": \"heading\", \"attrs\": {\"level\": 9}, \"content\": [{\"type\": \"text\", \"text\": \"x\"}]}]",
	 "<p style=\"text-align: center;\">c</p><p>l</p><h3 style=\"text-align: right;\">h</h3><h1>x</h1>"},
	{"ordered list start, table cell zero",
	 "[{\"type\": \"orderedList\", \"attrs\": {\"start\": 4}, \"content\": [{\"type\": \"listItem\", \"content\": [{\"type\": \"paragraph\", \"content\": [{\"type\": \"text\", \"text\": \"four\"}]}]}]}, {\"type\": \"orderedList\", \"attrs\": {\"start\": 1}, \"content\": []}, {\"type\": \"table\", \"content\": [{\"type\": \"tableRow\", \"content\": [{\"type\": \"tableCell\", \"attrs\": {\"colspan\": 0, \"rowspan\": 2}, \"content\": []}]}]}]",
	 "<ol start=\"4\"><li><p>four</p></li></ol><ol start=\"1\"></ol><table><tbody><tr><td></td></tr></tbody></table>"},
	{"unknown nodes and marks give their content",
	 "[{\"type\": \"details\", \"content\": [{\"type\": \"paragraph\", \"content\": [{\"type\": \"text\", \"text\": \"in\", \"marks\": [{\"type\": \"highlight\"}]}]}]}, {\"type\": \"mention\", \"text\": \"@me\"}]",
	 "<p>in</p>@me"},
	{"top-level code block drops its marks",
	 "[{\"type\": \"codeBlock\", \"content\": [{\"type\": \"text\", \"text\": \"x\", \"marks\": [{\"type\": \"bold\"}]}]}, {\"type\": \"blockquote\", \"content\": [{\"type\": \"codeBlock\", \"content\": [{\"type\": \"text\", \"text\": \"y\", \"marks\": [{\"type\": \"bold\"}]}]}]}]",
	 "<pre><code>x</code></pre><blockquote><pre><code><strong>y</strong></code></pre></blockquote>"},
	{"image: alt and title",
	 "[{\"type\": \"image\", \"attrs\": {\"src\": \"/a.png\", \"alt\": \"Al \xc3""\xa9""\", \"title\": \"t\"}}, {\"type\": \"image\", \"attrs\": {\"alt\": \"no src\"}}]",
	 "<img src=\"/a.png\" alt=\"Al &eacute;\"><img>"},
};

/* Renders doc (YAML; JSON is YAML too) and compares. */
static void assert_render(const char *name, const char *doc, const struct statamic_links *links,
                          const char *want)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	struct yaml_error err;
	CU_ASSERT_EQUAL_FATAL(yaml_parse(doc, strlen(doc), 0, &b, &err), 0);
	struct strbuf html = STRBUF_INIT;
	bard_render(vb_result(&b), links, NULL, NULL, &html);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&html), want);
	if (strcmp(strbuf_str(&html), want) != 0)
		fprintf(stderr, "\nbard case \"%s\"\n got: %s\nwant: %s\n", name, strbuf_str(&html), want);
	strbuf_release(&html);
	vb_release(&b);
}

static void test_tiptap_cases(void)
{
	for (size_t i = 0; i < sizeof tiptap_cases / sizeof tiptap_cases[0]; i++)
		assert_render(tiptap_cases[i].name, tiptap_cases[i].doc, NULL, tiptap_cases[i].html);
}

/* --- statamic:// links and asset:: images, through the caller --- */

static bool fake_url(const char *ref, struct strbuf *out, const void *ctx)
{
	(void)ctx;
	if (strcmp(ref, "entry::e1") == 0)
		strbuf_addstr(out, "/blog/one");
	else if (strcmp(ref, "asset::assets::a.png") == 0)
		strbuf_addstr(out, "/assets/a.png");
	else
		return false;
	return true;
}

static bool fake_alt(const char *id, struct strbuf *out, const void *ctx)
{
	(void)ctx;
	if (strcmp(id, "assets::a.png") != 0)
		return false;
	strbuf_addstr(out, "An A");
	return true;
}

static void test_links_and_assets(void)
{
	static const struct statamic_links links = {fake_url, fake_alt, NULL};
	assert_render("links", "[{type: paragraph, content: ["
	              "{type: text, text: a, marks: [{type: link, attrs: {href: 'statamic://entry::e1'}}]},"
	              "{type: text, text: b, marks: [{type: link, attrs: {href: 'statamic://entry::gone'}}]},"
	              "{type: text, text: c, marks: [{type: link, attrs: {href: 'statamic://asset::assets::a.png'}}]}]}]",
	              &links, "<p><a href=\"/blog/one\">a</a><a>b</a><a href=\"/assets/a.png\">c</a></p>");
	assert_render("images", "[{type: image, attrs: {src: 'asset::assets::a.png'}},"
	              "{type: image, attrs: {src: 'asset::assets::a.png', alt: Own}},"
	              "{type: image, attrs: {src: 'asset::assets::gone.png'}}]",
	              &links, "<img src=\"/assets/a.png\" alt=\"An A\"><img src=\"/assets/a.png\" alt=\"Own\"><img>");
	/* Without links: statamic:// as it is, asset:: dropped. */
	assert_render("no links", "[{type: paragraph, content: ["
	              "{type: text, text: a, marks: [{type: link, attrs: {href: 'statamic://entry::e1'}}]}]},"
	              "{type: image, attrs: {src: 'asset::assets::a.png', alt: x}}]",
	              NULL, "<p><a href=\"statamic://entry::e1\">a</a></p><img alt=\"x\">");
}

/* --- sets: the caller cuts the text there --- */

static void collect_set(value_t set, struct strbuf *html, void *ctx)
{
	struct strbuf *log = ctx;
	strbuf_addf(log, "[%s|%s]", strbuf_str(html), value_str(value_map_getz(set, "type"), NULL));
	strbuf_reset(html);
}

static void test_sets(void)
{
	const char *doc = "[{type: paragraph, content: [{type: text, text: one}]},"
	                  "{type: set, attrs: {id: s1, values: {type: quote}}},"
	                  "{type: paragraph, content: [{type: text, text: two}]}]";
	struct value_builder b = VALUE_BUILDER_INIT;
	struct yaml_error err;
	CU_ASSERT_EQUAL_FATAL(yaml_parse(doc, strlen(doc), 0, &b, &err), 0);
	struct strbuf html = STRBUF_INIT, log = STRBUF_INIT;
	bard_render(vb_result(&b), NULL, collect_set, &log, &html);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&log), "[<p>one</p>|set]");
	CU_ASSERT_STRING_EQUAL(strbuf_str(&html), "<p>two</p>");
	CU_ASSERT_TRUE(bard_is_set(value_array_get(vb_result(&b), 1)));
	CU_ASSERT_FALSE(bard_is_set(value_array_get(vb_result(&b), 0)));
	strbuf_reset(&html);
	/* Without a hook a set is left out. */
	bard_render(vb_result(&b), NULL, NULL, NULL, &html);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&html), "<p>one</p><p>two</p>");
	strbuf_release(&html);
	strbuf_release(&log);
	vb_release(&b);
}

void suite_bard(void)
{
	CU_pSuite s = unit_add_suite("bard");
	unit_add_test(s, "tiptap-php's HTML, case by case", test_tiptap_cases);
	unit_add_test(s, "statamic:// links and asset:: images", test_links_and_assets);
	unit_add_test(s, "sets cut the text", test_sets);
}
