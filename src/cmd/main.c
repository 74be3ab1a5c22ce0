/*
 * cms-api: the command line (spec §2, cli.h). Without a command it is a
 * FastCGI worker (or answers one CGI request), or with -n a pool of them
 * (pool.h); `get` answers one request in-process; `check` validates the
 * config and the whole site; `warm` builds the shared index; `token`
 * creates, lists and revokes per-user API tokens (tokens.h); `cache`
 * prints the response cache's counts or clears it (cache_admin.h).
 */
#include "autoconfig.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "api/api.h"
#include "app/app.h"
#include "cache/cache_admin.h"
#include "cache/cache_plugin.h"
#include "api/shape_plugin.h"
#include "query/filter.h"
#include "change/shared.h"
#include "cmd/cli.h"
#include "core/buildinfo.h"
#include "core/log.h"
#include "guard/abilities.h"
#include "guard/tokens.h"
#include "lib/progress.h"
#include "lib/publish.h"
#include "lib/strbuf.h"
#include "server/listen.h"
#include "server/pool.h"
#include "server/server.h"
#include "site/people.h"

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
	        "       cms-api [-c FILE] -n N [--listen PATH|[HOST:]PORT]\n"
	        "\n"
	        "A read-only JSON API for a Statamic flat-file site, run as FastCGI workers.\n"
	        "\n"
	        "Commands:\n"
	        "  (none)        serve: accept FastCGI requests on fd 0 as handed over by the\n"
	        "                spawner (lighttpd, spawn-fcgi, mod_fcgid), or answer one CGI\n"
	        "                request from the environment; with -n, a pool of workers\n"
	        "  get PATH      answer one GET request for PATH (e.g. '/api/ping') in-process and\n"
	        "                print status, headers and body; exits 1 for a 4xx or 5xx answer\n"
	        "  openapi       print the OpenAPI 3.1 document of the API the config makes\n"
	        "                (what /api/openapi.json answers with [api] openapi = true),\n"
	        "                whether or not it is served: for generating a typed client\n"
	        "  check         validate the config and every file of the site; print each\n"
	        "                problem as path:line: message; exits 1 when there is one\n"
	        "  warm          build the shared index snapshot in the cache directory now,\n"
	        "                so that workers start answering at once\n"
	        "  token create USER NAME [--abilities LIST] [--expires WHEN]\n"
	        "                make a per-user API token for USER (a user id or e-mail of the\n"
	        "                site) in the [auth] database and print it, once, as ID|SECRET;\n"
	        "                LIST: comma-separated abilities, * (default), a resource type\n"
	        "                (collections, navs, taxonomies, globals, forms, assets, users,\n"
	        "                sites) or type:handle (collections:blog); WHEN: a duration\n"
	        "                (30d, 12h, 90m, 3600s) or a UTC date (2030-01-31,\n"
	        "                2030-01-31T12:00:00Z); without it the token never expires\n"
	        "  token list    list the tokens (never their secrets)\n"
	        "  token revoke ID\n"
	        "                delete the token ID: requests carrying it get 401 at once\n"
	        "  cache stats   print the response cache's driver, entries and bytes of the\n"
	        "                current generation, and hits and misses since the counters\n"
	        "                started\n"
	        "  cache clear   remove every cached answer of the site and start the\n"
	        "                counters again\n"
	        "\n"
	        "Options:\n"
	        "  -c, --config FILE  the INI file (default: $CMS_API_CONFIG, else %s/cms-api.ini)\n"
	        "  -n, --workers N    run a pool of N workers (1 to %d) on the listening socket\n"
	        "                     on fd 0 (spawn-fcgi without -F, systemd StandardInput=socket)\n"
	        "                     or on --listen's; restarts those that die, replaces each\n"
	        "                     after [server] max_requests; SIGHUP reloads the config\n"
	        "      --listen PATH|[HOST:]PORT\n"
	        "                     make the pool's socket: a unix socket (mode 0660, removed\n"
	        "                     at exit) or TCP (HOST defaults to 127.0.0.1); implies -n 1\n"
	        "  -h, --help         show this help\n"
	        "  -V, --version      show the version and the build's features\n"
	        "\n"
	        "Exit status: 0 success, 1 failure, 2 unusable configuration or usage.\n",
	        SYSCONFDIR, POOL_MAX_WORKERS);
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

