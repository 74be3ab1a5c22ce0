/* Unit tests: responses (http/response.h): one answer per request, the
 * headers, the error bodies, and the forms an answer is rendered in. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <xxhash.h>

#include "app/app.h"
#include "core/log.h"
#include "http/error.h"
#include "http/response.h"
#include "lib/strbuf.h"
#include "unit.h"

#define SERVER_ERROR "{\"message\":\"Server Error\"}"

/* --- the log, where programming errors are told ------------------------- */

static char *log_dir;

static void log_to_file(void)
{
	char path[600];
	log_dir = unit_tempdir();
	snprintf(path, sizeof path, "%s/log", log_dir);
	log_open(path, LOG_LEVEL_WARNING);
}

/* Back to stderr; returns what was logged meanwhile (the caller frees). */
static char *logged(void)
{
	char path[600];
	log_open("stderr", LOG_LEVEL_WARNING);
	snprintf(path, sizeof path, "%s/log", log_dir);
	char *text = unit_read_file(path, "");
	unit_rmtree(log_dir);
	free(log_dir);
	log_dir = NULL;
	return text;
}

static int lines_in(const char *text)
{
	int n = 0;
	for (; *text; text++)
		n += *text == '\n';
	return n;
}

/* res rendered, as a string (bodies here hold no NUL). */
static char *rendered(const struct response *res, bool include_body, const char *eol)
{
	struct strbuf out = STRBUF_INIT;
	response_render(res, include_body, eol, &out);
	return strbuf_detach(&out, NULL);
}

/* --- one answer ------------------------------------------------------------ */

static void test_error_bodies(void)
{
	struct response r;
	response_init(&r);
	response_error(&r, 500, "Server Error");
	CU_ASSERT_EQUAL(r.status, 500);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&r.body), "{\"message\":\"Server Error\"}");
	response_reset(&r);
	response_error(&r, 400, "limit must be a positive integer, not \"x/y\"");
	CU_ASSERT_STRING_EQUAL(strbuf_str(&r.body),
	                       "{\"message\":\"limit must be a positive integer, not \\\"x\\/y\\\"\"}");
	struct strbuf out = STRBUF_INIT;
	response_render(&r, false, "\r\n", &out);
	CU_ASSERT_STRING_EQUAL(out.ptr, "Status: 400 Bad Request\r\nContent-Type: application/json\r\n"
	                                "Content-Length: 60\r\n\r\n");
	strbuf_release(&out);
	response_free(&r);
}

/* The fixed errors of spec §5, each with its own header if it has one, as
 * the pipeline's one writer of errors (app_answer_error) makes them. */
static void test_fixed_errors(void)
{
	struct response r;
	struct http_error e = HTTP_ERROR_INIT;
	response_init(&r);
	http_error_not_found(&e);
	app_answer_error(&r, &e);
	CU_ASSERT_EQUAL(r.status, 404);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&r.body), "{\"message\":\"Not found.\"}");
	CU_ASSERT_STRING_EQUAL(response_header(&r, "Content-Type"), "application/json");
	CU_ASSERT_EQUAL(r.nheaders, 1);
	response_reset(&r);
	http_error_set(&e, 405, "Method Not Allowed.");
	app_answer_error(&r, &e);
	CU_ASSERT_EQUAL(r.status, 405);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&r.body), "{\"message\":\"Method Not Allowed.\"}");
	CU_ASSERT_STRING_EQUAL(response_header(&r, "Allow"), "GET, HEAD");
	CU_ASSERT_STRING_EQUAL(response_header(&r, "Content-Type"), "application/json");
	response_reset(&r);
	response_error(&r, 422, "Forbidden filter: title");
	CU_ASSERT_EQUAL(r.status, 422);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&r.body), "{\"message\":\"Forbidden filter: title\"}");
	CU_ASSERT_PTR_NULL(response_header(&r, "Allow"));
	response_free(&r);
	http_error_free(&e);
}

/* One answer per request: a second one (a handler that answered 404 and
 * went on to write data) turns the whole response into a 500, and nothing
 * of either answer, nor anything written afterwards, is sent. */
