/* Unit tests: the router (app/router.h): its route table, the "{*}" tail,
 * the enabling gate of spec §3 and the per-user abilities gate. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/router.h"
#include "core/config.h"
#include "guard/abilities.h"
#include "lib/strbuf.h"
#include "lib/url.h"
#include "unit.h"

/* A path's segments as app.c hands them to the router: split on '/',
 * empty segments kept, each percent-decoded. */
struct segs {
	char **s;
	size_t n;
};

static void split(const char *path, struct segs *out)
{
	out->s = NULL;
	out->n = 0;
	if (!*path)
		return;
	for (const char *p = path;;) {
		const char *slash = strchr(p, '/');
		size_t len = slash ? (size_t)(slash - p) : strlen(p);
		out->s = xrealloc(out->s, (out->n + 1) * sizeof *out->s);
		out->s[out->n++] = url_decode(p, len, false);
		if (!slash)
			break;
		p = slash + 1;
	}
}

static void segs_free(struct segs *segs)
{
	for (size_t i = 0; i < segs->n; i++)
		free(segs->s[i]);
	free(segs->s);
}

/* A path matched: its segments, the route and the context it filled. */
struct matched {
	struct segs segs;
	const struct route *route;
	struct api_ctx ctx;
};

static const struct route *match(const char *path, struct matched *m)
{
	memset(m, 0, sizeof *m);
	split(path, &m->segs);
	m->route = router_match(m->segs.s, m->segs.n, &m->ctx);
	return m->route;
}

static void matched_free(struct matched *m)
{
	free(m->ctx.tail);
	segs_free(&m->segs);
}

/* The route's parameters joined by ',' ("" for none). */
static const char *params_of(const struct api_ctx *ctx)
{
	static char out[512];
	out[0] = '\0';
	for (size_t i = 0; i < ctx->nparams; i++) {
		size_t used = strlen(out);
		snprintf(out + used, sizeof out - used, "%s%s", i ? "," : "", ctx->params[i]);
	}
	return out;
}

/* --- the route table ------------------------------------------------------ */

static const struct {
	const char *path;
	api_handler handler;
	const char *params;
} routes_wanted[] = {
	/* The route itself: the index of what answers (api/index.c). */
	{"", api_index, ""},
	{"ping", api_ping, ""},
	{"openapi.json", api_openapi, ""},
	{"sites", api_sites_index, ""},
	{"collections", api_collections_index, ""},
	{"collections/blog", api_collections_show, "blog"},
	{"collections/blog/entries", api_entries_index, "blog"},
	{"collections/blog/entries/first-post", api_entries_show, "blog,first-post"},
	{"collections/blog/tree", api_collection_tree, "blog"},
	{"navs", api_navs_index, ""},
	{"navs/footer", api_navs_show, "footer"},
	{"navs/footer/tree", api_navs_tree, "footer"},
	{"taxonomies", api_taxonomies_index, ""},
	{"taxonomies/tags", api_taxonomies_show, "tags"},
	{"taxonomies/tags/terms", api_terms_index, "tags"},
	{"taxonomies/tags/terms/red", api_terms_show, "tags,red"},
	{"taxonomies/tags/terms/red/entries", api_term_entries, "tags,red"},
	{"globals", api_globals_index, ""},
	{"globals/footer", api_globals_show, "footer"},
	{"forms", api_forms_index, ""},
	{"forms/contact", api_forms_show, "contact"},
	{"users", api_users_index, ""},
	{"users/user-ada", api_users_show, "user-ada"},
	{"asset-containers", api_asset_containers_index, ""},
	{"asset-containers/main", api_asset_containers_show, "main"},
	{"assets/main", api_assets_index, "main"},
	{"assets/main/a.jpg", api_assets_show, "main,a.jpg"},
	{"img/main/photos/a.jpg", api_images_show, "main,photos/a.jpg"},
	/* Parameters are the decoded segments, whatever they spell. */
	{"collections/tree", api_collections_show, "tree"},
	{"collections/entries/entries/entries", api_entries_show, "entries,entries"},
	{"collections/a%20b/entries/x%2Fy", api_entries_show, "a b,x/y"},
	{"navs/%2E%2E", api_navs_show, ".."},
};

