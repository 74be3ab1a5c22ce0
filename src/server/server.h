/*
 * server: how requests reach app_handle. As a FastCGI worker it accepts
 * on the socket its spawner handed it on fd 0 (lighttpd bin-path,
 * spawn-fcgi, mod_fcgid), never assuming who forked it; outside FastCGI
 * it answers one CGI request from its environment.
 */
#ifndef CMS_API_SERVER_H
#define CMS_API_SERVER_H

#include <stdbool.h>

#include "app/app.h"

/* True when fd 0 is a listening socket, a FastCGI spawner's hand-over (or
 * systemd's LISTEN_FDS socket, which listen_inherited moves there). */
bool server_is_fastcgi(void);

/* True when the environment holds a CGI request (GATEWAY_INTERFACE). */
bool server_is_cgi(void);

/* How a FastCGI worker runs; NULL in server_run_fastcgi means the
 * defaults {0, -1, false}: a worker on its own. */
struct server_options {
	long max_requests; /* return after answering this many (0: never) */
	int ready_fd;      /* >= 0: a pipe of the pool (pool.h), sent the worker's
	                    * pid and closed once it accepts requests; -1: none */
	bool pooled;       /* a worker of the pool: its supervisor runs the watcher */
};

/*
 * Accepts and answers requests on fd 0 until SIGTERM or SIGINT, or until
 * it has answered opts->max_requests; the request in flight when the
 * signal arrives is finished and sent first. SIGHUP reopens the log and
 * the access log before the next request and ends nothing. Each request's
 * access line (access.h) is written after its answer was sent. Returns the
 * process exit status: 0 for a stop or a retirement, 1 when FastCGI
 * failed.
 */
int server_run_fastcgi(struct app *app, const struct server_options *opts);

/* Answers the CGI request in the environment on stdout (and writes its
 * access line); returns the exit status. */
int server_run_cgi(struct app *app);

/*
 * A whole worker: opens the log and the access log where cfg (taken
 * over, freed before returning) says, then the app (sharing the index
 * through the cache directory), serves FastCGI on fd 0 with opts (NULL:
 * a worker on its own) or, when fastcgi is false, the one CGI request of
 * the environment, and closes everything. Returns the exit status.
 */
int server_run(struct config *cfg, bool fastcgi, const struct server_options *opts);

#endif
