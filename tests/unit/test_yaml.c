/* Unit tests: yaml, Symfony-compatible typing of Statamic YAML. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <math.h>
#include <string.h>

#include "site/yaml.h"
#include "unit.h"

static struct value_builder b;
static struct yaml_error err;

/* Parses text into b (reset first); returns yaml_parse's result. */
static int parse(const char *text)
{
	vb_release(&b);
	return yaml_parse(text, strlen(text), 0, &b, &err);
}

static value_t get(const char *text, const char *key)
{
	CU_ASSERT_EQUAL_FATAL(parse(text), 0);
	return value_map_getz(vb_result(&b), key);
}

static void test_null_and_booleans(void)
{
	CU_ASSERT_EQUAL(value_type(get("a: null", "a")), VALUE_NULL);
	CU_ASSERT_EQUAL(value_type(get("a: ~", "a")), VALUE_NULL);
	CU_ASSERT_EQUAL(value_type(get("a:", "a")), VALUE_NULL);
	CU_ASSERT_EQUAL(value_type(get("a: NULL", "a")), VALUE_NULL);
	CU_ASSERT_EQUAL(value_type(get("a: true", "a")), VALUE_TRUE);
	CU_ASSERT_EQUAL(value_type(get("a: False", "a")), VALUE_FALSE);
	CU_ASSERT_EQUAL(value_type(get("a: 'true'", "a")), VALUE_STRING);
}

static void test_yes_no_stay_strings(void)
{
	const char *words[] = {"yes", "no", "on", "off", "Yes", "NO"};
	for (size_t i = 0; i < 6; i++) {
		char text[32];
		snprintf(text, sizeof text, "a: %s", words[i]);
		value_t v = get(text, "a");
		CU_ASSERT_EQUAL(value_type(v), VALUE_STRING);
		CU_ASSERT_STRING_EQUAL(value_str(v, NULL), words[i]);
	}
}

static void test_integers(void)
{
	CU_ASSERT_EQUAL(value_int(get("a: 42", "a")), 42);
	CU_ASSERT_EQUAL(value_type(get("a: 42", "a")), VALUE_INT);
	CU_ASSERT_EQUAL(value_int(get("a: -12", "a")), -12);
	CU_ASSERT_EQUAL(value_int(get("a: 0", "a")), 0);
	CU_ASSERT_EQUAL(value_int(get("a: 0x1F", "a")), 31);
	CU_ASSERT_EQUAL(value_int(get("a: 0o17", "a")), 15);
	CU_ASSERT_EQUAL(value_type(get("a: '42'", "a")), VALUE_STRING);
}

static void test_leading_zero_and_overflow_stay_strings(void)
{
	value_t v = get("a: 0123", "a");
	CU_ASSERT_EQUAL(value_type(v), VALUE_STRING);
	CU_ASSERT_STRING_EQUAL(value_str(v, NULL), "0123");
	v = get("a: 99999999999999999999", "a");
	CU_ASSERT_EQUAL(value_type(v), VALUE_STRING);
}

static void test_floats(void)
{
	value_t v = get("a: 1.50", "a");
	CU_ASSERT_EQUAL(value_type(v), VALUE_DOUBLE);
	CU_ASSERT_DOUBLE_EQUAL(value_double(v), 1.5, 0);
	CU_ASSERT_DOUBLE_EQUAL(value_double(get("a: +12", "a")), 12, 0);
	CU_ASSERT_EQUAL(value_type(get("a: +12", "a")), VALUE_DOUBLE);
	CU_ASSERT_DOUBLE_EQUAL(value_double(get("a: 1e3", "a")), 1000, 0);
	CU_ASSERT_DOUBLE_EQUAL(value_double(get("a: .5", "a")), 0.5, 0);
	CU_ASSERT_DOUBLE_EQUAL(value_double(get("a: 1_000", "a")), 1000, 0);
	CU_ASSERT_TRUE(isinf(value_double(get("a: .inf", "a"))));
	CU_ASSERT_TRUE(value_double(get("a: -.Inf", "a")) < 0);
	CU_ASSERT_TRUE(isnan(value_double(get("a: .NaN", "a"))));
	CU_ASSERT_EQUAL(value_type(get("a: 1.2.3", "a")), VALUE_STRING);
}

