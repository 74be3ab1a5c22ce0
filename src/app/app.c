/* app: the request pipeline; see app.h. */
#include "autoconfig.h"

#include "app/app.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/api.h"
#include "api/listing.h"
#include "app/router.h"
#include "cache/upkeep.h"
#include "core/log.h"
#include "guard/guard.h"
#include "http/http_cache.h"
#include "lib/strbuf.h"
#include "lib/url.h"

int app_open(struct app *app, const char *config_path, enum app_mode mode,
             char err[CONFIG_ERR_LEN])
{
	struct config cfg;
	memset(app, 0, sizeof *app);
	if (config_load(&cfg, config_path, err) != 0)
		return -1;
	app_open_with_config(app, &cfg, mode);
	return 0;
}

/* Sets up what follows the index when the follower says it moved: the
 * rendered entries are of the old index, and a follower that started
 * sharing the cache directory brings paths a cache can follow. */
static void take_news(struct app *app)
{
	unsigned news = follow_take_news(&app->follow);
	if (news & FOLLOW_NEW_INDEX)
		renders_clear(&app->renders);
	if (news & FOLLOW_SHARING) {
		cache_free(&app->cache); /* a worker back to sharing had one before */
		cache_init(&app->cache, &app->cfg, &app->follow.paths);
	}
}

void app_refresh(struct app *app)
{
	follow_refresh(&app->follow);
	take_news(app);
}

void app_open_with_config(struct app *app, struct config *cfg, enum app_mode mode)
{
	memset(app, 0, sizeof *app);
	app->cfg = *cfg;
	memset(cfg, 0, sizeof *cfg);
	guard_state_init(&app->guard, app->cfg.auth_database);
	renders_init(&app->renders, RENDERS_DEFAULT_MAX_BYTES);
	/* The limit is for a web server's clients, not for `cms-api get`. */
	rate_limiter_init(&app->rate, &app->cfg, mode != APP_PRIVATE);
	if (mode != APP_PRIVATE)
		fastpath_init(&app->fastpath, &app->cfg);
	follow_open(&app->follow, &app->cfg, (enum follow_mode)mode, &cache_upkeep_hooks);
	take_news(app);
}

void app_close(struct app *app)
{
	rate_limiter_free(&app->rate);
	fastpath_free(&app->fastpath);
	renders_free(&app->renders);
	cache_free(&app->cache);
	guard_state_free(&app->guard);
	follow_close(&app->follow);
	config_free(&app->cfg);
	memset(app, 0, sizeof *app);
}

void exchange_init(struct exchange *x)
{
	memset(x, 0, sizeof *x);
	token_grant_init(&x->grant);
}

void exchange_begin(struct exchange *x, const struct request *req, struct response *res)
{
	x->req = req;
	x->res = res;
	x->cache_use = APP_CACHE_UNASKED;
	x->put_pending = false;
	token_grant_free(&x->grant);
}

void exchange_free(struct exchange *x)
{
	cache_ask_release(&x->ask);
	token_grant_free(&x->grant);
	memset(x, 0, sizeof *x);
}

/* The part of path (without its leading '/') below prefix (without its
 * slashes), or NULL when path is not under it. */
static const char *below_prefix(const char *path, const char *prefix, size_t n)
{
	if (n == 0)
		return path;
	if (strncmp(path, prefix, n) != 0 || (path[n] != '\0' && path[n] != '/'))
		return NULL;
	return path[n] == '/' ? path + n + 1 : path + n;
}

/*
 * The part of the request's path below the route, or NULL when it is not
 * under it. The route is looked for at the root, then below the directory
 * of the script the server ran (SCRIPT_NAME): a request rewritten to
 * /~bob/cms-api.fcgi by a user's .htaccess (Apache userdir, a site in a
 * subdirectory) keeps its own path, /~bob/api/..., and the route follows
 * the script there, as a PHP front controller's base path does. *mount is
 * set to that directory ("/~bob"), or "" when the route is at the root.
 */
static const char *below_route(const struct request *req, const char *route, const char **mount)
{
	size_t n = strlen(route);
	*mount = "";
	const char *path = req->path[0] == '/' ? req->path + 1 : req->path;
	const char *rest = below_prefix(path, route, n);
	const char *dir = req->script_dir;
	if (rest || !dir || *dir != '/')
		return rest;
	const char *under_dir = below_prefix(path, dir + 1, strlen(dir + 1));
	rest = under_dir ? below_prefix(under_dir, route, n) : NULL;
	if (rest)
		*mount = dir;
	return rest;
}

static void free_segments(char **segments, int n)
{
	for (int i = 0; i < n; i++)
		free(segments[i]);
}

