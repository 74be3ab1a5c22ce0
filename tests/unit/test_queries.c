/* Unit tests: what a list asks beyond Statamic's filters (OR groups,
 * filters through relations, query scopes, search) and the INI sections
 * that define scopes and shapes. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "core/config.h"
#include "http/error.h"
#include "http/request.h"
#include "http/response.h"
#include "lib/jsonr.h"
#include "lib/jsonw.h"
#include "lib/strbuf.h"
#include "query/filter.h"
#include "query/filterparams.h"
#include "query/search.h"
#include "unit.h"

/* --- filter parameters --- */

/* "key@group|key@group..." of the request's filters ('-' for the top). */
static void params_of(const char *uri, char *out, size_t size, int *status)
{
	struct request req;
	request_from_uri(&req, "GET", uri);
	struct filter_params p;
	struct http_error e = HTTP_ERROR_INIT;
	*status = filter_params_read(&req, &p, &e);
	struct strbuf s = STRBUF_INIT;
	for (size_t i = 0; *status == 0 && i < p.n; i++) {
		if (p.items[i].group == FILTER_TOP)
			strbuf_addf(&s, "%s%s=%s@-", i ? "|" : "", p.items[i].key, p.items[i].value);
		else
			strbuf_addf(&s, "%s%s=%s@%zu", i ? "|" : "", p.items[i].key, p.items[i].value,
			            p.items[i].group);
	}
	if (*status)
		strbuf_addstr(&s, strbuf_str(&e.message));
	snprintf(out, size, "%s", strbuf_str(&s));
	strbuf_release(&s);
	http_error_free(&e);
	filter_params_free(&p);
	request_free(&req);
}

static void expect_params(const char *query, int want_status, const char *want)
{
	char uri[512], got[1024];
	int status;
	snprintf(uri, sizeof uri, "/api/collections/blog/entries?%s", query);
	params_of(uri, got, sizeof got, &status);
	CU_ASSERT_EQUAL(status, want_status);
	CU_ASSERT_STRING_EQUAL(got, want);
	if (status != want_status || strcmp(got, want) != 0)
		fprintf(stderr, "\n%s\n got: %d %s\nwant: %d %s\n", query, status, got, want_status, want);
}

static void test_filter_groups(void)
{
	expect_params("filter[title:contains]=a&sort=x", 0, "title:contains=a@-");
	expect_params("filter[or][0][title:contains]=a&filter[or][1][tags:in]=b&filter[featured]=true",
	              0, "title:contains=a@0|tags:in=b@1|featured=true@-");
	/* Groups are named by number, in any order, and several filters make
	 * one group. */
	expect_params("filter[or][7][a]=1&filter[or][3][b]=2&filter[or][7][c]=3", 0,
	              "a=1@0|b=2@1|c=3@0");
	/* A field called "or" is a field. */
	expect_params("filter[or]=x", 0, "or=x@-");
#define BAD_GROUP "Malformed filter group %s: write filter[or][N][field:condition], N a " \
	"number, one level deep."
	const char *malformed[] = {"filter[or][x][title]", "filter[or][0][]", "filter[or][0]x][a]",
	                           "filter[or][12345][a]", "filter[or][0][or][1][a]",
	                           "filter[or][0][a][b]"};
	for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++) {
		char query[128], want[300];
		snprintf(query, sizeof query, "%s=1", malformed[i]);
		snprintf(want, sizeof want, BAD_GROUP, malformed[i]);
		expect_params(query, 400, want);
	}
	char *field = filter_param_field("taxonomy:tags:in");
	CU_ASSERT_STRING_EQUAL(field, "taxonomy:tags");
	free(field);
	field = filter_param_field("categories.slug:is");
	CU_ASSERT_STRING_EQUAL(field, "categories.slug");
	free(field);
}

/* --- filters through relations --- */

/* A reader over a fake world: a reference's raw value names a map in it,
 * whose keys it reads. */
