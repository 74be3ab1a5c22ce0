/* Unit tests: the FastCGI responder (fcgi.h) over a socketpair, the test
 * playing the web server on one end: both length forms of params, STDIN
 * thrown away, two requests on a kept connection, GET_VALUES, unknown
 * types, a truncated record, params too large or malformed, a second
 * BEGIN_REQUEST, other roles, ABORT_REQUEST, padding, a request fed byte
 * by byte, and an answer larger than one record. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "lib/strbuf.h"
#include "server/fcgi.h"
#include "unit.h"

/* --- the web server's side ------------------------------------------------ */

static void add_record(struct strbuf *b, int type, unsigned id, const void *content, size_t len,
                       unsigned pad)
{
	unsigned char h[8] = {1, (unsigned char)type, (unsigned char)(id >> 8), (unsigned char)id,
	                      (unsigned char)(len >> 8), (unsigned char)len, (unsigned char)pad, 0};
	strbuf_add(b, h, sizeof h);
	strbuf_add(b, content, len);
	for (unsigned i = 0; i < pad; i++)
		strbuf_addch(b, '\xee');
}

static void add_length(struct strbuf *b, size_t n, bool long_form)
{
	if (!long_form && n < 128) {
		strbuf_addch(b, (char)n);
		return;
	}
	unsigned char l[4] = {(unsigned char)(0x80 | (n >> 24)), (unsigned char)(n >> 16),
	                      (unsigned char)(n >> 8), (unsigned char)n};
	strbuf_add(b, l, 4);
}

/* A name-value pair; long_form writes both lengths in 4 bytes even when
 * one would do (the specification allows it). */
static void add_pair(struct strbuf *b, const char *name, const char *value, bool long_form)
{
	add_length(b, strlen(name), long_form);
	add_length(b, strlen(value), long_form);
	strbuf_addstr(b, name);
	strbuf_addstr(b, value);
}

static void add_begin(struct strbuf *b, unsigned id, unsigned role, unsigned flags)
{
	unsigned char body[8] = {(unsigned char)(role >> 8), (unsigned char)role,
	                         (unsigned char)flags};
	add_record(b, FCGI_BEGIN_REQUEST, id, body, sizeof body, 0);
}

/* A whole request: BEGIN_REQUEST, the params in one record, the empty
 * PARAMS, the empty STDIN. */
static void add_request(struct strbuf *b, unsigned id, unsigned flags, const char *uri)
{
	struct strbuf params = STRBUF_INIT;
	add_pair(&params, "REQUEST_METHOD", "GET", false);
	add_pair(&params, "REQUEST_URI", uri, false);
	add_begin(b, id, FCGI_RESPONDER, flags);
	add_record(b, FCGI_PARAMS, id, params.ptr, params.len, 0);
	add_record(b, FCGI_PARAMS, id, "", 0, 0);
	add_record(b, FCGI_STDIN, id, "", 0, 0);
	strbuf_release(&params);
}

