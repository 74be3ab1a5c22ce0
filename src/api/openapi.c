/*
 * api/openapi: GET /{route}/openapi.json, an OpenAPI 3.1 document of the
 * API as the running config makes it ([api] openapi = true; else 404).
 *
 * Made from the same walk as the /{route} index (api/endpoints.h), so it
 * names exactly the paths that answer: the enabled types and the handles
 * the site has, each with its own filter parameter (the allowed fields,
 * each with every condition: listing.h reads filter[field.sub:condition]
 * and filter[taxonomy:tags:condition] by the part before the first ':' or
 * '.'), sort, fields, pagination, site (the site handles), the image
 * parameters and presets, the answers' shapes, the errors each endpoint
 * may give with their {"message"} body, and the bearer scheme when a
 * token is required. The shapes of content (entries, terms, assets,
 * users, globals) are open objects: their keys are the site's fields, and
 * ?fields= narrows them to any of those, a [shape.*] section or the
 * [shape] plug-in renames, drops or adds them, include= writes a related
 * item whole where its short object was. What cms-api asks beyond
 * Statamic's API is named too: OR groups (filter[or][N][...]) and
 * filters through relations (an allowed dotted field), query_scope, q=
 * where the list names fields to search, include= and depth=, and
 * keep=ancestors on trees.
 *
 * The HTTP tests check every answer they get against the document of the
 * config that gave it (tests/http/openapi-check.py), so a shape or a
 * status the document does not name fails them.
 */
#include "autoconfig.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "api/api.h"
#include "api/endpoints.h"
#include "lib/glide.h"
#include "api/output.h"
#include "lib/strbuf.h"
#include "query/filter.h"
#include "query/filterparams.h"

