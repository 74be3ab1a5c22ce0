/*
 * api/relations: the items a relation names (value.h references), as the
 * request may see them: read key by key by a dotted filter
 * (filter[categories.slug:is]=waste, query/filter.h), written whole by an
 * include (api/expand.c).
 *
 * A related item is there for the request only where it could be read on
 * its own: an entry published at the request's moment, of a collection
 * the request may read; a term of a taxonomy, an asset of a container, a
 * user, each only where the config and the request's token let it
 * (api_may_read). Anything else reads as missing, so that no filter can
 * probe what the API would not show.
 */
#include "autoconfig.h"

#include <string.h>

#include "api/api.h"
#include "api/entries.h"
#include "api/items.h"
#include "api/tags.h"

bool api_may_read(const struct api_ctx *ctx, enum resource_type t, const char *handle)
{
	bool on = handle ? handle_enabled(ctx->cfg, t, handle) : resource_enabled(ctx->cfg, t);
	return on && (!ctx->may_read || ctx->may_read(ctx->gate, t, handle));
}

/* The id a reference's short object carries (in the reference, or in
 * the snapshot's table of relations: snapshot.h). */
static const char *ref_id(const struct api_ctx *ctx, value_t ref)
{
	return value_str(value_map_getz(snap_ref_object(ctx->snap, ref), "id"), NULL);
}

uint32_t api_request_site(const struct api_ctx *ctx)
{
	const char *site = request_param(ctx->req, "site");
	uint32_t n = site ? snap_site_find(ctx->snap, site) : 0;
	return n == SNAP_NONE ? 0 : n;
}

static value_t entry_value(struct api_ctx *ctx, value_t ref, const char *key,
                           struct value_builder *scratch)
{
	uint32_t n = snap_ref_target(ctx->snap, ref);
	if (n >= snap_entry_count(ctx->snap))
		return VALUE_MISSING;
	struct snap_entry e = snap_entry_at(ctx->snap, n);
	struct entries_req r;
	entries_attach(ctx, &r, e.collection);
	value_t v = VALUE_MISSING;
	if (api_entry_status(ctx, &e) == ENTRY_PUBLISHED &&
	    api_may_read(ctx, RES_COLLECTIONS, r.q.collection.handle)) {
		vb_value(scratch, entries_value(&r.q, &e, key));
		v = vb_result(scratch);
	}
	entries_close(&r);
	return v;
}

static value_t term_value(struct api_ctx *ctx, value_t ref, const char *key,
                          struct value_builder *scratch)
{
	const char *taxonomy;
	value_t term = api_term_find(ctx, ref_id(ctx, ref), api_request_site(ctx), &taxonomy);
	if (value_is_missing(term) || !api_may_read(ctx, RES_TAXONOMIES, taxonomy))
		return VALUE_MISSING;
	return api_term_value(ctx, taxonomy, term, key, scratch);
}

static value_t user_value(struct api_ctx *ctx, value_t ref, const char *key,
                          struct value_builder *scratch)
{
	value_t user = api_user_find(ctx, ref_id(ctx, ref));
	if (value_is_missing(user) || !api_may_read(ctx, RES_USERS, NULL))
		return VALUE_MISSING;
	return api_user_value(user, key, scratch);
}

static value_t asset_value(struct api_ctx *ctx, value_t ref, const char *key,
                           struct value_builder *scratch)
{
	value_t container;
	value_t file = api_asset_find(ctx, ref_id(ctx, ref), &container);
	const char *handle = value_str(value_map_getz(container, "handle"), NULL);
	if (value_is_missing(file) || !api_may_read(ctx, RES_ASSETS, handle))
		return VALUE_MISSING;
	return api_asset_value(ctx, container, file, key, scratch);
}

/* relation_reader's value: the key of the item ref names, as its own
 * list's filters read it (URLs made absolute, as a list compares them). */
/* relation_reader's object: the short object of ref. */
static value_t related_object(void *c, value_t ref)
{
	const struct api_ctx *ctx = c;
	return snap_ref_object(ctx->snap, ref);
}

static value_t related_value(void *c, value_t ref, const char *key,
                             struct value_builder *scratch)
{
	struct api_ctx *ctx = c;
	struct value_builder made = VALUE_BUILDER_INIT;
	value_t v = VALUE_MISSING;
	/* The answer depends on the related item whether it passes or not
	 * (or can be read at all): an edit of it must purge the answer. */
	api_tag_refs(ctx, ref);
	switch (value_ref_kind(ref)) {
	case REF_ENTRY: v = entry_value(ctx, ref, key, &made); break;
	case REF_TERM: v = term_value(ctx, ref, key, &made); break;
	case REF_USER: v = user_value(ctx, ref, key, &made); break;
	case REF_ASSET: v = asset_value(ctx, ref, key, &made); break;
	default: break;
	}
	/* Whatever v points into (made, the snapshot) goes to scratch. */
	vb_reset(scratch);
	if (value_type(v) == VALUE_URL) {
		v = filter_absolute(&ctx->env, v, scratch);
	} else if (!value_is_missing(v)) {
		vb_value(scratch, v);
		v = vb_result(scratch);
	}
	vb_release(&made);
	return v;
}

struct relation_reader api_relation_reader(struct api_ctx *ctx)
{
	return (struct relation_reader){related_value, related_object, ctx};
}
