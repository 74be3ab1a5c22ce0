/* Unit tests: yaml, libyaml events to packed values with Symfony typing. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "lib/strbuf.h"
#include "site/yaml.h"
#include "unit.h"

/* Parses text into b (emptied first) and returns the root, failing the
 * test when the parse fails. */
static value_t parse_ok(struct value_builder *b, const char *text)
{
	struct yaml_error err;
	vb_reset(b);
	int rc = yaml_parse(text, strlen(text), 0, b, &err);
	if (rc != 0)
		fprintf(stderr, "\nunexpected YAML error: %d: %s\n", err.line, err.message);
	CU_ASSERT_EQUAL_FATAL(rc, 0);
	CU_ASSERT_EQUAL(value_size(vb_result(b)), b->buf.len);
	return vb_result(b);
}

/* The value of v after parsing "v: <scalar>". */
static value_t typed(struct value_builder *b, const char *scalar)
{
	char text[256];
	snprintf(text, sizeof text, "v: %s\n", scalar);
	return value_map_getz(parse_ok(b, text), "v");
}

/* Parses text expecting an error, which it returns; the builder must be
 * left empty. */
static struct yaml_error parse_fails(const char *text, int line_offset)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	struct yaml_error err;
	CU_ASSERT_EQUAL(yaml_parse(text, strlen(text), line_offset, &b, &err), -1);
	CU_ASSERT_EQUAL(b.buf.len, 0);
	CU_ASSERT_EQUAL(b.depth, 0);
	vb_release(&b);
	return err;
}

static void assert_string(value_t v, const char *expected, size_t expected_len)
{
	size_t len;
	const char *s = value_str(v, &len);
	CU_ASSERT_EQUAL(value_type(v), VALUE_STRING);
	CU_ASSERT_EQUAL(len, expected_len);
	CU_ASSERT_TRUE(len == expected_len && memcmp(s, expected, len) == 0);
}

static void assert_typed_int(struct value_builder *b, const char *scalar, int64_t expected)
{
	value_t v = typed(b, scalar);
	CU_ASSERT_EQUAL(value_type(v), VALUE_INT);
	CU_ASSERT_EQUAL(value_int(v), expected);
}

static void assert_typed_double(struct value_builder *b, const char *scalar, double expected)
{
	value_t v = typed(b, scalar);
	CU_ASSERT_EQUAL(value_type(v), VALUE_DOUBLE);
	CU_ASSERT_DOUBLE_EQUAL(value_double(v), expected, 1e-12);
}

static void assert_typed_string(struct value_builder *b, const char *scalar, const char *expected)
{
	assert_string(typed(b, scalar), expected, strlen(expected));
}

static void test_null_forms(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	const char *nulls[] = {"null", "~", "", "NULL", "Null"};
	for (size_t i = 0; i < sizeof nulls / sizeof *nulls; i++) {
		value_t v = typed(&b, nulls[i]);
		CU_ASSERT_FALSE(value_is_missing(v));
		CU_ASSERT_EQUAL(value_type(v), VALUE_NULL);
	}
	assert_typed_string(&b, "'null'", "null");
	assert_typed_string(&b, "\"~\"", "~");
	vb_release(&b);
}

static void test_booleans_any_case(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	CU_ASSERT_EQUAL(value_type(typed(&b, "true")), VALUE_TRUE);
	CU_ASSERT_EQUAL(value_type(typed(&b, "TRUE")), VALUE_TRUE);
	CU_ASSERT_EQUAL(value_type(typed(&b, "False")), VALUE_FALSE);
	CU_ASSERT_EQUAL(value_type(typed(&b, "false")), VALUE_FALSE);
	assert_typed_string(&b, "'true'", "true");
	vb_release(&b);
}

static void test_yes_no_on_off_are_strings(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	const char *words[] = {"yes", "no", "on", "off", "Yes", "NO", "y", "n"};
	for (size_t i = 0; i < sizeof words / sizeof *words; i++)
		assert_typed_string(&b, words[i], words[i]);
	vb_release(&b);
}

static void test_integers(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	assert_typed_int(&b, "42", 42);
	assert_typed_int(&b, "0", 0);
	assert_typed_int(&b, "-12", -12);
	assert_typed_int(&b, "9223372036854775807", INT64_MAX);
	assert_typed_int(&b, "-9223372036854775808", INT64_MIN);
	assert_typed_int(&b, "1_000", 1000);
	assert_typed_string(&b, "'12'", "12");
	vb_release(&b);
}

