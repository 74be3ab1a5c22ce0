/* app: the request pipeline; see app.h. */
#include "autoconfig.h"

#include "app.h"

#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "guard.h"
#include "log.h"
#include "router.h"
#include "strbuf.h"

int app_open(struct app *app, const char *config_path, char err[CONFIG_ERR_LEN])
{
	struct config cfg;
	memset(app, 0, sizeof *app);
	if (config_load(&cfg, config_path, err) != 0)
		return -1;
	app_open_with_config(app, &cfg);
	return 0;
}

/* Reads the site and turns it into the snapshot requests read from. */
static struct snapshot *build_snapshot(const struct config *cfg)
{
	struct site_index *idx = site_index_load(cfg);
	struct strbuf bytes = STRBUF_INIT;
	snapshot_write(idx, 0, &bytes);
	site_index_free(idx);
	size_t len;
	char *data = strbuf_detach(&bytes, &len);
	char err[SNAP_ERR_LEN];
	struct snapshot *snap = snapshot_from_bytes(data, len, err);
	if (!snap) {
		/* Our own fresh bytes: failing here is a bug, not bad input. */
		log_error("the index snapshot just built is unreadable: %s", err);
		abort();
	}
	return snap;
}

void app_open_with_config(struct app *app, struct config *cfg)
{
	app->cfg = *cfg;
	memset(cfg, 0, sizeof *cfg);
	app->snap = build_snapshot(&app->cfg);
}

void app_close(struct app *app)
{
	snapshot_close(app->snap);
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

/* Splits rest into decoded segments. A trailing '/' is ignored, as
 * Laravel does; an empty segment in the middle ("a//b") matches nothing.
 * Returns the count, or -1 when there are too many segments. */
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
		if (n == ROUTER_MAX_SEGMENTS)
			return -1;
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
		.base = base, .api_base = api_base,
	};
	api_handler handler = router_match(segments, (size_t)n, &ctx);
	if (handler)
		handler(&ctx);
	else
		response_not_found(res);
	for (int i = 0; i < n; i++)
		free(segments[i]);
	free(api_base);
	free(base);
}

void app_handle(struct app *app, const struct request *req, struct response *res)
{
	response_reset(res);
	const char *rest = below_route(req->path, app->cfg.route ? app->cfg.route : "");
	/* A disabled API has no routes at all, so even a POST is a 404. */
	if (!app->cfg.enabled || !rest) {
		response_not_found(res);
		return;
	}
	if (!guard_token(&app->cfg, req, res))
		return;
	if (!method_allowed(req->method)) {
		response_method_not_allowed(res);
		return;
	}
	dispatch(app, req, res, rest);
}
