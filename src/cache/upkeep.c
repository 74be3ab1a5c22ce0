/* upkeep: the cache layer's hooks for the watcher; see upkeep.h. */
#include "autoconfig.h"

#include "cache/upkeep.h"

#include <stdbool.h>
#include <stdlib.h>
#include <time.h>

#include "cache/cache.h"
#include "cache/cache_file.h"
#include "cache/fastpath.h"
#include "change/generation.h"
#include "change/shared.h"
#include "core/log.h"
#include "lib/strbuf.h"

/* The watcher's cache, opened at the first move. */
struct upkeep {
	bool open;
	struct shared_paths paths; /* what the file driver's state borrows */
	struct cache cache;
};

static void *upkeep_open(const struct config *cfg)
{
	(void)cfg;
	return xcalloc(1, sizeof(struct upkeep));
}

static void upkeep_close(void *state)
{
	struct upkeep *u = state;
	if (u->open) {
		cache_free(&u->cache);
		shared_paths_free(&u->paths);
	}
	free(u);
}

static void upkeep_moved(void *state, const struct config *cfg, const char *event,
                         const char *path, uint64_t old_cache, uint64_t new_cache)
{
	struct upkeep *u = state;
	if (!u->open && shared_paths_init(&u->paths, cfg) == 0) {
		cache_init(&u->cache, cfg, &u->paths);
		u->open = true;
	}
	if (!u->open)
		return;
	struct cms_api_cache_event ev = {event, path, old_cache, new_cache};
	cache_invalidate(&u->cache, &ev);
}

static void upkeep_publishing(void *state, const struct config *cfg, uint64_t new_cache)
{
	(void)state;
	fastpath_follow_to(cfg, new_cache);
}

static void upkeep_pass(void *state, const struct config *cfg)
{
	(void)state;
	fastpath_follow(cfg);
}

/* Keeps the file cache's current directory within [cache] max_size and
 * rid of expired answers (see cache_file_prune). */
static void maintain_file_cache(const struct config *cfg)
{
	if (!cache_file_in_use(cfg))
		return;
	struct shared_paths paths;
	if (shared_paths_init(&paths, cfg) != 0)
		return;
	struct generation g;
	if (generation_read(paths.generation, &g) == 0) {
		size_t n = cache_file_prune(&paths, g.cache_signature, cfg->cache_max_size * 1024LL * 1024LL,
		                            cfg->cache_expiry * 60LL, (long long)time(NULL));
		if (n)
			log_debug("removed %zu cached answers", n);
	}
	shared_paths_free(&paths);
}

static void upkeep_minute(void *state, const struct config *cfg)
{
	(void)state;
	maintain_file_cache(cfg);
	fastpath_trim(cfg);
}

const struct watch_hooks cache_upkeep_hooks = {
	.open = upkeep_open,
	.close = upkeep_close,
	.publishing = upkeep_publishing,
	.moved = upkeep_moved,
	.pass = upkeep_pass,
	.upkeep = upkeep_minute,
	.arm_stop = fastpath_arm_withdraw,
	.stop = fastpath_withdraw,
};
