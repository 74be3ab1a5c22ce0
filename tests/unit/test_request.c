/* Unit tests: request (CGI variables, URI splitting, PHP-style query). */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "request.h"
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
}
