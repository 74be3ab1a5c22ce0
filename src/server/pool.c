/*
 * pool: the supervisor of cms-api -n; see pool.h.
 *
 * The parent blocks its four signals and reads them from a signalfd, so
 * that one poll(2) waits for a signal, for a worker saying it is ready
 * (its pid on a pipe every worker inherits), and for the next restart that
 * is due: no handler, no race between a check and a sleep.
 *
 * Each worker has an entry: live (pid), or waiting to be started again
 * (pid 0, start_at). An entry belongs to a generation, one per
 * configuration read; entries of older generations are only ever retired,
 * never started again.
 */
#include "autoconfig.h"

#include "server/pool.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "app/app.h"
#include "core/log.h"
#include "lib/strbuf.h"
#include "server/pool_policy.h"
#include "server/server.h"

#define RESEND_TERM_MS 1000 /* stopping: how often a worker is told again */
#define WATCH_RETRY_MS 1000 /* how soon a watcher that could not start is tried again */
#define LOOK_MS 1000        /* how often the configuration file is looked at */

struct worker {
	pid_t pid;           /* 0: waiting to be started at start_at */
	unsigned generation; /* the configuration it serves */
	bool ready;          /* it said it accepts requests */
	bool retiring;       /* it was sent SIGTERM to make room */
	long long started;   /* ms */
	long long start_at;  /* ms, when pid is 0 */
	unsigned streak;     /* crashes in a row of this slot */
};

struct pool {
	const struct pool_options *opt;
	struct config cfg;  /* owned: the newest good configuration */
	unsigned generation;
	struct worker *w;   /* owned */
	size_t n, cap;
	int sigfd, ready_rd, ready_wr;
	pid_t self;
	bool stopping;
	long long next_term; /* stopping: when to send SIGTERM again, ms */
	pid_t watcher;       /* the site's watcher, 0 while none of ours runs */
	long long watcher_started; /* ms */
	bool watcher_told;   /* it was sent SIGTERM (a stop, a reload) */
	long long watch_at;  /* ms: when to try starting one (watcher 0) */
	long long next_look; /* ms: when to look at the configuration file again */
	struct config_stamp ini_seen; /* the version of it looked at last */
};

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (long long)ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

static struct worker *add_entry(struct pool *p, unsigned generation, long long start_at)
{
	if (p->n == p->cap) {
		p->cap = p->cap ? 2 * p->cap : 8;
		p->w = xrealloc(p->w, p->cap * sizeof *p->w);
	}
	struct worker *w = &p->w[p->n++];
	memset(w, 0, sizeof *w);
	w->generation = generation;
	w->start_at = start_at;
	return w;
}

static void remove_entry(struct pool *p, size_t i)
{
	p->w[i] = p->w[--p->n];
}

static struct worker *find_pid(struct pool *p, pid_t pid, size_t *at)
{
	for (size_t i = 0; i < p->n; i++)
		if (p->w[i].pid == pid) {
			*at = i;
			return &p->w[i];
		}
	return NULL;
}

/* --- a worker, in the child ------------------------------------------------ */

/* The child lets go of everything of the supervisor's but the listening
 * socket, its configuration and the ready pipe, and becomes a worker. */
static void become_worker(struct pool *p)
{
	close(p->sigfd);
	close(p->ready_rd);
	/* SIGTERM and SIGINT wait until the worker can honour them (the
	 * server unblocks them once its handlers are in place): one that
	 * comes while the worker opens the site ends it cleanly after. */
	sigset_t stop;
	sigemptyset(&stop);
	sigaddset(&stop, SIGTERM);
	sigaddset(&stop, SIGINT);
	sigprocmask(SIG_SETMASK, &stop, NULL);
	/* A supervisor killed outright must not leave workers behind; they
	 * still finish the request in flight. */
	prctl(PR_SET_PDEATHSIG, SIGTERM);
	if (getppid() != p->self)
		_exit(0);
	struct config cfg = p->cfg;
	memset(&p->cfg, 0, sizeof p->cfg);
	free(p->w);
	p->w = NULL;
	struct server_options opts = {cfg.max_requests, p->ready_wr, true, NULL};
	exit(server_run(&cfg, true, &opts));
}

/* --- the supervisor ---------------------------------------------------------- */

