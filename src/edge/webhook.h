/*
 * webhook: what the watcher tells the [webhook.<name>] endpoints when the
 * site changed: a POST of a JSON body naming the change's events and the
 * items its files hold,
 *
 *   {"webhook": "build", "generation": "3f9c...", "events": ["EntrySaved"],
 *    "items": [{"event": "EntrySaved", "type": "entry", "handle": "blog",
 *               "id": "...", "path": "content/collections/blog/a.md"}]}
 *
 * (only the events the webhook's `events` lists, all when it lists none;
 * no POST when none is left; "ContentSaved" and no items when which files
 * changed is not known), signed with its secret: X-Cms-Api-Signature:
 * sha256=HMAC-SHA256(secret, body) in hex, which a receiver recomputes
 * over the bytes it got. Sent through the outbox with persist: retried,
 * kept on disk until delivered, never dropped without a log line.
 */
#ifndef CMS_API_EDGE_WEBHOOK_H
#define CMS_API_EDGE_WEBHOOK_H

#include <stddef.h>
#include <stdint.h>

#include "change/watch.h"
#include "core/config.h"
#include "edge/outbox.h"
#include "edge/syncrecord.h"
#include "lib/strbuf.h"

/* Appends the body of webhook h for the move to new_cache by files[0..n)
 * (ids of entries read in k's snapshot) to out; false, appending nothing,
 * when none of the change's events is one h is sent for. */
bool edge_webhook_body(const struct webhook_def *h, const struct sync_keeper *k,
                       const struct watch_file *files, size_t n, uint64_t new_cache,
                       struct strbuf *out);

/* Queues every webhook of cfg for the move. */
void edge_webhooks_send(struct outbox *o, const struct config *cfg, const struct sync_keeper *k,
                        const struct watch_file *files, size_t n, uint64_t new_cache,
                        long long now_ms);

#endif
