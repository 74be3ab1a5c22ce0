/* app: the request pipeline; see app.h. */
#include "autoconfig.h"

#include "app/app.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "api/api.h"
#include "api/listing.h"
#include "guard/guard.h"
#include "http/http_cache.h"
#include "core/log.h"
#include "app/router.h"
#include "cache/upkeep.h"
#include "change/watch.h"
#include "lib/strbuf.h"
#include "lib/url.h"
#include "site/index.h"

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

static long long now_ns(void);
#define SECOND_NS 1000000000LL

/* Reads the site into snapshot bytes (appended to out), a file that no
 * longer parses standing in with its version in the index in use. */
static void build_snapshot_bytes(const struct app *app, uint64_t generation, struct strbuf *out)
{
	value_t previous = app->snap ? snapshot_sources(app->snap) : VALUE_MISSING;
	struct site_index *idx = site_index_load_over(&app->cfg, previous);
	snapshot_write(idx, generation, out);
	site_index_free(idx);
}

static struct snapshot *open_own_bytes(struct strbuf *bytes)
{
	size_t len;
	char *data = strbuf_detach(bytes, &len);
	char err[SNAP_ERR_LEN];
	struct snapshot *snap = snapshot_from_bytes(data, len, err);
	if (!snap) {
		/* Our own fresh bytes: failing here is a bug, not bad input. */
		log_error("the index snapshot just built is unreadable: %s", err);
		abort();
	}
	return snap;
}

static bool same_problem(const struct snap_problem *a, const struct snap_problem *b)
{
	return a->line == b->line && a->warning == b->warning && strcmp(a->path, b->path) == 0 &&
	       strcmp(a->message, b->message) == 0;
}

/* One problem as a line: "root/path:line: message". */
static void problem_line(const struct app *app, const struct snap_problem *p, struct strbuf *out)
{
	strbuf_addf(out, "%s%s%s", app->cfg.content_root, *p->path ? "/" : "", p->path);
	if (p->line > 0)
		strbuf_addf(out, ":%d", p->line);
	strbuf_addf(out, ": %s", p->message);
}

/* Logs the errors of a new index that neither the index in use nor the
 * last one built had: a file that stopped parsing, or a folder that
 * cannot be read, is said once, when it changes, not at every build. */
static void log_new_problems(struct app *app, const struct snapshot *built)
{
	struct strbuf seen = STRBUF_INIT, line = STRBUF_INIT;
	for (uint32_t i = 0; i < snap_problem_count(built); i++) {
		struct snap_problem p = snap_problem_at(built, i);
		if (p.warning)
			continue;
		bool known = false;
		for (uint32_t j = 0; !known && app->snap && j < snap_problem_count(app->snap); j++) {
			struct snap_problem q = snap_problem_at(app->snap, j);
			known = same_problem(&p, &q);
		}
		strbuf_reset(&line);
		problem_line(app, &p, &line);
		strbuf_addch(&line, '\n');
		if (!known && !strstr(strbuf_str(&app->logged_problems), line.ptr))
			log_warning("%.*s", (int)line.len - 1, line.ptr);
		strbuf_add(&seen, line.ptr, line.len);
	}
	strbuf_release(&app->logged_problems);
	app->logged_problems = seen;
	strbuf_release(&line);
}

static void use_snapshot(struct app *app, struct snapshot *snap, uint64_t generation)
{
	snapshot_close(app->snap);
	app->snap = snap;
	app->generation = generation;
	app->index_serial++;
	renders_clear(&app->renders); /* they were rendered from the old one */
}

static bool has_good_index(const struct app *app)
{
	return app->snap && !snapshot_incomplete(app->snap);
}

/* Whether snap may take the place of the index in use: an index of a
 * site that could not be read whole never replaces a good one. */
