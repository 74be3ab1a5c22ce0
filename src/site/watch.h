/*
 * watch: notices changes to the site's files without a restart.
 *
 * One process per cache directory watches: the first worker to take the
 * lock `watch.lock` forks a small watcher that uses inotify where it works
 * (and a stat scan every few seconds where it does not). Each change is
 * named with Statamic's event (EntrySaved, TermDeleted, ...). The watcher
 * publishes two counters in the file `generation`: the index generation,
 * bumped by every change, and the cache generation, bumped unless every
 * event of the change is in [cache] ignored_events. Workers read that file
 * (a stat per request) and move to the matching index snapshot.
 */
#ifndef CMS_API_WATCH_H
#define CMS_API_WATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"

struct generation {
	uint64_t index;     /* bumped by every change to the site */
	uint64_t cache;     /* bumped by changes whose events are not all ignored */
	uint64_t signature; /* content_signature() when it was written */
};

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

/* The generation file at path: read (all zero, -1, when missing or
 * unreadable) and written atomically (temp file + rename). */
int generation_read(const char *path, struct generation *g);
int generation_write(const char *path, const struct generation *g);

/*
 * Starts the watcher for cfg's site unless one runs already (its lock is
 * held). The watcher is a child process that ends with its parent. Returns
 * true when this call started it.
 */
bool watch_start(const struct config *cfg);

/* Runs the watch loop in the calling process until it is killed (used by
 * watch_start's child, and by tests). Brings the generation file up to
 * date first. */
void watch_run(const struct config *cfg);

/* Checks once, by a full stat scan, whether the site changed since the
 * generation file was written, and bumps it if so. Returns 1 when it
 * bumped, 0 when nothing changed, -1 on error. */
int watch_scan_once(const struct config *cfg);

#endif
