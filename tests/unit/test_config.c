/* Unit tests: config (the INI file, environment overrides, enabling rules). */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stddef.h>
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
	/* A site handle may hold dots, as versioned Statamic sites have. */
	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n[sites.v2.3]\nurl = /v2.3/\n"), 0);
	CU_ASSERT_EQUAL_FATAL(cfg.nsites, 1);
	CU_ASSERT_STRING_EQUAL(cfg.sites[0].handle, "v2.3");
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
	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n[icons]\nheroicons = svg/outline/\n"
	                           "lucide = /abs/lucide\n"),
	                      0);
	CU_ASSERT_EQUAL_FATAL(cfg.nicon_sets, 2);
	CU_ASSERT_STRING_EQUAL(cfg.icon_sets[0].name, "heroicons");
	snprintf(want, sizeof want, "%s/svg/outline/", cfg.dir);
	CU_ASSERT_STRING_EQUAL(cfg.icon_sets[0].folder, want);
	CU_ASSERT_STRING_EQUAL(cfg.icon_sets[1].folder, "/abs/lucide");
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
	assert_error("[edge]\ntags_header = X-Tags\n", ":2: [edge] tags_header: unknown value: X-Tags");
	assert_error("[content]\nroot = ROOT\n[edge]\ntag_prefix = a:b\n",
	             ": [edge] tag_prefix: at most 16 of the characters A-Z a-z 0-9 . _ - (what "
	             "every CDN takes in a tag)");
	assert_error("[content]\nroot = ROOT\n[api]\nbase_url = http://x.example\n[cache]\n"
	             "public_dir = /srv/pub\n[edge]\ntags_header = xkey\n",
	             ": [edge] tags_header cannot go with [cache] public_dir: the answers the web "
	             "server serves from public_dir carry no tags, so no purge would reach their "
	             "copies at the edge");
	assert_error("[content]\nroot = ROOT\n[edge]\nvarnish = 127.0.0.1:6081\n",
	             ": [edge] varnish: not an http:// URL");
	assert_error("[content]\nroot = ROOT\n[webhook.build]\nsecret = s\n",
	             ":3: [webhook.build] url: required");
	assert_error("[content]\nroot = ROOT\n[webhook.build]\nurl = ftp://x\n",
	             ":3: [webhook.build] url: not an http:// or https:// URL");
	assert_error("[webhook.a]\nurl = http://x\n[webhook.a]\n",
	             ":3: section [webhook.a] appears twice");
	assert_error("[webhook.a]\ncolour = red\n", ":2: unknown key 'colour' in [webhook.a]");
	assert_error("enabled = true\n", ":1: key 'enabled' outside any section");
	assert_error("[disks.a]\nroot = x\n[disks.a]\n", ":3: section [disks.a] appears twice");
	assert_error("[icons]\nheroicons =\n", ":2: [icons] heroicons: names no folder");
	assert_error("[icons]\nh = a\nh = b\n",
	             ":3: [icons] h is set twice (or an indented line continues it)");
	/* Site handles may hold dots (v2.3), other handles not; nothing else. */
	assert_error("[sites.v/2]\nurl = /\n", ":1: unknown section [sites.v/2]");
	assert_error("[disks.v2.3]\nroot = x\n", ":1: unknown section [disks.v2.3]");
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
/* [api] cors_origins and [images] presets are read whole at load. */
static void test_cors_and_presets(void)
{
	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n[api]\ncors_origins = *\n"), 0);
	CU_ASSERT_EQUAL(cfg.cors_origins.len, 1);
	config_free(&cfg);
	assert_error("[content]\nroot = ROOT\n[api]\ncors_origins = *, https://a.example\n",
	             ":4: [api] cors_origins: \"*\" stands alone: every origin, or a list");
	assert_error("[content]\nroot = ROOT\n[api]\ncors_origins = https://a.example/app\n",
	             ":4: [api] cors_origins: not an origin (scheme://host[:port], nothing after): "
	             "https://a.example/app");
	assert_error("[content]\nroot = ROOT\n[api]\ncors_origins = a.example\n",
	             ":4: [api] cors_origins: not an origin (scheme://host[:port], nothing after): "
	             "a.example");
	assert_error("[content]\nroot = ROOT\n[api]\ncors_origins = *\ncors_credentials = on\n",
	             ": [api] cors_credentials = true needs a list of origins, never \"*\": "
	             "browsers refuse credentials offered to every origin");
	assert_error("[content]\nroot = ROOT\n[api]\nbase_url = http://x.example\n"
	             "cors_origins = http://a.example\n[cache]\npublic_dir = /srv/pub\n",
	             ": [api] cors_origins and [cache] public_dir: the web server answers published "
	             "files without CORS headers, so a page on another origin would be refused "
	             "every repeat; the static fast path is same-origin only");
	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n[images]\n"
	                           "presets = thumb:w=300,h=300,fit=crop hero:w=1600,fm=webp\n"), 0);
	CU_ASSERT_STRING_EQUAL(cfg.images_presets, "thumb:w=300,h=300,fit=crop hero:w=1600,fm=webp");
	config_free(&cfg);
	assert_error("[content]\nroot = ROOT\n[images]\npresets = w=300\n",
	             ":4: [images] presets: a preset starts with its name and ':' (thumb:w=300), "
	             "not w=300");
	assert_error("[content]\nroot = ROOT\n[images]\npresets = a:w=300 a:h=3\n",
	             ":4: [images] presets: preset a is given twice");
	assert_error("[content]\nroot = ROOT\n[images]\npresets = a:w=0300\n",
	             ":4: [images] presets: preset a: The image parameter w is invalid: 0300.");
	assert_error("[content]\nroot = ROOT\n[images]\npresets = a:blur=5\n",
	             ":4: [images] presets: preset a: The image parameter blur is not supported.");
	assert_error("[content]\nroot = ROOT\n[images]\npresets = a: b:w=1\n",
	             ":4: [images] presets: preset a has no parameters");
}

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

