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
	int rc = indexer_init(&x, cfg, NULL, NULL) == 0 ? indexer_catch_up(&x) : -1;
	indexer_free(&x);
	return rc;
}

/* What a watch descriptor watches: a folder below the site root, or
 * below an asset disk's root (whose changes are AssetSaved and
 * AssetDeleted). */
struct watched {
	char *rel;        /* owned: relative to its root; NULL when unused */
	const char *root; /* the site root or a disk root (the config's) */
	bool disk;
	bool site_folder; /* the site folder itself, watched alone, not its tree */
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
	t->w[wd] = (struct watched){xstrdup(rel), root, disk, false};
}

static void watch_tree(struct watch_table *t, const char *root, bool disk, const char *rel,
                       int depth)
{
	struct strbuf abs = STRBUF_INIT;
	strbuf_addf(&abs, "%s%s%s", root, *rel ? "/" : "", rel);
	uint32_t mask = IN_CLOSE_WRITE | IN_MODIFY | IN_CREATE | IN_DELETE | IN_MOVED_FROM |
	                IN_MOVED_TO | IN_ATTRIB | IN_DELETE_SELF | IN_ONLYDIR;
	int wd = inotify_add_watch(t->fd, abs.ptr, mask);
	if (wd >= 0)
		remember_watch(t, wd, root, disk, rel);
	DIR *d = wd >= 0 && depth < 32 ? opendir(abs.ptr) : NULL;
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

struct change {
	bool index, cache, rescan;
	bool rewatch; /* a watched folder went away or came back: watch afresh */
	/* The first event that moves the cache, for the cache driver; its
	 * path only when it is the only one. */
	const char *event;
	struct strbuf event_path; /* owned */
	bool several;
};

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

static void note_event(struct watch_table *t, const struct config *cfg,
                       const struct inotify_event *ev, struct change *ch)
{
	if (ev->mask & IN_Q_OVERFLOW) {
		ch->rescan = true;
		return;
	}
	if (ev->wd < 0 || ev->wd >= t->size || !t->w[ev->wd].rel)
		return;
	struct watched *w = &t->w[ev->wd];
	if (ev->mask & IN_IGNORED) {
		free(w->rel);
		w->rel = NULL;
		return;
	}
	if (folder_event(w, ev, ch))
		return;
	struct strbuf rel = STRBUF_INIT;
	strbuf_addf(&rel, "%s%s%s", w->rel, *w->rel ? "/" : "", ev->name);
	bool deleted = ev->mask & (IN_DELETE | IN_MOVED_FROM);
	bool shown = signature_visible(ev->name, w->disk);
	const char *name;
	if ((ev->mask & IN_ISDIR) && (ev->mask & (IN_CREATE | IN_MOVED_TO)) && shown)
		watch_tree(t, w->root, w->disk, rel.ptr, 0);
	if (w->disk)
		name = !shown && !strstr(w->rel, ".meta") ? NULL
		       : deleted                         ? "AssetDeleted"
		                                         : "AssetSaved";
	else if (ev->mask & IN_ISDIR)
		name = shown ? "ContentSaved" : NULL;
	else
		name = watch_event_name(rel.ptr, deleted);
	if (name) {
		log_debug("%s: %s", rel.ptr, name);
		ch->index = true;
		if (!watch_event_ignored(cfg, name)) {
			ch->cache = true;
			if (ch->event)
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

/* Reads what inotify has, waiting up to timeout_ms for the first event. */
static void drain(struct watch_table *t, const struct config *cfg, int timeout_ms,
                  struct change *ch)
{
	struct pollfd pfd = {t->fd, POLLIN, 0};
	char buf[16384] __attribute__((aligned(__alignof__(struct inotify_event))));
	while (poll(&pfd, 1, timeout_ms) > 0) {
		ssize_t n = read(t->fd, buf, sizeof buf);
		if (n <= 0)
			break;
		for (char *p = buf; p < buf + n;) {
			const struct inotify_event *ev = (const struct inotify_event *)p;
			p += sizeof *ev + ev->len;
			if (!renamed_within_site(ev, p, buf + n))
				note_event(t, cfg, ev, ch);
		}
		timeout_ms = 50; /* gather the rest of a burst (a deploy, a git pull) */
	}
}

/* Publishes the change the watcher saw (indexer.h). */
static void publish(struct indexer *x, const struct change *ch)
{
	struct indexer_change what = {ch->cache, ch->event,
	                              ch->several ? NULL : strbuf_str(&ch->event_path)};
	indexer_publish(x, &what);
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

/* Watches the site (its folder alone, and the trees Statamic reads) and
 * the asset disks, afresh. */
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

void watch_run(const struct config *cfg, int lock_fd, const struct watch_hooks *h)
{
	static const struct watch_hooks none;
	h = h ? h : &none;
	void *state = h->open ? h->open(cfg) : NULL;
	struct indexer x;
	indexer_init(&x, cfg, h, state);
	indexer_catch_up(&x);
	if (h->pass)
		h->pass(state, cfg);
	struct watch_table t = {-1, NULL, 0};
	watch_site(&t, cfg);
	bool readable = site_readable(cfg);
	time_t last_scan = time(NULL), last_prune = 0;
	for (;;) {
		struct change ch = {false, false, false, false, NULL, STRBUF_INIT, false};
		if (t.fd >= 0)
			drain(&t, cfg, 1000, &ch);
		else
			sleep(1);
		/* While the site cannot be read, look every second for it to
		 * come back; once it has, watch its folders afresh (those
		 * watched before may be elsewhere now). */
		bool was_readable = readable;
		readable = site_readable(cfg);
		if (!readable)
			ch.rescan = true;
		else if (!was_readable)
			ch.rescan = ch.rewatch = true;
		if (ch.rewatch && readable)
			watch_site(&t, cfg);
		if (reopen_requested) {
			reopen_requested = 0;
			log_reopen();
		}
		if (lock_fd >= 0 && !keep_lock(cfg, &lock_fd)) {
			strbuf_release(&ch.event_path);
			break;
		}
		restore_generation(&x);
		/* A stat scan now and then catches what inotify cannot see
		 * (network file systems, a queue overflow); what it publishes
		 * takes in the events of this pass. */
		bool caught_up = false;
		if (t.fd < 0 || ch.rescan || time(NULL) - last_scan >= 30) {
			caught_up = indexer_catch_up(&x) == 1;
			last_scan = time(NULL);
		}
		if (ch.index && !caught_up)
			publish(&x, &ch);
		strbuf_release(&ch.event_path);
		/* What follows the cache generation (the static fast path's
		 * link) follows it at once, right after it moved. */
		if (h->pass)
			h->pass(state, cfg);
		if (h->upkeep && time(NULL) - last_prune >= 60) {
			h->upkeep(state, cfg);
			last_prune = time(NULL);
		}
	}
	unwatch_all(&t);
	indexer_free(&x);
	if (h->close)
		h->close(state);
}

/*
 * In the forked child: end with the worker that made it, and let go of
 * everything of the worker's but the lock and the log. A worker may fork
 * in the middle of a request, with its stop signals blocked and the
 * request's connection open: the web server must never see the watcher
 * hold either.
 */
static void become_watcher(int lock_fd, pid_t parent)
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
	sigset_t none;
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	/* Told apart from the workers in ps and pgrep: cms-api-watch. */
	prctl(PR_SET_NAME, "cms-api-watch");
	if (getppid() != parent)
		raise(SIGTERM); /* the worker ended already: stop as if told */
	int keep_log = log_file_fd();
	for (int fd = 0; fd < 1024; fd++)
		if (fd != lock_fd && fd != keep_log && fd != 2)
			close(fd);
	int null = open("/dev/null", O_RDWR); /* takes fd 0 */
	if (null > 0) {
		dup2(null, 0);
		close(null);
	}
	/* Its own connection to syslog (the worker's socket was closed
	 * above), or the log file opened afresh. */
	log_reopen();
}

bool watch_start(const struct config *cfg, const struct watch_hooks *hooks)
{
	struct shared_paths paths;
	if (shared_paths_init(&paths, cfg) != 0)
		return false;
	int fd = open(paths.watch_lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
	shared_paths_free(&paths);
	if (fd < 0)
		return false;
	if (flock(fd, LOCK_EX | LOCK_NB) != 0) {
		close(fd);
		return false;
	}
	/* Workers never wait for the watcher: let the kernel reap it. */
	signal(SIGCHLD, SIG_IGN);
	pid_t parent = getpid();
	pid_t pid = fork();
	if (pid < 0) {
		close(fd);
		return false;
	}
	if (pid > 0) {
		close(fd); /* the child's copy keeps the lock */
		return true;
	}
	running_hooks = hooks;
	if (hooks && hooks->arm_stop)
		hooks->arm_stop(cfg);
	become_watcher(fd, parent);
	watch_run(cfg, fd, hooks);
	_exit(0);
}