static void test_a_second_answer_is_refused(void)
{
	/* The log says so, as a programming error. */
	char *dir = unit_tempdir();
	char log_path[512];
	snprintf(log_path, sizeof log_path, "%s/log", dir);
	log_open(log_path, LOG_LEVEL_WARNING);
	struct response r;
	response_init(&r);
	CU_ASSERT_FALSE(response_answered(&r));
	response_error(&r, 404, "Not found.");
	CU_ASSERT_EQUAL(r.state, RESPONSE_ANSWERED);
	struct strbuf *body = response_begin(&r, 200, "application/json");
	strbuf_addstr(body, "{\"data\":\"secret\"}");
	CU_ASSERT_EQUAL(r.state, RESPONSE_BROKEN);
	CU_ASSERT_EQUAL(r.status, 500);
	response_error(&r, 422, "again");
	response_set_header(&r, "X-Late", "1");
	struct strbuf out = STRBUF_INIT;
	response_render(&r, true, "\n", &out);
	CU_ASSERT_STRING_EQUAL(out.ptr, "Status: 500 Internal Server Error\nContent-Type: application/json\n"
	                                "Content-Length: 26\n\n{\"message\":\"Server Error\"}");
	CU_ASSERT_PTR_NULL(strstr(out.ptr, "secret"));
	CU_ASSERT_PTR_NULL(strstr(out.ptr, "Not found"));
	strbuf_release(&out);
	/* Reset, the response takes an answer again. */
	response_reset(&r);
	response_error(&r, 404, "Not found.");
	CU_ASSERT_EQUAL(r.status, 404);
	response_free(&r);
	log_open("stderr", LOG_LEVEL_WARNING);
	FILE *f = fopen(log_path, "r");
	char line[512] = "";
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof line, f));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "programming error: a second answer (200) after the first (404)"));
	CU_ASSERT_PTR_NULL(fgets(line, sizeof line, f)); /* once, not for each later write */
	fclose(f);
	unit_rmtree(dir);
	free(dir);
}

/* The other orders of the same mistake: data, then an error; an error,
 * then another. What the first answer set (headers, the caching of a
 * stored answer) goes with it. */
static void test_a_second_answer_in_any_order(void)
{
	log_to_file();
	struct response r;
	response_init(&r);
	struct strbuf *body = response_begin(&r, 200, "application/json");
	strbuf_addstr(body, "{\"data\":\"first\"}");
	response_set_header(&r, "X-First", "1");
	r.has_etag = true;
	r.etag = 42;
	strbuf_addstr(&r.gzip, "gz");
	r.form = RESPONSE_FORM_NOT_MODIFIED;
	response_error(&r, 404, "Not found.");
	CU_ASSERT_TRUE(response_answered(&r));
	CU_ASSERT_EQUAL(r.state, RESPONSE_BROKEN);
	CU_ASSERT_EQUAL(r.status, 500);
	CU_ASSERT_EQUAL(r.body.len, 0);
	CU_ASSERT_PTR_NULL(response_header(&r, "X-First"));
	CU_ASSERT_FALSE(r.has_etag);
	CU_ASSERT_EQUAL(r.gzip.len, 0);
	CU_ASSERT_EQUAL(response_sent_status(&r), 500);
	CU_ASSERT_EQUAL(response_sent_body_length(&r), strlen(SERVER_ERROR));
	/* What a third answer gets is thrown away, and not told again. */
	struct strbuf *third = response_begin(&r, 200, "text/plain");
	CU_ASSERT_PTR_NOT_NULL_FATAL(third);
	CU_ASSERT_PTR_NOT_EQUAL(third, &r.body);
	strbuf_addstr(third, "late");
	CU_ASSERT_EQUAL(r.body.len, 0);
	CU_ASSERT_PTR_NULL(response_header(&r, "Content-Type"));
	response_set_header(&r, "X-Late", "1");
	CU_ASSERT_PTR_NULL(response_header(&r, "X-Late"));
	char *out = rendered(&r, true, "\r\n");
	CU_ASSERT_STRING_EQUAL(out, "Status: 500 Internal Server Error\r\n"
	                            "Content-Type: application/json\r\nContent-Length: 26\r\n\r\n"
	                            SERVER_ERROR);
	free(out);
	response_free(&r);
	char *log = logged();
	CU_ASSERT_EQUAL(lines_in(log), 1);
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "a second answer (404) after the first (200)"));
	free(log);

	/* Two errors. */
	log_to_file();
	response_init(&r);
	response_error(&r, 404, "Not found.");
	response_error(&r, 400, "limit");
	CU_ASSERT_EQUAL(response_sent_status(&r), 500);
	out = rendered(&r, true, "\n");
	CU_ASSERT_PTR_NULL(strstr(out, "Not found"));
	CU_ASSERT_PTR_NULL(strstr(out, "limit"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out, SERVER_ERROR));
	free(out);
	response_free(&r);
	log = logged();
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "a second answer (400) after the first (404)"));
	free(log);
}

