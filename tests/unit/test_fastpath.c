/* Unit tests: fastpath (the static fast path's file names, its
 * generation directories and what a worker publishes). */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cache/fastpath.h"
#include "change/generation.h"
#include "change/shared.h"
#include "core/config.h"
#include "http/request.h"
#include "http/response.h"
#include "lib/strbuf.h"
#include "unit.h"

/* The name of path and query, or "-" when it has none. */
static char *name_of(const char *path, const char *query)
{
	struct strbuf out = STRBUF_INIT;
	if (!fastpath_file_name(path, query, &out)) {
		strbuf_release(&out);
		return xstrdup("-");
	}
	return strbuf_detach(&out, NULL);
}

#define NAME_IS(path, query, want)                                                     \
	do {                                                                           \
		char *got_ = name_of(path, query);                                     \
		CU_ASSERT_STRING_EQUAL(got_, want);                                    \
		if (strcmp(got_, want) != 0)                                           \
			fprintf(stderr, "\n%s ? %s: got %s, want %s\n", path, query, got_, \
			        want);                                                 \
		free(got_);                                                            \
	} while (0)

static void test_names(void)
{
	NAME_IS("/api/collections/blog/entries", "limit=2",
	        "api/collections/blog/entries@limit=2.json");
	/* A path that is a prefix of another: a file beside a directory. */
	NAME_IS("/api/collections", "", "api/collections@.json");
	NAME_IS("/api/collections/blog", "", "api/collections/blog@.json");
	/* A trailing slash is a name of its own, as the client sent it. */
	NAME_IS("/api/collections/", "", "api/collections/@.json");
	NAME_IS("/api/collections/", "limit=1", "api/collections/@limit=1.json");
	NAME_IS("/", "", "@.json");
	/* Underscores and tildes in paths; the query byte for byte. */
	NAME_IS("/~bob/api/globals/site_settings", "", "~bob/api/globals/site_settings@.json");
	NAME_IS("/api/collections/blog/entries", "filter[title:contains]=a&fields=id,title&sort=-date",
	        "api/collections/blog/entries@filter[title:contains]=a&fields=id,title&sort=-date.json");
	NAME_IS("/api/x", "filter%5Btitle%5D=a+b&q=%c3%a9", "api/x@filter%5Btitle%5D=a+b&q=%c3%a9.json");
	NAME_IS("/api/x.json", "", "api/x.json@.json");
	NAME_IS("/api/a.b-c_d~e", "v=1.5", "api/a.b-c_d~e@v=1.5.json");
}

static void test_unsafe_paths(void)
{
	NAME_IS("api/x", "", "-");        /* not absolute */
	NAME_IS("", "", "-");
	NAME_IS("//api/x", "", "-");      /* empty segments: servers merge them */
	NAME_IS("/api//x", "", "-");
	NAME_IS("/api/./x", "", "-");     /* dot segments: servers resolve them */
	NAME_IS("/api/../x", "", "-");
	NAME_IS("/api/x/..", "", "-");
	NAME_IS("/api/.hidden", "", "-");
	NAME_IS("/api/a%2Fb", "", "-");   /* '%': nginx's $uri and Apache decode it */
	NAME_IS("/api/coll%65ctions", "", "-");
	NAME_IS("/api/a b", "", "-");
	NAME_IS("/api/a@b", "", "-");     /* the separator never in a path */
	NAME_IS("/api/a+b", "", "-");
	NAME_IS("/api/caf\xc3\xa9", "", "-");
	NAME_IS("/api/a\\b", "", "-");
}

static void test_unsafe_queries(void)
{
	NAME_IS("/api/x", "a=..", "-");
	NAME_IS("/api/x", "a=..b", "-");
	NAME_IS("/api/x", "a=1/2", "-");
	NAME_IS("/api/x", "a=%2", "-");   /* an escape cut short */
	NAME_IS("/api/x", "a=%", "-");
	NAME_IS("/api/x", "a=%zz", "-");
	NAME_IS("/api/x", "a=b c", "-");
	NAME_IS("/api/x", "a=\"b\"", "-");
	NAME_IS("/api/x", "a='b'", "-");
	NAME_IS("/api/x", "a=*", "-");
	NAME_IS("/api/x", "a=?", "-");
	NAME_IS("/api/x", "a=#", "-");
	NAME_IS("/api/x", "a=<b>", "-");
	NAME_IS("/api/x", "a=$b", "-");
	NAME_IS("/api/x", "a=@b", "-");
	NAME_IS("/api/x", "a=\xc3\xa9", "-");
	NAME_IS("/api/x", "a=\x01", "-");
	NAME_IS("/api/x", "a=\\", "-");
}

