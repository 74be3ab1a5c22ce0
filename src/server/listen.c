/* listen: the pool's listening socket; see listen.h. */
#include "autoconfig.h"

#include "server/listen.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#define BACKLOG 1024 /* the kernel caps it at net.core.somaxconn */

static bool all_digits(const char *s)
{
	if (!*s)
		return false;
	for (; *s; s++)
		if (!isdigit((unsigned char)*s))
			return false;
	return true;
}

static int set_port(const char *port, struct listen_spec *out, char err[LISTEN_ERR_LEN])
{
	long n = all_digits(port) && strlen(port) <= 5 ? strtol(port, NULL, 10) : 0;
	if (n < 1 || n > 65535) {
		snprintf(err, LISTEN_ERR_LEN, "--listen: '%s' is not a port (1 to 65535)", port);
		return -1;
	}
	snprintf(out->port, sizeof out->port, "%ld", n);
	return 0;
}

static int parse_tcp(const char *text, struct listen_spec *out, char err[LISTEN_ERR_LEN])
{
	const char *host = text, *port;
	size_t host_len;
	if (*text == '[') {
		const char *close = strchr(text, ']');
		if (!close || close[1] != ':') {
			snprintf(err, LISTEN_ERR_LEN, "--listen: '%s' is not [ADDRESS]:PORT", text);
			return -1;
		}
		host = text + 1;
		host_len = (size_t)(close - host);
		port = close + 2;
	} else {
		const char *colon = strrchr(text, ':');
		if (colon && memchr(text, ':', (size_t)(colon - text))) {
			snprintf(err, LISTEN_ERR_LEN, "--listen: write an IPv6 address in brackets: "
			         "[%s]:PORT", text);
			return -1;
		}
		host_len = colon ? (size_t)(colon - text) : 0;
		port = colon ? colon + 1 : text;
	}
	if (host_len >= sizeof out->host) {
		snprintf(err, LISTEN_ERR_LEN, "--listen: the host name is too long");
		return -1;
	}
	out->kind = LISTEN_TCP;
	if (host_len == 0)
		snprintf(out->host, sizeof out->host, "127.0.0.1");
	else
		snprintf(out->host, sizeof out->host, "%.*s", (int)host_len, host);
	return set_port(port, out, err);
}

int listen_parse(const char *text, struct listen_spec *out, char err[LISTEN_ERR_LEN])
{
	memset(out, 0, sizeof *out);
	if (!text || !*text) {
		snprintf(err, LISTEN_ERR_LEN, "--listen needs a socket path or HOST:PORT");
		return -1;
	}
	if (!strchr(text, '/'))
		return parse_tcp(text, out, err);
	if (strlen(text) >= sizeof out->path) {
		snprintf(err, LISTEN_ERR_LEN, "--listen: %s: a unix socket path has at most %zu "
		         "bytes", text, sizeof out->path - 1);
		return -1;
	}
	out->kind = LISTEN_UNIX;
	snprintf(out->path, sizeof out->path, "%s", text);
	return 0;
}

/* Puts fd at 0 (closing what was there). */
static int move_to_stdin(int fd)
{
	if (fd == 0)
		return 0;
	if (dup2(fd, 0) < 0)
		return -1;
	close(fd);
	return 0;
}

/* A socket file at path that nobody listens on any more (a pool that was
 * killed) is removed; a live one, or anything else, is left alone. One
 * that cannot be removed is said as such: bind would only say the address
 * is in use. */
static int clear_stale_socket(const char *path, char err[LISTEN_ERR_LEN])
{
	struct stat st;
	if (lstat(path, &st) != 0) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, LISTEN_ERR_LEN, "--listen: %s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISSOCK(st.st_mode)) {
		snprintf(err, LISTEN_ERR_LEN, "--listen: %s exists and is not a socket", path);
		return -1;
	}
	int probe = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	snprintf(addr.sun_path, sizeof addr.sun_path, "%s", path);
	int rc = probe >= 0 ? connect(probe, (struct sockaddr *)&addr, sizeof addr) : -1;
	int saved = errno;
	if (probe >= 0)
		close(probe);
	if (rc == 0) {
		snprintf(err, LISTEN_ERR_LEN, "--listen: %s: another process listens there", path);
		return -1;
	}
	if (saved != ECONNREFUSED) {
		snprintf(err, LISTEN_ERR_LEN, "--listen: %s: %s", path, strerror(saved));
		return -1;
	}
	if (unlink(path) != 0 && errno != ENOENT) {
		snprintf(err, LISTEN_ERR_LEN, "--listen: cannot remove the stale socket %s: %s", path,
		         strerror(errno));
		return -1;
	}
	return 0;
}

