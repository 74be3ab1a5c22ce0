/*
 * watch: change detection for the site's files; see watch.h.
 *
 * The watcher is deliberately a separate process: a FastCGI worker only
 * runs while it serves a request, and a change must be noticed while
 * every worker is busy or idle.
 */
#include "autoconfig.h"

#include "change/watch.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "change/indexer.h"
#include "change/shared.h"
#include "core/log.h"
#include "lib/hash.h"
#include "lib/strbuf.h"
#include "lib/strmap.h"
#include "site/frontmatter.h"


/* --- event names --- */

/* Where below the prefix a file must be for a rule to apply. */
enum depth { ANY_DEPTH, TOP_LEVEL, IN_SUBFOLDER };

struct event_rule {
	const char *prefix; /* path prefix, '/' included when it is a folder */
	enum depth depth;
	const char *saved, *deleted;
};

/* First match wins; the depth tells content/collections/blog.yaml (the
 * collection) from content/collections/blog/x.md (an entry). */
static const struct event_rule rules[] = {
	{"content/collections/", IN_SUBFOLDER, "EntrySaved", "EntryDeleted"},
	{"content/collections/", TOP_LEVEL, "CollectionSaved", "CollectionDeleted"},
	{"content/trees/collections/", ANY_DEPTH, "CollectionTreeSaved", "CollectionTreeDeleted"},
	{"content/trees/navigation/", ANY_DEPTH, "NavTreeSaved", "NavTreeDeleted"},
	{"content/navigation/", ANY_DEPTH, "NavSaved", "NavDeleted"},
	{"content/taxonomies/", IN_SUBFOLDER, "TermSaved", "TermDeleted"},
	{"content/taxonomies/", TOP_LEVEL, "TaxonomySaved", "TaxonomyDeleted"},
	{"content/globals/", IN_SUBFOLDER, "GlobalVariablesSaved", "GlobalVariablesDeleted"},
	{"content/globals/", TOP_LEVEL, "GlobalSetSaved", "GlobalSetDeleted"},
	{"content/assets/", ANY_DEPTH, "AssetContainerSaved", "AssetContainerDeleted"},
	{"resources/blueprints/", ANY_DEPTH, "BlueprintSaved", "BlueprintDeleted"},
	{"resources/fieldsets/", ANY_DEPTH, "FieldsetSaved", "FieldsetDeleted"},
	{"resources/forms/", ANY_DEPTH, "FormSaved", "FormDeleted"},
	{"resources/sites.yaml", ANY_DEPTH, "SiteSaved", "SiteDeleted"},
	{"resources/users/roles.yaml", ANY_DEPTH, "RoleSaved", "RoleDeleted"},
	{"resources/users/groups.yaml", ANY_DEPTH, "UserGroupSaved", "UserGroupDeleted"},
	{"users/", ANY_DEPTH, "UserSaved", "UserDeleted"},
};

static bool has_hidden_part(const char *rel)
{
	for (const char *p = rel; *p; p++)
		if (*p == '.' && (p == rel || p[-1] == '/'))
			return true;
	return false;
}

const char *watch_event_name(const char *rel, bool deleted)
{
	if (has_hidden_part(rel) || strncmp(rel, "storage/", 8) == 0)
		return NULL;
	for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) {
		size_t n = strlen(rules[i].prefix);
		if (strncmp(rel, rules[i].prefix, n) != 0)
			continue;
		bool nested = strchr(rel + n, '/') != NULL;
		if ((rules[i].depth == TOP_LEVEL && nested) ||
		    (rules[i].depth == IN_SUBFOLDER && !nested))
			continue;
		return deleted ? rules[i].deleted : rules[i].saved;
	}
	/* Something else Statamic may read: never ignorable. */
	return deleted ? "ContentDeleted" : "ContentSaved";
}

bool watch_event_ignored(const struct config *cfg, const char *name)
{
	return strlist_contains(&cfg->ignored_events, name);
}

static volatile sig_atomic_t reopen_requested;

/* The hooks of the watcher this process is (watch_start), for its
 * signal handler. */
static const struct watch_hooks *running_hooks;

static void on_hangup(int sig)
{
	(void)sig;
	reopen_requested = 1;
}

/* SIGTERM or SIGINT: the worker that started the watcher ended
 * (PR_SET_PDEATHSIG), or the pool is stopping. Nobody will notice a change
 * any more, so the hooks withdraw what would go stale (the static fast
 * path: fastpath.h) before the signal does what it would have done. */
static void on_stop(int sig)
{
	if (running_hooks && running_hooks->stop)
		running_hooks->stop();
	signal(sig, SIG_DFL);
	raise(sig);
}

int watch_scan_once(const struct config *cfg)
{
	struct indexer x;
	int rc = indexer_init(&x, cfg, NULL, NULL);
	x.keep_sources = false; /* it publishes once and ends */
	rc = rc == 0 ? indexer_catch_up(&x) : -1;
	indexer_free(&x);
	return rc;
}

/* What a watch descriptor watches: a folder below the site root, or
 * below an asset disk's root (whose changes are AssetSaved and
 * AssetDeleted), or an icon folder. */
struct watched {
	char *rel;        /* owned: relative to its root; NULL when unused */
	const char *root; /* the site root, a disk root or an icon folder (the config's) */
	bool disk;
	bool site_folder; /* the site folder itself, watched alone, not its tree */
	bool icons;       /* an icon folder of [icons], watched alone, not its tree */
};

struct watch_table {
	int fd;
	struct watched *w; /* indexed by watch descriptor; owned */
	int size;
};

static void remember_watch(struct watch_table *t, int wd, const char *root, bool disk,
                           const char *rel)
{
	if (wd >= t->size) {
		int size = t->size ? t->size : 64;
		while (size <= wd)
			size *= 2;
		t->w = xrealloc(t->w, (size_t)size * sizeof *t->w);
		memset(t->w + t->size, 0, (size_t)(size - t->size) * sizeof *t->w);
		t->size = size;
	}
	free(t->w[wd].rel);
	t->w[wd] = (struct watched){xstrdup(rel), root, disk, false, false};
}