/* Loads the config for a command, reporting why it cannot be used.
 * Returns 0, or -1 (said) with cfg holding nothing. */
static int load_config(struct config *cfg, const char *command, const char *config_path)
{
	char err[CONFIG_ERR_LEN];
	const char *path = config_find_path(config_path);
	if (config_load(cfg, path, err) != 0) {
		report_config_error(command, path, err);
		return -1;
	}
	return 0;
}

/* Whether a command reads the whole site, worth a counter on a terminal. */
static bool reads_site(const char *command)
{
	return strcmp(command, "check") == 0 || strcmp(command, "warm") == 0;
}

/* Loads the config, logs on stderr (a command talks to a terminal), then
 * opens the site with a counter of the files read when it is worth one:
 * the log is open before anything (a fallback) has to say something. */
static int open_app(struct app *app, const char *command, const char *config_path,
                    enum app_mode mode, unsigned long *files_read)
{
	struct config cfg;
	if (load_config(&cfg, command, config_path) != 0)
		return -1;
	log_open("stderr", cfg.log_level);
	bool counted = reads_site(command);
	if (counted) {
		struct strbuf label = STRBUF_INIT;
		strbuf_addf(&label, "reading %s", cfg.content_root);
		progress_begin(stderr, label.ptr, false);
		strbuf_release(&label);
	}
	app_open_with_config(app, &cfg, mode);
	*files_read = counted ? progress_end() : 0;
	return 0;
}

static int command_get(struct app *app, const char *uri)
{
	struct request req;
	struct response res;
	struct strbuf out = STRBUF_INIT;
	struct exchange x;
	request_from_uri(&req, "GET", uri);
	response_init(&res);
	exchange_init(&x);
	exchange_begin(&x, &req, &res);
	app_handle(app, &x);
	response_render(&res, true, "\n", &out);
	fwrite(out.ptr, 1, out.len, stdout);
	fputc('\n', stdout);
	app_finish(app, &x);
	exchange_free(&x);
	int rc = res.status < 400 ? EXIT_SUCCESS : EXIT_FAILURE;
	strbuf_release(&out);
	response_free(&res);
	request_free(&req);
	return rc;
}

/* Prints the OpenAPI document of app's config (api/openapi.c), served or
 * not: the handler itself, called as the route would call it, with
 * [api] base_url (else http://localhost) for the server's URL. */
static int command_openapi(struct app *app)
{
	struct request req;
	struct response res;
	struct http_error error = HTTP_ERROR_INIT;
	struct strbuf base = STRBUF_INIT, api_base = STRBUF_INIT;
	request_from_uri(&req, "GET", "/");
	response_init(&res);
	app->cfg.openapi = true;
	strbuf_addstr(&base, *app->cfg.base_url ? app->cfg.base_url : "http://localhost");
	strbuf_addf(&api_base, "%s%s%s", base.ptr, *app->cfg.route ? "/" : "", app->cfg.route);
	struct api_ctx ctx = {.cfg = &app->cfg, .snap = app->follow.snap, .req = &req, .res = &res,
	                      .error = &error};
	ctx.env = (struct jsonw_env){base.ptr, api_base.ptr, api_write_ref, &ctx};
	int rc = api_openapi(&ctx) == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
	if (rc == EXIT_SUCCESS)
		printf("%s\n", strbuf_str(&res.body));
	strbuf_release(&base);
	strbuf_release(&api_base);
	http_error_free(&error);
	response_free(&res);
	request_free(&req);
	return rc;
}

