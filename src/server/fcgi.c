/*
 * fcgi: the FastCGI responder; see fcgi.h.
 *
 * Two layers. The parser (fcgi_parse) takes whole records from the input
 * buffer and never touches a socket: it moves the request through its
 * phases and queues what the protocol answers (END_REQUEST of a refusal,
 * GET_VALUES_RESULT, UNKNOWN_TYPE) in c->out. The I/O layer around it
 * reads into the buffer (one read, or as many as the web server's writes
 * split the request into), sends c->out before it waits, and writes each
 * answer with one writev.
 *
 * The accepted socket is non-blocking: a read or write that would block
 * waits in poll() for what is left of the deadline instead, which bounds
 * every wait without a setsockopt per connection, and costs nothing when
 * the bytes are already there (the usual case: the web server writes its
 * request as soon as it has connected).
 */
#include "autoconfig.h"

#include "server/fcgi.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/uio.h>
#include <time.h>
#include <unistd.h>

#include "core/log.h"

/* A record's header, content and padding: the most the buffer must hold. */
#define RECORD_MAX (FCGI_HEADER_LEN + FCGI_MAX_CONTENT + 255)

/* --- records out -------------------------------------------------------------- */

static void put_header(unsigned char h[FCGI_HEADER_LEN], int type, unsigned id, size_t len)
{
	h[0] = FCGI_VERSION_1;
	h[1] = (unsigned char)type;
	h[2] = (unsigned char)(id >> 8);
	h[3] = (unsigned char)id;
	h[4] = (unsigned char)(len >> 8);
	h[5] = (unsigned char)len;
	h[6] = 0; /* no padding: the web server reads records of any length */
	h[7] = 0;
}

static void queue_record(struct fcgi_conn *c, int type, unsigned id, const void *body, size_t len)
{
	unsigned char h[FCGI_HEADER_LEN];
	put_header(h, type, id, len);
	strbuf_add(&c->out, h, sizeof h);
	strbuf_add(&c->out, body, len);
}

static void end_request_body(unsigned char body[8], int protocol_status)
{
	memset(body, 0, 8); /* appStatus 0, reserved */
	body[4] = (unsigned char)protocol_status;
}

static void queue_end_request(struct fcgi_conn *c, unsigned id, int protocol_status)
{
	unsigned char body[8];
	end_request_body(body, protocol_status);
	queue_record(c, FCGI_END_REQUEST, id, body, sizeof body);
}

static void queue_unknown_type(struct fcgi_conn *c, int type)
{
	unsigned char body[8] = {(unsigned char)type};
	queue_record(c, FCGI_UNKNOWN_TYPE, 0, body, sizeof body);
}

/* --- name-value pairs ------------------------------------------------------- */

/* Reads one length of a name-value pair (1 byte below 128, else 4 bytes
 * with the top bit set) at *at; -1 when it runs past len. */
static int read_length(const unsigned char *p, size_t len, size_t *at, size_t *out)
{
	if (*at >= len)
		return -1;
	if (p[*at] < 0x80) {
		*out = p[(*at)++];
		return 0;
	}
	if (len - *at < 4)
		return -1;
	*out = ((size_t)(p[*at] & 0x7f) << 24) | ((size_t)p[*at + 1] << 16) |
	       ((size_t)p[*at + 2] << 8) | p[*at + 3];
	*at += 4;
	return 0;
}

/* The next pair of p[0..len) at *at: name and value in place. Returns 1,
 * 0 at the end, -1 when the pair runs past the end. */
static int next_pair(const unsigned char *p, size_t len, size_t *at, const unsigned char **name,
                     size_t *nlen, const unsigned char **value, size_t *vlen)
{
	if (*at == len)
		return 0;
	if (read_length(p, len, at, nlen) != 0 || read_length(p, len, at, vlen) != 0 ||
	    *nlen > len - *at || *vlen > len - *at - *nlen)
		return -1;
	*name = p + *at;
	*value = *name + *nlen;
	*at += *nlen + *vlen;
	return 1;
}

