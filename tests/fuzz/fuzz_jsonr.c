/*
 * libFuzzer target: any bytes as what a shape plug-in gives back
 * (lib/jsonr.h). Never crash, never leak, never read past the input; what
 * it reads, jsonw writes as JSON that jsonr reads again to the same value
 * (a double may print shorter, so the second reading is compared with a
 * third).
 */
#include "autoconfig.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "lib/jsonr.h"
#include "lib/jsonw.h"
#include "lib/strbuf.h"
#include "lib/value.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* value read, written and read again, into out; false when the second
 * reading fails. */
static bool write_and_read(value_t v, struct value_builder *out, struct strbuf *text)
{
	struct jsonw w;
	strbuf_reset(text);
	jsonw_init(&w, text);
	jsonw_value(&w, v);
	char err[JSONR_ERR_LEN];
	return jsonr_parse(text->ptr ? text->ptr : "", text->len, out, err) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	/* A copy of exactly size bytes: ASan sees any read past the end. */
	char *text = malloc(size ? size : 1);
	memcpy(text, data, size);
	struct value_builder first = VALUE_BUILDER_INIT, second = VALUE_BUILDER_INIT,
	                     third = VALUE_BUILDER_INIT;
	struct strbuf json = STRBUF_INIT;
	char err[JSONR_ERR_LEN];
	if (jsonr_parse(text, size, &first, err) == 0) {
		if (!write_and_read(vb_result(&first), &second, &json) ||
		    !write_and_read(vb_result(&second), &third, &json) ||
		    !value_equal(vb_result(&second), vb_result(&third)))
			__builtin_trap();
	} else if (!err[0]) {
		__builtin_trap(); /* a refusal always says why */
	}
	vb_release(&first);
	vb_release(&second);
	vb_release(&third);
	strbuf_release(&json);
	free(text);
	return 0;
}
