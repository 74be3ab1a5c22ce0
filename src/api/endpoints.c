/* endpoints: the endpoints the running config answers; see endpoints.h. */
#include "autoconfig.h"

#include "api/endpoints.h"

#include <string.h>

#include "lib/strbuf.h"
#include "lib/url.h"

/* One walk over the endpoints: where fn goes, and a buffer for paths. */
struct walk {
	endpoint_fn fn;
	void *arg;
	struct strbuf path;
};

/* Calls fn for kind at path, built from fmt with the handle encoded in
 * place of each "%h" (at most one) and nothing else replaced. */
static void emit(struct walk *w, enum endpoint_kind kind, enum resource_type type,
                 const char *handle, const char *fmt)
{
	strbuf_reset(&w->path);
	const char *h = strstr(fmt, "%h");
	if (h) {
		strbuf_add(&w->path, fmt, (size_t)(h - fmt));
		url_encode(handle, &w->path);
		strbuf_addstr(&w->path, h + 2);
	} else {
		strbuf_addstr(&w->path, fmt);
	}
	struct endpoint ep = {kind, type, handle, strbuf_str(&w->path)};
	w->fn(&ep, w->arg);
}

bool endpoints_images_on(const struct config *cfg)
{
	return (cfg->images_presets && *cfg->images_presets) ||
	       (cfg->images_sign_key && *cfg->images_sign_key);
}

static void collections(const struct config *cfg, const struct snapshot *snap, struct walk *w)
{
	if (!resource_enabled(cfg, RES_COLLECTIONS))
		return;
	emit(w, EP_COLLECTIONS, RES_COLLECTIONS, NULL, "collections");
	for (uint32_t i = 0; i < snap_collection_count(snap); i++) {
		struct snap_collection c = snap_collection_at(snap, i);
		if (!handle_enabled(cfg, RES_COLLECTIONS, c.handle))
			continue;
		emit(w, EP_COLLECTION, RES_COLLECTIONS, c.handle, "collections/%h");
		emit(w, EP_ENTRIES, RES_COLLECTIONS, c.handle, "collections/%h/entries");
		emit(w, EP_ENTRY, RES_COLLECTIONS, c.handle, "collections/%h/entries/{id}");
		if (c.structured)
			emit(w, EP_COLLECTION_TREE, RES_COLLECTIONS, c.handle, "collections/%h/tree");
	}
}

/* The endpoints of each enabled handle of a kind kept in the extras. */
struct extra_kind {
	const char *kind;     /* snap_extras' name */
	enum resource_type type;
	enum endpoint_kind index;
	const char *index_path;
	struct {
		enum endpoint_kind kind;
		const char *path; /* with %h */
	} per_handle[4];
};

static const struct extra_kind extra_kinds[] = {
	{"navs", RES_NAVS, EP_NAVS, "navs", {{EP_NAV, "navs/%h"}, {EP_NAV_TREE, "navs/%h/tree"}}},
	{"taxonomies", RES_TAXONOMIES, EP_TAXONOMIES, "taxonomies",
	 {{EP_TAXONOMY, "taxonomies/%h"}, {EP_TERMS, "taxonomies/%h/terms"},
	  {EP_TERM, "taxonomies/%h/terms/{slug}"},
	  {EP_TERM_ENTRIES, "taxonomies/%h/terms/{slug}/entries"}}},
	{"globals", RES_GLOBALS, EP_GLOBALS, "globals", {{EP_GLOBAL, "globals/%h"}}},
	{"forms", RES_FORMS, EP_FORMS, "forms", {{EP_FORM, "forms/%h"}}},
	{"assets", RES_ASSETS, EP_ASSET_CONTAINERS, "asset-containers",
	 {{EP_ASSET_CONTAINER, "asset-containers/%h"}, {EP_ASSETS, "assets/%h"},
	  {EP_ASSET, "assets/%h/{path}"}}},
};

static void extras(const struct config *cfg, const struct snapshot *snap,
                   const struct extra_kind *k, struct walk *w)
{
	if (!resource_enabled(cfg, k->type))
		return;
	emit(w, k->index, k->type, NULL, k->index_path);
	struct value_iter it;
	value_iter_init(&it, snap_extras(snap, k->kind));
	while (value_iter_next(&it)) {
		const char *handle = value_str(value_map_getz(it.value, "handle"), NULL);
		if (!handle || !handle_enabled(cfg, k->type, handle))
			continue;
		/* A term's entries come from the collections (router.c). */
		for (size_t i = 0; i < 4 && k->per_handle[i].path; i++)
			if (k->per_handle[i].kind != EP_TERM_ENTRIES ||
			    resource_enabled(cfg, RES_COLLECTIONS))
				emit(w, k->per_handle[i].kind, k->type, handle, k->per_handle[i].path);
		if (k->type == RES_ASSETS && endpoints_images_on(cfg))
			emit(w, EP_IMAGE, RES_ASSETS, handle, "img/%h/{path}");
	}
}

void endpoints_each(const struct config *cfg, const struct snapshot *snap, endpoint_fn fn,
                    void *arg)
{
	struct walk w = {fn, arg, STRBUF_INIT};
	emit(&w, EP_INDEX, RES_TYPE_COUNT, NULL, "");
	emit(&w, EP_PING, RES_TYPE_COUNT, NULL, "ping");
	if (cfg->openapi)
		emit(&w, EP_OPENAPI, RES_TYPE_COUNT, NULL, "openapi.json");
	if (resource_enabled(cfg, RES_SITES))
		emit(&w, EP_SITES, RES_SITES, NULL, "sites");
	collections(cfg, snap, &w);
	for (size_t i = 0; i < sizeof extra_kinds / sizeof extra_kinds[0]; i++)
		if (extra_kinds[i].type != RES_ASSETS)
			extras(cfg, snap, &extra_kinds[i], &w);
	if (resource_enabled(cfg, RES_USERS)) {
		emit(&w, EP_USERS, RES_USERS, NULL, "users");
		emit(&w, EP_USER, RES_USERS, NULL, "users/{id}");
	}
	extras(cfg, snap, &extra_kinds[sizeof extra_kinds / sizeof extra_kinds[0] - 1], &w);
	if (resource_enabled(cfg, RES_SYNC))
		emit(&w, EP_SYNC, RES_SYNC, NULL, "sync");
	strbuf_release(&w.path);
}
