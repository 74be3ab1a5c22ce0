/*
 * log: the worker's diagnostics, to syslog (the default: spawn-fcgi sends
 * a worker's stderr to /dev/null), to stderr, or appended to a file.
 * Messages below the configured level cost one comparison.
 */
#ifndef CMS_API_LOG_H
#define CMS_API_LOG_H

#include "config.h"

/* Opens the target ("syslog", "stderr" or a file path). Returns 0, or -1
 * after falling back to stderr. Safe to call again (reopens). */
int log_open(const char *target, enum log_level level);
void log_close(void);
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

#endif
