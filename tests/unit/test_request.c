/* Unit tests: request (CGI variables, URI splitting, PHP-style query). */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http/request.h"
#include "lib/strbuf.h"
#include "lib/url.h"
#include "unit.h"

struct fake_env {
	const char *names[8];
	const char *values[8];
};

static const char *fake_get(const char *name, void *ctx)
{
	struct fake_env *env = ctx;
	for (int i = 0; i < 8 && env->names[i]; i++)
		if (strcmp(env->names[i], name) == 0)
			return env->values[i];
	return NULL;
}

static void test_cgi_variables(void)
{
	struct fake_env env = {
		{"REQUEST_METHOD", "REQUEST_URI", "HTTP_HOST", "HTTPS", "HTTP_AUTHORIZATION",
		 "REMOTE_ADDR"},
		{"HEAD", "/api/collections?limit=2", "example.org:8443", "on", "Bearer x",
		 "10.0.0.9"},
	};
	struct request req;
	request_from_cgi(&req, fake_get, &env);
	CU_ASSERT_STRING_EQUAL(req.method, "HEAD");
	CU_ASSERT_STRING_EQUAL(req.path, "/api/collections");
	CU_ASSERT_STRING_EQUAL(req.query, "limit=2");
	CU_ASSERT_STRING_EQUAL(req.scheme, "https");
	CU_ASSERT_STRING_EQUAL(req.host, "example.org:8443");
	CU_ASSERT_STRING_EQUAL(req.authorization, "Bearer x");
	CU_ASSERT_STRING_EQUAL(req.remote_addr, "10.0.0.9");
	CU_ASSERT_STRING_EQUAL(request_param(&req, "limit"), "2");
	request_free(&req);
}

static void test_cgi_defaults_without_request_uri(void)
{
	struct fake_env env = {
		{"SCRIPT_NAME", "PATH_INFO", "QUERY_STRING", "HTTPS"},
		{"/api", "/ping", "a=b", "off"},
	};
	struct request req;
	request_from_cgi(&req, fake_get, &env);
	CU_ASSERT_STRING_EQUAL(req.method, "GET");
	CU_ASSERT_STRING_EQUAL(req.uri, "/api/ping?a=b");
	CU_ASSERT_STRING_EQUAL(req.path, "/api/ping");
	CU_ASSERT_STRING_EQUAL(req.scheme, "http");
	CU_ASSERT_STRING_EQUAL(req.host, "localhost");
	CU_ASSERT_PTR_NULL(req.authorization);
	request_free(&req);
}

static void test_query_decoding(void)
{
	struct request req;
	request_from_uri(&req, "GET",
	                 "/api/x?filter%5Btitle%3Acontains%5D=a+b%2Fc&sort=-date&bad=%zz&empty=&flag");
	CU_ASSERT_STRING_EQUAL(request_param(&req, "filter[title:contains]"), "a b/c");
	CU_ASSERT_STRING_EQUAL(request_param(&req, "sort"), "-date");
	CU_ASSERT_STRING_EQUAL(request_param(&req, "bad"), "%zz");
	CU_ASSERT_STRING_EQUAL(request_param(&req, "empty"), "");
	CU_ASSERT_STRING_EQUAL(request_param(&req, "flag"), "");
	CU_ASSERT_PTR_NULL(request_param(&req, "missing"));
	CU_ASSERT_EQUAL(req.nparams, 5);
	request_free(&req);
}

static void test_repeated_names_keep_the_last(void)
{
	struct request req;
	request_from_uri(&req, "GET", "/x?limit=1&limit=2&limit=3");
	CU_ASSERT_EQUAL(req.nparams, 1);
	CU_ASSERT_STRING_EQUAL(request_param(&req, "limit"), "3");
	request_free(&req);
}

static void test_bracket_names_collect(void)
{
	struct request req;
	request_from_uri(&req, "GET", "/x?fields[]=a&fields%5B%5D=b&fields[]=c");
	CU_ASSERT_EQUAL(req.nparams, 3);
	CU_ASSERT_STRING_EQUAL(req.params[0].value, "a");
	CU_ASSERT_STRING_EQUAL(req.params[1].value, "b");
	CU_ASSERT_STRING_EQUAL(req.params[2].name, "fields[]");
	request_free(&req);
}

