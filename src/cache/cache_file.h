/*
 * cache_file: the file driver, where it keeps its entries. One file per
 * entry, named by the 64-bit hash of its key, in the directory of its
 * cache generation (shared_responses_dir): a new generation starts an
 * empty directory and the watcher removes the old ones. Files are
 * published by rename, so a reader sees a whole entry or none, and
 * nothing is locked. cache_file_driver is the driver's table
 * (cms-api/cache-driver.h), built in.
 */
#ifndef CMS_API_CACHE_FILE_H
#define CMS_API_CACHE_FILE_H

#include <stdbool.h>
#include <stdint.h>

#include "change/shared.h"
#include "cms-api/cache-driver.h"
#include "core/config.h"
#include "lib/strbuf.h"

/* Whether cfg has workers store answers in files (cache on, file driver,
 * a positive expiry), given a usable directory. */
bool cache_file_in_use(const struct config *cfg);

/* Appends the entry's bytes to out. 0, or -1 when there is none or it
 * cannot be read. */
int cache_file_read(const struct shared_paths *paths, uint64_t generation, uint64_t hash,
                    struct strbuf *out);

/*
 * What the answers of a generation take, counted by every writer in one
 * shared counter (the file .bytes in the generation's directory, mapped),
 * so that [cache] max_size holds at all times, not only after a prune: a
 * writer reserves an entry's bytes before it writes, and an entry that
 * does not fit first makes room (the oldest go), else is not stored.
 * Bytes are counted off exactly once, by the process whose rename took a
 * file away (a replaced answer, a pruned one). Writers hold the
 * directory's lock shared while they reserve and write; the counter is
 * set to what the files take only under the lock held exclusively, when
 * no reservation is in flight (after a writer that died between the
 * two). Each process keeps the counter of the generation it last wrote
 * mapped.
 */
struct cache_budget {
	uint64_t generation; /* the generation mapped, when bytes is set */
	uint64_t *bytes;     /* the shared counter, or NULL */
};

/* Publishes entry, creating the generation's directory when needed,
 * within max_bytes (0: no limit) through budget. 0, or -1 with errno set
 * when it could not be written (EFBIG: it did not fit the budget). */
int cache_file_write(const struct shared_paths *paths, uint64_t generation, uint64_t hash,
                     const struct strbuf *entry, long long max_bytes, struct cache_budget *budget);

/* Unmaps the counter. */
void cache_budget_release(struct cache_budget *budget);

/* After a write failed for want of space: removes the answers of older
 * generations and the older half of this one's. Returns how many files it
 * removed. */
size_t cache_file_make_room(const struct shared_paths *paths, uint64_t generation);

/*
 * Keeps the generation's directory in bounds, since every distinct query
 * makes an entry and a client can invent queries without end: removes the
 * entries written more than expiry_seconds before now and temporary files
 * a writer left behind, then, while the rest take more than max_bytes
 * (0: no limit), the oldest until they take 90 % of it. Returns how many
 * files it removed, whose bytes it takes off the shared counter; then,
 * with a limit and no writer in flight, sets the counter to what the
 * files take. The watcher runs it now and then; writers prune when the
 * budget is spent.
 */
size_t cache_file_prune(const struct shared_paths *paths, uint64_t generation,
                        long long max_bytes, long long expiry_seconds, long long now);

/* The file driver's state: the directory's paths (borrowed: they must
 * outlive it), [cache] max_size in bytes (0: no limit) and the budget. */
struct cache_file_state {
	const struct shared_paths *paths;
	long long max_bytes;
	struct cache_budget budget;   /* owned */
	long long next_room_making;   /* after a write failed for want of space */
};

/* A new state for the table's get, put and free (the table has no init:
 * its configuration is cms-api's own, not [cache] options). */
struct cache_file_state *cache_file_state_new(const struct shared_paths *paths,
                                              long long max_bytes);

/* The file driver. get reads the entry (a missing or unreadable file is
 * a miss); put writes it within max_size, and when it cannot, says why in
 * the log at most once a minute, making room first when the disk is full
 * (older generations, then the older half of this one's answers go); it
 * fails only for a write that did not happen for another reason than a
 * full budget. There is no invalidate: the watcher removes the old
 * generations' directories itself. */
extern const struct cms_api_cache_driver cache_file_driver;

/* The entries of the generation's directory, and the bytes they take
 * with the writes in flight (cache stats, making room). */
void cache_file_count(const struct shared_paths *paths, uint64_t generation, long long *entries,
                      long long *bytes);

#endif
