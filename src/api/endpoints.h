/*
 * endpoints: the endpoints the running config answers, one by one, for
 * what describes the API to its callers: the /{route} index (a list of
 * them with their URLs) and the OpenAPI document (api/openapi.h). Only
 * what a request would get an answer from is listed: the types and
 * handles the config enables (router.h's gate) that the site has, the
 * OpenAPI document when [api] openapi is on, the image route when
 * [images] has presets or a sign key. A handle is listed concretely
 * ("collections/blog/entries"); an item's own id is a template parameter
 * ("collections/blog/entries/{id}").
 */
#ifndef CMS_API_ENDPOINTS_H
#define CMS_API_ENDPOINTS_H

#include <stdbool.h>

#include "core/config.h"
#include "site/snapshot.h"

enum endpoint_kind {
	EP_INDEX, EP_PING, EP_OPENAPI, EP_SITES,
	EP_COLLECTIONS, EP_COLLECTION, EP_ENTRIES, EP_ENTRY, EP_COLLECTION_TREE,
	EP_NAVS, EP_NAV, EP_NAV_TREE,
	EP_TAXONOMIES, EP_TAXONOMY, EP_TERMS, EP_TERM, EP_TERM_ENTRIES,
	EP_GLOBALS, EP_GLOBAL, EP_FORMS, EP_FORM, EP_USERS, EP_USER,
	EP_ASSET_CONTAINERS, EP_ASSET_CONTAINER, EP_ASSETS, EP_ASSET, EP_IMAGE, EP_SYNC,
};

struct endpoint {
	enum endpoint_kind kind;
	enum resource_type type; /* the type it reads (its filters), when it reads one */
	const char *handle;      /* the handle it belongs to, or NULL */
	const char *path;        /* below the API root, no leading '/': "collections/blog",
	                          * "collections/blog/entries/{id}" ("" for the index) */
};

typedef void (*endpoint_fn)(const struct endpoint *ep, void *arg);

/* Calls fn for every endpoint cfg and snap answer, in the route table's
 * order (a type's endpoints, then each handle's). */
void endpoints_each(const struct config *cfg, const struct snapshot *snap, endpoint_fn fn,
                    void *arg);

/* Whether the image route answers at all ([images] presets or sign_key). */
bool endpoints_images_on(const struct config *cfg);

#endif