/* The fixed schemas: the shapes of spec §4 and the error body of §5. */
static const char fixed_schemas[] =
	"\"Error\":{\"type\":\"object\",\"required\":[\"message\"],"
	"\"properties\":{\"message\":{\"type\":\"string\"}},\"additionalProperties\":false},"
	"\"Ping\":{\"type\":\"object\",\"required\":[\"ping\"],"
	"\"properties\":{\"ping\":{\"const\":\"pong\"}},\"additionalProperties\":false},"
	"\"Endpoint\":{\"type\":\"object\",\"required\":[\"path\",\"url\"],\"properties\":"
	"{\"path\":{\"type\":\"string\"},\"url\":{\"type\":\"string\"}},"
	"\"additionalProperties\":false},"
	"\"Links\":{\"type\":\"object\",\"required\":[\"first\",\"last\",\"prev\",\"next\"],"
	"\"properties\":{\"first\":{\"type\":\"string\"},\"last\":{\"type\":\"string\"},"
	"\"prev\":{\"type\":[\"string\",\"null\"]},\"next\":{\"type\":[\"string\",\"null\"]}},"
	"\"additionalProperties\":false},"
	"\"Meta\":{\"type\":\"object\",\"required\":[\"current_page\",\"from\",\"last_page\","
	"\"links\",\"path\",\"per_page\",\"to\",\"total\"],\"properties\":{"
	"\"current_page\":{\"type\":\"integer\"},\"from\":{\"type\":[\"integer\",\"null\"]},"
	"\"last_page\":{\"type\":\"integer\"},\"links\":{\"type\":\"array\",\"items\":"
	"{\"type\":\"object\",\"required\":[\"url\",\"label\",\"active\"],\"properties\":{"
	"\"url\":{\"type\":[\"string\",\"null\"]},\"label\":{\"type\":\"string\"},"
	"\"page\":{\"type\":[\"integer\",\"null\"]},\"active\":{\"type\":\"boolean\"}}}},"
	"\"path\":{\"type\":\"string\"},\"per_page\":{\"type\":\"integer\"},"
	"\"to\":{\"type\":[\"integer\",\"null\"]},\"total\":{\"type\":\"integer\"}},"
	"\"additionalProperties\":false},"
	"\"Content\":{\"description\":\"An entry, term, asset or user: the site's own fields "
	"(fields= narrows them) and the computed ones.\",\"type\":\"object\","
	"\"properties\":{\"api_url\":{\"type\":\"string\"}}},"
	"\"GlobalSet\":{\"description\":\"A global set's variables, its handle and api_url "
	"(fields= narrows them).\",\"type\":\"object\",\"properties\":"
	"{\"handle\":{\"type\":\"string\"},\"api_url\":{\"type\":\"string\"}}},"
	"\"Collection\":{\"type\":\"object\",\"required\":[\"handle\",\"title\",\"structure\","
	"\"mount\",\"api_url\"],\"properties\":{\"handle\":{\"type\":\"string\"},"
	"\"title\":{\"type\":[\"string\",\"null\"]},\"structure\":{\"oneOf\":[{\"type\":\"null\"},"
	"{\"type\":\"object\",\"required\":[\"max_depth\",\"expects_root\"],\"properties\":{"
	"\"max_depth\":{\"type\":[\"integer\",\"null\"]},\"expects_root\":{\"type\":\"boolean\"}},"
	"\"additionalProperties\":false}]},\"mount\":{\"type\":[\"string\",\"null\"]},"
	"\"api_url\":{\"type\":\"string\"}},\"additionalProperties\":false},"
	"\"Nav\":{\"type\":\"object\",\"required\":[\"handle\",\"title\",\"max_depth\","
	"\"expects_root\",\"api_url\"],\"properties\":{\"handle\":{\"type\":\"string\"},"
	"\"title\":{\"type\":[\"string\",\"null\"]},\"max_depth\":{\"type\":[\"integer\",\"null\"]},"
	"\"expects_root\":{\"type\":\"boolean\"},\"api_url\":{\"type\":\"string\"}},"
	"\"additionalProperties\":false},"
	"\"Titled\":{\"description\":\"A taxonomy or an asset container.\",\"type\":\"object\","
	"\"required\":[\"handle\",\"title\",\"api_url\"],\"properties\":{\"handle\":"
	"{\"type\":\"string\"},\"title\":{\"type\":[\"string\",\"null\"]},\"api_url\":"
	"{\"type\":\"string\"}},\"additionalProperties\":false},"
	"\"Form\":{\"type\":\"object\",\"required\":[\"handle\",\"title\",\"fields\",\"api_url\"],"
	"\"properties\":{\"handle\":{\"type\":\"string\"},\"title\":{\"type\":[\"string\",\"null\"]},"
	"\"fields\":{\"type\":[\"object\",\"array\"]},\"api_url\":{\"type\":\"string\"}},"
	"\"additionalProperties\":false},"
	"\"Site\":{\"type\":\"object\",\"required\":[\"handle\",\"name\",\"locale\","
	"\"short_locale\",\"url\"],\"properties\":{\"handle\":{\"type\":\"string\"},"
	"\"name\":{\"type\":[\"string\",\"null\"]},\"locale\":{\"type\":[\"string\",\"null\"]},"
	"\"short_locale\":{\"type\":[\"string\",\"null\"]},\"url\":{\"type\":[\"string\",\"null\"]}},"
	"\"additionalProperties\":false},"
	"\"TreeNode\":{\"type\":\"object\",\"required\":[\"page\",\"depth\",\"children\"],"
	"\"properties\":{\"page\":{\"type\":\"object\"},\"depth\":{\"type\":\"integer\","
	"\"minimum\":1},\"children\":{\"type\":\"array\",\"items\":"
	"{\"$ref\":\"#/components/schemas/TreeNode\"}}},\"additionalProperties\":false},"
	"\"SyncDeleted\":{\"type\":\"object\",\"required\":[\"type\",\"handle\",\"id\"],"
	"\"properties\":{\"type\":{\"enum\":[\"entry\",\"term\",\"global\",\"nav\",\"asset\"]},"
	"\"handle\":{\"type\":\"string\"},\"id\":{\"type\":\"string\"}},"
	"\"additionalProperties\":false},"
	"\"SyncItem\":{\"description\":\"An item as it is now: data is what its own endpoint "
	"shows.\",\"type\":\"object\",\"required\":[\"type\",\"handle\",\"id\",\"data\"],"
	"\"properties\":{\"type\":{\"enum\":[\"entry\",\"term\",\"global\",\"nav\",\"asset\"]},"
	"\"handle\":{\"type\":\"string\"},\"id\":{\"type\":\"string\"},"
	"\"data\":{\"type\":[\"object\",\"null\"]}},\"additionalProperties\":false},"
	"\"SyncPage\":{\"type\":\"object\",\"required\":[\"data\",\"deleted\",\"links\",\"meta\","
	"\"next_sync_token\"],\"properties\":{\"data\":{\"type\":\"array\",\"items\":"
	"{\"$ref\":\"#/components/schemas/SyncItem\"}},\"deleted\":{\"type\":\"array\",\"items\":"
	"{\"$ref\":\"#/components/schemas/SyncDeleted\"}},\"links\":{\"type\":\"object\","
	"\"required\":[\"next\"],\"properties\":{\"next\":{\"type\":[\"string\",\"null\"]}},"
	"\"additionalProperties\":false},\"meta\":{\"type\":\"object\",\"required\":"
	"[\"per_page\",\"sync_token\"],\"properties\":{\"per_page\":{\"type\":\"integer\"},"
	"\"sync_token\":{\"type\":[\"string\",\"null\"]}},\"additionalProperties\":false},"
	"\"next_sync_token\":{\"type\":[\"string\",\"null\"]}},\"additionalProperties\":false}";

/* The error answers every operation may refer to, by their status. */
static const struct {
	const char *name, *status, *description;
} errors[] = {
	{"BadRequest", "400", "A malformed parameter, or a query beyond [api]'s bounds."},
	{"Unauthorized", "401", "No token, or a wrong one."},
	{"Forbidden", "403", "Image parameters without a valid signature."},
	{"NotFound", "404", "Not found, or not enabled."},
	{"MethodNotAllowed", "405", "OPTIONS that is not a CORS preflight (a preflight carries "
	                            "Origin and Access-Control-Request-Method)."},
	{"Unprocessable", "422", "A filter on a field that is not allowed, a query scope the "
	                         "config has not for the list, or an image that cannot be made."},
	{"Gone", "410", "A sync_token older than [sync] generations, or from before a change of "
	                "the whole site: sync again without one."},
	{"TooManyRequests", "429", "The rate limit's budget is spent."},
	{"ServerError", "500", "Something unexpected (the details are in the server's log)."},
	{"Unavailable", "503", "The token database cannot be read, or the sync journal is being written."},
};

