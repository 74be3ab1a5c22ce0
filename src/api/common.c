/* api/common: what every handler writes the same way. */
#include "autoconfig.h"

#include "api/api.h"
#include "api/tags.h"

#include <stdarg.h>
#include <string.h>

#include "lib/strbuf.h"

int api_fail(struct api_ctx *ctx, int status, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	http_error_vset(ctx->error, status, fmt, ap);
	va_end(ap);
	return status;
}

int api_not_found(struct api_ctx *ctx)
{
	return http_error_not_found(ctx->error);
}

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

void api_write_item_url(struct jsonw *w, const char *kind, const char *handle)
{
	struct strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "%s/%s", kind, handle);
	api_write_url(w, path.ptr);
	strbuf_release(&path);
}

void api_write_titled(struct jsonw *w, value_t item, const char *kind)
{
	const char *handle = value_str(value_map_getz(item, "handle"), NULL);
	jsonw_object_begin(w);
	jsonw_keyz(w, "handle");
	jsonw_stringz(w, handle);
	jsonw_keyz(w, "title");
	jsonw_value(w, value_map_getz(item, "title"));
	jsonw_keyz(w, "api_url");
	api_write_item_url(w, kind, handle);
	jsonw_object_end(w);
}

void api_extras_index(struct api_ctx *ctx, const char *kind, enum resource_type type,
                      api_extra_writer write)
{
	struct jsonw w;
	api_begin_data(ctx, &w);
	api_tag_extras_list(ctx, kind);
	jsonw_array_begin(&w);
	struct value_iter it;
	value_iter_init(&it, snap_extras(ctx->snap, kind));
	while (value_iter_next(&it)) {
		if (handle_enabled(ctx->cfg, type, value_str(value_map_getz(it.value, "handle"), NULL))) {
			api_tag_extra(ctx, kind, it.value);
			write(&w, it.value);
		}
	}
	jsonw_array_end(&w);
	api_end_data(&w);
}

int api_extras_show(struct api_ctx *ctx, const char *kind, api_extra_writer write)
{
	value_t item = snap_extras_find(ctx->snap, kind, ctx->params[0]);
	if (value_is_missing(item))
		return api_not_found(ctx);
	struct jsonw w;
	api_begin_data(ctx, &w);
	api_tag_extra(ctx, kind, item);
	write(&w, item);
	api_end_data(&w);
	return 0;
}
