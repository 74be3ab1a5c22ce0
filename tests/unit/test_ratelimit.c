/*
 * Tests for the rate limit: the shared table (windows, counts, expiry,
 * room, files, several processes at once), the keyed hash, and the
 * limiter (client keys, verdicts, headers, the file going away, Redis
 * that does not answer). Every clock is the test's own.
 */
#include "autoconfig.h"

#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app/app.h"
#include "cache/cache.h"
#include "change/shared.h"
#include "core/log.h"
#include "guard/ratelimit.h"
#include "guard/ratelimit_table.h"
#include "lib/siphash.h"
#include "redis_server.h"
#include "unit.h"

#define T0 1700000000LL /* the tests' clock starts here */

static char *temp_path(const char *dir, const char *name)
{
	struct strbuf b = STRBUF_INIT;
	strbuf_addf(&b, "%s/%s", dir, name);
	return strbuf_detach(&b, NULL);
}

/* One hit, checked: allowed or not, the count and the window's end. */
static void expect_hit(struct rate_table *t, uint64_t key, long limit, long long now,
                       bool allowed, long count, long long window_end)
{
	struct rate_result r;
	CU_ASSERT_TRUE_FATAL(rate_table_hit(t, key, limit, now, &r));
	CU_ASSERT_EQUAL(r.allowed, allowed);
	CU_ASSERT_EQUAL(r.count, count);
	CU_ASSERT_EQUAL(r.window_end, window_end);
}

static void test_siphash(void)
{
	/* The reference vector of the SipHash paper (appendix A). */
	uint8_t key[SIPHASH_KEY_LEN], msg[15];
	for (int i = 0; i < 16; i++)
		key[i] = (uint8_t)i;
	for (int i = 0; i < 15; i++)
		msg[i] = (uint8_t)i;
	CU_ASSERT_EQUAL(siphash24(key, msg, sizeof msg), 0xa129ca6149be45e5ULL);
	/* The first of the reference test vectors: the empty message. */
	CU_ASSERT_EQUAL(siphash24(key, "", 0), 0x726fdb47dd0e0e31ULL);
	CU_ASSERT_EQUAL(siphash24(key, msg, 8), 0x93f5f5799a932462ULL);
}

static void test_window(void)
{
	struct rate_table *t = rate_table_private(64);
	/* The window starts at the first hit and lasts 60 seconds. */
	expect_hit(t, 42, 3, T0, true, 1, T0 + 60);
	expect_hit(t, 42, 3, T0 + 10, true, 2, T0 + 60);
	expect_hit(t, 42, 3, T0 + 59, true, 3, T0 + 60);
	/* Beyond the budget: refused, and not counted. */
	expect_hit(t, 42, 3, T0 + 59, false, 3, T0 + 60);
	expect_hit(t, 42, 3, T0 + 59, false, 3, T0 + 60);
	/* The next window starts with the next hit, not at a fixed minute. */
	expect_hit(t, 42, 3, T0 + 60, true, 1, T0 + 120);
	expect_hit(t, 42, 3, T0 + 200, true, 1, T0 + 260);
	/* A clock a moment behind another process's is still in the window;
	 * one that jumped far back starts afresh. */
	expect_hit(t, 42, 3, T0 + 199, true, 2, T0 + 260);
	expect_hit(t, 42, 3, T0 + 100, true, 1, T0 + 160);
	rate_table_close(t);
}

/* What a hit would find, neither counted nor given a bucket. */
static void expect_look(struct rate_table *t, uint64_t key, long limit, long long now,
                        bool allowed, long count, long long window_end)
{
	struct rate_result r;
	rate_table_look(t, key, limit, now, &r);
	CU_ASSERT_EQUAL(r.allowed, allowed);
	CU_ASSERT_EQUAL(r.count, count);
	CU_ASSERT_EQUAL(r.window_end, window_end);
}

static void test_look(void)
{
	struct rate_table *t = rate_table_private(8);
	/* A key never hit: the whole budget, and no bucket taken. */
	expect_look(t, 42, 2, T0, true, 0, T0 + 60);
	for (uint64_t k = 100; k < 108; k++)
		expect_hit(t, k, 2, T0, true, 1, T0 + 60);
	expect_look(t, 42, 2, T0 + 1, true, 0, T0 + 61);
	expect_look(t, 100, 2, T0 + 1, true, 1, T0 + 60);
	/* Looking counts nothing, however often. */
	expect_look(t, 100, 2, T0 + 1, true, 1, T0 + 60);
	expect_hit(t, 100, 2, T0 + 2, true, 2, T0 + 60);
	expect_look(t, 100, 2, T0 + 3, false, 2, T0 + 60);
	expect_hit(t, 100, 2, T0 + 3, false, 2, T0 + 60);
	/* The window over: the budget whole again. */
	expect_look(t, 100, 2, T0 + 60, true, 0, T0 + 120);
	rate_table_close(t);
}

