/* abilities: what a per-user token may read; see abilities.h. */
#include "autoconfig.h"

#include "guard/abilities.h"

#include <json-c/json.h>
#include <stdio.h>
#include <string.h>

#include "lib/jsonw.h"

void abilities_init(struct abilities *a)
{
	memset(a, 0, sizeof *a);
}

void abilities_free(struct abilities *a)
{
	strlist_free(&a->items);
	for (int t = 0; t < RES_TYPE_COUNT; t++)
		strlist_free(&a->handles[t]);
	memset(a, 0, sizeof *a);
}

/* Types whose routes name a handle; users and sites have none. */
static bool has_handles(enum resource_type t)
{
	return t != RES_USERS && t != RES_SITES && t != RES_SYNC;
}

static int type_named(const char *s, size_t len)
{
	for (int t = 0; t < RES_TYPE_COUNT; t++) {
		const char *name = resource_type_name((enum resource_type)t);
		if (strlen(name) == len && memcmp(name, s, len) == 0)
			return t;
	}
	return -1;
}

/* Handles are file names of the site: letters, digits, '_', '-', '.'. */
static bool handle_valid(const char *s)
{
	if (!*s || strcmp(s, ".") == 0 || strcmp(s, "..") == 0)
		return false;
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		      *s == '_' || *s == '-' || *s == '.'))
			return false;
	return true;
}

/* Adds one ability. Returns 0, or -1 with why in err (may be NULL). */
static int add_one(struct abilities *a, const char *item, char *err)
{
	const char *colon = strchr(item, ':');
	size_t type_len = colon ? (size_t)(colon - item) : strlen(item);
	int t = type_named(item, type_len);
	if (strcmp(item, "*") == 0) {
		a->all = true;
	} else if (t < 0) {
		if (err)
			snprintf(err, ABILITIES_ERR_LEN, "'%s' is not an ability: use *, a resource type "
			         "(collections, navs, taxonomies, globals, forms, assets, users, sites) "
			         "or type:handle", item);
		return -1;
	} else if (!colon) {
		a->types[t] = true;
	} else if (!has_handles((enum resource_type)t)) {
		if (err)
			snprintf(err, ABILITIES_ERR_LEN, "'%s' is not an ability: %s have no handles, "
			         "use '%s'", item, resource_type_name((enum resource_type)t),
			         resource_type_name((enum resource_type)t));
		return -1;
	} else if (!handle_valid(colon + 1)) {
		if (err)
			snprintf(err, ABILITIES_ERR_LEN, "'%s' is not an ability: '%s' is not a handle",
			         item, colon + 1);
		return -1;
	} else {
		strlist_add_unique(&a->handles[t], colon + 1);
	}
	strlist_add_unique(&a->items, item);
	return 0;
}

int abilities_parse_list(struct abilities *a, const char *csv, char err[ABILITIES_ERR_LEN])
{
	struct strlist items = {NULL, 0};
	strlist_split(&items, csv);
	int rc = 0;
	if (items.len == 0) {
		snprintf(err, ABILITIES_ERR_LEN, "no ability given");
		rc = -1;
	}
	for (size_t i = 0; i < items.len && rc == 0; i++)
		rc = add_one(a, items.items[i], err);
	strlist_free(&items);
	return rc;
}

int abilities_from_json(struct abilities *a, const char *json)
{
	struct json_object *list = json_tokener_parse(json);
	int rc = list && json_object_is_type(list, json_type_array) ? 0 : -1;
	size_t n = rc == 0 ? json_object_array_length(list) : 0;
	for (size_t i = 0; i < n; i++) {
		struct json_object *item = json_object_array_get_idx(list, i);
		if (!json_object_is_type(item, json_type_string)) {
			rc = -1;
			continue;
		}
		add_one(a, json_object_get_string(item), NULL); /* unknown: grants nothing */
	}
	json_object_put(list);
	return rc;
}

void abilities_to_json(const struct abilities *a, struct strbuf *out)
{
	struct jsonw w;
	jsonw_init(&w, out);
	jsonw_array_begin(&w);
	for (size_t i = 0; i < a->items.len; i++)
		jsonw_stringz(&w, a->items.items[i]);
	jsonw_array_end(&w);
}

bool abilities_cover_type(const struct abilities *a, enum resource_type t)
{
	return a->all || a->types[t];
}

bool abilities_cover_handle(const struct abilities *a, enum resource_type t, const char *handle)
{
	return abilities_cover_type(a, t) || strlist_contains(&a->handles[t], handle);
}
