/* edge/hooks: the edge layer's hooks for the watcher; see hooks.h. */
#include "autoconfig.h"

#include "edge/hooks.h"

#include <stdbool.h>
#include <stdlib.h>

#include "change/generation.h"
#include "change/shared.h"
#include "core/log.h"
#include "edge/changes.h"
#include "edge/outbox.h"
#include "edge/purge.h"
#include "edge/syncrecord.h"
#include "edge/webhook.h"
#include "lib/strbuf.h"
#include "lib/tagset.h"

struct edge_state {
	struct outbox *out; /* NULL when there is nothing to send */
	bool queued;        /* requests were queued since the last pass */
	bool sync;          /* the sync feed is on, or webhooks: paths and keeper are set */
	uint64_t named;     /* the cache generation the journal was last seen to end with */
	struct shared_paths paths;
	struct sync_keeper keeper;
};

/* The outbox, its spool in the cache directory ("outbox-<site>"). */
static struct outbox *open_outbox(const struct config *cfg)
{
	struct shared_paths paths;
	if (shared_paths_init(&paths, cfg) != 0)
		return outbox_open(NULL);
	struct strbuf spool = STRBUF_INIT;
	strbuf_addf(&spool, "%s/outbox-%s", paths.dir, paths.site);
	struct outbox *o = outbox_open(spool.ptr);
	strbuf_release(&spool);
	shared_paths_free(&paths);
	return o;
}

static void *edge_open(const struct config *cfg)
{
	struct edge_state *e = xcalloc(1, sizeof *e);
	if (edge_purges_on(cfg) || cfg->nwebhooks)
		e->out = open_outbox(cfg);
	/* The sync journal and webhooks both name entries by the id the
	 * newest snapshot has. */
	e->sync = (resource_enabled(cfg, RES_SYNC) || cfg->nwebhooks) &&
	          shared_paths_init(&e->paths, cfg) == 0;
	if (e->sync)
		sync_keeper_follow(&e->keeper, &e->paths);
	return e;
}

static void edge_close(void *state)
{
	struct edge_state *e = state;
	outbox_close(e->out);
	if (e->sync) {
		sync_keeper_free(&e->keeper);
		shared_paths_free(&e->paths);
	}
	free(e);
}

static void edge_moved_files(void *state, const struct config *cfg,
                             const struct watch_file *files, size_t nfiles, uint64_t old_cache,
                             uint64_t new_cache)
{
	struct edge_state *e = state;
	long long now = outbox_now_ms();
	/* The snapshot of before the change, when none was kept yet (the
	 * workers build the new one only when a request comes). */
	if (e->sync && !e->keeper.snap)
		sync_keeper_follow(&e->keeper, &e->paths);
	struct watch_file *told = xmalloc((nfiles + 1) * sizeof *told);
	size_t ntold = edge_changes_compact(files, nfiles, e->sync ? &e->keeper : NULL, told);
	if (e->sync && resource_enabled(cfg, RES_SYNC)) {
		/* Publications are told in their order, the index lock held;
		 * one made by another process (a worker's) was told to no
		 * hooks, and comes first, as a reset. */
		if (old_cache != 0 && old_cache != e->named)
			sync_record_named(cfg, &e->paths, old_cache);
		sync_record(cfg, &e->paths, &e->keeper, told, ntold, files != NULL, new_cache);
		e->named = new_cache;
	}
	/* A first generation (a new cache directory) is no change to tell,
	 * nor files that came and went. */
	if (e->out && cfg->nwebhooks && old_cache != 0 && (!files || ntold > 0)) {
		edge_webhooks_send(e->out, cfg, e->sync ? &e->keeper : NULL, told, ntold, new_cache,
		                   now);
		e->queued = true;
	}
	free(told);
	/* Nor for the caches in front: a first generation says only that the
	 * cache directory is new (a worker may have made it first, and then
	 * no move is told at all), and every machine that starts would
	 * empty the edge; a publication that read none of its files (all
	 * held back) changed nothing they hold. */
	if (e->out && edge_purges_on(cfg) && old_cache != 0 && (!files || nfiles > 0)) {
		struct tagset tags = TAGSET_INIT;
		edge_purge_tags(cfg, files, nfiles, &tags);
		edge_purge_send(e->out, cfg, &tags, now);
		tagset_free(&tags);
		e->queued = true;
	}
}

static void edge_pass(void *state, const struct config *cfg)
{
	struct edge_state *e = state;
	outbox_run(e->out, outbox_now_ms(), e->queued ? EDGE_PASS_WAIT_MS : 0);
	e->queued = false;
	if (!e->sync)
		return;
	/* After the first look, which makes the generation file if need be;
	 * then whenever the generation file names a generation the journal
	 * was not seen to end with: one published by another process. */
	if (resource_enabled(cfg, RES_SYNC)) {
		struct generation g;
		if (generation_read(e->paths.generation, &g) == 0 && g.cache_signature != e->named)
			e->named = sync_record_current(cfg, &e->paths);
	}
	sync_keeper_follow(&e->keeper, &e->paths);
}

const struct watch_hooks edge_hooks = {
	.open = edge_open,
	.close = edge_close,
	.moved_files = edge_moved_files,
	.pass = edge_pass,
};
