/* indexer: snapshots built and published in order; see indexer.h. */
#include "autoconfig.h"

#include "change/indexer.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <time.h>
#include <unistd.h>

#include "change/generation.h"
#include "change/signature.h"
#include "core/log.h"
#include "lib/hash.h"
#include "site/index.h"

int indexer_init(struct indexer *x, const struct config *cfg, const struct watch_hooks *hooks,
                 void *state)
{
	memset(x, 0, sizeof *x);
	x->cfg = cfg;
	x->hooks = hooks;
	x->hook_state = state;
	x->logged = (struct strbuf)STRBUF_INIT;
	x->keep_sources = true;
	x->sources = (struct value_builder)VALUE_BUILDER_INIT;
	x->terms = (struct signature_terms)SIGNATURE_TERMS_INIT;
	if (shared_paths_init(&x->paths, cfg) != 0)
		return -1;
	x->shared = true;
	x->segment_prefix = shared_segment_prefix(&x->paths);
	return 0;
}

void indexer_free(struct indexer *x)
{
	snapshot_close(x->snap);
	if (x->shared)
		shared_paths_free(&x->paths);
	free(x->segment_prefix);
	strbuf_release(&x->logged);
	vb_release(&x->sources);
	files_memo_free(&x->memo);
	signature_terms_free(&x->terms);
	memset(x, 0, sizeof *x);
}

value_t indexer_sources(const struct indexer *x)
{
	return x->sources.buf.len ? vb_result(&x->sources) : VALUE_MISSING;
}

/* Takes the sources idx read as the last good versions of its files. */
static void take_sources(struct indexer *x, struct site_index *idx)
{
	vb_release(&x->sources);
	files_memo_free(&x->memo);
	if (!x->keep_sources)
		return;
	x->sources = idx->files.sources;
	idx->files.sources = (struct value_builder)VALUE_BUILDER_INIT;
	x->memo = idx->files.memo;
	idx->files.memo = (struct files_memo){NULL, 0, 0};
}

/* A snapshot it did not build (another process published it) comes
 * without its files' sources: they are read again, so that a file that
 * stops parsing later still has its last good version. */
static void read_sources(struct indexer *x)
{
	if (!x->keep_sources)
		return;
	struct site_index *idx = site_index_read(x->cfg, VALUE_MISSING, NULL, NULL, NULL, true);
	take_sources(x, idx);
	site_index_free(idx);
}

/* The index lock, held (waiting for it): publications are one at a time.
 * The descriptor, or -1. */
