/* augment: stored values to delivered values; see augment.h. */
#include "autoconfig.h"

#include "site/augment.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "site/bard.h"
#include "site/entries.h"
#include "site/markdown.h"
#include "site/yaml.h"
#include "strbuf.h"

static const char *field_type(value_t field)
{
	return value_str(value_map_getz(field, "type"), NULL);
}

static bool is_type(value_t field, const char *type)
{
	return strcmp(field_type(field), type) == 0;
}

/* --- scalars --- */

static void markdown_value(value_t v, value_t field, struct value_builder *out)
{
	size_t len;
	const char *md = value_str(v, &len);
	value_t breaks = value_map_getz(field, "automatic_line_breaks");
	struct strbuf html = STRBUF_INIT;
	/* Too large or unparsable: deliver the text rather than nothing. */
	if (value_type(v) == VALUE_STRING &&
	    markdown_to_html(md, len, value_type(breaks) != VALUE_FALSE, &html) == 0)
		vb_str(out, html.ptr ? html.ptr : "", html.len);
	else
		vb_value(out, v);
	strbuf_release(&html);
}

static bool truthy(value_t v)
{
	switch (value_type(v)) {
	case VALUE_TRUE:
		return true;
	case VALUE_INT:
	case VALUE_DOUBLE:
		return value_double(v) != 0;
	case VALUE_STRING: {
		const char *s = value_str(v, NULL);
		return *s && strcmp(s, "0") != 0 && strcasecmp(s, "false") != 0;
	}
	default:
		return false;
	}
}

static void number_value(value_t v, bool integer, struct value_builder *out)
{
	if (value_is_null(v) || (value_type(v) == VALUE_STRING && !*value_str(v, NULL))) {
		vb_null(out);
		return;
	}
	double d = value_type(v) == VALUE_STRING ? strtod(value_str(v, NULL), NULL) : value_double(v);
	if (integer)
		vb_int(out, (int64_t)d);
	else
		vb_double(out, d);
}

/* 'Y-m-d', 'Y-m-d H:i', 'Y-m-d H:i:s' or a Unix timestamp; -1 when not a date. */
static int date_seconds(value_t v, long long *out)
{
	if (value_type(v) == VALUE_INT) {
		*out = value_int(v);
		return 0;
	}
	size_t len;
	const char *s = value_str(v, &len);
	if (value_type(v) != VALUE_STRING)
		return -1;
	if (yaml_parse_timestamp(s, len, out) == 0)
		return 0;
	if (len == 16 && s[10] == ' ' && s[13] == ':') { /* Y-m-d H:i */
		char with_seconds[20];
		snprintf(with_seconds, sizeof with_seconds, "%.16s:00", s);
		return yaml_parse_timestamp(with_seconds, 19, out);
	}
	return -1;
}

void augment_iso8601(long long secs, struct value_builder *out)
{
	time_t t = (time_t)secs;
	struct tm tm;
	char buf[40];
	gmtime_r(&t, &tm);
	strftime(buf, sizeof buf, "%Y-%m-%dT%H:%M:%S.000000Z", &tm);
	vb_strz(out, buf);
}

static void iso_date(value_t v, struct value_builder *out)
{
	long long secs;
	if (date_seconds(v, &secs) != 0)
		vb_value(out, v);
	else
		augment_iso8601(secs, out);
}

static void date_value(value_t v, struct value_builder *out)
{
	if (value_type(v) != VALUE_MAP) {
		iso_date(v, out);
		return;
	}
	vb_map_begin(out); /* range mode: {start, end} */
	struct value_iter it;
	value_iter_init(&it, v);
	while (value_iter_next(&it)) {
		vb_key(out, it.key, it.key_len);
		iso_date(it.value, out);
	}
	vb_map_end(out);
}

/* --- options --- */

