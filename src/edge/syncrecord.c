/* syncrecord: the sync journal written by the watcher; see syncrecord.h. */
#include "autoconfig.h"

#include "edge/syncrecord.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "change/generation.h"
#include "core/log.h"
#include "lib/strbuf.h"
#include "site/journal.h"
#include "site/tags.h"

void sync_keeper_follow(struct sync_keeper *k, const struct shared_paths *paths)
{
	uint64_t generation;
	char *path = shared_newest_snapshot(paths, &generation);
	if (path && (!k->snap || generation > k->generation)) {
		char err[SNAP_ERR_LEN];
		struct snapshot *s = snapshot_map(path, err);
		if (s) {
			if (k->snap)
				snapshot_close(k->snap);
			k->snap = s;
			k->generation = generation;
		}
	}
	free(path);
}

void sync_keeper_free(struct sync_keeper *k)
{
	if (k->snap)
		snapshot_close(k->snap);
	memset(k, 0, sizeof *k);
}

char *sync_journal_path(const struct shared_paths *paths)
{
	struct strbuf b = STRBUF_INIT;
	strbuf_addf(&b, "%s/sync-%s.journal", paths->dir, paths->site);
	return strbuf_detach(&b, NULL);
}

/* The id of the entry whose file was path, in the kept snapshot. */
static const char *entry_id(const struct sync_keeper *k, const char *collection, const char *path)
{
	if (!k->snap)
		return "";
	uint32_t n = journal_entry_at(k->snap, collection, path);
	return n == SNAP_NONE ? "" : snap_entry_at(k->snap, n).id;
}

/* The asset at path on disk: one item per container on that disk. */
static void add_asset(struct journal_gen *g, const struct sync_keeper *k, bool deleted,
                      const char *disk, const char *path)
{
	struct value_iter it;
	value_iter_init(&it, k->snap ? snap_extras(k->snap, "assets") : VALUE_MISSING);
	while (value_iter_next(&it))
		if (strcmp(value_str(value_map_getz(it.value, "disk"), NULL), disk) == 0)
			journal_gen_add(g, JOURNAL_ASSET, deleted,
			                value_str(value_map_getz(it.value, "handle"), NULL), "", path);
}

/* Adds the item file f holds to g; false when it holds no one item of
 * the feed's kinds and is not a form or a user (which the feed has not). */
static bool add_file(struct journal_gen *g, const struct sync_keeper *k, const struct watch_file *f)
{
	struct strbuf a = STRBUF_INIT, b = STRBUF_INIT;
	enum tag_kind kind;
	bool placed = tag_item_of_change(f->event, f->disk, f->path, &kind, &a, &b);
	bool deleted = strstr(f->event, "Deleted") != NULL;
	if (placed) {
		switch (kind) {
		case TAG_ENTRY:
			journal_gen_add(g, JOURNAL_ENTRY, deleted, a.ptr, entry_id(k, a.ptr, b.ptr), b.ptr);
			break;
		case TAG_TERM:
			journal_gen_add(g, JOURNAL_TERM, deleted, a.ptr, b.ptr, "");
			break;
		case TAG_GLOBAL:
			journal_gen_add(g, JOURNAL_GLOBAL, deleted, a.ptr, "", "");
			break;
		case TAG_NAV:
			journal_gen_add(g, JOURNAL_NAV, deleted, a.ptr, "", "");
			break;
		case TAG_ASSET:
			add_asset(g, k, deleted, a.ptr, b.ptr);
			break;
		default:
			break; /* forms and users: not in the feed */
		}
	}
	strbuf_release(&a);
	strbuf_release(&b);
	return placed;
}

void sync_record_named(const struct config *cfg, const struct shared_paths *paths,
                       uint64_t cache)
{
	char *path = sync_journal_path(paths);
	struct journal j;
	bool named = journal_read(path, &j) == 0 && j.n > 0 && j.gens[j.n - 1].signature == cache;
	journal_free(&j);
	free(path);
	if (!named)
		sync_record(cfg, paths, NULL, NULL, 0, false, cache);
}

uint64_t sync_record_current(const struct config *cfg, const struct shared_paths *paths)
{
	struct generation g;
	if (generation_read(paths->generation, &g) != 0)
		return 0; /* the watcher's first look makes it, and records it */
	sync_record_named(cfg, paths, g.cache_signature);
	return g.cache_signature;
}

void sync_record(const struct config *cfg, const struct shared_paths *paths,
                 const struct sync_keeper *k, const struct watch_file *files, size_t n,
                 bool known, uint64_t new_cache)
{
	struct journal_gen g = {new_cache, !known, NULL, 0, 0};
	for (size_t i = 0; i < n && !g.reset; i++)
		g.reset = !add_file(&g, k, &files[i]);
	if (g.reset) {
		journal_gen_free(&g); /* a reset names no items */
		g.signature = new_cache;
		g.reset = true;
	}
	char *path = sync_journal_path(paths);
	if (journal_append(path, &g, (size_t)cfg->sync_generations) != 0)
		log_every_minute(LOG_LEVEL_ERROR, "cannot write %s (%s): sync tokens from now on "
		                 "are answered 410", path, strerror(errno));
	free(path);
	journal_gen_free(&g);
}
