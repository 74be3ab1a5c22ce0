/*
 * server: how requests reach app_handle. As a FastCGI worker it accepts
 * on the socket its spawner handed it on fd 0 (lighttpd bin-path,
 * spawn-fcgi, mod_fcgid), never assuming who forked it; outside FastCGI
 * it answers one CGI request from its environment.
 */
#ifndef CMS_API_SERVER_H
#define CMS_API_SERVER_H

#include <stdbool.h>

#include "app.h"

/* True when fd 0 is a FastCGI listening socket (libfcgi's own test). */
bool server_is_fastcgi(void);

/* True when the environment holds a CGI request (GATEWAY_INTERFACE). */
bool server_is_cgi(void);

/*
 * Accepts and answers requests on fd 0 until SIGTERM or SIGINT; the
 * request in flight when the signal arrives is finished and sent first.
 * SIGHUP reopens the log before the next request and ends nothing.
 * Returns the process exit status.
 */
int server_run_fastcgi(struct app *app);

/* Answers the CGI request in the environment on stdout; returns the exit
 * status. */
int server_run_cgi(struct app *app);

#endif
