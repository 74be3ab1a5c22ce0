/*
 * api: the resource handlers, one file per resource type. A handler gets
 * the request context with its route parameters and either fills ctx->res
 * with a JSON body and returns 0, or returns the status of a failure
 * whose message api_fail put in ctx->error, and so does every helper it
 * calls: the pipeline (app.c) writes the error answer. The router's gate
 * has already checked that the route's resource type and handle are
 * enabled; a handler checks only that what it names exists.
 */
#ifndef CMS_API_API_H
#define CMS_API_API_H

#include <stddef.h>

#include "core/config.h"
#include "http/error.h"
#include "http/request.h"
#include "http/response.h"
#include "lib/jsonw.h"
#include "query/filter.h"
#include "query/regex.h"
#include "site/snapshot.h"
#include "site/status.h"

struct renders;
struct search_index;
struct search_source;
struct shape_plugin;
struct tagset;

#define API_MAX_PARAMS 4

struct api_ctx {
	const struct config *cfg;
	const struct snapshot *snap;
	const struct request *req;
	struct response *res;
	const char *params[API_MAX_PARAMS]; /* route parameters, decoded */
	size_t nparams;
	char *tail;           /* owned: the "{*}" parameter (router.h), or NULL */
	long long now;        /* the request's moment: entry statuses, visible relations */
	struct regex_budget regex_budget; /* [api] regex_budget: every regex match of the
	                       * request draws on it */
	struct jsonw_env env; /* every body's URL bases and reference writer: env.site_base
	                       * is the site root (http://localhost), env.api_base the
	                       * API root (http://localhost/api) */
	struct renders *renders; /* the worker's rendered entries (api/renders.h), or NULL */
	struct status_span *span; /* while an entry is rendered for the cache: narrowed by
	                       * every status read at `now` (api_entry_status), else NULL */
	struct http_error *error; /* borrowed: why the request failed (api_fail) */
	/* What the request may read besides what the config enables (a
	 * per-user token's abilities): a related item is shown whole, or read
	 * by a filter, only where both let it. NULL: the config alone. */
	bool (*may_read)(const void *gate, enum resource_type t, const char *handle);
	const void *gate;
	struct shape_plugin *shape_plugin; /* the worker's [shape] plugin, or NULL */
	struct search_index **search; /* the worker's q= index (opened at the first q=), or
	                               * NULL: a request's own */
	struct tagset *tags;  /* borrowed: the answer's cache tags (api/tags.h), or NULL when
	                       * [edge] tags_header is off */
	uint64_t generation;  /* the cache signature snap goes with (generation.h), 0 when
	                       * none does: the sync feed's token */
	const char *sync_journal; /* borrowed: the sync journal's path (site/journal.h), or
	                       * NULL without a shared cache directory */
};

/* 0: ctx->res holds the answer; else the status of the failure in
 * ctx->error. */
typedef int (*api_handler)(struct api_ctx *ctx);

int api_index(struct api_ctx *ctx);
int api_openapi(struct api_ctx *ctx);
int api_images_show(struct api_ctx *ctx);
int api_ping(struct api_ctx *ctx);
int api_sites_index(struct api_ctx *ctx);
int api_collections_index(struct api_ctx *ctx);
int api_collections_show(struct api_ctx *ctx);
int api_entries_index(struct api_ctx *ctx);
int api_entries_show(struct api_ctx *ctx);
int api_collection_tree(struct api_ctx *ctx);
int api_navs_index(struct api_ctx *ctx);
int api_navs_show(struct api_ctx *ctx);
int api_navs_tree(struct api_ctx *ctx);
int api_taxonomies_index(struct api_ctx *ctx);
int api_taxonomies_show(struct api_ctx *ctx);
int api_terms_index(struct api_ctx *ctx);
int api_terms_show(struct api_ctx *ctx);
int api_term_entries(struct api_ctx *ctx);
int api_globals_index(struct api_ctx *ctx);
int api_globals_show(struct api_ctx *ctx);
int api_forms_index(struct api_ctx *ctx);
int api_forms_show(struct api_ctx *ctx);
int api_users_index(struct api_ctx *ctx);
int api_users_show(struct api_ctx *ctx);
int api_asset_containers_index(struct api_ctx *ctx);
int api_asset_containers_show(struct api_ctx *ctx);
int api_assets_index(struct api_ctx *ctx);
int api_assets_show(struct api_ctx *ctx);
int api_sync(struct api_ctx *ctx);

