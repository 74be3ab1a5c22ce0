/*
 * server: the FastCGI accept loop and CGI mode; see server.h.
 *
 * Shutdown: SIGTERM and SIGINT are blocked while a request is handled and
 * unblocked around accept(). A signal that arrives mid-request therefore
 * waits until the answer is sent, then interrupts the next accept (the
 * handler is installed without SA_RESTART and libfcgi is told to fail the
 * accept on EINTR). SIGHUP (logrotate) only reopens the log, before the
 * next request: it stays blocked, and one that is pending is taken once a
 * request has been accepted. Caught while waiting it would interrupt the
 * select() libfcgi makes right after accept() on a Unix socket (to see the
 * request coming), which never restarts: libfcgi then drops the connection,
 * and behind mod_fcgid (which connects before it writes) that request got
 * a 500.
 *
 * The access line of a request (access.h) is written after FCGX_Finish_r
 * has handed the whole answer back to the web server.
 */
#include "autoconfig.h"

#include "server.h"

#include <errno.h>
#include <fcgiapp.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "access.h"
#include "log.h"
#include "pool_policy.h"
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
	sigset_t pending, hangup;
	sigemptyset(&hangup);
	sigaddset(&hangup, SIGHUP);
	int sig;
	if (sigpending(&pending) == 0 && sigismember(&pending, SIGHUP) && sigwait(&hangup, &sig) == 0)
		reopen_requested = 1;
	if (!reopen_requested)
		return;
	reopen_requested = 0;
	log_reopen();
	access_reopen();
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
	/* SIGHUP only asks for the log to be reopened; it is blocked (see
	 * above) and taken between requests, the handler only a fallback. */
	struct sigaction hup;
	memset(&hup, 0, sizeof hup);
	hup.sa_handler = on_hangup;
	sigemptyset(&hup.sa_mask);
	hup.sa_flags = SA_RESTART;
	if (sigaction(SIGHUP, &hup, NULL) != 0)
		return -1;
	sigset_t hangup;
	sigemptyset(&hangup);
	sigaddset(&hangup, SIGHUP);
	sigprocmask(SIG_BLOCK, &hangup, NULL);
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

static long long monotonic_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000000LL + ts.tv_nsec / 1000;
}

static enum access_cache access_cache_of(enum app_cache_use use)
{
	return use == APP_CACHE_HIT ? ACCESS_CACHE_HIT
	       : use == APP_CACHE_MISS ? ACCESS_CACHE_MISS
	                               : ACCESS_CACHE_NONE;
}

/* The access line of an answered request, when the log is on. */
static void log_access(const struct app *app, const struct request *req,
                       const struct response *res, long long started_us)
{
	if (!access_enabled())
		return;
	struct access_entry e = {
		req->method,
		req->uri,
		response_sent_status(res),
		is_head(req) ? 0 : response_sent_body_length(res),
		monotonic_us() - started_us,
		access_cache_of(app->cache_use),
	};
	access_write(&e);
}

/* CMS_API_TEST_DELAY_MS, for the tests only: every request is held that
 * long before its answer is sent, stop signals blocked, so that a test
 * can signal a worker while it is sure a request is in flight. */
static long test_delay_ms(void)
{
	const char *v = getenv("CMS_API_TEST_DELAY_MS");
	long ms = v ? strtol(v, NULL, 10) : 0;
	return ms > 0 && ms <= 60000 ? ms : 0;
}

static void hold_for_test(long ms, const struct request *req)
{
	log_warning("CMS_API_TEST_DELAY_MS: holding the request for %s %ld ms (a setting for "
	            "tests only)", req->uri, ms);
	struct timespec left = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&left, &left) != 0 && errno == EINTR)
		;
}

