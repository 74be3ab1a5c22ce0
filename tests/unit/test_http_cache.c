/* Unit tests: HTTP caching (http_cache.h): ETags, If-None-Match and 304s,
 * Cache-Control, Vary, gzip answers from the stored copy; the request
 * headers they read; and the same through app_handle with a real cache. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "cache/cache_entry.h"
#include "http/http_cache.h"
#include "lib/gzip.h"
#include "unit.h"

static void test_accept_encoding(void)
{
	static const struct {
		const char *header;
		bool gzip;
	} cases[] = {
		{NULL, false},
		{"", false},
		{"gzip", true},
		{"GZip", true},
		{"x-gzip", true},
		{"gzip, deflate, br", true},
		{" deflate ,\tgzip ", true},
		{"deflate, br", false},
		{"identity", false},
		{"gzipx", false},
		{"gzip;q=0", false},
		{"gzip; q=0.000", false},
		{"gzip;q=0.001", true},
		{"gzip;Q=0.5", true},
		{"gzip;q=1.000", true},
		{"gzip;q=1.001", false}, /* not a qvalue: the element says nothing */
		{"gzip;q=2", false},
		{"gzip;q=0.5555", false},
		{"gzip;q=abc", false},
		{"gzip;q=", false},
		{"gzip;level=9", true},
		{"*", true},
		{"*;q=0", false},
		{"deflate, *;q=0.1", true},
		{"gzip;q=0, *", false}, /* gzip named outright counts over "*" */
		{"*, gzip;q=0", false},
		{"br;q=1.0, gzip;q=0.8, *;q=0.1", true},
		{"identity;q=1, gzip;q=0.5", false}, /* identity preferred */
		{"gzip;q=0.5, identity;q=0.5", true},
		{"gzip, identity;q=0", true},
		{"gzip;q=0, gzip", true}, /* named twice: the higher weight */
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		bool got = http_accepts_gzip(cases[i].header);
		CU_ASSERT_EQUAL(got, cases[i].gzip);
		if (got != cases[i].gzip)
			fprintf(stderr, "\nAccept-Encoding: %s -> %d\n", cases[i].header, got);
	}
}

#define HASH 0x0123456789abcdefULL
#define TAG "0123456789abcdef"

static void test_if_none_match(void)
{
	static const struct {
		const char *header;
		unsigned match;
	} cases[] = {
		{NULL, 0},
		{"", 0},
		{"\"" TAG "\"", HTTP_MATCH_IDENTITY},
		{"W/\"" TAG "\"", HTTP_MATCH_IDENTITY}, /* compared weakly */
		{"\"" TAG "-gz\"", HTTP_MATCH_GZIP},
		{"W/\"" TAG "-gz\"", HTTP_MATCH_GZIP},
		{"\"other\", W/\"" TAG "-gz\"", HTTP_MATCH_GZIP},
		{"\"a\",\"b\" ,  \"" TAG "\"", HTTP_MATCH_IDENTITY},
		{"\"" TAG "\", \"" TAG "-gz\"", HTTP_MATCH_IDENTITY | HTTP_MATCH_GZIP},
		{"*", HTTP_MATCH_ANY},
		{" * ", HTTP_MATCH_ANY},
		{"\"0123456789ABCDEF\"", 0}, /* opaque tags compare byte for byte */
		{"\"0123456789abcde\"", 0},
		{"\"" TAG "0\"", 0},
		{"\"" TAG "-gzip\"", 0},
		{"\"" TAG "-GZ\"", 0},
		{TAG, 0},                     /* not quoted */
		{"\"" TAG, 0},                /* never closed */
		{"w/\"" TAG "\"", 0},         /* "W/" is case-sensitive */
		{"\"x,y\", \"" TAG "\"", HTTP_MATCH_IDENTITY}, /* a comma inside a tag */
		{"garbage, \"" TAG "\"", HTTP_MATCH_IDENTITY},
		{"\"other\"", 0},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		unsigned got = http_if_none_match(cases[i].header, HASH);
		CU_ASSERT_EQUAL(got, cases[i].match);
		if (got != cases[i].match)
			fprintf(stderr, "\nIf-None-Match: %s -> %u\n", cases[i].header, got);
	}
	char etag[HTTP_ETAG_SIZE];
	http_etag(HASH, false, etag);
	CU_ASSERT_STRING_EQUAL(etag, "\"" TAG "\"");
	http_etag(HASH, true, etag);
	CU_ASSERT_STRING_EQUAL(etag, "\"" TAG "-gz\"");
	http_etag(1, false, etag);
	CU_ASSERT_STRING_EQUAL(etag, "\"0000000000000001\"");
}

