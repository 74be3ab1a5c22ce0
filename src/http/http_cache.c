/* http_cache: ETag, 304, Cache-Control, Vary and gzip; see http_cache.h. */
#include "autoconfig.h"

#include "http/http_cache.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>


void http_etag(uint64_t hash, bool gzip, char out[HTTP_ETAG_SIZE])
{
	snprintf(out, HTTP_ETAG_SIZE, "\"%016" PRIx64 "%s\"", hash, gzip ? "-gz" : "");
}

/* --- lists (RFC 9110 §5.6.1): elements split on ',', OWS around --- */

static bool is_ows(char c)
{
	return c == ' ' || c == '\t';
}

static const char *skip_ows(const char *p)
{
	while (is_ows(*p))
		p++;
	return p;
}

/* Whether s[0..n) is word, case-insensitively. */
static bool word_is(const char *s, size_t n, const char *word)
{
	return strlen(word) == n && strncasecmp(s, word, n) == 0;
}

/* A qvalue (RFC 9110 §12.4.2: "0" to "1" with at most three decimals)
 * in thousandths, or -1. */
static int parse_qvalue(const char *s, size_t n)
{
	if (n == 0 || (s[0] != '0' && s[0] != '1') || (n > 1 && (s[1] != '.' || n > 5)))
		return -1;
	int q = (s[0] - '0') * 1000;
	for (size_t i = 2, scale = 100; i < n; i++, scale /= 10) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		q += (s[i] - '0') * (int)scale;
	}
	return q <= 1000 ? q : -1;
}

/* The weight of one Accept-Encoding element's parameters at p (up to
 * end): 1000 without a "q", -1 when it is not a qvalue. */
static int element_weight(const char *p, const char *end)
{
	int q = 1000;
	while (p < end && *p == ';') {
		const char *name = skip_ows(p + 1);
		const char *next = memchr(name, ';', (size_t)(end - name));
		if (!next)
			next = end;
		const char *eq = memchr(name, '=', (size_t)(next - name));
		if (eq && word_is(name, (size_t)(eq - name), "q")) {
			const char *v = eq + 1, *v_end = next;
			while (v_end > v && is_ows(v_end[-1]))
				v_end--;
			q = parse_qvalue(v, (size_t)(v_end - v));
		}
		p = next;
	}
	return q;
}

bool http_accepts_gzip(const char *accept_encoding)
{
	if (!accept_encoding)
		return false;
	int gzip = -1, star = -1, identity = -1; /* -1: not named */
	const char *p = accept_encoding;
	while (*p) {
		const char *end = strchr(p, ',');
		if (!end)
			end = p + strlen(p);
		const char *name = skip_ows(p);
		const char *name_end = name;
		while (name_end < end && *name_end != ';' && !is_ows(*name_end))
			name_end++;
		size_t n = (size_t)(name_end - name);
		int q = element_weight(skip_ows(name_end), end);
		/* An element whose weight is not a qvalue says nothing. */
		if (q >= 0) {
			if (word_is(name, n, "gzip") || word_is(name, n, "x-gzip"))
				gzip = q > gzip ? q : gzip;
			else if (word_is(name, n, "*"))
				star = q;
			else if (word_is(name, n, "identity"))
				identity = q;
		}
		p = *end ? end + 1 : end;
	}
	/* gzip named outright counts over "*" (gzip;q=0 refuses it whatever
	 * "*" says); a client that names identity with a higher weight
	 * prefers the body as it is. */
	int q = gzip >= 0 ? gzip : star;
	return q > 0 && identity <= q;
}

unsigned http_if_none_match(const char *if_none_match, uint64_t hash)
{
	if (!if_none_match)
		return 0;
	char ours[HTTP_ETAG_SIZE];
	http_etag(hash, false, ours);
	const char *opaque = ours + 1; /* without the quotes: 16 hex digits */
	const size_t hex_len = strlen(ours) - 2;
	unsigned found = 0;
	const char *p = if_none_match;
	for (;;) {
		while (is_ows(*p) || *p == ',')
			p++;
		if (!*p)
			break;
		if (*p == '*') {
			found |= HTTP_MATCH_ANY;
			p++;
			continue;
		}
		/* Weak comparison: W/"x" names what "x" names. */
		if (p[0] == 'W' && p[1] == '/')
			p += 2;
		const char *close = *p == '"' ? strchr(p + 1, '"') : NULL;
		if (!close) {
			/* Not an entity tag: skipped, up to the next element. */
			const char *comma = strchr(p, ',');
			if (!comma)
				break;
			p = comma + 1;
			continue;
		}
		size_t n = (size_t)(close - p - 1);
		if (n >= hex_len && memcmp(p + 1, opaque, hex_len) == 0) {
			if (n == hex_len)
				found |= HTTP_MATCH_IDENTITY;
			else if (n == hex_len + 3 && memcmp(p + 1 + hex_len, "-gz", 3) == 0)
				found |= HTTP_MATCH_GZIP;
		}
		p = close + 1;
	}
	return found;
}

