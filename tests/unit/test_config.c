/* Unit tests: config (the INI file, environment overrides, enabling rules). */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "lib/strbuf.h"
#include "unit.h"

static char *dir;
static char ini_path[512];
static struct config cfg;
static char err[CONFIG_ERR_LEN];

/* Writes text (with "ROOT" replaced by the fixture site) and loads it. */
static int load(const char *text)
{
	struct strbuf s = STRBUF_INIT;
	for (const char *p = text; *p;) {
		if (strncmp(p, "ROOT", 4) == 0) {
			strbuf_addstr(&s, FIXTURES_DIR "/site");
			p += 4;
		} else {
			strbuf_addch(&s, *p++);
		}
	}
	if (!dir)
		dir = unit_tempdir();
	snprintf(ini_path, sizeof ini_path, "%s/cms-api.ini", dir);
	CU_ASSERT_EQUAL_FATAL(unit_write_file(dir, "cms-api.ini", s.ptr), 0);
	strbuf_release(&s);
	config_free(&cfg);
	err[0] = '\0';
	return config_load(&cfg, ini_path, err);
}

static void assert_error(const char *text, const char *message_after_path)
{
	char want[CONFIG_ERR_LEN + 600];
	CU_ASSERT_EQUAL(load(text), -1);
	snprintf(want, sizeof want, "%s%s", ini_path, message_after_path);
	CU_ASSERT_STRING_EQUAL(err, want);
	if (strcmp(err, want) != 0)
		fprintf(stderr, "\n got: %s\nwant: %s\n", err, want);
	/* A failed load leaves nothing half-configured. */
	CU_ASSERT_FALSE(cfg.enabled);
	CU_ASSERT_PTR_NULL(cfg.content_root);
}

static bool filters_of(enum resource_type t, const char *handle, const char *want_csv)
{
	struct strlist got;
	bool on = allowed_filters(&cfg, t, handle, &got);
	struct strbuf csv = STRBUF_INIT;
	for (size_t i = 0; i < got.len; i++)
		strbuf_addf(&csv, "%s%s", i ? "," : "", got.items[i]);
	bool same = on && strcmp(strbuf_str(&csv), want_csv) == 0;
	if (!same)
		fprintf(stderr, "filters of %s: %s '%s', want '%s'\n", handle ? handle : "-",
		        on ? "on" : "off", strbuf_str(&csv), want_csv);
	strlist_free(&got);
	strbuf_release(&csv);
	return same;
}

static bool filters_off(enum resource_type t, const char *handle)
{
	struct strlist got;
	bool on = allowed_filters(&cfg, t, handle, &got);
	strlist_free(&got);
	return !on;
}

static void test_defaults(void)
{
	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n"), 0);
	CU_ASSERT_FALSE(cfg.enabled);
	CU_ASSERT_STRING_EQUAL(cfg.route, "api");
	CU_ASSERT_STRING_EQUAL(cfg.auth_token, "");
	CU_ASSERT_EQUAL(cfg.default_limit, 25);
	CU_ASSERT_EQUAL(cfg.max_limit, 1000);
	CU_ASSERT_TRUE(cfg.cache_enabled);
	CU_ASSERT_EQUAL(cfg.cache_driver, CACHE_FILE);
	CU_ASSERT_EQUAL(cfg.cache_expiry, 60);
	CU_ASSERT_EQUAL(cfg.cache_max_size, 256);
	CU_ASSERT_EQUAL(cfg.ignored_events.len, 2);
	CU_ASSERT_STRING_EQUAL(cfg.ignored_events.items[1], "UserDeleted");
	CU_ASSERT_STRING_EQUAL(cfg.cache_dir, "/var/cache/cms-api");
	CU_ASSERT_EQUAL(cfg.rate_per_minute, 60);
	CU_ASSERT_EQUAL(cfg.rate_by, RATE_BY_IP);
	CU_ASSERT_STRING_EQUAL(cfg.log_target, "syslog");
	for (int t = 0; t < RES_TYPE_COUNT; t++)
		CU_ASSERT_FALSE(resource_enabled(&cfg, (enum resource_type)t));
	CU_ASSERT_FALSE(handle_enabled(&cfg, RES_COLLECTIONS, "blog"));
}