/* Splits rest into decoded segments. A trailing '/' is ignored, as
 * Laravel does; an empty segment in the middle ("a//b") matches nothing.
 * Returns the count, or -1 (nothing left allocated) when there are too
 * many segments for any route. (A request whose path encodes a NUL never
 * gets here: it is refused whole.) */
static int split_segments(const char *rest, char **segments)
{
	int n = 0;
	size_t len = strlen(rest);
	while (len > 0 && rest[len - 1] == '/')
		len--;
	const char *p = rest, *end = rest + len;
	while (p < end) {
		const char *slash = memchr(p, '/', (size_t)(end - p));
		const char *seg_end = slash ? slash : end;
		if (n == ROUTER_MAX_SEGMENTS) {
			free_segments(segments, n);
			return -1;
		}
		segments[n++] = url_decode(p, (size_t)(seg_end - p), false);
		p = slash ? slash + 1 : end;
	}
	return n;
}

/* Absolute URLs come from base_url, else from the request. */
static char *base_url(const struct config *cfg, const struct request *req)
{
	struct strbuf b = STRBUF_INIT;
	if (cfg->base_url && *cfg->base_url)
		strbuf_addstr(&b, cfg->base_url);
	else
		strbuf_addf(&b, "%s://%s", req->scheme, req->host);
	return strbuf_detach(&b, NULL);
}

static char *api_base_url(const struct config *cfg, const char *base, const char *mount)
{
	struct strbuf b = STRBUF_INIT;
	strbuf_addstr(&b, base);
	strbuf_addstr(&b, mount);
	if (cfg->route && *cfg->route)
		strbuf_addf(&b, "/%s", cfg->route);
	return strbuf_detach(&b, NULL);
}

static bool method_allowed(const char *method)
{
	return strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
}

/* A request routed: its decoded segments, the route that matched them
 * and the context its handler gets (params point into segments). */
struct routed {
	char *segments[ROUTER_MAX_SEGMENTS];
	int nsegments;
	const struct route *route;
	struct api_ctx ctx;
};

static void release_routed(struct routed *r)
{
	free_segments(r->segments, r->nsegments);
	free(r->ctx.tail);
}

/* Routes the request and passes both gates of router.h: what the config
 * enables, then what the request's per-user token may read. Cheap (no
 * data is read), so it runs before the cache: a cached answer is only
 * ever served to a request both gates let through. Returns false, with
 * nothing left allocated, when no route answers: a 404. */
static bool route_request(const struct app *app, const struct exchange *x, const char *rest,
                          struct routed *r)
{
	memset(r, 0, sizeof *r);
	r->nsegments = split_segments(rest, r->segments);
	if (r->nsegments < 0) {
		r->nsegments = 0;
		return false;
	}
	const struct abilities *abilities = x->grant.id ? &x->grant.abilities : NULL;
	r->route = router_match(r->segments, (size_t)r->nsegments, &r->ctx);
	if (r->route && router_gate_open(&app->cfg, r->route, &r->ctx) &&
	    router_abilities_open(abilities, r->route, &r->ctx))
		return true;
	release_routed(r);
	return false;
}

/* Runs the route's handler, with the request's environment (bases,
 * moment, reference writer) set once for every handler. */
static void run_handler(struct app *app, struct exchange *x, struct routed *r, const char *mount)
{
	char *base = base_url(&app->cfg, x->req);
	char *api_base = api_base_url(&app->cfg, base, mount);
	struct api_ctx *ctx = &r->ctx;
	ctx->cfg = &app->cfg;
	ctx->snap = app->follow.snap;
	ctx->req = x->req;
	ctx->res = x->res;
	ctx->now = (long long)time(NULL);
	ctx->env = (struct jsonw_env){base, api_base, api_write_ref, ctx};
	ctx->renders = &app->renders;
	regex_budget_init(&ctx->regex_budget, (unsigned long long)app->cfg.regex_budget);
	r->route->handler(ctx);
	if (!response_answered(x->res)) {
		log_error("programming error: %s left the request without an answer", x->req->path);
		response_server_error(x->res);
	}
	free(api_base);
	free(base);
}

/* Refuses (400) a request that encodes a NUL byte, whose name or value
 * would read cut short, or that asks more than [api]'s bounds allow.
 * Before the cache: a 400 is never cached, and a query too long or too
 * big is not worth hashing. */
static bool acceptable(const struct app *app, const struct request *req, struct response *res)
{
	char message[LISTING_MESSAGE_LEN];
	if (listing_check_bounds(&app->cfg, req, message) != 0) {
		response_error(res, 400, message);
		return false;
	}
	if (req->holds_nul) {
		response_error(res, 400, "The request holds a NUL byte (%00).");
		return false;
	}
	return true;
}

/* Answers from the cache when it holds the request; otherwise leaves the
 * key for app_finish. */
