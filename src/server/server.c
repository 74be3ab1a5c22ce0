/*
 * server: the FastCGI accept loop and CGI mode; see server.h.
 *
 * FastCGI goes through fcgi.h, cms-api's own responder: an answer costs an
 * accept, a read, one writev and a close (on a connection nginx keeps: a
 * poll, a read and the writev), besides what app_handle does.
 *
 * Signals. The handlers only set flags: no signal is blocked or unblocked
 * around a request. SIGTERM and SIGINT are installed without SA_RESTART,
 * so that they interrupt a worker waiting in accept() (or idle on a kept
 * connection, see fcgi.h); a request that has begun is read, answered and
 * sent first, since every read and write of fcgi.c retries EINTR, and the
 * loop ends after it. A stop signal that lands in the instant between the
 * test of the flag and accept() is seen within FCGI_STOP_CHECK_MS, when
 * the wait gives up (fcgi.h): lighttpd sends one SIGTERM and never again. SIGHUP (logrotate) sets a
 * flag, with SA_RESTART; the log is opened again before the next request
 * is handled, never in the middle of one, and nothing fails for it.
 *
 * The access line of a request (access.h) is written after fcgi_answer
 * has handed the whole answer to the web server.
 */
#include "autoconfig.h"

#include "server/server.h"

#include <errno.h>
#include <linux/close_range.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/access.h"
#include "core/log.h"
#include "http/request.h"
#include "http/response.h"
#include "lib/strbuf.h"
#include "server/fcgi.h"
#include "server/listen.h"
#include "server/pool_policy.h"

static volatile sig_atomic_t stop_requested, reopen_requested;

static void on_stop_signal(int sig)
{
	(void)sig;
	stop_requested = 1;
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
	access_reopen();
	log_info("log reopened (SIGHUP)");
}

static int install_signal_handlers(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_stop_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = 0; /* no SA_RESTART: accept() must return on a signal */
	if (sigaction(SIGTERM, &sa, NULL) != 0 || sigaction(SIGINT, &sa, NULL) != 0)
		return -1;
	sa.sa_handler = on_hangup;
	sa.sa_flags = SA_RESTART; /* a reopen waits for the next request */
	if (sigaction(SIGHUP, &sa, NULL) != 0)
		return -1;
	/* A web server that hangs up must give us an error, not kill the
	 * worker (fcgi.c sends with MSG_NOSIGNAL; the log may be a pipe). */
	signal(SIGPIPE, SIG_IGN);
	/* A pool's worker starts with the stop signals blocked (pool.c): one
	 * that came while it opened the site is honoured now, before any
	 * accept. Once, not per request. */
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	return sigprocmask(SIG_UNBLOCK, &set, NULL);
}

