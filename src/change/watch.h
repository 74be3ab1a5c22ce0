/*
 * watch: notices changes to the site's files without a restart.
 *
 * One process per cache directory watches: the first worker to take the
 * lock `watch.lock` forks a watcher that uses inotify where it works (and
 * a stat scan every few seconds where it does not). Each change is named
 * with Statamic's event (EntrySaved, TermDeleted, ...). The watcher is the
 * indexer (indexer.h): for each change it builds the new snapshot and
 * publishes it, then two counters in the generation file (generation.h):
 * the index generation, bumped by every change, and the cache generation,
 * bumped unless every event of the change is in [cache] ignored_events.
 * Workers read that file (a stat per request) and map the snapshot it
 * names.
 *
 * What else follows the cache generation (the cache driver told of a
 * move, the static fast path's link, pruning the file cache) belongs to
 * the layers above: they hand the watcher their hooks (struct
 * watch_hooks; cache/upkeep.h has the cache layer's), and the watcher
 * calls them without knowing what they do.
 */
#ifndef CMS_API_WATCH_H
#define CMS_API_WATCH_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "change/generation.h"
#include "change/hooks.h"
#include "change/signature.h"
#include "core/config.h"

/* Statamic's event for a change to the file at rel (relative to the site
 * root), e.g. "EntrySaved"; NULL for files Statamic does not read (dot
 * files, storage/). */
const char *watch_event_name(const char *rel, bool deleted);

/* True when name is in the config's [cache] ignored_events. */
bool watch_event_ignored(const struct config *cfg, const char *name);

/*
 * Starts the watcher for cfg's site unless one runs already (its lock is
 * held). The watcher is a child process that ends with its parent, named
 * cms-api-watch. Returns true when this call started it.
 *
 * Exactly one watcher runs per site and cache directory, whatever is done
 * to the directory: the watcher checks every second that the lock file it
 * holds is still the one at its path, and when the file (or the whole
 * directory) was removed it makes it again and locks it, or ends if
 * another process took the new lock first. It also makes the generation
 * file again when it is gone, with a generation never used before.
 *
 * first_look (may be NULL) is set to -1, or, when this call started the
 * watcher, to the read end of a pipe (close-on-exec, the caller's to
 * close) that reaches end of file once the watcher's first look at the
 * site is published, or it died: a worker waits on it instead of
 * publishing what it read itself, unchecked (watch_wait_first_look).
 */
bool watch_start(const struct config *cfg, const struct watch_hooks *hooks, int *first_look);

/* Whether a watcher holds cfg's watch lock (a worker that finds nothing
 * published waits for it rather than read the site unchecked). */
bool watch_running(const struct config *cfg);

/* Waits on a first_look pipe of watch_start for at most timeout_ms, then
 * closes it. True when the watcher's first look was done (or the watcher
 * ended) in time. */
bool watch_wait_first_look(int fd, int timeout_ms);

/*
 * watch_start for a parent that reaps its children itself (the pool's
 * supervisor, pool.h): SIGCHLD is left as it is. Returns the watcher's
 * pid, 0 when another process holds the lock (a watcher runs), -1 when
 * the lock cannot be taken (no usable cache directory) or fork failed.
 * first_look as for watch_start.
 */
pid_t watch_spawn(const struct config *cfg, const struct watch_hooks *hooks, int *first_look);

/* Runs the watch loop in the calling process until it is killed (used by
 * watch_start's child with its lock, and by tests with lock_fd -1). Brings
 * the generation file up to date first. hooks may be NULL: none. */
void watch_run(const struct config *cfg, int lock_fd, const struct watch_hooks *hooks);

/* Checks once, by a full stat scan, whether the site changed since the
 * generation file was written (or the snapshot it names is missing), and
 * if so builds and publishes the next generation (indexer_catch_up).
 * Returns 1 when it published, 0 when nothing changed, -1 on error. */
int watch_scan_once(const struct config *cfg);

#endif
