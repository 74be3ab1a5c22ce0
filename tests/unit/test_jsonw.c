/* Unit tests: jsonw, PHP json_encode-compatible output. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "lib/jsonw.h"
#include "unit.h"

static void assert_escaped(const char *in, size_t len, const char *want)
{
	struct strbuf out = STRBUF_INIT;
	json_escape(&out, in, len);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&out), want);
	strbuf_release(&out);
}

static void test_escaping(void)
{
	assert_escaped("a/b", 3, "a\\/b");
	assert_escaped("q\"b\\", 4, "q\\\"b\\\\");
	assert_escaped("\b\f\n\r\t\x01\x1f", 7, "\\b\\f\\n\\r\\t\\u0001\\u001f");
	assert_escaped("\x7f", 1, "\x7f");
	assert_escaped("é", 2, "\\u00e9");
	assert_escaped("€", 3, "\\u20ac");
	assert_escaped("😀", 4, "\\ud83d\\ude00");
	assert_escaped("\xc2\xa0", 2, "\\u00a0");
}

static void test_invalid_utf8(void)
{
	assert_escaped("a\xffz", 3, "a\\ufffdz");
	assert_escaped("\xc3", 1, "\\ufffd");          /* truncated */
	assert_escaped("\xc0\xaf", 2, "\\ufffd\\ufffd"); /* overlong */
	assert_escaped("\xed\xa0\x80", 3, "\\ufffd\\ufffd\\ufffd"); /* surrogate */
	assert_escaped("\xf4\x90\x80\x80", 4, "\\ufffd\\ufffd\\ufffd\\ufffd"); /* > U+10FFFF */
}

static void assert_double(double d, const char *want)
{
	struct strbuf out = STRBUF_INIT;
	json_format_double(&out, d);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&out), want);
	strbuf_release(&out);
}

static void test_doubles(void)
{
	assert_double(0.1, "0.1");
	assert_double(1.0, "1.0");
	assert_double(-2.0, "-2.0");
	assert_double(-0.5, "-0.5");
	assert_double(1.5, "1.5");
	assert_double(100000.0, "100000.0");
	assert_double(1e25, "1.0e+25");
	assert_double(1e15, "1000000000000000.0");
	assert_double(1e17, "1.0e+17");
	assert_double(0.00001, "1.0e-5");
	assert_double(123456789012345.0, "123456789012345.0");
	assert_double(1.5e-7, "1.5e-7");
	assert_double(0.0001, "0.0001");
	assert_double(0.3333333333333333, "0.3333333333333333");
	assert_double(INFINITY, "0");
	assert_double(NAN, "0");
}

static void test_structure_and_commas(void)
{
	struct strbuf out = STRBUF_INIT;
	struct jsonw w;
	jsonw_init(&w, &out);
	jsonw_object_begin(&w);
	jsonw_keyz(&w, "a");
	jsonw_array_begin(&w);
	jsonw_int(&w, 1);
	jsonw_null(&w);
	jsonw_bool(&w, false);
	jsonw_object_begin(&w);
	jsonw_object_end(&w);
	jsonw_array_end(&w);
	jsonw_keyz(&w, "b");
	jsonw_stringz_or_null(&w, NULL);
	jsonw_keyz(&w, "c");
	jsonw_raw(&w, "[1]", 3);
	jsonw_object_end(&w);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&out), "{\"a\":[1,null,false,{}],\"b\":null,\"c\":[1]}");
	strbuf_release(&out);
}

static void test_packed_values(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	vb_map_begin(&b);
	vb_keyz(&b, "list");
	vb_array_begin(&b);
	vb_int(&b, 1);
	vb_double(&b, 2.0);
	vb_strz(&b, "x/y");
	vb_array_end(&b);
	vb_keyz(&b, "empty_map");
	vb_map_begin(&b);
	vb_map_end(&b);
	vb_keyz(&b, "empty_list");
	vb_array_begin(&b);
	vb_array_end(&b);
	vb_keyz(&b, "t");
	vb_bool(&b, true);
	vb_map_end(&b);
	struct strbuf out = STRBUF_INIT;
	struct jsonw w;
	jsonw_init(&w, &out);
	jsonw_value(&w, vb_result(&b));
	CU_ASSERT_STRING_EQUAL(strbuf_str(&out),
	                       "{\"list\":[1,2.0,\"x\\/y\"],\"empty_map\":[],\"empty_list\":[],\"t\":true}");
	strbuf_reset(&out);
	jsonw_init(&w, &out);
	jsonw_value(&w, VALUE_MISSING);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&out), "null");
	strbuf_release(&out);
	vb_release(&b);
}

/* Content is data: a string that starts with the bytes the writer once
 * took for URL marks is written as it is. URLs are values of their own. */