static void test_every_section(void)
{
	CU_ASSERT_EQUAL_FATAL(load("[api]\nenabled = yes\nroute = /v1/content/\nauth_token = t\n"
	                           "middleware = auth:token\nbase_url = https://x.example/\n"
	                           "default_limit = 10\nmax_limit = 50\nexcluded_keys = a, b ; note\n"
	                           "[content]\nroot = ROOT\napp_name = Shop\n"
	                           "[cache]\nenabled = off\ndriver = redis\nexpiry = 5\nmax_size = 0\n"
	                           "ignored_events = EntrySaved\ndir = cache\nhost = 127.0.0.1\n"
	                           "port = 6379\n"
	                           "[rate_limit]\nper_minute = 0\nby = token\n"
	                           "[auth]\ndatabase = tokens.db\n"
	                           "[log]\ntarget = stderr\nlevel = debug\n"
	                           "[sites.en]\nname = English\nlocale = en_GB\nurl = /\nlang = en\n"
	                           "[disks.assets]\nroot = public/assets\nurl = /assets/\n"),
	                      0);
	CU_ASSERT_TRUE(cfg.enabled);
	CU_ASSERT_STRING_EQUAL(cfg.route, "v1/content");
	CU_ASSERT_STRING_EQUAL(cfg.middleware, "auth:token");
	CU_ASSERT_STRING_EQUAL(cfg.base_url, "https://x.example");
	CU_ASSERT_EQUAL(cfg.default_limit, 10);
	CU_ASSERT_EQUAL(cfg.max_limit, 50);
	CU_ASSERT_EQUAL(cfg.excluded_keys.len, 2);
	CU_ASSERT_STRING_EQUAL(cfg.excluded_keys.items[1], "b");
	CU_ASSERT_STRING_EQUAL(cfg.app_name, "Shop");
	CU_ASSERT_FALSE(cfg.cache_enabled);
	CU_ASSERT_EQUAL(cfg.cache_driver, CACHE_REDIS);
	CU_ASSERT_EQUAL(cfg.cache_expiry, 5);
	CU_ASSERT_EQUAL(cfg.cache_max_size, 0);
	CU_ASSERT_EQUAL(cfg.ignored_events.len, 1);
	CU_ASSERT_EQUAL_FATAL(cfg.ncache_options, 2);
	CU_ASSERT_STRING_EQUAL(cfg.cache_options[0].key, "host");
	CU_ASSERT_STRING_EQUAL(cfg.cache_options[1].value, "6379");
	/* Where each is set, for the driver's messages. */
	CU_ASSERT_EQUAL(cfg.cache_options[0].line, 20);
	CU_ASSERT_EQUAL(cfg.cache_options[1].line, 21);
	CU_ASSERT_EQUAL(cfg.rate_per_minute, 0);
	CU_ASSERT_EQUAL(cfg.rate_by, RATE_BY_TOKEN);
	CU_ASSERT_EQUAL(cfg.log_level, LOG_LEVEL_DEBUG);
	CU_ASSERT_EQUAL_FATAL(cfg.nsites, 1);
	CU_ASSERT_STRING_EQUAL(cfg.sites[0].locale, "en_GB");
	CU_ASSERT_EQUAL_FATAL(cfg.ndisks, 1);
	CU_ASSERT_STRING_EQUAL(cfg.disks[0].url, "/assets");
}

