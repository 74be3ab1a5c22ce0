/*
 * Unit tests: relations and links as a request delivers them. A two-site
 * fixture is written to a temporary folder; its snapshot is rendered
 * through the API's reference writer at fixed moments, so that what is
 * shown never depends on the day the test runs.
 */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "core/config.h"
#include "lib/jsonw.h"
#include "site/snapshot.h"
#include "unit.h"

#define Y2019 1560000000LL /* 2019-06-08 */
#define Y2021 1609459200LL /* 2021-01-01 */
#define Y2100 4102444800LL /* 2100-01-01 */

static const char *const files[][2] = {
	{"resources/sites.yaml", "en:\n  name: English\n  url: /\n  locale: en_US\n"
	                         "fr:\n  name: French\n  url: /fr/\n  locale: fr_FR\n"},
	{"content/collections/posts.yaml",
	 "title: Posts\nroute: '/posts/{slug}'\ndate: true\ndate_behavior:\n  future: private\n"
	 "sites: [en, fr]\ntaxonomies: [topics]\n"},
	{"content/collections/pages.yaml",
	 "title: Pages\nroute: '{parent_uri}/{slug}'\nstructure:\n  root: false\nsites: [en]\n"},
	{"content/trees/collections/en/pages.yaml",
	 "tree:\n  - entry: p1\n    children:\n      - entry: p2\n      - entry: p3\n"},
	{"content/taxonomies/topics.yaml", "title: Topics\n"},
	{"content/taxonomies/topics/alpha.yaml", "title: Alpha\n"},
	{"users/ada@example.com.yaml", "id: 5\nname: Ada\n"},
	{"resources/fieldsets/quote_fields.yaml",
	 "fields:\n  - handle: cite\n    field:\n      type: markdown\n"},
	{"resources/fieldsets/common.yaml", "fields:\n  - handle: md\n    field:\n      type: markdown\n"},
	{"resources/blueprints/collections/posts/post.yaml",
	 "fields:\n"
	 "  - handle: related\n    field:\n      type: entries\n"
	 "  - handle: author\n    field:\n      type: users\n      max_items: 1\n"
	 "  - handle: story\n    field:\n      type: bard\n"
	 "  - handle: blocks\n    field:\n      type: replicator\n      sets:\n        main:\n"
	 "          sets:\n            quote:\n              fields:\n                - import: quote_fields\n"
	 "            card:\n              fields:\n                - handle: body\n"
	 "                  field: common.md\n"},
	{"resources/blueprints/collections/pages/page.yaml",
	 "fields:\n  - handle: go\n    field:\n      type: link\n"},
	{"content/collections/posts/en/2020-01-01.a.md",
	 "---\nid: a\ntitle: A\nrelated: [b, c, d, nope]\nauthor: 5\nupdated_by: '5'\n"
	 "topics: [alpha, beta]\n"
	 "story:\n  - type: paragraph\n    content:\n"
	 "      - {type: text, text: see, marks: [{type: link, attrs: {href: 'statamic://entry::b'}}]}\n"
	 "      - {type: text, text: gone, marks: [{type: link, attrs: {href: 'statamic://entry::zz'}}]}\n"
	 "blocks:\n  - {id: x1, type: quote, cite: '*hi*'}\n  - {id: x2, type: card, body: '**b**'}\n"
	 "---\n"},
	{"content/collections/posts/en/2020-01-02.b.md", "---\nid: b\ntitle: B\n---\n"},
	{"content/collections/posts/en/2099-01-01.c.md", "---\nid: c\ntitle: C\n---\n"},
	{"content/collections/posts/en/2020-01-03.d.md", "---\nid: d\ntitle: D\npublished: false\n---\n"},
	{"content/collections/posts/fr/2020-01-01.a.md", "---\nid: a-fr\norigin: a\ntitle: A-fr\n---\n"},
	{"content/collections/posts/fr/2020-01-02.b.md", "---\nid: b-fr\norigin: b\ntitle: B-fr\n---\n"},
	{"content/collections/pages/en/p1.md", "---\nid: p1\ntitle: P1\ngo: '@child'\n---\n"},
	{"content/collections/pages/en/p2.md", "---\nid: p2\ntitle: P2\ngo: 'entry::p3'\n---\n"},
	{"content/collections/pages/en/p3.md", "---\nid: p3\ntitle: P3\ngo: '@child'\n---\n"},
};

static char *dir;
static struct snapshot *snap;

static void open_site(void)
{
	dir = unit_tempdir();
	for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
		CU_ASSERT_EQUAL_FATAL(unit_write_file(dir, files[i][0], files[i][1]), 0);
	struct config cfg;
	config_init_defaults(&cfg);
	free(cfg.content_root);
	cfg.content_root = strdup(dir);
	snap = unit_snapshot(&cfg);
	config_free(&cfg);
}

