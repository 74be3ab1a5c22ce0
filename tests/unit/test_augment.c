/* Unit tests: blueprints and augmentation, through the fixture's blog
 * blueprint, the snapshot and jsonw's URL completion. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "api/api.h"
#include "core/config.h"
#include "lib/jsonw.h"
#include "site/augment.h"
#include "site/bard.h"
#include "site/blueprints.h"
#include "site/entries.h"
#include "site/files.h"
#include "site/icons.h"
#include "site/index.h"
#include "site/snapshot.h"
#include "site/yaml.h"
#include "unit.h"

/* The delivered data of one fixture entry as JSON, at a fixed moment:
 * which related entries are published must not depend on the day the
 * test runs. */
static char *entry_json(const char *id)
{
	struct config cfg;
	config_init_defaults(&cfg);
	free(cfg.content_root);
	cfg.content_root = strdup(FIXTURES_DIR "/site");
	cfg.disks = calloc(1, sizeof *cfg.disks);
	cfg.ndisks = 1;
	cfg.disks[0] = (struct disk_def){strdup("assets"), strdup(FIXTURES_DIR "/site/public/assets"),
	                                 strdup("/assets")};
	struct snapshot *s = unit_snapshot(&cfg);
	config_free(&cfg);
	char *json = unit_render(s, snap_entry_at(s, snap_entry_find(s, id)).data,
	                         1767225600 /* 2026-01-01 */, NULL);
	snapshot_close(s);
	return json;
}

static void test_every_supported_type(void)
{
	char *json = entry_json("1f2e3d4c-0000-4000-8000-000000000003");
	CU_ASSERT_STRING_EQUAL(json,
		"{\"author\":\"The Team\",\"blocks\":[{\"body\":\"<p><em>hi<\\/em><\\/p>\\n\",\"id\":\"b1\","
		"\"type\":\"text\"},{\"cite\":\"Ada\",\"id\":\"b3\",\"type\":\"quote\"}],\"category\":{\"value\":\"tech\","
		"\"label\":\"Technology\",\"key\":\"tech\"},\"content\":\"<p>Line one\\nline two<\\/p>\\n\","
		"\"cta\":{\"id\":\"about\",\"title\":\"About\",\"url\":\"\\/about\",\"permalink\":\"http:\\/\\/h\\/about\","
		"\"api_url\":\"http:\\/\\/h\\/api\\/collections\\/pages\\/entries\\/about\"},\"featured\":true,\"hero\":{\"id\":\"assets::img\\/dot.gif\",\"url\":\"\\/assets\\/img\\/dot.gif\","
		"\"permalink\":\"http:\\/\\/h\\/assets\\/img\\/dot.gif\",\"api_url\":\"http:\\/\\/h\\/api\\/assets\\/assets\\/img\\/dot.gif\","
		"\"alt\":\"A dot\"},\"layout\":\"post\",\"mood\":\"calm\",\"published_on\":\"2024-02-01T14:30:00.000000Z\","
		"\"rating\":4,\"related\":{\"id\":\"1f2e3d4c-0000-4000-8000-000000000001\",\"title\":\"Hello World\","
		"\"url\":\"\\/blog\\/2024\\/hello-world\",\"permalink\":\"http:\\/\\/h\\/blog\\/2024\\/hello-world\","
		"\"api_url\":\"http:\\/\\/h\\/api\\/collections\\/blog\\/entries\\/1f2e3d4c-0000-4000-8000-000000000001\"},"
		"\"reviewer\":[{\"id\":\"user-ada\",\"name\":\"Ada Lovelace\",\"email\":\"ada@example.com\","
		"\"api_url\":\"http:\\/\\/h\\/api\\/users\\/user-ada\"}],\"seo\":{\"noindex\":true},\"sizes\":[{\"key\":\"s\","
		"\"value\":\"s\",\"label\":\"Small\"},{\"key\":\"m\",\"value\":\"m\",\"label\":\"Medium\"}],"
		"\"specs\":[{\"weight\":12,\"id\":\"r1\"}],\"story\":[{\"type\":\"text\",\"text\":\"<p>Before<\\/p>\"},"
		"{\"caption\":\"<p><em>wow<\\/em><\\/p>\\n\",\"id\":\"s1\",\"type\":\"gallery\"},{\"type\":\"text\","
		"\"text\":\"<p>After<\\/p>\"}],\"summary\":\"<p>Short<\\/p>\",\"tags\":[{\"id\":\"tags::news\","
		"\"title\":\"News\",\"slug\":\"news\",\"url\":\"\\/blog\\/tags\\/news\",\"permalink\":\"http:\\/\\/h\\/blog\\/tags\\/news\","
		"\"api_url\":\"http:\\/\\/h\\/api\\/taxonomies\\/tags\\/terms\\/news\"}],\"title\":\"Launch\"}");
	free(json);
}

