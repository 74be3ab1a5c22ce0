/* Unit tests: the file driver's files (cache/cache_file.h): entries
 * written and read, the shared byte budget of [cache] max_size, pruning,
 * counting, making room, and directories it may not write or that are
 * gone. Every moment is passed in or set on the files. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cache/cache_file.h"
#include "change/generation.h"
#include "change/shared.h"
#include "core/log.h"
#include "lib/strbuf.h"
#include "unit.h"

/* A cache directory of its own, and its paths. */
struct files {
	char *dir;
	struct config cfg;
	struct shared_paths paths;
	struct cache_budget budget;
};

static void files_open(struct files *f)
{
	memset(f, 0, sizeof *f);
	f->dir = unit_tempdir();
	f->cfg.cache_dir = f->dir;
	f->cfg.content_root = f->dir;
	CU_ASSERT_EQUAL_FATAL(shared_paths_init(&f->paths, &f->cfg), 0);
}

static void files_close(struct files *f)
{
	cache_budget_release(&f->budget);
	shared_paths_free(&f->paths);
	unit_rmtree(f->dir);
	free(f->dir);
}

/* The file of an entry, and a file of any name, in a generation's
 * directory; the caller frees them. */
static char *entry_file(const struct files *f, uint64_t generation, uint64_t hash)
{
	char *dir = shared_responses_dir(&f->paths, generation);
	struct strbuf b = STRBUF_INIT;
	strbuf_addf(&b, "%s/%016" PRIx64, dir, hash);
	free(dir);
	return strbuf_detach(&b, NULL);
}

static char *file_in(const struct files *f, uint64_t generation, const char *name)
{
	char *dir = shared_responses_dir(&f->paths, generation);
	struct strbuf b = STRBUF_INIT;
	strbuf_addf(&b, "%s/%s", dir, name);
	free(dir);
	return strbuf_detach(&b, NULL);
}

static bool exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

/* Writes text as the entry hash of generation within max bytes. */
static int put(struct files *f, uint64_t generation, uint64_t hash, const char *text, long long max)
{
	const struct strbuf entry = {(char *)text, strlen(text), 0};
	return cache_file_write(&f->paths, generation, hash, &entry, max, &f->budget);
}

/* An entry of n bytes, each c. */
static char *bytes_of(size_t n, char c)
{
	char *s = xmalloc(n + 1);
	memset(s, c, n);
	s[n] = '\0';
	return s;
}

/* The entry's text, or NULL when it cannot be read. */
static char *get(const struct files *f, uint64_t generation, uint64_t hash)
{
	struct strbuf out = STRBUF_INIT;
	if (cache_file_read(&f->paths, generation, hash, &out) != 0) {
		strbuf_release(&out);
		return NULL;
	}
	return strbuf_detach(&out, NULL);
}

static bool holds(const struct files *f, uint64_t generation, uint64_t hash)
{
	char *text = get(f, generation, hash);
	free(text);
	return text != NULL;
}

static void set_mtime(const char *path, long long when)
{
	struct timespec times[2] = {{(time_t)when, 0}, {(time_t)when, 0}};
	CU_ASSERT_EQUAL(utimensat(AT_FDCWD, path, times, AT_SYMLINK_NOFOLLOW), 0);
}

static void set_entry_mtime(const struct files *f, uint64_t generation, uint64_t hash,
                            long long when)
{
	char *path = entry_file(f, generation, hash);
	set_mtime(path, when);
	free(path);
}

/* What the entries and temporary files of a generation take. */
static long long on_disk(const struct files *f, uint64_t generation)
{
	long long entries, bytes;
	cache_file_count(&f->paths, generation, &entries, &bytes);
	return bytes;
}

/* --- in use, written, read ------------------------------------------------ */

static void test_in_use(void)
{
	struct config cfg;
	memset(&cfg, 0, sizeof cfg);
	cfg.cache_enabled = true;
	cfg.cache_driver = CACHE_FILE;
	cfg.cache_expiry = 60;
	CU_ASSERT_TRUE(cache_file_in_use(&cfg));
	cfg.cache_expiry = 0;
	CU_ASSERT_FALSE(cache_file_in_use(&cfg));
	cfg.cache_expiry = 60;
	cfg.cache_enabled = false;
	CU_ASSERT_FALSE(cache_file_in_use(&cfg));
	cfg.cache_enabled = true;
	static const enum cache_driver others[] = {CACHE_REDIS, CACHE_NONE, CACHE_PLUGIN};
	for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
		cfg.cache_driver = others[i];
		CU_ASSERT_FALSE(cache_file_in_use(&cfg));
	}
}

