/* cors: Cross-Origin Resource Sharing; see cors.h. */
#include "autoconfig.h"

#include "http/cors.h"

#include <stdio.h>
#include <string.h>

#include "lib/strbuf.h"

/* What a script on the page may read beyond the CORS-safelisted
 * response headers: the validator and the rate limit's state. */
#define EXPOSED "ETag, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset, Retry-After"

bool cors_on(const struct config *cfg)
{
	return cfg->cors_origins.len > 0;
}

static bool every_origin(const struct config *cfg)
{
	return cfg->cors_origins.len == 1 && strcmp(cfg->cors_origins.items[0], "*") == 0;
}

/* The Access-Control-Allow-Origin value for req, or NULL when its origin
 * is not allowed (or it sent none). */
static const char *allowed_origin(const struct config *cfg, const struct request *req)
{
	if (!req->origin || !*req->origin)
		return NULL;
	if (every_origin(cfg))
		return cfg->cors_credentials ? req->origin : "*";
	return strlist_contains(&cfg->cors_origins, req->origin) ? req->origin : NULL;
}

bool cors_is_preflight(const struct config *cfg, const struct request *req)
{
	return cors_on(cfg) && strcmp(req->method, "OPTIONS") == 0 && req->origin &&
	       req->cors_method;
}

/* Appends name to the Vary header res has (or sets it). */
static void add_vary(struct response *res, const char *name)
{
	const char *vary = response_header(res, "Vary");
	if (!vary || !*vary) {
		response_set_header(res, "Vary", name);
		return;
	}
	struct strbuf v = STRBUF_INIT;
	strbuf_addf(&v, "%s, %s", vary, name);
	response_set_header(res, "Vary", v.ptr);
	strbuf_release(&v);
}

static void allow_origin(const struct config *cfg, const char *origin, struct response *res)
{
	response_set_header(res, "Access-Control-Allow-Origin", origin);
	if (cfg->cors_credentials)
		response_set_header(res, "Access-Control-Allow-Credentials", "true");
}

void cors_answer_preflight(const struct config *cfg, const struct request *req,
                           struct response *res)
{
	response_begin(res, 204, NULL);
	response_set_header(res, "Allow", "GET, HEAD, OPTIONS");
	const char *origin = allowed_origin(cfg, req);
	if (!origin)
		return;
	allow_origin(cfg, origin, res);
	response_set_header(res, "Access-Control-Allow-Methods", "GET, HEAD");
	response_set_header(res, "Access-Control-Allow-Headers", "Authorization, If-None-Match");
	char age[24];
	snprintf(age, sizeof age, "%ld", cfg->cors_max_age);
	response_set_header(res, "Access-Control-Max-Age", age);
}

void cors_add_headers(const struct config *cfg, const struct request *req, struct response *res)
{
	if (!cors_on(cfg))
		return;
	if (cors_is_preflight(cfg, req) && res->status == 204) {
		/* HTTP caching set its Vary over the preflight's: add to it. */
		add_vary(res, "Origin, Access-Control-Request-Method, Access-Control-Request-Headers");
		return;
	}
	add_vary(res, "Origin");
	const char *origin = allowed_origin(cfg, req);
	if (!origin)
		return;
	allow_origin(cfg, origin, res);
	response_set_header(res, "Access-Control-Expose-Headers", EXPOSED);
}
