/* segment: a snapshot's files of rendered entries; see segment.h. */
#include "autoconfig.h"

#include "site/segment.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "lib/publish.h"

#define SEGMENT_MAGIC "CMSAPISG"
#define SEGMENT_VERSION 1
#define WRITE_CHUNK (1u << 20) /* bytes gathered before a write() */

_Static_assert(SEGMENT_MAX < UINT32_MAX, "segment offsets are 32-bit");

void segment_header(uint64_t size, struct strbuf *out)
{
	unsigned char h[SEGMENT_HEADER];
	memset(h, 0, sizeof h);
	memcpy(h, SEGMENT_MAGIC, 8);
	uint32_t version = SEGMENT_VERSION;
	memcpy(h + 8, &version, 4);
	memcpy(h + 16, &size, 8);
	strbuf_add(out, h, sizeof h);
}

void segment_writer_init(struct segment_writer *w, const char *dir, const char *prefix)
{
	memset(w, 0, sizeof *w);
	w->dir = dir;
	w->prefix = prefix;
}

static void fail(struct segment_writer *w, const char *what, const char *name)
{
	if (!w->failed)
		snprintf(w->err, sizeof w->err, "%s/%s: %s: %s", w->dir ? w->dir : "(memory)",
		         name ? name : "", what, strerror(errno ? errno : EIO));
	w->failed = true;
}

/* A number for a new file's name that no segment of this writer, nor of
 * an earlier build, had: the time in nanoseconds, moved on when a build
 * makes two in the same one. */
static uint64_t new_stamp(struct segment_writer *w)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t stamp = (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
	if (stamp <= w->last_stamp)
		stamp = w->last_stamp + 1;
	w->last_stamp = stamp;
	return stamp;
}

/* Begins a new segment: a file made anew (never an existing name), or the
 * one in memory. */
static struct segment_out *begin(struct segment_writer *w)
{
	w->outs = xrealloc(w->outs, (w->nouts + 1) * sizeof *w->outs);
	struct segment_out *o = &w->outs[w->nouts++];
	memset(o, 0, sizeof *o);
	o->fd = -1;
	o->buf = (struct strbuf)STRBUF_INIT;
	segment_header(0, &o->buf);
	o->size = SEGMENT_HEADER;
	if (!w->dir)
		return o;
	struct strbuf name = STRBUF_INIT;
	strbuf_addf(&name, "%s%" PRIu64 ".seg", w->prefix, new_stamp(w));
	o->name = strbuf_detach(&name, NULL);
	struct strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "%s/%s", w->dir, o->name);
	o->fd = open(path.ptr, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
	strbuf_release(&path);
	if (o->fd < 0)
		fail(w, "cannot make a segment", o->name);
	return o;
}

/* Writes the bytes gathered for a file segment. */
static void flush(struct segment_writer *w, struct segment_out *o)
{
	if (o->fd < 0 || o->buf.len == 0)
		return;
	if (!w->failed && publish_write_all(o->fd, o->buf.ptr, o->buf.len) != 0)
		fail(w, "cannot write", o->name);
	strbuf_reset(&o->buf);
}

/* Finishes a file segment: its size in the header, flushed to disk. */
static void finish(struct segment_writer *w, struct segment_out *o)
{
	if (o->fd < 0)
		return;
	flush(w, o);
	if (!w->failed && (pwrite(o->fd, &o->size, 8, 16) != 8 || fsync(o->fd) != 0))
		fail(w, "cannot write", o->name);
	if (close(o->fd) != 0 && !w->failed)
		fail(w, "cannot write", o->name);
	o->fd = -1;
}