static void test_timestamps(void)
{
	CU_ASSERT_EQUAL(value_int(get("a: 2020-01-01", "a")), 1577836800);
	CU_ASSERT_EQUAL(value_type(get("a: 2020-01-01", "a")), VALUE_INT);
	CU_ASSERT_EQUAL(value_int(get("a: 2020-01-01 10:00:00", "a")), 1577872800);
	CU_ASSERT_EQUAL(value_int(get("a: 2020-1-2T03:04:05Z", "a")), 1577934245);
	CU_ASSERT_EQUAL(value_int(get("a: 2001-12-14 21:59:43 -05:00", "a")), 1008385183);
	CU_ASSERT_DOUBLE_EQUAL(value_double(get("a: 2001-12-14t21:59:43.10-05:00", "a")),
	                       1008385183.1, 1e-6);
	/* Without seconds, or quoted, it is text. */
	CU_ASSERT_EQUAL(value_type(get("a: 2020-01-01 10:00", "a")), VALUE_STRING);
	CU_ASSERT_EQUAL(value_type(get("a: '2020-01-01'", "a")), VALUE_STRING);
	long long ts;
	CU_ASSERT_EQUAL(yaml_parse_timestamp("2024-02-29", 10, &ts), 0);
	CU_ASSERT_EQUAL(ts, 1709164800);
	CU_ASSERT_EQUAL(yaml_parse_timestamp("2024-13-01", 10, &ts), -1);
}

static void test_escapes_and_blocks(void)
{
	value_t v = get("a: \"x\\_y\\tz\"", "a");
	CU_ASSERT_STRING_EQUAL(value_str(v, NULL), "x\xc2\xa0y\tz");
	v = get("a: |\n  line one\n  line two\nb: >-\n  folded\n  text\n", "a");
	CU_ASSERT_STRING_EQUAL(value_str(v, NULL), "line one\nline two\n");
	CU_ASSERT_STRING_EQUAL(value_str(value_map_getz(vb_result(&b), "b"), NULL), "folded text");
	v = get("a: |\n  123\n", "a");
	CU_ASSERT_EQUAL(value_type(v), VALUE_STRING);
}

static void test_empty_flow_map_and_empty_document(void)
{
	CU_ASSERT_EQUAL(parse("{  }"), 0);
	CU_ASSERT_EQUAL(value_type(vb_result(&b)), VALUE_MAP);
	CU_ASSERT_EQUAL(value_count(vb_result(&b)), 0);
	CU_ASSERT_EQUAL(parse(""), 0);
	CU_ASSERT_EQUAL(value_type(vb_result(&b)), VALUE_MAP);
	CU_ASSERT_EQUAL(parse("# only a comment\n"), 0);
	CU_ASSERT_EQUAL(value_count(vb_result(&b)), 0);
}

static void test_integer_keyed_maps_become_lists(void)
{
	value_t v = get("children:\n  9: {title: b}\n  8: {title: a}\n", "children");
	CU_ASSERT_EQUAL_FATAL(value_type(v), VALUE_ARRAY);
	CU_ASSERT_EQUAL(value_count(v), 2);
	CU_ASSERT_STRING_EQUAL(value_str(value_map_getz(value_array_get(v, 0), "title"), NULL), "b");
	CU_ASSERT_STRING_EQUAL(value_str(value_map_getz(value_array_get(v, 1), "title"), NULL), "a");
	/* Nested, and an outer map whose keys are text keeps its keys. */
	v = get("t:\n  0:\n    c:\n      5: x\n      6: y\n", "t");
	CU_ASSERT_EQUAL_FATAL(value_type(v), VALUE_ARRAY);
	value_t inner = value_map_getz(value_array_get(v, 0), "c");
	CU_ASSERT_EQUAL(value_type(inner), VALUE_ARRAY);
	CU_ASSERT_STRING_EQUAL(value_str(value_array_get(inner, 1), NULL), "y");
	v = get("m:\n  8: a\n  x: b\n", "m");
	CU_ASSERT_EQUAL(value_type(v), VALUE_MAP);
	v = get("m:\n  08: a\n", "m");
	CU_ASSERT_EQUAL(value_type(v), VALUE_MAP);
}

