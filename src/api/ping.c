/* api/ping: GET /{route}/ping, the liveness answer, with no data wrapper. */
#include "autoconfig.h"

#include "api/api.h"

int api_ping(struct api_ctx *ctx)
{
	struct jsonw w;
	api_begin_json(ctx, &w);
	jsonw_object_begin(&w);
	jsonw_keyz(&w, "ping");
	jsonw_stringz(&w, "pong");
	jsonw_object_end(&w);
	return 0;
}
