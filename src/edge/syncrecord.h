/*
 * syncrecord: the watcher's side of the sync feed. Each move of the
 * cache generation becomes one record of the journal (site/journal.h):
 * an item per file the change touched that holds one item of the feed
 * (an entry, a term, a global set, a navigation, an asset), or a reset
 * when a file holds no one item (a blueprint, the sites) or which files
 * changed is not known. A deleted entry is named by its id, which its
 * file no longer says: the watcher keeps the newest index snapshot
 * mapped (workers build one per generation) and reads the id there.
 */
#ifndef CMS_API_EDGE_SYNCRECORD_H
#define CMS_API_EDGE_SYNCRECORD_H

#include <stdint.h>

#include "change/shared.h"
#include "change/watch.h"
#include "core/config.h"
#include "site/snapshot.h"

/* The newest snapshot the watcher has mapped. */
struct sync_keeper {
	struct snapshot *snap; /* owned, or NULL */
	uint64_t generation;
};

/* Maps the newest snapshot of paths' directory when it is newer than
 * the one held. */
void sync_keeper_follow(struct sync_keeper *k, const struct shared_paths *paths);
void sync_keeper_free(struct sync_keeper *k);

/* The journal's file in paths' cache directory; the caller frees it. */
char *sync_journal_path(const struct shared_paths *paths);

/* Makes sure the journal's last record is of the cache generation cache,
 * so that the tokens given for it can be answered: when it is of another
 * one (none yet, or a publication the watcher's hooks were not told of:
 * a worker's or `cms-api warm`'s), a reset record for it is appended. */
void sync_record_named(const struct config *cfg, const struct shared_paths *paths,
                       uint64_t cache);

/* The same for the generation the generation file names, which is
 * returned (0 when there is none yet). */
uint64_t sync_record_current(const struct config *cfg, const struct shared_paths *paths);

/* Appends the record of the move to new_cache caused by files[0..n) to
 * the journal, keeping [sync] generations; known false: which files
 * changed is not known (a reset). */
void sync_record(const struct config *cfg, const struct shared_paths *paths,
                 const struct sync_keeper *k, const struct watch_file *files, size_t n,
                 bool known, uint64_t new_cache);

#endif
