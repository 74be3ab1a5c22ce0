/* Unit tests: the response cache (cache.h): its keys, the file driver and
 * any other through the interface, stats and clear. Entries are
 * test_cache_entry's, the file driver's own files test_cache_file's. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <inttypes.h>
#include <sys/stat.h>
#include <time.h>

#include "cache/cache.h"
#include "cache/cache_admin.h"
#include "cache/cache_entry.h"
#include "cache/cache_file.h"
#include "change/generation.h"
#include "change/shared.h"
#include "lib/hash.h"
#include "lib/strbuf.h"
#include "unit.h"

/* The key of a GET of uri on host, with or without a base_url. */
static char *key_of(const char *uri, const char *host, const char *base_url)
{
	struct config cfg;
	memset(&cfg, 0, sizeof cfg);
	cfg.base_url = (char *)base_url;
	struct request req;
	request_from_uri(&req, "GET", uri);
	free(req.host);
	req.host = xstrdup(host);
	struct strbuf key = STRBUF_INIT;
	cache_key(&cfg, &req, &key);
	request_free(&req);
	return strbuf_detach(&key, NULL);
}

static void assert_same_key(const char *a, const char *b, int same)
{
	char *ka = key_of(a, "h", NULL), *kb = key_of(b, "h", NULL);
	CU_ASSERT_EQUAL(strcmp(ka, kb) == 0, same);
	if ((strcmp(ka, kb) == 0) != same)
		fprintf(stderr, "\n%s vs %s: keys %s and %s\n", a, b, ka, kb);
	free(ka);
	free(kb);
}

static void test_key_normalises_the_query(void)
{
	char *k = key_of("/api/collections/blog/entries?sort=-date&limit=2", "example.org", NULL);
	CU_ASSERT_STRING_EQUAL(k, "c0000000000000000 s4:http h11:example.org "
	                          "p29:/api/collections/blog/entries q?limit=2&sort=-date");
	free(k);
	assert_same_key("/api/x?a=1&b=2", "/api/x?b=2&a=1", 1);
	assert_same_key("/api/x?a=1&a=2", "/api/x?a=2", 1);          /* the last value counts */
	assert_same_key("/api/x?fields[]=a&fields[]=b", "/api/x?fields[]=b&fields[]=a", 0);
	assert_same_key("/api/x?filter[title]=a", "/api/x?filter%5Btitle%5D=a", 1); /* decoded */
	assert_same_key("/api/x?a=1%262", "/api/x?a=1&2=", 0);       /* '&' in a value */
	assert_same_key("/api/x?a=1", "/api/y?a=1", 0);
	assert_same_key("/api/x", "/api/x?", 1);
}

static void test_key_names_the_host_unless_base_url(void)
{
	char *a = key_of("/api/ping", "one.example", NULL);
	char *b = key_of("/api/ping", "two.example", NULL);
	CU_ASSERT_STRING_NOT_EQUAL(a, b); /* URLs in the body come from Host */
	free(a);
	free(b);
	a = key_of("/api/ping", "one.example", "https://cms.example");
	b = key_of("/api/ping", "two.example", "https://cms.example");
	CU_ASSERT_STRING_EQUAL(a, b);
	CU_ASSERT_STRING_EQUAL(a, "c0000000000000000 p9:/api/ping q");
	free(a);
	free(b);
}

/* A config's answers are never another config's. */
static void test_key_names_the_config(void)
{
	struct config cfg;
	memset(&cfg, 0, sizeof cfg);
	struct request req;
	request_from_uri(&req, "GET", "/api/ping");
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	cfg.fingerprint = 1;
	cache_key(&cfg, &req, &a);
	cfg.fingerprint = 2;
	cache_key(&cfg, &req, &b);
	CU_ASSERT_STRING_NOT_EQUAL(a.ptr, b.ptr);
	strbuf_release(&a);
	strbuf_release(&b);
	request_free(&req);
}