/* --- every key of the simple sections, written out independently --- */

/* How a case's field is held. */
enum held { H_BOOL, H_LONG, H_ENUM, H_STRING, H_LIST };

/*
 * One key of the simple sections, written out here apart from config.c's
 * table: the default and bounds that etc/cms-api.ini and cms-api.ini(5)
 * document, a value to set and what the field then holds. A row of the
 * table with a wrong default, bound or destination disagrees with one.
 */
struct key_case {
	const char *section, *name;
	enum held held;
	size_t offset;            /* of the field in struct config */
	long num;                 /* H_BOOL, H_LONG, H_ENUM: the default */
	long min, max;            /* H_LONG: the bounds */
	const char *const *names; /* H_ENUM: its values, in the enum's order */
	const char *text;         /* H_STRING: the default (NULL: none); H_LIST: as CSV */
	const char *value;        /* H_STRING, H_LIST: a value to set, */
	const char *holds;        /* and what the field then holds ("./x": x in the INI's dir) */
	const char *extra;        /* more INI text without which the value would not load */
};

#define AT(field) offsetof(struct config, field)
#define BOOL_CASE(s, n, f, d) {s, n, H_BOOL, AT(f), .num = (d)}
#define LONG_CASE(s, n, f, d, lo, hi) {s, n, H_LONG, AT(f), .num = (d), .min = (lo), .max = (hi)}
#define ENUM_CASE(s, n, f, d, list) {s, n, H_ENUM, AT(f), .num = (d), .names = (list)}
#define STRING_CASE(s, n, f, d, v, h) {s, n, H_STRING, AT(f), .text = (d), .value = (v), .holds = (h)}
#define LIST_CASE(s, n, f, d, v, h) {s, n, H_LIST, AT(f), .text = (d), .value = (v), .holds = (h)}