static void test_every_route(void)
{
	for (size_t i = 0; i < sizeof routes_wanted / sizeof routes_wanted[0]; i++) {
		struct matched m;
		const struct route *r = match(routes_wanted[i].path, &m);
		CU_ASSERT_PTR_NOT_NULL(r);
		bool right = r && r->handler == routes_wanted[i].handler &&
		             strcmp(params_of(&m.ctx), routes_wanted[i].params) == 0;
		CU_ASSERT_TRUE(right);
		if (!right)
			fprintf(stderr, "\n%s: %s (%s)\n", routes_wanted[i].path,
			        r ? r->pattern : "no route", params_of(&m.ctx));
		matched_free(&m);
	}
}

static void test_nothing_else_matches(void)
{
	static const char *const paths[] = {
		"pings", "Ping", "openapi", "openapi.yaml", "img", "img/main", "img/main/..", "ping/x", "site", "sites/en", "Collections",
		"collections/blog/entry", "collections/blog/entries/x/y", "collections/blog/tree/x",
		"collections/blog/x", "navs/footer/trees", "navs/footer/tree/x",
		"taxonomies/tags/term", "taxonomies/tags/terms/red/entries/x",
		"taxonomies/tags/terms/red/x", "globals/a/b", "forms/a/b", "users/a/b",
		"asset-containers/main/x", "assets", "asset", "api/ping", "ping%2Fx",
		/* An empty segment is a segment (app.c drops a trailing '/'). */
		"ping/", "/ping", "/", "sites/",
	};
	for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
		struct matched m;
		const struct route *r = match(paths[i], &m);
		CU_ASSERT_PTR_NULL(r);
		/* A match tried half way leaves no parameter behind. */
		CU_ASSERT_EQUAL(m.ctx.nparams, 0);
		if (r)
			fprintf(stderr, "\n%s matched %s\n", paths[i], r->pattern);
		matched_free(&m);
	}
}

/* A failed match empties the parameters a previous one left. */
static void test_no_match_clears_the_parameters(void)
{
	struct matched m;
	CU_ASSERT_PTR_NOT_NULL_FATAL(match("collections/blog/entries/x", &m));
	CU_ASSERT_EQUAL(m.ctx.nparams, 2);
	struct segs other;
	split("collections/blog/entries/x/y", &other);
	CU_ASSERT_PTR_NULL(router_match(other.s, other.n, &m.ctx));
	CU_ASSERT_EQUAL(m.ctx.nparams, 0);
	segs_free(&other);
	matched_free(&m);
}

/* --- the "{*}" tail ------------------------------------------------------ */

static void test_tail_joins_the_rest(void)
{
	struct matched m;
	CU_ASSERT_PTR_NOT_NULL_FATAL(match("assets/main/photos/2024/a%20b.jpg", &m));
	CU_ASSERT(m.route->handler == api_assets_show);
	CU_ASSERT_EQUAL(m.ctx.nparams, 2);
	CU_ASSERT_STRING_EQUAL(m.ctx.params[0], "main");
	CU_ASSERT_PTR_NOT_NULL_FATAL(m.ctx.tail);
	CU_ASSERT_STRING_EQUAL(m.ctx.tail, "photos/2024/a b.jpg");
	CU_ASSERT_PTR_EQUAL(m.ctx.params[1], m.ctx.tail);
	/* Matching again with the same context replaces the tail (the old
	 * one is freed: LeakSanitizer checks under ASan). */
	struct segs other;
	split("assets/main/b.png", &other);
	CU_ASSERT_PTR_NOT_NULL(router_match(other.s, other.n, &m.ctx));
	CU_ASSERT_STRING_EQUAL(m.ctx.tail, "b.png");
	CU_ASSERT_STRING_EQUAL(params_of(&m.ctx), "main,b.png");
	segs_free(&other);
	matched_free(&m);
	/* Names that only look like "." or "..": a file may be called so. */
	static const char *const fine[] = {"assets/m/...", "assets/m/a..b", "assets/m/.hidden",
	                                   "assets/m/a/..b/c.", "assets/m/%2E%2E%2E"};
	for (size_t i = 0; i < sizeof fine / sizeof fine[0]; i++) {
		CU_ASSERT_PTR_NOT_NULL(match(fine[i], &m));
		if (!m.route)
			fprintf(stderr, "\n%s refused\n", fine[i]);
		matched_free(&m);
	}
}

