/*
 * cache_stats: the response cache's counters, shared by every worker of a
 * site and cache directory through one small file (cachestats-<site>,
 * shared.h) that each maps: hits, misses and failed lookups since the
 * counters started (the file was made, or `cms-api cache clear`), for
 * `cms-api cache stats`, and the state of an outage of the cache driver,
 * so that the workers together log it once when it starts and once when
 * it ends, not once per worker. Every update is one atomic operation on
 * the mapping: no system call, no lock.
 */
#ifndef CMS_API_CACHE_STATS_H
#define CMS_API_CACHE_STATS_H

#include <stdbool.h>
#include <stdint.h>

#include "change/shared.h"

/* What the driver is going through, as the workers last logged it. */
enum cache_outage {
	CACHE_WORKS = 0,
	CACHE_CANNOT_READ = 1,  /* get failed: answers go out uncached */
	CACHE_CANNOT_STORE = 2, /* put failed while get worked (a full store) */
};

/* The file's layout (one version; 64 bytes). */
struct cache_counters {
	uint64_t version;  /* CACHE_COUNTERS_VERSION once the file is set up */
	uint64_t started;  /* seconds since the epoch when counting started */
	uint64_t hits;
	uint64_t misses;   /* failed lookups included */
	uint64_t failures; /* lookups the driver could not answer */
	uint64_t outage;   /* enum cache_outage */
	uint64_t spare[2];
};

/* Maps the counters of paths' site, making the file when it is missing.
 * NULL when it cannot be used (the caller then counts in memory). */
struct cache_counters *cache_stats_open(const struct shared_paths *paths);
void cache_stats_close(struct cache_counters *counters);

/* A snapshot of the counters (all zero when there is no file yet).
 * Returns 0, or -1 when the file exists but cannot be read. */
int cache_stats_read(const struct shared_paths *paths, struct cache_counters *out);

/* Starts counting again from zero, now (a missing file is left missing).
 * 0, or -1 with errno set. */
int cache_stats_reset(const struct shared_paths *paths);

void cache_stats_count(struct cache_counters *c, bool hit, bool failed);

/* Moves the outage state from `from` to `to`; true for the one process
 * whose move it was (that one logs it). */
bool cache_stats_outage_moves(struct cache_counters *c, enum cache_outage from,
                              enum cache_outage to);
enum cache_outage cache_stats_outage(const struct cache_counters *c);

#endif
