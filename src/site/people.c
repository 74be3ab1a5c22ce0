/*
 * people: forms and users into the index's extras.
 *
 * "forms": a list of {handle, title, fields: {handle: config}}, fields from
 * resources/blueprints/forms/{handle}.yaml. The form's `email`
 * notifications and `honeypot` are never kept (spec §6).
 *
 * "users": a list of {id, email, name, is_super} from users/{email}.yaml.
 * Nothing else of a user file is kept: never passwords or their hashes,
 * remember tokens, two-factor or passkey data, preferences.
 */
#include "autoconfig.h"

#include "site/people.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/hash.h"
#include "lib/php.h"
#include "lib/strbuf.h"
#include "site/blueprints.h"
#include "site/files.h"

static void load_form(void *ctx, const char *handle, value_t form)
{
	struct site_index *idx = ctx;
	struct value_builder *out = &idx->extras;
	vb_map_begin(out);
	vb_keyz(out, "handle");
	vb_strz(out, handle);
	vb_keyz(out, "title");
	value_t title = value_map_getz(form, "title");
	if (value_type(title) == VALUE_STRING)
		vb_value(out, title);
	else
		vb_null(out);
	vb_keyz(out, "fields");
	struct strbuf rel = STRBUF_INIT;
	strbuf_addf(&rel, "resources/blueprints/forms/%s.yaml", handle);
	blueprint_fields(idx, rel.ptr, out);
	strbuf_release(&rel);
	vb_map_end(out);
}

void forms_load(struct site_index *idx)
{
	vb_keyz(&idx->extras, "forms");
	vb_array_begin(&idx->extras);
	files_each_yaml(&idx->files, "resources/forms", load_form, idx);
	vb_array_end(&idx->extras);
}

/* Statamic's name: `name`, else first and last name, else the e-mail. */
static void emit_name(struct value_builder *out, value_t user, const char *email)
{
	const char *name = value_str(value_map_getz(user, "name"), NULL);
	const char *first = value_str(value_map_getz(user, "first_name"), NULL);
	const char *last = value_str(value_map_getz(user, "last_name"), NULL);
	if (*name) {
		vb_strz(out, name);
	} else if (*first || *last) {
		struct strbuf full = STRBUF_INIT;
		strbuf_addf(&full, "%s%s%s", first, *first && *last ? " " : "", last);
		vb_str(out, full.ptr, full.len);
		strbuf_release(&full);
	} else {
		vb_strz(out, email);
	}
}

/* A user without an id gets a stable one made from its file's path,
 * users/{email}.yaml, as an entry does. */
static void load_user(void *ctx, const char *email, value_t user)
{
	struct site_index *idx = ctx;
	struct value_builder *out = &idx->extras;
	vb_map_begin(out);
	vb_keyz(out, "id");
	value_t id = value_map_getz(user, "id");
	if (value_type(id) == VALUE_STRING || value_type(id) == VALUE_INT) {
		vb_value(out, id);
	} else {
		struct strbuf rel = STRBUF_INIT;
		strbuf_addf(&rel, "users/%s.yaml", email);
		char made_up[40];
		snprintf(made_up, sizeof made_up, "cms-api-%016llx",
		         (unsigned long long)hash_fnv1a(rel.ptr));
		files_problem(&idx->files, true, rel.ptr, 0, "no id; using %s", made_up);
		vb_strz(out, made_up);
		strbuf_release(&rel);
	}
	vb_keyz(out, "email");
	vb_strz(out, email);
	vb_keyz(out, "name");
	emit_name(out, user, email);
	vb_keyz(out, "is_super");
	vb_bool(out, value_bool(value_map_getz(user, "super")));
	vb_map_end(out);
}

void users_load(struct site_index *idx)
{
	vb_keyz(&idx->extras, "users");
	vb_array_begin(&idx->extras);
	files_each_yaml(&idx->files, "users", load_user, idx);
	vb_array_end(&idx->extras);
}

/* Whether a user's id (a string, or a number in YAML) is who. Read in
 * place: the guard asks this of every user at every request. */
static bool id_is(value_t id, const char *who, size_t who_len, struct strbuf *scratch)
{
	if (value_type(id) == VALUE_STRING) {
		size_t len;
		const char *s = value_str(id, &len);
		return len == who_len && memcmp(s, who, len) == 0;
	}
	strbuf_reset(scratch);
	php_string(id, scratch);
	return strcmp(strbuf_str(scratch), who) == 0;
}

bool users_find(value_t users, const char *who, bool by_email, struct strbuf *id)
{
	size_t who_len = strlen(who);
	struct value_iter it;
	value_iter_init(&it, users);
	while (value_iter_next(&it)) {
		value_t user_id = value_map_getz(it.value, "id");
		if (id_is(user_id, who, who_len, id) ||
		    (by_email && strcmp(value_str(value_map_getz(it.value, "email"), NULL), who) == 0)) {
			strbuf_reset(id);
			php_string(user_id, id);
			return true;
		}
	}
	strbuf_reset(id);
	return false;
}
