/* cache_redis: the Redis cache driver; see cache_redis.h. */
#include "autoconfig.h"

#include "cache/cache_redis.h"

#include <errno.h>
#include <hiredis.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/strbuf.h"

#define BACKOFF_MS 1000
/* SCAN's batch, and how long the watcher may spend unlinking an old
 * generation's keys (the rest expire by themselves). */
#define SCAN_COUNT "500"
#define INVALIDATE_BUDGET_MS 1000

struct settings {
	char *host, *socket, *password, *prefix; /* owned */
	long port, database, timeout_ms;
};

struct redis_state {
	struct settings set;
	char *where;              /* owned */
	redisContext *ctx;        /* owned, NULL when not connected */
	long long wait_ms;        /* the socket's timeout now, -1 unknown */
	long long next_try_ms;    /* no connection is tried before (monotonic) */
	struct strbuf problem;    /* owned: why the last call failed */
	struct strbuf name;       /* owned: scratch for a key's name */
};

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* --- options --- */

static const char *const option_names[] = {"host", "port", "socket", "database",
                                           "password", "prefix", "timeout", NULL};

static bool known_option(const char *name)
{
	for (size_t i = 0; option_names[i]; i++)
		if (strcmp(name, option_names[i]) == 0)
			return true;
	return false;
}

/* A whole decimal number from min to max. */
static bool parse_number(const char *s, long min, long max, long *out)
{
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	char *end;
	long n = strtol(s, &end, 10);
	if (errno || *end || n < min || n > max)
		return false;
	*out = n;
	return true;
}

static void settings_free(struct settings *s)
{
	free(s->host);
	free(s->socket);
	free(s->password);
	free(s->prefix);
	memset(s, 0, sizeof *s);
}

static void set_string(char **field, const char *value)
{
	free(*field);
	*field = xstrdup(value);
}

/* One option into s; false with the message in error. */
static bool apply_option(struct settings *s, const struct cms_api_cache_option *o, char *error,
                         size_t error_size)
{
	const char *v = o->value;
	if (!known_option(o->name)) {
		snprintf(error, error_size, "[cache] %s: not a key of driver redis (host, port, socket, "
		         "database, password, prefix, timeout)", o->name);
		return false;
	}
	if (strcmp(o->name, "port") == 0 && !parse_number(v, 1, 65535, &s->port)) {
		snprintf(error, error_size, "[cache] port: not a port number (1 to 65535): %s", v);
		return false;
	}
	if (strcmp(o->name, "database") == 0 && !parse_number(v, 0, 1000000, &s->database)) {
		snprintf(error, error_size, "[cache] database: not a database number (0 or more): %s",
		         v);
		return false;
	}
	if (strcmp(o->name, "timeout") == 0 && !parse_number(v, 1, 60000, &s->timeout_ms)) {
		snprintf(error, error_size, "[cache] timeout: not a number of milliseconds (1 to "
		         "60000): %s", v);
		return false;
	}
	if ((strcmp(o->name, "host") == 0 || strcmp(o->name, "socket") == 0) && !*v) {
		snprintf(error, error_size, "[cache] %s: empty", o->name);
		return false;
	}
	if (strcmp(o->name, "socket") == 0 && *v != '/') {
		snprintf(error, error_size, "[cache] socket: not an absolute path: %s", v);
		return false;
	}
	if (strcmp(o->name, "host") == 0)
		set_string(&s->host, v);
	else if (strcmp(o->name, "socket") == 0)
		set_string(&s->socket, v);
	else if (strcmp(o->name, "password") == 0)
		set_string(&s->password, v);
	else if (strcmp(o->name, "prefix") == 0)
		set_string(&s->prefix, v);
	return true;
}

static int parse_settings(const struct cms_api_cache_option *options, size_t noptions,
                          struct settings *s, size_t *bad, char *error, size_t error_size)
{
	memset(s, 0, sizeof *s);
	s->host = xstrdup("127.0.0.1");
	s->socket = xstrdup("");
	s->password = xstrdup("");
	s->prefix = xstrdup("cms-api:");
	s->port = 6379;
	s->timeout_ms = 50;
	*bad = noptions;
	for (size_t i = 0; i < noptions; i++) {
		if (!apply_option(s, &options[i], error, error_size)) {
			*bad = i;
			settings_free(s);
			return -1;
		}
	}
	return 0;
}