static int lock_index(const struct indexer *x)
{
	int fd = open(x->paths.index_lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0 && flock(fd, LOCK_EX) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

static void use_snapshot(struct indexer *x, struct snapshot *snap, uint64_t generation)
{
	snapshot_close(x->snap);
	x->snap = snap;
	x->generation = generation;
}

/* Takes the snapshot of generation g as the last one, unless it is
 * already. False when it cannot be opened. */
static bool take_snapshot_of(struct indexer *x, const struct generation *g)
{
	if (x->snap && x->generation == g->index)
		return true;
	char err[SNAP_ERR_LEN];
	char *path = shared_snapshot_path(&x->paths, g->index);
	struct snapshot *snap = snapshot_map(path, err);
	free(path);
	if (snap)
		use_snapshot(x, snap, g->index);
	return snap != NULL;
}

/* Logs each error, and each file left out, that the last build did not
 * have: said once, when it comes, not at every build. */
static void log_new_problems(struct indexer *x, const struct site_index *idx)
{
	struct strbuf seen = STRBUF_INIT, line = STRBUF_INIT;
	for (size_t i = 0; i < idx->files.nproblems; i++) {
		const struct problem *p = &idx->files.problems[i];
		if (p->warning && !p->left_out)
			continue;
		strbuf_reset(&line);
		files_problem_line(&line, x->cfg->content_root, p->path, p->line, p->message);
		strbuf_addch(&line, '\n');
		if (!strstr(strbuf_str(&x->logged), line.ptr))
			log_warning("%.*s", (int)line.len - 1, line.ptr);
		strbuf_add(&seen, line.ptr, line.len);
	}
	strbuf_release(&x->logged);
	x->logged = seen;
	strbuf_release(&line);
}

/* Room for a snapshot on a full disk: the answers of other cache
 * generations, older snapshots and the segments only they use go. */
static void make_room(struct indexer *x, const struct generation *current)
{
	shared_remove_old_responses(&x->paths, current->cache_signature, current->cache_signature);
	shared_remove_old_snapshots(&x->paths, current->index);
	uint32_t n = x->snap ? snapshot_segment_count(x->snap) : 0;
	const char **used = xcalloc(n ? n : 1, sizeof *used);
	for (uint32_t i = 0; i < n; i++)
		used[i] = snapshot_segment_name(x->snap, i);
	if (x->snap && x->generation == current->index)
		shared_remove_segments(&x->paths, used, n);
	free(used);
}

/* Milliseconds on the monotonic clock: what each step of a publication
 * took goes into its debug line. */
static long long mono_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

/* What a build holds and asks (indexer_publish_held). */
struct holding {
	struct strmap *held; /* borrowed: absolute paths not read */
	const struct strmap *changed; /* borrowed: indexer_change's, or NULL */
	indexer_check_fn check;
	void *arg;
};

#define READ_ROUNDS 8
/* Between two reads of a first look whose files were being written, and
 * how many: 3 s, past the 2 s a file read empty must stay so. */
#define SETTLE_WAIT_NS (100 * 1000000L)
#define FIRST_LOOK_ROUNDS 30

/* The site read (files that no longer parse standing in with their last
 * good version, files held not read), round after round while the check
 * finds files read half: those are held too. NULL when they kept coming. */
static struct site_index *read_site(struct indexer *x, struct holding *h)
{
	value_t previous = indexer_sources(x);
	/* A new indexer (a watcher's first look) has no last good version to
	 * stand in for a file being written: held, it would be left out (an
	 * entry that exists answered 404). It waits for such files instead,
	 * reading the site again once they have settled. */
	bool none_kept = value_is_missing(previous);
	if (none_kept && h->held->n > 0)
		return NULL;
	int rounds = none_kept ? FIRST_LOOK_ROUNDS : READ_ROUNDS;
	for (int round = 0; round < rounds; round++) {
		long long start = mono_ms();
		struct site_index *idx =
			site_index_read(x->cfg, previous, &x->memo, h->held, h->changed, x->keep_sources);
		long long read = mono_ms();
		struct strmap suspects = STRMAP_INIT;
		if (h->check)
			h->check(h->arg, idx->files.reads, idx->files.nreads, &suspects);
		x->ms_read += read - start;
		x->ms_check += mono_ms() - read;
		bool whole = suspects.n == 0;
		if (!whole)
			log_debug("%zu files changed while the site was read: they wait, the rest is read "
			          "again", suspects.n);
		if (!none_kept)
			strmap_put_all(h->held, &suspects);
		strmap_free(&suspects);
		if (whole)
			return idx;
		site_index_free(idx);
		if (none_kept)
			nanosleep(&(struct timespec){0, SETTLE_WAIT_NS}, NULL);
	}
	return NULL;
}

/* Builds the snapshot of generation g.index from idx, rendering only what
 * the last snapshot cannot give. NULL when it cannot be written, even
 * after making room. */
static struct snapshot *build(struct indexer *x, struct site_index *idx,
                              const struct generation *g, const struct generation *current)
{
	long long start = mono_ms();
	log_new_problems(x, idx);
	char *path = shared_snapshot_path(&x->paths, g->index);
	const char *name = strrchr(path, '/') + 1;
	struct snapshot_build_stats stats = {0, 0, 0};
	struct snapshot_how how = {x->snap, x->paths.dir, name, x->segment_prefix, &stats};
	char err[SNAP_ERR_LEN];
	struct snapshot *snap = snapshot_build(idx, g->signature, &how, err);
	if (!snap && current) {
		make_room(x, current);
		snap = snapshot_build(idx, g->signature, &how, err);
	}
	if (!snap)
		log_every_minute(LOG_LEVEL_ERROR, "cannot write the index of %s (%s): each worker "
		                 "reads the site itself until it can be", x->cfg->content_root, err);
	else
		log_debug("generation %llu: %zu files read (%zu unchanged, not parsed again), %u "
		          "entries rendered, %u reused (%u moved); ms: signature %lld, read %lld, "
		          "check %lld, snapshot %lld", (unsigned long long)g->index, x->read, x->taken,
		          stats.rendered, stats.reused, stats.moved, x->ms_signature, x->ms_read,
		          x->ms_check, mono_ms() - start);
	free(path);
	x->built = stats;
	return snap;
}

/* Removes what no worker may open any more: snapshots older than the
 * one before (a worker may be opening it), segments neither uses. */
static void remove_old(struct indexer *x, const struct generation *before, bool had,
                       const struct snapshot *last)
{
	if (!had)
		return;
	shared_remove_old_snapshots(&x->paths, before->index);
	if (!last || x->generation != before->index || !x->snap)
		return; /* another process published meanwhile: its segments stay */
	uint32_t n = snapshot_segment_count(x->snap), m = snapshot_segment_count(last);
	const char **used = xcalloc(n + m + 1, sizeof *used);
	for (uint32_t i = 0; i < n; i++)
		used[i] = snapshot_segment_name(x->snap, i);
	for (uint32_t i = 0; i < m; i++)
		used[n + i] = snapshot_segment_name(last, i);
	shared_remove_segments(&x->paths, used, n + m);
	free(used);
}

/* Names generation g in the generation file, after what answers outside
 * the workers moved to its cache generation. */
static int name_generation(struct indexer *x, const struct generation *g,
                           const struct generation *before, bool had)
{
	bool moved = !had || g->cache_signature != before->cache_signature;
	if (moved && x->hooks && x->hooks->publishing)
		x->hooks->publishing(x->hook_state, x->cfg, g->cache_signature);
	int rc = !had ? generation_create(x->paths.generation, g)
	              : generation_write(x->paths.generation, g);
	if (rc != 0 && !had && errno == EEXIST)
		rc = generation_write(x->paths.generation, g);
	if (rc != 0) {
		log_every_minute(LOG_LEVEL_ERROR, "cannot write %s (%s): changes to the site do not "
		                 "show until it can be written", x->paths.generation, strerror(errno));
		return -1;
	}
	if (moved)
		shared_remove_old_responses(&x->paths, g->cache_signature, g->cache_signature);
	return 0;
}

/* A publication that held files is not of the site as it is: its
 * signatures must not be the site's, or the answers cached from it would
 * be taken for the site's once the held files are read (the cache is
 * keyed by the content signature), and a scan would find it up to date. */
static void not_the_sites(struct generation *g)
{
	uint64_t mark = hash_fnv1a_bytes(&g->index, sizeof g->index) | 1;
	if (g->cache_signature == g->signature)
		g->cache_signature ^= mark;
	g->signature ^= mark;
}

void indexer_file_path(const struct config *cfg, const struct watch_file *f, struct strbuf *out)
{
	const char *root = cfg->content_root;
	for (size_t i = 0; f->disk && i < cfg->ndisks; i++)
		if (strcmp(cfg->disks[i].name, f->disk) == 0)
			root = cfg->disks[i].root;
	strbuf_reset(out);
	strbuf_addf(out, "%s/%s", root, f->path);
}

/* Tells the hooks that the cache generation moved, and which files moved
 * it: those of ch that this publication read, not the held ones, which
 * are told with the publication that reads them (so what the hooks are
 * told, the sync journal among them, is what was published): none,
 * told as such, when every one was held. Unknown (NULL) when ch does not
 * know them. */
static void tell_moved(struct indexer *x, const struct indexer_change *ch,
                       const struct strmap *held, uint64_t old_cache, uint64_t new_cache)
{
	const struct watch_hooks *hk = x->hooks;
	if (!hk)
		return;
	if (hk->moved)
		hk->moved(x->hook_state, x->cfg, ch->event ? ch->event : "ContentSaved", ch->path,
		          old_cache, new_cache);
	if (!hk->moved_files)
		return;
	struct watch_file *told = ch->files ? xmalloc((ch->nfiles + 1) * sizeof *told) : NULL;
	size_t n = 0;
	struct strbuf abs = STRBUF_INIT;
	for (size_t i = 0; ch->files && i < ch->nfiles; i++) {
		indexer_file_path(x->cfg, &ch->files[i], &abs);
		if (!held->n || !strmap_get(held, abs.ptr))
			told[n++] = ch->files[i];
	}
	strbuf_release(&abs);
	hk->moved_files(x->hook_state, x->cfg, told, n, old_cache, new_cache);
	free(told);
}

/* The publication itself, the index lock held. 1, 0 when files kept
 * changing while the site was read, -1. */
static int publish_locked(struct indexer *x, const struct indexer_change *ch, uint64_t signature,
                          struct holding *h)
{
	/* A new indexer (a watcher's first look) goes on from what is
	 * published, whatever files it was of: a file held, or one that no
	 * longer parses, keeps its last good version from it, not left out. */
	struct generation named;
	if (!x->snap && generation_read(x->paths.generation, &named) == 0 &&
	    !(named.flags & GENERATION_NO_SNAPSHOT))
		take_snapshot_of(x, &named);
	x->ms_read = x->ms_check = 0;
	struct site_index *idx = read_site(x, h);
	if (!idx)
		return 0;
	struct generation before, g;
	bool had = generation_read(x->paths.generation, &before) == 0;
	if (had) {
		g = before;
		generation_next(&g, ch->cache, signature);
	} else {
		generation_fresh(&g, signature);
	}
	g.config_print = site_config_print(x->cfg);
	if (h->held->n > 0)
		not_the_sites(&g);
	x->read = idx->files.nreads;
	x->taken = idx->files.taken;
	struct snapshot *snap = build(x, idx, &g, had ? &before : NULL);
	if (snap)
		take_sources(x, idx);
	site_index_free(idx);
	if (!snap)
		g.flags |= GENERATION_NO_SNAPSHOT;
	if (name_generation(x, &g, &before, had) != 0) {
		snapshot_close(snap);
		return -1;
	}
	struct snapshot *last = x->snap;
	x->snap = NULL;
	if (snap)
		use_snapshot(x, snap, g.index);
	remove_old(x, &before, had, last);
	snapshot_close(last);
	uint64_t old_cache = had ? before.cache_signature : 0;
	if (g.cache_signature != old_cache)
		tell_moved(x, ch, h->held, old_cache, g.cache_signature);
	return 1;
}

/* The content signature of the site as it is now: brought up to date for
 * the files changed names, or (NULL) from a walk of every file. Timed for
 * the publication's debug line. */
static uint64_t sign_site(struct indexer *x, const struct strmap *changed)
{
	long long start = mono_ms();
	uint64_t signature = changed ? content_signature_update(x->cfg, &x->terms, changed)
	                             : content_signature_terms(x->cfg, &x->terms);
	x->ms_signature = mono_ms() - start;
	return signature;
}

int indexer_publish_held(struct indexer *x, const struct indexer_change *ch, struct strmap *held,
                         indexer_check_fn check, void *arg)
{
	if (!x->shared)
		return -1;
	int fd = lock_index(x);
	if (fd < 0)
		return -1;
	struct holding h = {held, ch->changed, check, arg};
	int rc = publish_locked(x, ch, sign_site(x, ch->changed), &h);
	close(fd);
	return rc;
}

int indexer_publish(struct indexer *x, const struct indexer_change *ch)
{
	struct strmap none = STRMAP_INIT;
	int rc = indexer_publish_held(x, ch, &none, NULL, NULL);
	strmap_free(&none);
	return rc;
}

/* Whether the generation file names a generation of these files whose
 * snapshot (if it has one) opens: then it is taken as the last. One of
 * other files is taken as the last too, when it opens: the build that
 * follows renders only what changed since. */
static bool published(struct indexer *x, uint64_t signature)
{
	struct generation g;
	if (generation_read(x->paths.generation, &g) != 0)
		return false;
	if (g.flags & GENERATION_NO_SNAPSHOT)
		return false; /* worth another try: room may have been made */
	bool had = x->snap && x->generation == g.index;
	if (!take_snapshot_of(x, &g) || g.signature != signature)
		return false;
	if (!had)
		read_sources(x);
	return true;
}

int indexer_catch_up_held(struct indexer *x, struct strmap *held, indexer_check_fn check,
                          void *arg)
{
	if (!x->shared)
		return -1;
	int fd = lock_index(x);
	if (fd < 0)
		return -1;
	uint64_t signature = sign_site(x, NULL);
	static const struct indexer_change whole = {true, "ContentSaved", NULL, NULL, 0, NULL};
	struct holding h = {held, NULL, check, arg};
	bool was = published(x, signature);
	int rc = was ? 0 : publish_locked(x, &whole, signature, &h);
	x->caught_up = was || rc == 1;
	close(fd);
	return rc;
}

int indexer_catch_up(struct indexer *x)
{
	struct strmap none = STRMAP_INIT;
	int rc = indexer_catch_up_held(x, &none, NULL, NULL);
	strmap_free(&none);
	return rc;
}
