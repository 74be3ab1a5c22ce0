/*
 * augment: turns a stored field value into what Statamic's API delivers
 * (content-format.md §14), once, when the index is built, following the
 * field's blueprint config:
 *   markdown -> HTML; toggle -> boolean; integer, float -> numbers;
 *   date -> ISO 8601 UTC ("2024-01-10T00:00:00.000000Z"), ranges too;
 *   select, radio, button_group, checkboxes -> {value, label, key} (a list
 *   of {key, value, label} when several may be chosen);
 *   entries -> {id, title, url, permalink, api_url} of published entries,
 *   terms -> {id, title, slug, url, permalink, api_url},
 *   users -> {id, name, email, api_url}, assets -> {id, url, permalink,
 *   api_url, alt}; one object instead of a list when max_items (max_files)
 *   is 1;
 *   link -> a URL (entry::id and asset::container::path resolved);
 *   replicator -> its enabled sets, each {fields..., id, type}; grid -> its
 *   rows; group -> its map; their fields augmented by their own config.
 *   bard -> HTML, or with sets a list of {type: text, text: HTML} blocks
 *   and the sets (bard.h).
 * Other types (text, textarea, code, table, ...) are delivered as stored.
 * A value without a field follows Statamic's fallback blueprint: `content`
 * is markdown.
 *
 * Absolute URLs depend on the request (or base_url), so they are stored
 * as marked relative strings that jsonw completes when it writes them:
 * URL_MARK_SITE + "/blog/x" is the site's base plus the path, and
 * URL_MARK_API + "collections/blog/entries/x" is the API root plus it.
 */
#ifndef CMS_API_AUGMENT_H
#define CMS_API_AUGMENT_H

#include <stddef.h>

#include "site/index.h"
#include "value.h"

#define URL_MARK_SITE '\x01'
#define URL_MARK_API '\x02'

struct augment_ctx {
	const struct site_index *idx;
	long long now; /* for which related entries are published */
};

/* Appends a Unix time as Statamic's JSON dates read, ISO 8601 in UTC with
 * microseconds: "2024-01-10T00:00:00.000000Z". */
void augment_iso8601(long long secs, struct value_builder *out);

/* An entry's url: its site's url and its uri ("/de" + "/" is "/de"). */
void augment_site_url(const char *site_base, const char *uri, struct strbuf *out);

/* Appends the delivered form of the field key = v to out; field is its
 * blueprint config (missing when the blueprint has no such field). */
void augment_field(const struct augment_ctx *ctx, const char *key, value_t v, value_t field,
                   struct value_builder *out);

#endif