static value_t fake_related(void *ctx, value_t ref, const char *key,
                            struct value_builder *scratch)
{
	value_t world = *(const value_t *)ctx;
	value_t item = value_map_getz(world, value_str(value_ref_raw(ref), NULL));
	vb_reset(scratch);
	vb_value(scratch, value_map_getz(item, key));
	return value_is_missing(value_map_getz(item, key)) ? VALUE_MISSING : vb_result(scratch);
}

static void ref(struct value_builder *b, enum ref_kind kind, const char *id)
{
	vb_ref_begin(b, kind, UINT32_MAX);
	vb_strz(b, id);
	vb_map_begin(b);
	vb_keyz(b, "id");
	vb_strz(b, id);
	vb_map_end(b);
	vb_ref_end(b);
}

static bool passes(const char *key, const char *value, value_t item, value_t world)
{
	struct regex_budget budget;
	regex_budget_init(&budget, 100000);
	struct filter f;
	char err[FILTER_ERR_LEN];
	CU_ASSERT_EQUAL_FATAL(filter_parse(key, value, 0, &budget, &f, err), 0);
	struct relation_reader rr = {fake_related, NULL, &world};
	bool m = filter_match_path(&f, value_map_getz(item, f.path[0]), 1, &rr);
	filter_free(&f);
	return m;
}

static void test_relation_filters(void)
{
	struct value_builder world = VALUE_BUILDER_INIT, item = VALUE_BUILDER_INIT;
	vb_map_begin(&world);
	vb_keyz(&world, "waste");
	vb_map_begin(&world);
	vb_keyz(&world, "slug");
	vb_strz(&world, "waste");
	vb_map_end(&world);
	vb_keyz(&world, "food");
	vb_map_begin(&world);
	vb_keyz(&world, "slug");
	vb_strz(&world, "food");
	vb_keyz(&world, "author");
	ref(&world, REF_USER, "ada");
	vb_map_end(&world);
	vb_keyz(&world, "ada");
	vb_map_begin(&world);
	vb_keyz(&world, "name");
	vb_strz(&world, "Ada");
	vb_map_end(&world);
	vb_map_end(&world);

	vb_map_begin(&item);
	vb_keyz(&item, "categories"); /* a relationship field of two terms */
	vb_ref_begin(&item, REF_FIELD, UINT32_MAX);
	vb_array_begin(&item);
	vb_strz(&item, "waste");
	vb_strz(&item, "food");
	vb_array_end(&item);
	vb_array_begin(&item);
	ref(&item, REF_TERM, "waste");
	ref(&item, REF_TERM, "food");
	vb_array_end(&item);
	vb_ref_end(&item);
	vb_keyz(&item, "none"); /* one that names nothing */
	vb_ref_begin(&item, REF_FIELD, UINT32_MAX);
	vb_array_begin(&item);
	vb_array_end(&item);
	vb_array_begin(&item);
	vb_array_end(&item);
	vb_ref_end(&item);
	vb_keyz(&item, "seo");
	vb_map_begin(&item);
	vb_keyz(&item, "noindex");
	vb_bool(&item, true);
	vb_map_end(&item);
	vb_map_end(&item);

	value_t w = vb_result(&world), it = vb_result(&item);
	CU_ASSERT_TRUE(passes("categories.slug:is", "waste", it, w));
	CU_ASSERT_TRUE(passes("categories.slug", "FOOD", it, w));
	CU_ASSERT_FALSE(passes("categories.slug", "glass", it, w));
	/* Two relations deep: a term's author's name. */
	CU_ASSERT_TRUE(passes("categories.author.name:contains", "ad", it, w));
	CU_ASSERT_FALSE(passes("categories.author.name:contains", "bob", it, w));
	/* Nothing related: the related value is missing. */
	CU_ASSERT_TRUE(passes("none.slug:is_empty", "true", it, w));
	CU_ASSERT_FALSE(passes("none.slug", "waste", it, w));
	/* The field itself still compares what the content stores. */
	CU_ASSERT_TRUE(passes("categories:overlaps", "food", it, w));
	/* Maps are walked as before. */
	CU_ASSERT_TRUE(passes("seo.noindex", "true", it, w));
	vb_release(&world);
	vb_release(&item);
}

