/*
 * dir-driver: an example cache driver for cms-api, loaded as a plug-in
 * ([cache] driver = /path/to/dir-driver.so). It keeps each cached answer
 * as a file of its own:
 *
 *     STORE_DIR/g<generation>/<key hash>      (both 16 hex digits)
 *
 * A put writes a temporary file beside the entry and renames it over the
 * entry's name, so a reader finds the old entry or the new one, never
 * half of one. The generation in the path makes every older answer
 * unreachable the moment a change to the site moves the generation; the
 * invalidation event (which the watcher process sends) then removes the
 * older generations' directories. Expiry is left to cms-api, which checks
 * it on every entry it gets: an expired entry is a miss, and the answer
 * made then is put over it.
 *
 * In cms-api.ini:
 *
 *     [cache]
 *     driver = /usr/local/lib/cms-api/dir-driver.so
 *     store_dir = /var/cache/cms-api-entries
 *
 * store_dir must exist, writable by the workers' user: the driver never
 * makes it (`cms-api check` runs init too, often as root, and a directory
 * made then would be root's). Any other option is refused, so that a
 * misspelled one fails the check instead of being ignored.
 *
 * Build it with nothing but the header cms-api installs:
 *
 *     cc -std=c11 -O2 -Wall -shared -fPIC -o dir-driver.so dir-driver.c
 */
#define _POSIX_C_SOURCE 200809L

#include <cms-api/cache-driver.h>

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

/* Room for STORE_DIR, "/g" and 16 digits, "/.tmp-", a pid, 16 digits. */
#define MAX_STORE_DIR 3900
#define PATH_LEN (MAX_STORE_DIR + 80)
#define GENERATION_NAME_LEN 17 /* "g" and 16 hex digits */

struct store {
	char *dir; /* owned: store_dir */
};

/* --- names --- */

static void generation_dir(const struct store *s, uint64_t generation, char path[PATH_LEN])
{
	snprintf(path, PATH_LEN, "%s/g%016" PRIx64, s->dir, generation);
}

static void entry_path(const struct store *s, const struct cms_api_cache_request *req,
                       char path[PATH_LEN])
{
	snprintf(path, PATH_LEN, "%s/g%016" PRIx64 "/%016" PRIx64, s->dir, req->generation,
	         req->key_hash);
}

static int is_generation_name(const char *name)
{
	if (strlen(name) != GENERATION_NAME_LEN || name[0] != 'g')
		return 0;
	return strspn(name + 1, "0123456789abcdef") == GENERATION_NAME_LEN - 1;
}

/* --- init and free --- */

static void *store_init(const struct cms_api_cache_option *options, size_t noptions, char *error,
                        size_t error_size)
{
	const char *dir = NULL;
	for (size_t i = 0; i < noptions; i++) {
		if (strcmp(options[i].name, "store_dir") != 0) {
			snprintf(error, error_size, "unknown option '%s' (dir-driver reads store_dir only)",
			         options[i].name);
			return NULL;
		}
		dir = options[i].value;
	}
	if (!dir || dir[0] != '/' || strlen(dir) > MAX_STORE_DIR) {
		snprintf(error, error_size, "store_dir must be set to an absolute path (of at most "
		         "%d bytes): the directory that keeps the entries", MAX_STORE_DIR);
		return NULL;
	}
	struct stat st;
	if (stat(dir, &st) != 0) {
		snprintf(error, error_size, "store_dir %s: %s", dir, strerror(errno));
		return NULL;
	}
	if (!S_ISDIR(st.st_mode)) {
		snprintf(error, error_size, "store_dir %s: not a directory", dir);
		return NULL;
	}
	struct store *s = malloc(sizeof *s);
	char *copy = strdup(dir);
	if (!s || !copy) {
		free(s);
		free(copy);
		snprintf(error, error_size, "out of memory");
		return NULL;
	}
	s->dir = copy;
	return s;
}

static void store_free(void *state)
{
	struct store *s = state;
	free(s->dir);
	free(s);
}

