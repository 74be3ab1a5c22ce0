/* api/assets: not built yet; every path answers 404 Not found. */
#include "autoconfig.h"

#include "api/api.h"

void api_asset_containers_index(struct api_ctx *ctx)
{
	response_not_found(ctx->res);
}

void api_asset_containers_show(struct api_ctx *ctx)
{
	response_not_found(ctx->res);
}

void api_assets_index(struct api_ctx *ctx)
{
	response_not_found(ctx->res);
}

void api_assets_show(struct api_ctx *ctx)
{
	response_not_found(ctx->res);
}
