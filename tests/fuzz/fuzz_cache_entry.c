/*
 * libFuzzer target: any bytes as a stored cache entry (a file in the
 * cache directory may be damaged or foreign). Decoding must refuse it or
 * give a 200/404 answer that survives encoding and decoding again; never
 * crash.
 */
#include "autoconfig.h"

#include <stdint.h>
#include <string.h>

#include "cache.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Both answers are the same: status, headers in order, body. */
static int same(const struct response *a, const struct response *b)
{
	if (a->status != b->status || a->nheaders != b->nheaders || a->body.len != b->body.len)
		return 0;
	for (size_t i = 0; i < a->nheaders; i++)
		if (strcmp(a->headers[i].name, b->headers[i].name) != 0 ||
		    strcmp(a->headers[i].value, b->headers[i].value) != 0)
			return 0;
	return a->body.len == 0 || memcmp(a->body.ptr, b->body.ptr, a->body.len) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char key[] = "http://h/api/x?a=1";
	struct response res, back;
	response_init(&res);
	response_init(&back);
	if (cache_entry_decode((const char *)data, size, key, 0, &res) == 0) {
		if (res.status != 200 && res.status != 404)
			__builtin_trap();
		struct strbuf again = STRBUF_INIT;
		cache_entry_encode(key, 1, &res, &again);
		if (cache_entry_decode(again.ptr, again.len, key, 0, &back) != 0 || !same(&res, &back))
			__builtin_trap();
		strbuf_release(&again);
	}
	response_free(&back);
	response_free(&res);
	return 0;
}
