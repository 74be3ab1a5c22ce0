/* Unit tests: cache_plugin (loading a shared-object cache driver) with the
 * example driver, examples/cache-driver/dir-driver.c, and the broken ones
 * of tests/fixtures/cache-drivers/, all built by `make check` (check_DATA
 * in Makefile.am) under BUILD_DIR. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache/cache_plugin.h"
#include "core/config.h"
#include "lib/hash.h"
#include "lib/strbuf.h"
#include "unit.h"

#define DIR_DRIVER BUILD_DIR "/examples/cache-driver/dir-driver.so"
#define BROKEN(name) BUILD_DIR "/tests/cache-drivers/" name ".so"

static struct config cfg;
static struct cache_plugin plugin;
static char error[CONFIG_ERR_LEN];

/* cfg for the plug-in at path, with the options "name=value" given. */
static void configure(const char *path, const char *const *options)
{
	config_free(&cfg);
	config_init_defaults(&cfg);
	cfg.cache_driver = CACHE_PLUGIN;
	cfg.cache_plugin_path = xstrdup(path);
	for (size_t i = 0; options && options[i]; i++) {
		const char *eq = strchr(options[i], '=');
		cfg.cache_options = xrealloc(cfg.cache_options,
		                             (cfg.ncache_options + 1) * sizeof *cfg.cache_options);
		cfg.cache_options[cfg.ncache_options].key =
			xstrndup(options[i], (size_t)(eq - options[i]));
		cfg.cache_options[cfg.ncache_options].value = xstrdup(eq + 1);
		cfg.ncache_options++;
	}
}

static bool plugin_is_zero(void)
{
	static const struct cache_plugin zero;
	return memcmp(&plugin, &zero, sizeof zero) == 0;
}

/* Loading fails with exactly this message, leaving nothing loaded. */
static void assert_refused(const char *want)
{
	error[0] = '\0';
	CU_ASSERT_EQUAL(cache_plugin_load(&cfg, &plugin, error, sizeof error), -1);
	CU_ASSERT_STRING_EQUAL(error, want);
	if (strcmp(error, want) != 0)
		fprintf(stderr, "\n got: %s\nwant: %s\n", error, want);
	CU_ASSERT_TRUE(plugin_is_zero());
}

static struct cms_api_cache_request request(const char *key, uint64_t generation)
{
	return (struct cms_api_cache_request){key, hash_fnv1a(key), generation, "GET",
	                                      "/api/ping", ""};
}

static int put(const char *key, uint64_t generation, const char *entry, size_t len)
{
	struct cms_api_cache_request req = request(key, generation);
	struct cms_api_cache_response res = {entry, len, 60, 200, "application/json", entry, len};
	return cache_plugin_put(&plugin, &req, &res);
}

/* get's answer; the entry is appended to out. */
static int get(const char *key, uint64_t generation, struct strbuf *out)
{
	struct cms_api_cache_request req = request(key, generation);
	return cache_plugin_get(&plugin, &req, out);
}

static int invalidate(uint64_t from, uint64_t to)
{
	struct cms_api_cache_event ev = {"EntrySaved", "content/collections/blog/a.md", from, to};
	return cache_plugin_invalidate(&plugin, &ev);
}

static char *entry_file(const char *store, const char *key, uint64_t generation)
{
	struct strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "%s/g%016llx/%016llx", store, (unsigned long long)generation,
	            (unsigned long long)hash_fnv1a(key));
	return strbuf_detach(&path, NULL);
}