/* "ROOT: N sites, N collections, N entries", the start of both summaries. */
static void add_site_counts(const struct app *app, struct strbuf *out)
{
	const struct snapshot *s = app->follow.snap;
	uint32_t sites = snap_site_count(s), collections = snap_collection_count(s),
	         entries = snap_entry_count(s);
	strbuf_addf(out, "%s: %u site%s, %u collection%s, %u entr%s", app->cfg.content_root, sites,
	            sites == 1 ? "" : "s", collections, collections == 1 ? "" : "s", entries,
	            entries == 1 ? "y" : "ies");
}

/* A plug-in cache driver ([cache] driver = /path.so) is loaded and
 * unloaded again, its init judging its options: one that cannot start is
 * a problem ("file:line: [cache] driver: why"), since workers would
 * answer uncached. Returns the number of problems; *name is the driver's
 * name when it loaded (NULL when there is no plug-in). */
static size_t check_cache_driver(const struct config *cfg, struct strbuf *report, char **name)
{
	*name = NULL;
	if (!config_caches(cfg) || cfg->cache_driver != CACHE_PLUGIN)
		return 0;
	struct cache_plugin p;
	char error[CONFIG_ERR_LEN];
	if (cache_plugin_load(cfg, &p, error, sizeof error) != 0) {
		strbuf_addf(report, "%s:%d: [cache] driver: %s\n", cfg->path, cfg->cache_plugin_line,
		            error);
		return 1;
	}
	*name = xstrdup(p.driver->name);
	cache_plugin_unload(&p);
	return 0;
}

/* Warns of each [icons] folder that cannot be listed: the fields of its
 * set answer their icons' names, which no worker would say. */
static void check_icon_folders(const struct config *cfg, struct strbuf *report)
{
	for (size_t i = 0; i < cfg->nicon_sets; i++) {
		const struct icon_set *set = &cfg->icon_sets[i];
		DIR *d = opendir(set->folder);
		if (d) {
			closedir(d);
			continue;
		}
		strbuf_addf(report, "%s: warning: [icons] %s: %s: %s; its icon fields answer names\n",
		            cfg->path ? cfg->path : "(defaults)", set->name, set->folder,
		            strerror(errno));
	}
}

/* What the config's [scope.*] and [shape] sections ask of the workers:
 * each scope's filters must parse (a request naming the scope would
 * otherwise get their 400), and the shape plug-in must load and start
 * ("file:line: [shape] plugin: why"). Returns the number of problems. */
static size_t check_shapes(const struct config *cfg, struct strbuf *report)
{
	size_t problems = 0;
	struct regex_budget budget;
	regex_budget_init(&budget, 0);
	for (size_t i = 0; i < cfg->nscopes; i++) {
		const struct scope_def *s = &cfg->scopes[i];
		for (size_t k = 0; k < s->nfilters; k++) {
			struct filter f;
			char err[FILTER_ERR_LEN];
			if (filter_parse(s->filters[k].key, s->filters[k].value, 0, &budget, &f, err) != 0) {
				strbuf_addf(report, "%s:%d: [scope.%s] %s\n", cfg->path, s->line, s->name, err);
				problems++;
			} else {
				filter_free(&f);
			}
		}
	}
	if (!cfg->shape_plugin_path)
		return problems;
	struct shape_plugin p;
	char error[CONFIG_ERR_LEN];
	if (shape_plugin_load(cfg, false, &p, error, sizeof error) != 0) {
		strbuf_addf(report, "%s:%d: [shape] plugin: %s\n", cfg->path, cfg->shape_plugin_line,
		            error);
		return problems + 1;
	}
	shape_plugin_unload(&p);
	return problems;
}