/* A request with these two headers (NULL: absent). */
static void make_request(struct request *req, const char *if_none_match,
                         const char *accept_encoding)
{
	request_from_uri(req, "GET", "/api/x");
	req->if_none_match = if_none_match ? xstrdup(if_none_match) : NULL;
	req->accept_encoding = accept_encoding ? xstrdup(accept_encoding) : NULL;
}

/* res rendered for a GET (or a HEAD), "\n" line ends. */
static char *rendered(const struct response *res, bool body)
{
	struct strbuf out = STRBUF_INIT;
	response_render(res, body, "\n", &out);
	return strbuf_detach(&out, NULL);
}

/* A 200 of body, as a stored answer brings it (with its gzip copy). */
static void stored_answer(struct response *res, const char *body)
{
	struct response made;
	response_init(&made);
	strbuf_addstr(response_begin(&made, 200, "application/json"), body);
	struct strbuf e = STRBUF_INIT;
	cache_entry_encode("k", 1000, &made, &e);
	CU_ASSERT_EQUAL_FATAL(cache_entry_decode(e.ptr, e.len, "k", 10, res), 0);
	strbuf_release(&e);
	response_free(&made);
}

static const struct http_cache_policy public_stored = {true, 3600, false};

static void test_answer_headers(void)
{
	struct request req;
	struct response res;
	response_init(&res);
	strbuf_addstr(response_begin(&res, 200, "application/json"), "{\"ping\":\"pong\"}");
	make_request(&req, NULL, "gzip");
	http_cache_answer(&public_stored, &req, &res);
	char etag[HTTP_ETAG_SIZE], want[512];
	http_etag(response_body_hash(&res), false, etag);
	/* No gzip copy (not stored): the body as it is, whatever is accepted. */
	snprintf(want, sizeof want, "Status: 200 OK\nContent-Type: application/json\nETag: %s\n"
	         "Cache-Control: public, max-age=3600\nVary: Accept-Encoding\n"
	         "Content-Length: 15\n\n{\"ping\":\"pong\"}", etag);
	char *out = rendered(&res, true);
	CU_ASSERT_STRING_EQUAL(out, want);
	free(out);
	request_free(&req);

	/* The 304: no Content-Type, no Content-Length, no body; a HEAD the same. */
	char inm[64];
	snprintf(inm, sizeof inm, "\"nope\", %s", etag);
	make_request(&req, inm, NULL);
	http_cache_answer(&public_stored, &req, &res);
	snprintf(want, sizeof want, "Status: 304 Not Modified\nETag: %s\n"
	         "Cache-Control: public, max-age=3600\nVary: Accept-Encoding\n\n", etag);
	out = rendered(&res, true);
	CU_ASSERT_STRING_EQUAL(out, want);
	free(out);
	out = rendered(&res, false);
	CU_ASSERT_STRING_EQUAL(out, want);
	free(out);
	CU_ASSERT_EQUAL(response_sent_status(&res), 304);
	CU_ASSERT_EQUAL(response_sent_body_length(&res), 0);
	CU_ASSERT_EQUAL(res.status, 200); /* the answer itself, for the cache */
	request_free(&req);
	response_free(&res);
}

