/* app: the request pipeline; see app.h. */
#include "autoconfig.h"

#include "app/app.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "api/api.h"
#include "api/listing.h"
#include "app/hooks.h"
#include "app/router.h"
#include "core/log.h"
#include "edge/syncrecord.h"
#include "edge/tagheader.h"
#include "guard/guard.h"
#include "http/cors.h"
#include "http/http_cache.h"
#include "lib/strbuf.h"
#include "lib/url.h"
#include "query/search.h"

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
		free(app->sync_journal);
		app->sync_journal = sync_journal_path(&app->follow.paths);
	}
}

void app_refresh(struct app *app)
{
	follow_refresh(&app->follow);
	take_news(app);
}

void app_between_requests(struct app *app)
{
	follow_tend(&app->follow);
	take_news(app);
}

bool app_config_changed(struct app *app)
{
	char err[CONFIG_ERR_LEN];
	enum config_news news = config_check_file(&app->cfg, &app->config_seen, err);
	if (news == CONFIG_BROKEN)
		log_error("configuration %s changed: %s: this worker goes on with the one it has",
		          app->cfg.path, err);
	return news == CONFIG_CHANGED;
}

pid_t app_spawn_watcher(const struct config *cfg)
{
	return watch_spawn(cfg, &app_watch_hooks, NULL);
}

/* Loads the [shape] plugin, if one is named, at the first request (a
 * `cms-api check` runs none: it loads the plug-in itself and reports
 * what fails), after saying what one that crashed a worker before left
 * behind. One that cannot start leaves the items as the INI shapes them,
 * and says why. */
static void load_shape_plugin(struct app *app)
{
	if (!app->cfg.shape_plugin_path || app->shape_tried)
		return;
	app->shape_tried = true;
	shape_plugin_report_crashes(app->cfg.cache_dir);
	char why[CONFIG_ERR_LEN];
	if (shape_plugin_load(&app->cfg, true, &app->shape, why, sizeof why) != 0)
		log_error("the shape plug-in cannot start: %s: items go out without it", why);
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
	follow_open(&app->follow, &app->cfg, (enum follow_mode)mode, &app_watch_hooks);
	take_news(app);
}

void app_close(struct app *app)
{
	rate_limiter_free(&app->rate);
	fastpath_free(&app->fastpath);
	renders_free(&app->renders);
	shape_plugin_unload(&app->shape);
	search_index_close(app->search);
	cache_free(&app->cache);
	free(app->sync_journal);
	guard_state_free(&app->guard);
	follow_close(&app->follow);
	config_free(&app->cfg);
	memset(app, 0, sizeof *app);
}

void exchange_init(struct exchange *x)
{
	memset(x, 0, sizeof *x);
	token_grant_init(&x->grant);
	x->error = (struct http_error)HTTP_ERROR_INIT;
	x->tags = (struct tagset)TAGSET_INIT;
}

void exchange_begin(struct exchange *x, const struct request *req, struct response *res)
{
	x->req = req;
	x->res = res;
	x->cache_use = APP_CACHE_UNASKED;
	x->put_pending = false;
	http_error_clear(&x->error);
	token_grant_free(&x->grant);
}

void exchange_free(struct exchange *x)
{
	cache_ask_release(&x->ask);
	token_grant_free(&x->grant);
	http_error_free(&x->error);
	tagset_free(&x->tags);
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

/* api_ctx's may_read: what a per-user token's abilities let the request
 * read of another type's handle (a related item shown whole, or read by a
 * filter). gate is the struct abilities. */
static bool abilities_let_read(const void *gate, enum resource_type t, const char *handle)
{
	const struct abilities *a = gate;
	return handle ? abilities_cover_handle(a, t, handle) : abilities_cover_type(a, t);
}

/* Runs the route's handler, with the request's environment (bases,
 * moment, reference writer) set once for every handler. Returns 0 when
 * it answered, else the status of its failure in x->error. */
static int run_handler(struct app *app, struct exchange *x, struct routed *r, const char *mount)
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
	ctx->error = &x->error;
	if (x->grant.id) {
		ctx->may_read = abilities_let_read;
		ctx->gate = &x->grant.abilities;
	}
	load_shape_plugin(app);
	ctx->shape_plugin = app->shape.handle ? &app->shape : NULL;
	ctx->search = &app->search;
	ctx->tags = edge_tags_on(&app->cfg) ? &x->tags : NULL;
	ctx->generation = app->follow.cache_current ? app->follow.cache_generation : 0;
	ctx->sync_journal = app->follow.mode != FOLLOW_PRIVATE ? app->sync_journal : NULL;
	regex_budget_init(&ctx->regex_budget, (unsigned long long)app->cfg.regex_budget);
	int status = r->route->handler(ctx);
	if (status == 0 && !response_answered(x->res)) {
		log_error("programming error: %s left the request without an answer", x->req->path);
		status = http_error_server(&x->error);
	} else if (status != 0 && status != x->error.status) {
		log_error("programming error: %s failed (%d) without its message", x->req->path, status);
		status = http_error_server(&x->error);
	}
	free(api_base);
	free(base);
	return status;
}

/* Refuses (400) a request that encodes a NUL byte, whose name or value
 * would read cut short, or that asks more than [api]'s bounds allow:
 * returns 0, or 400 with its message in e. Before the cache: a 400 is
 * never cached, and a query too long or too big is not worth hashing. */