static int command_check(struct app *app)
{
	struct strbuf report = STRBUF_INIT;
	char *driver;
	size_t problems = check_cache_driver(&app->cfg, &report, &driver);
	problems += check_shapes(&app->cfg, &report);
	problems += snapshot_report(app->follow.snap, app->cfg.content_root, &report);
	/* The cache driver's own [cache] keys, which the config leaves to it. */
	char cache_error[1024], cache_warning[1024];
	if (cache_admin_check(&app->cfg, cache_error, sizeof cache_error, cache_warning,
	                      sizeof cache_warning) != 0) {
		strbuf_addf(&report, "%s\n", cache_error);
		problems++;
	} else if (*cache_warning) {
		strbuf_addf(&report, "%s\n", cache_warning);
	}
	/* Where the workers share their index and cache answers: they answer
	 * without it, but slower and uncached, and make install does not
	 * make it. */
	char dir_problem[1024];
	shared_dir_problem(&app->cfg, dir_problem, sizeof dir_problem);
	if (*dir_problem)
		strbuf_addf(&report, "%s: warning: %s\n", app->cfg.path ? app->cfg.path : "(defaults)",
		            dir_problem);
	check_icon_folders(&app->cfg, &report);
	/* Warnings are printed but do not fail the check. */
	fputs(strbuf_str(&report), stdout);
	fflush(stdout);
	strbuf_release(&report);
	if (problems) {
		fprintf(stderr, "%zu problem%s found\n", problems, problems == 1 ? "" : "s");
		free(driver);
		return EXIT_FAILURE;
	}
	struct strbuf summary = STRBUF_INIT;
	add_site_counts(app, &summary);
	if (driver)
		strbuf_addf(&summary, "; cache driver %s (%s)", driver, app->cfg.cache_plugin_path);
	free(driver);
	printf("ok: %s\n", summary.ptr);
	strbuf_release(&summary);
	return EXIT_SUCCESS;
}

static int command_warm(struct app *app, double started, unsigned long files_read)
{
	if (app->follow.mode == FOLLOW_PRIVATE) {
		fprintf(stderr, "cms-api: cache directory %s is not usable: nothing to warm\n",
		        app->cfg.cache_dir);
		return EXIT_FAILURE;
	}
	char *path = shared_snapshot_path(&app->follow.paths, app->follow.generation);
	struct strbuf summary = STRBUF_INIT;
	add_site_counts(app, &summary);
	/* No file read: the snapshot of the generation was there already. */
	printf("ok: %s; index generation %llu, %.1f MiB, in %s, %s in %.2f s\n", summary.ptr,
	       (unsigned long long)app->follow.generation,
	       (double)snapshot_size(app->follow.snap) / (1024.0 * 1024.0), path,
	       files_read ? "built" : "found", seconds_now() - started);
	strbuf_release(&summary);
	free(path);
	return EXIT_SUCCESS;
}

/* --- token: the per-user API tokens ------------------------------------ */

struct token_create_args {
	const char *user, *name;
	const char *abilities; /* comma-separated */
	const char *expires;   /* NULL: never */
};

static int token_usage_error(const char *message)
{
	fprintf(stderr, "cms-api: %s\n"
	                "usage: cms-api token create USER NAME [--abilities LIST] [--expires WHEN]\n"
	                "       cms-api token list\n"
	                "       cms-api token revoke ID\n", message);
	return EXIT_CONFIG;
}

/* "--name VALUE" or "--name=VALUE" at argv[*i]; moves *i past it. */
static bool option_value(int argc, char **argv, int *i, const char *name, const char **value)
{
	size_t n = strlen(name);
	if (strncmp(argv[*i], name, n) != 0)
		return false;
	if (argv[*i][n] == '=') {
		*value = argv[*i] + n + 1;
		return true;
	}
	if (argv[*i][n] != '\0' || *i + 1 >= argc)
		return false;
	*value = argv[++*i];
	return true;
}

static int parse_create_args(int argc, char **argv, struct token_create_args *a)
{
	const char *positional[2];
	int npositional = 0;
	*a = (struct token_create_args){NULL, NULL, "*", NULL};
	for (int i = 0; i < argc; i++) {
		if (option_value(argc, argv, &i, "--abilities", &a->abilities) ||
		    option_value(argc, argv, &i, "--expires", &a->expires))
			continue;
		if (argv[i][0] == '-' || npositional == 2)
			return -1;
		positional[npositional++] = argv[i];
	}
	if (npositional != 2 || !*positional[0] || !*positional[1])
		return -1;
	a->user = positional[0];
	a->name = positional[1];
	return 0;
}

