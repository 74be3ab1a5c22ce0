/*
 * ratelimit_table: one request counter per client and window, shared
 * exactly by every process that maps the same file.
 *
 * The table is a fixed array of buckets {key, state} after a small
 * header, in open addressing: a key lives in one of the RATE_PROBE
 * buckets from its home (key modulo the bucket count), and never beyond
 * the first empty one. A bucket's state is one 64-bit word holding its
 * window's start (seconds) and count, so a hit is one compare-and-swap:
 * however many processes hit one key at once, each hit is counted once
 * and no more than the limit pass. A window lasts RATE_WINDOW_SECONDS
 * from its first hit; a refused hit is not counted (Laravel's throttle).
 *
 * A key that has no bucket yet takes one under an exclusive flock of the
 * file, so that two processes never give one key two buckets: the first
 * empty bucket on its path, else one whose window has ended (the oldest
 * such), taken over with a compare-and-swap against its owner's last hit.
 * When neither exists (more clients at once than the neighbourhood
 * holds), the hit is not counted and rate_table_hit says so; the caller
 * decides (ratelimit.h lets it pass). A process that dies while taking a
 * bucket over leaves it locked; the next process to take a bucket, under
 * the flock, knows it for abandoned and reuses it.
 *
 * Keys are 64-bit keyed hashes (rate_table_key) with a random key made
 * when the file is made: client addresses and tokens are never stored.
 *
 * The file (mode 0600) is made whole (allocated, header written) under a
 * temporary name and linked into place, so no process ever maps half a
 * table or meets a sparse page on a full disk. A file that is not a
 * table of this layout is replaced the same way.
 */
#ifndef CMS_API_RATELIMIT_TABLE_H
#define CMS_API_RATELIMIT_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define RATE_WINDOW_SECONDS 60
#define RATE_PROBE 64
#define RATE_TABLE_BUCKETS 65536 /* 1 MiB */
#define RATE_MAX_LIMIT 1000000000L /* what a bucket's count can hold */

struct rate_table;

/* What a hit found. */
struct rate_result {
	bool allowed;         /* counted within the limit */
	long count;           /* hits in the window, this one included when allowed */
	long long window_end; /* when the window ends (seconds, the clock of now) */
};

/* Maps the table file at path, making it (nbuckets buckets) when it is
 * missing or not a table of that size. NULL with errno set when the file
 * cannot be made or mapped (a read-only or missing directory). */
struct rate_table *rate_table_open(const char *path, size_t nbuckets);

/* A table of this process alone, in memory (no lock taken). */
struct rate_table *rate_table_private(size_t nbuckets);

void rate_table_close(struct rate_table *t);

/* Whether path still names the file t maps: false once it was removed or
 * replaced (the cache directory cleared). Always true for a private table. */
bool rate_table_current(const struct rate_table *t, const char *path);

/* The key of a client's text (address or token) in this table. */
uint64_t rate_table_key(const struct rate_table *t, const char *text);

/* Counts one hit of key at now (seconds) against limit (1 to
 * RATE_MAX_LIMIT). Returns false, with nothing counted, when the key has
 * no bucket and none is free. */
bool rate_table_hit(struct rate_table *t, uint64_t key, long limit, long long now,
                    struct rate_result *r);

/* What a hit of key at now would find, without counting it or taking a
 * bucket: r->allowed when one more hit fits within limit, r->count the
 * hits of the window so far (0 for a key with no bucket or whose window
 * is over). Takes no lock: a hit that lands meanwhile may be missed. */
void rate_table_look(struct rate_table *t, uint64_t key, long limit, long long now,
                     struct rate_result *r);

/* A flag shared by the table's processes (one outage, one log line):
 * sets it to on and returns whether this call changed it. */
bool rate_table_flag_set(struct rate_table *t, bool on);

#endif