static bool takes_over(struct app *app, struct snapshot *snap, uint64_t generation)
{
	if (!snapshot_incomplete(snap) || !has_good_index(app))
		return true;
	log_every_minute(LOG_LEVEL_ERROR, "the site %s cannot be read whole (generation %llu): "
	                 "still serving its last good index (generation %llu), uncached",
	                 app->cfg.content_root, (unsigned long long)generation,
	                 (unsigned long long)app->generation);
	app->failed_generation = generation;
	app->next_build_try = now_ns() + 2 * SECOND_NS;
	return false;
}

/* A worker with no index at all, the site unreadable: the newest good
 * snapshot another worker left in the cache directory, if any. */
static struct snapshot *newest_good_snapshot(const struct app *app, uint64_t *generation)
{
	uint64_t n;
	char *path = shared_newest_snapshot(&app->paths, &n);
	char err[SNAP_ERR_LEN];
	struct snapshot *snap = path ? snapshot_map(path, err) : NULL;
	free(path);
	if (snap && snapshot_incomplete(snap)) {
		snapshot_close(snap);
		snap = NULL;
	}
	*generation = n;
	return snap;
}

/*
 * Maps the snapshot of the generation, building and publishing it when
 * it is missing. One worker builds while the others keep answering from
 * the index they have; a worker that has none waits for it. A build of a
 * site that cannot be read whole is neither published nor used in place
 * of a good index.
 */
static void load_generation(struct app *app, uint64_t generation)
{
	char err[SNAP_ERR_LEN];
	char *path = shared_snapshot_path(&app->paths, generation);
	struct snapshot *snap = snapshot_map(path, err);
	if (!snap) {
		int fd = open(app->paths.index_lock, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
		int how = app->snap ? LOCK_EX | LOCK_NB : LOCK_EX;
		if (fd >= 0 && flock(fd, how) == 0) {
			snap = snapshot_map(path, err); /* built while we waited? */
			if (!snap) {
				struct strbuf bytes = STRBUF_INIT;
				build_snapshot_bytes(app, generation, &bytes);
				snap = open_own_bytes(&bytes);
				log_new_problems(app, snap);
				if (snapshot_incomplete(snap)) {
					/* Not the site: kept to itself, never shared. */
				} else if (snapshot_save_open(snap, path, err) == 0) {
					shared_remove_old_snapshots(&app->paths, generation);
					/* The file's pages are shared with the other workers. */
					struct snapshot *mapped = snapshot_map(path, err);
					if (mapped) {
						snapshot_close(snap);
						snap = mapped;
					}
				} else {
					log_every_minute(LOG_LEVEL_WARNING, "cannot share the index: %s", err);
				}
			}
		}
		if (fd >= 0)
			close(fd);
	}
	if (snap && snapshot_incomplete(snap) && !has_good_index(app)) {
		/* No good index in hand: the newest good one on disk serves
		 * until the site reads whole again. */
		uint64_t older;
		struct snapshot *good = newest_good_snapshot(app, &older);
		if (good)
			use_snapshot(app, good, older);
	}
	if (!snap) {
		if (!app->snap)
			log_every_minute(LOG_LEVEL_ERROR, "no index for generation %llu: %s",
			                 (unsigned long long)generation, err);
	} else if (takes_over(app, snap, generation)) {
		use_snapshot(app, snap, generation);
	} else {
		snapshot_close(snap);
	}
	free(path);
}

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (long long)ts.tv_sec * SECOND_NS + ts.tv_nsec;
}

static void remember_generation_file(struct app *app, const struct stat *st)
{
	app->seen_mtime_ns = (long long)st->st_mtim.tv_sec * SECOND_NS + st->st_mtim.tv_nsec;
	app->seen_ino = (unsigned long)st->st_ino;
}

static bool generation_file_unchanged(const struct app *app, const struct stat *st)
{
	long long mtime = (long long)st->st_mtim.tv_sec * SECOND_NS + st->st_mtim.tv_nsec;
	return mtime == app->seen_mtime_ns && (unsigned long)st->st_ino == app->seen_ino;
}

