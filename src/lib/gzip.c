/* gzip: bodies compressed with zlib; see gzip.h. */
#include "autoconfig.h"

#include "lib/gzip.h"

#include <limits.h>
#include <string.h>
#include <zlib.h>

/* zlib's window bits plus 16: a gzip header and trailer, not zlib's. */
#define GZIP_WINDOW_BITS (15 + 16)

int gzip_compress(const void *data, size_t len, struct strbuf *out)
{
	if (len > UINT_MAX)
		return -1;
	z_stream z;
	memset(&z, 0, sizeof z);
	/* Level 6, zlib's default: the copy is made once and sent many
	 * times, and level 9 takes half as long again for a percent or two. */
	if (deflateInit2(&z, Z_DEFAULT_COMPRESSION, Z_DEFLATED, GZIP_WINDOW_BITS, 8,
	                 Z_DEFAULT_STRATEGY) != Z_OK)
		return -1;
	size_t bound = deflateBound(&z, (uLong)len);
	size_t start = out->len;
	strbuf_grow(out, bound);
	z.next_in = (Bytef *)data;
	z.avail_in = (uInt)len;
	z.next_out = (Bytef *)out->ptr + start;
	z.avail_out = (uInt)bound;
	int rc = deflate(&z, Z_FINISH);
	size_t made = bound - z.avail_out;
	deflateEnd(&z);
	if (rc != Z_STREAM_END)
		return -1;
	out->len = start + made;
	out->ptr[out->len] = '\0';
	return 0;
}

int gzip_decompress(const void *data, size_t len, struct strbuf *out)
{
	if (len > UINT_MAX)
		return -1;
	z_stream z;
	memset(&z, 0, sizeof z);
	if (inflateInit2(&z, GZIP_WINDOW_BITS) != Z_OK)
		return -1;
	size_t start = out->len;
	z.next_in = (Bytef *)data;
	z.avail_in = (uInt)len;
	/* Z_OK while there is more; with fresh room for output each time,
	 * Z_BUF_ERROR means the input ended before the member did. */
	int rc = Z_OK;
	while (rc == Z_OK) {
		strbuf_grow(out, 16384);
		z.next_out = (Bytef *)out->ptr + out->len;
		z.avail_out = 16384;
		rc = inflate(&z, Z_NO_FLUSH);
		out->len += 16384 - z.avail_out;
	}
	inflateEnd(&z);
	if (rc != Z_STREAM_END || z.avail_in != 0) {
		strbuf_truncate(out, start);
		return -1;
	}
	out->ptr[out->len] = '\0';
	return 0;
}
