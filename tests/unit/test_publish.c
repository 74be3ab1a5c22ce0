/* Unit tests: lib/publish, the one way a file is put in place. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

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

void suite_publish(void)
{
	CU_pSuite s = unit_add_suite("publish");
	unit_add_test(s, "renamed over, mode whatever the umask", test_replace_and_mode);
	unit_add_test(s, "create: the first file wins, EEXIST", test_create_keeps_the_first);
	unit_add_test(s, "a failed write changes nothing", test_failed_fill_changes_nothing);
	unit_add_test(s, "at a directory; a missing one is ENOENT", test_at_and_missing_directory);
}
