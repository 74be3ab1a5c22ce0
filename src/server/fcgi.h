/*
 * fcgi: the responder side of FastCGI (the 1996 specification, version 1),
 * one connection and one request at a time, written for the fewest system
 * calls per answer: a request is read into one buffer with as few reads as
 * the web server's writes allow (usually one), and its whole answer goes
 * out in one writev: every STDOUT record's header and a slice of the
 * rendered answer, the empty STDOUT record and END_REQUEST.
 *
 * What it answers:
 *  - BEGIN_REQUEST with the RESPONDER role starts a request; any other
 *    role is refused with END_REQUEST(FCGI_UNKNOWN_ROLE), and a second
 *    BEGIN_REQUEST while one is open with END_REQUEST(FCGI_CANT_MPX_CONN)
 *    (the open one goes on).
 *  - PARAMS, up to the empty record, give the request's CGI variables, as
 *    a "NAME=value" list (names and values of either length form). More
 *    than FCGI_PARAMS_MAX bytes, more than FCGI_PARAMS_MAX_COUNT pairs, or
 *    a pair that is no CGI variable (lengths that run past the stream, a
 *    NUL byte, an empty name or one with '='), make the request "bad"
 *    (struct fcgi_conn.bad): it is still read to its end, so that the
 *    connection stays in step, and the caller answers it with an error.
 *  - STDIN is read to its empty record and thrown away (cms-api answers
 *    GET and HEAD); DATA is ignored; ABORT_REQUEST ends the open request
 *    with END_REQUEST and no answer.
 *  - GET_VALUES gets GET_VALUES_RESULT (FCGI_MAX_CONNS 1, FCGI_MAX_REQS 1,
 *    FCGI_MPXS_CONNS 0; names it does not know are left out); a record of
 *    a type the specification does not define, or any management record
 *    (request id 0) but GET_VALUES, gets UNKNOWN_TYPE. Records of a known
 *    type for a request that is not open are ignored, as the
 *    specification says.
 *  - Anything that breaks the record framing (a version other than 1, a
 *    BEGIN_REQUEST body of the wrong size, STDIN before the end of PARAMS)
 *    closes the connection, logged as a warning.
 *
 * Connections. The answer ends the connection unless the web server set
 * FCGI_KEEP_CONN (nginx with fastcgi_keep_conn on); a kept connection is
 * then read for the next request. While it is idle, a connection waiting
 * on the listening socket wins: the kept one is closed (the web server
 * opens another when it needs one; nginx takes a closed idle connection
 * in its stride) and the new one accepted, so that idle kept connections
 * are given up first and can never hold every worker while requests
 * wait. A kept connection idle for timeout_ms is closed too.
 *
 * Time. Every wait on a connection is bounded, so that a stalled or
 * hostile peer cannot hold a worker for long:
 *  - a request must arrive whole within request_ms
 *    (FCGI_REQUEST_TIMEOUT_MS unless changed), counted from the accept on
 *    a new connection and from its first byte on a kept one: a bound on
 *    the whole request, not on each read, so that a peer sending a byte at
 *    a time is cut off as soon as one sending nothing. A web server writes
 *    its request at once (the body too: every one of them reads it whole
 *    before it connects), so the bound is a few seconds, far above what a
 *    web server needs and far below what would let a few slow peers hold
 *    every worker of a pool;
 *  - the web server must take some of an answer every timeout_ms
 *    (FCGI_TIMEOUT_MS; Apache passes an answer on to the client as it
 *    reads it, as fast as a slow client takes it), and a kept connection
 *    may stay idle that long.
 * A connection that runs out of time is closed, and logged unless it was
 * idle.
 *
 * Signals. A read or write interrupted by a signal (EINTR) is retried: a
 * signal never drops a request. The one exception is *stop (the caller's
 * stop flag, set by its SIGTERM handler): set while a kept connection is
 * idle, before any byte of a next request came, it ends the connection, so
 * that the worker can stop. A freshly accepted connection is never idle in
 * that sense: the web server connected to send a request, which is read
 * and answered first.
 *
 * A stop signal may land after the caller looked at its flag and before
 * the wait it then begins (accept, or an idle kept connection's poll):
 * its handler sets the flag, and nothing interrupts the wait. lighttpd
 * sends its workers one SIGTERM when it stops, and such a worker would
 * wait in accept() for ever, its parent gone. So with a stop flag, no wait
 * lasts more than FCGI_STOP_CHECK_MS: a stop is honoured within that.
 *
 * A web server that went away (EPIPE, ECONNRESET) is logged at info, and
 * the connection closed; the worker goes on.
 *
 * Peers. FCGI_WEB_SERVER_ADDRS, as libfcgi read it, restricts who may
 * connect over TCP (see fcgi_allow_peers); connections on a unix socket
 * are for its file's permissions to allow.
 */
