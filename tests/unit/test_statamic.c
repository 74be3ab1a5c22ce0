/*
 * Unit tests: entries, terms, URLs, trees and sites as Statamic 6 gives
 * them (the golden answers of ../shared/oracle showed each case), asked of
 * the whole pipeline on small sites written for each test.
 */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "http/request.h"
#include "http/response.h"
#include "lib/strbuf.h"
#include "site/snapshot.h"
#include "unit.h"

static struct app app;
static struct response res;
static char *dir;

/* Opens the site an INI (its text) names, from the INI's own file in the
 * test's folder. Returns app_open's result. */
static int open_with_ini(const char *ini)
{
	struct strbuf path = STRBUF_INIT;
	CU_ASSERT_EQUAL_FATAL(unit_write_file(dir, "cms-api.ini", ini), 0);
	strbuf_addf(&path, "%s/cms-api.ini", dir);
	char err[CONFIG_ERR_LEN] = "";
	int rc = app_open(&app, path.ptr, APP_PRIVATE, err);
	if (rc != 0)
		fprintf(stderr, "open_with_ini: %s\n", err);
	strbuf_release(&path);
	response_init(&res);
	return rc;
}

#define OPEN_INI                                                                        \
	"[api]\nenabled = true\n[cache]\nenabled = false\n[rate_limit]\nper_minute = 0\n" \
	"[resources]\ncollections = true\nnavs = true\ntaxonomies = true\nglobals = true\n" \
	"sites = true\n"

/* Opens the site made of files (name and text pairs, NULL-ended) with an
 * INI of its own beside it: the API on, every resource on, nothing
 * cached, and the lines of ini added. Returns app_open's result. */
static int open_site(const char *const *files, const char *ini)
{
	dir = unit_tempdir();
	for (size_t i = 0; files[i]; i += 2)
		CU_ASSERT_EQUAL_FATAL(unit_write_file(dir, files[i], files[i + 1]), 0);
	struct strbuf text = STRBUF_INIT;
	strbuf_addf(&text, OPEN_INI "[content]\nroot = .\n%s", ini ? ini : "");
	int rc = open_with_ini(text.ptr);
	strbuf_release(&text);
	return rc;
}

static void close_site(void)
{
	response_free(&res);
	app_close(&app);
	unit_rmtree(dir);
	free(dir);
}

/* The body of GET uri; the status must be status. */
static const char *get(const char *uri, int status)
{
	struct request req;
	response_free(&res);
	response_init(&res);
	request_from_uri(&req, "GET", uri);
	unit_handle(&app, &req, &res);
	request_free(&req);
	CU_ASSERT_EQUAL(res.status, status);
	return strbuf_str(&res.body);
}

static void assert_get(const char *uri, const char *want)
{
	const char *got = get(uri, 200);
	CU_ASSERT_STRING_EQUAL(got, want);
	if (strcmp(got, want) != 0)
		fprintf(stderr, "\nGET %s\n  got  %s\n  want %s\n", uri, got, want);
}

#define API "http:\\/\\/localhost\\/api\\/collections\\/pages\\/entries\\/"

/* --- parent --- */

static const char *const tree_site[] = {
	"content/collections/pages.yaml", "route: '{parent_uri}/{slug}'\nstructure: {root: true}\n",
	"content/trees/collections/pages.yaml",
	"tree:\n  - {entry: home}\n  - entry: about\n    children: [{entry: team}]\n",
	"content/collections/pages/home.md", "---\nid: home\ntitle: Home\n---\n",
	"content/collections/pages/about.md", "---\nid: about\ntitle: About\n---\n",
	"content/collections/pages/team.md", "---\nid: team\ntitle: Team\n---\n",
	"resources/blueprints/collections/pages/page.yaml",
	"fields:\n  - {handle: title, field: {type: text}}\n"
	"  - {handle: parent, field: {type: entries, max_items: 1}}\n",
	"content/collections/notes.yaml", "route: '/notes/{slug}'\n",
	"content/collections/notes/n.md", "---\nid: n\ntitle: N\nparent: home\n---\n",
	NULL};

/* A structured entry's `parent` (a blueprint field, or a data key) is the
 * page above it: the root page above the top level of a tree that has
 * one; null elsewhere; never on tree pages. (Without a sort, entries come
 * in path order, as Statamic's Stache gives them.) */