static void scalar_text(value_t v, struct strbuf *out)
{
	if (value_type(v) == VALUE_INT)
		strbuf_addf(out, "%lld", (long long)value_int(v));
	else if (value_type(v) == VALUE_STRING)
		strbuf_addstr(out, value_str(v, NULL));
	else if (value_type(v) == VALUE_TRUE || value_type(v) == VALUE_FALSE)
		strbuf_addstr(out, value_bool(v) ? "true" : "false");
}

/* The label of key among the field's options: a map {key: label}, a list
 * of keys, or a list of {key, value}. The key itself when unlisted. */
static void option_label(value_t options, value_t key, struct value_builder *out)
{
	struct strbuf k = STRBUF_INIT;
	scalar_text(key, &k);
	struct value_iter it;
	value_iter_init(&it, options);
	while (value_iter_next(&it)) {
		if (value_type(options) == VALUE_MAP) {
			if (it.key_len == k.len && memcmp(it.key, strbuf_str(&k), k.len) == 0) {
				vb_value(out, value_is_null(it.value) ? key : it.value);
				strbuf_release(&k);
				return;
			}
		} else if (value_type(it.value) == VALUE_MAP) {
			struct strbuf ik = STRBUF_INIT;
			scalar_text(value_map_getz(it.value, "key"), &ik);
			bool same = strcmp(strbuf_str(&ik), strbuf_str(&k)) == 0;
			strbuf_release(&ik);
			if (same) {
				value_t label = value_map_getz(it.value, "value");
				vb_value(out, value_is_null(label) ? key : label);
				strbuf_release(&k);
				return;
			}
		}
	}
	strbuf_release(&k);
	vb_value(out, key);
}

static void option_object(value_t options, value_t key, bool key_first, struct value_builder *out)
{
	vb_map_begin(out);
	if (key_first) {
		vb_keyz(out, "key");
		vb_value(out, key);
	}
	vb_keyz(out, "value");
	vb_value(out, key);
	vb_keyz(out, "label");
	option_label(options, key, out);
	if (!key_first) {
		vb_keyz(out, "key");
		vb_value(out, key);
	}
	vb_map_end(out);
}

static void options_value(value_t v, value_t field, struct value_builder *out)
{
	value_t options = value_map_getz(field, "options");
	bool several = is_type(field, "checkboxes") || value_bool(value_map_getz(field, "multiple"));
	if (!several) {
		if (value_is_null(v))
			vb_null(out);
		else
			option_object(options, value_type(v) == VALUE_ARRAY ? value_array_get(v, 0) : v,
			              false, out);
		return;
	}
	vb_array_begin(out);
	struct value_iter it;
	value_iter_init(&it, v);
	if (value_type(v) == VALUE_ARRAY) {
		while (value_iter_next(&it))
			option_object(options, it.value, true, out);
	} else if (!value_is_null(v)) {
		option_object(options, v, true, out);
	}
	vb_array_end(out);
}

/* --- relations --- */

static void marked(struct value_builder *out, char mark, const char *text)
{
	struct strbuf s = STRBUF_INIT;
	strbuf_addch(&s, mark);
	strbuf_addstr(&s, text);
	vb_str(out, s.ptr, s.len);
	strbuf_release(&s);
}

void augment_site_url(const char *base, const char *uri, struct strbuf *out)
{
	if (strcmp(base, "/") == 0)
		strbuf_addstr(out, uri);
	else if (strcmp(uri, "/") == 0)
		strbuf_addstr(out, base);
	else
		strbuf_addf(out, "%s%s", base, uri);
}

