/* cache_entry: the stored form of a cached answer; see cache_entry.h. */
#include "autoconfig.h"

#include "cache/cache_entry.h"

#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <xxhash.h>

#include "lib/gzip.h"

/* --- entries ---
 *
 * "cms-api-cache 2 <checksum>\n"
 * "<expires> <status> <nheaders> <key length> <body length> <gzip length> <etag>\n"
 * then the key, "\n", one "Name: value\n" per header, the body and its
 * gzip copy (gzip length 0: none). Numbers are decimal; the checksum and
 * the etag are 16 lower-case hex digits, the checksum the XXH3 of every
 * byte after its line. The first line has a fixed length, so the
 * checksum can be written last, in place.
 */
#define ENTRY_MAGIC "cms-api-cache 2 "
#define MAGIC_LEN (sizeof ENTRY_MAGIC - 1)
#define HEX64_LEN 16
#define CHECK_LINE_LEN (MAGIC_LEN + HEX64_LEN + 1)
/* The longest second line: six numbers of at most 20 digits, the etag,
 * the spaces and the newline. */
#define HEAD_LINE_MAX (6 * 21 + HEX64_LEN + 1)

/* Headers made per request, never stored: the rate limit's belong to one
 * client's request (a hit gets the hitting client's; app.c adds them
 * after), and http_cache.h sets the HTTP caching ones on every answer
 * (Cache-Control's max-age counts down; the ETag and Content-Encoding
 * name the form the answer goes out in), and the CORS ones depend on the
 * request's Origin (http/cors.h). */
static bool per_request_header(const char *name)
{
	return strncasecmp(name, "X-RateLimit-", strlen("X-RateLimit-")) == 0 ||
	       strncasecmp(name, "Access-Control-", strlen("Access-Control-")) == 0 ||
	       strcasecmp(name, "Retry-After") == 0 || strcasecmp(name, "ETag") == 0 ||
	       strcasecmp(name, "Cache-Control") == 0 || strcasecmp(name, "Vary") == 0 ||
	       strcasecmp(name, "Content-Encoding") == 0;
}

static bool header_storable(const struct header *h)
{
	return *h->name && !strpbrk(h->name, "\r\n:") && !strpbrk(h->value, "\r\n") &&
	       !per_request_header(h->name);
}

static uint64_t checksum(const char *data, size_t len)
{
	return XXH3_64bits(data + CHECK_LINE_LEN, len - CHECK_LINE_LEN);
}

int cache_entry_seal(char *data, size_t len)
{
	if (len < CHECK_LINE_LEN || memcmp(data, ENTRY_MAGIC, MAGIC_LEN) != 0)
		return -1;
	char hex[HEX64_LEN + 1];
	snprintf(hex, sizeof hex, "%016" PRIx64, checksum(data, len));
	memcpy(data + MAGIC_LEN, hex, HEX64_LEN);
	data[CHECK_LINE_LEN - 1] = '\n';
	return 0;
}

/* The gzip copy of res's body, when it is worth keeping. */
static void make_gzip_copy(const struct response *res, struct strbuf *gz)
{
	if (res->body.len <= CACHE_ENTRY_GZIP_MIN)
		return;
	if (gzip_compress(res->body.ptr, res->body.len, gz) != 0 || gz->len >= res->body.len)
		strbuf_reset(gz);
}

void cache_entry_encode(const char *key, long long expires, const struct response *res,
                        struct strbuf *out)
{
	struct strbuf gz = STRBUF_INIT;
	make_gzip_copy(res, &gz);
	size_t nheaders = 0;
	for (size_t i = 0; i < res->nheaders; i++)
		nheaders += header_storable(&res->headers[i]);
	size_t start = out->len;
	strbuf_addstr(out, ENTRY_MAGIC "0000000000000000\n");
	strbuf_addf(out, "%lld %d %zu %zu %zu %zu %016" PRIx64 "\n", expires, res->status, nheaders,
	            strlen(key), res->body.len, gz.len, response_body_hash(res));
	strbuf_addstr(out, key);
	strbuf_addch(out, '\n');
	for (size_t i = 0; i < res->nheaders; i++)
		if (header_storable(&res->headers[i]))
			strbuf_addf(out, "%s: %s\n", res->headers[i].name, res->headers[i].value);
	strbuf_add(out, res->body.ptr, res->body.len);
	strbuf_add(out, gz.ptr, gz.len);
	cache_entry_seal(out->ptr + start, out->len - start);
	strbuf_release(&gz);
}

struct entry_head {
	unsigned long long expires, status, nheaders, key_len, body_len, gzip_len;
	uint64_t etag;
};

/* Exactly 16 lower-case hex digits at p (the encoder's "%016" PRIx64):
 * any other spelling of the same number is another entry's. */