int cache_redis_check_options(const struct cms_api_cache_option *options, size_t noptions,
                              size_t *bad, char *error, size_t error_size)
{
	struct settings s;
	if (parse_settings(options, noptions, &s, bad, error, error_size) != 0)
		return -1;
	settings_free(&s);
	return 0;
}

/* --- connection --- */

static void set_problem(struct redis_state *r, const char *what, const char *detail)
{
	strbuf_reset(&r->problem);
	strbuf_addf(&r->problem, "%s%s%s", what, detail && *detail ? ": " : "", detail ? detail : "");
}

static void disconnect(struct redis_state *r)
{
	if (r->ctx)
		redisFree(r->ctx);
	r->ctx = NULL;
}

/* Fails the call and gives Redis a second before the next connection. */
static void back_off(struct redis_state *r)
{
	disconnect(r);
	r->next_try_ms = now_ms() + BACKOFF_MS;
}

static struct timeval timeval_of(long long ms)
{
	return (struct timeval){(time_t)(ms / 1000), (suseconds_t)(ms % 1000) * 1000};
}

/* Gives the socket a timeout of ms (a system call only when it changes). */
static int wait_at_most(struct redis_state *r, long long ms)
{
	if (ms == r->wait_ms)
		return 0;
	if (redisSetTimeout(r->ctx, timeval_of(ms)) != REDIS_OK) {
		set_problem(r, "cannot set a timeout", r->ctx->errstr);
		return -1;
	}
	r->wait_ms = ms;
	return 0;
}

/* The time left before deadline, or -1 (with the problem set). */
static long long time_left(struct redis_state *r, long long deadline)
{
	long long left = deadline - now_ms();
	if (left < 1) {
		set_problem(r, "timed out", NULL);
		return -1;
	}
	return left;
}

/* One command on the connection as it is; an error reply is a failure
 * (the connection stays). */
static redisReply *send_once(struct redis_state *r, int argc, const char **argv,
                             const size_t *lens)
{
	redisReply *reply = redisCommandArgv(r->ctx, argc, argv, lens);
	if (!reply) {
		set_problem(r, argv[0], r->ctx->errstr);
		return NULL;
	}
	if (reply->type == REDIS_REPLY_ERROR) {
		set_problem(r, argv[0], reply->str);
		freeReplyObject(reply);
		return NULL;
	}
	return reply;
}

/* Connects within deadline, then AUTH and SELECT when configured. */
static int connect_within(struct redis_state *r, long long deadline)
{
	if (now_ms() < r->next_try_ms) {
		set_problem(r, "not tried again within a second of failing", NULL);
		return -1;
	}
	long long left = time_left(r, deadline);
	if (left < 0)
		return -1;
	struct timeval tv = timeval_of(left);
	r->ctx = *r->set.socket ? redisConnectUnixWithTimeout(r->set.socket, tv)
	                        : redisConnectWithTimeout(r->set.host, (int)r->set.port, tv);
	r->wait_ms = -1;
	if (!r->ctx || r->ctx->err) {
		set_problem(r, "cannot connect", r->ctx ? r->ctx->errstr : "out of memory");
		back_off(r);
		return -1;
	}
	struct {
		bool wanted;
		const char *argv[2];
	} setup[] = {
		{*r->set.password != '\0', {"AUTH", r->set.password}},
		{r->set.database != 0, {"SELECT", NULL}},
	};
	char database[24];
	snprintf(database, sizeof database, "%ld", r->set.database);
	setup[1].argv[1] = database;
	for (size_t i = 0; i < sizeof setup / sizeof setup[0]; i++) {
		if (!setup[i].wanted)
			continue;
		size_t lens[2] = {strlen(setup[i].argv[0]), strlen(setup[i].argv[1])};
		redisReply *reply = NULL;
		if ((left = time_left(r, deadline)) < 0 || wait_at_most(r, left) != 0 ||
		    !(reply = send_once(r, 2, setup[i].argv, lens))) {
			back_off(r);
			return -1;
		}
		freeReplyObject(reply);
	}
	return 0;
}

