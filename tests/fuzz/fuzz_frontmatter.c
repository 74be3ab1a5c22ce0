/*
 * libFuzzer target: any bytes through the front-matter and YAML readers.
 * A parse may fail; it must never crash, leak, or leave a value that the
 * readers cannot walk or the JSON writer cannot print.
 */
#include "autoconfig.h"

#include <stddef.h>
#include <stdint.h>

#include "jsonw.h"
#include "site/frontmatter.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	struct yaml_error err;
	if (frontmatter_parse((const char *)data, size, &b, &err) == 0) {
		value_t v = vb_result(&b);
		if (value_size(v) != b.buf.len)
			__builtin_trap();
		struct strbuf out = STRBUF_INIT;
		struct jsonw w;
		jsonw_init(&w, &out);
		jsonw_value(&w, v);
		strbuf_release(&out);
	}
	vb_release(&b);
	return 0;
}
