/* fastpath: the static fast path ([cache] public_dir); see fastpath.h. */
#include "autoconfig.h"

#include "cache/fastpath.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "change/generation.h"
#include "change/shared.h"
#include "core/log.h"
#include "lib/hash.h"
#include "lib/publish.h"

/* --- names ------------------------------------------------------------- */

static bool ascii_alnum(unsigned char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9');
}

/* RFC 3986's unreserved bytes: what no server decodes or rewrites. */
static bool unreserved(unsigned char c)
{
	return ascii_alnum(c) || c == '-' || c == '.' || c == '_' || c == '~';
}

static bool query_byte(unsigned char c)
{
	return unreserved(c) || (c && strchr("=&,:+[]", c));
}

static bool hex_digit(unsigned char c)
{
	return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F') || (c >= 'a' && c <= 'f');
}

/* One path segment of n bytes: unreserved bytes, not starting with '.'. */
static bool segment_ok(const char *s, size_t n)
{
	if (n > FASTPATH_MAX_COMPONENT || (n > 0 && s[0] == '.'))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!unreserved((unsigned char)s[i]))
			return false;
	return true;
}

/* Checks every segment of path (after its leading '/'); the last one,
 * which may be empty (a trailing '/'), is measured into *last_len. */
static bool path_ok(const char *path, size_t *last_len)
{
	if (path[0] != '/')
		return false;
	const char *p = path + 1;
	for (;;) {
		const char *slash = strchr(p, '/');
		size_t n = slash ? (size_t)(slash - p) : strlen(p);
		if ((slash && n == 0) || !segment_ok(p, n))
			return false;
		if (!slash) {
			*last_len = n;
			return true;
		}
		p = slash + 1;
	}
}

static bool query_ok(const char *query)
{
	if (strstr(query, ".."))
		return false;
	for (const unsigned char *q = (const unsigned char *)query; *q; q++) {
		if (*q == '%') {
			if (!hex_digit(q[1]) || !hex_digit(q[2]))
				return false;
			q += 2;
		} else if (!query_byte(*q)) {
			return false;
		}
	}
	return true;
}

bool fastpath_file_name(const char *path, const char *query, struct strbuf *out)
{
	static const char suffix[] = ".json";
	size_t last_len;
	if (!path_ok(path, &last_len) || !query_ok(query))
		return false;
	size_t qlen = strlen(query), plen = strlen(path) - 1;
	if (last_len + 1 + qlen + sizeof suffix - 1 > FASTPATH_MAX_COMPONENT ||
	    plen + 1 + qlen + sizeof suffix - 1 > FASTPATH_MAX_NAME)
		return false;
	strbuf_add(out, path + 1, plen);
	strbuf_addch(out, '@');
	strbuf_add(out, query, qlen);
	strbuf_addstr(out, suffix);
	return true;
}

/* --- generation directories -------------------------------------------- */

#define CURRENT "current"
#define DIR_NAME_LEN 96

/* What a generation directory's name says. */
struct gen_dir {
	uint64_t generation, fingerprint;
	long long made_us;
	uint32_t boot;
};

/* "g<generation>-c<fingerprint>-": the part a worker checks. */
static void gen_dir_prefix(uint64_t generation, uint64_t fingerprint, char out[DIR_NAME_LEN])
{
	snprintf(out, DIR_NAME_LEN, "g%" PRIu64 "-c%016" PRIx64 "-", generation, fingerprint);
}

static void gen_dir_name(const struct gen_dir *d, char out[DIR_NAME_LEN])
{
	snprintf(out, DIR_NAME_LEN, "g%" PRIu64 "-c%016" PRIx64 "-t%lld-b%08" PRIx32, d->generation,
	         d->fingerprint, d->made_us, d->boot);
}

/* Reads a generation directory's name; false for any other name. */
static bool gen_dir_parse(const char *name, struct gen_dir *d)
{
	int end = 0;
	if (sscanf(name, "g%" SCNu64 "-c%16" SCNx64 "-t%lld-b%8" SCNx32 "%n", &d->generation,
	           &d->fingerprint, &d->made_us, &d->boot, &end) != 4 || name[end] != '\0')
		return false;
	char again[DIR_NAME_LEN];
	gen_dir_name(d, again);
	return strcmp(again, name) == 0; /* exactly the form we write */
}

