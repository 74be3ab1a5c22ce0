/* access: the access log; see access.h. */
#include "autoconfig.h"

#include "core/access.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "core/log.h"

/* Where syslog is asked for a connection again after it refused one. */
#define RECONNECT_SECONDS 1
#define DEFAULT_SYSLOG_PATH "/dev/log"

static struct {
	enum { ACCESS_OFF, ACCESS_SYSLOG, ACCESS_STDERR, ACCESS_FILE } to;
	char *target;               /* owned: what access_open was given */
	int fd;                     /* the file or the syslog socket; -1 */
	long long next_connect;     /* syslog: monotonic seconds */
	unsigned long dropped, dropped_told;
	char syslog_path[sizeof(((struct sockaddr_un *)0)->sun_path)];
} access_log = {ACCESS_OFF, NULL, -1, 0, 0, 0, DEFAULT_SYSLOG_PATH};

static const char *cache_word(enum access_cache c)
{
	return c == ACCESS_CACHE_HIT ? "hit" : c == ACCESS_CACHE_MISS ? "miss" : "-";
}

/* s with every byte that would break the line or its fields as %XX. */
static void add_escaped(struct strbuf *out, const char *s)
{
	static const char hex[] = "0123456789ABCDEF";
	if (!s || !*s) {
		strbuf_addch(out, '-');
		return;
	}
	for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
		if (*p > ' ' && *p < 0x7f && *p != '"' && *p != '\\') {
			strbuf_addch(out, (char)*p);
		} else {
			strbuf_addch(out, '%');
			strbuf_addch(out, hex[*p >> 4]);
			strbuf_addch(out, hex[*p & 15]);
		}
	}
}

void access_format(const struct access_entry *e, struct strbuf *out)
{
	add_escaped(out, e->method);
	strbuf_addch(out, ' ');
	add_escaped(out, e->uri);
	strbuf_addf(out, " %d %zu %lld %s", e->status, e->bytes, e->usec < 0 ? 0 : e->usec,
	            cache_word(e->cache));
}

static long long monotonic_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (long long)ts.tv_sec;
}

static void close_fd(void)
{
	if (access_log.fd >= 0 && access_log.fd != STDERR_FILENO)
		close(access_log.fd);
	access_log.fd = -1;
}

/* A non-blocking datagram socket connected to syslog, or -1; refused
 * connections are tried again at most once a second. */
static void connect_syslog(void)
{
	long long now = monotonic_seconds();
	if (now < access_log.next_connect)
		return;
	access_log.next_connect = now + RECONNECT_SECONDS;
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return;
	struct sockaddr_un addr;
	memset(&addr, 0, sizeof addr);
	addr.sun_family = AF_UNIX;
	memcpy(addr.sun_path, access_log.syslog_path, sizeof addr.sun_path);
	if (connect(fd, (struct sockaddr *)&addr, sizeof addr) != 0) {
		close(fd);
		return;
	}
	access_log.fd = fd;
}

static int open_target(void)
{
	const char *target = access_log.target;
	close_fd();
	access_log.to = ACCESS_OFF;
	access_log.next_connect = 0;
	if (!target || !*target)
		return 0;
	if (strcmp(target, "syslog") == 0) {
		access_log.to = ACCESS_SYSLOG;
		connect_syslog();
		return 0;
	}
	if (strcmp(target, "stderr") == 0) {
		access_log.to = ACCESS_STDERR;
		access_log.fd = STDERR_FILENO;
		return 0;
	}
	int fd = open(target, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0640);
	if (fd < 0) {
		log_error("cannot open the access log %s (%s): no access lines are written", target,
		          strerror(errno));
		return -1;
	}
	access_log.to = ACCESS_FILE;
	access_log.fd = fd;
	return 0;
}

int access_open(const char *target)
{
	char *copy = target ? xstrdup(target) : NULL;
	free(access_log.target);
	access_log.target = copy;
	access_log.dropped = access_log.dropped_told = 0;
	return open_target();
}

void access_reopen(void)
{
	open_target();
}

void access_close(void)
{
	close_fd();
	free(access_log.target);
	access_log.target = NULL;
	access_log.to = ACCESS_OFF;
	access_log.next_connect = 0;
	access_log.dropped = access_log.dropped_told = 0;
	access_set_syslog_path(DEFAULT_SYSLOG_PATH);
}

bool access_enabled(void)
{
	return access_log.to != ACCESS_OFF;
}

void access_set_syslog_path(const char *path)
{
	snprintf(access_log.syslog_path, sizeof access_log.syslog_path, "%s", path);
}

unsigned long access_dropped(void)
{
	return access_log.dropped;
}

/* Sends one datagram without waiting; a line syslog cannot take now is
 * dropped and counted. */
static void send_syslog(const struct strbuf *line)
{
	if (access_log.fd < 0)
		connect_syslog();
	if (access_log.fd < 0) {
		access_log.dropped++;
		return;
	}
	if (send(access_log.fd, line->ptr, line->len, MSG_DONTWAIT | MSG_NOSIGNAL) < 0) {
		int err = errno;
		access_log.dropped++;
		/* The daemon restarted (or went away): connect again later. */
		if (err != EAGAIN && err != EWOULDBLOCK && err != ENOBUFS)
			close_fd();
		return;
	}
	/* syslog takes lines again: now it may hear how many it missed. */
	if (access_log.dropped > access_log.dropped_told) {
		log_every_minute(LOG_LEVEL_WARNING, "access log: %lu line(s) dropped so far: "
		                 "syslog did not take them in time", access_log.dropped);
		access_log.dropped_told = access_log.dropped;
	}
}

void access_write(const struct access_entry *e)
{
	if (access_log.to == ACCESS_OFF)
		return;
	struct strbuf line = STRBUF_INIT;
	time_t now = time(NULL);
	struct tm tm;
	char stamp[40];
	if (access_log.to == ACCESS_SYSLOG) {
		/* RFC 3164, as glibc's syslog(3) sends it: daemon.info. */
		localtime_r(&now, &tm);
		strftime(stamp, sizeof stamp, "%b %e %H:%M:%S", &tm);
		strbuf_addf(&line, "<30>%s cms-api[%ld]: access: ", stamp, (long)getpid());
		access_format(e, &line);
		send_syslog(&line);
	} else {
		gmtime_r(&now, &tm);
		strftime(stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
		strbuf_addf(&line, "%s cms-api[%ld]: access: ", stamp, (long)getpid());
		access_format(e, &line);
		strbuf_addch(&line, '\n');
		/* One write: O_APPEND keeps each line whole among the workers'. */
		if (write(access_log.fd, line.ptr, line.len) < 0)
			log_every_minute(LOG_LEVEL_WARNING, "cannot write the access log %s: %s",
			                 access_log.target, strerror(errno));
	}
	strbuf_release(&line);
}
