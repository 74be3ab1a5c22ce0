/* api/common: what every handler writes the same way. */
#include "autoconfig.h"

#include "api/api.h"

#include <string.h>

void api_begin_json(struct api_ctx *ctx, struct jsonw *w)
{
	response_json(ctx->res, 200);
	jsonw_init(w, &ctx->res->body);
}

void api_begin_data(struct api_ctx *ctx, struct jsonw *w)
{
	api_begin_json(ctx, w);
	jsonw_object_begin(w);
	jsonw_keyz(w, "data");
}

void api_end_data(struct jsonw *w)
{
	jsonw_object_end(w);
}

void api_write_url(struct api_ctx *ctx, struct jsonw *w, const char *path)
{
	struct strbuf url = STRBUF_INIT;
	strbuf_addf(&url, "%s/%s", ctx->api_base, path);
	jsonw_string(w, url.ptr, url.len);
	strbuf_release(&url);
}