struct doc {
	struct api_ctx *ctx;
	struct jsonw *w;
	const struct config *cfg;
	bool token, rate;
	struct glide_presets presets;
};

/* --- small writers ---------------------------------------------------- */

static void rawz(struct jsonw *w, const char *json)
{
	jsonw_raw(w, json, strlen(json));
}

static void ref(struct jsonw *w, const char *kind, const char *name)
{
	struct strbuf r = STRBUF_INIT;
	strbuf_addf(&r, "#/components/%s/%s", kind, name);
	jsonw_object_begin(w);
	jsonw_keyz(w, "$ref");
	jsonw_stringz(w, r.ptr);
	jsonw_object_end(w);
	strbuf_release(&r);
}

static void key_string(struct jsonw *w, const char *key, const char *value)
{
	jsonw_keyz(w, key);
	jsonw_stringz(w, value);
}

/* A JSON body: {"content": {"application/json": {"schema": ...}}}; the
 * caller writes the schema. */
static void json_content_begin(struct jsonw *w)
{
	jsonw_keyz(w, "content");
	jsonw_object_begin(w);
	jsonw_keyz(w, "application/json");
	jsonw_object_begin(w);
	jsonw_keyz(w, "schema");
}

static void json_content_end(struct jsonw *w)
{
	jsonw_object_end(w);
	jsonw_object_end(w);
}

/* --- what each endpoint answers ------------------------------------------ */

enum shape { ONE, LIST, PAGE, BARE };

struct answer {
	enum shape shape;
	const char *item; /* a schema's name */
	bool filters;     /* filter[...]: a list's allow-list */
	bool tree;
};

static struct answer answer_of(enum endpoint_kind kind)
{
	switch (kind) {
	case EP_INDEX: return (struct answer){LIST, "Endpoint", false, false};
	case EP_PING: return (struct answer){BARE, "Ping", false, false};
	case EP_OPENAPI: return (struct answer){BARE, NULL, false, false};
	case EP_SITES: return (struct answer){LIST, "Site", false, false};
	case EP_COLLECTIONS: return (struct answer){LIST, "Collection", false, false};
	case EP_COLLECTION: return (struct answer){ONE, "Collection", false, false};
	case EP_ENTRIES: return (struct answer){PAGE, "Content", true, false};
	case EP_ENTRY: return (struct answer){ONE, "Content", false, false};
	case EP_COLLECTION_TREE: return (struct answer){LIST, "TreeNode", true, true};
	case EP_NAVS: return (struct answer){LIST, "Nav", false, false};
	case EP_NAV: return (struct answer){ONE, "Nav", false, false};
	/* A navigation's filters apply with keep=ancestors (trees.c). */
	case EP_NAV_TREE: return (struct answer){LIST, "TreeNode", true, true};
	case EP_TAXONOMIES: return (struct answer){LIST, "Titled", false, false};
	case EP_TAXONOMY: return (struct answer){ONE, "Titled", false, false};
	case EP_TERMS: return (struct answer){PAGE, "Content", true, false};
	case EP_TERM: return (struct answer){ONE, "Content", false, false};
	case EP_TERM_ENTRIES: return (struct answer){PAGE, "Content", true, false};
	case EP_GLOBALS: return (struct answer){LIST, "GlobalSet", false, false};
	case EP_GLOBAL: return (struct answer){ONE, "GlobalSet", false, false};
	case EP_FORMS: return (struct answer){LIST, "Form", false, false};
	case EP_FORM: return (struct answer){ONE, "Form", false, false};
	case EP_USERS: return (struct answer){PAGE, "Content", true, false};
	case EP_USER: return (struct answer){ONE, "Content", false, false};
	case EP_ASSET_CONTAINERS: return (struct answer){LIST, "Titled", false, false};
	case EP_ASSET_CONTAINER: return (struct answer){ONE, "Titled", false, false};
	case EP_ASSETS: return (struct answer){PAGE, "Content", true, false};
	case EP_ASSET: return (struct answer){ONE, "Content", false, false};
	case EP_SYNC: return (struct answer){BARE, "SyncPage", false, false};
	case EP_IMAGE: break;
	}
	return (struct answer){BARE, NULL, false, false};
}

/* {"type":"object","required":["data",...],"properties":{"data":...}} */
static void write_body_schema(struct jsonw *w, const struct answer *a)
{
	if (a->shape == BARE) {
		if (a->item)
			ref(w, "schemas", a->item);
		else
			rawz(w, "{\"type\":\"object\"}");
		return;
	}
	jsonw_object_begin(w);
	key_string(w, "type", "object");
	jsonw_keyz(w, "required");
	rawz(w, a->shape == PAGE ? "[\"data\",\"links\",\"meta\"]" : "[\"data\"]");
	jsonw_keyz(w, "properties");
	jsonw_object_begin(w);
	jsonw_keyz(w, "data");
	if (a->shape == ONE) {
		ref(w, "schemas", a->item);
	} else {
		jsonw_object_begin(w);
		key_string(w, "type", "array");
		jsonw_keyz(w, "items");
		ref(w, "schemas", a->item);
		jsonw_object_end(w);
	}
	if (a->shape == PAGE) {
		jsonw_keyz(w, "links");
		ref(w, "schemas", "Links");
		jsonw_keyz(w, "meta");
		ref(w, "schemas", "Meta");
	}
	jsonw_object_end(w);
	jsonw_keyz(w, "additionalProperties");
	jsonw_bool(w, false);
	jsonw_object_end(w);
}