static char *repeat(char c, size_t n)
{
	char *s = xmalloc(n + 1);
	memset(s, c, n);
	s[n] = '\0';
	return s;
}

static void test_long_names(void)
{
	/* The last component is its segment, '@', the query and ".json". */
	char *q = repeat('q', FASTPATH_MAX_COMPONENT - 7);
	struct strbuf want = STRBUF_INIT;
	strbuf_addf(&want, "api/x@%s.json", q);
	NAME_IS("/api/x", q, want.ptr);
	free(q);
	q = repeat('q', FASTPATH_MAX_COMPONENT - 6);
	NAME_IS("/api/x", q, "-");
	free(q);
	/* A segment of the bound is fine in the middle, not last (its
	 * suffix would pass the bound), nor one byte longer anywhere. */
	char *seg = repeat('s', FASTPATH_MAX_COMPONENT);
	struct strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "/api/%s/x", seg);
	strbuf_reset(&want);
	strbuf_addf(&want, "api/%s/x@.json", seg);
	NAME_IS(path.ptr, "", want.ptr);
	strbuf_reset(&path);
	strbuf_addf(&path, "/api/%s", seg);
	NAME_IS(path.ptr, "", "-");
	free(seg);
	seg = repeat('s', FASTPATH_MAX_COMPONENT + 1);
	strbuf_reset(&path);
	strbuf_addf(&path, "/api/%s/x", seg);
	NAME_IS(path.ptr, "", "-");
	free(seg);
	/* The whole name is bounded too. */
	strbuf_reset(&path);
	while (path.len < FASTPATH_MAX_NAME)
		strbuf_addstr(&path, "/abcdefghij");
	NAME_IS(path.ptr, "", "-");
	strbuf_release(&path);
	strbuf_release(&want);
}

/* A refused name leaves what out held; a good one is appended. */
static void test_name_appends(void)
{
	struct strbuf out = STRBUF_INIT;
	strbuf_addstr(&out, "keep:");
	CU_ASSERT_FALSE(fastpath_file_name("/api/..", "", &out));
	CU_ASSERT_STRING_EQUAL(out.ptr, "keep:");
	CU_ASSERT_TRUE(fastpath_file_name("/api/x", "a=1", &out));
	CU_ASSERT_STRING_EQUAL(out.ptr, "keep:api/x@a=1.json");
	strbuf_release(&out);
}

/* --- generations and publishing --------------------------------------- */

static char *dir;
static struct config cfg;
static struct shared_paths paths;

static void set_up_site(void)
{
	dir = unit_tempdir();
	struct strbuf ini = STRBUF_INIT;
	strbuf_addf(&ini,
	            "[api]\nenabled = true\nbase_url = http://example.org\n"
	            "[content]\nroot = %s/site\n[cache]\ndir = %s/cache\npublic_dir = %s/public\n"
	            "[rate_limit]\nper_minute = 0\n",
	            FIXTURES_DIR, dir, dir);
	CU_ASSERT_EQUAL_FATAL(unit_write_file(dir, "cms-api.ini", ini.ptr), 0);
	strbuf_release(&ini);
	char path[512], err[CONFIG_ERR_LEN];
	snprintf(path, sizeof path, "%s/cms-api.ini", dir);
	CU_ASSERT_EQUAL_FATAL(config_load(&cfg, path, err), 0);
	CU_ASSERT_EQUAL_FATAL(shared_paths_init(&paths, &cfg), 0);
}

static void tear_down_site(void)
{
	shared_paths_free(&paths);
	config_free(&cfg);
	unit_rmtree(dir);
	free(dir);
}

/* The target of public/current, "" when none. */
static void current_target(char *out, size_t size)
{
	char link[600];
	snprintf(link, sizeof link, "%s/public/current", dir);
	ssize_t n = readlink(link, out, size - 1);
	out[n > 0 ? n : 0] = '\0';
}

/* The contents of public/<rel> ("-" when it cannot be read). */
static char *published(const char *rel)
{
	char path[1024];
	snprintf(path, sizeof path, "%s/public/%s", dir, rel);
	return unit_read_file(path, "-");
}

