/* api/shape_plugin: a shape plug-in, loaded and called; see shape_plugin.h. */
#include "autoconfig.h"

#include "api/shape_plugin.h"

#include <dirent.h>
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/log.h"
#include "lib/plugin.h"
#include "lib/strbuf.h"


static void say(char *error, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(char *error, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(error, size, fmt, ap);
	va_end(ap);
}

/* --- the crash line ---
 *
 * What the signal handler needs is made before the plug-in runs, so that
 * the handler only copies bytes and calls write(2) and open(2), which are
 * async-signal-safe. One plug-in per process: the state is the process's.
 */

static const int fatal_signals[] = {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT};
#define NFATAL (sizeof fatal_signals / sizeof fatal_signals[0])

static struct {
	struct sigaction before[NFATAL]; /* what handled each signal before */
	volatile sig_atomic_t inside;    /* the plug-in is running */
	volatile sig_atomic_t reported;  /* the line was written */
	char head[600];                  /* "cms-api[pid]: error: the shape plug-in ... signal " */
	char item[200];                  /* " while rewriting <type> <handle>\n" */
	char marker[600];                /* the cache directory's shape-crash.<pid> */
	int log_fd;                      /* the log file, standard error, or -1 (syslog) */
	void *altstack;
} crash;

static size_t bounded_len(const char *s, size_t max)
{
	size_t n = 0;
	while (n < max && s[n])
		n++;
	return n;
}

/* The line for signal sig, without snprintf (not async-signal-safe). */
static size_t crash_line(int sig, char *out, size_t size)
{
	char digits[12];
	size_t nd = 0;
	for (unsigned v = (unsigned)sig; nd < sizeof digits && (nd == 0 || v); v /= 10)
		digits[nd++] = (char)('0' + v % 10);
	size_t n = 0, h = bounded_len(crash.head, sizeof crash.head);
	size_t it = bounded_len(crash.item, sizeof crash.item);
	if (h + nd + it >= size)
		return 0;
	memcpy(out, crash.head, h);
	n = h;
	while (nd)
		out[n++] = digits[--nd];
	memcpy(out + n, crash.item, it);
	return n + it;
}

static void write_all(int fd, const char *s, size_t n)
{
	while (n > 0) {
		ssize_t w = write(fd, s, n);
		if (w <= 0)
			return;
		s += w;
		n -= (size_t)w;
	}
}

static void on_fatal_signal(int sig)
{
	size_t i = 0;
	while (i < NFATAL && fatal_signals[i] != sig)
		i++;
	if (crash.inside && !crash.reported) {
		crash.reported = 1;
		char line[900];
		size_t n = crash_line(sig, line, sizeof line);
		if (crash.log_fd >= 0)
			write_all(crash.log_fd, line, n);
		int fd = crash.marker[0] ? open(crash.marker, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600)
		                         : -1;
		if (fd >= 0) {
			write_all(fd, line, n);
			close(fd);
		}
	}
	/* The signal takes its course with the handler it had before (the
	 * default, a sanitizer's). */
	if (i < NFATAL)
		sigaction(sig, &crash.before[i], NULL);
	raise(sig);
}

static void install_guard(const struct config *cfg, const char *path, const char *name)
{
	snprintf(crash.head, sizeof crash.head,
	         "cms-api[%d]: error: the shape plug-in %s (%s) crashed this worker with signal ",
	         (int)getpid(), path, name);
	snprintf(crash.marker, sizeof crash.marker, "%s/shape-crash.%d",
	         cfg->cache_dir ? cfg->cache_dir : "", (int)getpid());
	if (!cfg->cache_dir || !*cfg->cache_dir)
		crash.marker[0] = '\0';
	crash.log_fd = log_file_fd();
	if (crash.log_fd < 0 && strcmp(cfg->log_target ? cfg->log_target : "", "stderr") == 0)
		crash.log_fd = STDERR_FILENO;
	crash.inside = 0;
	crash.reported = 0;
	/* A stack of its own: a plug-in that overflowed its stack leaves none. */
	size_t size = (size_t)SIGSTKSZ * 4;
	crash.altstack = crash.altstack ? crash.altstack : xmalloc(size);
	stack_t ss = {.ss_sp = crash.altstack, .ss_size = size, .ss_flags = 0};
	sigaltstack(&ss, NULL);
	struct sigaction sa;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_fatal_signal;
	sigemptyset(&sa.sa_mask);
	sa.sa_flags = SA_ONSTACK | SA_NODEFER;
	for (size_t i = 0; i < NFATAL; i++)
		sigaction(fatal_signals[i], &sa, &crash.before[i]);
}

static void remove_guard(void)
{
	for (size_t i = 0; i < NFATAL; i++)
		sigaction(fatal_signals[i], &crash.before[i], NULL);
	crash.inside = 0;
}

size_t shape_plugin_report_crashes(const char *dir)
{
	DIR *d = dir && *dir ? opendir(dir) : NULL;
	if (!d)
		return 0;
	size_t n = 0;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (strncmp(e->d_name, "shape-crash.", 12) != 0)
			continue;
		struct strbuf path = STRBUF_INIT, line = STRBUF_INIT;
		strbuf_addf(&path, "%s/%s", dir, e->d_name);
		FILE *f = fopen(path.ptr, "re");
		char chunk[512];
		size_t got;
		while (f && (got = fread(chunk, 1, sizeof chunk, f)) > 0)
			strbuf_add(&line, chunk, got);
		if (f)
			fclose(f);
		while (line.len && line.ptr[line.len - 1] == '\n')
			line.ptr[--line.len] = '\0';
		/* Whoever reads it first says it, once. */
		if (unlink(path.ptr) == 0 && line.len) {
			log_error("a worker ended in a shape plug-in: %s", line.ptr);
			n++;
		}
		strbuf_release(&path);
		strbuf_release(&line);
	}
	closedir(d);
	return n;
}