static void test_round_trip(void)
{
	char *store = unit_tempdir();
	const char *options[] = {NULL, NULL};
	struct strbuf opt = STRBUF_INIT;
	strbuf_addf(&opt, "store_dir=%s", store);
	options[0] = opt.ptr;
	configure(DIR_DRIVER, options);
	CU_ASSERT_EQUAL_FATAL(cache_plugin_load(&cfg, &plugin, error, sizeof error), 0);
	CU_ASSERT_STRING_EQUAL(plugin.driver->name, "dir-driver");

	/* Entries are bytes: a NUL inside is kept. */
	static const char one[] = "entry one\0with a NUL", two[] = "entry two";
	struct strbuf out = STRBUF_INIT;
	strbuf_addstr(&out, "before:");
	CU_ASSERT_EQUAL(get("k1", 1, &out), 0);
	CU_ASSERT_STRING_EQUAL(out.ptr, "before:");
	CU_ASSERT_EQUAL(put("k1", 1, one, sizeof one), 0);
	CU_ASSERT_EQUAL(put("k2", 1, two, strlen(two)), 0);
	CU_ASSERT_EQUAL(put("k1", 2, two, strlen(two)), 0);
	char *file = entry_file(store, "k1", 1);
	CU_ASSERT_EQUAL(access(file, F_OK), 0);
	free(file);

	CU_ASSERT_EQUAL(get("k1", 1, &out), 1);
	CU_ASSERT_EQUAL_FATAL(out.len, strlen("before:") + sizeof one);
	CU_ASSERT_EQUAL(memcmp(out.ptr + strlen("before:"), one, sizeof one), 0);
	strbuf_reset(&out);
	CU_ASSERT_EQUAL(get("k1", 2, &out), 1);
	CU_ASSERT_STRING_EQUAL(out.ptr, two);
	strbuf_reset(&out);
	CU_ASSERT_EQUAL(get("k3", 1, &out), 0);
	CU_ASSERT_EQUAL(out.len, 0);

	/* A put replaces the entry. */
	CU_ASSERT_EQUAL(put("k2", 1, one, 5), 0);
	CU_ASSERT_EQUAL(get("k2", 1, &out), 1);
	CU_ASSERT_STRING_EQUAL(out.ptr, "entry");
	strbuf_reset(&out);

	/* Moving to generation 2 removes generation 1's entries, not 2's. */
	CU_ASSERT_EQUAL(invalidate(1, 2), 0);
	CU_ASSERT_EQUAL(get("k1", 1, &out), 0);
	CU_ASSERT_EQUAL(get("k2", 1, &out), 0);
	CU_ASSERT_EQUAL(get("k1", 2, &out), 1);
	CU_ASSERT_STRING_EQUAL(out.ptr, two);
	struct strbuf gen1 = STRBUF_INIT;
	strbuf_addf(&gen1, "%s/g%016x", store, 1u);
	CU_ASSERT_NOT_EQUAL(access(gen1.ptr, F_OK), 0);
	/* Files that are not a generation's are left alone. */
	CU_ASSERT_EQUAL(unit_write_file(store, "README", "mine\n"), 0);
	CU_ASSERT_EQUAL(invalidate(2, 3), 0);
	CU_ASSERT_EQUAL(get("k1", 2, &out), 0);
	CU_ASSERT_EQUAL(access(opt.ptr + strlen("store_dir="), F_OK), 0);
	strbuf_reset(&gen1);
	strbuf_addf(&gen1, "%s/README", store);
	CU_ASSERT_EQUAL(access(gen1.ptr, F_OK), 0);

	cache_plugin_unload(&plugin);
	CU_ASSERT_TRUE(plugin_is_zero());
	strbuf_release(&gen1);
	strbuf_release(&out);
	strbuf_release(&opt);
	unit_rmtree(store);
	free(store);
}

/* A store that fails: get and put say -1 with the driver's errno, and a
 * failed get hands nothing back. Made with files where directories should
 * be and the other way round, so that it fails for root too. */