/* Whether a failed command met a connection Redis had closed (restarted,
 * or an idle timeout), rather than a Redis that does not answer. */
static bool closed_under_us(const redisContext *ctx, int err)
{
	return ctx->err == REDIS_ERR_EOF ||
	       (ctx->err == REDIS_ERR_IO && (err == ECONNRESET || err == EPIPE));
}

/*
 * Sends one command, connecting first when needed, all before deadline. A
 * connection made by an earlier call that turns out closed is made again
 * once. The reply, or NULL with the problem set: the connection is then
 * dropped and left alone for a second, unless Redis answered with an
 * error (it is up: the next call may ask again).
 */
static redisReply *command(struct redis_state *r, long long deadline, int argc,
                           const char **argv, const size_t *lens)
{
	for (int attempt = 0; attempt < 2; attempt++) {
		bool reused = r->ctx != NULL;
		if (!reused && connect_within(r, deadline) != 0)
			return NULL;
		/* A connection made now waits only what is left; one made
		 * earlier, the whole timeout (set once). */
		long long wait = r->set.timeout_ms;
		if (!reused && (wait = time_left(r, deadline)) < 0) {
			back_off(r);
			return NULL;
		}
		if (wait_at_most(r, wait) != 0) {
			back_off(r);
			return NULL;
		}
		redisReply *reply = redisCommandArgv(r->ctx, argc, argv, lens);
		int err = errno;
		if (reply && reply->type == REDIS_REPLY_ERROR) {
			set_problem(r, argv[0], reply->str);
			freeReplyObject(reply);
			return NULL;
		}
		if (reply)
			return reply;
		if (r->ctx->err == REDIS_ERR_IO && (err == EAGAIN || err == EWOULDBLOCK)) {
			char waited[64];
			snprintf(waited, sizeof waited, "no answer within %lld ms", r->wait_ms);
			set_problem(r, argv[0], waited);
		} else {
			set_problem(r, argv[0], r->ctx->errstr);
		}
		bool retry = reused && closed_under_us(r->ctx, err) && now_ms() < deadline;
		disconnect(r);
		if (!retry)
			break;
	}
	back_off(r);
	return NULL;
}

/* --- names --- */

/* The name of generation's entry key_hash in r->name. */
static void entry_name(struct redis_state *r, uint64_t generation, uint64_t key_hash)
{
	strbuf_reset(&r->name);
	strbuf_addf(&r->name, "%s%016" PRIx64 ":%016" PRIx64, r->set.prefix, generation, key_hash);
}

/* The prefix as a SCAN pattern matches it: glob characters escaped. */
static void add_prefix_pattern(struct strbuf *out, const char *prefix)
{
	for (const char *p = prefix; *p; p++) {
		if (strchr("*?[]\\", *p))
			strbuf_addch(out, '\\');
		strbuf_addch(out, *p);
	}
}

/* Sixteen hex digits, as a pattern. */
static void add_hex_pattern(struct strbuf *out)
{
	for (int i = 0; i < 16; i++)
		strbuf_addstr(out, "[0-9a-f]");
}

/* --- the driver --- */

static void *redis_init(const struct cms_api_cache_option *options, size_t noptions, char *error,
                        size_t error_size)
{
	struct settings s;
	size_t bad;
	if (parse_settings(options, noptions, &s, &bad, error, error_size) != 0)
		return NULL;
	struct redis_state *r = xcalloc(1, sizeof *r);
	r->set = s;
	struct strbuf where = STRBUF_INIT;
	if (*s.socket)
		strbuf_addstr(&where, s.socket);
	else
		strbuf_addf(&where, "%s:%ld", s.host, s.port);
	r->where = strbuf_detach(&where, NULL);
	r->wait_ms = -1;
	return r;
}

