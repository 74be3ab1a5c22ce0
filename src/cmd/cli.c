/* cli: the command line; see cli.h. */
#include "autoconfig.h"

#include "cmd/cli.h"

#include <ctype.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "server/pool.h"

enum { OPT_LISTEN = 256 };

static int parse_workers(const char *s, unsigned *out, char err[CLI_ERR_LEN])
{
	char *end;
	long n = isdigit((unsigned char)*s) ? strtol(s, &end, 10) : 0;
	if (n < 1 || n > POOL_MAX_WORKERS || *end) {
		snprintf(err, CLI_ERR_LEN, "-n takes a number of workers from 1 to %d, not '%s'",
		         POOL_MAX_WORKERS, s);
		return -1;
	}
	*out = (unsigned)n;
	return 0;
}

static bool known_command(const char *c)
{
	static const char *const names[] = {"get", "check", "warm", "token", "cache", "openapi"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(c, names[i]) == 0)
			return true;
	return false;
}

/* The option getopt refused, as the user wrote it. */
static void refused_option(int argc, char **argv, char err[CLI_ERR_LEN])
{
	const char *arg = optind - 1 < argc ? argv[optind - 1] : "";
	if (optopt && strncmp(arg, "--", 2) != 0)
		snprintf(err, CLI_ERR_LEN, "unknown option '-%c'", optopt);
	else
		snprintf(err, CLI_ERR_LEN, "unknown option '%s'", arg);
}

static int parse_options(int argc, char **argv, struct cli *cli, char err[CLI_ERR_LEN])
{
	static const struct option options[] = {
		{"config", required_argument, NULL, 'c'},
		{"help", no_argument, NULL, 'h'},
		{"version", no_argument, NULL, 'V'},
		{"workers", required_argument, NULL, 'n'},
		{"listen", required_argument, NULL, OPT_LISTEN},
		{NULL, 0, NULL, 0},
	};
	int opt;
	optind = 0; /* GNU: start afresh (cli_parse may be called again) */
	opterr = 0;
	/* '+': stop at the command, whose own options are its business. */
	while ((opt = getopt_long(argc, argv, "+:c:hVn:", options, NULL)) != -1) {
		switch (opt) {
		case 'c':
			cli->config_path = optarg;
			break;
		case 'h':
			cli->help = true;
			break;
		case 'V':
			cli->version = true;
			break;
		case 'n':
			if (parse_workers(optarg, &cli->workers, err) != 0)
				return -1;
			break;
		case OPT_LISTEN:
			if (!*optarg) {
				snprintf(err, CLI_ERR_LEN, "--listen needs a socket path or HOST:PORT");
				return -1;
			}
			cli->listen = optarg;
			break;
		case ':':
			snprintf(err, CLI_ERR_LEN, "option '%s' needs a value", argv[optind - 1]);
			return -1;
		default:
			refused_option(argc, argv, err);
			return -1;
		}
	}
	return 0;
}

int cli_parse(int argc, char **argv, struct cli *cli, char err[CLI_ERR_LEN])
{
	memset(cli, 0, sizeof *cli);
	if (parse_options(argc, argv, cli, err) != 0)
		return -1;
	if (cli->help || cli->version)
		return 0;
	cli->command = optind < argc ? argv[optind] : NULL;
	cli->nargs = optind < argc ? argc - optind - 1 : 0;
	cli->args = argv + (optind < argc ? optind + 1 : argc);
	if (cli->command && !known_command(cli->command)) {
		snprintf(err, CLI_ERR_LEN, "unknown command '%s'", cli->command);
		return -1;
	}
	if (cli->command && (cli->workers || cli->listen)) {
		snprintf(err, CLI_ERR_LEN, "-n and --listen start a pool of workers: they take no "
		         "command ('%s')", cli->command);
		return -1;
	}
	if (cli->listen && !cli->workers)
		cli->workers = 1; /* a socket of its own needs someone to watch it */
	if (cli->command && strcmp(cli->command, "get") == 0 && cli->nargs != 1) {
		snprintf(err, CLI_ERR_LEN, "usage: cms-api get PATH");
		return -1;
	}
	if (cli->command && strcmp(cli->command, "cache") == 0 &&
	    (cli->nargs != 1 || (strcmp(cli->args[0], "stats") != 0 &&
	                         strcmp(cli->args[0], "clear") != 0))) {
		snprintf(err, CLI_ERR_LEN, "usage: cms-api cache stats|clear");
		return -1;
	}
	return 0;
}