static void test_leading_zero_is_string(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	assert_typed_string(&b, "0123", "0123");
	assert_typed_string(&b, "007", "007");
	assert_typed_string(&b, "-0", "-0");
	vb_release(&b);
}

static void test_integer_overflow_is_string(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	assert_typed_string(&b, "9223372036854775808", "9223372036854775808");
	assert_typed_string(&b, "-9223372036854775809", "-9223372036854775809");
	assert_typed_string(&b, "123456789012345678901234567890", "123456789012345678901234567890");
	vb_release(&b);
}

static void test_hex_and_octal(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	assert_typed_int(&b, "0x1F", 31);
	assert_typed_int(&b, "0xff", 255);
	assert_typed_int(&b, "0o17", 15);
	assert_typed_int(&b, "-0o17", -15);
	assert_typed_double(&b, "0x10000000000000000", 18446744073709551616.0);
	assert_typed_string(&b, "0x", "0x");
	assert_typed_string(&b, "0o8", "0o8");
	vb_release(&b);
}

static void test_doubles(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	assert_typed_double(&b, "1.5", 1.5);
	assert_typed_double(&b, "1.50", 1.5);
	assert_typed_double(&b, "+12", 12);
	assert_typed_double(&b, "1e3", 1000);
	assert_typed_double(&b, ".5", 0.5);
	assert_typed_double(&b, "-2.5E-3", -0.0025);
	assert_typed_double(&b, "1_000.5", 1000.5);
	assert_typed_string(&b, "1.2.3", "1.2.3");
	assert_typed_string(&b, "1e", "1e");
	vb_release(&b);
}

static void test_inf_and_nan(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	const char *infs[] = {".inf", ".Inf", ".INF"};
	for (size_t i = 0; i < 3; i++) {
		value_t v = typed(&b, infs[i]);
		CU_ASSERT_EQUAL(value_type(v), VALUE_DOUBLE);
		CU_ASSERT_TRUE(isinf(value_double(v)) && value_double(v) > 0);
	}
	value_t v = typed(&b, "-.Inf");
	CU_ASSERT_EQUAL(value_type(v), VALUE_DOUBLE);
	CU_ASSERT_TRUE(isinf(value_double(v)) && value_double(v) < 0);
	v = typed(&b, ".NaN");
	CU_ASSERT_EQUAL(value_type(v), VALUE_DOUBLE);
	CU_ASSERT_TRUE(isnan(value_double(v)));
	assert_typed_string(&b, "inf", "inf");
	vb_release(&b);
}

/* Scalars that YAML text cannot hold as plain values, typed directly. */
static void test_type_plain_scalar_directly(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	const char *strings[] = {"-", "+", ".", "+.inf", "0x", "-0x1"};
	for (size_t i = 0; i < sizeof strings / sizeof *strings; i++) {
		vb_reset(&b);
		yaml_type_plain_scalar(strings[i], strlen(strings[i]), &b);
		assert_string(vb_result(&b), strings[i], strlen(strings[i]));
	}
	vb_reset(&b);
	yaml_type_plain_scalar("12345", 2, &b); /* only len bytes count */
	CU_ASSERT_EQUAL(value_type(vb_result(&b)), VALUE_INT);
	CU_ASSERT_EQUAL(value_int(vb_result(&b)), 12);
	vb_release(&b);
}

static void test_timestamps_to_unix_seconds(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	assert_typed_int(&b, "2020-01-01", 1577836800);
	assert_typed_int(&b, "2020-1-1", 1577836800);
	assert_typed_int(&b, "2020-01-01 10:00:00", 1577872800);
	assert_typed_int(&b, "2020-01-01T10:00:00Z", 1577872800);
	assert_typed_int(&b, "2001-12-14t21:59:43.10-05:00", 1008385183);
	assert_typed_int(&b, "2020-01-01 10:00:00 +04:30", 1577856600);
	assert_typed_int(&b, "2020-01-01\t 10:00:00 +4", 1577858400);
	assert_typed_int(&b, "1969-12-31", -86400);
	assert_typed_int(&b, "2021-02-30", 1614643200); /* rolls over, as in PHP */
	vb_release(&b);
}

static void test_non_timestamps_stay_strings(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	assert_typed_string(&b, "'2020-01-01'", "2020-01-01");
	assert_typed_string(&b, "2020-13-01", "2020-13-01");
	assert_typed_string(&b, "2020-01-01 10:00", "2020-01-01 10:00");
	assert_typed_string(&b, "2020-01-01x", "2020-01-01x");
	assert_typed_string(&b, "20-01-01", "20-01-01");
	assert_typed_string(&b, "2020-01-01 10:00:00 +0500", "2020-01-01 10:00:00 +0500");
	vb_release(&b);
}

