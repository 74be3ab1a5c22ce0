/*
 * app/hooks: the watcher's hooks of every layer that follows the site's
 * changes, the cache's (cache/upkeep.h) then the edge's (edge/hooks.h),
 * as the one struct watch_hooks the follower hands the watcher.
 */
#ifndef CMS_API_APP_HOOKS_H
#define CMS_API_APP_HOOKS_H

#include "change/watch.h"

extern const struct watch_hooks app_watch_hooks;

#endif