static void test_parent(void)
{
	CU_ASSERT_EQUAL_FATAL(open_site(tree_site, NULL), 0);
	assert_get("/api/collections/pages/entries?fields=id,parent",
	           "{\"data\":[{\"id\":\"about\",\"parent\":{\"id\":\"home\",\"title\":\"Home\",\"url\":\"\\/\","
	           "\"permalink\":\"http:\\/\\/localhost\",\"api_url\":\"" API "home\"}},"
	           "{\"id\":\"home\",\"parent\":null},"
	           "{\"id\":\"team\",\"parent\":{\"id\":\"about\",\"title\":\"About\",\"url\":\"\\/about\","
	           "\"permalink\":\"http:\\/\\/localhost\\/about\",\"api_url\":\"" API "about\"}}],"
	           "\"links\":{\"first\":\"http:\\/\\/localhost\\/api\\/collections\\/pages\\/entries"
	           "?fields=id%2Cparent&limit=25&page=1\",\"last\":\"http:\\/\\/localhost\\/api\\/"
	           "collections\\/pages\\/entries?fields=id%2Cparent&limit=25&page=1\",\"prev\":null,"
	           "\"next\":null},\"meta\":{\"current_page\":1,\"from\":1,\"last_page\":1,\"links\":["
	           "{\"url\":null,\"label\":\"&laquo; Previous\",\"page\":null,\"active\":false},{\"url\":"
	           "\"http:\\/\\/localhost\\/api\\/collections\\/pages\\/entries?fields=id%2Cparent&limit="
	           "25&page=1\",\"label\":\"1\",\"page\":1,\"active\":true},{\"url\":null,\"label\":"
	           "\"Next &raquo;\",\"page\":null,\"active\":false}],\"path\":\"http:\\/\\/localhost\\/"
	           "api\\/collections\\/pages\\/entries\",\"per_page\":25,\"to\":3,\"total\":3}}");
	/* The whole entry has it too (the worker's rendered copy). */
	const char *team = get("/api/collections/pages/entries/team", 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(team, "\"parent\":{\"id\":\"about\""));
	/* Data that names a parent does not make one. */
	assert_get("/api/collections/notes/entries/n?fields=parent", "{\"data\":{\"parent\":null}}");
	/* Tree pages leave it out, as Statamic's AugmentedPage does. */
	const char *tree = get("/api/collections/pages/tree", 200);
	CU_ASSERT_PTR_NULL(strstr(tree, "\"parent\""));
	close_site();
}

/* --- template --- */

static const char *const template_site[] = {
	"content/collections/blog.yaml", "template: blog.show\n",
	"content/collections/notes.yaml", "title: Notes\n",
	"resources/blueprints/collections/blog/post.yaml",
	"fields:\n  - {handle: template, field: {type: template}}\n",
	"resources/blueprints/collections/notes/note.yaml",
	"fields:\n  - {handle: template, field: {type: template}}\n",
	"content/collections/blog/a.md", "---\nid: a\n---\n",
	"content/collections/blog/b.md", "---\nid: b\ntemplate: custom\n---\n",
	"content/collections/notes/c.md", "---\nid: c\n---\n",
	"content/collections/notes/d.md", "---\nid: d\ntemplate: '@blueprint'\n---\n",
	"content/taxonomies/tags.yaml", "term_template: tags.page\n",
	"content/taxonomies/tags/x.yaml", "title: X\n",
	"content/taxonomies/topics.yaml", "title: Topics\n",
	"content/taxonomies/topics/y.yaml", "title: Y\n",
	"resources/blueprints/taxonomies/tags/tag.yaml",
	"fields:\n  - {handle: template, field: {type: template}}\n",
	"resources/blueprints/taxonomies/topics/topic.yaml",
	"fields:\n  - {handle: template, field: {type: template}}\n",
	NULL};

/* An entry's or term's `template`, when it has the key but no value, is
 * the one it renders with: the collection's template, else "default";
 * the taxonomy's term_template, else "{taxonomy}.show". */