/* A segment that climbs out of the container or names a folder of its
 * own makes the tail match nothing, wherever it is. */
static void test_tail_refusals(void)
{
	static const char *const paths[] = {
		"assets/m/a//b", "assets/m//a", "assets/m/a/", "assets/m/.", "assets/m/..",
		"assets/m/a/../b", "assets/m/a/./b", "assets/m/%2E", "assets/m/%2E%2E",
		"assets/m/a/%2e%2e/b", "assets/m/a%2Fb", "assets/m/a%2f..", "assets/m/a%5Cb",
		"assets/m/a/%5C", "assets/m/..%5C..", "assets/m/x/y/%2F",
	};
	for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
		struct matched m;
		const struct route *r = match(paths[i], &m);
		CU_ASSERT_PTR_NULL(r);
		CU_ASSERT_PTR_NULL(m.ctx.tail);
		CU_ASSERT_EQUAL(m.ctx.nparams, 0);
		if (r)
			fprintf(stderr, "\n%s matched, tail %s\n", paths[i], m.ctx.tail);
		matched_free(&m);
	}
	/* The container itself is a plain parameter: the tail begins after. */
	struct matched m;
	CU_ASSERT_PTR_NOT_NULL(match("assets/..", &m));
	CU_ASSERT(m.route && m.route->handler == api_assets_index);
	matched_free(&m);
}

/* app.c refuses a path of more than ROUTER_MAX_SEGMENTS segments before
 * the router (test_app's "too many segments"); every route fits in them,
 * the tail taking whatever the others leave. */
static void test_segment_limit(void)
{
	struct strbuf path = STRBUF_INIT, tail = STRBUF_INIT;
	strbuf_addstr(&path, "assets/main");
	for (int i = 2; i < ROUTER_MAX_SEGMENTS; i++) {
		strbuf_addf(&path, "/s%d", i);
		strbuf_addf(&tail, "%ss%d", i > 2 ? "/" : "", i);
	}
	struct matched m;
	CU_ASSERT_PTR_NOT_NULL_FATAL(match(path.ptr, &m));
	CU_ASSERT_EQUAL(m.segs.n, ROUTER_MAX_SEGMENTS);
	CU_ASSERT_STRING_EQUAL(m.ctx.tail, tail.ptr);
	matched_free(&m);
	/* A fixed route is not stretched by extra segments. */
	strbuf_reset(&path);
	strbuf_addstr(&path, "taxonomies/t/terms/s/entries");
	for (int i = 5; i < ROUTER_MAX_SEGMENTS; i++)
		strbuf_addstr(&path, "/x");
	CU_ASSERT_PTR_NULL(match(path.ptr, &m));
	matched_free(&m);
	strbuf_release(&path);
	strbuf_release(&tail);
}

/* --- the enabling gate (spec §3) ----------------------------------------- */

static struct config gate_cfg;
static char *gate_dir;