static void test_write_and_read(void)
{
	struct files f;
	files_open(&f);
	CU_ASSERT_PTR_NULL(get(&f, 1, 0xabc)); /* no directory yet */
	CU_ASSERT_EQUAL(put(&f, 1, 0xabc, "first", 0), 0);
	char *text = get(&f, 1, 0xabc);
	CU_ASSERT_STRING_EQUAL(text, "first");
	free(text);
	/* One file per entry, named by its hash. */
	char *path = entry_file(&f, 1, 0xabc);
	CU_ASSERT_TRUE(exists(path));
	free(path);
	CU_ASSERT_PTR_NULL(get(&f, 1, 0xabd));
	CU_ASSERT_PTR_NULL(get(&f, 2, 0xabc));
	/* Written again: replaced. */
	CU_ASSERT_EQUAL(put(&f, 1, 0xabc, "second, longer", 0), 0);
	text = get(&f, 1, 0xabc);
	CU_ASSERT_STRING_EQUAL(text, "second, longer");
	free(text);
	/* Read appends; bytes are bytes. */
	const struct strbuf binary = {"a\0b\n\xff", 5, 0};
	CU_ASSERT_EQUAL(cache_file_write(&f.paths, 1, UINT64_MAX, &binary, 0, &f.budget), 0);
	struct strbuf out = STRBUF_INIT;
	strbuf_addstr(&out, "x");
	CU_ASSERT_EQUAL(cache_file_read(&f.paths, 1, UINT64_MAX, &out), 0);
	CU_ASSERT_EQUAL(out.len, 6);
	CU_ASSERT_EQUAL(memcmp(out.ptr, "xa\0b\n\xff", 6), 0);
	strbuf_release(&out);
	/* No limit: no counter. */
	CU_ASSERT_PTR_NULL(f.budget.bytes);
	files_close(&f);
}

/* What is not a whole entry file is none: an empty file (a torn
 * write), a directory, a link. */
