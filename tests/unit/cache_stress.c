/*
 * cache-stress: 8 processes writing and reading the same keys through one
 * cache driver for a while (10 s, or the seconds given), every hit checked
 * byte for byte: it must be exactly one of the answers put for its key,
 * never a torn, mixed or empty one. The file driver (with a [cache]
 * max_size small enough that writers keep making room) and the Redis
 * driver (a redis-server of its own on a free port) run side by side.
 * Once the writers are done, the file driver's shared counter says
 * exactly what its answers take, within max_size: a byte counted off
 * twice (a replaced answer pruned meanwhile) or a reservation lost (a
 * count set right while a write was in flight) shows there. (Measured
 * while they write, a directory is no snapshot: a file removed and
 * another written after readdir passed both add up, so the test waits.)
 *
 * Usage: cache-stress [SECONDS]. Exits 0 when every hit was right and
 * each driver served some; 1 otherwise, saying what went wrong.
 */
#include "autoconfig.h"

#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cache/cache.h"
#include "cache/cache_file.h"
#include "change/shared.h"
#include "core/config.h"
#include "lib/strbuf.h"
#include "redis_server.h"

#define WRITERS 8
#define KEYS 16
#define VARIANTS 4

/* What one process saw, sent to the parent through a pipe. */
struct tally {
	long long gets, hits, puts, wrong;
};

/* The answer body of variant v of key k: its own length (from about 1 KB
 * to about 120 KB, so that a torn read shows) and bytes, all derived from
 * k and v. */
static void body_of(int k, int v, struct strbuf *out)
{
	strbuf_reset(out);
	size_t len = 1000 + (size_t)((k * 7919 + v * 104729) % 120000);
	strbuf_addf(out, "{\"k\":%d,\"v\":%d,\"data\":\"", k, v);
	uint64_t x = (uint64_t)(k * VARIANTS + v + 1) * 0x9e3779b97f4a7c15ULL;
	while (out->len < len) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		strbuf_addch(out, (char)('a' + (int)(x % 26)));
	}
	strbuf_addstr(out, "\"}");
}

/* Whether a hit for key k is one of k's bodies, whole. */
static bool one_of_the_bodies(int k, const struct response *res, struct strbuf *scratch)
{
	int got_k, got_v;
	if (res->status != 200 || !response_header(res, "Content-Type") ||
	    strcmp(response_header(res, "Content-Type"), "application/json") != 0 ||
	    sscanf(strbuf_str(&res->body), "{\"k\":%d,\"v\":%d,", &got_k, &got_v) != 2 ||
	    got_k != k || got_v < 0 || got_v >= VARIANTS)
		return false;
	body_of(k, got_v, scratch);
	return scratch->len == res->body.len && memcmp(scratch->ptr, res->body.ptr, res->body.len) == 0;
}

static void ask_for(int k, struct cache_ask *ask)
{
	strbuf_reset(&ask->key);
	strbuf_reset(&ask->path);
	strbuf_addf(&ask->key, "c0 p13:/api/stress/%02d q", k);
	strbuf_addf(&ask->path, "/api/stress/%02d", k);
	strbuf_reset(&ask->method);
	strbuf_addstr(&ask->method, "GET");
}

/* One writer and reader until deadline (seconds since the epoch). */
static struct tally run_child(const struct config *cfg, unsigned seed, long long deadline)
{
	struct shared_paths paths;
	struct tally t = {0, 0, 0, 0};
	if (shared_paths_init(&paths, cfg) != 0) {
		t.wrong = 1;
		return t;
	}
	struct cache c;
	cache_init(&c, cfg, &paths);
	struct cache_ask ask = {STRBUF_INIT, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT};
	struct strbuf scratch = STRBUF_INIT;
	struct response res;
	response_init(&res);
	srand(seed);
	while ((long long)time(NULL) < deadline) {
		int k = rand() % KEYS;
		ask_for(k, &ask);
		if (rand() % 2) {
			response_reset(&res);
			struct strbuf *out = response_begin(&res, 200, "application/json");
			body_of(k, rand() % VARIANTS, out);
			cache_put(&c, 1, &ask, &res);
			t.puts++;
			continue;
		}
		t.gets++;
		if (!cache_get(&c, 1, &ask, &res))
			continue;
		t.hits++;
		if (!one_of_the_bodies(k, &res, &scratch)) {
			t.wrong++;
			fprintf(stderr, "cache-stress: a wrong hit for key %d: status %d, %zu bytes: %.60s\n",
			        k, res.status, res.body.len, strbuf_str(&res.body));
		}
	}
	response_free(&res);
	strbuf_release(&scratch);
	cache_ask_release(&ask);
	cache_free(&c);
	shared_paths_free(&paths);
	return t;
}

/* Runs WRITERS children on cfg; their tallies come back through fd. */
static int start_children(const struct config *cfg, long long deadline, int fd, pid_t *pids)
{
	for (int i = 0; i < WRITERS; i++) {
		pids[i] = fork();
		if (pids[i] < 0)
			return -1;
		if (pids[i] == 0) {
			struct tally t = run_child(cfg, (unsigned)(getpid() * 31 + i), deadline);
			_exit(write(fd, &t, sizeof t) == (ssize_t)sizeof t ? 0 : 1);
		}
	}
	return 0;
}

/* Waits for the children and adds up their tallies; false when one
 * failed or did not report. */
static bool gather(const pid_t *pids, int fd, struct tally *sum)
{
	bool ok = true;
	memset(sum, 0, sizeof *sum);
	for (int i = 0; i < WRITERS; i++) {
		int status;
		if (waitpid(pids[i], &status, 0) != pids[i] || !WIFEXITED(status) ||
		    WEXITSTATUS(status) != 0)
			ok = false;
	}
	struct tally t;
	int reports = 0;
	while (reports < WRITERS && read(fd, &t, sizeof t) == (ssize_t)sizeof t) {
		sum->gets += t.gets;
		sum->hits += t.hits;
		sum->puts += t.puts;
		sum->wrong += t.wrong;
		reports++;
	}
	return ok && reports == WRITERS;
}