static bool answer_from_cache(struct app *app, struct exchange *x)
{
	if (!app->cache.on || !app->follow.cache_current)
		return false;
	cache_ask_set(&x->ask, &app->cfg, x->req);
	fastpath_note(&app->fastpath, x->req);
	if (cache_get(&app->cache, app->follow.cache_generation, &x->ask, x->res)) {
		x->cache_use = APP_CACHE_HIT;
		return true;
	}
	x->cache_use = APP_CACHE_MISS;
	x->put_pending = true;
	return false;
}

/*
 * The static fast path: publishes what the cache holds for this GET. A
 * hit is published when its file is missing (the web server would have
 * answered it otherwise); a miss only once it is stored, and then the
 * stored bytes, read back: what the cache refused is never published.
 */
static void publish_cached(struct app *app, const struct exchange *x, bool stored_now)
{
	uint64_t generation = app->follow.cache_generation;
	if (!app->fastpath.dir || x->res->status != 200)
		return;
	if (x->cache_use == APP_CACHE_HIT) {
		fastpath_publish(&app->fastpath, generation, x->res, false);
		return;
	}
	if (!stored_now)
		return;
	struct response stored;
	response_init(&stored);
	if (cache_get(&app->cache, generation, &x->ask, &stored))
		fastpath_publish(&app->fastpath, generation, &stored, true);
	response_free(&stored);
}

void app_finish(struct app *app, struct exchange *x)
{
	bool stored = x->put_pending;
	if (stored)
		cache_put(&app->cache, app->follow.cache_generation, &x->ask, x->res);
	publish_cached(app, x, stored);
	x->put_pending = false;
	token_reader_flush(&app->guard.tokens, (long long)time(NULL));
}

/* The answer of a request that passed the guard and the rate limit: a 400
 * for a query out of bounds, a 404 when no route or gate lets it through,
 * else from the cache or from the index. */
static void answer(struct app *app, struct exchange *x, const char *rest, const char *mount)
{
	if (!acceptable(app, x->req, x->res))
		return;
	struct routed r;
	if (!route_request(app, x, rest, &r)) {
		response_not_found(x->res);
		return;
	}
	if (answer_from_cache(app, x)) {
		release_routed(&r);
		return;
	}
	if (follow_has_good_index(&app->follow)) {
		run_handler(app, x, &r, mount);
	} else {
		/* Never an empty site in place of one that cannot be read. */
		log_every_minute(LOG_LEVEL_ERROR, "no good index of %s to answer from: the site "
		                 "cannot be read whole (cms-api check says why)",
		                 app->cfg.content_root);
		response_server_error(x->res);
	}
	release_routed(&r);
}

/* The answer itself, before what HTTP caching adds to it. */
static void respond(struct app *app, struct exchange *x)
{
	const struct request *req = x->req;
	struct response *res = x->res;
	response_reset(res);
	app_refresh(app);
	const char *mount;
	const char *rest = below_route(req, app->cfg.route ? app->cfg.route : "", &mount);
	/* A disabled API has no routes at all, so even a POST is a 404. */
	if (!app->cfg.enabled || !rest) {
		response_not_found(res);
		return;
	}
	/* Absolute URLs and the cache key are made from the Host header. */
	if (!request_host_valid(req->host)) {
		response_error(res, 400, "The Host header is not a host name.");
		return;
	}
	if (!guard_token(&app->guard, &app->cfg, app->follow.snap, app->follow.serial, req,
	                 (long long)time(NULL), &x->grant, res))
		return;
	if (!method_allowed(req->method)) {
		response_method_not_allowed(res);
		return;
	}
	/* Counted before the cache: a cached answer costs the client the
	 * same. Its headers go on whatever the answer turns out to be. */
	struct rate_verdict verdict;
	rate_limiter_hit(&app->rate, req, (long long)time(NULL), &verdict);
	if (verdict.applies && !verdict.allowed) {
		rate_verdict_refuse(&verdict, res);
		return;
	}
	answer(app, x, rest, mount);
	rate_verdict_headers(&verdict, res);
}

/* What the HTTP caching of the answer depends on (http_cache.h): whether
 * the response cache stands behind it and for how long, and whether a
 * token is required. */
static void http_policy(const struct app *app, const struct exchange *x,
                        struct http_cache_policy *p)
{
	p->token_required = guard_token_required(&app->cfg);
	p->stored = x->cache_use != APP_CACHE_UNASKED;
	p->max_age = x->cache_use == APP_CACHE_HIT ? x->res->expires - (long long)time(NULL)
	                                           : app->cfg.cache_expiry * 60LL;
}

void app_handle(struct app *app, struct exchange *x)
{
	x->cache_use = APP_CACHE_UNASKED;
	x->put_pending = false;
	respond(app, x);
	struct http_cache_policy policy;
	http_policy(app, x, &policy);
	http_cache_answer(&policy, x->req, x->res);
}