static void test_urls_are_values_not_bytes(void)
{
	struct jsonw_env env = {"https://x.example", "https://x.example/api", NULL, NULL};
	struct value_builder b = VALUE_BUILDER_INIT;
	vb_array_begin(&b);
	vb_url(&b, URL_SITE, "/blog/a", 7);
	vb_url(&b, URL_API, "collections/blog/entries/1", 26);
	vb_strz(&b, "\x01/evil");
	vb_strz(&b, "\x02" "evil");
	vb_array_end(&b);
	struct strbuf out = STRBUF_INIT;
	struct jsonw w;
	jsonw_init(&w, &out);
	jsonw_set_env(&w, &env);
	jsonw_value(&w, vb_result(&b));
	CU_ASSERT_STRING_EQUAL(strbuf_str(&out), "[\"https:\\/\\/x.example\\/blog\\/a\","
	                                         "\"https:\\/\\/x.example\\/api\\/collections\\/blog\\/entries\\/1\","
	                                         "\"\\u0001\\/evil\",\"\\u0002evil\"]");
	/* Without an environment a URL is its bare path. */
	strbuf_reset(&out);
	jsonw_init(&w, &out);
	jsonw_value(&w, value_array_get(vb_result(&b), 0));
	CU_ASSERT_STRING_EQUAL(strbuf_str(&out), "\"\\/blog\\/a\"");
	strbuf_release(&out);
	vb_release(&b);
}

/* A writer that shows references whose raw value is "yes" as {"id":...}. */
static bool show_yes(struct jsonw *w, value_t ref, const void *ctx)
{
	(void)ctx;
	if (strcmp(value_str(value_ref_raw(ref), NULL), "yes") != 0)
		return false;
	jsonw_value(w, value_ref_object(ref));
	return true;
}

static void add_ref(struct value_builder *b, const char *raw)
{
	vb_ref_begin(b, REF_ENTRY, 7);
	vb_strz(b, raw);
	vb_map_begin(b);
	vb_keyz(b, "id");
	vb_strz(b, raw);
	vb_map_end(b);
	vb_ref_end(b);
}

/* A hidden reference is left out of a list and is null after a key. */
static void test_references(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	vb_map_begin(&b);
	vb_keyz(&b, "list");
	vb_array_begin(&b);
	add_ref(&b, "no");
	add_ref(&b, "yes");
	add_ref(&b, "no");
	vb_array_end(&b);
	vb_keyz(&b, "one");
	add_ref(&b, "no");
	vb_keyz(&b, "two");
	add_ref(&b, "yes");
	vb_map_end(&b);
	value_t ref = value_array_get(value_map_getz(vb_result(&b), "list"), 1);
	CU_ASSERT_EQUAL(value_type(ref), VALUE_REF);
	CU_ASSERT_EQUAL(value_ref_kind(ref), REF_ENTRY);
	CU_ASSERT_EQUAL(value_ref_target(ref), 7);
	CU_ASSERT_STRING_EQUAL(value_str(value_raw(ref), NULL), "yes");

	struct jsonw_env env = {"http://h", "http://h/api", show_yes, NULL};
	struct strbuf out = STRBUF_INIT;
	struct jsonw w;
	jsonw_init(&w, &out);
	jsonw_set_env(&w, &env);
	jsonw_value(&w, vb_result(&b));
	CU_ASSERT_STRING_EQUAL(strbuf_str(&out),
	                       "{\"list\":[{\"id\":\"yes\"}],\"one\":null,\"two\":{\"id\":\"yes\"}}");
	/* Without a writer, references are their raw values. */
	strbuf_reset(&out);
	jsonw_init(&w, &out);
	jsonw_value(&w, vb_result(&b));
	CU_ASSERT_STRING_EQUAL(strbuf_str(&out),
	                       "{\"list\":[\"no\",\"yes\",\"no\"],\"one\":\"no\",\"two\":\"yes\"}");
	strbuf_release(&out);
	vb_release(&b);
}

/* Nesting deeper than the writer tracks never reads outside it. */
static void test_deep_nesting(void)
{
	struct strbuf out = STRBUF_INIT;
	struct jsonw w;
	jsonw_init(&w, &out);
	for (int i = 0; i < JSONW_MAX_DEPTH + 10; i++)
		jsonw_array_begin(&w);
	for (int i = 0; i < JSONW_MAX_DEPTH + 10; i++)
		jsonw_array_end(&w);
	CU_ASSERT_EQUAL(out.len, 2 * (JSONW_MAX_DEPTH + 10));
	strbuf_release(&out);
}

/* Integers as printf writes them, at the edges too. */
static void test_integers(void)
{
	static const int64_t values[] = {0, 1, -1, 9, 10, -10, 123456789, INT64_MAX, INT64_MIN,
	                                 INT64_MIN + 1, 1000000000000LL};
	for (size_t i = 0; i < sizeof values / sizeof values[0]; i++) {
		struct strbuf out = STRBUF_INIT;
		struct jsonw w;
		jsonw_init(&w, &out);
		jsonw_array_begin(&w);
		jsonw_int(&w, values[i]);
		jsonw_int(&w, values[i]);
		jsonw_array_end(&w);
		char want[64];
		snprintf(want, sizeof want, "[%lld,%lld]", (long long)values[i], (long long)values[i]);
		CU_ASSERT_STRING_EQUAL(out.ptr, want);
		strbuf_release(&out);
	}
}

void suite_jsonw(void)
{
	CU_pSuite s = unit_add_suite("jsonw");
	unit_add_test(s, "escaping", test_escaping);
	unit_add_test(s, "invalid UTF-8", test_invalid_utf8);
	unit_add_test(s, "doubles", test_doubles);
	unit_add_test(s, "structure and commas", test_structure_and_commas);
	unit_add_test(s, "packed values", test_packed_values);
	unit_add_test(s, "URLs are values, not bytes of content", test_urls_are_values_not_bytes);
	unit_add_test(s, "references", test_references);
	unit_add_test(s, "deep nesting", test_deep_nesting);
	unit_add_test(s, "integers", test_integers);
}
