/*
 * response: a status, headers and a body, rendered in memory so that the
 * whole answer can be sent in one write, measured for Content-Length, and
 * (later) stored in the cache after the request is finished.
 *
 * Every error the API sends goes through response_error(), so each status
 * has exactly one body shape: {"message":"..."} as application/json; the
 * app calls it in one place (app_answer_error), for a failure reported
 * up to it (http/error.h).
 *
 * A request gets exactly one answer: a response takes one status and one
 * body, through response_begin() or response_error(). A second of either
 * is a programming error (a handler that answered and carried on): it is
 * logged as one, the response becomes a 500 "Server Error" whatever was
 * written, and anything written afterwards is thrown away, so that data
 * the first answer refused can never follow it out.
 *
 * An answer may go out in another form than its body (http_cache.h
 * chooses): as the gzip copy a stored answer brings along, or as a 304
 * without a body. The response still holds the answer itself, status 200
 * and body, so that the answer is what the cache stores.
 */
#ifndef CMS_API_RESPONSE_H
#define CMS_API_RESPONSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/strbuf.h"

#define RESPONSE_MAX_HEADERS 16

struct header {
	char *name, *value; /* owned */
};

enum response_state {
	RESPONSE_OPEN,     /* no answer chosen yet */
	RESPONSE_ANSWERED, /* one status and body chosen */
	RESPONSE_BROKEN,   /* a second answer was attempted: sent as a 500 */
};

/* How an answered response goes out. */
enum response_form {
	RESPONSE_FORM_BODY,         /* status, headers, body */
	RESPONSE_FORM_GZIP,         /* the gzip copy in place of the body */
	RESPONSE_FORM_NOT_MODIFIED, /* 304: the headers without Content-Type, no body */
};

struct response {
	int status;
	struct header headers[RESPONSE_MAX_HEADERS];
	size_t nheaders;
	struct strbuf body;
	enum response_state state;
	struct strbuf discard; /* where writes after a refused answer go */
	/* HTTP caching: what a stored answer brings along (cache_entry.h)
	 * and how the answer goes out (http_cache.h). */
	bool has_etag;
	uint64_t etag;          /* the body's hash, when has_etag (response_body_hash) */
	struct strbuf gzip;     /* the body gzip-compressed when it was stored; empty: none */
	long long expires;      /* a stored answer: when it expires (epoch seconds); else 0 */
	enum response_form form;
};

void response_init(struct response *res);
void response_free(struct response *res);
/* Clears status, headers and body for reuse: the response is open again. */
void response_reset(struct response *res);

/* Sets a header, replacing one of the same name (case-insensitive). */
void response_set_header(struct response *res, const char *name, const char *value);
const char *response_header(const struct response *res, const char *name);

/* Chooses the answer: status, a Content-Type (none when NULL), and the body
 * the caller then writes into the returned buffer. On a response already
 * answered it is a programming error (see above) and the buffer returned
 * is one whose contents are never sent. */
struct strbuf *response_begin(struct response *res, int status, const char *content_type);

/* Makes res the error answer for status with body {"message": message}; a
 * programming error on a response already answered. */
void response_error(struct response *res, int status, const char *message);

/* Whether an answer has been chosen (or refused). */
bool response_answered(const struct response *res);

/* The status and the body length that response_render sends for res
 * (500 and its body for a response left open or broken; 304 and 0 for
 * one that goes out not modified; the gzip copy's length for one that
 * goes out compressed). */
int response_sent_status(const struct response *res);
size_t response_sent_body_length(const struct response *res);

/* The hash of res's body that its strong ETag is made of (XXH3, 64 bits):
 * res->etag when it has one, else computed. */
uint64_t response_body_hash(const struct response *res);

/* The reason phrase of a status ("Not Found"). */
const char *status_reason(int status);

/* Renders res as CGI output ("Status: ...", the headers, Content-Length,
 * a blank line, the body) into out, each line ended by eol ("\r\n" for a
 * web server, "\n" for a terminal), in its form: the gzip copy in place
 * of the body, or a 304 without Content-Type, Content-Length or body.
 * With include_body false the body is left out (HEAD) but Content-Length
 * still states the size a GET gets. A broken response renders as the 500
 * answer, an open one as a 500 too (a handler that answered nothing is as
 * much a bug). */
void response_render(const struct response *res, bool include_body, const char *eol,
                     struct strbuf *out);

#endif