static void test_relative_paths(void)
{
	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n[cache]\ndir = cache\n"
	                           "[auth]\ndatabase = db/tokens.db\n[disks.a]\nroot = files\n"),
	                      0);
	char want[600];
	snprintf(want, sizeof want, "%s/cache", cfg.dir);
	CU_ASSERT_STRING_EQUAL(cfg.cache_dir, want);
	snprintf(want, sizeof want, "%s/db/tokens.db", cfg.dir);
	CU_ASSERT_STRING_EQUAL(cfg.auth_database, want);
	snprintf(want, sizeof want, "%s/files", cfg.dir);
	CU_ASSERT_STRING_EQUAL(cfg.disks[0].root, want);
	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n[log]\ntarget = logs/api.log\n"), 0);
	snprintf(want, sizeof want, "%s/logs/api.log", cfg.dir);
	CU_ASSERT_STRING_EQUAL(cfg.log_target, want);
	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n[log]\ntarget = stderr\n"), 0);
	CU_ASSERT_STRING_EQUAL(cfg.log_target, "stderr");
	CU_ASSERT_EQUAL(cfg.dir[0], '/');
}

static void test_rule1_type_true_enables_all_without_filters(void)
{
	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n[resources]\ncollections = true\n"), 0);
	CU_ASSERT_TRUE(resource_enabled(&cfg, RES_COLLECTIONS));
	CU_ASSERT_TRUE(handle_enabled(&cfg, RES_COLLECTIONS, "blog"));
	CU_ASSERT_TRUE(handle_enabled(&cfg, RES_COLLECTIONS, "anything"));
	CU_ASSERT_TRUE(filters_off(RES_COLLECTIONS, "blog"));
	CU_ASSERT_FALSE(resource_enabled(&cfg, RES_NAVS));
}

static void test_rule2_handle_section_enables_that_handle(void)
{
	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n[resources.collections.blog]\n"
	                           "[resources.navs.main]\nallowed_filters = title\n"),
	                      0);
	CU_ASSERT_TRUE(resource_enabled(&cfg, RES_COLLECTIONS));
	CU_ASSERT_TRUE(handle_enabled(&cfg, RES_COLLECTIONS, "blog"));
	CU_ASSERT_FALSE(handle_enabled(&cfg, RES_COLLECTIONS, "pages"));
	CU_ASSERT_TRUE(handle_enabled(&cfg, RES_NAVS, "main"));
	CU_ASSERT_TRUE(filters_off(RES_COLLECTIONS, "blog"));
}

static void test_rule3_wildcard_filters_reach_every_enabled_handle(void)
{
	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n[resources]\ncollections = true\n"
	                           "[resources.collections.*]\nallowed_filters = title, status\n"),
	                      0);
	CU_ASSERT_TRUE(filters_of(RES_COLLECTIONS, "blog", "title,status"));
	CU_ASSERT_TRUE(filters_of(RES_COLLECTIONS, "pages", "title,status"));
}

static void test_rule4_wildcard_enables_all_only_with_enabled_true(void)
{
	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n"
	                           "[resources.collections.*]\nallowed_filters = title\n"),
	                      0);
	CU_ASSERT_FALSE(handle_enabled(&cfg, RES_COLLECTIONS, "blog"));
	CU_ASSERT_FALSE(resource_enabled(&cfg, RES_COLLECTIONS));
	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n"
	                           "[resources.collections.*]\nenabled = true\n"),
	                      0);
	CU_ASSERT_TRUE(handle_enabled(&cfg, RES_COLLECTIONS, "blog"));
	CU_ASSERT_TRUE(resource_enabled(&cfg, RES_COLLECTIONS));
	CU_ASSERT_TRUE(filters_off(RES_COLLECTIONS, "blog"));
}

static void test_rule5_named_list_adds_to_wildcard(void)
{
	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n"
	                           "[resources.collections.*]\nenabled = true\n"
	                           "allowed_filters = title, status\n"
	                           "[resources.collections.blog]\nallowed_filters = author, title\n"),
	                      0);
	CU_ASSERT_TRUE(filters_of(RES_COLLECTIONS, "blog", "title,status,author"));
	CU_ASSERT_TRUE(filters_of(RES_COLLECTIONS, "pages", "title,status"));
}

