/* ratelimit_table: the shared counters of the rate limit; see ratelimit_table.h. */
#include "autoconfig.h"

#include "guard/ratelimit_table.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/mapfile.h"
#include "lib/publish.h"
#include "lib/siphash.h"
#include "lib/strbuf.h"

_Static_assert(ATOMIC_LLONG_LOCK_FREE == 2 && ATOMIC_INT_LOCK_FREE == 2,
               "the table is shared between processes: its atomics must not take a lock");

#define TABLE_MAGIC "cms-api-rate 1\n"

/* The file: this header, then the buckets. */
struct table_header {
	char magic[16];
	uint64_t nbuckets;
	uint8_t seed[SIPHASH_KEY_LEN]; /* the key of rate_table_key */
	_Atomic uint32_t flag;
	uint8_t reserved[20];
};
_Static_assert(sizeof(struct table_header) == 64, "the header is 64 bytes");

struct bucket {
	_Atomic uint64_t key;   /* 0: empty; set once, changed only by a takeover */
	_Atomic uint64_t state; /* window start << COUNT_BITS | count, or TAKING_OVER */
};

#define COUNT_BITS 30
#define COUNT_MASK ((1ULL << COUNT_BITS) - 1)
#define TAKING_OVER UINT64_MAX
_Static_assert(RATE_MAX_LIMIT <= (long)COUNT_MASK, "a count holds the largest limit");

struct rate_table {
	struct table_header *header;
	struct bucket *buckets;
	size_t nbuckets;
	size_t map_len;
	int fd;          /* -1: a private table */
	dev_t dev;
	ino_t ino;
};

/* --- the state word --- */

static long long window_start(uint64_t state)
{
	return (long long)(state >> COUNT_BITS);
}

static long state_count(uint64_t state)
{
	return (long)(state & COUNT_MASK);
}

static uint64_t make_state(long long start, long count)
{
	/* Seconds before 1970 or past 2514 do not fit: clamp, a window
	 * then only lasts its 60 seconds from the clamped start. */
	uint64_t s = start < 0 ? 0 : (uint64_t)start;
	if (s > (TAKING_OVER >> COUNT_BITS) - 1)
		s = (TAKING_OVER >> COUNT_BITS) - 1;
	return s << COUNT_BITS | (uint64_t)count;
}

/* A window is over once its 60 seconds have passed. A clock a little
 * behind (another process read it a moment earlier) is still inside;
 * one that jumped far back starts afresh rather than wait. */
static bool window_over(uint64_t state, long long now)
{
	long long start = window_start(state);
	return state_count(state) == 0 || now >= start + RATE_WINDOW_SECONDS ||
	       now < start - RATE_WINDOW_SECONDS;
}

/* --- counting in a bucket --- */

enum count_outcome { COUNTED, MOVED, LOCKED, ABSENT };

/* Counts a hit of key in bucket b: MOVED when b no longer holds key,
 * LOCKED while b is being taken over. */
static enum count_outcome count_in(struct bucket *b, uint64_t key, long limit, long long now,
                                   struct rate_result *r)
{
	for (;;) {
		uint64_t s = atomic_load(&b->state);
		if (s == TAKING_OVER)
			return LOCKED;
		if (atomic_load(&b->key) != key)
			return MOVED;
		uint64_t next;
		if (window_over(s, now)) {
			next = make_state(now, 1);
		} else if (state_count(s) < limit) {
			next = s + 1;
		} else {
			/* Refused, nothing written: s was this key's state if it
			 * is still there (a takeover changes it first). */
			if (atomic_load(&b->state) != s)
				continue;
			r->allowed = false;
			r->count = state_count(s);
			r->window_end = window_start(s) + RATE_WINDOW_SECONDS;
			return COUNTED;
		}
		if (atomic_compare_exchange_weak(&b->state, &s, next)) {
			r->allowed = true;
			r->count = state_count(next);
			r->window_end = window_start(next) + RATE_WINDOW_SECONDS;
			return COUNTED;
		}
	}
}

static size_t home_of(const struct rate_table *t, uint64_t key)
{
	return (size_t)(key % t->nbuckets);
}

static size_t probe_length(const struct rate_table *t)
{
	return t->nbuckets < RATE_PROBE ? t->nbuckets : RATE_PROBE;
}

/* Without the lock: counts in key's bucket when it has one (ABSENT when
 * it has none). */
static enum count_outcome count_existing(struct rate_table *t, uint64_t key, long limit,
                                         long long now, struct rate_result *r)
{
	size_t home = home_of(t, key), n = probe_length(t);
	for (size_t i = 0; i < n; i++) {
		struct bucket *b = &t->buckets[(home + i) % t->nbuckets];
		uint64_t k = atomic_load(&b->key);
		if (k == 0)
			return ABSENT;
		if (k == key)
			return count_in(b, key, limit, now, r);
	}
	return ABSENT;
}

