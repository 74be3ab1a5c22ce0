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

#include "change/generation.h"
#include "core/config.h"

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

/* One file a change touched, as the watcher saw it. */
struct watch_file {
	const char *event; /* Statamic's event for it ("EntrySaved", "AssetDeleted"), ignored
	                    * by [cache] ignored_events or not */
	const char *disk;  /* the [disks.<name>] it is on, or NULL: a file of the site */
	const char *path;  /* relative to the site root, or to the disk's root */
};

/* The most files a change is told file by file; a bigger one (a deploy,
 * a git checkout) is told as a change of unknown files. */
#define WATCH_MAX_FILES 4096

/*
 * What a layer above does as the watcher acts. Every member may be NULL.
 * The hooks run in the watcher process, one call at a time.
 */
struct watch_hooks {
	/* When the watcher starts: what the other hooks keep while it runs
	 * (passed to them as state), freed by close when it ends. */
	void *(*open)(const struct config *cfg);
	void (*close)(void *state);
	/* The cache generation moved from old_cache to new_cache (content
	 * signatures: generation.h) for a change named event (Statamic's
	 * event name) to the file at path (relative to the site root; NULL
	 * when several files changed). */
	void (*moved)(void *state, const struct config *cfg, const char *event, const char *path,
	              uint64_t old_cache, uint64_t new_cache);
	/* The same move, right after moved, told file by file: the nfiles
	 * files the change touched, in the order seen (a file may come more
	 * than once: its last event holds), a rename as its two halves; or
	 * none (nfiles 0) when which files changed is not known (a stat scan
	 * found the change, or it touched more than WATCH_MAX_FILES). Pointers
	 * are valid during the call only. */
	void (*moved_files)(void *state, const struct config *cfg, const struct watch_file *files,
	                    size_t nfiles, uint64_t old_cache, uint64_t new_cache);
	/* After every pass of the watch loop (at least once a second), when
	 * the generation file may have moved. */
	void (*pass)(void *state, const struct config *cfg);
	/* About once a minute. */
	void (*upkeep)(void *state, const struct config *cfg);
	/* In the new watcher process, before it runs: note what stop will
	 * need. */
	void (*arm_stop)(const struct config *cfg);
	/* The watcher is being stopped by a signal (its worker ended, the
	 * pool stops): async-signal-safe. */
	void (*stop)(void);
};

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
bool watch_start(const struct config *cfg, const struct watch_hooks *hooks);

/* Runs the watch loop in the calling process until it is killed (used by
 * watch_start's child with its lock, and by tests with lock_fd -1). Brings
 * the generation file up to date first. hooks may be NULL: none. */
void watch_run(const struct config *cfg, int lock_fd, const struct watch_hooks *hooks);

/* Checks once, by a full stat scan, whether the site changed since the
 * generation file was written, and bumps it if so. Returns 1 when it
 * bumped, 0 when nothing changed, -1 on error. */
int watch_scan_once(const struct config *cfg);

#endif
