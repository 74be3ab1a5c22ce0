/*
 * hooks: what a layer above does as the site changes (struct watch_hooks),
 * handed down to the watcher and the indexer, which call them without
 * knowing what they do (cache/upkeep.h has the cache layer's).
 */
#ifndef CMS_API_HOOKS_H
#define CMS_API_HOOKS_H

#include <stddef.h>
#include <stdint.h>

#include "core/config.h"

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
 * Every member may be NULL. The hooks run in the process that watches or
 * publishes, one call at a time.
 */
struct watch_hooks {
	/* When the watcher starts: what the other hooks keep while it runs
	 * (passed to them as state), freed by close when it ends. */
	void *(*open)(const struct config *cfg);
	void (*close)(void *state);
	/* A new cache generation (new_cache, a content signature:
	 * generation.h) is about to be published: its snapshot is written,
	 * the generation file does not name it yet. What answers outside the
	 * workers (the static fast path) moves to it now, before any worker
	 * may answer from it. */
	void (*publishing)(void *state, const struct config *cfg, uint64_t new_cache);
	/* The cache generation moved from old_cache to new_cache (content
	 * signatures: generation.h) for a change named event (Statamic's
	 * event name) to the file at path (relative to the site root; NULL
	 * when several files changed). */
	void (*moved)(void *state, const struct config *cfg, const char *event, const char *path,
	              uint64_t old_cache, uint64_t new_cache);
	/* The same move, right after moved, told file by file: the nfiles
	 * files the change touched, in the order seen (a file may come more
	 * than once: its last event holds), a rename as its two halves;
	 * files non-NULL with nfiles 0 when it read none of them (every one
	 * held back, told with a later publication); or files NULL when which
	 * files changed is not known (a stat scan found the change, a
	 * publication not made by the watcher, or it touched more than
	 * WATCH_MAX_FILES). moved and moved_files are
	 * called once per publication that moves the cache generation, the
	 * index lock held, so in the order of publication. Pointers are
	 * valid during the call only. */
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

#endif
