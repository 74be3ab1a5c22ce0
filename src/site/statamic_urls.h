/*
 * statamic_urls: Statamic's references to its own content inside text
 * (statamic://entry::id, statamic://asset::container::path), which the
 * renderers (Markdown, Bard) turn into URLs through the caller, who knows
 * the site: a renderer never looks anything up itself.
 */
#ifndef CMS_API_STATAMIC_URLS_H
#define CMS_API_STATAMIC_URLS_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/strbuf.h"

/* The caller's look-ups, as Statamic's Data::find answers them: url
 * appends the URL of what ref names (ref is what follows "statamic://":
 * "entry::id", "asset::c::p", ...) and returns false, appending nothing,
 * when it names nothing or nothing with a URL; alt appends the alt text
 * of the asset "c::p" and returns false when it has none. */
struct statamic_links {
	bool (*url)(const char *ref, struct strbuf *out, const void *ctx);
	bool (*alt)(const char *asset_id, struct strbuf *out, const void *ctx);
	const void *ctx;
};

/* Appends s[0..len) with each statamic:// reference in it resolved as
 * Statamic's ResolvesStatamicUrls does it to Markdown and HTML before
 * they are rendered: a reference between '(' or '"' and ')' or '"'
 * (the case of "statamic://" aside) becomes the URL of what it names,
 * with the query or fragment that followed it; or "" when it names
 * nothing, its query and fragment dropped too. links NULL: s as it is. */
void statamic_urls_resolve(const char *s, size_t len, const struct statamic_links *links,
                           struct strbuf *out);

#endif
