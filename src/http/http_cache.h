/*
 * http_cache: what an answer tells clients and HTTP caches (RFC 9110
 * §8.8.3 and §13, RFC 9111), and the form it goes out in. After the
 * answer is made, from the cache or not, http_cache_answer sets:
 *
 *  - ETag on every 200: the body's 64-bit hash as 16 hex digits in
 *    quotes, "0123456789abcdef", or "0123456789abcdef-gz" for the gzip
 *    form, since a strong validator names one representation, not one
 *    body (RFC 9110 §8.8.3.3). A stored answer brings its hash along, so
 *    a hit does not hash the body again. Errors and 404s get none (RFC
 *    9110 §13.2.1: preconditions do not apply to them).
 *  - the 304: an If-None-Match that names the ETag of either form of the
 *    body (compared weakly: W/"..." counts, as §13.1.2 says), or "*",
 *    turns the 200 into a 304 without a body, carrying the ETag of the
 *    form the client holds (the one it named; for "*" or both, the form
 *    it would get), so that its cache finds the copy to refresh (RFC 9111
 *    §4.3.4).
 *  - Cache-Control, on every answer: see http_cache_control() in
 *    http_cache.c for the reasons.
 *  - Vary, on every answer: Accept-Encoding, and Authorization when a
 *    token is required.
 *  - gzip: a 200 that brings a gzip copy along (a stored answer, see
 *    cache_entry.h) goes out as that copy, with Content-Encoding: gzip,
 *    when the request's Accept-Encoding allows gzip. Nothing is
 *    compressed here: an answer without a copy goes out as it is.
 */
#ifndef CMS_API_HTTP_CACHE_H
#define CMS_API_HTTP_CACHE_H

#include <stdbool.h>
#include <stdint.h>

#include "http/request.h"
#include "http/response.h"

/* What the answer's caching depends on besides the request. */
struct http_cache_policy {
	bool stored;         /* the answer came from the response cache or goes into it */
	long long max_age;   /* when stored: the seconds it stays there */
	bool token_required; /* every request needs a token ([api] auth_token, per-user tokens) */
};

/* Sets the headers above on an answered res and chooses its form (304,
 * gzip or the body) for req. */
void http_cache_answer(const struct http_cache_policy *p, const struct request *req,
                       struct response *res);

/* The pieces, for the tests. */

/* Whether an Accept-Encoding value lets gzip be sent: "gzip" or
 * "x-gzip", or else "*", with a q-value above 0, and no higher q-value
 * given to "identity". NULL (no header) does not. */
bool http_accepts_gzip(const char *accept_encoding);

/* Which of the body's ETags an If-None-Match value names (bits). */
enum {
	HTTP_MATCH_IDENTITY = 1, /* "<hash>" or W/"<hash>" */
	HTTP_MATCH_GZIP = 2,     /* "<hash>-gz" or W/"<hash>-gz" */
	HTTP_MATCH_ANY = 4,      /* "*" */
};
unsigned http_if_none_match(const char *if_none_match, uint64_t hash);

/* The ETag of a body's hash, quotes included: "<16 hex>" or "<16 hex>-gz". */
#define HTTP_ETAG_SIZE (2 + 16 + 3 + 1)
void http_etag(uint64_t hash, bool gzip, char out[HTTP_ETAG_SIZE]);

#endif
