/*
 * tagheader: the header that names an answer's cache tags for the cache
 * in front ([edge] tags_header: Fastly's Surrogate-Key, Cloudflare's
 * Cache-Tag, Varnish's xkey, Akamai's Edge-Cache-Tag), within what that
 * cache documents it reads.
 */
#ifndef CMS_API_EDGE_TAGHEADER_H
#define CMS_API_EDGE_TAGHEADER_H

#include <stdbool.h>

#include "core/config.h"
#include "http/response.h"
#include "lib/tagset.h"

/* Whether answers carry tags at all. */
bool edge_tags_on(const struct config *cfg);

/* Starts an answer's tags: the site's own ("all", which every answer
 * carries first, so that it is never cut). */
void edge_tags_begin(const struct config *cfg, struct tagset *tags);

/* Puts tags in res's tags_header, for a 200 or a 404 (the answers caches
 * keep); a 404 carries "all" and "any" only, which every purge names: the
 * item it did not find may be made by any change. */
void edge_tags_answer(const struct config *cfg, const struct tagset *tags, struct response *res);

#endif