static void test_what_is_not_an_entry(void)
{
	struct files f;
	files_open(&f);
	CU_ASSERT_EQUAL(put(&f, 1, 1, "one", 0), 0);
	char *empty = entry_file(&f, 1, 2), *dir = entry_file(&f, 1, 3), *link = entry_file(&f, 1, 4);
	FILE *e = fopen(empty, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(e);
	fclose(e);
	CU_ASSERT_EQUAL(mkdir(dir, 0700), 0);
	CU_ASSERT_EQUAL(symlink("/dev/zero", link), 0);
	CU_ASSERT_PTR_NULL(get(&f, 1, 2));
	CU_ASSERT_PTR_NULL(get(&f, 1, 3));
	CU_ASSERT_PTR_NULL(get(&f, 1, 4));
	long long entries, bytes;
	cache_file_count(&f.paths, 1, &entries, &bytes);
	CU_ASSERT_EQUAL(entries, 1);
	CU_ASSERT_EQUAL(bytes, 3);
	free(empty);
	free(dir);
	free(link);
	files_close(&f);
}

/* --- the budget ------------------------------------------------------------ */

/* [cache] max_size holds after every write: an entry that does not fit
 * makes room first, the oldest going; the shared counter agrees with the
 * files, overwrites included. */
static void test_budget_holds(void)
{
	struct files f;
	files_open(&f);
	char *forty = bytes_of(40, 'e');
	for (uint64_t h = 1; h <= 6; h++) {
		CU_ASSERT_EQUAL(put(&f, 1, h, forty, 100), 0);
		set_entry_mtime(&f, 1, h, 1000 + (long long)h);
		CU_ASSERT(on_disk(&f, 1) <= 100);
		CU_ASSERT_PTR_NOT_NULL_FATAL(f.budget.bytes);
		CU_ASSERT_EQUAL((long long)*f.budget.bytes, on_disk(&f, 1));
	}
	/* The newest stay. */
	CU_ASSERT_TRUE(holds(&f, 1, 6));
	CU_ASSERT_TRUE(holds(&f, 1, 5));
	CU_ASSERT_FALSE(holds(&f, 1, 4));
	CU_ASSERT_FALSE(holds(&f, 1, 1));
	/* Written again, an entry is counted once (a limit with room to
	 * spare: nothing else goes). */
	CU_ASSERT_EQUAL(put(&f, 1, 6, forty, 1000), 0);
	CU_ASSERT_EQUAL(*f.budget.bytes, 80);
	CU_ASSERT_TRUE(holds(&f, 1, 5));
	char *shorter = bytes_of(10, 's');
	CU_ASSERT_EQUAL(put(&f, 1, 6, shorter, 1000), 0);
	CU_ASSERT_EQUAL(*f.budget.bytes, 50);
	CU_ASSERT_EQUAL(on_disk(&f, 1), 50);
	free(shorter);
	free(forty);
	files_close(&f);
}

/* An entry larger than the whole budget is not stored (EFBIG); one of
 * exactly its size is, and takes the room of every other. */
static void test_budget_too_big(void)
{
	struct files f;
	files_open(&f);
	CU_ASSERT_EQUAL(put(&f, 1, 1, "0123456789", 100), 0);
	char *big = bytes_of(101, 'b'), *whole = bytes_of(100, 'w');
	errno = 0;
	CU_ASSERT_EQUAL(put(&f, 1, 2, big, 100), -1);
	CU_ASSERT_EQUAL(errno, EFBIG);
	CU_ASSERT_FALSE(holds(&f, 1, 2));
	CU_ASSERT_EQUAL((long long)*f.budget.bytes, on_disk(&f, 1));
	/* Refused before any pruning: what was there stays. */
	CU_ASSERT_TRUE(holds(&f, 1, 1));
	CU_ASSERT_EQUAL(*f.budget.bytes, 10);
	CU_ASSERT_EQUAL(put(&f, 1, 3, whole, 100), 0);
	CU_ASSERT_TRUE(holds(&f, 1, 3));
	CU_ASSERT_FALSE(holds(&f, 1, 1));
	CU_ASSERT_EQUAL(*f.budget.bytes, 100);
	CU_ASSERT_EQUAL(on_disk(&f, 1), 100);
	free(big);
	free(whole);
	files_close(&f);
}

/* A lock of a generation's directory or counter file, held as another
 * process would (its own open file): the file's descriptor. */
static int hold(const struct files *f, uint64_t generation, const char *name, int how)
{
	char *path = name ? file_in(f, generation, name) : shared_responses_dir(&f->paths, generation);
	int fd = open(path, O_RDONLY | (name ? 0 : O_DIRECTORY));
	free(path);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(flock(fd, how), 0);
	return fd;
}

/* One writer makes room at a time (the counter file's lock); another
 * does not wait and stores nothing this time. */
static void test_budget_while_another_makes_room(void)
{
	struct files f;
	files_open(&f);
	char *forty = bytes_of(40, 'e');
	CU_ASSERT_EQUAL(put(&f, 1, 1, forty, 100), 0);
	CU_ASSERT_EQUAL(put(&f, 1, 2, forty, 100), 0);
	int fd = hold(&f, 1, ".bytes", LOCK_EX);
	errno = 0;
	CU_ASSERT_EQUAL(put(&f, 1, 3, forty, 100), -1);
	CU_ASSERT_EQUAL(errno, EFBIG);
	CU_ASSERT_TRUE(holds(&f, 1, 1));
	CU_ASSERT_TRUE(holds(&f, 1, 2));
	CU_ASSERT_FALSE(holds(&f, 1, 3));
	CU_ASSERT_EQUAL(*f.budget.bytes, 80);
	close(fd);
	/* Unlocked, room is made. */
	set_entry_mtime(&f, 1, 1, 1000);
	set_entry_mtime(&f, 1, 2, 2000);
	CU_ASSERT_EQUAL(put(&f, 1, 3, forty, 100), 0);
	CU_ASSERT_FALSE(holds(&f, 1, 1));
	CU_ASSERT_TRUE(holds(&f, 1, 2));
	free(forty);
	files_close(&f);
}

/* While the directory is held exclusively (a recount), writers store
 * nothing, room or not: a reservation made then would be lost. */
static void test_budget_while_recounted(void)
{
	struct files f;
	files_open(&f);
	CU_ASSERT_EQUAL(put(&f, 1, 1, "a first answer", 100), 0);
	int fd = hold(&f, 1, NULL, LOCK_EX);
	errno = 0;
	CU_ASSERT_EQUAL(put(&f, 1, 2, "another", 100), -1);
	CU_ASSERT_EQUAL(errno, EFBIG);
	CU_ASSERT_FALSE(holds(&f, 1, 2));
	close(fd);
	CU_ASSERT_EQUAL(put(&f, 1, 2, "another", 100), 0);
	CU_ASSERT_EQUAL((long long)*f.budget.bytes, on_disk(&f, 1));
	files_close(&f);
}

/*
 * A reservation in flight (another writer holding the directory shared,
 * its bytes counted, its file not written yet) outlives a writer that
 * makes room: the count is set to what the files take only when no writer
 * is in flight. Were it set then, the writer in flight would put its
 * bytes on top of a count that no longer holds them, past max_size (the
 * flaky "max_size = 1 (MiB) held" of t_faults).
 */
static void test_budget_keeps_reservations_in_flight(void)
{
	struct files f;
	files_open(&f);
	char *forty = bytes_of(40, 'e'), *fifty = bytes_of(50, 'f');
	CU_ASSERT_EQUAL(put(&f, 1, 1, forty, 100), 0);
	int fd = hold(&f, 1, NULL, LOCK_SH);
	__atomic_add_fetch(f.budget.bytes, 50, __ATOMIC_RELAXED);
	errno = 0;
	CU_ASSERT_EQUAL(put(&f, 1, 2, forty, 100), -1);
	CU_ASSERT_EQUAL(errno, EFBIG);
	CU_ASSERT_EQUAL(*f.budget.bytes, 90);
	/* The writer in flight writes its answer, and goes. */
	char *path = entry_file(&f, 1, 3);
	FILE *w = fopen(path, "w");
	CU_ASSERT_PTR_NOT_NULL_FATAL(w);
	fputs(fifty, w);
	fclose(w);
	free(path);
	close(fd);
	CU_ASSERT_TRUE(on_disk(&f, 1) <= 100);
	CU_ASSERT_EQUAL((long long)*f.budget.bytes, on_disk(&f, 1));
	free(forty);
	free(fifty);
	files_close(&f);
}

/* An answer replaced is counted off once, by the writer whose rename
 * took it: written again and again, the count is what the file takes. */
static void test_budget_replaced_counted_once(void)
{
	struct files f;
	files_open(&f);
	char *forty = bytes_of(40, 'e'), *ten = bytes_of(10, 't');
	for (int i = 0; i < 5; i++) {
		CU_ASSERT_EQUAL(put(&f, 1, 7, i % 2 ? ten : forty, 100), 0);
		CU_ASSERT_EQUAL((long long)*f.budget.bytes, on_disk(&f, 1));
	}
	CU_ASSERT_EQUAL(*f.budget.bytes, 40);
	free(forty);
	free(ten);
	files_close(&f);
}

/* A count the files do not bear out (a writer killed between reserving
 * and writing) is set right, so it never keeps answers out for good. */
static void test_budget_set_right(void)
{
	struct files f;
	files_open(&f);
	char *forty = bytes_of(40, 'e');
	CU_ASSERT_EQUAL(put(&f, 1, 1, forty, 100), 0);
	*f.budget.bytes = 100;
	CU_ASSERT_EQUAL(put(&f, 1, 2, forty, 100), 0);
	CU_ASSERT_TRUE(holds(&f, 1, 1));
	CU_ASSERT_TRUE(holds(&f, 1, 2));
	CU_ASSERT_EQUAL(*f.budget.bytes, 80);
	free(forty);
	files_close(&f);
}

/* Each generation counts in its own counter, shared by every writer. */
static void test_budget_per_generation(void)
{
	struct files f;
	files_open(&f);
	char *forty = bytes_of(40, 'e');
	CU_ASSERT_EQUAL(put(&f, 1, 1, forty, 100), 0);
	CU_ASSERT_EQUAL(put(&f, 1, 2, forty, 100), 0);
	CU_ASSERT_EQUAL(put(&f, 2, 1, forty, 100), 0);
	CU_ASSERT_EQUAL(f.budget.generation, 2);
	CU_ASSERT_EQUAL(*f.budget.bytes, 40);
	/* The counter is in the generation's directory, not an entry. */
	char *counter = file_in(&f, 1, ".bytes");
	CU_ASSERT_TRUE(exists(counter));
	free(counter);
	long long entries, bytes;
	cache_file_count(&f.paths, 1, &entries, &bytes);
	CU_ASSERT_EQUAL(entries, 2);
	CU_ASSERT_EQUAL(bytes, 80);
	/* Another writer (another budget) sees the same count. */
	struct cache_budget other = {0, NULL};
	const struct strbuf entry = {forty, 40, 0};
	CU_ASSERT_EQUAL(cache_file_write(&f.paths, 1, 3, &entry, 200, &other), 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(other.bytes);
	CU_ASSERT_EQUAL(*other.bytes, 120);
	cache_budget_release(&other);
	CU_ASSERT_PTR_NULL(other.bytes);
	cache_budget_release(&other); /* twice is harmless */
	CU_ASSERT_EQUAL(put(&f, 1, 4, forty, 200), 0);
	CU_ASSERT_EQUAL(f.budget.generation, 1);
	CU_ASSERT_EQUAL(*f.budget.bytes, 160);
	free(forty);
	files_close(&f);
}

/* --- prune ------------------------------------------------------------------ */

#define NOW 100000LL

/* Expired entries go, at their expiry; a temporary file goes once it is a
 * minute old (its writer died), never by the entries' expiry. */
static void test_prune_by_expiry(void)
{
	struct files f;
	files_open(&f);
	for (uint64_t h = 1; h <= 4; h++)
		CU_ASSERT_EQUAL(put(&f, 1, h, "0123456789", 1000), 0);
	CU_ASSERT_EQUAL(*f.budget.bytes, 40);
	set_entry_mtime(&f, 1, 1, NOW - 61);
	set_entry_mtime(&f, 1, 2, NOW - 60); /* at its expiry */
	set_entry_mtime(&f, 1, 3, NOW - 59);
	set_entry_mtime(&f, 1, 4, NOW);
	char *dead = file_in(&f, 1, "0000000000000009.tmp-dead00");
	char *dying = file_in(&f, 1, "000000000000000a.tmp-slow00");
	char *live = file_in(&f, 1, "000000000000000b.tmp-live00");
	char *dir = shared_responses_dir(&f.paths, 1);
	CU_ASSERT_EQUAL(unit_write_file(dir, "0000000000000009.tmp-dead00", "xx"), 0);
	CU_ASSERT_EQUAL(unit_write_file(dir, "000000000000000a.tmp-slow00", "xx"), 0);
	CU_ASSERT_EQUAL(unit_write_file(dir, "000000000000000b.tmp-live00", "xx"), 0);
	set_mtime(dead, NOW - 61);
	set_mtime(dying, NOW - 60);
	set_mtime(live, NOW - 1);
	CU_ASSERT_EQUAL(cache_file_prune(&f.paths, 1, 0, 60, NOW), 3);
	CU_ASSERT_FALSE(holds(&f, 1, 1));
	CU_ASSERT_FALSE(holds(&f, 1, 2));
	CU_ASSERT_TRUE(holds(&f, 1, 3));
	CU_ASSERT_TRUE(holds(&f, 1, 4));
	CU_ASSERT_FALSE(exists(dead));
	CU_ASSERT_TRUE(exists(dying));
	CU_ASSERT_TRUE(exists(live));
	/* The entries' bytes come off the shared counter. */
	CU_ASSERT_EQUAL(*f.budget.bytes, 20);
	/* An expiry of 0: every entry has expired, no temporary file has. */
	CU_ASSERT_EQUAL(cache_file_prune(&f.paths, 1, 0, 0, NOW), 2);
	CU_ASSERT_TRUE(exists(live));
	CU_ASSERT_EQUAL(*f.budget.bytes, 0);
	/* The counter itself is no entry. */
	char *counter = file_in(&f, 1, ".bytes");
	CU_ASSERT_TRUE(exists(counter));
	free(counter);
	free(dead);
	free(dying);
	free(live);
	free(dir);
	files_close(&f);
}

/* Over max_bytes, the oldest go until the rest take 90 % of it. */
static void test_prune_by_size(void)
{
	struct files f;
	files_open(&f);
	char *hundred = bytes_of(100, 'h');
	for (uint64_t h = 1; h <= 10; h++) {
		CU_ASSERT_EQUAL(put(&f, 1, h, hundred, 0), 0);
		/* Written in another order than their age. */
		set_entry_mtime(&f, 1, h, NOW - 100 + (long long)((h * 7) % 10));
	}
	/* Exactly at the limit: nothing to do. */
	CU_ASSERT_EQUAL(cache_file_prune(&f.paths, 1, 1000, 3600, NOW), 0);
	CU_ASSERT_EQUAL(cache_file_prune(&f.paths, 1, 500, 3600, NOW), 6);
	CU_ASSERT_EQUAL(on_disk(&f, 1), 400);
	/* The four newest: ages 6 to 9, i.e. h * 7 % 10 >= 6. */
	for (uint64_t h = 1; h <= 10; h++)
		CU_ASSERT_EQUAL(holds(&f, 1, h), (h * 7) % 10 >= 6);
	/* A limit of 0 is none. */
	CU_ASSERT_EQUAL(cache_file_prune(&f.paths, 1, 0, 3600, NOW), 0);
	CU_ASSERT_EQUAL(on_disk(&f, 1), 400);
	free(hundred);
	files_close(&f);
}

/* What is not a file of the cache's own is never removed: a folder, a
 * link (nor what it points to), a dot file. */
static void test_prune_leaves_what_is_not_an_entry(void)
{
	struct files f;
	files_open(&f);
	CU_ASSERT_EQUAL(put(&f, 1, 1, "entry", 0), 0);
	char *outside = unit_tempdir();
	CU_ASSERT_EQUAL(unit_write_file(outside, "precious", "keep me"), 0);
	char target[PATH_MAX];
	snprintf(target, sizeof target, "%s/precious", outside);
	char *link = file_in(&f, 1, "0000000000000002");
	char *folder = file_in(&f, 1, "0000000000000003");
	char *dot = file_in(&f, 1, ".hidden");
	CU_ASSERT_EQUAL(symlink(target, link), 0);
	CU_ASSERT_EQUAL(mkdir(folder, 0700), 0);
	char *dir = shared_responses_dir(&f.paths, 1);
	CU_ASSERT_EQUAL(unit_write_file(dir, ".hidden", "x"), 0);
	free(dir);
	set_mtime(target, 0);
	set_mtime(link, 0);
	set_mtime(folder, 0);
	set_mtime(dot, 0);
	CU_ASSERT_EQUAL(cache_file_prune(&f.paths, 1, 1, 0, NOW), 1);
	CU_ASSERT_FALSE(holds(&f, 1, 1));
	CU_ASSERT_TRUE(exists(link));
	CU_ASSERT_TRUE(exists(target));
	CU_ASSERT_TRUE(exists(folder));
	CU_ASSERT_TRUE(exists(dot));
	free(link);
	free(folder);
	free(dot);
	unit_rmtree(outside);
	free(outside);
	files_close(&f);
}

/* --- counting and making room --------------------------------------------- */

/* A write in flight takes room but is no answer; nor is an empty file
 * or the counter. */
static void test_count(void)
{
	struct files f;
	files_open(&f);
	long long entries = -1, bytes = -1;
	cache_file_count(&f.paths, 1, &entries, &bytes);
	CU_ASSERT_EQUAL(entries, 0);
	CU_ASSERT_EQUAL(bytes, 0);
	CU_ASSERT_EQUAL(put(&f, 1, 1, "abc", 1000), 0);
	CU_ASSERT_EQUAL(put(&f, 1, 2, "defgh", 1000), 0);
	CU_ASSERT_EQUAL(put(&f, 2, 1, "other generation", 1000), 0);
	char *dir = shared_responses_dir(&f.paths, 1);
	CU_ASSERT_EQUAL(unit_write_file(dir, "0000000000000003.tmp-abcdef", "1234567"), 0);
	CU_ASSERT_EQUAL(unit_write_file(dir, "0000000000000004", ""), 0);
	cache_file_count(&f.paths, 1, &entries, &bytes);
	CU_ASSERT_EQUAL(entries, 2);
	CU_ASSERT_EQUAL(bytes, 15);
	free(dir);
	files_close(&f);
}

/* Making room after a full disk: the other generations' answers go (but
 * the one the generation file names), then the older half of this
 * one's. */
static void test_make_room(void)
{
	struct files f;
	files_open(&f);
	CU_ASSERT_EQUAL(cache_file_make_room(&f.paths, 3), 0); /* nothing there */
	struct generation g = {10, 10, 2, 2, 0, 0};
	CU_ASSERT_EQUAL_FATAL(generation_write(f.paths.generation, &g), 0);
	char *ten = bytes_of(10, 't');
	for (uint64_t h = 1; h <= 4; h++) {
		CU_ASSERT_EQUAL(put(&f, 1, h, ten, 0), 0);
		CU_ASSERT_EQUAL(put(&f, 2, h, ten, 0), 0);
		CU_ASSERT_EQUAL(put(&f, 3, h, ten, 0), 0);
		set_entry_mtime(&f, 3, h, NOW + (long long)h);
	}
	size_t removed = cache_file_make_room(&f.paths, 3);
	char *old = shared_responses_dir(&f.paths, 1), *current = shared_responses_dir(&f.paths, 2);
	CU_ASSERT_FALSE(exists(old));
	CU_ASSERT_TRUE(exists(current));
	CU_ASSERT_EQUAL(on_disk(&f, 2), 40);
	/* Down to 90 % of half of 40 bytes: the newest entry alone. */
	CU_ASSERT_EQUAL(on_disk(&f, 3), 10);
	CU_ASSERT_TRUE(holds(&f, 3, 4));
	CU_ASSERT_EQUAL(removed, 4 + 3); /* generation 1's four, three of generation 3's */
	free(old);
	free(current);
	free(ten);
	files_close(&f);
}

/* --- the driver's table ---------------------------------------------------- */

static void append_to(void *sink, const void *bytes, size_t len)
{
	strbuf_add(sink, bytes, len);
}

static void test_driver(void)
{
	struct files f;
	files_open(&f);
	const struct cms_api_cache_driver *d = &cache_file_driver;
	CU_ASSERT_EQUAL(d->abi_version, CMS_API_CACHE_DRIVER_ABI_VERSION);
	CU_ASSERT_STRING_EQUAL(d->name, "file");
	CU_ASSERT_PTR_NULL(d->init);       /* its configuration is cms-api's own */
	CU_ASSERT_PTR_NULL(d->invalidate); /* the watcher removes old generations */
	struct cache_file_state *s = cache_file_state_new(&f.paths, 100);
	struct cms_api_cache_request req = {"/api/ping", 0x1234, 5, "GET", "/api/ping", ""};
	struct cms_api_cache_response res = {"entry bytes", 11, 60, 200, "application/json", "{}", 2};
	struct strbuf got = STRBUF_INIT;
	CU_ASSERT_EQUAL(d->get(s, &req, append_to, &got), 0);
	CU_ASSERT_EQUAL(got.len, 0);
	CU_ASSERT_EQUAL(d->put(s, &req, &res), 0);
	CU_ASSERT_EQUAL(d->get(s, &req, append_to, &got), 1);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&got), "entry bytes");
	/* Stored under the generation and the hash: the key is the entry's
	 * to check. */
	CU_ASSERT_TRUE(holds(&f, 5, 0x1234));
	/* Over max_size: deliberately not stored, which is no failure. */
	char *big = bytes_of(101, 'b');
	struct cms_api_cache_request other = {"/api/big", 0x99, 5, "GET", "/api/big", ""};
	res.entry = big;
	res.entry_len = 101;
	CU_ASSERT_EQUAL(d->put(s, &other, &res), 0);
	strbuf_reset(&got);
	CU_ASSERT_EQUAL(d->get(s, &other, append_to, &got), 0);
	free(big);
	strbuf_release(&got);
	d->free(s);
	files_close(&f);
}

