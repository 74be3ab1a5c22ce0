/*
 * libFuzzer target: any bytes percent-decoded (the first byte chooses
 * whether '+' is a space), and any bytes as a request's path. url_decode
 * must give what a plain byte-by-byte decoder gives, never longer than
 * its input; a decoded NUL must come from a "%00" in the text (what
 * request.c looks for); url_encode must give text that decodes back to
 * the same bytes; a request built from any path must hold a path; and the
 * same bytes as a Host header pass request_host_valid only when they are
 * a host name by a plain reading of its rule (a name with a letter or a
 * digit, or an address in brackets, and an optional port).
 */
#include "autoconfig.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "http/request.h"
#include "lib/strbuf.h"
#include "lib/url.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int hex(unsigned char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c |= 0x20;
	return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* The oracle: out gets the decoded bytes, NULs included. */
static size_t plain_decode(const char *s, size_t len, bool plus, char *out)
{
	size_t n = 0;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '%' && i + 2 < len && hex((unsigned char)s[i + 1]) >= 0 &&
		    hex((unsigned char)s[i + 2]) >= 0) {
			out[n++] = (char)(hex((unsigned char)s[i + 1]) * 16 + hex((unsigned char)s[i + 2]));
			i += 2;
		} else {
			out[n++] = plus && s[i] == '+' ? ' ' : s[i];
		}
	}
	return n;
}

static bool has_text(const char *s, size_t len, const char *text)
{
	size_t t = strlen(text);
	for (size_t i = 0; i + t <= len; i++)
		if (memcmp(s + i, text, t) == 0)
			return true;
	return false;
}

static void check_decoding(const char *s, size_t len, bool plus)
{
	char *want = xmalloc(len + 1);
	size_t n = plain_decode(s, len, plus, want);
	char *got = url_decode(s, len, plus);
	if (n > len || memcmp(got, want, n) != 0 || got[n] != '\0')
		__builtin_trap();
	/* Without raw NULs in the text, a decoded NUL means "%00" was there. */
	if (!memchr(s, '\0', len) && (memchr(want, '\0', n) != NULL) != has_text(s, len, "%00"))
		__builtin_trap();
	if (!memchr(want, '\0', n)) {
		struct strbuf encoded = STRBUF_INIT;
		url_encode(got, &encoded);
		char *back = url_decode(encoded.ptr ? encoded.ptr : "", encoded.len, plus);
		if (strcmp(back, got) != 0)
			__builtin_trap();
		free(back);
		strbuf_release(&encoded);
	}
	free(got);
	free(want);
}

static bool alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

/* The oracle of request_host_valid, read off its contract. */
static bool plain_host(const char *h)
{
	size_t n = strlen(h), end = n;
	const char *colon = strrchr(h, ':');
	const char *bracket = strchr(h, ']');
	if (colon && (h[0] != '[' || (bracket && colon > bracket))) {
		size_t digits = strlen(colon + 1);
		if (digits == 0 || digits > 5 || strspn(colon + 1, "0123456789") != digits)
			return false;
		end = (size_t)(colon - h);
	}
	if (n == 0 || n > 255 || end == 0)
		return false;
	if (h[0] == '[')
		return end > 2 && h[end - 1] == ']' &&
		       strspn(h + 1, "0123456789abcdefABCDEF:.") == end - 2;
	bool named = false;
	for (size_t i = 0; i < end; i++) {
		if (!alnum(h[i]) && h[i] != '-' && h[i] != '.' && h[i] != '_')
			return false;
		named |= alnum(h[i]);
	}
	return named;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	char *host = xstrndup((const char *)data, size); /* up to a raw NUL */
	if (request_host_valid(host) != plain_host(host))
		__builtin_trap();
	free(host);
	check_decoding((const char *)data + 1, size - 1, data[0] & 1);

	char *path = xstrndup((const char *)data, size); /* up to a raw NUL */
	struct request req;
	request_from_uri(&req, "GET", path);
	if (!req.path || !*req.path || !req.query)
		__builtin_trap();
	if (strstr(req.path, "%00") && !req.holds_nul)
		__builtin_trap();
	request_free(&req);
	free(path);
	return 0;
}