static void test_empty_fields(void)
{
	/* Fields the entry does not set, as Statamic augments nothing: the
	 * default, a select's all-null {value, label, key}, false, empty
	 * lists, a group with each of its fields; an unpublished related entry
	 * would be left out. The first entry above shows disabled replicator
	 * sets left out, grid rows and groups augmented by their own fields,
	 * links and assets resolved. */
	char *json = entry_json("1f2e3d4c-0000-4000-8000-000000000002");
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"category\":{\"value\":null,\"label\":null,\"key\":null},"));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"featured\":false,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"mood\":\"calm\","));
	CU_ASSERT_PTR_NOT_NULL(
		strstr(json, "\"related\":null,\"reviewer\":[],\"seo\":{\"noindex\":false},\"sizes\":[],"));
	/* automatic_line_breaks: false keeps soft breaks as newlines (above);
	 * with no field, content uses Statamic's fallback (breaks on). */
	free(json);
	/* No blueprint: Statamic's fallback one, a markdown content (null). */
	json = entry_json("about");
	CU_ASSERT_STRING_EQUAL(json, "{\"content\":null,\"title\":\"About\"}");
	free(json);
}

static void test_blueprint_choice(void)
{
	struct config cfg;
	char *dir = unit_tempdir();
	unit_write_file(dir, "content/collections/posts.yaml", "title: Posts\n");
	unit_write_file(dir, "content/collections/posts/a.md", "---\nid: a\nblueprint: posts\n---\n");
	unit_write_file(dir, "content/collections/posts/b.md", "---\nid: b\n---\n");
	unit_write_file(dir, "content/collections/posts/c.md", "---\nid: c\nblueprint: secret\n---\n");
	unit_write_file(dir, "resources/blueprints/collections/posts/post.yaml",
	                "title: Post\norder: 2\nfields:\n  - handle: x\n    field: {type: text}\n");
	unit_write_file(dir, "resources/blueprints/collections/posts/article.yaml",
	                "title: Article\norder: 1\nhide: true\nfields: []\n");
	unit_write_file(dir, "resources/blueprints/collections/posts/secret.yaml",
	                "title: Secret\norder: 3\nfields: []\n");
	config_init_defaults(&cfg);
	free(cfg.content_root);
	cfg.content_root = strdup(dir);
	struct site_index *idx = site_index_load(&cfg);
	/* "posts" falls back to its singular; no name: the first visible
	 * blueprint by order; an exact name wins. */
	CU_ASSERT_STRING_EQUAL(entry_blueprint(idx, site_index_entry(idx, "a"))->handle, "post");
	CU_ASSERT_STRING_EQUAL(entry_blueprint(idx, site_index_entry(idx, "b"))->handle, "post");
	CU_ASSERT_STRING_EQUAL(entry_blueprint(idx, site_index_entry(idx, "c"))->handle, "secret");
	site_index_free(idx);
	config_free(&cfg);
	unit_rmtree(dir);
	free(dir);
}

/* One entry's delivered data as JSON, from a site written in dir whose
 * [icons] names the sets of sets[0..n). */
static char *icons_entry_json(const char *dir, const char *id, const struct icon_set *sets,
                              size_t n)
{
	struct config cfg;
	config_init_defaults(&cfg);
	free(cfg.content_root);
	cfg.content_root = strdup(dir);
	cfg.icon_sets = icon_sets_copy(sets, n);
	cfg.nicon_sets = n;
	struct snapshot *s = unit_snapshot(&cfg);
	config_free(&cfg);
	char *json = unit_render(s, snap_entry_at(s, snap_entry_find(s, id)).data, 1767225600, NULL);
	snapshot_close(s);
	return json;
}

/* One entry's delivered data as JSON, from a site written in dir. */
static char *temp_entry_json(const char *dir, const char *id)
{
	return icons_entry_json(dir, id, NULL, 0);
}

/* Set groups (v5) are told from flat sets by the first item, as
 * Statamic's flattenedSetsConfig does, so a group named as one of its
 * sets still finds the set's fields (amplitude-docs' glossary_set). */
static void test_set_groups(void)
{
	char *dir = unit_tempdir();
	unit_write_file(dir, "content/collections/docs.yaml", "title: Docs\n");
	unit_write_file(dir, "content/collections/docs/a.md",
	                "---\nid: a\nglossary:\n  - {id: g1, type: glossary_set, text: '*hi*'}\n"
	                "  - {id: g2, type: event_set, text: '**yo**'}\n---\n");
	unit_write_file(dir, "resources/blueprints/collections/docs/doc.yaml",
	                "title: Doc\nfields:\n  - handle: glossary\n    field:\n      type: replicator\n"
	                "      sets:\n        glossary_set:\n          sets:\n"
	                "            glossary_set:\n              fields: [{handle: text, field: {type: markdown}}]\n"
	                "            event_set:\n              fields: [{handle: text, field: {type: text}}]\n"
	                "        more:\n          sets:\n"
	                "            event_set:\n              fields: [{handle: text, field: {type: markdown}}]\n");
	char *json = temp_entry_json(dir, "a");
	/* the later group's event_set wins */
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"glossary\":[{\"text\":\"<p><em>hi<\\/em><\\/p>\\n\",\"id\":\"g1\","
	                                    "\"type\":\"glossary_set\"},{\"text\":\"<p><strong>yo<\\/strong><\\/p>\\n\","));
	if (!strstr(json, "<p><em>hi"))
		fprintf(stderr, "\nset groups: %s\n", json);
	free(json);
	unit_rmtree(dir);
	free(dir);
}

