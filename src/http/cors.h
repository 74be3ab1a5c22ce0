/*
 * cors: Cross-Origin Resource Sharing (the Fetch standard's CORS
 * protocol), so that a page on another origin can call the API. Off
 * unless [api] cors_origins names origins ("*": every one); then:
 *
 *  - every answer under the route, errors included (a page must be able
 *    to read a 401, a 404 or a 429), to a request whose Origin is allowed
 *    carries Access-Control-Allow-Origin (the origin itself, or "*" when
 *    every origin is allowed and no credentials are offered),
 *    Access-Control-Expose-Headers (ETag and the rate limit's headers:
 *    what a script may read beyond the simple ones) and, with
 *    cors_credentials, Access-Control-Allow-Credentials: true (never
 *    with "*": config.c refuses that);
 *  - every answer carries "Vary: Origin" beside what HTTP caching puts in
 *    Vary: whether the headers above are there depends on the Origin;
 *  - a preflight (OPTIONS with Origin and Access-Control-Request-Method)
 *    is answered 204 by cors_answer_preflight: the methods (GET, HEAD),
 *    the request headers a page may send (Authorization, If-None-Match),
 *    Access-Control-Max-Age = cors_max_age. It never reaches the content
 *    or the cache; app.c counts it once against the rate limit. A
 *    preflight from an origin not allowed gets the 204 without any
 *    Access-Control-* header: the browser then refuses the call.
 *
 * The headers are made per request, so the response cache never stores
 * them (cache_entry.c). The static fast path does not add them: a config
 * with both is refused (config.c, validate_cors).
 */
#ifndef CMS_API_CORS_H
#define CMS_API_CORS_H

#include <stdbool.h>

#include "core/config.h"
#include "http/request.h"
#include "http/response.h"

/* Whether cfg turns CORS on. */
bool cors_on(const struct config *cfg);

/* Whether req is a CORS preflight that cfg answers (CORS on, OPTIONS,
 * with Origin and Access-Control-Request-Method). */
bool cors_is_preflight(const struct config *cfg, const struct request *req);

/* Makes res the 204 answer to the preflight req (cors_is_preflight). */
void cors_answer_preflight(const struct config *cfg, const struct request *req,
                           struct response *res);

/* Adds the CORS headers above to an answered res, after HTTP caching has
 * set its Vary. Does nothing with CORS off. */
void cors_add_headers(const struct config *cfg, const struct request *req, struct response *res);

#endif