/* The changes a watched folder reports. */
#define FOLDER_EVENTS                                                                      \
	(IN_CLOSE_WRITE | IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | \
	 IN_ATTRIB | IN_DELETE_SELF | IN_ONLYDIR)

static void watch_tree(struct watch_table *t, const char *root, bool disk, const char *rel,
                       int depth)
{
	struct strbuf abs = STRBUF_INIT;
	strbuf_addf(&abs, "%s%s%s", root, *rel ? "/" : "", rel);
	int wd = inotify_add_watch(t->fd, abs.ptr, FOLDER_EVENTS);
	if (wd >= 0)
		remember_watch(t, wd, root, disk, rel);
	DIR *d = wd >= 0 && depth < SIGNATURE_MAX_DEPTH ? opendir(abs.ptr) : NULL;
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		if (!signature_visible(e->d_name, disk) || (e->d_type != DT_DIR && e->d_type != DT_UNKNOWN))
			continue;
		struct strbuf child = STRBUF_INIT;
		strbuf_addf(&child, "%s%s%s", rel, *rel ? "/" : "", e->d_name);
		struct stat st;
		struct strbuf child_abs = STRBUF_INIT;
		strbuf_addf(&child_abs, "%s/%s", root, child.ptr);
		if (stat(child_abs.ptr, &st) == 0 && S_ISDIR(st.st_mode))
			watch_tree(t, root, disk, child.ptr, depth + 1);
		strbuf_release(&child);
		strbuf_release(&child_abs);
	}
	if (d)
		closedir(d);
	strbuf_release(&abs);
}

/* The files a change touched, for the hooks (watch_file); overflowed
 * when there were more than WATCH_MAX_FILES, and then none are kept. */
struct touched {
	struct watch_file *files; /* owned, each path owned */
	size_t n, alloc;
	bool overflowed;
};

static void touched_add(struct touched *t, const char *event, const char *disk,
                        const char *path)
{
	if (t->overflowed)
		return;
	if (t->n == WATCH_MAX_FILES) {
		t->overflowed = true;
		return;
	}
	if (t->n == t->alloc) {
		t->alloc = t->alloc ? t->alloc * 2 : 16;
		t->files = xrealloc(t->files, t->alloc * sizeof *t->files);
	}
	t->files[t->n++] = (struct watch_file){event, disk, xstrdup(path)};
}

static void touched_free(struct touched *t)
{
	for (size_t i = 0; i < t->n; i++)
		free((char *)t->files[i].path);
	free(t->files);
	memset(t, 0, sizeof *t);
}

/* Adds what src touched, later, to dst. */
static void touched_merge(struct touched *dst, const struct touched *src)
{
	dst->overflowed |= src->overflowed;
	for (size_t i = 0; i < src->n; i++)
		touched_add(dst, src->files[i].event, src->files[i].disk, src->files[i].path);
}

/* A file being written: modified, not yet closed. */
struct writing {
	char *path;       /* owned: absolute */
	long long since;  /* monotonic ms of its last write */
};

/* What the watcher saw since it last published. */
struct change {
	bool index, cache, rescan;
	bool rewatch; /* a watched folder went away or came back: watch afresh */
	/* An event that does not name every file it changes (a folder's, an
	 * icon's, the queue's overflow): the publication looks at every file,
	 * not only at those of changed. */
	bool unsure;
	/* The first event that moves the cache, for the cache driver; its
	 * path only when it is the only one. */
	const char *event;
	struct strbuf event_path; /* owned */
	bool several;
	struct writing *writing; /* owned: files whose writer has not closed them */
	size_t nwriting;
	struct strmap changed;   /* owned: absolute paths of the files with events */
	struct strmap closed;    /* owned: absolute paths whose writer was done */
	struct touched touched;  /* owned: every file named by an event, for the hooks */
};

#define CHANGE_INIT                                                                        \
	{false, false, false, false, false, NULL, STRBUF_INIT, false, NULL, 0, STRMAP_INIT,       \
	 STRMAP_INIT, {NULL, 0, 0, false}}

/* A writer that keeps a file open this long without writing is taken to
 * be done with it (a log, an editor's swap): its file is read then, the
 * read checking that it did not change meanwhile (frontmatter.h). */
#define QUIET_MS 2000

/* The stat scan's period, and how long an edit after another may put it
 * off (watch_run). */
#define SCAN_EVERY_S 30
#define SCAN_AT_LEAST_S 300

static long long wall_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static void forget_writing(struct change *ch, size_t i)
{
	free(ch->writing[i].path);
	ch->writing[i] = ch->writing[--ch->nwriting];
}

/* Notes that path is being written (written) or that its writer is done
 * with it (closed, removed, renamed away). */
static void note_writing(struct change *ch, const char *path, bool written)
{
	if (!written)
		strmap_put(&ch->closed, path, "");
	for (size_t i = 0; i < ch->nwriting; i++) {
		if (strcmp(ch->writing[i].path, path) != 0)
			continue;
		if (written)
			ch->writing[i].since = now_ms();
		else
			forget_writing(ch, i);
		return;
	}
	if (!written)
		return;
	ch->writing = xrealloc(ch->writing, (ch->nwriting + 1) * sizeof *ch->writing);
	ch->writing[ch->nwriting++] = (struct writing){xstrdup(path), now_ms()};
}

/* Whether every file of the change has been written whole: its writer
 * closed it, or has been quiet for QUIET_MS. A truncate, then a write,
 * read between the two, is half a file. */
static bool settled(const struct change *ch)
{
	long long now = now_ms();
	for (size_t i = 0; i < ch->nwriting; i++)
		if (now - ch->writing[i].since < QUIET_MS)
			return false;
	return true;
}

/* The files of the change still being written, as a set of absolute
 * paths: a publication does not read them (indexer.h: held). */
