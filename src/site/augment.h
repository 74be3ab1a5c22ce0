/*
 * augment: turns a stored field value into what Statamic's API delivers
 * (content-format.md §14), once, when the index is built, following the
 * field's blueprint config. A value that is not stored (or null) takes the
 * field's `default` first, and every fieldtype then augments it, as
 * Statamic's Value does:
 *   markdown -> HTML; toggle -> boolean; integer, float -> numbers;
 *   date -> ISO 8601 UTC ("2024-01-10T00:00:00.000000Z"), ranges too;
 *   select, radio, button_group -> {value, label, key} (all three null
 *   when nothing is chosen); checkboxes and multiple selects -> a list of
 *   {key, value, label};
 *   entries, terms, users, assets -> references (value.h): the stored id,
 *   slug or path with the short object Statamic shows ({id, title, url,
 *   permalink, api_url} of an entry, {id, title, slug, url, permalink,
 *   api_url} of a term, {id, name, email, api_url} of a user, {id, url,
 *   permalink, api_url, alt} of an asset); collections -> {title, handle};
 *   form -> {handle, title, api_url}; a list, [] when empty, or one (or
 *   null) when max_items (max_files) is 1, which a form field is unless it
 *   says otherwise. A related entry is localized to the site of the item
 *   that relates it (dropped when it has no localization there); whether
 *   it is published is decided per request;
 *   link -> an entry's or asset's short object for entry::id, asset::c::p
 *   and @child (whatever the entry's status), else {url};
 *   code -> {value, code, mode};
 *   replicator -> its enabled sets, each {fields..., id, type} with every
 *   field of its set and nothing else (a set whose config has no fields as
 *   stored); grid -> its rows, {fields..., id}; group -> {fields...};
 *   the nested fields augmented by their own config (and defaults).
 *   bard -> HTML (statamic:// link targets resolved to URLs), or with sets
 *   a list of {type: text, text: HTML} blocks and the sets (bard.h); null,
 *   or [] with sets, when empty.
 *   icon -> the SVG of the named icon when [icons] names the folder of the
 *   field's set (icons.h), null when empty, else the name as stored.
 * Other types (text, textarea, table, ...) are delivered as stored.
 * A value without a field follows Statamic's fallback blueprint: `content`
 * is markdown.
 *
 * Absolute URLs depend on the request (or base_url), so they are stored
 * as URL values (a path below the site's or the API's root) that jsonw
 * completes when it writes them.
 */
#ifndef CMS_API_AUGMENT_H
#define CMS_API_AUGMENT_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/value.h"
#include "site/model.h"

/* Lookups made once per index for the relations: terms, users, assets. */
struct augment_tables;

struct augment_tables *augment_tables_build(const struct site_index *idx);
void augment_tables_free(struct augment_tables *t);

struct augment_ctx {
	const struct site_index *idx;
	const struct augment_tables *tables;
	size_t site;               /* the site of the item augmented: relations localize to it */
	const struct entry *entry; /* the entry augmented, or NULL (@child links need it) */
	/* Set by augment_field itself (callers leave them zero): */
	bool nested;               /* inside a set, row or group (Statamic's parentField) */
	const struct collection_info *through; /* terms seen through this collection */
};

/* ctx for an item of the site named handle (the default site if none),
 * no entry's. */
struct augment_ctx augment_in_site(const struct augment_ctx *ctx, const char *handle);

/* Appends a Unix time as Statamic's JSON dates read, ISO 8601 in UTC with
 * microseconds: "2024-01-10T00:00:00.000000Z". */
void augment_iso8601(long long secs, struct value_builder *out);

/* An item's url: its site's url and its uri ("/de" + "/" is "/de"),
 * without scheme and host when the site's url is absolute. */
void augment_url(const char *site_url, const char *uri, struct strbuf *out);

/* Its permalink: a URL value below the request's base for a site whose
 * url is relative ("/" is the base itself, without a '/', as Statamic's
 * URL::tidy leaves it), the site's own absolute URL otherwise. */
void augment_permalink(const char *site_url, const char *uri, struct value_builder *out);

/* The permalink of an entry that redirects to target (Routable::
 * absoluteUrl): target as it is unless it starts with '/', else the site's
 * absolute url, '/' and target, tidied (no "//", no '/' at its end). */
void augment_redirect_permalink(const char *site_url, const char *target,
                                struct value_builder *out);

/* Statamic's URL::makeAbsolute of a URL of the site (a nav link's): an
 * http(s) URL as it is, anything else ("/about", "#faqs") a URL value
 * below the request's base, a '/' put before it and none left at its end
 * ("#faqs" is http://host#faqs). */
void augment_absolute(const char *url, struct value_builder *out);

/* Appends the delivered form of the field key = v to out; field is its
 * blueprint config (missing when the blueprint has no such field). */
void augment_field(const struct augment_ctx *ctx, const char *key, value_t v, value_t field,
                   struct value_builder *out);

/* Statamic's relationship fieldtypes (entries, terms, users, form,
 * collections, navs, taxonomies, sites, ...). */
bool augment_is_relationship(value_t field);

/* augment_field for a value of an item itself (not nested in a set): a
 * relationship field is written as a REF_FIELD reference (value.h) that
 * keeps the stored value beside the delivered one, because Statamic's
 * tree pages deliver the stored value (as a list) where the item's own
 * endpoint delivers the objects. */
void augment_item_field(const struct augment_ctx *ctx, const char *key, value_t v, value_t field,
                        struct value_builder *out);

/* The user reference of a stored user id (an entry's updated_by), or null
 * when no user has that id. */
void augment_user(const struct augment_ctx *ctx, value_t id, struct value_builder *out);

#endif
