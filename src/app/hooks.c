/* app/hooks: the layers' watcher hooks, one after the other; see hooks.h. */
#include "autoconfig.h"

#include "app/hooks.h"

#include <stdlib.h>

#include "cache/upkeep.h"
#include "edge/hooks.h"
#include "lib/strbuf.h"

/* The hooks in the order they run. */
static const struct watch_hooks *const layers[] = {&cache_upkeep_hooks, &edge_hooks};
#define NLAYERS (sizeof layers / sizeof layers[0])

/* Each layer's state. */
struct states {
	void *of[NLAYERS];
};

static void *all_open(const struct config *cfg)
{
	struct states *s = xcalloc(1, sizeof *s);
	for (size_t i = 0; i < NLAYERS; i++)
		s->of[i] = layers[i]->open ? layers[i]->open(cfg) : NULL;
	return s;
}

static void all_close(void *state)
{
	struct states *s = state;
	for (size_t i = 0; i < NLAYERS; i++)
		if (layers[i]->close)
			layers[i]->close(s->of[i]);
	free(s);
}

static void all_publishing(void *state, const struct config *cfg, uint64_t new_cache)
{
	struct states *s = state;
	for (size_t i = 0; i < NLAYERS; i++)
		if (layers[i]->publishing)
			layers[i]->publishing(s->of[i], cfg, new_cache);
}

static void all_moved(void *state, const struct config *cfg, const char *event, const char *path,
                      uint64_t old_cache, uint64_t new_cache)
{
	struct states *s = state;
	for (size_t i = 0; i < NLAYERS; i++)
		if (layers[i]->moved)
			layers[i]->moved(s->of[i], cfg, event, path, old_cache, new_cache);
}

static void all_moved_files(void *state, const struct config *cfg, const struct watch_file *files,
                            size_t nfiles, uint64_t old_cache, uint64_t new_cache)
{
	struct states *s = state;
	for (size_t i = 0; i < NLAYERS; i++)
		if (layers[i]->moved_files)
			layers[i]->moved_files(s->of[i], cfg, files, nfiles, old_cache, new_cache);
}

static void all_pass(void *state, const struct config *cfg)
{
	struct states *s = state;
	for (size_t i = 0; i < NLAYERS; i++)
		if (layers[i]->pass)
			layers[i]->pass(s->of[i], cfg);
}

static void all_upkeep(void *state, const struct config *cfg)
{
	struct states *s = state;
	for (size_t i = 0; i < NLAYERS; i++)
		if (layers[i]->upkeep)
			layers[i]->upkeep(s->of[i], cfg);
}

static void all_arm_stop(const struct config *cfg)
{
	for (size_t i = 0; i < NLAYERS; i++)
		if (layers[i]->arm_stop)
			layers[i]->arm_stop(cfg);
}

/* Async-signal-safe as each layer's is. */
static void all_stop(void)
{
	for (size_t i = 0; i < NLAYERS; i++)
		if (layers[i]->stop)
			layers[i]->stop();
}

const struct watch_hooks app_watch_hooks = {
	.open = all_open,
	.close = all_close,
	.publishing = all_publishing,
	.moved = all_moved,
	.moved_files = all_moved_files,
	.pass = all_pass,
	.upkeep = all_upkeep,
	.arm_stop = all_arm_stop,
	.stop = all_stop,
};