/* The id of the site's user named by who (an id or an e-mail), or NULL
 * (said on stderr). Reads the whole site, as a worker would. */
static char *site_user_id(struct config *cfg, const char *who)
{
	struct app app;
	struct strbuf id = STRBUF_INIT;
	app_open_with_config(&app, cfg, APP_PRIVATE);
	bool found = users_find(snap_extras(app.follow.snap, "users"), who, true, &id);
	if (!found)
		fprintf(stderr, "cms-api: '%s' is not a user of the site in %s (neither the id nor "
		        "the e-mail of a file in users/): a token belongs to a user\n", who,
		        app.cfg.content_root);
	app_close(&app);
	if (!found) {
		strbuf_release(&id);
		return NULL;
	}
	return strbuf_detach(&id, NULL);
}

/* Writes "ID|SECRET\n" to standard output with write(2), not stdio: no
 * copy of the secret is left in stdio's buffer, and a failure is known
 * while the token can still be revoked. Returns 0, or -1 with errno set. */
static int show_secret(long long id, const char *secret)
{
	char line[32 + TOKEN_SECRET_LEN];
	int n = snprintf(line, sizeof line, "%lld|%s\n", id, secret);
	int rc = fflush(stdout) == 0 ? publish_write_all(STDOUT_FILENO, line, (size_t)n) : -1;
	int saved = errno;
	explicit_bzero(line, sizeof line);
	errno = saved;
	return rc;
}

/* Stores a new token in db and shows its secret, once. A token whose
 * secret could not be shown (a full disk, a closed output) is revoked at
 * once: nobody could ever use it, and it would look like one in use.
 * Returns EXIT_SUCCESS, or EXIT_FAILURE having said why. */
static int create_and_show(struct token_db *db, const char *owner, const char *name,
                           const char *abilities_json, long long now, long long expires_at)
{
	char err[TOKEN_ERR_LEN], secret[TOKEN_SECRET_LEN + 1];
	long long id;
	if (token_db_create(db, owner, name, abilities_json, now, expires_at, &id, secret,
	                    err) != 0) {
		fprintf(stderr, "cms-api: %s\n", err);
		return EXIT_FAILURE;
	}
	int shown = show_secret(id, secret);
	int saved = errno;
	explicit_bzero(secret, sizeof secret);
	if (shown != 0) {
		fprintf(stderr, "cms-api: cannot write the new token to standard output (%s): ",
		        strerror(saved));
		if (token_db_revoke(db, id, err) == 1)
			fprintf(stderr, "token %lld revoked, since nobody could use it\n", id);
		else
			fprintf(stderr, "token %lld is stored but cannot be revoked (%s): revoke it "
			        "with 'cms-api token revoke %lld'\n", id, err, id);
		return EXIT_FAILURE;
	}
	fprintf(stderr, "Token %lld of %s%s: it is not shown again. Send it as the header "
	        "'Authorization: Bearer %lld|...'\n", id, owner,
	        expires_at && expires_at <= now ? " (already expired)" : "", id);
	return EXIT_SUCCESS;
}

