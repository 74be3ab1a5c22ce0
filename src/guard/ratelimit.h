/*
 * ratelimit: the rate limit of spec §3 and §5, after Laravel's throttle.
 *
 * Each client has a budget of [rate_limit] per_minute requests per window
 * of 60 seconds, the window starting at its first request. A request
 * within the budget is counted and answered as usual, with
 * X-RateLimit-Limit and X-RateLimit-Remaining; one beyond it is not
 * counted and gets 429 {"message":"Too Many Attempts."} with Retry-After
 * (seconds until the window ends), X-RateLimit-Reset (when, in seconds
 * since the epoch) and X-RateLimit-Remaining: 0.
 *
 * The client is its address (by = ip), or the token the guard verified
 * (by = token): a per-user token's id, or the shared auth_token, one budget
 * for all who hold it. Never the header as sent: a made-up token, or a
 * real one spelt another way ("01|secret" for token 1), is no new budget.
 * A request whose token was not verified (none, a wrong one, or no token
 * needed) counts as its address. The address is REMOTE_ADDR, unless that
 * is one of trusted_proxies: then it is read from X-Forwarded-For
 * (netaddr_client).
 *
 * Guessing a token costs the address its budget (app.c's order): where a
 * token is needed, the address's budget is looked at before the token is
 * checked (rate_limiter_look; a 429 once it is spent, the token never
 * checked), and a request the guard refuses (401, 503) is counted against
 * the address and carries the headers. Looking and counting are two steps,
 * so requests checked at the same moment by several workers may each pass
 * the look: at most one a worker beyond the budget.
 *
 * Where the counts live:
 *  - driver = file: a table in the cache directory that every worker of
 *    the machine maps (ratelimit_table.h), exact however many workers
 *    count at once. The file is looked at again at most once a second (a
 *    stat): one that was removed (the directory cleared) or replaced is
 *    mapped afresh, its counts starting over. While it cannot be made or
 *    mapped (a read-only or missing directory), each worker counts in a
 *    table of its own, so a client may get up to a budget per worker,
 *    and says so in the log at most once a minute.
 *  - driver = redis: in Redis (ratelimit_redis.h), shared by every
 *    machine. A hit Redis does not answer is counted in the file table
 *    instead; an outage is logged once per machine when it starts and
 *    once when it ends (the file table carries the flag).
 *  - A table with no room for another client (tens of thousands at once,
 *    or a crowd landing in one neighbourhood) lets that client's request
 *    pass uncounted, with the headers of a first request, and says so in
 *    the log at most once a minute: failing closed would turn a flood of
 *    addresses into a refusal of everyone new.
 *
 * The limit applies to requests a web server sends (FastCGI, CGI), not to
 * `cms-api get`, which is the operator at the console.
 */
#ifndef CMS_API_RATELIMIT_H
#define CMS_API_RATELIMIT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/config.h"
#include "guard/ratelimit_redis.h"
#include "guard/ratelimit_table.h"
#include "guard/tokens.h"
#include "http/error.h"
#include "http/request.h"
#include "http/response.h"
#include "lib/netaddr.h"
#include "lib/strbuf.h"

/* What the limit says of one request. */
struct rate_verdict {
	bool applies;     /* the limit is on: the answer carries X-RateLimit-* */
	bool allowed;     /* false: the answer is the 429 */
	long limit;
	long remaining;
	long long reset;  /* when the window ends, seconds since the epoch */
	long retry_after; /* seconds until then (1 to 60) */
};

struct rate_limiter {
	long limit;                /* per window; 0: off */
	enum rate_by by;
	struct netrange *trusted;  /* owned: trusted_proxies */
	size_t ntrusted;
	char *table_path;          /* owned; NULL when no cache directory is set */
	struct rate_table *shared; /* owned: the table file, NULL while it cannot be used */
	struct rate_table *own;    /* owned: this process's table, made when first needed */
	bool looked;               /* the file was looked at, at second looked_at */
	long long looked_at;
	struct rate_redis *redis;  /* owned; NULL unless driver = redis */
	bool redis_down;           /* the last time this process asked, Redis did not answer */
};

/* Sets rl up for cfg (which it does not keep). serving: the requests come
 * from a web server; otherwise the limit is off. */
void rate_limiter_init(struct rate_limiter *rl, const struct config *cfg, bool serving);
void rate_limiter_free(struct rate_limiter *rl);

/* Looks, counting nothing, at what the address of req has left at now:
 * for a request whose token is yet to be checked. When the budget is
 * spent, v is the 429's verdict; otherwise v does not apply (the hit that
 * follows says what the answer carries). */
void rate_limiter_look(struct rate_limiter *rl, const struct request *req, long long now,
                       struct rate_verdict *v);

/* Counts req at now (seconds since the epoch) and says what its answer
 * must carry. verified: the grant of the token the guard passed req with
 * (guard_token), or NULL when it refused req. */
void rate_limiter_hit(struct rate_limiter *rl, const struct request *req,
                      const struct token_grant *verified, long long now, struct rate_verdict *v);

/* The text req is counted under, appended to out: "ip:192.0.2.1", or by
 * token "token:7" (per-user token 7) or "token:shared" (auth_token) when
 * verified (as for rate_limiter_hit) holds one. */
void rate_limiter_client_key(const struct rate_limiter *rl, const struct request *req,
                             const struct token_grant *verified, struct strbuf *out);

/* Returns 0 when v lets the request through, else 429 with its message,
 * `Too Many Attempts.`, in e. */
int rate_verdict_refusal(const struct rate_verdict *v, struct http_error *e);

/* Adds X-RateLimit-Limit and X-RateLimit-Remaining to an answer when the
 * limit applies, and to the 429 of a verdict that refuses Retry-After and
 * X-RateLimit-Reset after them. The cache never stores them (cache.h). */
void rate_verdict_headers(const struct rate_verdict *v, struct response *res);

#endif
