/* cache_file: the file driver's entries on disk; see cache_file.h. */
#include "autoconfig.h"

#include "cache/cache_file.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
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
                    long long expiry_seconds, long long now);

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

/*
 * Takes the file at path away and returns the bytes it held (0 when there
 * was none). It is first renamed to a name of this process's, so that
 * exactly one process (the one whose rename took it) counts those bytes
 * off, whatever other writers and pruners do to path meanwhile.
 */
static long long take_away(const char *path)
{
	struct strbuf gone = STRBUF_INIT;
	strbuf_addf(&gone, "%s.tmp-gone%ld", path, (long)getpid());
	long long bytes = 0;
	if (rename(path, gone.ptr) == 0) {
		bytes = size_of(gone.ptr);
		unlink(gone.ptr);
	}
	strbuf_release(&gone);
	return bytes;
}

/*
 * Writers of a generation's directory hold a shared lock on it (flock of
 * the directory) from the moment they reserve bytes until they have given
 * back what they do not keep. Whoever holds it exclusively knows that no
 * reservation is in flight, and only then sets the counter to what the
 * files on disk take: the one repair the counter needs, after a writer
 * killed between reserving and giving back. Nothing waits for the lock.
 */
static int lock_dir(const struct shared_paths *paths, uint64_t generation, int how)
{
	char *dir = shared_responses_dir(paths, generation);
	int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	free(dir);
	if (fd >= 0 && flock(fd, how | LOCK_NB) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* With the directory held exclusively: the counter becomes the bytes its
 * files take (answers and the temporary files of writers that died). */
static void recount(const struct shared_paths *paths, uint64_t generation, uint64_t *counter)
{
	long long entries, bytes;
	cache_file_count(paths, generation, &entries, &bytes);
	__atomic_store_n(counter, (uint64_t)bytes, __ATOMIC_RELAXED);
}

/* A writer holding dirfd shared recounts when no other writer is in
 * flight. Converting a lock lets the old one go before it tries (Linux),
 * so the shared lock is taken again either way; false when it could not
 * be, and then the writer must store nothing. */
static bool recount_when_alone(int dirfd, const struct shared_paths *paths, uint64_t generation,
                               uint64_t *counter)
{
	if (flock(dirfd, LOCK_EX | LOCK_NB) == 0)
		recount(paths, generation, counter);
	return flock(dirfd, LOCK_SH | LOCK_NB) == 0;
}

/* Reserves room for n bytes within max for a writer holding dirfd
 * shared: when they do not fit, the oldest answers go first and the count
 * is set right if it can be (one writer at a time, holding the counter
 * file's lock; the others do not wait and store nothing this time). */
static bool fit(const struct shared_paths *paths, uint64_t generation, int dirfd,
                uint64_t *counter, uint64_t n, long long max)
{
	if (reserve(counter, n, (uint64_t)max))
		return true;
	/* An answer larger than the whole budget never fits: pruning for it
	 * would empty the cache, at will, for anyone who asks for it. */
	if (n > (uint64_t)max)
		return false;
	char *path = budget_path(paths, generation);
	int room = open(path, O_RDWR | O_CLOEXEC);
	free(path);
	bool held = true;
	if (room >= 0 && flock(room, LOCK_EX | LOCK_NB) == 0) {
		/* Room for n: the rest down to 90 % of what is left for them. */
		prune(paths, generation, max - (long long)n > 0 ? max - (long long)n : 1, LLONG_MAX / 2,
		      0);
		held = recount_when_alone(dirfd, paths, generation, counter);
	}
	if (room >= 0)
		close(room);
	return held && reserve(counter, n, (uint64_t)max);
}

/* Publishes entry at path in the room reserved for it: what it does not
 * keep goes back, and so do the bytes of the answer it replaces, counted
 * off by take_away. Another writer that stored the same answer first
 * wins (its bytes are counted for it). */
static int store(const char *path, const struct strbuf *entry, uint64_t *counter)
{
	uint64_t freed = (uint64_t)take_away(path);
	int rc = publish_bytes(path, entry->ptr, entry->len, 0644, PUBLISH_CREATE);
	bool kept = rc == 0;
	if (rc != 0 && errno == EEXIST)
		rc = 0;
	int saved = errno;
	give_back(counter, freed + (kept ? 0 : entry->len));
	errno = saved;
	return rc;
}

int cache_file_write(const struct shared_paths *paths, uint64_t generation, uint64_t hash,
                     const struct strbuf *entry, long long max_bytes, struct cache_budget *budget)
{
	char *dir = shared_responses_dir(paths, generation);
	int rc = mkdir(dir, 0700) == 0 || errno == EEXIST ? 0 : -1;
	free(dir);
	if (rc != 0)
		return -1;
	char *path = entry_path(paths, generation, hash);
	if (max_bytes <= 0) {
		rc = publish_bytes(path, entry->ptr, entry->len, 0644, PUBLISH_REPLACE);
		free(path);
		return rc;
	}
	uint64_t *counter = counter_for(paths, generation, budget);
	int dirfd = counter ? lock_dir(paths, generation, LOCK_SH) : -1;
	/* Without a counter the disk is full (errno says so). */
	rc = -1;
	if (counter && (dirfd < 0 || !fit(paths, generation, dirfd, counter, entry->len, max_bytes)))
		errno = EFBIG; /* over max_size, or being recounted: not stored this time */
	else if (counter)
		rc = store(path, entry, counter);
	int saved = errno;
	if (dirfd >= 0)
		close(dirfd); /* lets the shared lock go */
	free(path);
	errno = saved;
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
	size_t removed = prune(paths, generation, max_bytes, expiry_seconds, now);
	/* The count set right while no writer is in flight. */
	int dirfd = max_bytes > 0 ? lock_dir(paths, generation, LOCK_EX) : -1;
	uint64_t *counter = dirfd >= 0 ? map_counter(paths, generation) : NULL;
	if (counter) {
		recount(paths, generation, counter);
		munmap(counter, 8);
	}
	if (dirfd >= 0)
		close(dirfd);
	return removed;
}

/* The work of cache_file_prune but the recount: the files removed, their
 * bytes counted off. */
static size_t prune(const struct shared_paths *paths, uint64_t generation, long long max_bytes,
                    long long expiry_seconds, long long now)
{
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
		if (stale_temporary(e->d_name, mtime, now)) {
			/* Its writer's reservation is set right by a recount. */
			removed += unlink(path.ptr) == 0;
			strbuf_release(&path);
			continue;
		}
		if (strstr(e->d_name, ".tmp-")) {
			/* A write in flight: it takes room, but is its writer's
			 * (whose reservation counts it) to publish or remove. */
			total += (long long)st.st_size;
			strbuf_release(&path);
			continue;
		}
		if (mtime + expiry_seconds <= now) {
			long long bytes = take_away(path.ptr);
			removed += bytes > 0;
			removed_bytes += bytes;
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
			/* What the scan saw may have been replaced since: the
			 * bytes counted off are those of the file taken. */
			long long bytes = take_away(kept[i].path);
			removed += bytes > 0;
			removed_bytes += bytes;
			total -= kept[i].size;
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