/* The policies: public or private, stored or not; errors get no ETag. */
static void test_cache_control_and_vary(void)
{
	static const struct {
		struct http_cache_policy policy;
		int status;
		const char *cache_control, *vary;
	} cases[] = {
		{{true, 3600, false}, 200, "public, max-age=3600", "Accept-Encoding"},
		{{true, 59, false}, 200, "public, max-age=59", "Accept-Encoding"},
		{{true, -3, false}, 200, "public, max-age=0", "Accept-Encoding"},
		{{true, 600, true}, 200, "private, max-age=600", "Accept-Encoding, Authorization"},
		{{false, 600, false}, 200, "no-cache", "Accept-Encoding"},
		{{false, 600, true}, 200, "private, no-cache", "Accept-Encoding, Authorization"},
		{{true, 600, false}, 404, "public, max-age=600", "Accept-Encoding"},
		{{false, 600, false}, 404, "no-cache", "Accept-Encoding"},
		{{true, 600, false}, 400, "no-cache", "Accept-Encoding"},
		{{true, 600, true}, 401, "private, no-cache", "Accept-Encoding, Authorization"},
		{{true, 600, false}, 429, "no-cache", "Accept-Encoding"},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct request req;
		struct response res;
		response_init(&res);
		if (cases[i].status == 200)
			strbuf_addstr(response_begin(&res, 200, "application/json"), "{}");
		else
			response_error(&res, cases[i].status, "x");
		make_request(&req, "*", "gzip");
		http_cache_answer(&cases[i].policy, &req, &res);
		CU_ASSERT_STRING_EQUAL(response_header(&res, "Cache-Control"), cases[i].cache_control);
		CU_ASSERT_STRING_EQUAL(response_header(&res, "Vary"), cases[i].vary);
		bool ok = cases[i].status == 200;
		CU_ASSERT_EQUAL(response_header(&res, "ETag") != NULL, ok);
		/* "*" makes a 304 of a 200 only. */
		CU_ASSERT_EQUAL(response_sent_status(&res), ok ? 304 : cases[i].status);
		request_free(&req);
		response_free(&res);
	}
	/* A response no handler answered goes out as the fixed 500. */
	struct request req;
	struct response res;
	response_init(&res);
	make_request(&req, NULL, NULL);
	http_cache_answer(&public_stored, &req, &res);
	CU_ASSERT_EQUAL(res.nheaders, 0);
	request_free(&req);
	response_free(&res);
}

/* A stored answer goes out as its gzip copy to a client that accepts it,
 * with its own ETag; HEAD states the copy's length; If-None-Match of
 * either form gives a 304 naming the form the client holds. */
