/* cache: keys, entries and the driver's dispatch; see cache.h. */
#include "autoconfig.h"

#include "cache/cache.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cache/cache_entry.h"
#include "cache/cache_file.h"
#include "cache/cache_options.h"
#include "cache/cache_redis.h"
#include "core/log.h"
#include "lib/hash.h"
#include "lib/url.h"

/* A worker keeps its scratch buffer for entries unless one was larger. */
#define SCRATCH_KEPT (1024 * 1024)

static long long epoch_seconds(void)
{
	return (long long)time(NULL);
}

/* --- the driver --- */

static int start_redis(struct cache *c, const struct config *cfg, char *error, size_t error_size)
{
	c->state = cache_driver_init(&cache_redis_driver, cfg, error, error_size);
	if (!c->state)
		return -1;
	c->driver = &cache_redis_driver;
	return 0;
}

/* Sets c->driver and c->state for cfg's driver. 0, or -1 with error. */
static int start_driver(struct cache *c, const struct config *cfg,
                        const struct shared_paths *paths, char *error, size_t error_size)
{
	switch (cfg->cache_driver) {
	case CACHE_FILE:
		c->driver = &cache_file_driver;
		c->state = cache_file_state_new(paths, cfg->cache_max_size * 1024LL * 1024LL);
		c->says_why = true;
		return 0;
	case CACHE_REDIS:
		return start_redis(c, cfg, error, error_size);
	case CACHE_PLUGIN:
		if (cache_plugin_load(cfg, &c->plugin, error, error_size) != 0)
			return -1;
		c->driver = c->plugin.driver;
		c->state = c->plugin.state;
		return 0;
	case CACHE_NONE:
		break;
	}
	snprintf(error, error_size, "no driver");
	return -1;
}

static const char *driver_word(const struct config *cfg)
{
	switch (cfg->cache_driver) {
	case CACHE_FILE:
		return "file";
	case CACHE_REDIS:
		return "redis";
	case CACHE_PLUGIN:
		return cfg->cache_plugin_path ? cfg->cache_plugin_path : "plug-in";
	default:
		return "none";
	}
}

void cache_init(struct cache *c, const struct config *cfg, const struct shared_paths *paths)
{
	memset(c, 0, sizeof *c);
	if (!config_caches(cfg))
		return;
	if (!paths) {
		log_warning("cache directory %s is not usable: responses are not cached",
		            cfg->cache_dir ? cfg->cache_dir : "(none set)");
		return;
	}
	char error[512];
	if (start_driver(c, cfg, paths, error, sizeof error) != 0) {
		log_error("the %s cache driver cannot start: %s: responses are not cached",
		          driver_word(cfg), error);
		memset(c, 0, sizeof *c);
		return;
	}
	c->on = true;
	c->expiry_seconds = cfg->cache_expiry * 60LL;
	c->counters = cache_stats_open(paths);
}

void cache_free(struct cache *c)
{
	if (c->plugin.handle)
		cache_plugin_unload(&c->plugin); /* its state with it */
	else if (c->driver && c->driver->free && c->state)
		c->driver->free(c->state);
	cache_stats_close(c->counters);
	strbuf_release(&c->entry);
	memset(c, 0, sizeof *c);
}

/* --- keys --- */

static bool collects(const char *name)
{
	size_t n = strlen(name);
	return n >= 2 && strcmp(name + n - 2, "[]") == 0;
}

static void add_param(struct strbuf *key, const struct query_param *p, bool *first)
{
	strbuf_addch(key, *first ? '?' : '&');
	*first = false;
	/* Encoded, so that '&' and '=' inside a name or value cannot fake
	 * another parameter. */
	url_encode(p->name, key);
	strbuf_addch(key, '=');
	url_encode(p->value, key);
}

/* The query as PHP's $_GET sees it (a repeated name keeps its last value
 * unless it ends in "[]"), sorted by name. */
static void add_normalised_query(struct strbuf *key, const struct request *req)
{
	if (req->nparams == 0)
		return;
	const struct query_param **sorted = xmalloc(req->nparams * sizeof *sorted);
	for (size_t i = 0; i < req->nparams; i++)
		sorted[i] = &req->params[i];
	qsort(sorted, req->nparams, sizeof *sorted, query_param_order);
	bool first = true;
	for (size_t i = 0; i < req->nparams; i++) {
		bool last_of_name = i + 1 == req->nparams ||
		                    strcmp(sorted[i]->name, sorted[i + 1]->name) != 0;
		if (last_of_name || collects(sorted[i]->name))
			add_param(key, sorted[i], &first);
	}
	free(sorted);
}

/* One part of the key: a tag letter and the length before the bytes, so
 * that no part's content can reach into the next (a Host holding "/api"
 * must not make another URL's key). */
static void add_part(struct strbuf *key, char tag, const char *s)
{
	strbuf_addf(key, "%c%zu:%s ", tag, strlen(s), s);
}

void cache_key(const struct config *cfg, const struct request *req, struct strbuf *key)
{
	/* Answers depend on the config (what is enabled, excluded, ...): one
	 * config's answers are never served under another. */
	strbuf_addf(key, "c%016" PRIx64 " ", cfg->fingerprint);
	if (!cfg->base_url || !*cfg->base_url) {
		add_part(key, 's', req->scheme);
		add_part(key, 'h', req->host);
	}
	add_part(key, 'p', req->path);
	/* The query comes last, its names and values encoded. */
	strbuf_addch(key, 'q');
	add_normalised_query(key, req);
}

/* --- asking the driver --- */