static void test_aliases(void)
{
	value_t v = get("base: &b {x: 1, y: [a, b]}\ncopy: *b\n", "copy");
	CU_ASSERT_EQUAL_FATAL(value_type(v), VALUE_MAP);
	CU_ASSERT_EQUAL(value_int(value_map_getz(v, "x")), 1);
	CU_ASSERT_EQUAL(value_count(value_map_getz(v, "y")), 2);
	CU_ASSERT_EQUAL(parse("a: *nope\n"), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "nope"));
}

static void test_billion_laughs_rejected(void)
{
	const char *bomb = "a: &a [x, x, x, x, x, x, x, x, x, x]\n"
	                   "b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\n"
	                   "c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\n"
	                   "d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n"
	                   "e: &e [*d, *d, *d, *d, *d, *d, *d, *d, *d, *d]\n"
	                   "f: &f [*e, *e, *e, *e, *e, *e, *e, *e, *e, *e]\n"
	                   "g: &g [*f, *f, *f, *f, *f, *f, *f, *f, *f, *f]\n";
	CU_ASSERT_EQUAL(parse(bomb), -1);
	CU_ASSERT_STRING_EQUAL(err.message, "alias expansion too large");
	CU_ASSERT_EQUAL(b.buf.len, 0);
}

static void test_duplicate_keys_rejected(void)
{
	CU_ASSERT_EQUAL(parse("a: 1\nb: 2\na: 3\n"), -1);
	CU_ASSERT_STRING_EQUAL(err.message, "duplicate key \"a\"");
	CU_ASSERT_EQUAL(err.line, 3);
}

static void test_errors_carry_lines(void)
{
	CU_ASSERT_EQUAL(parse("title: ok\nroute: '/x/{slug}\nsort: asc\n"), -1);
	CU_ASSERT_TRUE(err.line >= 2);
	CU_ASSERT_TRUE(strlen(err.message) > 0);
	CU_ASSERT_EQUAL(b.buf.len, 0);
	vb_release(&b);
	CU_ASSERT_EQUAL(yaml_parse("a: [1, 2\n", 9, 10, &b, &err), -1);
	CU_ASSERT_TRUE(err.line > 10);
}

static void test_output_is_appended(void)
{
	vb_release(&b);
	vb_array_begin(&b);
	CU_ASSERT_EQUAL(yaml_parse("a: 1", 4, 0, &b, &err), 0);
	CU_ASSERT_EQUAL(yaml_parse("a: [", 4, 0, &b, &err), -1);
	vb_array_end(&b);
	CU_ASSERT_EQUAL(value_count(vb_result(&b)), 1);
	vb_release(&b);
}

static void test_deep_nesting_rejected(void)
{
	char text[400];
	memset(text, '[', 200);
	text[200] = '\0';
	CU_ASSERT_EQUAL(parse(text), -1);
	vb_release(&b);
}

void suite_yaml(void)
{
	CU_pSuite s = unit_add_suite("yaml");
	unit_add_test(s, "null and booleans", test_null_and_booleans);
	unit_add_test(s, "yes/no/on/off stay strings", test_yes_no_stay_strings);
	unit_add_test(s, "integers", test_integers);
	unit_add_test(s, "0123 and overflow stay strings", test_leading_zero_and_overflow_stay_strings);
	unit_add_test(s, "floats", test_floats);
	unit_add_test(s, "timestamps", test_timestamps);
	unit_add_test(s, "escapes and block scalars", test_escapes_and_blocks);
	unit_add_test(s, "{  } and empty documents", test_empty_flow_map_and_empty_document);
	unit_add_test(s, "integer-keyed maps become lists", test_integer_keyed_maps_become_lists);
	unit_add_test(s, "aliases", test_aliases);
	unit_add_test(s, "billion laughs rejected", test_billion_laughs_rejected);
	unit_add_test(s, "duplicate keys rejected", test_duplicate_keys_rejected);
	unit_add_test(s, "errors carry lines", test_errors_carry_lines);
	unit_add_test(s, "output is appended", test_output_is_appended);
	unit_add_test(s, "deep nesting rejected", test_deep_nesting_rejected);
}