static void test_rule6_named_false_turns_filtering_off(void)
{
	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n"
	                           "[resources.collections.*]\nenabled = true\nallowed_filters = title\n"
	                           "[resources.collections.blog]\nallowed_filters = false\n"),
	                      0);
	CU_ASSERT_TRUE(filters_off(RES_COLLECTIONS, "blog"));
	CU_ASSERT_TRUE(handle_enabled(&cfg, RES_COLLECTIONS, "blog"));
	CU_ASSERT_TRUE(filters_of(RES_COLLECTIONS, "pages", "title"));
}

static void test_rule7_filtering_off_unless_set(void)
{
	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n[resources.taxonomies.tags]\n"
	                           "enabled = true\n[resources.users]\n"),
	                      0);
	CU_ASSERT_TRUE(filters_off(RES_TAXONOMIES, "tags"));
	CU_ASSERT_TRUE(filters_off(RES_USERS, NULL));
}

static void test_rule8_password_never_filterable(void)
{
	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n[resources.users]\n"
	                           "allowed_filters = name, password, email, password_hash\n"),
	                      0);
	CU_ASSERT_TRUE(resource_enabled(&cfg, RES_USERS));
	CU_ASSERT_TRUE(filters_of(RES_USERS, NULL, "name,email"));
}

static void test_rule9_assets_govern_containers(void)
{
	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n[resources.assets.main]\n"), 0);
	/* One switch serves /assets/{c} and /asset-containers/{c}. */
	CU_ASSERT_TRUE(handle_enabled(&cfg, RES_ASSETS, "main"));
	CU_ASSERT_FALSE(handle_enabled(&cfg, RES_ASSETS, "other"));
	CU_ASSERT_STRING_EQUAL(resource_type_name(RES_ASSETS), "assets");
}

static void test_named_enabled_false_and_type_false(void)
{
	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n[resources]\ncollections = true\n"
	                           "[resources.collections.pages]\nenabled = false\n"),
	                      0);
	CU_ASSERT_FALSE(handle_enabled(&cfg, RES_COLLECTIONS, "pages"));
	CU_ASSERT_TRUE(handle_enabled(&cfg, RES_COLLECTIONS, "blog"));
	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n[resources]\ncollections = false\n"
	                           "[resources.collections.blog]\n"),
	                      0);
	CU_ASSERT_FALSE(resource_enabled(&cfg, RES_COLLECTIONS));
	CU_ASSERT_FALSE(handle_enabled(&cfg, RES_COLLECTIONS, "blog"));
}

static void test_users_by_switch_or_section(void)
{
	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n[resources]\nusers = true\n"), 0);
	CU_ASSERT_TRUE(resource_enabled(&cfg, RES_USERS));
	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n[resources]\nsites = true\n"), 0);
	CU_ASSERT_FALSE(resource_enabled(&cfg, RES_USERS));
	CU_ASSERT_TRUE(resource_enabled(&cfg, RES_SITES));
}

