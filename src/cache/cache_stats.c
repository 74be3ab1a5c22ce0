/* cache_stats: the response cache's shared counters; see cache_stats.h. */
#include "autoconfig.h"

#include "cache/cache_stats.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/mapfile.h"

#define CACHE_COUNTERS_VERSION 1

_Static_assert(sizeof(struct cache_counters) == 64, "the counters file is 64 bytes");

static uint64_t now_seconds(void)
{
	return (uint64_t)time(NULL);
}

/* A file just made is all zero: the first process to map it sets it up. */
static bool set_up(struct cache_counters *c)
{
	uint64_t version = 0;
	if (__atomic_compare_exchange_n(&c->version, &version, CACHE_COUNTERS_VERSION, false,
	                                __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		__atomic_store_n(&c->started, now_seconds(), __ATOMIC_RELEASE);
	else if (version != CACHE_COUNTERS_VERSION)
		return false; /* another layout: leave it alone */
	return true;
}

/* The counters mapped, the file made first when create is true; NULL
 * when it cannot be (a full file system: never a hole written through the
 * mapping, see mapfile.h). */
static struct cache_counters *map_counters(const struct shared_paths *paths, bool create)
{
	char *path = shared_cache_stats_path(paths);
	struct cache_counters *map = mapfile_open(path, sizeof(struct cache_counters), create);
	free(path);
	if (!map)
		return NULL;
	if (!set_up(map)) {
		munmap(map, sizeof(struct cache_counters));
		return NULL;
	}
	return map;
}

struct cache_counters *cache_stats_open(const struct shared_paths *paths)
{
	return map_counters(paths, true);
}

void cache_stats_close(struct cache_counters *counters)
{
	if (counters)
		munmap(counters, sizeof *counters);
}

int cache_stats_read(const struct shared_paths *paths, struct cache_counters *out)
{
	memset(out, 0, sizeof *out);
	char *path = shared_cache_stats_path(paths);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	free(path);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1;
	ssize_t n = pread(fd, out, sizeof *out, 0);
	close(fd);
	if (n != (ssize_t)sizeof *out || out->version != CACHE_COUNTERS_VERSION) {
		memset(out, 0, sizeof *out);
		return n == 0 ? 0 : -1;
	}
	return 0;
}

int cache_stats_reset(const struct shared_paths *paths)
{
	/* Not made when missing: nothing counted yet, and made by another
	 * user (root running cache clear) the workers could not map it. */
	struct cache_counters *c = map_counters(paths, false);
	if (!c)
		return errno == ENOENT ? 0 : -1;
	__atomic_store_n(&c->hits, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&c->misses, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&c->failures, 0, __ATOMIC_RELAXED);
	__atomic_store_n(&c->started, now_seconds(), __ATOMIC_RELAXED);
	cache_stats_close(c);
	return 0;
}

void cache_stats_count(struct cache_counters *c, bool hit, bool failed)
{
	__atomic_add_fetch(hit ? &c->hits : &c->misses, 1, __ATOMIC_RELAXED);
	if (failed)
		__atomic_add_fetch(&c->failures, 1, __ATOMIC_RELAXED);
}

bool cache_stats_outage_moves(struct cache_counters *c, enum cache_outage from,
                              enum cache_outage to)
{
	uint64_t expected = (uint64_t)from;
	return __atomic_compare_exchange_n(&c->outage, &expected, (uint64_t)to, false,
	                                   __ATOMIC_ACQ_REL, __ATOMIC_RELAXED);
}

enum cache_outage cache_stats_outage(const struct cache_counters *c)
{
	return (enum cache_outage)__atomic_load_n(&c->outage, __ATOMIC_RELAXED);
}
