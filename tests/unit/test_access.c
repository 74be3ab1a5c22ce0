/* Unit tests: the access log (its line, a file, syslog over a socket that
 * never blocks) and the progress counter of check and warm. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "core/access.h"
#include "core/log.h"
#include "lib/progress.h"
#include "lib/strbuf.h"
#include "unit.h"

static char *formatted(const struct access_entry *e)
{
	struct strbuf b = STRBUF_INIT;
	access_format(e, &b);
	return strbuf_detach(&b, NULL);
}

static void test_format(void)
{
	struct access_entry e = {"GET", "/api/collections/blog/entries?limit=2&sort=-date", 200,
	                         1834, 412, ACCESS_CACHE_MISS};
	char *line = formatted(&e);
	CU_ASSERT_STRING_EQUAL(line, "GET /api/collections/blog/entries?limit=2&sort=-date 200 1834 "
	                             "412 miss");
	free(line);
	e = (struct access_entry){"HEAD", "/api/ping", 200, 0, 7, ACCESS_CACHE_HIT};
	line = formatted(&e);
	CU_ASSERT_STRING_EQUAL(line, "HEAD /api/ping 200 0 7 hit");
	free(line);
	/* Nothing a client sends can break the line or add a field. */
	e = (struct access_entry){"G T", "/api/x?a b\"c\\d\n\x7f\xc3\xa9%41", 404, 24, -3,
	                          ACCESS_CACHE_NONE};
	line = formatted(&e);
	CU_ASSERT_STRING_EQUAL(line, "G%20T /api/x?a%20b%22c%5Cd%0A%7F%C3%A9%41 404 24 0 -");
	free(line);
	e = (struct access_entry){"", NULL, 500, 26, 1, ACCESS_CACHE_NONE};
	line = formatted(&e);
	CU_ASSERT_STRING_EQUAL(line, "- - 500 26 1 -");
	free(line);
}

static void test_file(void)
{
	char *dir = unit_tempdir();
	char path[400];
	snprintf(path, sizeof path, "%s/access.log", dir);
	CU_ASSERT_FALSE(access_enabled());
	CU_ASSERT_EQUAL(access_open(path), 0);
	CU_ASSERT_TRUE(access_enabled());
	struct access_entry e = {"GET", "/api/ping", 200, 15, 9, ACCESS_CACHE_HIT};
	access_write(&e);
	access_reopen(); /* logrotate: the same file, appended to */
	e.cache = ACCESS_CACHE_MISS;
	access_write(&e);
	access_close();
	CU_ASSERT_FALSE(access_enabled());
	char *text = unit_read_file(path, "");
	char want[200];
	snprintf(want, sizeof want, "Z cms-api[%ld]: access: GET /api/ping 200 15 9 hit\n",
	         (long)getpid());
	/* "2026-01-31T12:00:00Z cms-api[PID]: access: ..." */
	CU_ASSERT_EQUAL(text[4], '-');
	CU_ASSERT_EQUAL(text[10], 'T');
	CU_ASSERT_EQUAL(strncmp(text + 19, want, strlen(want)), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "access: GET /api/ping 200 15 9 miss\n"));
	CU_ASSERT_EQUAL(strlen(text), 2 * (19 + strlen(want)) + 1);
	free(text);

	/* Off: nothing written, nothing opened. */
	CU_ASSERT_EQUAL(access_open(""), 0);
	CU_ASSERT_FALSE(access_enabled());
	access_write(&e);
	access_close();
	/* A file that cannot be opened: off, said in the log. */
	snprintf(path, sizeof path, "%s/no/such/dir/access.log", dir);
	char logpath[400];
	snprintf(logpath, sizeof logpath, "%s/log", dir);
	log_open(logpath, LOG_LEVEL_WARNING);
	CU_ASSERT_EQUAL(access_open(path), -1);
	CU_ASSERT_FALSE(access_enabled());
	log_open("stderr", LOG_LEVEL_WARNING);
	text = unit_read_file(logpath, "");
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "cannot open the access log"));
	free(text);
	access_close();
	unit_rmtree(dir);
	free(dir);
}