static void being_written(const struct change *ch, struct strmap *held)
{
	long long now = now_ms();
	for (size_t i = 0; i < ch->nwriting; i++)
		if (now - ch->writing[i].since < QUIET_MS)
			strmap_put(held, ch->writing[i].path, ch->writing[i].path);
}

static void change_release(struct change *ch)
{
	while (ch->nwriting)
		forget_writing(ch, ch->nwriting - 1);
	free(ch->writing);
	strbuf_release(&ch->event_path);
	strmap_free(&ch->changed);
	strmap_free(&ch->closed);
	touched_free(&ch->touched);
	*ch = (struct change)CHANGE_INIT;
}

/* Adds what src saw, later, to dst (src is emptied): a file src saw
 * closed is no longer being written, unless src saw it written again
 * after (src->writing). */
static void change_merge(struct change *dst, struct change *src)
{
	dst->index |= src->index;
	dst->rescan |= src->rescan;
	dst->rewatch |= src->rewatch;
	dst->unsure |= src->unsure;
	if (src->cache) {
		dst->several |= dst->cache || src->several;
		if (!dst->cache) {
			dst->event = src->event;
			strbuf_addstr(&dst->event_path, strbuf_str(&src->event_path));
		}
		dst->cache = true;
	}
	for (size_t i = 0; i < src->closed.nslots; i++)
		if (src->closed.keys[i])
			note_writing(dst, src->closed.keys[i], false);
	for (size_t i = 0; i < src->nwriting; i++)
		note_writing(dst, src->writing[i].path, true);
	strmap_put_all(&dst->changed, &src->changed);
	touched_merge(&dst->touched, &src->touched);
	change_release(src);
}

static bool is_watched_top(const char *name)
{
	for (size_t i = 0; i < SIGNATURE_NTOPS; i++)
		if (strcmp(name, signature_tops[i]) == 0)
			return true;
	return false;
}

/* An event about a watched folder itself, or about the site folder's
 * children: permissions changed, the folder moved or removed, a top
 * folder made, renamed or removed. Inotify says nothing of the files
 * such a change hides or shows, so a stat scan looks. */
static bool folder_event(const struct watched *w, const struct inotify_event *ev,
                         struct change *ch)
{
	if (ev->len == 0) {
		if (ev->mask & IN_ATTRIB)
			ch->rescan = true;
		if (ev->mask & (IN_DELETE_SELF | IN_MOVE_SELF))
			ch->rescan = ch->rewatch = true;
		return true;
	}
	if (!w->site_folder)
		return false;
	if (is_watched_top(ev->name))
		ch->rescan = ch->rewatch = true;
	return true;
}

/* The [disks.<name>] whose root a watch is below, or NULL for the site. */
static const char *disk_name(const struct config *cfg, const struct watched *w)
{
	for (size_t i = 0; w->disk && i < cfg->ndisks; i++)
		if (cfg->disks[i].root == w->root)
			return cfg->disks[i].name;
	return NULL;
}

/* The event a file under w named name (at rel) gets, or NULL when
 * Statamic does not read it. */
static const char *file_event(const struct watched *w, const struct inotify_event *ev,
                              const char *rel, bool deleted)
{
	bool shown = signature_visible(ev->name, w->disk);
	if (w->icons)
		return !shown || (ev->mask & IN_ISDIR) ? NULL
		       : deleted                       ? "ContentDeleted"
		                                       : "ContentSaved";
	if (w->disk)
		return !shown && !strstr(w->rel, ".meta") ? NULL
		       : deleted                         ? "AssetDeleted"
		                                         : "AssetSaved";
	if (ev->mask & IN_ISDIR)
		return shown ? "ContentSaved" : NULL;
	return watch_event_name(rel, deleted);
}

/* Notes the file at rel under w as touched by event name. An icon is in
 * whichever items name it: its change touches files not known. */
static void touch(struct touched *t, const struct config *cfg, const struct watched *w,
                  const char *name, const char *rel)
{
	if (w->icons)
		t->overflowed = true;
	else
		touched_add(t, name, disk_name(cfg, w), rel);
}

/* The first half of a rename within the site (see renamed_within_site):
 * no event of its own for the cache, but the file it names is gone, which
 * the hooks that follow files are told, and its writer is done with it. */
static void note_renamed_from(struct watch_table *t, const struct config *cfg,
                              const struct inotify_event *ev, struct change *ch)
{
	if (ev->wd < 0 || ev->wd >= t->size || !t->w[ev->wd].rel || ev->len == 0)
		return;
	struct watched *w = &t->w[ev->wd];
	struct strbuf rel = STRBUF_INIT;
	strbuf_addf(&rel, "%s%s%s", w->rel, *w->rel ? "/" : "", ev->name);
	const char *name = file_event(w, ev, rel.ptr, true);
	if (name)
		touch(&ch->touched, cfg, w, name, rel.ptr);
	strbuf_release(&rel);
}

