/* Unit tests: the Redis cache driver against a real redis-server (skipped,
 * with a note, where none is installed), its options, and the outage
 * bookkeeping every driver shares (cache_stats.h). */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <hiredis.h>
#include <inttypes.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cache/cache.h"
#include "cache/cache_admin.h"
#include "cache/cache_redis.h"
#include "cache/cache_stats.h"
#include "change/shared.h"
#include "lib/hash.h"
#include "lib/strbuf.h"
#include "redis_server.h"
#include "unit.h"

/* --- options --------------------------------------------------------------- */

static void assert_refused(const char *name, const char *value, const char *message)
{
	struct cms_api_cache_option o[] = {{"host", "127.0.0.1"}, {name, value}};
	char error[256] = "";
	size_t bad = 99;
	CU_ASSERT_EQUAL(cache_redis_check_options(o, 2, &bad, error, sizeof error), -1);
	CU_ASSERT_EQUAL(bad, 1);
	CU_ASSERT_STRING_EQUAL(error, message);
	char init_error[256] = "";
	CU_ASSERT_PTR_NULL(cache_redis_driver.init(o, 2, init_error, sizeof init_error));
	CU_ASSERT_STRING_EQUAL(init_error, message);
}

static void test_options(void)
{
	struct cms_api_cache_option good[] = {
		{"host", "redis.example"}, {"port", "6380"}, {"database", "3"}, {"password", "pw"},
		{"prefix", ""}, {"timeout", "250"}, {"socket", "/run/redis.sock"},
	};
	char error[256];
	size_t bad;
	CU_ASSERT_EQUAL(cache_redis_check_options(good, 7, &bad, error, sizeof error), 0);
	CU_ASSERT_EQUAL(cache_redis_check_options(NULL, 0, &bad, error, sizeof error), 0);
	void *state = cache_redis_driver.init(good, 7, error, sizeof error);
	CU_ASSERT_PTR_NOT_NULL_FATAL(state);
	CU_ASSERT_STRING_EQUAL(cache_redis_where(state), "/run/redis.sock"); /* the socket wins */
	cache_redis_driver.free(state);
	state = cache_redis_driver.init(NULL, 0, error, sizeof error);
	CU_ASSERT_STRING_EQUAL(cache_redis_where(state), "127.0.0.1:6379");
	cache_redis_driver.free(state);

	assert_refused("port", "0", "[cache] port: not a port number (1 to 65535): 0");
	assert_refused("port", "6379x", "[cache] port: not a port number (1 to 65535): 6379x");
	assert_refused("port", "", "[cache] port: not a port number (1 to 65535): ");
	assert_refused("database", "-1", "[cache] database: not a database number (0 or more): -1");
	assert_refused("timeout", "0",
	               "[cache] timeout: not a number of milliseconds (1 to 60000): 0");
	assert_refused("timeout", "50ms",
	               "[cache] timeout: not a number of milliseconds (1 to 60000): 50ms");
	assert_refused("socket", "redis.sock", "[cache] socket: not an absolute path: redis.sock");
	assert_refused("host", "", "[cache] host: empty");
	assert_refused("hots", "x", "[cache] hots: not a key of driver redis (host, port, socket, "
	                            "database, password, prefix, timeout)");

	/* cms-api check names the file and the line. */
	struct config cfg;
	memset(&cfg, 0, sizeof cfg);
	cfg.path = "/etc/cms-api.ini";
	cfg.cache_enabled = true;
	cfg.cache_driver = CACHE_REDIS;
	cfg.cache_expiry = 60;
	struct kv options[] = {{"prefix", "x:", 6}, {"port", "x", 7}};
	cfg.cache_options = options;
	cfg.ncache_options = 2;
	char warning[512];
	CU_ASSERT_EQUAL(cache_admin_check(&cfg, error, sizeof error, warning, sizeof warning), -1);
	CU_ASSERT_STRING_EQUAL(error, "/etc/cms-api.ini:7: [cache] port: not a port number (1 to "
	                              "65535): x");
	cfg.cache_driver = CACHE_FILE; /* its own keys are the file driver's business */
	CU_ASSERT_EQUAL(cache_admin_check(&cfg, error, sizeof error, warning, sizeof warning), 0);
	CU_ASSERT_STRING_EQUAL(warning, "");
}

/* --- against a real Redis ------------------------------------------------- */

struct fixture {
	char *dir;
	struct test_redis redis;
	struct config cfg;
	struct kv options[3];
	char port[16];
	struct shared_paths paths;
	struct cache cache;
};

/* A cache on the Redis driver with a timeout of timeout_ms. False (and a
 * note) when no Redis can run here. */