/* Shared modes: moves to a newer index when the generation file says the
 * site changed (one stat when it did not). */
static void refresh_shared(struct app *app)
{
	if (app->mode == APP_SHARED_WATCH && now_ns() >= app->next_watch_check) {
		/* A watcher that died (its worker was stopped) is replaced. */
		watch_start(&app->cfg, &cache_upkeep_hooks);
		app->next_watch_check = now_ns() + 2 * SECOND_NS;
	}
	struct stat st;
	if (stat(app->paths.generation, &st) != 0) {
		/* The cache directory was cleared: answer from the index in use
		 * and file nothing until the watcher writes a new generation. */
		app->cache_current = false;
		app->seen_mtime_ns = -1;
		return;
	}
	if (app->snap && generation_file_unchanged(app, &st))
		return;
	struct generation g;
	if (generation_read(app->paths.generation, &g) != 0) {
		app->cache_current = false; /* caught half written: read it again next time */
		return;
	}
	/* A generation whose site could not be read whole is tried again
	 * every two seconds, not at every request. */
	if ((!app->snap || g.index != app->generation) &&
	    (g.index != app->failed_generation || now_ns() >= app->next_build_try))
		load_generation(app, g.index);
	/* Answers from an older index must not be filed under a newer cache
	 * generation. */
	app->cache_current = app->snap && app->generation == g.index;
	app->cache_generation = g.cache_signature;
	if (app->cache_current)
		remember_generation_file(app, &st);
}

/* Builds an index of the app's own from the site (the CLI, or a worker
 * whose cache directory cannot be used). */
static void build_own_index(struct app *app)
{
	struct strbuf bytes = STRBUF_INIT;
	app->own_signature = content_signature(&app->cfg);
	build_snapshot_bytes(app, 0, &bytes);
	struct snapshot *snap = open_own_bytes(&bytes);
	if (app->wanted != APP_PRIVATE)
		log_new_problems(app, snap); /* the CLI reports them itself */
	if (takes_over(app, snap, 0))
		use_snapshot(app, snap, 0);
	else
		snapshot_close(snap);
}

/* Moves to the shared mode asked for. Returns false, with errno set and
 * nothing changed, when the cache directory cannot be used for it. */
static bool share(struct app *app)
{
	struct shared_paths paths;
	if (shared_paths_init(&paths, &app->cfg) != 0)
		return false;
	shared_paths_free(&app->paths);
	app->paths = paths;
	/* The first worker ever, or the first since the watcher stopped
	 * (changes may have been made meanwhile), brings the generation up
	 * to date before using it; later workers trust the running watcher. */
	struct generation g;
	bool started = app->wanted == APP_SHARED_WATCH && watch_start(&app->cfg, &cache_upkeep_hooks);
	if (started || generation_read(app->paths.generation, &g) != 0)
		watch_scan_once(&app->cfg);
	if (generation_read(app->paths.generation, &g) != 0) {
		/* No generation can be written there (a full disk): nothing to
		 * follow. */
		int saved = errno ? errno : EIO;
		shared_paths_free(&app->paths);
		errno = saved;
		return false;
	}
	app->mode = app->wanted;
	app->next_watch_check = now_ns() + 2 * SECOND_NS;
	app->seen_mtime_ns = -1;
	refresh_shared(app);
	cache_free(&app->cache); /* a worker back to sharing had one before */
	cache_init(&app->cache, &app->cfg, &app->paths);
	return true;
}

/* Fallen back to an index of its own: looks for the cache directory and
 * for changes now and then (see app.h). */
static void refresh_fallen_back(struct app *app)
{
	long long now = now_ns();
	if (now >= app->next_share_try) {
		app->next_share_try = now + 2 * SECOND_NS;
		if (share(app)) {
			log_warning("cache directory %s is usable again: this worker shares the index "
			            "and the cache again", app->cfg.cache_dir);
			return;
		}
	}
	if (now >= app->next_site_scan) {
		app->next_site_scan = now + SECOND_NS;
		if (content_signature(&app->cfg) != app->own_signature) {
			build_own_index(app);
			log_info("the site changed: this worker's own index was rebuilt");
		}
	}
}