static void test_parse_timestamp_directly(void)
{
	long long t = 0;
	CU_ASSERT_EQUAL(yaml_parse_timestamp("2020-02-29 23:59:59", 19, &t), 0);
	CU_ASSERT_EQUAL(t, 1583020799);
	/* Only len bytes count: the text need not end there. */
	CU_ASSERT_EQUAL(yaml_parse_timestamp("2020-01-01.md", 10, &t), 0);
	CU_ASSERT_EQUAL(t, 1577836800);
	CU_ASSERT_EQUAL(yaml_parse_timestamp("2020-01-01.md", 13, &t), -1);
	CU_ASSERT_EQUAL(yaml_parse_timestamp("", 0, &t), -1);
	CU_ASSERT_EQUAL(yaml_parse_timestamp("2020-01-01 10:00:00 ", 20, &t), -1);
}

static void test_quoted_and_block_scalars_are_strings(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	value_t root = parse_ok(&b, "a: '12'\n"
	                            "b: \"true\"\n"
	                            "c: |\n"
	                            "  12\n"
	                            "  ~\n"
	                            "d: >-\n"
	                            "  1.5\n"
	                            "  x\n"
	                            "e: !!str 12\n");
	assert_string(value_map_getz(root, "a"), "12", 2);
	assert_string(value_map_getz(root, "b"), "true", 4);
	assert_string(value_map_getz(root, "c"), "12\n~\n", 5);
	assert_string(value_map_getz(root, "d"), "1.5 x", 5);
	assert_string(value_map_getz(root, "e"), "12", 2);
	vb_release(&b);
}

static void test_escape_nbsp(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	value_t v = typed(&b, "\"a\\_b\"");
	assert_string(v, "a\xC2\xA0"
	                 "b",
	              4);
	vb_release(&b);
}

static void test_empty_flow_map(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	value_t root = parse_ok(&b, "{  }");
	CU_ASSERT_EQUAL(value_type(root), VALUE_MAP);
	CU_ASSERT_EQUAL(value_count(root), 0);
	value_t v = typed(&b, "{  }");
	CU_ASSERT_EQUAL(value_type(v), VALUE_MAP);
	CU_ASSERT_EQUAL(value_count(v), 0);
	vb_release(&b);
}

static void test_int_keyed_map_is_list_in_file_order(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	value_t v = typed(&b, "{8: a, 9: b}");
	CU_ASSERT_EQUAL_FATAL(value_type(v), VALUE_ARRAY);
	CU_ASSERT_EQUAL(value_count(v), 2);
	assert_string(value_array_get(v, 0), "a", 1);
	assert_string(value_array_get(v, 1), "b", 1);

	v = typed(&b, "{9: first, -2: second, 0: third}");
	CU_ASSERT_EQUAL_FATAL(value_type(v), VALUE_ARRAY);
	CU_ASSERT_EQUAL(value_count(v), 3);
	assert_string(value_array_get(v, 0), "first", 5);
	assert_string(value_array_get(v, 2), "third", 5);
	vb_release(&b);
}

static void test_other_keys_keep_a_map(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	CU_ASSERT_EQUAL(value_type(typed(&b, "{1: a, b: c}")), VALUE_MAP);
	CU_ASSERT_EQUAL(value_type(typed(&b, "{'1': a}")), VALUE_MAP);
	CU_ASSERT_EQUAL(value_type(typed(&b, "{08: a}")), VALUE_MAP);
	CU_ASSERT_EQUAL(value_type(typed(&b, "{1.5: a}")), VALUE_MAP);
	/* Keys are stored as written. */
	value_t v = typed(&b, "{0x1F: a}");
	struct value_iter it;
	value_iter_init(&it, v);
	CU_ASSERT_TRUE_FATAL(value_iter_next(&it));
	CU_ASSERT_EQUAL(it.key_len, 4);
	CU_ASSERT_NSTRING_EQUAL(it.key, "0x1F", 4);
	vb_release(&b);
}