/* Puts the failure of status, with the message fmt formats (printf), in
 * ctx->error and returns status: `return api_fail(ctx, 400, ...)`. */
int api_fail(struct api_ctx *ctx, int status, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The same for spec §5's 404, "Not found." */
int api_not_found(struct api_ctx *ctx);

/* Starts a 200 JSON answer and returns a writer on its body, set up with
 * the request's environment. */
void api_begin_json(struct api_ctx *ctx, struct jsonw *w);

/* Starts a 200 answer {"data": ...}; the caller writes the data value and
 * closes with api_end_data. */
void api_begin_data(struct api_ctx *ctx, struct jsonw *w);
void api_end_data(struct jsonw *w);

/* Writes the API root + "/" + path (path relative to it, no leading '/')
 * as a JSON string, e.g. http://localhost/api/collections/blog. */
void api_write_url(struct jsonw *w, const char *path);
/* The same for an item's own endpoint: API root + "/kind/handle". */
void api_write_item_url(struct jsonw *w, const char *kind, const char *handle);

/* Writes {handle, title, api_url} of an item whose endpoint is
 * kind/handle: a taxonomy, an asset container. */
void api_write_titled(struct jsonw *w, value_t item, const char *kind);

/* Writes one of the smaller kinds of content (snap_extras) as an index or
 * a show endpoint delivers it. */
typedef void (*api_extra_writer)(struct jsonw *w, value_t item);

/* Answers {"data": [...]}: every item of kind whose handle type enables. */
void api_extras_index(struct api_ctx *ctx, const char *kind, enum resource_type type,
                      api_extra_writer write);

/* Answers {"data": {...}}: the item of kind the route's first parameter
 * names; returns 0, or 404 when there is none. */
int api_extras_show(struct api_ctx *ctx, const char *kind, api_extra_writer write);

/* Whether the request may read items of a type's handle (NULL: users,
 * sites): the config enables it, and ctx->may_read lets it. */
bool api_may_read(const struct api_ctx *ctx, enum resource_type t, const char *handle);

/* api/relations.c: how a filter of this request reads the items its
 * relations name (query/filter.h): an entry only while it is published
 * and readable, a term, a user or an asset only when readable
 * (api_may_read). ctx must outlive what it is handed to. */
struct relation_reader api_relation_reader(struct api_ctx *ctx);
/* The site a related term is read in: ?site= when it names one, else the
 * default site. */
uint32_t api_request_site(const struct api_ctx *ctx);

/* The reference writer of the request's environment (api/render.c): a
 * related entry only while it is published at ctx->now, its short object
 * without the config's excluded_keys. ctx is the struct api_ctx. */
bool api_write_ref(struct jsonw *w, value_t ref, const void *ctx);

/* v with every reference in it made what api_write_ref writes for it: a
 * relationship field its delivered value, a reference its short object
 * (without excluded_keys), null where it is not shown, and left out of a
 * list then. URLs stay URL values. Appended to out. */
void api_resolve_refs(const struct api_ctx *ctx, value_t v, struct value_builder *out);

/* q= on a list (api/search.c): when the request asks none (or only
 * blanks), or the config names no field to search on the list (type and
 * handle), 0 and *ranked NULL. Else the items of src (numbered base +
 * 0..src->n-1) matching q, among the *n candidates items (all of them when
 * items is NULL), best first, in *ranked (owned by the caller), *n their
 * count, and 0; 500 when the index fails. list names the list in the
 * index ("entries/blog"): the same name, the same items. */
int api_search(struct api_ctx *ctx, enum resource_type type, const char *handle, const char *list,
               const struct search_source *src, uint32_t base, const uint32_t *items, size_t *n,
               uint32_t **ranked);

#endif
