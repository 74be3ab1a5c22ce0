/* Unit tests: hostile queries through the whole pipeline (app_handle):
 * the [api] bounds, the regex budget and NUL bytes, each one exact 400. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "lib/strbuf.h"
#include "unit.h"

static struct app app;
static struct response res;
static char *dir;

/* Opens the fixture site with every collection, the blog's titles
 * filterable, and extra [api] lines. */
static void open_with(const char *api_lines)
{
	dir = unit_tempdir();
	struct strbuf ini = STRBUF_INIT;
	strbuf_addf(&ini,
	            "[api]\nenabled = true\n%s"
	            "[content]\nroot = %s\n[cache]\nenabled = false\n[log]\ntarget = stderr\n"
	            "[resources]\ncollections = true\ntaxonomies = true\nusers = true\n"
	            "[resources.collections.*]\nallowed_filters = title\n"
	            "[resources.taxonomies.*]\nallowed_filters = title\n"
	            "[resources.users]\nallowed_filters = name\n",
	            api_lines, FIXTURES_DIR "/site");
	CU_ASSERT_EQUAL_FATAL(unit_write_file(dir, "cms-api.ini", ini.ptr), 0);
	strbuf_release(&ini);
	char path[4096], err[CONFIG_ERR_LEN];
	snprintf(path, sizeof path, "%s/cms-api.ini", dir);
	int rc = app_open(&app, path, APP_PRIVATE, err);
	if (rc != 0)
		fprintf(stderr, "%s\n", err);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	response_init(&res);
}

static void close_app(void)
{
	response_free(&res);
	app_close(&app);
	unit_rmtree(dir);
	free(dir);
}

static void expect(const char *uri, int status, const char *message)
{
	struct request req;
	request_from_uri(&req, "GET", uri);
	unit_handle(&app, &req, &res);
	request_free(&req);
	CU_ASSERT_EQUAL(res.status, status);
	if (message) {
		char body[400];
		snprintf(body, sizeof body, "{\"message\":\"%s\"}", message);
		CU_ASSERT_STRING_EQUAL(strbuf_str(&res.body), body);
		if (strcmp(strbuf_str(&res.body), body) != 0)
			fprintf(stderr, "\n%s\n got: %s\nwant: %s\n", uri, strbuf_str(&res.body), body);
	}
}

/* base?before0after&before1after... up to n - 1. */
static char *repeated(const char *base, const char *before, const char *after, int n)
{
	struct strbuf b = STRBUF_INIT;
	strbuf_addstr(&b, base);
	for (int i = 0; i < n; i++)
		strbuf_addf(&b, "%c%s%d%s", i ? '&' : '?', before, i, after);
	return strbuf_detach(&b, NULL);
}

static void test_query_length(void)
{
	open_with("max_query_length = 30\n");
	expect("/api/collections/blog/entries?filter[title:contains]=abcdefg", 200, NULL);
	expect("/api/collections/blog/entries?filter[title:contains]=abcdefgh", 400,
	       "The query string is longer than 30 bytes (max_query_length).");
	/* Every endpoint, /ping too, and before a cache could hash it. */
	expect("/api/ping?padding=xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", 400,
	       "The query string is longer than 30 bytes (max_query_length).");
	close_app();
	/* The default: 8192 bytes. */
	open_with("");
	struct strbuf uri = STRBUF_INIT;
	strbuf_addstr(&uri, "/api/ping?x=");
	for (int i = 2; i < 8192; i++)
		strbuf_addch(&uri, 'a');
	expect(uri.ptr, 200, NULL);
	strbuf_addch(&uri, 'a');
	expect(uri.ptr, 400, "The query string is longer than 8192 bytes (max_query_length).");
	strbuf_release(&uri);
	close_app();
}

static void test_filters(void)
{
	open_with("");
	char *uri = repeated("/api/collections/blog/entries", "filter[title:not:", "]=x", 20);
	expect(uri, 200, NULL);
	free(uri);
	/* The same name again and again is one filter (its last value). */
	uri = repeated("/api/collections/blog/entries", "filter[title:not]=t", "", 21);
	expect(uri, 200, NULL);
	free(uri);
	uri = repeated("/api/collections/blog/entries", "filter[title:not:", "]=x", 21);
	expect(uri, 400, "The query has more than 20 filters (max_filters).");
	/* Before the allow-list: the 400 comes first, whatever is asked. */
	free(uri);
	uri = repeated("/api/taxonomies/tags/terms", "filter[slug:is:", "]=x", 21);
	expect(uri, 400, "The query has more than 20 filters (max_filters).");
	free(uri);
	close_app();
	open_with("max_filters = 1\n");
	expect("/api/users?filter[name:contains]=a&filter[name:contains:2]=b", 400,
	       "The query has more than 1 filters (max_filters).");
	expect("/api/users?filter[name:contains]=a", 200, NULL);
	close_app();
}

