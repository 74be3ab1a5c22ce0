/*
 * cache_entry: the stored form of a cached answer, the same bytes for
 * every driver (file, redis, a plug-in): the full key (checked on read,
 * so a 64-bit hash can name the entry), the expiry, the status, the
 * headers that belong to the answer (never those made per request: the
 * rate limit's, which describe one client's request, and the HTTP
 * caching ones, ETag, Cache-Control, Vary and Content-Encoding, which
 * http_cache.h sets on every answer), the body, the body's hash (its
 * ETag, so that a hit does not hash the body again) and a gzip copy of
 * the body made once, when the answer is stored (when the body is bigger
 * than CACHE_ENTRY_GZIP_MIN bytes and the copy is smaller).
 *
 * A checksum of the whole entry is checked on every read: an entry whose
 * bytes changed (a damaged disk, a torn or foreign write, an edit in
 * place that keeps the length) is refused, never served.
 */
#ifndef CMS_API_CACHE_ENTRY_H
#define CMS_API_CACHE_ENTRY_H

#include <stddef.h>

#include "http/response.h"
#include "lib/strbuf.h"

/* Bodies this long or shorter get no gzip copy: the copy would save a
 * few bytes, if any, at the price of a compression. */
#define CACHE_ENTRY_GZIP_MIN 256

/* Appends the stored form of res under key, valid until expires (seconds
 * since the epoch), to out. */
void cache_entry_encode(const char *key, long long expires, const struct response *res,
                        struct strbuf *out);

/* Returns 0 and fills res (reset first: status, headers, body, etag,
 * gzip and expires) when data is a whole, intact entry for key that has
 * not expired at now (seconds since the epoch), else -1 with res
 * untouched. */
int cache_entry_decode(const char *data, size_t len, const char *key, long long now,
                       struct response *res);

/* Writes the checksum of the entry data[0..len) into it. The encoder
 * does; so do the tests and the fuzzer, which make entries by hand and
 * must get past the checksum to reach the rest of the decoder. Returns
 * -1 when data does not begin like an entry. */
int cache_entry_seal(char *data, size_t len);

#endif