/* --- jsonr: what a shape plug-in gives back --- */

/* text read and written again by jsonw, or "error: ..." */
static void reread(const char *text, char *out, size_t size)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	char err[JSONR_ERR_LEN];
	if (jsonr_parse(text, strlen(text), &b, err) != 0) {
		snprintf(out, size, "error: %s", err);
	} else {
		struct strbuf json = STRBUF_INIT;
		struct jsonw w;
		jsonw_init(&w, &json);
		jsonw_value(&w, vb_result(&b));
		snprintf(out, size, "%s", strbuf_str(&json));
		strbuf_release(&json);
	}
	vb_release(&b);
}

static void expect_reread(const char *text, const char *want)
{
	char got[1024];
	reread(text, got, sizeof got);
	CU_ASSERT_STRING_EQUAL(got, want);
	if (strcmp(got, want) != 0)
		fprintf(stderr, "\n%s\n got: %s\nwant: %s\n", text, got, want);
}

static void test_jsonr(void)
{
	expect_reread(" {\"a\": [1, -2.5, 1e3, true, false, null, \"x\"], \"b\": {}} ",
	              "{\"a\":[1,-2.5,1000.0,true,false,null,\"x\"],\"b\":[]}");
	/* Escapes, a surrogate pair, a lone surrogate. */
	expect_reread("\"\\\"\\/\\n\\u00e9\\ud83d\\ude00\\ud800x\"",
	              "\"\\\"\\/\\n\\u00e9\\ud83d\\ude00\\ufffdx\"");
	expect_reread("99999999999999999999", "1.0e+20");
	expect_reread("{\"a\":1,}", "error: a missing key at byte 7");
	expect_reread("[1 2]", "error: a missing ',' or ']' at byte 3");
	expect_reread("{\"a\" 1}", "error: a missing ':' at byte 5");
	expect_reread("\"a\nb\"", "error: a control character in a string at byte 3");
	expect_reread("01", "error: text after the value at byte 1");
	expect_reread("[1] x", "error: text after the value at byte 4");
	expect_reread("\"\\q\"", "error: an unknown escape at byte 3");
	expect_reread("", "error: a missing value at byte 0");
	expect_reread("-", "error: a bad number at byte 1");
	expect_reread("[", "error: a missing value at byte 1");
	char deep[200];
	memset(deep, '[', sizeof deep - 1);
	deep[sizeof deep - 1] = '\0';
	char got[256];
	reread(deep, got, sizeof got);
	CU_ASSERT_STRING_EQUAL(got, "error: nesting too deep at byte 64");
}

/* --- search: the index behind q= --- */

/* A list of documents "id|locale|title|body". */
struct docs {
	const char *const *rows;
	size_t n;
};

static value_t doc_value(void *self, uint32_t item, const char *key, struct value_builder *scratch)
{
	const struct docs *d = self;
	const char *row = d->rows[item];
	static const char *const keys[] = {"id", "locale", "title", "body"};
	for (size_t k = 0; k < 4; k++) {
		const char *end = strchr(row, '|');
		size_t len = end ? (size_t)(end - row) : strlen(row);
		if (strcmp(key, keys[k]) == 0) {
			vb_reset(scratch);
			vb_str(scratch, row, len);
			return vb_result(scratch);
		}
		row = end ? end + 1 : row + len;
	}
	return VALUE_MISSING;
}