static void test_gzip_from_the_stored_copy(void)
{
	struct strbuf body = STRBUF_INIT;
	strbuf_addstr(&body, "{\"data\":[");
	for (int i = 0; i < 40; i++)
		strbuf_addf(&body, "%s{\"title\":\"Entry %d\"}", i ? "," : "", i);
	strbuf_addstr(&body, "]}");
	struct response res;
	struct request req;
	response_init(&res);
	stored_answer(&res, body.ptr);
	CU_ASSERT_FATAL(res.gzip.len > 0);
	char id[HTTP_ETAG_SIZE], gz[HTTP_ETAG_SIZE];
	http_etag(res.etag, false, id);
	http_etag(res.etag, true, gz);
	CU_ASSERT_STRING_NOT_EQUAL(id, gz);

	make_request(&req, NULL, "deflate, gzip");
	http_cache_answer(&public_stored, &req, &res);
	CU_ASSERT_EQUAL(res.form, RESPONSE_FORM_GZIP);
	CU_ASSERT_STRING_EQUAL(response_header(&res, "Content-Encoding"), "gzip");
	CU_ASSERT_STRING_EQUAL(response_header(&res, "ETag"), gz);
	CU_ASSERT_EQUAL(response_sent_body_length(&res), res.gzip.len);
	char *out = rendered(&res, true);
	char want_length[64];
	snprintf(want_length, sizeof want_length, "\nContent-Length: %zu\n\n", res.gzip.len);
	char *at = strstr(out, want_length);
	CU_ASSERT_PTR_NOT_NULL_FATAL(at);
	at += strlen(want_length);
	struct strbuf plain = STRBUF_INIT;
	CU_ASSERT_EQUAL(gzip_decompress(at, res.gzip.len, &plain), 0);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&plain), body.ptr);
	free(out);
	out = rendered(&res, false); /* HEAD: the same headers, no body */
	CU_ASSERT_PTR_NOT_NULL(strstr(out, want_length));
	CU_ASSERT_EQUAL(strlen(out), (size_t)(strstr(out, want_length) - out) + strlen(want_length));
	free(out);
	request_free(&req);

	/* Without gzip accepted: the body, its own ETag. */
	response_reset(&res);
	stored_answer(&res, body.ptr);
	make_request(&req, NULL, "gzip;q=0, *");
	http_cache_answer(&public_stored, &req, &res);
	CU_ASSERT_EQUAL(res.form, RESPONSE_FORM_BODY);
	CU_ASSERT_PTR_NULL(response_header(&res, "Content-Encoding"));
	CU_ASSERT_STRING_EQUAL(response_header(&res, "ETag"), id);
	CU_ASSERT_EQUAL(response_sent_body_length(&res), body.len);
	request_free(&req);

	/* 304s: the ETag of the form the client names; for "*" or both, the
	 * form it would get. Content-Encoding never goes with a 304. */
	static const struct {
		const char *inm, *ae;
		bool gz;
	} cases[] = {
		{"id", "gzip", false}, {"gz", "gzip", true},   {"gz", NULL, true},
		{"id", NULL, false},   {"*", "gzip", true},    {"*", NULL, false},
		{"both", "gzip", true}, {"both", NULL, false}, {"wid", "gzip", false},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		char inm[128];
		const char *c = cases[i].inm;
		if (strcmp(c, "id") == 0)
			snprintf(inm, sizeof inm, "%s", id);
		else if (strcmp(c, "wid") == 0)
			snprintf(inm, sizeof inm, "W/%s", id);
		else if (strcmp(c, "gz") == 0)
			snprintf(inm, sizeof inm, "%s", gz);
		else if (strcmp(c, "both") == 0)
			snprintf(inm, sizeof inm, "%s, %s", id, gz);
		else
			snprintf(inm, sizeof inm, "*");
		response_reset(&res);
		stored_answer(&res, body.ptr);
		make_request(&req, inm, cases[i].ae);
		http_cache_answer(&public_stored, &req, &res);
		CU_ASSERT_EQUAL(response_sent_status(&res), 304);
		CU_ASSERT_STRING_EQUAL(response_header(&res, "ETag"), cases[i].gz ? gz : id);
		CU_ASSERT_PTR_NULL(response_header(&res, "Content-Encoding"));
		request_free(&req);
	}
	strbuf_release(&plain);
	strbuf_release(&body);
	response_free(&res);
}

/* The two headers come from the CGI variables, bounded. */
static void test_request_headers(void)
{
	char long_value[REQUEST_LIST_HEADER_MAX + 32];
	memset(long_value, 'a', sizeof long_value - 1);
	long_value[sizeof long_value - 1] = '\0';
	char long_env[sizeof long_value + 32];
	snprintf(long_env, sizeof long_env, "HTTP_ACCEPT_ENCODING=%s", long_value);
	char *env[] = {"REQUEST_URI=/api/ping", "HTTP_IF_NONE_MATCH=\"a\"",
	               "HTTP_IF_NONE_MATCH=W/\"b\"", long_env, NULL};
	struct env_params params = {env, STRBUF_INIT};
	struct request req;
	request_from_cgi(&req, env_param_get, &params);
	/* A header sent twice (nginx passes each) reads as one list. */
	CU_ASSERT_STRING_EQUAL(req.if_none_match, "\"a\", W/\"b\"");
	CU_ASSERT_PTR_NULL(req.accept_encoding); /* too long: taken as absent */
	request_free(&req);
	char *env2[] = {"REQUEST_URI=/api/ping", "HTTP_ACCEPT_ENCODING=gzip, br", NULL};
	params.env = env2;
	request_from_cgi(&req, env_param_get, &params);
	CU_ASSERT_PTR_NULL(req.if_none_match);
	CU_ASSERT_STRING_EQUAL(req.accept_encoding, "gzip, br");
	request_free(&req);
	strbuf_release(&params.joined);
}

