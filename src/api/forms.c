/* api/forms: not built yet; every path answers 404 Not found. */
#include "autoconfig.h"

#include "api/api.h"

void api_forms_index(struct api_ctx *ctx)
{
	response_not_found(ctx->res);
}

void api_forms_show(struct api_ctx *ctx)
{
	response_not_found(ctx->res);
}
