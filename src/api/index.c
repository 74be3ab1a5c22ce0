/*
 * api/index: GET /{route} (and /{route}/), what a caller reaches for
 * first: {"data": [{"path": "/collections/blog/entries", "url":
 * "http://host/api/collections/blog/entries"}, ...]}, every endpoint the
 * running config answers (api/endpoints.h), in the route table's order.
 * A path with a template parameter ("{id}") names it in the URL too, as
 * an RFC 6570 template; each path is a key of the OpenAPI document's
 * paths (api/openapi.c) when [api] openapi is on.
 */
#include "autoconfig.h"

#include "api/api.h"
#include "api/endpoints.h"
#include "lib/strbuf.h"

static void write_endpoint(const struct endpoint *ep, void *arg)
{
	struct jsonw *w = arg;
	if (ep->kind == EP_INDEX)
		return;
	struct strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "/%s", ep->path);
	jsonw_object_begin(w);
	jsonw_keyz(w, "path");
	jsonw_stringz(w, path.ptr);
	jsonw_keyz(w, "url");
	api_write_url(w, ep->path);
	jsonw_object_end(w);
	strbuf_release(&path);
}

int api_index(struct api_ctx *ctx)
{
	struct jsonw w;
	api_begin_data(ctx, &w);
	jsonw_array_begin(&w);
	endpoints_each(ctx->cfg, ctx->snap, write_endpoint, &w);
	jsonw_array_end(&w);
	api_end_data(&w);
	return 0;
}