static void redis_free(void *state)
{
	struct redis_state *r = state;
	if (!r)
		return;
	disconnect(r);
	settings_free(&r->set);
	free(r->where);
	strbuf_release(&r->problem);
	strbuf_release(&r->name);
	free(r);
}

static int redis_get(void *state, const struct cms_api_cache_request *request,
                     cms_api_cache_append_fn append, void *sink)
{
	struct redis_state *r = state;
	entry_name(r, request->generation, request->key_hash);
	const char *argv[] = {"GET", r->name.ptr};
	const size_t lens[] = {3, r->name.len};
	redisReply *reply = command(r, now_ms() + r->set.timeout_ms, 2, argv, lens);
	if (!reply)
		return -1;
	int rc = 0;
	if (reply->type == REDIS_REPLY_STRING) {
		append(sink, reply->str, (size_t)reply->len);
		rc = 1;
	} else if (reply->type != REDIS_REPLY_NIL) {
		set_problem(r, "GET", "an answer that is not a string");
		rc = -1;
	}
	freeReplyObject(reply);
	return rc;
}

static int redis_put(void *state, const struct cms_api_cache_request *request,
                     const struct cms_api_cache_response *response)
{
	struct redis_state *r = state;
	entry_name(r, request->generation, request->key_hash);
	char ttl[24];
	snprintf(ttl, sizeof ttl, "%lld", response->ttl_seconds > 0 ? response->ttl_seconds : 1);
	const char *argv[] = {"SET", r->name.ptr, response->entry, "EX", ttl};
	const size_t lens[] = {3, r->name.len, response->entry_len, 2, strlen(ttl)};
	redisReply *reply = command(r, now_ms() + r->set.timeout_ms, 5, argv, lens);
	if (!reply)
		return -1;
	freeReplyObject(reply);
	return 0;
}

/* Calls each(r, reply, ctx) for every batch of keys SCAN finds matching
 * pattern, each command within the timeout, until the end or budget_ms
 * (0: no limit) has passed. 0, or -1. */
static int scan(struct redis_state *r, const char *pattern, long long budget_ms,
                int (*each)(struct redis_state *r, const redisReply *keys, void *ctx), void *ctx)
{
	char cursor[32] = "0";
	long long until = budget_ms ? now_ms() + budget_ms : 0;
	do {
		const char *argv[] = {"SCAN", cursor, "MATCH", pattern, "COUNT", SCAN_COUNT};
		const size_t lens[] = {4, strlen(cursor), 5, strlen(pattern), 5, strlen(SCAN_COUNT)};
		redisReply *reply = command(r, now_ms() + r->set.timeout_ms, 6, argv, lens);
		if (!reply)
			return -1;
		bool shaped = reply->type == REDIS_REPLY_ARRAY && reply->elements == 2 &&
		              reply->element[0]->type == REDIS_REPLY_STRING &&
		              reply->element[1]->type == REDIS_REPLY_ARRAY;
		int rc = shaped ? each(r, reply->element[1], ctx) : -1;
		if (!shaped)
			set_problem(r, "SCAN", "an answer of another shape");
		if (shaped)
			snprintf(cursor, sizeof cursor, "%s", reply->element[0]->str);
		freeReplyObject(reply);
		if (rc != 0)
			return -1;
	} while (strcmp(cursor, "0") != 0 && (!until || now_ms() < until));
	return 0;
}

/* UNLINKs the keys of one SCAN batch; *(long long *)ctx counts them. */
static int unlink_keys(struct redis_state *r, const redisReply *keys, void *ctx)
{
	if (keys->elements == 0)
		return 0;
	size_t n = keys->elements + 1;
	const char **argv = xmalloc(n * sizeof *argv);
	size_t *lens = xmalloc(n * sizeof *lens);
	argv[0] = "UNLINK";
	lens[0] = 6;
	for (size_t i = 0; i < keys->elements; i++) {
		argv[i + 1] = keys->element[i]->str;
		lens[i + 1] = (size_t)keys->element[i]->len;
	}
	redisReply *reply = command(r, now_ms() + r->set.timeout_ms, (int)n, argv, lens);
	free(argv);
	free(lens);
	if (!reply)
		return -1;
	if (reply->type == REDIS_REPLY_INTEGER)
		*(long long *)ctx += reply->integer;
	freeReplyObject(reply);
	return 0;
}