static void test_path_without_query_and_fragment(void)
{
	struct request req;
	request_from_uri(&req, "GET", "/api/ping#top");
	CU_ASSERT_STRING_EQUAL(req.path, "/api/ping");
	CU_ASSERT_STRING_EQUAL(req.query, "");
	CU_ASSERT_EQUAL(req.nparams, 0);
	request_free(&req);
	request_from_uri(&req, "GET", "");
	CU_ASSERT_STRING_EQUAL(req.path, "/");
	request_free(&req);
}

static void test_url_decode(void)
{
	char *s = url_decode("a%20b+c%2", 9, false);
	CU_ASSERT_STRING_EQUAL(s, "a b+c%2");
	free(s);
	s = url_decode("a+b%41", 6, true);
	CU_ASSERT_STRING_EQUAL(s, "a bA");
	free(s);
}

/* FastCGI params as nginx before 1.23 sends two Authorization headers:
 * one param each. They reach the request joined with ", ", as lighttpd
 * joins them, and the guard then finds no token in them. */
static void test_repeated_params_are_joined(void)
{
	char *env[] = {"REQUEST_URI=/api/ping", "HTTP_AUTHORIZATION=Bearer a",
	               "HTTP_AUTHORIZATIONX=no", "HTTP_AUTHORIZATION=Bearer b",
	               "HTTP_AUTHORIZATION=Bearer c", NULL};
	struct env_params params = {env, STRBUF_INIT};
	CU_ASSERT_STRING_EQUAL(env_param_get("REQUEST_URI", &params), "/api/ping");
	CU_ASSERT_STRING_EQUAL(env_param_get("HTTP_AUTHORIZATIONX", &params), "no");
	CU_ASSERT_PTR_NULL(env_param_get("HTTP_HOST", &params));
	CU_ASSERT_PTR_NULL(env_param_get("REQUEST", &params));
	struct request req;
	request_from_cgi(&req, env_param_get, &params);
	CU_ASSERT_STRING_EQUAL(req.authorization, "Bearer a, Bearer b, Bearer c");
	CU_ASSERT_STRING_EQUAL(req.path, "/api/ping");
	request_free(&req);
	strbuf_release(&params.joined);
}

/* nginx with Debian's fastcgi_params (HTTP_HOST $host, no port) and the
 * snippet's line after it (HTTP_HOST $http_host, as the client sent it):
 * a param the configuration gives twice is the last one, not joined (a
 * joined Host would be refused as no host name). */
static void test_configured_params_keep_the_last(void)
{
	char *env[] = {"REQUEST_URI=/api/ping", "HTTP_HOST=127.0.0.1", "REQUEST_SCHEME=http",
	               "HTTP_X_FORWARDED_FOR=192.0.2.1", "HTTP_HOST=127.0.0.1:8080",
	               "REQUEST_SCHEME=https", "HTTP_X_FORWARDED_FOR=192.0.2.2", NULL};
	struct env_params params = {env, STRBUF_INIT};
	CU_ASSERT_STRING_EQUAL(env_param_get("HTTP_HOST", &params), "127.0.0.1:8080");
	CU_ASSERT_STRING_EQUAL(env_param_get("REQUEST_SCHEME", &params), "https");
	CU_ASSERT_STRING_EQUAL(env_param_get("HTTP_X_FORWARDED_FOR", &params),
	                       "192.0.2.1, 192.0.2.2");
	struct request req;
	request_from_cgi(&req, env_param_get, &params);
	CU_ASSERT_STRING_EQUAL(req.host, "127.0.0.1:8080");
	CU_ASSERT_STRING_EQUAL(req.scheme, "https");
	CU_ASSERT_STRING_EQUAL(req.forwarded_for, "192.0.2.1, 192.0.2.2");
	CU_ASSERT_TRUE(request_host_valid(req.host));
	request_free(&req);
	strbuf_release(&params.joined);
}

/* A Host is a name with a letter or digit in it, or a bracketed address,
 * and an optional port: never dots or dashes alone. */
