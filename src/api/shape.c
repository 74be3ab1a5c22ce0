/*
 * api/shape: the INI's shape of an item ([shape.<type>] and
 * [shape.<type>.<handle>], config.h shape_def), what Statamic does with a
 * Resource class of one's own: keys = the keys kept and their order
 * (every key in the item's order without it; a key the item lacks is
 * null), drop = keys removed, rename.<key> = the name a key goes out
 * under, keys.<field> = the keys kept of a relation's related items (of
 * their short objects, or of the whole items an include wrote) or of a
 * map, or of each map of a list. Every name refers to the item's own keys,
 * before any rename.
 *
 * A shape only chooses among what the item holds, and the item never
 * holds what spec §6 forbids (its handler left it out); a key named by
 * [api] excluded_keys stays out, whatever the shape keeps or renames.
 */
#include "autoconfig.h"

#include <stdlib.h>
#include <string.h>

#include "api/output.h"
#include "lib/strbuf.h"

/* The name key goes out under. */
static const char *renamed(const struct shape_def *s, const char *key)
{
	for (size_t i = 0; i < s->nrenames; i++)
		if (strcmp(s->renames[i].from, key) == 0)
			return s->renames[i].to;
	return key;
}

static const struct strlist *nested_keys(const struct shape_def *s, const char *key)
{
	for (size_t i = 0; i < s->nnested; i++)
		if (strcmp(s->nested[i].field, key) == 0)
			return &s->nested[i].keys;
	return NULL;
}

/* Writes the key of item (value v) as the shape has it, unless dropped
 * or its name went out already (a key kept twice, a rename onto another
 * key: the first stands). */
static void shape_key(const struct api_ctx *ctx, const struct shape_def *s, const char *key,
                      value_t v, struct strlist *written, struct value_builder *out)
{
	const char *name = renamed(s, key);
	if (strlist_contains(&s->drop, key) || strlist_contains(&ctx->cfg->excluded_keys, name) ||
	    strlist_contains(written, name))
		return;
	strlist_add(written, name);
	const struct strlist *keys = nested_keys(s, key);
	vb_keyz(out, name);
	if (keys)
		api_narrow(ctx, v, keys, out);
	else
		vb_value(out, v);
}

void api_shape_apply(const struct api_ctx *ctx, const struct shape_def *s, value_t item,
                     struct value_builder *out)
{
	struct strlist written = {NULL, 0};
	vb_map_begin(out);
	if (s->keys_set) {
		for (size_t i = 0; i < s->keys.len; i++)
			shape_key(ctx, s, s->keys.items[i], value_map_getz(item, s->keys.items[i]),
			          &written, out);
	} else {
		struct value_iter it;
		value_iter_init(&it, item);
		while (value_iter_next(&it)) {
			char *key = xstrndup(it.key, it.key_len);
			shape_key(ctx, s, key, it.value, &written, out);
			free(key);
		}
	}
	vb_map_end(out);
	strlist_free(&written);
}
