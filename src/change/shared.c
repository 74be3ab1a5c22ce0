/* shared: names and atomic writes of the shared cache files; see shared.h. */
#include "autoconfig.h"

#include "change/shared.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "core/log.h"
#include "lib/hash.h"

static char *joinf(const char *dir, const char *name, const char *site, const char *suffix)
{
	struct strbuf b = STRBUF_INIT;
	strbuf_addf(&b, "%s/%s-%s%s", dir, name, site, suffix);
	return strbuf_detach(&b, NULL);
}

/* The hex hash of the content root that names a site's files. */
static void site_name(const struct config *cfg, char out[17])
{
	snprintf(out, 17, "%016" PRIx64, hash_fnv1a(cfg->content_root));
}

char *shared_ratelimit_path(const struct config *cfg)
{
	if (!cfg->cache_dir || !*cfg->cache_dir || !cfg->content_root)
		return NULL;
	char site[17];
	site_name(cfg, site);
	return joinf(cfg->cache_dir, "ratelimit", site, ".tbl");
}

int shared_paths_init(struct shared_paths *p, const struct config *cfg)
{
	memset(p, 0, sizeof *p);
	if (!cfg->cache_dir || !*cfg->cache_dir || !cfg->content_root) {
		errno = EINVAL;
		return -1;
	}
	/* Only the workers' user may look inside: the snapshot holds drafts,
	 * and answers cached behind a token are not for other local users. */
	if (mkdir(cfg->cache_dir, 0700) != 0 && errno != EEXIST)
		return -1;
	if (access(cfg->cache_dir, W_OK | X_OK) != 0)
		return -1;
	char site[17];
	site_name(cfg, site);
	p->dir = xstrdup(cfg->cache_dir);
	p->site = xstrdup(site);
	p->generation = joinf(p->dir, "generation", site, "");
	p->watch_lock = joinf(p->dir, "watch", site, ".lock");
	p->index_lock = joinf(p->dir, "index", site, ".lock");
	return 0;
}

void shared_user_name(char *out, size_t size)
{
	struct passwd *pw = getpwuid(geteuid());
	if (pw && pw->pw_name)
		snprintf(out, size, "%s", pw->pw_name);
	else
		snprintf(out, size, "uid %ld", (long)geteuid());
}

/* The directory above dir (dir itself ends in no '/'), in out. */
static void parent_of(const char *dir, char *out, size_t size)
{
	const char *slash = strrchr(dir, '/');
	if (!slash)
		snprintf(out, size, ".");
	else if (slash == dir)
		snprintf(out, size, "/");
	else
		snprintf(out, size, "%.*s", (int)(slash - dir), dir);
}

/* The advice that ends every problem: the directory, made for whoever
 * runs the workers. */
#define MAKE_IT "make it the workers' user's, e.g. for www-data (Apache, Debian's lighttpd): " \
	"install -d -o www-data -m 0700 %s"

/* The problem of a cache directory that is not there (see the header). */
static void missing_dir_problem(const char *dir, char *out, size_t size)
{
	char parent[PATH_MAX], user[64];
	parent_of(dir, parent, sizeof parent);
	shared_user_name(user, sizeof user);
	struct stat st;
	if (stat(parent, &st) != 0)
		snprintf(out, size, "[cache] dir %s does not exist, nor does %s: workers cannot share "
		         "an index or cache answers; " MAKE_IT, dir, parent, dir);
	else if (access(parent, W_OK | X_OK) != 0)
		snprintf(out, size, "[cache] dir %s does not exist, and the user %s cannot make it "
		         "in %s: workers cannot share an index or cache answers; " MAKE_IT, dir, user,
		         parent, dir);
	else if (geteuid() == 0)
		snprintf(out, size, "[cache] dir %s does not exist: the first worker makes it if its "
		         "user may write in %s (root may, www-data may not); else workers cannot share "
		         "an index or cache answers; " MAKE_IT, dir, parent, dir);
	else
		*out = '\0'; /* a worker running as this user makes it */
}

