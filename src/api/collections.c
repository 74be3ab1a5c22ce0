/*
 * api/collections: GET /{route}/collections and /collections/{c}, the
 * Collection shape of spec §4: handle, title, structure (null or
 * {max_depth, expects_root}), mount, api_url. Only enabled handles are
 * listed; a disabled or unknown handle is a 404.
 */
#include "autoconfig.h"

#include "api/api.h"

static void write_structure(struct jsonw *w, const struct snap_collection *c)
{
	if (!c->structured) {
		jsonw_null(w);
		return;
	}
	jsonw_object_begin(w);
	jsonw_keyz(w, "max_depth");
	if (c->max_depth < 0)
		jsonw_null(w);
	else
		jsonw_int(w, c->max_depth);
	jsonw_keyz(w, "expects_root");
	jsonw_bool(w, c->expects_root);
	jsonw_object_end(w);
}

static void write_collection(struct jsonw *w, const struct snap_collection *c)
{
	jsonw_object_begin(w);
	jsonw_keyz(w, "handle");
	jsonw_stringz(w, c->handle);
	jsonw_keyz(w, "title");
	jsonw_stringz(w, c->title);
	jsonw_keyz(w, "structure");
	write_structure(w, c);
	jsonw_keyz(w, "mount");
	jsonw_stringz_or_null(w, c->mount);
	jsonw_keyz(w, "api_url");
	api_write_item_url(w, "collections", c->handle);
	jsonw_object_end(w);
}

int api_collections_index(struct api_ctx *ctx)
{
	struct jsonw w;
	api_begin_data(ctx, &w);
	jsonw_array_begin(&w);
	for (uint32_t i = 0; i < snap_collection_count(ctx->snap); i++) {
		struct snap_collection c = snap_collection_at(ctx->snap, i);
		if (handle_enabled(ctx->cfg, RES_COLLECTIONS, c.handle))
			write_collection(&w, &c);
	}
	jsonw_array_end(&w);
	api_end_data(&w);
	return 0;
}

int api_collections_show(struct api_ctx *ctx)
{
	const char *handle = ctx->params[0];
	uint32_t found = snap_collection_find(ctx->snap, handle);
	if (found == SNAP_NONE)
		return api_not_found(ctx);
	struct snap_collection c = snap_collection_at(ctx->snap, found);
	struct jsonw w;
	api_begin_data(ctx, &w);
	write_collection(&w, &c);
	api_end_data(&w);
	return 0;
}