/* --- directories it may not write, or that are gone ------------------------ */

static struct files ro;

/* As a user permissions hold for, in a cache directory it may not write
 * where generation 1's directory exists, read-only, holding entry 1. */
static void check_read_only(const char *dir)
{
	(void)dir;
	int failed = 0;
	log_open("/dev/null", LOG_LEVEL_WARNING); /* the failed puts are told: expected */
	/* Generation 7 has no directory, and none can be made. */
	errno = 0;
	failed |= (put(&ro, 7, 1, "x", 0) != -1 || errno != EACCES) << 0;
	failed |= (put(&ro, 7, 1, "x", 100) != -1) << 1;
	failed |= holds(&ro, 7, 1) << 2;
	failed |= (cache_file_prune(&ro.paths, 7, 1, 0, NOW) != 0) << 3;
	/* Generation 1: read, never written nor pruned. */
	failed |= !holds(&ro, 1, 1) << 4;
	failed |= (put(&ro, 1, 2, "x", 0) != -1) << 5;
	failed |= (put(&ro, 1, 2, "x", 100) != -1) << 6;
	failed |= (cache_file_prune(&ro.paths, 1, 1, 0, NOW) != 0) << 7;
	failed |= !holds(&ro, 1, 1) << 8;
	long long entries, bytes;
	cache_file_count(&ro.paths, 1, &entries, &bytes);
	failed |= (entries != 1 || bytes != 5) << 9;
	/* The driver: a miss costs nothing, a put that cannot be written is
	 * a failure. */
	struct cache_file_state *s = cache_file_state_new(&ro.paths, 0);
	struct cms_api_cache_request req = {"k", 2, 1, "GET", "/k", ""};
	struct cms_api_cache_response res = {"entry", 5, 60, 200, "application/json", "{}", 2};
	struct strbuf got = STRBUF_INIT;
	failed |= (cache_file_driver.put(s, &req, &res) != -1) << 10;
	req.key_hash = 1;
	failed |= (cache_file_driver.get(s, &req, append_to, &got) != 1) << 11;
	cache_file_driver.free(s);
	_exit(failed);
}

