/* cache_file: the file driver's entries on disk; see cache_file.h. */
#include "autoconfig.h"

#include "cache_file.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

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