/* --- parameters ------------------------------------------------------- */

static void path_param(struct jsonw *w, const char *name, const char *description)
{
	jsonw_object_begin(w);
	key_string(w, "name", name);
	key_string(w, "in", "path");
	jsonw_keyz(w, "required");
	jsonw_bool(w, true);
	key_string(w, "description", description);
	jsonw_keyz(w, "schema");
	rawz(w, "{\"type\":\"string\"}");
	jsonw_object_end(w);
}

/* Appends s with the bytes a regular expression gives a meaning escaped. */
static void regex_quote(struct strbuf *out, const char *s)
{
	for (; *s; s++) {
		if (strchr("\\^$.|?*+()[]{}/", *s))
			strbuf_addch(out, '\\');
		strbuf_addch(out, *s);
	}
}

/* The names filter[NAME] may take: an allowed field, a '.' and a
 * sub-field, then ':' and a condition. */
static void filter_pattern(const struct strlist *fields, struct strbuf *out)
{
	strbuf_addstr(out, "^(?:");
	for (size_t i = 0; i < fields->len; i++) {
		if (i)
			strbuf_addch(out, '|');
		regex_quote(out, fields->items[i]);
	}
	strbuf_addstr(out, ")(?:\\.[^:]+)?(?::(?:");
	const char *c;
	for (size_t i = 0; (c = filter_condition_at(i)); i++) {
		if (i)
			strbuf_addch(out, '|');
		regex_quote(out, c);
	}
	strbuf_addstr(out, "))?$");
}

/* The schema of filter[...]'s names: the pattern, and "or" at the top. */
static void filter_names(struct jsonw *w, const char *pattern, bool top)
{
	jsonw_object_begin(w);
	if (top) {
		jsonw_keyz(w, "anyOf");
		jsonw_array_begin(w);
		jsonw_object_begin(w);
	}
	key_string(w, "pattern", pattern);
	if (top) {
		jsonw_object_end(w);
		rawz(w, "{\"const\":\"or\"}");
		jsonw_array_end(w);
	}
	jsonw_object_end(w);
}

/* {"or": the groups filter[or][N][name]=value makes, N a number}. */
static void or_groups(struct jsonw *w, const char *pattern)
{
	struct strbuf number = STRBUF_INIT;
	strbuf_addf(&number, "^[0-9]{1,%d}$", FILTER_GROUP_MAX_DIGITS);
	jsonw_object_begin(w);
	jsonw_keyz(w, "or");
	jsonw_object_begin(w);
	key_string(w, "type", "object");
	jsonw_keyz(w, "propertyNames");
	jsonw_object_begin(w);
	key_string(w, "pattern", number.ptr);
	jsonw_object_end(w);
	jsonw_keyz(w, "additionalProperties");
	jsonw_object_begin(w);
	key_string(w, "type", "object");
	jsonw_keyz(w, "propertyNames");
	filter_names(w, pattern, false);
	jsonw_keyz(w, "additionalProperties");
	rawz(w, "{\"type\":\"string\"}");
	jsonw_object_end(w);
	jsonw_object_end(w);
	jsonw_object_end(w);
	strbuf_release(&number);
}

/* The fields ep's filters may name: its type's and handle's allow-list;
 * for a term's entries, those of the enabled collections (a term's list
 * allows what every collection of its entries allows: terms.c). False
 * when there are none. */
static bool filterable_fields(const struct doc *d, const struct endpoint *ep,
                              struct strlist *out)
{
	if (ep->kind != EP_TERM_ENTRIES)
		return allowed_filters(d->cfg, ep->type, ep->type == RES_USERS ? NULL : ep->handle,
		                       out) &&
		       out->len > 0;
	memset(out, 0, sizeof *out);
	for (uint32_t i = 0; i < snap_collection_count(d->ctx->snap); i++) {
		const char *c = snap_collection_at(d->ctx->snap, i).handle;
		struct strlist one = {NULL, 0};
		if (handle_enabled(d->cfg, RES_COLLECTIONS, c) &&
		    allowed_filters(d->cfg, RES_COLLECTIONS, c, &one))
			for (size_t k = 0; k < one.len; k++)
				strlist_add_unique(out, one.items[k]);
		strlist_free(&one);
	}
	return out->len > 0;
}

/* filter[...]: the allowed fields of ep's type and handle, or nothing
 * when filtering is off there. */