static void note_event(struct watch_table *t, const struct config *cfg,
                       const struct inotify_event *ev, struct change *ch)
{
	if (ev->mask & IN_Q_OVERFLOW) {
		ch->rescan = ch->unsure = true;
		return;
	}
	if (ev->wd < 0 || ev->wd >= t->size || !t->w[ev->wd].rel)
		return;
	struct watched *w = &t->w[ev->wd];
	if (ev->mask & IN_IGNORED) {
		free(w->rel);
		w->rel = NULL;
		ch->unsure = true;
		return;
	}
	if ((ev->mask & IN_ISDIR) || w->icons)
		ch->unsure = true;
	if (folder_event(w, ev, ch)) {
		ch->unsure = true;
		return;
	}
	struct strbuf rel = STRBUF_INIT;
	strbuf_addf(&rel, "%s%s%s", w->rel, *w->rel ? "/" : "", ev->name);
	bool deleted = ev->mask & (IN_DELETE | IN_MOVED_FROM);
	if (!(ev->mask & IN_ISDIR)) {
		struct strbuf abs = STRBUF_INIT;
		strbuf_addf(&abs, "%s/%s", w->root, rel.ptr);
		strmap_put(&ch->changed, abs.ptr, "");
		if (ev->mask & (IN_MODIFY | IN_CREATE | IN_CLOSE_WRITE | IN_DELETE | IN_MOVED_FROM))
			note_writing(ch, abs.ptr, (ev->mask & (IN_MODIFY | IN_CREATE)) != 0);
		strbuf_release(&abs);
	}
	if ((ev->mask & IN_ISDIR) && (ev->mask & (IN_CREATE | IN_MOVED_TO)) &&
	    signature_visible(ev->name, w->disk) && !w->icons)
		watch_tree(t, w->root, w->disk, rel.ptr, 0);
	const char *name = file_event(w, ev, rel.ptr, deleted);
	if (name) {
		log_debug("%s: %s", rel.ptr, name);
		touch(&ch->touched, cfg, w, name, rel.ptr);
		ch->index = true;
		if (!watch_event_ignored(cfg, name)) {
			ch->cache = true;
			/* An icon is no file of the site: told as no one path. */
			if (ch->event || w->icons)
				ch->several = true;
			else
				strbuf_addstr(&ch->event_path, rel.ptr);
			ch->event = ch->event ? ch->event : name;
		}
	}
	strbuf_release(&rel);
}

/* True when ev is the first half of a rename whose second half (the same
 * cookie) follows at next: an editor's or sed's atomic save renames a
 * temporary file over the real one, which Statamic would see as a save
 * (the second half), not a deletion. */
static bool renamed_within_site(const struct inotify_event *ev, const char *next,
                                const char *end)
{
	if (!(ev->mask & IN_MOVED_FROM) || next + sizeof *ev > end)
		return false;
	const struct inotify_event *to = (const struct inotify_event *)next;
	return (to->mask & IN_MOVED_TO) && to->cookie == ev->cookie;
}

/* Reads what inotify has, waiting up to timeout_ms for the first event,
 * then gathering the rest of a burst (a deploy, a git pull) for up to
 * 50 ms more: never longer, or edits that keep coming would never be
 * published. */
static void drain(struct watch_table *t, const struct config *cfg, int timeout_ms,
                  struct change *ch)
{
	struct pollfd pfd = {t->fd, POLLIN, 0};
	char buf[16384] __attribute__((aligned(__alignof__(struct inotify_event))));
	long long until = -1;
	while (poll(&pfd, 1, timeout_ms) > 0) {
		ssize_t n = read(t->fd, buf, sizeof buf);
		if (n <= 0)
			break;
		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;
			p += sizeof *ev + ev->len;
			if (!renamed_within_site(ev, p, buf + n))
				note_event(t, cfg, ev, ch);
			else
				note_renamed_from(t, cfg, ev, ch);
		}
		if (until < 0)
			until = now_ms() + 50;
		timeout_ms = (int)(until - now_ms());
		if (timeout_ms <= 0)
			break;
	}
}

/*
 * Files read empty, each with the version first seen empty. A truncate
 * shows its new size before it shows its mtime, its ctime and its event
 * (ext4 sets the times once the blocks are freed, which waits on the
 * journal), so a file read in the middle of one looks settled: empty,
 * changed long ago, no event. An empty file is taken only once it has
 * looked the same for QUIET_MS; until then its last good version stands.
 */
struct empty {
	char *path; /* owned: absolute */
	struct file_stamp stamp;
	long long since; /* monotonic ms when first seen in this version */
};

struct empties {
	struct empty *e; /* owned */
	size_t n;
};

static void empties_free(struct empties *m)
{
	for (size_t i = 0; i < m->n; i++)
		free(m->e[i].path);
	free(m->e);
	m->e = NULL;
	m->n = 0;
}

/* Whether the file r read empty has been empty, in that version, for
 * QUIET_MS; notes it when not. */
static bool empty_settled(struct empties *m, const struct file_read *r)
{
	long long now = now_ms();
	for (size_t i = 0; i < m->n; i++) {
		if (strcmp(m->e[i].path, r->path) != 0)
			continue;
		if (file_stamp_equal(&m->e[i].stamp, &r->stamp))
			return now - m->e[i].since >= QUIET_MS;
		m->e[i].stamp = r->stamp;
		m->e[i].since = now;
		return false;
	}
	m->e = xrealloc(m->e, (m->n + 1) * sizeof *m->e);
	m->e[m->n++] = (struct empty){xstrdup(r->path), r->stamp, now};
	return false;
}

/* Forgets the file at path (read with something in it). */
static void empty_forget(struct empties *m, const char *path)
{
	for (size_t i = 0; i < m->n; i++) {
		if (strcmp(m->e[i].path, path) != 0)
			continue;
		free(m->e[i].path);
		m->e[i] = m->e[--m->n];
		return;
	}
}

/* What a publication's check reads: the events that came while the site
 * was read. */
struct during {
	struct watch_table *t;
	const struct config *cfg;
	struct change later;     /* what came meanwhile */
	struct empties *empties; /* the watcher's: files read empty */
};

/* A file changed less than this long before it is checked may be in the
 * middle of a write whose events are not queued yet: a writer's data is
 * seen before its event is, and a writer stopped between the two (the
 * machine busy) would leave a half file with no event to say so. */
#define SETTLE_MS 100


/* What the check finds of a file read. */
enum read_verdict {
	READ_WHOLE,
	READ_RECENT, /* the same version, changed too lately to tell */
	READ_HALF,   /* changed since, or being written */
};

/* Whether the file r read may have been read half: it changed since (or
 * is being written meanwhile), or it changed so lately (*changed_ms, wall
 * ms) that a write may still be under way. */