/* --- get and put --- */

static int copy_out(int fd, cms_api_cache_append_fn append, void *sink)
{
	char buf[16384];
	for (;;) {
		ssize_t n = read(fd, buf, sizeof buf);
		if (n > 0)
			append(sink, buf, (size_t)n);
		else if (n == 0)
			return 1;
		else if (errno != EINTR)
			return -1;
	}
}

static int store_get(void *state, const struct cms_api_cache_request *req,
                     cms_api_cache_append_fn append, void *sink)
{
	char path[PATH_LEN];
	entry_path(state, req, path);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return errno == ENOENT ? 0 : -1; /* no entry, or no generation yet */
	int rc = copy_out(fd, append, sink);
	int err = errno;
	close(fd);
	errno = err;
	return rc;
}

static int write_all(const char *path, const char *bytes, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	if (fd < 0)
		return -1;
	while (len > 0) {
		ssize_t n = write(fd, bytes, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			int err = n < 0 ? errno : EIO;
			close(fd);
			errno = err;
			return -1;
		}
		bytes += n;
		len -= (size_t)n;
	}
	return close(fd);
}

static int store_put(void *state, const struct cms_api_cache_request *req,
                     const struct cms_api_cache_response *res)
{
	char dir[PATH_LEN], path[PATH_LEN], tmp[PATH_LEN + 64];
	generation_dir(state, req->generation, dir);
	/* 0700: the answers of an API behind a token are in there too. */
	if (mkdir(dir, 0700) != 0 && errno != EEXIST)
		return -1;
	entry_path(state, req, path);
	/* A worker answers one request at a time: its pid makes the name its own. */
	snprintf(tmp, sizeof tmp, "%s/.tmp-%ld-%016" PRIx64, dir, (long)getpid(), req->key_hash);
	if (write_all(tmp, res->entry, res->entry_len) != 0 || rename(tmp, path) != 0) {
		int err = errno;
		unlink(tmp);
		/* ENOENT: the watcher removed this generation's directory
		 * meanwhile (invalidate below): the answer is simply not kept,
		 * which is no failure of the store. */
		if (err == ENOENT)
			return 0;
		errno = err;
		return -1;
	}
	return 0;
}

/* --- invalidate --- */

/* Removes one generation's directory and its entries. A worker still
 * putting an answer of that generation may add a file meanwhile: the
 * directory then stays, until the next invalidation removes it. */
static int remove_generation(const struct store *s, const char *name)
{
	char dir[PATH_LEN], path[PATH_LEN * 2];
	snprintf(dir, sizeof dir, "%s/%s", s->dir, name);
	DIR *d = opendir(dir);
	if (!d)
		return errno == ENOENT ? 0 : -1;
	int rc = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
		if (unlink(path) != 0 && errno != ENOENT)
			rc = -1;
	}
	closedir(d);
	if (rmdir(dir) != 0 && errno != ENOENT && errno != ENOTEMPTY && errno != EEXIST)
		rc = -1;
	return rc;
}

static int store_invalidate(void *state, const struct cms_api_cache_event *event)
{
	const struct store *s = state;
	char keep[GENERATION_NAME_LEN + 1];
	snprintf(keep, sizeof keep, "g%016" PRIx64, event->new_generation);
	DIR *d = opendir(s->dir);
	if (!d)
		return -1;
	int rc = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL)
		if (is_generation_name(e->d_name) && strcmp(e->d_name, keep) != 0 &&
		    remove_generation(s, e->d_name) != 0)
			rc = -1;
	closedir(d);
	return rc;
}

/* --- the table cms-api asks for --- */

static const struct cms_api_cache_driver driver = {
	.abi_version = CMS_API_CACHE_DRIVER_ABI_VERSION,
	.name = "dir-driver",
	.init = store_init,
	.get = store_get,
	.put = store_put,
	.invalidate = store_invalidate,
	.free = store_free,
};

const struct cms_api_cache_driver *cms_api_cache_driver(void)
{
	return &driver;
}