/* A datagram socket standing in for /dev/log. */
static int fake_syslog(const char *path)
{
	int fd = socket(AF_UNIX, SOCK_DGRAM, 0);
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	size_t n = strlen(path);
	if (n >= sizeof addr.sun_path) {
		close(fd);
		return -1;
	}
	memcpy(addr.sun_path, path, n + 1);
	if (bind(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
		close(fd);
		return -1;
	}
	return fd;
}

/* Datagrams waiting on fd; the last one's text in last. */
static int drain(int fd, char *last, size_t len)
{
	int n = 0;
	ssize_t got;
	char buf[2048];
	while ((got = recv(fd, buf, sizeof buf - 1, MSG_DONTWAIT)) >= 0) {
		buf[got] = '\0';
		snprintf(last, len, "%s", buf);
		n++;
	}
	return n;
}

static void test_syslog(void)
{
	char *dir = unit_tempdir();
	char sock[300], logpath[300], last[2048] = "";
	snprintf(sock, sizeof sock, "%s/log.sock", dir);
	snprintf(logpath, sizeof logpath, "%s/log", dir);
	int rx = fake_syslog(sock);
	CU_ASSERT_FATAL(rx >= 0);
	access_set_syslog_path(sock);
	CU_ASSERT_EQUAL(access_open("syslog"), 0);
	struct access_entry e = {"GET", "/api/ping?x=1", 200, 15, 33, ACCESS_CACHE_MISS};
	access_write(&e);
	CU_ASSERT_EQUAL(drain(rx, last, sizeof last), 1);
	char want[200];
	snprintf(want, sizeof want, " cms-api[%ld]: access: GET /api/ping?x=1 200 15 33 miss",
	         (long)getpid());
	/* "<30>Jan 31 12:00:00 cms-api[PID]: ...": daemon.info, RFC 3164. */
	CU_ASSERT_EQUAL(strncmp(last, "<30>", 4), 0);
	CU_ASSERT_EQUAL(strlen(last), 4 + 15 + strlen(want));
	CU_ASSERT_STRING_EQUAL(last + 4 + 15, want);

	/* A syslog that does not read: writes return at once, the lines it
	 * had no room for are counted, none is lost without being counted. */
	log_open(logpath, LOG_LEVEL_WARNING);
	const int total = 5000;
	for (int i = 0; i < total; i++)
		access_write(&e);
	unsigned long dropped = access_dropped();
	CU_ASSERT(dropped > 0);
	CU_ASSERT_EQUAL((unsigned long)drain(rx, last, sizeof last) + dropped, (unsigned long)total);
	/* Room again: the next line goes, and the drops are said. */
	access_write(&e);
	CU_ASSERT_EQUAL(drain(rx, last, sizeof last), 1);
	CU_ASSERT_EQUAL(access_dropped(), dropped);
	log_open("stderr", LOG_LEVEL_WARNING);
	char *text = unit_read_file(logpath, "");
	char said[200];
	snprintf(said, sizeof said, "access log: %lu line(s) dropped so far: syslog did not take "
	         "them in time", dropped);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, said));
	free(text);

	/* The daemon gone: dropped and counted, never an error to the caller. */
	close(rx);
	unlink(sock);
	access_write(&e);
	CU_ASSERT_EQUAL(access_dropped(), dropped + 1);
	access_close();
	access_set_syslog_path("/dev/log");
	unit_rmtree(dir);
	free(dir);
}

static void test_progress(void)
{
	char *dir = unit_tempdir();
	char path[300];
	snprintf(path, sizeof path, "%s/out", dir);
	FILE *f = fopen(path, "w");
	progress_begin(f, "reading /srv/site", true);
	for (int i = 0; i < 3; i++)
		progress_tick();
	progress_suspend();
	progress_tick();
	CU_ASSERT_EQUAL(progress_end(), 4);
	progress_tick(); /* counting stopped: nothing drawn */
	fclose(f);
	char *text = unit_read_file(path, "");
	CU_ASSERT_EQUAL(strncmp(text, "\rreading /srv/site: 0 files", 27), 0);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "\r\033[K\rreading /srv/site: 4 files"));
	size_t n = strlen(text);
	CU_ASSERT(n > 28 && strcmp(text + n - 28, "\rreading /srv/site: 4 files\n") == 0);
	free(text);

	/* Not a terminal, not forced: counted, never shown. */
	f = fopen(path, "w");
	progress_begin(f, "reading", false);
	progress_tick();
	CU_ASSERT_EQUAL(progress_end(), 1);
	fclose(f);
	text = unit_read_file(path, "");
	CU_ASSERT_STRING_EQUAL(text, "");
	free(text);
	unit_rmtree(dir);
	free(dir);
}

void suite_access(void)
{
	CU_pSuite s = unit_add_suite("access");
	unit_add_test(s, "the line", test_format);
	unit_add_test(s, "to a file", test_file);
	unit_add_test(s, "to syslog, never blocking", test_syslog);
	unit_add_test(s, "progress on a terminal", test_progress);
}