static void close_site(void)
{
	snapshot_close(snap);
	unit_rmtree(dir);
	free(dir);
}

/* The delivered JSON of entry id's data key at moment now, with the
 * config's excluded_keys (comma-separated, or NULL). */
static char *render(const char *id, const char *key, long long now, const char *excluded)
{
	struct config cfg;
	config_init_defaults(&cfg);
	if (excluded)
		strlist_split(&cfg.excluded_keys, excluded);
	uint32_t n = snap_entry_find(snap, id);
	CU_ASSERT_NOT_EQUAL_FATAL(n, SNAP_NONE);
	char *json = unit_render(snap, value_map_getz(snap_entry_at(snap, n).data, key), now, &cfg);
	config_free(&cfg);
	return json;
}

static void assert_rendered(const char *id, const char *key, long long now, const char *excluded,
                            const char *want)
{
	char *got = render(id, key, now, excluded);
	CU_ASSERT_STRING_EQUAL(got, want);
	if (strcmp(got, want) != 0)
		fprintf(stderr, "\n%s.%s: got  %s\n%*swant %s\n", id, key, got, (int)(strlen(id) + strlen(key) + 2),
		        "", want);
	free(got);
}

#define B_EN "{\"id\":\"b\",\"title\":\"B\",\"url\":\"\\/posts\\/b\",\"permalink\":\"http:\\/\\/h\\/posts\\/b\"," \
             "\"api_url\":\"http:\\/\\/h\\/api\\/collections\\/posts\\/entries\\/b\"}"
#define C_EN "{\"id\":\"c\",\"title\":\"C\",\"url\":\"\\/posts\\/c\",\"permalink\":\"http:\\/\\/h\\/posts\\/c\"," \
             "\"api_url\":\"http:\\/\\/h\\/api\\/collections\\/posts\\/entries\\/c\"}"

/* Whether a related entry shows is decided at the request's moment, as
 * lists decide it: the same snapshot shows b once its date has come (its
 * collection keeps future entries private), c in 2100, d (a draft) never. */
static void test_relations_follow_the_request_moment(void)
{
	open_site();
	assert_rendered("a", "related", Y2019, NULL, "[]");
	assert_rendered("a", "related", Y2021, NULL, "[" B_EN "]");
	assert_rendered("a", "related", Y2100, NULL, "[" B_EN "," C_EN "]");
	close_site();
}

/* A localization's relations are the related entries' localizations in
 * its site; one without a localization there is left out. */
static void test_relations_are_localized(void)
{
	open_site();
	assert_rendered("a-fr", "related", Y2100, NULL,
	                "[{\"id\":\"b-fr\",\"title\":\"B-fr\",\"url\":\"\\/fr\\/posts\\/b\","
	                "\"permalink\":\"http:\\/\\/h\\/fr\\/posts\\/b\","
	                "\"api_url\":\"http:\\/\\/h\\/api\\/collections\\/posts\\/entries\\/b-fr\"}]");
	close_site();
}

/* excluded_keys reach into the short objects of relations. */
static void test_excluded_keys_inside_relations(void)
{
	open_site();
	assert_rendered("a", "related", Y2021, "api_url, permalink",
	                "[{\"id\":\"b\",\"title\":\"B\",\"url\":\"\\/posts\\/b\"}]");
	assert_rendered("a", "author", Y2021, "api_url", "{\"id\":5,\"name\":\"Ada\",\"email\":\"ada@example.com\"}");
	assert_rendered("a", "topics", Y2021, "api_url,permalink,url",
	                "[{\"id\":\"topics::alpha\",\"title\":\"Alpha\",\"slug\":\"alpha\"},"
	                "{\"id\":\"topics::beta\",\"title\":\"beta\",\"slug\":\"beta\"}]");
	close_site();
}

/* One lookup of users: the stored '5' and 5 both name user 5. */
static void test_user_ids_as_text_or_number(void)
{
	open_site();
	const char *ada = "{\"id\":5,\"name\":\"Ada\",\"email\":\"ada@example.com\","
	                  "\"api_url\":\"http:\\/\\/h\\/api\\/users\\/5\"}";
	assert_rendered("a", "author", Y2021, NULL, ada);
	assert_rendered("a", "updated_by", Y2021, NULL, ada);
	close_site();
}

/* A collection's taxonomy is a terms field whether or not the blueprint
 * declares it: term objects, not bare slugs; a term without a file is
 * titled by its slug. Queries see the stored slugs. */
