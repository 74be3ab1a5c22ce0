/*
 * error: a failure on its way to its answer (spec §5, DESIGN.md "One
 * answer per request"). Whatever refuses a request or fails to answer it,
 * a handler and every helper it calls as much as the guard, does not write
 * an answer: it puts the status and the message in a struct http_error
 * and returns the status, so that `return http_error_set(e, 404, ...)`
 * ends it. One place, app.c's app_answer_error, makes the error answer of
 * it: {"message": ...} with the headers the status calls for.
 */
#ifndef CMS_API_HTTP_ERROR_H
#define CMS_API_HTTP_ERROR_H

#include <stdarg.h>

#include "lib/strbuf.h"

struct http_error {
	int status;             /* 0 while there is none */
	struct strbuf message;  /* owned */
};

#define HTTP_ERROR_INIT {0, STRBUF_INIT}

/* Forgets the failure e holds, keeping the buffer. */
void http_error_clear(struct http_error *e);
void http_error_free(struct http_error *e);

/* Makes e the failure of status with the message fmt formats (printf), and
 * returns status. */
int http_error_set(struct http_error *e, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int http_error_vset(struct http_error *e, int status, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));

/* The failures whose message spec §5 fixes: 404 "Not found." and 500
 * "Server Error" (whose details go to the log, never to the client). */
int http_error_not_found(struct http_error *e);
int http_error_server(struct http_error *e);

#endif