static void test_nested_int_keyed_maps(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	value_t root = parse_ok(&b, "children:\n"
	                            "  8:\n"
	                            "    title: A\n"
	                            "    children:\n"
	                            "      3: {title: C}\n"
	                            "      1: {title: D}\n"
	                            "  9:\n"
	                            "    title: B\n");
	value_t children = value_map_getz(root, "children");
	CU_ASSERT_EQUAL_FATAL(value_type(children), VALUE_ARRAY);
	CU_ASSERT_EQUAL(value_count(children), 2);
	value_t first = value_array_get(children, 0);
	assert_string(value_map_getz(first, "title"), "A", 1);
	assert_string(value_map_getz(value_array_get(children, 1), "title"), "B", 1);
	value_t grand = value_map_getz(first, "children");
	CU_ASSERT_EQUAL_FATAL(value_type(grand), VALUE_ARRAY);
	CU_ASSERT_EQUAL(value_count(grand), 2);
	assert_string(value_map_getz(value_array_get(grand, 0), "title"), "C", 1);
	assert_string(value_map_getz(value_array_get(grand, 1), "title"), "D", 1);
	vb_release(&b);
}

static void test_null_key_is_empty(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	value_t root = parse_ok(&b, "~: x\n'~': y\n");
	assert_string(value_map_get(root, "", 0), "x", 1);
	assert_string(value_map_getz(root, "~"), "y", 1);
	vb_release(&b);
}

static void test_aliases_expand(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	value_t root = parse_ok(&b, "base: &b {k: 1, list: [x, y]}\n"
	                            "copy: *b\n"
	                            "word: &w hello\n"
	                            "again: *w\n"
	                            "&key named: 1\n"
	                            "from_key: *key\n");
	CU_ASSERT_TRUE(value_equal(value_map_getz(root, "base"), value_map_getz(root, "copy")));
	CU_ASSERT_EQUAL(value_int(value_map_getz(value_map_getz(root, "copy"), "k")), 1);
	assert_string(value_map_getz(root, "again"), "hello", 5);
	assert_string(value_map_getz(root, "from_key"), "named", 5);
	vb_release(&b);
}

static void test_anchor_redefinition_wins(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	value_t root = parse_ok(&b, "a: &x one\nb: *x\nc: &x two\nd: *x\n");
	assert_string(value_map_getz(root, "b"), "one", 3);
	assert_string(value_map_getz(root, "d"), "two", 3);
	vb_release(&b);
}

/* An anchor inside an integer-keyed map survives the map becoming a list. */
static void test_alias_into_converted_map(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	value_t root = parse_ok(&b, "m: {1: &n {k: v}, 2: &s two}\n"
	                            "c: *n\n"
	                            "d: *s\n");
	value_t c = value_map_getz(root, "c");
	CU_ASSERT_EQUAL_FATAL(value_type(c), VALUE_MAP);
	assert_string(value_map_getz(c, "k"), "v", 1);
	assert_string(value_map_getz(root, "d"), "two", 3);
	CU_ASSERT_TRUE(value_equal(value_array_get(value_map_getz(root, "m"), 0), c));
	vb_release(&b);
}