static bool write_entry_ref(const struct augment_ctx *ctx, value_t id, struct value_builder *out)
{
	const struct entry *e = site_index_entry(ctx->idx, value_str(id, NULL));
	if (!e || entry_status(ctx->idx, e, ctx->now) != ENTRY_PUBLISHED)
		return false;
	vb_map_begin(out);
	vb_keyz(out, "id");
	vb_strz(out, e->id);
	vb_keyz(out, "title");
	vb_value(out, entry_field(ctx->idx, e, "title"));
	struct strbuf url = STRBUF_INIT;
	if (e->uri)
		augment_site_url(ctx->idx->sites[e->site].url, e->uri, &url);
	vb_keyz(out, "url");
	if (e->uri)
		vb_str(out, url.ptr, url.len);
	else
		vb_null(out);
	vb_keyz(out, "permalink");
	if (e->uri)
		marked(out, URL_MARK_SITE, url.ptr);
	else
		vb_null(out);
	vb_keyz(out, "api_url");
	struct strbuf api = STRBUF_INIT;
	strbuf_addf(&api, "collections/%s/entries/%s", ctx->idx->collections[e->collection].handle,
	            e->id);
	marked(out, URL_MARK_API, api.ptr);
	vb_map_end(out);
	strbuf_release(&url);
	strbuf_release(&api);
	return true;
}

/* taxonomy::slug, or a slug of the field's (first) taxonomy. */
static bool write_term_ref(const struct augment_ctx *ctx, value_t v, value_t field,
                           struct value_builder *out)
{
	const char *text = value_str(v, NULL);
	const char *sep = strstr(text, "::");
	struct strbuf taxonomy = STRBUF_INIT;
	if (sep) {
		strbuf_add(&taxonomy, text, (size_t)(sep - text));
		text = sep + 2;
	} else {
		value_t t = value_map_getz(field, "taxonomies");
		scalar_text(value_type(t) == VALUE_ARRAY ? value_array_get(t, 0)
		                                         : value_map_getz(field, "taxonomy"),
		            &taxonomy);
	}
	if (!taxonomy.len || !*text) {
		strbuf_release(&taxonomy);
		return false;
	}
	struct value_iter it;
	value_t title = VALUE_MISSING;
	value_iter_init(&it, value_map_getz(vb_result(&ctx->idx->extras), "taxonomies"));
	while (value_iter_next(&it)) {
		if (strcmp(value_str(value_map_getz(it.value, "handle"), NULL), taxonomy.ptr) != 0)
			continue;
		struct value_iter t;
		value_iter_init(&t, value_map_getz(it.value, "terms"));
		while (value_iter_next(&t) && value_is_missing(title))
			if (strcmp(value_str(value_map_getz(t.value, "slug"), NULL), text) == 0)
				title = value_map_getz(t.value, "title");
	}
	struct strbuf s = STRBUF_INIT;
	vb_map_begin(out);
	vb_keyz(out, "id");
	strbuf_addf(&s, "%s::%s", taxonomy.ptr, text);
	vb_str(out, s.ptr, s.len);
	vb_keyz(out, "title");
	if (value_is_missing(title))
		vb_strz(out, text);
	else
		vb_value(out, title);
	vb_keyz(out, "slug");
	vb_strz(out, text);
	/* Term routes are fixed: /{taxonomy with - for _}/{slug}. */
	strbuf_reset(&s);
	strbuf_addch(&s, '/');
	for (const char *p = taxonomy.ptr; *p; p++)
		strbuf_addch(&s, *p == '_' ? '-' : *p);
	strbuf_addf(&s, "/%s", text);
	vb_keyz(out, "url");
	vb_str(out, s.ptr, s.len);
	vb_keyz(out, "permalink");
	marked(out, URL_MARK_SITE, s.ptr);
	strbuf_reset(&s);
	strbuf_addf(&s, "taxonomies/%s/terms/%s", taxonomy.ptr, text);
	vb_keyz(out, "api_url");
	marked(out, URL_MARK_API, s.ptr);
	vb_map_end(out);
	strbuf_release(&s);
	strbuf_release(&taxonomy);
	return true;
}