static void expect_published(const char *rel, const char *want)
{
	char *got = published(rel);
	CU_ASSERT_STRING_EQUAL(got, want);
	if (strcmp(got, want) != 0)
		fprintf(stderr, "\n%s: got %s, want %s\n", rel, got, want);
	free(got);
}

/* Publishes body (a 200, or status) of type for GET uri under generation. */
static void publish_typed(struct fastpath *fp, const char *method, const char *uri, int status,
                          const char *type, const char *body, uint64_t generation, bool replace)
{
	struct request req;
	request_from_uri(&req, method, uri);
	fastpath_note(fp, &req);
	struct response res;
	response_init(&res);
	strbuf_addstr(response_begin(&res, status, type), body);
	fastpath_publish(fp, generation, &res, replace);
	response_free(&res);
	request_free(&req);
}

static void publish(struct fastpath *fp, const char *method, const char *uri, int status,
                    const char *body, uint64_t generation, bool replace)
{
	publish_typed(fp, method, uri, status, "application/json", body, generation, replace);
}

static void write_generation(struct generation *g)
{
	CU_ASSERT_EQUAL_FATAL(generation_write(paths.generation, g), 0);
}

static void test_generations(void)
{
	set_up_site();
	struct generation g;
	generation_fresh(&g, 1);
	write_generation(&g);
	/* Something of the user's in public_dir: swaps leave it alone. */
	CU_ASSERT_EQUAL(unit_write_file(dir, "public/keep.txt", "mine"), 0);
	fastpath_follow(&cfg);
	char first[128], prefix[128], again[128];
	current_target(first, sizeof first);
	snprintf(prefix, sizeof prefix, "g%" PRIu64 "-c%016" PRIx64 "-t", g.cache_signature, cfg.fingerprint);
	CU_ASSERT_EQUAL(strncmp(first, prefix, strlen(prefix)), 0);
	/* Nothing moved: the same directory. */
	fastpath_follow(&cfg);
	current_target(again, sizeof again);
	CU_ASSERT_STRING_EQUAL(again, first);

	struct fastpath fp;
	fastpath_init(&fp, &cfg);
	publish(&fp, "GET", "/api/collections?limit=2", 200, "{\"a\":1}", g.cache_signature, true);
	expect_published("current/api/collections@limit=2.json", "{\"a\":1}");
	publish(&fp, "GET", "/api/collections", 200, "{\"b\":2}", g.cache_signature, true);
	publish(&fp, "GET", "/api/collections/blog", 200, "{\"c\":3}", g.cache_signature, true);
	expect_published("current/api/collections@.json", "{\"b\":2}");
	expect_published("current/api/collections/blog@.json", "{\"c\":3}");
	char path[1024];
	struct stat st;
	snprintf(path, sizeof path, "%s/public/current/api/collections@.json", dir);
	CU_ASSERT(stat(path, &st) == 0 && (st.st_mode & 0777) == 0644);
	snprintf(path, sizeof path, "%s/public/current/api", dir);
	CU_ASSERT(stat(path, &st) == 0 && (st.st_mode & 0777) == 0755);
	/* A hit keeps the file there; a fresh answer replaces it. */
	publish(&fp, "GET", "/api/collections", 200, "{\"b\":3}", g.cache_signature, false);
	expect_published("current/api/collections@.json", "{\"b\":2}");
	publish(&fp, "GET", "/api/collections", 200, "{\"b\":4}", g.cache_signature, true);
	expect_published("current/api/collections@.json", "{\"b\":4}");
	/* Only a 200 to a GET whose name is safe, of the generation in force. */
	publish(&fp, "GET", "/api/nope", 404, "{\"message\":\"Not found.\"}", g.cache_signature, true);
	expect_published("current/api/nope@.json", "-");
	publish(&fp, "HEAD", "/api/head", 200, "{}", g.cache_signature, true);
	expect_published("current/api/head@.json", "-");
	publish(&fp, "GET", "/api/x?a=..", 200, "{}", g.cache_signature, true);
	expect_published("current/api/x@a=...json", "-");
	publish(&fp, "GET", "/api/old", 200, "{}", g.cache_signature - 1, true);
	expect_published("current/api/old@.json", "-");
	/* An image under its type's suffix, so a server types it alike; an
	 * answer of a type without one is not published. */
	publish_typed(&fp, "GET", "/api/img/assets/a.jpg?p=thumb", 200, "image/webp", "RIFF",
	              g.cache_signature, true);
	expect_published("current/api/img/assets/a.jpg@p=thumb.webp", "RIFF");
	expect_published("current/api/img/assets/a.jpg@p=thumb.json", "-");
	publish_typed(&fp, "GET", "/api/text", 200, "text/plain", "x", g.cache_signature, true);
	expect_published("current/api/text@.json", "-");

	/* The site changed: a new directory at once, the old one gone. */
	generation_next(&g, true, 2);
	write_generation(&g);
	fastpath_follow(&cfg);
	current_target(again, sizeof again);
	CU_ASSERT_STRING_NOT_EQUAL(again, first);
	expect_published("current/api/collections@.json", "-");
	snprintf(path, sizeof path, "%s/public/%s", dir, first);
	CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
	expect_published("keep.txt", "mine");
	/* A worker still on the old generation publishes nothing reachable. */
	publish(&fp, "GET", "/api/collections", 200, "{\"old\":1}", g.cache_signature - 1, true);
	expect_published("current/api/collections@.json", "-");
	publish(&fp, "GET", "/api/collections", 200, "{\"new\":1}", g.cache_signature, true);
	expect_published("current/api/collections@.json", "{\"new\":1}");
	/* An index-only change (ignored events) keeps the directory. */
	char before[128];
	current_target(before, sizeof before);
	generation_next(&g, false, 3);
	write_generation(&g);
	fastpath_follow(&cfg);
	current_target(again, sizeof again);
	CU_ASSERT_STRING_EQUAL(again, before);
	/* Trimming within max_size changes nothing. */
	fastpath_trim(&cfg);
	current_target(again, sizeof again);
	CU_ASSERT_STRING_EQUAL(again, before);
	expect_published("current/api/collections@.json", "{\"new\":1}");
	fastpath_free(&fp);
	tear_down_site();
}

