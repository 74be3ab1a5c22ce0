/* api/tags: an answer's cache tags as it is written; see tags.h. */
#include "autoconfig.h"

#include "api/tags.h"

#include <string.h>

#include "lib/strbuf.h"

/* Deeper values are not walked for references: the index refuses deeper
 * nesting (VALUE_MAX_DEPTH) anyway. */
#define WALK_MAX_DEPTH 64

void api_tag(struct api_ctx *ctx, enum tag_kind kind, const char *a, const char *b)
{
	if (ctx->tags)
		tag_add(ctx->tags, ctx->cfg->edge_tag_prefix, kind, a, b, NULL);
}

/* Entry n's own file. */
static void tag_entry_file(struct api_ctx *ctx, uint32_t n)
{
	if (n >= snap_entry_count(ctx->snap))
		return;
	struct snap_entry e = snap_entry_at(ctx->snap, n);
	struct snap_collection c = snap_collection_at(ctx->snap, e.collection);
	tag_add(ctx->tags, ctx->cfg->edge_tag_prefix, TAG_ENTRY, e.path, NULL, c.handle);
}

void api_tag_entry(struct api_ctx *ctx, uint32_t n)
{
	if (!ctx->tags || n >= snap_entry_count(ctx->snap))
		return;
	struct snap_entry e = snap_entry_at(ctx->snap, n);
	tag_entry_file(ctx, n);
	if (e.origin != SNAP_NONE)
		tag_entry_file(ctx, e.origin);
	uint32_t p = e.parent;
	for (int depth = 0; p != SNAP_NONE && depth < WALK_MAX_DEPTH; depth++) {
		tag_entry_file(ctx, p);
		p = snap_entry_at(ctx->snap, p).parent;
	}
	const char *mount = snap_collection_at(ctx->snap, e.collection).mount;
	if (mount)
		tag_entry_file(ctx, snap_entry_find(ctx->snap, mount));
	api_tag_refs(ctx, e.data);
}

void api_tag_asset(struct api_ctx *ctx, const char *container, const char *path)
{
	if (!ctx->tags)
		return;
	value_t c = snap_extras_find(ctx->snap, "assets", container);
	const char *disk = value_str(value_map_getz(c, "disk"), NULL);
	api_tag(ctx, TAG_ASSET, disk, path);
}

/* "first::rest", as a term's and an asset's id are written, split. */
static bool split_id(value_t object, struct strbuf *first, const char **rest)
{
	const char *id = value_str(value_map_getz(object, "id"), NULL);
	const char *sep = strstr(id, "::");
	if (!sep)
		return false;
	strbuf_add(first, id, (size_t)(sep - id));
	*rest = sep + 2;
	return true;
}

/* The i-th '/'-separated part of path, into out (empty when none). */
static void path_part(const char *path, int i, struct strbuf *out)
{
	for (; i > 0 && path; i--) {
		path = strchr(path, '/');
		path = path ? path + 1 : NULL;
	}
	if (path)
		strbuf_add(out, path, strcspn(path, "/"));
}

/* Another item's short object, by its own endpoint below the API root:
 * an entry, a form, a global set, a navigation. (Collections, taxonomies
 * and the rest change only with the site's settings, which purge all.) */
static void tag_object(struct api_ctx *ctx, value_t object)
{
	value_t url = value_map_getz(object, "api_url");
	if (value_url_base(url) != URL_API)
		return;
	const char *path = value_str(url, NULL);
	struct strbuf kind = STRBUF_INIT, a = STRBUF_INIT, b = STRBUF_INIT;
	path_part(path, 0, &kind);
	path_part(path, 1, &a);
	path_part(path, 3, &b);
	const char *k = strbuf_str(&kind);
	if (strcmp(k, "collections") == 0 && b.len) {
		uint32_t n = snap_entry_find(ctx->snap, b.ptr);
		if (n != SNAP_NONE)
			tag_entry_file(ctx, n);
		else
			api_tag(ctx, TAG_ENTRIES, a.ptr, NULL);
	} else if (a.len && strcmp(k, "forms") == 0) {
		api_tag(ctx, TAG_FORM, a.ptr, NULL);
	} else if (a.len && strcmp(k, "globals") == 0) {
		api_tag(ctx, TAG_GLOBAL, a.ptr, NULL);
	} else if (a.len && strcmp(k, "navs") == 0) {
		api_tag(ctx, TAG_NAV, a.ptr, NULL);
	}
	strbuf_release(&kind);
	strbuf_release(&a);
	strbuf_release(&b);
}

static void walk(struct api_ctx *ctx, value_t v, int depth);

static void tag_ref(struct api_ctx *ctx, value_t ref, int depth)
{
	value_t object = snap_ref_object(ctx->snap, ref);
	struct strbuf first = STRBUF_INIT;
	const char *rest;
	switch (value_ref_kind(ref)) {
	case REF_FIELD:
		walk(ctx, object, depth + 1);
		break;
	case REF_ENTRY:
		tag_entry_file(ctx, snap_ref_target(ctx->snap, ref));
		break;
	case REF_TERM:
		if (split_id(object, &first, &rest))
			api_tag(ctx, TAG_TERM, first.ptr, rest);
		break;
	case REF_ASSET:
		if (split_id(object, &first, &rest))
			api_tag_asset(ctx, first.ptr, rest);
		break;
	case REF_USER:
		api_tag(ctx, TAG_USERS, NULL, NULL);
		break;
	case REF_OBJECT:
		tag_object(ctx, object);
		break;
	}
	strbuf_release(&first);
}

static void walk(struct api_ctx *ctx, value_t v, int depth)
{
	if (depth > WALK_MAX_DEPTH)
		return;
	enum value_type t = value_type(v);
	if (t == VALUE_REF) {
		tag_ref(ctx, v, depth);
		return;
	}
	if (t != VALUE_ARRAY && t != VALUE_MAP)
		return;
	struct value_iter it;
	value_iter_init(&it, v);
	while (value_iter_next(&it))
		walk(ctx, it.value, depth + 1);
}

void api_tag_refs(struct api_ctx *ctx, value_t v)
{
	if (ctx->tags)
		walk(ctx, v, 0);
}

/* The tag kinds of an extras kind's item and list; false when it has
 * none (its changes are the site's settings). */
static bool extra_kinds(const char *kind, enum tag_kind *item, enum tag_kind *list)
{
	static const struct {
		const char *kind;
		enum tag_kind item, list;
	} kinds[] = {{"navs", TAG_NAV, TAG_NAVS},
	             {"forms", TAG_FORM, TAG_FORMS},
	             {"globals", TAG_GLOBAL, TAG_GLOBALS}};
	for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++) {
		if (strcmp(kinds[i].kind, kind) == 0) {
			*item = kinds[i].item;
			*list = kinds[i].list;
			return true;
		}
	}
	return false;
}

void api_tag_extra(struct api_ctx *ctx, const char *kind, value_t item)
{
	enum tag_kind t, list;
	if (!ctx->tags || !extra_kinds(kind, &t, &list))
		return;
	api_tag(ctx, t, value_str(value_map_getz(item, "handle"), NULL), NULL);
	api_tag_refs(ctx, item);
}

void api_tag_extras_list(struct api_ctx *ctx, const char *kind)
{
	enum tag_kind t, list;
	if (ctx->tags && extra_kinds(kind, &t, &list))
		api_tag(ctx, list, NULL, NULL);
}
