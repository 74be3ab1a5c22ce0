/* Unit tests: cache tags (site/tags.h) and an answer's set of them within
 * a header's limits (lib/tagset.h). */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "core/config.h"
#include "lib/strbuf.h"
#include "lib/tagset.h"
#include "site/tags.h"
#include "unit.h"

static char *written(const struct tagset *s, size_t count, size_t bytes, bool *whole)
{
	struct tag_limits lim = {count, bytes, ' '};
	struct strbuf out = STRBUF_INIT;
	*whole = tagset_write(s, &lim, "any", &out);
	return strbuf_detach(&out, NULL);
}

/* Tags are kept once, in order; past a limit each gives way to its
 * coarser tag, and past that the overflow tag stands for those cut. */
static void test_tagset_limits(void)
{
	struct tagset s = TAGSET_INIT;
	tagset_add(&s, "all", NULL);
	tagset_add(&s, "e.1", "el.blog");
	tagset_add(&s, "e.2", "el.blog");
	tagset_add(&s, "e.1", "el.blog");
	tagset_add(&s, "t.tags.a", "tl.tags");
	CU_ASSERT_TRUE(tagset_has(&s, "e.2"));
	CU_ASSERT_FALSE(tagset_has(&s, "el.blog"));
	bool whole;
	char *v = written(&s, 0, 0, &whole);
	CU_ASSERT_STRING_EQUAL(v, "all e.1 e.2 t.tags.a");
	CU_ASSERT_TRUE(whole);
	free(v);
	v = written(&s, 3, 0, &whole);
	CU_ASSERT_STRING_EQUAL(v, "all el.blog tl.tags");
	CU_ASSERT_FALSE(whole);
	free(v);
	v = written(&s, 0, 19, &whole);
	CU_ASSERT_STRING_EQUAL(v, "all el.blog tl.tags");
	free(v);
	/* Even coarse they do not fit: what fits, and "any". */
	v = written(&s, 2, 0, &whole);
	CU_ASSERT_STRING_EQUAL(v, "all any");
	free(v);
	v = written(&s, 0, 15, &whole);
	CU_ASSERT_STRING_EQUAL(v, "all el.blog any");
	free(v);
	struct tag_limits comma = {0, 0, ','};
	struct strbuf out = STRBUF_INIT;
	tagset_write(&s, &comma, "any", &out);
	CU_ASSERT_STRING_EQUAL(out.ptr, "all,e.1,e.2,t.tags.a");
	strbuf_release(&out);
	tagset_clear(&s);
	CU_ASSERT_FALSE(tagset_has(&s, "all"));
	tagset_add(&s, "all", NULL);
	CU_ASSERT_EQUAL(s.n, 1);
	tagset_free(&s);
}

static char *name(const char *prefix, enum tag_kind kind, const char *a, const char *b)
{
	struct strbuf out = STRBUF_INIT;
	tag_name(&out, prefix, kind, a, b);
	return strbuf_detach(&out, NULL);
}

static void assert_name(const char *prefix, enum tag_kind kind, const char *a, const char *b,
                        const char *want)
{
	char *got = name(prefix, kind, a, b);
	CU_ASSERT_STRING_EQUAL(got, want);
	free(got);
}

/* Plain handles as they are; paths, odd and long handles hashed; every
 * tag short and of the alphabet every CDN takes. */
static void test_tag_names(void)
{
	assert_name("", TAG_ALL, NULL, NULL, "all");
	assert_name("s1.", TAG_ENTRIES, "blog", NULL, "s1.el.blog");
	assert_name("", TAG_TERM, "tags", "news", "t.tags.news");
	assert_name("", TAG_GLOBAL, "settings", NULL, "g.settings");
	char *e = name("", TAG_ENTRY, "content/collections/blog/a.md", NULL);
	char *e2 = name("", TAG_ENTRY, "content/collections/blog/b.md", NULL);
	CU_ASSERT_EQUAL(strlen(e), 18);
	CU_ASSERT_NSTRING_EQUAL(e, "e.", 2);
	CU_ASSERT_STRING_NOT_EQUAL(e, e2);
	free(e);
	free(e2);
	const char *odd[] = {"café", "a b", "a,b", "a:b", "a.b",
	                     "a-handle-that-is-much-too-long-to-be-written-plainly"};
	for (size_t i = 0; i < sizeof odd / sizeof odd[0]; i++) {
		char *t = name("", TAG_NAV, odd[i], NULL);
		CU_ASSERT_EQUAL(strlen(t), 2 + 1 + 16);
		CU_ASSERT_NSTRING_EQUAL(t, "n.~", 3);
		free(t);
		t = name("", TAG_TERM, "tags", odd[i]);
		CU_ASSERT_NSTRING_EQUAL(t, "t.~", 3);
		CU_ASSERT(strlen(t) <= TAG_MAX_LEN);
		free(t);
	}
	/* An asset by its disk and path: a different disk, a different tag. */
	char *a = name("", TAG_ASSET, "assets", "img/a.png");
	char *b = name("", TAG_ASSET, "other", "img/a.png");
	CU_ASSERT_STRING_NOT_EQUAL(a, b);
	free(a);
	free(b);
}

