/*
 * segment: the files that hold a snapshot's rendered entries (snapshot.h).
 *
 * A segment is written once, by one build, appended to until it is full
 * or the build ends, flushed, and from then on only read: every worker
 * maps it read-only. A snapshot is a head (its records and tables,
 * rewritten by every build) and the segments its head names; the next
 * build's head names the same segments for the entries that did not
 * change, so an edit writes only what it rendered anew. Offsets into a
 * segment are 32-bit: a segment file stops at SEGMENT_MAX bytes and the
 * build goes on in a new one.
 *
 * The same bytes can live in memory instead (a build for one process:
 * the CLI, a worker whose cache directory cannot be used): then there is
 * one segment, embedded in the snapshot's own block of bytes.
 *
 * Layout: a header of SEGMENT_HEADER bytes (magic, version, the size the
 * file has when written whole), then the blobs the snapshot places there.
 */
#ifndef CMS_API_SEGMENT_H
#define CMS_API_SEGMENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/strbuf.h"

#define SEGMENT_HEADER 32
#define SEGMENT_MAX (256u << 20)
#define SEGMENT_ERR_LEN 256

/* A segment being written. */
struct segment_out {
	char *name;        /* owned: the file's name in the directory; NULL in memory */
	int fd;            /* the file, -1 in memory or once finished */
	struct strbuf buf; /* owned: in memory, the whole segment; else bytes not yet written */
	uint64_t size;     /* bytes so far, header included */
};

/* Where a build puts its segments: files in dir named prefix + a number
 * no other segment there has (made from the time), or (dir NULL) one
 * segment in memory. */
struct segment_writer {
	const char *dir;    /* borrowed */
	const char *prefix; /* borrowed */
	struct segment_out *outs; /* owned, in the order made */
	size_t nouts;
	uint64_t last_stamp;
	bool failed;        /* a write failed: the build cannot be published */
	char err[SEGMENT_ERR_LEN];
};

void segment_writer_init(struct segment_writer *w, const char *dir, const char *prefix);

/* Appends len bytes (a blob) and says where they went: the writer's
 * segment number (0 for the first it made) and the offset in it. A full
 * segment file is finished and a new one begun. On a failed write the
 * writer is marked failed (err says why) and later appends do nothing. */
void segment_append(struct segment_writer *w, const void *data, size_t len, uint32_t *segment,
                    uint32_t *offset);

/* Writes what is pending and flushes every file to disk. Returns 0, or -1
 * with err set (and the writer failed). */
int segment_writer_finish(struct segment_writer *w);

/* Removes the files a failed or abandoned build made, and frees w. */
void segment_writer_discard(struct segment_writer *w);

/* Frees w, keeping its files (they belong to the head that names them). */
void segment_writer_free(struct segment_writer *w);

/* A segment open for reading: mapped from its file, or a part of other
 * bytes. */
struct segment_in {
	const char *base;
	size_t len;
	bool mapped; /* base is a mapping of its own (unmapped on close) */
};

/* Maps the segment file dir/name, which must hold size bytes and a
 * segment's header. Returns 0, or -1 with err filled. */
int segment_map(const char *dir, const char *name, uint64_t size, struct segment_in *in,
                char err[SEGMENT_ERR_LEN]);

/* Checks that bytes[0..len) are a segment's: 0, or -1 with err filled. */
int segment_check(const char *bytes, size_t len, char err[SEGMENT_ERR_LEN]);

void segment_unmap(struct segment_in *in);

/* The header of an empty segment, appended to out (an embedded segment
 * starts with it too). */
void segment_header(uint64_t size, struct strbuf *out);

#endif
