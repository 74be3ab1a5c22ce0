/* cache_file: the file driver's entries on disk; see cache_file.h. */
#include "autoconfig.h"

#include "cache_file.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <dirent.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

bool cache_file_in_use(const struct config *cfg)
{
	return cfg->cache_enabled && cfg->cache_driver == CACHE_FILE && cfg->cache_expiry > 0;
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

int cache_file_write(const struct shared_paths *paths, uint64_t generation, uint64_t hash,
                     const struct strbuf *entry)
{
	char *dir = shared_responses_dir(paths, generation);
	int rc = mkdir(dir, 0700) == 0 || errno == EEXIST ? 0 : -1;
	free(dir);
	if (rc != 0)
		return -1;
	char *path = entry_path(paths, generation, hash);
	rc = shared_write_file(path, entry);
	free(path);
	return rc;
}

/* A file of a generation's directory, as prune sees it. */
struct stored {
	char *path; /* owned */
	long long mtime, size;
};

static int by_age(const void *a, const void *b)
{
	const struct stored *x = a, *y = b;
	return (x->mtime > y->mtime) - (x->mtime < y->mtime);
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
	char *dir = shared_responses_dir(paths, generation);
	DIR *d = opendir(dir);
	if (!d) {
		free(dir);
		return 0;
	}
	struct stored *kept = NULL;
	size_t nkept = 0, removed = 0;
	long long total = 0;
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
			removed += unlink(path.ptr) == 0;
			strbuf_release(&path);
			continue;
		}
		kept = xrealloc(kept, (nkept + 1) * sizeof *kept);
		kept[nkept++] = (struct stored){strbuf_detach(&path, NULL), mtime, (long long)st.st_size};
		total += (long long)st.st_size;
	}
	closedir(d);
	free(dir);
	if (max_bytes > 0 && total > max_bytes) {
		qsort(kept, nkept, sizeof *kept, by_age);
		for (size_t i = 0; i < nkept && total > max_bytes / 10 * 9; i++) {
			if (unlink(kept[i].path) == 0) {
				removed++;
				total -= kept[i].size;
			}
		}
	}
	for (size_t i = 0; i < nkept; i++)
		free(kept[i].path);
	free(kept);
	return removed;
}
