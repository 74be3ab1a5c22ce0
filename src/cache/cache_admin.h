/*
 * cache_admin: what the command line does with the response cache, apart
 * from serving: `cms-api check` asks whether the driver can start with its
 * [cache] options, `cms-api cache stats` prints what the cache holds and
 * how often it answered, `cms-api cache clear` removes every cached
 * answer. None of them builds the site's index or starts a watcher.
 */
#ifndef CMS_API_CACHE_ADMIN_H
#define CMS_API_CACHE_ADMIN_H

#include <stddef.h>
#include <stdio.h>

#include "core/config.h"

/* Whether cfg's driver can start with its options: 0, or -1 with
 * "FILE:LINE: message" (or "FILE: message") in error. A store that cannot
 * be reached now is only a warning (it may come up before the workers
 * do): in warning, "" when there is none. A plug-in is not loaded here:
 * `cms-api check` does that itself, to name the line of its driver key. */
int cache_admin_check(const struct config *cfg, char *error, size_t error_size, char *warning,
                      size_t warning_size);

/* `cache stats`: the driver, the entries of the current generation and
 * the bytes they take, the hits and misses since the counters started,
 * and when that was, one "name: value" a line on out. 0, or -1 with the
 * reason on err (what could be counted is printed all the same). */
int cache_admin_stats(const struct config *cfg, FILE *out, FILE *err);

/* `cache clear`: removes every cached answer of cfg's site (the file
 * driver: every generation's directory; redis: every entry under the
 * prefix, the rate limit's counters left alone) and starts the counters
 * again. A plug-in keeps its answers where it alone knows: refused. 0, or
 * -1 with the reason on err. */
int cache_admin_clear(const struct config *cfg, FILE *out, FILE *err);

#endif
