/*
 * cache_entry: the stored form of a cached answer, the same bytes for
 * every driver (file, redis, a plug-in): the full key (checked on read,
 * so a 64-bit hash can name the entry), the expiry, the status, the
 * headers that belong to the answer (never the rate limit's, which
 * describe one client's request) and the body.
 */
#ifndef CMS_API_CACHE_ENTRY_H
#define CMS_API_CACHE_ENTRY_H

#include <stddef.h>

#include "response.h"
#include "strbuf.h"

/* Appends the stored form of res under key, valid until expires (seconds
 * since the epoch), to out. */
void cache_entry_encode(const char *key, long long expires, const struct response *res,
                        struct strbuf *out);

/* Returns 0 and fills res (reset first) when data is a whole entry for
 * key that has not expired at now (seconds since the epoch), else -1
 * with res untouched. */
int cache_entry_decode(const char *data, size_t len, const char *key, long long now,
                       struct response *res);

#endif