static void filter_param(struct doc *d, const struct endpoint *ep)
{
	struct strlist fields;
	if (!filterable_fields(d, ep, &fields)) {
		strlist_free(&fields);
		return;
	}
	struct strbuf pattern = STRBUF_INIT, desc = STRBUF_INIT;
	filter_pattern(&fields, &pattern);
	strbuf_addstr(&desc, "filter[field:condition]=value; allowed fields:");
	for (size_t i = 0; i < fields.len; i++)
		strbuf_addf(&desc, "%s %s", i ? "," : "", fields.items[i]);
	strbuf_addstr(&desc, ". Any other field is 422. A dotted field (relation.key) reads the "
	              "related items: one of them must pass. filter[or][N][field:condition]=value "
	              "makes OR groups (N a number): an item passes every top-level filter and every "
	              "filter of at least one group.");
	struct jsonw *w = d->w;
	jsonw_object_begin(w);
	key_string(w, "name", "filter");
	key_string(w, "in", "query");
	key_string(w, "style", "deepObject");
	jsonw_keyz(w, "explode");
	jsonw_bool(w, true);
	key_string(w, "description", desc.ptr);
	jsonw_keyz(w, "schema");
	jsonw_object_begin(w);
	key_string(w, "type", "object");
	jsonw_keyz(w, "propertyNames");
	filter_names(w, pattern.ptr, true);
	jsonw_keyz(w, "properties");
	or_groups(w, pattern.ptr);
	jsonw_keyz(w, "additionalProperties");
	rawz(w, "{\"type\":\"string\"}");
	jsonw_object_end(w);
	jsonw_object_end(w);
	strbuf_release(&pattern);
	strbuf_release(&desc);
	strlist_free(&fields);
}

static bool has_site_param(enum endpoint_kind k)
{
	return k == EP_ENTRIES || k == EP_ENTRY || k == EP_COLLECTION_TREE || k == EP_NAV_TREE ||
	       k == EP_TERMS || k == EP_TERM || k == EP_TERM_ENTRIES || k == EP_GLOBALS ||
	       k == EP_GLOBAL;
}

static void image_params(struct doc *d)
{
	static const char *const names[] = {"w", "h", "fit", "dpr", "fm", "q", "s"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		ref(d->w, "parameters", names[i]);
	if (d->presets.n == 0)
		return;
	struct jsonw *w = d->w;
	jsonw_object_begin(w);
	key_string(w, "name", "p");
	key_string(w, "in", "query");
	key_string(w, "description", "A preset of [images] presets: the only parameter an "
	           "unsigned URL may have.");
	jsonw_keyz(w, "schema");
	jsonw_object_begin(w);
	jsonw_keyz(w, "enum");
	jsonw_array_begin(w);
	for (size_t i = 0; i < d->presets.n; i++)
		jsonw_stringz(w, d->presets.items[i].name);
	jsonw_array_end(w);
	jsonw_object_end(w);
	jsonw_object_end(w);
}

/* Whether ep's items are content include= and depth= write relations of
 * (api/output.h): entries, terms, assets, users, global sets, pages. */
static bool takes_include(const struct answer *a)
{
	return a->item && (strcmp(a->item, "Content") == 0 || strcmp(a->item, "GlobalSet") == 0 ||
	                   strcmp(a->item, "TreeNode") == 0);
}

/* query_scope=: on every paged list (listing.c apply_scopes), the
 * [scope.*] sections meant for it named. */
static void scope_param(struct doc *d, const struct endpoint *ep)
{
	enum resource_type type = ep->kind == EP_TERM_ENTRIES ? RES_COLLECTIONS : ep->type;
	const char *handle = ep->kind == EP_TERM_ENTRIES || type == RES_USERS ? NULL : ep->handle;
	struct strbuf desc = STRBUF_INIT;
	strbuf_addstr(&desc, "Query scopes, comma-separated (or query_scope[name]=...): the "
	              "filters and sort of [scope.name] sections joined to the request's; the "
	              "request's sort wins. One the config has not for this list is 422. Here:");
	size_t named = 0;
	for (size_t i = 0; i < d->cfg->nscopes; i++)
		if (scope_applies(&d->cfg->scopes[i], type, handle))
			strbuf_addf(&desc, "%s %s", named++ ? "," : "", d->cfg->scopes[i].name);
	strbuf_addstr(&desc, named ? "." : " none.");
	struct jsonw *w = d->w;
	jsonw_object_begin(w);
	key_string(w, "name", "query_scope");
	key_string(w, "in", "query");
	key_string(w, "description", desc.ptr);
	jsonw_keyz(w, "schema");
	rawz(w, "{\"type\":\"string\"}");
	jsonw_object_end(w);
	strbuf_release(&desc);
}

/* Whether q= searches ep's list: a collection's or a taxonomy's that
 * names fields to search (elsewhere q is ignored). */
static bool searchable(const struct doc *d, const struct endpoint *ep)
{
	if (ep->kind == EP_ENTRIES)
		return search_fields(d->cfg, RES_COLLECTIONS, ep->handle) != NULL;
	if (ep->kind == EP_TERMS)
		return search_fields(d->cfg, RES_TAXONOMIES, ep->handle) != NULL;
	return false;
}

static void parameters(struct doc *d, const struct endpoint *ep, const struct answer *a)
{
	struct jsonw *w = d->w;
	jsonw_keyz(w, "parameters");
	jsonw_array_begin(w);
	if (ep->kind == EP_IMAGE)
		image_params(d);
	if (ep->kind == EP_SYNC) {
		ref(w, "parameters", "sync_token");
		ref(w, "parameters", "limit");
		ref(w, "parameters", "at");
		ref(w, "parameters", "after");
	}
	if (a->shape != BARE && a->item && strcmp(a->item, "Endpoint") != 0) {
		ref(w, "parameters", "fields");
		ref(w, "parameters", "fieldsList");
	}
	if (has_site_param(ep->kind))
		ref(w, "parameters", "site");
	if (a->shape == PAGE) {
		ref(w, "parameters", "sort");
		ref(w, "parameters", "limit");
		ref(w, "parameters", "page");
	}
	if (a->tree) {
		ref(w, "parameters", "max_depth");
		ref(w, "parameters", "keep");
	}
	if (takes_include(a)) {
		ref(w, "parameters", "include");
		ref(w, "parameters", "depth");
	}
	if (a->filters)
		filter_param(d, ep);
	if (a->filters && a->shape == PAGE)
		scope_param(d, ep);
	if (searchable(d, ep))
		ref(w, "parameters", "search");
	jsonw_array_end(w);
}

/* --- responses -------------------------------------------------------- */

static void error_ref(struct jsonw *w, const char *status)
{
	for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
		if (strcmp(errors[i].status, status) == 0) {
			jsonw_keyz(w, status);
			ref(w, "responses", errors[i].name);
		}
	}
}

