/*
 * api/expand: include=author,categories and depth=N (output.h step 1):
 * the related items a relation names written whole, each as its own
 * endpoint writes it and in its own kind's shape, instead of the short
 * object Statamic shows ({id, title, url, ...}), so that a frontend gets
 * in one request what it would otherwise ask one related item at a time.
 *
 * include names keys: a relationship field (or a reference, updated_by),
 * or a map or a list of maps on the way to one (include=seo.image);
 * include=author.avatar goes on into the related item's own relations.
 * depth=N writes every relation whole, N levels down. A related item is
 * written whole only where the request could read it on its own
 * (api/relations.c); otherwise it stays a reference, which the writer
 * shows or leaves out as always. An item already on the way down from
 * the top (an entry related to itself, A -> B -> A) stays short: the
 * cycle is cut there.
 */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "api/entries.h"
#include "api/items.h"
#include "api/output.h"
#include "api/tags.h"
#include "lib/strbuf.h"

/* The items written whole on the way down to here. */
struct chain {
	enum ref_kind kind;
	const char *id;
	const struct chain *up;
};

static bool on_chain(const struct chain *c, enum ref_kind kind, const char *id)
{
	for (; c; c = c->up)
		if (c->kind == kind && strcmp(c->id, id) == 0)
			return true;
	return false;
}

/* What is written whole below key: include's kid of that name, depth=
 * going on one level less; false when nothing is. *room holds a node
 * made for depth=. */
static bool kid_for(const struct include *inc, const char *key, size_t len,
                    struct include *room, const struct include **kid)
{
	const struct include *named = NULL;
	for (size_t i = 0; i < inc->nkids && !named; i++)
		if (strlen(inc->kids[i].name) == len && memcmp(inc->kids[i].name, key, len) == 0)
			named = &inc->kids[i];
	if (!named && inc->all == 0)
		return false;
	memset(room, 0, sizeof *room);
	if (named)
		*room = *named;
	if (inc->all - 1 > room->all)
		room->all = inc->all - 1;
	*kid = room;
	return true;
}

static void expand_map(struct api_ctx *ctx, const struct include *inc, value_t map,
                       const struct chain *chain, struct value_builder *out);

static enum shape_type shape_of(enum ref_kind kind)
{
	switch (kind) {
	case REF_TERM: return SHAPE_TERMS;
	case REF_USER: return SHAPE_USERS;
	case REF_ASSET: return SHAPE_ASSETS;
	default: return SHAPE_ENTRIES;
	}
}

/* The related entry whole into out, and its collection's handle; false
 * when the request may not read it. */
static bool whole_entry(struct api_ctx *ctx, value_t ref, struct value_builder *out,
                        const char **handle)
{
	uint32_t n = snap_ref_target(ctx->snap, ref);
	if (n >= snap_entry_count(ctx->snap))
		return false;
	struct snap_entry e = snap_entry_at(ctx->snap, n);
	struct entries_req r;
	entries_attach(ctx, &r, e.collection);
	*handle = r.q.collection.handle;
	bool readable = api_entry_status(ctx, &e) == ENTRY_PUBLISHED &&
	                api_may_read(ctx, RES_COLLECTIONS, *handle);
	if (readable)
		entries_build_item(&r.q, &e, VALUE_MISSING, out);
	entries_close(&r);
	return readable;
}

/* The related term, user or asset whole into out, and the handle of its
 * taxonomy or container; false when the request may not read it. */
static bool whole_other(struct api_ctx *ctx, enum ref_kind kind, const char *id,
                        struct value_builder *out, const char **handle)
{
	value_t container, item;
	*handle = NULL;
	switch (kind) {
	case REF_TERM:
		item = api_term_find(ctx, id, api_request_site(ctx), handle);
		if (value_is_missing(item) || !api_may_read(ctx, RES_TAXONOMIES, *handle))
			return false;
		api_term_build(ctx, *handle, item, out);
		return true;
	case REF_USER:
		item = api_user_find(ctx, id);
		if (value_is_missing(item) || !api_may_read(ctx, RES_USERS, NULL))
			return false;
		api_user_build(ctx, item, out);
		return true;
	case REF_ASSET:
		item = api_asset_find(ctx, id, &container);
		*handle = value_str(value_map_getz(container, "handle"), NULL);
		if (value_is_missing(item) || !api_may_read(ctx, RES_ASSETS, *handle))
			return false;
		api_asset_build(ctx, container, item, out);
		return true;
	default:
		return false;
	}
}