void shared_dir_problem(const struct config *cfg, char *out, size_t size)
{
	const char *dir = cfg->cache_dir;
	char user[64];
	struct stat st;
	struct statvfs vfs;
	*out = '\0';
	if (!dir || !*dir) {
		snprintf(out, size, "[cache] dir is empty: workers cannot share an index or cache "
		         "answers; each reads the whole site itself");
		return;
	}
	if (stat(dir, &st) != 0) {
		if (errno == ENOENT)
			missing_dir_problem(dir, out, size);
		else
			snprintf(out, size, "[cache] dir %s cannot be looked at (%s)", dir,
			         strerror(errno));
		return;
	}
	shared_user_name(user, sizeof user);
	if (!S_ISDIR(st.st_mode))
		snprintf(out, size, "[cache] dir %s is not a directory: workers cannot share an index "
		         "or cache answers", dir);
	else if (access(dir, W_OK | X_OK) != 0)
		snprintf(out, size, "[cache] dir %s is not writable by the user %s (%s): workers "
		         "running as %s answer uncached, each reading the whole site itself; give it "
		         "to the workers' user (chown -R www-data %s, for workers running as "
		         "www-data)", dir, user, strerror(errno), user, dir);
	else if (statvfs(dir, &vfs) == 0 && vfs.f_bavail == 0)
		snprintf(out, size, "[cache] dir %s: its file system is full: answers go out "
		         "uncached, and each worker reads the whole site itself, until there is room",
		         dir);
}

void shared_paths_free(struct shared_paths *p)
{
	free(p->dir);
	free(p->site);
	free(p->generation);
	free(p->watch_lock);
	free(p->index_lock);
	memset(p, 0, sizeof *p);
}

char *shared_snapshot_path(const struct shared_paths *p, uint64_t n)
{
	struct strbuf b = STRBUF_INIT;
	strbuf_addf(&b, "%s/index-%s-%" PRIu64 ".snap", p->dir, p->site, n);
	return strbuf_detach(&b, NULL);
}

char *shared_responses_dir(const struct shared_paths *p, uint64_t n)
{
	struct strbuf b = STRBUF_INIT;
	strbuf_addf(&b, "%s/responses-%s-%" PRIu64, p->dir, p->site, n);
	return strbuf_detach(&b, NULL);
}

char *shared_cache_stats_path(const struct shared_paths *p)
{
	return joinf(p->dir, "cachestats", p->site, "");
}

/* The generation in a name "<kind>-<site>-<N><suffix>"; false when name
 * is not one of this site's files of that kind. */
static bool generation_of(const struct shared_paths *p, const char *name, const char *kind,
                          const char *suffix, uint64_t *n)
{
	size_t kind_len = strlen(kind), site_len = strlen(p->site);
	if (strncmp(name, kind, kind_len) != 0 || name[kind_len] != '-' ||
	    strncmp(name + kind_len + 1, p->site, site_len) != 0 ||
	    name[kind_len + 1 + site_len] != '-')
		return false;
	const char *digits = name + kind_len + site_len + 2;
	char *end;
	if (*digits < '0' || *digits > '9')
		return false;
	errno = 0;
	*n = strtoull(digits, &end, 10);
	return errno == 0 && strcmp(end, suffix) == 0;
}

/* Which of a kind's files remove_older keeps. */
struct kept {
	enum { KEEP_NEWER, KEEP_TWO, KEEP_NONE } how;
	uint64_t keep, also_keep; /* KEEP_NEWER: keep and later; KEEP_TWO: these two */
};

static bool is_kept(const struct kept *k, uint64_t n)
{
	switch (k->how) {
	case KEEP_NEWER:
		return n >= k->keep;
	case KEEP_TWO:
		return n == k->keep || n == k->also_keep;
	default:
		return false;
	}
}

/* Calls remove on every path of this site's files of a kind that k does
 * not keep; the sum of what the calls returned. */