static void add_length(struct strbuf *b, size_t n)
{
	if (n < 0x80) {
		strbuf_addch(b, (char)n);
		return;
	}
	unsigned char l[4] = {(unsigned char)(0x80 | (n >> 24)), (unsigned char)(n >> 16),
	                      (unsigned char)(n >> 8), (unsigned char)n};
	strbuf_add(b, l, sizeof l);
}

static void add_pair(struct strbuf *b, const char *name, const char *value)
{
	add_length(b, strlen(name));
	add_length(b, strlen(value));
	strbuf_addstr(b, name);
	strbuf_addstr(b, value);
}

/* GET_VALUES: the values of the names asked that it knows. One
 * connection, one request at a time. */
static void answer_get_values(struct fcgi_conn *c, const unsigned char *body, size_t len)
{
	static const char *const known[][2] = {
		{"FCGI_MAX_CONNS", "1"}, {"FCGI_MAX_REQS", "1"}, {"FCGI_MPXS_CONNS", "0"}};
	struct strbuf result = STRBUF_INIT;
	const unsigned char *name, *value;
	size_t at = 0, nlen, vlen;
	while (next_pair(body, len, &at, &name, &nlen, &value, &vlen) == 1)
		for (size_t i = 0; i < sizeof known / sizeof *known; i++)
			if (strlen(known[i][0]) == nlen && memcmp(known[i][0], name, nlen) == 0)
				add_pair(&result, known[i][0], known[i][1]);
	queue_record(c, FCGI_GET_VALUES_RESULT, 0, result.ptr, result.len);
	strbuf_release(&result);
}

/* Whether a pair can be a CGI variable: "NAME=value" must read back as
 * that name and that whole value (no web server sends anything else). */
static bool cgi_pair(const unsigned char *name, size_t nlen, const unsigned char *value,
                     size_t vlen)
{
	return nlen > 0 && !memchr(name, '=', nlen) && !memchr(name, '\0', nlen) &&
	       !memchr(value, '\0', vlen);
}

/* The PARAMS stream of the open request as "NAME=value" strings: counted
 * and checked first, so that env_text is allocated once and the pointers
 * into it stay valid. */
static void decode_params(struct fcgi_conn *c)
{
	const unsigned char *p = (const unsigned char *)c->params.ptr, *name, *value;
	size_t len = c->params.len, at = 0, nlen, vlen, count = 0, bytes = 0;
	int r;
	while ((r = next_pair(p, len, &at, &name, &nlen, &value, &vlen)) == 1) {
		if (!cgi_pair(name, nlen, value, vlen)) {
			r = -1;
			break;
		}
		count++;
		bytes += nlen + vlen + 2;
	}
	if (r < 0) {
		c->bad = FCGI_BAD_MALFORMED;
		count = 0;
	} else if (count > FCGI_PARAMS_MAX_COUNT) {
		c->bad = FCGI_BAD_TOO_LARGE;
		count = 0;
	}
	if (count + 1 > c->env_cap) {
		c->env_cap = count + 1;
		c->env = xrealloc(c->env, c->env_cap * sizeof *c->env);
	}
	strbuf_reset(&c->env_text);
	strbuf_grow(&c->env_text, bytes);
	at = 0;
	for (size_t i = 0; i < count; i++) {
		next_pair(p, len, &at, &name, &nlen, &value, &vlen);
		c->env[i] = c->env_text.ptr + c->env_text.len;
		strbuf_add(&c->env_text, name, nlen);
		strbuf_addch(&c->env_text, '=');
		strbuf_add(&c->env_text, value, vlen);
		strbuf_addch(&c->env_text, '\0');
	}
	c->env[count] = NULL;
}

/* --- the parser ------------------------------------------------------------------ */