/* The target of <dir>/current into out; false when there is none. */
static bool read_current(const char *dir, char out[DIR_NAME_LEN])
{
	struct strbuf link = STRBUF_INIT;
	strbuf_addf(&link, "%s/" CURRENT, dir);
	ssize_t n = readlink(link.ptr, out, DIR_NAME_LEN - 1);
	strbuf_release(&link);
	if (n <= 0)
		return false;
	out[n] = '\0';
	return true;
}

/* --- the worker's side --------------------------------------------------- */

void fastpath_init(struct fastpath *fp, const struct config *cfg)
{
	memset(fp, 0, sizeof *fp);
	if (!cfg->cache_public_dir || !*cfg->cache_public_dir)
		return;
	fp->dir = cfg->cache_public_dir;
	fp->fingerprint = cfg->fingerprint;
	if (cfg->rate_per_minute > 0)
		log_warning("[cache] public_dir: the web server answers published requests itself, "
		            "so [rate_limit] per_minute = %ld counts only those that reach cms-api "
		            "(answers not yet published, queries that cannot be); limit the rate "
		            "in the web server too, or set per_minute = 0",
		            cfg->rate_per_minute);
}

void fastpath_free(struct fastpath *fp)
{
	strbuf_release(&fp->name);
	memset(fp, 0, sizeof *fp);
}

void fastpath_note(struct fastpath *fp, const struct request *req)
{
	strbuf_reset(&fp->name);
	if (fp->dir && strcmp(req->method, "GET") == 0)
		fastpath_file_name(req->path, req->query, &fp->name);
}

/* Opens the directory <dir>/current names when it is the one of this
 * generation and config; -1 otherwise (another generation: nothing is
 * published). */
static int open_generation_dir(const struct fastpath *fp, uint64_t generation)
{
	char target[DIR_NAME_LEN], prefix[DIR_NAME_LEN];
	gen_dir_prefix(generation, fp->fingerprint, prefix);
	if (!read_current(fp->dir, target) || strncmp(target, prefix, strlen(prefix)) != 0 ||
	    strchr(target, '/'))
		return -1;
	struct strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "%s/%s", fp->dir, target);
	int fd = open(path.ptr, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	strbuf_release(&path);
	return fd;
}

/* Opens (making it, 0755, when missing) the directory name below at; -1
 * with errno set when it cannot. A directory made here that cannot be
 * given its mode is removed again, so that the next answer retries
 * rather than publishing where the web server may not read. */
static int open_subdir(int at, const char *name)
{
	if (mkdirat(at, name, 0755) == 0) {
		/* readable by the web server whatever the umask */
		if (fchmodat(at, name, 0755, 0) != 0) {
			int saved = errno;
			unlinkat(at, name, AT_REMOVEDIR);
			errno = saved;
			return -1;
		}
	} else if (errno != EEXIST) {
		return -1;
	}
	return openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
}

/* Writes body as name ("a/b/c@q.json") below the directory at, making
 * the directories on the way. With replace false an existing file stays. */
static int publish_at(int at, const char *name, const struct strbuf *body, bool replace)
{
	char *dirs = xstrdup(name);
	int cur = at, rc = -1;
	char *p = dirs, *slash;
	while ((slash = strchr(p, '/')) != NULL) {
		*slash = '\0';
		int next = open_subdir(cur, p);
		if (cur != at)
			close(cur);
		cur = next;
		if (cur < 0)
			goto out;
		p = slash + 1;
	}
	if (!replace && faccessat(cur, p, F_OK, AT_SYMLINK_NOFOLLOW) == 0)
		rc = 0;
	else
		rc = publish_bytes_at(cur, p, body->ptr ? body->ptr : "", body->len, 0644, PUBLISH_REPLACE);
out:
	if (cur >= 0 && cur != at) {
		int saved = errno;
		close(cur);
		errno = saved;
	}
	free(dirs);
	return rc;
}

const char *fastpath_suffix(const char *content_type)
{
	static const struct {
		const char *type, *suffix;
	} types[] = {
		{"application/json", "json"}, {"image/jpeg", "jpg"},  {"image/png", "png"},
		{"image/gif", "gif"},         {"image/webp", "webp"}, {"image/avif", "avif"},
	};
	for (size_t i = 0; content_type && i < sizeof types / sizeof types[0]; i++)
		if (strcmp(content_type, types[i].type) == 0)
			return types[i].suffix;
	return NULL;
}

/* The noted name with the suffix of res's type in place of ".json", into
 * out; false for a type that has none. */