static void test_keys_are_separate(void)
{
	struct rate_table *t = rate_table_private(64);
	expect_hit(t, 1, 1, T0, true, 1, T0 + 60);
	expect_hit(t, 1, 1, T0, false, 1, T0 + 60);
	expect_hit(t, 2, 1, T0 + 5, true, 1, T0 + 65);
	/* Keys that share a home bucket (64 apart) too. */
	expect_hit(t, 65, 1, T0 + 6, true, 1, T0 + 66);
	expect_hit(t, 65, 1, T0 + 6, false, 1, T0 + 66);
	expect_hit(t, 1, 1, T0 + 7, false, 1, T0 + 60);
	/* Texts: the keyed hash of the table, never 0 (an empty bucket). */
	uint64_t a = rate_table_key(t, "ip:192.0.2.1"), b = rate_table_key(t, "ip:192.0.2.2");
	CU_ASSERT_NOT_EQUAL(a, b);
	CU_ASSERT_NOT_EQUAL(a, 0);
	CU_ASSERT_EQUAL(a, rate_table_key(t, "ip:192.0.2.1"));
	/* Another table, another hash key: nobody can aim at a bucket. */
	struct rate_table *other = rate_table_private(64);
	CU_ASSERT_NOT_EQUAL(a, rate_table_key(other, "ip:192.0.2.1"));
	rate_table_close(other);
	rate_table_close(t);
}

/* A limit larger than a count holds is the largest it holds. */
static void test_huge_limit(void)
{
	struct rate_table *t = rate_table_private(8);
	expect_hit(t, 5, 2000000000L, T0, true, 1, T0 + 60);
	rate_table_close(t);
}

static void test_full_table(void)
{
	/* 8 buckets: every key's path is the whole table. */
	struct rate_table *t = rate_table_private(8);
	expect_hit(t, 100, 5, T0, true, 1, T0 + 60); /* the oldest window */
	for (uint64_t k = 101; k <= 107; k++)
		expect_hit(t, k, 5, T0 + 30, true, 1, T0 + 90);
	/* No room for a ninth client while every window runs ... */
	struct rate_result r;
	CU_ASSERT_FALSE(rate_table_hit(t, 200, 5, T0 + 59, &r));
	CU_ASSERT_FALSE(r.allowed);
	/* ... while the eight go on counting. */
	expect_hit(t, 103, 5, T0 + 59, true, 2, T0 + 90);
	/* Once a window is over its bucket is taken: the oldest such. */
	expect_hit(t, 200, 5, T0 + 75, true, 1, T0 + 135);
	expect_hit(t, 200, 5, T0 + 76, true, 2, T0 + 135);
	CU_ASSERT_FALSE(rate_table_hit(t, 100, 5, T0 + 76, &r));
	/* Later every window is over: any key finds room again. */
	expect_hit(t, 100, 5, T0 + 140, true, 1, T0 + 200);
	expect_hit(t, 300, 5, T0 + 140, true, 1, T0 + 200);
	rate_table_close(t);
}