static void test_billion_laughs_rejected(void)
{
	struct strbuf text = STRBUF_INIT;
	strbuf_addstr(&text, "a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
	for (char c = 'b'; c <= 'j'; c++) {
		strbuf_addf(&text, "%c: &%c [", c, c);
		for (int i = 0; i < 9; i++)
			strbuf_addf(&text, "%s*%c", i ? ", " : "", c - 1);
		strbuf_addstr(&text, "]\n");
	}
	struct value_builder b = VALUE_BUILDER_INIT;
	struct yaml_error err;
	CU_ASSERT_EQUAL(yaml_parse(text.ptr, text.len, 0, &b, &err), -1);
	CU_ASSERT_STRING_EQUAL(err.message, "alias expansion too large");
	CU_ASSERT_TRUE(err.line >= 5 && err.line <= 10);
	CU_ASSERT_EQUAL(b.buf.len, 0);
	vb_release(&b);
	strbuf_release(&text);
}

static void test_unknown_alias_rejected(void)
{
	struct yaml_error err = parse_fails("a: 1\nb: *nope\n", 0);
	CU_ASSERT_STRING_EQUAL(err.message, "unknown alias *nope");
	CU_ASSERT_EQUAL(err.line, 2);
	/* A node cannot refer to itself: its anchor exists once it ends. */
	err = parse_fails("a: &x [*x]\n", 0);
	CU_ASSERT_STRING_EQUAL(err.message, "unknown alias *x");
}

static void test_duplicate_keys_rejected(void)
{
	struct yaml_error err = parse_fails("a: 1\nb: 2\na: 3\n", 0);
	CU_ASSERT_STRING_EQUAL(err.message, "duplicate key \"a\"");
	CU_ASSERT_EQUAL(err.line, 3);
	err = parse_fails("top:\n  x: 1\n  y: 2\n\n  x: 3\n", 0);
	CU_ASSERT_STRING_EQUAL(err.message, "duplicate key \"x\"");
	CU_ASSERT_EQUAL(err.line, 5);
	/* A null key is "", like an empty quoted key. */
	err = parse_fails("~: 1\n'': 2\n", 0);
	CU_ASSERT_STRING_EQUAL(err.message, "duplicate key \"\"");
	CU_ASSERT_EQUAL(err.line, 2);
	/* The same key in two maps is fine. */
	struct value_builder b = VALUE_BUILDER_INIT;
	parse_ok(&b, "a: {x: 1}\nb: {x: 2}\n");
	vb_release(&b);
}

static void test_many_keys(void)
{
	struct strbuf text = STRBUF_INIT;
	for (int i = 0; i < 5000; i++)
		strbuf_addf(&text, "key%d: %d\n", i, i);
	struct value_builder b = VALUE_BUILDER_INIT;
	value_t root = parse_ok(&b, text.ptr);
	CU_ASSERT_EQUAL(value_count(root), 5000);
	CU_ASSERT_EQUAL(value_int(value_map_getz(root, "key4999")), 4999);
	strbuf_addstr(&text, "key17: again\n");
	struct yaml_error err = parse_fails(text.ptr, 0);
	CU_ASSERT_STRING_EQUAL(err.message, "duplicate key \"key17\"");
	CU_ASSERT_EQUAL(err.line, 5001);
	vb_release(&b);
	strbuf_release(&text);
}

static void test_malformed_yaml_line(void)
{
	struct yaml_error err = parse_fails("a: 1\nb: c: d\n", 0);
	CU_ASSERT_EQUAL(err.line, 2);
	CU_ASSERT_STRING_EQUAL(err.message, "mapping values are not allowed in this context");
	err = parse_fails("a: 1\nb: [1, 2\nc: 3\n", 0);
	CU_ASSERT_TRUE(err.line >= 3);
	CU_ASSERT_PTR_NOT_NULL(strstr(err.message, "flow sequence"));
	/* Trailing garbage in the first document is an error too. */
	err = parse_fails("[1, 2]\n]\n", 0);
	CU_ASSERT_EQUAL(err.line, 2);
	/* An encoding error gets the line of the bad byte. */
	err = parse_fails("a: 1\nb: 2\nc: \xff\n", 0);
	CU_ASSERT_EQUAL(err.line, 3);
}

static void test_line_offset_added(void)
{
	struct yaml_error err = parse_fails("a: 1\nb: c: d\n", 10);
	CU_ASSERT_EQUAL(err.line, 12);
	err = parse_fails("a: 1\na: 2\n", 4);
	CU_ASSERT_EQUAL(err.line, 6);
}

/* "[[...]]" nested depth deep. */
static void nested_lists(char *text, int depth)
{
	memset(text, '[', (size_t)depth);
	memset(text + depth, ']', (size_t)depth);
	text[2 * depth] = '\0';
}

static void test_nesting_too_deep(void)
{
	char text[2 * VALUE_MAX_DEPTH + 3];
	nested_lists(text, VALUE_MAX_DEPTH + 1);
	struct yaml_error err = parse_fails(text, 0);
	CU_ASSERT_STRING_EQUAL(err.message, "nesting too deep");
	CU_ASSERT_EQUAL(err.line, 1);

	struct value_builder b = VALUE_BUILDER_INIT;
	nested_lists(text, VALUE_MAX_DEPTH);
	CU_ASSERT_EQUAL(value_type(parse_ok(&b, text)), VALUE_ARRAY);
	vb_release(&b);
}

static void test_empty_documents_are_empty_maps(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	const char *empties[] = {"", "# only a comment\n", "---\n", "--- # c\n...\n", "\n\n"};
	for (size_t i = 0; i < sizeof empties / sizeof *empties; i++) {
		value_t v = parse_ok(&b, empties[i]);
		CU_ASSERT_EQUAL(value_type(v), VALUE_MAP);
		CU_ASSERT_EQUAL(value_count(v), 0);
	}
	CU_ASSERT_EQUAL(value_type(parse_ok(&b, "~\n")), VALUE_NULL);
	vb_release(&b);
}

static void test_only_first_document(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	value_t root = parse_ok(&b, "a: 1\n---\nb: 2\n---\n[broken\n");
	CU_ASSERT_EQUAL(value_count(root), 1);
	CU_ASSERT_EQUAL(value_int(value_map_getz(root, "a")), 1);
	vb_release(&b);
}

/* Appending into an open container, and failing there, leave the
 * caller's builder consistent. */
static void test_builder_restored_on_error(void)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	struct yaml_error err;
	vb_array_begin(&b);
	vb_strz(&b, "before");
	size_t len = b.buf.len;
	const char *bad = "a: [1, {b: 2}, *x]\n";
	CU_ASSERT_EQUAL(yaml_parse(bad, strlen(bad), 0, &b, &err), -1);
	CU_ASSERT_EQUAL(b.buf.len, len);
	CU_ASSERT_EQUAL(b.depth, 1);
	CU_ASSERT_EQUAL(b.count[0], 1);
	CU_ASSERT_FALSE(b.error);
	const char *trailing = "[1]\n]\n"; /* fails after the root closed */
	CU_ASSERT_EQUAL(yaml_parse(trailing, strlen(trailing), 0, &b, &err), -1);
	CU_ASSERT_EQUAL(b.count[0], 1);
	CU_ASSERT_EQUAL(yaml_parse("x: 1", 4, 0, &b, &err), 0);
	vb_array_end(&b);
	value_t v = vb_result(&b);
	CU_ASSERT_EQUAL(value_count(v), 2);
	CU_ASSERT_EQUAL(value_size(v), b.buf.len);
	CU_ASSERT_EQUAL(value_int(value_map_getz(value_array_get(v, 1), "x")), 1);
	vb_release(&b);
}