static void test_template(void)
{
	CU_ASSERT_EQUAL_FATAL(open_site(template_site, NULL), 0);
	assert_get("/api/collections/blog/entries/a?fields=template",
	           "{\"data\":{\"template\":\"blog.show\"}}");
	assert_get("/api/collections/blog/entries/b?fields=template",
	           "{\"data\":{\"template\":\"custom\"}}");
	assert_get("/api/collections/notes/entries/c?fields=template",
	           "{\"data\":{\"template\":\"default\"}}");
	assert_get("/api/collections/notes/entries/d?fields=template",
	           "{\"data\":{\"template\":\"notes.note\"}}");
	assert_get("/api/taxonomies/tags/terms/x?fields=template",
	           "{\"data\":{\"template\":\"tags.page\"}}");
	assert_get("/api/taxonomies/topics/terms/y?fields=template",
	           "{\"data\":{\"template\":\"topics.show\"}}");
	close_site();
}

/* --- one entry by slug --- */

static const char *const two_sites[] = {
	"resources/sites.yaml", "en: {url: /}\nde: {url: /de}\n",
	"config/statamic/system.php", "<?php return ['multisite' => true];\n",
	"content/collections/pages.yaml", "route: '/{slug}'\nsites: [en, de]\n",
	"content/collections/pages/en/contact.md", "---\nid: kontakt\ntitle: Contact\n---\n",
	"content/collections/pages/de/kontakt.md", "---\nid: k-de\norigin: kontakt\ntitle: Kontakt\n---\n",
	NULL};

/* A slug asked for in ?site= names that site's entry even when another
 * site's entry has it as its id; ids still come first otherwise. */
static void test_slug_in_site(void)
{
	CU_ASSERT_EQUAL_FATAL(open_site(two_sites, NULL), 0);
	assert_get("/api/collections/pages/entries/kontakt?site=de&fields=id,title",
	           "{\"data\":{\"id\":\"k-de\",\"title\":\"Kontakt\"}}");
	assert_get("/api/collections/pages/entries/kontakt?fields=id",
	           "{\"data\":{\"id\":\"kontakt\"}}");
	assert_get("/api/collections/pages/entries/kontakt?site=en&fields=id",
	           "{\"data\":{\"id\":\"kontakt\"}}");
	assert_get("/api/collections/pages/entries/k-de?site=en&fields=id",
	           "{\"data\":{\"id\":\"k-de\"}}");
	close_site();
}

/* --- mount --- */

static const char *const mount_site[] = {
	"resources/sites.yaml", "en: {url: /}\nde: {url: /de}\n",
	"config/statamic/system.php", "<?php return ['multisite' => true];\n",
	"content/collections/pages.yaml", "route: '/{slug}'\nsites: [en, de]\n",
	"content/collections/blog.yaml", "title: Blog\nroute: '{mount}/{slug}'\nmount: home\n",
	"content/collections/pages/en/home.md", "---\nid: home\n---\n",
	"content/collections/pages/de/heim.md", "---\nid: home-de\norigin: home\n---\n",
	"content/collections/pages/en/own.md", "---\nid: own\nmount: mine\n---\n",
	NULL};

/* `mount`: the collection mounted on the entry, or on its origin; the
 * entry's own value first. */
static void test_mount(void)
{
	CU_ASSERT_EQUAL_FATAL(open_site(mount_site, NULL), 0);
	const char *blog = "{\"data\":{\"mount\":{\"title\":\"Blog\",\"handle\":\"blog\"}}}";
	assert_get("/api/collections/pages/entries/home?fields=mount", blog);
	assert_get("/api/collections/pages/entries/home-de?fields=mount", blog);
	assert_get("/api/collections/pages/entries/own?fields=mount", "{\"data\":{\"mount\":\"mine\"}}");
	close_site();
}

/* --- redirects --- */