static bool fixture_open(struct fixture *f, const char *timeout_ms)
{
	memset(f, 0, sizeof *f);
	if (!test_redis_available()) {
		fprintf(stderr, "\nnote: redis-server is not installed: the Redis driver's tests "
		                "against a server are skipped ");
		return false;
	}
	f->dir = unit_tempdir();
	CU_ASSERT_EQUAL_FATAL(test_redis_start(&f->redis, f->dir), 0);
	snprintf(f->port, sizeof f->port, "%d", f->redis.port);
	f->options[0] = (struct kv){"port", f->port, 1};
	f->options[1] = (struct kv){"prefix", "t:", 2};
	f->options[2] = (struct kv){"timeout", (char *)timeout_ms, 3};
	f->cfg.cache_enabled = true;
	f->cfg.cache_driver = CACHE_REDIS;
	f->cfg.cache_expiry = 60;
	f->cfg.cache_dir = f->dir;
	f->cfg.content_root = f->dir;
	f->cfg.cache_options = f->options;
	f->cfg.ncache_options = 3;
	CU_ASSERT_EQUAL_FATAL(shared_paths_init(&f->paths, &f->cfg), 0);
	cache_init(&f->cache, &f->cfg, &f->paths);
	CU_ASSERT_TRUE(f->cache.on);
	return true;
}

static void fixture_close(struct fixture *f)
{
	cache_free(&f->cache);
	shared_paths_free(&f->paths);
	test_redis_stop(&f->redis);
	unit_rmtree(f->dir);
	free(f->dir);
}

static void ask_for(struct cache_ask *ask, const char *key)
{
	strbuf_reset(&ask->key);
	strbuf_addstr(&ask->key, key);
}

static bool get(struct fixture *f, uint64_t generation, const char *key, struct response *res)
{
	struct cache_ask ask = {STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT};
	ask_for(&ask, key);
	bool hit = cache_get(&f->cache, generation, &ask, res);
	cache_ask_release(&ask);
	return hit;
}

static void put(struct fixture *f, uint64_t generation, const char *key, const char *body)
{
	struct response res;
	response_init(&res);
	strbuf_addstr(response_begin(&res, 200, "application/json"), body);
	struct cache_ask ask = {STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT};
	ask_for(&ask, key);
	cache_put(&f->cache, generation, &ask, &res);
	cache_ask_release(&ask);
	response_free(&res);
}

/* An integer reply of Redis to cmd (a key name in %s), or -2. */
static long long redis_integer(const struct fixture *f, const char *cmd, const char *arg)
{
	struct timeval tv = {2, 0};
	redisContext *c = redisConnectWithTimeout("127.0.0.1", f->redis.port, tv);
	long long n = -2;
	redisReply *reply = c && !c->err ? redisCommand(c, cmd, arg) : NULL;
	if (reply && reply->type == REDIS_REPLY_INTEGER)
		n = reply->integer;
	if (reply)
		freeReplyObject(reply);
	if (c)
		redisFree(c);
	return n;
}

/* A field of INFO, as a number (connections received, ...), or -1. */
static long long redis_info(const struct fixture *f, const char *field)
{
	struct timeval tv = {2, 0};
	redisContext *c = redisConnectWithTimeout("127.0.0.1", f->redis.port, tv);
	long long n = -1;
	redisReply *reply = c && !c->err ? redisCommand(c, "INFO") : NULL;
	char pattern[64];
	snprintf(pattern, sizeof pattern, "\n%s:", field);
	const char *at = reply && reply->type == REDIS_REPLY_STRING ? strstr(reply->str, pattern)
	                                                            : NULL;
	if (at)
		n = atoll(at + strlen(pattern));
	if (reply)
		freeReplyObject(reply);
	if (c)
		redisFree(c);
	return n;
}

static char *entry_name(uint64_t generation, const char *key)
{
	struct strbuf b = STRBUF_INIT;
	strbuf_addf(&b, "t:%016" PRIx64 ":%016" PRIx64, generation, hash_fnv1a(key));
	return strbuf_detach(&b, NULL);
}

static enum cache_outage outage_of(struct fixture *f)
{
	return cache_stats_outage(f->cache.counters ? f->cache.counters : &f->cache.own);
}