/* Tells the pool (pool.h) that this worker accepts requests now. */
static void say_ready(int fd)
{
	if (fd < 0)
		return;
	pid_t pid = getpid();
	/* One write below PIPE_BUF: never mixed with another worker's. */
	if (write(fd, &pid, sizeof pid) != (ssize_t)sizeof pid)
		log_warning("cannot tell the pool this worker is ready: %s", strerror(errno));
	close(fd);
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

int server_run_fastcgi(struct app *app, const struct server_options *opts)
{
	static const struct server_options defaults = {0, -1};
	if (!opts)
		opts = &defaults;
	sigset_t stop_signals;
	if (FCGX_Init() != 0) {
		log_error("FCGX_Init failed");
		return EXIT_FAILURE;
	}
	if (install_signal_handlers(&stop_signals) != 0) {
		log_error("cannot install signal handlers");
		return EXIT_FAILURE;
	}
	/* A pool's worker starts with them blocked (pool.c): a stop that came
	 * while it opened the site is honoured now, before any accept. */
	sigprocmask(SIG_UNBLOCK, &stop_signals, NULL);
	FCGX_Request fr;
	if (FCGX_InitRequest(&fr, 0, FCGI_FAIL_ACCEPT_ON_INTR) != 0) {
		log_error("FCGX_InitRequest failed");
		return EXIT_FAILURE;
	}
	struct response res;
	struct strbuf out = STRBUF_INIT;
	struct env_params params = {NULL, STRBUF_INIT};
	response_init(&res);
	long delay_ms = test_delay_ms();
	unsigned long served = 0;
	int status = EXIT_SUCCESS;
	say_ready(opts->ready_fd);
	while (!stop_requested) {
		int rc = FCGX_Accept_r(&fr);
		if (rc < 0) {
			if (!stop_requested) {
				log_error("FastCGI accept failed (%d)", rc);
				status = EXIT_FAILURE;
			}
			break;
		}
		sigprocmask(SIG_BLOCK, &stop_signals, NULL);
		long long started_us = monotonic_us();
		reopen_log_if_asked();
		struct request req;
		params.env = fr.envp;
		request_from_cgi(&req, env_param_get, &params);
		app_handle(app, &req, &res);
		if (delay_ms)
			hold_for_test(delay_ms, &req);
		send_fastcgi(&fr, &req, &res, &out);
		FCGX_Finish_r(&fr);
		log_access(app, &req, &res, started_us);
		app_finish(app, &res);
		request_free(&req);
		sigprocmask(SIG_UNBLOCK, &stop_signals, NULL);
		if (pool_retire_due(++served, opts->max_requests)) {
			log_info("retiring after %lu requests ([server] max_requests)", served);
			break;
		}
	}
	FCGX_Free(&fr, 1);
	response_free(&res);
	strbuf_release(&out);
	strbuf_release(&params.joined);
	return status;
}

int server_run_cgi(struct app *app)
{
	struct request req;
	struct response res;
	struct strbuf out = STRBUF_INIT;
	long long started_us = monotonic_us();
	request_from_cgi(&req, env_param, NULL);
	response_init(&res);
	app_handle(app, &req, &res);
	response_render(&res, !is_head(&req), "\r\n", &out);
	int rc = fwrite(out.ptr, 1, out.len, stdout) == out.len && fflush(stdout) == 0
	                 ? EXIT_SUCCESS
	                 : EXIT_FAILURE;
	log_access(app, &req, &res, started_us);
	app_finish(app, &res);
	strbuf_release(&out);
	response_free(&res);
	request_free(&req);
	return rc;
}

int server_run(struct config *cfg, bool fastcgi, const struct server_options *opts)
{
	/* The logs first: the watcher's fork and a fallback may need them. */
	log_open(cfg->log_target, cfg->log_level);
	access_open(cfg->log_access);
	struct app app;
	app_open_with_config(&app, cfg, fastcgi ? APP_SHARED_WATCH : APP_SHARED);
	int rc = fastcgi ? server_run_fastcgi(&app, opts) : server_run_cgi(&app);
	app_close(&app);
	access_close();
	log_close();
	return rc;
}