static const char *const cache_drivers[] = {"file", "redis", "none", NULL};
static const char *const rate_bys[] = {"ip", "token", NULL};
static const char *const rate_drivers[] = {"file", "redis", NULL};
static const char *const log_levels[] = {"error", "warning", "info", "debug", NULL};

static const struct key_case key_cases[] = {
	BOOL_CASE("api", "enabled", enabled, false),
	STRING_CASE("api", "route", route, "api", "/v1/x/", "v1/x"),
	STRING_CASE("api", "auth_token", auth_token, "", "s3cret", "s3cret"),
	{"api", "middleware", H_STRING, AT(middleware), .text = "", .value = "auth:token",
	 .holds = "auth:token", .extra = "[auth]\ndatabase = t.db\n"},
	STRING_CASE("api", "base_url", base_url, "", "https://x.example/", "https://x.example"),
	{"api", "default_limit", H_LONG, AT(default_limit), .num = 25, .min = 1, .max = 1000000,
	 .extra = "[api]\nmax_limit = 1000000\n"},
	{"api", "max_limit", H_LONG, AT(max_limit), .num = 1000, .min = 1, .max = 1000000,
	 .extra = "[api]\ndefault_limit = 1\n"},
	LIST_CASE("api", "excluded_keys", excluded_keys, "", "a, b ,c", "a,b,c"),
	LONG_CASE("api", "max_query_length", max_query_length, 8192, 0, 1073741824),
	LONG_CASE("api", "max_filters", max_filters, 20, 0, 1000000),
	LONG_CASE("api", "max_sort_keys", max_sort_keys, 10, 0, 1000000),
	LONG_CASE("api", "max_fields", max_fields, 100, 0, 1000000),
	LONG_CASE("api", "regex_budget", regex_budget, 500000, 0, 1000000000000L),
	BOOL_CASE("api", "openapi", openapi, false),
	LIST_CASE("api", "cors_origins", cors_origins, "", "https://a.example, http://b:8080",
	          "https://a.example,http://b:8080"),
	LONG_CASE("api", "cors_max_age", cors_max_age, 600, 0, 86400),
	BOOL_CASE("api", "cors_credentials", cors_credentials, false),
	STRING_CASE("content", "root", content_root, NULL, "ROOT", FIXTURES_DIR "/site"),
	STRING_CASE("content", "app_name", app_name, "Statamic", "Shop", "Shop"),
	BOOL_CASE("cache", "enabled", cache_enabled, true),
	ENUM_CASE("cache", "driver", cache_driver, CACHE_FILE, cache_drivers),
	LONG_CASE("cache", "expiry", cache_expiry, 60, 0, 5256000),
	LIST_CASE("cache", "ignored_events", ignored_events, "UserSaved,UserDeleted", "EntrySaved",
	          "EntrySaved"),
	STRING_CASE("cache", "dir", cache_dir, "/var/cache/cms-api", "c", "./c"),
	LONG_CASE("cache", "max_size", cache_max_size, 256, 0, 1048576),
	{"cache", "public_dir", H_STRING, AT(cache_public_dir), .text = "", .value = "/srv/pub",
	 .holds = "/srv/pub", .extra = "[api]\nbase_url = http://x.example\n"},
	LONG_CASE("rate_limit", "per_minute", rate_per_minute, 60, 0, 1000000000),
	ENUM_CASE("rate_limit", "by", rate_by, RATE_BY_IP, rate_bys),
	ENUM_CASE("rate_limit", "driver", rate_driver, RATE_DRIVER_FILE, rate_drivers),
	LIST_CASE("rate_limit", "trusted_proxies", rate_trusted_proxies, "", "10.0.0.0/8, ::1",
	          "10.0.0.0/8,::1"),
	STRING_CASE("rate_limit", "redis_host", rate_redis_host, "127.0.0.1", "redis.example",
	            "redis.example"),
	LONG_CASE("rate_limit", "redis_port", rate_redis_port, 6379, 1, 65535),
	STRING_CASE("rate_limit", "redis_socket", rate_redis_socket, "", "r.sock", "./r.sock"),
	LONG_CASE("rate_limit", "redis_database", rate_redis_database, 0, 0, 1000000),
	STRING_CASE("rate_limit", "redis_password", rate_redis_password, "", "pw", "pw"),
	STRING_CASE("rate_limit", "redis_prefix", rate_redis_prefix, "cms-api:", "p:", "p:"),
	LONG_CASE("rate_limit", "redis_timeout_ms", rate_redis_timeout_ms, 50, 1, 60000),
	STRING_CASE("auth", "database", auth_database, "", "t.db", "./t.db"),
	STRING_CASE("log", "target", log_target, "syslog", "logs/a.log", "./logs/a.log"),
	ENUM_CASE("log", "level", log_level, LOG_LEVEL_WARNING, log_levels),
	/* on = the log's own target, here its default */
	STRING_CASE("log", "access", log_access, "", "on", "syslog"),
	STRING_CASE("images", "presets", images_presets, "", "thumb:w=300,h=300,fit=crop",
	            "thumb:w=300,h=300,fit=crop"),
	STRING_CASE("images", "sign_key", images_sign_key, "", "k3y", "k3y"),
	LONG_CASE("images", "max_input_pixels", images_max_input_pixels, 40000000, 1, 1000000000),
	LONG_CASE("images", "max_output_pixels", images_max_output_pixels, 4194304, 1, 268402689),
	LONG_CASE("images", "max_memory", images_max_memory, 256, 16, 65536),
	LONG_CASE("images", "max_time_ms", images_max_time_ms, 5000, 10, 600000),
	LONG_CASE("server", "max_requests", max_requests, 0, 0, 1000000000000L),
	STRING_CASE("edge", "tags_header", edge_tags_header, "", "xkey", "xkey"),
	STRING_CASE("edge", "tag_prefix", edge_tag_prefix, "", "blog.", "blog."),
	STRING_CASE("edge", "varnish", edge_varnish, "", "http://127.0.0.1:6081/",
	            "http://127.0.0.1:6081"),
	STRING_CASE("edge", "purge_url", edge_purge_url, "", "https://cdn.example/purge",
	            "https://cdn.example/purge"),
	STRING_CASE("edge", "purge_header", edge_purge_header, "", "Authorization: Bearer x",
	            "Authorization: Bearer x"),
	LONG_CASE("sync", "generations", sync_generations, 1000, 1, 1000000),
};
#define NKEY_CASES (sizeof key_cases / sizeof key_cases[0])