void app_refresh(struct app *app)
{
	if (app->mode != APP_PRIVATE)
		refresh_shared(app);
	else if (app->wanted != APP_PRIVATE)
		refresh_fallen_back(app);
}

static void fall_back(struct app *app, int err)
{
	app->mode = APP_PRIVATE;
	log_warning("cache directory %s is not usable (%s): this worker answers uncached from an "
	            "index of its own, looks for changes to the site itself, and tries the "
	            "directory again every 2 seconds",
	            app->cfg.cache_dir && *app->cfg.cache_dir ? app->cfg.cache_dir : "(none set)",
	            strerror(err));
	app->next_share_try = now_ns() + 2 * SECOND_NS;
	app->next_site_scan = now_ns() + SECOND_NS;
}

void app_open_with_config(struct app *app, struct config *cfg, enum app_mode mode)
{
	memset(app, 0, sizeof *app);
	app->cfg = *cfg;
	memset(cfg, 0, sizeof *cfg);
	guard_state_init(&app->guard, app->cfg.auth_database);
	renders_init(&app->renders, RENDERS_DEFAULT_MAX_BYTES);
	app->wanted = mode;
	app->mode = mode;
	/* The limit is for a web server's clients, not for `cms-api get`. */
	rate_limiter_init(&app->rate, &app->cfg, mode != APP_PRIVATE);
	if (mode != APP_PRIVATE)
		fastpath_init(&app->fastpath, &app->cfg);
	if (mode != APP_PRIVATE && !share(app))
		fall_back(app, errno ? errno : EIO);
	if (app->mode == APP_PRIVATE && !app->snap)
		build_own_index(app);
}