static void start(struct pool *p, struct worker *w)
{
	fflush(NULL); /* nothing buffered may be written twice */
	pid_t pid = fork();
	if (pid == 0)
		become_worker(p);
	long long now = now_ms();
	if (pid < 0) {
		/* Out of processes or memory: never at once again. */
		w->streak = pool_next_streak(w->streak, false, 0);
		long delay = pool_restart_delay_ms(w->streak);
		if (delay < POOL_BACKOFF_FIRST_MS)
			delay = POOL_BACKOFF_FIRST_MS;
		log_error("cannot start a worker (fork: %s): trying again in %ld ms", strerror(errno),
		          delay);
		w->start_at = now + delay;
		return;
	}
	w->pid = pid;
	w->ready = w->retiring = false;
	w->started = now;
	log_info("worker %ld started", (long)pid);
}

static void start_due(struct pool *p)
{
	if (p->stopping)
		return;
	long long now = now_ms();
	for (size_t i = 0; i < p->n; i++)
		if (p->w[i].pid == 0 && p->w[i].start_at <= now)
			start(p, &p->w[i]);
}

/* --- the watcher ------------------------------------------------------------ */

/* Starts the site's watcher (change/watch.h) when none of ours runs and
 * it is due, so that the site is watched, and the static fast path kept
 * fresh, whether or not requests reach a worker. One that cannot start
 * (another process holds the lock, the cache directory is not usable)
 * is tried again a second later. */
static void tend_watcher(struct pool *p)
{
	long long now = now_ms();
	if (p->stopping || p->watcher > 0 || now < p->watch_at)
		return;
	fflush(NULL); /* nothing buffered may be written twice */
	pid_t pid = app_spawn_watcher(&p->cfg);
	p->watch_at = now + WATCH_RETRY_MS;
	if (pid > 0) {
		p->watcher = pid;
		p->watcher_started = now;
		p->watcher_told = false;
		log_info("watcher %ld started", (long)pid);
	}
}

static void terminate(struct worker *w)
{
	if (w->pid > 0)
		kill(w->pid, SIGTERM);
}

/* After a reload: as workers of the new configuration become ready, the
 * old ones make room (the ones not ready yet first). */
static void retire_surplus(struct pool *p)
{
	unsigned ready = 0, old = 0;
	for (size_t i = 0; i < p->n; i++) {
		const struct worker *w = &p->w[i];
		if (w->generation == p->generation && w->ready)
			ready++;
		else if (w->generation != p->generation && !w->retiring)
			old++;
	}
	unsigned keep = pool_old_to_keep(p->opt->workers, ready);
	for (int pass = 0; pass < 2 && old > keep; pass++) {
		for (size_t i = 0; i < p->n && old > keep; i++) {
			struct worker *w = &p->w[i];
			if (w->generation == p->generation || w->retiring || (pass == 0 && w->ready))
				continue;
			w->retiring = true;
			terminate(w);
			old--;
			log_info("worker %ld of the previous configuration retires", (long)w->pid);
		}
	}
}

/* How a worker ended, as words for the log. */
static void describe_end(int status, char *out, size_t len)
{
	if (WIFSIGNALED(status))
		snprintf(out, len, "was killed by signal %d (%s)%s", WTERMSIG(status),
		         strsignal(WTERMSIG(status)), WCOREDUMP(status) ? ", core dumped" : "");
	else
		snprintf(out, len, "exited with status %d", WEXITSTATUS(status));
}

/* A live worker of the newest configuration ended: its slot waits for
 * the next one, at once or after the back-off. */
static void schedule_restart(struct worker *w, int status, long long now)
{
	bool clean = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	char how[160];
	describe_end(status, how, sizeof how);
	w->streak = pool_next_streak(w->streak, clean, now - w->started);
	long delay = pool_restart_delay_ms(w->streak);
	if (clean)
		log_info("worker %ld %s (max_requests reached, or stopped): starting another",
		         (long)w->pid, how);
	else if (delay == 0)
		log_warning("worker %ld %s: starting another", (long)w->pid, how);
	else
		log_warning("worker %ld %s: starting another in %ld ms (%u failures in a row)",
		            (long)w->pid, how, delay, w->streak);
	w->pid = 0;
	w->ready = false;
	w->start_at = now + delay;
}

/* Whether pid was the watcher: then it is started again at once (a second
 * later when it ended within a second of its start), unless stopping. */
