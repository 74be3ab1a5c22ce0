/*
 * gzip: a body compressed in the gzip format (RFC 1952) that
 * "Content-Encoding: gzip" names, with zlib. The header carries no file
 * name and no time, so one body always has the same compressed copy.
 * The cache makes one copy per stored answer (cache_entry.h); nothing
 * is compressed per request.
 */
#ifndef CMS_API_GZIP_H
#define CMS_API_GZIP_H

#include <stddef.h>

#include "lib/strbuf.h"

/* Appends data[0..len) compressed to out. Returns 0, or -1 with out as
 * it was (zlib failed: out of memory). */
int gzip_compress(const void *data, size_t len, struct strbuf *out);

/* Appends what data[0..len), one whole gzip member, decompresses to,
 * to out. Returns 0, or -1 with out as it was when data is not that
 * (damaged, cut short, followed by other bytes). For the tests and the
 * fuzzer, which check copies against their bodies. */
int gzip_decompress(const void *data, size_t len, struct strbuf *out);

#endif
