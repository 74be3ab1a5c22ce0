/* cache_file: the file driver's entries on disk; see cache_file.h. */
#include "autoconfig.h"

#include "cache/cache_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "change/generation.h"
#include "core/log.h"
#include "lib/mapfile.h"
#include "lib/publish.h"

bool cache_file_in_use(const struct config *cfg)
{
	return config_caches(cfg) && cfg->cache_driver == CACHE_FILE;
}

static char *entry_path(const struct shared_paths *paths, uint64_t generation, uint64_t hash)
{
	char *dir = shared_responses_dir(paths, generation);
	struct strbuf b = STRBUF_INIT;
	strbuf_addf(&b, "%s/%016" PRIx64, dir, hash);
	free(dir);
	return strbuf_detach(&b, NULL);
}

int cache_file_read(const struct shared_paths *paths, uint64_t generation, uint64_t hash,
                    struct strbuf *out)
{
	char *path = entry_path(paths, generation, hash);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	free(path);
	if (fd < 0)
		return -1;
	struct stat st;
	int rc = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0 ? 0 : -1;
	size_t want = rc == 0 ? (size_t)st.st_size : 0;
	strbuf_grow(out, want);
	while (rc == 0 && want > 0) {
		ssize_t n = read(fd, out->ptr + out->len, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			rc = -1;
			break;
		}
		out->len += (size_t)n;
		out->ptr[out->len] = '\0';
		want -= (size_t)n;
	}
	close(fd);
	return rc;
}

/* --- the byte budget --- */

static size_t prune(const struct shared_paths *paths, uint64_t generation, long long max_bytes,
                    long long expiry_seconds, long long now, long long *remaining);

static char *budget_path(const struct shared_paths *paths, uint64_t generation)
{
	char *dir = shared_responses_dir(paths, generation);
	struct strbuf b = STRBUF_INIT;
	strbuf_addf(&b, "%s/.bytes", dir);
	free(dir);
	return strbuf_detach(&b, NULL);
}

/* The generation's shared counter, mapped (made when missing, allocated
 * in full: mapfile.h), or NULL. */
static uint64_t *map_counter(const struct shared_paths *paths, uint64_t generation)
{
	char *path = budget_path(paths, generation);
	uint64_t *map = mapfile_open(path, 8, true);
	free(path);
	return map;
}

void cache_budget_release(struct cache_budget *budget)
{
	if (budget->bytes)
		munmap(budget->bytes, 8);
	budget->bytes = NULL;
}

static uint64_t *counter_for(const struct shared_paths *paths, uint64_t generation,
                             struct cache_budget *budget)
{
	if (budget->bytes && budget->generation == generation)
		return budget->bytes;
	cache_budget_release(budget);
	budget->bytes = map_counter(paths, generation);
	budget->generation = generation;
	return budget->bytes;
}

/* Adds n to the counter unless that passes max; true when it did. */
static bool reserve(uint64_t *counter, uint64_t n, uint64_t max)
{
	uint64_t now = __atomic_load_n(counter, __ATOMIC_RELAXED);
	do {
		if (now + n > max)
			return false;
	} while (!__atomic_compare_exchange_n(counter, &now, now + n, true, __ATOMIC_RELAXED,
	                                      __ATOMIC_RELAXED));
	return true;
}

/* Takes n off the counter, never below zero (answers stored before the
 * counter existed are not in it). */
static void give_back(uint64_t *counter, uint64_t n)
{
	uint64_t now = __atomic_load_n(counter, __ATOMIC_RELAXED);
	while (!__atomic_compare_exchange_n(counter, &now, now > n ? now - n : 0, true,
	                                    __ATOMIC_RELAXED, __ATOMIC_RELAXED))
		;
}

static long long size_of(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0 && S_ISREG(st.st_mode) ? (long long)st.st_size : 0;
}

/* Reserves room for n bytes within max: when they do not fit, the oldest
 * answers go first (one writer prunes at a time; the others do not wait
 * and store nothing this time). */
