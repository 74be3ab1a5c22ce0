/*
 * libFuzzer target: any bytes through the front-matter and YAML readers.
 * A parse may fail; it must never crash or leak, a failure must leave the
 * caller's builder as it was, and a success must leave a packed value
 * that the readers can walk and the JSON writer can print.
 */
#include "autoconfig.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "lib/jsonw.h"
#include "site/frontmatter.h"
#include "site/yaml.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok)
{
	if (!ok)
		__builtin_trap();
}

/* Every item lies inside its container, and counts agree with headers. */
static void check_value(value_t v, const unsigned char *end)
{
	check(v.p < end && value_size(v) <= (size_t)(end - v.p));
	enum value_type t = value_type(v);
	check(t <= VALUE_MAP);
	if (t == VALUE_STRING) {
		size_t len;
		const char *s = value_str(v, &len);
		check(s[len] == '\0');
	}
	if (t != VALUE_ARRAY && t != VALUE_MAP)
		return;
	const unsigned char *container_end = v.p + value_size(v);
	struct value_iter it;
	uint32_t n = 0;
	value_iter_init(&it, v);
	while (value_iter_next(&it)) {
		check(!it.is_map || it.key[it.key_len] == '\0');
		check_value(it.value, container_end);
		n++;
	}
	check(n == value_count(v));
}

static void check_printable(value_t v)
{
	struct strbuf json = STRBUF_INIT;
	struct jsonw w;
	jsonw_init(&w, &json);
	jsonw_value(&w, v);
	strbuf_release(&json);
}

/* Parses into a builder that already holds an open list, as a caller
 * collecting several files would. */
static void fuzz_frontmatter(const char *text, size_t size)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	struct yaml_error err;
	vb_array_begin(&b);
	vb_strz(&b, "before");
	size_t len = b.buf.len;
	if (frontmatter_parse(text, size, &b, &err) != 0) {
		check(b.buf.len == len && b.depth == 1 && b.count[0] == 1 && !b.error);
		check(memchr(err.message, '\0', sizeof err.message) != NULL);
		vb_release(&b);
		return;
	}
	vb_array_end(&b);
	value_t list = vb_result(&b);
	check(value_size(list) == b.buf.len && value_count(list) == 2);
	check_value(list, (const unsigned char *)b.buf.ptr + b.buf.len);
	value_t map = value_array_get(list, 1);
	check(value_type(map) == VALUE_MAP);
	check_printable(map);
	vb_release(&b);
}

/* The same bytes as a whole YAML file, and as one plain scalar. */
static void fuzz_yaml(const char *text, size_t size)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	struct yaml_error err;
	long long ts;
	if (yaml_parse(text, size, 3, &b, &err) == 0) {
		check(value_size(vb_result(&b)) == b.buf.len);
		check_value(vb_result(&b), (const unsigned char *)b.buf.ptr + b.buf.len);
	} else {
		check(b.buf.len == 0 && (err.line == 0 || err.line > 3));
	}
	vb_reset(&b);
	yaml_type_plain_scalar(text, size, &b);
	check(value_size(vb_result(&b)) == b.buf.len);
	(void)yaml_parse_timestamp(text, size, &ts);
	vb_release(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	fuzz_frontmatter((const char *)data, size);
	fuzz_yaml((const char *)data, size);
	return 0;
}