bool server_is_fastcgi(void)
{
	return listen_inherited();
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
static void log_access(const struct exchange *x, long long started_us)
{
	if (!access_enabled())
		return;
	const struct request *req = x->req;
	const struct response *res = x->res;
	struct access_entry e = {
		req->method,
		req->uri,
		response_sent_status(res),
		is_head(req) ? 0 : response_sent_body_length(res),
		monotonic_us() - started_us,
		access_cache_of(x->cache_use),
	};
	access_write(&e);
}

#ifdef CMS_API_TEST_HOOKS
/* The milliseconds of a test hook's variable, 1 to 60000, or 0. */
static long test_ms(const char *name)
{
	const char *v = getenv(name);
	long ms = v ? strtol(v, NULL, 10) : 0;
	return ms > 0 && ms <= 60000 ? ms : 0;
}

/* CMS_API_TEST_DELAY_MS, for the tests only (configure --enable-test-hooks):
 * every request is held that long before its answer is sent (a stop
 * signal waits for the answer), so that a test can signal a worker while
 * it is sure a request is in flight. */
static long test_delay_ms(void)
{
	return test_ms("CMS_API_TEST_DELAY_MS");
}

/* CMS_API_TEST_REQUEST_MS, for the tests only: the time a request has to
 * arrive whole (fcgi.h), far shorter than a slow peer's in a test, which
 * then cannot pass it by chance. */
static void test_request_bound(struct fcgi_conn *conn)
{
	long ms = test_ms("CMS_API_TEST_REQUEST_MS");
	if (ms)
		conn->request_ms = (int)ms;
}

static void hold_for_test(long ms, const struct request *req)
{
	log_warning("CMS_API_TEST_DELAY_MS: holding the request for %s %ld ms (a setting for "
	            "tests only)", req->uri, ms);
	struct timespec left = {ms / 1000, (ms % 1000) * 1000000L};
	while (nanosleep(&left, &left) != 0 && errno == EINTR)
		;
}
#else
/* A build without the test hooks reads no such variable: mod_fcgid hands
 * the web server's environment to the workers, and a stray one must not
 * hold a production request. The compiler drops the call. */
static long test_delay_ms(void)
{
	return 0;
}

static void hold_for_test(long ms, const struct request *req)
{
}

static void test_request_bound(struct fcgi_conn *conn)
{
}
#endif

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

/* Renders res and sends it as the answer on conn; a web server that went
 * away or stalled is only logged. */
static void send_answer(struct fcgi_conn *conn, const char *uri, bool head,
                        const struct response *res, struct strbuf *out)
{
	strbuf_reset(out);
	response_render(res, !head, "\r\n", out);
	if (fcgi_answer(conn, out->ptr, out->len) == 0)
		return;
	if (errno == EPIPE || errno == ECONNRESET)
		log_info("the web server went away before the answer to %s was sent", uri);
	else if (errno == ETIMEDOUT)
		log_warning("the web server took no more of the answer to %s for %d ms: connection "
		            "closed", uri, conn->timeout_ms);
	else
		log_warning("cannot send the answer to %s: %s", uri, strerror(errno));
}

/* A request whose FastCGI params could not be taken (fcgi.h): a 400, with
 * no request to hand to the app's pipeline nor to write an access line
 * for, answered by the app's one writer of errors all the same. */
static void refuse_bad_params(struct fcgi_conn *conn, struct response *res, struct strbuf *out)
{
	bool large = conn->bad == FCGI_BAD_TOO_LARGE;
	log_warning("FastCGI: refused a request with %s (400)",
	            large ? "more parameters than a worker takes" : "malformed parameters");
	struct http_error e = HTTP_ERROR_INIT;
	http_error_set(&e, 400, "%s", large ? "The request's headers are too large."
	                                    : "The request's parameters are malformed.");
	response_reset(res);
	app_answer_error(res, &e);
	http_error_free(&e);
	send_answer(conn, "a refused request", false, res, out);
}

/* Answers the request conn has read, through x (the worker's, reused). */
static void serve(struct app *app, struct fcgi_conn *conn, struct exchange *x,
                  struct response *res, struct strbuf *out, struct env_params *params,
                  long delay_ms)
{
	long long started_us = monotonic_us();
	reopen_log_if_asked();
	if (conn->bad != FCGI_BAD_NONE) {
		refuse_bad_params(conn, res, out);
		return;
	}
	struct request req;
	params->env = conn->env;
	request_from_cgi(&req, env_param_get, params);
	exchange_begin(x, &req, res);
	app_handle(app, x);
	if (delay_ms)
		hold_for_test(delay_ms, &req);
	send_answer(conn, req.uri, is_head(&req), res, out);
	log_access(x, started_us);
	app_finish(app, x);
	x->req = NULL; /* freed below */
	request_free(&req);
}

/* Waits for the next connection. Returns 0 (connected, or interrupted: the
 * caller looks at the stop flag), -1 when the socket cannot be accepted on. */
static int accept_next(struct fcgi_conn *conn)
{
	if (fcgi_accept(conn) == 0)
		return 0;
	switch (errno) {
	case EINTR:
	case EAGAIN:
	case ECONNABORTED:
	case EPROTO:
		return 0; /* a signal, no connection within FCGI_STOP_CHECK_MS, or a
		           * connection that went before it was taken */
	case EMFILE:
	case ENFILE:
	case ENOBUFS:
	case ENOMEM: {
		log_every_minute(LOG_LEVEL_WARNING, "FastCGI accept: %s: trying again", strerror(errno));
		struct timespec pause = {0, 100 * 1000000L};
		nanosleep(&pause, NULL);
		return 0;
	}
	default:
		if (stop_requested)
			return 0;
		log_error("FastCGI accept failed: %s", strerror(errno));
		return -1;
	}
}

int server_run_fastcgi(struct app *app, const struct server_options *opts)
{
	static const struct server_options defaults = {0, -1, false, NULL};
	if (!opts)
		opts = &defaults;
	if (install_signal_handlers() != 0) {
		log_error("cannot install signal handlers");
		return EXIT_FAILURE;
	}
	struct fcgi_conn conn;
	fcgi_conn_init(&conn, 0, &stop_requested);
	fcgi_allow_peers(&conn, getenv("FCGI_WEB_SERVER_ADDRS"));
	test_request_bound(&conn);
	struct response res;
	struct exchange x;
	struct strbuf out = STRBUF_INIT;
	struct env_params params = {NULL, STRBUF_INIT};
	response_init(&res);
	exchange_init(&x);
	long delay_ms = test_delay_ms();
	unsigned long served = 0;
	int status = EXIT_SUCCESS;
	say_ready(opts->ready_fd);
	while (!stop_requested) {
		if (opts->argv && app_config_changed(app)) {
			status = SERVER_EXEC_AGAIN;
			break;
		}
		/* No request in hand: the one place a worker forks (app.h). */
		app_between_requests(app);
		if (!fcgi_connected(&conn) && accept_next(&conn) != 0) {
			status = EXIT_FAILURE;
			break;
		}
		if (!fcgi_connected(&conn) || fcgi_next_request(&conn) != 1)
			continue;
		serve(app, &conn, &x, &res, &out, &params, delay_ms);
		if (pool_retire_due(++served, opts->max_requests)) {
			log_info("retiring after %lu requests ([server] max_requests)", served);
			break;
		}
	}
	fcgi_conn_free(&conn);
	exchange_free(&x);
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
	struct exchange x;
	request_from_cgi(&req, env_param, NULL);
	response_init(&res);
	exchange_init(&x);
	exchange_begin(&x, &req, &res);
	app_handle(app, &x);
	response_render(&res, !is_head(&req), "\r\n", &out);
	int rc = fwrite(out.ptr, 1, out.len, stdout) == out.len && fflush(stdout) == 0
	                 ? EXIT_SUCCESS
	                 : EXIT_FAILURE;
	log_access(&x, started_us);
	app_finish(app, &x);
	exchange_free(&x);
	strbuf_release(&out);
	response_free(&res);
	request_free(&req);
	return rc;
}

/* The worker again, as its spawner started it, with the configuration
 * file as it is now: the same pid, the listening socket (fd 0, never
 * close-on-exec) and stdout and stderr kept, nothing else. Returns only
 * when that fails: the exit status. */
static int exec_again(char *const *argv)
{
	close_range(3, ~0U, CLOSE_RANGE_CLOEXEC);
	execv("/proc/self/exe", argv);
	int err = errno;
	fprintf(stderr, "cms-api: cannot execute itself again for the new configuration: %s\n",
	        strerror(err));
	return EXIT_FAILURE;
}

int server_run(struct config *cfg, bool fastcgi, const struct server_options *opts)
{
	/* The logs first: the watcher's fork and a fallback may need them. */
	log_open(cfg->log_target, cfg->log_level);
	access_open(cfg->log_access);
	struct app app;
	/* A pool's supervisor keeps the watcher running (pool.h); a worker on
	 * its own makes sure one runs. */
	bool pooled = opts && opts->pooled;
	app_open_with_config(&app, cfg, fastcgi && !pooled ? APP_SHARED_WATCH : APP_SHARED);
	int rc = fastcgi ? server_run_fastcgi(&app, opts) : server_run_cgi(&app);
	if (rc == SERVER_EXEC_AGAIN)
		log_info("configuration %s changed: reloaded", app.cfg.path);
	app_close(&app);
	access_close();
	log_close();
	return rc == SERVER_EXEC_AGAIN ? exec_again(opts->argv) : rc;
}
