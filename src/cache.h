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
 * An entry stores its full key (checked on read, so a 64-bit hash names
 * it), its expiry and the response. Entries are filed under the cache
 * generation that watch.h publishes: a change to the site that is not an
 * ignored event bumps it, and every older entry stops matching at once.
 * Only 200 and 404 answers are stored, without the rate limit's headers
 * (X-RateLimit-*, Retry-After), which describe one client's request. A
 * failed read is a miss and a failed write is only logged: the cache
 * never fails a request.
 *
 * Drivers: file (one file per entry in [cache] dir, published by rename,
 * never locked) and none. With driver redis, which is not built yet,
 * nothing is cached and the worker says so in its log.
 */
#ifndef CMS_API_CACHE_H
#define CMS_API_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "request.h"
#include "response.h"
#include "cache_entry.h"
#include "cache_file.h"
#include "site/shared.h"
#include "strbuf.h"

struct cache {
	bool on;                          /* false: every get misses, put does nothing */
	long long expiry_seconds;         /* > 0 when on */
	long long max_bytes;              /* [cache] max_size, 0: no limit */
	const struct shared_paths *paths; /* borrowed: the file driver's directory */
	struct cache_budget budget;       /* owned: the counter of the generation last written */
	long long next_room_making;       /* after a write failed for want of space */
};

/* Sets c up for cfg. paths is NULL when the cache directory is unusable,
 * which turns the file driver off. */
void cache_init(struct cache *c, const struct config *cfg, const struct shared_paths *paths);
void cache_free(struct cache *c);

/* The cache key of req (appended to key). */
void cache_key(const struct config *cfg, const struct request *req, struct strbuf *key);

/* On a hit fills res (reset first) with the stored answer and returns
 * true. A miss, an expired or foreign entry, or an unreadable one leaves
 * res untouched and returns false. */
bool cache_get(const struct cache *c, uint64_t generation, const char *key, struct response *res);

/* Stores res under key when its status is 200 or 404 and it fits within
 * [cache] max_size. A write that fails is logged at most once a minute;
 * one that fails for want of space first makes room (older generations,
 * then the older half of this one's answers go). */
void cache_put(struct cache *c, uint64_t generation, const char *key, const struct response *res);

#endif