/* No part of the key can pass for another: a Host holding a '/' (which a
 * front server may pass on) once filed one URL's answer under another's. */
static void test_key_parts_cannot_run_together(void)
{
	char *a = key_of("/api/ping", "h/api/ping", NULL);
	char *b = key_of("/api/ping/api/ping", "h", NULL);
	CU_ASSERT_STRING_NOT_EQUAL(a, b);
	free(a);
	free(b);
	a = key_of("/api/x?q=1", "h", NULL);
	b = key_of("/api/x%20q?q=1", "h", NULL);
	CU_ASSERT_STRING_NOT_EQUAL(a, b);
	free(a);
	free(b);
}

static void make_response(struct response *res, int status, const char *body)
{
	response_init(res);
	struct strbuf *out = response_begin(res, status, "application/json");
	response_set_header(res, "X-Extra", "a: b");
	strbuf_addstr(out, body);
}

/* cache_get and cache_put of a key alone (no request: a driver's own
 * method, path and query are ""). */
static bool get(struct cache *c, uint64_t generation, const char *key, struct response *res)
{
	struct cache_ask ask = {STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT};
	strbuf_addstr(&ask.key, key);
	bool hit = cache_get(c, generation, &ask, res);
	cache_ask_release(&ask);
	return hit;
}

static void put(struct cache *c, uint64_t generation, const char *key, const struct response *res)
{
	struct cache_ask ask = {STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT};
	strbuf_addstr(&ask.key, key);
	cache_put(c, generation, &ask, res);
	cache_ask_release(&ask);
}

/* A config with the file cache in a fresh directory, and its paths. */
struct fixture {
	char *dir;
	struct config cfg;
	struct shared_paths paths;
	struct cache cache;
};

static void fixture_open(struct fixture *f, enum cache_driver driver, long expiry)
{
	f->dir = unit_tempdir();
	memset(&f->cfg, 0, sizeof f->cfg);
	f->cfg.cache_enabled = true;
	f->cfg.cache_driver = driver;
	f->cfg.cache_expiry = expiry;
	f->cfg.cache_dir = f->dir;
	f->cfg.content_root = f->dir;
	CU_ASSERT_EQUAL_FATAL(shared_paths_init(&f->paths, &f->cfg), 0);
	cache_init(&f->cache, &f->cfg, &f->paths);
}

static void fixture_close(struct fixture *f)
{
	cache_free(&f->cache);
	shared_paths_free(&f->paths);
	unit_rmtree(f->dir);
	free(f->dir);
}

static void test_file_driver(void)
{
	struct fixture f;
	fixture_open(&f, CACHE_FILE, 60);
	CU_ASSERT_TRUE(f.cache.on);
	struct response res, got;
	make_response(&res, 200, "{\"ping\":\"pong\"}");
	response_init(&got);
	CU_ASSERT_FALSE(get(&f.cache, 3, "/api/ping", &got));
	put(&f.cache, 3, "/api/ping", &res);
	CU_ASSERT_TRUE(get(&f.cache, 3, "/api/ping", &got));
	CU_ASSERT_STRING_EQUAL(strbuf_str(&got.body), "{\"ping\":\"pong\"}");
	CU_ASSERT_FALSE(get(&f.cache, 4, "/api/ping", &got)); /* a newer generation */
	CU_ASSERT_FALSE(get(&f.cache, 3, "/api/pong", &got));

	/* Only 200 and 404 are kept. */
	response_reset(&res);
	response_error(&res, 422, "Forbidden filter: title");
	put(&f.cache, 3, "/api/422", &res);
	CU_ASSERT_FALSE(get(&f.cache, 3, "/api/422", &got));
	response_reset(&res);
	response_error(&res, 404, "Not found.");
	put(&f.cache, 3, "/api/404", &res);
	CU_ASSERT_TRUE(get(&f.cache, 3, "/api/404", &got));
	CU_ASSERT_EQUAL(got.status, 404);

	/* Older generations go, with their entries; the current one stays. */
	put(&f.cache, 1, "/api/ping", &res);
	put(&f.cache, 2, "/api/ping", &res);
	shared_remove_old_responses(&f.paths, 3, 3);
	struct stat st;
	char *old = shared_responses_dir(&f.paths, 2), *cur = shared_responses_dir(&f.paths, 3);
	CU_ASSERT_NOT_EQUAL(stat(old, &st), 0);
	CU_ASSERT_EQUAL(stat(cur, &st), 0);
	CU_ASSERT_TRUE(get(&f.cache, 3, "/api/404", &got));
	free(old);
	free(cur);
	response_free(&got);
	response_free(&res);
	fixture_close(&f);
}