static int redis_invalidate(void *state, const struct cms_api_cache_event *event)
{
	struct redis_state *r = state;
	if (event->old_generation == event->new_generation)
		return 0;
	struct strbuf pattern = STRBUF_INIT;
	add_prefix_pattern(&pattern, r->set.prefix);
	strbuf_addf(&pattern, "%016" PRIx64 ":*", event->old_generation);
	long long removed = 0;
	int rc = scan(r, pattern.ptr, INVALIDATE_BUDGET_MS, unlink_keys, &removed);
	strbuf_release(&pattern);
	return rc;
}

const struct cms_api_cache_driver cache_redis_driver = {
	CMS_API_CACHE_DRIVER_ABI_VERSION, "redis", redis_init, redis_get, redis_put,
	redis_invalidate, redis_free,
};

/* --- for the log, check, stats and clear --- */

const char *cache_redis_where(void *state)
{
	return ((struct redis_state *)state)->where;
}

const char *cache_redis_problem(void *state)
{
	return strbuf_str(&((struct redis_state *)state)->problem);
}

int cache_redis_ping(void *state)
{
	struct redis_state *r = state;
	const char *argv[] = {"PING"};
	const size_t lens[] = {4};
	redisReply *reply = command(r, now_ms() + r->set.timeout_ms, 1, argv, lens);
	if (!reply)
		return -1;
	freeReplyObject(reply);
	return 0;
}

struct tally {
	long long entries, bytes;
};

/* Adds a SCAN batch's keys and their values' lengths (STRLEN, pipelined)
 * to the tally in ctx. */
static int tally_keys(struct redis_state *r, const redisReply *keys, void *ctx)
{
	struct tally *t = ctx;
	if (keys->elements == 0)
		return 0;
	if (wait_at_most(r, r->set.timeout_ms) != 0)
		return -1;
	for (size_t i = 0; i < keys->elements; i++) {
		const char *argv[] = {"STRLEN", keys->element[i]->str};
		const size_t lens[] = {6, (size_t)keys->element[i]->len};
		if (redisAppendCommandArgv(r->ctx, 2, argv, lens) != REDIS_OK)
			goto failed;
	}
	for (size_t i = 0; i < keys->elements; i++) {
		void *reply = NULL;
		if (redisGetReply(r->ctx, &reply) != REDIS_OK)
			goto failed;
		const redisReply *len = reply;
		if (len->type == REDIS_REPLY_INTEGER && len->integer > 0) {
			t->entries++;
			t->bytes += len->integer;
		}
		freeReplyObject(reply);
	}
	return 0;
failed:
	set_problem(r, "STRLEN", r->ctx->errstr);
	back_off(r);
	return -1;
}

int cache_redis_count(void *state, uint64_t generation, long long *entries, long long *bytes)
{
	struct redis_state *r = state;
	struct strbuf pattern = STRBUF_INIT;
	add_prefix_pattern(&pattern, r->set.prefix);
	strbuf_addf(&pattern, "%016" PRIx64 ":*", generation);
	struct tally t = {0, 0};
	int rc = scan(r, pattern.ptr, 0, tally_keys, &t);
	strbuf_release(&pattern);
	*entries = t.entries;
	*bytes = t.bytes;
	return rc;
}

long long cache_redis_clear(void *state)
{
	struct redis_state *r = state;
	/* Exactly the entries' names: the rate limit may share the prefix
	 * (PREFIX "ratelimit:..."), and its counters must stay. */
	struct strbuf pattern = STRBUF_INIT;
	add_prefix_pattern(&pattern, r->set.prefix);
	add_hex_pattern(&pattern);
	strbuf_addch(&pattern, ':');
	add_hex_pattern(&pattern);
	long long removed = 0;
	int rc = scan(r, pattern.ptr, 0, unlink_keys, &removed);
	strbuf_release(&pattern);
	return rc == 0 ? removed : -1;
}