static void test_errors(void)
{
	assert_error("[api]\ncolour = blue\n[content]\nroot = ROOT\n", ":2: unknown key 'colour' in [api]");
	assert_error("[content]\nroot = ROOT\n[apis]\n", ":3: unknown section [apis]");
	assert_error("[api]\nenabled = maybe\n", ":2: [api] enabled: not a boolean: maybe");
	assert_error("[api]\ndefault_limit = ten\n", ":2: [api] default_limit: not a whole number: ten");
	assert_error("[api]\nmax_limit = 0\n", ":2: [api] max_limit: 0 is out of range (1 to 1000000)");
	assert_error("[cache]\ndriver = memcached\n", ":2: [cache] driver: unknown value: memcached");
	assert_error("[cache]\nmax_size = -1\n", ":2: [cache] max_size: -1 is out of range (0 to 1048576)");
	assert_error("[api]\nenabled = true\n", ": [content] root is required");
	assert_error("[api]\nroute = a b\n", ":2: [api] route: not a URL path: a b");
	assert_error("[api]\nenabled = true\nenabled = false\n",
	             ":3: [api] enabled is set twice (or an indented line continues it)");
	assert_error("[resources]\npages = true\n", ":2: unknown key 'pages' in [resources]");
	assert_error("[resources.collections.blog]\ncolour = red\n",
	             ":2: unknown key 'colour' in [resources.collections.blog]");
	assert_error("[resources.widgets.x]\n", ":1: unknown section [resources.widgets.x]");
	assert_error("[content]\nroot = ROOT\n[api]\ndefault_limit = 50\nmax_limit = 10\n",
	             ": [api] max_limit (10) is below default_limit (50)");
	assert_error("[content]\nroot = ROOT\n[api]\nmiddleware = auth:token\n",
	             ": [api] middleware = auth:token needs [auth] database, the file of the "
	             "per-user tokens");
	assert_error("[api]\nmiddleware = sanctum\n", ":2: [api] middleware: unknown value: sanctum");
	assert_error("enabled = true\n", ":1: key 'enabled' outside any section");
	assert_error("[disks.a]\nroot = x\n[disks.a]\n", ":3: section [disks.a] appears twice");
	assert_error("[resources.collections.a-very-long-collection-handle-indeed-x]\n",
	             ":1: section name longer than 49 characters: "
	             "[resources.collections.a-very-long-collection-handle-indeed-x]");
}

/* driver = a built-in name or a plug-in's absolute path; the keys of
 * [cache] that cms-api does not read are the driver's options, in file
 * order. The plug-in itself is not loaded here (cache_plugin.h). */
static void test_cache_plugin_driver(void)
{
	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n[cache]\nexpiry = 5\n"
	                           "driver = /usr/lib/cms-api/dir-driver.so\n"
	                           "store_dir = /var/cache/x\ndir = cache\ntimeout = 50\n"),
	                      0);
	CU_ASSERT_EQUAL(cfg.cache_driver, CACHE_PLUGIN);
	CU_ASSERT_STRING_EQUAL(cfg.cache_plugin_path, "/usr/lib/cms-api/dir-driver.so");
	CU_ASSERT_EQUAL(cfg.cache_plugin_line, 5);
	CU_ASSERT_EQUAL(cfg.cache_expiry, 5);
	CU_ASSERT_EQUAL_FATAL(cfg.ncache_options, 2);
	CU_ASSERT_STRING_EQUAL(cfg.cache_options[0].key, "store_dir");
	CU_ASSERT_STRING_EQUAL(cfg.cache_options[0].value, "/var/cache/x");
	CU_ASSERT_STRING_EQUAL(cfg.cache_options[1].key, "timeout");
	CU_ASSERT_STRING_EQUAL(cfg.cache_options[1].value, "50");

	/* Any absolute path loads: whether it is a driver is the check's business. */
	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n[cache]\ndriver = /nowhere\n"), 0);
	CU_ASSERT_EQUAL(cfg.cache_driver, CACHE_PLUGIN);
	CU_ASSERT_STRING_EQUAL(cfg.cache_plugin_path, "/nowhere");
	CU_ASSERT_EQUAL(cfg.ncache_options, 0);

	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n[cache]\ndriver = none\n"), 0);
	CU_ASSERT_EQUAL(cfg.cache_driver, CACHE_NONE);
	CU_ASSERT_PTR_NULL(cfg.cache_plugin_path);

	assert_error("[cache]\ndriver = drivers/dir-driver.so\n",
	             ":2: [cache] driver: a plug-in is named by its absolute path, not "
	             "drivers/dir-driver.so");
	assert_error("[content]\nroot = ROOT\n[cache]\n\ndriver = dir-driver.so\n",
	             ":5: [cache] driver: a plug-in is named by its absolute path, not dir-driver.so");
	assert_error("[cache]\ndriver = ./x\n",
	             ":2: [cache] driver: a plug-in is named by its absolute path, not ./x");
	assert_error("[cache]\ndriver = File\n", ":2: [cache] driver: unknown value: File");
	assert_error("[cache]\ndriver =\n", ":2: [cache] driver: unknown value: ");
}