static size_t remove_older(const struct shared_paths *p, const char *kind, const char *suffix,
                           const struct kept *k, size_t (*remove)(const char *path))
{
	DIR *d = opendir(p->dir);
	if (!d)
		return 0;
	size_t removed = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		uint64_t n;
		if (!generation_of(p, e->d_name, kind, suffix, &n) || is_kept(k, n))
			continue;
		struct strbuf path = STRBUF_INIT;
		strbuf_addf(&path, "%s/%s", p->dir, e->d_name);
		removed += remove(path.ptr);
		strbuf_release(&path);
	}
	closedir(d);
	return removed;
}

char *shared_newest_snapshot(const struct shared_paths *p, uint64_t *generation)
{
	DIR *d = opendir(p->dir);
	char *newest = NULL;
	*generation = 0;
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		uint64_t n;
		if (!generation_of(p, e->d_name, "index", ".snap", &n) || (newest && n <= *generation))
			continue;
		free(newest);
		newest = shared_snapshot_path(p, n);
		*generation = n;
	}
	if (d)
		closedir(d);
	return newest;
}

/* An old file that stays takes disk space until someone notices: said,
 * once a minute at most. ENOENT is another process that removed it
 * first. */
static void complain_kept(const char *path)
{
	if (errno != ENOENT)
		log_every_minute(LOG_LEVEL_WARNING, "cannot remove %s (%s): it takes space until it "
		                 "can be removed", path, strerror(errno));
}

static size_t unlink_file(const char *path)
{
	/* Workers that still map a snapshot keep their mapping; the name goes. */
	if (unlink(path) == 0)
		return 1;
	complain_kept(path);
	return 0;
}

/* Removes a response directory: its entries (and any temporary files of
 * writes in flight, whose rename then fails harmlessly), then itself.
 * Returns how many answers went (not the byte counter, not temporary
 * files). */
static size_t remove_responses(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return 0;
	size_t removed = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		/* The byte counter (.bytes) goes too, or the directory would stay. */
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		struct strbuf path = STRBUF_INIT;
		strbuf_addf(&path, "%s/%s", dir, e->d_name);
		bool answer = e->d_name[0] != '.' && !strstr(e->d_name, ".tmp-");
		if (unlink(path.ptr) == 0)
			removed += answer;
		else
			complain_kept(path.ptr);
		strbuf_release(&path);
	}
	closedir(d);
	/* ENOTEMPTY: a write in flight made a file since; the next removal
	 * takes it. */
	if (rmdir(dir) != 0 && errno != ENOTEMPTY)
		complain_kept(dir);
	return removed;
}

void shared_remove_old_snapshots(const struct shared_paths *p, uint64_t keep)
{
	/* A worker slow to build may save its generation after another worker
	 * saved a newer one: then its own is the old one. */
	uint64_t newest;
	free(shared_newest_snapshot(p, &newest));
	struct kept k = {KEEP_NEWER, newest > keep ? newest : keep, 0};
	remove_older(p, "index", ".snap", &k, unlink_file);
}

char *shared_segment_prefix(const struct shared_paths *p)
{
	struct strbuf b = STRBUF_INIT;
	strbuf_addf(&b, "segment-%s-", p->site);
	return strbuf_detach(&b, NULL);
}

void shared_remove_segments(const struct shared_paths *p, const char *const *used, size_t nused)
{
	DIR *d = opendir(p->dir);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		uint64_t n;
		if (!generation_of(p, e->d_name, "segment", ".seg", &n))
			continue;
		bool in_use = false;
		for (size_t i = 0; i < nused && !in_use; i++)
			in_use = used[i] && strcmp(used[i], e->d_name) == 0;
		if (in_use)
			continue;
		struct strbuf path = STRBUF_INIT;
		strbuf_addf(&path, "%s/%s", p->dir, e->d_name);
		unlink_file(path.ptr);
		strbuf_release(&path);
	}
	if (d)
		closedir(d);
}

size_t shared_remove_old_responses(const struct shared_paths *p, uint64_t keep, uint64_t current)
{
	struct kept k = {KEEP_TWO, keep, current};
	return remove_older(p, "responses", "", &k, remove_responses);
}

size_t shared_remove_all_responses(const struct shared_paths *p)
{
	struct kept none = {KEEP_NONE, 0, 0};
	return remove_older(p, "responses", "", &none, remove_responses);
}
