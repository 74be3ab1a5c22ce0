/*
 * guard: the checks a request passes before anything else reads it
 * (spec §6): the bearer token, shared or per user. (The rate limit, which
 * comes after it, is ratelimit.h.)
 *
 * Without `[api] middleware = auth:token`, the shared `[api] auth_token`
 * (when set) is the one token every request must carry. With it, every
 * request must carry a per-user token of the [auth] database (tokens.h)
 * whose owner is still a user of the site; the shared auth_token, when
 * set, is accepted as well, and reads whatever the config enables. A
 * per-user token reads only what its abilities cover (abilities.h; the
 * router's second gate).
 */
#ifndef CMS_API_GUARD_H
#define CMS_API_GUARD_H

#include <stdbool.h>
#include <stdint.h>

#include "core/config.h"
#include "guard/tokens.h"
#include "http/error.h"
#include "http/request.h"
#include "site/snapshot.h"

/* Whether cfg asks for per-user tokens. */
bool guard_per_user(const struct config *cfg);

/* Whether every request needs a token: the shared [api] auth_token, or
 * per-user tokens. */
bool guard_token_required(const struct config *cfg);

#define GUARD_KNOWN_OWNERS 8

/* What the guard keeps from one request to the next (one per worker). */
struct guard_state {
	struct token_reader tokens; /* owned: the per-user token database */
	/* Owners found among the users of the index of serial known_index:
	 * looking one up reads every user, so it is done once per index. */
	char *known[GUARD_KNOWN_OWNERS]; /* owned */
	size_t nknown;
	uint64_t known_index;
};

/* Sets up the state for the token database at database ("" for none). */
void guard_state_init(struct guard_state *g, const char *database);
void guard_state_free(struct guard_state *g);

/*
 * Returns 0 when the request may pass the token check; grant (the
 * caller's, initialised, emptied first) then holds the per-user token it
 * carried (grant->id 0: none, or the shared token, which sets
 * grant->shared). Either is a verified token, which the rate limit may
 * key a budget on (ratelimit.h); a pass with neither needed no token.
 * Otherwise returns the refusal's status with its message in e: 401
 * `Unauthenticated.` (no token, a wrong one, or one whose owner is not a
 * user in snap, the site's index, whose serial index_serial changes
 * whenever another index takes its place; NULL: no index, no user; its
 * answer carries `WWW-Authenticate: Bearer`), or 503 `Service
 * Unavailable` when the token database cannot be read (never an open
 * door). now is the moment expiries are measured against.
 */
int guard_token(struct guard_state *g, const struct config *cfg, const struct snapshot *snap,
                uint64_t index_serial, const struct request *req, long long now,
                struct token_grant *grant, struct http_error *e);

/* The token of an "Authorization: Bearer <token>" header. The header must
 * be exactly the scheme word Bearer (any case), one or more spaces and
 * the token: printable ASCII without spaces or commas. Surrounding spaces
 * and tabs are allowed (HTTP's optional whitespace); anything else before
 * the scheme or after the token (a second credential, a second header
 * joined on by the web server with ", ") makes it no token. Returns a
 * pointer into header and its length, or NULL. */
const char *bearer_token(const char *header, size_t *len);

#endif