static const char *const redirect_site[] = {
	"content/collections/pages.yaml", "route: '{parent_uri}/{slug}'\nstructure: {root: true}\n",
	"content/trees/collections/pages.yaml",
	"tree:\n  - {entry: home}\n  - entry: about\n    children: [{entry: team}]\n"
	"  - {entry: old}\n  - {entry: ext}\n  - {entry: gone}\n  - {entry: num}\n"
	"  - {entry: file}\n  - {entry: rel}\n",
	"content/collections/pages/home.md", "---\nid: home\nredirect: '@child'\n---\n",
	"content/collections/pages/about.md", "---\nid: about\nredirect: '@child'\n---\n",
	"content/collections/pages/team.md", "---\nid: team\n---\n",
	"content/collections/pages/old.md", "---\nid: old\nredirect: 'entry::about'\n---\n",
	"content/collections/pages/ext.md", "---\nid: ext\nredirect: 'https://example.com/x'\n---\n",
	"content/collections/pages/gone.md", "---\nid: gone\nredirect: 'entry::nope'\n---\n",
	"content/collections/pages/num.md", "---\nid: num\nredirect: 404\n---\n",
	"content/collections/pages/file.md", "---\nid: file\nredirect: 'asset::files::a.pdf'\n---\n",
	"content/collections/pages/rel.md", "---\nid: rel\nredirect: /elsewhere/\n---\n",
	"content/collections/notes.yaml", "route: '/notes/{slug}'\n",
	"resources/blueprints/collections/notes/note.yaml",
	"fields:\n  - {handle: see, field: {type: entries, max_items: 1}}\n",
	"content/collections/notes/n.md", "---\nid: n\nsee: ext\n---\n",
	"content/assets/files.yaml", "disk: files\n",
	"files/a.pdf", "%PDF",
	NULL};

static void assert_urls(const char *id, const char *url, const char *permalink)
{
	struct strbuf uri = STRBUF_INIT, want = STRBUF_INIT;
	strbuf_addf(&uri, "/api/collections/pages/entries/%s?fields=url,permalink", id);
	strbuf_addf(&want, "{\"data\":{\"url\":%s,\"permalink\":%s}}", url, permalink);
	assert_get(uri.ptr, want.ptr);
	strbuf_release(&uri);
	strbuf_release(&want);
}

/* An entry with a redirect has the target as its url and permalink
 * (ResolveRedirect): @child, entry::, asset::, a URL as written; one whose
 * target is gone (or 404) has its own. */
static void test_redirects(void)
{
	CU_ASSERT_EQUAL_FATAL(
		open_site(redirect_site, "[disks.files]\nroot = files\nurl = /files\n"), 0);
	const char *team = "\"\\/about\\/team\"", *team_abs = "\"http:\\/\\/localhost\\/about\\/team\"";
	assert_urls("about", team, team_abs);
	assert_urls("home", team, team_abs); /* the root page's child: the page after it */
	assert_urls("old", team, team_abs);  /* to an entry that redirects in turn */
	assert_urls("ext", "\"https:\\/\\/example.com\\/x\"", "\"https:\\/\\/example.com\\/x\"");
	assert_urls("gone", "\"\\/gone\"", "\"http:\\/\\/localhost\\/gone\"");
	assert_urls("num", "\"\\/num\"", "\"http:\\/\\/localhost\\/num\"");
	assert_urls("file", "\"\\/files\\/a.pdf\"", "\"http:\\/\\/localhost\\/files\\/a.pdf\"");
	assert_urls("rel", "\"\\/elsewhere\\/\"", "\"http:\\/\\/localhost\\/elsewhere\"");
	/* The uri stays the entry's own. */
	assert_get("/api/collections/pages/entries/ext?fields=uri", "{\"data\":{\"uri\":\"\\/ext\"}}");
	/* A relation to it shows the target too. */
	assert_get("/api/collections/notes/entries/n?fields=see",
	           "{\"data\":{\"see\":{\"id\":\"ext\",\"title\":null,\"url\":\"https:\\/\\/example.com\\/x\","
	           "\"permalink\":\"https:\\/\\/example.com\\/x\",\"api_url\":\"" API "ext\"}}}");
	close_site();
}

/* --- Statamic 3.0 layouts --- */

/* config/statamic/sites.php names the sites (config() and env()
 * defaults read, a dotted handle); navigation trees are per site in
 * content/navigation/{site}/, collection trees in the collection file. */