static void lock_table(const struct rate_table *t)
{
	if (t->fd < 0)
		return;
	while (flock(t->fd, LOCK_EX) != 0 && errno == EINTR)
		;
}

static void unlock_table(const struct rate_table *t)
{
	if (t->fd >= 0)
		flock(t->fd, LOCK_UN);
}

/* Under the lock, with b locked by us or by a process that died taking it
 * over: b becomes key's, its window starting with this hit. */
static void claim_bucket(struct bucket *b, uint64_t key, long long now, struct rate_result *r)
{
	atomic_store(&b->key, key);
	atomic_store(&b->state, make_state(now, 1));
	r->allowed = true;
	r->count = 1;
	r->window_end = now + RATE_WINDOW_SECONDS;
}

/* Under the lock: finds key's bucket or gives it one, and counts.
 * Returns false when there is no room. The whole path is looked at before
 * a bucket is given: key may lie past one that could be taken. */
static bool count_locked(struct rate_table *t, uint64_t key, long limit, long long now,
                         struct rate_result *r)
{
	size_t home = home_of(t, key), n = probe_length(t);
	for (;;) {
		struct bucket *free_bucket = NULL, *abandoned = NULL, *oldest = NULL;
		uint64_t oldest_state = 0;
		for (size_t i = 0; i < n && !free_bucket; i++) {
			struct bucket *b = &t->buckets[(home + i) % t->nbuckets];
			uint64_t k = atomic_load(&b->key);
			uint64_t s = atomic_load(&b->state);
			if (k == key) {
				/* Locked with the table's lock held: abandoned. */
				if (count_in(b, key, limit, now, r) != COUNTED)
					claim_bucket(b, key, now, r);
				return true;
			}
			if (k == 0)
				free_bucket = b;
			else if (s == TAKING_OVER)
				abandoned = b;
			else if (window_over(s, now) &&
			         (!oldest || window_start(s) < window_start(oldest_state))) {
				oldest = b;
				oldest_state = s;
			}
		}
		if (abandoned) {
			claim_bucket(abandoned, key, now, r);
			return true;
		}
		if (free_bucket) {
			atomic_store(&free_bucket->key, key);
			/* Its state is 0, a window that is over: count starts one. */
			return count_in(free_bucket, key, limit, now, r) == COUNTED;
		}
		if (!oldest)
			return false;
		/* Fails when the owner counted a hit meanwhile: look again. */
		if (!atomic_compare_exchange_strong(&oldest->state, &oldest_state, TAKING_OVER))
			continue;
		claim_bucket(oldest, key, now, r);
		return true;
	}
}

bool rate_table_hit(struct rate_table *t, uint64_t key, long limit, long long now,
                    struct rate_result *r)
{
	memset(r, 0, sizeof *r);
	if (limit > RATE_MAX_LIMIT)
		limit = RATE_MAX_LIMIT;
	/* A takeover moving the bucket away between two looks is rare: a
	 * few tries, then the locked path, which always settles it. */
	for (int tries = 0; tries < 3; tries++) {
		enum count_outcome o = count_existing(t, key, limit, now, r);
		if (o == COUNTED)
			return true;
		if (o != MOVED)
			break;
	}
	lock_table(t);
	bool counted = count_locked(t, key, limit, now, r);
	unlock_table(t);
	return counted;
}

void rate_table_look(struct rate_table *t, uint64_t key, long limit, long long now,
                     struct rate_result *r)
{
	r->allowed = true;
	r->count = 0;
	r->window_end = now + RATE_WINDOW_SECONDS;
	size_t home = home_of(t, key), n = probe_length(t);
	for (size_t i = 0; i < n; i++) {
		struct bucket *b = &t->buckets[(home + i) % t->nbuckets];
		uint64_t k = atomic_load(&b->key);
		if (k == 0)
			return;
		if (k != key)
			continue;
		/* A bucket being taken over is leaving this key: a fresh start. */
		uint64_t s = atomic_load(&b->state);
		if (s != TAKING_OVER && !window_over(s, now)) {
			r->count = state_count(s);
			r->allowed = r->count < (limit > RATE_MAX_LIMIT ? RATE_MAX_LIMIT : limit);
			r->window_end = window_start(s) + RATE_WINDOW_SECONDS;
		}
		return;
	}
}

uint64_t rate_table_key(const struct rate_table *t, const char *text)
{
	uint64_t k = siphash24(t->header->seed, text, strlen(text));
	return k ? k : 1; /* 0 marks an empty bucket */
}

bool rate_table_flag_set(struct rate_table *t, bool on)
{
	uint32_t from = on ? 0 : 1;
	return atomic_compare_exchange_strong(&t->header->flag, &from, on ? 1 : 0);
}

/* --- files and memory --- */

static size_t table_bytes(size_t nbuckets)
{
	return sizeof(struct table_header) + nbuckets * sizeof(struct bucket);
}

