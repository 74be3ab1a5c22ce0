/* follow: a worker's index from generation to generation; see follow.h. */
#include "autoconfig.h"

#include "change/follow.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "change/generation.h"
#include "core/log.h"
#include "site/index.h"

#define SECOND_NS 1000000000LL
/* How long a worker that started the watcher waits for its first look
 * before it answers from what was published before (a site of a million
 * entries changed while no worker ran takes a full build). */
#define FIRST_LOOK_MS 30000

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (long long)ts.tv_sec * SECOND_NS + ts.tv_nsec;
}

/* Reads the site into snapshot bytes (appended to out), a file that no
 * longer parses standing in with its version in the index in use. */
static void build_snapshot_bytes(const struct follow *f, uint64_t generation, struct strbuf *out)
{
	value_t previous = f->snap ? snapshot_sources(f->snap) : VALUE_MISSING;
	struct site_index *idx = site_index_load_over(f->cfg, previous);
	snapshot_write(idx, generation, out);
	site_index_free(idx);
}

static struct snapshot *open_own_bytes(struct strbuf *bytes)
{
	size_t len;
	char *data = strbuf_detach(bytes, &len);
	char err[SNAP_ERR_LEN];
	struct snapshot *snap = snapshot_from_bytes(data, len, err);
	if (!snap) {
		/* Our own fresh bytes: failing here is a bug, not bad input. */
		log_error("the index snapshot just built is unreadable: %s", err);
		abort();
	}
	return snap;
}

static bool same_problem(const struct snap_problem *a, const struct snap_problem *b)
{
	return a->line == b->line && a->warning == b->warning && strcmp(a->path, b->path) == 0 &&
	       strcmp(a->message, b->message) == 0;
}

/* Logs the errors, and the files left out, of a new index that neither
 * the index in use nor the last one built had: a file that stopped
 * parsing, or a folder that cannot be read, is said once, when it
 * changes, not at every build. */
static void log_new_problems(struct follow *f, const struct snapshot *built)
{
	struct strbuf seen = STRBUF_INIT, line = STRBUF_INIT;
	for (uint32_t i = 0; i < snap_problem_count(built); i++) {
		struct snap_problem p = snap_problem_at(built, i);
		if (p.warning && !p.left_out)
			continue;
		bool known = false;
		for (uint32_t j = 0; !known && f->snap && j < snap_problem_count(f->snap); j++) {
			struct snap_problem q = snap_problem_at(f->snap, j);
			known = same_problem(&p, &q);
		}
		strbuf_reset(&line);
		files_problem_line(&line, f->cfg->content_root, p.path, p.line, p.message);
		strbuf_addch(&line, '\n');
		if (!known && !strstr(strbuf_str(&f->logged_problems), line.ptr))
			log_warning("%.*s", (int)line.len - 1, line.ptr);
		strbuf_add(&seen, line.ptr, line.len);
	}
	strbuf_release(&f->logged_problems);
	f->logged_problems = seen;
	strbuf_release(&line);
}

static void use_snapshot(struct follow *f, struct snapshot *snap, uint64_t generation)
{
	snapshot_close(f->snap);
	f->snap = snap;
	f->generation = generation;
	f->serial++;
	f->news |= FOLLOW_NEW_INDEX;
}

bool follow_has_good_index(const struct follow *f)
{
	return f->snap && !snapshot_incomplete(f->snap);
}

/* Whether snap may take the place of the index in use: an index of a
 * site that could not be read whole never replaces a good one. */
static bool takes_over(struct follow *f, struct snapshot *snap, uint64_t generation)
{
	if (!snapshot_incomplete(snap) || !follow_has_good_index(f))
		return true;
	log_every_minute(LOG_LEVEL_ERROR, "the site %s cannot be read whole (generation %llu): "
	                 "still serving its last good index (generation %llu), uncached",
	                 f->cfg->content_root, (unsigned long long)generation,
	                 (unsigned long long)f->generation);
	f->failed_generation = generation;
	f->next_build_try = now_ns() + 2 * SECOND_NS;
	return false;
}