static bool name_for_type(const struct fastpath *fp, const struct response *res,
                          struct strbuf *out)
{
	const char *suffix = fastpath_suffix(response_header(res, "Content-Type"));
	if (!suffix)
		return false;
	strbuf_add(out, fp->name.ptr, fp->name.len - strlen("json"));
	strbuf_addstr(out, suffix);
	return true;
}

void fastpath_publish(struct fastpath *fp, uint64_t generation, const struct response *res,
                      bool replace)
{
	if (!fp->dir || fp->name.len == 0 || res->state != RESPONSE_ANSWERED ||
	    res->status != 200 || response_header(res, "Content-Encoding"))
		return;
	struct strbuf name = STRBUF_INIT;
	int at = name_for_type(fp, res, &name) ? open_generation_dir(fp, generation) : -1;
	/* ENOENT: the watcher swapped and removed this directory meanwhile,
	 * which is what keeps an older answer unreachable. */
	if (at >= 0 && publish_at(at, name.ptr, &res->body, replace) != 0 && errno != ENOENT)
		log_every_minute(LOG_LEVEL_WARNING, "cannot publish %s in %s: %s", name.ptr,
		                 fp->dir, strerror(errno));
	if (at >= 0)
		close(at);
	strbuf_release(&name);
}

/* --- the watcher's side ---------------------------------------------------- */

static long long wall_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

/* A short hash of this boot's id: a directory made before the machine
 * last started may hold files a power failure left half written (they
 * are renamed into place without fsync), so it is never used again. */
static uint32_t boot_tag(void)
{
	char id[64] = "";
	FILE *f = fopen("/proc/sys/kernel/random/boot_id", "re");
	if (f) {
		if (!fgets(id, sizeof id, f))
			id[0] = '\0';
		fclose(f);
	}
	return (uint32_t)hash_fnv1a_bytes(id, strcspn(id, "\n"));
}

/* Removes the entry name below at, and everything below it. */
static void remove_tree_at(int at, const char *name, int depth)
{
	if (unlinkat(at, name, 0) == 0 || (errno != EISDIR && errno != EPERM))
		return;
	int fd = depth < 64 ? openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
	                    : -1;
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d && fd >= 0)
		close(fd);
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL)
		if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0)
			remove_tree_at(dirfd(d), e->d_name, depth + 1);
	if (d)
		closedir(d);
	unlinkat(at, name, AT_REMOVEDIR);
}

/* Bytes of the files below the directory name below at. */
static long long tree_bytes_at(int at, const char *name, int depth)
{
	int fd = depth < 64 ? openat(at, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
	                    : -1;
	DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	long long sum = 0;
	struct dirent *e;
	struct stat st;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) != 0)
			continue;
		sum += S_ISDIR(st.st_mode) ? tree_bytes_at(dirfd(d), e->d_name, depth + 1)
		                           : (long long)st.st_size;
	}
	closedir(d);
	return sum;
}

/* Removes what a swap leaves in dir: generation directories other than
 * keep, and temporary links. Nothing else is ever touched there (a
 * public_dir set to a directory with other files loses none of them). */
static void remove_others(const char *dir, const char *keep)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	struct gen_dir g;
	while (d && (e = readdir(d)) != NULL)
		if (strcmp(e->d_name, keep) != 0 &&
		    (gen_dir_parse(e->d_name, &g) || strncmp(e->d_name, ".current-", 9) == 0))
			remove_tree_at(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
}

/* Makes a fresh directory for generation, points <dir>/current at it (a
 * new link renamed over the old one) and removes the others; -1 with
 * errno set when a step fails. */
static int swap_in(const char *dir, const struct gen_dir *want)
{
	char name[DIR_NAME_LEN], tmp[64];
	gen_dir_name(want, name);
	snprintf(tmp, sizeof tmp, ".current-%ld", (long)getpid());
	int at = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (at < 0)
		return -1;
	int rc = -1;
	if (mkdirat(at, name, 0755) != 0 && errno != EEXIST)
		goto out;
	/* current must lead the web server to readable files: a directory
	 * that cannot be made 0755 is not swapped in (swap_to logs why). */
	if (fchmodat(at, name, 0755, 0) != 0)
		goto out;
	unlinkat(at, tmp, 0);
	if (symlinkat(name, at, tmp) != 0)
		goto out;
	if (renameat(at, tmp, at, CURRENT) != 0) {
		int saved = errno;
		unlinkat(at, tmp, 0);
		errno = saved;
		goto out;
	}
	rc = 0;
out:
	if (rc != 0) {
		int saved = errno;
		close(at);
		errno = saved;
		return -1;
	}
	close(at);
	remove_others(dir, name);
	return 0;
}

