/*
 * cache: the response cache of spec §7, after cgit's cache.c, fixed for a
 * pool of workers.
 *
 * The key is the request's path and its normalised query (parameter order
 * does not matter), plus scheme and host when [api] base_url is empty,
 * because absolute URLs in the body then come from the request's Host
 * header and one host's answer must never be served to another. It also
 * names the config (its fingerprint): an answer cached before a resource
 * was disabled is never served after. Each part is tagged and
 * length-prefixed, so no part can pass for another.
 *
 * An entry (cache_entry.h) stores its full key (checked on read, so a
 * 64-bit hash names it), its expiry, the response with the body's hash
 * (its ETag) and a gzip copy, and a checksum over all of it: an entry
 * that is torn, edited or not ours is a miss, never an answer. Only 200
 * and 404 answers are stored, without the headers made per request (the
 * rate limit's, ETag, Cache-Control, Vary, Content-Encoding:
 * http_cache.h). A failed read is a miss and a failed write is only
 * logged: the cache never fails a request.
 *
 * Drivers (each a table of cms-api/cache-driver.h, over the entry's
 * bytes): file (one file per entry in [cache] dir, published by rename,
 * never locked; cache_file.h), redis (one string per entry, shared by
 * several machines; cache_redis.h), a plug-in ([cache] driver =
 * /path/to/driver.so; cache_plugin.h) and none. Entries are filed under
 * the content signature at which the cache generation last moved
 * (generation.h), which names the content the answer was made from, the
 * same on every machine with the same files. When a driver fails (Redis
 * down, slow or full, a plug-in returning -1), the request is answered
 * uncached; the workers of a cache directory log the outage once when it
 * starts and once when it ends (cache_stats.h), the file driver in its own
 * words, once a minute. Every lookup counts as a hit or a miss in the
 * shared counters `cms-api cache stats` reads.
 */
#ifndef CMS_API_CACHE_H
#define CMS_API_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cache/cache_entry.h"
#include "cache/cache_file.h"
#include "cache/cache_plugin.h"
#include "cache/cache_stats.h"
#include "change/shared.h"
#include "cms-api/cache-driver.h"
#include "core/config.h"
#include "http/request.h"
#include "http/response.h"
#include "lib/strbuf.h"

struct cache {
	bool on;                          /* false: every get misses, put does nothing */
	long long expiry_seconds;         /* > 0 when on */
	const struct cms_api_cache_driver *driver; /* a built-in table or the plug-in's */
	void *state;                      /* the driver's, freed through it */
	struct cache_plugin plugin;       /* owned: CACHE_PLUGIN's */
	bool says_why;                    /* the driver logs its own failures (file) */
	struct cache_counters *counters;  /* the shared counters, or &own */
	struct cache_counters own;        /* when they cannot be shared */
	struct strbuf entry;              /* owned: scratch for an entry's bytes */
};

/* What one request asks of the cache: its key, and the request as the
 * client sent it (method, path, query without '?'), which a driver may
 * use. Copies, so that the answer can be stored after the request is
 * gone (app_finish). */
struct cache_ask {
	struct strbuf key, method, path, query; /* owned */
};

/* Sets c up for cfg. paths is NULL when the cache directory is unusable,
 * which turns the cache off (nothing would follow its generation); it
 * must outlive c. A driver that cannot start (bad options, a plug-in
 * that does not load) is logged and leaves the cache off. cache_free is
 * safe on a cache all zero. */
void cache_init(struct cache *c, const struct config *cfg, const struct shared_paths *paths);
void cache_free(struct cache *c);

/* The cache key of req (appended to key). */
void cache_key(const struct config *cfg, const struct request *req, struct strbuf *key);

/* Fills ask for req (its key from cache_key). */
void cache_ask_set(struct cache_ask *ask, const struct config *cfg, const struct request *req);
void cache_ask_release(struct cache_ask *ask);

/* On a hit fills res (reset first) with the stored answer and returns
 * true. A miss, an expired or foreign entry, an unreadable one, or a
 * driver that fails leaves res untouched and returns false. generation:
 * the cache signature of the generation file (generation.h). */
bool cache_get(struct cache *c, uint64_t generation, const struct cache_ask *ask,
               struct response *res);

/* Stores res under ask's key when its status is 200 or 404 (the file
 * driver: when it fits within [cache] max_size). A failure is logged
 * (see above), never more. */
void cache_put(struct cache *c, uint64_t generation, const struct cache_ask *ask,
               const struct response *res);

/* The watcher's side: tells the driver that the cache generation moved
 * (event's generations are cache signatures). */
void cache_invalidate(struct cache *c, const struct cms_api_cache_event *event);

#endif