static int random_seed(uint8_t seed[SIPHASH_KEY_LEN])
{
	ssize_t n;
	while ((n = getrandom(seed, SIPHASH_KEY_LEN, 0)) < 0 && errno == EINTR)
		;
	return n == SIPHASH_KEY_LEN ? 0 : -1;
}

static void init_header(struct table_header *h, size_t nbuckets, const uint8_t *seed)
{
	memset(h, 0, sizeof *h);
	memcpy(h->magic, TABLE_MAGIC, sizeof TABLE_MAGIC);
	h->nbuckets = nbuckets;
	memcpy(h->seed, seed, SIPHASH_KEY_LEN);
}

/* A new table's contents: its header, every bucket allocated now (a page
 * first written on a full disk would be a SIGBUS in the middle of a
 * request). */
static int fill_table(int fd, void *arg)
{
	size_t nbuckets = *(const size_t *)arg;
	uint8_t seed[SIPHASH_KEY_LEN];
	if (random_seed(seed) != 0)
		return -1;
	struct table_header h;
	init_header(&h, nbuckets, seed);
	if (mapfile_allocate(fd, table_bytes(nbuckets)) != 0)
		return -1;
	return pwrite(fd, &h, sizeof h, 0) == (ssize_t)sizeof h ? 0 : -1;
}

/* Writes a whole new table file and puts it in place: beside an existing
 * one (the first made wins) or over it. */
static int make_table_file(const char *path, size_t nbuckets, bool replace)
{
	int rc = publish_file(path, 0600, replace ? PUBLISH_REPLACE : PUBLISH_CREATE, fill_table,
	                      &nbuckets);
	return rc != 0 && !replace && errno == EEXIST ? 0 : rc;
}

/* Maps the file at path when it is a table of nbuckets. 0, -1 with errno
 * set (ENOENT: missing; EPROTO: not such a table). */
static int map_table_file(struct rate_table *t, const char *path, size_t nbuckets)
{
	int fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return -1;
	struct stat st;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) ||
	    (size_t)st.st_size != table_bytes(nbuckets)) {
		close(fd);
		errno = EPROTO;
		return -1;
	}
	/* Made whole by fill_table; one that is not (a file system that
	 * lost blocks, a copy made sparse) is allocated now or not mapped:
	 * a hole written through the mapping is a SIGBUS on a full disk. */
	void *map = mapfile_allocate(fd, table_bytes(nbuckets)) == 0
	                    ? mmap(NULL, table_bytes(nbuckets), PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0)
	                    : MAP_FAILED;
	if (map == MAP_FAILED) {
		int saved = errno;
		close(fd);
		errno = saved;
		return -1;
	}
	struct table_header *h = map;
	if (memcmp(h->magic, TABLE_MAGIC, sizeof TABLE_MAGIC) != 0 || h->nbuckets != nbuckets) {
		munmap(map, table_bytes(nbuckets));
		close(fd);
		errno = EPROTO;
		return -1;
	}
	t->header = h;
	t->buckets = (struct bucket *)(h + 1);
	t->nbuckets = nbuckets;
	t->map_len = table_bytes(nbuckets);
	t->fd = fd;
	t->dev = st.st_dev;
	t->ino = st.st_ino;
	return 0;
}

struct rate_table *rate_table_open(const char *path, size_t nbuckets)
{
	struct rate_table *t = xcalloc(1, sizeof *t);
	int rc = map_table_file(t, path, nbuckets);
	if (rc != 0 && (errno == ENOENT || errno == EPROTO)) {
		if (make_table_file(path, nbuckets, errno == EPROTO) == 0)
			rc = map_table_file(t, path, nbuckets);
	}
	if (rc != 0) {
		int saved = errno;
		free(t);
		errno = saved;
		return NULL;
	}
	return t;
}

struct rate_table *rate_table_private(size_t nbuckets)
{
	struct rate_table *t = xcalloc(1, sizeof *t);
	t->map_len = table_bytes(nbuckets);
	t->header = xcalloc(1, t->map_len);
	uint8_t seed[SIPHASH_KEY_LEN] = {0};
	if (random_seed(seed) != 0) {
		/* Without randomness the keys are only predictable, and only
		 * within this process. */
		uint64_t fallback = (uint64_t)getpid() * 0x9e3779b97f4a7c15ULL ^ (uint64_t)(uintptr_t)t;
		memcpy(seed, &fallback, sizeof fallback);
	}
	init_header(t->header, nbuckets, seed);
	t->buckets = (struct bucket *)(t->header + 1);
	t->nbuckets = nbuckets;
	t->fd = -1;
	return t;
}

void rate_table_close(struct rate_table *t)
{
	if (!t)
		return;
	if (t->fd >= 0) {
		munmap(t->header, t->map_len);
		close(t->fd);
	} else {
		free(t->header);
	}
	free(t);
}

bool rate_table_current(const struct rate_table *t, const char *path)
{
	if (t->fd < 0)
		return true;
	struct stat st;
	return stat(path, &st) == 0 && st.st_ino == t->ino && st.st_dev == t->dev;
}
