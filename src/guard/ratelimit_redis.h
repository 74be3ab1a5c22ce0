/*
 * ratelimit_redis: the rate limit's counters in Redis ([rate_limit]
 * driver = redis), so that every machine that asks the same server and
 * prefix shares one budget per client.
 *
 * A hit is one EVAL of a small script, atomic in Redis: the count is
 * read, raised unless the limit is reached (a refused hit is not
 * counted), and given its 60-second expiry at the window's first hit.
 * Counters are named PREFIX "ratelimit:" and a keyed hash of the client
 * key, never the address or token itself; the hash key is fixed, so that
 * every machine names a client alike.
 *
 * Redis is asked with a short timeout ([rate_limit] redis_timeout_ms,
 * connecting and each command). When it cannot be asked (refused, timed
 * out, an error reply), the hit fails, the connection is dropped, and no
 * new one is tried before the next second, so an outage costs each
 * process at most one timeout a second. The caller counts the hit
 * elsewhere meanwhile.
 */
#ifndef CMS_API_RATELIMIT_REDIS_H
#define CMS_API_RATELIMIT_REDIS_H

#include "core/config.h"
#include "guard/ratelimit_table.h"

struct rate_redis;

/* Takes the [rate_limit] redis settings of cfg; connects at the first hit. */
struct rate_redis *rate_redis_new(const struct config *cfg);
void rate_redis_free(struct rate_redis *r);

/* Counts one hit of client_key against limit at now (seconds, the
 * caller's clock: the window's end is now plus the counter's time to
 * live). Returns 0, or -1 when Redis could not be asked (now, or earlier
 * this second). */
int rate_redis_hit(struct rate_redis *r, const char *client_key, long limit, long long now,
                   struct rate_result *res);

/* The same without counting: what a hit would find (res->allowed when
 * one more fits, res->count the window's hits so far). */
int rate_redis_look(struct rate_redis *r, const char *client_key, long limit, long long now,
                    struct rate_result *res);

/* Where Redis is ("127.0.0.1:6379" or a socket path) and, after a failed
 * hit, why, for the log. */
const char *rate_redis_where(const struct rate_redis *r);
const char *rate_redis_problem(const struct rate_redis *r);

#endif
