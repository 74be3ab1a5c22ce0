/* router: static route table and matcher; see router.h. */
#include "autoconfig.h"

#include "router.h"

#include <string.h>

struct route {
	const char *pattern;
	api_handler handler;
};

/* Most specific first is not needed: patterns never overlap. */
static const struct route routes[] = {
	{"ping", api_ping},
	{"sites", api_sites_index},
	{"collections", api_collections_index},
	{"collections/{}", api_collections_show},
	{"collections/{}/entries", api_entries_index},
	{"collections/{}/entries/{}", api_entries_show},
	{"collections/{}/tree", api_collection_tree},
	{"navs", api_navs_index},
	{"navs/{}", api_navs_show},
	{"navs/{}/tree", api_navs_tree},
	{"taxonomies/{}/terms/{}/entries", api_term_entries},
};

static bool match_route(const char *pattern, char **segments, size_t n, struct api_ctx *ctx)
{
	size_t i = 0;
	const char *p = pattern;
	ctx->nparams = 0;
	while (*p) {
		size_t len = strcspn(p, "/");
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

api_handler router_match(char **segments, size_t nsegments, struct api_ctx *ctx)
{
	for (size_t r = 0; r < sizeof routes / sizeof routes[0]; r++)
		if (match_route(routes[r].pattern, segments, nsegments, ctx))
			return routes[r].handler;
	ctx->nparams = 0;
	return NULL;
}
