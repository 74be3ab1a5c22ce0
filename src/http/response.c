/* response: in-memory HTTP answers; see response.h. */
#include "autoconfig.h"

#include "http/response.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <xxhash.h>

#include "core/log.h"
#include "lib/jsonw.h"

#define SERVER_ERROR_BODY "{\"message\":\"Server Error\"}"

void response_init(struct response *res)
{
	memset(res, 0, sizeof *res);
	res->status = 200;
}

static void free_headers(struct response *res)
{
	for (size_t i = 0; i < res->nheaders; i++) {
		free(res->headers[i].name);
		free(res->headers[i].value);
	}
	res->nheaders = 0;
}

void response_free(struct response *res)
{
	free_headers(res);
	strbuf_release(&res->body);
	strbuf_release(&res->discard);
	strbuf_release(&res->gzip);
}

/* Forgets what went with the body: its hash, its gzip copy, its form. */
static void forget_caching(struct response *res)
{
	strbuf_reset(&res->gzip);
	res->has_etag = false;
	res->etag = 0;
	res->expires = 0;
	res->form = RESPONSE_FORM_BODY;
}

void response_reset(struct response *res)
{
	free_headers(res);
	strbuf_reset(&res->body);
	strbuf_reset(&res->discard);
	forget_caching(res);
	res->status = 200;
	res->state = RESPONSE_OPEN;
}

bool response_answered(const struct response *res)
{
	return res->state != RESPONSE_OPEN;
}

/* A second answer: the first may have been a refusal (a 404 for a
 * disabled resource) that the data must not follow, so neither is sent. */
static void refuse_second_answer(struct response *res, int status)
{
	if (res->state == RESPONSE_ANSWERED)
		log_error("programming error: a second answer (%d) after the first (%d); "
		          "sending 500 instead of both",
		          status, res->status);
	res->state = RESPONSE_BROKEN;
	res->status = 500;
	free_headers(res);
	strbuf_reset(&res->body);
	strbuf_reset(&res->discard);
	forget_caching(res);
}

void response_set_header(struct response *res, const char *name, const char *value)
{
	if (res->state == RESPONSE_BROKEN)
		return;
	for (size_t i = 0; i < res->nheaders; i++) {
		if (strcasecmp(res->headers[i].name, name) == 0) {
			free(res->headers[i].value);
			res->headers[i].value = xstrdup(value);
			return;
		}
	}
	/* The header set is fixed by the code, never by the request, so
	 * running out of slots is a programming error. */
	if (res->nheaders == RESPONSE_MAX_HEADERS)
		abort();
	res->headers[res->nheaders].name = xstrdup(name);
	res->headers[res->nheaders].value = xstrdup(value);
	res->nheaders++;
}

const char *response_header(const struct response *res, const char *name)
{
	for (size_t i = 0; i < res->nheaders; i++)
		if (strcasecmp(res->headers[i].name, name) == 0)
			return res->headers[i].value;
	return NULL;
}

struct strbuf *response_begin(struct response *res, int status, const char *content_type)
{
	if (res->state != RESPONSE_OPEN) {
		refuse_second_answer(res, status);
		return &res->discard;
	}
	res->state = RESPONSE_ANSWERED;
	res->status = status;
	if (content_type)
		response_set_header(res, "Content-Type", content_type);
	return &res->body;
}

void response_error(struct response *res, int status, const char *message)
{
	struct strbuf *body = response_begin(res, status, "application/json");
	struct jsonw w;
	jsonw_init(&w, body);
	jsonw_object_begin(&w);
	jsonw_keyz(&w, "message");
	jsonw_stringz(&w, message);
	jsonw_object_end(&w);
}

const char *status_reason(int status)
{
	switch (status) {
	case 200: return "OK";
	case 204: return "No Content";
	case 304: return "Not Modified";
	case 400: return "Bad Request";
	case 401: return "Unauthorized";
	case 403: return "Forbidden";
	case 404: return "Not Found";
	case 405: return "Method Not Allowed";
	case 410: return "Gone";
	case 422: return "Unprocessable Content";
	case 429: return "Too Many Requests";
	case 500: return "Internal Server Error";
	case 503: return "Service Unavailable";
	default: return "Unknown";
	}
}

uint64_t response_body_hash(const struct response *res)
{
	if (res->has_etag)
		return res->etag;
	return XXH3_64bits(res->body.ptr ? res->body.ptr : "", res->body.len);
}

int response_sent_status(const struct response *res)
{
	if (res->state != RESPONSE_ANSWERED)
		return 500;
	return res->form == RESPONSE_FORM_NOT_MODIFIED ? 304 : res->status;
}

/* What goes out after the headers (the empty buffer for a 304). */
static const struct strbuf *sent_body(const struct response *res)
{
	static const struct strbuf none = STRBUF_INIT;
	switch (res->form) {
	case RESPONSE_FORM_GZIP: return &res->gzip;
	case RESPONSE_FORM_NOT_MODIFIED: return &none;
	case RESPONSE_FORM_BODY: break;
	}
	return &res->body;
}

size_t response_sent_body_length(const struct response *res)
{
	return res->state == RESPONSE_ANSWERED ? sent_body(res)->len : sizeof SERVER_ERROR_BODY - 1;
}

/* The answer sent for a response no handler answered properly. */
static void render_server_error(bool include_body, const char *eol, struct strbuf *out)
{
	strbuf_addf(out, "Status: 500 %s%sContent-Type: application/json%s", status_reason(500), eol,
	            eol);
	strbuf_addf(out, "Content-Length: %zu%s%s", sizeof SERVER_ERROR_BODY - 1, eol, eol);
	if (include_body)
		strbuf_addstr(out, SERVER_ERROR_BODY);
}

void response_render(const struct response *res, bool include_body, const char *eol,
                     struct strbuf *out)
{
	if (res->state != RESPONSE_ANSWERED) {
		if (res->state == RESPONSE_OPEN)
			log_error("programming error: a request was left without an answer; sending 500");
		render_server_error(include_body, eol, out);
		return;
	}
	int status = response_sent_status(res);
	strbuf_addf(out, "Status: %d %s%s", status, status_reason(status), eol);
	for (size_t i = 0; i < res->nheaders; i++) {
		/* A 304 leaves out what describes the body it does not send
		 * (RFC 9110 §15.4.5); ETag, Cache-Control and Vary stay. A
		 * 204 has no body either (§15.3.5), nor Content-Length
		 * (§8.6). */
		if (status == 304 && strcasecmp(res->headers[i].name, "Content-Type") == 0)
			continue;
		strbuf_addf(out, "%s: %s%s", res->headers[i].name, res->headers[i].value, eol);
	}
	if (status == 304 || status == 204) {
		strbuf_addstr(out, eol);
		return;
	}
	const struct strbuf *body = sent_body(res);
	strbuf_addf(out, "Content-Length: %zu%s%s", body->len, eol, eol);
	if (include_body)
		strbuf_add(out, body->ptr ? body->ptr : "", body->len);
}
