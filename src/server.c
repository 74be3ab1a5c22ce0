/*
 * server: the FastCGI accept loop and CGI mode; see server.h.
 *
 * Shutdown: SIGTERM and SIGINT are blocked while a request is handled and
 * unblocked around accept(). A signal that arrives mid-request therefore
 * waits until the answer is sent, then interrupts the next accept (the
 * handler is installed without SA_RESTART and libfcgi is told to fail the
 * accept on EINTR). SIGHUP (logrotate) only reopens the log, before the
 * next request; its handler restarts what it interrupts.
 */
#include "autoconfig.h"

#include "server.h"

#include <fcgiapp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "request.h"
#include "response.h"
#include "strbuf.h"

static volatile sig_atomic_t stop_requested, reopen_requested;

static void on_stop_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
	FCGX_ShutdownPending();
}

static void on_hangup(int sig)
{
	(void)sig;
	reopen_requested = 1;
}

/* After logrotate's SIGHUP: the log file is opened again between
 * requests, never in the middle of one. */
static void reopen_log_if_asked(void)
{
	if (!reopen_requested)
		return;
	reopen_requested = 0;
	log_reopen();
	log_info("log reopened (SIGHUP)");
}

static int install_signal_handlers(sigset_t *stop_signals)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: accept() must return on a signal */
	if (sigaction(SIGTERM, &sa, NULL) != 0 || sigaction(SIGINT, &sa, NULL) != 0)
		return -1;
	/* SIGHUP only asks for the log to be reopened; whatever it
	 * interrupts (accept, a read, a write) goes on. */
	struct sigaction hup;
	memset(&hup, 0, sizeof hup);
	hup.sa_handler = on_hangup;
	sigemptyset(&hup.sa_mask);
	hup.sa_flags = SA_RESTART;
	if (sigaction(SIGHUP, &hup, NULL) != 0)
		return -1;
	/* A client that hangs up must give us an error, not kill the worker. */
	signal(SIGPIPE, SIG_IGN);
	sigemptyset(stop_signals);
	sigaddset(stop_signals, SIGTERM);
	sigaddset(stop_signals, SIGINT);
	return 0;
}

bool server_is_fastcgi(void)
{
	return !FCGX_IsCGI();
}

bool server_is_cgi(void)
{
	const char *gw = getenv("GATEWAY_INTERFACE");
	return gw && *gw;
}

static const char *env_param(const char *name, void *unused)
{
	(void)unused;
	return getenv(name);
}

static bool is_head(const struct request *req)
{
	return strcmp(req->method, "HEAD") == 0;
}

/* Renders and sends one answer; a client that went away is only logged. */
static void send_fastcgi(FCGX_Request *fr, const struct request *req, const struct response *res,
                         struct strbuf *out)
{
	strbuf_reset(out);
	response_render(res, !is_head(req), "\r\n", out);
	if (FCGX_PutStr(out->ptr, (int)out->len, fr->out) < 0)
		log_info("client went away before the answer to %s was sent", req->uri);
}

int server_run_fastcgi(struct app *app)
{
	sigset_t stop_signals;
	if (FCGX_Init() != 0) {
		log_error("FCGX_Init failed");
		return EXIT_FAILURE;
	}
	if (install_signal_handlers(&stop_signals) != 0) {
		log_error("cannot install signal handlers");
		return EXIT_FAILURE;
	}
	FCGX_Request fr;
	if (FCGX_InitRequest(&fr, 0, FCGI_FAIL_ACCEPT_ON_INTR) != 0) {
		log_error("FCGX_InitRequest failed");
		return EXIT_FAILURE;
	}
	struct response res;
	struct strbuf out = STRBUF_INIT;
	struct env_params params = {NULL, STRBUF_INIT};
	response_init(&res);
	while (!stop_requested) {
		int rc = FCGX_Accept_r(&fr);
		if (rc < 0) {
			if (!stop_requested)
				log_error("FastCGI accept failed (%d)", rc);
			break;
		}
		sigprocmask(SIG_BLOCK, &stop_signals, NULL);
		reopen_log_if_asked();
		struct request req;
		params.env = fr.envp;
		request_from_cgi(&req, env_param_get, &params);
		app_handle(app, &req, &res);
		send_fastcgi(&fr, &req, &res, &out);
		FCGX_Finish_r(&fr);
		app_finish(app, &res);
		request_free(&req);
		sigprocmask(SIG_UNBLOCK, &stop_signals, NULL);
	}
	FCGX_Free(&fr, 1);
	response_free(&res);
	strbuf_release(&out);
	strbuf_release(&params.joined);
	return EXIT_SUCCESS;
}

int server_run_cgi(struct app *app)
{
	struct request req;
	struct response res;
	struct strbuf out = STRBUF_INIT;
	request_from_cgi(&req, env_param, NULL);
	response_init(&res);
	app_handle(app, &req, &res);
	response_render(&res, !is_head(&req), "\r\n", &out);
	int rc = fwrite(out.ptr, 1, out.len, stdout) == out.len && fflush(stdout) == 0
	                 ? EXIT_SUCCESS
	                 : EXIT_FAILURE;
	app_finish(app, &res);
	strbuf_release(&out);
	response_free(&res);
	request_free(&req);
	return rc;
}
