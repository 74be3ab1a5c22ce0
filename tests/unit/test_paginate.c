/* Unit tests: pagination links and meta (Laravel's paginator). */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "lib/url.h"
#include "query/paginate.h"
#include "unit.h"

static void render(const char *uri, long total, long per_page, long current, struct strbuf *out)
{
	struct request req;
	request_from_uri(&req, "GET", uri);
	struct page p = {total, per_page, current, "http://h/api/x"};
	struct jsonw w;
	strbuf_reset(out);
	jsonw_init(&w, out);
	jsonw_object_begin(&w);
	paginate_write(&w, &p, &req);
	jsonw_object_end(&w);
	request_free(&req);
}

/* The labels of meta.links, joined by ','; the active one marked '*'. */
static void labels(long pages, long current, struct strbuf *out)
{
	struct strbuf json = STRBUF_INIT;
	render("/api/x", pages * 2, 2, current, &json);
	strbuf_reset(out);
	const char *p = strstr(json.ptr, "\"meta\"");
	while ((p = strstr(p, "\"label\":\"")) != NULL) {
		p += 9;
		const char *end = strchr(p, '"');
		if (out->len)
			strbuf_addch(out, ',');
		strbuf_add(out, p, (size_t)(end - p));
		if (strncmp(end, "\",\"page\":", 9) == 0 && strstr(end, "\"active\":true") ==
		                                                  strstr(end, "\"active\":"))
			strbuf_addch(out, '*');
	}
	strbuf_release(&json);
}

static void test_empty_list(void)
{
	struct strbuf out = STRBUF_INIT;
	render("/api/x", 0, 25, 1, &out);
	CU_ASSERT_STRING_EQUAL(out.ptr,
		"{\"links\":{\"first\":\"http:\\/\\/h\\/api\\/x?limit=25&page=1\","
		"\"last\":\"http:\\/\\/h\\/api\\/x?limit=25&page=1\",\"prev\":null,\"next\":null},"
		"\"meta\":{\"current_page\":1,\"from\":null,\"last_page\":1,\"links\":["
		"{\"url\":null,\"label\":\"&laquo; Previous\",\"page\":null,\"active\":false},"
		"{\"url\":\"http:\\/\\/h\\/api\\/x?limit=25&page=1\",\"label\":\"1\",\"page\":1,\"active\":true},"
		"{\"url\":null,\"label\":\"Next &raquo;\",\"page\":null,\"active\":false}],"
		"\"path\":\"http:\\/\\/h\\/api\\/x\",\"per_page\":25,\"to\":null,\"total\":0}}");
	strbuf_release(&out);
}

static void test_every_parameter_is_carried(void)
{
	struct strbuf out = STRBUF_INIT;
	render("/api/x?filter[title:is]=a+b&page=2&sort=-date&fields[]=id&fields[]=title&limit=2", 5, 2,
	       2, &out);
	/* Brackets and colons encoded, the limit where it was, page last. */
	CU_ASSERT_PTR_NOT_NULL(strstr(out.ptr,
		"\"prev\":\"http:\\/\\/h\\/api\\/x?filter%5Btitle%3Ais%5D=a%20b&sort=-date"
		"&fields%5B%5D=id&fields%5B%5D=title&limit=2&page=1\""));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.ptr, "&limit=2&page=3\"},\"meta\":"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.ptr, "\"current_page\":2,\"from\":3,\"last_page\":3,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.ptr, "\"per_page\":2,\"to\":4,\"total\":5}"));
	strbuf_release(&out);
}

static void test_past_the_end(void)
{
	struct strbuf out = STRBUF_INIT;
	render("/api/x", 3, 2, 5, &out);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.ptr, "\"prev\":\"http:\\/\\/h\\/api\\/x?limit=2&page=4\",\"next\":null"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.ptr, "\"current_page\":5,\"from\":null,\"last_page\":2,"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.ptr, "\"to\":null,\"total\":3}"));
	strbuf_release(&out);
}

static void test_windows(void)
{
	struct strbuf l = STRBUF_INIT;
	labels(13, 1, &l);
	CU_ASSERT_STRING_EQUAL(l.ptr, "&laquo; Previous,1*,2,3,4,5,6,7,8,9,10,11,12,13,Next &raquo;");
	labels(14, 1, &l);
	CU_ASSERT_STRING_EQUAL(l.ptr, "&laquo; Previous,1*,2,3,4,5,6,7,8,9,10,...,13,14,Next &raquo;");
	labels(20, 10, &l);
	CU_ASSERT_STRING_EQUAL(l.ptr,
	                       "&laquo; Previous,1,2,...,7,8,9,10*,11,12,13,...,19,20,Next &raquo;");
	labels(20, 20, &l);
	CU_ASSERT_STRING_EQUAL(l.ptr,
	                       "&laquo; Previous,1,2,...,11,12,13,14,15,16,17,18,19,20*,Next &raquo;");
	strbuf_release(&l);
}

static void test_url_encode(void)
{
	struct strbuf out = STRBUF_INIT;
	url_encode("a b/c:d[é]~-._", &out);
	CU_ASSERT_STRING_EQUAL(out.ptr, "a%20b%2Fc%3Ad%5B%C3%A9%5D~-._");
	strbuf_release(&out);
}

void suite_paginate(void)
{
	CU_pSuite s = unit_add_suite("paginate");
	unit_add_test(s, "an empty list", test_empty_list);
	unit_add_test(s, "every parameter is carried", test_every_parameter_is_carried);
	unit_add_test(s, "past the end", test_past_the_end);
	unit_add_test(s, "windows of page links", test_windows);
	unit_add_test(s, "url_encode", test_url_encode);
}
