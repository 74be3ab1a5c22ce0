/*
 * publish: the one way cms-api puts a file in place for other processes to
 * read (the generation file, index snapshots, cached answers, the static
 * fast path's answers, the rate limit's table): a temporary file beside
 * it, "<name>.tmp-XXXXXX" in the same directory, written whole, its mode
 * set whatever the umask, flushed to disk when asked, then renamed over
 * the name, or linked to it when an existing file must win. A reader sees
 * the old file or the new one, never a part of either.
 *
 * Flushing (PUBLISH_SYNC) is for a file whose torn copy after a crash
 * would be read as good: the index snapshot (its records are checked for
 * shape, not for every byte) and the generation file that names it. A
 * cached answer carries a checksum, the fast path's directories are made
 * anew after a reboot, and the rate limit's table only counts: an fsync
 * per answer would cost more than it protects.
 *
 * Every function returns 0, or -1 with errno saying why (EEXIST: with
 * PUBLISH_CREATE, the name was taken first), and never leaves its
 * temporary file behind. A temporary file is never a name a reader looks
 * for: its suffix is not one any file of cms-api ends with.
 */
#ifndef CMS_API_PUBLISH_H
#define CMS_API_PUBLISH_H

#include <stddef.h>
#include <sys/types.h>

enum publish_flags {
	PUBLISH_REPLACE = 0,      /* rename() over whatever file is there */
	PUBLISH_CREATE = 1 << 0,  /* link(): only when the name is free, else EEXIST */
	PUBLISH_SYNC = 1 << 1,    /* fsync() the file before it takes the name */
};

/* Writes the temporary file's contents to fd (open for reading and
 * writing, empty). 0, or -1 with errno set. */
typedef int (*publish_fill)(int fd, void *arg);

/* Publishes name (a path relative to the directory dirfd, or absolute;
 * AT_FDCWD: the working directory), its contents written by fill, with
 * mode (0644, 0600, ...) and flags (enum publish_flags). */
int publish_file_at(int dirfd, const char *name, mode_t mode, unsigned flags, publish_fill fill,
                    void *arg);

/* publish_file_at for the bytes data[0..len). */
int publish_bytes_at(int dirfd, const char *name, const void *data, size_t len, mode_t mode,
                     unsigned flags);

/* The same for a path (absolute, or relative to the working directory). */
int publish_bytes(const char *path, const void *data, size_t len, mode_t mode, unsigned flags);
int publish_file(const char *path, mode_t mode, unsigned flags, publish_fill fill, void *arg);

/* Writes all of data[0..len) to fd, as write() calls retried after EINTR
 * and a short write. 0, or -1 with errno set (EIO when the file took no
 * more bytes and said nothing). */
int publish_write_all(int fd, const void *data, size_t len);

#endif
