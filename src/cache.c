/* cache: keys, entries and the driver choice; see cache.h. */
#include "autoconfig.h"

#include "cache.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "cache_entry.h"
#include "cache_file.h"
#include "hash.h"
#include "log.h"

void cache_init(struct cache *c, const struct config *cfg, const struct shared_paths *paths)
{
	memset(c, 0, sizeof *c);
	if (cfg->cache_enabled && cfg->cache_expiry > 0 && cfg->cache_driver == CACHE_REDIS)
		log_warning("[cache] driver = redis is not available in this version: "
		            "responses are not cached");
	if (!cache_file_in_use(cfg))
		return;
	if (!paths) {
		log_warning("cache directory %s is not usable: responses are not cached",
		            cfg->cache_dir ? cfg->cache_dir : "(none set)");
		return;
	}
	c->on = true;
	c->expiry_seconds = cfg->cache_expiry * 60LL;
	c->max_bytes = cfg->cache_max_size * 1024LL * 1024LL;
	c->paths = paths;
}

void cache_free(struct cache *c)
{
	cache_budget_release(&c->budget);
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

/* --- the driver --- */

static long long epoch_seconds(void)
{
	return (long long)time(NULL);
}

bool cache_get(const struct cache *c, uint64_t generation, const char *key, struct response *res)
{
	if (!c->on)
		return false;
	struct strbuf entry = STRBUF_INIT;
	bool hit = cache_file_read(c->paths, generation, hash_fnv1a(key), &entry) == 0 &&
	           cache_entry_decode(entry.ptr, entry.len, key, epoch_seconds(), res) == 0;
	strbuf_release(&entry);
	return hit;
}

static bool out_of_space(int err)
{
	return err == ENOSPC || err == EDQUOT;
}

void cache_put(struct cache *c, uint64_t generation, const char *key, const struct response *res)
{
	if (!c->on || res->state != RESPONSE_ANSWERED || (res->status != 200 && res->status != 404))
		return;
	struct strbuf entry = STRBUF_INIT;
	cache_entry_encode(key, epoch_seconds() + c->expiry_seconds, res, &entry);
	if (cache_file_write(c->paths, generation, hash_fnv1a(key), &entry, c->max_bytes,
	                     &c->budget) != 0) {
		int err = errno;
		/* Over max_size with another writer already making room: this
		 * answer is simply not stored. */
		if (err != EFBIG)
			log_every_minute(LOG_LEVEL_WARNING, "cannot store a cached answer in %s: %s",
			                 c->paths->dir, strerror(err));
		if (out_of_space(err) && epoch_seconds() >= c->next_room_making) {
			size_t n = cache_file_make_room(c->paths, generation);
			log_every_minute(LOG_LEVEL_WARNING, "the cache's file system is full: removed %zu "
			                 "cached answers to make room", n);
			c->next_room_making = epoch_seconds() + 5;
		}
	}
	strbuf_release(&entry);
}