static const void *field_of(const struct config *c, const struct key_case *k)
{
	return (const char *)c + k->offset;
}

/* The case's field as text: numbers in decimal, a list as CSV. */
static void field_text(struct strbuf *out, const struct config *c, const struct key_case *k)
{
	const void *f = field_of(c, k);
	switch (k->held) {
	case H_BOOL:
		strbuf_addstr(out, *(const bool *)f ? "1" : "0");
		return;
	case H_LONG:
		strbuf_addf(out, "%ld", *(const long *)f);
		return;
	case H_ENUM:
		strbuf_addf(out, "%d", *(const int *)f);
		return;
	case H_STRING:
		strbuf_addstr(out, *(char *const *)f ? *(char *const *)f : "(null)");
		return;
	case H_LIST:
		for (size_t i = 0; i < ((const struct strlist *)f)->len; i++)
			strbuf_addf(out, "%s%s", i ? "," : "", ((const struct strlist *)f)->items[i]);
		return;
	}
}

/* Whether the case's field holds want (a number for H_BOOL, H_LONG and
 * H_ENUM; "./x" is x in the loaded INI's directory); says what it holds
 * when not. */
static bool field_is(const struct config *c, const struct key_case *k, long num, const char *want)
{
	struct strbuf got = STRBUF_INIT, expect = STRBUF_INIT;
	field_text(&got, c, k);
	if (k->held == H_BOOL || k->held == H_LONG || k->held == H_ENUM)
		strbuf_addf(&expect, "%ld", num);
	else if (want && strncmp(want, "./", 2) == 0)
		strbuf_addf(&expect, "%s%s", c->dir, want + 1);
	else
		strbuf_addstr(&expect, want ? want : "(null)");
	bool same = strcmp(strbuf_str(&got), strbuf_str(&expect)) == 0;
	if (!same)
		fprintf(stderr, "\n[%s] %s holds '%s', want '%s'\n", k->section, k->name,
		        strbuf_str(&got), strbuf_str(&expect));
	strbuf_release(&got);
	strbuf_release(&expect);
	return same;
}