static void test_taxonomy_fields_are_terms(void)
{
	open_site();
	/* The collection lists the taxonomy and the field is named like it:
	 * Statamic sees the terms through the collection, under its handle. */
	assert_rendered("a", "topics", Y2021, NULL,
	                "[{\"id\":\"topics::alpha\",\"title\":\"Alpha\",\"slug\":\"alpha\",\"url\":\"\\/posts\\/topics\\/alpha\","
	                "\"permalink\":\"http:\\/\\/h\\/posts\\/topics\\/alpha\","
	                "\"api_url\":\"http:\\/\\/h\\/api\\/taxonomies\\/topics\\/terms\\/alpha\"},"
	                "{\"id\":\"topics::beta\",\"title\":\"beta\",\"slug\":\"beta\",\"url\":\"\\/posts\\/topics\\/beta\","
	                "\"permalink\":\"http:\\/\\/h\\/posts\\/topics\\/beta\","
	                "\"api_url\":\"http:\\/\\/h\\/api\\/taxonomies\\/topics\\/terms\\/beta\"}]");
	/* An entry that names no topic still has the field. */
	assert_rendered("b", "topics", Y2021, NULL, "[]");
	value_t topics = value_map_getz(snap_entry_at(snap, snap_entry_find(snap, "a")).data, "topics");
	CU_ASSERT_STRING_EQUAL(value_str(value_array_get(value_raw(topics), 0), NULL), "alpha");
	CU_ASSERT_STRING_EQUAL(value_str(value_array_get(value_raw(topics), 1), NULL), "beta");
	close_site();
}

/* The url of each term of entry id's key, as JSON (in a site made of
 * files, name and text pairs ending in NULL). */
static void assert_term_urls(const char *const *site, const char *id, const char *key,
                             const char *want)
{
	char *d = unit_tempdir();
	for (size_t i = 0; site[i]; i += 2)
		CU_ASSERT_EQUAL_FATAL(unit_write_file(d, site[i], site[i + 1]), 0);
	struct config cfg;
	config_init_defaults(&cfg);
	free(cfg.content_root);
	cfg.content_root = strdup(d);
	strlist_split(&cfg.excluded_keys, "id, permalink, api_url");
	struct snapshot *s = unit_snapshot(&cfg);
	value_t v = value_map_getz(snap_entry_at(s, snap_entry_find(s, id)).data, key);
	char *got = unit_render(s, v, Y2021, &cfg);
	CU_ASSERT_STRING_EQUAL(got, want);
	if (strcmp(got, want) != 0)
		fprintf(stderr, "\n%s.%s: got  %s\n%*swant %s\n", id, key, got,
		        (int)(strlen(id) + strlen(key) + 2), "", want);
	free(got);
	snapshot_close(s);
	config_free(&cfg);
	unit_rmtree(d);
	free(d);
}

/* Statamic sees an entry's terms through its collection (their urls under
 * the collection's mount, in the entry's site) only in the entry's own
 * field named like its one taxonomy, which the collection lists; a term
 * the entry's site does not have is left out. */