static int token_create(struct config *cfg, int argc, char **argv)
{
	struct token_create_args a;
	if (parse_create_args(argc, argv, &a) != 0)
		return token_usage_error("token create takes USER NAME and the options");
	struct abilities abilities;
	char why[ABILITIES_ERR_LEN];
	abilities_init(&abilities);
	long long now = (long long)time(NULL), expires_at = 0;
	int rc = EXIT_CONFIG;
	if (abilities_parse_list(&abilities, a.abilities, why) != 0) {
		fprintf(stderr, "cms-api: --abilities: %s\n", why);
	} else if (a.expires && token_parse_expiry(a.expires, now, &expires_at) != 0) {
		fprintf(stderr, "cms-api: --expires: '%s' is neither a duration (30d, 12h, 90m, 3600s) "
		        "nor a UTC date (2030-01-31, 2030-01-31T12:00:00Z)\n", a.expires);
	} else {
		char *path = xstrdup(cfg->auth_database);
		char *owner = site_user_id(cfg, a.user); /* takes cfg */
		rc = EXIT_FAILURE;
		if (owner) {
			struct strbuf json = STRBUF_INIT;
			abilities_to_json(&abilities, &json);
			char err[TOKEN_ERR_LEN];
			struct token_db *db = token_db_open(path, err);
			if (db)
				rc = create_and_show(db, owner, a.name, json.ptr, now, expires_at);
			else
				fprintf(stderr, "cms-api: %s\n", err);
			token_db_close(db);
			strbuf_release(&json);
			free(owner);
		}
		free(path);
	}
	abilities_free(&abilities);
	return rc;
}

/* The tokens as a table: every cell collected first, for the widths. */
#define TOKEN_COLUMNS 7

struct token_table {
	struct strlist cells; /* row after row, TOKEN_COLUMNS each */
	long long now;
};

static void add_time(struct strlist *cells, long long t, long long now, bool is_expiry)
{
	char text[64] = "never";
	if (t) {
		time_t tt = (time_t)t;
		struct tm tm;
		gmtime_r(&tt, &tm);
		strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%SZ", &tm);
		if (is_expiry && t <= now)
			strcat(text, " (expired)");
	}
	strlist_add(cells, text);
}

static void add_token_row(const struct token_row *row, void *ctx)
{
	struct token_table *table = ctx;
	struct abilities abilities;
	struct strbuf text = STRBUF_INIT;
	strbuf_addf(&text, "%lld", row->id);
	strlist_add(&table->cells, text.ptr);
	strlist_add(&table->cells, row->owner);
	strlist_add(&table->cells, row->name);
	abilities_init(&abilities);
	/* What a worker grants: nothing for a list it cannot read (tokens.h). */
	bool readable = abilities_from_json(&abilities, row->abilities) == 0;
	strbuf_reset(&text);
	for (size_t i = 0; i < abilities.items.len; i++)
		strbuf_addf(&text, "%s%s", i ? "," : "", abilities.items.items[i]);
	strlist_add(&table->cells, !readable             ? "(unreadable)"
	                           : abilities.items.len ? text.ptr
	                                                 : "(none)");
	abilities_free(&abilities);
	strbuf_release(&text);
	add_time(&table->cells, row->created_at, table->now, false);
	add_time(&table->cells, row->last_used_at, table->now, false);
	add_time(&table->cells, row->expires_at, table->now, true);
}

static void print_table(const struct strlist *cells)
{
	size_t width[TOKEN_COLUMNS] = {0};
	for (size_t i = 0; i < cells->len; i++) {
		size_t n = strlen(cells->items[i]);
		if (n > width[i % TOKEN_COLUMNS])
			width[i % TOKEN_COLUMNS] = n;
	}
	for (size_t i = 0; i < cells->len; i++) {
		bool last = i % TOKEN_COLUMNS == TOKEN_COLUMNS - 1;
		printf("%-*s%s", last ? 0 : (int)width[i % TOKEN_COLUMNS], cells->items[i],
		       last ? "\n" : "  ");
	}
}

static int token_list(struct config *cfg, int argc)
{
	static const char *const heading[TOKEN_COLUMNS] = {
		"ID", "OWNER", "NAME", "ABILITIES", "CREATED", "LAST USED", "EXPIRES"};
	if (argc != 0)
		return token_usage_error("token list takes no arguments");
	char err[TOKEN_ERR_LEN];
	struct token_db *db = token_db_open(cfg->auth_database, err);
	struct token_table table = {{NULL, 0}, (long long)time(NULL)};
	for (int i = 0; i < TOKEN_COLUMNS; i++)
		strlist_add(&table.cells, heading[i]);
	long n = db ? token_db_list(db, add_token_row, &table, err) : -1;
	if (n < 0)
		fprintf(stderr, "cms-api: %s\n", err);
	else if (n == 0)
		printf("no tokens in %s\n", cfg->auth_database);
	else
		print_table(&table.cells);
	strlist_free(&table.cells);
	token_db_close(db);
	return n < 0 ? EXIT_FAILURE : EXIT_SUCCESS;
}

