/* mapfile: shared files allocated before they are mapped; see mapfile.h. */
#include "autoconfig.h"

#include "lib/mapfile.h"

#include <errno.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

int mapfile_allocate(int fd, size_t size)
{
	int err = posix_fallocate(fd, 0, (off_t)size);
	if (err != 0) {
		errno = err;
		return -1;
	}
	return 0;
}

/* 0 when fd is a regular file, else -1 with errno set. */
static int check_regular(int fd)
{
	struct stat st;
	if (fstat(fd, &st) != 0)
		return -1;
	if (!S_ISREG(st.st_mode)) {
		errno = EINVAL;
		return -1;
	}
	return 0;
}

void *mapfile_open(const char *path, size_t size, bool create)
{
	int fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW | (create ? O_CREAT : 0), 0600);
	if (fd < 0)
		return NULL;
	void *map = MAP_FAILED;
	/* Several processes may make it at once: allocating keeps whatever
	 * another wrote there. */
	if (check_regular(fd) == 0 && mapfile_allocate(fd, size) == 0)
		map = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	int saved = errno;
	close(fd);
	errno = saved;
	return map == MAP_FAILED ? NULL : map;
}
