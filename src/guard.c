/* guard: bearer-token check; see guard.h. */
#include "autoconfig.h"

#include "guard.h"

#include <string.h>
#include <strings.h>

#include "site/people.h"
#include "strbuf.h"

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

bool guard_per_user(const struct config *cfg)
{
	return cfg->middleware && strcmp(cfg->middleware, "auth:token") == 0;
}

static bool shared_token_matches(const struct config *cfg, const char *token, size_t len)
{
	return token && cfg->auth_token && *cfg->auth_token &&
	       constant_time_equal(token, len, cfg->auth_token, strlen(cfg->auth_token));
}

static bool unauthenticated(struct response *res)
{
	response_error(res, 401, "Unauthenticated.");
	response_set_header(res, "WWW-Authenticate", "Bearer");
	return false;
}

static bool owner_is_user(const struct snapshot *snap, const char *owner)
{
	struct strbuf id = STRBUF_INIT;
	bool found = snap && users_find(snap_extras(snap, "users"), owner, false, &id);
	strbuf_release(&id);
	return found;
}

bool guard_token(const struct config *cfg, struct token_reader *tokens, const struct snapshot *snap,
                 const struct request *req, long long now, struct response *res,
                 struct token_grant *grant)
{
	token_grant_free(grant);
	bool per_user = guard_per_user(cfg);
	if (!per_user && (!cfg->auth_token || !*cfg->auth_token))
		return true;
	size_t len = 0;
	const char *token = bearer_token(req->authorization, &len);
	if (shared_token_matches(cfg, token, len))
		return true;
	if (!per_user || !token)
		return unauthenticated(res);
	switch (token_check(tokens, token, len, now, grant)) {
	case TOKEN_VALID:
		if (owner_is_user(snap, grant->owner)) {
			token_reader_used(tokens, grant->id, now);
			return true;
		}
		token_grant_free(grant);
		return unauthenticated(res);
	case TOKEN_UNAVAILABLE:
		response_error(res, 503, "Service Unavailable");
		return false;
	case TOKEN_INVALID:
		break;
	}
	return unauthenticated(res);
}