static enum fcgi_parsed begin_request(struct fcgi_conn *c, unsigned id, const unsigned char *body,
                                      size_t len)
{
	if (len != 8 || (c->phase != FCGI_IDLE && id == c->id)) {
		log_warning("FastCGI: a BEGIN_REQUEST %s: closing the connection",
		            len != 8 ? "of the wrong size" : "for the request already open");
		return FCGI_PARSE_ERROR;
	}
	unsigned role = (unsigned)body[0] << 8 | body[1];
	bool keep = body[2] & FCGI_KEEP_CONN;
	if (c->phase != FCGI_IDLE) {
		queue_end_request(c, id, FCGI_CANT_MPX_CONN);
		return FCGI_PARSE_MORE;
	}
	if (role != FCGI_RESPONDER) {
		log_info("FastCGI: refused a request in role %u (only the responder role is served)", role);
		queue_end_request(c, id, FCGI_UNKNOWN_ROLE);
		return keep ? FCGI_PARSE_MORE : FCGI_PARSE_CLOSE;
	}
	c->phase = FCGI_PARAMS_OPEN;
	c->id = (uint16_t)id;
	c->keep_conn = keep;
	c->bad = FCGI_BAD_NONE;
	c->params_len = 0;
	strbuf_reset(&c->params);
	return FCGI_PARSE_MORE;
}

static void take_params(struct fcgi_conn *c, const unsigned char *body, size_t len)
{
	if (len == 0) {
		if (c->bad == FCGI_BAD_NONE)
			decode_params(c);
		strbuf_reset(&c->params);
		c->phase = FCGI_STDIN_OPEN;
		return;
	}
	c->params_len += len;
	if (c->params_len > FCGI_PARAMS_MAX) {
		/* Still read to the end, to stay in step; kept no longer. */
		c->bad = FCGI_BAD_TOO_LARGE;
		strbuf_release(&c->params);
		return;
	}
	strbuf_add(&c->params, body, len);
}

/* A record for the open request (id matches, phase not idle). */
static enum fcgi_parsed request_record(struct fcgi_conn *c, int type, const unsigned char *body,
                                       size_t len)
{
	switch (type) {
	case FCGI_ABORT_REQUEST:
		queue_end_request(c, c->id, FCGI_REQUEST_COMPLETE);
		c->phase = FCGI_IDLE;
		return c->keep_conn ? FCGI_PARSE_MORE : FCGI_PARSE_CLOSE;
	case FCGI_PARAMS:
		if (c->phase != FCGI_PARAMS_OPEN)
			break; /* after the empty one: nothing more to take */
		take_params(c, body, len);
		break;
	case FCGI_STDIN:
		if (c->phase == FCGI_PARAMS_OPEN) {
			log_warning("FastCGI: STDIN before the end of PARAMS: closing the connection");
			return FCGI_PARSE_ERROR;
		}
		if (len == 0) {
			c->phase = FCGI_ANSWERING;
			return FCGI_PARSE_REQUEST;
		}
		break; /* a body: cms-api answers GET and HEAD, and refuses the rest */
	default:
		break; /* DATA (the filter role's) and records a responder never gets */
	}
	return FCGI_PARSE_MORE;
}

static enum fcgi_parsed take_record(struct fcgi_conn *c, int type, unsigned id,
                                    const unsigned char *body, size_t len)
{
	if (id == 0) {
		if (type == FCGI_GET_VALUES)
			answer_get_values(c, body, len);
		else
			queue_unknown_type(c, type);
		return FCGI_PARSE_MORE;
	}
	if (type < FCGI_BEGIN_REQUEST || type > FCGI_UNKNOWN_TYPE) {
		queue_unknown_type(c, type);
		return FCGI_PARSE_MORE;
	}
	if (type == FCGI_BEGIN_REQUEST)
		return begin_request(c, id, body, len);
	if (c->phase == FCGI_IDLE || id != c->id)
		return FCGI_PARSE_MORE; /* not for the open request: ignored */
	return request_record(c, type, body, len);
}

/* The bytes the record at the start of the input needs in all. */
static size_t record_size(const struct fcgi_conn *c)
{
	if (c->in_end - c->in_start < FCGI_HEADER_LEN)
		return FCGI_HEADER_LEN;
	const unsigned char *h = c->in + c->in_start;
	return FCGI_HEADER_LEN + ((size_t)h[4] << 8 | h[5]) + h[6];
}