static void test_query_bounds(void)
{
	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n"), 0);
	CU_ASSERT_EQUAL(cfg.max_query_length, 8192);
	CU_ASSERT_EQUAL(cfg.max_filters, 20);
	CU_ASSERT_EQUAL(cfg.max_sort_keys, 10);
	CU_ASSERT_EQUAL(cfg.max_fields, 100);
	CU_ASSERT_EQUAL(cfg.regex_budget, 500000);
	CU_ASSERT_EQUAL_FATAL(load("[api]\nmax_query_length = 0\nmax_filters = 3\nmax_sort_keys = 2\n"
	                           "max_fields = 1\nregex_budget = 1000000000000\n"
	                           "[content]\nroot = ROOT\n"),
	                      0);
	CU_ASSERT_EQUAL(cfg.max_query_length, 0);
	CU_ASSERT_EQUAL(cfg.max_filters, 3);
	CU_ASSERT_EQUAL(cfg.max_sort_keys, 2);
	CU_ASSERT_EQUAL(cfg.max_fields, 1);
	CU_ASSERT_EQUAL(cfg.regex_budget, 1000000000000L);
	assert_error("[api]\nmax_filters = -1\n", ":2: [api] max_filters: -1 is out of range (0 to 1000000)");
	assert_error("[api]\nregex_budget = lots\n", ":2: [api] regex_budget: not a whole number: lots");
	assert_error("[api]\nmax_query_length = 1073741825\n",
	             ":2: [api] max_query_length: 1073741825 is out of range (0 to 1073741824)");
}

/* [cache] public_dir (fastpath.h): a path, refused with what a static
 * fast path cannot go with, on the key's own line. */
static void test_public_dir(void)
{
	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n"), 0);
	CU_ASSERT_STRING_EQUAL(cfg.cache_public_dir, "");
	CU_ASSERT_EQUAL_FATAL(load("[api]\nbase_url = http://example.org/\n[content]\nroot = ROOT\n"
	                           "[cache]\npublic_dir = pub/\n"),
	                      0);
	char want[700];
	snprintf(want, sizeof want, "%s/pub/", dir);
	CU_ASSERT_STRING_EQUAL(cfg.cache_public_dir, want);
	const char *base = "[api]\nbase_url = http://example.org\n";
	struct strbuf text = STRBUF_INIT;
	strbuf_addf(&text, "%sauth_token = s3cret\n[content]\nroot = ROOT\n[cache]\n"
	            "public_dir = /srv/pub\n", base);
	assert_error(text.ptr, ":7: [cache] public_dir: the web server would hand published answers "
	             "to anyone, and [api] auth_token asks for a token: a token-protected API "
	             "cannot have a static fast path");
	strbuf_reset(&text);
	strbuf_addf(&text, "%smiddleware = auth:token\n[auth]\ndatabase = t.sqlite\n"
	            "[content]\nroot = ROOT\n[cache]\n\npublic_dir = /srv/pub\n", base);
	assert_error(text.ptr, ":10: [cache] public_dir: the web server would hand published answers "
	             "to anyone, and [api] middleware = auth:token asks for per-user tokens: a "
	             "token-protected API cannot have a static fast path");
	strbuf_reset(&text);
	strbuf_addf(&text, "%s[content]\nroot = ROOT\n[cache]\npublic_dir = /srv/pub\n", base);
	setenv("CMS_API_AUTH_TOKEN", "from-env", 1);
	assert_error(text.ptr, ":6: [cache] public_dir: the web server would hand published answers "
	             "to anyone, and CMS_API_AUTH_TOKEN asks for a token: a token-protected API "
	             "cannot have a static fast path");
	unsetenv("CMS_API_AUTH_TOKEN");
	assert_error("[content]\nroot = ROOT\n[cache]\npublic_dir = /srv/pub\n",
	             ":4: [cache] public_dir: needs [api] base_url: published answers hold absolute "
	             "URLs, which would otherwise come from the Host header of the request that "
	             "was published, and go to every client");
	const char *no_cache = ":6: [cache] public_dir: needs the response cache (enabled = true, a "
	                       "driver, expiry > 0): only cached answers are published";
	strbuf_reset(&text);
	strbuf_addf(&text, "%s[content]\nroot = ROOT\n[cache]\npublic_dir = /srv/pub\n"
	            "driver = none\n", base);
	assert_error(text.ptr, no_cache);
	strbuf_reset(&text);
	strbuf_addf(&text, "%s[content]\nroot = ROOT\n[cache]\npublic_dir = /srv/pub\n"
	            "expiry = 0\n", base);
	assert_error(text.ptr, no_cache);
	strbuf_reset(&text);
	strbuf_addf(&text, "%s[content]\nroot = ROOT\n[cache]\npublic_dir = ROOT/public\n", base);
	assert_error(text.ptr, ":6: [cache] public_dir: is inside [content] root: the watcher would "
	             "take every published file for a change to the site");
	strbuf_reset(&text);
	strbuf_addf(&text, "%s[content]\nroot = ROOT\n[cache]\ndir = /srv/c\npublic_dir = /srv/c\n",
	            base);
	assert_error(text.ptr, ":7: [cache] public_dir: is [cache] dir, which holds unpublished "
	             "data (drafts): give the published answers a directory of their own");
	strbuf_reset(&text);
	strbuf_addf(&text, "%s[content]\nroot = ROOT\n[cache]\ndir = /srv/p/cache\npublic_dir = /srv/p\n",
	            base);
	assert_error(text.ptr, ":7: [cache] public_dir: holds [cache] dir, which holds unpublished "
	             "data (drafts), where the web server may serve it (an .htaccess recipe serves "
	             "public_dir from public_html): give the cache a directory outside it");
	/* The other way round is the usual layout: public_dir inside dir. */
	strbuf_reset(&text);
	strbuf_addf(&text, "%s[content]\nroot = ROOT\n[cache]\ndir = /srv/c\npublic_dir = /srv/c/public\n",
	            base);
	CU_ASSERT_EQUAL(load(text.ptr), 0);
	strbuf_release(&text);
}