static enum read_verdict judge_read(const struct during *d, const struct strmap *written,
                                    const struct file_read *r, long long *changed_ms)
{
	struct file_stamp now;
	if (!frontmatter_stamp(r->path, &now) || !file_stamp_equal(&now, &r->stamp))
		return READ_HALF;
	if (strmap_get(&d->later.changed, r->path) && strmap_get(written, r->path))
		return READ_HALF;
	*changed_ms = (now.mtime_ns > now.ctime_ns ? now.mtime_ns : now.ctime_ns) / 1000000;
	return wall_ms() - *changed_ms < SETTLE_MS ? READ_RECENT : READ_WHOLE;
}

/* Waits until a change made at changed_ms (wall) is SETTLE_MS old, then
 * takes in the events that came meanwhile. */
static void wait_settled(struct during *d, long long changed_ms, struct strmap *written)
{
	long long wait = changed_ms + SETTLE_MS - wall_ms();
	if (wait > SETTLE_MS)
		wait = SETTLE_MS; /* a clock gone back: never longer */
	if (wait > 0) {
		struct timespec ts = {0, (long)wait * 1000000L};
		nanosleep(&ts, NULL);
	}
	if (d->t->fd >= 0)
		drain(d->t, d->cfg, 0, &d->later);
	strmap_free(written);
	being_written(&d->later, written);
}

/*
 * The check of a publication (indexer_check_fn): of the files the build
 * read, those it may have read half. A file whose writer truncated it
 * before the build read it, and wrote the rest after, was read between
 * the two: the version read is not the one there now, or it is still
 * being written. One changed too lately to tell is waited for (the edit
 * just made is the one the publication is for), then judged again.
 */
static void read_half(void *arg, const struct file_read *reads, size_t nreads,
                      struct strmap *suspects)
{
	struct during *d = arg;
	if (d->t->fd >= 0)
		drain(d->t, d->cfg, 0, &d->later);
	struct strmap written = STRMAP_INIT;
	being_written(&d->later, &written);
	size_t *recent = NULL, nrecent = 0;
	long long newest = 0;
	for (size_t i = 0; i < nreads; i++) {
		const struct file_read *r = &reads[i];
		/* Not read now: a version a publication before read and checked
		 * (a change since is an event, for the next one). */
		if (r->taken)
			continue;
		bool empty = r->stamp.size == 0;
		if (!empty && d->empties->n)
			empty_forget(d->empties, r->path);
		long long changed = 0;
		enum read_verdict v = judge_read(d, &written, r, &changed);
		if (v == READ_HALF || (empty && !empty_settled(d->empties, r))) {
			strmap_put(suspects, r->path, "");
		} else if (v == READ_RECENT) {
			recent = xrealloc(recent, (nrecent + 1) * sizeof *recent);
			recent[nrecent++] = i;
			newest = changed > newest ? changed : newest;
		}
	}
	if (nrecent)
		wait_settled(d, newest, &written);
	for (size_t k = 0; k < nrecent; k++) {
		long long changed;
		if (judge_read(d, &written, &reads[recent[k]], &changed) == READ_HALF)
			strmap_put(suspects, reads[recent[k]].path, "");
	}
	free(recent);
	strmap_free(&written);
}

/* Adds to next the files of t that were held (indexer.h): the hooks are
 * told of them with the publication that reads them. */
static void keep_held(struct touched *next, const struct touched *t, const struct config *cfg,
                      const struct strmap *held)
{
	next->overflowed = t->overflowed;
	struct strbuf abs = STRBUF_INIT;
	for (size_t i = 0; i < t->n; i++) {
		indexer_file_path(cfg, &t->files[i], &abs);
		if (strmap_get(held, abs.ptr))
			touched_add(next, t->files[i].event, t->files[i].disk, t->files[i].path);
	}
	strbuf_release(&abs);
}

/* The most deletions one publication logs file by file (a deploy may
 * remove thousands): the rest are counted. */
#define LOGGED_DELETIONS 20

/* Logs the files of t that were deleted (or moved away) and are still
 * gone, now that a publication took them out of the answers: a deletion
 * is said as such, never as a file that failed to read. */
static void log_deleted(const struct touched *t, const struct config *cfg)
{
	struct strbuf abs = STRBUF_INIT;
	size_t n = 0;
	for (size_t i = 0; i < t->n; i++) {
		const char *ev = t->files[i].event;
		size_t len = strlen(ev);
		struct stat st;
		if (len < 7 || strcmp(ev + len - 7, "Deleted") != 0)
			continue;
		indexer_file_path(cfg, &t->files[i], &abs);
		if (lstat(abs.ptr, &st) == 0 || errno != ENOENT)
			continue;
		if (n++ < LOGGED_DELETIONS)
			log_info("%s: deleted (%s): no longer served", abs.ptr, ev);
	}
	if (n > LOGGED_DELETIONS)
		log_info("%zu more files deleted: no longer served", n - LOGGED_DELETIONS);
	strbuf_release(&abs);
}

/*
 * Publishes the change the watcher saw (indexer.h), or (whole) the site
 * as it is when it is not what was published last (a stat scan). A file
 * still being written is not read: its last good version stands in, and
 * it comes with a later publication, once written whole; so does a file
 * the check finds read half. True when it published.
 */
