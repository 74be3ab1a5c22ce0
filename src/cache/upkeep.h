/*
 * upkeep: what the cache layer does as the site changes, handed to the
 * watcher (change/watch.h) as its hooks, so that the watcher never
 * includes the cache:
 *  - the cache driver is told of each move of the cache generation
 *    (cache_invalidate): workers need no telling, they follow the
 *    generation file, but a driver that keeps answers elsewhere (Redis, a
 *    plug-in) may drop the old ones. It is opened at the first move and
 *    kept until the watcher ends;
 *  - the static fast path's link moves to a new cache generation as it is
 *    published, before the generation file names it (fastpath_follow_to),
 *    follows the cache generation after every pass (fastpath_follow: its
 *    expiry), and is withdrawn when the watcher is stopped
 *    (fastpath_withdraw);
 *  - once a minute the file cache's directory is kept within [cache]
 *    max_size and rid of expired answers (cache_file_prune), and the fast
 *    path's directories trimmed (fastpath_trim).
 */
#ifndef CMS_API_UPKEEP_H
#define CMS_API_UPKEEP_H

#include "change/watch.h"

extern const struct watch_hooks cache_upkeep_hooks;

#endif
