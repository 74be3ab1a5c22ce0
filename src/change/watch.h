/*
 * watch: notices changes to the site's files without a restart.
 *
 * One process per cache directory watches: the first worker to take the
 * lock `watch.lock` forks a small watcher that uses inotify where it works
 * (and a stat scan every few seconds where it does not). Each change is
 * named with Statamic's event (EntrySaved, TermDeleted, ...). The watcher
 * publishes two counters in the generation file (generation.h): the index
 * generation, bumped by every change, and the cache generation, bumped
 * unless every event of the change is in [cache] ignored_events. Workers
 * read that file (a stat per request) and move to the matching index
 * snapshot.
 */
#ifndef CMS_API_WATCH_H
#define CMS_API_WATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "core/config.h"
#include "change/generation.h"

/* Statamic's event for a change to the file at rel (relative to the site
 * root), e.g. "EntrySaved"; NULL for files Statamic does not read (dot
 * files, storage/). */
const char *watch_event_name(const char *rel, bool deleted);

/* True when name is in the config's [cache] ignored_events. */
bool watch_event_ignored(const struct config *cfg, const char *name);

/* A hash of the path, size and modification time of every file Statamic
 * reads under the site root and the asset disks: equal signatures mean
 * nothing changed. */
uint64_t content_signature(const struct config *cfg);

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
 */
bool watch_start(const struct config *cfg);

/* Runs the watch loop in the calling process until it is killed (used by
 * watch_start's child with its lock, and by tests with lock_fd -1). Brings
 * the generation file up to date first. */
void watch_run(const struct config *cfg, int lock_fd);

/* Checks once, by a full stat scan, whether the site changed since the
 * generation file was written, and bumps it if so. Returns 1 when it
 * bumped, 0 when nothing changed, -1 on error. */
int watch_scan_once(const struct config *cfg);

#endif
