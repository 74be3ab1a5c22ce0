/*
 * libFuzzer target: any bytes as config/statamic/sites.php. Reading may
 * fail; it must never crash or leak, and a failure must write nothing.
 */
#include "autoconfig.h"

#include <stdint.h>
#include <stdlib.h>

#include "site/phparray.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const known[] = {"app.name", "Site", "app.url", "/", NULL};
	const struct phparray_config config = {known};
	struct value_builder b = VALUE_BUILDER_INIT;
	char err[PHPARRAY_ERR_LEN];
	int line;
	if (phparray_parse((const char *)data, size, &config, &b, &line, err) != 0) {
		if (b.buf.len != 0 || line < 1)
			__builtin_trap(); /* a failure writes nothing and names a line */
	} else if (value_is_missing(vb_result(&b))) {
		__builtin_trap();
	}
	vb_release(&b);
	return 0;
}