static char *change(const char *event, const char *disk, const char *path, bool *placed)
{
	struct tagset s = TAGSET_INIT;
	*placed = tags_of_change("", event, disk, path, &s);
	struct tag_limits lim = {0, 0, ' '};
	struct strbuf out = STRBUF_INIT;
	tagset_write(&s, &lim, "any", &out);
	tagset_free(&s);
	return strbuf_detach(&out, NULL);
}

static void assert_change(const char *event, const char *disk, const char *path,
                          const char *want)
{
	bool placed;
	char *got = change(event, disk, path, &placed);
	CU_ASSERT_TRUE(placed);
	CU_ASSERT_STRING_EQUAL(got, want);
	if (strcmp(got, want) != 0)
		fprintf(stderr, "\n%s %s: got %s\n", event, path, got);
	free(got);
}

/* A change names the same tags as the answers that show what changed. */
static void test_tags_of_change(void)
{
	char *entry = name("", TAG_ENTRY, "content/collections/blog/en/a.md", NULL);
	struct strbuf want = STRBUF_INIT;
	strbuf_addf(&want, "%s el.blog", entry);
	assert_change("EntrySaved", NULL, "content/collections/blog/en/a.md", want.ptr);
	assert_change("EntryDeleted", NULL, "content/collections/blog/en/a.md", want.ptr);
	free(entry);
	assert_change("TermSaved", NULL, "content/taxonomies/tags/news.yaml", "t.tags.news tl.tags");
	assert_change("GlobalVariablesSaved", NULL, "content/globals/de/settings.yaml",
	              "g.settings globals");
	assert_change("GlobalSetSaved", NULL, "content/globals/settings.yaml", "g.settings globals");
	assert_change("NavTreeSaved", NULL, "content/trees/navigation/en/main.yaml", "n.main navs");
	assert_change("NavSaved", NULL, "content/navigation/main.yaml", "n.main navs");
	assert_change("FormSaved", NULL, "resources/forms/contact.yaml", "f.contact forms");
	assert_change("UserSaved", NULL, "users/ada.yaml", "users");
	char *asset = name("", TAG_ASSET, "assets", "img/a.png");
	strbuf_reset(&want);
	strbuf_addf(&want, "%s al.assets", asset);
	assert_change("AssetSaved", "assets", "img/a.png", want.ptr);
	/* Its data in the .meta folder is the asset's too. */
	assert_change("AssetSaved", "assets", "img/.meta/a.png.yaml", want.ptr);
	free(asset);
	strbuf_release(&want);
	/* What may touch any answer is not placed: everything is purged. */
	const char *anywhere[][2] = {{"BlueprintSaved", "resources/blueprints/collections/blog/post.yaml"},
	                             {"CollectionSaved", "content/collections/blog.yaml"},
	                             {"CollectionTreeSaved", "content/trees/collections/pages.yaml"},
	                             {"SiteSaved", "resources/sites.yaml"},
	                             {"ContentSaved", "content/collections/blog"}};
	for (size_t i = 0; i < sizeof anywhere / sizeof anywhere[0]; i++) {
		bool placed;
		free(change(anywhere[i][0], NULL, anywhere[i][1], &placed));
		CU_ASSERT_FALSE(placed);
	}
}

/* The header tags_header of app's answer to GET uri ("(none)" without
 * one); closes app. */
static char *answer_tags(struct app *app, const char *tags_header, const char *uri, int *status)
{
	struct response res;
	response_init(&res);
	struct request req;
	request_from_uri(&req, "GET", uri);
	unit_handle(app, &req, &res);
	request_free(&req);
	*status = res.status;
	const char *h = response_header(&res, tags_header);
	char *got = strdup(h ? h : "(none)");
	response_free(&res);
	app_close(app);
	return got;
}

/* The tags header of GET uri on the fixture site with tags_header. */
static char *tags_of(const char *tags_header, const char *uri, int *status)
{
	struct config cfg;
	config_init_defaults(&cfg);
	free(cfg.content_root);
	cfg.content_root = strdup(FIXTURES_DIR "/site");
	cfg.enabled = true;
	cfg.resources[RES_COLLECTIONS].type_set = cfg.resources[RES_COLLECTIONS].type_value = true;
	cfg.resources[RES_GLOBALS].type_set = cfg.resources[RES_GLOBALS].type_value = true;
	free(cfg.edge_tags_header);
	cfg.edge_tags_header = strdup(tags_header);
	struct app app;
	app_open_with_config(&app, &cfg, APP_PRIVATE);
	return answer_tags(&app, tags_header, uri, status);
}

/* An answer names what it shows: the entry, its collection's list, what
 * it relates to (an entry, a term, an asset, a user); a 404 names only
 * what every purge reaches; an error none; with the header off, none. */
