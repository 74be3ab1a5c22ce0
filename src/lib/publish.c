/* publish: a file put in place whole; see publish.h. */
#include "autoconfig.h"

#include "lib/publish.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/strbuf.h"

int publish_write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0)
				errno = EIO;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Six letters or digits that no other process is likely to pick at the
 * same moment (mkostemp's shape, but at a directory descriptor). */
static void temporary_suffix(char out[7])
{
	static const char alphabet[] =
	        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	static uint64_t serial;
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t x = ((uint64_t)getpid() << 40) ^ (uint64_t)ts.tv_nsec ^ ((uint64_t)ts.tv_sec << 20) ^
	             (++serial * 0x9e3779b97f4a7c15ULL);
	for (int i = 0; i < 6; i++) {
		x ^= x >> 33;
		x *= 0xff51afd7ed558ccdULL;
		out[i] = alphabet[x % (sizeof alphabet - 1)];
	}
	out[6] = '\0';
}

/* Makes and opens a new temporary file "<name>.tmp-XXXXXX" beside name;
 * its name goes to tmp. The fd, or -1 with errno set. */
static int open_temporary(int dirfd, const char *name, struct strbuf *tmp)
{
	for (int tries = 0; tries < 100; tries++) {
		char suffix[7];
		temporary_suffix(suffix);
		strbuf_reset(tmp);
		strbuf_addf(tmp, "%s.tmp-%s", name, suffix);
		int fd = openat(dirfd, tmp->ptr, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}

/* Fills the open temporary file and gives it its mode; flushes it when
 * asked. Closes fd either way. */
static int fill_temporary(int fd, mode_t mode, unsigned flags, publish_fill fill, void *arg)
{
	errno = 0;
	int rc = fill(fd, arg) == 0 && fchmod(fd, mode) == 0 ? 0 : -1;
	if (rc == 0 && (flags & PUBLISH_SYNC) && fsync(fd) != 0)
		rc = -1;
	int saved = errno ? errno : EIO;
	if (close(fd) != 0 && rc == 0) {
		rc = -1;
		saved = errno;
	}
	errno = saved;
	return rc;
}

int publish_file_at(int dirfd, const char *name, mode_t mode, unsigned flags, publish_fill fill,
                    void *arg)
{
	struct strbuf tmp = STRBUF_INIT;
	int fd = open_temporary(dirfd, name, &tmp);
	int rc = fd < 0 ? -1 : fill_temporary(fd, mode, flags, fill, arg);
	if (rc == 0)
		rc = flags & PUBLISH_CREATE ? linkat(dirfd, tmp.ptr, dirfd, name, 0)
		                            : renameat(dirfd, tmp.ptr, dirfd, name);
	/* The temporary name goes whatever happened: after a link both
	 * names are the one file, after a failure it is garbage. */
	int saved = errno;
	if (fd >= 0 && (rc != 0 || (flags & PUBLISH_CREATE)))
		unlinkat(dirfd, tmp.ptr, 0);
	strbuf_release(&tmp);
	errno = saved;
	return rc;
}

int publish_file(const char *path, mode_t mode, unsigned flags, publish_fill fill, void *arg)
{
	return publish_file_at(AT_FDCWD, path, mode, flags, fill, arg);
}

struct bytes {
	const void *data;
	size_t len;
};

static int fill_bytes(int fd, void *arg)
{
	const struct bytes *b = arg;
	return publish_write_all(fd, b->data, b->len);
}

int publish_bytes_at(int dirfd, const char *name, const void *data, size_t len, mode_t mode,
                     unsigned flags)
{
	struct bytes b = {data, len};
	return publish_file_at(dirfd, name, mode, flags, fill_bytes, &b);
}

int publish_bytes(const char *path, const void *data, size_t len, mode_t mode, unsigned flags)
{
	return publish_bytes_at(AT_FDCWD, path, data, len, mode, flags);
}