static void test_file_is_shared(void)
{
	char *dir = unit_tempdir();
	char *path = temp_path(dir, "rate.tbl");
	/* Two mappings of one file, as two workers have. */
	struct rate_table *a = rate_table_open(path, 128);
	struct rate_table *b = rate_table_open(path, 128);
	CU_ASSERT_PTR_NOT_NULL_FATAL(a);
	CU_ASSERT_PTR_NOT_NULL_FATAL(b);
	struct stat st;
	CU_ASSERT_EQUAL_FATAL(stat(path, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0600);
	CU_ASSERT_EQUAL(rate_table_key(a, "ip:192.0.2.1"), rate_table_key(b, "ip:192.0.2.1"));
	uint64_t k = rate_table_key(a, "ip:192.0.2.1");
	expect_hit(a, k, 3, T0, true, 1, T0 + 60);
	expect_hit(b, k, 3, T0 + 1, true, 2, T0 + 60);
	expect_hit(a, k, 3, T0 + 2, true, 3, T0 + 60);
	expect_hit(b, k, 3, T0 + 3, false, 3, T0 + 60);
	/* The file holds hashes, never the client's text. */
	FILE *f = fopen(path, "rb");
	char buf[4096];
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	CU_ASSERT_PTR_NULL(memmem(buf, n, "192.0.2.1", 9));
	/* Flags: the first to raise it is told so, and the first to lower it. */
	CU_ASSERT_TRUE(rate_table_flag_set(a, true));
	CU_ASSERT_FALSE(rate_table_flag_set(b, true));
	CU_ASSERT_TRUE(rate_table_flag_set(b, false));
	CU_ASSERT_FALSE(rate_table_flag_set(a, false));
	/* Removed: no longer current; a new file starts over. */
	CU_ASSERT_TRUE(rate_table_current(a, path));
	unlink(path);
	CU_ASSERT_FALSE(rate_table_current(a, path));
	struct rate_table *c = rate_table_open(path, 128);
	CU_ASSERT_PTR_NOT_NULL_FATAL(c);
	CU_ASSERT_FALSE(rate_table_current(a, path));
	CU_ASSERT_TRUE(rate_table_current(c, path));
	uint64_t kc = rate_table_key(c, "ip:192.0.2.1");
	expect_hit(c, kc, 3, T0 + 4, true, 1, T0 + 64);
	rate_table_close(a);
	rate_table_close(b);
	rate_table_close(c);
	/* No temporary file is left behind. */
	glob_t g;
	char *pattern = temp_path(dir, "*");
	CU_ASSERT_EQUAL(glob(pattern, 0, NULL, &g), 0);
	CU_ASSERT_EQUAL(g.gl_pathc, 1);
	globfree(&g);
	free(pattern);
	unit_rmtree(dir);
	free(path);
	free(dir);
}

static void test_foreign_and_missing(void)
{
	char *dir = unit_tempdir();
	char *path = temp_path(dir, "rate.tbl");
	/* A file that is not a table of this size is replaced. */
	CU_ASSERT_EQUAL(unit_write_file(dir, "rate.tbl", "not a table"), 0);
	struct rate_table *t = rate_table_open(path, 16);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	expect_hit(t, 9, 1, T0, true, 1, T0 + 60);
	rate_table_close(t);
	t = rate_table_open(path, 32);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	expect_hit(t, 9, 1, T0, true, 1, T0 + 60);
	rate_table_close(t);
	/* A directory that is not there: no table, errno says why. */
	char *nowhere = temp_path(dir, "missing/rate.tbl");
	errno = 0;
	CU_ASSERT_PTR_NULL(rate_table_open(nowhere, 16));
	CU_ASSERT_EQUAL(errno, ENOENT);
	free(nowhere);
	unit_rmtree(dir);
	free(path);
	free(dir);
}

/* A process that died taking a bucket over left it locked: the next one
 * to need a bucket takes it. */
static void test_abandoned_bucket(void)
{
	char *dir = unit_tempdir();
	char *path = temp_path(dir, "rate.tbl");
	struct rate_table *t = rate_table_open(path, 8);
	CU_ASSERT_PTR_NOT_NULL_FATAL(t);
	expect_hit(t, 3, 5, T0, true, 1, T0 + 60);
	/* Bucket 3 (key 3's home): 64 bytes of header, 16 a bucket, the
	 * state after the key. */
	int fd = open(path, O_WRONLY);
	uint64_t locked = UINT64_MAX;
	CU_ASSERT_EQUAL(pwrite(fd, &locked, sizeof locked, 64 + 3 * 16 + 8), (ssize_t)sizeof locked);
	close(fd);
	expect_hit(t, 3, 5, T0 + 1, true, 1, T0 + 61);
	expect_hit(t, 3, 5, T0 + 2, true, 2, T0 + 61);
	/* Another key's locked bucket on the way is taken too. */
	fd = open(path, O_WRONLY);
	CU_ASSERT_EQUAL(pwrite(fd, &locked, sizeof locked, 64 + 3 * 16 + 8), (ssize_t)sizeof locked);
	close(fd);
	expect_hit(t, 11, 5, T0 + 3, true, 1, T0 + 63);
	rate_table_close(t);
	unit_rmtree(dir);
	free(path);
	free(dir);
}

/* Workers counting at once: nprocs processes, each with its own mapping
 * of a table of 256 buckets, released together, hit each of nkeys keys in
 * turn, hits times; process p starts at key p * stride. Key i is
 * i * spacing, so a spacing of 256 gives every key the same home. */
struct crowd {
	int nprocs, nkeys, hits, stride;
	long limit;
	uint64_t spacing;
};

/* The hits a process of the crowd saw allowed, or -1. */
static long crowd_member(const struct crowd *c, const char *path, int p, int start_fd)
{
	struct rate_table *t = rate_table_open(path, 256);
	char go;
	long allowed = -1;
	if (t && read(start_fd, &go, 1) == 0) {
		allowed = 0;
		for (int i = 0; i < c->hits; i++)
			for (int k = 0; k < c->nkeys; k++) {
				struct rate_result r;
				uint64_t key = (uint64_t)((k + p * c->stride) % c->nkeys + 1) * c->spacing;
				if (rate_table_hit(t, key, c->limit, T0, &r) && r.allowed)
					allowed++;
			}
	}
	rate_table_close(t);
	return allowed;
}

/* How many hits were allowed in all (-1 when a process failed). */
static long allowed_in_crowd(const struct crowd *c, const char *path)
{
	int start[2], results[2];
	if (pipe(start) != 0 || pipe(results) != 0)
		return -1;
	pid_t pids[8];
	for (int p = 0; p < c->nprocs; p++) {
		pids[p] = fork();
		if (pids[p] != 0)
			continue;
		close(start[1]);
		long allowed = crowd_member(c, path, p, start[0]);
		_exit(write(results[1], &allowed, sizeof allowed) == sizeof allowed ? 0 : 1);
	}
	/* Closing the write end releases them all at once. */
	close(start[0]);
	close(start[1]);
	close(results[1]);
	long total = 0;
	for (int p = 0; p < c->nprocs; p++) {
		long allowed;
		if (read(results[0], &allowed, sizeof allowed) != sizeof allowed || allowed < 0)
			total = -1;
		else if (total >= 0)
			total += allowed;
	}
	close(results[0]);
	for (int p = 0; p < c->nprocs; p++)
		waitpid(pids[p], NULL, 0);
	unlink(path);
	return total;
}

static void test_processes_count_exactly(void)
{
	char *dir = unit_tempdir();
	char *path = temp_path(dir, "rate.tbl");
	/* Four workers, 25,000 requests each from one client, a limit of
	 * 10,000: exactly that many pass. */
	struct crowd one = {4, 1, 25000, 0, 10000, 1000003};
	CU_ASSERT_EQUAL(allowed_in_crowd(&one, path), 10000);
	/* Four workers meeting 50 new clients at once, 200 requests each, a
	 * limit of 100: no client gets two buckets, nor more than 100. */
	struct crowd many = {4, 50, 200, 7, 100, 1000003};
	CU_ASSERT_EQUAL(allowed_in_crowd(&many, path), 5000);
	/* 60 new clients with one home bucket, met in different orders:
	 * each takes a bucket of its own on the one path. */
	struct crowd crammed = {4, 60, 20, 15, 10, 256};
	CU_ASSERT_EQUAL(allowed_in_crowd(&crammed, path), 600);
	unit_rmtree(dir);
	free(path);
	free(dir);
}

/* --- the limiter --- */

struct fixture {
	char *dir;
	struct config cfg;
};

static void fixture_open(struct fixture *f, long per_minute)
{
	f->dir = unit_tempdir();
	config_init_defaults(&f->cfg);
	free(f->cfg.cache_dir);
	f->cfg.cache_dir = xstrdup(f->dir);
	f->cfg.content_root = xstrdup("/srv/site");
	f->cfg.rate_per_minute = per_minute;
}

static void fixture_close(struct fixture *f)
{
	config_free(&f->cfg);
	unit_rmtree(f->dir);
	free(f->dir);
}

static struct request client(const char *remote, const char *forwarded, const char *auth)
{
	struct request req;
	request_from_uri(&req, "GET", "/api/ping");
	free(req.remote_addr);
	req.remote_addr = xstrdup(remote);
	req.forwarded_for = forwarded ? xstrdup(forwarded) : NULL;
	req.authorization = auth ? xstrdup(auth) : NULL;
	return req;
}

static char *key_of(const struct rate_limiter *rl, const char *remote, const char *forwarded,
                    const char *auth, const struct token_grant *verified)
{
	struct request req = client(remote, forwarded, auth);
	struct strbuf key = STRBUF_INIT;
	rate_limiter_client_key(rl, &req, verified, &key);
	request_free(&req);
	return strbuf_detach(&key, NULL);
}

#define EXPECT_KEY(rl, remote, forwarded, auth, verified, want)                         \
	do {                                                                            \
		char *got_ = key_of((rl), (remote), (forwarded), (auth), (verified));   \
		CU_ASSERT_STRING_EQUAL(got_, (want));                                   \
		free(got_);                                                             \
	} while (0)

static void test_client_keys(void)
{
	struct fixture f;
	fixture_open(&f, 60);
	strlist_split(&f.cfg.rate_trusted_proxies, "10.0.0.0/8, ::1");
	struct rate_limiter rl;
	rate_limiter_init(&rl, &f.cfg, true);
	struct token_grant user7, shared;
	token_grant_init(&user7);
	token_grant_init(&shared);
	user7.id = 7;
	shared.shared = true;
	EXPECT_KEY(&rl, "192.0.2.1", NULL, NULL, NULL, "ip:192.0.2.1");
	EXPECT_KEY(&rl, "192.0.2.1", "203.0.113.5", NULL, NULL, "ip:192.0.2.1");
	EXPECT_KEY(&rl, "10.1.1.1", "203.0.113.5", NULL, NULL, "ip:203.0.113.5");
	EXPECT_KEY(&rl, "::1", "198.51.100.1, 203.0.113.5", NULL, NULL, "ip:203.0.113.5");
	/* by = ip: a token does not matter, verified or not. */
	EXPECT_KEY(&rl, "192.0.2.1", NULL, "Bearer abc", NULL, "ip:192.0.2.1");
	EXPECT_KEY(&rl, "192.0.2.1", NULL, "Bearer 7|s3cret", &user7, "ip:192.0.2.1");
	rate_limiter_free(&rl);
	f.cfg.rate_by = RATE_BY_TOKEN;
	rate_limiter_init(&rl, &f.cfg, true);
	/* The token the guard verified, wherever it comes from ... */
	EXPECT_KEY(&rl, "192.0.2.1", NULL, "Bearer 7|s3cret", &user7, "token:7");
	EXPECT_KEY(&rl, "192.0.2.2", NULL, "Bearer 07|s3cret", &user7, "token:7");
	EXPECT_KEY(&rl, "192.0.2.1", NULL, "Bearer the-shared-one", &shared, "token:shared");
	EXPECT_KEY(&rl, "192.0.2.9", NULL, "bearer   the-shared-one", &shared, "token:shared");
	/* ... never the header as sent: a token not verified (made up, or no
	 * token needed) is its address. */
	EXPECT_KEY(&rl, "192.0.2.1", NULL, "Bearer abc", NULL, "ip:192.0.2.1");
	EXPECT_KEY(&rl, "192.0.2.1", NULL, "Bearer 7|s3cret", NULL, "ip:192.0.2.1");
	struct token_grant none;
	token_grant_init(&none);
	EXPECT_KEY(&rl, "192.0.2.1", NULL, "Bearer abc", &none, "ip:192.0.2.1");
	/* No token: the address. */
	EXPECT_KEY(&rl, "192.0.2.1", NULL, NULL, NULL, "ip:192.0.2.1");
	EXPECT_KEY(&rl, "10.1.1.1", "203.0.113.5", "Basic Zm9v", NULL, "ip:203.0.113.5");
	rate_limiter_free(&rl);
	fixture_close(&f);
}

/* by = token: 20,000 made-up tokens from one address are one budget, the
 * address's (the guard verified none of them). */
static void test_made_up_tokens_share_the_address(void)
{
	struct fixture f;
	fixture_open(&f, 5);
	f.cfg.rate_by = RATE_BY_TOKEN;
	struct rate_limiter rl;
	rate_limiter_init(&rl, &f.cfg, true);
	long passed = 0;
	for (int i = 0; i < 20000; i++) {
		char auth[64];
		snprintf(auth, sizeof auth, "Bearer %d|made-up-%d", i + 1, i);
		struct request req = client("192.0.2.1", NULL, auth);
		struct rate_verdict v;
		rate_limiter_hit(&rl, &req, NULL, T0, &v);
		passed += v.allowed;
		request_free(&req);
	}
	CU_ASSERT_EQUAL(passed, 5);
	rate_limiter_free(&rl);
	fixture_close(&f);
}

static struct rate_verdict hit(struct rate_limiter *rl, const char *remote, long long now)
{
	struct request req = client(remote, NULL, NULL);
	struct rate_verdict v;
	rate_limiter_hit(rl, &req, NULL, now, &v);
	request_free(&req);
	return v;
}

static struct rate_verdict look(struct rate_limiter *rl, const char *remote, long long now)
{
	struct request req = client(remote, NULL, "Bearer 1|anything");
	struct rate_verdict v;
	rate_limiter_look(rl, &req, now, &v);
	request_free(&req);
	return v;
}

/* A look counts nothing, says nothing while there is budget, and is the
 * 429 once the address spent it, whatever token the request carries. */
static void test_limiter_look(void)
{
	struct fixture f;
	fixture_open(&f, 2);
	f.cfg.rate_by = RATE_BY_TOKEN;
	struct rate_limiter rl;
	rate_limiter_init(&rl, &f.cfg, true);
	struct rate_verdict v = look(&rl, "192.0.2.1", T0);
	CU_ASSERT_FALSE(v.applies);
	CU_ASSERT_EQUAL(hit(&rl, "192.0.2.1", T0).remaining, 1);
	v = look(&rl, "192.0.2.1", T0 + 1);
	CU_ASSERT_FALSE(v.applies);
	CU_ASSERT_EQUAL(hit(&rl, "192.0.2.1", T0 + 1).remaining, 0);
	v = look(&rl, "192.0.2.1", T0 + 15);
	CU_ASSERT_TRUE(v.applies);
	CU_ASSERT_FALSE(v.allowed);
	CU_ASSERT_EQUAL(v.limit, 2);
	CU_ASSERT_EQUAL(v.remaining, 0);
	CU_ASSERT_EQUAL(v.retry_after, 45);
	CU_ASSERT_EQUAL(v.reset, T0 + 60);
	struct http_error e = HTTP_ERROR_INIT;
	CU_ASSERT_EQUAL(rate_verdict_refusal(&v, &e), 429);
	http_error_free(&e);
	/* Another address is untouched; the limit off says nothing. */
	CU_ASSERT_FALSE(look(&rl, "192.0.2.2", T0 + 15).applies);
	rate_limiter_free(&rl);
	f.cfg.rate_per_minute = 0;
	rate_limiter_init(&rl, &f.cfg, true);
	CU_ASSERT_FALSE(look(&rl, "192.0.2.1", T0 + 15).applies);
	rate_limiter_free(&rl);
	fixture_close(&f);
}

static void test_verdicts(void)
{
	struct fixture f;
	fixture_open(&f, 2);
	struct rate_limiter rl;
	rate_limiter_init(&rl, &f.cfg, true);
	struct rate_verdict v = hit(&rl, "192.0.2.1", T0);
	CU_ASSERT_TRUE(v.applies && v.allowed);
	CU_ASSERT_EQUAL(v.limit, 2);
	CU_ASSERT_EQUAL(v.remaining, 1);
	v = hit(&rl, "192.0.2.1", T0 + 20);
	CU_ASSERT_TRUE(v.applies && v.allowed);
	CU_ASSERT_EQUAL(v.remaining, 0);
	v = hit(&rl, "192.0.2.1", T0 + 45);
	CU_ASSERT_TRUE(v.applies);
	CU_ASSERT_FALSE(v.allowed);
	CU_ASSERT_EQUAL(v.remaining, 0);
	CU_ASSERT_EQUAL(v.retry_after, 15);
	CU_ASSERT_EQUAL(v.reset, T0 + 60);
	/* The 429 and its headers, in Laravel's order. */
	struct response res;
	response_init(&res);
	struct http_error refusal = HTTP_ERROR_INIT;
	CU_ASSERT_EQUAL(rate_verdict_refusal(&v, &refusal), 429);
	app_answer_error(&res, &refusal);
	rate_verdict_headers(&v, &res);
	http_error_free(&refusal);
	struct strbuf out = STRBUF_INIT;
	response_render(&res, true, "\n", &out);
	char want[512];
	snprintf(want, sizeof want,
	         "Status: 429 Too Many Requests\nContent-Type: application/json\n"
	         "X-RateLimit-Limit: 2\nX-RateLimit-Remaining: 0\nRetry-After: 15\n"
	         "X-RateLimit-Reset: %lld\nContent-Length: 32\n\n"
	         "{\"message\":\"Too Many Attempts.\"}",
	         T0 + 60);
	CU_ASSERT_STRING_EQUAL(out.ptr, want);
	/* Another client has its own budget. */
	v = hit(&rl, "192.0.2.2", T0 + 45);
	CU_ASSERT_TRUE(v.allowed);
	response_reset(&res);
	response_begin(&res, 200, "application/json");
	rate_verdict_headers(&v, &res);
	CU_ASSERT_STRING_EQUAL(response_header(&res, "X-RateLimit-Limit"), "2");
	CU_ASSERT_STRING_EQUAL(response_header(&res, "X-RateLimit-Remaining"), "1");
	CU_ASSERT_PTR_NULL(response_header(&res, "Retry-After"));
	/* The table lives in the cache directory, readable by its owner only. */
	char *path = shared_ratelimit_path(&f.cfg);
	struct stat st;
	CU_ASSERT_EQUAL(stat(path, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0600);
	free(path);
	strbuf_release(&out);
	response_free(&res);
	rate_limiter_free(&rl);
	fixture_close(&f);
}

static void test_off(void)
{
	struct fixture f;
	fixture_open(&f, 0);
	struct rate_limiter rl;
	rate_limiter_init(&rl, &f.cfg, true);
	struct rate_verdict v = hit(&rl, "192.0.2.1", T0);
	CU_ASSERT_FALSE(v.applies);
	struct response res;
	response_init(&res);
	response_begin(&res, 200, NULL);
	rate_verdict_headers(&v, &res);
	CU_ASSERT_EQUAL(res.nheaders, 0);
	rate_limiter_free(&rl);
	/* `cms-api get`: not a web server's client. */
	f.cfg.rate_per_minute = 5;
	rate_limiter_init(&rl, &f.cfg, false);
	v = hit(&rl, "192.0.2.1", T0);
	CU_ASSERT_FALSE(v.applies);
	rate_limiter_free(&rl);
	response_free(&res);
	/* Nothing was made in the cache directory. */
	char *path = shared_ratelimit_path(&f.cfg);
	CU_ASSERT_NOT_EQUAL(access(path, F_OK), 0);
	free(path);
	fixture_close(&f);
}

/* Two workers share one budget; the file removed (the cache directory
 * cleared), each maps the new one within a second and counts start over. */
static void test_workers_share_and_follow_the_file(void)
{
	struct fixture f;
	fixture_open(&f, 3);
	struct rate_limiter w1, w2;
	rate_limiter_init(&w1, &f.cfg, true);
	rate_limiter_init(&w2, &f.cfg, true);
	CU_ASSERT_EQUAL(hit(&w1, "192.0.2.1", T0).remaining, 2);
	CU_ASSERT_EQUAL(hit(&w2, "192.0.2.1", T0).remaining, 1);
	char *path = shared_ratelimit_path(&f.cfg);
	unlink(path);
	/* The same second: the mapping in hand. */
	CU_ASSERT_EQUAL(hit(&w1, "192.0.2.1", T0).remaining, 0);
	CU_ASSERT_FALSE(hit(&w2, "192.0.2.1", T0).allowed);
	/* The next: a new file, shared again. */
	CU_ASSERT_EQUAL(hit(&w2, "192.0.2.1", T0 + 1).remaining, 2);
	CU_ASSERT_EQUAL(hit(&w1, "192.0.2.1", T0 + 1).remaining, 1);
	CU_ASSERT_EQUAL(access(path, F_OK), 0);
	free(path);
	rate_limiter_free(&w1);
	rate_limiter_free(&w2);
	fixture_close(&f);
}

/* A cache directory that cannot be used: each worker counts alone, and
 * shares again once the directory is there. */
static void test_unusable_directory(void)
{
	struct fixture f;
	fixture_open(&f, 2);
	char *cache = temp_path(f.dir, "later");
	free(f.cfg.cache_dir);
	f.cfg.cache_dir = xstrdup(cache);
	char *log_path = temp_path(f.dir, "log");
	log_open(log_path, LOG_LEVEL_WARNING);
	struct rate_limiter w1, w2;
	rate_limiter_init(&w1, &f.cfg, true);
	rate_limiter_init(&w2, &f.cfg, true);
	CU_ASSERT_EQUAL(hit(&w1, "192.0.2.1", T0).remaining, 1);
	CU_ASSERT_EQUAL(hit(&w1, "192.0.2.1", T0).remaining, 0);
	CU_ASSERT_FALSE(hit(&w1, "192.0.2.1", T0).allowed);
	CU_ASSERT_EQUAL(hit(&w2, "192.0.2.1", T0).remaining, 1);
	CU_ASSERT_EQUAL(mkdir(cache, 0700), 0);
	CU_ASSERT_EQUAL(hit(&w1, "192.0.2.1", T0 + 1).remaining, 1);
	CU_ASSERT_EQUAL(hit(&w2, "192.0.2.1", T0 + 1).remaining, 0);
	rate_limiter_free(&w1);
	rate_limiter_free(&w2);
	log_open("stderr", LOG_LEVEL_WARNING);
	free(log_path);
	free(cache);
	fixture_close(&f);
}

/* Lines of the file at path holding needle. */
static int lines_with(const char *path, const char *needle)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return -1;
	char line[1024];
	int n = 0;
	while (fgets(line, sizeof line, f))
		n += strstr(line, needle) != NULL;
	fclose(f);
	return n;
}

/* Redis that does not answer (nothing listens on its port): every hit is
 * counted in the machine's table, and the outage is logged once for all
 * its workers. */
static void test_redis_not_answering(void)
{
	struct fixture f;
	fixture_open(&f, 3);
	f.cfg.rate_driver = RATE_DRIVER_REDIS;
	f.cfg.rate_redis_port = 1; /* tcpmux: nobody serves it here */
	char *log_path = temp_path(f.dir, "log");
	log_open(log_path, LOG_LEVEL_WARNING);
	struct rate_limiter w1, w2;
	rate_limiter_init(&w1, &f.cfg, true);
	rate_limiter_init(&w2, &f.cfg, true);
	CU_ASSERT_EQUAL(hit(&w1, "192.0.2.1", T0).remaining, 2);
	CU_ASSERT_EQUAL(hit(&w2, "192.0.2.1", T0).remaining, 1);
	CU_ASSERT_EQUAL(hit(&w1, "192.0.2.1", T0 + 1).remaining, 0);
	CU_ASSERT_FALSE(hit(&w2, "192.0.2.1", T0 + 2).allowed);
	CU_ASSERT_FALSE(hit(&w1, "192.0.2.1", T0 + 3).allowed);
	log_open("stderr", LOG_LEVEL_WARNING);
	CU_ASSERT_EQUAL(lines_with(log_path, "rate limit: Redis at 127.0.0.1:1 cannot be asked"), 1);
	CU_ASSERT_EQUAL(lines_with(log_path, "Redis"), 1);
	rate_limiter_free(&w1);
	rate_limiter_free(&w2);
	free(log_path);
	fixture_close(&f);
}

/* Redis answering: a look neither counts nor makes a counter, and sees
 * the hits of every machine. */
static void test_redis_look(void)
{
	if (!test_redis_available()) {
		fprintf(stderr, "\nnote: redis-server is not installed: the Redis look is not tested ");
		return;
	}
	struct fixture f;
	fixture_open(&f, 2);
	struct test_redis redis;
	CU_ASSERT_EQUAL_FATAL(test_redis_start(&redis, f.dir), 0);
	f.cfg.rate_driver = RATE_DRIVER_REDIS;
	f.cfg.rate_redis_port = redis.port;
	struct rate_limiter w1, w2;
	rate_limiter_init(&w1, &f.cfg, true);
	rate_limiter_init(&w2, &f.cfg, true);
	long long now = (long long)time(NULL); /* Redis keeps its own clock */
	CU_ASSERT_FALSE(look(&w1, "192.0.2.1", now).applies);
	CU_ASSERT_FALSE(look(&w1, "192.0.2.1", now).applies);
	/* Nothing made by looking: Redis holds no key at all (else an error). */
	CU_ASSERT_EQUAL(test_redis_command(&redis, "EVAL %s 0",
	                                   "if #redis.call('KEYS', '*') > 0 then "
	                                   "return redis.error_reply('a key') end return 0"),
	                0);
	CU_ASSERT_EQUAL(hit(&w1, "192.0.2.1", now).remaining, 1);
	CU_ASSERT_EQUAL(hit(&w2, "192.0.2.1", now).remaining, 0);
	struct rate_verdict v = look(&w1, "192.0.2.1", now);
	CU_ASSERT_TRUE(v.applies);
	CU_ASSERT_FALSE(v.allowed);
	CU_ASSERT_TRUE(v.retry_after >= 1 && v.retry_after <= 60);
	CU_ASSERT_FALSE(look(&w2, "192.0.2.2", now).applies);
	rate_limiter_free(&w1);
	rate_limiter_free(&w2);
	test_redis_stop(&redis);
	fixture_close(&f);
}

/* The cache never stores the rate limit's headers: they belong to one
 * client's request. */
static void test_cache_leaves_the_headers_out(void)
{
	struct response res, back;
	response_init(&res);
	response_init(&back);
	strbuf_addstr(response_begin(&res, 200, "application/json"), "{}");
	response_set_header(&res, "X-RateLimit-Limit", "60");
	response_set_header(&res, "X-RateLimit-Remaining", "59");
	response_set_header(&res, "Retry-After", "5");
	struct strbuf entry = STRBUF_INIT;
	cache_entry_encode("k", T0 + 60, &res, &entry);
	CU_ASSERT_PTR_NULL(strstr(entry.ptr, "RateLimit"));
	CU_ASSERT_PTR_NULL(strstr(entry.ptr, "Retry-After"));
	CU_ASSERT_EQUAL(cache_entry_decode(entry.ptr, entry.len, "k", T0, &back), 0);
	CU_ASSERT_EQUAL(back.nheaders, 1);
	CU_ASSERT_STRING_EQUAL(response_header(&back, "Content-Type"), "application/json");
	strbuf_release(&entry);
	response_free(&res);
	response_free(&back);
}

/* Loads an INI of [content] root plus text; 0 or -1 with err set. */
static int load_ini(const char *text, struct config *cfg, char err[CONFIG_ERR_LEN], char **path)
{
	char *dir = unit_tempdir();
	struct strbuf ini = STRBUF_INIT;
	strbuf_addf(&ini, "[content]\nroot = %s\n%s", FIXTURES_DIR "/site", text);
	CU_ASSERT_EQUAL_FATAL(unit_write_file(dir, "cms-api.ini", ini.ptr), 0);
	*path = temp_path(dir, "cms-api.ini");
	int rc = config_load(cfg, *path, err);
	unlink(*path);
	rmdir(dir);
	strbuf_release(&ini);
	free(dir);
	return rc;
}

static void test_config_keys(void)
{
	struct config cfg;
	char err[CONFIG_ERR_LEN], *path;
	CU_ASSERT_EQUAL_FATAL(load_ini("", &cfg, err, &path), 0);
	CU_ASSERT_EQUAL(cfg.rate_per_minute, 60);
	CU_ASSERT_EQUAL(cfg.rate_driver, RATE_DRIVER_FILE);
	CU_ASSERT_EQUAL(cfg.rate_trusted_proxies.len, 0);
	CU_ASSERT_STRING_EQUAL(cfg.rate_redis_host, "127.0.0.1");
	CU_ASSERT_EQUAL(cfg.rate_redis_port, 6379);
	CU_ASSERT_STRING_EQUAL(cfg.rate_redis_socket, "");
	CU_ASSERT_EQUAL(cfg.rate_redis_database, 0);
	CU_ASSERT_STRING_EQUAL(cfg.rate_redis_password, "");
	CU_ASSERT_STRING_EQUAL(cfg.rate_redis_prefix, "cms-api:");
	CU_ASSERT_EQUAL(cfg.rate_redis_timeout_ms, 50);
	config_free(&cfg);
	free(path);
	CU_ASSERT_EQUAL_FATAL(load_ini("[rate_limit]\nper_minute = 100\nby = token\n"
	                               "driver = redis\ntrusted_proxies = 10.0.0.0/8, ::1 ,192.0.2.7\n"
	                               "redis_host = redis.internal\nredis_port = 6380\n"
	                               "redis_socket = run/redis.sock\nredis_database = 2\n"
	                               "redis_password = pw\nredis_prefix = site1:\n"
	                               "redis_timeout_ms = 20\n",
	                               &cfg, err, &path),
	                      0);
	CU_ASSERT_EQUAL(cfg.rate_per_minute, 100);
	CU_ASSERT_EQUAL(cfg.rate_by, RATE_BY_TOKEN);
	CU_ASSERT_EQUAL(cfg.rate_driver, RATE_DRIVER_REDIS);
	CU_ASSERT_EQUAL_FATAL(cfg.rate_trusted_proxies.len, 3);
	CU_ASSERT_STRING_EQUAL(cfg.rate_trusted_proxies.items[1], "::1");
	CU_ASSERT_STRING_EQUAL(cfg.rate_redis_host, "redis.internal");
	CU_ASSERT_EQUAL(cfg.rate_redis_port, 6380);
	/* Relative to the INI file's directory, like every path. */
	CU_ASSERT_PTR_NOT_NULL(strstr(cfg.rate_redis_socket, "/run/redis.sock"));
	CU_ASSERT_EQUAL(cfg.rate_redis_socket[0], '/');
	CU_ASSERT_EQUAL(cfg.rate_redis_database, 2);
	CU_ASSERT_STRING_EQUAL(cfg.rate_redis_password, "pw");
	CU_ASSERT_STRING_EQUAL(cfg.rate_redis_prefix, "site1:");
	CU_ASSERT_EQUAL(cfg.rate_redis_timeout_ms, 20);
	config_free(&cfg);
	free(path);
	/* Mistakes are errors with their line. */
	static const struct {
		const char *text, *message;
	} bad[] = {
		{"[rate_limit]\ntrusted_proxies = 10.0.0.0/8, proxy.example\n",
		 ":4: [rate_limit] trusted_proxies: not an IP address or CIDR range: proxy.example"},
		{"[rate_limit]\ntrusted_proxies = 10.0.0.0/33\n",
		 ":4: [rate_limit] trusted_proxies: not an IP address or CIDR range: 10.0.0.0/33"},
		{"[rate_limit]\ndriver = memcached\n",
		 ":4: [rate_limit] driver: unknown value: memcached"},
		{"[rate_limit]\nredis_port = 0\n",
		 ":4: [rate_limit] redis_port: 0 is out of range (1 to 65535)"},
		{"[rate_limit]\nredis_timeout_ms = 0\n",
		 ":4: [rate_limit] redis_timeout_ms: 0 is out of range (1 to 60000)"},
		{"[rate_limit]\nhost = x\n", ":4: unknown key 'host' in [rate_limit]"},
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CU_ASSERT_EQUAL(load_ini(bad[i].text, &cfg, err, &path), -1);
		char want[CONFIG_ERR_LEN + 600];
		snprintf(want, sizeof want, "%s%s", path, bad[i].message);
		CU_ASSERT_STRING_EQUAL(err, want);
		if (strcmp(err, want) != 0)
			fprintf(stderr, "\n got: %s\nwant: %s\n", err, want);
		free(path);
	}
}

void suite_ratelimit(void)
{
	CU_pSuite s = unit_add_suite("ratelimit");
	unit_add_test(s, "the [rate_limit] keys", test_config_keys);
	unit_add_test(s, "SipHash-2-4 gives the reference values", test_siphash);
	unit_add_test(s, "a window of 60 s from the first hit, refusals not counted", test_window);
	unit_add_test(s, "each key has its own count", test_keys_are_separate);
	unit_add_test(s, "a limit past what a count holds", test_huge_limit);
	unit_add_test(s, "a full table: no room, then the oldest ended window", test_full_table);
	unit_add_test(s, "a table file is shared by its mappings", test_file_is_shared);
	unit_add_test(s, "a foreign file is replaced, a missing folder refused",
	              test_foreign_and_missing);
	unit_add_test(s, "a bucket left locked is taken", test_abandoned_bucket);
	unit_add_test(s, "processes at once count exactly", test_processes_count_exactly);
	unit_add_test(s, "a look counts nothing and takes no bucket", test_look);
	unit_add_test(s, "client keys: address, proxies, the verified token", test_client_keys);
	unit_add_test(s, "by token: made-up tokens are their address's budget",
	              test_made_up_tokens_share_the_address);
	unit_add_test(s, "a look before the token check: the 429 once spent", test_limiter_look);
	unit_add_test(s, "verdicts, the 429 and the headers", test_verdicts);
	unit_add_test(s, "per_minute = 0, and cms-api get, are not limited", test_off);
	unit_add_test(s, "workers share the file and follow it when removed",
	              test_workers_share_and_follow_the_file);
	unit_add_test(s, "an unusable cache directory: a table per worker", test_unusable_directory);
	unit_add_test(s, "Redis not answering: the machine's table, one log line",
	              test_redis_not_answering);
	unit_add_test(s, "Redis: a look counts nothing and sees every hit", test_redis_look);
	unit_add_test(s, "the cache leaves the rate limit's headers out",
	              test_cache_leaves_the_headers_out);
}