static void test_round_trip(void)
{
	struct fixture f;
	if (!fixture_open(&f, "500"))
		return;
	struct response got;
	response_init(&got);
	CU_ASSERT_FALSE(get(&f, 7, "/api/a", &got));
	put(&f, 7, "/api/a", "{\"a\":1}");
	CU_ASSERT_TRUE(get(&f, 7, "/api/a", &got));
	CU_ASSERT_EQUAL(got.status, 200);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&got.body), "{\"a\":1}");
	CU_ASSERT_STRING_EQUAL(response_header(&got, "Content-Type"), "application/json");
	/* Named by generation and key hash, with the expiry as its TTL. */
	char *name = entry_name(7, "/api/a");
	CU_ASSERT_EQUAL(redis_integer(&f, "EXISTS %s", name), 1);
	long long ttl = redis_integer(&f, "TTL %s", name);
	CU_ASSERT(ttl > 0 && ttl <= 3600);
	free(name);
	/* Another generation, another key: misses. */
	CU_ASSERT_FALSE(get(&f, 8, "/api/a", &got));
	CU_ASSERT_FALSE(get(&f, 7, "/api/b", &got));
	/* A stored entry whose bytes are not ours is a miss, never an answer. */
	name = entry_name(7, "/api/c");
	struct timeval tv = {2, 0};
	redisContext *c = redisConnectWithTimeout("127.0.0.1", f.redis.port, tv);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	freeReplyObject(redisCommand(c, "SET %s %s", name, "cms-api-cache 1 garbage"));
	redisFree(c);
	free(name);
	got.status = 299;
	CU_ASSERT_FALSE(get(&f, 7, "/api/c", &got));
	CU_ASSERT_EQUAL(got.status, 299);
	/* Every lookup counted. */
	struct cache_counters k;
	CU_ASSERT_EQUAL(cache_stats_read(&f.paths, &k), 0);
	CU_ASSERT_EQUAL(k.hits, 1);
	CU_ASSERT_EQUAL(k.misses, 4);
	CU_ASSERT_EQUAL(k.failures, 0);
	response_free(&got);
	fixture_close(&f);
}

/* Down: each lookup fails, one outage in the shared state; back (empty,
 * on the same port): it works again by itself, misses, then fills. */
static void test_down_and_back(void)
{
	struct fixture f;
	if (!fixture_open(&f, "200"))
		return;
	struct response got;
	response_init(&got);
	put(&f, 1, "/api/a", "{}");
	CU_ASSERT_TRUE(get(&f, 1, "/api/a", &got));
	test_redis_stop(&f.redis);
	for (int i = 0; i < 20; i++)
		CU_ASSERT_FALSE(get(&f, 1, "/api/a", &got));
	CU_ASSERT_EQUAL(outage_of(&f), CACHE_CANNOT_READ);
	struct cache_counters k;
	cache_stats_read(&f.paths, &k);
	CU_ASSERT_EQUAL(k.failures, 20);
	CU_ASSERT_EQUAL(k.hits, 1);
	CU_ASSERT_EQUAL_FATAL(test_redis_restart(&f.redis, f.dir), 0);
	/* Asked again once its second of rest is over. */
	for (int i = 0; i < 100 && outage_of(&f) != CACHE_WORKS; i++) {
		struct timespec ts = {0, 50000000};
		nanosleep(&ts, NULL);
		CU_ASSERT_FALSE(get(&f, 1, "/api/a", &got));
	}
	CU_ASSERT_EQUAL(outage_of(&f), CACHE_WORKS);
	put(&f, 1, "/api/a", "{}");
	CU_ASSERT_TRUE(get(&f, 1, "/api/a", &got));
	response_free(&got);
	fixture_close(&f);
}

static void test_restarted_is_made_again_at_once(void)
{
	struct fixture f;
	if (!fixture_open(&f, "500"))
		return;
	struct response got;
	response_init(&got);
	put(&f, 1, "/api/a", "{}");
	CU_ASSERT_TRUE(get(&f, 1, "/api/a", &got));
	/* Restarted empty: the connection the driver holds is closed; the
	 * next call connects again at once and simply misses. */
	CU_ASSERT_EQUAL_FATAL(test_redis_restart(&f.redis, f.dir), 0);
	CU_ASSERT_FALSE(get(&f, 1, "/api/a", &got));
	CU_ASSERT_EQUAL(outage_of(&f), CACHE_WORKS);
	struct cache_counters k;
	cache_stats_read(&f.paths, &k);
	CU_ASSERT_EQUAL(k.failures, 0);
	put(&f, 1, "/api/a", "{}");
	CU_ASSERT_TRUE(get(&f, 1, "/api/a", &got));
	response_free(&got);
	fixture_close(&f);
}

/* Stopped (SIGSTOP): a lookup gives up after the timeout, not later,
 * and for a second no connection is tried again: twenty lookups right
 * after cost the stopped Redis no connection (it counts those it accepts
 * when it goes on). */