void app_close(struct app *app)
{
	rate_limiter_free(&app->rate);
	fastpath_free(&app->fastpath);
	renders_free(&app->renders);
	cache_free(&app->cache);
	guard_state_free(&app->guard);
	strbuf_release(&app->logged_problems);
	cache_ask_release(&app->pending);
	snapshot_close(app->snap);
	shared_paths_free(&app->paths);
	config_free(&app->cfg);
	memset(app, 0, sizeof *app);
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
static bool route_request(struct app *app, const char *rest, struct routed *r)
{
	memset(r, 0, sizeof *r);
	r->nsegments = split_segments(rest, r->segments);
	if (r->nsegments < 0) {
		r->nsegments = 0;
		return false;
	}
	const struct token_grant *grant = &app->guard.grant;
	const struct abilities *abilities = grant->id ? &grant->abilities : NULL;
	r->route = router_match(r->segments, (size_t)r->nsegments, &r->ctx);
	if (r->route && router_gate_open(&app->cfg, r->route, &r->ctx) &&
	    router_abilities_open(abilities, r->route, &r->ctx))
		return true;
	release_routed(r);
	return false;
}

/* Runs the route's handler, with the request's environment (bases,
 * moment, reference writer) set once for every handler. */
static void run_handler(struct app *app, const struct request *req, struct response *res,
                        struct routed *r, const char *mount)
{
	char *base = base_url(&app->cfg, req);
	char *api_base = api_base_url(&app->cfg, base, mount);
	struct api_ctx *ctx = &r->ctx;
	ctx->cfg = &app->cfg;
	ctx->snap = app->snap;
	ctx->req = req;
	ctx->res = res;
	ctx->now = (long long)time(NULL);
	ctx->env = (struct jsonw_env){base, api_base, api_write_ref, ctx};
	ctx->renders = &app->renders;
	regex_budget_init(&ctx->regex_budget, (unsigned long long)app->cfg.regex_budget);
	r->route->handler(ctx);
	if (!response_answered(res)) {
		log_error("programming error: %s left the request without an answer", req->path);
		response_server_error(res);
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
static bool answer_from_cache(struct app *app, const struct request *req, struct response *res)
{
	if (!app->cache.on || !app->cache_current)
		return false;
	cache_ask_set(&app->pending, &app->cfg, req);
	fastpath_note(&app->fastpath, req);
	if (cache_get(&app->cache, app->cache_generation, &app->pending, res)) {
		app->cache_use = APP_CACHE_HIT;
		return true;
	}
	app->cache_use = APP_CACHE_MISS;
	app->put_pending = true;
	return false;
}

/*
 * The static fast path: publishes what the cache holds for this GET. A
 * hit is published when its file is missing (the web server would have
 * answered it otherwise); a miss only once it is stored, and then the
 * stored bytes, read back: what the cache refused is never published.
 */
static void publish_cached(struct app *app, const struct response *res, bool stored_now)
{
	if (!app->fastpath.dir || res->status != 200)
		return;
	if (app->cache_use == APP_CACHE_HIT) {
		fastpath_publish(&app->fastpath, app->cache_generation, res, false);
		return;
	}
	if (!stored_now)
		return;
	struct response stored;
	response_init(&stored);
	if (cache_get(&app->cache, app->cache_generation, &app->pending, &stored))
		fastpath_publish(&app->fastpath, app->cache_generation, &stored, true);
	response_free(&stored);
}

void app_finish(struct app *app, const struct response *res)
{
	bool stored = app->put_pending;
	if (stored)
		cache_put(&app->cache, app->cache_generation, &app->pending, res);
	publish_cached(app, res, stored);
	app->put_pending = false;
	token_reader_flush(&app->guard.tokens, (long long)time(NULL));
}

/* The answer of a request that passed the guard and the rate limit: a 400
 * for a query out of bounds, a 404 when no route or gate lets it through,
 * else from the cache or from the index. */
static void answer(struct app *app, const struct request *req, struct response *res,
                   const char *rest, const char *mount)
{
	if (!acceptable(app, req, res))
		return;
	struct routed r;
	if (!route_request(app, rest, &r)) {
		response_not_found(res);
		return;
	}
	if (answer_from_cache(app, req, res)) {
		release_routed(&r);
		return;
	}
	if (has_good_index(app)) {
		run_handler(app, req, res, &r, mount);
	} else {
		/* Never an empty site in place of one that cannot be read. */
		log_every_minute(LOG_LEVEL_ERROR, "no good index of %s to answer from: the site "
		                 "cannot be read whole (cms-api check says why)",
		                 app->cfg.content_root);
		response_server_error(res);
	}
	release_routed(&r);
}

/* The answer itself, before what HTTP caching adds to it. */
static void respond(struct app *app, const struct request *req, struct response *res)
{
	response_reset(res);
	app->put_pending = false;
	app->cache_use = APP_CACHE_UNASKED;
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
	if (!guard_token(&app->guard, &app->cfg, app->snap, app->index_serial, req,
	                 (long long)time(NULL), res))
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
	answer(app, req, res, rest, mount);
	rate_verdict_headers(&verdict, res);
}

/* What the HTTP caching of the answer depends on (http_cache.h): whether
 * the response cache stands behind it and for how long, and whether a
 * token is required. */
static void http_policy(const struct app *app, const struct response *res,
                        struct http_cache_policy *p)
{
	p->token_required = guard_token_required(&app->cfg);
	p->stored = app->cache_use != APP_CACHE_UNASKED;
	p->max_age = app->cache_use == APP_CACHE_HIT ? res->expires - (long long)time(NULL)
	                                             : app->cfg.cache_expiry * 60LL;
}

void app_handle(struct app *app, const struct request *req, struct response *res)
{
	respond(app, req, res);
	struct http_cache_policy policy;
	http_policy(app, res, &policy);
	http_cache_answer(&policy, req, res);
}
