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
	uint32_t n = value_ref_target(ref);
	if (n >= snap_entry_count(ctx->snap))
		return false;
	struct snap_entry e = snap_entry_at(ctx->snap, n);
	return api_entry_status(ctx, &e) == ENTRY_PUBLISHED;
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
	value_t object = value_ref_object(ref);
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