/* A handler that answered nothing is as much a bug: a logged 500. */
static void test_an_open_response_renders_as_500(void)
{
	log_to_file();
	struct response r;
	response_init(&r);
	response_set_header(&r, "X-Before", "1");
	strbuf_addstr(&r.body, "not chosen");
	CU_ASSERT_FALSE(response_answered(&r));
	CU_ASSERT_EQUAL(response_sent_status(&r), 500);
	CU_ASSERT_EQUAL(response_sent_body_length(&r), strlen(SERVER_ERROR));
	char *get = rendered(&r, true, "\r\n"), *head = rendered(&r, false, "\r\n");
	CU_ASSERT_STRING_EQUAL(get, "Status: 500 Internal Server Error\r\n"
	                            "Content-Type: application/json\r\nContent-Length: 26\r\n\r\n"
	                            SERVER_ERROR);
	CU_ASSERT_STRING_EQUAL(head, "Status: 500 Internal Server Error\r\n"
	                             "Content-Type: application/json\r\nContent-Length: 26\r\n\r\n");
	free(get);
	free(head);
	response_free(&r);
	char *log = logged();
	CU_ASSERT_PTR_NOT_NULL(strstr(log, "programming error: a request was left without an answer"));
	free(log);
}

/* --- headers --------------------------------------------------------------- */

static void test_headers_replace_case_insensitively(void)
{
	struct response r;
	response_init(&r);
	CU_ASSERT_PTR_NULL(response_header(&r, "X-A"));
	response_set_header(&r, "X-A", "1");
	response_set_header(&r, "x-a", "2");
	response_set_header(&r, "X-B", "3");
	CU_ASSERT_EQUAL(r.nheaders, 2);
	CU_ASSERT_STRING_EQUAL(response_header(&r, "X-A"), "2");
	CU_ASSERT_STRING_EQUAL(response_header(&r, "x-A"), "2");
	CU_ASSERT_STRING_EQUAL(response_header(&r, "X-b"), "3");
	CU_ASSERT_PTR_NULL(response_header(&r, "X-"));
	CU_ASSERT_PTR_NULL(response_header(&r, "X-AB"));
	/* The answer's Content-Type replaces one set before, in any case. */
	response_set_header(&r, "content-type", "text/plain");
	CU_ASSERT_PTR_NOT_NULL(response_begin(&r, 200, "application/json"));
	CU_ASSERT_EQUAL(r.nheaders, 3);
	CU_ASSERT_STRING_EQUAL(response_header(&r, "Content-Type"), "application/json");
	/* Headers set after the answer are kept; the value is copied. */
	char value[] = "later";
	response_set_header(&r, "X-C", value);
	value[0] = 'L';
	CU_ASSERT_STRING_EQUAL(response_header(&r, "x-c"), "later");
	char *out = rendered(&r, true, "\n");
	CU_ASSERT_PTR_NOT_NULL(strstr(out, ": 2\n"));
	CU_ASSERT_PTR_NULL(strstr(out, ": 1\n"));
	CU_ASSERT_PTR_NULL(strstr(out, "text/plain"));
	free(out);
	response_free(&r);
}

/* An answer without a Content-Type has none. */
static void test_no_content_type(void)
{
	struct response r;
	response_init(&r);
	strbuf_addstr(response_begin(&r, 200, NULL), "x");
	CU_ASSERT_PTR_NULL(response_header(&r, "Content-Type"));
	char *out = rendered(&r, true, "\n");
	CU_ASSERT_STRING_EQUAL(out, "Status: 200 OK\nContent-Length: 1\n\nx");
	free(out);
	response_free(&r);
}

/* --- rendering -------------------------------------------------------------- */

static void answer_ping(struct response *r)
{
	response_init(r);
	strbuf_addstr(response_begin(r, 200, "application/json"), "{\"ping\":\"pong\"}");
	response_set_header(r, "ETag", "\"abc\"");
	response_set_header(r, "Cache-Control", "max-age=60");
	response_set_header(r, "Vary", "Accept-Encoding");
}

