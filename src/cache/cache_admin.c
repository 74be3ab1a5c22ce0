/* cache_admin: check, stats and clear of the response cache; see
 * cache_admin.h. */
#include "autoconfig.h"

#include "cache/cache_admin.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>

#include "cache/cache.h"
#include "cache/cache_file.h"
#include "cache/cache_options.h"
#include "cache/cache_plugin.h"
#include "cache/cache_redis.h"
#include "cache/cache_stats.h"
#include "change/generation.h"
#include "change/shared.h"
#include "lib/strbuf.h"

static const char *file_of(const struct config *cfg)
{
	return cfg->path ? cfg->path : "(defaults)";
}

static int check_redis(const struct config *cfg, char *error, size_t error_size, char *warning,
                       size_t warning_size)
{
	struct cms_api_cache_option *options = cache_options_of(cfg);
	char message[512];
	size_t bad;
	int rc = cache_redis_check_options(options, cfg->ncache_options, &bad, message,
	                                   sizeof message);
	free(options);
	if (rc != 0) {
		if (bad < cfg->ncache_options)
			snprintf(error, error_size, "%s:%d: %s", file_of(cfg),
			         cfg->cache_options[bad].line, message);
		else
			snprintf(error, error_size, "%s: %s", file_of(cfg), message);
		return -1;
	}
	void *state = cache_driver_init(&cache_redis_driver, cfg, message, sizeof message);
	if (state && cache_redis_ping(state) != 0)
		snprintf(warning, warning_size, "%s: warning: [cache] Redis at %s cannot be reached "
		         "now (%s): answers go out uncached until it can", file_of(cfg),
		         cache_redis_where(state), cache_redis_problem(state));
	cache_redis_driver.free(state);
	return 0;
}

int cache_admin_check(const struct config *cfg, char *error, size_t error_size, char *warning,
                      size_t warning_size)
{
	*error = *warning = '\0';
	if (!cfg->cache_enabled || cfg->cache_driver == CACHE_NONE)
		return 0;
	if (cfg->cache_driver == CACHE_REDIS)
		return check_redis(cfg, error, error_size, warning, warning_size);
	/* A plug-in is loaded by check itself (main.c), which names the line. */
	return 0;
}

/* --- stats --- */

static void print_since(FILE *out, uint64_t started)
{
	char when[32] = "-";
	time_t t = (time_t)started;
	struct tm tm;
	if (started && gmtime_r(&t, &tm))
		strftime(when, sizeof when, "%Y-%m-%dT%H:%M:%SZ", &tm);
	fprintf(out, "since: %s\n", when);
}

static void print_counters(FILE *out, const struct cache_counters *k)
{
	fprintf(out, "hits: %" PRIu64 "\nmisses: %" PRIu64 "\n", k->hits, k->misses);
	if (k->hits + k->misses)
		fprintf(out, "hit ratio: %.1f%%\n", 100.0 * (double)k->hits /
		                                     (double)(k->hits + k->misses));
	else
		fprintf(out, "hit ratio: -\n");
	fprintf(out, "failed lookups: %" PRIu64 "\n", k->failures);
	print_since(out, k->started);
}

/* What cfg's driver is and holds of one generation, for stats. */
struct holding {
	struct strbuf driver;      /* owned: "redis (127.0.0.1:6379)" */
	long long entries, bytes;  /* -1: not known */
};

/* Counts generation's entries where cfg's driver keeps them. 0, or -1
 * with the reason on err. */
static int count_entries(const struct config *cfg, const struct shared_paths *paths,
                         uint64_t generation, struct holding *h, FILE *err)
{
	h->entries = h->bytes = -1;
	if (cfg->cache_driver == CACHE_FILE) {
		strbuf_addf(&h->driver, "file (%s)", paths->dir);
		cache_file_count(paths, generation, &h->entries, &h->bytes);
		return 0;
	}
	if (cfg->cache_driver != CACHE_REDIS) {
		/* A plug-in keeps no count cms-api can read. */
		strbuf_addstr(&h->driver, cfg->cache_plugin_path ? cfg->cache_plugin_path : "plug-in");
		return 0;
	}
	char error[512];
	void *state = cache_driver_init(&cache_redis_driver, cfg, error, sizeof error);
	if (!state) {
		strbuf_addstr(&h->driver, "redis");
		fprintf(err, "cms-api: %s: %s\n", file_of(cfg), error);
		return -1;
	}
	strbuf_addf(&h->driver, "redis (%s)", cache_redis_where(state));
	int rc = cache_redis_count(state, generation, &h->entries, &h->bytes);
	if (rc != 0) {
		h->entries = h->bytes = -1;
		fprintf(err, "cms-api: Redis at %s: %s\n", cache_redis_where(state),
		        cache_redis_problem(state));
	}
	cache_redis_driver.free(state);
	return rc;
}