static bool publish(struct indexer *x, struct watch_table *t, const struct config *cfg,
                    struct change *ch, struct empties *empties, bool whole)
{
	bool known = !ch->touched.overflowed;
	/* Every file that changed since the last publication had an event,
	 * unless one of them did not say which: then every file is looked at. */
	bool told = !ch->unsure && !ch->rescan && t->fd >= 0;
	struct indexer_change what = {ch->cache,
	                              ch->event,
	                              ch->several ? NULL : strbuf_str(&ch->event_path),
	                              known ? ch->touched.files : NULL,
	                              known ? ch->touched.n : 0,
	                              told ? &ch->changed : NULL};
	struct strmap held = STRMAP_INIT;
	being_written(ch, &held);
	struct during d = {t, cfg, CHANGE_INIT, empties};
	int rc = whole ? indexer_catch_up_held(x, &held, read_half, &d)
	               : indexer_publish_held(x, &what, &held, read_half, &d);
	/* What was held comes with a later publication. */
	bool waiting = held.n > 0;
	if (rc != 1) {
		strmap_free(&held);
		change_merge(ch, &d.later);
		return false;
	}
	log_deleted(&ch->touched, cfg);
	/* What was held, and what came meanwhile, is for the next one. A
	 * held file's edit is still to be seen: its answers, cached meanwhile
	 * from its last version, go with the next cache generation too. */
	struct change next = CHANGE_INIT;
	for (size_t i = 0; i < ch->nwriting; i++)
		note_writing(&next, ch->writing[i].path, true);
	for (size_t i = 0; i < next.nwriting; i++)
		next.writing[i].since = ch->writing[i].since;
	if (waiting) {
		next.index = true;
		next.cache = ch->cache;
		next.event = ch->event;
		next.several = ch->several;
		strbuf_addstr(&next.event_path, strbuf_str(&ch->event_path));
		keep_held(&next.touched, &ch->touched, cfg, &held);
	}
	/* The files held were not read: looked at by the next publication. */
	for (size_t i = 0; i < held.nslots; i++)
		if (held.keys[i])
			strmap_put(&next.changed, held.keys[i], "");
	strmap_free(&held);
	change_merge(&next, &d.later);
	change_release(ch);
	*ch = next;
	return true;
}

/*
 * Whether the lock this process holds is still the lock file at its path.
 * When the file is gone (the cache directory cleared or deleted), it is
 * made again (the directory too) and locked; when another process locked
 * the new file first, this watcher is one too many: false, and it ends.
 * A directory that cannot be used at all holds no one's lock: true.
 */
static bool keep_lock(const struct config *cfg, int *lock_fd)
{
	struct shared_paths paths;
	if (shared_paths_init(&paths, cfg) != 0)
		return true;
	struct stat held, there;
	bool ours = fstat(*lock_fd, &held) == 0 && stat(paths.watch_lock, &there) == 0 &&
	            held.st_dev == there.st_dev && held.st_ino == there.st_ino;
	if (!ours) {
		int fd = open(paths.watch_lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0) {
			close(*lock_fd);
			*lock_fd = fd;
			ours = true;
			log_info("%s was removed: made it again; still watching", paths.watch_lock);
		} else {
			if (fd >= 0)
				close(fd);
			log_info("another watcher holds %s now: this one ends", paths.watch_lock);
		}
	}
	shared_paths_free(&paths);
	return ours;
}

/* Publishes again when the generation file (or the snapshot it names) is
 * gone, with a generation never used before, so that workers move to an
 * index (and a cache) of their own instead of waiting for the next
 * change. */
static void restore_generation(struct indexer *x)
{
	struct stat st;
	if (stat(x->paths.generation, &st) == 0 || errno != ENOENT)
		return;
	if (indexer_catch_up(x) == 1)
		log_info("%s was removed: made it again (generation %llu)", x->paths.generation,
		         (unsigned long long)x->generation);
}

static void unwatch_all(struct watch_table *t)
{
	if (t->fd >= 0)
		close(t->fd);
	for (int i = 0; i < t->size; i++)
		free(t->w[i].rel);
	free(t->w);
	t->w = NULL;
	t->size = 0;
	t->fd = -1;
}

/* An icon folder: its own files alone, as content_signature signs it.
 * A folder the site's or a disk's trees hold is theirs already (inotify
 * gives a folder watched twice the same descriptor; IN_MASK_ADD keeps
 * the events asked for first). */
static void watch_icon_folder(struct watch_table *t, const char *folder)
{
	int wd = inotify_add_watch(t->fd, folder, FOLDER_EVENTS | IN_MASK_ADD);
	if (wd < 0 || (wd < t->size && t->w[wd].rel))
		return;
	remember_watch(t, wd, folder, false, "");
	t->w[wd].icons = true;
}

/* Watches the site (its folder alone, and the trees Statamic reads), the
 * asset disks and the icon folders, afresh. */
static void watch_site(struct watch_table *t, const struct config *cfg)
{
	unwatch_all(t);
	t->fd = inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
	if (t->fd < 0) {
		log_warning("inotify unavailable (%s): scanning every second", strerror(errno));
		return;
	}
	int wd = inotify_add_watch(t->fd, cfg->content_root,
	                           IN_ATTRIB | IN_DELETE_SELF | IN_MOVE_SELF | IN_CREATE | IN_DELETE |
	                                   IN_MOVED_FROM | IN_MOVED_TO | IN_ONLYDIR);
	if (wd >= 0) {
		remember_watch(t, wd, cfg->content_root, false, "");
		t->w[wd].site_folder = true;
	}
	for (size_t i = 0; i < SIGNATURE_NTOPS; i++)
		watch_tree(t, cfg->content_root, false, signature_tops[i], 0);
	for (size_t i = 0; i < cfg->ndisks; i++)
		if (cfg->disks[i].root)
			watch_tree(t, cfg->disks[i].root, true, "", 0);
	for (size_t i = 0; i < cfg->nicon_sets; i++)
		watch_icon_folder(t, cfg->icon_sets[i].folder);
}

/* Whether the site folder and its content/ can be read. */
static bool site_readable(const struct config *cfg)
{
	struct strbuf content = STRBUF_INIT;
	strbuf_addf(&content, "%s/content", cfg->content_root);
	DIR *d = opendir(cfg->content_root);
	DIR *c = d ? opendir(content.ptr) : NULL;
	bool ok = d && c;
	if (c)
		closedir(c);
	if (d)
		closedir(d);
	strbuf_release(&content);
	return ok;
}

/*
 * Whether the content root leads elsewhere than it did (*target, the
 * folder it led to last, kept while it leads nowhere): a deploy that
 * swaps a symlink (current -> releases/N), or a root moved away and
 * another put in its place. The watches are on the folder the root led
 * to when they were set, so nothing else would see it. Logged once per
 * move.
 */