#ifndef CMS_API_FCGI_H
#define CMS_API_FCGI_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "lib/netaddr.h"
#include "lib/strbuf.h"

/* The protocol's numbers (specification, section 8). */
enum {
	FCGI_VERSION_1 = 1,
	FCGI_HEADER_LEN = 8,
	FCGI_MAX_CONTENT = 65535,
};
enum fcgi_type {
	FCGI_BEGIN_REQUEST = 1,
	FCGI_ABORT_REQUEST = 2,
	FCGI_END_REQUEST = 3,
	FCGI_PARAMS = 4,
	FCGI_STDIN = 5,
	FCGI_STDOUT = 6,
	FCGI_STDERR = 7,
	FCGI_DATA = 8,
	FCGI_GET_VALUES = 9,
	FCGI_GET_VALUES_RESULT = 10,
	FCGI_UNKNOWN_TYPE = 11,
};
enum { FCGI_KEEP_CONN = 1 };
enum { FCGI_RESPONDER = 1, FCGI_AUTHORIZER = 2, FCGI_FILTER = 3 };
enum {
	FCGI_REQUEST_COMPLETE = 0,
	FCGI_CANT_MPX_CONN = 1,
	FCGI_OVERLOADED = 2,
	FCGI_UNKNOWN_ROLE = 3,
};

/* Bounds of one request's PARAMS: above every web server's own limit on
 * request headers (Apache's, the largest by default, is 100 fields of
 * 8 KB), far below what would hurt a worker. */
#define FCGI_PARAMS_MAX (1024 * 1024)
#define FCGI_PARAMS_MAX_COUNT 10000

#define FCGI_TIMEOUT_MS 30000
#define FCGI_REQUEST_TIMEOUT_MS 5000

/* The read buffer's first size; it grows to hold the largest record. */
#define FCGI_BUFFER_SIZE (16 * 1024)

/* What is wrong with a request that was read whole. */
enum fcgi_bad {
	FCGI_BAD_NONE,
	FCGI_BAD_TOO_LARGE, /* PARAMS over FCGI_PARAMS_MAX or FCGI_PARAMS_MAX_COUNT */
	FCGI_BAD_MALFORMED, /* a name-value pair runs past the end of PARAMS, or
	                     * cannot be a CGI variable (an empty name, a name
	                     * with '=', a NUL byte) */
};

enum fcgi_phase {
	FCGI_IDLE,   /* no request open */
	FCGI_PARAMS_OPEN, /* BEGIN_REQUEST taken: reading PARAMS */
	FCGI_STDIN_OPEN,  /* PARAMS ended: reading STDIN */
	FCGI_ANSWERING,   /* read whole, handed to the caller: answer it */
};

struct fcgi_conn {
	int fd;          /* the connection, -1 when none */
	int listen_fd;   /* where new connections wait (yielding, see above), -1: none */
	int timeout_ms;  /* FCGI_TIMEOUT_MS: sending, and idle; tests make it shorter */
	int request_ms;  /* FCGI_REQUEST_TIMEOUT_MS: a whole request; tests make it shorter */
	const volatile sig_atomic_t *stop; /* the caller's stop flag, or NULL */
	struct netrange *allowed;  /* owned: the TCP peers let in, when restricted */
	size_t nallowed;
	bool restricted;
	bool accept_bounded; /* listen_fd's accept times out (FCGI_STOP_CHECK_MS) */

	/* The request: valid from fcgi_next_request's 1 until it is answered. */
	char **env;      /* "NAME=value" strings ending in NULL; points into env_text */
	enum fcgi_bad bad;

