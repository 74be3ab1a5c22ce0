/*
 * log: diagnostics to syslog, stderr or a file; see log.h. Each message
 * carries the source file and line, because a worker's log is often the
 * only trace of what went wrong in production.
 */
#include "autoconfig.h"

#include "core/log.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include "lib/progress.h"

enum log_level log_threshold = LOG_LEVEL_WARNING;

static enum { TO_STDERR, TO_SYSLOG, TO_FILE } destination = TO_STDERR;
static FILE *log_file;
static char *opened_target; /* what log_open was given, for log_reopen */
/* How many times log_reset ran: a throttle last used under another count
 * starts afresh. The throttles of log_every_minute are static at their
 * call sites, where nothing else could reach them. */
static unsigned throttle_epoch;

static const char *level_name(enum log_level level)
{
	static const char *names[] = {"error", "warning", "info", "debug"};
	return names[level];
}

static int syslog_priority(enum log_level level)
{
	static const int prio[] = {LOG_ERR, LOG_WARNING, LOG_INFO, LOG_DEBUG};
	return prio[level];
}

static void close_destination(void)
{
	if (log_file)
		fclose(log_file);
	log_file = NULL;
	if (destination == TO_SYSLOG)
		closelog();
	destination = TO_STDERR;
}

void log_close(void)
{
	close_destination();
	free(opened_target);
	opened_target = NULL;
}

void log_reset(void)
{
	log_close();
	log_threshold = LOG_LEVEL_WARNING;
	throttle_epoch++;
}

static void open_syslog(void)
{
	openlog("cms-api", LOG_PID | LOG_NDELAY, LOG_DAEMON);
	destination = TO_SYSLOG;
}

/* Opens target; the remembered target is left alone. */
static int open_destination(const char *target)
{
	close_destination();
	if (!target || strcmp(target, "stderr") == 0)
		return 0;
	if (strcmp(target, "syslog") == 0) {
		open_syslog();
		return 0;
	}
	log_file = fopen(target, "ae");
	if (!log_file) {
		/* stderr is /dev/null under most spawners: syslog is the one
		 * place an operator is sure to find the reason. */
		int saved = errno;
		open_syslog();
		log_msg(LOG_LEVEL_ERROR, __FILE__, __LINE__,
		        "cannot open the log file %s (%s); logging to syslog instead", target,
		        strerror(saved));
		return -1;
	}
	setvbuf(log_file, NULL, _IOLBF, 0);
	destination = TO_FILE;
	return 0;
}

int log_open(const char *target, enum log_level level)
{
	char *copy = target ? strdup(target) : NULL;
	free(opened_target);
	opened_target = copy;
	log_threshold = level;
	return open_destination(opened_target);
}

int log_reopen(void)
{
	return open_destination(opened_target);
}

int log_file_fd(void)
{
	return destination == TO_FILE && log_file ? fileno(log_file) : -1;
}

void log_msg(enum log_level level, const char *file, int line, const char *fmt, ...)
{
	char text[1024];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);

	if (destination == TO_SYSLOG) {
		syslog(syslog_priority(level), "%s: %s (%s:%d)", level_name(level), text, file, line);
		return;
	}
	FILE *out = destination == TO_FILE ? log_file : stderr;
	if (out == stderr)
		progress_suspend(); /* a counter on the terminal: off the line first */
	char stamp[32] = "";
	if (destination == TO_FILE) {
		time_t now = time(NULL);
		struct tm tm;
		gmtime_r(&now, &tm);
		strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ ", &tm);
	}
	fprintf(out, "%scms-api[%ld]: %s: %s (%s:%d)\n", stamp, (long)getpid(), level_name(level),
	        text, file, line);
}

static long long monotonic_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec;
}

void log_throttled(struct log_throttle *t, enum log_level level, const char *file, int line,
                   const char *fmt, ...)
{
	if (t->epoch != throttle_epoch)
		*t = (struct log_throttle){.epoch = throttle_epoch};
	long long now = monotonic_seconds();
	if (now < t->next) {
		t->suppressed++;
		return;
	}
	char text[900];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(text, sizeof text, fmt, ap);
	va_end(ap);
	if (t->suppressed)
		log_msg(level, file, line, "%s (and %lu more times in the last minute)", text,
		        t->suppressed);
	else
		log_msg(level, file, line, "%s", text);
	t->suppressed = 0;
	t->next = now + 60;
}