/* The cases above are the table's keys, each once, none missing. */
static void test_cases_cover_the_table(void)
{
	const char *section, *name;
	size_t n = 0;
	for (; (name = config_key_at(n, &section)); n++) {
		size_t found = 0;
		for (size_t i = 0; i < NKEY_CASES; i++)
			if (strcmp(key_cases[i].section, section) == 0 &&
			    strcmp(key_cases[i].name, name) == 0)
				found++;
		if (found != 1)
			fprintf(stderr, "\n[%s] %s: %zu cases\n", section, name, found);
		CU_ASSERT_EQUAL(found, 1);
	}
	CU_ASSERT_EQUAL(n, NKEY_CASES);
}

/* config_init_defaults gives what the documentation says, and nothing for
 * the fields the file never sets directly. */
static void test_init_defaults_are_documented(void)
{
	struct config c;
	config_init_defaults(&c);
	for (size_t i = 0; i < NKEY_CASES; i++)
		CU_ASSERT_TRUE(field_is(&c, &key_cases[i], key_cases[i].num, key_cases[i].text));
	CU_ASSERT_PTR_NULL(c.path);
	CU_ASSERT_PTR_NULL(c.dir);
	CU_ASSERT_PTR_NULL(c.cache_plugin_path);
	CU_ASSERT_PTR_NULL(c.cache_options);
	CU_ASSERT_EQUAL(c.ncache_options, 0);
	CU_ASSERT_EQUAL(c.nsites, 0);
	CU_ASSERT_EQUAL(c.ndisks, 0);
	CU_ASSERT_EQUAL(c.fingerprint, 0);
	for (int t = 0; t < RES_TYPE_COUNT; t++) {
		CU_ASSERT_FALSE(c.resources[t].type_set);
		CU_ASSERT_PTR_NULL(c.resources[t].wildcard);
		CU_ASSERT_EQUAL(c.resources[t].nhandles, 0);
	}
	config_free(&c);
}

/* Loads "[section]\nname = value\n" (line 2), the case's extra text and a
 * content root. */
static int load_key(const struct key_case *k, const char *value)
{
	struct strbuf text = STRBUF_INIT;
	strbuf_addf(&text, "[%s]\n%s = %s\n%s", k->section, k->name, value,
	            k->extra ? k->extra : "");
	if (k->offset != AT(content_root))
		strbuf_addstr(&text, "[content]\nroot = ROOT\n");
	int rc = load(text.ptr);
	if (rc != 0)
		fprintf(stderr, "\n[%s] %s = %s: %s\n", k->section, k->name, value, err);
	strbuf_release(&text);
	return rc;
}

/* Loads the key set to value and checks what its field holds. */
static void assert_reads_back(const struct key_case *k, const char *value, long num,
                              const char *want)
{
	CU_ASSERT_EQUAL_FATAL(load_key(k, value), 0);
	CU_ASSERT_TRUE(field_is(&cfg, k, num, want));
}

/* Every key can be set from the file, its bounds included, and is read
 * back into its own field. */