static void test_unreadable_root_and_file(void)
{
	CU_ASSERT_EQUAL(load("[api]\nenabled = true\n[content]\nroot = /nonexistent/site\n"), -1);
	char want[700];
	snprintf(want, sizeof want,
	         "%s:4: [content] root: /nonexistent/site: No such file or directory", ini_path);
	CU_ASSERT_STRING_EQUAL(err, want);
	config_free(&cfg);
	CU_ASSERT_EQUAL(config_load(&cfg, "/nonexistent/cms-api.ini", err), -1);
	CU_ASSERT_STRING_EQUAL(err, "/nonexistent/cms-api.ini: No such file or directory");
}

static void test_environment_overrides(void)
{
	setenv("CMS_API_ENABLED", "true", 1);
	setenv("CMS_API_ROUTE", "/content/", 1);
	setenv("CMS_API_AUTH_TOKEN", "from-env", 1);
	int rc = load("[api]\nenabled = false\nauth_token = file\n[content]\nroot = ROOT\n");
	unsetenv("CMS_API_ROUTE");
	unsetenv("CMS_API_AUTH_TOKEN");
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_TRUE(cfg.enabled);
	CU_ASSERT_STRING_EQUAL(cfg.route, "content");
	CU_ASSERT_STRING_EQUAL(cfg.auth_token, "from-env");
	setenv("CMS_API_ENABLED", "perhaps", 1);
	rc = load("[content]\nroot = ROOT\n");
	unsetenv("CMS_API_ENABLED");
	CU_ASSERT_EQUAL(rc, -1);
	CU_ASSERT_STRING_EQUAL(err, "CMS_API_ENABLED: not a boolean: perhaps");
}