static void test_host_names(void)
{
	static const char *const good[] = {
		"localhost", "cms.example.org", "a", "1", "a_b-c", "-a-", ".example.", "x..y",
		"127.0.0.1", "127.0.0.1:8080", "[::1]", "[::1]:80", "[2001:db8::1]:65535",
	};
	static const char *const bad[] = {
		".", "..", "...", "-", "--", "_", "._-", "..:80", "-:8080", ".-.-.",
		"", "h/x", "a b", "user@h", "h:80:80", "h:123456", "h:", "[::1", "[]", ":80",
	};
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
		CU_ASSERT_TRUE(request_host_valid(good[i]));
		if (!request_host_valid(good[i]))
			fprintf(stderr, "\nrefused a host name: %s\n", good[i]);
	}
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CU_ASSERT_FALSE(request_host_valid(bad[i]));
		if (request_host_valid(bad[i]))
			fprintf(stderr, "\ntook for a host name: %s\n", bad[i]);
	}
}

/* The directory of SCRIPT_NAME, where a rewritten request has its route. */
static void test_script_dir(void)
{
	const char *cases[][2] = {{"SCRIPT_NAME=/~bob/cms-api.fcgi", "/~bob"},
	                          {"SCRIPT_NAME=/a/b/c.fcgi", "/a/b"},
	                          {"SCRIPT_NAME=/api", ""},
	                          {"SCRIPT_NAME=", ""},
	                          {"NO_SCRIPT_NAME=1", ""}};
	for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
		char *env[] = {"REQUEST_URI=/x", (char *)cases[i][0], NULL};
		struct env_params params = {env, STRBUF_INIT};
		struct request req;
		request_from_cgi(&req, env_param_get, &params);
		CU_ASSERT_STRING_EQUAL(req.script_dir, cases[i][1]);
		request_free(&req);
		strbuf_release(&params.joined);
	}
	struct request req;
	request_from_uri(&req, "GET", "/api/ping");
	CU_ASSERT_STRING_EQUAL(req.script_dir, "");
	request_free(&req);
}

/* The parser as it was (each new name compared with every earlier one),
 * kept as the reference the n log n one must agree with. */
struct reference {
	char *names[64], *values[64];
	size_t n;
};

static void reference_parse(const char *query, struct reference *r)
{
	r->n = 0;
	for (const char *p = query; *p;) {
		size_t len = strcspn(p, "&");
		const char *eq = memchr(p, '=', len);
		size_t name_len = eq ? (size_t)(eq - p) : len;
		if (name_len > 0) {
			char *name = url_decode(p, name_len, true);
			char *value = eq ? url_decode(eq + 1, len - name_len - 1, true) : strdup("");
			size_t nl = strlen(name);
			bool collects = nl >= 2 && strcmp(name + nl - 2, "[]") == 0;
			size_t i = 0;
			while (!collects && i < r->n && strcmp(r->names[i], name) != 0)
				i++;
			if (!collects && i < r->n) {
				free(r->values[i]);
				r->values[i] = value;
				free(name);
			} else {
				r->names[r->n] = name;
				r->values[r->n++] = value;
			}
		}
		p += len;
		if (*p == '&')
			p++;
	}
}

static void reference_free(struct reference *r)
{
	for (size_t i = 0; i < r->n; i++) {
		free(r->names[i]);
		free(r->values[i]);
	}
}

/* Seeded: the same queries every run. */
static unsigned next_random(unsigned *state)
{
	*state = *state * 1103515245u + 12345u;
	return (*state >> 16) & 0x7fff;
}

static void test_same_parameters_as_before(void)
{
	static const char *const names[] = {"a", "b", "a[]", "f[]", "fields", "filter%5Bt%5D",
	                                    "filter[t]", "a+b", "a%20b", "", "%61"};
	static const char *const values[] = {"1", "2", "", "x+y", "%41", "=", "v"};
	unsigned seed = 12;
	for (int round = 0; round < 500; round++) {
		struct strbuf q = STRBUF_INIT;
		strbuf_addstr(&q, "/x?");
		int pairs = (int)(next_random(&seed) % 40);
		for (int i = 0; i < pairs; i++) {
			if (i)
				strbuf_addch(&q, '&');
			strbuf_addstr(&q, names[next_random(&seed) % (sizeof names / sizeof *names)]);
			if (next_random(&seed) % 5 != 0) {
				strbuf_addch(&q, '=');
				strbuf_addstr(&q, values[next_random(&seed) % (sizeof values / sizeof *values)]);
			}
		}
		struct request req;
		request_from_uri(&req, "GET", q.ptr);
		struct reference ref;
		reference_parse(q.ptr + 3, &ref);
		CU_ASSERT_EQUAL(req.nparams, ref.n);
		bool same = req.nparams == ref.n;
		for (size_t i = 0; same && i < ref.n; i++)
			same = strcmp(req.params[i].name, ref.names[i]) == 0 &&
			       strcmp(req.params[i].value, ref.values[i]) == 0;
		CU_ASSERT_TRUE(same);
		if (!same)
			fprintf(stderr, "\nparsed differently: %s\n", q.ptr);
		reference_free(&ref);
		request_free(&req);
		strbuf_release(&q);
	}
}