enum fcgi_parsed fcgi_parse(struct fcgi_conn *c)
{
	while (c->phase != FCGI_ANSWERING) {
		size_t avail = c->in_end - c->in_start, need = record_size(c);
		if (avail < need)
			return FCGI_PARSE_MORE;
		const unsigned char *h = c->in + c->in_start;
		if (h[0] != FCGI_VERSION_1) {
			log_warning("FastCGI: a record of version %d: closing the connection", h[0]);
			return FCGI_PARSE_ERROR;
		}
		c->in_start += need;
		enum fcgi_parsed r = take_record(c, h[1], (unsigned)h[2] << 8 | h[3], h + FCGI_HEADER_LEN,
		                                 (size_t)h[4] << 8 | h[5]);
		if (c->in_start == c->in_end)
			c->in_start = c->in_end = 0;
		if (r != FCGI_PARSE_MORE)
			return r;
	}
	return FCGI_PARSE_REQUEST;
}

/* Room in the input for the record that comes next: what is left of the
 * buffer moved to its start, the buffer grown when the record needs it. */
static void make_room(struct fcgi_conn *c, size_t need)
{
	if (c->in_start > 0 && c->in_start + need > c->in_cap) {
		memmove(c->in, c->in + c->in_start, c->in_end - c->in_start);
		c->in_end -= c->in_start;
		c->in_start = 0;
	}
	if (need > c->in_cap) {
		c->in_cap = need;
		c->in = xrealloc(c->in, c->in_cap);
	}
}

void fcgi_feed(struct fcgi_conn *c, const void *data, size_t len)
{
	make_room(c, c->in_end - c->in_start + len);
	memcpy(c->in + c->in_end, data, len);
	c->in_end += len;
}

void fcgi_request_done(struct fcgi_conn *c)
{
	c->phase = FCGI_IDLE;
	c->answered++;
}

/* --- the connection ------------------------------------------------------------ */

void fcgi_conn_init(struct fcgi_conn *c, int listen_fd, const volatile sig_atomic_t *stop)
{
	memset(c, 0, sizeof *c);
	c->fd = -1;
	c->listen_fd = listen_fd;
	c->timeout_ms = FCGI_TIMEOUT_MS;
	c->request_ms = FCGI_REQUEST_TIMEOUT_MS;
	c->stop = stop;
	c->in_cap = FCGI_BUFFER_SIZE;
	c->in = xmalloc(c->in_cap);
}

void fcgi_close(struct fcgi_conn *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	c->phase = FCGI_IDLE;
	c->in_start = c->in_end = 0;
	c->yield_after = false;
	c->answered = 0;
	strbuf_reset(&c->out);
}

void fcgi_conn_free(struct fcgi_conn *c)
{
	fcgi_close(c);
	free(c->in);
	free(c->env);
	free(c->headers);
	strbuf_release(&c->params);
	strbuf_release(&c->env_text);
	strbuf_release(&c->out);
	free(c->allowed);
	memset(c, 0, sizeof *c);
	c->fd = -1;
}

bool fcgi_connected(const struct fcgi_conn *c)
{
	return c->fd >= 0;
}

void fcgi_conn_attach(struct fcgi_conn *c, int fd)
{
	fcgi_close(c);
	int flags = fcntl(fd, F_GETFL);
	if (flags >= 0 && !(flags & O_NONBLOCK))
		fcntl(fd, F_SETFL, flags | O_NONBLOCK);
	c->fd = fd;
}

void fcgi_allow_peers(struct fcgi_conn *c, const char *list)
{
	free(c->allowed);
	c->allowed = NULL;
	c->nallowed = 0;
	c->restricted = list && *list;
	if (!c->restricted)
		return;
	char *copy = xstrdup(list), *save = NULL;
	for (char *tok = strtok_r(copy, ", \t", &save); tok; tok = strtok_r(NULL, ", \t", &save)) {
		struct netrange r;
		if (!netrange_parse(tok, &r)) {
			log_error("FCGI_WEB_SERVER_ADDRS: \"%s\" is not an address: it lets nobody in", tok);
			continue;
		}
		c->allowed = xrealloc(c->allowed, (c->nallowed + 1) * sizeof *c->allowed);
		c->allowed[c->nallowed++] = r;
	}
	free(copy);
}