/* A Bard's sets: the text between them in blocks; a disabled set is
 * removed before the text is rendered (Statamic's removeDisabledSets),
 * so the text around it stays one block; a save_html string has its
 * statamic:// links resolved. */
static void test_bard_sets(void)
{
	char *dir = unit_tempdir();
	unit_write_file(dir, "content/collections/docs.yaml", "title: Docs\nroute: '/docs/{slug}'\n");
	unit_write_file(dir, "content/collections/docs/a.md",
	                "---\nid: a\nstory:\n"
	                "  - {type: paragraph, content: [{type: text, text: one}]}\n"
	                "  - {type: set, attrs: {id: s0, enabled: false, values: {type: quote, cite: x}}}\n"
	                "  - {type: paragraph, content: [{type: text, text: two}]}\n"
	                "  - {type: set, attrs: {id: s1, values: {type: quote, cite: Ada}}}\n"
	                "saved: '<p><a href=\"statamic://entry::a\">me</a></p>'\n---\n");
	unit_write_file(dir, "resources/blueprints/collections/docs/doc.yaml",
	                "title: Doc\nfields:\n  - handle: story\n    field:\n      type: bard\n"
	                "      sets:\n        main:\n          sets:\n            quote:\n"
	                "              fields: [{handle: cite, field: {type: text}}]\n"
	                "  - handle: saved\n    field: {type: bard, save_html: true}\n");
	char *json = temp_entry_json(dir, "a");
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"story\":[{\"type\":\"text\",\"text\":\"<p>one<\\/p><p>two<\\/p>\"},"
	                                    "{\"cite\":\"Ada\",\"id\":\"s1\",\"type\":\"quote\"}]"));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"saved\":\"<p><a href=\\\"\\/docs\\/a\\\">me<\\/a><\\/p>\""));
	if (!strstr(json, "<p>one<\\/p><p>two") || !strstr(json, "\\/docs\\/a"))
		fprintf(stderr, "\nbard sets: %s\n", json);
	free(json);
	unit_rmtree(dir);
	free(dir);
}

static void assert_bard(const char *yaml, const char *want)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	struct yaml_error err;
	CU_ASSERT_EQUAL_FATAL(yaml_parse(yaml, strlen(yaml), 0, &b, &err), 0);
	struct strbuf html = STRBUF_INIT;
	bard_render(vb_result(&b), NULL, NULL, NULL, &html);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&html), want);
	if (strcmp(strbuf_str(&html), want) != 0)
		fprintf(stderr, "\nbard got: %s\n    want: %s\n", strbuf_str(&html), want);
	strbuf_release(&html);
	vb_release(&b);
}

static void test_bard_html(void)
{
	assert_bard("- {type: paragraph, content: [{type: text, text: \"a < b & \\\"c\\\" 'd'\"}]}",
	            "<p>a &lt; b &amp; &quot;c&quot; &#039;d&#039;</p>");
	assert_bard("- type: heading\n  attrs: {level: 2}\n  content: [{type: text, text: Hi}]\n"
	            "- type: paragraph\n  content:\n"
	            "    - {type: text, text: bold, marks: [{type: bold}, {type: italic}]}\n"
	            "    - {type: hardBreak}\n"
	            "    - {type: text, text: go, marks: [{type: link, attrs: {href: 'https://x.test/?a=1&b=2', target: _blank}}]}\n",
	            "<h2>Hi</h2><p><strong><em>bold</em></strong><br>"
	            "<a target=\"_blank\" href=\"https://x.test/?a=1&amp;b=2\">go</a></p>");
	assert_bard("- type: orderedList\n  attrs: {order: 3}\n  content:\n"
	            "    - {type: listItem, content: [{type: paragraph, content: [{type: text, text: x}]}]}\n"
	            "- {type: codeBlock, attrs: {language: js}, content: [{type: text, text: 'a<b'}]}\n"
	            "- {type: horizontalRule}\n"
	            "- {type: image, attrs: {src: /i.png, alt: Pic}}\n"
	            "- {type: paragraph}\n",
	            "<ol><li><p>x</p></li></ol><pre><code class=\"language-js\">a&lt;b</code></pre>"
	            "<hr><img src=\"/i.png\" alt=\"Pic\"><p></p>");
}