static bool write_user_ref(const struct augment_ctx *ctx, value_t id, struct value_builder *out)
{
	struct strbuf want = STRBUF_INIT;
	scalar_text(id, &want);
	struct value_iter it;
	value_iter_init(&it, value_map_getz(vb_result(&ctx->idx->extras), "users"));
	bool found = false;
	while (!found && value_iter_next(&it)) {
		struct strbuf have = STRBUF_INIT;
		scalar_text(value_map_getz(it.value, "id"), &have);
		found = strcmp(strbuf_str(&have), strbuf_str(&want)) == 0;
		strbuf_release(&have);
	}
	if (found) {
		vb_map_begin(out);
		vb_keyz(out, "id");
		vb_value(out, value_map_getz(it.value, "id"));
		vb_keyz(out, "name");
		vb_value(out, value_map_getz(it.value, "name"));
		vb_keyz(out, "email");
		vb_value(out, value_map_getz(it.value, "email"));
		vb_keyz(out, "api_url");
		struct strbuf api = STRBUF_INIT;
		strbuf_addf(&api, "users/%s", strbuf_str(&want));
		marked(out, URL_MARK_API, api.ptr);
		strbuf_release(&api);
		vb_map_end(out);
	}
	strbuf_release(&want);
	return found;
}

enum relation { REL_ENTRIES, REL_TERMS, REL_USERS, REL_ASSETS };

static bool write_asset_ref(const struct augment_ctx *ctx, value_t v, value_t field,
                            struct value_builder *out);

static bool write_ref(const struct augment_ctx *ctx, enum relation rel, value_t v, value_t field,
                      struct value_builder *out)
{
	switch (rel) {
	case REL_ENTRIES: return write_entry_ref(ctx, v, out);
	case REL_TERMS: return write_term_ref(ctx, v, field, out);
	case REL_USERS: return write_user_ref(ctx, v, out);
	case REL_ASSETS: return write_asset_ref(ctx, v, field, out);
	}
	return false;
}

/* A list of short objects, or one (or null) when max_items is 1; missing
 * and unpublished items are left out. */
static void relation_value(const struct augment_ctx *ctx, enum relation rel, value_t v,
                           value_t field, struct value_builder *out)
{
	bool single = value_int(value_map_getz(field, "max_items")) == 1 ||
	              value_int(value_map_getz(field, "max_files")) == 1;
	if (single) {
		value_t first = value_type(v) == VALUE_ARRAY ? value_array_get(v, 0) : v;
		if (value_is_null(first) || !write_ref(ctx, rel, first, field, out))
			vb_null(out);
		return;
	}
	vb_array_begin(out);
	if (value_type(v) == VALUE_ARRAY) {
		struct value_iter it;
		value_iter_init(&it, v);
		while (value_iter_next(&it))
			write_ref(ctx, rel, it.value, field, out);
	} else if (!value_is_null(v)) {
		write_ref(ctx, rel, v, field, out);
	}
	vb_array_end(out);
}

/* --- assets and links --- */

static value_t container_named(const struct augment_ctx *ctx, const char *handle)
{
	struct value_iter it;
	value_t all = value_map_getz(vb_result(&ctx->idx->extras), "assets");
	value_iter_init(&it, all);
	while (value_iter_next(&it))
		if (!*handle || strcmp(value_str(value_map_getz(it.value, "handle"), NULL), handle) == 0)
			return it.value;
	return VALUE_MISSING;
}

/* {id, url, permalink, api_url, alt} of an asset of the field's container
 * (or the only one); false when the file is not there. */