static void test_v3_multisite(void)
{
	dir = unit_tempdir();
	CU_ASSERT_EQUAL_FATAL(
		open_with_ini(OPEN_INI "[content]\nroot = " FIXTURES_DIR "/v3-multisite\n"), 0);
	assert_get("/api/sites",
	           "{\"data\":[{\"handle\":\"default\",\"name\":\"Statamic\",\"locale\":\"en_US\","
	           "\"short_locale\":\"en\",\"url\":\"http:\\/\\/localhost\\/\"},{\"handle\":\"fr\","
	           "\"name\":\"Fran\\u00e7ais\",\"locale\":\"fr_FR\",\"short_locale\":\"fr\","
	           "\"url\":\"http:\\/\\/localhost\\/fr\"},{\"handle\":\"v2.3\",\"name\":\"Docs 2.3\","
	           "\"locale\":\"en_US\",\"short_locale\":\"en\",\"url\":\"http:\\/\\/localhost\\/v2.3\"}]}");
	assert_get("/api/navs/main/tree?fields=title,url",
	           "{\"data\":[{\"page\":{\"title\":\"About\",\"url\":\"\\/about\"},\"depth\":1,"
	           "\"children\":[]},{\"page\":{\"title\":\"Docs\",\"url\":\"\\/docs\"},\"depth\":1,"
	           "\"children\":[]}]}");
	assert_get("/api/navs/main/tree?site=fr&fields=title,url",
	           "{\"data\":[{\"page\":{\"title\":\"Accueil\",\"url\":\"\\/fr\"},\"depth\":1,"
	           "\"children\":[]}]}");
	assert_get("/api/navs/main/tree?site=v2.3&fields=title,url",
	           "{\"data\":[{\"page\":{\"title\":\"Installing 2.3\",\"url\":\"\\/v2.3\\/install\"},"
	           "\"depth\":1,\"children\":[]}]}");
	assert_get("/api/collections/pages/tree?site=v2.3&fields=title,url",
	           "{\"data\":[{\"page\":{\"title\":\"Docs 2.3\",\"url\":\"\\/v2.3\"},\"depth\":1,"
	           "\"children\":[]},{\"page\":{\"title\":\"Install\",\"url\":\"\\/v2.3\\/install\"},"
	           "\"depth\":1,\"children\":[]}]}");
	assert_get("/api/collections/pages/entries/install?site=v2.3&fields=id,locale",
	           "{\"data\":{\"id\":\"old-install\",\"locale\":\"v2.3\"}}");
	CU_ASSERT_EQUAL(snap_problem_count(app.follow.snap), 0);
	close_site();
}

/* A sites.php cms-api cannot read is an error of the site (check fails
 * with its line), never a quiet single site; the INI's [sites.*], dotted
 * handles too, stand in for it. */
static void test_sites_php_unread(void)
{
	static const char *const files[] = {
		"config/statamic/sites.php",
		"<?php\n\nreturn [\n    'sites' => [\n        'en' => ['url' => $base . '/'],\n    ],\n];\n",
		"content/collections/pages.yaml", "title: Pages\n",
		NULL};
	CU_ASSERT_EQUAL_FATAL(open_site(files, NULL), 0);
	const struct snapshot *s = app.follow.snap;
	CU_ASSERT_EQUAL_FATAL(snap_problem_count(s), 1);
	struct snap_problem p = snap_problem_at(s, 0);
	CU_ASSERT_FALSE(p.warning);
	CU_ASSERT_STRING_EQUAL(p.path, "config/statamic/sites.php");
	CU_ASSERT_EQUAL(p.line, 5);
	CU_ASSERT_PTR_NOT_NULL(strstr(p.message, "cannot read '$'"));
	CU_ASSERT_PTR_NOT_NULL(strstr(p.message, "[sites.*]"));
	close_site();

	CU_ASSERT_EQUAL_FATAL(open_site(files, "[sites.en]\nurl = /\n[sites.v2.3]\nname = Old\n"
	                                       "url = /v2.3/\n"),
	                      0);
	CU_ASSERT_EQUAL(snap_problem_count(app.follow.snap), 0);
	assert_get("/api/sites",
	           "{\"data\":[{\"handle\":\"en\",\"name\":\"en\",\"locale\":\"en_US\",\"short_locale\":"
	           "\"en\",\"url\":\"http:\\/\\/localhost\\/\"},{\"handle\":\"v2.3\",\"name\":\"Old\","
	           "\"locale\":\"en_US\",\"short_locale\":\"en\",\"url\":\"http:\\/\\/localhost\\/v2.3\"}]}");
	close_site();
}

void suite_statamic(void)
{
	CU_pSuite s = unit_add_suite("as Statamic gives them");
	unit_add_test(s, "parent", test_parent);
	unit_add_test(s, "template", test_template);
	unit_add_test(s, "a slug in ?site=", test_slug_in_site);
	unit_add_test(s, "mount", test_mount);
	unit_add_test(s, "redirects", test_redirects);
	unit_add_test(s, "Statamic 3.0 multi-site", test_v3_multisite);
	unit_add_test(s, "a sites.php not read", test_sites_php_unread);
}
