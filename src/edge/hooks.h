/*
 * edge/hooks: what the edge layer does as the site changes, handed to the
 * watcher (change/watch.h) beside the cache's (cache/upkeep.h), so that
 * the watcher never includes it. When the cache generation moves, from
 * the files the change touched (moved_files), it
 *  - works out the purges for the caches in front (purge.h),
 *  - appends the change's record to the sync journal (syncrecord.h),
 *  - makes the webhooks' deliveries (webhook.h),
 * (a first generation, a new cache directory, is no change: neither
 * purged nor told to webhooks),
 * and queues what goes out in an outbox that every pass of the watch loop
 * moves on without waiting (outbox.h): a slow or dead edge or receiver
 * never delays the next generation. Each pass also maps the newest index
 * snapshot, whose ids name the entries a change deletes.
 */
#ifndef CMS_API_EDGE_HOOKS_H
#define CMS_API_EDGE_HOOKS_H

#include "change/watch.h"

extern const struct watch_hooks edge_hooks;

/* How long a pass waits for requests it has just queued to go out (so a
 * purge reaches a cache at once, not a pass later); passes with nothing
 * new wait for nothing. */
#define EDGE_PASS_WAIT_MS 100

#endif
