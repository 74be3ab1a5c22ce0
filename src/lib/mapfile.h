/*
 * mapfile: a small file that several processes share by mapping it read
 * and write (counters, tables), allocated in full before it is mapped.
 *
 * A page of a shared mapping whose file has no block behind it (a file
 * grown by ftruncate, which makes a hole) is given one when it is first
 * written; on a full file system there is none to give, and the writer
 * is killed with SIGBUS, in the middle of whatever it was doing. So
 * every byte of the file is allocated first (posix_fallocate, which
 * keeps what the file holds and is a no-op where it is allocated): when
 * that fails the file is not mapped, and the caller does without it.
 */
#ifndef CMS_API_MAPFILE_H
#define CMS_API_MAPFILE_H

#include <stdbool.h>
#include <stddef.h>

/* Maps the first size bytes of path shared, readable and writable,
 * making the file (mode 0600) when create is true and it is missing, and
 * growing it to size, every byte allocated, when it is shorter or has
 * holes. Returns the mapping, or NULL with errno set (ENOSPC: the file
 * system is full). Unmap it with munmap(map, size). */
void *mapfile_open(const char *path, size_t size, bool create);

/* Allocates every byte of fd's first size bytes (growing the file when
 * it is shorter). 0, or -1 with errno set. */
int mapfile_allocate(int fd, size_t size);

#endif
