/*
 * shared: the files workers share in the cache directory, named per site
 * (a hash of the content root) so that two sites may share one directory:
 *   generation-<site>    the counters of generation.h
 *   watch-<site>.lock    held by the running watcher
 *   index-<site>.lock    held by whoever builds and publishes a snapshot
 *   index-<site>-<N>.snap  the head of the index snapshot of generation N
 *   segment-<site>-<S>.seg the snapshots' segments (site/segment.h)
 *   responses-<site>-<N>/  the file cache's entries of the cache generation
 *                        whose content signature is N
 *   cachestats-<site>    the response cache's hit and miss counters
 *   ratelimit-<site>.tbl   the rate limit's counters (ratelimit_table.h)
 */
#ifndef CMS_API_SHARED_H
#define CMS_API_SHARED_H

#include <stddef.h>
#include <stdint.h>

#include "core/config.h"
#include "lib/strbuf.h"

struct shared_paths {
	char *dir;        /* owned */
	char *site;       /* owned: hex hash of the content root */
	char *generation; /* owned */
	char *watch_lock; /* owned */
	char *index_lock; /* owned */
};

/* Fills paths for cfg, creating the cache directory (one level) when it is
 * missing. Returns 0, or -1 with errno set when the directory cannot be
 * used (missing parent, not writable, none configured). */
int shared_paths_init(struct shared_paths *paths, const struct config *cfg);
void shared_paths_free(struct shared_paths *paths);

/* The name of the user this process runs as ("uid N" when it has none),
 * for messages about who may use the cache directory. */
void shared_user_name(char *out, size_t size);

/* What would keep a worker running as this process's user from using
 * cfg's cache directory, found without making it: "" when nothing would,
 * else a sentence naming the directory, why, and what to do, for
 * `cms-api check` (a missing directory is named even when this user could
 * make it: check often runs as root, the workers as www-data). */
void shared_dir_problem(const struct config *cfg, char *out, size_t size);

/* The rate limit's table file of cfg's site in its cache directory
 * (whether or not the directory can be used), or NULL when none is
 * configured; the caller frees it. */
char *shared_ratelimit_path(const struct config *cfg);

/* The snapshot file of generation n; the caller frees it. */
char *shared_snapshot_path(const struct shared_paths *paths, uint64_t n);

/* The path of this site's snapshot of the highest generation in the
 * directory (its generation in *generation), or NULL; the caller frees it. */
char *shared_newest_snapshot(const struct shared_paths *paths, uint64_t *generation);

/* Removes this site's snapshots of generations before keep, and before
 * the newest one there is. */
void shared_remove_old_snapshots(const struct shared_paths *paths, uint64_t keep);

/* The names this site's segment files begin with ("segment-<site>-");
 * the caller frees it. */
char *shared_segment_prefix(const struct shared_paths *paths);

/* Removes this site's segment files but those named in used (file names
 * in the directory). */
void shared_remove_segments(const struct shared_paths *paths, const char *const *used,
                            size_t nused);

/* The response directory of the cache generation named n (its content
 * signature, generation.h); the caller frees it. */
char *shared_responses_dir(const struct shared_paths *paths, uint64_t n);

/* Removes this site's response directories, with their entries, but
 * keep's and current's. They are named by a content signature, which has
 * no order: the caller names the two to keep, its own and the generation
 * file's, which a worker not yet moved to it must leave alone. Returns
 * how many answers went. */
size_t shared_remove_old_responses(const struct shared_paths *paths, uint64_t keep,
                                   uint64_t current);

/* Removes every one of this site's response directories (cache clear).
 * Returns how many answers went. */
size_t shared_remove_all_responses(const struct shared_paths *paths);

/* The response cache's counters of cfg's site (cache_stats.h); the caller
 * frees it. */
char *shared_cache_stats_path(const struct shared_paths *paths);

#endif
