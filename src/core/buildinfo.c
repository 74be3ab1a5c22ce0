/* buildinfo: the build's features; see buildinfo.h. */
#include "autoconfig.h"

#include "core/buildinfo.h"

#define PCRE2_CODE_UNIT_WIDTH 8
#include <cmark-gfm.h>
#include <hiredis.h>
#include <json-c/json.h>
#include <pcre2.h>
#include <sqlite3.h>
#include <yaml.h>
#include <xxhash.h>
#include <zlib.h>

#include "cms-api/cache-driver.h"

/* Whether PCRE2 compiles patterns to machine code here (query/regex.c
 * asks for it on every pattern and falls back to the interpreter). */
static void add_jit(struct strbuf *out)
{
	uint32_t jit = 0;
	char target[128] = "";
	pcre2_config(PCRE2_CONFIG_JIT, &jit);
	if (jit && pcre2_config(PCRE2_CONFIG_JITTARGET, target) > 0)
		strbuf_addf(out, "regex JIT: yes (%s)\n", target);
	else
		strbuf_addstr(out, jit ? "regex JIT: yes\n" : "regex JIT: no\n");
}

/* Whether the hooks only the tests use (configure --enable-test-hooks) are
 * in this binary: tests/http needs them and checks this line; a build
 * that has them is not one to install. */
static void add_test_hooks(struct strbuf *out)
{
#ifdef CMS_API_TEST_HOOKS
	strbuf_addstr(out, "test hooks: yes (--enable-test-hooks: a build for tests, not for "
	              "production)\n");
#else
	strbuf_addstr(out, "test hooks: no\n");
#endif
}

void buildinfo_describe(struct strbuf *out)
{
	char pcre2[64] = "?";
	pcre2_config(PCRE2_CONFIG_VERSION, pcre2);
	strbuf_addf(out, "cms-api %s\n", PACKAGE_VERSION);
	strbuf_addf(out, "cache drivers: file, redis (hiredis %d.%d.%d), none, plug-ins (ABI %d)\n",
	            HIREDIS_MAJOR, HIREDIS_MINOR, HIREDIS_PATCH, CMS_API_CACHE_DRIVER_ABI_VERSION);
	strbuf_addf(out, "per-user tokens: yes (SQLite %s)\n", sqlite3_libversion());
	strbuf_addf(out, "rate-limit drivers: file, redis (hiredis %d.%d.%d)\n", HIREDIS_MAJOR,
	            HIREDIS_MINOR, HIREDIS_PATCH);
	add_jit(out);
	strbuf_addstr(out, "worker pool: yes (-n, --listen)\n");
	add_test_hooks(out);
	unsigned xxhash = XXH_versionNumber();
	strbuf_addf(out, "libraries: json-c %s, inih %s, libyaml %s, cmark-gfm %s, "
	            "PCRE2 %s, zlib %s, SQLite %s, hiredis %d.%d.%d, xxHash %u.%u.%u\n",
	            json_c_version(), INIH_MODVERSION, yaml_get_version_string(),
	            cmark_version_string(), pcre2, zlibVersion(), sqlite3_libversion(),
	            HIREDIS_MAJOR, HIREDIS_MINOR, HIREDIS_PATCH, xxhash / 10000,
	            xxhash / 100 % 100, xxhash % 100);
}
