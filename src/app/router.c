/* router: static route table, matcher and enabling gate; see router.h. */
#include "autoconfig.h"

#include "app/router.h"

#include <stdlib.h>
#include <string.h>

#include "lib/strbuf.h"

/* Most specific first is not needed: patterns never overlap. */
static const struct route routes[] = {
	{"", api_index, ROUTE_OPEN, -1, ROUTE_OPEN},
	{"ping", api_ping, ROUTE_OPEN, -1, ROUTE_OPEN},
	{"openapi.json", api_openapi, ROUTE_OPEN, -1, ROUTE_OPEN},
	{"sites", api_sites_index, RES_SITES, -1, ROUTE_OPEN},
	{"collections", api_collections_index, RES_COLLECTIONS, -1, ROUTE_OPEN},
	{"collections/{}", api_collections_show, RES_COLLECTIONS, 0, ROUTE_OPEN},
	{"collections/{}/entries", api_entries_index, RES_COLLECTIONS, 0, ROUTE_OPEN},
	{"collections/{}/entries/{}", api_entries_show, RES_COLLECTIONS, 0, ROUTE_OPEN},
	{"collections/{}/tree", api_collection_tree, RES_COLLECTIONS, 0, ROUTE_OPEN},
	{"navs", api_navs_index, RES_NAVS, -1, ROUTE_OPEN},
	{"navs/{}", api_navs_show, RES_NAVS, 0, ROUTE_OPEN},
	{"navs/{}/tree", api_navs_tree, RES_NAVS, 0, ROUTE_OPEN},
	{"taxonomies", api_taxonomies_index, RES_TAXONOMIES, -1, ROUTE_OPEN},
	{"taxonomies/{}", api_taxonomies_show, RES_TAXONOMIES, 0, ROUTE_OPEN},
	{"taxonomies/{}/terms", api_terms_index, RES_TAXONOMIES, 0, ROUTE_OPEN},
	{"taxonomies/{}/terms/{}", api_terms_show, RES_TAXONOMIES, 0, ROUTE_OPEN},
	/* A term's entries come from the collections the handler allows. */
	{"taxonomies/{}/terms/{}/entries", api_term_entries, RES_TAXONOMIES, 0, RES_COLLECTIONS},
	{"globals", api_globals_index, RES_GLOBALS, -1, ROUTE_OPEN},
	{"globals/{}", api_globals_show, RES_GLOBALS, 0, ROUTE_OPEN},
	{"forms", api_forms_index, RES_FORMS, -1, ROUTE_OPEN},
	{"forms/{}", api_forms_show, RES_FORMS, 0, ROUTE_OPEN},
	{"users", api_users_index, RES_USERS, -1, ROUTE_OPEN},
	{"users/{}", api_users_show, RES_USERS, -1, ROUTE_OPEN},
	{"asset-containers", api_asset_containers_index, RES_ASSETS, -1, ROUTE_OPEN},
	{"asset-containers/{}", api_asset_containers_show, RES_ASSETS, 0, ROUTE_OPEN},
	{"assets/{}", api_assets_index, RES_ASSETS, 0, ROUTE_OPEN},
	/* The asset's path inside its container, '/' and all. */
	{"assets/{}/{*}", api_assets_show, RES_ASSETS, 0, ROUTE_OPEN},
	/* An image of an asset at another size (api/images.h). */
	{"img/{}/{*}", api_images_show, RES_ASSETS, 0, ROUTE_OPEN},
	{"sync", api_sync, RES_SYNC, -1, ROUTE_OPEN},
};

/* A segment of a path inside a container: never one that climbs out or
 * names a folder of its own ("", ".", "..", an encoded '/' or '\\'). */
static bool safe_path_segment(const char *s)
{
	return *s && strcmp(s, ".") != 0 && strcmp(s, "..") != 0 && !strpbrk(s, "/\\");
}

/* The rest of the segments, from i, joined by '/' into ctx->tail. */
static bool match_tail(char **segments, size_t i, size_t n, struct api_ctx *ctx)
{
	if (i == n || ctx->nparams == API_MAX_PARAMS)
		return false;
	struct strbuf joined = STRBUF_INIT;
	for (size_t k = i; k < n; k++) {
		if (!safe_path_segment(segments[k])) {
			strbuf_release(&joined);
			return false;
		}
		strbuf_addf(&joined, "%s%s", k > i ? "/" : "", segments[k]);
	}
	free(ctx->tail);
	ctx->tail = strbuf_detach(&joined, NULL);
	ctx->params[ctx->nparams++] = ctx->tail;
	return true;
}

static bool match_route(const char *pattern, char **segments, size_t n, struct api_ctx *ctx)
{
	size_t i = 0;
	const char *p = pattern;
	ctx->nparams = 0;
	while (*p) {
		size_t len = strcspn(p, "/");
		if (strcmp(p, "{*}") == 0)
			return match_tail(segments, i, n, ctx);
		if (i == n)
			return false;
		if (len == 2 && memcmp(p, "{}", 2) == 0) {
			if (ctx->nparams == API_MAX_PARAMS)
				return false;
			ctx->params[ctx->nparams++] = segments[i];
		} else if (strlen(segments[i]) != len || memcmp(p, segments[i], len) != 0) {
			return false;
		}
		i++;
		p += len;
		if (*p == '/')
			p++;
	}
	return i == n;
}

const struct route *router_match(char **segments, size_t nsegments, struct api_ctx *ctx)
{
	for (size_t r = 0; r < sizeof routes / sizeof routes[0]; r++)
		if (match_route(routes[r].pattern, segments, nsegments, ctx))
			return &routes[r];
	ctx->nparams = 0;
	return NULL;
}

bool router_gate_open(const struct config *cfg, const struct route *route,
                      const struct api_ctx *ctx)
{
	if (route->type == ROUTE_OPEN)
		return true;
	enum resource_type type = (enum resource_type)route->type;
	if (!resource_enabled(cfg, type))
		return false;
	if (route->also_type != ROUTE_OPEN &&
	    !resource_enabled(cfg, (enum resource_type)route->also_type))
		return false;
	if (route->handle_param < 0)
		return true;
	if ((size_t)route->handle_param >= ctx->nparams)
		return false;
	return handle_enabled(cfg, type, ctx->params[route->handle_param]);
}

bool router_abilities_open(const struct abilities *abilities, const struct route *route,
                           const struct api_ctx *ctx)
{
	if (!abilities || route->type == ROUTE_OPEN)
		return true;
	enum resource_type type = (enum resource_type)route->type;
	if (route->also_type != ROUTE_OPEN &&
	    !abilities_cover_type(abilities, (enum resource_type)route->also_type))
		return false;
	if (route->handle_param < 0)
		return abilities_cover_type(abilities, type);
	if ((size_t)route->handle_param >= ctx->nparams)
		return false;
	return abilities_cover_handle(abilities, type, ctx->params[route->handle_param]);
}