static void test_every_key_reads_back(void)
{
	char value[64];
	for (size_t i = 0; i < NKEY_CASES; i++) {
		const struct key_case *k = &key_cases[i];
		switch (k->held) {
		case H_BOOL:
			assert_reads_back(k, k->num ? "off" : "yes", !k->num, NULL);
			break;
		case H_LONG:
			snprintf(value, sizeof value, "%ld", k->min);
			assert_reads_back(k, value, k->min, NULL);
			snprintf(value, sizeof value, "%ld", k->max);
			assert_reads_back(k, value, k->max, NULL);
			break;
		case H_ENUM:
			for (int v = 0; k->names[v]; v++)
				assert_reads_back(k, k->names[v], v, NULL);
			break;
		case H_STRING:
		case H_LIST:
			assert_reads_back(k, k->value, 0, k->holds);
			break;
		}
	}
}

/* A value a key cannot take is refused on its line with the same words
 * for every key of a kind; the bounds are the documented ones. */
static void test_every_key_refuses_with_its_message(void)
{
	char text[256], want[256];
	for (size_t i = 0; i < NKEY_CASES; i++) {
		const struct key_case *k = &key_cases[i];
		const char *s = k->section, *n = k->name;
		switch (k->held) {
		case H_BOOL:
			snprintf(text, sizeof text, "[%s]\n%s = maybe\n", s, n);
			snprintf(want, sizeof want, ":2: [%s] %s: not a boolean: maybe", s, n);
			assert_error(text, want);
			break;
		case H_LONG:
			snprintf(text, sizeof text, "[%s]\n%s = 12x\n", s, n);
			snprintf(want, sizeof want, ":2: [%s] %s: not a whole number: 12x", s, n);
			assert_error(text, want);
			for (int side = 0; side < 2; side++) {
				long v = side ? k->max + 1 : k->min - 1;
				snprintf(text, sizeof text, "[%s]\n%s = %ld\n", s, n, v);
				snprintf(want, sizeof want, ":2: [%s] %s: %ld is out of range (%ld to %ld)",
				         s, n, v, k->min, k->max);
				assert_error(text, want);
			}
			break;
		case H_ENUM:
			snprintf(text, sizeof text, "[%s]\n%s = bogus\n", s, n);
			snprintf(want, sizeof want, ":2: [%s] %s: unknown value: bogus", s, n);
			assert_error(text, want);
			break;
		case H_STRING:
		case H_LIST:
			break; /* any text will do (route, middleware and ranges: test_errors) */
		}
	}
	assert_error("[rate_limit]\ntrusted_proxies = 10.0.0.0/8, nowhere\n",
	             ":2: [rate_limit] trusted_proxies: not an IP address or CIDR range: nowhere");
}

/*
 * A file that sets every key (public_dir to "": a token-protected API
 * cannot have one), a plug-in driver and its options, every resource
 * type, sites and disks: config_free releases all of it (the ASan pass
 * of the unit tests finds any leak) and leaves the config zeroed. A load
 * that fails at the file's end holds nothing either.
 */
