/* Unit tests: PHP's value rules (php.h): is_numeric, truthiness, (string). */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdlib.h>
#include <string.h>

#include "lib/htmlesc.h"
#include "lib/php.h"
#include "unit.h"

static bool numeric(const char *s)
{
	return php_is_numeric(s, strlen(s));
}

static void test_is_numeric(void)
{
	const char *yes[] = {"0", "-1", "+1", "1.5", ".5", "5.", "1e3", "1E-3", " 7", "7 ", "\t7\n"};
	const char *no[] = {"", " ", "abc", "1a", "0x10", "inf", "nan", "1e", "e3", ".", "-", "1 2", "--1"};
	for (size_t i = 0; i < sizeof yes / sizeof yes[0]; i++)
		CU_ASSERT_TRUE(numeric(yes[i]));
	for (size_t i = 0; i < sizeof no / sizeof no[0]; i++)
		CU_ASSERT_FALSE(numeric(no[i]));
}

static char *string_of_double(double d)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	vb_double(&b, d);
	struct strbuf out = STRBUF_INIT;
	php_string(vb_result(&b), &out);
	vb_release(&b);
	return strbuf_detach(&out, NULL);
}

static void assert_double_string(double d, const char *want)
{
	char *got = string_of_double(d);
	CU_ASSERT_STRING_EQUAL(got, want);
	free(got);
}

/* PHP 8: echo 2.5, 1.0, 0.1 + 0.2, 1e14, 1e15, 0.0001, 0.00001, -1.5e-7 */
static void test_string_of_floats(void)
{
	assert_double_string(2.5, "2.5");
	assert_double_string(1.0, "1");
	assert_double_string(0.1 + 0.2, "0.3");
	assert_double_string(12345678901234.0, "12345678901234");
	assert_double_string(1e14, "1.0E+14");
	assert_double_string(1e15, "1.0E+15");
	assert_double_string(0.0001, "0.0001");
	assert_double_string(0.00001, "1.0E-5");
	assert_double_string(-1.5e-7, "-1.5E-7");
	assert_double_string(1.25e20, "1.25E+20");
	assert_double_string(100.0, "100");
	assert_double_string(-0.5, "-0.5");
}

static void test_truthiness_and_strings(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	vb_array_begin(&b);
	vb_null(&b);
	vb_bool(&b, false);
	vb_int(&b, 0);
	vb_strz(&b, "");
	vb_strz(&b, "0");
	vb_array_begin(&b);
	vb_array_end(&b);
	vb_bool(&b, true);
	vb_int(&b, -3);
	vb_strz(&b, "00");
	vb_strz(&b, "false");
	vb_array_end(&b);
	value_t list = vb_result(&b);
	for (uint32_t i = 0; i < 6; i++)
		CU_ASSERT_FALSE(php_truthy(value_array_get(list, i)));
	for (uint32_t i = 6; i < 10; i++)
		CU_ASSERT_TRUE(php_truthy(value_array_get(list, i)));
	struct strbuf out = STRBUF_INIT;
	php_string(list, &out);
	CU_ASSERT_STRING_EQUAL(out.ptr, "[null,false,0,\"\",\"0\",[],true,-3,\"00\",\"false\"]");
	strbuf_release(&out);
	vb_release(&b);
}

/* The expected strings are PHP 8.2's own answers. */
static void test_html_escaping(void)
{
	static const char in[] = "a & b < \"c\" 'd' > \xc3\xa9\xe2\x80\x94\xe2\x80\x99\xc2\xa0 "
	                         "\xc3\xbc \xe2\x82\xac  \xe2\x88\x91 \xf0\x9f\x98\x80 \xff z";
	struct strbuf out = STRBUF_INIT;
	htmlesc_entities(in, strlen(in), &out);
	CU_ASSERT_STRING_EQUAL(out.ptr, "a &amp; b &lt; &quot;c&quot; &#039;d&#039; &gt; "
	                                "&eacute;&mdash;&rsquo;&nbsp; &uuml; &euro;  &sum; "
	                                "\xf0\x9f\x98\x80 \xef\xbf\xbd z");
	strbuf_reset(&out);
	CU_ASSERT_TRUE(htmlesc_special(STR_LEN("\xc3\xa9 <'>\"&"), &out));
	CU_ASSERT_STRING_EQUAL(out.ptr, "\xc3\xa9 &lt;&#039;&gt;&quot;&amp;");
	/* Not UTF-8 (a surrogate, an overlong NUL): PHP answers "". */
	strbuf_reset(&out);
	CU_ASSERT_FALSE(htmlesc_special(STR_LEN("a\xed\xa0\x80"), &out));
	CU_ASSERT_FALSE(htmlesc_special(STR_LEN("a\xc0\x80"), &out));
	CU_ASSERT_EQUAL(out.len, 0);
	htmlesc_xml(STR_LEN("<a href=\"x\">'&'</a>"), &out);
	CU_ASSERT_STRING_EQUAL(out.ptr, "&lt;a href=&quot;x&quot;&gt;'&amp;'&lt;/a&gt;");
	strbuf_release(&out);
}

void suite_php(void)
{
	CU_pSuite s = unit_add_suite("php value rules");
	unit_add_test(s, "is_numeric", test_is_numeric);
	unit_add_test(s, "(string) of floats", test_string_of_floats);
	unit_add_test(s, "truthiness and strings", test_truthiness_and_strings);
	unit_add_test(s, "htmlspecialchars, htmlentities, Xml::escape", test_html_escaping);
}
