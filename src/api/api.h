/*
 * api: the resource handlers, one file per resource type. A handler gets
 * the request context with its route parameters and fills ctx->res: a
 * JSON body, or an error through response_error().
 */
#ifndef CMS_API_API_H
#define CMS_API_API_H

#include <stddef.h>

#include "config.h"
#include "jsonw.h"
#include "request.h"
#include "response.h"
#include "site/snapshot.h"

#define API_MAX_PARAMS 4

struct api_ctx {
	const struct config *cfg;
	const struct snapshot *snap;
	const struct request *req;
	struct response *res;
	const char *params[API_MAX_PARAMS]; /* route parameters, decoded */
	size_t nparams;
	const char *base;     /* absolute URL of the site root, e.g. http://localhost */
	const char *api_base; /* absolute URL of the API root, e.g. http://localhost/api */
};

typedef void (*api_handler)(struct api_ctx *ctx);

void api_ping(struct api_ctx *ctx);
void api_sites_index(struct api_ctx *ctx);
void api_collections_index(struct api_ctx *ctx);
void api_collections_show(struct api_ctx *ctx);
void api_entries_index(struct api_ctx *ctx);
void api_entries_show(struct api_ctx *ctx);
void api_collection_tree(struct api_ctx *ctx);
void api_navs_index(struct api_ctx *ctx);
void api_navs_show(struct api_ctx *ctx);
void api_navs_tree(struct api_ctx *ctx);
void api_term_entries(struct api_ctx *ctx);

/* Starts a 200 JSON answer and returns a writer on its body. */
void api_begin_json(struct api_ctx *ctx, struct jsonw *w);

/* Starts a 200 answer {"data": ...}; the caller writes the data value and
 * closes with api_end_data. */
void api_begin_data(struct api_ctx *ctx, struct jsonw *w);
void api_end_data(struct jsonw *w);

/* Writes base + "/" + path (path relative to the API root, no leading
 * '/') as a JSON string, e.g. http://localhost/api/collections/blog. */
void api_write_url(struct api_ctx *ctx, struct jsonw *w, const char *path);

#endif