/* A worker of another config (its fingerprint) never publishes into the
 * directory of this one. */
static void test_other_config(void)
{
	set_up_site();
	struct generation g;
	generation_fresh(&g, 1);
	write_generation(&g);
	fastpath_follow(&cfg);
	struct fastpath fp;
	fastpath_init(&fp, &cfg);
	fp.fingerprint ^= 1;
	publish(&fp, "GET", "/api/collections", 200, "{}", g.cache_signature, true);
	expect_published("current/api/collections@.json", "-");
	fastpath_free(&fp);
	tear_down_site();
}

/* A stopped watcher withdraws the fast path: public/current goes (and
 * nothing else), and the next follow makes a fresh directory. */
static void test_withdraw(void)
{
	set_up_site();
	struct generation g;
	generation_fresh(&g, 1);
	write_generation(&g);
	fastpath_follow(&cfg);
	struct fastpath fp;
	fastpath_init(&fp, &cfg);
	publish(&fp, "GET", "/api/collections", 200, "{}", g.cache_signature, true);
	expect_published("current/api/collections@.json", "{}");
	char first[128], again[128];
	current_target(first, sizeof first);
	fastpath_arm_withdraw(&cfg);
	fastpath_withdraw();
	current_target(again, sizeof again);
	CU_ASSERT_STRING_EQUAL(again, "");
	expect_published("current/api/collections@.json", "-");
	/* Twice is harmless; a worker publishes nothing meanwhile. */
	fastpath_withdraw();
	publish(&fp, "GET", "/api/collections", 200, "{}", g.cache_signature, true);
	expect_published("current/api/collections@.json", "-");
	fastpath_follow(&cfg);
	current_target(again, sizeof again);
	CU_ASSERT_STRING_NOT_EQUAL(again, "");
	CU_ASSERT_STRING_NOT_EQUAL(again, first);
	/* Armed for a config without public_dir: nothing to withdraw. */
	struct config none;
	memset(&none, 0, sizeof none);
	fastpath_arm_withdraw(&none);
	fastpath_withdraw();
	current_target(again, sizeof again);
	CU_ASSERT_STRING_NOT_EQUAL(again, "");
	fastpath_free(&fp);
	tear_down_site();
}

void suite_fastpath(void)
{
	CU_pSuite s = unit_add_suite("fastpath");
	unit_add_test(s, "names", test_names);
	unit_add_test(s, "unsafe paths", test_unsafe_paths);
	unit_add_test(s, "unsafe queries", test_unsafe_queries);
	unit_add_test(s, "long names", test_long_names);
	unit_add_test(s, "a name is appended", test_name_appends);
	unit_add_test(s, "generations", test_generations);
	unit_add_test(s, "another config", test_other_config);
	unit_add_test(s, "a stopped watcher withdraws", test_withdraw);
}
