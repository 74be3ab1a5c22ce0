/* guard: bearer-token check; see guard.h. */
#include "autoconfig.h"

#include "guard/guard.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/consttime.h"
#include "lib/strbuf.h"
#include "site/people.h"

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

bool guard_per_user(const struct config *cfg)
{
	return cfg->middleware && strcmp(cfg->middleware, "auth:token") == 0;
}

bool guard_token_required(const struct config *cfg)
{
	return guard_per_user(cfg) || (cfg->auth_token && *cfg->auth_token);
}

static bool shared_token_matches(const struct config *cfg, const char *token, size_t len)
{
	return token && cfg->auth_token && *cfg->auth_token &&
	       constant_time_equal(token, len, cfg->auth_token, strlen(cfg->auth_token));
}

static int unauthenticated(struct http_error *e)
{
	return http_error_set(e, 401, "Unauthenticated.");
}

void guard_state_init(struct guard_state *g, const char *database)
{
	memset(g, 0, sizeof *g);
	token_reader_init(&g->tokens, database);
}

static void forget_owners(struct guard_state *g)
{
	for (size_t i = 0; i < g->nknown; i++)
		free(g->known[i]);
	g->nknown = 0;
}

void guard_state_free(struct guard_state *g)
{
	forget_owners(g);
	token_reader_free(&g->tokens);
	memset(g, 0, sizeof *g);
}

static bool owner_is_user(struct guard_state *g, const struct snapshot *snap,
                          uint64_t index_serial, const char *owner)
{
	if (!snap)
		return false;
	if (g->known_index != index_serial) {
		forget_owners(g);
		g->known_index = index_serial;
	}
	for (size_t i = 0; i < g->nknown; i++)
		if (strcmp(g->known[i], owner) == 0)
			return true;
	struct strbuf id = STRBUF_INIT;
	bool found = users_find(snap_extras(snap, "users"), owner, false, &id);
	strbuf_release(&id);
	if (found) {
		if (g->nknown == GUARD_KNOWN_OWNERS)
			forget_owners(g);
		g->known[g->nknown++] = xstrdup(owner);
	}
	return found;
}

int guard_token(struct guard_state *g, const struct config *cfg, const struct snapshot *snap,
                uint64_t index_serial, const struct request *req, long long now,
                struct token_grant *grant, struct http_error *e)
{
	token_grant_free(grant);
	if (!guard_token_required(cfg))
		return 0;
	bool per_user = guard_per_user(cfg);
	size_t len = 0;
	const char *token = bearer_token(req->authorization, &len);
	if (shared_token_matches(cfg, token, len)) {
		grant->shared = true;
		return 0;
	}
	if (!per_user || !token)
		return unauthenticated(e);
	switch (token_check(&g->tokens, token, len, now, grant)) {
	case TOKEN_VALID:
		if (owner_is_user(g, snap, index_serial, grant->owner)) {
			token_reader_used(&g->tokens, grant->id, now);
			return 0;
		}
		token_grant_free(grant);
		return unauthenticated(e);
	case TOKEN_UNAVAILABLE:
		return http_error_set(e, 503, "Service Unavailable");
	case TOKEN_INVALID:
		break;
	}
	return unauthenticated(e);
}