static bool fit(const struct shared_paths *paths, uint64_t generation, uint64_t *counter,
                uint64_t n, long long max)
{
	if (reserve(counter, n, (uint64_t)max))
		return true;
	/* An answer larger than the whole budget never fits: pruning for it
	 * would empty the cache, at will, for anyone who asks for it. */
	if (n > (uint64_t)max)
		return false;
	char *dir = shared_responses_dir(paths, generation);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0) {
		/* Room for n: the rest down to 90 % of what is left for them. */
		long long remaining;
		prune(paths, generation, max - (long long)n > 0 ? max - (long long)n : 1, LLONG_MAX / 2,
		      0, &remaining);
		/* A count the files on disk do not bear out (a writer killed
		 * between reserving and writing) is set right, so that it never
		 * keeps answers out for good. */
		uint64_t counted = __atomic_load_n(counter, __ATOMIC_RELAXED);
		if (counted > (uint64_t)remaining + n)
			__atomic_store_n(counter, (uint64_t)remaining, __ATOMIC_RELAXED);
	}
	if (fd >= 0)
		close(fd);
	return reserve(counter, n, (uint64_t)max);
}

int cache_file_write(const struct shared_paths *paths, uint64_t generation, uint64_t hash,
                     const struct strbuf *entry, long long max_bytes, struct cache_budget *budget)
{
	char *dir = shared_responses_dir(paths, generation);
	int rc = mkdir(dir, 0700) == 0 || errno == EEXIST ? 0 : -1;
	free(dir);
	if (rc != 0)
		return -1;
	uint64_t *counter = NULL;
	if (max_bytes > 0) {
		counter = counter_for(paths, generation, budget);
		if (!counter)
			return -1; /* no room even for the counter: the disk is full */
		if (!fit(paths, generation, counter, entry->len, max_bytes)) {
			errno = EFBIG;
			return -1;
		}
	}
	char *path = entry_path(paths, generation, hash);
	long long replaced = counter ? size_of(path) : 0;
	rc = publish_bytes(path, entry->ptr, entry->len, 0644, PUBLISH_REPLACE);
	free(path);
	if (counter)
		give_back(counter, rc == 0 ? (uint64_t)replaced : entry->len);
	return rc;
}

/* A file of a generation's directory, as prune sees it. */
struct stored {
	char *path; /* owned */
	long long mtime_ns, size;
};

static int by_age(const void *a, const void *b)
{
	const struct stored *x = a, *y = b;
	return (x->mtime_ns > y->mtime_ns) - (x->mtime_ns < y->mtime_ns);
}

/* A writer's temporary file ("<hash>.tmp-XXXXXX") is left only by a
 * writer that died; a minute is far longer than any write. */
static bool stale_temporary(const char *name, long long mtime, long long now)
{
	return strstr(name, ".tmp-") && mtime + 60 < now;
}

size_t cache_file_prune(const struct shared_paths *paths, uint64_t generation,
                        long long max_bytes, long long expiry_seconds, long long now)
{
	long long remaining;
	return prune(paths, generation, max_bytes, expiry_seconds, now, &remaining);
}

/* The work of cache_file_prune; *remaining is what the kept answers take. */
static size_t prune(const struct shared_paths *paths, uint64_t generation, long long max_bytes,
                    long long expiry_seconds, long long now, long long *remaining)
{
	*remaining = 0;
	char *dir = shared_responses_dir(paths, generation);
	DIR *d = opendir(dir);
	if (!d) {
		free(dir);
		return 0;
	}
	struct stored *kept = NULL;
	size_t nkept = 0, removed = 0;
	long long total = 0, removed_bytes = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		struct stat st;
		struct strbuf path = STRBUF_INIT;
		strbuf_addf(&path, "%s/%s", dir, e->d_name);
		if (e->d_name[0] == '.' || lstat(path.ptr, &st) != 0 || !S_ISREG(st.st_mode)) {
			strbuf_release(&path);
			continue;
		}
		long long mtime = (long long)st.st_mtime;
		if (stale_temporary(e->d_name, mtime, now) ||
		    (!strstr(e->d_name, ".tmp-") && mtime + expiry_seconds <= now)) {
			if (unlink(path.ptr) == 0) {
				removed++;
				removed_bytes += strstr(e->d_name, ".tmp-") ? 0 : (long long)st.st_size;
			}
			strbuf_release(&path);
			continue;
		}
		kept = xrealloc(kept, (nkept + 1) * sizeof *kept);
		long long mtime_ns = mtime * 1000000000LL + (long long)st.st_mtim.tv_nsec;
		kept[nkept++] = (struct stored){strbuf_detach(&path, NULL), mtime_ns, (long long)st.st_size};
		total += (long long)st.st_size;
	}
	closedir(d);
	free(dir);
	if (max_bytes > 0 && total > max_bytes) {
		qsort(kept, nkept, sizeof *kept, by_age);
		for (size_t i = 0; i < nkept && total > max_bytes / 10 * 9; i++) {
			if (unlink(kept[i].path) == 0) {
				removed++;
				removed_bytes += kept[i].size;
				total -= kept[i].size;
			}
		}
	}
	for (size_t i = 0; i < nkept; i++)
		free(kept[i].path);
	free(kept);
	uint64_t *counter = removed_bytes ? map_counter(paths, generation) : NULL;
	if (counter) {
		give_back(counter, (uint64_t)removed_bytes);
		munmap(counter, 8);
	}
	*remaining = total;
	return removed;
}

