/*
 * outbox: the HTTP requests the watcher sends to the world (purges to
 * Varnish or a CDN, webhooks), sent without ever waiting on the other end.
 * libcurl's multi interface moves them on a step at a time when
 * outbox_run is called, between the watch loop's passes; a request that
 * fails (no connection, a timeout, an answer other than 2xx) is tried
 * again after a backoff that doubles from 1 s to 5 min, and each failure
 * is logged. Requests queued with persist are also written to a spool
 * directory until they are delivered, so that a watcher that ends (a
 * reload, a reboot) sends them when the next one starts; one that still
 * fails after a day is moved to the spool's failed/ folder, and the log
 * says where: never lost silently. The others (purges) are given up
 * after OUTBOX_TRANSIENT_TRIES tries, with an error in the log.
 */
#ifndef CMS_API_EDGE_OUTBOX_H
#define CMS_API_EDGE_OUTBOX_H

#include <stdbool.h>
#include <stddef.h>

#include "core/config.h"

#define OUTBOX_TRANSIENT_TRIES 8
#define OUTBOX_PERSIST_MS (24LL * 3600 * 1000)
#define OUTBOX_BACKOFF_MAX_MS 300000LL
/* A request that takes longer is a failure, tried again. */
#define OUTBOX_TIMEOUT_MS 10000L

struct outbox;

/* A new, empty outbox; spool_dir (made when missing) keeps persistent
 * requests, and those it holds already are queued again. NULL spool_dir:
 * nothing persists. */
struct outbox *outbox_open(const char *spool_dir);
void outbox_close(struct outbox *o);

/* One request to queue: method and url, headers ("Name: value"), the
 * body, and what it is, for the log ("webhook build"). */
struct outbox_request {
	const char *method, *url, *what;
	const char *const *headers;
	size_t nheaders;
	const char *body;
	size_t len;
	bool persist;
};

/* Queues a copy of r, due now. */
void outbox_add(struct outbox *o, const struct outbox_request *r, long long now_ms);

/* Starts what is due and moves every transfer on, for at most wait_ms
 * (0: only what can be done at once). */
void outbox_run(struct outbox *o, long long now_ms, int wait_ms);

/* Requests not yet delivered nor given up. */
size_t outbox_pending(const struct outbox *o);

/* The time now in milliseconds (CLOCK_REALTIME: persisted times
 * survive a restart). */
long long outbox_now_ms(void);

#endif
