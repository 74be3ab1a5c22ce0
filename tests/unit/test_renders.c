/* Unit tests: rendered entries kept per worker (api/renders), the JSON
 * templates they are made of (jsonw marks), the spans of statuses they
 * hold over, and a worker that follows the site and the Host. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "api/renders.h"
#include "app/app.h"
#include "change/generation.h"
#include "change/shared.h"
#include "change/watch.h"
#include "lib/jsonw.h"
#include "unit.h"

/* --- status spans --- */

static void test_status_spans(void)
{
	struct status_span span = status_span_all();
	struct status_facts undated = {true, false, 0, true, true};
	struct status_facts draft = {false, true, 500, true, true};
	struct status_facts public_dates = {true, true, 500, false, false};
	status_span_narrow(&span, &undated, 100);
	status_span_narrow(&span, &draft, 100);
	status_span_narrow(&span, &public_dates, 100);
	CU_ASSERT_EQUAL(span.from, LLONG_MIN); /* none of them changes with time */
	CU_ASSERT_EQUAL(span.until, LLONG_MAX);

	/* Scheduled until its date, published at it, published after it. */
	struct status_facts future = {true, true, 500, true, false};
	status_span_narrow(&span, &future, 100);
	CU_ASSERT_EQUAL(span.from, LLONG_MIN);
	CU_ASSERT_EQUAL(span.until, 500);
	span = status_span_all();
	status_span_narrow(&span, &future, 500);
	CU_ASSERT_EQUAL(span.from, 500);
	CU_ASSERT_EQUAL(span.until, 501);
	span = status_span_all();
	status_span_narrow(&span, &future, 900);
	CU_ASSERT_EQUAL(span.from, 501);
	CU_ASSERT_EQUAL(span.until, LLONG_MAX);

	/* Two statuses: the moments both hold. */
	struct status_facts past = {true, true, 300, false, true};
	span = status_span_all();
	status_span_narrow(&span, &future, 400);
	status_span_narrow(&span, &past, 400);
	CU_ASSERT_EQUAL(span.from, 301);
	CU_ASSERT_EQUAL(span.until, 500);
	CU_ASSERT_TRUE(status_span_holds(&span, 301));
	CU_ASSERT_TRUE(status_span_holds(&span, 499));
	CU_ASSERT_FALSE(status_span_holds(&span, 300));
	CU_ASSERT_FALSE(status_span_holds(&span, 500));
	/* Inside the span, every status read is the one read at 400. */
	for (long long now = 301; now < 500; now += 37) {
		CU_ASSERT_EQUAL(entry_status_at(&future, now), entry_status_at(&future, 400));
		CU_ASSERT_EQUAL(entry_status_at(&past, now), entry_status_at(&past, 400));
	}
}

/* --- templates --- */

/* {"a":URL below the API,"b":[URL below the site,"x\/y"],"c":1} written
 * through w (an env set, marks recorded or not). */
static void write_sample(struct jsonw *w)
{
	jsonw_object_begin(w);
	jsonw_keyz(w, "a");
	jsonw_url(w, URL_API, "collections/blog", 16);
	jsonw_keyz(w, "b");
	jsonw_array_begin(w);
	jsonw_url(w, URL_SITE, "/blog/x", 7);
	jsonw_stringz(w, "x/y");
	jsonw_array_end(w);
	jsonw_keyz(w, "c");
	jsonw_int(w, 1);
	jsonw_object_end(w);
}

static const struct jsonw_env env_a = {"http://a.example", "http://a.example/api", NULL, NULL};
static const struct jsonw_env env_b = {"https://b.example:8080/\xc3\xa9", "https://b.example:8080/\xc3\xa9/v1",
                                       NULL, NULL};

/* The sample written directly with env, in a list after a first item. */
static char *direct(const struct jsonw_env *env)
{
	struct strbuf out = STRBUF_INIT;
	struct jsonw w;
	jsonw_init(&w, &out);
	jsonw_set_env(&w, env);
	jsonw_array_begin(&w);
	jsonw_int(&w, 0);
	write_sample(&w);
	jsonw_array_end(&w);
	return strbuf_detach(&out, NULL);
}

