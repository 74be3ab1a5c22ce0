/*
 * api/users: GET /{route}/users and /users/{id} (spec §4, §6,
 * statamic-api.md §10.5).
 *
 * A user is only ever {id, email, name, is_super, api_url}, in that order
 * (the index kept nothing else of a user file). `fields` narrows to those
 * of the five it names, in its order, and all five when it names none of
 * them: it never adds a key. excluded_keys removes keys. The list is
 * paginated, sorted and filtered on the five (filters only on the fields
 * [resources.users] allows, never password or password_hash: config.c
 * keeps them out of the allow-list, so they are always 422).
 */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "api/api.h"
#include "api/items.h"
#include "api/tags.h"
#include "api/listing.h"
#include "api/output.h"
#include "lib/php.h"
#include "lib/strbuf.h"

static const char *const user_keys[] = {"id", "email", "name", "is_super", "api_url"};
#define NUSER_KEYS (sizeof user_keys / sizeof user_keys[0])

/* One request's view of the users. */
struct user_list {
	struct api_ctx *ctx;
	value_t *users; /* owned array of views into the snapshot */
	size_t n;
	const struct item_out *out; /* borrowed: what the request asks more of each user */
};

static bool is_user_key(const char *key)
{
	for (size_t i = 0; i < NUSER_KEYS; i++)
		if (strcmp(user_keys[i], key) == 0)
			return true;
	return false;
}

/* The user's id as text: ids may be written as numbers in YAML. */
static void id_text(value_t user, struct strbuf *out)
{
	strbuf_reset(out);
	php_string(value_map_getz(user, "id"), out);
}

/* The user's value of key, or missing for a key users do not show. */
static value_t user_value(value_t user, const char *key, struct value_builder *scratch)
{
	if (!is_user_key(key))
		return VALUE_MISSING;
	if (strcmp(key, "api_url") != 0)
		return value_map_getz(user, key);
	struct strbuf path = STRBUF_INIT, id = STRBUF_INIT;
	id_text(user, &id);
	strbuf_addf(&path, "users/%s", strbuf_str(&id));
	vb_reset(scratch);
	vb_url(scratch, URL_API, path.ptr, path.len);
	strbuf_release(&path);
	strbuf_release(&id);
	return vb_result(scratch);
}

/* The keys to write: those of fields that users show, once each, in the
 * order asked; all five when fields names none. Never an excluded key. */
static void shown_keys(const struct api_ctx *ctx, const struct strlist *fields,
                       struct strlist *out)
{
	*out = (struct strlist){NULL, 0};
	for (size_t i = 0; i < fields->len; i++)
		if (is_user_key(fields->items[i]))
			strlist_add_unique(out, fields->items[i]);
	if (out->len == 0)
		for (size_t i = 0; i < NUSER_KEYS; i++)
			strlist_add(out, user_keys[i]);
	size_t kept = 0;
	for (size_t i = 0; i < out->len; i++) {
		if (strlist_contains(&ctx->cfg->excluded_keys, out->items[i]))
			free(out->items[i]);
		else
			out->items[kept++] = out->items[i];
	}
	out->len = kept;
}

static void write_user(struct api_ctx *ctx, const struct item_out *out, struct jsonw *w,
                       value_t user, const struct strlist *fields)
{
	if (!api_output_plain(ctx, out, NULL)) {
		struct value_builder item = VALUE_BUILDER_INIT;
		api_user_build(ctx, user, &item);
		api_output_write(ctx, out, NULL, w, vb_result(&item));
		vb_release(&item);
		return;
	}
	struct strlist keys;
	shown_keys(ctx, fields, &keys);
	struct value_builder scratch = VALUE_BUILDER_INIT;
	jsonw_object_begin(w);
	for (size_t i = 0; i < keys.len; i++) {
		jsonw_keyz(w, keys.items[i]);
		jsonw_value(w, user_value(user, keys.items[i], &scratch));
	}
	jsonw_object_end(w);
	vb_release(&scratch);
	strlist_free(&keys);
}

/* --- the list's source --- */

static value_t listed_value(void *self, uint32_t item, const char *key,
                            struct value_builder *scratch)
{
	const struct user_list *l = self;
	return user_value(l->users[item], key, scratch);
}

static void write_listed(void *self, struct jsonw *w, uint32_t item, const struct strlist *fields)
{
	const struct user_list *l = self;
	write_user(l->ctx, l->out, w, l->users[item], fields);
}

static void open_users(struct api_ctx *ctx, struct user_list *l)
{
	value_t users = snap_extras(ctx->snap, "users");
	l->ctx = ctx;
	l->n = 0;
	l->users = xmalloc((value_count(users) + 1) * sizeof *l->users);
	struct value_iter it;
	value_iter_init(&it, users);
	while (value_iter_next(&it))
		l->users[l->n++] = it.value;
}

int api_users_index(struct api_ctx *ctx)
{
	struct item_out out;
	int status = api_output_read(ctx, SHAPE_USERS, &out);
	if (status != 0)
		return status;
	struct user_list l;
	open_users(ctx, &l);
	l.out = &out;
	api_tag(ctx, TAG_USERS, NULL, NULL);
	struct listing_source src = {listed_value, write_listed, &l};
	status = listing_answer_all(ctx, RES_USERS, NULL, &src, l.n, "users");
	free(l.users);
	api_output_free(&out);
	return status;
}

int api_users_show(struct api_ctx *ctx)
{
	struct user_list l;
	open_users(ctx, &l);
	api_tag(ctx, TAG_USERS, NULL, NULL);
	struct strbuf id = STRBUF_INIT;
	value_t found = VALUE_MISSING;
	for (size_t i = 0; i < l.n && value_is_missing(found); i++) {
		id_text(l.users[i], &id);
		if (strcmp(strbuf_str(&id), ctx->params[0]) == 0)
			found = l.users[i];
	}
	struct item_out out;
	int status = value_is_missing(found) ? api_not_found(ctx)
	                                     : api_output_read(ctx, SHAPE_USERS, &out);
	if (status == 0) {
		struct jsonw w;
		api_begin_data(ctx, &w);
		write_user(ctx, &out, &w, found, &out.fields);
		api_end_data(&w);
		api_output_free(&out);
	}
	strbuf_release(&id);
	free(l.users);
	return status;
}

/* --- a user for the handlers of other kinds (items.h) --- */

value_t api_user_find(const struct api_ctx *ctx, const char *id)
{
	struct strbuf text = STRBUF_INIT;
	value_t found = VALUE_MISSING;
	struct value_iter it;
	value_iter_init(&it, snap_extras(ctx->snap, "users"));
	while (value_is_missing(found) && value_iter_next(&it)) {
		id_text(it.value, &text);
		if (strcmp(strbuf_str(&text), id) == 0)
			found = it.value;
	}
	strbuf_release(&text);
	return found;
}

value_t api_user_value(value_t user, const char *key, struct value_builder *scratch)
{
	return user_value(user, key, scratch);
}

void api_user_build(const struct api_ctx *ctx, value_t user, struct value_builder *out)
{
	struct strlist none = {NULL, 0}, keys;
	shown_keys(ctx, &none, &keys);
	struct value_builder scratch = VALUE_BUILDER_INIT;
	vb_map_begin(out);
	for (size_t i = 0; i < keys.len; i++) {
		vb_keyz(out, keys.items[i]);
		vb_value(out, user_value(user, keys.items[i], &scratch));
	}
	vb_map_end(out);
	vb_release(&scratch);
	strlist_free(&keys);
}
