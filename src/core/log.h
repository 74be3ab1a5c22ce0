/*
 * log: the diagnostics of every cms-api process (workers and the watcher),
 * to syslog (the default: spawn-fcgi sends a worker's stderr to
 * /dev/null), to stderr, or appended to a file. A file that cannot be
 * opened falls back to syslog, with one line there saying why. Messages
 * below the configured level cost one comparison.
 */
#ifndef CMS_API_LOG_H
#define CMS_API_LOG_H

#include "core/config.h"

/* Opens the target ("syslog", "stderr" or a file path). Returns 0, or -1
 * after falling back to syslog (a file that cannot be opened). Safe to
 * call again (reopens). */
int log_open(const char *target, enum log_level level);
/* Opens the same target again: after logrotate moved the file away
 * (SIGHUP), or in a forked process that closed its descriptors. */
int log_reopen(void);
void log_close(void);
/* Puts the log back as a process starts with it: to stderr, at the
 * warning level, no target for log_reopen, and every throttle (below)
 * fresh, so that the next message of each is logged at once. For the
 * unit tests, which share one process: a test that opened a file, set
 * a level or set off a throttle leaves nothing to the next. */
void log_reset(void);
/* The descriptor of the log file, or -1 (syslog, stderr). */
int log_file_fd(void);
void log_msg(enum log_level level, const char *file, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

extern enum log_level log_threshold;

#define LOG_AT(level, ...)                                                       \
	do {                                                                     \
		if ((level) <= log_threshold)                                    \
			log_msg((level), __FILE__, __LINE__, __VA_ARGS__);       \
	} while (0)
#define log_error(...) LOG_AT(LOG_LEVEL_ERROR, __VA_ARGS__)
#define log_warning(...) LOG_AT(LOG_LEVEL_WARNING, __VA_ARGS__)
#define log_info(...) LOG_AT(LOG_LEVEL_INFO, __VA_ARGS__)
#define log_debug(...) LOG_AT(LOG_LEVEL_DEBUG, __VA_ARGS__)

/*
 * A message that may repeat at a high rate (a write failing on a full
 * disk, request after request): logged at once, then at most once a
 * minute, saying how many times it came meanwhile. One throttle per call
 * site, through log_every_minute().
 */
struct log_throttle {
	long long next;           /* monotonic seconds before which it is counted, not logged */
	unsigned long suppressed; /* times counted since it was last logged */
	unsigned epoch;           /* log_reset's count when last used: older is fresh */
};

void log_throttled(struct log_throttle *t, enum log_level level, const char *file, int line,
                   const char *fmt, ...) __attribute__((format(printf, 5, 6)));

#define log_every_minute(level, ...)                                             \
	do {                                                                     \
		static struct log_throttle throttle_;                            \
		if ((level) <= log_threshold)                                    \
			log_throttled(&throttle_, (level), __FILE__, __LINE__,   \
			              __VA_ARGS__);                              \
	} while (0)

#endif