static void image_content(struct jsonw *w)
{
	static const char *const types[] = {"image/jpeg", "image/png", "image/gif", "image/webp",
	                                    "image/avif"};
	jsonw_keyz(w, "content");
	jsonw_object_begin(w);
	for (size_t i = 0; i < sizeof types / sizeof types[0]; i++) {
		jsonw_keyz(w, types[i]);
		rawz(w, "{\"schema\":{\"type\":\"string\",\"contentEncoding\":\"binary\"}}");
	}
	jsonw_object_end(w);
}

static void responses(struct doc *d, const struct endpoint *ep, const struct answer *a)
{
	struct jsonw *w = d->w;
	jsonw_keyz(w, "responses");
	jsonw_object_begin(w);
	jsonw_keyz(w, "200");
	jsonw_object_begin(w);
	key_string(w, "description", "The answer.");
	if (ep->kind == EP_IMAGE) {
		image_content(w);
	} else {
		json_content_begin(w);
		write_body_schema(w, a);
		json_content_end(w);
	}
	jsonw_object_end(w);
	jsonw_keyz(w, "304");
	ref(w, "responses", "NotModified");
	error_ref(w, "400");
	if (d->token)
		error_ref(w, "401");
	if (ep->kind == EP_IMAGE)
		error_ref(w, "403");
	error_ref(w, "404");
	if (a->filters || a->shape == PAGE || ep->kind == EP_IMAGE)
		error_ref(w, "422");
	if (ep->kind == EP_SYNC)
		error_ref(w, "410");
	if (d->rate)
		error_ref(w, "429");
	error_ref(w, "500");
	if (strcmp(d->cfg->middleware, "auth:token") == 0 || ep->kind == EP_SYNC)
		error_ref(w, "503");
	jsonw_object_end(w);
}

/* "get_collections_blog_entries_id" */
static void operation_id(const char *method, const char *path, struct strbuf *out)
{
	strbuf_addf(out, "%s_", method);
	if (!*path)
		strbuf_addstr(out, "index");
	for (const char *p = path; *p; p++) {
		if (isalnum((unsigned char)*p))
			strbuf_addch(out, *p);
		else if (out->len && out->ptr[out->len - 1] != '_')
			strbuf_addch(out, '_');
	}
	while (out->len && out->ptr[out->len - 1] == '_')
		out->ptr[--out->len] = '\0';
}

static void operation(struct doc *d, const struct endpoint *ep, const char *method)
{
	struct answer a = answer_of(ep->kind);
	struct jsonw *w = d->w;
	struct strbuf id = STRBUF_INIT;
	operation_id(method, ep->path, &id);
	jsonw_keyz(w, method);
	jsonw_object_begin(w);
	key_string(w, "operationId", id.ptr);
	parameters(d, ep, &a);
	responses(d, ep, &a);
	jsonw_object_end(w);
	strbuf_release(&id);
}

/* The CORS preflight (http/cors.h): no token, no content. */
static void preflight(struct doc *d, const struct endpoint *ep)
{
	struct jsonw *w = d->w;
	struct strbuf id = STRBUF_INIT;
	operation_id("options", ep->path, &id);
	jsonw_keyz(w, "options");
	jsonw_object_begin(w);
	key_string(w, "operationId", id.ptr);
	jsonw_keyz(w, "security");
	rawz(w, "[]");
	jsonw_keyz(w, "responses");
	jsonw_object_begin(w);
	jsonw_keyz(w, "204");
	rawz(w, "{\"description\":\"The CORS preflight's answer.\"}");
	error_ref(w, "405");
	if (d->rate)
		error_ref(w, "429");
	jsonw_object_end(w);
	jsonw_object_end(w);
	strbuf_release(&id);
}

/* The path's own parameters, for each of its operations. */
static void path_params(struct jsonw *w, const char *path)
{
	if (!strchr(path, '{'))
		return;
	jsonw_keyz(w, "parameters");
	jsonw_array_begin(w);
	if (strstr(path, "{id}"))
		path_param(w, "id", "The item's id (an entry's id, else its slug).");
	if (strstr(path, "{slug}"))
		path_param(w, "slug", "The term's slug.");
	if (strstr(path, "{path}"))
		path_param(w, "path", "The file's path in its container, '/' and all.");
	jsonw_array_end(w);
}