static bool write_asset_ref(const struct augment_ctx *ctx, value_t v, value_t field,
                            struct value_builder *out)
{
	const char *path = value_str(v, NULL);
	value_t container = container_named(ctx, value_str(value_map_getz(field, "container"), NULL));
	if (!*path || value_is_missing(container))
		return false;
	value_t file = VALUE_MISSING;
	struct value_iter it;
	value_iter_init(&it, value_map_getz(container, "files"));
	while (value_is_missing(file) && value_iter_next(&it))
		if (strcmp(value_str(value_map_getz(it.value, "path"), NULL), path) == 0)
			file = it.value;
	if (value_is_missing(file))
		return false;
	const char *handle = value_str(value_map_getz(container, "handle"), NULL);
	value_t base = value_map_getz(container, "url");
	struct strbuf s = STRBUF_INIT;
	vb_map_begin(out);
	vb_keyz(out, "id");
	strbuf_addf(&s, "%s::%s", handle, path);
	vb_str(out, s.ptr, s.len);
	strbuf_reset(&s);
	if (value_type(base) == VALUE_STRING)
		strbuf_addf(&s, "%s/%s", strcmp(value_str(base, NULL), "/") == 0 ? "" : value_str(base, NULL),
		            path);
	vb_keyz(out, "url");
	if (s.len)
		vb_str(out, s.ptr, s.len);
	else
		vb_null(out);
	vb_keyz(out, "permalink");
	if (s.len)
		marked(out, URL_MARK_SITE, s.ptr);
	else
		vb_null(out);
	strbuf_reset(&s);
	strbuf_addf(&s, "assets/%s/%s", handle, path);
	vb_keyz(out, "api_url");
	marked(out, URL_MARK_API, s.ptr);
	vb_keyz(out, "alt");
	vb_value(out, value_map_getz(value_map_getz(file, "data"), "alt"));
	vb_map_end(out);
	strbuf_release(&s);
	return true;
}

/* A link field: a URL as it is; entry::{id} the entry's url; asset::c::p
 * the asset's url; @child cannot be known here (null). */
static void link_value(const struct augment_ctx *ctx, value_t v, struct value_builder *out)
{
	const char *s = value_str(v, NULL);
	if (strncmp(s, "entry::", 7) == 0) {
		const struct entry *e = site_index_entry(ctx->idx, s + 7);
		if (e && e->uri) {
			struct strbuf url = STRBUF_INIT;
			augment_site_url(ctx->idx->sites[e->site].url, e->uri, &url);
			vb_str(out, url.ptr, url.len);
			strbuf_release(&url);
		} else {
			vb_null(out);
		}
	} else if (strncmp(s, "asset::", 7) == 0) {
		const char *sep = strstr(s + 7, "::");
		struct value_builder ref = VALUE_BUILDER_INIT;
		struct value_builder field = VALUE_BUILDER_INIT;
		bool found = false;
		if (sep) {
			vb_map_begin(&field);
			vb_keyz(&field, "container");
			vb_str(&field, s + 7, (size_t)(sep - s - 7));
			vb_map_end(&field);
			struct value_builder path = VALUE_BUILDER_INIT;
			vb_strz(&path, sep + 2);
			found = write_asset_ref(ctx, vb_result(&path), vb_result(&field), &ref);
			vb_release(&path);
		}
		if (found)
			vb_value(out, value_map_getz(vb_result(&ref), "url"));
		else
			vb_null(out);
		vb_release(&ref);
		vb_release(&field);
	} else if (strcmp(s, "@child") == 0) {
		vb_null(out);
	} else {
		vb_value(out, v);
	}
}

/* --- nested fields: replicator, grid, group --- */

/* The config of handle in a list of {handle, field} items (inline
 * definitions; imports inside nested lists are not followed yet). */
static value_t nested_field(value_t items, const char *handle, size_t len)
{
	struct value_iter it;
	value_iter_init(&it, items);
	while (value_iter_next(&it)) {
		size_t n;
		const char *h = value_str(value_map_getz(it.value, "handle"), &n);
		if (n == len && memcmp(h, handle, len) == 0)
			return value_map_getz(it.value, "field");
	}
	return VALUE_MISSING;
}

/* Writes the fields of a row or set: every configured field (its value or
 * null), then stored keys the config lacks, except `skip` keys. */