static bool reap_watcher(struct pool *p, pid_t pid, int status)
{
	if (pid != p->watcher || pid <= 0)
		return false;
	char how[160];
	describe_end(status, how, sizeof how);
	/* Told to stop, it withdrew the fast path and raised the signal again
	 * (watch.c): that end is the one asked for. One that ended by itself
	 * (status 0) did so for a changed configuration, or for another
	 * watcher: the file is looked at before the next one starts. */
	bool asked = p->watcher_told && WIFSIGNALED(status) && WTERMSIG(status) == SIGTERM;
	bool by_itself = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	p->watcher = 0;
	long long now = now_ms();
	bool quick = now - p->watcher_started < WATCH_RETRY_MS;
	p->watch_at = quick ? now + WATCH_RETRY_MS : now;
	if (by_itself)
		p->next_look = now;
	if (asked || by_itself)
		log_info("watcher %ld %s%s", (long)pid, asked ? "stopped" : how,
		         p->stopping ? "" : ": starting another");
	else if (p->stopping)
		log_info("watcher %ld %s", (long)pid, how);
	else
		log_warning("watcher %ld %s: starting another", (long)pid, how);
	return true;
}

/* Asks the watcher to stop (it withdraws the fast path first). */
static void stop_watcher(struct pool *p)
{
	if (p->watcher <= 0)
		return;
	p->watcher_told = true;
	kill(p->watcher, SIGTERM);
}

static void reap(struct pool *p)
{
	int status;
	pid_t pid;
	while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
		if (reap_watcher(p, pid, status))
			continue;
		size_t at;
		struct worker *w = find_pid(p, pid, &at);
		if (!w)
			continue;
		if (p->stopping || w->retiring || w->generation != p->generation) {
			char how[160];
			describe_end(status, how, sizeof how);
			log_info("worker %ld %s", (long)pid, how);
			remove_entry(p, at);
		} else {
			schedule_restart(w, status, now_ms());
		}
	}
}

static void read_ready(struct pool *p)
{
	pid_t pids[64];
	ssize_t got;
	while ((got = read(p->ready_rd, pids, sizeof pids)) > 0) {
		for (size_t i = 0; i < (size_t)got / sizeof *pids; i++) {
			size_t at;
			struct worker *w = find_pid(p, pids[i], &at);
			if (w)
				w->ready = true;
		}
	}
}

static void stop(struct pool *p, int sig)
{
	if (!p->stopping)
		log_info("%s: stopping: the workers finish their requests, then exit",
		         sig == SIGINT ? "SIGINT" : "SIGTERM");
	p->stopping = true;
	for (size_t i = 0; i < p->n;) {
		if (p->w[i].pid == 0) {
			remove_entry(p, i);
			continue;
		}
		terminate(&p->w[i]);
		i++;
	}
	stop_watcher(p);
	p->next_term = now_ms() + RESEND_TERM_MS;
}

/* SIGHUP, or the file changed (why): the configuration again; a good one
 * gets new workers, which replace the old ones as they become ready
 * (retire_surplus), and a new watcher. */
static void reload(struct pool *p, const char *why)
{
	if (p->stopping)
		return;
	char err[CONFIG_ERR_LEN];
	struct config cfg;
	if (config_load(&cfg, p->opt->config_path, err) != 0) {
		log_error("%s: %s: the workers go on with the configuration they have", why, err);
		return;
	}
	log_open(cfg.log_target, cfg.log_level);
	config_free(&p->cfg);
	p->cfg = cfg;
	p->ini_seen = cfg.stamp;
	p->generation++;
	/* Old slots waiting for a restart are not started any more. */
	for (size_t i = 0; i < p->n;) {
		if (p->w[i].pid == 0)
			remove_entry(p, i);
		else
			i++;
	}
	long long now = now_ms();
	for (unsigned i = 0; i < p->opt->workers; i++)
		add_entry(p, p->generation, now);
	/* The watcher goes with the old configuration; its next one, started
	 * once it has ended (its lock free), watches with the new one. */
	stop_watcher(p);
	log_info("%s: %s read again: %u new workers replace the old ones as they start", why,
	         p->opt->config_path, p->opt->workers);
}

/* Once a second: a configuration file that changed is taken up as SIGHUP
 * takes it (the listening socket and the number of workers, given on the
 * command line, stay); one that cannot be used is said once. */
static void look_at_config(struct pool *p)
{
	long long now = now_ms();
	if (p->stopping || now < p->next_look)
		return;
	p->next_look = now + LOOK_MS;
	char err[CONFIG_ERR_LEN];
	switch (config_check_file(&p->cfg, &p->ini_seen, err)) {
	case CONFIG_CHANGED:
		reload(p, "configuration changed");
		break;
	case CONFIG_BROKEN:
		log_error("configuration %s changed: %s: the workers go on with the configuration "
		          "they have", p->opt->config_path, err);
		break;
	case CONFIG_SAME:
		break;
	}
}

