/* ratelimit_redis: rate-limit counters in Redis; see ratelimit_redis.h. */
#include "autoconfig.h"

#include "guard/ratelimit_redis.h"

#include <hiredis.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>

#include "lib/siphash.h"
#include "lib/strbuf.h"

/* KEYS[1] the counter; ARGV[1] the limit, ARGV[2] the window in ms,
 * ARGV[3] 1 to count the hit, 0 only to look. Returns {allowed, count,
 * milliseconds left}. A counter found without an expiry (written by hand)
 * is given one rather than left forever; a look at one that does not
 * exist makes nothing (PEXPIRE of a missing key is a no-op). */
static const char hit_script[] =
	"local n = tonumber(redis.call('GET', KEYS[1]) or '0') or 0\n"
	"local allowed = 0\n"
	"if n < tonumber(ARGV[1]) then\n"
	"  if ARGV[3] == '1' then n = redis.call('INCR', KEYS[1]) end\n"
	"  allowed = 1\n"
	"end\n"
	"local ttl = redis.call('PTTL', KEYS[1])\n"
	"if ttl < 0 then\n"
	"  redis.call('PEXPIRE', KEYS[1], ARGV[2])\n"
	"  ttl = tonumber(ARGV[2])\n"
	"end\n"
	"return {allowed, n, ttl}\n";

/* The same on every machine, so that they name a client alike. */
static const uint8_t name_key[SIPHASH_KEY_LEN] = {
	0x63, 0x6d, 0x73, 0x2d, 0x61, 0x70, 0x69, 0x20, 0x72, 0x61, 0x74, 0x65, 0x20, 0x6b, 0x65, 0x79,
};

struct rate_redis {
	char *host, *socket, *password, *prefix; /* owned */
	long port, database, timeout_ms;
	char *where;           /* owned */
	redisContext *ctx;     /* owned, NULL when not connected */
	long long next_try;    /* no connection is tried before this second */
	struct strbuf problem; /* owned: why the last hit failed */
};

struct rate_redis *rate_redis_new(const struct config *cfg)
{
	struct rate_redis *r = xcalloc(1, sizeof *r);
	r->host = xstrdup(cfg->rate_redis_host);
	r->socket = xstrdup(cfg->rate_redis_socket);
	r->password = xstrdup(cfg->rate_redis_password);
	r->prefix = xstrdup(cfg->rate_redis_prefix);
	r->port = cfg->rate_redis_port;
	r->database = cfg->rate_redis_database;
	r->timeout_ms = cfg->rate_redis_timeout_ms;
	struct strbuf where = STRBUF_INIT;
	if (*r->socket)
		strbuf_addstr(&where, r->socket);
	else
		strbuf_addf(&where, "%s:%ld", r->host, r->port);
	r->where = strbuf_detach(&where, NULL);
	r->next_try = -1;
	return r;
}

static void disconnect(struct rate_redis *r)
{
	if (r->ctx)
		redisFree(r->ctx);
	r->ctx = NULL;
}

void rate_redis_free(struct rate_redis *r)
{
	if (!r)
		return;
	disconnect(r);
	free(r->host);
	free(r->socket);
	free(r->password);
	free(r->prefix);
	free(r->where);
	strbuf_release(&r->problem);
	free(r);
}

const char *rate_redis_where(const struct rate_redis *r)
{
	return r->where;
}

const char *rate_redis_problem(const struct rate_redis *r)
{
	return strbuf_str(&r->problem);
}

static void set_problem(struct rate_redis *r, const char *what, const char *detail)
{
	strbuf_reset(&r->problem);
	strbuf_addf(&r->problem, "%s%s%s", what, detail && *detail ? ": " : "", detail ? detail : "");
}

/* Sends one command; the reply, or NULL with the problem set. An error
 * reply counts as a failure too. */