static bool read_hex64(const char *p, uint64_t *v)
{
	*v = 0;
	for (int i = 0; i < HEX64_LEN; i++) {
		char c = p[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
		if (d < 0)
			return false;
		*v = *v << 4 | (uint64_t)d;
	}
	return true;
}

/* A decimal number at *p, no sign, at most 18 digits (no overflow), then
 * sep; moves *p past both. */
static bool read_number(const char **p, const char *end, char sep, unsigned long long *v)
{
	const char *s = *p;
	*v = 0;
	while (s < end && *s >= '0' && *s <= '9' && s - *p < 18)
		*v = *v * 10 + (unsigned long long)(*s++ - '0');
	if (s == *p || s == end || *s != sep)
		return false;
	*p = s + 1;
	return true;
}

/* Checks the checksum, parses the second line; returns the offset after
 * it, or 0. */
static size_t parse_head(const char *data, size_t len, struct entry_head *h)
{
	uint64_t sum;
	if (len < CHECK_LINE_LEN || memcmp(data, ENTRY_MAGIC, MAGIC_LEN) != 0 ||
	    !read_hex64(data + MAGIC_LEN, &sum) || data[CHECK_LINE_LEN - 1] != '\n' ||
	    sum != checksum(data, len))
		return 0;
	const char *p = data + CHECK_LINE_LEN;
	const char *end = len - CHECK_LINE_LEN < HEAD_LINE_MAX ? data + len : p + HEAD_LINE_MAX;
	if (!read_number(&p, end, ' ', &h->expires) || !read_number(&p, end, ' ', &h->status) ||
	    !read_number(&p, end, ' ', &h->nheaders) || !read_number(&p, end, ' ', &h->key_len) ||
	    !read_number(&p, end, ' ', &h->body_len) || !read_number(&p, end, ' ', &h->gzip_len) ||
	    end - p < HEX64_LEN + 1 || !read_hex64(p, &h->etag) || p[HEX64_LEN] != '\n')
		return 0;
	if ((h->status != 200 && h->status != 404) || h->nheaders > RESPONSE_MAX_HEADERS)
		return 0;
	return (size_t)(p + HEX64_LEN + 1 - data);
}

/* Reads one "Name: value\n" line at data[*at]; 0 or -1. A line with a
 * CR or NUL is refused: sent on, it could forge headers. So is a header
 * that is never stored (a rate-limit header): the entry is not ours. */
static int parse_header(const char *data, size_t len, size_t *at, char **name, char **value)
{
	const char *line = data + *at;
	const char *nl = memchr(line, '\n', len - *at);
	const char *colon = nl ? memchr(line, ':', (size_t)(nl - line)) : NULL;
	if (!colon || colon == line || colon + 2 > nl || colon[1] != ' ' ||
	    memchr(line, '\r', (size_t)(nl - line)) || memchr(line, '\0', (size_t)(nl - line)))
		return -1;
	*name = xstrndup(line, (size_t)(colon - line));
	if (per_request_header(*name)) {
		free(*name);
		return -1;
	}
	*value = xstrndup(colon + 2, (size_t)(nl - colon - 2));
	*at = (size_t)(nl - data) + 1;
	return 0;
}

static void free_parsed(struct header *headers, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(headers[i].name);
		free(headers[i].value);
	}
}

/* Whether data[at..len) is exactly the body and the gzip copy. */
static bool rest_fits(size_t len, size_t at, const struct entry_head *h)
{
	size_t rest = len - at;
	return h->body_len <= rest && h->gzip_len == rest - h->body_len;
}

int cache_entry_decode(const char *data, size_t len, const char *key, long long now,
                       struct response *res)
{
	struct entry_head h;
	size_t at = parse_head(data, len, &h);
	size_t key_len = strlen(key);
	/* 18 digits at most: expires fits a long long. */
	if (at == 0 || now >= (long long)h.expires || h.key_len != key_len || len - at < key_len + 1 ||
	    memcmp(data + at, key, key_len) != 0 || data[at + key_len] != '\n')
		return -1;
	at += key_len + 1;
	struct header headers[RESPONSE_MAX_HEADERS];
	size_t n = 0;
	for (; n < h.nheaders; n++)
		if (parse_header(data, len, &at, &headers[n].name, &headers[n].value) != 0)
			break;
	if (n < h.nheaders || !rest_fits(len, at, &h)) {
		free_parsed(headers, n);
		return -1;
	}
	response_reset(res);
	struct strbuf *body = response_begin(res, (int)h.status, NULL);
	for (size_t i = 0; i < n; i++)
		response_set_header(res, headers[i].name, headers[i].value);
	free_parsed(headers, n);
	strbuf_add(body, data + at, h.body_len);
	strbuf_add(&res->gzip, data + at + h.body_len, h.gzip_len);
	res->etag = h.etag;
	res->has_etag = true;
	res->expires = (long long)h.expires;
	return 0;
}
