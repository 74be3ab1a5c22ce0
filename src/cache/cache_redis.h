/*
 * cache_redis: the Redis driver ([cache] driver = redis), built in, for
 * several machines sharing one cache.
 *
 * An entry is one string, PREFIX + hex(generation) + ":" + hex(key hash),
 * set with an expiry of [cache] expiry (SET ... EX). The generation is the
 * content signature at which the cache generation last moved
 * (generation.h): the same on every machine that serves the same files,
 * so machines share entries, and an edit that each machine's watcher sees
 * changes every name at once; no entry of the old content can be asked
 * for again. The watcher's invalidate unlinks the old generation's keys
 * early (they would expire anyway).
 *
 * Its keys in [cache]: host (127.0.0.1), port (6379), socket (a unix
 * socket path, used instead of host and port), database (0), password
 * (none), prefix ("cms-api:") and timeout (milliseconds, 50: connecting
 * and each command together, per request). Redis is asked with that
 * timeout; when it cannot be (refused, timed out, gone), the call fails,
 * the connection is dropped and no new one is tried before a second has
 * passed, so an outage costs a process at most one timeout a second. A
 * connection found closed (Redis restarted) is made again at once, within
 * the same timeout. Error replies (a full Redis refusing SET) fail the
 * call but keep the connection.
 */
#ifndef CMS_API_CACHE_REDIS_H
#define CMS_API_CACHE_REDIS_H

#include <stddef.h>
#include <stdint.h>

#include "cms-api/cache-driver.h"

/* The driver. init reads the options (it does not connect: a Redis down
 * when a worker starts must not keep it from caching later); an unknown
 * key or a bad value fails with "[cache] KEY: message". */
extern const struct cms_api_cache_driver cache_redis_driver;

/* The option init refused: its index in options, or nopt when it is not
 * one option's fault. Returns 0 when init would accept them. */
int cache_redis_check_options(const struct cms_api_cache_option *options, size_t noptions,
                              size_t *bad, char *error, size_t error_size);

/* Where Redis is ("127.0.0.1:6379" or the socket's path) and why the last
 * call failed, for the log. */
const char *cache_redis_where(void *state);
const char *cache_redis_problem(void *state);

/* Connects and asks PING (cms-api check). 0 or -1 (see problem). */
int cache_redis_ping(void *state);

/* The entries of generation and the bytes of their values (cache stats).
 * 0 or -1. */
int cache_redis_count(void *state, uint64_t generation, long long *entries, long long *bytes);

/* Unlinks every entry under the prefix, of every generation (cache clear);
 * the number removed, or -1. */
long long cache_redis_clear(void *state);

#endif