static void test_render_body_and_head(void)
{
	struct response r;
	answer_ping(&r);
	char *get = rendered(&r, true, "\r\n"), *head = rendered(&r, false, "\r\n");
	CU_ASSERT_STRING_EQUAL(get, "Status: 200 OK\r\nContent-Type: application/json\r\n"
	                            "ETag: \"abc\"\r\nCache-Control: max-age=60\r\n"
	                            "Vary: Accept-Encoding\r\nContent-Length: 15\r\n\r\n"
	                            "{\"ping\":\"pong\"}");
	/* HEAD: the same head, Content-Length included, and no body. */
	CU_ASSERT_EQUAL(strlen(head), strlen(get) - 15);
	CU_ASSERT_EQUAL(strncmp(head, get, strlen(head)), 0);
	CU_ASSERT_EQUAL(response_sent_status(&r), 200);
	CU_ASSERT_EQUAL(response_sent_body_length(&r), 15);
	free(get);
	free(head);
	/* A terminal's line ends. */
	get = rendered(&r, true, "\n");
	CU_ASSERT_PTR_NOT_NULL(strstr(get, "Status: 200 OK\nContent-Type: application/json\n"));
	CU_ASSERT_PTR_NULL(strchr(get, '\r'));
	free(get);
	response_free(&r);
}

/* The body is bytes: a NUL in it is sent and counted. */
static void test_render_binary_body(void)
{
	struct response r;
	response_init(&r);
	strbuf_add(response_begin(&r, 404, "application/octet-stream"), "a\0b", 3);
	struct strbuf out = STRBUF_INIT;
	response_render(&r, true, "\n", &out);
	static const char want[] = "Status: 404 Not Found\nContent-Type: application/octet-stream\n"
	                           "Content-Length: 3\n\na\0b";
	CU_ASSERT_EQUAL(out.len, sizeof want - 1);
	CU_ASSERT_EQUAL(memcmp(out.ptr, want, sizeof want - 1), 0);
	/* Rendering appends. */
	response_render(&r, false, "\n", &out);
	CU_ASSERT_EQUAL(out.len, 2 * (sizeof want - 1) - 3);
	strbuf_release(&out);
	response_free(&r);
}

/* A 304 leaves out what describes the body it does not send; the
 * response still holds the answer (status 200 and body). */
static void test_render_not_modified(void)
{
	struct response r;
	answer_ping(&r);
	r.form = RESPONSE_FORM_NOT_MODIFIED;
	CU_ASSERT_EQUAL(response_sent_status(&r), 304);
	CU_ASSERT_EQUAL(response_sent_body_length(&r), 0);
	static const char want[] = "Status: 304 Not Modified\r\nETag: \"abc\"\r\n"
	                           "Cache-Control: max-age=60\r\nVary: Accept-Encoding\r\n\r\n";
	char *get = rendered(&r, true, "\r\n"), *head = rendered(&r, false, "\r\n");
	CU_ASSERT_STRING_EQUAL(get, want);
	CU_ASSERT_STRING_EQUAL(head, want);
	free(get);
	free(head);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&r.body), "{\"ping\":\"pong\"}");
	response_free(&r);
}

/* The gzip copy goes out in place of the body, and is what is counted. */
static void test_render_gzip(void)
{
	struct response r;
	answer_ping(&r);
	strbuf_add(&r.gzip, "\x1f\x8b\x08\0zz", 6);
	r.form = RESPONSE_FORM_GZIP;
	CU_ASSERT_EQUAL(response_sent_status(&r), 200);
	CU_ASSERT_EQUAL(response_sent_body_length(&r), 6);
	struct strbuf get = STRBUF_INIT;
	response_render(&r, true, "\n", &get);
	static const char head[] = "Status: 200 OK\nContent-Type: application/json\nETag: \"abc\"\n"
	                           "Cache-Control: max-age=60\nVary: Accept-Encoding\n"
	                           "Content-Length: 6\n\n";
	CU_ASSERT_EQUAL(get.len, sizeof head - 1 + 6);
	CU_ASSERT_EQUAL(memcmp(get.ptr, head, sizeof head - 1), 0);
	CU_ASSERT_EQUAL(memcmp(get.ptr + sizeof head - 1, "\x1f\x8b\x08\0zz", 6), 0);
	char *h = rendered(&r, false, "\n");
	CU_ASSERT_STRING_EQUAL(h, head);
	free(h);
	/* The body itself stays what the cache stores. */
	CU_ASSERT_STRING_EQUAL(strbuf_str(&r.body), "{\"ping\":\"pong\"}");
	strbuf_release(&get);
	response_free(&r);
}