static void print_count(FILE *out, const char *name, long long n)
{
	if (n < 0)
		fprintf(out, "%s: -\n", name);
	else
		fprintf(out, "%s: %lld\n", name, n);
}

/* The cache directory's paths, or -1 with the reason on err. A directory
 * that is not there is not made: made by root, the workers could not use
 * it. */
static int open_paths(const struct config *cfg, struct shared_paths *paths, FILE *err)
{
	struct stat st;
	if (cfg->cache_dir && *cfg->cache_dir && stat(cfg->cache_dir, &st) == 0 &&
	    shared_paths_init(paths, cfg) == 0)
		return 0;
	fprintf(err, "cms-api: cache directory %s is not usable (%s)\n",
	        cfg->cache_dir && *cfg->cache_dir ? cfg->cache_dir : "(none set)", strerror(errno));
	return -1;
}

int cache_admin_stats(const struct config *cfg, FILE *out, FILE *err)
{
	if (!config_caches(cfg)) {
		fprintf(out, "driver: none (the cache is off: [cache] enabled, driver or expiry)\n");
		return 0;
	}
	struct shared_paths paths;
	if (open_paths(cfg, &paths, err) != 0)
		return -1;
	/* No generation yet (no worker ran): nothing is cached. */
	struct generation g;
	generation_read(paths.generation, &g);
	struct holding h = {STRBUF_INIT, -1, -1};
	int rc = count_entries(cfg, &paths, g.cache_signature, &h, err);
	fprintf(out, "driver: %s\ngeneration: %016" PRIx64 "\n", h.driver.ptr, g.cache_signature);
	print_count(out, "entries", h.entries);
	print_count(out, "bytes", h.bytes);
	strbuf_release(&h.driver);
	struct cache_counters k;
	if (cache_stats_read(&paths, &k) != 0) {
		fprintf(err, "cms-api: cannot read the counters in %s: %s\n", paths.dir,
		        strerror(errno));
		rc = -1;
	}
	print_counters(out, &k);
	shared_paths_free(&paths);
	return rc;
}

/* --- clear --- */

static int clear_redis(const struct config *cfg, FILE *out, FILE *err)
{
	char error[512];
	void *state = cache_driver_init(&cache_redis_driver, cfg, error, sizeof error);
	if (!state) {
		fprintf(err, "cms-api: %s: %s\n", file_of(cfg), error);
		return -1;
	}
	long long removed = cache_redis_clear(state);
	if (removed < 0)
		fprintf(err, "cms-api: Redis at %s: %s\n", cache_redis_where(state),
		        cache_redis_problem(state));
	else
		fprintf(out, "removed %lld cached answer%s from Redis at %s\n", removed,
		        removed == 1 ? "" : "s", cache_redis_where(state));
	cache_redis_driver.free(state);
	return removed < 0 ? -1 : 0;
}

int cache_admin_clear(const struct config *cfg, FILE *out, FILE *err)
{
	if (cfg->cache_driver == CACHE_PLUGIN) {
		fprintf(err, "cms-api: cache clear: the plug-in driver %s keeps its answers where "
		        "only it knows: clear them there\n", cfg->cache_plugin_path);
		return -1;
	}
	struct shared_paths paths;
	if (open_paths(cfg, &paths, err) != 0)
		return -1;
	int rc = 0;
	if (cfg->cache_driver == CACHE_REDIS) {
		rc = clear_redis(cfg, out, err);
	} else {
		/* Whatever the driver now: a file cache left by an earlier
		 * config goes too. */
		shared_remove_all_responses(&paths);
		fprintf(out, "removed the cached answers in %s\n", paths.dir);
	}
	if (rc == 0 && cache_stats_reset(&paths) != 0) {
		fprintf(err, "cms-api: cannot start the counters again in %s: %s\n", paths.dir,
		        strerror(errno));
		rc = -1;
	}
	shared_paths_free(&paths);
	return rc;
}