static const char full_ini[] =
	"[api]\nenabled = true\nroute = /v1/\nauth_token = s3cret\nmiddleware = auth:token\n"
	"base_url = https://x.example/\ndefault_limit = 10\nmax_limit = 50\nexcluded_keys = a, b\n"
	"max_query_length = 100\nmax_filters = 1\nmax_sort_keys = 2\nmax_fields = 3\n"
	"regex_budget = 4\nopenapi = true\ncors_origins = https://a.example\ncors_max_age = 5\n"
	"cors_credentials = true\n"
	"[content]\nroot = ROOT\napp_name = Shop\n"
	"[cache]\nenabled = true\ndriver = /usr/lib/cms-api/x.so\nexpiry = 5\n"
	"ignored_events = EntrySaved, TermSaved\ndir = c\nmax_size = 1\npublic_dir =\n"
	"host = h\nport = 1\n"
	"[rate_limit]\nper_minute = 1\nby = token\ndriver = redis\ntrusted_proxies = ::1, 10.0.0.0/8\n"
	"redis_host = h\nredis_port = 1\nredis_socket = s\nredis_database = 1\nredis_password = p\n"
	"redis_prefix = x:\nredis_timeout_ms = 1\n"
	"[auth]\ndatabase = t.db\n"
	"[log]\ntarget = stderr\nlevel = debug\naccess = a.log\n"
	"[server]\nmax_requests = 9\n"
	"[images]\npresets = thumb:w=300,h=300,fit=crop small:w=100\nsign_key = k\n"
	"max_input_pixels = 10\nmax_output_pixels = 10\nmax_memory = 16\nmax_time_ms = 10\n"
	"[resources]\ncollections = true\nnavs = false\nusers = true\n"
	"[resources.collections.*]\nenabled = true\nallowed_filters = title, status\n"
	"[resources.collections.blog]\nallowed_filters = author\n"
	"[resources.navs.main]\nallowed_filters = false\n"
	"[resources.taxonomies.tags]\n[resources.globals.*]\n[resources.forms.contact]\n"
	"[resources.assets.main]\nenabled = false\n"
	"[resources.users]\nallowed_filters = name, email\n"
	"[sites.en]\nname = English\nlocale = en_GB\nurl = /\nlang = en\n"
	"[sites.de]\nname = Deutsch\nlocale = de_DE\nurl = /de/\n"
	"[disks.assets]\nroot = public/assets\nurl = /assets/\n[disks.private]\nroot = p\n"
	"[edge]\ntags_header = Cache-Tag\ntag_prefix = x-\nvarnish = http://127.0.0.1:6081\n"
	"purge_url = https://cdn.example/purge\npurge_header = X-Key: k\n"
	"[sync]\ngenerations = 5\n"
	"[webhook.build]\nurl = http://127.0.0.1:9/\nevents = EntrySaved\nsecret = s\n"
	"[webhook.other]\nurl = https://hooks.example/x\n"
	"[icons]\nheroicons = svg/heroicons\nlucide = /svg/lucide\n";

/* Whether text sets name in [section] (a key line "name = ..." under it). */
static bool ini_sets(const char *text, const char *section, const char *name)
{
	char current[64] = "";
	size_t n = strlen(name);
	for (const char *line = text; *line;) {
		size_t len = strcspn(line, "\n");
		if (line[0] == '[')
			snprintf(current, sizeof current, "%.*s", (int)(len - 2), line + 1);
		else if (strcmp(current, section) == 0 && strncmp(line, name, n) == 0 &&
		         strncmp(line + n, " =", 2) == 0)
			return true;
		line += len + (line[len] == '\n');
	}
	return false;
}

/* The fuzzer's corpus starts it from a file that loads and sets every key
 * of the table. */
static void test_fuzz_corpus_sets_every_key(void)
{
	const char *path = FIXTURES_DIR "/../fuzz/corpus/config/keys.ini";
	char *text = unit_read_file(path, NULL);
	CU_ASSERT_PTR_NOT_NULL_FATAL(text);
	const char *section, *name;
	for (size_t i = 0; (name = config_key_at(i, &section)); i++) {
		if (!ini_sets(text, section, name))
			fprintf(stderr, "\nthe fuzz corpus misses [%s] %s\n", section, name);
		CU_ASSERT_TRUE(ini_sets(text, section, name));
	}
	free(text);
	struct config c;
	int rc = config_load(&c, path, err);
	if (rc != 0)
		fprintf(stderr, "\n%s\n", err);
	CU_ASSERT_EQUAL(rc, 0);
	config_free(&c);
}

static bool all_zero(const struct config *c)
{
	static const struct config zero;
	return memcmp(c, &zero, sizeof zero) == 0;
}