/* Whether the peer at sa may talk to us (fcgi_allow_peers). */
static bool peer_allowed(const struct fcgi_conn *c, const struct sockaddr_storage *sa)
{
	char text[NETADDR_TEXT_LEN] = "";
	const void *bytes;
	if (sa->ss_family == AF_INET)
		bytes = &((const struct sockaddr_in *)sa)->sin_addr;
	else if (sa->ss_family == AF_INET6)
		bytes = &((const struct sockaddr_in6 *)sa)->sin6_addr;
	else
		return true; /* a unix socket: its file's permissions decide */
	struct netaddr peer;
	inet_ntop(sa->ss_family, bytes, text, sizeof text);
	if (netaddr_parse(text, &peer) && netrange_any(c->allowed, c->nallowed, &peer))
		return true;
	log_every_minute(LOG_LEVEL_WARNING, "FastCGI: refused a connection from %s, not in "
	                 "FCGI_WEB_SERVER_ADDRS", text);
	return false;
}

/* With a stop flag, accept on the listening socket waits at most
 * FCGI_STOP_CHECK_MS (then EAGAIN), so that a stop signal that came just
 * before it is seen (fcgi.h). A timeout rather than a poll first: workers
 * sharing the socket all wake for one connection, and all but one would
 * then wait in accept unbounded. Set once; the socket's siblings (other
 * workers of the pool) do the same. */
static void bound_accept(struct fcgi_conn *c)
{
	if (c->accept_bounded || !c->stop)
		return;
	struct timeval tv = {FCGI_STOP_CHECK_MS / 1000, (FCGI_STOP_CHECK_MS % 1000) * 1000};
	if (setsockopt(c->listen_fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv) != 0)
		log_warning("FastCGI: cannot bound the wait for a connection (%s): a stop signal "
		            "that comes just before it waits for the next connection",
		            strerror(errno));
	c->accept_bounded = true;
}