static void test_damaged_entry_is_a_miss(void)
{
	struct fixture f;
	fixture_open(&f, CACHE_FILE, 60);
	struct response res, got;
	make_response(&res, 200, "{}");
	response_init(&got);
	put(&f.cache, 1, "/api/a", &res);
	CU_ASSERT_TRUE(get(&f.cache, 1, "/api/a", &got));
	/* Overwrite every entry of the generation with garbage. */
	char *dir = shared_responses_dir(&f.paths, 1);
	char cmd[4096];
	snprintf(cmd, sizeof cmd, "for f in '%s'/*; do printf garbage >\"$f\"; done", dir);
	CU_ASSERT_EQUAL(system(cmd), 0);
	got.status = 299;
	CU_ASSERT_FALSE(get(&f.cache, 1, "/api/a", &got));
	CU_ASSERT_EQUAL(got.status, 299);
	put(&f.cache, 1, "/api/a", &res);
	CU_ASSERT_TRUE(get(&f.cache, 1, "/api/a", &got));
	free(dir);
	response_free(&got);
	response_free(&res);
	fixture_close(&f);
}

/* Sets the modification time of dir/name. */
static void set_mtime(const char *dir, const char *name, long long when)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	struct timespec times[2] = {{(time_t)when, 0}, {(time_t)when, 0}};
	CU_ASSERT_EQUAL(utimensat(AT_FDCWD, path, times, 0), 0);
}

static void test_prune_keeps_the_directory_in_bounds(void)
{
	struct fixture f;
	fixture_open(&f, CACHE_FILE, 60);
	struct response res, got;
	make_response(&res, 200, "{\"data\":[1,2,3]}");
	response_init(&got);
	char *dir = shared_responses_dir(&f.paths, 1);
	long long now = (long long)time(NULL);
	char key[32], name[32];
	/* Ten answers written a second apart, 100 to 91 seconds ago. */
	for (int i = 0; i < 10; i++) {
		snprintf(key, sizeof key, "/api/k%d", i);
		put(&f.cache, 1, key, &res);
		snprintf(name, sizeof name, "%016" PRIx64, hash_fnv1a(key));
		set_mtime(dir, name, now - 100 + i);
	}
	struct stat st;
	snprintf(name, sizeof name, "%016" PRIx64, hash_fnv1a("/api/k0"));
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	CU_ASSERT_EQUAL_FATAL(stat(path, &st), 0);
	long long size = (long long)st.st_size;
	/* A dead writer's temporary file, and one being written now. */
	CU_ASSERT_EQUAL(unit_write_file(dir, "0000000000000001.tmp-dead00", "x"), 0);
	set_mtime(dir, "0000000000000001.tmp-dead00", now - 120);
	CU_ASSERT_EQUAL(unit_write_file(dir, "0000000000000002.tmp-live00", ""), 0);

	/* Expired after 95 s: k0 to k5 go, and the dead writer's file. */
	CU_ASSERT_EQUAL(cache_file_prune(&f.paths, 1, 0, 95, now), 7);
	CU_ASSERT_FALSE(get(&f.cache, 1, "/api/k5", &got));
	CU_ASSERT_TRUE(get(&f.cache, 1, "/api/k6", &got));
	/* Four left; a limit of three entries' size keeps the newest two
	 * (90 % of the limit). */
	CU_ASSERT_EQUAL(cache_file_prune(&f.paths, 1, 3 * size, 3600, now), 2);
	CU_ASSERT_FALSE(get(&f.cache, 1, "/api/k7", &got));
	CU_ASSERT_TRUE(get(&f.cache, 1, "/api/k8", &got));
	CU_ASSERT_TRUE(get(&f.cache, 1, "/api/k9", &got));
	CU_ASSERT_EQUAL(cache_file_prune(&f.paths, 1, 3 * size, 3600, now), 0);
	/* No directory yet: nothing to do. */
	CU_ASSERT_EQUAL(cache_file_prune(&f.paths, 7, 1, 1, now), 0);
	free(dir);
	response_free(&got);
	response_free(&res);
	fixture_close(&f);
}

