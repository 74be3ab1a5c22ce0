/*
 * redirects: entries whose `redirect` sends elsewhere (content-format.md
 * §5.2). Statamic's url of such an entry is the target (ResolveRedirect):
 * a URL as written, entry::{id} the entry's url (its own redirect
 * followed), asset::{container}::{path} the asset's, @child the first
 * child page's; a target that is gone (Statamic's 404) is no redirect.
 */
#ifndef CMS_API_SITE_REDIRECTS_H
#define CMS_API_SITE_REDIRECTS_H

#include "site/model.h"

/* Sets every entry's redirect (model.h) from its `redirect` value; needs
 * the entries, their trees and URIs, and the assets loaded. */
void redirects_resolve(struct site_index *idx);

#endif