static int check_acceptable(const struct app *app, const struct request *req,
                            struct http_error *e)
{
	int status = listing_check_bounds(&app->cfg, req, e);
	if (status != 0)
		return status;
	if (req->holds_nul)
		return http_error_set(e, 400, "The request holds a NUL byte (%%00).");
	return 0;
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
 * else from the cache or from the index. Returns 0 when x->res holds it,
 * else the status of the failure in x->error. */
static int answer(struct app *app, struct exchange *x, const char *rest, const char *mount)
{
	int status = check_acceptable(app, x->req, &x->error);
	if (status != 0)
		return status;
	struct routed r;
	if (!route_request(app, x, rest, &r))
		return http_error_not_found(&x->error);
	if (answer_from_cache(app, x)) {
		release_routed(&r);
		return 0;
	}
	if (follow_has_good_index(&app->follow)) {
		status = run_handler(app, x, &r, mount);
	} else {
		/* Never an empty site in place of one that cannot be read. */
		log_every_minute(LOG_LEVEL_ERROR, "no good index of %s to answer from: the site "
		                 "cannot be read whole (cms-api check says why)",
		                 app->cfg.content_root);
		status = http_error_server(&x->error);
	}
	release_routed(&r);
	return status;
}

/* The 204 of a CORS preflight (http/cors.h), once the rate limit let it
 * through (counted by address: a preflight carries no token); else the
 * status of the refusal in x->error. */
static int preflight(struct app *app, struct exchange *x, struct rate_verdict *verdict)
{
	rate_limiter_hit(&app->rate, x->req, NULL, (long long)time(NULL), verdict);
	int status = rate_verdict_refusal(verdict, &x->error);
	if (status == 0)
		cors_answer_preflight(&app->cfg, x->req, x->res);
	return status;
}

/*
 * The token check and the rate limit around it (ratelimit.h): where a
 * token is needed, an address whose budget is spent gets its 429 before
 * any token of its is checked, and a request the guard refuses counts
 * against its address, so that guessing a token costs a request each
 * time; one it passes is counted under its verified token (by = token) or
 * its address, after the method check (a 405 is not counted). Returns 0,
 * or the status of the refusal in x->error; verdict says what the answer
 * carries.
 */
static int guard_and_count(struct app *app, struct exchange *x, struct rate_verdict *verdict)
{
	const struct request *req = x->req;
	long long now = (long long)time(NULL);
	if (guard_token_required(&app->cfg)) {
		rate_limiter_look(&app->rate, req, now, verdict);
		int spent = rate_verdict_refusal(verdict, &x->error);
		if (spent != 0)
			return spent;
	}
	int status = guard_token(&app->guard, &app->cfg, app->follow.snap, app->follow.serial, req,
	                         now, &x->grant, &x->error);
	if (status != 0) {
		rate_limiter_hit(&app->rate, req, NULL, now, verdict);
		/* Spent meanwhile by another worker: the 429, as if looked later. */
		int spent = rate_verdict_refusal(verdict, &x->error);
		return spent != 0 ? spent : status;
	}
	if (!method_allowed(req->method))
		return http_error_set(&x->error, 405, "Method Not Allowed.");
	/* Counted before the cache: a cached answer costs the client the
	 * same. */
	rate_limiter_hit(&app->rate, req, &x->grant, now, verdict);
	return rate_verdict_refusal(verdict, &x->error);
}

/* The answer itself, before the rate limit's headers and what HTTP caching
 * adds to it: each check of DESIGN.md's pipeline in turn, the first that
 * refuses the request ending it. Returns 0 when x->res holds the answer,
 * else the status of the failure in x->error. verdict: what the rate
 * limit said, once the request got that far (else it does not apply). */
static int respond(struct app *app, struct exchange *x, struct rate_verdict *verdict)
{
	const struct request *req = x->req;
	memset(verdict, 0, sizeof *verdict);
	app_refresh(app);
	const char *mount;
	const char *rest = below_route(req, app->cfg.route ? app->cfg.route : "", &mount);
	/* A disabled API has no routes at all, so even a POST is a 404. */
	if (!app->cfg.enabled || !rest)
		return http_error_not_found(&x->error);
	/* Absolute URLs and the cache key are made from the Host header. */
	if (!request_host_valid(req->host))
		return http_error_set(&x->error, 400, "The Host header is not a host name.");
	/* A preflight carries no token (browsers send none): answered before
	 * the guard, counted once, the content never read. */
	if (cors_is_preflight(&app->cfg, req))
		return preflight(app, x, verdict);
	int status = guard_and_count(app, x, verdict);
	if (status != 0)
		return status;
	return answer(app, x, rest, mount);
}

void app_answer_error(struct response *res, const struct http_error *e)
{
	response_error(res, e->status, strbuf_str(&e->message));
	/* Spec §5: a 401 names the scheme it wants, a 405 the methods there
	 * are. (A 429's headers are the rate limit's: rate_verdict_headers.) */
	if (e->status == 401)
		response_set_header(res, "WWW-Authenticate", "Bearer");
	else if (e->status == 405)
		response_set_header(res, "Allow", "GET, HEAD");
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
	http_error_clear(&x->error);
	response_reset(x->res);
	edge_tags_begin(&app->cfg, &x->tags);
	struct rate_verdict verdict;
	if (respond(app, x, &verdict) != 0)
		app_answer_error(x->res, &x->error);
	/* A hit brings the tags it was stored with. */
	if (x->cache_use != APP_CACHE_HIT)
		edge_tags_answer(&app->cfg, &x->tags, x->res);
	/* The limit's headers go on whatever the answer turned out to be. */
	rate_verdict_headers(&verdict, x->res);
	struct http_cache_policy policy;
	http_policy(app, x, &policy);
	http_cache_answer(&policy, x->req, x->res);
	cors_add_headers(&app->cfg, x->req, x->res);
}