/* What the answers of generation 1 take on disk. */
static long long stored_bytes(const struct fixture *f)
{
	char *dir = shared_responses_dir(&f->paths, 1);
	DIR *d = opendir(dir);
	long long total = 0;
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		char path[4096];
		struct stat st;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (e->d_name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode))
			total += (long long)st.st_size;
	}
	if (d)
		closedir(d);
	free(dir);
	return total;
}

/* [cache] max_size holds after every write, not only after a prune: a
 * write that would pass it makes room first (the oldest go); the shared
 * counter agrees with the files, overwrites included. */
static void test_max_size_holds_at_all_times(void)
{
	struct fixture f;
	fixture_open(&f, CACHE_FILE, 60);
	struct response res;
	make_response(&res, 200, "{\"data\":\"0123456789012345678901234567890123456789\"}");
	struct strbuf entry = STRBUF_INIT;
	cache_entry_encode("/api/k00", 1000, &res, &entry); /* every key below is as long */
	long long one = (long long)entry.len;
	strbuf_release(&entry);
	struct cache_file_state *state = f.cache.state;
	state->max_bytes = 5 * one + one / 2;
	char key[32];
	for (int i = 0; i < 40; i++) {
		snprintf(key, sizeof key, "/api/k%02d", i);
		put(&f.cache, 1, key, &res);
		CU_ASSERT(stored_bytes(&f) <= state->max_bytes);
	}
	/* The newest answers are kept. */
	struct response got;
	response_init(&got);
	CU_ASSERT_TRUE(get(&f.cache, 1, "/api/k39", &got));
	CU_ASSERT_FALSE(get(&f.cache, 1, "/api/k00", &got));
	/* Writing an answer again does not count it twice. */
	put(&f.cache, 1, "/api/k39", &res);
	CU_ASSERT_PTR_NOT_NULL_FATAL(state->budget.bytes);
	CU_ASSERT_EQUAL((long long)*state->budget.bytes, stored_bytes(&f));
	response_free(&got);
	response_free(&res);
	fixture_close(&f);
}

static void test_drivers_that_store_nothing(void)
{
	static const struct {
		enum cache_driver driver;
		long expiry;
	} cases[] = {{CACHE_NONE, 60}, {CACHE_PLUGIN, 60}, {CACHE_FILE, 0}};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct fixture f;
		fixture_open(&f, cases[i].driver, cases[i].expiry);
		CU_ASSERT_FALSE(f.cache.on);
		struct response res, got;
		make_response(&res, 200, "{}");
		response_init(&got);
		put(&f.cache, 1, "/api/a", &res);
		CU_ASSERT_FALSE(get(&f.cache, 1, "/api/a", &got));
		response_free(&got);
		response_free(&res);
		fixture_close(&f);
	}
	/* No usable directory: off. */
	struct config cfg;
	memset(&cfg, 0, sizeof cfg);
	cfg.cache_enabled = true;
	cfg.cache_expiry = 60;
	struct cache c;
	cache_init(&c, &cfg, NULL);
	CU_ASSERT_FALSE(c.on);
}