static void test_status_reason(void)
{
	static const struct {
		int status;
		const char *reason;
	} reasons[] = {
		{200, "OK"}, {304, "Not Modified"}, {400, "Bad Request"}, {401, "Unauthorized"},
		{403, "Forbidden"}, {404, "Not Found"}, {405, "Method Not Allowed"},
		{422, "Unprocessable Content"}, {429, "Too Many Requests"},
		{500, "Internal Server Error"}, {503, "Service Unavailable"},
	};
	for (size_t i = 0; i < sizeof reasons / sizeof reasons[0]; i++)
		CU_ASSERT_STRING_EQUAL(status_reason(reasons[i].status), reasons[i].reason);
	/* Any other status still makes a whole status line. */
	CU_ASSERT_PTR_NOT_NULL_FATAL(status_reason(418));
	CU_ASSERT(strlen(status_reason(418)) > 0);
	CU_ASSERT_PTR_NOT_NULL_FATAL(status_reason(-1));
	struct response r;
	response_init(&r);
	response_error(&r, 429, "Too Many Attempts.");
	char *out = rendered(&r, false, "\n");
	CU_ASSERT_EQUAL(strncmp(out, "Status: 429 Too Many Requests\n", 30), 0);
	free(out);
	response_free(&r);
}

/* --- the body's hash and reuse --------------------------------------------- */

static void test_body_hash(void)
{
	struct response a, b;
	response_init(&a);
	response_init(&b);
	/* No body yet: the hash of no bytes. */
	CU_ASSERT_EQUAL(response_body_hash(&a), XXH3_64bits("", 0));
	strbuf_addstr(response_begin(&a, 200, "application/json"), "{\"a\":1}");
	strbuf_addstr(response_begin(&b, 404, "text/plain"), "{\"a\":1}");
	CU_ASSERT_EQUAL(response_body_hash(&a), XXH3_64bits("{\"a\":1}", 7));
	/* The body's alone: not the status, not the headers. */
	CU_ASSERT_EQUAL(response_body_hash(&a), response_body_hash(&b));
	strbuf_addch(&b.body, ' ');
	CU_ASSERT_NOT_EQUAL(response_body_hash(&a), response_body_hash(&b));
	/* A stored answer's hash is taken as it came. */
	a.has_etag = true;
	a.etag = 0x0123456789abcdefULL;
	CU_ASSERT_EQUAL(response_body_hash(&a), 0x0123456789abcdefULL);
	response_free(&a);
	response_free(&b);
}

static void test_reset(void)
{
	struct response r;
	answer_ping(&r);
	strbuf_addstr(&r.gzip, "gz");
	r.has_etag = true;
	r.etag = 7;
	r.expires = 1000;
	r.form = RESPONSE_FORM_GZIP;
	response_reset(&r);
	CU_ASSERT_FALSE(response_answered(&r));
	CU_ASSERT_EQUAL(r.state, RESPONSE_OPEN);
	CU_ASSERT_EQUAL(r.status, 200);
	CU_ASSERT_EQUAL(r.nheaders, 0);
	CU_ASSERT_PTR_NULL(response_header(&r, "ETag"));
	CU_ASSERT_EQUAL(r.body.len, 0);
	CU_ASSERT_EQUAL(r.gzip.len, 0);
	CU_ASSERT_FALSE(r.has_etag);
	CU_ASSERT_EQUAL(r.expires, 0);
	CU_ASSERT_EQUAL(r.form, RESPONSE_FORM_BODY);
	/* Open again: one answer, rendered as it is. */
	response_error(&r, 404, "Not found.");
	char *out = rendered(&r, true, "\n");
	CU_ASSERT_STRING_EQUAL(out, "Status: 404 Not Found\nContent-Type: application/json\n"
	                            "Content-Length: 24\n\n{\"message\":\"Not found.\"}");
	free(out);
	response_free(&r);
}

void suite_response(void)
{
	CU_pSuite s = unit_add_suite("response");
	unit_add_test(s, "error bodies", test_error_bodies);
	unit_add_test(s, "fixed errors", test_fixed_errors);
	unit_add_test(s, "a second answer is refused", test_a_second_answer_is_refused);
	unit_add_test(s, "a second answer in any order", test_a_second_answer_in_any_order);
	unit_add_test(s, "an open response renders as 500", test_an_open_response_renders_as_500);
	unit_add_test(s, "headers replace case-insensitively", test_headers_replace_case_insensitively);
	unit_add_test(s, "no Content-Type", test_no_content_type);
	unit_add_test(s, "render: body and HEAD", test_render_body_and_head);
	unit_add_test(s, "render: a binary body", test_render_binary_body);
	unit_add_test(s, "render: 304", test_render_not_modified);
	unit_add_test(s, "render: gzip", test_render_gzip);
	unit_add_test(s, "status reasons", test_status_reason);
	unit_add_test(s, "body hash", test_body_hash);
	unit_add_test(s, "reset", test_reset);
}