int fcgi_accept(struct fcgi_conn *c)
{
	bound_accept(c);
	struct sockaddr_storage sa;
	socklen_t len = sizeof sa;
	int fd = accept4(c->listen_fd, c->restricted ? (struct sockaddr *)&sa : NULL,
	                 c->restricted ? &len : NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (fd < 0)
		return -1;
	if (c->restricted && !peer_allowed(c, &sa)) {
		close(fd);
		errno = ECONNABORTED;
		return -1;
	}
	fcgi_close(c);
	c->fd = fd;
	return 0;
}

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

enum wait_result { WAIT_READY, WAIT_TIMEOUT, WAIT_STOP, WAIT_YIELD, WAIT_ERROR };

/* Whether the connection is between requests, a request already answered
 * on it and no byte of the next one come: the state a stop may end, and
 * in which a waiting connection is let in. */
static bool idle(const struct fcgi_conn *c)
{
	return c->answered > 0 && c->phase == FCGI_IDLE && c->in_end == c->in_start;
}

/* Waits until the connection is ready for events, at most until deadline.
 * Idle (see above), it also gives way to a stop and to a connection
 * waiting on the listening socket. */
static enum wait_result wait_for(struct fcgi_conn *c, short events, long long deadline)
{
	for (;;) {
		bool is_idle = idle(c);
		if (is_idle && c->stop && *c->stop)
			return WAIT_STOP;
		long long left = deadline - now_ms();
		if (left <= 0)
			return WAIT_TIMEOUT;
		/* Idle, a stop signal may have come since the flag was looked
		 * at: look again at least every FCGI_STOP_CHECK_MS. */
		if (is_idle && c->stop && left > FCGI_STOP_CHECK_MS)
			left = FCGI_STOP_CHECK_MS;
		struct pollfd p[2] = {{c->fd, events, 0}, {c->listen_fd, POLLIN, 0}};
		nfds_t n = is_idle && c->listen_fd >= 0 ? 2 : 1;
		int r = poll(p, n, left > INT_MAX ? INT_MAX : (int)left);
		if (r < 0 && errno != EINTR)
			return WAIT_ERROR;
		if (r <= 0)
			continue;
		if (p[0].revents) {
			/* Answer this request, then let the waiting connection in. */
			if (n == 2 && (p[1].revents & POLLIN))
				c->yield_after = true;
			return WAIT_READY;
		}
		return WAIT_YIELD;
	}
}

/* The deadline of a wait to send: timeout_ms from now, but never past
 * limit (0: none). */
static long long send_deadline(const struct fcgi_conn *c, long long limit)
{
	long long deadline = now_ms() + c->timeout_ms;
	return limit > 0 && limit < deadline ? limit : deadline;
}

/* Sends iov[0..n) whole (advancing it), retrying after EINTR and partial
 * writes. A web server that takes nothing for timeout_ms has stalled: -1
 * with ETIMEDOUT; one that takes the answer slowly (Apache passing it on
 * to a slow client) is waited for, until limit (0: for ever; a request's
 * deadline, while it is being read). Returns 0, or -1 with errno. */
static int send_all(struct fcgi_conn *c, struct iovec *iov, size_t n, long long limit)
{
	long long deadline = send_deadline(c, limit);
	size_t i = 0;
	while (i < n) {
		struct msghdr msg = {0};
		msg.msg_iov = iov + i;
		msg.msg_iovlen = n - i > IOV_MAX ? IOV_MAX : n - i;
		/* MSG_NOSIGNAL: a web server gone is an error, never a SIGPIPE. */
		ssize_t w = sendmsg(c->fd, &msg, MSG_NOSIGNAL);
		if (w < 0) {
			if (errno == EINTR)
				continue;
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				return -1;
			enum wait_result r = wait_for(c, POLLOUT, deadline);
			if (r == WAIT_TIMEOUT)
				errno = ETIMEDOUT;
			if (r != WAIT_READY)
				return -1;
			continue;
		}
		for (size_t done = (size_t)w; done > 0 || (i < n && iov[i].iov_len == 0);) {
			size_t take = done < iov[i].iov_len ? done : iov[i].iov_len;
			iov[i].iov_base = (char *)iov[i].iov_base + take;
			iov[i].iov_len -= take;
			done -= take;
			if (iov[i].iov_len == 0)
				i++;
		}
		if (i < n)
			deadline = send_deadline(c, limit);
	}
	return 0;
}

/* Sends the queued records (answers to management records, refusals) by
 * the request's deadline: a peer that asks and does not read the answers
 * is held no longer than one that sends slowly. */
static int flush_out(struct fcgi_conn *c, long long deadline)
{
	struct iovec iov = {c->out.ptr, c->out.len};
	int rc = send_all(c, &iov, 1, deadline);
	strbuf_reset(&c->out);
	return rc;
}

/* Why a connection ended before a request was read whole, logged. */
static void log_read_end(const struct fcgi_conn *c, ssize_t n, int err)
{
	bool midway = c->phase != FCGI_IDLE || c->in_end > c->in_start;
	if (n == 0) {
		if (midway)
			log_info("FastCGI: the web server closed the connection in the middle of a request");
	} else if (err == ETIMEDOUT) {
		if (midway || c->answered == 0)
			log_warning("FastCGI: no whole request within %d ms: connection closed",
			            c->request_ms);
	} else if (err == ECONNRESET || err == EPIPE) {
		log_info("FastCGI: the web server reset the connection");
	} else {
		log_warning("FastCGI: reading the connection: %s", strerror(err));
	}
}

/* Reads what the connection has into the input. Returns 1 after bytes came,
 * 0 when the connection is to end (why logged, unless it needs no word: a
 * stop or a yield while idle). */
static int read_more(struct fcgi_conn *c, long long *deadline)
{
	make_room(c, record_size(c));
	/* Between requests on a kept connection the next one is seldom there
	 * yet: wait first, which also watches the listening socket. */
	bool wait_first = idle(c);
	for (;;) {
		if (wait_first) {
			switch (wait_for(c, POLLIN, *deadline)) {
			case WAIT_READY:
				break;
			case WAIT_TIMEOUT:
				log_read_end(c, -1, ETIMEDOUT);
				return 0;
			case WAIT_ERROR:
				log_read_end(c, -1, errno);
				return 0;
			default: /* a stop or a waiting connection, while idle */
				return 0;
			}
		}
		bool was_idle = idle(c);
		ssize_t n = read(c->fd, c->in + c->in_end, c->in_cap - c->in_end);
		if (n > 0) {
			c->in_end += (size_t)n;
			if (was_idle) /* a new request: its own time, from its first byte */
				*deadline = now_ms() + c->request_ms;
			return 1;
		}
		if (n == 0 || (errno != EINTR && errno != EAGAIN && errno != EWOULDBLOCK)) {
			log_read_end(c, n, n == 0 ? 0 : errno);
			return 0;
		}
		wait_first = errno != EINTR;
	}
}

int fcgi_next_request(struct fcgi_conn *c)
{
	/* Idle, the wait for a next request; else the request's whole time
	 * (a new connection's starts at its accept, just before). */
	long long deadline = now_ms() + (idle(c) ? c->timeout_ms : c->request_ms);
	while (c->fd >= 0) {
		enum fcgi_parsed r = fcgi_parse(c);
		if (r == FCGI_PARSE_REQUEST)
			return 1;
		if (r != FCGI_PARSE_ERROR && c->out.len > 0 && flush_out(c, deadline) != 0)
			r = FCGI_PARSE_ERROR;
		if (r != FCGI_PARSE_MORE || read_more(c, &deadline) == 0)
			fcgi_close(c);
	}
	return 0;
}

/* The STDOUT headers of an answer of len bytes, and the empty STDOUT and
 * END_REQUEST after them, in c->headers: FCGI_HEADER_LEN bytes a record,
 * then the 24 bytes of the end. Returns the number of STDOUT records. */
static size_t frame_answer(struct fcgi_conn *c, size_t len)
{
	size_t records = (len + FCGI_MAX_CONTENT - 1) / FCGI_MAX_CONTENT;
	size_t need = records * FCGI_HEADER_LEN + 3 * FCGI_HEADER_LEN;
	if (need > c->headers_cap) {
		c->headers_cap = need;
		c->headers = xrealloc(c->headers, need);
	}
	for (size_t i = 0; i < records; i++) {
		size_t part = len - i * FCGI_MAX_CONTENT;
		put_header(c->headers + i * FCGI_HEADER_LEN, FCGI_STDOUT, c->id,
		           part < FCGI_MAX_CONTENT ? part : FCGI_MAX_CONTENT);
	}
	unsigned char *end = c->headers + records * FCGI_HEADER_LEN;
	put_header(end, FCGI_STDOUT, c->id, 0);
	put_header(end + FCGI_HEADER_LEN, FCGI_END_REQUEST, c->id, 8);
	end_request_body(end + 2 * FCGI_HEADER_LEN, FCGI_REQUEST_COMPLETE);
	return records;
}

int fcgi_answer(struct fcgi_conn *c, const char *data, size_t len)
{
	size_t records = frame_answer(c, len), n = 0;
	struct iovec small[16], *iov = small;
	size_t slots = 2 * records + 2;
	if (slots > sizeof small / sizeof *small)
		iov = xmalloc(slots * sizeof *iov);
	if (c->out.len > 0) /* a refusal queued meanwhile goes first */
		iov[n++] = (struct iovec){c->out.ptr, c->out.len};
	for (size_t i = 0; i < records; i++) {
		size_t at = i * FCGI_MAX_CONTENT, part = len - at;
		iov[n++] = (struct iovec){c->headers + i * FCGI_HEADER_LEN, FCGI_HEADER_LEN};
		iov[n++] = (struct iovec){(char *)data + at,
		                          part < FCGI_MAX_CONTENT ? part : FCGI_MAX_CONTENT};
	}
	iov[n++] = (struct iovec){c->headers + records * FCGI_HEADER_LEN, 3 * FCGI_HEADER_LEN};
	int rc = send_all(c, iov, n, 0);
	int saved = errno;
	if (iov != small)
		free(iov);
	strbuf_reset(&c->out);
	fcgi_request_done(c);
	if (rc != 0 || !c->keep_conn || c->yield_after)
		fcgi_close(c);
	errno = saved;
	return rc;
}