static bool root_moved(const struct config *cfg, char **target)
{
	char *now = realpath(cfg->content_root, NULL);
	if (!now)
		return false; /* gone: site_readable says so, and when it is back */
	bool moved = *target && strcmp(*target, now) != 0;
	if (moved)
		log_warning("content root %s now resolves to %s", cfg->content_root, now);
	free(*target);
	*target = now;
	return moved;
}

/*
 * Whether the configuration file changed to a good one (config_check_file;
 * *seen: the version looked at last): this watcher then ends, withdrawing
 * what it kept fresh with the old one (the hooks' stop: the static fast
 * path), and its owner (the pool's supervisor, or a worker between
 * requests, itself started again with the new file) starts one that
 * reads the new file. A broken file changes nothing: the workers say so.
 */
static bool config_replaced(const struct config *cfg, const struct watch_hooks *h,
                            struct config_stamp *seen)
{
	char err[CONFIG_ERR_LEN];
	if (config_check_file(cfg, seen, err) != CONFIG_CHANGED)
		return false;
	log_info("configuration %s changed: this watcher ends, for one that reads it", cfg->path);
	if (h->stop)
		h->stop();
	return true;
}

#ifdef CMS_API_TEST_HOOKS
/* CMS_API_TEST_WATCH_HOLD=PATH, for the tests only: once its first look
 * is done, the watcher makes PATH.reached and waits (10 s at most) while
 * PATH exists, so that a test can change the site at that very moment. */