static void nested_values(const struct augment_ctx *ctx, value_t items, value_t values,
                          const char *const *skip, struct value_builder *out)
{
	struct value_iter it;
	value_iter_init(&it, items);
	while (value_iter_next(&it)) {
		size_t len;
		const char *h = value_str(value_map_getz(it.value, "handle"), &len);
		if (!len)
			continue;
		char *key = xstrndup(h, len);
		vb_key(out, h, len);
		augment_field(ctx, key, value_map_get(values, h, len), value_map_getz(it.value, "field"),
		              out);
		free(key);
	}
	value_iter_init(&it, values);
	while (value_iter_next(&it)) {
		bool skipped = !value_is_missing(nested_field(items, it.key, it.key_len));
		for (size_t i = 0; skip[i] && !skipped; i++)
			skipped = strlen(skip[i]) == it.key_len && memcmp(skip[i], it.key, it.key_len) == 0;
		if (skipped)
			continue;
		vb_key(out, it.key, it.key_len);
		vb_value(out, it.value);
	}
}

/* A replicator set's fields: sets: {handle: {fields}} or, since v5,
 * sets: {group: {sets: {handle: {fields}}}}. */
static value_t set_fields(value_t sets, const char *type, size_t len)
{
	value_t set = value_map_get(sets, type, len);
	if (!value_is_missing(set))
		return value_map_getz(set, "fields");
	struct value_iter it;
	value_iter_init(&it, sets);
	while (value_iter_next(&it)) {
		set = value_map_get(value_map_getz(it.value, "sets"), type, len);
		if (!value_is_missing(set))
			return value_map_getz(set, "fields");
	}
	return VALUE_MISSING;
}

static void replicator_value(const struct augment_ctx *ctx, value_t v, value_t field,
                             struct value_builder *out)
{
	static const char *const skip[] = {"id", "type", "enabled", NULL};
	vb_array_begin(out);
	struct value_iter it;
	value_iter_init(&it, v);
	while (value_iter_next(&it)) {
		if (value_type(value_map_getz(it.value, "enabled")) == VALUE_FALSE)
			continue; /* disabled sets are not delivered */
		size_t len;
		const char *type = value_str(value_map_getz(it.value, "type"), &len);
		vb_map_begin(out);
		nested_values(ctx, set_fields(value_map_getz(field, "sets"), type, len), it.value, skip,
		              out);
		vb_keyz(out, "id");
		vb_value(out, value_map_getz(it.value, "id"));
		vb_keyz(out, "type");
		vb_str(out, type, len);
		vb_map_end(out);
	}
	vb_array_end(out);
}

static void grid_value(const struct augment_ctx *ctx, value_t v, value_t field,
                       struct value_builder *out)
{
	static const char *const skip[] = {"id", NULL};
	vb_array_begin(out);
	struct value_iter it;
	value_iter_init(&it, v);
	while (value_iter_next(&it)) {
		vb_map_begin(out);
		nested_values(ctx, value_map_getz(field, "fields"), it.value, skip, out);
		if (!value_is_missing(value_map_getz(it.value, "id"))) {
			vb_keyz(out, "id");
			vb_value(out, value_map_getz(it.value, "id"));
		}
		vb_map_end(out);
	}
	vb_array_end(out);
}

static void group_value(const struct augment_ctx *ctx, value_t v, value_t field,
                        struct value_builder *out)
{
	static const char *const skip[] = {NULL};
	vb_map_begin(out);
	nested_values(ctx, value_map_getz(field, "fields"), v, skip, out);
	vb_map_end(out);
}

/* --- bard --- */

static void text_block(struct strbuf *html, struct value_builder *out)
{
	vb_map_begin(out);
	vb_keyz(out, "type");
	vb_strz(out, "text");
	vb_keyz(out, "text");
	vb_str(out, html->ptr ? html->ptr : "", html->len);
	vb_map_end(out);
	strbuf_reset(html);
}

/* Without sets: one HTML string. With sets: text blocks between the sets,
 * each set {fields..., id, type} with its fields augmented; disabled sets
 * are dropped. A saved-as-HTML value is delivered as it is. */
