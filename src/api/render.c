/*
 * api/render: references (value.h) as a request delivers them. The index
 * stores each relation with the short object Statamic shows for it
 * ({id, title, url, permalink, api_url} of an entry, and so on); what the
 * request decides is whether it is shown and with which keys: a related
 * entry only while it is published at the request's moment (relations and
 * lists follow the same clock), and no key that [api] excluded_keys names.
 * URL values inside are completed by the writer's bases.
 */
#include "autoconfig.h"

#include "api/api.h"
#include "api/entries.h"

static bool shown(const struct api_ctx *ctx, value_t ref)
{
	if (value_ref_kind(ref) != REF_ENTRY)
		return true;
	uint32_t n = snap_ref_target(ctx->snap, ref);
	if (n >= snap_entry_count(ctx->snap))
		return false;
	struct snap_entry e = snap_entry_at(ctx->snap, n);
	return api_entry_status(ctx, &e) == ENTRY_PUBLISHED;
}

/* A reference to an item (not a whole relationship field). */
static bool names_item_ref(value_t v)
{
	enum ref_kind kind = value_ref_kind(v);
	return kind != 0 && kind != REF_FIELD;
}

static bool kept(const struct api_ctx *ctx, const char *key, size_t len)
{
	return !strlist_contains_counted(&ctx->cfg->excluded_keys, key, len);
}

bool api_write_ref(struct jsonw *w, value_t ref, const void *c)
{
	const struct api_ctx *ctx = c;
	if (value_ref_kind(ref) == REF_FIELD) {
		/* A relationship field: its delivered form, references and all. */
		jsonw_value(w, value_ref_object(ref));
		return true;
	}
	if (!shown(ctx, ref))
		return false;
	value_t object = snap_ref_object(ctx->snap, ref);
	struct value_iter it;
	size_t nkept = 0;
	value_iter_init(&it, object);
	while (value_iter_next(&it))
		nkept += kept(ctx, it.key, it.key_len);
	if (nkept == 0) {
		/* Every key excluded: an empty PHP array, as json_encode writes it. */
		jsonw_array_begin(w);
		jsonw_array_end(w);
		return true;
	}
	jsonw_object_begin(w);
	value_iter_init(&it, object);
	while (value_iter_next(&it)) {
		if (!kept(ctx, it.key, it.key_len))
			continue;
		jsonw_key(w, it.key, it.key_len);
		jsonw_value(w, it.value);
	}
	jsonw_object_end(w);
	return true;
}

/* The value at v with every reference resolved (resolve_value). */
static void resolve_into(const struct api_ctx *ctx, value_t v, struct value_builder *out);

/* A map's or a list's items resolved; a hidden reference in a list is
 * left out, as the writer leaves it out. */
static void resolve_container(const struct api_ctx *ctx, value_t v, struct value_builder *out)
{
	bool map = value_type(v) == VALUE_MAP;
	struct value_iter it;
	map ? vb_map_begin(out) : vb_array_begin(out);
	value_iter_init(&it, v);
	while (value_iter_next(&it)) {
		bool hidden_ref = names_item_ref(it.value) && !shown(ctx, it.value);
		if (!map && hidden_ref)
			continue;
		if (map)
			vb_key(out, it.key, it.key_len);
		resolve_into(ctx, it.value, out);
	}
	map ? vb_map_end(out) : vb_array_end(out);
}

static void resolve_into(const struct api_ctx *ctx, value_t v, struct value_builder *out)
{
	enum ref_kind kind = value_ref_kind(v);
	if (kind == REF_FIELD) {
		resolve_into(ctx, snap_ref_object(ctx->snap, v), out);
		return;
	}
	if (kind != 0) {
		if (!shown(ctx, v)) {
			vb_null(out);
			return;
		}
		value_t object = snap_ref_object(ctx->snap, v);
		struct value_iter it;
		vb_map_begin(out);
		value_iter_init(&it, object);
		while (value_iter_next(&it)) {
			if (!kept(ctx, it.key, it.key_len))
				continue;
			vb_key(out, it.key, it.key_len);
			resolve_into(ctx, it.value, out);
		}
		vb_map_end(out);
		return;
	}
	if (value_type(v) == VALUE_MAP || value_type(v) == VALUE_ARRAY)
		resolve_container(ctx, v, out);
	else
		vb_value(out, v);
}

void api_resolve_refs(const struct api_ctx *ctx, value_t v, struct value_builder *out)
{
	resolve_into(ctx, v, out);
}