static void test_sort_keys(void)
{
	open_with("");
	expect("/api/collections/blog/entries?sort=a,-b,c,d,e,f,g,h,i,j", 200, NULL);
	expect("/api/collections/blog/entries?sort=a,-b,c,d,e,f,g,h,i,j,,-", 200, NULL);
	expect("/api/collections/blog/entries?sort=a,-b,c,d,e,f,g,h,i,j,k", 400,
	       "The sort parameter has more than 10 keys (max_sort_keys).");
	expect("/api/users?sort=a,a,a,a,a,a,a,a,a,a,a", 400,
	       "The sort parameter has more than 10 keys (max_sort_keys).");
	close_app();
	open_with("max_sort_keys = 0\n");
	expect("/api/users?sort=a,a,a,a,a,a,a,a,a,a,a", 200, NULL);
	close_app();
}

static void test_fields(void)
{
	open_with("max_fields = 3\n");
	expect("/api/collections/blog/entries?fields=id,title&fields[]=slug", 200, NULL);
	expect("/api/collections/blog/entries?fields=id,title,slug,date", 400,
	       "The query asks for more than 3 fields (max_fields).");
	expect("/api/collections/pages/tree?fields[]=id,title&fields[]=slug&fields[]=url", 400,
	       "The query asks for more than 3 fields (max_fields).");
	expect("/api/collections/blog/entries/hello-world?fields=a,a,a,a", 400,
	       "The query asks for more than 3 fields (max_fields).");
	close_app();
}

static void test_regex_budget(void)
{
	/* Two steps: a match that needs more stops the request. */
	open_with("regex_budget = 1\n");
	expect("/api/collections/blog/entries?filter[title:regex]=l", 400,
	       "The regex in filter[title:regex] needs more work than this API allows (regex_budget).");
	expect("/api/collections/blog/entries?filter[title:not]=z&filter[title:doesnt_match]=l", 400,
	       "The regex in filter[title:doesnt_match] needs more work than this API allows "
	       "(regex_budget).");
	expect("/api/collections/pages/tree?filter[title:contains]=t_", 400,
	       "The regex in filter[title:contains] needs more work than this API allows "
	       "(regex_budget).");
	expect("/api/taxonomies/tags/terms?filter[title:regex]=w", 400,
	       "The regex in filter[title:regex] needs more work than this API allows (regex_budget).");
	expect("/api/users?filter[name:regex]=a", 400,
	       "The regex in filter[name:regex] needs more work than this API allows (regex_budget).");
	/* Text without wildcards is searched without the regex engine. */
	expect("/api/collections/blog/entries?filter[title:contains]=llo", 200, NULL);
	close_app();
	open_with("");
	expect("/api/collections/blog/entries?filter[title:regex]=(a%2B)%2B$", 200, NULL);
	expect("/api/collections/pages/tree?filter[title:contains]=t_", 200, NULL);
	close_app();
}

static void test_nul_anywhere(void)
{
	static const char *const uris[] = {
		"/api/collections/blog/entries?limit=1%00x",
		"/api/collections/blog/entries?filter[title%00x]=y",
		"/api/collections/blog/entries?filter%5Btitle%00%5D=y",
		"/api/collections/blog/entries?x=%00",
		"/api/collections/blog%00/entries",
		"/api/collections/blog/entries/hello-world%00.json",
		"/api/ping?%00",
	};
	open_with("");
	for (size_t i = 0; i < sizeof uris / sizeof uris[0]; i++)
		expect(uris[i], 400, "The request holds a NUL byte (%00).");
	/* "%2500" is the text "%00", not a NUL. */
	expect("/api/collections/blog/entries?filter[title]=%2500", 200, NULL);
	close_app();
}

void suite_hostile(void)
{
	CU_pSuite s = unit_add_suite("hostile");
	unit_add_test(s, "max_query_length", test_query_length);
	unit_add_test(s, "max_filters", test_filters);
	unit_add_test(s, "max_sort_keys", test_sort_keys);
	unit_add_test(s, "max_fields", test_fields);
	unit_add_test(s, "regex_budget", test_regex_budget);
	unit_add_test(s, "NUL anywhere", test_nul_anywhere);
}