	/* Internal state, read by the tests. */
	unsigned char *in;         /* owned: bytes read, not yet parsed */
	size_t in_start, in_end, in_cap;
	enum fcgi_phase phase;
	uint16_t id;               /* the open request */
	bool keep_conn;            /* its BEGIN_REQUEST asked to keep the connection */
	bool yield_after;          /* a connection is waiting: do not keep this one */
	unsigned long answered;    /* requests answered on this connection */
	size_t params_len, params_count;
	struct strbuf params;      /* the PARAMS stream of the open request */
	struct strbuf env_text;    /* "NAME=value\0" strings */
	size_t env_cap;
	struct strbuf out;         /* records waiting to be sent (management
	                            * answers, refusals), ahead of the next answer */
	unsigned char *headers;    /* owned: STDOUT headers of an answer */
	size_t headers_cap;
};

/* Prepares c (no connection yet); listen_fd as for struct fcgi_conn. */
void fcgi_conn_init(struct fcgi_conn *c, int listen_fd, const volatile sig_atomic_t *stop);
/* Closes the connection if one is open and frees what c holds. */
void fcgi_conn_free(struct fcgi_conn *c);

/* FCGI_WEB_SERVER_ADDRS: when list (comma-separated addresses, or ranges
 * ADDRESS/BITS) is set and not empty, a TCP connection from any other
 * address is closed as soon as it is accepted, and logged; an IPv4
 * address written as IPv6 is the IPv4 address. An entry that is not an
 * address is logged and lets nobody in. */
void fcgi_allow_peers(struct fcgi_conn *c, const char *list);

/* Whether c has a connection open. */
bool fcgi_connected(const struct fcgi_conn *c);

/* The longest a wait lasts without looking at the stop flag. */
#define FCGI_STOP_CHECK_MS 1000

/* Waits for a connection on c->listen_fd and makes it c's. Returns 0, or
 * -1 with errno (EINTR after a signal, EAGAIN when none came within
 * FCGI_STOP_CHECK_MS and c has a stop flag: the caller looks at its flags
 * and calls again; ECONNABORTED for a peer fcgi_allow_peers keeps out). */
int fcgi_accept(struct fcgi_conn *c);

/* Takes fd (a connected socket, made non-blocking here) as c's connection:
 * what fcgi_accept does with the connection it accepted; for the tests. */
void fcgi_conn_attach(struct fcgi_conn *c, int fd);

/*
 * Reads the next request on c's connection. Returns 1 when one was read
 * whole: c->env and c->bad describe it, and fcgi_answer must follow.
 * Returns 0 when the connection ended instead (closed by the web server,
 * a protocol error, a timeout, a stop while idle, or a waiting connection
 * it yielded to): c has no connection then.
 */
int fcgi_next_request(struct fcgi_conn *c);

/*
 * Sends data[0..len) (a CGI answer: headers, blank line, body) as the
 * request's STDOUT, ends it, then closes the connection unless it is kept.
 * One writev, more only when the socket takes less. Returns 0, or -1 when
 * the web server went away or stalled (logged; the connection is closed).
 */
int fcgi_answer(struct fcgi_conn *c, const char *data, size_t len);

/* Closes c's connection, if any (a kept one, when the worker stops). */
void fcgi_close(struct fcgi_conn *c);

/* --- the record parser, without a socket (tests, fuzzing) ------------------ */

enum fcgi_parsed {
	FCGI_PARSE_MORE,    /* every whole record taken: more bytes are needed */
	FCGI_PARSE_REQUEST, /* a request is read whole (phase FCGI_ANSWERING) */
	FCGI_PARSE_CLOSE,   /* the connection is to be closed once c->out is sent */
	FCGI_PARSE_ERROR,   /* the stream broke the protocol: close it now */
};

/* Appends bytes to c's input, as a read would. */
void fcgi_feed(struct fcgi_conn *c, const void *data, size_t len);

/* Takes the whole records in c's input, queueing any answer they call
 * for in c->out, until a request is whole or more bytes are needed. */
enum fcgi_parsed fcgi_parse(struct fcgi_conn *c);

/* Ends the answered request without sending anything (the parser's side
 * of fcgi_answer): the next request may be parsed. */
void fcgi_request_done(struct fcgi_conn *c);

#endif
