/* guard: bearer-token check; see guard.h. */
#include "autoconfig.h"

#include "guard.h"

#include <string.h>
#include <strings.h>

const char *bearer_token(const char *header, size_t *len)
{
	const char *found = NULL;
	if (!header)
		return NULL;
	for (const char *p = header; (p = strcasestr(p, "bearer ")) != NULL; p++)
		found = p + strlen("bearer ");
	if (!found)
		return NULL;
	size_t n = strcspn(found, ",");
	*len = n;
	return found;
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