static void path_item(const struct endpoint *ep, void *arg)
{
	struct doc *d = arg;
	struct strbuf key = STRBUF_INIT;
	strbuf_addf(&key, "/%s", ep->path);
	jsonw_keyz(d->w, key.ptr);
	jsonw_object_begin(d->w);
	path_params(d->w, ep->path);
	operation(d, ep, "get");
	operation(d, ep, "head");
	if (d->cfg->cors_origins.len > 0)
		preflight(d, ep);
	jsonw_object_end(d->w);
	strbuf_release(&key);
}

/* --- components ------------------------------------------------------------ */

static void query_param(struct jsonw *w, const char *key, const char *name, const char *schema,
                        const char *description)
{
	jsonw_keyz(w, key);
	jsonw_object_begin(w);
	key_string(w, "name", name);
	key_string(w, "in", "query");
	key_string(w, "description", description);
	jsonw_keyz(w, "schema");
	jsonw_raw(w, schema, strlen(schema));
	jsonw_object_end(w);
}

static void site_param(struct doc *d)
{
	struct jsonw *w = d->w;
	jsonw_keyz(w, "site");
	jsonw_object_begin(w);
	key_string(w, "name", "site");
	key_string(w, "in", "query");
	key_string(w, "description", "A site's handle (several sites).");
	jsonw_keyz(w, "schema");
	jsonw_object_begin(w);
	key_string(w, "type", "string");
	jsonw_object_end(w);
	jsonw_object_end(w);
}

#define TEXT_(x) #x
#define TEXT(x) TEXT_(x)

/* The query parameters every document has, as components.parameters
 * (limit and site are made from the config: component_parameters). */
static const struct {
	const char *key, *name, *schema, *description;
} fixed_params[] = {
	{"fields", "fields", "{\"type\":\"string\"}", "The keys to deliver, comma-separated."},
	{"fieldsList", "fields[]", "{\"type\":\"array\",\"items\":{\"type\":\"string\"}}",
	 "The keys to deliver, one a parameter."},
	{"sort", "sort", "{\"type\":\"string\"}",
	 "Keys to sort by, comma-separated; '-' before one reverses it, '->' reads into a nested "
	 "value."},
	{"page", "page", "{\"type\":\"integer\",\"minimum\":1}", "The page."},
	{"max_depth", "max_depth", "{\"type\":\"integer\",\"minimum\":1}",
	 "The deepest level of the tree delivered."},
	{"w", "w", "{\"type\":\"integer\",\"minimum\":1,\"maximum\":100000}", "Width in pixels."},
	{"h", "h", "{\"type\":\"integer\",\"minimum\":1,\"maximum\":100000}", "Height in pixels."},
	{"fit", "fit",
	 "{\"type\":\"string\",\"pattern\":\"^(contain|max|fill|fill-max|stretch|cover|crop(-top-left|"
	 "-top|-top-right|-left|-center|-right|-bottom-left|-bottom|-bottom-right|-[0-9]{1,3}-"
	 "[0-9]{1,3})?|cover(-top-left|-top|-top-right|-left|-center|-right|-bottom-left|-bottom|"
	 "-bottom-right))$\"}",
	 "How the image fits w x h (Glide's fit)."},
	{"dpr", "dpr", "{\"type\":\"number\",\"exclusiveMinimum\":0,\"maximum\":8}",
	 "Device pixel ratio: multiplies w and h."},
	{"fm", "fm", "{\"enum\":[\"jpg\",\"pjpg\",\"png\",\"gif\",\"webp\",\"avif\"]}",
	 "The format made; the source's by default."},
	{"q", "q", "{\"type\":\"integer\",\"minimum\":0,\"maximum\":100}", "Quality, 90 by default."},
	{"s", "s", "{\"type\":\"string\",\"pattern\":\"^[0-9a-f]{32}$\"}",
	 "Glide's signature: md5(sign_key + ':' + path + '?' + the other parameters sorted, as "
	 "http_build_query writes them). Any parameters but a preset need one."},
	{"sync_token", "sync_token", "{\"type\":\"string\"}",
	 "What changed since the answer that gave this next_sync_token; without it, every item."},
	{"at", "at", "{\"type\":\"string\"}",
	 "The moment of the first page (links.next carries it)."},
	{"after", "after", "{\"type\":\"string\"}",
	 "The position after which the page starts (links.next carries it)."},
	{"keep", "keep", "{\"const\":\"ancestors\"}",
	 "The pages the filters keep and the pages on the way down to them, nothing else (a "
	 "navigation's filters apply only with it)."},
	{"include", "include", "{\"type\":\"string\"}",
	 "Relations to write whole instead of as short objects, comma-separated; a dotted path "
	 "goes on into the related item's own (include=author.avatar). A cycle stays short, and "
	 "so does a related item the request could not read on its own."},
	{"depth", "depth", "{\"type\":\"integer\",\"minimum\":1,\"maximum\":" TEXT(INCLUDE_MAX_DEPTH) "}",
	 "Every relation written whole, down to this many levels."},
	{"search", "q", "{\"type\":\"string\"}",
	 "Words the items must all hold in the fields the config names to search, best match "
	 "first unless sort orders them; stemmed, accents folded, never read as search syntax."},
};

