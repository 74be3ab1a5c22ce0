/* Unit tests: lib/publish, the one way a file is put in place, and
 * lib/mapfile, shared files allocated before they are mapped. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/mapfile.h"
#include "lib/publish.h"
#include "lib/strbuf.h"
#include "unit.h"

/* The names in dir, but . and .. (a temporary file left behind shows). */
static int count_files(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;
	struct dirent *e;
	while (d && (e = readdir(d)) != NULL)
		n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
	if (d)
		closedir(d);
	return n;
}

static char *path_in(const char *dir, const char *name)
{
	struct strbuf p = STRBUF_INIT;
	strbuf_addf(&p, "%s/%s", dir, name);
	return strbuf_detach(&p, NULL);
}

static void test_replace_and_mode(void)
{
	char *dir = unit_tempdir();
	char *file = path_in(dir, "f");
	mode_t old = umask(077);
	CU_ASSERT_EQUAL(publish_bytes(file, "one", 3, 0644, PUBLISH_REPLACE), 0);
	CU_ASSERT_EQUAL(publish_bytes(file, "second", 6, 0644, PUBLISH_SYNC), 0);
	umask(old);
	char *text = unit_read_file(file, NULL);
	CU_ASSERT_STRING_EQUAL(text, "second");
	struct stat st;
	CU_ASSERT_EQUAL(stat(file, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0644); /* whatever the umask */
	CU_ASSERT_EQUAL(count_files(dir), 1);
	free(text);
	free(file);
	unit_rmtree(dir);
	free(dir);
}

static void test_create_keeps_the_first(void)
{
	char *dir = unit_tempdir();
	char *file = path_in(dir, "f");
	CU_ASSERT_EQUAL(publish_bytes(file, "first", 5, 0600, PUBLISH_CREATE), 0);
	errno = 0;
	CU_ASSERT_EQUAL(publish_bytes(file, "later", 5, 0600, PUBLISH_CREATE), -1);
	CU_ASSERT_EQUAL(errno, EEXIST);
	char *text = unit_read_file(file, NULL);
	CU_ASSERT_STRING_EQUAL(text, "first");
	CU_ASSERT_EQUAL(count_files(dir), 1); /* no temporary file left */
	free(text);
	free(file);
	unit_rmtree(dir);
	free(dir);
}

static int fail_with_enospc(int fd, void *arg)
{
	(void)arg;
	if (write(fd, "part", 4) != 4)
		return -1;
	errno = ENOSPC;
	return -1;
}

/* A writer that fails leaves the old file as it was, no temporary file,
 * and its errno for the caller. */
static void test_failed_fill_changes_nothing(void)
{
	char *dir = unit_tempdir();
	char *file = path_in(dir, "f");
	CU_ASSERT_EQUAL(publish_bytes(file, "kept", 4, 0644, PUBLISH_REPLACE), 0);
	errno = 0;
	CU_ASSERT_EQUAL(publish_file(file, 0644, PUBLISH_REPLACE, fail_with_enospc, NULL), -1);
	CU_ASSERT_EQUAL(errno, ENOSPC);
	char *text = unit_read_file(file, NULL);
	CU_ASSERT_STRING_EQUAL(text, "kept");
	CU_ASSERT_EQUAL(count_files(dir), 1);
	free(text);
	free(file);
	unit_rmtree(dir);
	free(dir);
}

/* At a directory descriptor, and into a directory that is not there. */
static void test_at_and_missing_directory(void)
{
	char *dir = unit_tempdir();
	int at = open(dir, O_RDONLY | O_DIRECTORY);
	CU_ASSERT_EQUAL(publish_bytes_at(at, "x@q.json", "{}", 2, 0644, PUBLISH_REPLACE), 0);
	char *file = path_in(dir, "x@q.json");
	char *text = unit_read_file(file, NULL);
	CU_ASSERT_STRING_EQUAL(text, "{}");
	errno = 0;
	CU_ASSERT_EQUAL(publish_bytes_at(at, "gone/f", "x", 1, 0644, PUBLISH_REPLACE), -1);
	CU_ASSERT_EQUAL(errno, ENOENT);
	CU_ASSERT_EQUAL(count_files(dir), 1);
	close(at);
	free(text);
	free(file);
	unit_rmtree(dir);
	free(dir);
}

/* A file made with a hole (ftruncate), or missing, is allocated in full
 * before it is mapped; what it held stays. */
static void test_mapfile_allocated(void)
{
	char *dir = unit_tempdir();
	struct strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "%s/counters", dir);
	int fd = open(path.ptr, O_RDWR | O_CREAT, 0600);
	CU_ASSERT_FATAL(fd >= 0);
	CU_ASSERT_EQUAL(pwrite(fd, "kept", 4, 0), 4);
	CU_ASSERT_EQUAL(ftruncate(fd, 65536), 0);
	struct stat st;
	CU_ASSERT_EQUAL(fstat(fd, &st), 0);
	CU_ASSERT_TRUE((long long)st.st_blocks * 512 < 65536); /* a hole */
	char *map = mapfile_open(path.ptr, 65536, false);
	CU_ASSERT_PTR_NOT_NULL_FATAL(map);
	CU_ASSERT_EQUAL(fstat(fd, &st), 0);
	CU_ASSERT_TRUE((long long)st.st_blocks * 512 >= 65536);
	CU_ASSERT_EQUAL(memcmp(map, "kept", 4), 0);
	map[65535] = 'x';
	munmap(map, 65536);
	close(fd);
	/* Missing: made when asked, else ENOENT. */
	strbuf_addstr(&path, "-new");
	errno = 0;
	CU_ASSERT_PTR_NULL(mapfile_open(path.ptr, 64, false));
	CU_ASSERT_EQUAL(errno, ENOENT);
	map = mapfile_open(path.ptr, 64, true);
	CU_ASSERT_PTR_NOT_NULL_FATAL(map);
	CU_ASSERT_EQUAL(stat(path.ptr, &st), 0);
	CU_ASSERT_EQUAL(st.st_size, 64);
	CU_ASSERT_TRUE(st.st_blocks > 0);
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0600);
	munmap(map, 64);
	/* A directory is not a file to map. */
	errno = 0;
	CU_ASSERT_PTR_NULL(mapfile_open(dir, 64, false));
	CU_ASSERT_NOT_EQUAL(errno, 0);
	strbuf_release(&path);
	unit_rmtree(dir);
	free(dir);
}

void suite_publish(void)
{
	CU_pSuite s = unit_add_suite("publish");
	unit_add_test(s, "renamed over, mode whatever the umask", test_replace_and_mode);
	unit_add_test(s, "create: the first file wins, EEXIST", test_create_keeps_the_first);
	unit_add_test(s, "a failed write changes nothing", test_failed_fill_changes_nothing);
	unit_add_test(s, "at a directory; a missing one is ENOENT", test_at_and_missing_directory);
	unit_add_test(s, "mapfile: allocated in full before it is mapped", test_mapfile_allocated);
}