static redisReply *ask(struct rate_redis *r, const char *what, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	redisReply *reply = redisvCommand(r->ctx, fmt, ap);
	va_end(ap);
	if (!reply) {
		set_problem(r, what, r->ctx->errstr);
		return NULL;
	}
	if (reply->type == REDIS_REPLY_ERROR) {
		set_problem(r, what, reply->str);
		freeReplyObject(reply);
		return NULL;
	}
	return reply;
}

static int connect_redis(struct rate_redis *r)
{
	struct timeval tv = {r->timeout_ms / 1000, (r->timeout_ms % 1000) * 1000};
	r->ctx = *r->socket ? redisConnectUnixWithTimeout(r->socket, tv)
	                    : redisConnectWithTimeout(r->host, (int)r->port, tv);
	if (!r->ctx || r->ctx->err) {
		set_problem(r, "cannot connect", r->ctx ? r->ctx->errstr : "out of memory");
		return -1;
	}
	redisReply *reply = NULL;
	if (redisSetTimeout(r->ctx, tv) != REDIS_OK) {
		set_problem(r, "cannot set a timeout", r->ctx->errstr);
		return -1;
	}
	if (*r->password) {
		if (!(reply = ask(r, "AUTH", "AUTH %s", r->password)))
			return -1;
		freeReplyObject(reply);
	}
	if (r->database != 0) {
		if (!(reply = ask(r, "SELECT", "SELECT %ld", r->database)))
			return -1;
		freeReplyObject(reply);
	}
	return 0;
}

static bool integer_at(const redisReply *reply, size_t i, long long *out)
{
	if (reply->type != REDIS_REPLY_ARRAY || reply->elements <= i ||
	    reply->element[i]->type != REDIS_REPLY_INTEGER)
		return false;
	*out = reply->element[i]->integer;
	return true;
}

/* A hit (counting) or a look at client_key's counter; see the script. */
static int ask_counter(struct rate_redis *r, const char *client_key, long limit, long long now,
                       bool counting, struct rate_result *res)
{
	memset(res, 0, sizeof *res);
	if (!r->ctx) {
		if (now < r->next_try) {
			set_problem(r, "not tried again before the next second", NULL);
			return -1;
		}
		if (connect_redis(r) != 0)
			goto failed;
	}
	char name[17];
	snprintf(name, sizeof name, "%016" PRIx64, siphash24(name_key, client_key, strlen(client_key)));
	redisReply *reply = ask(r, "EVAL", "EVAL %s 1 %sratelimit:%s %ld %d %d", hit_script,
	                        r->prefix, name, limit, RATE_WINDOW_SECONDS * 1000, counting ? 1 : 0);
	if (!reply)
		goto failed;
	long long allowed, count, ttl_ms;
	bool whole = integer_at(reply, 0, &allowed) && integer_at(reply, 1, &count) &&
	             integer_at(reply, 2, &ttl_ms);
	freeReplyObject(reply);
	if (!whole) {
		set_problem(r, "EVAL", "an answer that is not three integers");
		goto failed;
	}
	if (ttl_ms < 0 || ttl_ms > RATE_WINDOW_SECONDS * 1000)
		ttl_ms = RATE_WINDOW_SECONDS * 1000;
	res->allowed = allowed == 1;
	res->count = count;
	/* Whole seconds, rounded up: a client told to wait 0 would not. */
	res->window_end = now + (ttl_ms + 999) / 1000;
	if (res->window_end == now)
		res->window_end = now + 1;
	return 0;
failed:
	disconnect(r);
	r->next_try = now + 1;
	return -1;
}

int rate_redis_hit(struct rate_redis *r, const char *client_key, long limit, long long now,
                   struct rate_result *res)
{
	return ask_counter(r, client_key, limit, now, true, res);
}

int rate_redis_look(struct rate_redis *r, const char *client_key, long limit, long long now,
                    struct rate_result *res)
{
	return ask_counter(r, client_key, limit, now, false, res);
}
