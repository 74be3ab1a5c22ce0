/* app: the request pipeline; see app.h. */
#include "autoconfig.h"

#include "app.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "api/api.h"
#include "guard.h"
#include "log.h"
#include "router.h"
#include "site/watch.h"
#include "strbuf.h"

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

/* Reads the site into snapshot bytes (appended to out). */
static void build_snapshot_bytes(const struct config *cfg, uint64_t generation,
                                 struct strbuf *out)
{
	struct site_index *idx = site_index_load(cfg);
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

static void use_snapshot(struct app *app, struct snapshot *snap, uint64_t generation)
{
	snapshot_close(app->snap);
	app->snap = snap;
	app->generation = generation;
}

/*
 * Maps the snapshot of the generation, building and publishing it when
 * it is missing. One worker builds while the others keep answering from
 * the index they have; a worker that has none waits for it.
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
				build_snapshot_bytes(&app->cfg, generation, &bytes);
				if (snapshot_save(&bytes, path, err) == 0) {
					shared_remove_old_snapshots(&app->paths, generation);
					strbuf_release(&bytes);
					snap = snapshot_map(path, err);
				} else {
					log_warning("cannot share the index: %s", err);
					snap = open_own_bytes(&bytes);
				}
			}
		}
		if (fd >= 0)
			close(fd);
	}
	if (snap)
		use_snapshot(app, snap, generation);
	else if (!app->snap)
		log_error("no index for generation %llu: %s", (unsigned long long)generation, err);
	free(path);
}

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

void app_refresh(struct app *app)
{
	if (app->mode == APP_PRIVATE)
		return;
	if (app->mode == APP_SHARED_WATCH && now_ns() >= app->next_watch_check) {
		/* A watcher that died (its worker was stopped) is replaced. */
		watch_start(&app->cfg);
		app->next_watch_check = now_ns() + 2000000000LL;
	}
	struct stat st;
	if (stat(app->paths.generation, &st) != 0)
		return;
	long long mtime = (long long)st.st_mtim.tv_sec * 1000000000LL + st.st_mtim.tv_nsec;
	if (app->snap && mtime == app->seen_mtime_ns && (unsigned long)st.st_ino == app->seen_ino)
		return;
	struct generation g;
	if (generation_read(app->paths.generation, &g) != 0)
		return;
	if (!app->snap || g.index != app->generation)
		load_generation(app, g.index);
	/* Answers from an older index must not be filed under a newer cache
	 * generation. */
	app->cache_current = app->snap && app->generation == g.index;
	app->cache_generation = g.cache;
	if (app->cache_current) {
		app->seen_mtime_ns = mtime;
		app->seen_ino = (unsigned long)st.st_ino;
	}
}

static void open_shared(struct app *app)
{
	if (shared_paths_init(&app->paths, &app->cfg) != 0) {
		log_info("cache directory %s is not usable; the index is private to this process",
		         app->cfg.cache_dir);
		app->mode = APP_PRIVATE;
		return;
	}
	/* The first worker ever, or the first since the watcher stopped
	 * (changes may have been made meanwhile), brings the generation up
	 * to date before using it; later workers trust the running watcher. */
	struct generation g;
	bool started = app->mode == APP_SHARED_WATCH && watch_start(&app->cfg);
	if (started || generation_read(app->paths.generation, &g) != 0)
		watch_scan_once(&app->cfg);
	app_refresh(app);
	if (!app->snap)
		app->mode = APP_PRIVATE;
}

void app_open_with_config(struct app *app, struct config *cfg, enum app_mode mode)
{
	memset(app, 0, sizeof *app);
	app->cfg = *cfg;
	memset(cfg, 0, sizeof *cfg);
	app->mode = mode;
	if (mode != APP_PRIVATE)
		open_shared(app);
	if (app->mode == APP_PRIVATE && !app->snap) {
		struct strbuf bytes = STRBUF_INIT;
		build_snapshot_bytes(&app->cfg, 0, &bytes);
		use_snapshot(app, open_own_bytes(&bytes), 0);
	}
	if (app->mode != APP_PRIVATE)
		cache_init(&app->cache, &app->cfg, &app->paths);
}

