/* ratelimit: budgets per client, shared by workers and machines; see ratelimit.h. */
#include "autoconfig.h"

#include "guard/ratelimit.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "change/shared.h"
#include "core/log.h"

void rate_limiter_init(struct rate_limiter *rl, const struct config *cfg, bool serving)
{
	memset(rl, 0, sizeof *rl);
	rl->limit = serving ? cfg->rate_per_minute : 0;
	if (rl->limit > RATE_MAX_LIMIT)
		rl->limit = RATE_MAX_LIMIT;
	if (rl->limit <= 0)
		return;
	rl->by = cfg->rate_by;
	const struct strlist *list = &cfg->rate_trusted_proxies;
	rl->trusted = xcalloc(list->len ? list->len : 1, sizeof *rl->trusted);
	for (size_t i = 0; i < list->len; i++)
		/* The config checked every item when it was loaded. */
		if (netrange_parse(list->items[i], &rl->trusted[rl->ntrusted]))
			rl->ntrusted++;
	rl->table_path = shared_ratelimit_path(cfg);
	if (cfg->rate_driver == RATE_DRIVER_REDIS)
		rl->redis = rate_redis_new(cfg);
}

void rate_limiter_free(struct rate_limiter *rl)
{
	free(rl->trusted);
	free(rl->table_path);
	rate_table_close(rl->shared);
	rate_table_close(rl->own);
	rate_redis_free(rl->redis);
	memset(rl, 0, sizeof *rl);
}

/* The address of req, as the limit names it. */
static void address_key(const struct rate_limiter *rl, const struct request *req,
                        struct strbuf *out)
{
	char client[NETADDR_TEXT_LEN];
	netaddr_client(req->remote_addr ? req->remote_addr : "", req->forwarded_for,
	               rl->trusted, rl->ntrusted, client);
	strbuf_addf(out, "ip:%s", client);
}

void rate_limiter_client_key(const struct rate_limiter *rl, const struct request *req,
                             const struct token_grant *verified, struct strbuf *out)
{
	if (rl->by == RATE_BY_TOKEN && verified && verified->id > 0)
		strbuf_addf(out, "token:%lld", verified->id);
	else if (rl->by == RATE_BY_TOKEN && verified && verified->shared)
		strbuf_addstr(out, "token:shared");
	else
		address_key(rl, req, out);
}

/* The table of this machine: the file's, looked at again once a second
 * (it may have been removed or replaced), else this process's own. */
static struct rate_table *local_table(struct rate_limiter *rl, long long now)
{
	if (rl->table_path && (!rl->looked || now != rl->looked_at)) {
		rl->looked = true;
		rl->looked_at = now;
		if (rl->shared && !rate_table_current(rl->shared, rl->table_path)) {
			rate_table_close(rl->shared);
			rl->shared = NULL;
		}
		if (!rl->shared) {
			rl->shared = rate_table_open(rl->table_path, RATE_TABLE_BUCKETS);
			if (!rl->shared)
				log_every_minute(LOG_LEVEL_WARNING,
				                 "rate limit: cannot use the table %s (%s): each worker "
				                 "counts its clients alone until it can, so a client may "
				                 "get a budget per worker meanwhile",
				                 rl->table_path, strerror(errno));
		}
	}
	if (rl->shared)
		return rl->shared;
	if (!rl->own)
		rl->own = rate_table_private(RATE_TABLE_BUCKETS);
	return rl->own;
}

/* An outage is logged once per machine when it starts and once when it
 * ends: the workers share the news through the table file. */
static void note_redis(struct rate_limiter *rl, bool answered, struct rate_table *t)
{
	if (answered == !rl->redis_down)
		return;
	rl->redis_down = !answered;
	bool first = t == rl->shared ? rate_table_flag_set(t, !answered) : true;
	if (!first)
		return;
	if (answered)
		log_warning("rate limit: Redis at %s answers again: requests are counted there again",
		            rate_redis_where(rl->redis));
	else
		log_warning("rate limit: Redis at %s cannot be asked (%s): requests are counted on "
		            "this machine alone until it answers (asked again at most once a second)",
		            rate_redis_where(rl->redis), rate_redis_problem(rl->redis));
}