static void test_answers_carry_tags(void)
{
	int status;
	char *entry = name("", TAG_ENTRY, "content/collections/blog/en/2024-02-01-1430.launch.md", NULL);
	char *related = name("", TAG_ENTRY, "content/collections/blog/en/2024-01-10.hello-world.md",
	                     NULL);
	char *got = tags_of("xkey", "/api/collections/blog/entries/1f2e3d4c-0000-4000-8000-000000000003",
	                    &status);
	CU_ASSERT_EQUAL(status, 200);
	CU_ASSERT_NSTRING_EQUAL(got, "all ", 4);
	CU_ASSERT_PTR_NOT_NULL(strstr(got, entry));
	CU_ASSERT_PTR_NOT_NULL(strstr(got, related));
	CU_ASSERT_PTR_NOT_NULL(strstr(got, " t.tags.news"));
	CU_ASSERT_PTR_NOT_NULL(strstr(got, " users"));
	CU_ASSERT_PTR_NULL(strstr(got, "el.blog")); /* one entry: not the list's */
	free(got);
	got = tags_of("Cache-Tag", "/api/collections/blog/entries?limit=1", &status);
	CU_ASSERT_NSTRING_EQUAL(got, "all,el.blog,e.", 14);
	free(got);
	got = tags_of("Edge-Cache-Tag", "/api/globals/settings", &status);
	CU_ASSERT_STRING_EQUAL(got, "all,g.settings");
	free(got);
	got = tags_of("xkey", "/api/collections/blog/entries/nope", &status);
	CU_ASSERT_EQUAL(status, 404);
	CU_ASSERT_STRING_EQUAL(got, "all any");
	free(got);
	got = tags_of("xkey", "/api/collections/blog/entries?limit=x", &status);
	CU_ASSERT_EQUAL(status, 400);
	CU_ASSERT_STRING_EQUAL(got, "(none)");
	free(got);
	got = tags_of("", "/api/collections/blog/entries?limit=1", &status);
	CU_ASSERT_EQUAL(status, 200);
	free(got);
	free(entry);
	free(related);
}

/* The xkey header of GET uri on the fixture site, configured by the INI
 * sections given (tags on). */
static char *tags_with(const char *sections, const char *uri, int *status)
{
	char *dir = unit_tempdir();
	struct strbuf path = STRBUF_INIT, text = STRBUF_INIT;
	strbuf_addf(&text, "[api]\nenabled = true\n[content]\nroot = %s/site\n"
	            "[cache]\nenabled = false\n[edge]\ntags_header = xkey\n"
	            "[resources]\ncollections = true\ntaxonomies = true\n%s",
	            FIXTURES_DIR, sections);
	CU_ASSERT_EQUAL_FATAL(unit_write_file(dir, "t.ini", text.ptr), 0);
	strbuf_addf(&path, "%s/t.ini", dir);
	char err[CONFIG_ERR_LEN] = "";
	struct app app;
	int rc = app_open(&app, path.ptr, APP_PRIVATE, err);
	if (rc != 0)
		fprintf(stderr, "%s\n", err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	char *got = answer_tags(&app, "xkey", uri, status);
	strbuf_release(&text);
	strbuf_release(&path);
	unit_rmtree(dir);
	free(dir);
	return got;
}

/* What a list read through a relation (a dotted filter, in an OR group
 * too) is named among its tags, whether or not an item passed: an edit of
 * it may change which items pass. */
static void test_relations_carry_tags(void)
{
	int status;
	char *hello = name("", TAG_ENTRY, "content/collections/blog/en/2024-01-10.hello-world.md",
	                   NULL);
	/* Launch relates to Hello World, whose title is not "Nope": nothing
	 * passes, yet an edit of Hello World's title could change that. */
	char *got = tags_with("[resources.collections.blog]\nallowed_filters = related.title\n",
	                      "/api/collections/blog/entries?filter[related.title]=Nope", &status);
	CU_ASSERT_EQUAL(status, 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(got, hello));
	free(got);
	/* The same through an OR group and through a term's key. */
	got = tags_with("[resources.collections.blog]\nallowed_filters = related.title, tags.title\n",
	                "/api/collections/blog/entries?filter[or][0][related.title]=Nope"
	                "&filter[or][1][tags.title]=Nope",
	                &status);
	CU_ASSERT_EQUAL(status, 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(got, hello));
	CU_ASSERT_PTR_NOT_NULL(strstr(got, " t.tags.news"));
	free(got);
	free(hello);
}

void suite_tags(void)
{
	CU_pSuite s = unit_add_suite("tags");
	unit_add_test(s, "tag set within limits", test_tagset_limits);
	unit_add_test(s, "tag names", test_tag_names);
	unit_add_test(s, "tags of a change", test_tags_of_change);
	unit_add_test(s, "answers carry tags", test_answers_carry_tags);
	unit_add_test(s, "what relations read carries tags", test_relations_carry_tags);
}