/* The bytes the answers of the file driver's directory take, temporary
 * files included. */
static long long bytes_taken(const char *dir)
{
	DIR *d = opendir(dir);
	long long bytes = 0;
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		struct stat st;
		char path[4096];
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (e->d_name[0] != '.' && lstat(path, &st) == 0 && S_ISREG(st.st_mode))
			bytes += (long long)st.st_size;
	}
	if (d)
		closedir(d);
	return bytes;
}

/* After the writers: the counter is what the files take, within
 * max_size. */
static bool budget_held(const struct config *cfg)
{
	struct shared_paths paths;
	if (shared_paths_init(&paths, cfg) != 0)
		return false;
	char *dir = shared_responses_dir(&paths, 1);
	long long max = cfg->cache_max_size * 1024LL * 1024LL;
	struct cache_budget budget = {0, NULL};
	struct strbuf probe = {"x", 1, 0};
	/* A write of a key of its own maps the counter (and adds one byte). */
	cache_file_write(&paths, 1, 0xffffffffffffULL, &probe, max, &budget);
	long long counted = budget.bytes ? (long long)*budget.bytes : -1;
	long long taken = bytes_taken(dir);
	cache_budget_release(&budget);
	free(dir);
	shared_paths_free(&paths);
	printf("cache-stress: file: the counter says %lld bytes, the answers take %lld of %lld\n",
	       counted, taken, max);
	if (counted != taken || taken > max)
		fprintf(stderr, "cache-stress: file: the counter is not what the answers take, or they "
		        "take more than max_size\n");
	return counted == taken && taken <= max;
}

struct run {
	const char *name;
	struct config cfg;
	int pipe[2];
	pid_t pids[WRITERS];
	bool started;
};

static void config_for(struct run *r, const char *name, const char *dir, enum cache_driver driver)
{
	memset(&r->cfg, 0, sizeof r->cfg);
	r->name = name;
	r->cfg.cache_enabled = true;
	r->cfg.cache_driver = driver;
	r->cfg.cache_expiry = 60;
	/* 1 MiB against up to 16 x 120 KB: the file driver's writers keep
	 * making room while others read. */
	r->cfg.cache_max_size = 1;
	struct strbuf b = STRBUF_INIT;
	strbuf_addf(&b, "%s/%s-cache", dir, name);
	r->cfg.cache_dir = strbuf_detach(&b, NULL);
	r->cfg.content_root = xstrdup(dir);
}

/* Reports one driver's run; false when it failed. */
static bool report(struct run *r)
{
	struct tally sum;
	bool ok = gather(r->pids, r->pipe[0], &sum);
	printf("cache-stress: %s: %d processes, %lld puts, %lld gets, %lld hits, %lld wrong\n",
	       r->name, WRITERS, sum.puts, sum.gets, sum.hits, sum.wrong);
	if (!ok)
		fprintf(stderr, "cache-stress: %s: a process failed\n", r->name);
	if (sum.hits == 0)
		fprintf(stderr, "cache-stress: %s: no hit at all: nothing was tested\n", r->name);
	return ok && sum.wrong == 0 && sum.hits > 0;
}

int main(int argc, char **argv)
{
	long seconds = argc > 1 ? atol(argv[1]) : 10;
	char dir[] = "/tmp/cms-api-stress-XXXXXX";
	if (seconds < 1 || !mkdtemp(dir)) {
		fprintf(stderr, "usage: cache-stress [SECONDS]\n");
		return 1;
	}
	struct run runs[2];
	size_t nruns = 0;
	config_for(&runs[nruns++], "file", dir, CACHE_FILE);
	struct test_redis redis = {0, 0};
	char port[16];
	if (!test_redis_available()) {
		printf("cache-stress: redis-server is not installed: the Redis driver is not tested "
		       "(scripts/install-deps installs it)\n");
	} else if (test_redis_start(&redis, dir) != 0) {
		fprintf(stderr, "cache-stress: redis-server did not start\n");
		return 1;
	} else {
		struct run *r = &runs[nruns++];
		config_for(r, "redis", dir, CACHE_REDIS);
		snprintf(port, sizeof port, "%d", redis.port);
		/* Generous: this is about right answers under load, not speed. */
		static struct kv options[3];
		options[0] = (struct kv){"port", port, 0};
		options[1] = (struct kv){"prefix", "stress:", 0};
		options[2] = (struct kv){"timeout", "2000", 0};
		r->cfg.cache_options = options;
		r->cfg.ncache_options = 3;
	}
	long long deadline = (long long)time(NULL) + seconds;
	bool ok = true;
	for (size_t i = 0; i < nruns; i++) {
		if (pipe(runs[i].pipe) != 0 ||
		    start_children(&runs[i].cfg, deadline, runs[i].pipe[1], runs[i].pids) != 0) {
			perror("cache-stress");
			return 1;
		}
		close(runs[i].pipe[1]);
	}
	for (size_t i = 0; i < nruns; i++) {
		ok = report(&runs[i]) && ok;
		if (i == 0)
			ok = budget_held(&runs[i].cfg) && ok;
		close(runs[i].pipe[0]);
		free(runs[i].cfg.cache_dir);
		free(runs[i].cfg.content_root);
	}
	test_redis_stop(&redis);
	char cmd[128];
	snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
	if (system(cmd) != 0)
		fprintf(stderr, "cache-stress: cannot remove %s\n", dir);
	return ok ? 0 : 1;
}