/* --- through app_handle, with the file cache in a fresh directory --- */

struct shared_app {
	char *dir;
	struct app app;
	struct response res;
	struct exchange x; /* the last request's */
};

static void open_shared(struct shared_app *s, const char *auth_token)
{
	s->dir = unit_tempdir();
	struct config cfg;
	config_init_defaults(&cfg);
	free(cfg.content_root);
	cfg.content_root = strdup(FIXTURES_DIR "/site");
	free(cfg.cache_dir);
	cfg.cache_dir = strdup(s->dir);
	free(cfg.auth_token);
	cfg.auth_token = strdup(auth_token ? auth_token : "");
	cfg.enabled = true;
	cfg.rate_per_minute = 0;
	cfg.resources[RES_COLLECTIONS].type_set = true;
	cfg.resources[RES_COLLECTIONS].type_value = true;
	app_open_with_config(&s->app, &cfg, APP_SHARED);
	response_init(&s->res);
	exchange_init(&s->x);
}

static void close_shared(struct shared_app *s)
{
	exchange_free(&s->x);
	response_free(&s->res);
	app_close(&s->app);
	unit_rmtree(s->dir);
	free(s->dir);
}

/* GET uri with those headers (NULL: absent), then app_finish, as the
 * server does after sending. */
static void shared_get(struct shared_app *s, const char *uri, const char *if_none_match,
                       const char *accept_encoding, const char *authorization)
{
	struct request req;
	request_from_uri(&req, "GET", uri);
	req.if_none_match = if_none_match ? xstrdup(if_none_match) : NULL;
	req.accept_encoding = accept_encoding ? xstrdup(accept_encoding) : NULL;
	req.authorization = authorization ? xstrdup(authorization) : NULL;
	exchange_begin(&s->x, &req, &s->res);
	app_handle(&s->app, &s->x);
	app_finish(&s->app, &s->x);
	s->x.req = NULL; /* freed below */
	request_free(&req);
}

static long long max_age(const struct response *res)
{
	const char *cc = response_header(res, "Cache-Control");
	const char *at = cc ? strstr(cc, "max-age=") : NULL;
	return at ? atoll(at + strlen("max-age=")) : -1;
}

#define LIST "/api/collections/blog/entries"

