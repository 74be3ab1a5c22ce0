#include "autoconfig.h"
#include "api/api.h"
int api_images_show(struct api_ctx *ctx)
{
	return api_not_found(ctx);
}