static void test_read_only_directory(void)
{
	files_open(&ro);
	CU_ASSERT_EQUAL(put(&ro, 1, 1, "entry", 0), 0);
	char *gen1 = shared_responses_dir(&ro.paths, 1);
	CU_ASSERT_EQUAL(chmod(gen1, 0555), 0);
	int rc = unit_run_unprivileged(ro.dir, check_read_only);
	CU_ASSERT_EQUAL(rc, 0);
	if (rc != 0)
		fprintf(stderr, "\nread-only checks failed: %#x\n", (unsigned)rc);
	CU_ASSERT_EQUAL(chmod(gen1, 0700), 0);
	free(gen1);
	files_close(&ro);
}

/* The cache directory removed under a worker: nothing to read, count,
 * prune or make room in, and a write fails. */
static void test_missing_directory(void)
{
	struct files f;
	files_open(&f);
	CU_ASSERT_EQUAL(put(&f, 1, 1, "entry", 100), 0);
	cache_budget_release(&f.budget);
	unit_rmtree(f.dir);
	errno = 0;
	CU_ASSERT_EQUAL(put(&f, 1, 2, "entry", 0), -1);
	CU_ASSERT_EQUAL(errno, ENOENT);
	CU_ASSERT_EQUAL(put(&f, 1, 2, "entry", 100), -1);
	CU_ASSERT_PTR_NULL(get(&f, 1, 1));
	long long entries = -1, bytes = -1;
	cache_file_count(&f.paths, 1, &entries, &bytes);
	CU_ASSERT_EQUAL(entries, 0);
	CU_ASSERT_EQUAL(bytes, 0);
	CU_ASSERT_EQUAL(cache_file_prune(&f.paths, 1, 1, 0, NOW), 0);
	CU_ASSERT_EQUAL(cache_file_make_room(&f.paths, 1), 0);
	CU_ASSERT_FALSE(exists(f.dir));
	files_close(&f);
}

