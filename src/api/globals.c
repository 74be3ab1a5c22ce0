/* api/globals: not built yet; every path answers 404 Not found. */
#include "autoconfig.h"

#include "api/api.h"

void api_globals_index(struct api_ctx *ctx)
{
	response_not_found(ctx->res);
}

void api_globals_show(struct api_ctx *ctx)
{
	response_not_found(ctx->res);
}
