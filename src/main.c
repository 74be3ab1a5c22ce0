/*
 * cms-api: the command line (spec §2). Without a command it is a FastCGI
 * worker (or answers one CGI request); `get` answers one request
 * in-process; `check` validates the config and the whole site.
 */
#include "autoconfig.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "app.h"
#include "log.h"
#include "server.h"
#include "strbuf.h"

/* Exit statuses beyond success/failure: a config that cannot be used. */
#define EXIT_CONFIG 2

static double seconds_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void print_usage(FILE *out)
{
	fprintf(out,
	        "Usage: cms-api [-c FILE] [COMMAND]\n"
	        "\n"
	        "A read-only JSON API for a Statamic flat-file site, run as FastCGI workers.\n"
	        "\n"
	        "Commands:\n"
	        "  (none)        serve: accept FastCGI requests on fd 0 as handed over by the\n"
	        "                spawner (lighttpd, spawn-fcgi, mod_fcgid), or answer one CGI\n"
	        "                request from the environment\n"
	        "  get PATH      answer one GET request for PATH (e.g. '/api/ping') in-process and\n"
	        "                print status, headers and body; exits 1 for a 4xx or 5xx answer\n"
	        "  check         validate the config and every file of the site; print each\n"
	        "                problem as path:line: message; exits 1 when there is one\n"
	        "  warm          build the shared index snapshot in the cache directory now,\n"
	        "                so that workers start answering at once\n"
	        "\n"
	        "Options:\n"
	        "  -c, --config FILE  the INI file (default: $CMS_API_CONFIG, else %s/cms-api.ini)\n"
	        "  -h, --help         show this help\n"
	        "  -V, --version      show the version\n"
	        "\n"
	        "Exit status: 0 success, 1 failure, 2 unusable configuration.\n",
	        SYSCONFDIR);
}

/* A config that cannot be used: said on stderr, and for a worker (whose
 * stderr is often /dev/null) also where the file says to log, else to
 * syslog, so that an operator finds why the workers keep exiting. */
static void report_config_error(const char *command, const char *path, const char *err)
{
	fprintf(stderr, "%s\n", err);
	if (command)
		return;
	char *target;
	enum log_level level;
	config_log_settings(path, &target, &level);
	if (strcmp(target, "stderr") != 0) {
		log_open(target, level);
		log_error("cannot start: %s", err);
		log_close();
	}
	free(target);
}

/* Loads the config, opens the log where it says (a worker) or on stderr
 * (a command talking to a terminal), then the site: the log is open
 * before anything (the watcher's fork, a fallback) has to say something. */
static int open_app(struct app *app, const char *command, const char *config_path,
                    enum app_mode mode)
{
	char err[CONFIG_ERR_LEN];
	const char *path = config_find_path(config_path);
	struct config cfg;
	if (config_load(&cfg, path, err) != 0) {
		report_config_error(command, path, err);
		return -1;
	}
	log_open(command ? "stderr" : cfg.log_target, cfg.log_level);
	app_open_with_config(app, &cfg, mode);
	return 0;
}

static int command_get(struct app *app, const char *uri)
{
	struct request req;
	struct response res;
	struct strbuf out = STRBUF_INIT;
	request_from_uri(&req, "GET", uri);
	response_init(&res);
	app_handle(app, &req, &res);
	response_render(&res, true, "\n", &out);
	fwrite(out.ptr, 1, out.len, stdout);
	fputc('\n', stdout);
	app_finish(app, &res);
	int rc = res.status < 400 ? EXIT_SUCCESS : EXIT_FAILURE;
	strbuf_release(&out);
	response_free(&res);
	request_free(&req);
	return rc;
}