/* The numbers of the items of list matching words, "1,0" (best first). */
static void found(struct search_index *ix, const char *list, const char *words, char *out,
                  size_t size)
{
	uint32_t *items;
	size_t n;
	char err[256];
	out[0] = '\0';
	CU_ASSERT_EQUAL_FATAL(search_find(ix, list, words, &items, &n, err, sizeof err), 0);
	size_t at = 0;
	for (size_t i = 0; i < n && at < size; i++)
		at += (size_t)snprintf(out + at, size - at, "%s%u", i ? "," : "", items[i]);
	free(items);
}

static void sync_docs(struct search_index *ix, const char *list, uint64_t generation,
                      const struct docs *d, struct search_stats *stats)
{
	struct strlist fields = {NULL, 0};
	strlist_split(&fields, "title, body");
	struct search_source src = {d->n, doc_value, (void *)d};
	char err[256];
	CU_ASSERT_EQUAL(search_sync(ix, list, generation, &fields, &src, stats, err, sizeof err), 0);
	strlist_free(&fields);
}

static void test_search(void)
{
	struct search_index *ix;
	char err[256], got[128];
	CU_ASSERT_EQUAL_FATAL(search_index_open(&ix, err, sizeof err), 0);
	static const char *const v1[] = {
		"a|en|Crème brûlée|Baking a custard.", "b|en|Winter bread|We bake loaves; creme fraiche.",
		"c|en|Notes|On bread, and the oven.", "c|en|Notes again|the same id and locale: bread",
		"c|de|Notizen|Brot und Ofen.",
	};
	struct docs d1 = {v1, 5};
	struct search_stats st;
	sync_docs(ix, "entries/blog", 1, &d1, &st);
	CU_ASSERT(st.synced);
	CU_ASSERT_EQUAL(st.written, 5);
	CU_ASSERT_EQUAL(st.removed, 0);
	found(ix, "entries/blog", "CREME", got, sizeof got);
	CU_ASSERT_STRING_EQUAL(got, "0,1"); /* folded; the title's match first */
	found(ix, "entries/blog", "baked", got, sizeof got);
	CU_ASSERT_STRING_EQUAL(got, "0,1"); /* stemmed */
	found(ix, "entries/blog", "bread", got, sizeof got);
	CU_ASSERT_STRING_EQUAL(got, "1,2,3");
	found(ix, "entries/blog", "bread oven", got, sizeof got);
	CU_ASSERT_STRING_EQUAL(got, "2");
	found(ix, "entries/blog", "\"bread OR NEAR( * - ^x", got, sizeof got);
	CU_ASSERT_STRING_EQUAL(got, "");
	found(ix, "entries/other", "bread", got, sizeof got);
	CU_ASSERT_STRING_EQUAL(got, "");
	/* The same generation: nothing read. */
	sync_docs(ix, "entries/blog", 1, &d1, &st);
	CU_ASSERT(!st.synced);
	/* Another: only what changed is written, what is gone removed, and
	 * the items' numbers follow them. */
	static const char *const v2[] = {
		"c|de|Notizen|Brot und Ofen.", "c|en|Notes|On the oven alone.",
		"a|en|Crème brûlée|Baking a custard.", "d|en|Bread rolls|Soft.",
	};
	struct docs d2 = {v2, 4};
	sync_docs(ix, "entries/blog", 2, &d2, &st);
	CU_ASSERT(st.synced);
	CU_ASSERT_EQUAL(st.written, 2);  /* c|en changed, d new */
	CU_ASSERT_EQUAL(st.removed, 2);  /* b, and the second c|en */
	found(ix, "entries/blog", "bread", got, sizeof got);
	CU_ASSERT_STRING_EQUAL(got, "3");
	found(ix, "entries/blog", "custard", got, sizeof got);
	CU_ASSERT_STRING_EQUAL(got, "2");
	found(ix, "entries/blog", "ofen", got, sizeof got);
	CU_ASSERT_STRING_EQUAL(got, "0");
	CU_ASSERT(search_index_bytes(ix) > 0);
	CU_ASSERT(search_has_words(" a "));
	CU_ASSERT(!search_has_words(" \t"));
	search_index_close(ix);
}