static void test_failures(void)
{
	char *store = unit_tempdir();
	struct strbuf opt = STRBUF_INIT;
	strbuf_addf(&opt, "store_dir=%s", store);
	const char *options[] = {opt.ptr, NULL};
	configure(DIR_DRIVER, options);
	CU_ASSERT_EQUAL_FATAL(cache_plugin_load(&cfg, &plugin, error, sizeof error), 0);

	/* The entry's name is a directory: get cannot read it. */
	struct strbuf gen = STRBUF_INIT, entry = STRBUF_INIT, out = STRBUF_INIT;
	strbuf_addf(&gen, "%s/g%016x", store, 7u);
	char *file = entry_file(store, "k1", 7);
	strbuf_addstr(&entry, file);
	free(file);
	CU_ASSERT_EQUAL_FATAL(mkdir(gen.ptr, 0700), 0);
	CU_ASSERT_EQUAL_FATAL(mkdir(entry.ptr, 0700), 0);
	strbuf_addstr(&out, "kept");
	CU_ASSERT_EQUAL(get("k1", 7, &out), -1);
	CU_ASSERT_EQUAL(errno, EISDIR);
	CU_ASSERT_STRING_EQUAL(out.ptr, "kept");
	/* ... nor put replace it. */
	CU_ASSERT_EQUAL(put("k1", 7, "x", 1), -1);
	CU_ASSERT_NOT_EQUAL(errno, 0);

	/* The generation's name is a file: put cannot make the entry. */
	strbuf_reset(&gen);
	strbuf_addf(&gen, "%s/g%016x", store, 8u);
	CU_ASSERT_EQUAL_FATAL(unit_write_file(store, gen.ptr + strlen(store) + 1, "x"), 0);
	CU_ASSERT_EQUAL(put("k1", 8, "x", 1), -1);
	CU_ASSERT_EQUAL(errno, ENOTDIR);
	CU_ASSERT_EQUAL(get("k1", 8, &out), -1);
	CU_ASSERT_EQUAL(errno, ENOTDIR);

	cache_plugin_unload(&plugin);
	strbuf_release(&gen);
	strbuf_release(&entry);
	strbuf_release(&out);
	strbuf_release(&opt);
	unit_rmtree(store);
	free(store);
}

static void test_refusals(void)
{
	char want[CONFIG_ERR_LEN + 200];

	configure("/nonexistent/dir-driver.so", NULL);
	assert_refused("cannot load /nonexistent/dir-driver.so: cannot open shared object file: "
	               "No such file or directory");

	/* Not a shared object: dlopen's own words follow. */
	const char *source = FIXTURES_DIR "/cache-drivers/broken-driver.c";
	configure(source, NULL);
	CU_ASSERT_EQUAL(cache_plugin_load(&cfg, &plugin, error, sizeof error), -1);
	snprintf(want, sizeof want, "cannot load %s: ", source);
	CU_ASSERT_EQUAL(strncmp(error, want, strlen(want)), 0);
	CU_ASSERT_TRUE(strlen(error) > strlen(want));
	CU_ASSERT_TRUE(plugin_is_zero());

	configure(BROKEN("wrong-abi"), NULL);
	assert_refused(BROKEN("wrong-abi") " is a cache driver of ABI version 2, but this cms-api "
	               "loads ABI version 1 only: rebuild it against this cms-api's "
	               "<cms-api/cache-driver.h>");

	configure(BROKEN("no-symbol"), NULL);
	assert_refused(BROKEN("no-symbol") " is not a cms-api cache driver: it exports no "
	               "cms_api_cache_driver()");

	configure(BROKEN("no-get"), NULL);
	assert_refused(BROKEN("no-get") ": the driver's table has no get");

	/* init gets the options in the file's order, and its message is told. */
	const char *options[] = {"a=1", "b=two", NULL};
	configure(BROKEN("init-fails"), options);
	assert_refused(BROKEN("init-fails") " (broken-driver) cannot start: refused: a=1, b=two");

	/* Never looked up in the library path. */
	configure("libc.so.6", NULL);
	assert_refused("a plug-in cache driver is named by its absolute path, not libc.so.6");

	configure(DIR_DRIVER, NULL);
	assert_refused(DIR_DRIVER " (dir-driver) cannot start: store_dir must be set to an absolute "
	               "path (of at most 3900 bytes): the directory that keeps the entries");
	const char *missing[] = {"store_dir=/nonexistent/store", NULL};
	configure(DIR_DRIVER, missing);
	assert_refused(DIR_DRIVER " (dir-driver) cannot start: store_dir /nonexistent/store: "
	               "No such file or directory");
	const char *unknown[] = {"store_dir=/tmp", "stor_dir=/tmp", NULL};
	configure(DIR_DRIVER, unknown);
	assert_refused(DIR_DRIVER " (dir-driver) cannot start: unknown option 'stor_dir' "
	               "(dir-driver reads store_dir only)");

	cache_plugin_unload(&plugin); /* harmless on nothing loaded */
	CU_ASSERT_TRUE(plugin_is_zero());
	config_free(&cfg);
}

void suite_cache_plugin(void)
{
	CU_pSuite s = unit_add_suite("cache_plugin");
	unit_add_test(s, "the example driver: get, put, invalidate", test_round_trip);
	unit_add_test(s, "a failing store", test_failures);
	unit_add_test(s, "plug-ins that are refused", test_refusals);
}