static void hold_for_test(void)
{
	const char *hold = getenv("CMS_API_TEST_WATCH_HOLD");
	if (!hold || !*hold)
		return;
	struct strbuf reached = STRBUF_INIT;
	strbuf_addf(&reached, "%s.reached", hold);
	int fd = open(reached.ptr, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
	strbuf_release(&reached);
	struct timespec tick = {0, 10 * 1000000L};
	for (int i = 0; i < 1000 && access(hold, F_OK) == 0; i++)
		nanosleep(&tick, NULL);
}
#else
static void hold_for_test(void)
{
}
#endif

/* The write end of the pipe the worker that started this watcher waits on
 * (watch_start's first_look): set in the forked watcher only, closed once
 * its first look is published. */
static int first_look_fd = -1;

static void announce_first_look(void)
{
	if (first_look_fd >= 0)
		close(first_look_fd);
	first_look_fd = -1;
}

bool watch_wait_first_look(int fd, int timeout_ms)
{
	if (fd < 0)
		return false;
	struct pollfd p = {fd, POLLIN, 0};
	int n;
	do
		n = poll(&p, 1, timeout_ms);
	while (n < 0 && errno == EINTR);
	close(fd);
	return n > 0; /* nothing is ever written: readable is end of file */
}

void watch_run(const struct config *cfg, int lock_fd, const struct watch_hooks *h)
{
	static const struct watch_hooks none;
	h = h ? h : &none;
	void *state = h->open ? h->open(cfg) : NULL;
	struct indexer x;
	indexer_init(&x, cfg, h, state);
	/* Watched before the first look, so that an edit made while it
	 * looks is seen after (and read again, checked, once settled). The
	 * first look is checked like every later one: files may be being
	 * written while it reads (mod_fcgid starts and ends workers, and so
	 * watchers, while editors write), and the worker that started it
	 * answers from what it publishes at once. */
	struct watch_table t = {-1, NULL, 0};
	watch_site(&t, cfg);
	struct change ch = CHANGE_INIT;
	struct empties empties = {NULL, 0};
	/* One that could not catch up (files still being written, nothing
	 * to stand in for them) looks again at the next pass. */
	if (!publish(&x, &t, cfg, &ch, &empties, true) && !x.caught_up)
		ch.rescan = true;
	announce_first_look();
	hold_for_test();
	if (h->pass)
		h->pass(state, cfg);
	bool readable = site_readable(cfg);
	char *target = NULL; /* owned: where the content root led last */
	root_moved(cfg, &target);
	time_t last_scan = time(NULL), last_prune = 0;
	long long ch_since = now_ms(); /* when the change began */
	long long next_try = 0;        /* a publication that held files: not before then */
	struct config_stamp ini_seen = cfg->stamp;
	for (;;) {
		if (t.fd >= 0)
			drain(&t, cfg, ch.nwriting || ch.index ? SETTLE_MS : 1000, &ch);
		else
			sleep(1);
		/* While the site cannot be read, look every second for it to
		 * come back; once it has, watch its folders afresh (those
		 * watched before may be elsewhere now). */
		bool was_readable = readable;
		readable = site_readable(cfg);
		if (!readable)
			ch.rescan = true;
		else if (!was_readable || root_moved(cfg, &target))
			ch.rescan = ch.rewatch = true;
		if (ch.rewatch && readable) {
			watch_site(&t, cfg);
			ch.rewatch = false;
		}
		if (reopen_requested) {
			reopen_requested = 0;
			log_reopen();
		}
		if ((lock_fd >= 0 && !keep_lock(cfg, &lock_fd)) || config_replaced(cfg, h, &ini_seen))
			break;
		restore_generation(&x);
		/* A stat scan now and then catches what inotify cannot see
		 * (network file systems, a queue overflow); what it publishes
		 * takes in the events seen so far. The one due every 30 s waits
		 * while an edit is to be published (up to 5 minutes): it walks
		 * the whole site (seconds at a million files) and reads every
		 * file again, where the edit's own publication looks at the
		 * files its events name alone. */
		time_t since_scan = time(NULL) - last_scan;
		bool scan = t.fd < 0 || ch.rescan ||
		            (since_scan >= SCAN_EVERY_S && (!ch.index || since_scan >= SCAN_AT_LEAST_S));
		if (scan) {
			ch.rescan = false;
			last_scan = time(NULL);
		}
		if ((scan || ch.index) && now_ms() >= next_try &&
		    (settled(&ch) || now_ms() - ch_since >= QUIET_MS) && publish(&x, &t, cfg, &ch, &empties, scan)) {
			ch_since = now_ms();
			next_try = ch.index ? now_ms() + SETTLE_MS : 0;
		}
		if (!ch.index)
			ch_since = now_ms();
		/* What follows the cache generation (the static fast path's
		 * link) follows it at once, right after it moved. */
		if (h->pass)
			h->pass(state, cfg);
		if (h->upkeep && time(NULL) - last_prune >= 60) {
			h->upkeep(state, cfg);
			last_prune = time(NULL);
		}
	}
	change_release(&ch);
	empties_free(&empties);
	free(target);
	unwatch_all(&t);
	indexer_free(&x);
	if (h->close)
		h->close(state);
}

/* Closes the descriptors from to last; one by one, up to the limit of
 * open files, where close_range(2) is refused (a kernel before 5.9, a
 * seccomp filter that does not know it). */
static void close_span(unsigned from, unsigned last)
{
	if (close_range(from, last, 0) == 0)
		return;
	long max = sysconf(_SC_OPEN_MAX);
	unsigned end = max > 0 && (unsigned long)max - 1 < last ? (unsigned)max - 1 : last;
	for (unsigned fd = from; fd <= end && fd < 1u << 20; fd++)
		close((int)fd);
}

/*
 * Closes every descriptor but the n in keep (each >= 0, or -1: none),
 * with close_range(2) around them: a forked watcher must hold no socket
 * of its parent's (a worker's listening socket, a request's connection,
 * the supervisor's signalfd and pipes), whatever their number.
 */
static void close_all_but(int *keep, size_t n)
{
	/* Sorted, so that the gaps between them are ranges. */
	for (size_t i = 1; i < n; i++)
		for (size_t j = i; j > 0 && keep[j - 1] > keep[j]; j--) {
			int t = keep[j];
			keep[j] = keep[j - 1];
			keep[j - 1] = t;
		}
	unsigned from = 0;
	for (size_t i = 0; i < n; i++) {
		if (keep[i] < 0 || (unsigned)keep[i] < from)
			continue;
		if ((unsigned)keep[i] > from)
			close_span(from, (unsigned)keep[i] - 1);
		from = (unsigned)keep[i] + 1;
	}
	close_span(from, ~0U);
}

/*
 * In the forked child: end with the process that made it (a worker, or
 * the pool's supervisor), and let go of everything of its parent's but
 * the lock and the log. A worker may have forked with a connection open
 * (at its first request, or one kept by nginx): the web server must never
 * see the watcher hold it.
 */
static void become_watcher(int lock_fd, int keep_fd, pid_t parent)
{
	/* The handlers first, then the signals let through: a stop signal
	 * must never find the worker's handler or the default action. */
	struct sigaction act;
	memset(&act, 0, sizeof act);
	sigemptyset(&act.sa_mask);
	act.sa_handler = on_stop;
	sigaction(SIGTERM, &act, NULL);
	sigaction(SIGINT, &act, NULL);
	act.sa_handler = on_hangup;
	sigaction(SIGHUP, &act, NULL);
	signal(SIGCHLD, SIG_DFL); /* the supervisor's is blocked, a worker's ignored */
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	/* Told apart from the workers in ps and pgrep: cms-api-watch. */
	prctl(PR_SET_NAME, "cms-api-watch");
	if (getppid() != parent)
		raise(SIGTERM); /* the worker ended already: stop as if told */
	int keep[] = {lock_fd, keep_fd, log_file_fd(), 2};
	close_all_but(keep, sizeof keep / sizeof keep[0]);
	int null = open("/dev/null", O_RDWR); /* takes fd 0 */
	if (null > 0) {
		dup2(null, 0);
		close(null);
	}
	/* Its own connection to syslog (the worker's socket was closed
	 * above), or the log file opened afresh. */
	log_reopen();
}

bool watch_running(const struct config *cfg)
{
	struct shared_paths paths;
	if (shared_paths_init(&paths, cfg) != 0)
		return false;
	int fd = open(paths.watch_lock, O_RDONLY | O_CLOEXEC);
	shared_paths_free(&paths);
	if (fd < 0)
		return false;
	bool held = flock(fd, LOCK_SH | LOCK_NB) != 0 && errno == EWOULDBLOCK;
	close(fd);
	return held;
}

pid_t watch_spawn(const struct config *cfg, const struct watch_hooks *hooks, int *first_look)
{
	if (first_look)
		*first_look = -1;
	struct shared_paths paths;
	if (shared_paths_init(&paths, cfg) != 0)
		return -1;
	int fd = open(paths.watch_lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	shared_paths_free(&paths);
	if (fd < 0)
		return -1;
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		close(fd);
		return errno == EWOULDBLOCK ? 0 : -1;
	}
	int look[2] = {-1, -1};
	if (first_look && pipe2(look, O_CLOEXEC) != 0)
		look[0] = look[1] = -1;
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid != 0) {
		close(fd); /* the child's copy keeps the lock */
		if (look[1] >= 0)
			close(look[1]);
		if (pid > 0 && first_look)
			*first_look = look[0];
		else if (look[0] >= 0)
			close(look[0]);
		return pid;
	}
	if (look[0] >= 0)
		close(look[0]);
	first_look_fd = look[1];
	running_hooks = hooks;
	if (hooks && hooks->arm_stop)
		hooks->arm_stop(cfg);
	become_watcher(fd, look[1], parent);
	watch_run(cfg, fd, hooks);
	_exit(0);
}

bool watch_start(const struct config *cfg, const struct watch_hooks *hooks, int *first_look)
{
	/* Workers never wait for the watcher: let the kernel reap it. Set
	 * before the fork, so that a watcher ending at once is no zombie. */
	void (*was)(int) = signal(SIGCHLD, SIG_IGN);
	pid_t pid = watch_spawn(cfg, hooks, first_look);
	if (pid <= 0)
		signal(SIGCHLD, was);
	return pid > 0;
}
