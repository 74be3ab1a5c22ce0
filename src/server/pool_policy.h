/*
 * pool_policy: the decisions of the worker pool (pool.h) as pure
 * functions of what the supervisor knows, so that they are tested without
 * forking anything.
 *
 * Restarts: a worker that ends by itself with status 0 (it answered its
 * [server] max_requests, or someone stopped it with SIGTERM) is replaced
 * at once. One that crashes (a signal, a status other than 0) is replaced
 * at once the first time, then after 100 ms, 200 ms, 400 ms ... up to
 * 10 s while its slot keeps crashing, so that a crash loop (a site that
 * kills every worker, a socket that fails) never spins. A worker that
 * lived 10 s or more before crashing starts its slot's count afresh.
 */
#ifndef CMS_API_POOL_POLICY_H
#define CMS_API_POOL_POLICY_H

#include <stdbool.h>

#define POOL_BACKOFF_FIRST_MS 100
#define POOL_BACKOFF_MAX_MS 10000
#define POOL_HEALTHY_MS 10000 /* a worker that lived this long was not a crash loop */

/* The slot's count of crashes in a row after a worker that lived
 * lived_ms ended, cleanly (status 0) or not. */
unsigned pool_next_streak(unsigned streak, bool clean, long long lived_ms);

/* How long to wait before starting a slot's next worker, for a slot whose
 * crash count in a row is streak (0: at once). */
long pool_restart_delay_ms(unsigned streak);

/* Whether a worker that has answered served requests is done: max_requests
 * 0 means never. */
bool pool_retire_due(unsigned long served, long max_requests);

/* After a reload to n workers of the new config, of which ready answer
 * requests: how many workers of the old config go on serving (the others
 * are retired). The pool never serves with fewer than n workers while a
 * new one is starting, and never keeps an old one longer than needed. */
unsigned pool_old_to_keep(unsigned n, unsigned ready);

#endif