static int command_check(struct app *app)
{
	struct strbuf report = STRBUF_INIT;
	size_t problems = snapshot_report(app->snap, app->cfg.content_root, &report);
	/* Warnings are printed but do not fail the check. */
	fputs(strbuf_str(&report), stdout);
	fflush(stdout);
	strbuf_release(&report);
	if (problems) {
		fprintf(stderr, "%zu problem%s found\n", problems, problems == 1 ? "" : "s");
		return EXIT_FAILURE;
	}
	const struct snapshot *s = app->snap;
	uint32_t sites = snap_site_count(s), collections = snap_collection_count(s),
	         entries = snap_entry_count(s);
	printf("ok: %s: %u site%s, %u collection%s, %u entr%s\n", app->cfg.content_root, sites,
	       sites == 1 ? "" : "s", collections, collections == 1 ? "" : "s", entries,
	       entries == 1 ? "y" : "ies");
	return EXIT_SUCCESS;
}

static int command_warm(struct app *app, double started)
{
	if (app->mode == APP_PRIVATE) {
		fprintf(stderr, "cms-api: cache directory %s is not usable: nothing to warm\n",
		        app->cfg.cache_dir);
		return EXIT_FAILURE;
	}
	char *path = shared_snapshot_path(&app->paths, app->generation);
	printf("index: generation %llu, %u entries, %.1f MiB in %s, ready in %.2f s\n",
	       (unsigned long long)app->generation, snap_entry_count(app->snap),
	       (double)snapshot_size(app->snap) / (1024.0 * 1024.0), path, seconds_now() - started);
	free(path);
	return EXIT_SUCCESS;
}

/* Workers share the index through the cache directory; a FastCGI worker
 * also makes sure a watcher notices changes. */
static enum app_mode mode_for(const char *command)
{
	if (!command)
		return server_is_fastcgi() ? APP_SHARED_WATCH : APP_SHARED;
	return strcmp(command, "warm") == 0 ? APP_SHARED : APP_PRIVATE;
}

static int command_serve(struct app *app)
{
	if (server_is_fastcgi())
		return server_run_fastcgi(app);
	if (server_is_cgi())
		return server_run_cgi(app);
	fprintf(stderr, "cms-api: not started by a FastCGI spawner and no CGI request in the "
	                "environment.\nTry 'cms-api get /api/ping' or 'cms-api --help'.\n");
	return EXIT_CONFIG;
}

int main(int argc, char **argv)
{
	static const struct option options[] = {
		{"config", required_argument, NULL, 'c'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{NULL, 0, NULL, 0},
	};
	const char *config_path = NULL;
	int opt;
	while ((opt = getopt_long(argc, argv, "+c:hV", options, NULL)) != -1) {
		switch (opt) {
		case 'c':
			config_path = optarg;
			break;
		case 'h':
			print_usage(stdout);
			return EXIT_SUCCESS;
		case 'V':
			printf("cms-api %s\n", PACKAGE_VERSION);
			return EXIT_SUCCESS;
		default:
			print_usage(stderr);
			return EXIT_CONFIG;
		}
	}
	const char *command = optind < argc ? argv[optind] : NULL;
	if (command && strcmp(command, "get") != 0 && strcmp(command, "check") != 0 &&
	    strcmp(command, "warm") != 0) {
		fprintf(stderr, "cms-api: unknown command '%s'\n", command);
		print_usage(stderr);
		return EXIT_CONFIG;
	}
	if (command && strcmp(command, "get") == 0 && optind + 2 != argc) {
		fprintf(stderr, "cms-api: usage: cms-api get PATH\n");
		return EXIT_CONFIG;
	}

	/* A serving worker started without a FastCGI socket or CGI request
	 * says so before reading anything. */
	if (!command && !server_is_fastcgi() && !server_is_cgi())
		return command_serve(NULL);
	double started = seconds_now();
	struct app app;
	if (open_app(&app, command, config_path, mode_for(command)) != 0)
		return EXIT_CONFIG;

	int rc;
	if (!command)
		rc = command_serve(&app);
	else if (strcmp(command, "get") == 0)
		rc = command_get(&app, argv[optind + 1]);
	else if (strcmp(command, "warm") == 0)
		rc = command_warm(&app, started);
	else
		rc = command_check(&app);
	app_close(&app);
	log_close();
	return rc;
}