/* The generation directory wanted now for cfg: the one in force when it
 * is of this generation, config and boot and has not expired. */
static bool current_still_good(const struct config *cfg, const struct gen_dir *want,
                               long long now_us)
{
	char target[DIR_NAME_LEN];
	struct gen_dir cur;
	return read_current(cfg->cache_public_dir, target) && gen_dir_parse(target, &cur) &&
	       cur.generation == want->generation && cur.fingerprint == want->fingerprint &&
	       cur.boot == want->boot && cur.made_us <= now_us &&
	       now_us - cur.made_us < cfg->cache_expiry * 60LL * 1000000LL;
}

/* Makes public_dir itself (one level, like the cache directory). */
static int ensure_public_dir(const char *dir)
{
	if (mkdir(dir, 0755) == 0)
		chmod(dir, 0755);
	else if (errno != EEXIST)
		return -1;
	return 0;
}

static void swap_to(const struct config *cfg, uint64_t generation, const char *why)
{
	const char *dir = cfg->cache_public_dir;
	struct gen_dir want = {generation, cfg->fingerprint, wall_us(), boot_tag()};
	if (ensure_public_dir(dir) != 0 || swap_in(dir, &want) != 0) {
		log_every_minute(LOG_LEVEL_ERROR, "cannot swap %s/" CURRENT " (%s): published "
		                 "answers of generation %" PRIu64 " cannot be made", dir,
		                 strerror(errno), generation);
		return;
	}
	log_debug("%s/" CURRENT ": a fresh directory for cache generation %" PRIu64 " (%s)", dir,
	          generation, why);
}

/* The cache generation in the generation file; false when unreadable. */
static bool cache_generation(const struct config *cfg, uint64_t *generation)
{
	struct shared_paths paths;
	if (shared_paths_init(&paths, cfg) != 0)
		return false;
	struct generation g;
	int rc = generation_read(paths.generation, &g);
	shared_paths_free(&paths);
	*generation = g.cache_signature; /* what the workers' cache_generation is */
	return rc == 0;
}

void fastpath_follow_to(const struct config *cfg, uint64_t generation)
{
	if (!cfg->cache_public_dir || !*cfg->cache_public_dir)
		return;
	struct gen_dir want = {generation, cfg->fingerprint, wall_us(), boot_tag()};
	if (!current_still_good(cfg, &want, want.made_us))
		swap_to(cfg, generation, "the generation moved, or the one in force expired");
}

void fastpath_follow(const struct config *cfg)
{
	uint64_t generation;
	if (cfg->cache_public_dir && *cfg->cache_public_dir && cache_generation(cfg, &generation))
		fastpath_follow_to(cfg, generation);
}

void fastpath_trim(const struct config *cfg)
{
	uint64_t generation;
	char target[DIR_NAME_LEN];
	const char *dir = cfg->cache_public_dir;
	if (!dir || !*dir || !cache_generation(cfg, &generation) || !read_current(dir, target))
		return;
	long long max = cfg->cache_max_size * 1024LL * 1024LL;
	int at = max > 0 ? open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC) : -1;
	long long bytes = at >= 0 ? tree_bytes_at(at, target, 0) : 0;
	if (at >= 0)
		close(at);
	if (max > 0 && bytes > max)
		swap_to(cfg, generation, "over [cache] max_size");
	else
		remove_others(dir, target);
}

/* --- withdrawal: a stopped watcher's last act ------------------------------ */

/* <public_dir>/current, noted when the watcher starts so that a signal
 * handler can remove it without allocating; "" when there is none. */
static char withdraw_link[PATH_MAX];

void fastpath_arm_withdraw(const struct config *cfg)
{
	const char *dir = cfg->cache_public_dir;
	withdraw_link[0] = '\0';
	if (!dir || !*dir)
		return;
	int n = snprintf(withdraw_link, sizeof withdraw_link, "%s/" CURRENT, dir);
	if (n < 0 || (size_t)n >= sizeof withdraw_link)
		withdraw_link[0] = '\0';
}

void fastpath_withdraw(void)
{
	int saved = errno;
	if (withdraw_link[0])
		unlink(withdraw_link);
	errno = saved;
}