/* --- any driver, through the interface ------------------------------------ */

/* A driver whose answers a test sets: what get returns and hands back,
 * what put returns; it counts its calls. */
struct fake {
	int get_rc, put_rc;
	const char *entry; /* handed back by get when get_rc is 1 */
	size_t entry_len;
	int gets, puts;
	uint64_t generation_seen;
	char method_seen[8];
};

static int fake_get(void *state, const struct cms_api_cache_request *request,
                    cms_api_cache_append_fn append, void *sink)
{
	struct fake *f = state;
	f->gets++;
	f->generation_seen = request->generation;
	snprintf(f->method_seen, sizeof f->method_seen, "%s", request->method);
	if (f->get_rc == 1)
		append(sink, f->entry, f->entry_len);
	return f->get_rc;
}

static int fake_put(void *state, const struct cms_api_cache_request *request,
                    const struct cms_api_cache_response *response)
{
	struct fake *f = state;
	f->puts++;
	CU_ASSERT_EQUAL(response->ttl_seconds, 3600);
	CU_ASSERT_EQUAL(response->status, 200);
	CU_ASSERT_STRING_EQUAL(response->content_type, "application/json");
	CU_ASSERT_EQUAL(response->body_len, 2);
	return f->put_rc;
}

static const struct cms_api_cache_driver fake_driver = {
	CMS_API_CACHE_DRIVER_ABI_VERSION, "fake", NULL, fake_get, fake_put, NULL, NULL,
};

/* A driver that fails (a plug-in returning -1) costs uncached answers and
 * one outage, never a wrong one; one that hands back bytes that are not
 * the entry (another key's, torn, garbage) costs a miss. */
static void test_a_failing_driver(void)
{
	struct fixture f;
	fixture_open(&f, CACHE_FILE, 60);
	cache_free(&f.cache);
	cache_init(&f.cache, &f.cfg, &f.paths); /* counters in f.dir */
	struct fake fake = {-1, -1, NULL, 0, 0, 0, 0, ""};
	f.cache.driver->free(f.cache.state);
	f.cache.driver = &fake_driver;
	f.cache.state = &fake;
	f.cache.says_why = false;
	struct cache_counters *k = f.cache.counters;
	CU_ASSERT_PTR_NOT_NULL_FATAL(k);

	struct response res, got;
	make_response(&res, 200, "{}");
	response_init(&got);
	struct cache_ask ask = {STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT};
	strbuf_addstr(&ask.key, "/api/a");
	strbuf_addstr(&ask.method, "GET");
	got.status = 299;
	for (int i = 0; i < 3; i++)
		CU_ASSERT_FALSE(cache_get(&f.cache, 42, &ask, &got));
	CU_ASSERT_EQUAL(got.status, 299);
	CU_ASSERT_EQUAL(fake.generation_seen, 42);
	CU_ASSERT_STRING_EQUAL(fake.method_seen, "GET");
	CU_ASSERT_EQUAL(cache_stats_outage(k), CACHE_CANNOT_READ);
	CU_ASSERT_EQUAL(k->failures, 3);
	CU_ASSERT_EQUAL(k->misses, 3);
	cache_put(&f.cache, 42, &ask, &res);
	CU_ASSERT_EQUAL(fake.puts, 1);
	CU_ASSERT_EQUAL(cache_stats_outage(k), CACHE_CANNOT_READ); /* the same outage */
	/* Back: a miss ends it. */
	fake.get_rc = 0;
	CU_ASSERT_FALSE(cache_get(&f.cache, 42, &ask, &got));
	CU_ASSERT_EQUAL(cache_stats_outage(k), CACHE_WORKS);
	/* Only storing fails: that outage ends with an answer stored. */
	cache_put(&f.cache, 42, &ask, &res);
	CU_ASSERT_EQUAL(cache_stats_outage(k), CACHE_CANNOT_STORE);
	CU_ASSERT_FALSE(cache_get(&f.cache, 42, &ask, &got));
	CU_ASSERT_EQUAL(cache_stats_outage(k), CACHE_CANNOT_STORE);
	fake.put_rc = 0;
	cache_put(&f.cache, 42, &ask, &res);
	CU_ASSERT_EQUAL(cache_stats_outage(k), CACHE_WORKS);

	/* Bytes that are not this key's entry: misses. */
	struct strbuf other = STRBUF_INIT, mine = STRBUF_INIT;
	cache_entry_encode("/api/b", (long long)time(NULL) + 60, &res, &other);
	cache_entry_encode("/api/a", (long long)time(NULL) + 60, &res, &mine);
	const struct {
		const char *bytes;
		size_t len;
	} wrong[] = {{other.ptr, other.len}, {mine.ptr, mine.len - 1}, {"garbage", 7}, {"", 0}};
	fake.get_rc = 1;
	for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
		fake.entry = wrong[i].bytes;
		fake.entry_len = wrong[i].len;
		CU_ASSERT_FALSE(cache_get(&f.cache, 42, &ask, &got));
		CU_ASSERT_EQUAL(got.status, 299);
	}
	fake.entry = mine.ptr;
	fake.entry_len = mine.len;
	CU_ASSERT_TRUE(cache_get(&f.cache, 42, &ask, &got));
	CU_ASSERT_EQUAL(got.status, 200);
	/* A driver answering out of its contract (2) is a failing one. */
	fake.get_rc = 2;
	CU_ASSERT_FALSE(cache_get(&f.cache, 42, &ask, &got));
	CU_ASSERT_EQUAL(cache_stats_outage(k), CACHE_CANNOT_READ);
	CU_ASSERT_EQUAL(k->hits, 1);

	strbuf_release(&other);
	strbuf_release(&mine);
	cache_ask_release(&ask);
	response_free(&got);
	response_free(&res);
	f.cache.driver = NULL; /* the fake's state is not the cache's to free */
	f.cache.state = NULL;
	fixture_close(&f);
}

