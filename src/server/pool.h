/*
 * pool: cms-api -n N, a pool of FastCGI workers of its own, for set-ups
 * where no web server starts them (nginx, systemd, a plain socket).
 *
 * The parent (the supervisor) reads the configuration, forks N workers
 * that accept on the listening socket at fd 0 (see listen.h), and
 * supervises them; it never reads the site or answers a request itself.
 * Every worker is the worker of server.h: it finishes the request in
 * flight before it honours SIGTERM.
 *
 *  - A worker that dies is replaced, with the back-off of pool_policy.h;
 *    each death is logged with its exit status or signal.
 *  - A worker that has answered [server] max_requests exits and is
 *    replaced at once.
 *  - SIGTERM or SIGINT: the parent sends SIGTERM to every worker (again
 *    each second, so that none misses it), waits until all have exited
 *    after their request in flight, removes a unix socket it made, and
 *    exits 0.
 *  - SIGHUP: the parent reads the configuration again. When it is good it
 *    opens its log again, starts N workers with it and, as each of them
 *    reports that it accepts requests, retires one worker of the old
 *    configuration gracefully (SIGTERM): the socket is never without a
 *    worker and no request is dropped. When it is not, the error is
 *    logged and the old workers go on serving.
 *
 *  - The configuration file is looked at every second: when it changed,
 *    the parent does what SIGHUP does (a file that cannot be used is
 *    logged once, and the workers go on). The socket and the number of
 *    workers come from the command line: changing them takes a restart.
 *  - The watcher (change/watch.h) is the parent's: started before the
 *    first workers, started again at once when it ends (killed, or ended
 *    for a changed configuration), a second later when it could not start
 *    or ended within a second; replaced after a reload. So the site is
 *    watched, and the static fast path kept fresh, while no request
 *    reaches a worker. Workers start none.
 *
 * Workers and the watcher end with the parent (PR_SET_PDEATHSIG: SIGTERM),
 * each worker after its request in flight.
 */
#ifndef CMS_API_POOL_H
#define CMS_API_POOL_H

#include "core/config.h"
#include "server/listen.h"

#define POOL_MAX_WORKERS 256

struct pool_options {
	unsigned workers;          /* 1 to POOL_MAX_WORKERS */
	const char *config_path;   /* read again on SIGHUP */
	struct listen_spec *made;  /* the socket made for --listen, removed at
	                            * exit; NULL when fd 0 was handed over */
};

/* Runs the pool with cfg (taken over: freed before returning) until
 * SIGTERM or SIGINT. Returns the exit status: 0 after a stop, 1 when the
 * pool cannot be set up. */
int pool_run(const struct pool_options *opt, struct config *cfg);

#endif