static void test_free_of_a_full_config(void)
{
	for (size_t i = 0; i < NKEY_CASES; i++)
		CU_ASSERT_TRUE(ini_sets(full_ini, key_cases[i].section, key_cases[i].name));
	CU_ASSERT_EQUAL_FATAL(load(full_ini), 0);
	CU_ASSERT_EQUAL(cfg.cache_driver, CACHE_PLUGIN);
	CU_ASSERT_EQUAL(cfg.ncache_options, 2);
	CU_ASSERT_EQUAL(cfg.nsites, 2);
	CU_ASSERT_EQUAL(cfg.ndisks, 2);
	CU_ASSERT_EQUAL(cfg.nicon_sets, 2);
	CU_ASSERT_PTR_NOT_NULL(cfg.resources[RES_GLOBALS].wildcard);
	config_free(&cfg);
	CU_ASSERT_TRUE(all_zero(&cfg));
	config_free(&cfg); /* a freed config frees again harmlessly */
	CU_ASSERT_TRUE(all_zero(&cfg));

	struct strbuf broken = STRBUF_INIT;
	strbuf_addf(&broken, "%s[disks.late]\ncolour = red\n", full_ini);
	CU_ASSERT_EQUAL(load(broken.ptr), -1);
	CU_ASSERT_TRUE(all_zero(&cfg));
	strbuf_release(&broken);
}

static void test_cleanup(void)
{
	config_free(&cfg);
	unit_rmtree(dir);
	free(dir);
	dir = NULL;
}

/* config_check_file: one version of the file is looked at once; a good
 * new one is news, a broken one is news once (with its error), the file
 * read is none, and neither is a config read from no file. */
static void test_check_file(void)
{
	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n"), 0);
	struct config_stamp seen;
	memset(&seen, 0, sizeof seen);
	char why[CONFIG_ERR_LEN];
	CU_ASSERT_EQUAL(config_check_file(&cfg, &seen, why), CONFIG_SAME);
	CU_ASSERT_EQUAL_FATAL(unit_write_file(dir, "cms-api.ini",
	                                      "[content]\nroot = " FIXTURES_DIR "/site\n[api]\n"), 0);
	CU_ASSERT_EQUAL(config_check_file(&cfg, &seen, why), CONFIG_CHANGED);
	CU_ASSERT_EQUAL(config_check_file(&cfg, &seen, why), CONFIG_SAME);
	CU_ASSERT_EQUAL_FATAL(unit_write_file(dir, "cms-api.ini", "[nope]\n"), 0);
	why[0] = '\0';
	CU_ASSERT_EQUAL(config_check_file(&cfg, &seen, why), CONFIG_BROKEN);
	CU_ASSERT_PTR_NOT_NULL(strstr(why, "unknown section [nope]"));
	CU_ASSERT_EQUAL(config_check_file(&cfg, &seen, why), CONFIG_SAME);
	/* Back to the version cfg was read from: nothing to take up. */
	CU_ASSERT_EQUAL_FATAL(load("[content]\nroot = ROOT\n"), 0);
	memset(&seen, 0, sizeof seen);
	CU_ASSERT_EQUAL(config_check_file(&cfg, &seen, why), CONFIG_SAME);
	struct config none;
	memset(&none, 0, sizeof none);
	CU_ASSERT_EQUAL(config_check_file(&none, &seen, why), CONFIG_SAME);
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
	unit_add_test(s, "cors and presets", test_cors_and_presets);
	unit_add_test(s, "the cases cover the key table", test_cases_cover_the_table);
	unit_add_test(s, "init_defaults: the documented defaults", test_init_defaults_are_documented);
	unit_add_test(s, "every key reads back", test_every_key_reads_back);
	unit_add_test(s, "every key refuses with its message", test_every_key_refuses_with_its_message);
	unit_add_test(s, "config_free of a full config", test_free_of_a_full_config);
	unit_add_test(s, "the fuzz corpus sets every key", test_fuzz_corpus_sets_every_key);
	unit_add_test(s, "a changed file, looked at once", test_check_file);
	unit_add_test(s, "cleanup", test_cleanup);
}