static int token_revoke(struct config *cfg, int argc, char **argv)
{
	char *end;
	long long id = argc == 1 ? strtoll(argv[0], &end, 10) : 0;
	if (argc != 1 || id <= 0 || *end || argv[0][0] < '0' || argv[0][0] > '9')
		return token_usage_error("token revoke takes the id of one token");
	char err[TOKEN_ERR_LEN];
	struct token_db *db = token_db_open(cfg->auth_database, err);
	int revoked = db ? token_db_revoke(db, id, err) : -1;
	token_db_close(db);
	if (revoked < 0) {
		fprintf(stderr, "cms-api: %s\n", err);
	} else if (revoked == 0) {
		fprintf(stderr, "cms-api: there is no token %lld in %s\n", id, cfg->auth_database);
	} else {
		printf("token %lld revoked\n", id);
		return EXIT_SUCCESS;
	}
	return EXIT_FAILURE;
}

/* token create|list|revoke: the config, and for create the site's users;
 * never the cache directory. */
static int command_token(const char *config_path, int argc, char **argv)
{
	if (argc < 1)
		return token_usage_error("token needs create, list or revoke");
	const char *sub = argv[0];
	if (strcmp(sub, "create") != 0 && strcmp(sub, "list") != 0 && strcmp(sub, "revoke") != 0)
		return token_usage_error("token needs create, list or revoke");
	struct config cfg;
	if (load_config(&cfg, "token", config_path) != 0)
		return EXIT_CONFIG;
	log_open("stderr", cfg.log_level);
	int rc;
	if (!*cfg.auth_database) {
		fprintf(stderr, "cms-api: %s: no [auth] database: set it to the file that keeps the "
		        "per-user tokens\n", cfg.path);
		rc = EXIT_CONFIG;
	} else if (strcmp(sub, "create") == 0) {
		rc = token_create(&cfg, argc - 1, argv + 1);
	} else if (strcmp(sub, "list") == 0) {
		rc = token_list(&cfg, argc - 1);
	} else {
		rc = token_revoke(&cfg, argc - 1, argv + 1);
	}
	config_free(&cfg);
	log_close();
	return rc;
}

/* cache stats|clear: the config and the cache directory (and Redis);
 * never the site. */
