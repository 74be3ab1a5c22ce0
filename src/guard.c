/* guard: bearer-token check; see guard.h. */
#include "autoconfig.h"

#include "guard.h"

#include <string.h>
#include <strings.h>

static bool is_ows(char c)
{
	return c == ' ' || c == '\t';
}

/* A character of a token: printable ASCII but the space and the comma
 * (which joins a second header or credential on). */
static bool is_token_char(char c)
{
	unsigned char u = (unsigned char)c;
	return u > ' ' && u < 0x7f && u != ',';
}

const char *bearer_token(const char *header, size_t *len)
{
	static const char scheme[] = "Bearer";
	if (!header)
		return NULL;
	const char *p = header;
	while (is_ows(*p))
		p++;
	if (strncasecmp(p, scheme, strlen(scheme)) != 0 || p[strlen(scheme)] != ' ')
		return NULL;
	p += strlen(scheme);
	while (*p == ' ')
		p++;
	size_t n = 0;
	while (is_token_char(p[n]))
		n++;
	const char *rest = p + n;
	while (is_ows(*rest))
		rest++;
	if (n == 0 || *rest)
		return NULL;
	*len = n;
	return p;
}

bool constant_time_equal(const char *a, size_t alen, const char *b, size_t blen)
{
	/* Walk the expected secret in full whatever the input, so the time
	 * taken says nothing about how much of it matched. */
	unsigned char diff = (unsigned char)(alen != blen);
	for (size_t i = 0; i < blen; i++) {
		unsigned char ca = i < alen ? (unsigned char)a[i] : 0;
		diff |= (unsigned char)(ca ^ (unsigned char)b[i]);
	}
	return diff == 0;
}

bool guard_token(const struct config *cfg, const struct request *req, struct response *res)
{
	if (!cfg->auth_token || !*cfg->auth_token)
		return true;
	size_t len = 0;
	const char *token = bearer_token(req->authorization, &len);
	if (token && constant_time_equal(token, len, cfg->auth_token, strlen(cfg->auth_token)))
		return true;
	response_error(res, 401, "Unauthenticated.");
	response_set_header(res, "WWW-Authenticate", "Bearer");
	return false;
}