/* The item ref names, whole, its own relations as inc asks, in its kind's
 * shape; the reference itself when it cannot be written whole. */
static void related_whole(struct api_ctx *ctx, const struct include *inc, value_t ref,
                          const struct chain *chain, struct value_builder *out)
{
	enum ref_kind kind = value_ref_kind(ref);
	const char *id = value_str(value_map_getz(snap_ref_object(ctx->snap, ref), "id"), NULL);
	struct value_builder whole = VALUE_BUILDER_INIT, expanded = VALUE_BUILDER_INIT;
	const char *handle = NULL;
	bool made = !on_chain(chain, kind, id) &&
	            (kind == REF_ENTRY ? whole_entry(ctx, ref, &whole, &handle)
	                               : whole_other(ctx, kind, id, &whole, &handle));
	if (!made) {
		vb_value(out, ref);
	} else {
		/* Written whole, the item shows its own relations too: the
		 * answer carries their tags as well as its own. */
		if (kind == REF_ENTRY)
			api_tag_entry(ctx, snap_ref_target(ctx->snap, ref));
		else
			api_tag_refs(ctx, ref);
		api_tag_refs(ctx, vb_result(&whole));
		struct chain here = {kind, id, chain};
		expand_map(ctx, inc, vb_result(&whole), &here, &expanded);
		const struct shape_def *shape = config_shape(ctx->cfg, shape_of(kind), handle);
		if (shape)
			api_shape_apply(ctx, shape, vb_result(&expanded), out);
		else
			vb_value(out, vb_result(&expanded));
	}
	vb_release(&whole);
	vb_release(&expanded);
}

/* v, the value of a key inc names, with what it relates to written whole. */
static void expand_value(struct api_ctx *ctx, const struct include *inc, value_t v,
                         const struct chain *chain, struct value_builder *out)
{
	enum ref_kind kind = value_ref_kind(v);
	if (kind == REF_FIELD) {
		expand_value(ctx, inc, snap_ref_object(ctx->snap, v), chain, out);
	} else if (kind == REF_ENTRY || kind == REF_TERM || kind == REF_USER || kind == REF_ASSET) {
		related_whole(ctx, inc, v, chain, out);
	} else if (kind == 0 && value_type(v) == VALUE_ARRAY) {
		struct value_iter it;
		vb_array_begin(out);
		value_iter_init(&it, v);
		while (value_iter_next(&it))
			expand_value(ctx, inc, it.value, chain, out);
		vb_array_end(out);
	} else if (kind == 0 && value_type(v) == VALUE_MAP) {
		expand_map(ctx, inc, v, chain, out);
	} else {
		vb_value(out, v);
	}
}

static void expand_map(struct api_ctx *ctx, const struct include *inc, value_t map,
                       const struct chain *chain, struct value_builder *out)
{
	struct value_iter it;
	vb_map_begin(out);
	value_iter_init(&it, map);
	while (value_iter_next(&it)) {
		struct include room;
		const struct include *kid;
		vb_key(out, it.key, it.key_len);
		if (kid_for(inc, it.key, it.key_len, &room, &kid))
			expand_value(ctx, kid, it.value, chain, out);
		else
			vb_value(out, it.value);
	}
	vb_map_end(out);
}

static enum ref_kind kind_of(enum shape_type type)
{
	switch (type) {
	case SHAPE_TERMS: return REF_TERM;
	case SHAPE_USERS: return REF_USER;
	case SHAPE_ASSETS: return REF_ASSET;
	case SHAPE_ENTRIES:
	case SHAPE_PAGES: return REF_ENTRY;
	default: return REF_OBJECT;
	}
}

void api_expand(struct api_ctx *ctx, const struct include *inc, enum shape_type type,
                value_t item, struct value_builder *out)
{
	struct chain top = {kind_of(type), value_str(value_map_getz(item, "id"), NULL), NULL};
	expand_map(ctx, inc, item, &top, out);
}
