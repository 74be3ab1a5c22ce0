/*
 * cli: the command line of cms-api (cms-api(8)) parsed into what main
 * does, with every usage error found here, as a message, before anything
 * is read or started.
 */
#ifndef CMS_API_CLI_H
#define CMS_API_CLI_H

#include <stdbool.h>

#define CLI_ERR_LEN 256

struct cli {
	const char *config_path; /* -c, or NULL */
	unsigned workers;        /* -n: a pool of that many; 0: no pool */
	const char *listen;      /* --listen, or NULL (then fd 0 is the socket) */
	bool help, version;      /* -h, -V: nothing else is checked */
	const char *command;     /* get, check, warm, token, cache; NULL: serve */
	int nargs;               /* the command's arguments */
	char **args;
};

/* Parses argv (options first, then the command and its arguments).
 * Returns 0, or -1 with the usage error in err. Pointers in cli point
 * into argv. */
int cli_parse(int argc, char **argv, struct cli *cli, char err[CLI_ERR_LEN]);

#endif
