/* Unit tests: phparray, a config file's literal PHP array. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jsonw.h"
#include "lib/strbuf.h"
#include "site/phparray.h"
#include "unit.h"

static const char *const known[] = {"app.name", "My Site", "app.url", "/", NULL};
static const struct phparray_config config = {known};

/* The array text returns, as JSON. */
static void assert_parsed(const char *text, const char *want)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	char err[PHPARRAY_ERR_LEN];
	int line = -1;
	int rc = phparray_parse(text, strlen(text), &config, &b, &line, err);
	CU_ASSERT_EQUAL(rc, 0);
	if (rc != 0) {
		fprintf(stderr, "\n%s: line %d: %s\n", text, line, err);
		vb_release(&b);
		return;
	}
	CU_ASSERT_EQUAL(line, 0);
	struct strbuf json = STRBUF_INIT;
	struct jsonw w;
	jsonw_init(&w, &json);
	jsonw_value(&w, vb_result(&b));
	CU_ASSERT_STRING_EQUAL(strbuf_str(&json), want);
	if (strcmp(strbuf_str(&json), want) != 0)
		fprintf(stderr, "\n%s\n  got  %s\n  want %s\n", text, strbuf_str(&json), want);
	strbuf_release(&json);
	vb_release(&b);
}

/* Refused at that line, with a message holding what. */
static void assert_refused(const char *text, int want_line, const char *what)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	char err[PHPARRAY_ERR_LEN];
	int line = 0;
	CU_ASSERT_EQUAL(phparray_parse(text, strlen(text), &config, &b, &line, err), -1);
	CU_ASSERT_EQUAL(line, want_line);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, what));
	if (line != want_line || !strstr(err, what))
		fprintf(stderr, "\n%s\n  line %d: %s\n", text, line, err);
	CU_ASSERT_EQUAL(b.buf.len, 0); /* nothing written */
	vb_release(&b);
}

static void test_literals(void)
{
	assert_parsed("<?php\n\nreturn [\n  'a' => 'x',\n  \"b\" => \"y\\n\",\n  'c' => 3,\n"
	              "  'd' => -2, 'e' => true, 'f' => FALSE, 'g' => null, 'h' => 1.5,\n];\n",
	              "{\"a\":\"x\",\"b\":\"y\\n\",\"c\":3,\"d\":-2,\"e\":true,\"f\":false,\"g\":null,"
	              "\"h\":\"1.5\"}");
	/* Lists, array(), nesting, escapes, trailing commas, every comment. */
	assert_parsed("<?php /* a */ return array( // b\n 'l' => ['x', 'y',], # c\n"
	              " 'n' => array('k' => ['it\\'s', 'C:\\\\d']),\n);",
	              "{\"l\":[\"x\",\"y\"],\"n\":{\"k\":[\"it's\",\"C:\\\\d\"]}}");
	/* PHP's keys: listed items after a numeric key go on from it. */
	assert_parsed("<?php return [5 => 'a', 'b', 'k' => 'c', 'd'];",
	              "{\"5\":\"a\",\"6\":\"b\",\"k\":\"c\",\"7\":\"d\"}");
	assert_parsed("<?php declare(strict_types=1);\nuse Foo\\Bar;\nreturn [];", "[]");
}

static void test_env_and_config(void)
{
	assert_parsed("<?php return ['u' => env('APP_URL', '/x'), 'v' => env('NONE'),"
	              " 'n' => config('app.name'), 'm' => config('app.other', 'dflt'),"
	              " 'o' => config('app.url', '/ignored')];",
	              "{\"u\":\"\\/x\",\"v\":null,\"n\":\"My Site\",\"m\":\"dflt\",\"o\":\"\\/\"}");
}

static void test_what_is_refused(void)
{
	assert_refused("<?php\nreturn [\n  'a' => 'x' . 'y',\n];", 3, "cannot read '.'");
	assert_refused("<?php\nreturn [\n  'a' => $url,\n];", 3, "cannot read '$'");
	assert_refused("<?php\nreturn ['a' => \"x$y\"];", 2, "$variable");
	assert_refused("<?php\nreturn [\n'a' => SOME_CONSTANT];", 3, "cannot read 'SOME_CONSTANT'");
	assert_refused("<?php\nreturn [\n'a' => strtoupper('x')];", 3, "cannot read 'strtoupper'");
	assert_refused("<?php\nreturn ['a' => config('app.secret')];", 2, "config('app.secret')");
	assert_refused("<?php\n$x = 1;\n", 3, "no 'return'");
	assert_refused("<?php\nreturn ['a' => 'b'", 2, "the file ends");
	assert_refused("<?php\nreturn ['a' => 'b", 2, "does not end");
	assert_refused("<?php return $sites;", 1, "cannot read '$'");
	assert_refused("<?php return [9223372036854775807 => 'a', 'b'];", 1, "key too large");
	struct strbuf deep = STRBUF_INIT;
	strbuf_addstr(&deep, "<?php return ");
	for (int i = 0; i < 40; i++)
		strbuf_addch(&deep, '[');
	assert_refused(deep.ptr, 1, "nested too deep");
	strbuf_release(&deep);
}

void suite_phparray(void)
{
	CU_pSuite s = unit_add_suite("phparray");
	unit_add_test(s, "literals", test_literals);
	unit_add_test(s, "env and config", test_env_and_config);
	unit_add_test(s, "what is refused", test_what_is_refused);
}
