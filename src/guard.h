/*
 * guard: the checks a request passes before anything else reads it
 * (spec §6): the bearer token. The rate limit joins it here.
 */
#ifndef CMS_API_GUARD_H
#define CMS_API_GUARD_H

#include <stdbool.h>

#include "config.h"
#include "request.h"
#include "response.h"

/* True when the request may pass the token check: no auth_token is
 * configured, or the Authorization header carries it as a bearer token
 * (scheme word case-insensitive, compared in constant time). Otherwise
 * res becomes the 401 answer. */
bool guard_token(const struct config *cfg, const struct request *req, struct response *res);

/* The token of an "Authorization: Bearer <token>" header. The header must
 * be exactly the scheme word Bearer (any case), one or more spaces and
 * the token: printable ASCII without spaces or commas. Surrounding spaces
 * and tabs are allowed (HTTP's optional whitespace); anything else before
 * the scheme or after the token (a second credential, a second header
 * joined on by the web server with ", ") makes it no token. Returns a
 * pointer into header and its length, or NULL. */
const char *bearer_token(const char *header, size_t *len);

/* Compares a[0..alen) with b[0..blen) in time that depends only on blen. */
bool constant_time_equal(const char *a, size_t alen, const char *b, size_t blen);

#endif
