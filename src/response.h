/*
 * response: a status, headers and a body, rendered in memory so that the
 * whole answer can be sent in one write, measured for Content-Length, and
 * (later) stored in the cache after the request is finished.
 *
 * Every error the API sends goes through response_error(), so each status
 * has exactly one body shape: {"message":"..."} as application/json.
 */
#ifndef CMS_API_RESPONSE_H
#define CMS_API_RESPONSE_H

#include <stdbool.h>
#include <stddef.h>

#include "strbuf.h"

#define RESPONSE_MAX_HEADERS 16

struct header {
	char *name, *value; /* owned */
};

struct response {
	int status;
	struct header headers[RESPONSE_MAX_HEADERS];
	size_t nheaders;
	struct strbuf body;
};

void response_init(struct response *res);
void response_free(struct response *res);
/* Clears status, headers and body for reuse. */
void response_reset(struct response *res);

/* Sets a header, replacing one of the same name (case-insensitive). */
void response_set_header(struct response *res, const char *name, const char *value);
const char *response_header(const struct response *res, const char *name);

/* Makes res a JSON 200 answer whose body the caller writes into res->body. */
void response_json(struct response *res, int status);

/* Makes res the error answer for status with body {"message": message}. */
void response_error(struct response *res, int status, const char *message);
/* Shorthands for the spec §5 errors with fixed messages. */
void response_not_found(struct response *res);
void response_server_error(struct response *res);
void response_method_not_allowed(struct response *res);

/* The reason phrase of a status ("Not Found"). */
const char *status_reason(int status);

/* Renders res as CGI output ("Status: ...", the headers, Content-Length,
 * a blank line, the body) into out, each line ended by eol ("\r\n" for a
 * web server, "\n" for a terminal). With include_body false the body is
 * left out (HEAD) but Content-Length still states its size. */
void response_render(const struct response *res, bool include_body, const char *eol,
                     struct strbuf *out);

#endif