/* --- the INI's scopes and shapes --- */

static char *dir;
static struct config cfg;
static char err[CONFIG_ERR_LEN];

static int load(const char *sections)
{
	if (!dir)
		dir = unit_tempdir();
	struct strbuf text = STRBUF_INIT;
	strbuf_addf(&text, "[content]\nroot = %s/site\n%s", FIXTURES_DIR, sections);
	CU_ASSERT_EQUAL_FATAL(unit_write_file(dir, "q.ini", text.ptr), 0);
	strbuf_release(&text);
	char path[600];
	snprintf(path, sizeof path, "%s/q.ini", dir);
	config_free(&cfg);
	err[0] = '\0';
	return config_load(&cfg, path, err);
}

static void expect_error(const char *sections, const char *message)
{
	CU_ASSERT_EQUAL(load(sections), -1);
	const char *colon = strstr(err, ".ini:");
	const char *got = colon ? strchr(colon + 5, ' ') : NULL;
	CU_ASSERT_PTR_NOT_NULL_FATAL(got);
	CU_ASSERT_STRING_EQUAL(got + 1, message);
	if (strcmp(got + 1, message) != 0)
		fprintf(stderr, "\n got: %s\nwant: %s\n", got + 1, message);
}

static void test_scopes_config(void)
{
	CU_ASSERT_EQUAL_FATAL(load("[scope.featured]\nfilter[featured] = true\n"
	                           "filter[title:contains] = a:b\nsort = -date\n"
	                           "[scope.staff]\nresources = users, collections.team\n"), 0);
	const struct scope_def *s = config_scope(&cfg, "featured");
	CU_ASSERT_PTR_NOT_NULL_FATAL(s);
	CU_ASSERT_EQUAL_FATAL(s->nfilters, 2);
	CU_ASSERT_STRING_EQUAL(s->filters[0].key, "featured");
	CU_ASSERT_STRING_EQUAL(s->filters[0].value, "true");
	/* inih would have cut the key at its colon. */
	CU_ASSERT_STRING_EQUAL(s->filters[1].key, "title:contains");
	CU_ASSERT_STRING_EQUAL(s->filters[1].value, "a:b");
	CU_ASSERT_STRING_EQUAL(s->sort, "-date");
	CU_ASSERT_TRUE(scope_applies(s, RES_COLLECTIONS, "blog"));
	const struct scope_def *staff = config_scope(&cfg, "staff");
	CU_ASSERT_TRUE(scope_applies(staff, RES_USERS, NULL));
	CU_ASSERT_TRUE(scope_applies(staff, RES_COLLECTIONS, "team"));
	CU_ASSERT_FALSE(scope_applies(staff, RES_COLLECTIONS, "blog"));
	CU_ASSERT_FALSE(scope_applies(staff, RES_TAXONOMIES, "team"));
	CU_ASSERT_PTR_NULL(config_scope(&cfg, "nope"));

	expect_error("[scope.a]\nlimit = 3\n",
	             "unknown key 'limit' in [scope.a] (filter[<field>:<condition>], sort, resources)");
	expect_error("[scope.a b]\n", "unknown section [scope.a b]: a scope is named by letters, "
	             "digits, '_' and '-'");
	expect_error("[scope.a]\n[scope.a]\n", "section [scope.a] appears twice");
}