/* --- loading --- */

/* The plug-in's table, checked; NULL with the reason in error. */
static const struct cms_api_shape *find_table(void *handle, const char *path, char *error,
                                              size_t size)
{
	static const struct plugin_kind kind = {"shape plug-in", CMS_API_SHAPE_SYMBOL,
	                                        CMS_API_SHAPE_ABI_VERSION, "<cms-api/shape.h>"};
	const struct cms_api_shape *t = plugin_table(&kind, handle, path, error, size);
	if (!t)
		return NULL;
	const char *missing = !t->name ? "name" : !t->init ? "init" : !t->rewrite ? "rewrite" : NULL;
	if (missing) {
		say(error, size, "%s: the plug-in's table has no %s", path, missing);
		return NULL;
	}
	return t;
}

static void *init_plugin(const struct cms_api_shape *t, const struct config *cfg, char *error,
                         size_t size)
{
	struct cms_api_shape_option *options =
		xmalloc((cfg->nshape_options + 1) * sizeof *options);
	for (size_t i = 0; i < cfg->nshape_options; i++)
		options[i] = (struct cms_api_shape_option){cfg->shape_options[i].key,
		                                           cfg->shape_options[i].value};
	char why[CONFIG_ERR_LEN] = "";
	void *state = t->init(options, cfg->nshape_options, why, sizeof why);
	free(options);
	why[sizeof why - 1] = '\0';
	if (!state)
		say(error, size, "%s (%s) cannot start: %s", cfg->shape_plugin_path, t->name,
		    *why ? why : "its init gave no reason");
	return state;
}

int shape_plugin_load(const struct config *cfg, bool guard, struct shape_plugin *p, char *error,
                      size_t error_size)
{
	memset(p, 0, sizeof *p);
	const char *path = cfg->shape_plugin_path;
	if (!path || path[0] != '/') {
		say(error, error_size, "a shape plug-in is named by its absolute path, not %s",
		    path ? path : "(none)");
		return -1;
	}
	void *handle = plugin_open(path, error, error_size);
	if (!handle)
		return -1;
	const struct cms_api_shape *t = find_table(handle, path, error, error_size);
	void *state = t ? init_plugin(t, cfg, error, error_size) : NULL;
	if (!state) {
		dlclose(handle);
		return -1;
	}
	*p = (struct shape_plugin){handle, t, state, xstrdup(path), guard};
	if (guard)
		install_guard(cfg, path, t->name);
	return 0;
}

void shape_plugin_unload(struct shape_plugin *p)
{
	if (p->guard)
		remove_guard();
	if (p->table && p->table->free && p->state)
		p->table->free(p->state);
	if (p->handle)
		dlclose(p->handle);
	free(p->path);
	memset(p, 0, sizeof *p);
}

/* --- calling --- */

static void append_to_strbuf(void *sink, const void *bytes, size_t len)
{
	strbuf_add(sink, bytes, len);
}

int shape_plugin_call(struct shape_plugin *p, const char *type, const char *handle,
                      const char *json, size_t json_len, struct strbuf *out)
{
	struct cms_api_shape_item item = {type, handle ? handle : "", json, json_len};
	snprintf(crash.item, sizeof crash.item, " while rewriting an item of %s%s%s\n", type,
	         handle && *handle ? " " : "", handle ? handle : "");
	crash.inside = 1;
	int rc = p->table->rewrite(p->state, &item, append_to_strbuf, out);
	crash.inside = 0;
	return rc;
}
