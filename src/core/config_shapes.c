/* config_shapes: [scope.*], [shape] and [shape.*]; see config.h. */
#include "autoconfig.h"

#include "core/config.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/strbuf.h"

/* What stands for ':' inside a scope's filter[...] key while inih reads it. */
#define HIDDEN_COLON '\x1f'

static const char *const shape_types[SHAPE_TYPE_COUNT] = {
	"entries", "terms", "globals", "assets", "users", "pages",
};

/* Names a shape may never give a key: what spec §6 never serves. */
static const char *const secret_names[] = {
	"password", "password_hash", "remember_token", "two_factor_secret",
	"two_factor_recovery_codes", "two_factor_confirmed_at", "passkeys", "preferences",
};

/* A key a field may have: a name, or several joined by dots. */
static bool valid_key(const char *s)
{
	if (!*s || *s == '.')
		return false;
	for (const char *p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_-.", *p))
			return false;
	return s[strlen(s) - 1] != '.';
}

static int say(char err[CONFIG_ERR_LEN], const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int say(char err[CONFIG_ERR_LEN], const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, CONFIG_ERR_LEN, fmt, ap);
	va_end(ap);
	return -1;
}

/* --- lookups (config.h) --- */

const struct scope_def *config_scope(const struct config *cfg, const char *name)
{
	for (size_t i = 0; i < cfg->nscopes; i++)
		if (strcmp(cfg->scopes[i].name, name) == 0)
			return &cfg->scopes[i];
	return NULL;
}

bool scope_applies(const struct scope_def *s, enum resource_type t, const char *handle)
{
	if (s->resources.len == 0)
		return true;
	const char *type = resource_type_name(t);
	size_t n = strlen(type);
	for (size_t i = 0; i < s->resources.len; i++) {
		const char *r = s->resources.items[i];
		if (strcmp(r, type) == 0)
			return true;
		if (handle && strncmp(r, type, n) == 0 && r[n] == '.' && strcmp(r + n + 1, handle) == 0)
			return true;
	}
	return false;
}

const struct shape_def *config_shape(const struct config *cfg, enum shape_type t,
                                     const char *handle)
{
	const struct shape_def *type_wide = NULL;
	for (size_t i = 0; i < cfg->nshapes; i++) {
		const struct shape_def *s = &cfg->shapes[i];
		if (s->type != t)
			continue;
		if (!s->handle)
			type_wide = s;
		else if (handle && strcmp(s->handle, handle) == 0)
			return s;
	}
	return type_wide;
}

/* --- sections --- */

static struct scope_def *scope_named(struct config *cfg, const char *name)
{
	return (struct scope_def *)config_scope(cfg, name);
}

/* The section's shape: type and handle from "shape.<type>[.<handle>]". */
static struct shape_def *shape_of_section(struct config *cfg, const char *section)
{
	for (size_t i = 0; i < cfg->nshapes; i++) {
		struct shape_def *s = &cfg->shapes[i];
		struct strbuf name = STRBUF_INIT;
		strbuf_addf(&name, "shape.%s%s%s", shape_types[s->type], s->handle ? "." : "",
		            s->handle ? s->handle : "");
		bool same = strcmp(name.ptr, section) == 0;
		strbuf_release(&name);
		if (same)
			return s;
	}
	return NULL;
}

static int open_scope(struct config *cfg, const char *name, int line, char err[CONFIG_ERR_LEN])
{
	if (!config_valid_name(name))
		return say(err, "unknown section [scope.%s]: a scope is named by letters, digits, "
		           "'_' and '-'", name);
	if (scope_named(cfg, name))
		return say(err, "section [scope.%s] appears twice", name);
	cfg->scopes = xrealloc(cfg->scopes, (cfg->nscopes + 1) * sizeof *cfg->scopes);
	struct scope_def *s = &cfg->scopes[cfg->nscopes++];
	memset(s, 0, sizeof *s);
	s->name = xstrdup(name);
	s->line = line;
	return 1;
}

static int open_shape(struct config *cfg, const char *section, int line,
                      char err[CONFIG_ERR_LEN])
{
	const char *rest = section + 6; /* past "shape." */
	size_t n = strcspn(rest, ".");
	int type = -1;
	for (int t = 0; t < SHAPE_TYPE_COUNT; t++)
		if (strlen(shape_types[t]) == n && strncmp(rest, shape_types[t], n) == 0)
			type = t;
	const char *handle = rest[n] == '.' ? rest + n + 1 : NULL;
	if (type < 0 || (handle && !config_valid_name(handle)) || (handle && type == SHAPE_USERS))
		return say(err, "unknown section [%s]: shapes are [shape.<type>] or "
		           "[shape.<type>.<handle>], type one of entries, terms, globals, assets, "
		           "users (no handle), pages", section);
	if (shape_of_section(cfg, section))
		return say(err, "section [%s] appears twice", section);
	cfg->shapes = xrealloc(cfg->shapes, (cfg->nshapes + 1) * sizeof *cfg->shapes);
	struct shape_def *s = &cfg->shapes[cfg->nshapes++];
	memset(s, 0, sizeof *s);
	s->type = (enum shape_type)type;
	s->handle = handle ? xstrdup(handle) : NULL;
	s->line = line;
	return 1;
}

int config_shapes_open(struct config *cfg, const char *section, int line,
                       char err[CONFIG_ERR_LEN])
{
	if (strcmp(section, "shape") == 0)
		return 1;
	if (strncmp(section, "scope.", 6) == 0)
		return open_scope(cfg, section + 6, line, err);
	if (strncmp(section, "shape.", 6) == 0)
		return open_shape(cfg, section, line, err);
	return 0;
}

/* --- keys --- */

void config_shapes_protect_line(const char *section, char *line)
{
	if (strncmp(section, "scope.", 6) != 0)
		return;
	char *p = line;
	while (isspace((unsigned char)*p))
		p++;
	if (strncmp(p, "filter[", 7) != 0)
		return;
	for (p += 7; *p && *p != ']' && *p != '='; p++)
		if (*p == ':')
			*p = HIDDEN_COLON;
}

static bool is_secret(const char *name)
{
	for (size_t i = 0; i < sizeof secret_names / sizeof secret_names[0]; i++)
		if (strcmp(secret_names[i], name) == 0)
			return true;
	return false;
}

static int scope_key(struct scope_def *s, const char *name, const char *value,
                     char err[CONFIG_ERR_LEN])
{
	size_t n = strlen(name);
	if (strncmp(name, "filter[", 7) == 0 && n > 8 && name[n - 1] == ']') {
		char *key = xstrndup(name + 7, n - 8);
		for (char *p = key; *p; p++)
			if (*p == HIDDEN_COLON)
				*p = ':';
		s->filters = xrealloc(s->filters, (s->nfilters + 1) * sizeof *s->filters);
		s->filters[s->nfilters++] = (struct kv){key, xstrdup(value), 0};
		return 1;
	}
	if (strcmp(name, "sort") == 0) {
		free(s->sort);
		s->sort = xstrdup(value);
		return 1;
	}
	if (strcmp(name, "resources") == 0) {
		strlist_free(&s->resources);
		strlist_split(&s->resources, value);
		return 1;
	}
	return say(err, "unknown key '%s' in [scope.%s] (filter[<field>:<condition>], sort, "
	           "resources)", name, s->name);
}

static int shape_rename(struct shape_def *s, const char *from, const char *to,
                        const char *section, char err[CONFIG_ERR_LEN])
{
	if (!valid_key(from) || strchr(from, '.') || !valid_key(to) || strchr(to, '.'))
		return say(err, "[%s] rename.%s: a key is renamed to a key (letters, digits, "
		           "'_' and '-'), not '%s'", section, from, to);
	if (is_secret(to))
		return say(err, "[%s] rename.%s: %s is never served, and no key may be called so",
		           section, from, to);
	s->renames = xrealloc(s->renames, (s->nrenames + 1) * sizeof *s->renames);
	s->renames[s->nrenames++] = (struct shape_rename){xstrdup(from), xstrdup(to)};
	return 1;
}

static int shape_key(struct shape_def *s, const char *section, const char *name,
                     const char *value, char err[CONFIG_ERR_LEN])
{
	if (strcmp(name, "keys") == 0) {
		strlist_free(&s->keys);
		strlist_split(&s->keys, value);
		s->keys_set = true;
		return 1;
	}
	if (strcmp(name, "drop") == 0) {
		strlist_free(&s->drop);
		strlist_split(&s->drop, value);
		return 1;
	}
	if (strncmp(name, "rename.", 7) == 0)
		return shape_rename(s, name + 7, value, section, err);
	if (strncmp(name, "keys.", 5) == 0 && valid_key(name + 5) && !strchr(name + 5, '.')) {
		s->nested = xrealloc(s->nested, (s->nnested + 1) * sizeof *s->nested);
		struct shape_nested *one = &s->nested[s->nnested++];
		one->field = xstrdup(name + 5);
		memset(&one->keys, 0, sizeof one->keys);
		strlist_split(&one->keys, value);
		return 1;
	}
	return say(err, "unknown key '%s' in [%s] (keys, drop, rename.<key>, keys.<field>)", name,
	           section);
}

static int plugin_key(struct config *cfg, const char *name, const char *value, int line,
                      char err[CONFIG_ERR_LEN])
{
	if (strcmp(name, "plugin") == 0) {
		if (value[0] != '/')
			return say(err, "[shape] plugin: a plug-in is named by its absolute path, not %s",
			           value);
		free(cfg->shape_plugin_path);
		cfg->shape_plugin_path = xstrdup(value);
		cfg->shape_plugin_line = line;
		return 1;
	}
	cfg->shape_options = xrealloc(cfg->shape_options,
	                              (cfg->nshape_options + 1) * sizeof *cfg->shape_options);
	cfg->shape_options[cfg->nshape_options++] = (struct kv){xstrdup(name), xstrdup(value), line};
	return 1;
}

int config_shapes_key(struct config *cfg, const char *section, const char *name,
                      const char *value, int line, char err[CONFIG_ERR_LEN])
{
	if (strcmp(section, "shape") == 0)
		return plugin_key(cfg, name, value, line, err);
	if (strncmp(section, "scope.", 6) == 0) {
		struct scope_def *s = scope_named(cfg, section + 6);
		return s ? scope_key(s, name, value, err) : say(err, "unknown section [%s]", section);
	}
	if (strncmp(section, "shape.", 6) == 0) {
		struct shape_def *s = shape_of_section(cfg, section);
		return s ? shape_key(s, section, name, value, err)
		         : say(err, "unknown section [%s]", section);
	}
	return 0;
}

/* --- freeing --- */

static void free_kvs(struct kv *kvs, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(kvs[i].key);
		free(kvs[i].value);
	}
	free(kvs);
}