void cache_file_count(const struct shared_paths *paths, uint64_t generation, long long *entries,
                      long long *bytes)
{
	char *dir = shared_responses_dir(paths, generation);
	DIR *d = opendir(dir);
	*entries = *bytes = 0;
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		struct strbuf path = STRBUF_INIT;
		strbuf_addf(&path, "%s/%s", dir, e->d_name);
		long long size = size_of(path.ptr);
		/* A write in flight takes room, but is no answer yet. */
		*entries += size > 0 && !strstr(e->d_name, ".tmp-");
		*bytes += size;
		strbuf_release(&path);
	}
	if (d)
		closedir(d);
	free(dir);
}

size_t cache_file_make_room(const struct shared_paths *paths, uint64_t generation)
{
	struct generation g;
	uint64_t current = generation_read(paths->generation, &g) == 0 ? g.cache_signature : generation;
	size_t removed = shared_remove_old_responses(paths, generation, current);
	long long entries, total;
	cache_file_count(paths, generation, &entries, &total);
	if (total > 0)
		removed += cache_file_prune(paths, generation, total / 2, LLONG_MAX / 2, 0);
	return removed;
}

/* --- the driver's table --- */

struct cache_file_state *cache_file_state_new(const struct shared_paths *paths,
                                              long long max_bytes)
{
	struct cache_file_state *s = xcalloc(1, sizeof *s);
	s->paths = paths;
	s->max_bytes = max_bytes;
	return s;
}

static int file_get(void *state, const struct cms_api_cache_request *request,
                    cms_api_cache_append_fn append, void *sink)
{
	struct cache_file_state *s = state;
	struct strbuf entry = STRBUF_INIT;
	int found = cache_file_read(s->paths, request->generation, request->key_hash, &entry) == 0;
	if (found)
		append(sink, entry.ptr, entry.len);
	strbuf_release(&entry);
	return found;
}

static bool out_of_space(int err)
{
	return err == ENOSPC || err == EDQUOT;
}

static int file_put(void *state, const struct cms_api_cache_request *request,
                    const struct cms_api_cache_response *response)
{
	struct cache_file_state *s = state;
	/* A view of the caller's bytes: publish_bytes only reads them. */
	const struct strbuf entry = {(char *)response->entry, response->entry_len, 0};
	if (cache_file_write(s->paths, request->generation, request->key_hash, &entry, s->max_bytes,
	                     &s->budget) == 0)
		return 0;
	int err = errno;
	/* Over max_size with another writer already making room: this answer
	 * is simply not stored. */
	if (err == EFBIG)
		return 0;
	log_every_minute(LOG_LEVEL_WARNING, "cannot store a cached answer in %s: %s", s->paths->dir,
	                 strerror(err));
	long long now = (long long)time(NULL);
	if (out_of_space(err) && now >= s->next_room_making) {
		size_t n = cache_file_make_room(s->paths, request->generation);
		log_every_minute(LOG_LEVEL_WARNING, "the cache's file system is full: removed %zu "
		                 "cached answers to make room", n);
		s->next_room_making = now + 5;
	}
	return -1;
}

static void file_free(void *state)
{
	struct cache_file_state *s = state;
	cache_budget_release(&s->budget);
	free(s);
}

const struct cms_api_cache_driver cache_file_driver = {
	CMS_API_CACHE_DRIVER_ABI_VERSION, "file", NULL, file_get, file_put, NULL, file_free,
};