/* A worker with no index at all, the site unreadable: the newest good
 * snapshot another worker left in the cache directory, if any. */
static struct snapshot *newest_good_snapshot(const struct follow *f, uint64_t *generation)
{
	uint64_t n;
	char *path = shared_newest_snapshot(&f->paths, &n);
	char err[SNAP_ERR_LEN];
	struct snapshot *snap = path ? snapshot_map(path, err) : NULL;
	free(path);
	if (snap && snapshot_incomplete(snap)) {
		snapshot_close(snap);
		snap = NULL;
	}
	*generation = n;
	return snap;
}

/* Builds an index of the follower's own from the site, in memory, for
 * generation (0: not a shared one): the CLI, a worker whose cache
 * directory cannot be used, or a generation published without a snapshot
 * (a full disk). */
static void build_own_index(struct follow *f, uint64_t generation)
{
	struct strbuf bytes = STRBUF_INIT;
	f->own_signature = content_signature(f->cfg);
	build_snapshot_bytes(f, generation, &bytes);
	struct snapshot *snap = open_own_bytes(&bytes);
	if (f->wanted != FOLLOW_PRIVATE)
		log_new_problems(f, snap); /* the CLI reports them itself */
	if (takes_over(f, snap, generation))
		use_snapshot(f, snap, generation);
	else
		snapshot_close(snap);
}

/* Maps the snapshot of generation g. A worker that finds none there
 * keeps the index it has until the snapshot is there. A snapshot of a
 * site that could not be read whole is not taken in place of a good
 * index. */
static void load_generation(struct follow *f, const struct generation *g)
{
	if (g->flags & GENERATION_NO_SNAPSHOT) {
		build_own_index(f, g->index);
		return;
	}
	char err[SNAP_ERR_LEN];
	char *path = shared_snapshot_path(&f->paths, g->index);
	struct snapshot *snap = snapshot_map(path, err);
	free(path);
	if (!snap && !f->snap)
		log_every_minute(LOG_LEVEL_ERROR, "no index for generation %llu: %s",
		                 (unsigned long long)g->index, err);
	if (snap && snapshot_incomplete(snap) && !follow_has_good_index(f)) {
		/* No good index in hand: the newest good one on disk serves
		 * until the site reads whole again. */
		uint64_t older;
		struct snapshot *good = newest_good_snapshot(f, &older);
		if (good)
			use_snapshot(f, good, older);
	}
	if (!snap)
		return;
	if (takes_over(f, snap, g->index))
		use_snapshot(f, snap, g->index);
	else
		snapshot_close(snap);
}

static void remember_generation_file(struct follow *f, const struct stat *st)
{
	f->seen_mtime_ns = (long long)st->st_mtim.tv_sec * SECOND_NS + st->st_mtim.tv_nsec;
	f->seen_ino = (unsigned long)st->st_ino;
}

static bool generation_file_unchanged(const struct follow *f, const struct stat *st)
{
	long long mtime = (long long)st->st_mtim.tv_sec * SECOND_NS + st->st_mtim.tv_nsec;
	return mtime == f->seen_mtime_ns && (unsigned long)st->st_ino == f->seen_ino;
}

/* Shared modes: moves to a newer index when the generation file says the
 * site changed (one stat when it did not). */