/* Loads an INI of [resources] sections for the fixture site. */
static void load_resources(const char *resources)
{
	config_free(&gate_cfg);
	if (!gate_dir)
		gate_dir = unit_tempdir();
	struct strbuf ini = STRBUF_INIT;
	strbuf_addf(&ini, "[api]\nenabled = true\n[content]\nroot = %s/site\n%s", FIXTURES_DIR,
	            resources);
	CU_ASSERT_EQUAL_FATAL(unit_write_file(gate_dir, "cms-api.ini", ini.ptr), 0);
	strbuf_release(&ini);
	char path[600], err[CONFIG_ERR_LEN];
	snprintf(path, sizeof path, "%s/cms-api.ini", gate_dir);
	int rc = config_load(&gate_cfg, path, err);
	if (rc != 0)
		fprintf(stderr, "\n%s\n", err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
}

static void gate_done(void)
{
	config_free(&gate_cfg);
	unit_rmtree(gate_dir);
	free(gate_dir);
	gate_dir = NULL;
}

/* Whether the gate of the loaded config opens for path (a route). */
static bool open_for(const char *path)
{
	struct matched m;
	const struct route *r = match(path, &m);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	bool open = router_gate_open(&gate_cfg, r, &m.ctx);
	matched_free(&m);
	return open;
}

/* Asserts that the gate opens exactly for the paths of want ('+' before
 * a path: open; '-': closed). */
static void assert_gate(const char *const want[], size_t n)
{
	for (size_t i = 0; i < n; i++) {
		bool open = open_for(want[i] + 1);
		CU_ASSERT_EQUAL(open, want[i][0] == '+');
		if (open != (want[i][0] == '+'))
			fprintf(stderr, "\n%s: gate %s\n", want[i] + 1, open ? "open" : "closed");
	}
}

#define ASSERT_GATE(...)                                                           \
	do {                                                                       \
		static const char *const want_[] = {__VA_ARGS__};                  \
		assert_gate(want_, sizeof want_ / sizeof want_[0]);                \
	} while (0)

static void test_gate_types_off_by_default(void)
{
	load_resources("");
	/* Only ping reads nothing. */
	ASSERT_GATE("+ping", "-sites", "-collections", "-collections/blog", "-collections/blog/entries",
	            "-collections/blog/entries/x", "-collections/blog/tree", "-navs", "-navs/main",
	            "-navs/main/tree", "-taxonomies", "-taxonomies/tags", "-taxonomies/tags/terms",
	            "-taxonomies/tags/terms/red", "-taxonomies/tags/terms/red/entries", "-globals",
	            "-globals/footer", "-forms", "-forms/contact", "-users", "-users/user-ada",
	            "-asset-containers", "-asset-containers/main", "-assets/main", "-assets/main/a.jpg");
	gate_done();
}

static void test_gate_type_on(void)
{
	load_resources("[resources]\ncollections = true\nassets = true\nsites = true\n");
	ASSERT_GATE("+collections", "+collections/blog", "+collections/any-thing/entries",
	            "+collections/blog/entries/x", "+collections/blog/tree", "+asset-containers",
	            "+asset-containers/main", "+assets/main", "+assets/main/a/b.jpg", "+sites",
	            "-navs", "-navs/main", "-users", "-taxonomies/tags");
	/* A type set to false stays off, named handle or not. */
	load_resources("[resources]\ncollections = false\nnavs = true\n"
	               "[resources.collections.blog]\nallowed_filters = title\n");
	ASSERT_GATE("-collections", "-collections/blog", "-collections/blog/entries", "+navs",
	            "+navs/main/tree");
	gate_done();
}

/* A handle section enables that handle alone (and the type's list). */
static void test_gate_named_handle(void)
{
	load_resources("[resources.collections.blog]\nallowed_filters = title\n"
	               "[resources.navs.main]\nenabled = false\n"
	               "[resources.assets.main]\nallowed_filters = alt\n");
	ASSERT_GATE("+collections", "+collections/blog", "+collections/blog/entries",
	            "+collections/blog/entries/x", "+collections/blog/tree", "-collections/news",
	            "-collections/news/entries/x", "-collections/Blog",
	            "-navs", "-navs/main", "-navs/main/tree",
	            "+asset-containers", "+asset-containers/main", "+assets/main",
	            "+assets/main/x/y.jpg", "-assets/other", "-assets/other/x.jpg",
	            "-asset-containers/other");
	gate_done();
}

/* The wildcard enables every handle only with enabled = true; a named
 * handle may still turn itself off. */
static void test_gate_wildcard(void)
{
	load_resources("[resources.collections.*]\nallowed_filters = title\n");
	ASSERT_GATE("-collections", "-collections/blog", "-collections/blog/entries");
	load_resources("[resources.collections.*]\nenabled = true\n"
	               "[resources.collections.news]\nenabled = false\n");
	ASSERT_GATE("+collections", "+collections/blog", "+collections/anything/entries/x",
	            "-collections/news", "-collections/news/entries", "-collections/news/tree");
	load_resources("[resources.collections.*]\nenabled = false\n"
	               "[resources.collections.blog]\nallowed_filters = title\n");
	ASSERT_GATE("+collections", "+collections/blog", "-collections/news");
	gate_done();
}

/* Users and sites have no handles: the type decides every route. */
static void test_gate_types_without_handles(void)
{
	load_resources("[resources.users]\nallowed_filters = name\n");
	ASSERT_GATE("+users", "+users/user-ada", "+users/anyone", "-sites");
	load_resources("[resources]\nusers = false\n[resources.users]\nallowed_filters = name\n");
	ASSERT_GATE("-users", "-users/user-ada");
	gate_done();
}

/* A term's entries also need collections on: the handler picks them. */
static void test_gate_term_entries(void)
{
	load_resources("[resources]\ntaxonomies = true\n");
	ASSERT_GATE("+taxonomies/tags/terms/red", "-taxonomies/tags/terms/red/entries");
	load_resources("[resources]\ntaxonomies = true\n[resources.collections.blog]\n"
	               "allowed_filters = title\n");
	ASSERT_GATE("+taxonomies/tags/terms/red/entries");
	load_resources("[resources]\ncollections = true\n[resources.taxonomies.tags]\n"
	               "allowed_filters = title\n");
	ASSERT_GATE("+taxonomies/tags/terms/red/entries", "-taxonomies/topics/terms/red/entries");
	gate_done();
}

/* --- the abilities gate --------------------------------------------------- */

/* Whether a token with the abilities of list (NULL: no per-user token)
 * may ask for path (a route). */
static bool abilities_open_for(const char *list, const char *path)
{
	struct matched m;
	const struct route *r = match(path, &m);
	CU_ASSERT_PTR_NOT_NULL_FATAL(r);
	struct abilities a;
	char err[ABILITIES_ERR_LEN];
	abilities_init(&a);
	bool open;
	if (list) {
		CU_ASSERT_EQUAL(abilities_parse_list(&a, list, err), 0);
		open = router_abilities_open(&a, r, &m.ctx);
	} else {
		open = router_abilities_open(NULL, r, &m.ctx);
	}
	abilities_free(&a);
	matched_free(&m);
	return open;
}

static void test_abilities_gate(void)
{
	CU_ASSERT_TRUE(abilities_open_for(NULL, "collections/blog/entries"));
	CU_ASSERT_TRUE(abilities_open_for("navs", "ping"));
	CU_ASSERT_TRUE(abilities_open_for("*", "collections/blog/entries"));
	CU_ASSERT_TRUE(abilities_open_for("collections", "collections/blog/entries/x"));
	CU_ASSERT_TRUE(abilities_open_for("collections:blog", "collections/blog/entries/x"));
	CU_ASSERT_TRUE(abilities_open_for("collections:blog", "collections/blog/tree"));
	CU_ASSERT_TRUE(abilities_open_for("collections:blog", "collections/blog"));
	CU_ASSERT_FALSE(abilities_open_for("collections:blog", "collections/news/entries"));
	/* The list of a type's handles needs the whole type. */
	CU_ASSERT_FALSE(abilities_open_for("collections:blog", "collections"));
	CU_ASSERT_TRUE(abilities_open_for("collections", "collections"));
	CU_ASSERT_FALSE(abilities_open_for("navs", "collections/blog"));
	CU_ASSERT_FALSE(abilities_open_for("collections", "users"));
	CU_ASSERT_TRUE(abilities_open_for("users", "users/user-ada"));
	CU_ASSERT_TRUE(abilities_open_for("sites", "sites"));
	CU_ASSERT_TRUE(abilities_open_for("assets:main", "assets/main/a/b.jpg"));
	CU_ASSERT_TRUE(abilities_open_for("assets:main", "asset-containers/main"));
	CU_ASSERT_FALSE(abilities_open_for("assets:main", "assets/other/a.jpg"));
	CU_ASSERT_FALSE(abilities_open_for("assets:main", "asset-containers"));
	/* A term's entries come from any collection: the whole type. */
	CU_ASSERT_TRUE(abilities_open_for("taxonomies:tags", "taxonomies/tags/terms/x"));
	CU_ASSERT_FALSE(abilities_open_for("taxonomies:tags", "taxonomies/tags/terms/x/entries"));
	CU_ASSERT_FALSE(abilities_open_for("taxonomies:tags,collections:blog",
	                                   "taxonomies/tags/terms/x/entries"));
	CU_ASSERT_TRUE(abilities_open_for("taxonomies:tags,collections",
	                                  "taxonomies/tags/terms/x/entries"));
	CU_ASSERT_FALSE(abilities_open_for("taxonomies:topics,collections",
	                                   "taxonomies/tags/terms/x/entries"));
}

/* Routes that name no handle (lists, users, sites) need "*" or the type;
 * a handle of one type never opens another type's routes. */
static void test_abilities_without_a_handle(void)
{
	static const char *const lists[] = {"sites", "collections", "navs", "taxonomies", "globals",
	                                    "forms", "users", "asset-containers"};
	for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
		CU_ASSERT_TRUE(abilities_open_for("*", lists[i]));
		CU_ASSERT_FALSE(abilities_open_for("collections:blog,navs:main,taxonomies:tags,"
		                                   "globals:footer,forms:contact,assets:main",
		                                   lists[i]));
	}
	CU_ASSERT_TRUE(abilities_open_for("navs", "navs"));
	CU_ASSERT_TRUE(abilities_open_for("globals", "globals"));
	CU_ASSERT_TRUE(abilities_open_for("assets", "asset-containers"));
	CU_ASSERT_FALSE(abilities_open_for("users", "sites"));
	CU_ASSERT_FALSE(abilities_open_for("sites", "users/user-ada"));
	CU_ASSERT_TRUE(abilities_open_for("*", "users/user-ada"));
	CU_ASSERT_TRUE(abilities_open_for("*", "taxonomies/tags/terms/x/entries"));
	/* The handle is compared whole, and as decoded. */
	CU_ASSERT_FALSE(abilities_open_for("globals:footer", "globals/foot"));
	CU_ASSERT_FALSE(abilities_open_for("globals:foot", "globals/footer"));
	CU_ASSERT_TRUE(abilities_open_for("globals:footer", "globals/%66ooter"));
	CU_ASSERT_TRUE(abilities_open_for("forms:contact", "forms/contact"));
	CU_ASSERT_FALSE(abilities_open_for("forms:contact", "globals/contact"));
}