/* v (its URL values below http://h) must be written as want. */
static void assert_written(struct value_builder *v, const char *want)
{
	struct jsonw_env env = {"http://h", "http://h/api", NULL, NULL};
	struct strbuf out = STRBUF_INIT;
	struct jsonw w;
	jsonw_init(&w, &out);
	jsonw_set_env(&w, &env);
	jsonw_value(&w, vb_result(v));
	CU_ASSERT_STRING_EQUAL(strbuf_str(&out), want);
	strbuf_release(&out);
	vb_release(v);
}

static void assert_urls(const char *site_url, const char *uri, const char *url, const char *permalink)
{
	struct strbuf u = STRBUF_INIT;
	augment_url(site_url, uri, &u);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&u), url);
	struct value_builder p = VALUE_BUILDER_INIT;
	augment_permalink(site_url, uri, &p);
	assert_written(&p, permalink);
	strbuf_release(&u);
}

/* A site with a relative url is below the request's base; one with an
 * absolute url is its own (Statamic's url is then the path of it). */
static void test_urls_and_permalinks(void)
{
	assert_urls("/", "/blog/x", "/blog/x", "\"http:\\/\\/h\\/blog\\/x\"");
	assert_urls("/de", "/", "/de", "\"http:\\/\\/h\\/de\"");
	assert_urls("/de", "/blog/x", "/de/blog/x", "\"http:\\/\\/h\\/de\\/blog\\/x\"");
	assert_urls("https://example.de", "/blog/x", "/blog/x",
	            "\"https:\\/\\/example.de\\/blog\\/x\"");
	assert_urls("https://example.com/fr", "/", "/fr", "\"https:\\/\\/example.com\\/fr\"");
	assert_urls("https://example.com", "/", "/", "\"https:\\/\\/example.com\"");
	/* The home page's permalink is the base itself, as Statamic's tidy
	 * URL has no '/' at its end. */
	assert_urls("/", "/", "/", "\"http:\\/\\/h\"");
}

static void assert_absolute(const char *url, const char *want)
{
	struct value_builder v = VALUE_BUILDER_INIT;
	augment_absolute(url, &v);
	assert_written(&v, want);
}

/* A nav link's permalink, as Statamic's URL::makeAbsolute makes it. */
static void test_absolute_links(void)
{
	assert_absolute("/about", "\"http:\\/\\/h\\/about\"");
	assert_absolute("#faqs", "\"http:\\/\\/h#faqs\"");
	assert_absolute("#", "\"http:\\/\\/h#\"");
	assert_absolute("/", "\"http:\\/\\/h\"");
	assert_absolute("/docs/?q=1", "\"http:\\/\\/h\\/docs?q=1\"");
	assert_absolute("about", "\"http:\\/\\/h\\/about\"");
	assert_absolute("https://example.com/x/", "\"https:\\/\\/example.com\\/x\\/\"");
}

/* An asset reference's api_url names the asset even when its name has a
 * space or a '#'; a disk with an absolute url gives its own permalink. */
static void test_asset_reference_urls(void)
{
	struct config cfg;
	char *dir = unit_tempdir(), *disk = unit_tempdir();
	unit_write_file(disk, "a b#1.png", "x");
	unit_write_file(dir, "content/assets/media.yaml", "title: Media\n");
	unit_write_file(dir, "content/collections/posts.yaml", "title: Posts\n");
	unit_write_file(dir, "content/collections/posts/a.md", "---\nid: a\npic: 'a b#1.png'\n---\n");
	unit_write_file(dir, "resources/blueprints/collections/posts/post.yaml",
	                "fields:\n  - handle: pic\n    field: {type: assets, container: media, max_files: 1}\n");
	config_init_defaults(&cfg);
	free(cfg.content_root);
	cfg.content_root = strdup(dir);
	cfg.disks = calloc(1, sizeof *cfg.disks);
	cfg.ndisks = 1;
	cfg.disks[0] = (struct disk_def){strdup("media"), strdup(disk), strdup("https://cdn.test/m")};
	struct snapshot *s = unit_snapshot(&cfg);
	char *json = unit_render(s, value_map_getz(snap_entry_at(s, snap_entry_find(s, "a")).data, "pic"),
	                         1767225600, NULL);
	CU_ASSERT_STRING_EQUAL(json,
		"{\"id\":\"media::a b#1.png\",\"url\":\"https:\\/\\/cdn.test\\/m\\/a b#1.png\","
		"\"permalink\":\"https:\\/\\/cdn.test\\/m\\/a b#1.png\","
		"\"api_url\":\"http:\\/\\/h\\/api\\/assets\\/media\\/a%20b%231.png\",\"alt\":null}");
	free(json);
	snapshot_close(s);
	config_free(&cfg);
	unit_rmtree(dir);
	unit_rmtree(disk);
	free(dir);
	free(disk);
}

/* --- the fieldtype rules, on tests/fixtures/augment-site --- */

static struct snapshot *augment_site;

