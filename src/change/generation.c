/* generation: the generation file; see generation.h. */
#include "autoconfig.h"

#include "change/generation.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/hash.h"
#include "lib/publish.h"
#include "lib/strbuf.h"

#define MAGIC "cms-api-generation 5"
/* Room for the magic, six 20-digit numbers and the check, padded so
 * that every write has the same size (within one block: a write in place
 * needs none). */
#define RECORD_SIZE 192

static uint64_t check_of(const struct generation *g)
{
	char text[128];
	snprintf(text, sizeof text,
	         "%" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64, g->index,
	         g->cache, g->signature, g->cache_signature, g->flags, g->config_print);
	return hash_fnv1a(text);
}

int generation_read(const char *path, struct generation *g)
{
	memset(g, 0, sizeof *g);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	char text[RECORD_SIZE + 1];
	ssize_t n = pread(fd, text, RECORD_SIZE, 0);
	close(fd);
	if (n <= 0)
		return -1;
	text[n] = '\0';
	struct generation read;
	uint64_t check;
	if (sscanf(text, MAGIC " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64 " %" SCNu64
	           " %" SCNu64 " %" SCNu64,
	           &read.index, &read.cache, &read.signature, &read.cache_signature, &read.flags,
	           &read.config_print, &check) != 7 ||
	    check != check_of(&read))
		return -1;
	*g = read;
	return 0;
}

static void format_record(const struct generation *g, struct strbuf *out)
{
	strbuf_addf(out, MAGIC " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64 " %" PRIu64
	            " %" PRIu64 " %" PRIu64,
	            g->index, g->cache, g->signature, g->cache_signature, g->flags, g->config_print,
	            check_of(g));
	while (out->len < RECORD_SIZE - 1)
		strbuf_addch(out, ' ');
	strbuf_addch(out, '\n');
}

/* Overwrites the existing file's record: no new block is needed. */
static int write_in_place(const char *path, const struct strbuf *record)
{
	int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	ssize_t n = pwrite(fd, record->ptr, record->len, 0);
	int saved = errno;
	int rc = n == (ssize_t)record->len ? 0 : -1;
	if (close(fd) != 0 && rc == 0)
		return -1;
	errno = saved;
	return rc;
}

int generation_write(const char *path, const struct generation *g)
{
	struct strbuf record = STRBUF_INIT;
	format_record(g, &record);
	int rc = publish_bytes(path, record.ptr, record.len, 0644, PUBLISH_SYNC);
	if (rc != 0) {
		int saved = errno;
		rc = write_in_place(path, &record);
		if (rc != 0)
			errno = saved;
	}
	strbuf_release(&record);
	return rc;
}

int generation_create(const char *path, const struct generation *g)
{
	struct strbuf record = STRBUF_INIT;
	format_record(g, &record);
	int rc = publish_bytes(path, record.ptr, record.len, 0644, PUBLISH_CREATE | PUBLISH_SYNC);
	strbuf_release(&record);
	return rc;
}

void generation_fresh(struct generation *g, uint64_t signature)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	uint64_t now_us = (uint64_t)ts.tv_sec * 1000000u + (uint64_t)ts.tv_nsec / 1000u;
	g->index = now_us;
	g->cache = now_us;
	g->signature = signature;
	g->cache_signature = signature;
	g->flags = 0;
	g->config_print = 0;
}

void generation_next(struct generation *g, bool cache, uint64_t signature)
{
	g->index++;
	if (cache) {
		g->cache++;
		g->cache_signature = signature;
	}
	g->signature = signature;
	g->flags = 0;
}

bool generation_same(const struct generation *a, const struct generation *b)
{
	return a->index == b->index && a->cache == b->cache;
}