/* Counts a hit of key at now (count), or only looks at what it would
 * find: in Redis when it is the driver and answers, else in the table of
 * this machine. */
static void ask(struct rate_limiter *rl, const char *key, long long now, bool count,
                struct rate_result *r)
{
	struct rate_table *t = local_table(rl, now);
	if (rl->redis) {
		bool answered = (count ? rate_redis_hit : rate_redis_look)(rl->redis, key, rl->limit,
		                                                           now, r) == 0;
		note_redis(rl, answered, t);
		if (answered)
			return;
	}
	uint64_t k = rate_table_key(t, key);
	if (!count) {
		rate_table_look(t, k, rl->limit, now, r);
		return;
	}
	if (rate_table_hit(t, k, rl->limit, now, r))
		return;
	log_every_minute(LOG_LEVEL_WARNING, "rate limit: no room in the table %s for another "
	                 "client: its requests pass uncounted until buckets free up",
	                 t == rl->shared ? rl->table_path : "of this worker");
	r->allowed = true;
	r->count = 1;
	r->window_end = now + RATE_WINDOW_SECONDS;
}

/* The verdict of r, what a hit or a look at now found. */
static void verdict_of(const struct rate_limiter *rl, const struct rate_result *r, long long now,
                       struct rate_verdict *v)
{
	v->applies = true;
	v->allowed = r->allowed;
	v->limit = rl->limit;
	v->remaining = r->allowed && r->count < rl->limit ? rl->limit - r->count : 0;
	long long wait = r->window_end - now;
	v->retry_after = wait < 1 ? 1 : wait > RATE_WINDOW_SECONDS ? RATE_WINDOW_SECONDS : (long)wait;
	v->reset = now + v->retry_after;
}

void rate_limiter_look(struct rate_limiter *rl, const struct request *req, long long now,
                       struct rate_verdict *v)
{
	memset(v, 0, sizeof *v);
	if (rl->limit <= 0)
		return;
	struct strbuf key = STRBUF_INIT;
	address_key(rl, req, &key);
	struct rate_result r;
	ask(rl, key.ptr, now, false, &r);
	strbuf_release(&key);
	if (!r.allowed)
		verdict_of(rl, &r, now, v);
}

void rate_limiter_hit(struct rate_limiter *rl, const struct request *req,
                      const struct token_grant *verified, long long now, struct rate_verdict *v)
{
	memset(v, 0, sizeof *v);
	if (rl->limit <= 0)
		return;
	struct strbuf key = STRBUF_INIT;
	rate_limiter_client_key(rl, req, verified, &key);
	struct rate_result r;
	ask(rl, key.ptr, now, true, &r);
	strbuf_release(&key);
	verdict_of(rl, &r, now, v);
}

static void set_number_header(struct response *res, const char *name, long long n)
{
	char text[24];
	snprintf(text, sizeof text, "%lld", n);
	response_set_header(res, name, text);
}

void rate_verdict_headers(const struct rate_verdict *v, struct response *res)
{
	if (!v->applies)
		return;
	set_number_header(res, "X-RateLimit-Limit", v->limit);
	set_number_header(res, "X-RateLimit-Remaining", v->remaining);
	if (v->allowed)
		return;
	/* The refusal's own: when the client may come back. */
	set_number_header(res, "Retry-After", v->retry_after);
	set_number_header(res, "X-RateLimit-Reset", v->reset);
}

int rate_verdict_refusal(const struct rate_verdict *v, struct http_error *e)
{
	if (!v->applies || v->allowed)
		return 0;
	return http_error_set(e, 429, "Too Many Attempts.");
}
