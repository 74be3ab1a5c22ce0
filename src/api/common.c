/* api/common: what every handler writes the same way. */
#include "autoconfig.h"

#include "api/api.h"

#include <string.h>

void api_begin_json(struct api_ctx *ctx, struct jsonw *w)
{
	jsonw_init(w, response_begin(ctx->res, 200, "application/json"));
	jsonw_set_env(w, &ctx->env);
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

void api_write_url(struct jsonw *w, const char *path)
{
	jsonw_url(w, URL_API, path, strlen(path));
}