static void refresh_shared(struct follow *f)
{
	struct stat st;
	if (stat(f->paths.generation, &st) != 0) {
		/* The cache directory was cleared: answer from the index in use
		 * and file nothing until the watcher writes a new generation. */
		f->cache_current = false;
		f->seen_mtime_ns = -1;
		return;
	}
	if (f->snap && generation_file_unchanged(f, &st))
		return;
	struct generation g;
	if (generation_read(f->paths.generation, &g) != 0) {
		f->cache_current = false; /* caught half written: read it again next time */
		return;
	}
	/* Only ever forward: once a request was answered from a generation,
	 * none is answered from an older one. A generation whose site could
	 * not be read whole is tried again every two seconds, not at every
	 * request. */
	if ((!f->snap || g.index > f->generation) &&
	    (g.index != f->failed_generation || now_ns() >= f->next_build_try))
		load_generation(f, &g);
	/* Answers from an older index must not be filed under a newer cache
	 * generation. */
	f->cache_current = f->snap && f->generation == g.index;
	f->cache_generation = g.cache_signature;
	if (f->cache_current)
		remember_generation_file(f, &st);
}

/* Whether the generation file names a generation this worker can start
 * from: one made with its config (what the index reads of it: an INI
 * changed since, a watcher of the old one still ending) whose snapshot
 * opens, or one published without. */
static bool published(const struct follow *f)
{
	struct generation g;
	if (generation_read(f->paths.generation, &g) != 0 ||
	    g.config_print != site_config_print(f->cfg))
		return false;
	if (g.flags & GENERATION_NO_SNAPSHOT)
		return true;
	char err[SNAP_ERR_LEN];
	char *path = shared_snapshot_path(&f->paths, g.index);
	struct snapshot *snap = snapshot_map(path, err);
	free(path);
	snapshot_close(snap);
	return snap != NULL;
}

/* Starts the watcher when the worker is to, and none runs: waits for its
 * first look. True when it started it. */
static bool start_watcher(struct follow *f)
{
	int first_look = -1;
	if (f->wanted != FOLLOW_SHARED_WATCH || !watch_start(f->cfg, f->hooks, &first_look))
		return false;
	if (!watch_wait_first_look(first_look, FIRST_LOOK_MS))
		log_warning("the watcher's first look at the site takes more than %d s: answering "
		            "from the index published before it meanwhile", FIRST_LOOK_MS / 1000);
	return true;
}

/* Waits while a watcher runs that has not published yet (another worker
 * started it: its first look is under way), FIRST_LOOK_MS at most. True
 * when something was published meanwhile. */
static bool await_published(const struct follow *f)
{
	struct timespec tick = {0, 20 * 1000000L};
	long long until = now_ns() + FIRST_LOOK_MS * 1000000LL;
	uint64_t tried = 0; /* the generation last mapped: mapping checks every record */
	for (;;) {
		/* Asked first: a watcher that published, then ended, is seen. */
		bool running = watch_running(f->cfg);
		struct generation g;
		if (generation_read(f->paths.generation, &g) == 0 && g.index != tried) {
			tried = g.index;
			if (published(f))
				return true;
		}
		if (!running || now_ns() >= until)
			return false;
		nanosleep(&tick, NULL);
	}
}

/* Moves to the shared mode asked for. Returns false, with errno set and
 * nothing changed, when the cache directory cannot be used for it. */
static bool share(struct follow *f)
{
	struct shared_paths paths;
	if (shared_paths_init(&paths, f->cfg) != 0)
		return false;
	shared_paths_free(&f->paths);
	f->paths = paths;
	/* A watcher keeps the published index up to date with the site. A
	 * worker that started it waits for its first look: no watcher ran
	 * before, so what is published may be older than the site (an edit
	 * made while no worker ran), and the watcher reads what is being
	 * written only once it is whole. A worker that still finds no index
	 * it can map (no watcher here, or it died) builds and publishes one
	 * itself, waiting while another publishes (indexer.h). */
	struct generation g;
	bool started = start_watcher(f);
	bool ready = published(f);
	/* A watcher that runs without publishing for this worker's config
	 * is on its way out (its worker ended just now) or of another
	 * config: once it is gone, this worker starts one. */
	if (!ready && !(ready = await_published(f)) && !started && start_watcher(f))
		ready = published(f);
	if (!ready)
		watch_scan_once(f->cfg);
	if (generation_read(f->paths.generation, &g) != 0) {
		/* No generation can be written there (a full disk): nothing to
		 * follow. */
		int saved = errno ? errno : EIO;
		shared_paths_free(&f->paths);
		errno = saved;
		return false;
	}
	f->mode = f->wanted;
	f->next_watch_check = now_ns() + 2 * SECOND_NS;
	f->seen_mtime_ns = -1;
	refresh_shared(f);
	f->news |= FOLLOW_SHARING;
	return true;
}