static void test_find_path(void)
{
	CU_ASSERT_STRING_EQUAL(config_find_path("/x.ini"), "/x.ini");
	setenv("CMS_API_CONFIG", "/from/env.ini", 1);
	CU_ASSERT_STRING_EQUAL(config_find_path(NULL), "/from/env.ini");
	unsetenv("CMS_API_CONFIG");
	CU_ASSERT_STRING_EQUAL(config_find_path(NULL), SYSCONFDIR "/cms-api.ini");
}

/* The fingerprint names what answers depend on: not the cache, the log,
 * the rate limit or the pool (machines with their own cache directories
 * share a Redis cache), but every other line, an empty section too. */
static uint64_t fingerprint_of_text(const char *text)
{
	CU_ASSERT_EQUAL_FATAL(load(text), 0);
	return cfg.fingerprint;
}

static void test_fingerprint_names_what_answers_depend_on(void)
{
	const char *base = "[api]\nenabled = true\n[content]\nroot = ROOT\n"
	                   "[resources]\ncollections = true\n";
	uint64_t plain = fingerprint_of_text(base);
	struct strbuf other = STRBUF_INIT;
	strbuf_addf(&other, "; a comment\n\n%s[cache] ; the cache\ndir = /tmp/a\nexpiry = 5\n"
	            "[log]\nlevel = debug\n[rate_limit]\nper_minute = 5\n[server]\nmax_requests = 9\n",
	            base);
	CU_ASSERT_EQUAL(fingerprint_of_text(other.ptr), plain);
	strbuf_reset(&other);
	strbuf_addf(&other, "%s[resources.collections.blog]\n", base);
	CU_ASSERT_NOT_EQUAL(fingerprint_of_text(other.ptr), plain);
	strbuf_reset(&other);
	strbuf_addf(&other, "[api]\nenabled = true\nexcluded_keys = x\n[content]\nroot = ROOT\n"
	            "[resources]\ncollections = true\n");
	CU_ASSERT_NOT_EQUAL(fingerprint_of_text(other.ptr), plain);
	strbuf_release(&other);
}

static void test_cleanup(void)
{
	config_free(&cfg);
	unit_rmtree(dir);
	free(dir);
	dir = NULL;
}

void suite_config(void)
{
	CU_pSuite s = unit_add_suite("config");
	unit_add_test(s, "defaults", test_defaults);
	unit_add_test(s, "fingerprint", test_fingerprint_names_what_answers_depend_on);
	unit_add_test(s, "every section", test_every_section);
	unit_add_test(s, "relative paths", test_relative_paths);
	unit_add_test(s, "rule 1: type = true", test_rule1_type_true_enables_all_without_filters);
	unit_add_test(s, "rule 2: a handle section", test_rule2_handle_section_enables_that_handle);
	unit_add_test(s, "rule 3: wildcard filters", test_rule3_wildcard_filters_reach_every_enabled_handle);
	unit_add_test(s, "rule 4: wildcard enabled", test_rule4_wildcard_enables_all_only_with_enabled_true);
	unit_add_test(s, "rule 5: named adds to wildcard", test_rule5_named_list_adds_to_wildcard);
	unit_add_test(s, "rule 6: named false", test_rule6_named_false_turns_filtering_off);
	unit_add_test(s, "rule 7: off unless set", test_rule7_filtering_off_unless_set);
	unit_add_test(s, "rule 8: never password", test_rule8_password_never_filterable);
	unit_add_test(s, "rule 9: assets and containers", test_rule9_assets_govern_containers);
	unit_add_test(s, "enabled = false, type = false", test_named_enabled_false_and_type_false);
	unit_add_test(s, "users by switch or section", test_users_by_switch_or_section);
	unit_add_test(s, "errors", test_errors);
	unit_add_test(s, "unreadable root and file", test_unreadable_root_and_file);
	unit_add_test(s, "environment overrides", test_environment_overrides);
	unit_add_test(s, "config path lookup", test_find_path);
	unit_add_test(s, "query bounds", test_query_bounds);
	unit_add_test(s, "[cache] driver = a plug-in", test_cache_plugin_driver);
	unit_add_test(s, "public_dir", test_public_dir);
	unit_add_test(s, "cleanup", test_cleanup);
}