void app_close(struct app *app)
{
	strbuf_release(&app->pending_key);
	snapshot_close(app->snap);
	shared_paths_free(&app->paths);
	config_free(&app->cfg);
	memset(app, 0, sizeof *app);
}

/* The part of path below "/{route}", or NULL when path is not under it. */
static const char *below_route(const char *path, const char *route)
{
	if (*path == '/')
		path++;
	size_t n = strlen(route);
	if (n == 0)
		return path;
	if (strncmp(path, route, n) != 0 || (path[n] != '\0' && path[n] != '/'))
		return NULL;
	return path[n] == '/' ? path + n + 1 : path + n;
}

static void free_segments(char **segments, int n)
{
	for (int i = 0; i < n; i++)
		free(segments[i]);
}

/* Splits rest into decoded segments. A trailing '/' is ignored, as
 * Laravel does; an empty segment in the middle ("a//b") matches nothing.
 * Returns the count, or -1 (nothing left allocated) when there are too
 * many segments for any route. */
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

static char *api_base_url(const struct config *cfg, const char *base)
{
	struct strbuf b = STRBUF_INIT;
	strbuf_addstr(&b, base);
	if (cfg->route && *cfg->route)
		strbuf_addf(&b, "/%s", cfg->route);
	return strbuf_detach(&b, NULL);
}

static bool method_allowed(const char *method)
{
	return strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0;
}

/* Routes the request, passes the route's enabling gate and runs its
 * handler, with the request's environment (bases, moment, reference
 * writer) set once for every handler. */
static void dispatch(struct app *app, const struct request *req, struct response *res,
                     const char *rest)
{
	char *segments[ROUTER_MAX_SEGMENTS];
	int n = split_segments(rest, segments);
	if (n < 0) {
		response_not_found(res);
		return;
	}
	char *base = base_url(&app->cfg, req);
	char *api_base = api_base_url(&app->cfg, base);
	struct api_ctx ctx = {
		.cfg = &app->cfg, .snap = app->snap, .req = req, .res = res,
		.now = (long long)time(NULL),
	};
	ctx.env = (struct jsonw_env){base, api_base, api_write_ref, &ctx};
	const struct route *route = router_match(segments, (size_t)n, &ctx);
	if (route && router_gate_open(&app->cfg, route, &ctx))
		route->handler(&ctx);
	else
		response_not_found(res);
	if (!response_answered(res)) {
		log_error("programming error: %s left the request without an answer", req->path);
		response_server_error(res);
	}
	free_segments(segments, n);
	free(api_base);
	free(base);
}

/* Answers from the cache when it holds the request; otherwise leaves the
 * key for app_finish. */
static bool answer_from_cache(struct app *app, const struct request *req, struct response *res)
{
	if (!app->cache.on || !app->cache_current)
		return false;
	strbuf_reset(&app->pending_key);
	cache_key(&app->cfg, req, &app->pending_key);
	if (cache_get(&app->cache, app->cache_generation, app->pending_key.ptr, res))
		return true;
	app->pending = true;
	return false;
}

void app_finish(struct app *app, const struct response *res)
{
	if (app->pending)
		cache_put(&app->cache, app->cache_generation, app->pending_key.ptr, res);
	app->pending = false;
}

void app_handle(struct app *app, const struct request *req, struct response *res)
{
	response_reset(res);
	app->pending = false;
	app_refresh(app);
	const char *rest = below_route(req->path, app->cfg.route ? app->cfg.route : "");
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
	if (!guard_token(&app->cfg, req, res))
		return;
	if (!method_allowed(req->method)) {
		response_method_not_allowed(res);
		return;
	}
	if (answer_from_cache(app, req, res))
		return;
	dispatch(app, req, res, rest);
}
