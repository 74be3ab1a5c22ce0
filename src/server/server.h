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
	bool pooled;       /* a worker of the pool: its supervisor runs the watcher
	                    * and follows the configuration file */
	char *const *argv; /* a worker on its own: its command line, executed again
	                    * when its configuration file changes (NULL: never) */
};

/* server_run_fastcgi's status when the configuration file changed (and
 * opts->argv is set): the worker is to execute itself again. */
#define SERVER_EXEC_AGAIN 100

/*
 * Accepts and answers requests on fd 0 until SIGTERM or SIGINT, or until
 * it has answered opts->max_requests; the request in flight when the
 * signal arrives is finished and sent first. SIGHUP reopens the log and
 * the access log before the next request and ends nothing. Each request's
 * access line (access.h) is written after its answer was sent. With
 * opts->argv, the configuration file is looked at between requests: a
 * good new one ends the loop (SERVER_EXEC_AGAIN), a broken one is logged
 * once. Returns the process exit status: 0 for a stop or a retirement, 1
 * when FastCGI failed, or SERVER_EXEC_AGAIN.
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
 * the environment, and closes everything. A worker whose configuration
 * file changed then executes /proc/self/exe again with opts->argv,
 * keeping its pid and the listening socket on fd 0 (so every spawner keeps
 * it), every other descriptor closed. Returns the exit status.
 */
int server_run(struct config *cfg, bool fastcgi, const struct server_options *opts);

#endif