static void component_parameters(struct doc *d)
{
	struct jsonw *w = d->w;
	struct strbuf limit = STRBUF_INIT;
	strbuf_addf(&limit, "{\"type\":\"integer\",\"minimum\":1,\"maximum\":%ld,\"default\":%ld}",
	            d->cfg->max_limit, d->cfg->default_limit);
	jsonw_keyz(w, "parameters");
	jsonw_object_begin(w);
	for (size_t i = 0; i < sizeof fixed_params / sizeof fixed_params[0]; i++)
		query_param(w, fixed_params[i].key, fixed_params[i].name, fixed_params[i].schema,
		            fixed_params[i].description);
	query_param(w, "limit", "limit", limit.ptr, "Items per page; more than max_limit is 400.");
	site_param(d);
	jsonw_object_end(w);
	strbuf_release(&limit);
}

static void component_responses(struct doc *d)
{
	struct jsonw *w = d->w;
	jsonw_keyz(w, "responses");
	jsonw_object_begin(w);
	for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++) {
		jsonw_keyz(w, errors[i].name);
		jsonw_object_begin(w);
		key_string(w, "description", errors[i].description);
		if (strcmp(errors[i].status, "401") == 0 || strcmp(errors[i].status, "429") == 0) {
			jsonw_keyz(w, "headers");
			rawz(w, errors[i].status[1] == '0'
			                ? "{\"WWW-Authenticate\":{\"schema\":{\"const\":\"Bearer\"}}}"
			                : "{\"Retry-After\":{\"schema\":{\"type\":\"integer\"}}}");
		}
		json_content_begin(w);
		ref(w, "schemas", "Error");
		json_content_end(w);
		jsonw_object_end(w);
	}
	jsonw_keyz(w, "NotModified");
	rawz(w, "{\"description\":\"If-None-Match named the answer's ETag.\"}");
	jsonw_object_end(w);
}

static void components(struct doc *d)
{
	struct jsonw *w = d->w;
	jsonw_keyz(w, "components");
	jsonw_object_begin(w);
	jsonw_keyz(w, "schemas");
	struct strbuf schemas = STRBUF_INIT;
	strbuf_addf(&schemas, "{%s}", fixed_schemas);
	jsonw_raw(w, schemas.ptr, schemas.len);
	strbuf_release(&schemas);
	component_parameters(d);
	component_responses(d);
	if (d->token) {
		jsonw_keyz(w, "securitySchemes");
		jsonw_object_begin(w);
		jsonw_keyz(w, "bearer");
		jsonw_object_begin(w);
		key_string(w, "type", "http");
		key_string(w, "scheme", "bearer");
		key_string(w, "description",
		           strcmp(d->cfg->middleware, "auth:token") == 0
		                   ? "A per-user token, id|secret (cms-api token create)."
		                   : "The token of [api] auth_token.");
		jsonw_object_end(w);
		jsonw_object_end(w);
	}
	jsonw_object_end(w);
}

static void info(struct doc *d)
{
	struct jsonw *w = d->w;
	jsonw_keyz(w, "info");
	jsonw_object_begin(w);
	key_string(w, "title", d->cfg->app_name && *d->cfg->app_name ? d->cfg->app_name : "cms-api");
	key_string(w, "version", PACKAGE_VERSION);
	key_string(w, "description", "The content API of this site, as cms-api's config makes "
	           "it: only the enabled resources, each list with its allowed filters.");
	jsonw_object_end(w);
	jsonw_keyz(w, "servers");
	jsonw_array_begin(w);
	jsonw_object_begin(w);
	jsonw_keyz(w, "url");
	jsonw_stringz(w, d->ctx->env.api_base);
	jsonw_object_end(w);
	jsonw_array_end(w);
	if (d->token) {
		jsonw_keyz(w, "security");
		rawz(w, "[{\"bearer\":[]}]");
	}
}

int api_openapi(struct api_ctx *ctx)
{
	if (!ctx->cfg->openapi)
		return api_not_found(ctx);
	struct doc d = {ctx, NULL, ctx->cfg, false, false, {NULL, 0}};
	char err[GLIDE_ERR_LEN];
	if (glide_presets_parse(ctx->cfg->images_presets ? ctx->cfg->images_presets : "", &d.presets,
	                        err) != 0)
		memset(&d.presets, 0, sizeof d.presets); /* config.c checked them */
	d.token = (ctx->cfg->auth_token && *ctx->cfg->auth_token) ||
	          strcmp(ctx->cfg->middleware, "auth:token") == 0;
	d.rate = ctx->cfg->rate_per_minute > 0;
	struct jsonw w;
	api_begin_json(ctx, &w);
	d.w = &w;
	jsonw_object_begin(&w);
	key_string(&w, "openapi", "3.1.0");
	info(&d);
	jsonw_keyz(&w, "paths");
	jsonw_object_begin(&w);
	endpoints_each(ctx->cfg, ctx->snap, path_item, &d);
	jsonw_object_end(&w);
	components(&d);
	jsonw_object_end(&w);
	glide_presets_free(&d.presets);
	return 0;
}