static void write_all(int fd, const void *data, size_t len)
{
	const char *p = data;
	while (len > 0) {
		ssize_t n = write(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return;
		p += n;
		len -= (size_t)n;
	}
}

struct record {
	int type;
	unsigned id;
	struct strbuf content;
};

struct records {
	struct record r[64];
	size_t n;
	bool eof; /* the responder closed the connection */
};

static void records_free(struct records *rs)
{
	for (size_t i = 0; i < rs->n; i++)
		strbuf_release(&rs->r[i].content);
	rs->n = 0;
}

static bool read_exact(int fd, void *buf, size_t len)
{
	char *p = buf;
	while (len > 0) {
		ssize_t n = read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return false;
		p += n;
		len -= (size_t)n;
	}
	return true;
}

/* Reads the responder's records until it closes the connection, or (id
 * not 0) until the END_REQUEST of request id. */
static void read_records(int fd, unsigned id, struct records *rs)
{
	memset(rs, 0, sizeof *rs);
	unsigned char h[8];
	while (rs->n < 64) {
		if (!read_exact(fd, h, 1)) {
			rs->eof = true;
			return;
		}
		CU_ASSERT_FATAL(read_exact(fd, h + 1, 7));
		struct record *r = &rs->r[rs->n++];
		r->type = h[1];
		r->id = (unsigned)h[2] << 8 | h[3];
		size_t len = (size_t)h[4] << 8 | h[5];
		r->content = (struct strbuf)STRBUF_INIT;
		strbuf_grow(&r->content, len);
		CU_ASSERT_FATAL(read_exact(fd, r->content.ptr, len));
		r->content.len = len;
		r->content.ptr[len] = '\0';
		char pad[255];
		CU_ASSERT_FATAL(read_exact(fd, pad, h[6]));
		CU_ASSERT_EQUAL(h[0], 1);
		if (id && r->type == FCGI_END_REQUEST && r->id == id)
			return;
	}
}

/* Whether rs, from index *at, holds the answer text to request id: its
 * STDOUT records, the empty one, END_REQUEST(REQUEST_COMPLETE). */
static bool is_answer(const struct records *rs, size_t *at, unsigned id, const char *text)
{
	struct strbuf got = STRBUF_INIT;
	size_t i = *at;
	while (i < rs->n && rs->r[i].type == FCGI_STDOUT && rs->r[i].id == id &&
	       rs->r[i].content.len > 0) {
		strbuf_add(&got, rs->r[i].content.ptr, rs->r[i].content.len);
		i++;
	}
	bool ok = strcmp(strbuf_str(&got), text) == 0 && i + 1 < rs->n &&
	          rs->r[i].type == FCGI_STDOUT && rs->r[i].id == id && rs->r[i].content.len == 0 &&
	          rs->r[i + 1].type == FCGI_END_REQUEST && rs->r[i + 1].id == id &&
	          rs->r[i + 1].content.len == 8 &&
	          memcmp(rs->r[i + 1].content.ptr, "\0\0\0\0\0\0\0\0", 8) == 0;
	strbuf_release(&got);
	*at = i + 2;
	return ok;
}

static bool is_end_request(const struct record *r, unsigned id, int protocol_status)
{
	return r->type == FCGI_END_REQUEST && r->id == id && r->content.len == 8 &&
	       (unsigned char)r->content.ptr[4] == protocol_status;
}

/* --- the responder's side --------------------------------------------------- */

struct pair {
	int web;  /* the web server's end */
	struct fcgi_conn c;
};

static void open_pair(struct pair *p)
{
	int sv[2];
	CU_ASSERT_FATAL(socketpair(AF_UNIX, SOCK_STREAM, 0, sv) == 0);
	p->web = sv[0];
	/* A responder that failed must fail the test, not hang it. */
	struct timeval tv = {5, 0};
	setsockopt(p->web, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	fcgi_conn_init(&p->c, -1, NULL);
	fcgi_conn_attach(&p->c, sv[1]);
}

static void close_pair(struct pair *p)
{
	close(p->web);
	fcgi_conn_free(&p->c);
}

static size_t env_count(char **env)
{
	size_t n = 0;
	while (env && env[n])
		n++;
	return n;
}

/* --- the tests ---------------------------------------------------------------- */

static void test_params_both_forms(void)
{
	struct pair p;
	open_pair(&p);
	char long_value[300], long_name[140];
	memset(long_value, 'v', sizeof long_value - 1);
	long_value[sizeof long_value - 1] = '\0';
	memset(long_name, 'N', sizeof long_name - 1);
	long_name[sizeof long_name - 1] = '\0';
	struct strbuf params = STRBUF_INIT, b = STRBUF_INIT;
	add_pair(&params, "REQUEST_URI", "/api/ping?a=1", false);
	add_pair(&params, "LONG", long_value, false);   /* a 4-byte value length */
	add_pair(&params, long_name, "x", false);       /* a 4-byte name length */
	add_pair(&params, "FOUR", "both", true);        /* 4 bytes where 1 would do */
	add_pair(&params, "EMPTY", "", false);
	add_pair(&params, "REQUEST_URI", "/api/ping?b=2", false); /* twice: both kept */
	add_begin(&b, 1, FCGI_RESPONDER, 0);
	/* The params split over two records, mid-pair. */
	add_record(&b, FCGI_PARAMS, 1, params.ptr, 20, 0);
	add_record(&b, FCGI_PARAMS, 1, params.ptr + 20, params.len - 20, 0);
	add_record(&b, FCGI_PARAMS, 1, "", 0, 0);
	add_record(&b, FCGI_STDIN, 1, "", 0, 0);
	write_all(p.web, b.ptr, b.len);

	CU_ASSERT_EQUAL_FATAL(fcgi_next_request(&p.c), 1);
	CU_ASSERT_EQUAL(p.c.bad, FCGI_BAD_NONE);
	CU_ASSERT_EQUAL_FATAL(env_count(p.c.env), 6);
	CU_ASSERT_STRING_EQUAL(p.c.env[0], "REQUEST_URI=/api/ping?a=1");
	CU_ASSERT_EQUAL(strncmp(p.c.env[1], "LONG=vvv", 8), 0);
	CU_ASSERT_EQUAL(strlen(p.c.env[1]), 5 + 299);
	CU_ASSERT_EQUAL(strlen(p.c.env[2]), 139 + 2);
	CU_ASSERT_STRING_EQUAL(p.c.env[2] + 139, "=x");
	CU_ASSERT_STRING_EQUAL(p.c.env[3], "FOUR=both");
	CU_ASSERT_STRING_EQUAL(p.c.env[4], "EMPTY=");
	CU_ASSERT_STRING_EQUAL(p.c.env[5], "REQUEST_URI=/api/ping?b=2");

	const char *answer = "Status: 200 OK\r\nContent-Length: 2\r\n\r\nok";
	CU_ASSERT_EQUAL(fcgi_answer(&p.c, answer, strlen(answer)), 0);
	/* Not kept: closed after the answer. */
	CU_ASSERT_FALSE(fcgi_connected(&p.c));
	struct records rs;
	read_records(p.web, 0, &rs);
	size_t at = 0;
	CU_ASSERT(is_answer(&rs, &at, 1, answer));
	CU_ASSERT_EQUAL(at, rs.n);
	CU_ASSERT(rs.eof);
	records_free(&rs);
	strbuf_release(&params);
	strbuf_release(&b);
	close_pair(&p);
}

static void test_stdin_ignored(void)
{
	struct pair p;
	open_pair(&p);
	struct strbuf params = STRBUF_INIT, b = STRBUF_INIT;
	add_pair(&params, "REQUEST_METHOD", "POST", false);
	add_begin(&b, 3, FCGI_RESPONDER, 0);
	add_record(&b, FCGI_PARAMS, 3, params.ptr, params.len, 0);
	add_record(&b, FCGI_PARAMS, 3, "", 0, 0);
	add_record(&b, FCGI_STDIN, 3, "a=1&b=2", 7, 0);
	add_record(&b, FCGI_DATA, 3, "data", 4, 0);
	add_record(&b, FCGI_STDIN, 3, "more", 4, 0);
	add_record(&b, FCGI_STDIN, 3, "", 0, 0);
	write_all(p.web, b.ptr, b.len);
	CU_ASSERT_EQUAL_FATAL(fcgi_next_request(&p.c), 1);
	CU_ASSERT_EQUAL_FATAL(env_count(p.c.env), 1);
	CU_ASSERT_STRING_EQUAL(p.c.env[0], "REQUEST_METHOD=POST");
	CU_ASSERT_EQUAL(fcgi_answer(&p.c, "Status: 405\r\n\r\n", 15), 0);
	struct records rs;
	read_records(p.web, 0, &rs);
	size_t at = 0;
	CU_ASSERT(is_answer(&rs, &at, 3, "Status: 405\r\n\r\n"));
	CU_ASSERT(rs.eof);
	records_free(&rs);
	strbuf_release(&params);
	strbuf_release(&b);
	close_pair(&p);
}

static void test_keep_conn(void)
{
	struct pair p;
	open_pair(&p);
	struct strbuf b = STRBUF_INIT;
	struct records rs;
	const char *uris[] = {"/api/first", "/api/second"};
	for (unsigned i = 0; i < 2; i++) {
		strbuf_reset(&b);
		add_request(&b, 1, FCGI_KEEP_CONN, uris[i]);
		write_all(p.web, b.ptr, b.len);
		CU_ASSERT_EQUAL_FATAL(fcgi_next_request(&p.c), 1);
		CU_ASSERT_EQUAL_FATAL(env_count(p.c.env), 2);
		char want[64];
		snprintf(want, sizeof want, "REQUEST_URI=%s", uris[i]);
		CU_ASSERT_STRING_EQUAL(p.c.env[1], want);
		CU_ASSERT_EQUAL(fcgi_answer(&p.c, uris[i], strlen(uris[i])), 0);
		CU_ASSERT_TRUE(fcgi_connected(&p.c));
		read_records(p.web, 1, &rs);
		size_t at = 0;
		CU_ASSERT(is_answer(&rs, &at, 1, uris[i]));
		CU_ASSERT_EQUAL(at, rs.n);
		records_free(&rs);
	}
	/* The web server lets the kept connection go: no request, closed. */
	shutdown(p.web, SHUT_WR);
	CU_ASSERT_EQUAL(fcgi_next_request(&p.c), 0);
	CU_ASSERT_FALSE(fcgi_connected(&p.c));
	strbuf_release(&b);
	close_pair(&p);
}

/* A stop while a kept connection is idle ends it; before the first request
 * of a connection it does not. */
static void test_stop_when_idle(void)
{
	static volatile sig_atomic_t stop;
	struct pair p;
	open_pair(&p);
	p.c.stop = &stop;
	stop = 1;
	struct strbuf b = STRBUF_INIT;
	add_request(&b, 1, FCGI_KEEP_CONN, "/api/ping");
	write_all(p.web, b.ptr, b.len);
	CU_ASSERT_EQUAL_FATAL(fcgi_next_request(&p.c), 1);
	CU_ASSERT_EQUAL(fcgi_answer(&p.c, "x", 1), 0);
	CU_ASSERT_TRUE(fcgi_connected(&p.c));
	CU_ASSERT_EQUAL(fcgi_next_request(&p.c), 0);
	CU_ASSERT_FALSE(fcgi_connected(&p.c));
	stop = 0;
	strbuf_release(&b);
	close_pair(&p);
}

static void test_get_values(void)
{
	struct pair p;
	open_pair(&p);
	struct strbuf ask = STRBUF_INIT, b = STRBUF_INIT;
	add_pair(&ask, "FCGI_MAX_CONNS", "", false);
	add_pair(&ask, "NOT_A_NAME", "", false);
	add_pair(&ask, "FCGI_MPXS_CONNS", "", true);
	add_pair(&ask, "FCGI_MAX_REQS", "", false);
	add_record(&b, FCGI_GET_VALUES, 0, ask.ptr, ask.len, 0);
	/* A management record it does not know, and a type nobody defined. */
	add_record(&b, FCGI_STDIN, 0, "", 0, 0);
	add_record(&b, 42, 1, "?", 1, 0);
	write_all(p.web, b.ptr, b.len);
	/* Asked before any request: answered before the responder waits. */
	shutdown(p.web, SHUT_WR);
	CU_ASSERT_EQUAL(fcgi_next_request(&p.c), 0);
	struct records rs;
	read_records(p.web, 0, &rs);
	CU_ASSERT_EQUAL_FATAL(rs.n, 3);
	CU_ASSERT_EQUAL(rs.r[0].type, FCGI_GET_VALUES_RESULT);
	CU_ASSERT_EQUAL(rs.r[0].id, 0);
	struct strbuf want = STRBUF_INIT;
	add_pair(&want, "FCGI_MAX_CONNS", "1", false);
	add_pair(&want, "FCGI_MPXS_CONNS", "0", false);
	add_pair(&want, "FCGI_MAX_REQS", "1", false);
	CU_ASSERT_EQUAL(rs.r[0].content.len, want.len);
	CU_ASSERT(memcmp(rs.r[0].content.ptr, want.ptr, want.len) == 0);
	CU_ASSERT_EQUAL(rs.r[1].type, FCGI_UNKNOWN_TYPE);
	CU_ASSERT_EQUAL(rs.r[1].id, 0);
	CU_ASSERT(rs.r[1].content.len == 8 && memcmp(rs.r[1].content.ptr, "\5\0\0\0\0\0\0\0", 8) == 0);
	CU_ASSERT_EQUAL(rs.r[2].type, FCGI_UNKNOWN_TYPE);
	CU_ASSERT(rs.r[2].content.len == 8 && rs.r[2].content.ptr[0] == 42);
	CU_ASSERT(rs.eof);
	records_free(&rs);
	strbuf_release(&want);
	strbuf_release(&ask);
	strbuf_release(&b);
	close_pair(&p);
}

/* GET_VALUES in the same write as a request: its answer goes out in the
 * same writev, ahead of the request's. */
static void test_get_values_with_request(void)
{
	struct pair p;
	open_pair(&p);
	struct strbuf ask = STRBUF_INIT, b = STRBUF_INIT;
	add_pair(&ask, "FCGI_MPXS_CONNS", "", false);
	add_record(&b, FCGI_GET_VALUES, 0, ask.ptr, ask.len, 0);
	add_request(&b, 9, 0, "/api/ping");
	write_all(p.web, b.ptr, b.len);
	CU_ASSERT_EQUAL_FATAL(fcgi_next_request(&p.c), 1);
	CU_ASSERT_EQUAL(fcgi_answer(&p.c, "pong", 4), 0);
	struct records rs;
	read_records(p.web, 0, &rs);
	CU_ASSERT_EQUAL_FATAL(rs.n, 4);
	CU_ASSERT_EQUAL(rs.r[0].type, FCGI_GET_VALUES_RESULT);
	CU_ASSERT_STRING_EQUAL(rs.r[0].content.ptr, "\x0f\x01" "FCGI_MPXS_CONNS0");
	size_t at = 1;
	CU_ASSERT(is_answer(&rs, &at, 9, "pong"));
	records_free(&rs);
	strbuf_release(&ask);
	strbuf_release(&b);
	close_pair(&p);
}

static void test_truncated(void)
{
	struct pair p;
	open_pair(&p);
	struct strbuf b = STRBUF_INIT;
	add_request(&b, 1, 0, "/api/ping");
	/* Cut in the PARAMS record's content, then the web server closes. */
	write_all(p.web, b.ptr, 8 + 8 + 8 + 5);
	shutdown(p.web, SHUT_WR);
	CU_ASSERT_EQUAL(fcgi_next_request(&p.c), 0);
	CU_ASSERT_FALSE(fcgi_connected(&p.c));
	struct records rs;
	read_records(p.web, 0, &rs);
	CU_ASSERT_EQUAL(rs.n, 0);
	CU_ASSERT(rs.eof);
	close_pair(&p);

	/* Cut in a header, and the web server stalls: bounded by the time a
	 * request has to arrive whole. */
	open_pair(&p);
	p.c.request_ms = 50;
	write_all(p.web, b.ptr, 8 + 8 + 3);
	CU_ASSERT_EQUAL(fcgi_next_request(&p.c), 0);
	CU_ASSERT_FALSE(fcgi_connected(&p.c));
	close_pair(&p);
	strbuf_release(&b);
}

/* Writes b to fd from a child process (for more than the socket holds);
 * returns its pid. */
static pid_t write_in_child(int fd, const struct strbuf *b, bool byte_by_byte)
{
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	if (!byte_by_byte) {
		write_all(fd, b->ptr, b->len);
	} else {
		for (size_t i = 0; i < b->len; i++) {
			write_all(fd, b->ptr + i, 1);
			struct timespec pause = {0, 200000};
			nanosleep(&pause, NULL);
		}
	}
	_exit(0);
}

static void test_params_too_large(void)
{
	struct pair p;
	open_pair(&p);
	struct strbuf b = STRBUF_INIT;
	char *chunk = malloc(FCGI_MAX_CONTENT);
	memset(chunk, 'p', FCGI_MAX_CONTENT);
	add_begin(&b, 1, FCGI_RESPONDER, FCGI_KEEP_CONN);
	for (size_t sent = 0; sent <= FCGI_PARAMS_MAX; sent += FCGI_MAX_CONTENT)
		add_record(&b, FCGI_PARAMS, 1, chunk, FCGI_MAX_CONTENT, 0);
	add_record(&b, FCGI_PARAMS, 1, "", 0, 0);
	add_record(&b, FCGI_STDIN, 1, "", 0, 0);
	/* The connection stays in step: the next request is read. */
	add_request(&b, 2, 0, "/api/after");
	pid_t pid = write_in_child(p.web, &b, false);
	CU_ASSERT_EQUAL_FATAL(fcgi_next_request(&p.c), 1);
	CU_ASSERT_EQUAL(p.c.bad, FCGI_BAD_TOO_LARGE);
	CU_ASSERT(p.c.params.cap < FCGI_PARAMS_MAX); /* not kept */
	CU_ASSERT_EQUAL(fcgi_answer(&p.c, "Status: 400\r\n\r\n", 15), 0);
	CU_ASSERT_EQUAL_FATAL(fcgi_next_request(&p.c), 1);
	CU_ASSERT_EQUAL(p.c.bad, FCGI_BAD_NONE);
	CU_ASSERT_EQUAL_FATAL(env_count(p.c.env), 2);
	CU_ASSERT_STRING_EQUAL(p.c.env[1], "REQUEST_URI=/api/after");
	CU_ASSERT_EQUAL(fcgi_answer(&p.c, "ok", 2), 0);
	waitpid(pid, NULL, 0);
	struct records rs;
	read_records(p.web, 0, &rs);
	size_t at = 0;
	CU_ASSERT(is_answer(&rs, &at, 1, "Status: 400\r\n\r\n"));
	CU_ASSERT(is_answer(&rs, &at, 2, "ok"));
	CU_ASSERT(rs.eof);
	records_free(&rs);
	close_pair(&p);

	/* Too many pairs, each small. */
	open_pair(&p);
	strbuf_reset(&b);
	struct strbuf params = STRBUF_INIT;
	for (int i = 0; i <= FCGI_PARAMS_MAX_COUNT; i++)
		add_pair(&params, "A", "", false);
	add_begin(&b, 1, FCGI_RESPONDER, 0);
	for (size_t at2 = 0; at2 < params.len; at2 += FCGI_MAX_CONTENT) {
		size_t part = params.len - at2 < FCGI_MAX_CONTENT ? params.len - at2 : FCGI_MAX_CONTENT;
		add_record(&b, FCGI_PARAMS, 1, params.ptr + at2, part, 0);
	}
	add_record(&b, FCGI_PARAMS, 1, "", 0, 0);
	add_record(&b, FCGI_STDIN, 1, "", 0, 0);
	write_all(p.web, b.ptr, b.len);
	CU_ASSERT_EQUAL_FATAL(fcgi_next_request(&p.c), 1);
	CU_ASSERT_EQUAL(p.c.bad, FCGI_BAD_TOO_LARGE);
	CU_ASSERT_EQUAL(env_count(p.c.env), 0);
	close_pair(&p);

	/* A pair whose value length runs past the stream. */
	open_pair(&p);
	strbuf_reset(&b);
	add_begin(&b, 1, FCGI_RESPONDER, 0);
	add_record(&b, FCGI_PARAMS, 1, "\x01\x85" "AB", 4, 0);
	add_record(&b, FCGI_PARAMS, 1, "", 0, 0);
	add_record(&b, FCGI_STDIN, 1, "", 0, 0);
	write_all(p.web, b.ptr, b.len);
	CU_ASSERT_EQUAL_FATAL(fcgi_next_request(&p.c), 1);
	CU_ASSERT_EQUAL(p.c.bad, FCGI_BAD_MALFORMED);
	CU_ASSERT_EQUAL(env_count(p.c.env), 0);
	close_pair(&p);

	/* Pairs that cannot be CGI variables: a NUL, '=' in a name, no name. */
	const char *not_cgi[] = {"\x03\x01" "A\0BC", "\x01\x03" "Ab\0c", "\x03\x01" "A=BC",
	                         "\x00\x01" "x"};
	const size_t not_cgi_len[] = {6, 6, 6, 3};
	for (size_t i = 0; i < 4; i++) {
		open_pair(&p);
		strbuf_reset(&b);
		add_begin(&b, 1, FCGI_RESPONDER, 0);
		add_record(&b, FCGI_PARAMS, 1, not_cgi[i], not_cgi_len[i], 0);
		add_record(&b, FCGI_PARAMS, 1, "", 0, 0);
		add_record(&b, FCGI_STDIN, 1, "", 0, 0);
		write_all(p.web, b.ptr, b.len);
		CU_ASSERT_EQUAL_FATAL(fcgi_next_request(&p.c), 1);
		CU_ASSERT_EQUAL(p.c.bad, FCGI_BAD_MALFORMED);
		CU_ASSERT_EQUAL(env_count(p.c.env), 0);
		close_pair(&p);
	}
	strbuf_release(&params);
	strbuf_release(&b);
	free(chunk);
}

static void test_second_begin(void)
{
	struct pair p;
	open_pair(&p);
	struct strbuf params = STRBUF_INIT, b = STRBUF_INIT;
	add_pair(&params, "REQUEST_URI", "/api/one", false);
	add_begin(&b, 1, FCGI_RESPONDER, 0);
	add_record(&b, FCGI_PARAMS, 1, params.ptr, params.len, 0);
	add_begin(&b, 2, FCGI_RESPONDER, FCGI_KEEP_CONN);
	/* Records for the refused request, or any other, are ignored. */
	add_record(&b, FCGI_PARAMS, 2, params.ptr, params.len, 0);
	add_record(&b, FCGI_STDIN, 7, "", 0, 0);
	add_record(&b, FCGI_PARAMS, 1, "", 0, 0);
	add_record(&b, FCGI_STDIN, 1, "", 0, 0);
	write_all(p.web, b.ptr, b.len);
	CU_ASSERT_EQUAL_FATAL(fcgi_next_request(&p.c), 1);
	CU_ASSERT_EQUAL_FATAL(env_count(p.c.env), 1);
	CU_ASSERT_STRING_EQUAL(p.c.env[0], "REQUEST_URI=/api/one");
	CU_ASSERT_EQUAL(fcgi_answer(&p.c, "one", 3), 0);
	struct records rs;
	read_records(p.web, 0, &rs);
	CU_ASSERT_FATAL(rs.n >= 1);
	CU_ASSERT(is_end_request(&rs.r[0], 2, FCGI_CANT_MPX_CONN));
	size_t at = 1;
	CU_ASSERT(is_answer(&rs, &at, 1, "one"));
	CU_ASSERT_EQUAL(at, rs.n);
	CU_ASSERT(rs.eof);
	records_free(&rs);
	strbuf_release(&params);
	strbuf_release(&b);
	close_pair(&p);
}

static void test_roles_and_abort(void)
{
	/* Another role, keeping the connection: refused, the next one read. */
	struct pair p;
	open_pair(&p);
	struct strbuf b = STRBUF_INIT;
	add_begin(&b, 4, FCGI_AUTHORIZER, FCGI_KEEP_CONN);
	add_request(&b, 5, 0, "/api/ping");
	write_all(p.web, b.ptr, b.len);
	CU_ASSERT_EQUAL_FATAL(fcgi_next_request(&p.c), 1);
	CU_ASSERT_EQUAL(p.c.id, 5);
	CU_ASSERT_EQUAL(fcgi_answer(&p.c, "x", 1), 0);
	struct records rs;
	read_records(p.web, 0, &rs);
	CU_ASSERT_FATAL(rs.n >= 1);
	CU_ASSERT(is_end_request(&rs.r[0], 4, FCGI_UNKNOWN_ROLE));
	size_t at = 1;
	CU_ASSERT(is_answer(&rs, &at, 5, "x"));
	records_free(&rs);
	close_pair(&p);

	/* Another role, not keeping it: refused, then closed. */
	open_pair(&p);
	strbuf_reset(&b);
	add_begin(&b, 4, FCGI_FILTER, 0);
	write_all(p.web, b.ptr, b.len);
	CU_ASSERT_EQUAL(fcgi_next_request(&p.c), 0);
	read_records(p.web, 0, &rs);
	CU_ASSERT_EQUAL_FATAL(rs.n, 1);
	CU_ASSERT(is_end_request(&rs.r[0], 4, FCGI_UNKNOWN_ROLE));
	CU_ASSERT(rs.eof);
	records_free(&rs);
	close_pair(&p);

	/* ABORT_REQUEST before the request was whole: ended, never handed over. */
	open_pair(&p);
	strbuf_reset(&b);
	add_begin(&b, 6, FCGI_RESPONDER, 0);
	add_record(&b, FCGI_PARAMS, 6, "\1\1AB", 4, 0);
	add_record(&b, FCGI_ABORT_REQUEST, 6, "", 0, 0);
	write_all(p.web, b.ptr, b.len);
	CU_ASSERT_EQUAL(fcgi_next_request(&p.c), 0);
	read_records(p.web, 0, &rs);
	CU_ASSERT_EQUAL_FATAL(rs.n, 1);
	CU_ASSERT(is_end_request(&rs.r[0], 6, FCGI_REQUEST_COMPLETE));
	CU_ASSERT(rs.eof);
	records_free(&rs);
	close_pair(&p);

	/* A record of another version: the framing is lost, closed at once. */
	open_pair(&p);
	strbuf_reset(&b);
	add_request(&b, 1, 0, "/api/ping");
	b.ptr[0] = 2;
	write_all(p.web, b.ptr, b.len);
	CU_ASSERT_EQUAL(fcgi_next_request(&p.c), 0);
	read_records(p.web, 0, &rs);
	CU_ASSERT_EQUAL(rs.n, 0);
	close_pair(&p);
	strbuf_release(&b);
}

static void test_padding(void)
{
	struct pair p;
	open_pair(&p);
	struct strbuf params = STRBUF_INIT, b = STRBUF_INIT;
	add_pair(&params, "REQUEST_URI", "/api/padded", false);
	unsigned char body[8] = {0, FCGI_RESPONDER, 0};
	add_record(&b, FCGI_BEGIN_REQUEST, 1, body, 8, 3);
	add_record(&b, FCGI_PARAMS, 1, params.ptr, params.len, 255);
	add_record(&b, FCGI_PARAMS, 1, "", 0, 7);
	add_record(&b, FCGI_STDIN, 1, "ignored", 7, 1);
	add_record(&b, FCGI_STDIN, 1, "", 0, 0);
	write_all(p.web, b.ptr, b.len);
	CU_ASSERT_EQUAL_FATAL(fcgi_next_request(&p.c), 1);
	CU_ASSERT_EQUAL_FATAL(env_count(p.c.env), 1);
	CU_ASSERT_STRING_EQUAL(p.c.env[0], "REQUEST_URI=/api/padded");
	strbuf_release(&params);
	strbuf_release(&b);
	close_pair(&p);
}

/* The parser fed one byte at a time, then the same through a socket that
 * a child writes byte by byte: the same request either way. */
static void test_byte_by_byte(void)
{
	struct strbuf params = STRBUF_INIT, b = STRBUF_INIT;
	add_pair(&params, "REQUEST_URI", "/api/slow", false);
	add_pair(&params, "HTTP_HOST", "h.example", true);
	add_begin(&b, 300, FCGI_RESPONDER, FCGI_KEEP_CONN);
	add_record(&b, FCGI_PARAMS, 300, params.ptr, params.len, 2);
	add_record(&b, FCGI_PARAMS, 300, "", 0, 0);
	add_record(&b, FCGI_STDIN, 300, "", 0, 0);

	struct fcgi_conn c;
	fcgi_conn_init(&c, -1, NULL);
	for (size_t i = 0; i < b.len; i++) {
		fcgi_feed(&c, b.ptr + i, 1);
		CU_ASSERT_EQUAL(fcgi_parse(&c), i + 1 < b.len ? FCGI_PARSE_MORE : FCGI_PARSE_REQUEST);
	}
	CU_ASSERT_EQUAL_FATAL(env_count(c.env), 2);
	CU_ASSERT_STRING_EQUAL(c.env[0], "REQUEST_URI=/api/slow");
	CU_ASSERT_STRING_EQUAL(c.env[1], "HTTP_HOST=h.example");
	CU_ASSERT_EQUAL(c.id, 300);
	CU_ASSERT_TRUE(c.keep_conn);
	fcgi_conn_free(&c);

	struct pair p;
	open_pair(&p);
	pid_t pid = write_in_child(p.web, &b, true);
	CU_ASSERT_EQUAL_FATAL(fcgi_next_request(&p.c), 1);
	waitpid(pid, NULL, 0);
	CU_ASSERT_EQUAL_FATAL(env_count(p.c.env), 2);
	CU_ASSERT_STRING_EQUAL(p.c.env[0], "REQUEST_URI=/api/slow");
	CU_ASSERT_STRING_EQUAL(p.c.env[1], "HTTP_HOST=h.example");
	close_pair(&p);
	strbuf_release(&params);
	strbuf_release(&b);
}

/* An answer of several records, more than the socket holds at once: sent
 * whole, in order, by a responder in a child while the test reads. */
static void test_large_answer(void)
{
	struct pair p;
	open_pair(&p);
	size_t len = 3 * FCGI_MAX_CONTENT + 1000;
	char *answer = malloc(len + 1);
	for (size_t i = 0; i < len; i++)
		answer[i] = (char)('a' + i % 26);
	answer[len] = '\0';
	struct strbuf b = STRBUF_INIT;
	add_request(&b, 1, 0, "/api/big");
	write_all(p.web, b.ptr, b.len);
	pid_t pid = fork();
	if (pid == 0) {
		close(p.web);
		_exit(fcgi_next_request(&p.c) == 1 && fcgi_answer(&p.c, answer, len) == 0 ? 0 : 1);
	}
	fcgi_close(&p.c);
	struct records rs;
	read_records(p.web, 0, &rs);
	int status;
	waitpid(pid, &status, 0);
	CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	CU_ASSERT_EQUAL(rs.n, 6); /* 4 with content, the empty one, the end */
	size_t at = 0;
	CU_ASSERT(is_answer(&rs, &at, 1, answer));
	CU_ASSERT(rs.eof);
	records_free(&rs);
	free(answer);
	strbuf_release(&b);
	close_pair(&p);
}

/* A web server gone before the answer: an error, never a SIGPIPE. */
static void test_web_server_gone(void)
{
	struct pair p;
	open_pair(&p);
	struct strbuf b = STRBUF_INIT;
	add_request(&b, 1, 0, "/api/ping");
	write_all(p.web, b.ptr, b.len);
	CU_ASSERT_EQUAL_FATAL(fcgi_next_request(&p.c), 1);
	close(p.web);
	p.web = -1;
	CU_ASSERT_EQUAL(fcgi_answer(&p.c, "late", 4), -1);
	CU_ASSERT(errno == EPIPE || errno == ECONNRESET);
	CU_ASSERT_FALSE(fcgi_connected(&p.c));
	close_pair(&p);

	/* One that stalls, reading nothing of an answer larger than the
	 * socket holds: given up after the timeout. */
	open_pair(&p);
	p.c.timeout_ms = 100;
	write_all(p.web, b.ptr, b.len);
	CU_ASSERT_EQUAL_FATAL(fcgi_next_request(&p.c), 1);
	size_t len = 8 << 20;
	char *big = calloc(1, len);
	CU_ASSERT_EQUAL(fcgi_answer(&p.c, big, len), -1);
	CU_ASSERT_EQUAL(errno, ETIMEDOUT);
	CU_ASSERT_FALSE(fcgi_connected(&p.c));
	free(big);
	strbuf_release(&b);
	close_pair(&p);
}

/* --- time: a whole request within request_ms --------------------------- */

/* Writes b to p's web server end from a child: after first_ms, a byte
 * every pause_ms, or with pause_ms 0 all at once (byte by byte, a loaded
 * machine could stretch a request that should arrive at once past a
 * bound). The child exits 0 when it wrote every byte, 1 when the
 * responder closed the connection on it first. */
static pid_t dribble_in_child(const struct pair *p, const struct strbuf *b, long first_ms,
                              long pause_ms)
{
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	close(p->c.fd); /* the responder's end is the responder's alone */
	int fd = p->web;
	signal(SIGPIPE, SIG_IGN);
	struct timespec first = {first_ms / 1000, (first_ms % 1000) * 1000000L};
	nanosleep(&first, NULL);
	for (size_t off = 0; off < b->len;) {
		ssize_t n = write(fd, b->ptr + off, pause_ms > 0 ? 1 : b->len - off);
		if (n <= 0)
			_exit(1);
		off += (size_t)n;
		struct timespec pause = {pause_ms / 1000, (pause_ms % 1000) * 1000000L};
		nanosleep(&pause, NULL);
	}
	_exit(0);
}

static int exit_status(pid_t pid)
{
	int status;
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
		return -1;
	return WEXITSTATUS(status);
}

/* A request sent a byte every 20 ms (well over a second in all) is cut
 * off at request_ms, however long the wait between two bytes is allowed
 * to be: the bound is on the whole request, not on each read. A peer that
 * sends nothing is cut off alike. */
static void test_request_bound(void)
{
	struct strbuf b = STRBUF_INIT;
	add_request(&b, 1, 0, "/api/collections/blog/entries?slowly=1");
	CU_ASSERT_FATAL(b.len * 20 >= 1500);
	struct pair p;
	open_pair(&p);
	p.c.request_ms = 200;
	pid_t pid = dribble_in_child(&p, &b, 0, 20);
	CU_ASSERT_EQUAL(fcgi_next_request(&p.c), 0);
	CU_ASSERT_FALSE(fcgi_connected(&p.c));
	fcgi_conn_free(&p.c);
	CU_ASSERT_EQUAL(exit_status(pid), 1); /* cut off before it finished */
	close(p.web);

	open_pair(&p);
	p.c.request_ms = 100;
	CU_ASSERT_EQUAL(fcgi_next_request(&p.c), 0);
	CU_ASSERT_FALSE(fcgi_connected(&p.c));
	close_pair(&p);
	strbuf_release(&b);
}

/* On a kept connection the bound starts at the next request's first byte:
 * the time it stayed idle is not the request's. */
static void test_request_bound_after_idle(void)
{
	struct strbuf b = STRBUF_INIT;
	add_request(&b, 1, FCGI_KEEP_CONN, "/api/ping");
	struct pair p;
	open_pair(&p);
	p.c.request_ms = 500;
	write_all(p.web, b.ptr, b.len);
	CU_ASSERT_EQUAL_FATAL(fcgi_next_request(&p.c), 1);
	CU_ASSERT_EQUAL(fcgi_answer(&p.c, "x", 1), 0);
	struct records rs;
	read_records(p.web, 1, &rs);
	records_free(&rs);
	/* Idle four times the bound, then the request at once. */
	pid_t pid = dribble_in_child(&p, &b, 2000, 0);
	CU_ASSERT_EQUAL(fcgi_next_request(&p.c), 1);
	CU_ASSERT_TRUE(fcgi_connected(&p.c));
	CU_ASSERT_EQUAL(exit_status(pid), 0);
	close_pair(&p);
	strbuf_release(&b);
}

/* A peer that asks GET_VALUES over and over and reads none of the
 * answers is held no longer than one that sends slowly: the answers are
 * sent by the request's deadline. The responder runs in a child that
 * SIGALRM ends after 10 s, a stall bound fifty times the request's. */
static void test_unread_answers_are_bounded(void)
{
	struct pair p;
	open_pair(&p);
	p.c.request_ms = 200;
	int small = 4096;
	setsockopt(p.c.fd, SOL_SOCKET, SO_SNDBUF, &small, sizeof small);
	struct strbuf ask = STRBUF_INIT, b = STRBUF_INIT;
	add_pair(&ask, "FCGI_MAX_CONNS", "", false);
	add_pair(&ask, "FCGI_MAX_REQS", "", false);
	add_pair(&ask, "FCGI_MPXS_CONNS", "", false);
	for (int i = 0; i < 4000; i++)
		add_record(&b, FCGI_GET_VALUES, 0, ask.ptr, ask.len, 0);
	pid_t writer = dribble_in_child(&p, &b, 0, 0);
	pid_t responder = fork();
	if (responder == 0) {
		alarm(10);
		_exit(fcgi_next_request(&p.c) == 0 && !fcgi_connected(&p.c) ? 0 : 1);
	}
	CU_ASSERT_EQUAL(exit_status(responder), 0);
	fcgi_conn_free(&p.c);
	kill(writer, SIGKILL); /* it may wait to write the rest */
	waitpid(writer, NULL, 0);
	close(p.web);
	strbuf_release(&ask);
	strbuf_release(&b);
}

/* A TCP listening socket on 127.0.0.1 and a client connected to it. */
static int tcp_listener(int *client)
{
	struct sockaddr_in sa = {0};
	socklen_t len = sizeof sa;
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	int l = socket(AF_INET, SOCK_STREAM, 0);
	CU_ASSERT_FATAL(l >= 0 && bind(l, (struct sockaddr *)&sa, sizeof sa) == 0 &&
	                listen(l, 4) == 0 && getsockname(l, (struct sockaddr *)&sa, &len) == 0);
	*client = socket(AF_INET, SOCK_STREAM, 0);
	CU_ASSERT_FATAL(connect(*client, (struct sockaddr *)&sa, sizeof sa) == 0);
	struct timeval tv = {5, 0};
	setsockopt(*client, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
	return l;
}

/* Idle kept connections are given up first: one idle after its answer
 * yields at once to a connection waiting on the listening socket, long
 * before its idle time (60 s here) is over. The responder runs in a child
 * that SIGALRM ends after 10 s, a stall bound. */
static void test_idle_kept_connection_yields(void)
{
	int web, l = tcp_listener(&web);
	struct fcgi_conn c;
	fcgi_conn_init(&c, l, NULL);
	CU_ASSERT_EQUAL_FATAL(fcgi_accept(&c), 0);
	c.timeout_ms = 60000;
	struct strbuf b = STRBUF_INIT;
	add_request(&b, 1, FCGI_KEEP_CONN, "/api/ping");
	write_all(web, b.ptr, b.len);
	CU_ASSERT_EQUAL_FATAL(fcgi_next_request(&c), 1);
	CU_ASSERT_EQUAL(fcgi_answer(&c, "x", 1), 0);
	CU_ASSERT_TRUE(fcgi_connected(&c));
	struct records rs;
	read_records(web, 1, &rs);
	records_free(&rs);
	struct sockaddr_in sa;
	socklen_t len = sizeof sa;
	CU_ASSERT_FATAL(getsockname(l, (struct sockaddr *)&sa, &len) == 0);
	int waiting = socket(AF_INET, SOCK_STREAM, 0);
	CU_ASSERT_FATAL(connect(waiting, (struct sockaddr *)&sa, sizeof sa) == 0);
	pid_t responder = fork();
	if (responder == 0) {
		alarm(10);
		_exit(fcgi_next_request(&c) == 0 && !fcgi_connected(&c) ? 0 : 1);
	}
	CU_ASSERT_EQUAL(exit_status(responder), 0);
	fcgi_conn_free(&c);
	close(waiting);
	close(web);
	close(l);
	strbuf_release(&b);
}

/* FCGI_WEB_SERVER_ADDRS keeps other TCP peers out. */
static void test_allowed_peers(void)
{
	const char *lists[] = {"", "10.0.0.1, ::ffff:127.0.0.1", "127.0.0.0/8", "10.0.0.1",
	                       "not-an-address"};
	const bool let_in[] = {true, true, true, false, false};
	for (size_t i = 0; i < sizeof lists / sizeof *lists; i++) {
		int client, l = tcp_listener(&client);
		struct fcgi_conn c;
		fcgi_conn_init(&c, l, NULL);
		fcgi_allow_peers(&c, lists[i]);
		int rc = fcgi_accept(&c);
		if (let_in[i]) {
			CU_ASSERT_EQUAL(rc, 0);
			CU_ASSERT_TRUE(fcgi_connected(&c));
		} else {
			CU_ASSERT(rc == -1 && errno == ECONNABORTED);
			CU_ASSERT_FALSE(fcgi_connected(&c));
			char byte;
			CU_ASSERT_EQUAL(read(client, &byte, 1), 0); /* closed on it */
		}
		fcgi_conn_free(&c);
		close(client);
		close(l);
	}
}

/* In a child: a worker whose stop flag was set just before it began to
 * wait for a connection (its SIGTERM landed between the look at the flag
 * and accept), with none coming. Exits 0 when the wait gave up, EAGAIN. */
static void wait_with_stop_set(int l)
{
	static volatile sig_atomic_t stop;
	stop = 1;
	struct fcgi_conn c;
	fcgi_conn_init(&c, l, &stop);
	int rc = fcgi_accept(&c);
	_exit(rc == -1 && errno == EAGAIN ? 0 : 1);
}

/* lighttpd sends one SIGTERM when it stops: a worker that got it just
 * before accept() must not wait there for ever, orphaned. The wait gives
 * up within FCGI_STOP_CHECK_MS; the test allows it 5 s, then kills it. */
static void test_stop_before_accept(void)
{
	struct sockaddr_in sa = {0};
	sa.sin_family = AF_INET;
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	int l = socket(AF_INET, SOCK_STREAM, 0);
	CU_ASSERT_FATAL(l >= 0 && bind(l, (struct sockaddr *)&sa, sizeof sa) == 0 &&
	                listen(l, 4) == 0);
	pid_t pid = fork();
	if (pid == 0)
		wait_with_stop_set(l);
	int status = -1;
	pid_t done = 0;
	for (int i = 0; i < 500 && done == 0; i++) {
		done = waitpid(pid, &status, WNOHANG);
		if (done == 0)
			usleep(10000);
	}
	if (done == 0) {
		kill(pid, SIGKILL);
		waitpid(pid, &status, 0);
	}
	CU_ASSERT_EQUAL(done, pid);
	CU_ASSERT(WIFEXITED(status) && WEXITSTATUS(status) == 0);
	close(l);
}

void suite_fcgi(void)
{
	CU_pSuite s = unit_add_suite("fcgi");
	unit_add_test(s, "params of both length forms", test_params_both_forms);
	unit_add_test(s, "stdin read and ignored", test_stdin_ignored);
	unit_add_test(s, "two requests on a kept connection", test_keep_conn);
	unit_add_test(s, "a stop ends an idle kept connection", test_stop_when_idle);
	unit_add_test(s, "GET_VALUES and unknown types", test_get_values);
	unit_add_test(s, "GET_VALUES answered with the request", test_get_values_with_request);
	unit_add_test(s, "a truncated record", test_truncated);
	unit_add_test(s, "params too large or malformed", test_params_too_large);
	unit_add_test(s, "a second BEGIN_REQUEST", test_second_begin);
	unit_add_test(s, "other roles, ABORT_REQUEST, a bad version", test_roles_and_abort);
	unit_add_test(s, "padding", test_padding);
	unit_add_test(s, "a request byte by byte", test_byte_by_byte);
	unit_add_test(s, "an answer of several records", test_large_answer);
	unit_add_test(s, "the web server gone or stalled", test_web_server_gone);
	unit_add_test(s, "FCGI_WEB_SERVER_ADDRS", test_allowed_peers);
	unit_add_test(s, "a whole request within request_ms, however it is sent",
	              test_request_bound);
	unit_add_test(s, "a kept connection's idle time is not its request's",
	              test_request_bound_after_idle);
	unit_add_test(s, "answers a peer does not read are bounded alike",
	              test_unread_answers_are_bounded);
	unit_add_test(s, "an idle kept connection yields to a waiting one",
	              test_idle_kept_connection_yields);
	unit_add_test(s, "a stop just before accept is seen", test_stop_before_accept);
}