/* A token whose stored abilities are all unknown grants nothing but what
 * reads no resource. */
static void test_abilities_that_grant_nothing(void)
{
	struct abilities a;
	abilities_init(&a);
	CU_ASSERT_EQUAL(abilities_from_json(&a, "[\"read\",\"collections:\"]"), 0);
	static const char *const paths[] = {"ping", "sites", "collections/blog", "users/x",
	                                    "assets/main/a.jpg"};
	for (size_t i = 0; i < sizeof paths / sizeof paths[0]; i++) {
		struct matched m;
		CU_ASSERT_PTR_NOT_NULL_FATAL(match(paths[i], &m));
		CU_ASSERT_EQUAL(router_abilities_open(&a, m.route, &m.ctx), i == 0);
		matched_free(&m);
	}
	abilities_free(&a);
}

void suite_router(void)
{
	CU_pSuite s = unit_add_suite("router");
	unit_add_test(s, "every route", test_every_route);
	unit_add_test(s, "nothing else matches", test_nothing_else_matches);
	unit_add_test(s, "no match clears the parameters", test_no_match_clears_the_parameters);
	unit_add_test(s, "the tail joins the rest", test_tail_joins_the_rest);
	unit_add_test(s, "tail refusals", test_tail_refusals);
	unit_add_test(s, "segment limit", test_segment_limit);
	unit_add_test(s, "gate: types off by default", test_gate_types_off_by_default);
	unit_add_test(s, "gate: a type on", test_gate_type_on);
	unit_add_test(s, "gate: a named handle", test_gate_named_handle);
	unit_add_test(s, "gate: the wildcard", test_gate_wildcard);
	unit_add_test(s, "gate: types without handles", test_gate_types_without_handles);
	unit_add_test(s, "gate: a term's entries", test_gate_term_entries);
	unit_add_test(s, "abilities gate", test_abilities_gate);
	unit_add_test(s, "abilities: routes without a handle", test_abilities_without_a_handle);
	unit_add_test(s, "abilities that grant nothing", test_abilities_that_grant_nothing);
}