void suite_yaml(void)
{
	CU_pSuite s = unit_add_suite("yaml");
	unit_add_test(s, "null forms", test_null_forms);
	unit_add_test(s, "booleans in any case", test_booleans_any_case);
	unit_add_test(s, "yes/no/on/off are strings", test_yes_no_on_off_are_strings);
	unit_add_test(s, "integers", test_integers);
	unit_add_test(s, "leading zero is a string", test_leading_zero_is_string);
	unit_add_test(s, "integer overflow is a string", test_integer_overflow_is_string);
	unit_add_test(s, "hex and octal", test_hex_and_octal);
	unit_add_test(s, "doubles", test_doubles);
	unit_add_test(s, "inf and nan", test_inf_and_nan);
	unit_add_test(s, "yaml_type_plain_scalar", test_type_plain_scalar_directly);
	unit_add_test(s, "timestamps to Unix seconds", test_timestamps_to_unix_seconds);
	unit_add_test(s, "non-timestamps stay strings", test_non_timestamps_stay_strings);
	unit_add_test(s, "yaml_parse_timestamp", test_parse_timestamp_directly);
	unit_add_test(s, "quoted and block scalars are strings",
	              test_quoted_and_block_scalars_are_strings);
	unit_add_test(s, "\\_ escape is U+00A0", test_escape_nbsp);
	unit_add_test(s, "empty flow map", test_empty_flow_map);
	unit_add_test(s, "int-keyed map is a list in file order",
	              test_int_keyed_map_is_list_in_file_order);
	unit_add_test(s, "other keys keep a map", test_other_keys_keep_a_map);
	unit_add_test(s, "nested int-keyed maps", test_nested_int_keyed_maps);
	unit_add_test(s, "null key is empty", test_null_key_is_empty);
	unit_add_test(s, "aliases expand", test_aliases_expand);
	unit_add_test(s, "anchor redefinition wins", test_anchor_redefinition_wins);
	unit_add_test(s, "alias into a converted map", test_alias_into_converted_map);
	unit_add_test(s, "billion laughs rejected", test_billion_laughs_rejected);
	unit_add_test(s, "unknown alias rejected", test_unknown_alias_rejected);
	unit_add_test(s, "duplicate keys rejected", test_duplicate_keys_rejected);
	unit_add_test(s, "many keys", test_many_keys);
	unit_add_test(s, "malformed YAML line", test_malformed_yaml_line);
	unit_add_test(s, "line offset added", test_line_offset_added);
	unit_add_test(s, "nesting too deep", test_nesting_too_deep);
	unit_add_test(s, "empty documents are empty maps", test_empty_documents_are_empty_maps);
	unit_add_test(s, "only the first document", test_only_first_document);
	unit_add_test(s, "builder restored on error", test_builder_restored_on_error);
}
