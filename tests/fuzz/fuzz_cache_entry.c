/*
 * libFuzzer target: any bytes as a stored cache entry (a file in the
 * cache directory, or what a Redis server or a plug-in hands back, may be
 * damaged or foreign). Decoding must refuse it or give a 200/404 answer
 * that survives encoding and decoding again; never crash.
 *
 * Bytes the fuzzer makes almost never carry the right checksum, so each
 * input is decoded twice: as it is, and sealed (its checksum written into
 * it, as the encoder does), which lets the fuzzer reach the parser behind
 * the checksum. An entry that decodes must also:
 *  - keep its status, headers, body, hash and expiry through a new
 *    encoding;
 *  - in the new encoding, have a gzip copy exactly when the body is
 *    longer than CACHE_ENTRY_GZIP_MIN bytes and the copy is smaller, and
 *    that copy must decompress to the body;
 *  - with any one byte of the new encoding changed, be refused.
 */
#include "autoconfig.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cache/cache_entry.h"
#include "lib/gzip.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char key[] = "http://h/api/x?a=1";

/* Both answers are the same: status, headers in order, body, hash,
 * expiry. */
static int same(const struct response *a, const struct response *b)
{
	if (a->status != b->status || a->nheaders != b->nheaders || a->body.len != b->body.len ||
	    a->etag != b->etag || a->has_etag != b->has_etag || a->expires != b->expires)
		return 0;
	for (size_t i = 0; i < a->nheaders; i++)
		if (strcmp(a->headers[i].name, b->headers[i].name) != 0 ||
		    strcmp(a->headers[i].value, b->headers[i].value) != 0)
			return 0;
	return a->body.len == 0 || memcmp(a->body.ptr, b->body.ptr, a->body.len) == 0;
}

/* The gzip copy of a new encoding is right for its body. */
static int copy_is_right(const struct response *res)
{
	if (res->gzip.len == 0)
		return 1;
	struct strbuf plain = STRBUF_INIT;
	int ok = res->body.len > CACHE_ENTRY_GZIP_MIN && res->gzip.len < res->body.len &&
	         gzip_decompress(res->gzip.ptr, res->gzip.len, &plain) == 0 &&
	         plain.len == res->body.len && memcmp(plain.ptr, res->body.ptr, plain.len) == 0;
	strbuf_release(&plain);
	return ok;
}

static void check(const char *data, size_t size, size_t salt)
{
	struct response res, back;
	response_init(&res);
	response_init(&back);
	if (cache_entry_decode(data, size, key, 0, &res) == 0) {
		if (res.status != 200 && res.status != 404)
			__builtin_trap();
		struct strbuf again = STRBUF_INIT;
		cache_entry_encode(key, res.expires, &res, &again);
		if (cache_entry_decode(again.ptr, again.len, key, 0, &back) != 0 || !same(&res, &back) ||
		    !copy_is_right(&back))
			__builtin_trap();
		size_t at = salt % again.len;
		again.ptr[at] = (char)(again.ptr[at] ^ (1 + salt % 255));
		if (cache_entry_decode(again.ptr, again.len, key, 0, &back) == 0)
			__builtin_trap();
		strbuf_release(&again);
	}
	response_free(&back);
	response_free(&res);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	check((const char *)data, size, size);
	char *sealed = malloc(size ? size : 1);
	if (!sealed)
		return 0;
	memcpy(sealed, data, size);
	if (cache_entry_seal(sealed, size) == 0)
		check(sealed, size, size * 31 + 7);
	free(sealed);
	return 0;
}
