/*
 * access: the optional access log of a worker, one line per request,
 * written after the answer was sent ([log] access in cms-api.ini(5)):
 *
 *   METHOD URI STATUS BYTES MICROSECONDS CACHE
 *
 * e.g. "GET /api/collections/blog/entries?limit=2 200 1834 412 miss".
 * URI is the request's path with its query as the web server passed it;
 * BYTES the body bytes sent (0 for HEAD); MICROSECONDS the time from the
 * request's arrival at the worker to its answer handed back to the web
 * server; CACHE hit, miss (looked up, not there), or - (the cache was not
 * asked: off, an error answered before it). Bytes of the method and URI
 * outside printable ASCII, and space, '"' and '\', are written %XX, so a
 * line is always one line of six fields.
 *
 * In a file or on stderr the line is prefixed like the other log lines
 * ("2026-01-31T12:00:00Z cms-api[PID]: access: "); to syslog it goes as
 * daemon.info "cms-api[PID]: access: ...".
 *
 * A request never waits for syslog: the lines go over a socket of the
 * module's own to /dev/log, sent without blocking; a line the syslog
 * daemon has no room for is dropped and counted, and the count is logged
 * (warning) at most once a minute. A file is appended to with one write(2)
 * per line (O_APPEND), so workers sharing it never mix their lines.
 */
#ifndef CMS_API_ACCESS_H
#define CMS_API_ACCESS_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/strbuf.h"

enum access_cache { ACCESS_CACHE_NONE, ACCESS_CACHE_HIT, ACCESS_CACHE_MISS };

struct access_entry {
	const char *method, *uri;
	int status;
	size_t bytes;
	long long usec;
	enum access_cache cache;
};

/* Appends the six fields of e (no prefix, no newline) to out. */
void access_format(const struct access_entry *e, struct strbuf *out);

/* Opens the access log at target: "" (off), "syslog", "stderr" or a file
 * path. Returns 0, or -1 (logged) when the file cannot be opened: the
 * log is then off. Safe to call again. */
int access_open(const char *target);

/* The same target again (after logrotate's SIGHUP). */
void access_reopen(void);

/* Closes the log: off, and the module as a process starts with it (the
 * drop counts zero, the syslog socket's path /dev/log again), so that a
 * unit test that pointed it elsewhere leaves nothing to the next. */
void access_close(void);

/* Whether lines are written: callers skip measuring when not. */
bool access_enabled(void);

/* Writes e's line where the log was opened. Never blocks on syslog. */
void access_write(const struct access_entry *e);

/* The syslog socket's path: /dev/log unless a test points it elsewhere
 * (before access_open). */
void access_set_syslog_path(const char *path);

/* Lines dropped since the log was opened (syslog had no room). */
unsigned long access_dropped(void);

#endif