static void bard_value(const struct augment_ctx *ctx, value_t v, value_t field,
                       struct value_builder *out)
{
	static const char *const skip[] = {"type", NULL};
	struct strbuf html = STRBUF_INIT;
	if (value_type(v) == VALUE_STRING || value_is_null(v)) {
		vb_value(out, v);
		return;
	}
	value_t sets = value_map_getz(field, "sets");
	if (value_count(sets) == 0) {
		bard_render(v, &html);
		vb_str(out, html.ptr ? html.ptr : "", html.len);
		strbuf_release(&html);
		return;
	}
	vb_array_begin(out);
	struct value_iter it;
	value_iter_init(&it, v);
	while (value_iter_next(&it)) {
		if (!bard_is_set(it.value)) {
			bard_render(it.value, &html);
			continue;
		}
		if (html.len)
			text_block(&html, out);
		value_t attrs = value_map_getz(it.value, "attrs");
		value_t values = value_map_getz(attrs, "values");
		if (value_type(value_map_getz(attrs, "enabled")) == VALUE_FALSE ||
		    value_type(value_map_getz(values, "enabled")) == VALUE_FALSE)
			continue;
		size_t len;
		const char *type = value_str(value_map_getz(values, "type"), &len);
		vb_map_begin(out);
		nested_values(ctx, set_fields(sets, type, len), values, skip, out);
		vb_keyz(out, "id");
		vb_value(out, value_map_getz(attrs, "id"));
		vb_keyz(out, "type");
		vb_str(out, type, len);
		vb_map_end(out);
	}
	if (html.len)
		text_block(&html, out);
	vb_array_end(out);
	strbuf_release(&html);
}

void augment_field(const struct augment_ctx *ctx, const char *key, value_t v, value_t field,
                   struct value_builder *out)
{
	if (value_is_missing(field)) {
		if (strcmp(key, "content") == 0 && value_type(v) == VALUE_STRING)
			markdown_value(v, field, out);
		else
			vb_value(out, v);
		return;
	}
	const char *type = field_type(field);
	if (strcmp(type, "markdown") == 0)
		markdown_value(v, field, out);
	else if (strcmp(type, "toggle") == 0)
		vb_bool(out, truthy(v));
	else if (strcmp(type, "integer") == 0)
		number_value(v, true, out);
	else if (strcmp(type, "float") == 0)
		number_value(v, false, out);
	else if (strcmp(type, "date") == 0 && !value_is_null(v))
		date_value(v, out);
	else if (strcmp(type, "select") == 0 || strcmp(type, "radio") == 0 ||
	         strcmp(type, "button_group") == 0 || strcmp(type, "checkboxes") == 0)
		options_value(v, field, out);
	else if (strcmp(type, "entries") == 0)
		relation_value(ctx, REL_ENTRIES, v, field, out);
	else if (strcmp(type, "terms") == 0)
		relation_value(ctx, REL_TERMS, v, field, out);
	else if (strcmp(type, "users") == 0)
		relation_value(ctx, REL_USERS, v, field, out);
	else if (strcmp(type, "assets") == 0)
		relation_value(ctx, REL_ASSETS, v, field, out);
	else if (strcmp(type, "link") == 0 && value_type(v) == VALUE_STRING)
		link_value(ctx, v, out);
	else if (strcmp(type, "replicator") == 0 && value_type(v) == VALUE_ARRAY)
		replicator_value(ctx, v, field, out);
	else if (strcmp(type, "grid") == 0 && value_type(v) == VALUE_ARRAY)
		grid_value(ctx, v, field, out);
	else if (strcmp(type, "group") == 0 && value_type(v) == VALUE_MAP)
		group_value(ctx, v, field, out);
	else if (strcmp(type, "bard") == 0)
		bard_value(ctx, v, field, out);
	else
		vb_value(out, v);
}
