/* Unit tests: blueprints and augmentation, through the fixture's blog
 * blueprint, the snapshot and jsonw's URL completion. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "core/config.h"
#include "lib/jsonw.h"
#include "site/augment.h"
#include "site/bard.h"
#include "site/blueprints.h"
#include "site/entries.h"
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
		"\"cta\":\"\\/about\",\"featured\":true,\"hero\":{\"id\":\"assets::img\\/dot.gif\",\"url\":\"\\/assets\\/img\\/dot.gif\","
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
		"\"title\":\"News\",\"slug\":\"news\",\"url\":\"\\/tags\\/news\",\"permalink\":\"http:\\/\\/h\\/tags\\/news\","
		"\"api_url\":\"http:\\/\\/h\\/api\\/taxonomies\\/tags\\/terms\\/news\"}],\"title\":\"Launch\"}");
	free(json);
}

static void test_empty_fields(void)
{
	/* Fields the entry does not set: default, null, false, empty lists;
	 * an unpublished related entry would be left out. The first entry
	 * above shows disabled replicator sets left out, grid rows and groups
	 * augmented by their own fields, links and assets resolved. */
	char *json = entry_json("1f2e3d4c-0000-4000-8000-000000000002");
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"category\":null,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"featured\":false,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"mood\":\"calm\","));
	CU_ASSERT_PTR_NOT_NULL(strstr(json, "\"related\":null,\"reviewer\":[],\"seo\":null,\"sizes\":[],"));
	/* automatic_line_breaks: false keeps soft breaks as newlines (above);
	 * with no field, content uses Statamic's fallback (breaks on). */
	free(json);
	json = entry_json("about"); /* no blueprint, no body: as stored */
	CU_ASSERT_STRING_EQUAL(json, "{\"title\":\"About\"}");
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

/* One entry's delivered data as JSON, from a site written in dir. */
static char *temp_entry_json(const char *dir, const char *id)
{
	struct config cfg;
	config_init_defaults(&cfg);
	free(cfg.content_root);
	cfg.content_root = strdup(dir);
	struct snapshot *s = unit_snapshot(&cfg);
	config_free(&cfg);
	char *json = unit_render(s, snap_entry_at(s, snap_entry_find(s, id)).data, 1767225600, NULL);
	snapshot_close(s);
	return json;
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

static void assert_urls(const char *site_url, const char *uri, const char *url, const char *permalink)
{
	struct strbuf u = STRBUF_INIT;
	augment_url(site_url, uri, &u);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&u), url);
	struct value_builder p = VALUE_BUILDER_INIT;
	augment_permalink(site_url, uri, &p);
	struct jsonw_env env = {"http://h", "http://h/api", NULL, NULL};
	struct strbuf out = STRBUF_INIT;
	struct jsonw w;
	jsonw_init(&w, &out);
	jsonw_set_env(&w, &env);
	jsonw_value(&w, vb_result(&p));
	CU_ASSERT_STRING_EQUAL(strbuf_str(&out), permalink);
	strbuf_release(&out);
	vb_release(&p);
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

void suite_augment(void)
{
	CU_pSuite s = unit_add_suite("blueprints and augmentation");
	unit_add_test(s, "every supported type", test_every_supported_type);
	unit_add_test(s, "empty fields", test_empty_fields);
	unit_add_test(s, "blueprint choice", test_blueprint_choice);
	unit_add_test(s, "bard to HTML", test_bard_html);
	unit_add_test(s, "set groups", test_set_groups);
	unit_add_test(s, "urls and permalinks", test_urls_and_permalinks);
	unit_add_test(s, "asset reference urls", test_asset_reference_urls);
}