static void test_repeats_keep_their_first_place(void)
{
	struct request req;
	request_from_uri(&req, "GET", "/x?a=1&b=2&a=3&c[]=x&b=4&c[]=y&d&a=5");
	CU_ASSERT_EQUAL_FATAL(req.nparams, 5);
	const char *want[][2] = {{"a", "5"}, {"b", "4"}, {"c[]", "x"}, {"c[]", "y"}, {"d", ""}};
	for (size_t i = 0; i < 5; i++) {
		CU_ASSERT_STRING_EQUAL(req.params[i].name, want[i][0]);
		CU_ASSERT_STRING_EQUAL(req.params[i].value, want[i][1]);
	}
	request_free(&req);
}

/* 30,000 parameters, 10,000 names each given three times in turn. */
static void test_many_parameters(void)
{
	struct strbuf q = STRBUF_INIT;
	strbuf_addstr(&q, "/x?");
	for (int round = 0; round < 3; round++)
		for (int i = 0; i < 10000; i++)
			strbuf_addf(&q, "%sp%d=%d", round || i ? "&" : "", i, round);
	struct request req;
	request_from_uri(&req, "GET", q.ptr);
	CU_ASSERT_EQUAL_FATAL(req.nparams, 10000);
	bool in_order = true;
	for (int i = 0; i < 10000 && in_order; i++) {
		char name[16];
		snprintf(name, sizeof name, "p%d", i);
		in_order = strcmp(req.params[i].name, name) == 0 && strcmp(req.params[i].value, "2") == 0;
	}
	CU_ASSERT_TRUE(in_order);
	CU_ASSERT_STRING_EQUAL(request_param(&req, "p9999"), "2");
	request_free(&req);
	strbuf_release(&q);
}

static void test_nul_is_noticed(void)
{
	static const struct {
		const char *uri;
		bool nul;
	} cases[] = {
		{"/api/x?limit=1%00x", true}, {"/api/x?filter[t%00x]=y", true},
		{"/api/x?%00", true},          {"/api/x%00/y", true},
		{"/api/x?a=%%00", true},        {"/api/x?a=%2500", false},
		{"/api/x?a=%0", false},         {"/api/x?a=%000", true},
		{"/api/x#%00", false},          {"/api/x?a=b#%00", false},
	};
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct request req;
		request_from_uri(&req, "GET", cases[i].uri);
		CU_ASSERT_EQUAL(req.holds_nul, cases[i].nul);
		if (req.holds_nul != cases[i].nul)
			fprintf(stderr, "\n%s: holds_nul %d\n", cases[i].uri, req.holds_nul);
		request_free(&req);
	}
}

void suite_request(void)
{
	CU_pSuite s = unit_add_suite("request");
	unit_add_test(s, "CGI variables", test_cgi_variables);
	unit_add_test(s, "defaults without REQUEST_URI", test_cgi_defaults_without_request_uri);
	unit_add_test(s, "query decoding", test_query_decoding);
	unit_add_test(s, "repeated names keep the last", test_repeated_names_keep_the_last);
	unit_add_test(s, "[] names collect", test_bracket_names_collect);
	unit_add_test(s, "path without query and fragment", test_path_without_query_and_fragment);
	unit_add_test(s, "url_decode", test_url_decode);
	unit_add_test(s, "repeated params are joined", test_repeated_params_are_joined);
	unit_add_test(s, "configured params keep the last", test_configured_params_keep_the_last);
	unit_add_test(s, "script directory", test_script_dir);
	unit_add_test(s, "the same parameters as before", test_same_parameters_as_before);
	unit_add_test(s, "repeats keep their first place", test_repeats_keep_their_first_place);
	unit_add_test(s, "many parameters", test_many_parameters);
	unit_add_test(s, "NUL is noticed", test_nul_is_noticed);
	unit_add_test(s, "Host: a name, never dots or dashes alone", test_host_names);
}
