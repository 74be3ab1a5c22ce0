/*
 * follow: a worker's site index, followed from generation to generation.
 *
 * In a shared mode the index is the snapshot of the generation the
 * generation file names (generation.h), mapped from the cache directory,
 * where the watcher publishes it before the file names it (indexer.h). A
 * worker reads the file (one stat) at every request and moves before it
 * answers, and only ever to a later generation. A worker that starts the
 * watcher waits for its first look (checked: nothing being written is
 * read half); one that still finds no snapshot it can map brings the
 * published index up to date itself (watch_scan_once: waiting while
 * another publishes). A
 * generation published without a snapshot (a full disk) is read from the
 * site by each worker. A site that cannot be read whole never replaces a
 * good index: it is tried again every two seconds, and a worker with no
 * index at all takes the newest good snapshot on disk. In the private
 * mode (the CLI, tests) the index is built in memory, alone.
 *
 * A shared follower whose cache directory cannot be used (read-only,
 * full, not there) does not stay blind: it falls back to an index of its
 * own, checks the site's files for changes itself (a stat scan at most
 * once a second, at a request), tries the directory again every two
 * seconds (between requests: follow_tend), and goes back to sharing once
 * it works. Both moves are logged.
 *
 * What a follower tells its owner (follow_open, follow_refresh): whether
 * it moved to a new index (what was made from the old one is stale) and
 * whether it started sharing the cache directory (its paths are new: a
 * cache that follows the generation may be set up).
 */
#ifndef CMS_API_FOLLOW_H
#define CMS_API_FOLLOW_H

#include <stdbool.h>
#include <stdint.h>

#include "change/shared.h"
#include "change/watch.h"
#include "core/config.h"
#include "lib/strbuf.h"
#include "site/snapshot.h"

/* How a follower gets its site index. */
enum follow_mode {
	FOLLOW_PRIVATE,      /* build it in memory, alone (the CLI, tests) */
	FOLLOW_SHARED,       /* map the snapshot in the cache directory, publishing
	                      * it there when there is none; follow the generation */
	FOLLOW_SHARED_WATCH, /* the same, and make sure a watcher runs (workers) */
};

/* What changed in a follower at a call (flags). */
enum follow_news {
	FOLLOW_NEW_INDEX = 1 << 0, /* snap is another index than before */
	FOLLOW_SHARING = 1 << 1,   /* it (re)started sharing: paths are new */
};

struct follow {
	const struct config *cfg;  /* borrowed: must outlive the follower */
	const struct watch_hooks *hooks; /* borrowed: what a watcher it starts runs */
	struct snapshot *snap;     /* owned: the site index requests read */
	enum follow_mode wanted;   /* the mode asked for */
	enum follow_mode mode;     /* the mode in use: FOLLOW_PRIVATE while the cache
	                            * directory cannot be used */
	struct shared_paths paths; /* owned, shared modes */
	uint64_t generation;       /* the index generation snap was built for */
	uint64_t serial;           /* changes whenever snap is replaced */
	uint64_t cache_generation; /* the generation file's cache signature (the
	                            * name of the cache's entries), when it goes
	                            * with generation */
	bool cache_current;        /* cache_generation goes with the index in use */
	long long seen_mtime_ns;   /* the generation file as last seen */
	unsigned long seen_ino;
	long long next_watch_check; /* when to make sure a watcher runs again */
	long long next_share_try;  /* fallen back: when to try the directory again */
	long long next_site_scan;  /* fallen back: when to look for changes again */
	uint64_t own_signature;    /* fallen back: the site's files the own index was built from */
	struct strbuf logged_problems; /* owned: the last build's errors, one a line, as logged */
	uint64_t failed_generation; /* the last generation whose site could not be read whole */
	long long next_build_try;  /* when to try building it again */
	unsigned news;             /* enum follow_news since the owner last asked */
};

/* Sets f up for cfg in mode and loads the index (never fails: a site
 * that cannot be read is logged, and answered as 500 by the app). hooks
 * (may be NULL) are what a watcher this follower starts runs. */
void follow_open(struct follow *f, const struct config *cfg, enum follow_mode mode,
                 const struct watch_hooks *hooks);
void follow_close(struct follow *f);

/* In a shared mode, moves to a newer index when the generation file says
 * the site changed (one stat when it did not); fallen back, looks for
 * changes now and then. Called per request; never forks. */
void follow_refresh(struct follow *f);

/*
 * Between requests (a worker's accept loop, at least once a second, with
 * no request in hand): in FOLLOW_SHARED_WATCH, starts a watcher when none
 * runs (every 2 s at most), and fallen back, tries the cache directory
 * again (every 2 s). The one place a worker forks, so that a watcher
 * never inherits a request's connection or blocked signals.
 */
void follow_tend(struct follow *f);

/* What changed (enum follow_news) since the last call; clears it. */
unsigned follow_take_news(struct follow *f);

/* Whether f has an index of the whole site to answer from. */
bool follow_has_good_index(const struct follow *f);

#endif