static void open_augment_site(void)
{
	struct config cfg;
	config_init_defaults(&cfg);
	free(cfg.content_root);
	cfg.content_root = strdup(FIXTURES_DIR "/augment-site");
	cfg.disks = calloc(1, sizeof *cfg.disks);
	cfg.ndisks = 1;
	cfg.disks[0] = (struct disk_def){strdup("assets"),
	                                 strdup(FIXTURES_DIR "/augment-site/public/assets"),
	                                 strdup("/assets")};
	augment_site = unit_snapshot(&cfg);
	config_free(&cfg);
}

static void close_augment_site(void)
{
	snapshot_close(augment_site);
	augment_site = NULL;
}

static void assert_json(value_t v, const char *what, const char *want)
{
	char *got = unit_render(augment_site, v, 1767225600 /* 2026-01-01 */, NULL);
	CU_ASSERT_STRING_EQUAL(got, want);
	if (strcmp(got, want) != 0)
		fprintf(stderr, "\n%s: got  %s\n    want %s\n", what, got, want);
	free(got);
}

/* Entry id's delivered value of key. */
static value_t entry_value(const char *id, const char *key)
{
	uint32_t n = snap_entry_find(augment_site, id);
	CU_ASSERT_NOT_EQUAL_FATAL(n, SNAP_NONE);
	return value_map_getz(snap_entry_at(augment_site, n).data, key);
}

static void assert_entry(const char *id, const char *key, const char *want)
{
	assert_json(entry_value(id, key), key, want);
}

#define CHILD "{\"id\":\"child\",\"title\":\"Child\",\"url\":\"\\/home\\/child\"," \
              "\"permalink\":\"http:\\/\\/h\\/home\\/child\"," \
              "\"api_url\":\"http:\\/\\/h\\/api\\/collections\\/pages\\/entries\\/child\"}"

/* What a field that is not stored gives: its default augmented, else what
 * the fieldtype makes of null (Statamic's Value::value). */
static void test_unset_fields(void)
{
	open_augment_site();
	assert_entry("home", "choice", "{\"value\":null,\"label\":null,\"key\":null}");
	assert_entry("home", "tint", "{\"value\":\"dark\",\"label\":\"Dark\",\"key\":\"dark\"}");
	assert_entry("home", "seo", "{\"noindex\":false}");
	assert_entry("home", "story", "[]"); /* bard with sets */
	assert_entry("home", "summary", "null"); /* bard without */
	assert_entry("child", "blocks", "[]");
	assert_entry("child", "rows", "[]");
	assert_entry("child", "friends", "[]");
	assert_entry("child", "picks", "[]");
	assert_entry("child", "signup", "null"); /* a form field holds one */
	assert_entry("child", "go_entry", "{\"url\":null}");
	assert_entry("child", "topics", "[]");
	close_augment_site();
}

/* A set is its set's fields (defaults applied) with id and type; keys it
 * does not define are dropped; a set whose config lists no fields is as
 * stored, one whose fields import nothing has none; disabled sets are
 * gone. Grouped sets are found by name even where a group is named like
 * a set. */
static void test_sets_and_rows(void)
{
	open_augment_site();
	assert_entry("home", "blocks",
	             "[{\"heading\":\"Hi\",\"level\":{\"value\":\"h2\",\"label\":\"H2\",\"key\":\"h2\"},"
	             "\"id\":\"s1\",\"type\":\"hero\"},"
	             "{\"id\":\"s2\",\"type\":\"plain\",\"enabled\":true,\"extra\":\"kept\"},"
	             "{\"id\":\"s4\",\"type\":\"quiet\"}]");
	assert_entry("home", "rows", "[{\"weight\":3,\"note\":\"none\",\"id\":null}]");
	close_augment_site();
}

/* code -> {value, code, mode}: the field's mode (htmlmixed by default) or
 * the stored one, PHP's opening tag defused. */
static void test_code(void)
{
	open_augment_site();
	assert_entry("home", "snippet",
	             "{\"value\":\"&lt;?php echo 1; ?>\",\"code\":\"&lt;?php echo 1; ?>\",\"mode\":\"htmlmixed\"}");
	assert_entry("child", "snippet", "{\"value\":\"a < b\",\"code\":\"a < b\",\"mode\":\"javascript\"}");
	close_augment_site();
}

/* link -> the entry's or asset's short object, else {url}: a number as a
 * number, a target that is gone null. */
static void test_links(void)
{
	open_augment_site();
	assert_entry("home", "go_entry", CHILD);
	assert_entry("home", "go_asset",
	             "{\"id\":\"files::notes.txt\",\"url\":\"\\/assets\\/notes.txt\","
	             "\"permalink\":\"http:\\/\\/h\\/assets\\/notes.txt\","
	             "\"api_url\":\"http:\\/\\/h\\/api\\/assets\\/files\\/notes.txt\",\"alt\":null}");
	assert_entry("home", "go_url", "{\"url\":\"#top\"}");
	assert_entry("home", "go_missing", "{\"url\":null}");
	assert_entry("home", "go_number", "{\"url\":42}");
	assert_entry("home", "go_none", "{\"url\":null}");
	close_augment_site();
}