static void test_shapes_config(void)
{
	CU_ASSERT_EQUAL_FATAL(load("[shape.entries]\ndrop = blueprint\n"
	                           "[shape.entries.blog]\nkeys = id, title, author\n"
	                           "rename.title = headline\nkeys.author = name\n"
	                           "[shape]\nplugin = /x/shape.so\ngreeting = hi\n"
	                           "[resources.collections.*]\nsearch = title\n"
	                           "[resources.collections.blog]\nsearch = title, content\n"
	                           "[resources.collections.docs]\nsearch =\n"), 0);
	const struct shape_def *blog = config_shape(&cfg, SHAPE_ENTRIES, "blog");
	CU_ASSERT_PTR_NOT_NULL_FATAL(blog);
	CU_ASSERT_TRUE(blog->keys_set);
	CU_ASSERT_EQUAL(blog->keys.len, 3);
	CU_ASSERT_EQUAL_FATAL(blog->nrenames, 1);
	CU_ASSERT_STRING_EQUAL(blog->renames[0].to, "headline");
	CU_ASSERT_EQUAL_FATAL(blog->nnested, 1);
	CU_ASSERT_STRING_EQUAL(blog->nested[0].field, "author");
	/* Another collection takes the type's section. */
	const struct shape_def *other = config_shape(&cfg, SHAPE_ENTRIES, "pages");
	CU_ASSERT_PTR_NOT_NULL_FATAL(other);
	CU_ASSERT_PTR_NULL(other->handle);
	CU_ASSERT_PTR_NULL(config_shape(&cfg, SHAPE_TERMS, "tags"));
	CU_ASSERT_STRING_EQUAL(cfg.shape_plugin_path, "/x/shape.so");
	CU_ASSERT_EQUAL_FATAL(cfg.nshape_options, 1);
	CU_ASSERT_STRING_EQUAL(cfg.shape_options[0].key, "greeting");
	const struct strlist *search = search_fields(&cfg, RES_COLLECTIONS, "blog");
	CU_ASSERT_PTR_NOT_NULL_FATAL(search);
	CU_ASSERT_EQUAL(search->len, 2);
	CU_ASSERT_EQUAL(search_fields(&cfg, RES_COLLECTIONS, "pages")->len, 1);
	/* An empty list turns search off where the wildcard would give it. */
	CU_ASSERT_PTR_NULL(search_fields(&cfg, RES_COLLECTIONS, "docs"));
	CU_ASSERT_PTR_NULL(search_fields(&cfg, RES_TAXONOMIES, "tags"));

	expect_error("[shape.posts]\n", "unknown section [shape.posts]: shapes are [shape.<type>] or "
	             "[shape.<type>.<handle>], type one of entries, terms, globals, assets, users "
	             "(no handle), pages");
	expect_error("[shape.users.x]\n", "unknown section [shape.users.x]: shapes are "
	             "[shape.<type>] or [shape.<type>.<handle>], type one of entries, terms, "
	             "globals, assets, users (no handle), pages");
	expect_error("[shape.users]\nrename.email = password\n",
	             "[shape.users] rename.email: password is never served, and no key may be "
	             "called so");
	expect_error("[shape.terms]\nhide = x\n",
	             "unknown key 'hide' in [shape.terms] (keys, drop, rename.<key>, keys.<field>)");
	expect_error("[shape]\nplugin = shape.so\n",
	             "[shape] plugin: a plug-in is named by its absolute path, not shape.so");
	expect_error("[resources.users]\nsearch = name\n", "unknown key 'search' in [resources.users]");
	config_free(&cfg);
}

static void cleanup(void)
{
	config_free(&cfg);
	if (dir) {
		unit_rmtree(dir);
		free(dir);
		dir = NULL;
	}
}

static void test_cleanup(void)
{
	cleanup();
	CU_PASS("cleaned");
}

/* The OpenAPI document names what a list asks beyond Statamic (q= where
 * the list searches, query_scope with the scopes meant for it, OR groups,
 * include= and depth=, keep= on trees), and nothing of q= where the list
 * does not search. */