/* Fallen back to an index of its own: looks for changes now and then
 * (see follow.h). */
static void refresh_fallen_back(struct follow *f)
{
	long long now = now_ns();
	if (now >= f->next_site_scan) {
		f->next_site_scan = now + SECOND_NS;
		if (content_signature(f->cfg) != f->own_signature) {
			build_own_index(f, 0);
			log_info("the site changed: this worker's own index was rebuilt");
		}
	}
}

void follow_refresh(struct follow *f)
{
	if (f->mode != FOLLOW_PRIVATE)
		refresh_shared(f);
	else if (f->wanted != FOLLOW_PRIVATE)
		refresh_fallen_back(f);
}

void follow_tend(struct follow *f)
{
	long long now = now_ns();
	if (f->mode == FOLLOW_SHARED_WATCH && now >= f->next_watch_check) {
		/* A watcher that died (its worker was stopped, or killed) is
		 * replaced. */
		watch_start(f->cfg, f->hooks, NULL);
		f->next_watch_check = now + 2 * SECOND_NS;
	}
	if (f->mode == FOLLOW_PRIVATE && f->wanted != FOLLOW_PRIVATE && now >= f->next_share_try) {
		f->next_share_try = now + 2 * SECOND_NS;
		if (share(f))
			log_warning("cache directory %s is usable again: this worker shares the index "
			            "and the cache again", f->cfg->cache_dir);
	}
}

/* Logged once, when the worker starts: what goes without the directory,
 * and who must be able to write it (make install does not make it). */
static void fall_back(struct follow *f, int err)
{
	const char *dir = f->cfg->cache_dir;
	char user[64];
	shared_user_name(user, sizeof user);
	f->mode = FOLLOW_PRIVATE;
	if (!dir || !*dir)
		log_warning("no [cache] dir is set: answers are not cached, and this worker reads the "
		            "whole site itself and looks for changes itself; set one that %s, the user "
		            "this worker runs as, may write", user);
	else
		log_warning("cache directory %s is not usable (%s) for %s, the user this worker runs "
		            "as: answers are not cached, and this worker reads the whole site itself "
		            "and looks for changes itself; make it that user's (install -d -o %s -m "
		            "0700 %s) or set [cache] dir to one it may write (cms-api check, run as %s, "
		            "says more). The directory is tried again every 2 seconds",
		            dir, strerror(err), user, user, dir, user);
	f->next_share_try = now_ns() + 2 * SECOND_NS;
	f->next_site_scan = now_ns() + SECOND_NS;
}

void follow_open(struct follow *f, const struct config *cfg, enum follow_mode mode,
                 const struct watch_hooks *hooks)
{
	memset(f, 0, sizeof *f);
	f->cfg = cfg;
	f->hooks = hooks;
	f->wanted = mode;
	f->mode = mode;
	if (mode != FOLLOW_PRIVATE && !share(f))
		fall_back(f, errno ? errno : EIO);
	if (f->mode == FOLLOW_PRIVATE && !f->snap)
		build_own_index(f, 0);
}

void follow_close(struct follow *f)
{
	strbuf_release(&f->logged_problems);
	snapshot_close(f->snap);
	shared_paths_free(&f->paths);
	memset(f, 0, sizeof *f);
}

unsigned follow_take_news(struct follow *f)
{
	unsigned news = f->news;
	f->news = 0;
	return news;
}