/* Every worker counts in one shared file; reset starts them again. */
static void test_shared_counters(void)
{
	char *dir = unit_tempdir();
	struct config cfg;
	memset(&cfg, 0, sizeof cfg);
	cfg.cache_dir = dir;
	cfg.content_root = dir;
	struct shared_paths paths;
	CU_ASSERT_EQUAL_FATAL(shared_paths_init(&paths, &cfg), 0);
	struct cache_counters read;
	CU_ASSERT_EQUAL(cache_stats_read(&paths, &read), 0); /* no file: all zero */
	CU_ASSERT_EQUAL(read.started, 0);
	struct cache_counters *a = cache_stats_open(&paths), *b = cache_stats_open(&paths);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	cache_stats_count(a, true, false);
	cache_stats_count(b, false, true);
	cache_stats_count(b, false, false);
	CU_ASSERT_EQUAL(cache_stats_read(&paths, &read), 0);
	CU_ASSERT_EQUAL(read.hits, 1);
	CU_ASSERT_EQUAL(read.misses, 2);
	CU_ASSERT_EQUAL(read.failures, 1);
	CU_ASSERT(read.started > 0);
	/* One process makes each move of the outage state. */
	CU_ASSERT_TRUE(cache_stats_outage_moves(a, CACHE_WORKS, CACHE_CANNOT_READ));
	CU_ASSERT_FALSE(cache_stats_outage_moves(b, CACHE_WORKS, CACHE_CANNOT_READ));
	CU_ASSERT_EQUAL(cache_stats_outage(b), CACHE_CANNOT_READ);
	CU_ASSERT_EQUAL(cache_stats_reset(&paths), 0);
	CU_ASSERT_EQUAL(a->hits, 0);
	CU_ASSERT_EQUAL(b->misses, 0);
	cache_stats_close(a);
	cache_stats_close(b);
	shared_paths_free(&paths);
	unit_rmtree(dir);
	free(dir);
}