static void test_terms_seen_through_the_collection(void)
{
	static const char *const site[] = {
		"resources/sites.yaml", "en: {url: /}\nfr: {url: /fr/}\n",
		"config/statamic/system.php", "<?php return ['multisite' => true];\n",
		"content/collections/pages.yaml", "route: '{slug}'\nsites: [en, fr]\n",
		"content/collections/pages/en/home.md", "---\nid: home\ntitle: Home\n---\n",
		"content/collections/pages/fr/accueil.md", "---\nid: home-fr\norigin: home\n---\n",
		"content/collections/guides.yaml",
		"route: '/guides/{slug}'\nmount: home\nsites: [en, fr]\ntaxonomies: [topics]\n",
		"content/collections/notes.yaml", "route: '/notes/{slug}'\ntaxonomies: [topics, tags]\n",
		"content/taxonomies/topics.yaml", "title: Topics\nsites: [en, fr]\n",
		"content/taxonomies/topics/alpha.yaml",
		"title: Alpha\nlocalizations:\n  fr: {title: Alpha-fr, slug: alpha-fr}\n",
		"content/taxonomies/tags.yaml", "title: Tags\n",
		"resources/blueprints/collections/guides/guide.yaml",
		"fields:\n"
		"  - {handle: topics, field: {type: terms, taxonomies: [topics]}}\n"
		"  - {handle: other, field: {type: terms, taxonomies: [topics]}}\n"
		"  - {handle: ghosts, field: {type: terms, taxonomies: [tags]}}\n"
		"  - handle: blocks\n    field:\n      type: replicator\n      sets:\n        s:\n"
		"          fields:\n            - {handle: topics, field: {type: terms, taxonomies: [topics]}}\n",
		"resources/blueprints/collections/notes/note.yaml",
		"fields:\n  - {handle: topics, field: {type: terms, taxonomies: [topics, tags]}}\n",
		"content/collections/guides/en/g.md",
		"---\nid: g\ntopics: [alpha]\nother: [alpha]\nghosts: [boo]\n"
		"blocks: [{id: x, type: s, topics: [alpha]}]\n---\n",
		"content/collections/guides/fr/g.md", "---\nid: g-fr\norigin: g\n---\n",
		"content/collections/notes/en/n.md", "---\nid: n\ntopics: ['topics::alpha']\n---\n",
		NULL};
	const char *alpha = "{\"title\":\"Alpha\",\"slug\":\"alpha\",\"url\":";
	struct strbuf want = STRBUF_INIT;
	strbuf_addf(&want, "[%s\"\\/home\\/topics\\/alpha\"}]", alpha);
	assert_term_urls(site, "g", "topics", want.ptr);
	strbuf_reset(&want);
	strbuf_addf(&want, "[%s\"\\/topics\\/alpha\"}]", alpha);
	assert_term_urls(site, "g", "other", want.ptr);
	assert_term_urls(site, "n", "topics", want.ptr);
	strbuf_reset(&want);
	strbuf_addf(&want, "[{\"topics\":[%s\"\\/topics\\/alpha\"}],\"id\":\"x\",\"type\":\"s\"}]", alpha);
	assert_term_urls(site, "g", "blocks", want.ptr);
	assert_term_urls(site, "g", "ghosts", "[]");
	assert_term_urls(site, "g-fr", "topics",
	                 "[{\"title\":\"Alpha-fr\",\"slug\":\"alpha-fr\","
	                 "\"url\":\"\\/fr\\/accueil\\/topics\\/alpha-fr\"}]");
	strbuf_release(&want);
}

#define P2 "{\"id\":\"p2\",\"title\":\"P2\",\"url\":\"\\/p1\\/p2\",\"permalink\":\"http:\\/\\/h\\/p1\\/p2\"," \
           "\"api_url\":\"http:\\/\\/h\\/api\\/collections\\/pages\\/entries\\/p2\"}"
#define P3 "{\"id\":\"p3\",\"title\":\"P3\",\"url\":\"\\/p1\\/p3\",\"permalink\":\"http:\\/\\/h\\/p1\\/p3\"," \
           "\"api_url\":\"http:\\/\\/h\\/api\\/collections\\/pages\\/entries\\/p3\"}"

/* Link fields are objects (Statamic's ArrayableLink): @child the first
 * child's short object ({url: null} without children), entry::id the
 * entry's. */
static void test_links(void)
{
	open_site();
	assert_rendered("p1", "go", Y2021, NULL, P2);
	assert_rendered("p2", "go", Y2021, NULL, P3);
	assert_rendered("p3", "go", Y2021, NULL, "{\"url\":null}");
	close_site();
}

/* Bard links to statamic://entry::id are the entry's URL; one to an item
 * that is gone loses its href. */
static void test_bard_links(void)
{
	open_site();
	assert_rendered("a", "story", Y2021, NULL,
	                "\"<p><a href=\\\"\\/posts\\/b\\\">see<\\/a><a>gone<\\/a><\\/p>\"");
	close_site();
}

/* Imports and references inside a replicator's sets are followed, so the
 * sets' fields are augmented by their own config (markdown here). */
static void test_imports_inside_nested_fields(void)
{
	open_site();
	assert_rendered("a", "blocks", Y2021, NULL,
	                "[{\"cite\":\"<p><em>hi<\\/em><\\/p>\\n\",\"id\":\"x1\",\"type\":\"quote\"},"
	                "{\"body\":\"<p><strong>b<\\/strong><\\/p>\\n\",\"id\":\"x2\",\"type\":\"card\"}]");
	close_site();
}

void suite_relations(void)
{
	CU_pSuite s = unit_add_suite("relations and links");
	unit_add_test(s, "relations follow the request's moment", test_relations_follow_the_request_moment);
	unit_add_test(s, "relations are localized", test_relations_are_localized);
	unit_add_test(s, "excluded keys inside relations", test_excluded_keys_inside_relations);
	unit_add_test(s, "user ids as text or number", test_user_ids_as_text_or_number);
	unit_add_test(s, "taxonomy fields are terms", test_taxonomy_fields_are_terms);
	unit_add_test(s, "terms seen through the collection", test_terms_seen_through_the_collection);
	unit_add_test(s, "links", test_links);
	unit_add_test(s, "bard links", test_bard_links);
	unit_add_test(s, "imports inside nested fields", test_imports_inside_nested_fields);
}