static void test_template_takes_each_requests_bases(void)
{
	struct strbuf text = STRBUF_INIT;
	struct jsonw_marks marks = {NULL, 0, 0};
	struct jsonw w;
	jsonw_init(&w, &text);
	jsonw_set_env(&w, &env_a); /* any env: the bases are left out */
	jsonw_record_marks(&w, &marks);
	write_sample(&w);
	CU_ASSERT_STRING_EQUAL(text.ptr, "{\"a\":\"collections\\/blog\",\"b\":[\"\\/blog\\/x\",\"x\\/y\"],\"c\":1}");
	CU_ASSERT_EQUAL(marks.len, 2);

	struct renders c;
	renders_init(&c, 1 << 20);
	struct status_span all = status_span_all();
	const struct render *r = renders_put(&c, 7, text.ptr, text.len, &marks, all);
	const struct jsonw_env *envs[] = {&env_a, &env_b, &env_a};
	for (size_t i = 0; i < 3; i++) {
		struct strbuf out = STRBUF_INIT;
		jsonw_init(&w, &out);
		jsonw_set_env(&w, envs[i]);
		jsonw_array_begin(&w);
		jsonw_int(&w, 0);
		renders_write(&c, &w, r);
		jsonw_array_end(&w);
		char *want = direct(envs[i]);
		CU_ASSERT_STRING_EQUAL(out.ptr, want);
		free(want);
		strbuf_release(&out);
	}
	char *b = direct(&env_b); /* the bases escaped too */
	CU_ASSERT_PTR_NOT_NULL(strstr(b, "\"https:\\/\\/b.example:8080\\/\\u00e9\\/v1\\/collections\\/blog\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(b, "\"https:\\/\\/b.example:8080\\/\\u00e9\\/blog\\/x\""));
	free(b);
	renders_free(&c);
	jsonw_marks_release(&marks);
	strbuf_release(&text);
}

/* --- the cache --- */

static const struct jsonw_marks no_marks = {NULL, 0, 0};

static void test_found_only_within_the_span(void)
{
	struct renders c;
	renders_init(&c, 1 << 20);
	struct status_span span = {100, 200};
	CU_ASSERT_PTR_NULL(renders_find(&c, 3, 150));
	const struct render *r = renders_put(&c, 3, "{}", 2, &no_marks, span);
	CU_ASSERT_PTR_EQUAL(renders_find(&c, 3, 150), r);
	CU_ASSERT_PTR_EQUAL(renders_find(&c, 3, 100), r);
	CU_ASSERT_PTR_NULL(renders_find(&c, 3, 99));
	CU_ASSERT_PTR_NULL(renders_find(&c, 3, 200));
	CU_ASSERT_PTR_NULL(renders_find(&c, 4, 150));
	CU_ASSERT_PTR_NULL(renders_find(&c, 100000, 150));
	CU_ASSERT_EQUAL(c.found, 2);
	/* Rendered again at another moment: the new one takes its place. */
	struct status_span later = {200, 300};
	r = renders_put(&c, 3, "[]", 2, &no_marks, later);
	CU_ASSERT_PTR_EQUAL(renders_find(&c, 3, 250), r);
	CU_ASSERT_PTR_NULL(renders_find(&c, 3, 150));
	size_t one = c.bytes;
	/* A new snapshot: nothing is found, nothing is held. */
	renders_clear(&c);
	CU_ASSERT_PTR_NULL(renders_find(&c, 3, 250));
	CU_ASSERT_EQUAL(c.bytes, 0);
	CU_ASSERT(one > 2);
	renders_free(&c);
}

static void test_bounded_in_bytes(void)
{
	char text[100];
	memset(text, 'x', sizeof text);
	text[0] = '"', text[99] = '"';
	struct renders probe;
	renders_init(&probe, 1 << 20);
	renders_put(&probe, 0, text, sizeof text, &no_marks, status_span_all());
	size_t each = probe.bytes;
	renders_free(&probe);

	struct renders c;
	renders_init(&c, 10 * each);
	for (uint32_t n = 0; n < 1000; n++) {
		renders_put(&c, n, text, sizeof text, &no_marks, status_span_all());
		CU_ASSERT(c.bytes <= 10 * each);
		/* Entry 5 is asked for all along: it stays. */
		if (n >= 5)
			CU_ASSERT_PTR_NOT_NULL(renders_find(&c, 5, 0));
	}
	CU_ASSERT_EQUAL(c.bytes, 10 * each);
	CU_ASSERT_EQUAL(c.stored - c.dropped, 10);
	CU_ASSERT_PTR_NOT_NULL(renders_find(&c, 999, 0)); /* the newest */
	CU_ASSERT_PTR_NULL(renders_find(&c, 500, 0));

	/* One render bigger than the bound is held alone, then dropped. */
	char big[2000];
	memset(big, 'y', sizeof big);
	renders_put(&c, 3, big, sizeof big, &no_marks, status_span_all());
	CU_ASSERT_EQUAL(c.stored - c.dropped, 1);
	CU_ASSERT_PTR_NOT_NULL(renders_find(&c, 3, 0));
	renders_put(&c, 4, text, sizeof text, &no_marks, status_span_all());
	CU_ASSERT_PTR_NULL(renders_find(&c, 3, 0));
	CU_ASSERT_EQUAL(c.bytes, each);
	renders_free(&c);
}