/* cache stats and clear for the file driver: what the generation file
 * names is counted; clear removes every generation and the counts. */
static void test_stats_and_clear(void)
{
	struct fixture f;
	fixture_open(&f, CACHE_FILE, 60);
	struct generation g = {10, 10, 5, 5, 0, 0};
	CU_ASSERT_EQUAL_FATAL(generation_write(f.paths.generation, &g), 0);
	struct response res, got;
	make_response(&res, 200, "{}");
	response_init(&got);
	put(&f.cache, 5, "/api/a", &res);
	put(&f.cache, 5, "/api/b", &res);
	put(&f.cache, 4, "/api/old", &res);
	CU_ASSERT_TRUE(get(&f.cache, 5, "/api/a", &got));
	CU_ASSERT_FALSE(get(&f.cache, 5, "/api/c", &got));
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	CU_ASSERT_EQUAL(cache_admin_stats(&f.cfg, out, stderr), 0);
	fclose(out);
	struct strbuf entry = STRBUF_INIT;
	cache_entry_encode("/api/a", 0, &res, &entry); /* as long as the others */
	struct strbuf want = STRBUF_INIT;
	strbuf_addf(&want, "driver: file (%s)\ngeneration: 0000000000000005\nentries: 2\n"
	            "bytes: %zu\nhits: 1\nmisses: 1\nhit ratio: 50.0%%\nfailed lookups: 0\n"
	            "since: ", f.dir, 2 * (entry.len + 9)); /* expiry: 10 digits, not 1 */
	CU_ASSERT_EQUAL(strncmp(text, want.ptr, want.len), 0);
	if (strncmp(text, want.ptr, want.len) != 0)
		fprintf(stderr, "\n%s\nvs\n%s\n", text, want.ptr);
	free(text);
	out = open_memstream(&text, &len);
	CU_ASSERT_EQUAL(cache_admin_clear(&f.cfg, out, stderr), 0);
	fclose(out);
	free(text);
	char *old = shared_responses_dir(&f.paths, 4), *cur = shared_responses_dir(&f.paths, 5);
	struct stat st;
	CU_ASSERT_NOT_EQUAL(stat(old, &st), 0);
	CU_ASSERT_NOT_EQUAL(stat(cur, &st), 0);
	struct cache_counters k;
	CU_ASSERT_EQUAL(cache_stats_read(&f.paths, &k), 0);
	CU_ASSERT_EQUAL(k.hits + k.misses, 0);
	CU_ASSERT_FALSE(get(&f.cache, 5, "/api/a", &got));
	free(old);
	free(cur);
	strbuf_release(&want);
	strbuf_release(&entry);
	response_free(&got);
	response_free(&res);
	fixture_close(&f);
}

void suite_cache(void)
{
	CU_pSuite s = unit_add_suite("cache");
	unit_add_test(s, "key normalises the query", test_key_normalises_the_query);
	unit_add_test(s, "max_size holds at all times", test_max_size_holds_at_all_times);
	unit_add_test(s, "key names the host unless base_url", test_key_names_the_host_unless_base_url);
	unit_add_test(s, "key parts cannot run together", test_key_parts_cannot_run_together);
	unit_add_test(s, "key names the config", test_key_names_the_config);
	unit_add_test(s, "file driver", test_file_driver);
	unit_add_test(s, "damaged entry is a miss", test_damaged_entry_is_a_miss);
	unit_add_test(s, "drivers that store nothing", test_drivers_that_store_nothing);
	unit_add_test(s, "prune keeps the directory in bounds", test_prune_keeps_the_directory_in_bounds);
	unit_add_test(s, "a failing driver", test_a_failing_driver);
	unit_add_test(s, "shared counters", test_shared_counters);
	unit_add_test(s, "stats and clear", test_stats_and_clear);
}