static void test_app_miss_hit_and_304(void)
{
	struct shared_app s;
	open_shared(&s, NULL);
	CU_ASSERT_TRUE_FATAL(s.app.cache.on);
	/* The miss: the body as made (nothing is compressed per request),
	 * the whole expiry. */
	shared_get(&s, LIST, NULL, "gzip", NULL);
	CU_ASSERT_EQUAL(s.x.cache_use, APP_CACHE_MISS);
	CU_ASSERT_EQUAL_FATAL(s.res.status, 200);
	CU_ASSERT_FATAL(s.res.body.len > CACHE_ENTRY_GZIP_MIN);
	char *body = xstrdup(strbuf_str(&s.res.body));
	char *etag = xstrdup(response_header(&s.res, "ETag"));
	CU_ASSERT_EQUAL(s.res.form, RESPONSE_FORM_BODY);
	CU_ASSERT_PTR_NULL(response_header(&s.res, "Content-Encoding"));
	CU_ASSERT_STRING_EQUAL(response_header(&s.res, "Cache-Control"), "public, max-age=3600");
	CU_ASSERT_STRING_EQUAL(response_header(&s.res, "Vary"), "Accept-Encoding");
	char want[HTTP_ETAG_SIZE];
	http_etag(response_body_hash(&s.res), false, want);
	CU_ASSERT_STRING_EQUAL(etag, want);

	/* The hit: the stored gzip copy, which decompresses to the body; the
	 * seconds left of the entry (a second may have passed). */
	shared_get(&s, LIST, NULL, "gzip", NULL);
	CU_ASSERT_EQUAL(s.x.cache_use, APP_CACHE_HIT);
	CU_ASSERT_EQUAL(s.res.form, RESPONSE_FORM_GZIP);
	CU_ASSERT_STRING_EQUAL(response_header(&s.res, "Content-Encoding"), "gzip");
	char gz[HTTP_ETAG_SIZE + 4];
	snprintf(gz, sizeof gz, "%.*s-gz\"", (int)strlen(etag) - 1, etag);
	CU_ASSERT_STRING_EQUAL(response_header(&s.res, "ETag"), gz);
	struct strbuf plain = STRBUF_INIT;
	CU_ASSERT_EQUAL(gzip_decompress(s.res.gzip.ptr, s.res.gzip.len, &plain), 0);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&plain), body);
	CU_ASSERT(max_age(&s.res) >= 3500 && max_age(&s.res) <= 3600);
	CU_ASSERT_STRING_EQUAL(response_header(&s.res, "Vary"), "Accept-Encoding");

	/* A hit without gzip accepted: the body, the miss's ETag. */
	shared_get(&s, LIST, NULL, NULL, NULL);
	CU_ASSERT_EQUAL(s.x.cache_use, APP_CACHE_HIT);
	CU_ASSERT_EQUAL(s.res.form, RESPONSE_FORM_BODY);
	CU_ASSERT_STRING_EQUAL(response_header(&s.res, "ETag"), etag);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&s.res.body), body);

	/* 304s, on a hit. */
	shared_get(&s, LIST, etag, "gzip", NULL);
	CU_ASSERT_EQUAL(response_sent_status(&s.res), 304);
	CU_ASSERT_STRING_EQUAL(response_header(&s.res, "ETag"), etag);
	shared_get(&s, LIST, gz, "gzip", NULL);
	CU_ASSERT_EQUAL(response_sent_status(&s.res), 304);
	CU_ASSERT_STRING_EQUAL(response_header(&s.res, "ETag"), gz);
	shared_get(&s, LIST, "\"other\"", "gzip", NULL);
	CU_ASSERT_EQUAL(response_sent_status(&s.res), 200);

	/* A 304 on a miss still stores the 200: the next request hits. */
	shared_get(&s, LIST "?limit=1", "*", NULL, NULL);
	CU_ASSERT_EQUAL(s.x.cache_use, APP_CACHE_MISS);
	CU_ASSERT_EQUAL(response_sent_status(&s.res), 304);
	shared_get(&s, LIST "?limit=1", NULL, NULL, NULL);
	CU_ASSERT_EQUAL(s.x.cache_use, APP_CACHE_HIT);
	CU_ASSERT_EQUAL(s.res.status, 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(strbuf_str(&s.res.body), "\"data\""));

	/* A 404 the cache stands behind: Cache-Control, no ETag. */
	shared_get(&s, "/api/collections/nope", NULL, NULL, NULL);
	CU_ASSERT_EQUAL(s.res.status, 404);
	CU_ASSERT_STRING_EQUAL(response_header(&s.res, "Cache-Control"), "public, max-age=3600");
	CU_ASSERT_PTR_NULL(response_header(&s.res, "ETag"));
	/* An error that is never stored: no-cache. */
	shared_get(&s, LIST "?limit=0", NULL, NULL, NULL);
	CU_ASSERT_EQUAL(s.res.status, 400);
	CU_ASSERT_STRING_EQUAL(response_header(&s.res, "Cache-Control"), "no-cache");
	CU_ASSERT_PTR_NULL(response_header(&s.res, "ETag"));
	strbuf_release(&plain);
	free(etag);
	free(body);
	close_shared(&s);
}

