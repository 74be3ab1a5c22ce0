/*
 * generation: the file `generation-<site>` in the cache directory, through
 * which the watcher tells the workers that the site changed. It holds two
 * counters, the index generation (bumped by every change) and the cache
 * generation (bumped unless every event of the change is ignored), the
 * content signature they were written for, and the signature at which the
 * cache generation last moved: the name of the cache's entries, the same
 * on every machine that serves the same files (content_signature hashes
 * paths relative to the site root), so that machines sharing one cache
 * (the Redis driver) share its entries and their invalidation.
 *
 * A generation is never reused: a file made anew (the cache directory
 * cleared or deleted) starts its counters at the current time in
 * microseconds, far beyond any counter the workers may still hold, so a
 * worker that compares numbers can never take a new generation for the
 * one it has. Workers compare both counters.
 *
 * The snapshot a generation names is written before the file names it
 * (indexer.h), so a worker that reads a generation can map its snapshot;
 * when it could not be written, the flags say so.
 *
 * The file is one fixed-size record with a check value. It is written by
 * a temporary file and rename(); when that cannot be done (a full file
 * system, a read-only directory) it is overwritten in place, which needs
 * no free block: content updates never wait for free space. A reader that
 * catches an in-place write half done sees a wrong check value and reads
 * again later.
 */
#ifndef CMS_API_GENERATION_H
#define CMS_API_GENERATION_H

#include <stdbool.h>
#include <stdint.h>

/* What a generation file may say besides its counters. */
enum generation_flags {
	/* The snapshot of this generation could not be written (a full disk):
	 * each worker reads the site itself to answer from it. */
	GENERATION_NO_SNAPSHOT = 1,
};

struct generation {
	uint64_t index;     /* bumped by every change to the site */
	uint64_t cache;     /* bumped by changes whose events are not all ignored */
	uint64_t signature; /* content_signature() when it was written */
	uint64_t cache_signature; /* signature when cache last moved: names the
	                           * cache's entries (cms_api_cache_request's
	                           * generation) */
	uint64_t flags;     /* enum generation_flags */
	uint64_t config_print; /* site_config_print() of the config its snapshot was
	                        * made with: a worker started with another waits for
	                        * one of its own */
};

/* Reads the file at path. Returns 0, or -1 (g all zero) when it is
 * missing, unreadable, of another version or caught half written. */
int generation_read(const char *path, struct generation *g);

/* Writes g to path, atomically when it can, in place when it must.
 * Returns 0, or -1 with errno set. */
int generation_write(const char *path, const struct generation *g);

/* Writes g to path when there is no file there yet. Returns 0, or -1
 * with errno set: EEXIST when another process made the file first. */
int generation_create(const char *path, const struct generation *g);

/* A generation never used before, for signature. */
void generation_fresh(struct generation *g, uint64_t signature);

/* The generation after g for a change: the index always moves, the cache
 * (and its signature) when cache is true. */
void generation_next(struct generation *g, bool cache, uint64_t signature);

/* Both counters equal. */
bool generation_same(const struct generation *a, const struct generation *b);

#endif
