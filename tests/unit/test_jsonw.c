/* Unit tests: jsonw, PHP json_encode-compatible output. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <math.h>
#include <string.h>

#include "jsonw.h"
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

static void test_url_marks(void)
{
	struct strbuf out = STRBUF_INIT;
	struct jsonw w;
	jsonw_init(&w, &out);
	jsonw_set_bases(&w, "https://x.example", "https://x.example/api");
	jsonw_array_begin(&w);
	jsonw_stringz(&w, "\x01/blog/a");
	jsonw_stringz(&w, "\x02" "collections/blog/entries/1");
	jsonw_stringz(&w, "plain");
	jsonw_array_end(&w);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&out), "[\"https:\\/\\/x.example\\/blog\\/a\","
	                                         "\"https:\\/\\/x.example\\/api\\/collections\\/blog\\/entries\\/1\","
	                                         "\"plain\"]");
	strbuf_release(&out);
}

void suite_jsonw(void)
{
	CU_pSuite s = unit_add_suite("jsonw");
	unit_add_test(s, "escaping", test_escaping);
	unit_add_test(s, "invalid UTF-8", test_invalid_utf8);
	unit_add_test(s, "doubles", test_doubles);
	unit_add_test(s, "structure and commas", test_structure_and_commas);
	unit_add_test(s, "packed values", test_packed_values);
	unit_add_test(s, "marked URLs", test_url_marks);
}
