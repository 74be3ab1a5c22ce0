/*
 * api/forms: GET /{route}/forms and /forms/{handle} (spec §4,
 * statamic-api.md §10.4).
 *
 * A form is exactly {handle, title, fields, api_url}: fields keyed by
 * handle, each the field's own blueprint config with `handle` and `width`
 * (100 unless the config sets one) after it, `[]` for a form without
 * fields. The index never kept a form's e-mail notifications, honeypot
 * or submissions, so nothing here can show them. The list is not
 * paginated; filters and `fields` have no effect, as in Statamic.
 */
#include "autoconfig.h"

#include <string.h>

#include "api/api.h"

/* The field's config, then handle and width where the config lacks them
 * (PHP's array_merge keeps a key the config has in its place). */
static void write_field(struct jsonw *w, const char *handle, size_t handle_len, value_t config)
{
	bool has_handle = false, has_width = false;
	jsonw_object_begin(w);
	struct value_iter it;
	value_iter_init(&it, config);
	while (value_iter_next(&it)) {
		jsonw_key(w, it.key, it.key_len);
		if (it.key_len == 6 && memcmp(it.key, "handle", 6) == 0) {
			has_handle = true;
			jsonw_string(w, handle, handle_len);
		} else {
			has_width |= it.key_len == 5 && memcmp(it.key, "width", 5) == 0;
			jsonw_value(w, it.value);
		}
	}
	if (!has_handle) {
		jsonw_keyz(w, "handle");
		jsonw_string(w, handle, handle_len);
	}
	if (!has_width) {
		jsonw_keyz(w, "width");
		jsonw_int(w, 100);
	}
	jsonw_object_end(w);
}

static void write_fields(struct jsonw *w, value_t fields)
{
	if (value_count(fields) == 0) {
		jsonw_array_begin(w);
		jsonw_array_end(w);
		return;
	}
	jsonw_object_begin(w);
	struct value_iter it;
	value_iter_init(&it, fields);
	while (value_iter_next(&it)) {
		jsonw_key(w, it.key, it.key_len);
		write_field(w, it.key, it.key_len, it.value);
	}
	jsonw_object_end(w);
}

static void write_form(struct jsonw *w, value_t form)
{
	const char *handle = value_str(value_map_getz(form, "handle"), NULL);
	jsonw_object_begin(w);
	jsonw_keyz(w, "handle");
	jsonw_stringz(w, handle);
	jsonw_keyz(w, "title");
	jsonw_value(w, value_map_getz(form, "title"));
	jsonw_keyz(w, "fields");
	write_fields(w, value_map_getz(form, "fields"));
	jsonw_keyz(w, "api_url");
	api_write_item_url(w, "forms", handle);
	jsonw_object_end(w);
}

int api_forms_index(struct api_ctx *ctx)
{
	api_extras_index(ctx, "forms", RES_FORMS, write_form);
	return 0;
}

int api_forms_show(struct api_ctx *ctx)
{
	return api_extras_show(ctx, "forms", write_form);
}