void suite_cache_file(void)
{
	CU_pSuite s = unit_add_suite("cache_file");
	unit_add_test(s, "in use", test_in_use);
	unit_add_test(s, "write and read", test_write_and_read);
	unit_add_test(s, "what is not an entry", test_what_is_not_an_entry);
	unit_add_test(s, "budget holds", test_budget_holds);
	unit_add_test(s, "budget: too big", test_budget_too_big);
	unit_add_test(s, "budget: while another makes room", test_budget_while_another_makes_room);
	unit_add_test(s, "budget: while recounted", test_budget_while_recounted);
	unit_add_test(s, "budget: keeps reservations in flight",
	              test_budget_keeps_reservations_in_flight);
	unit_add_test(s, "budget: a replaced answer counted once", test_budget_replaced_counted_once);
	unit_add_test(s, "budget: set right", test_budget_set_right);
	unit_add_test(s, "budget: per generation", test_budget_per_generation);
	unit_add_test(s, "prune by expiry", test_prune_by_expiry);
	unit_add_test(s, "prune by size", test_prune_by_size);
	unit_add_test(s, "prune leaves what is not an entry", test_prune_leaves_what_is_not_an_entry);
	unit_add_test(s, "count", test_count);
	unit_add_test(s, "make room", test_make_room);
	unit_add_test(s, "the driver's table", test_driver);
	unit_add_test(s, "a read-only directory", test_read_only_directory);
	unit_add_test(s, "a missing directory", test_missing_directory);
}