void segment_append(struct segment_writer *w, const void *data, size_t len, uint32_t *segment,
                    uint32_t *offset)
{
	struct segment_out *o = w->nouts ? &w->outs[w->nouts - 1] : begin(w);
	/* A file stops before its offsets would overflow; in memory there is
	 * only one segment. */
	if (w->dir && o->size > SEGMENT_HEADER && o->size + len > SEGMENT_MAX) {
		finish(w, o);
		o = begin(w);
	}
	if (!w->dir && o->size + len > UINT32_MAX) {
		errno = EFBIG;
		fail(w, "the index is too large to be kept in memory", NULL);
	}
	*segment = (uint32_t)(w->nouts - 1);
	*offset = (uint32_t)o->size;
	if (w->failed)
		return;
	strbuf_add(&o->buf, data, len);
	o->size += len;
	if (w->dir && o->buf.len >= WRITE_CHUNK)
		flush(w, o);
}

int segment_writer_finish(struct segment_writer *w)
{
	for (size_t i = 0; i < w->nouts; i++)
		finish(w, &w->outs[i]);
	if (!w->dir && w->nouts) /* the whole size in the embedded header */
		memcpy(w->outs[0].buf.ptr + 16, &w->outs[0].size, 8);
	return w->failed ? -1 : 0;
}

static void free_outs(struct segment_writer *w, bool remove)
{
	for (size_t i = 0; i < w->nouts; i++) {
		struct segment_out *o = &w->outs[i];
		if (o->fd >= 0)
			close(o->fd);
		if (remove && o->name) {
			struct strbuf path = STRBUF_INIT;
			strbuf_addf(&path, "%s/%s", w->dir, o->name);
			unlink(path.ptr);
			strbuf_release(&path);
		}
		free(o->name);
		strbuf_release(&o->buf);
	}
	free(w->outs);
	w->outs = NULL;
	w->nouts = 0;
}

void segment_writer_discard(struct segment_writer *w)
{
	free_outs(w, true);
}

void segment_writer_free(struct segment_writer *w)
{
	free_outs(w, false);
}

/* --- reading --- */

int segment_check(const char *bytes, size_t len, char err[SEGMENT_ERR_LEN])
{
	uint32_t version;
	uint64_t size;
	if (len < SEGMENT_HEADER || memcmp(bytes, SEGMENT_MAGIC, 8) != 0) {
		snprintf(err, SEGMENT_ERR_LEN, "not a segment of a cms-api index snapshot");
		return -1;
	}
	memcpy(&version, bytes + 8, 4);
	memcpy(&size, bytes + 16, 8);
	if (version != SEGMENT_VERSION || size != len) {
		snprintf(err, SEGMENT_ERR_LEN, "segment of another version, truncated or damaged");
		return -1;
	}
	return 0;
}

int segment_map(const char *dir, const char *name, uint64_t size, struct segment_in *in,
                char err[SEGMENT_ERR_LEN])
{
	memset(in, 0, sizeof *in);
	struct strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "%s/%s", dir, name);
	int fd = open(path.ptr, O_RDONLY | O_CLOEXEC);
	struct stat st;
	int rc = -1;
	if (fd < 0 || fstat(fd, &st) != 0)
		snprintf(err, SEGMENT_ERR_LEN, "%s: %s", path.ptr, strerror(errno));
	else if ((uint64_t)st.st_size != size || size < SEGMENT_HEADER)
		snprintf(err, SEGMENT_ERR_LEN, "%s: %llu bytes, the snapshot names one of %llu",
		         path.ptr, (unsigned long long)st.st_size, (unsigned long long)size);
	else
		rc = 0;
	void *map = MAP_FAILED;
	if (rc == 0 && (map = mmap(NULL, size, PROT_READ, MAP_SHARED, fd, 0)) == MAP_FAILED) {
		snprintf(err, SEGMENT_ERR_LEN, "%s: mmap: %s", path.ptr, strerror(errno));
		rc = -1;
	}
	if (fd >= 0)
		close(fd);
	if (rc == 0 && segment_check(map, size, err) != 0) {
		munmap(map, size);
		rc = -1;
	}
	strbuf_release(&path);
	if (rc == 0)
		*in = (struct segment_in){map, size, true};
	return rc;
}

void segment_unmap(struct segment_in *in)
{
	if (in->mapped)
		munmap((void *)in->base, in->len);
	memset(in, 0, sizeof *in);
}