/* form -> {handle, title, api_url}; collections -> {title, handle}; items
 * that do not exist are left out, and so are terms that no file and no
 * entry of a collection using the taxonomy make. */
static void test_relations(void)
{
	open_augment_site();
	assert_entry("home", "signup",
	             "{\"handle\":\"contact\",\"title\":\"Contact Us\",\"api_url\":\"http:\\/\\/h\\/api\\/forms\\/contact\"}");
	assert_entry("home", "picks", "[{\"title\":\"Field Notes\",\"handle\":\"notes\"}]");
	assert_entry("home", "friends", "[" CHILD "]");
	assert_entry("home", "kinds", "[]");
	/* The pages collection lists topics: its terms are seen through it. */
	assert_entry("home", "topics",
	             "[{\"id\":\"topics::alpha\",\"title\":\"Alpha\",\"slug\":\"alpha\",\"url\":\"\\/pages\\/topics\\/alpha\","
	             "\"permalink\":\"http:\\/\\/h\\/pages\\/topics\\/alpha\","
	             "\"api_url\":\"http:\\/\\/h\\/api\\/taxonomies\\/topics\\/terms\\/alpha\"},"
	             "{\"id\":\"topics::ghost\",\"title\":\"ghost\",\"slug\":\"ghost\",\"url\":\"\\/pages\\/topics\\/ghost\","
	             "\"permalink\":\"http:\\/\\/h\\/pages\\/topics\\/ghost\","
	             "\"api_url\":\"http:\\/\\/h\\/api\\/taxonomies\\/topics\\/terms\\/ghost\"}]");
	close_augment_site();
}

/* A relationship field of an item keeps what is stored beside what is
 * delivered (a tree page shows the one, the entry the other); a field of
 * another type is the delivered value alone. */
static void test_relationship_fields_keep_the_stored_value(void)
{
	open_augment_site();
	value_t friends = entry_value("home", "friends");
	CU_ASSERT_EQUAL(value_ref_kind(friends), REF_FIELD);
	assert_json(value_raw(friends), "friends (stored)", "[\"child\",\"gone\"]");
	value_t signup = entry_value("home", "signup");
	CU_ASSERT_EQUAL(value_ref_kind(signup), REF_FIELD);
	assert_json(value_raw(signup), "signup (stored)", "\"contact\"");
	CU_ASSERT_EQUAL(value_type(entry_value("home", "blocks")), VALUE_ARRAY);
	CU_ASSERT_EQUAL(value_type(entry_value("home", "go_url")), VALUE_MAP);
	close_augment_site();
}

/* The short objects of links, forms and collections lose the keys
 * excluded_keys names, as Statamic's do. */
static void test_excluded_keys_inside_objects(void)
{
	open_augment_site();
	struct config cfg;
	config_init_defaults(&cfg);
	strlist_split(&cfg.excluded_keys, "api_url,permalink,handle");
	const char *keys[] = {"go_entry", "signup", "picks"};
	const char *want[] = {"{\"id\":\"child\",\"title\":\"Child\",\"url\":\"\\/home\\/child\"}",
	                      "{\"title\":\"Contact Us\"}", "[{\"title\":\"Field Notes\"}]"};
	for (size_t i = 0; i < 3; i++) {
		char *got = unit_render(augment_site, entry_value("home", keys[i]), 1767225600, &cfg);
		CU_ASSERT_STRING_EQUAL(got, want[i]);
		if (strcmp(got, want[i]) != 0)
			fprintf(stderr, "\n%s: got  %s\n    want %s\n", keys[i], got, want[i]);
		free(got);
	}
	config_free(&cfg);
	close_augment_site();
}

/* A collection without blueprints has Statamic's fallback: the site's
 * resources/blueprints/default.yaml, named after the collection's
 * singular; so has a taxonomy, whose terms' `blueprint` is {title,
 * handle}. */
static void test_fallback_blueprints(void)
{
	open_augment_site();
	struct snap_entry e = snap_entry_at(augment_site, snap_entry_find(augment_site, "first"));
	CU_ASSERT_STRING_EQUAL(e.blueprint, "note");
	CU_ASSERT_STRING_EQUAL(e.blueprint_title, "Field Note");
	assert_json(e.data, "first",
	            "{\"author\":null,\"content\":\"<p>A <em>note<\\/em>.<\\/p>\\n\",\"title\":\"First\"}");
	value_t topics = snap_extras_find(augment_site, "taxonomies", "topics");
	value_t alpha = value_map_getz(value_array_get(value_map_getz(topics, "terms"), 0), "data");
	assert_json(alpha, "alpha",
	            "{\"author\":null,\"blueprint\":{\"title\":\"Topic\",\"handle\":\"topic\"},\"content\":null,"
	            "\"title\":\"Alpha\"}");
	close_augment_site();
}