static void free_shape(struct shape_def *s)
{
	free(s->handle);
	strlist_free(&s->keys);
	strlist_free(&s->drop);
	for (size_t i = 0; i < s->nrenames; i++) {
		free(s->renames[i].from);
		free(s->renames[i].to);
	}
	free(s->renames);
	for (size_t i = 0; i < s->nnested; i++) {
		free(s->nested[i].field);
		strlist_free(&s->nested[i].keys);
	}
	free(s->nested);
}

void config_shapes_free(struct config *cfg)
{
	for (size_t i = 0; i < cfg->nscopes; i++) {
		free(cfg->scopes[i].name);
		free_kvs(cfg->scopes[i].filters, cfg->scopes[i].nfilters);
		free(cfg->scopes[i].sort);
		strlist_free(&cfg->scopes[i].resources);
	}
	free(cfg->scopes);
	for (size_t i = 0; i < cfg->nshapes; i++)
		free_shape(&cfg->shapes[i]);
	free(cfg->shapes);
	free(cfg->shape_plugin_path);
	free_kvs(cfg->shape_options, cfg->nshape_options);
	cfg->scopes = NULL;
	cfg->shapes = NULL;
	cfg->shape_plugin_path = NULL;
	cfg->shape_options = NULL;
	cfg->nscopes = cfg->nshapes = cfg->nshape_options = 0;
}