static long long ctime_ns(const struct stat *st)
{
	return (long long)st->st_ctim.tv_sec * 1000000000LL + st->st_ctim.tv_nsec;
}

static int open_unix(struct listen_spec *spec, char err[LISTEN_ERR_LEN])
{
	if (clear_stale_socket(spec->path, err) != 0)
		return -1;
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0) {
		snprintf(err, LISTEN_ERR_LEN, "--listen: socket: %s", strerror(errno));
		return -1;
	}
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	snprintf(addr.sun_path, sizeof addr.sun_path, "%s", spec->path);
	/* Never wider than 0660, not even between bind and chmod. */
	mode_t old_mask = umask(0117);
	int rc = bind(fd, (struct sockaddr *)&addr, sizeof addr);
	int saved = errno;
	umask(old_mask);
	struct stat st;
	if (rc != 0 || chmod(spec->path, 0660) != 0 || stat(spec->path, &st) != 0 ||
	    listen(fd, BACKLOG) != 0) {
		snprintf(err, LISTEN_ERR_LEN, "--listen: %s: %s", spec->path,
		         strerror(rc != 0 ? saved : errno));
		if (rc == 0)
			unlink(spec->path);
		close(fd);
		return -1;
	}
	spec->dev = st.st_dev;
	spec->ino = st.st_ino;
	spec->ctime_ns = ctime_ns(&st);
	return fd;
}

static int open_tcp(const struct listen_spec *spec, char err[LISTEN_ERR_LEN])
{
	struct addrinfo hints = {.ai_flags = AI_PASSIVE | AI_NUMERICSERV,
	                         .ai_family = AF_UNSPEC,
	                         .ai_socktype = SOCK_STREAM};
	struct addrinfo *found;
	int rc = getaddrinfo(spec->host, spec->port, &hints, &found);
	if (rc != 0) {
		snprintf(err, LISTEN_ERR_LEN, "--listen: %s: %s", spec->host, gai_strerror(rc));
		return -1;
	}
	int fd = -1, saved = 0;
	for (struct addrinfo *a = found; a && fd < 0; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype, a->ai_protocol);
		if (fd < 0) {
			saved = errno;
			continue;
		}
		int one = 1;
		setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
		if (bind(fd, a->ai_addr, a->ai_addrlen) != 0 || listen(fd, BACKLOG) != 0) {
			saved = errno;
			close(fd);
			fd = -1;
		}
	}
	freeaddrinfo(found);
	if (fd < 0)
		snprintf(err, LISTEN_ERR_LEN, "--listen: %s:%s: %s", spec->host, spec->port,
		         strerror(saved));
	return fd;
}

int listen_open(struct listen_spec *spec, char err[LISTEN_ERR_LEN])
{
	int fd = spec->kind == LISTEN_UNIX ? open_unix(spec, err) : open_tcp(spec, err);
	if (fd < 0)
		return -1;
	if (move_to_stdin(fd) != 0) {
		snprintf(err, LISTEN_ERR_LEN, "--listen: dup2: %s", strerror(errno));
		close(fd);
		listen_remove(spec);
		return -1;
	}
	return 0;
}

void listen_remove(const struct listen_spec *spec)
{
	struct stat st;
	if (spec->kind == LISTEN_UNIX && spec->ino && lstat(spec->path, &st) == 0 &&
	    st.st_dev == spec->dev && st.st_ino == spec->ino && ctime_ns(&st) == spec->ctime_ns)
		unlink(spec->path);
}

static bool is_listening(int fd)
{
	int on = 0;
	socklen_t len = sizeof on;
	return getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &on, &len) == 0 && on;
}

bool listen_inherited(void)
{
	/* systemd's socket activation without StandardInput=socket: one
	 * socket, at fd 3 (SD_LISTEN_FDS_START), meant for this process. */
	const char *pid = getenv("LISTEN_PID"), *fds = getenv("LISTEN_FDS");
	if (pid && fds && strtol(pid, NULL, 10) == (long)getpid() && strcmp(fds, "1") == 0 &&
	    is_listening(3) && move_to_stdin(3) == 0) {
		unsetenv("LISTEN_PID");
		unsetenv("LISTEN_FDS");
		unsetenv("LISTEN_FDNAMES");
	}
	return is_listening(0);
}

void listen_detach_stdio(void)
{
	for (int fd = 1; fd <= 2; fd++) {
		if (!is_listening(fd))
			continue;
		int null = open("/dev/null", O_WRONLY | O_CLOEXEC);
		if (null >= 0) {
			dup2(null, fd); /* dup2's copy is without O_CLOEXEC */
			close(null);
		}
	}
}
