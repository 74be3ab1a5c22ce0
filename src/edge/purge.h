/*
 * purge: what the watcher asks of the caches in front when the site
 * changed: the tags of every answer the change may have made stale
 * (site/tags.h's tags_of_change; "all" when a file may touch any answer,
 * or when which files changed is not known), and "any", which every
 * purge names. They go, through the outbox, to Varnish ([edge] varnish:
 * PURGE with an xkey-purge header, which etc/cms-api.vcl turns into
 * xkey.purge) and to a CDN's endpoint ([edge] purge_url: a POST of
 * {"tags": [...]}, with [edge] purge_header, for a small adapter to the
 * CDN's own API).
 */
#ifndef CMS_API_EDGE_PURGE_H
#define CMS_API_EDGE_PURGE_H

#include <stddef.h>

#include "change/watch.h"
#include "core/config.h"
#include "edge/outbox.h"
#include "lib/tagset.h"

/* Whether the config asks for purges at all. */
bool edge_purges_on(const struct config *cfg);

/* The tags a change of files[0..n) touched (n 0: unknown files), into
 * tags (cleared first). */
void edge_purge_tags(const struct config *cfg, const struct watch_file *files, size_t n,
                     struct tagset *tags);

/* Queues the purges of tags in o. */
void edge_purge_send(struct outbox *o, const struct config *cfg, const struct tagset *tags,
                     long long now_ms);

#endif