static void test_app_with_a_token(void)
{
	struct shared_app s;
	open_shared(&s, "s3cret");
	shared_get(&s, LIST, NULL, "gzip", "Bearer s3cret");
	CU_ASSERT_EQUAL(s.res.status, 200);
	CU_ASSERT_STRING_EQUAL(response_header(&s.res, "Cache-Control"), "private, max-age=3600");
	CU_ASSERT_STRING_EQUAL(response_header(&s.res, "Vary"), "Accept-Encoding, Authorization");
	shared_get(&s, LIST, NULL, "gzip", "Bearer s3cret");
	CU_ASSERT_EQUAL(s.x.cache_use, APP_CACHE_HIT);
	CU_ASSERT_EQUAL(s.res.form, RESPONSE_FORM_GZIP);
	CU_ASSERT(max_age(&s.res) >= 3500 && max_age(&s.res) <= 3600);
	CU_ASSERT_PTR_NOT_NULL(strstr(response_header(&s.res, "Cache-Control"), "private, "));
	/* No token: the 401, never the stored answer, nor a 304. */
	shared_get(&s, LIST, "*", "gzip", NULL);
	CU_ASSERT_EQUAL(response_sent_status(&s.res), 401);
	CU_ASSERT_STRING_EQUAL(response_header(&s.res, "Cache-Control"), "private, no-cache");
	CU_ASSERT_STRING_EQUAL(response_header(&s.res, "Vary"), "Accept-Encoding, Authorization");
	CU_ASSERT_PTR_NULL(response_header(&s.res, "ETag"));
	close_shared(&s);
}

/* With the cache off (cms-api get, APP_PRIVATE): an ETag all the same,
 * If-None-Match works, "no-cache", never gzip. */
static void test_app_uncached(void)
{
	struct config cfg;
	config_init_defaults(&cfg);
	free(cfg.content_root);
	cfg.content_root = strdup(FIXTURES_DIR "/site");
	cfg.enabled = true;
	cfg.resources[RES_COLLECTIONS].type_set = true;
	cfg.resources[RES_COLLECTIONS].type_value = true;
	struct shared_app s;
	memset(&s, 0, sizeof s);
	app_open_with_config(&s.app, &cfg, APP_PRIVATE);
	response_init(&s.res);
	exchange_init(&s.x);
	shared_get(&s, LIST, NULL, "gzip", NULL);
	CU_ASSERT_EQUAL(s.x.cache_use, APP_CACHE_UNASKED);
	CU_ASSERT_EQUAL(s.res.form, RESPONSE_FORM_BODY);
	CU_ASSERT_STRING_EQUAL(response_header(&s.res, "Cache-Control"), "no-cache");
	CU_ASSERT_STRING_EQUAL(response_header(&s.res, "Vary"), "Accept-Encoding");
	char *etag = xstrdup(response_header(&s.res, "ETag"));
	shared_get(&s, LIST, etag, "gzip", NULL);
	CU_ASSERT_EQUAL(response_sent_status(&s.res), 304);
	CU_ASSERT_STRING_EQUAL(response_header(&s.res, "ETag"), etag);
	free(etag);
	exchange_free(&s.x);
	response_free(&s.res);
	app_close(&s.app);
}

void suite_http_cache(void)
{
	CU_pSuite s = unit_add_suite("http cache");
	unit_add_test(s, "Accept-Encoding", test_accept_encoding);
	unit_add_test(s, "If-None-Match", test_if_none_match);
	unit_add_test(s, "answer headers and the 304", test_answer_headers);
	unit_add_test(s, "Cache-Control and Vary", test_cache_control_and_vary);
	unit_add_test(s, "gzip from the stored copy", test_gzip_from_the_stored_copy);
	unit_add_test(s, "request headers", test_request_headers);
	unit_add_test(s, "app: miss, hit and 304", test_app_miss_hit_and_304);
	unit_add_test(s, "app: with a token", test_app_with_a_token);
	unit_add_test(s, "app: uncached", test_app_uncached);
}