/* --- a worker --- */

static struct app app;
static struct response res;

static const char *get(const char *host, const char *uri)
{
	struct request req;
	request_from_uri(&req, "GET", uri);
	free(req.host);
	req.host = strdup(host);
	unit_handle(&app, &req, &res);
	request_free(&req);
	return strbuf_str(&res.body);
}

#define ONE "/api/collections/blog/entries/one"
#define LIST "/api/collections/blog/entries?sort=-date"

static void test_a_worker_follows_the_site_and_the_host(void)
{
	char *dir = unit_tempdir();
	struct strbuf b = STRBUF_INIT;
	struct config cfg;
	config_init_defaults(&cfg);
	free(cfg.content_root);
	free(cfg.cache_dir);
	strbuf_addf(&b, "%s/site", dir);
	cfg.content_root = strbuf_detach(&b, NULL);
	strbuf_addf(&b, "%s/cache", dir);
	cfg.cache_dir = strbuf_detach(&b, NULL);
	cfg.enabled = true;
	cfg.cache_enabled = false;
	cfg.resources[RES_COLLECTIONS].type_set = true;
	cfg.resources[RES_COLLECTIONS].type_value = true;
	unit_write_file(dir, "site/content/collections/blog.yaml", "title: Blog\ndate: true\nroute: '/blog/{slug}'\n");
	unit_write_file(dir, "site/content/collections/blog/2024-01-01.one.md", "---\nid: one\ntitle: First\n---\n");
	unit_write_file(dir, "site/content/collections/blog/2024-02-01.two.md",
	                "---\nid: two\ntitle: Second\n---\n");
	struct config copy = cfg;
	app_open_with_config(&app, &copy, APP_SHARED);
	response_init(&res);

	CU_ASSERT_PTR_NOT_NULL(strstr(get("a.example", ONE), "\"title\":\"First\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(strbuf_str(&res.body), "http:\\/\\/a.example\\/api\\/collections\\/blog\\/entries\\/one"));
	unsigned long long found = app.renders.found;
	char *first_b = strdup(get("b.example", ONE));
	CU_ASSERT_EQUAL(app.renders.found, found + 1); /* from the render */
	CU_ASSERT_PTR_NULL(strstr(first_b, "a.example"));
	CU_ASSERT_PTR_NOT_NULL(strstr(first_b, "http:\\/\\/b.example\\/blog\\/one"));
	CU_ASSERT_PTR_NOT_NULL(strstr(first_b, "http:\\/\\/b.example\\/api\\/collections\\/blog\\/entries\\/one"));
	/* A list copies the same renders, each with its request's Host. */
	char *list_a = strdup(get("a.example", LIST));
	const char *list_b = get("b.example", LIST);
	CU_ASSERT_PTR_NULL(strstr(list_b, "a.example"));
	CU_ASSERT_PTR_NOT_NULL(strstr(list_b, "http:\\/\\/b.example\\/blog\\/two"));
	CU_ASSERT_EQUAL(strlen(list_a), strlen(list_b)); /* a. and b. are as long */

	/* The site changes: the next request reads the new index, and no
	 * render of the old one. */
	unit_write_file(dir, "site/content/collections/blog/2024-01-01.one.md",
	                "---\nid: one\ntitle: First, edited\n---\n");
	watch_scan_once(&app.cfg);
	CU_ASSERT_PTR_NOT_NULL(strstr(get("b.example", ONE), "\"title\":\"First, edited\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(get("b.example", LIST), "\"title\":\"First, edited\""));

	free(list_a);
	free(first_b);
	response_free(&res);
	app_close(&app);
	unit_rmtree(dir);
	free(dir);
}

void suite_renders(void)
{
	CU_pSuite s = unit_add_suite("renders");
	unit_add_test(s, "status spans", test_status_spans);
	unit_add_test(s, "a template takes each request's bases", test_template_takes_each_requests_bases);
	unit_add_test(s, "found only within the span", test_found_only_within_the_span);
	unit_add_test(s, "bounded in bytes", test_bounded_in_bytes);
	unit_add_test(s, "a worker follows the site and the Host", test_a_worker_follows_the_site_and_the_host);
}