static void test_slow(void)
{
	struct fixture f;
	if (!fixture_open(&f, "100"))
		return;
	struct response got;
	response_init(&got);
	CU_ASSERT_FALSE(get(&f, 1, "/api/a", &got)); /* connected */
	long long before = redis_info(&f, "total_connections_received");
	kill(f.redis.pid, SIGSTOP);
	struct timespec t0, t1;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	CU_ASSERT_FALSE(get(&f, 1, "/api/a", &got));
	clock_gettime(CLOCK_MONOTONIC, &t1);
	for (int i = 0; i < 20; i++)
		CU_ASSERT_FALSE(get(&f, 1, "/api/a", &got));
	long long ms = (t1.tv_sec - t0.tv_sec) * 1000LL + (t1.tv_nsec - t0.tv_nsec) / 1000000;
	/* 100 ms, with a wide margin for a loaded machine: a driver that
	 * waited for Redis would wait until SIGCONT. */
	CU_ASSERT(ms < 2000);
	if (ms >= 2000)
		fprintf(stderr, "\na lookup on a stopped Redis took %lld ms ", ms);
	CU_ASSERT_EQUAL(outage_of(&f), CACHE_CANNOT_READ);
	kill(f.redis.pid, SIGCONT);
	/* before's own connection, and this one's. */
	long long after = redis_info(&f, "total_connections_received");
	CU_ASSERT(before > 0 && after - before <= 2);
	if (after - before > 2)
		fprintf(stderr, "\n%lld connections while backing off ", after - before - 1);
	response_free(&got);
	fixture_close(&f);
}

/* Full (maxmemory, noeviction): storing fails, reading works; one outage
 * of the store, which ends when an answer is stored again. */
static void test_full(void)
{
	struct fixture f;
	if (!fixture_open(&f, "500"))
		return;
	struct response got;
	response_init(&got);
	put(&f, 1, "/api/kept", "{}");
	CU_ASSERT_EQUAL(test_redis_command(&f.redis, "CONFIG SET maxmemory-policy noeviction"), 0);
	CU_ASSERT_EQUAL(test_redis_command(&f.redis, "CONFIG SET maxmemory 1"), 0);
	put(&f, 1, "/api/a", "{}");
	CU_ASSERT_EQUAL(outage_of(&f), CACHE_CANNOT_STORE);
	CU_ASSERT_FALSE(get(&f, 1, "/api/a", &got));
	CU_ASSERT_TRUE(get(&f, 1, "/api/kept", &got));
	CU_ASSERT_EQUAL(outage_of(&f), CACHE_CANNOT_STORE); /* reads do not end it */
	CU_ASSERT_EQUAL(test_redis_command(&f.redis, "CONFIG SET maxmemory 0"), 0);
	put(&f, 1, "/api/a", "{}");
	CU_ASSERT_EQUAL(outage_of(&f), CACHE_WORKS);
	CU_ASSERT_TRUE(get(&f, 1, "/api/a", &got));
	response_free(&got);
	fixture_close(&f);
}

/* invalidate drops the old generation's entries; clear drops every
 * entry but nothing else under the prefix (the rate limit's counters);
 * count counts one generation's. */
static void test_invalidate_count_and_clear(void)
{
	struct fixture f;
	if (!fixture_open(&f, "500"))
		return;
	put(&f, 1, "/api/a", "{}");
	put(&f, 1, "/api/b", "{}");
	put(&f, 2, "/api/a", "{\"x\":1}");
	CU_ASSERT_EQUAL(test_redis_command(&f.redis, "SET t:ratelimit:0123456789abcdef 3"), 0);
	long long entries, bytes;
	CU_ASSERT_EQUAL(cache_redis_count(f.cache.state, 1, &entries, &bytes), 0);
	CU_ASSERT_EQUAL(entries, 2);
	CU_ASSERT(bytes > 40);
	struct cms_api_cache_event ev = {"EntrySaved", "content/x.md", 1, 2};
	cache_invalidate(&f.cache, &ev);
	CU_ASSERT_EQUAL(cache_redis_count(f.cache.state, 1, &entries, &bytes), 0);
	CU_ASSERT_EQUAL(entries, 0);
	CU_ASSERT_EQUAL(cache_redis_count(f.cache.state, 2, &entries, &bytes), 0);
	CU_ASSERT_EQUAL(entries, 1);
	CU_ASSERT_EQUAL(cache_redis_clear(f.cache.state), 1);
	CU_ASSERT_EQUAL(cache_redis_count(f.cache.state, 2, &entries, &bytes), 0);
	CU_ASSERT_EQUAL(entries, 0);
	CU_ASSERT_EQUAL(redis_integer(&f, "EXISTS %s", "t:ratelimit:0123456789abcdef"), 1);
	fixture_close(&f);
}

void suite_cache_redis(void)
{
	CU_pSuite s = unit_add_suite("cache redis");
	unit_add_test(s, "options", test_options);
	unit_add_test(s, "round trip", test_round_trip);
	unit_add_test(s, "down and back", test_down_and_back);
	unit_add_test(s, "restarted is made again at once", test_restarted_is_made_again_at_once);
	unit_add_test(s, "slow", test_slow);
	unit_add_test(s, "full", test_full);
	unit_add_test(s, "invalidate, count and clear", test_invalidate_count_and_clear);
}