/* A navigation page that links an entry has every field of the
 * navigation's blueprint (its own value, else the entry's, augmented); a
 * link has only what its data sets, through the same fields. */
static void test_navigation_pages(void)
{
	open_augment_site();
	value_t nav = snap_extras_find(augment_site, "navs", "main");
	value_t tree = value_map_getz(value_map_getz(nav, "trees"), "default");
	value_t linked = value_map_getz(value_array_get(tree, 0), "data");
	assert_json(linked, "n1", "{\"badge\":\"New\",\"bold\":false,\"extra_pages\":[]}");
	CU_ASSERT_EQUAL(value_ref_kind(value_map_getz(linked, "extra_pages")), REF_FIELD);
	assert_json(value_map_getz(value_array_get(tree, 1), "data"), "n2", "{\"bold\":true}");
	close_augment_site();
}

/* Every field of a global set's blueprint, set or not. */
static void test_global_fields(void)
{
	open_augment_site();
	value_t brand = snap_extras_find(augment_site, "globals", "brand");
	assert_json(value_map_getz(value_map_getz(brand, "sites"), "default"), "brand",
	            "{\"links\":[],\"name\":\"Acme\",\"theme\":{\"value\":\"light\",\"label\":\"Light\","
	            "\"key\":\"light\"}}");
	close_augment_site();
}

static void assert_word(char *(*fn)(const char *), const char *word, const char *want)
{
	char *got = fn(word);
	CU_ASSERT_STRING_EQUAL(got, want);
	if (strcmp(got, want) != 0)
		fprintf(stderr, "\n%s: got %s, want %s\n", word, got, want);
	free(got);
}

static char *title_of_handle(const char *handle)
{
	return blueprint_title(VALUE_MISSING, handle);
}

/* Statamic's names for blueprints: titles humanised from handles, and
 * Laravel's singular of a collection's handle and title. */
static void test_blueprint_names(void)
{
	assert_word(title_of_handle, "social_images", "Social images");
	assert_word(title_of_handle, "user_id_card", "User card");
	assert_word(title_of_handle, "page", "Page");
	assert_word(singular_handle, "posts", "post");
	assert_word(singular_handle, "categories", "category");
	assert_word(singular_handle, "Legacy Charts", "Legacy Chart");
	assert_word(singular_handle, "APIs", "API");
	assert_word(singular_handle, "apis", "api");
	assert_word(singular_handle, "Guides and Surveys API", "Guides and Surveys API");
	assert_word(singular_handle, "boxes", "box");
	assert_word(singular_handle, "statuses", "status");
	assert_word(singular_handle, "houses", "house");
	assert_word(singular_handle, "glass", "glass");
	assert_word(singular_handle, "days", "day");
}

/* icon -> the bytes of <folder>/<name>.svg when [icons] names the folder
 * of the field's set (Statamic's "default" without set:); the name as
 * stored when the set has no folder, the folder no such file, or the name
 * would leave the folder ("../x", a link out); null when empty; an unset
 * field's default augmented like a value. */
static void test_icons(void)
{
	char *dir = unit_tempdir();
	unit_write_file(dir, "content/collections/posts.yaml", "title: Posts\n");
	unit_write_file(dir, "content/collections/posts/e.md",
	                "---\nid: e\nhero: star\nmissing: nope\nescape: ../secret\nlinked: linked\n"
	                "number: 7\nother: star\nplain: star\nempty: ''\nlist: [star]\n---\n");
	unit_write_file(dir, "resources/blueprints/collections/posts/post.yaml",
	                "fields:\n"
	                "  - {handle: hero, field: {type: icon, set: heroicons}}\n"
	                "  - {handle: missing, field: {type: icon, set: heroicons}}\n"
	                "  - {handle: escape, field: {type: icon, set: heroicons}}\n"
	                "  - {handle: linked, field: {type: icon, set: heroicons}}\n"
	                "  - {handle: number, field: {type: icon, set: heroicons}}\n"
	                "  - {handle: other, field: {type: icon, set: lucide}}\n"
	                "  - {handle: plain, field: {type: icon}}\n"
	                "  - {handle: empty, field: {type: icon, set: heroicons}}\n"
	                "  - {handle: list, field: {type: icon, set: heroicons}}\n"
	                "  - {handle: unset, field: {type: icon, set: heroicons, default: star}}\n");
	unit_write_file(dir, "icons/star.svg", "<svg>star</svg>\n");
	unit_write_file(dir, "icons/7.svg", "<svg>7</svg>");
	unit_write_file(dir, "icons/default/star.svg", "<svg>default star</svg>");
	unit_write_file(dir, "icons/secret.svg.txt", "");
	unit_write_file(dir, "secret.svg", "<svg>secret</svg>");
	char *link = files_join(dir, "icons/linked.svg");
	CU_ASSERT_EQUAL(symlink("../secret.svg", link), 0);
	free(link);
	char *folder = files_join(dir, "icons");
	char *default_folder = files_join(dir, "icons/default");
	struct icon_set sets[] = {{"heroicons", folder}, {"default", default_folder}};

	char *json = icons_entry_json(dir, "e", sets, 1);
	CU_ASSERT_STRING_EQUAL(json,
		"{\"empty\":null,\"escape\":\"..\\/secret\",\"hero\":\"<svg>star<\\/svg>\\n\","
		"\"linked\":\"linked\",\"list\":[\"star\"],\"missing\":\"nope\",\"number\":\"<svg>7<\\/svg>\","
		"\"other\":\"star\",\"plain\":\"star\",\"unset\":\"<svg>star<\\/svg>\\n\"}");
	free(json);
	/* Statamic's own set, where the operator names its folder. */
	json = icons_entry_json(dir, "e", sets, 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"plain\":\"<svg>default star<\\/svg>\""));
	free(json);
	/* No [icons] at all: every name as stored. */
	json = icons_entry_json(dir, "e", sets, 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"hero\":\"star\""));
	free(json);
	free(folder);
	free(default_folder);
	unit_rmtree(dir);
	free(dir);
}