static int command_cache(const char *config_path, const char *sub)
{
	struct config cfg;
	if (load_config(&cfg, "cache", config_path) != 0)
		return EXIT_CONFIG;
	log_open("stderr", cfg.log_level);
	/* A Redis that closes the connection while a command is written must
	 * not end the command by a signal. */
	signal(SIGPIPE, SIG_IGN);
	int rc = strcmp(sub, "stats") == 0 ? cache_admin_stats(&cfg, stdout, stderr)
	                                   : cache_admin_clear(&cfg, stdout, stderr);
	config_free(&cfg);
	log_close();
	return rc == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

/* No command: a worker on the socket its spawner handed it on fd 0, or
 * one CGI request. argv is its command line, to start again with when
 * the configuration file changes. */
static int command_serve(const char *config_path, char *const *argv)
{
	bool fastcgi = server_is_fastcgi();
	if (!fastcgi && !server_is_cgi()) {
		fprintf(stderr, "cms-api: not started by a FastCGI spawner and no CGI request in the "
		                "environment.\nTry 'cms-api get /api/ping' or 'cms-api --help'.\n");
		return EXIT_CONFIG;
	}
	struct config cfg;
	if (load_config(&cfg, NULL, config_path) != 0)
		return EXIT_CONFIG;
	struct server_options opts = {0, -1, false, argv};
	return server_run(&cfg, fastcgi, &opts);
}

/* -n N: a pool on the socket handed over on fd 0, or on --listen's. The
 * config is read (and found good) before the socket is made. */
static int command_pool(const struct cli *cli)
{
	char err[LISTEN_ERR_LEN];
	struct listen_spec spec;
	if (cli->listen && listen_parse(cli->listen, &spec, err) != 0) {
		fprintf(stderr, "cms-api: %s\n", err);
		return EXIT_CONFIG;
	}
	if (!cli->listen && !listen_inherited()) {
		fprintf(stderr, "cms-api: -n: fd 0 is not a listening socket: start the pool from "
		                "spawn-fcgi (without -F) or systemd (StandardInput=socket), or give "
		                "it --listen PATH or --listen [HOST:]PORT\n");
		return EXIT_CONFIG;
	}
	listen_detach_stdio();
	const char *path = config_find_path(cli->config_path);
	struct config cfg;
	if (load_config(&cfg, NULL, cli->config_path) != 0)
		return EXIT_CONFIG;
	if (cli->listen && listen_open(&spec, err) != 0) {
		fprintf(stderr, "cms-api: %s\n", err);
		log_open(cfg.log_target, cfg.log_level);
		log_error("cannot start the pool: %s", err);
		log_close();
		config_free(&cfg);
		return EXIT_FAILURE;
	}
	struct pool_options opts = {cli->workers, path, cli->listen ? &spec : NULL};
	return pool_run(&opts, &cfg);
}

static int print_version(void)
{
	struct strbuf out = STRBUF_INIT;
	buildinfo_describe(&out);
	fputs(out.ptr, stdout);
	strbuf_release(&out);
	return EXIT_SUCCESS;
}

static int run(int argc, char **argv)
{
	struct cli cli;
	char err[CLI_ERR_LEN];
	if (cli_parse(argc, argv, &cli, err) != 0) {
		fprintf(stderr, "cms-api: %s\nTry 'cms-api --help'.\n", err);
		return EXIT_CONFIG;
	}
	if (cli.help) {
		print_usage(stdout);
		return EXIT_SUCCESS;
	}
	if (cli.version)
		return print_version();
	if (!cli.command)
		return cli.workers ? command_pool(&cli) : command_serve(cli.config_path, argv);
	if (strcmp(cli.command, "token") == 0)
		return command_token(cli.config_path, cli.nargs, cli.args);
	if (strcmp(cli.command, "cache") == 0)
		return command_cache(cli.config_path, cli.args[0]);

	double started = seconds_now();
	bool warm = strcmp(cli.command, "warm") == 0;
	struct app app;
	unsigned long files_read;
	if (open_app(&app, cli.command, cli.config_path, warm ? APP_SHARED : APP_PRIVATE,
	             &files_read) != 0)
		return EXIT_CONFIG;
	int rc;
	if (strcmp(cli.command, "get") == 0)
		rc = command_get(&app, cli.args[0]);
	else if (strcmp(cli.command, "openapi") == 0)
		rc = command_openapi(&app);
	else if (warm)
		rc = command_warm(&app, started, files_read);
	else
		rc = command_check(&app);
	app_close(&app);
	log_close();
	return rc;
}

/* rc, unless what the command printed did not all reach standard output
 * (a full disk, a closed descriptor): then a failure that says so, not a
 * success with half an answer (`cms-api get URI >file`, `token list`). */
static int checked_stdout(int rc)
{
	int saved = fflush(stdout) != 0 ? errno : 0;
	if (saved == 0 && !ferror(stdout))
		return rc;
	fprintf(stderr, "cms-api: cannot write to standard output%s%s\n", saved ? ": " : "",
	        saved ? strerror(saved) : "");
	return rc == EXIT_SUCCESS ? EXIT_FAILURE : rc;
}

int main(int argc, char **argv)
{
	return checked_stdout(run(argc, argv));
}
