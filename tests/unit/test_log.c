/* Unit tests: log (the file target, its fallback, throttled messages,
 * log_reset) and the config's log settings read from a file that fails to
 * load. Each test that opens the log ends with log_reset, so that the
 * next finds it as a process starts with it. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/config.h"
#include "core/log.h"
#include "unit.h"

static char *read_text(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return strdup("");
	char *text = calloc(1, 8192);
	size_t n = fread(text, 1, 8191, f);
	text[n] = '\0';
	fclose(f);
	return text;
}

static int count_lines(const char *text, const char *needle)
{
	int n = 0;
	for (const char *p = text; (p = strstr(p, needle)) != NULL; p += strlen(needle))
		n++;
	return n;
}

/* A message repeated request after request is logged once, then once a
 * minute with the number of times it came meanwhile. */
static void test_throttled_messages(void)
{
	char *dir = unit_tempdir();
	char path[512];
	snprintf(path, sizeof path, "%s/log", dir);
	CU_ASSERT_EQUAL(log_open(path, LOG_LEVEL_WARNING), 0);
	struct log_throttle t = {0};
	for (int i = 0; i < 100; i++)
		log_throttled(&t, LOG_LEVEL_WARNING, "f.c", 1, "disk full (%d)", i);
	CU_ASSERT_EQUAL(t.suppressed, 99);
	t.next = 0; /* a minute has gone by */
	log_throttled(&t, LOG_LEVEL_WARNING, "f.c", 1, "disk full (%d)", 100);
	log_reset();
	char *text = read_text(path);
	CU_ASSERT_EQUAL(count_lines(text, "disk full"), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "warning: disk full (0) (f.c:1)"));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "disk full (100) (and 99 more times in the last minute)"));
	free(text);
	unit_rmtree(dir);
	free(dir);
}

/* A log file that cannot be opened: syslog instead (with a line there
 * saying why), never nowhere. */
static void test_unwritable_log_file(void)
{
	CU_ASSERT_EQUAL(log_open("/nonexistent/folder/cms-api.log", LOG_LEVEL_WARNING), -1);
	CU_ASSERT_EQUAL(log_file_fd(), -1);
	/* Reopening (SIGHUP) tries the file again. */
	CU_ASSERT_EQUAL(log_reopen(), -1);
	log_reset();
}

/* log_reopen after the file was moved away (logrotate) writes to a new
 * file at the same path. */
static void test_reopen_after_rotation(void)
{
	char *dir = unit_tempdir();
	char path[512], rotated[512];
	snprintf(path, sizeof path, "%s/log", dir);
	snprintf(rotated, sizeof rotated, "%s/log.1", dir);
	log_open(path, LOG_LEVEL_WARNING);
	log_warning("before");
	CU_ASSERT_EQUAL(rename(path, rotated), 0);
	CU_ASSERT_EQUAL(log_reopen(), 0);
	log_warning("after");
	log_reset();
	char *old = read_text(rotated), *now = read_text(path);
	CU_ASSERT_PTR_NOT_NULL(strstr(old, "before"));
	CU_ASSERT_PTR_NULL(strstr(old, "after"));
	CU_ASSERT_PTR_NOT_NULL(strstr(now, "after"));
	free(old);
	free(now);
	unit_rmtree(dir);
	free(dir);
}

/* One call site of log_every_minute: its throttle is static there. */
static void say_full(int i)
{
	log_every_minute(LOG_LEVEL_WARNING, "call site full (%d)", i);
}

/* log_reset: stderr at the warning level, no target left for log_reopen,
 * every throttle fresh, those of the call sites too. */
static void test_reset(void)
{
	char *dir = unit_tempdir();
	char path[512];
	snprintf(path, sizeof path, "%s/log", dir);
	CU_ASSERT_EQUAL(log_open(path, LOG_LEVEL_INFO), 0);
	CU_ASSERT_NOT_EQUAL(log_file_fd(), -1);
	struct log_throttle t = {0};
	log_throttled(&t, LOG_LEVEL_WARNING, "f.c", 1, "own throttle (%d)", 1);
	say_full(1);
	say_full(2); /* within the minute: counted, not logged */
	log_reset();
	CU_ASSERT_EQUAL(log_threshold, LOG_LEVEL_WARNING);
	CU_ASSERT_EQUAL(log_file_fd(), -1);
	/* Nothing to open again: stderr, not the file. */
	CU_ASSERT_EQUAL(log_reopen(), 0);
	CU_ASSERT_EQUAL(log_file_fd(), -1);
	CU_ASSERT_EQUAL(log_open(path, LOG_LEVEL_WARNING), 0);
	/* Logged at once, with no count of what came before the reset. */
	say_full(3);
	log_throttled(&t, LOG_LEVEL_WARNING, "f.c", 1, "own throttle (%d)", 2);
	log_reset();
	char *text = read_text(path);
	CU_ASSERT_EQUAL(count_lines(text, "call site full"), 2);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "call site full (1) ("));
	CU_ASSERT_PTR_NOT_NULL(strstr(text, "call site full (3) ("));
	CU_ASSERT_EQUAL(count_lines(text, "own throttle"), 2);
	CU_ASSERT_PTR_NULL(strstr(text, "more times"));
	free(text);
	unit_rmtree(dir);
	free(dir);
}

/* The log settings of a file that does not load (here: an unknown key and
 * a content root that is not there) are still found. */
static void test_log_settings_of_a_broken_config(void)
{
	char *dir = unit_tempdir();
	unit_write_file(dir, "a.ini", "[content]\nroot = /nowhere\n[bogus]\nx = 1\n[log]\n"
	                              "target = logs/w.log\nlevel = info\n");
	unit_write_file(dir, "b.ini", "[api]\nenabled = true\n");
	char path[512];
	snprintf(path, sizeof path, "%s/a.ini", dir);
	char *target;
	enum log_level level;
	config_log_settings(path, &target, &level);
	char want[600];
	snprintf(want, sizeof want, "%s/logs/w.log", dir);
	CU_ASSERT_STRING_EQUAL(target, want);
	CU_ASSERT_EQUAL(level, LOG_LEVEL_INFO);
	free(target);
	snprintf(path, sizeof path, "%s/b.ini", dir);
	config_log_settings(path, &target, &level);
	CU_ASSERT_STRING_EQUAL(target, "syslog");
	CU_ASSERT_EQUAL(level, LOG_LEVEL_WARNING);
	free(target);
	unit_rmtree(dir);
	free(dir);
}

void suite_log(void)
{
	CU_pSuite s = unit_add_suite("log");
	unit_add_test(s, "throttled messages", test_throttled_messages);
	unit_add_test(s, "an unwritable log file", test_unwritable_log_file);
	unit_add_test(s, "reopen after rotation", test_reopen_after_rotation);
	unit_add_test(s, "log_reset", test_reset);
	unit_add_test(s, "log settings of a broken config", test_log_settings_of_a_broken_config);
}
