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

#include "change/shared.h"
#include "core/log.h"
#include "lib/hash.h"
#include "lib/strbuf.h"

/* The folders of a site that Statamic reads. */
static const char *const watched_tops[] = {"content", "resources", "users"};

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

/* --- the signature --- */

static uint64_t mix64(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

/* Dot files are invisible to Statamic, except an asset disk's .meta
 * folders, which hold the assets' data. */
static bool visible(const char *name, bool disk)
{
	return name[0] != '.' || (disk && strcmp(name, ".meta") == 0);
}

/* Adds every visible file below abs (whose relative path is rel); a sum
 * does not depend on the order readdir lists files in. */
static void sign_tree(const char *abs, const char *rel, bool disk, uint64_t *sum, int depth)
{
	DIR *d = opendir(abs);
	if (!d || depth > 32) {
		if (d)
			closedir(d);
		return;
	}
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (!visible(e->d_name, disk))
			continue;
		struct strbuf child = STRBUF_INIT, child_rel = STRBUF_INIT;
		strbuf_addf(&child, "%s/%s", abs, e->d_name);
		strbuf_addf(&child_rel, "%s/%s", rel, e->d_name);
		struct stat st;
		if (stat(child.ptr, &st) == 0) {
			if (S_ISDIR(st.st_mode)) {
				sign_tree(child.ptr, child_rel.ptr, disk, sum, depth + 1);
			} else {
				uint64_t h = hash_fnv1a(child_rel.ptr);
				h ^= mix64((uint64_t)st.st_size);
				h ^= mix64((uint64_t)st.st_mtim.tv_sec * 1000000000ULL +
				           (uint64_t)st.st_mtim.tv_nsec + 1);
				*sum += mix64(h);
			}
		}
		strbuf_release(&child);
		strbuf_release(&child_rel);
	}
	closedir(d);
}

uint64_t content_signature(const struct config *cfg)
{
	uint64_t sum = 0x9e3779b97f4a7c15ULL;
	for (size_t i = 0; i < sizeof watched_tops / sizeof watched_tops[0]; i++) {
		struct strbuf abs = STRBUF_INIT;
		strbuf_addf(&abs, "%s/%s", cfg->content_root, watched_tops[i]);
		sign_tree(abs.ptr, watched_tops[i], false, &sum, 0);
		strbuf_release(&abs);
	}
	for (size_t i = 0; i < cfg->ndisks; i++) {
		struct strbuf rel = STRBUF_INIT;
		strbuf_addf(&rel, "disk:%s", cfg->disks[i].name);
		if (cfg->disks[i].root)
			sign_tree(cfg->disks[i].root, rel.ptr, true, &sum, 0);
		strbuf_release(&rel);
	}
	return sum;
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

/* --- the generation file --- */

/* The generation after the one in the file for a change, or a fresh one
 * when the file is gone or unreadable (a cleared cache directory): never
 * one the workers may hold already. */
static void next_generation(const struct shared_paths *paths, bool cache, uint64_t signature,
                            struct generation *g)
{
	if (generation_read(paths->generation, g) != 0)
		generation_fresh(g, signature);
	else
		generation_next(g, cache, signature);
}

static void complain_unwritten(const struct shared_paths *paths)
{
	log_every_minute(LOG_LEVEL_ERROR, "cannot write %s (%s): changes to the site do not "
	                 "show until it can be written", paths->generation, strerror(errno));
}

static int write_generation(const struct shared_paths *paths, const struct generation *g,
                            bool cache)
{
	if (generation_write(paths->generation, g) != 0) {
		complain_unwritten(paths);
		return -1;
	}
	if (cache)
		shared_remove_old_responses(paths, g->cache_signature, g->cache_signature);
	return 0;
}

/*
 * Makes the generation file, fresh, when there is none. The workers a web
 * server starts together and their watcher may all find it missing at
 * once: one makes it and the others take the one it made. Were each to
 * write its own, a worker could be left with the index of a generation
 * replaced a moment later, answering uncached while another worker builds
 * the new one. Returns 1 when this process made it, 0 when another had
 * (g is what it holds), -1 when there is none to take (a file that cannot
 * be read, or none can be made).
 */
static int make_first_generation(const struct shared_paths *paths, uint64_t signature,
                                 struct generation *g)
{
	generation_fresh(g, signature);
	if (generation_create(paths->generation, g) == 0) {
		shared_remove_old_responses(paths, g->cache_signature, g->cache_signature);
		return 1;
	}
	if (errno == EEXIST)
		return generation_read(paths->generation, g) == 0 ? 0 : -1;
	complain_unwritten(paths);
	return -1;
}

/* watch_scan_once, with the cache's signature before and after a move. */
static int scan_once(const struct config *cfg, uint64_t *old_cache, uint64_t *new_cache)
{
	struct shared_paths paths;
	if (shared_paths_init(&paths, cfg) != 0)
		return -1;
	struct generation g;
	uint64_t signature = content_signature(cfg);
	int found = generation_read(paths.generation, &g) == 0
	                    ? 0
	                    : make_first_generation(&paths, signature, &g);
	int rc = found == 1;
	*old_cache = 0;
	*new_cache = g.cache_signature;
	if (found < 0 || signature != g.signature) {
		*old_cache = found < 0 ? 0 : g.cache_signature;
		next_generation(&paths, true, signature, &g);
		rc = write_generation(&paths, &g, true) == 0 ? 1 : -1;
		*new_cache = g.cache_signature;
	}
	shared_paths_free(&paths);
	return rc;
}

int watch_scan_once(const struct config *cfg)
{
	uint64_t old_cache, new_cache;
	return scan_once(cfg, &old_cache, &new_cache);
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

/* Tells the hooks that the cache generation moved, and which files moved
 * it (none known when t is NULL or overflowed). */
static void tell_moved(const struct watch_hooks *h, void *state, const struct config *cfg,
                       const char *event, const char *path, const struct touched *t,
                       uint64_t old_cache, uint64_t new_cache)
{
	if (old_cache == new_cache)
		return;
	if (h->moved)
		h->moved(state, cfg, event, path, old_cache, new_cache);
	bool known = t && !t->overflowed;
	if (h->moved_files)
		h->moved_files(state, cfg, known ? t->files : NULL, known ? t->n : 0, old_cache,
		               new_cache);
}

/* The watcher's scan: a move found is the hooks' to know. */
static void scan_and_tell(const struct config *cfg, const struct watch_hooks *h, void *state)
{
	uint64_t old_cache, new_cache;
	if (scan_once(cfg, &old_cache, &new_cache) == 1)
		tell_moved(h, state, cfg, "ContentSaved", NULL, NULL, old_cache, new_cache);
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
		if (!visible(e->d_name, disk) || (e->d_type != DT_DIR && e->d_type != DT_UNKNOWN))
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
	struct touched touched; /* owned: every file named by an event */
};

static bool is_watched_top(const char *name)
{
	for (size_t i = 0; i < sizeof watched_tops / sizeof watched_tops[0]; i++)
		if (strcmp(name, watched_tops[i]) == 0)
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
	bool shown = visible(ev->name, w->disk);
	if (w->disk)
		return !shown && !strstr(w->rel, ".meta") ? NULL
		       : deleted                         ? "AssetDeleted"
		                                         : "AssetSaved";
	if (ev->mask & IN_ISDIR)
		return shown ? "ContentSaved" : NULL;
	return watch_event_name(rel, deleted);
}

/* The first half of a rename within the site (see renamed_within_site):
 * no event of its own for the cache, but the file it names is gone, which
 * the hooks that follow files are told. */
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
		touched_add(&ch->touched, name, disk_name(cfg, w), rel.ptr);
	strbuf_release(&rel);
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
	if ((ev->mask & IN_ISDIR) && (ev->mask & (IN_CREATE | IN_MOVED_TO)) &&
	    visible(ev->name, w->disk))
		watch_tree(t, w->root, w->disk, rel.ptr, 0);
	const char *name = file_event(w, ev, rel.ptr, deleted);
	if (name) {
		log_debug("%s: %s", rel.ptr, name);
		touched_add(&ch->touched, name, disk_name(cfg, w), rel.ptr);
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
			else
				note_renamed_from(t, cfg, ev, ch);
		}
		timeout_ms = 50; /* gather the rest of a burst (a deploy, a git pull) */
	}
}