static void test_openapi_names_them(void)
{
	char *tmp = unit_tempdir();
	struct strbuf ini = STRBUF_INIT, path = STRBUF_INIT;
	strbuf_addf(&ini, "[api]\nenabled = true\nopenapi = true\n[content]\nroot = %s/site\n"
	            "[cache]\nenabled = false\n[resources]\ncollections = true\n"
	            "[resources.collections.blog]\nallowed_filters = title, tags.title\n"
	            "search = title, content\n[resources.collections.docs]\n"
	            "allowed_filters = title\n[scope.fresh]\nsort = -date\n"
	            "resources = collections.blog\n",
	            FIXTURES_DIR);
	CU_ASSERT_EQUAL_FATAL(unit_write_file(tmp, "o.ini", ini.ptr), 0);
	strbuf_addf(&path, "%s/o.ini", tmp);
	char why[CONFIG_ERR_LEN] = "";
	struct app app;
	int rc = app_open(&app, path.ptr, APP_PRIVATE, why);
	if (rc != 0)
		fprintf(stderr, "%s\n", why);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	struct response res;
	response_init(&res);
	struct request req;
	request_from_uri(&req, "GET", "/api/openapi.json");
	unit_handle(&app, &req, &res);
	request_free(&req);
	CU_ASSERT_EQUAL(res.status, 200);
	const char *doc = strbuf_str(&res.body);
	/* Each operation's parameters, cut out of the document by path. */
	const char *blog = strstr(doc, "\"\\/collections\\/blog\\/entries\":");
	const char *docs = strstr(doc, "\"\\/collections\\/docs\\/entries\":");
	const char *tree = strstr(doc, "\"\\/collections\\/pages\\/tree\":");
	CU_ASSERT_PTR_NOT_NULL_FATAL(blog);
	CU_ASSERT_PTR_NOT_NULL_FATAL(docs);
	CU_ASSERT_PTR_NOT_NULL_FATAL(tree);
	char *blog_op = strndup(blog, (size_t)(strstr(blog, "\"head\"") - blog));
	char *docs_op = strndup(docs, (size_t)(strstr(docs, "\"head\"") - docs));
	char *tree_op = strndup(tree, (size_t)(strstr(tree, "\"head\"") - tree));
	CU_ASSERT_PTR_NOT_NULL(strstr(blog_op, "#\\/components\\/parameters\\/search\""));
	CU_ASSERT_PTR_NULL(strstr(docs_op, "#\\/components\\/parameters\\/search\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(blog_op, "\"name\":\"query_scope\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(blog_op, "Here: fresh."));
	CU_ASSERT_PTR_NOT_NULL(strstr(docs_op, "Here: none."));
	CU_ASSERT_PTR_NOT_NULL(strstr(blog_op, "\"or\":{\"type\":\"object\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(blog_op, "tags\\\\.title"));
	CU_ASSERT_PTR_NOT_NULL(strstr(blog_op, "#\\/components\\/parameters\\/include\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(blog_op, "#\\/components\\/parameters\\/depth\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(tree_op, "#\\/components\\/parameters\\/keep\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(doc, "\"search\":{\"name\":\"q\",\"in\":\"query\""));
	free(blog_op);
	free(docs_op);
	free(tree_op);
	response_free(&res);
	app_close(&app);
	strbuf_release(&ini);
	strbuf_release(&path);
	unit_rmtree(tmp);
	free(tmp);
}

void suite_queries(void)
{
	CU_pSuite s = unit_add_suite("queries beyond Statamic");
	unit_add_test(s, "filter groups", test_filter_groups);
	unit_add_test(s, "filters through relations", test_relation_filters);
	unit_add_test(s, "JSON read back", test_jsonr);
	unit_add_test(s, "search", test_search);
	unit_add_test(s, "scopes in the INI", test_scopes_config);
	unit_add_test(s, "shapes in the INI", test_shapes_config);
	unit_add_test(s, "the OpenAPI document names them", test_openapi_names_them);
	unit_add_test(s, "cleanup", test_cleanup);
}