void cache_ask_set(struct cache_ask *ask, const struct config *cfg, const struct request *req)
{
	strbuf_reset(&ask->key);
	strbuf_reset(&ask->method);
	strbuf_reset(&ask->path);
	strbuf_reset(&ask->query);
	cache_key(cfg, req, &ask->key);
	strbuf_addstr(&ask->method, req->method);
	strbuf_addstr(&ask->path, req->path);
	strbuf_addstr(&ask->query, req->query ? req->query : "");
}

void cache_ask_release(struct cache_ask *ask)
{
	strbuf_release(&ask->key);
	strbuf_release(&ask->method);
	strbuf_release(&ask->path);
	strbuf_release(&ask->query);
}

static struct cms_api_cache_request request_of(uint64_t generation, const struct cache_ask *ask)
{
	const char *key = strbuf_str(&ask->key);
	return (struct cms_api_cache_request){key, hash_fnv1a(key), generation,
	                                      strbuf_str(&ask->method), strbuf_str(&ask->path),
	                                      strbuf_str(&ask->query)};
}

static void append_to_strbuf(void *sink, const void *bytes, size_t len)
{
	strbuf_add(sink, bytes, len);
}

static struct cache_counters *counters_of(struct cache *c)
{
	return c->counters ? c->counters : &c->own;
}

/* Who fails, for the log: "Redis at 127.0.0.1:6379". */
static void name_driver(const struct cache *c, struct strbuf *out)
{
	if (c->driver == &cache_redis_driver)
		strbuf_addf(out, "Redis at %s", cache_redis_where(c->state));
	else
		strbuf_addf(out, "the cache driver %s", c->driver->name ? c->driver->name : "(unnamed)");
}

/* Why it failed, when the driver can say. */
static const char *why(const struct cache *c)
{
	return c->driver == &cache_redis_driver ? cache_redis_problem(c->state) : "it returned -1";
}

/*
 * The outage log: the workers of a cache directory share its state
 * (cache_stats.h), so that the first failure after things worked is
 * logged once, and so is the first read that works again (or, when only
 * storing failed, the first answer stored again). A store that fails
 * while reads already do is the same outage.
 */
static void note(struct cache *c, bool read, bool ok)
{
	if (c->says_why)
		return;
	struct cache_counters *k = counters_of(c);
	enum cache_outage state = cache_stats_outage(k);
	enum cache_outage failing = read ? CACHE_CANNOT_READ : CACHE_CANNOT_STORE;
	struct strbuf who = STRBUF_INIT;
	if (!ok && state == CACHE_WORKS && cache_stats_outage_moves(k, CACHE_WORKS, failing)) {
		name_driver(c, &who);
		log_warning("cache: %s cannot %s (%s): answers go out uncached until it can", who.ptr,
		            read ? "be read" : "store answers", why(c));
	} else if (!ok && read && state == CACHE_CANNOT_STORE) {
		/* Logged already; its end is now a read that works. */
		cache_stats_outage_moves(k, CACHE_CANNOT_STORE, CACHE_CANNOT_READ);
	} else if (ok && state == failing && cache_stats_outage_moves(k, failing, CACHE_WORKS)) {
		name_driver(c, &who);
		log_warning("cache: %s works again: answers are cached again", who.ptr);
	}
	strbuf_release(&who);
}

bool cache_get(struct cache *c, uint64_t generation, const struct cache_ask *ask,
               struct response *res)
{
	if (!c->on)
		return false;
	struct cms_api_cache_request request = request_of(generation, ask);
	strbuf_reset(&c->entry);
	int found = c->driver->get(c->state, &request, append_to_strbuf, &c->entry);
	bool failed = found < 0 || found > 1;
	note(c, true, !failed);
	/* The entry is checked whatever the driver: its key, its expiry. */
	bool hit = found == 1 && c->entry.len > 0 &&
	           cache_entry_decode(c->entry.ptr, c->entry.len, request.key, epoch_seconds(),
	                              res) == 0;
	cache_stats_count(counters_of(c), hit, failed);
	if (c->entry.cap > SCRATCH_KEPT)
		strbuf_release(&c->entry);
	return hit;
}

void cache_put(struct cache *c, uint64_t generation, const struct cache_ask *ask,
               const struct response *res)
{
	if (!c->on || res->state != RESPONSE_ANSWERED || (res->status != 200 && res->status != 404))
		return;
	struct cms_api_cache_request request = request_of(generation, ask);
	strbuf_reset(&c->entry);
	cache_entry_encode(request.key, epoch_seconds() + c->expiry_seconds, res, &c->entry);
	const char *type = response_header(res, "Content-Type");
	struct cms_api_cache_response response = {
		c->entry.ptr, c->entry.len, c->expiry_seconds, res->status, type ? type : "",
		strbuf_str(&res->body), res->body.len,
	};
	note(c, false, c->driver->put(c->state, &request, &response) == 0);
	if (c->entry.cap > SCRATCH_KEPT)
		strbuf_release(&c->entry);
}

void cache_invalidate(struct cache *c, const struct cms_api_cache_event *event)
{
	if (!c->on || !c->driver->invalidate)
		return;
	if (c->driver->invalidate(c->state, event) != 0) {
		struct strbuf who = STRBUF_INIT;
		name_driver(c, &who);
		log_every_minute(LOG_LEVEL_WARNING, "cache: %s could not drop the answers of the "
		                 "generation before a change (%s): they expire by themselves",
		                 who.ptr, why(c));
		strbuf_release(&who);
	}
}