static void publish(const struct config *cfg, const struct change *ch,
                    const struct watch_hooks *h, void *state)
{
	struct shared_paths paths;
	if (shared_paths_init(&paths, cfg) != 0)
		return;
	struct generation before, g;
	generation_read(paths.generation, &before);
	next_generation(&paths, ch->cache, content_signature(cfg), &g);
	if (write_generation(&paths, &g, ch->cache) == 0 && ch->cache)
		tell_moved(h, state, cfg, ch->event ? ch->event : "ContentSaved",
		           ch->several ? NULL : strbuf_str(&ch->event_path), &ch->touched,
		           before.cache_signature, g.cache_signature);
	shared_paths_free(&paths);
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

/* Makes the generation file again when it is gone, with a generation
 * never used before, so that workers move to an index (and a cache) of
 * their own instead of waiting for the next change. */
static void restore_generation(const struct config *cfg)
{
	struct shared_paths paths;
	if (shared_paths_init(&paths, cfg) != 0)
		return;
	struct stat st;
	struct generation g;
	if (stat(paths.generation, &st) != 0 && errno == ENOENT &&
	    make_first_generation(&paths, content_signature(cfg), &g) == 1)
		log_info("%s was removed: made it again (generation %" PRIu64 ")", paths.generation,
		         g.index);
	shared_paths_free(&paths);
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
	for (size_t i = 0; i < sizeof watched_tops / sizeof watched_tops[0]; i++)
		watch_tree(t, cfg->content_root, false, watched_tops[i], 0);
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

#ifdef CMS_API_TEST_HOOKS
/* CMS_API_TEST_WATCH_HOLD=PATH, for the tests only: once its first scan
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

void watch_run(const struct config *cfg, int lock_fd, const struct watch_hooks *h)
{
	static const struct watch_hooks none;
	h = h ? h : &none;
	void *state = h->open ? h->open(cfg) : NULL;
	/* Watched first, then scanned: a change made while the first scan
	 * runs is then either in the scan or in inotify's queue. The other
	 * way round, one made between the scan and the watches went unseen
	 * until the next full scan, 30 s later. */
	struct watch_table t = {-1, NULL, 0};
	watch_site(&t, cfg);
	scan_and_tell(cfg, h, state);
	hold_for_test();
	if (h->pass)
		h->pass(state, cfg);
	bool readable = site_readable(cfg);
	time_t last_scan = time(NULL), last_prune = 0;
	for (;;) {
		struct change ch = {false, false, false, false, NULL, STRBUF_INIT, false, {0}};
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
			touched_free(&ch.touched);
			break;
		}
		restore_generation(cfg);
		/* A stat scan now and then catches what inotify cannot see
		 * (network file systems, a queue overflow). */
		if (t.fd < 0 || ch.rescan || time(NULL) - last_scan >= 30) {
			scan_and_tell(cfg, h, state);
			last_scan = time(NULL);
		}
		if (ch.index)
			publish(cfg, &ch, h, state);
		strbuf_release(&ch.event_path);
		touched_free(&ch.touched);
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
