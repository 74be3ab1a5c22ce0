/* error: a failure's status and message; see error.h. */
#include "autoconfig.h"

#include "http/error.h"

void http_error_clear(struct http_error *e)
{
	e->status = 0;
	strbuf_reset(&e->message);
}

void http_error_free(struct http_error *e)
{
	strbuf_release(&e->message);
	e->status = 0;
}

int http_error_vset(struct http_error *e, int status, const char *fmt, va_list ap)
{
	http_error_clear(e);
	e->status = status;
	strbuf_vaddf(&e->message, fmt, ap);
	return status;
}

int http_error_set(struct http_error *e, int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	http_error_vset(e, status, fmt, ap);
	va_end(ap);
	return status;
}

int http_error_not_found(struct http_error *e)
{
	return http_error_set(e, 404, "Not found.");
}

int http_error_server(struct http_error *e)
{
	return http_error_set(e, 500, "Server Error");
}
