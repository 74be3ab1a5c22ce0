/* cache_entry: the stored form of a cached answer; see cache_entry.h. */
#include "autoconfig.h"

#include "cache_entry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define ENTRY_MAGIC "cms-api-cache 1 "

/* --- entries ---
 *
 * "cms-api-cache 1 <expires> <status> <nheaders> <key length> <body length>\n"
 * then the key, "\n", one "Name: value\n" per header, and the body.
 */

/* The rate limit's headers belong to one client's request, not to the
 * answer: a hit gets the hitting client's (app.c adds them after). */
static bool per_request_header(const char *name)
{
	return strncasecmp(name, "X-RateLimit-", strlen("X-RateLimit-")) == 0 ||
	       strcasecmp(name, "Retry-After") == 0;
}

static bool header_storable(const struct header *h)
{
	return !strpbrk(h->name, "\r\n:") && !strpbrk(h->value, "\r\n") &&
	       !per_request_header(h->name);
}

void cache_entry_encode(const char *key, long long expires, const struct response *res,
                        struct strbuf *out)
{
	size_t nheaders = 0;
	for (size_t i = 0; i < res->nheaders; i++)
		nheaders += header_storable(&res->headers[i]);
	strbuf_addf(out, ENTRY_MAGIC "%lld %d %zu %zu %zu\n", expires, res->status, nheaders,
	            strlen(key), res->body.len);
	strbuf_addstr(out, key);
	strbuf_addch(out, '\n');
	for (size_t i = 0; i < res->nheaders; i++)
		if (header_storable(&res->headers[i]))
			strbuf_addf(out, "%s: %s\n", res->headers[i].name, res->headers[i].value);
	strbuf_add(out, res->body.ptr, res->body.len);
}

struct entry_head {
	long long expires;
	int status;
	size_t nheaders, key_len, body_len;
};

/* Parses the first line; returns the offset after it, or 0. */
static size_t parse_head(const char *data, size_t len, struct entry_head *h)
{
	const size_t magic_len = sizeof ENTRY_MAGIC - 1;
	const char *nl = memchr(data, '\n', len < 128 ? len : 128);
	if (!nl || (size_t)(nl - data) <= magic_len || memcmp(data, ENTRY_MAGIC, magic_len) != 0)
		return 0;
	char line[128];
	size_t line_len = (size_t)(nl - data);
	memcpy(line, data, line_len);
	line[line_len] = '\0';
	char end;
	if (sscanf(line + magic_len, "%lld %d %zu %zu %zu%c", &h->expires, &h->status,
	           &h->nheaders, &h->key_len, &h->body_len, &end) != 5)
		return 0;
	if ((h->status != 200 && h->status != 404) || h->nheaders > RESPONSE_MAX_HEADERS)
		return 0;
	return line_len + 1;
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

int cache_entry_decode(const char *data, size_t len, const char *key, long long now,
                       struct response *res)
{
	struct entry_head h;
	size_t at = parse_head(data, len, &h);
	size_t key_len = strlen(key);
	if (at == 0 || now >= h.expires || h.key_len != key_len || len - at < key_len + 1 ||
	    memcmp(data + at, key, key_len) != 0 || data[at + key_len] != '\n')
		return -1;
	at += key_len + 1;
	struct header headers[RESPONSE_MAX_HEADERS];
	size_t n = 0;
	for (; n < h.nheaders; n++)
		if (parse_header(data, len, &at, &headers[n].name, &headers[n].value) != 0)
			break;
	if (n < h.nheaders || len - at != h.body_len) {
		for (size_t i = 0; i < n; i++) {
			free(headers[i].name);
			free(headers[i].value);
		}
		return -1;
	}
	response_reset(res);
	struct strbuf *body = response_begin(res, h.status, NULL);
	for (size_t i = 0; i < n; i++) {
		response_set_header(res, headers[i].name, headers[i].value);
		free(headers[i].name);
		free(headers[i].value);
	}
	strbuf_add(body, data + at, h.body_len);
	return 0;
}