/* --- the headers --- */

/*
 * Cache-Control (RFC 9111 §5.2.2):
 *
 * An answer the response cache stands behind (a hit, or a miss that goes
 * into it: a 200 or a 404) may be reused for as long as the cache keeps
 * it: max-age is the seconds its entry has left (a hit) or the whole
 * [cache] expiry (a miss). cms-api sees a change to the site at once, a
 * client's copy only when max-age runs out or it asks again: [cache]
 * expiry bounds how old an answer a client may keep, as it bounds how
 * long cms-api keeps one.
 *  - "public" when the API needs no token: any cache may keep it.
 *  - "private" when it needs one: only the client's own cache may keep
 *    it. A shared cache (a proxy, a CDN) would hand one token's answer to
 *    requests without a token, or with one whose abilities differ. RFC
 *    9111 §3.5 keeps a compliant shared cache from storing answers to
 *    requests with Authorization anyway; "private" also covers one that
 *    adds the token itself, or strips it. The client's own cache may
 *    reuse the answer for max-age all the same: it holds the token and
 *    keeps what it was allowed to read, which it could keep anyway
 *    (a token revoked meanwhile gets no more than it already has);
 *    "no-cache" would cost every client a round trip and protect nothing.
 *
 * Anything else was made for this request alone (the cache is off or
 * was not used, or an error that is never stored): "no-cache", reused
 * only after asking again, which If-None-Match makes a 304. With a token
 * required: "private, no-cache", for the reasons above.
 */
static void set_cache_control(const struct http_cache_policy *p, struct response *res)
{
	bool stored = p->stored && (res->status == 200 || res->status == 404);
	const char *scope = p->token_required ? "private" : "public";
	if (!stored) {
		response_set_header(res, "Cache-Control", p->token_required ? "private, no-cache" : "no-cache");
		return;
	}
	char value[64];
	snprintf(value, sizeof value, "%s, max-age=%lld", scope, p->max_age > 0 ? p->max_age : 0);
	response_set_header(res, "Cache-Control", value);
}

/*
 * Vary (RFC 9110 §12.5.5): the request headers the answer depends on
 * beyond its URL. Accept-Encoding always, since a stored 200 goes out
 * gzip-compressed to a client that accepts it (and a 404 or an error at
 * the same URL may become such a 200 later). Authorization when a token
 * is required: the token decides between the answer and a 401, and a
 * per-user token's abilities decide what the answer holds.
 *
 * Not Host, though absolute URLs in a body come from it when [api]
 * base_url is empty: Host is part of the URL that every HTTP cache keys
 * its entries by (RFC 9111 §2), as the scheme is, so one host's answer
 * is never another's; "Vary: Host" would only make some caches refuse
 * to store the answer. X-Forwarded-For only feeds the rate limit, whose
 * headers describe one request and are never cached by cms-api.
 */
static void set_vary(const struct http_cache_policy *p, struct response *res)
{
	response_set_header(res, "Vary",
	                    p->token_required ? "Accept-Encoding, Authorization" : "Accept-Encoding");
}

/* Whether the 304 names the gzip form: the form the client holds when it
 * named one, else the form it would get. */
static bool holds_gzip_form(unsigned match, bool gzip_selected)
{
	bool identity = match & HTTP_MATCH_IDENTITY, gzip = match & HTTP_MATCH_GZIP;
	return identity == gzip ? gzip_selected : gzip;
}

/* ETag, and the form: 304, gzip or the body. */
static void choose_form(const struct request *req, struct response *res)
{
	uint64_t hash = response_body_hash(res);
	res->etag = hash;
	res->has_etag = true;
	bool gzip = res->gzip.len > 0 && http_accepts_gzip(req->accept_encoding);
	unsigned match = http_if_none_match(req->if_none_match, hash);
	char etag[HTTP_ETAG_SIZE];
	if (match) {
		res->form = RESPONSE_FORM_NOT_MODIFIED;
		http_etag(hash, holds_gzip_form(match, gzip), etag);
	} else {
		res->form = gzip ? RESPONSE_FORM_GZIP : RESPONSE_FORM_BODY;
		http_etag(hash, gzip, etag);
		if (gzip)
			response_set_header(res, "Content-Encoding", "gzip");
	}
	response_set_header(res, "ETag", etag);
}

void http_cache_answer(const struct http_cache_policy *p, const struct request *req,
                       struct response *res)
{
	if (res->state != RESPONSE_ANSWERED)
		return; /* goes out as the 500, whose headers are fixed */
	if (res->status == 200)
		choose_form(req, res);
	set_cache_control(p, res);
	set_vary(p, res);
}
