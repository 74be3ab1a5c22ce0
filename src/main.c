/*
 * cms-api: the command line (spec §2). Without a command it is a FastCGI
 * worker (or answers one CGI request); `get` answers one request
 * in-process; `check` validates the config and the whole site; `token`
 * creates, lists and revokes per-user API tokens (tokens.h).
 */
#include "autoconfig.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "abilities.h"
#include "app.h"
#include "log.h"
#include "server.h"
#include "site/people.h"
#include "strbuf.h"
#include "tokens.h"

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
	        "\n"
	        "Options:\n"
	        "  -c, --config FILE  the INI file (default: $CMS_API_CONFIG, else %s/cms-api.ini)\n"
	        "  -h, --help         show this help\n"
	        "  -V, --version      show the version\n"
	        "\n"
	        "Exit status: 0 success, 1 failure, 2 unusable configuration or usage.\n",
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
	bool found = users_find(snap_extras(app.snap, "users"), who, true, &id);
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
			char err[TOKEN_ERR_LEN], secret[TOKEN_SECRET_LEN + 1];
			long long id;
			struct token_db *db = token_db_open(path, err);
			if (db && token_db_create(db, owner, a.name, json.ptr, now, expires_at, &id,
			                          secret, err) == 0) {
				printf("%lld|%s\n", id, secret);
				fflush(stdout);
				explicit_bzero(secret, sizeof secret);
				fprintf(stderr, "Token %lld of %s%s: it is not shown again. Send it as the "
				        "header 'Authorization: Bearer %lld|...'\n", id, owner,
				        expires_at && expires_at <= now ? " (already expired)" : "", id);
				rc = EXIT_SUCCESS;
			} else {
				fprintf(stderr, "cms-api: %s\n", err);
			}
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
	abilities_from_json(&abilities, row->abilities);
	strbuf_reset(&text);
	for (size_t i = 0; i < abilities.items.len; i++)
		strbuf_addf(&text, "%s%s", i ? "," : "", abilities.items.items[i]);
	strlist_add(&table->cells, abilities.items.len ? text.ptr : "(none)");
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
	char err[CONFIG_ERR_LEN];
	const char *path = config_find_path(config_path);
	struct config cfg;
	if (config_load(&cfg, path, err) != 0) {
		report_config_error("token", path, err);
		return EXIT_CONFIG;
	}
	log_open("stderr", cfg.log_level);
	int rc;
	if (!*cfg.auth_database) {
		fprintf(stderr, "cms-api: %s: no [auth] database: set it to the file that keeps the "
		        "per-user tokens\n", path);
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
	if (command && strcmp(command, "token") == 0)
		return command_token(config_path, argc - optind - 1, argv + optind + 1);
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