/* icons_read itself: a file of the folder, nothing else. */
static void test_icons_read(void)
{
	char *dir = unit_tempdir();
	unit_write_file(dir, "set/a.svg", "<svg/>");
	unit_write_file(dir, "set/sub/b.svg", "<svg>b</svg>");
	unit_write_file(dir, "x.svg", "<svg>x</svg>");
	char *folder = files_join(dir, "set");
	char *sub = files_join(folder, "sub.svg");
	CU_ASSERT_EQUAL(mkdir(sub, 0700), 0); /* a folder named like an icon */
	free(sub);
	struct strbuf out = STRBUF_INIT;
	CU_ASSERT_EQUAL(icons_read(folder, "a", 1, &out), 0);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&out), "<svg/>");
	strbuf_reset(&out);
	CU_ASSERT_EQUAL(icons_read(folder, "sub/b", 5, &out), -1);
	CU_ASSERT_EQUAL(icons_read(folder, "../x", 4, &out), -1);
	CU_ASSERT_EQUAL(icons_read(folder, "a\0b", 3, &out), -1);
	CU_ASSERT_EQUAL(icons_read(folder, "..", 2, &out), -1);
	CU_ASSERT_EQUAL(icons_read(folder, "", 0, &out), -1);
	CU_ASSERT_EQUAL(icons_read(folder, "sub", 3, &out), -1);
	CU_ASSERT_EQUAL(icons_read(folder, "none", 4, &out), -1);
	CU_ASSERT_EQUAL(out.len, 0);
	/* A folder given with a trailing '/' or through a link is the same. */
	char *slashed = files_join(folder, "");
	CU_ASSERT_EQUAL(icons_read(slashed, "a", 1, &out), 0);
	free(slashed);
	CU_ASSERT_STRING_EQUAL(icons_folder((struct icon_set[]){{"h", folder}}, 1, "h"), folder);
	CU_ASSERT_PTR_NULL(icons_folder((struct icon_set[]){{"h", folder}}, 1, "default"));
	strbuf_release(&out);
	free(folder);
	unit_rmtree(dir);
	free(dir);
}

void suite_augment(void)
{
	CU_pSuite s = unit_add_suite("blueprints and augmentation");
	unit_add_test(s, "every supported type", test_every_supported_type);
	unit_add_test(s, "empty fields", test_empty_fields);
	unit_add_test(s, "blueprint choice", test_blueprint_choice);
	unit_add_test(s, "bard to HTML", test_bard_html);
	unit_add_test(s, "set groups", test_set_groups);
	unit_add_test(s, "bard sets and saved HTML", test_bard_sets);
	unit_add_test(s, "urls and permalinks", test_urls_and_permalinks);
	unit_add_test(s, "absolute links", test_absolute_links);
	unit_add_test(s, "asset reference urls", test_asset_reference_urls);
	unit_add_test(s, "unset fields", test_unset_fields);
	unit_add_test(s, "sets and rows", test_sets_and_rows);
	unit_add_test(s, "code", test_code);
	unit_add_test(s, "links", test_links);
	unit_add_test(s, "relations", test_relations);
	unit_add_test(s, "relationship fields keep the stored value",
	              test_relationship_fields_keep_the_stored_value);
	unit_add_test(s, "excluded keys inside objects", test_excluded_keys_inside_objects);
	unit_add_test(s, "fallback blueprints", test_fallback_blueprints);
	unit_add_test(s, "navigation pages", test_navigation_pages);
	unit_add_test(s, "global fields", test_global_fields);
	unit_add_test(s, "blueprint names", test_blueprint_names);
	unit_add_test(s, "icons", test_icons);
	unit_add_test(s, "icons read", test_icons_read);
}