static void handle_signals(struct pool *p)
{
	struct signalfd_siginfo si;
	bool hup = false, child = false;
	int stop_sig = 0;
	/* Every pending signal first: a SIGTERM that came with a SIGCHLD
	 * must keep the dead worker from being replaced. */
	while (read(p->sigfd, &si, sizeof si) == (ssize_t)sizeof si) {
		if (si.ssi_signo == SIGCHLD)
			child = true;
		else if (si.ssi_signo == SIGHUP)
			hup = true;
		else
			stop_sig = (int)si.ssi_signo;
	}
	if (stop_sig)
		stop(p, stop_sig);
	if (child)
		reap(p);
	if (hup)
		reload(p, "SIGHUP");
}

/* Milliseconds poll may sleep: until the next start due (a worker's, the
 * watcher's), the next look at the configuration file, or the next
 * SIGTERM of a stop; a minute at most. */
static int poll_timeout(const struct pool *p)
{
	long long now = now_ms(), next = -1;
	if (p->stopping) {
		next = p->next_term;
	} else {
		next = p->next_look;
		if (p->watcher == 0 && p->watch_at < next)
			next = p->watch_at;
		for (size_t i = 0; i < p->n; i++)
			if (p->w[i].pid == 0 && p->w[i].start_at < next)
				next = p->w[i].start_at;
	}
	return next <= now ? 0 : next - now > 60000 ? 60000 : (int)(next - now);
}

static void resend_term(struct pool *p)
{
	if (!p->stopping || now_ms() < p->next_term)
		return;
	/* A SIGTERM that lands just before a worker blocks in accept() is
	 * seen only at the next signal (see server.c). */
	for (size_t i = 0; i < p->n; i++)
		terminate(&p->w[i]);
	stop_watcher(p);
	p->next_term = now_ms() + RESEND_TERM_MS;
}

static int setup(struct pool *p)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGCHLD);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGHUP);
	int fds[2];
	if (sigprocmask(SIG_BLOCK, &set, NULL) != 0 ||
	    (p->sigfd = signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC)) < 0) {
		log_error("cannot set up the pool's signals: %s", strerror(errno));
		return -1;
	}
	if (pipe2(fds, O_CLOEXEC) != 0) {
		log_error("cannot set up the pool: pipe: %s", strerror(errno));
		close(p->sigfd);
		return -1;
	}
	p->ready_rd = fds[0];
	p->ready_wr = fds[1];
	fcntl(p->ready_rd, F_SETFL, O_NONBLOCK);
	/* A worker's watcher asks for it; the supervisor needs its children. */
	signal(SIGCHLD, SIG_DFL);
	signal(SIGPIPE, SIG_IGN);
	return 0;
}

int pool_run(const struct pool_options *opt, struct config *cfg)
{
	struct pool p;
	memset(&p, 0, sizeof p);
	p.opt = opt;
	p.cfg = *cfg;
	memset(cfg, 0, sizeof *cfg);
	p.generation = 1;
	p.self = getpid();
	p.sigfd = p.ready_rd = p.ready_wr = -1;
	p.ini_seen = p.cfg.stamp;
	log_open(p.cfg.log_target, p.cfg.log_level);
	int rc = EXIT_FAILURE;
	if (setup(&p) == 0) {
		long long now = now_ms();
		for (unsigned i = 0; i < opt->workers; i++)
			add_entry(&p, p.generation, now);
		log_info("pool of %u workers starting", opt->workers);
		while (!p.stopping || p.n > 0 || p.watcher > 0) {
			look_at_config(&p);
			tend_watcher(&p); /* before the first workers: they find it running */
			start_due(&p);
			retire_surplus(&p);
			struct pollfd fds[2] = {{p.sigfd, POLLIN, 0}, {p.ready_rd, POLLIN, 0}};
			if (poll(fds, 2, poll_timeout(&p)) < 0 && errno != EINTR) {
				log_error("poll: %s", strerror(errno));
				break;
			}
			if (fds[1].revents)
				read_ready(&p);
			if (fds[0].revents)
				handle_signals(&p);
			resend_term(&p);
		}
		rc = p.stopping && p.n == 0 && p.watcher == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
		log_info("pool stopped");
		close(p.sigfd);
		close(p.ready_rd);
		close(p.ready_wr);
	}
	if (opt->made)
		listen_remove(opt->made);
	free(p.w);
	config_free(&p.cfg);
	log_close();
	return rc;
}
