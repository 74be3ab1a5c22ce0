/* Unit tests: the pool's decisions (pool_policy), its keys in the config,
 * the command line (cli), the --listen socket (listen) and the features
 * --version names (buildinfo). */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include "cmd/cli.h"
#include "core/buildinfo.h"
#include "core/config.h"
#include "lib/strbuf.h"
#include "server/listen.h"
#include "server/pool_policy.h"
#include "unit.h"

/* --- pool_policy -------------------------------------------------------------- */

/* A crash loop waits longer and longer, up to 10 s; the first crash is
 * replaced at once. */
static void test_backoff(void)
{
	CU_ASSERT_EQUAL(pool_restart_delay_ms(0), 0);
	CU_ASSERT_EQUAL(pool_restart_delay_ms(1), 0);
	CU_ASSERT_EQUAL(pool_restart_delay_ms(2), 100);
	CU_ASSERT_EQUAL(pool_restart_delay_ms(3), 200);
	CU_ASSERT_EQUAL(pool_restart_delay_ms(4), 400);
	CU_ASSERT_EQUAL(pool_restart_delay_ms(8), 6400);
	CU_ASSERT_EQUAL(pool_restart_delay_ms(9), 10000);
	CU_ASSERT_EQUAL(pool_restart_delay_ms(1000), 10000);
	CU_ASSERT_EQUAL(pool_restart_delay_ms(4000000000u), 10000);
}

/* A clean exit forgets the crashes; a worker that lived long starts the
 * count afresh; quick crashes add up (and stop adding at some point). */
static void test_streak(void)
{
	CU_ASSERT_EQUAL(pool_next_streak(0, false, 5), 1);
	CU_ASSERT_EQUAL(pool_next_streak(1, false, 5), 2);
	CU_ASSERT_EQUAL(pool_next_streak(7, false, POOL_HEALTHY_MS - 1), 8);
	CU_ASSERT_EQUAL(pool_next_streak(7, false, POOL_HEALTHY_MS), 1);
	CU_ASSERT_EQUAL(pool_next_streak(7, true, 5), 0);
	CU_ASSERT_EQUAL(pool_next_streak(1000, false, 5), 1000);
	/* Ten quick crashes in a row: the eleventh start waits 10 s. */
	unsigned streak = 0;
	for (int i = 0; i < 10; i++)
		streak = pool_next_streak(streak, false, 50);
	CU_ASSERT_EQUAL(pool_restart_delay_ms(streak), 10000);
}

static void test_retirement(void)
{
	CU_ASSERT_FALSE(pool_retire_due(1, 0));
	CU_ASSERT_FALSE(pool_retire_due(1000000, 0));
	CU_ASSERT_FALSE(pool_retire_due(2, 3));
	CU_ASSERT_TRUE(pool_retire_due(3, 3));
	CU_ASSERT_TRUE(pool_retire_due(1, 1));
}

/* During a reload the old workers make room one by one as new ones get
 * ready: never fewer than n serving. */
static void test_old_to_keep(void)
{
	CU_ASSERT_EQUAL(pool_old_to_keep(3, 0), 3);
	CU_ASSERT_EQUAL(pool_old_to_keep(3, 1), 2);
	CU_ASSERT_EQUAL(pool_old_to_keep(3, 3), 0);
	CU_ASSERT_EQUAL(pool_old_to_keep(3, 5), 0);
}

/* --- the keys ---------------------------------------------------------------- */

static int load(const char *dir, const char *extra, struct config *cfg, char err[CONFIG_ERR_LEN])
{
	struct strbuf text = STRBUF_INIT;
	strbuf_addf(&text, "[content]\nroot = %s\n%s", dir, extra);
	unit_write_file(dir, "t.ini", text.ptr);
	strbuf_reset(&text);
	strbuf_addf(&text, "%s/t.ini", dir);
	int rc = config_load(cfg, text.ptr, err);
	strbuf_release(&text);
	return rc;
}

static void test_keys(void)
{
	char *dir = unit_tempdir();
	char err[CONFIG_ERR_LEN], want[600];
	struct config cfg;
	CU_ASSERT_EQUAL_FATAL(load(dir, "", &cfg, err), 0);
	CU_ASSERT_EQUAL(cfg.max_requests, 0);
	CU_ASSERT_STRING_EQUAL(cfg.log_access, "");
	config_free(&cfg);

	CU_ASSERT_EQUAL_FATAL(load(dir, "[server]\nmax_requests = 500\n[log]\naccess = on\n"
	                                "target = stderr\n", &cfg, err), 0);
	CU_ASSERT_EQUAL(cfg.max_requests, 500);
	CU_ASSERT_STRING_EQUAL(cfg.log_access, "stderr"); /* where the log goes, set after it */
	config_free(&cfg);

	CU_ASSERT_EQUAL_FATAL(load(dir, "[log]\naccess = true\n", &cfg, err), 0);
	CU_ASSERT_STRING_EQUAL(cfg.log_access, "syslog");
	config_free(&cfg);

	CU_ASSERT_EQUAL_FATAL(load(dir, "[log]\naccess = logs/access.log\ntarget = /x/y.log\n",
	                           &cfg, err), 0);
	snprintf(want, sizeof want, "%s/logs/access.log", cfg.dir);
	CU_ASSERT_STRING_EQUAL(cfg.log_access, want);
	CU_ASSERT_STRING_EQUAL(cfg.log_target, "/x/y.log");
	config_free(&cfg);

	CU_ASSERT_EQUAL_FATAL(load(dir, "[log]\naccess = syslog\ntarget = stderr\n", &cfg, err), 0);
	CU_ASSERT_STRING_EQUAL(cfg.log_access, "syslog");
	config_free(&cfg);

	CU_ASSERT_EQUAL_FATAL(load(dir, "[log]\naccess = off\n", &cfg, err), 0);
	CU_ASSERT_STRING_EQUAL(cfg.log_access, "");
	config_free(&cfg);

	CU_ASSERT_EQUAL(load(dir, "[server]\nmax_requests = -1\n", &cfg, err), -1);
	snprintf(want, sizeof want, "%s/t.ini:4: [server] max_requests: -1 is out of range "
	         "(0 to 1000000000000)", dir);
	CU_ASSERT_STRING_EQUAL(err, want);
	CU_ASSERT_EQUAL(load(dir, "[server]\nworkers = 4\n", &cfg, err), -1);
	snprintf(want, sizeof want, "%s/t.ini:4: unknown key 'workers' in [server]", dir);
	CU_ASSERT_STRING_EQUAL(err, want);
	unit_rmtree(dir);
	free(dir);
}

/* --- cli ----------------------------------------------------------------------- */

static int parse(struct cli *cli, char err[CLI_ERR_LEN], ...)
{
	char *argv[16];
	int argc = 0;
	va_list ap;
	va_start(ap, err);
	argv[argc++] = "cms-api";
	for (char *a; argc < 15 && (a = va_arg(ap, char *)) != NULL;)
		argv[argc++] = a;
	va_end(ap);
	argv[argc] = NULL;
	return cli_parse(argc, argv, cli, err);
}

static void test_cli_pool(void)
{
	struct cli cli;
	char err[CLI_ERR_LEN];
	CU_ASSERT_EQUAL(parse(&cli, err, "-n", "4", NULL), 0);
	CU_ASSERT_EQUAL(cli.workers, 4);
	CU_ASSERT_PTR_NULL(cli.listen);
	CU_ASSERT_PTR_NULL(cli.command);

	CU_ASSERT_EQUAL(parse(&cli, err, "-c", "/etc/x.ini", "--workers=3", "--listen",
	                      "/run/a.sock", NULL), 0);
	CU_ASSERT_EQUAL(cli.workers, 3);
	CU_ASSERT_STRING_EQUAL(cli.listen, "/run/a.sock");
	CU_ASSERT_STRING_EQUAL(cli.config_path, "/etc/x.ini");

	/* --listen alone: one worker, still supervised. */
	CU_ASSERT_EQUAL(parse(&cli, err, "--listen=:9000", NULL), 0);
	CU_ASSERT_EQUAL(cli.workers, 1);

	CU_ASSERT_EQUAL(parse(&cli, err, "-n", "0", NULL), -1);
	CU_ASSERT_STRING_EQUAL(err, "-n takes a number of workers from 1 to 256, not '0'");
	CU_ASSERT_EQUAL(parse(&cli, err, "-n", "257", NULL), -1);
	CU_ASSERT_EQUAL(parse(&cli, err, "-n", "3x", NULL), -1);
	CU_ASSERT_STRING_EQUAL(err, "-n takes a number of workers from 1 to 256, not '3x'");
	CU_ASSERT_EQUAL(parse(&cli, err, "-n", "-2", NULL), -1);
	CU_ASSERT_EQUAL(parse(&cli, err, "-n", NULL), -1);
	CU_ASSERT_STRING_EQUAL(err, "option '-n' needs a value");
	CU_ASSERT_EQUAL(parse(&cli, err, "--listen", "", NULL), -1);
	CU_ASSERT_STRING_EQUAL(err, "--listen needs a socket path or HOST:PORT");
	CU_ASSERT_EQUAL(parse(&cli, err, "-n", "2", "check", NULL), -1);
	CU_ASSERT_STRING_EQUAL(err, "-n and --listen start a pool of workers: they take no "
	                            "command ('check')");
}

static void test_cli_commands(void)
{
	struct cli cli;
	char err[CLI_ERR_LEN];
	CU_ASSERT_EQUAL(parse(&cli, err, "get", "/api/ping", NULL), 0);
	CU_ASSERT_STRING_EQUAL(cli.command, "get");
	CU_ASSERT_EQUAL(cli.nargs, 1);
	CU_ASSERT_STRING_EQUAL(cli.args[0], "/api/ping");
	CU_ASSERT_EQUAL(cli.workers, 0);

	/* The command's own options are left to it. */
	CU_ASSERT_EQUAL(parse(&cli, err, "-c", "a.ini", "token", "create", "bob", "ci",
	                      "--abilities", "*", NULL), 0);
	CU_ASSERT_STRING_EQUAL(cli.command, "token");
	CU_ASSERT_EQUAL(cli.nargs, 5);
	CU_ASSERT_STRING_EQUAL(cli.args[4], "*");

	CU_ASSERT_EQUAL(parse(&cli, err, "nope", NULL), -1);
	CU_ASSERT_STRING_EQUAL(err, "unknown command 'nope'");
	CU_ASSERT_EQUAL(parse(&cli, err, "get", NULL), -1);
	CU_ASSERT_STRING_EQUAL(err, "usage: cms-api get PATH");
	CU_ASSERT_EQUAL(parse(&cli, err, "cache", "stats", NULL), 0);
	CU_ASSERT_STRING_EQUAL(cli.args[0], "stats");
	CU_ASSERT_EQUAL(parse(&cli, err, "cache", "clear", NULL), 0);
	CU_ASSERT_EQUAL(parse(&cli, err, "cache", NULL), -1);
	CU_ASSERT_STRING_EQUAL(err, "usage: cms-api cache stats|clear");
	CU_ASSERT_EQUAL(parse(&cli, err, "cache", "flush", NULL), -1);
	CU_ASSERT_EQUAL(parse(&cli, err, "cache", "stats", "now", NULL), -1);
	CU_ASSERT_EQUAL(parse(&cli, err, "-x", NULL), -1);
	CU_ASSERT_STRING_EQUAL(err, "unknown option '-x'");
	CU_ASSERT_EQUAL(parse(&cli, err, "--nope", NULL), -1);
	CU_ASSERT_STRING_EQUAL(err, "unknown option '--nope'");

	/* -h and -V win over whatever follows. */
	CU_ASSERT_EQUAL(parse(&cli, err, "-h", "nope", NULL), 0);
	CU_ASSERT_TRUE(cli.help);
	CU_ASSERT_EQUAL(parse(&cli, err, "--version", NULL), 0);
	CU_ASSERT_TRUE(cli.version);
}

/* --- listen ------------------------------------------------------------------------ */

static void test_listen_parse(void)
{
	struct listen_spec s;
	char err[LISTEN_ERR_LEN];
	CU_ASSERT_EQUAL(listen_parse("/run/cms-api/api.sock", &s, err), 0);
	CU_ASSERT_EQUAL(s.kind, LISTEN_UNIX);
	CU_ASSERT_STRING_EQUAL(s.path, "/run/cms-api/api.sock");
	CU_ASSERT_EQUAL(listen_parse("./api.sock", &s, err), 0);
	CU_ASSERT_EQUAL(s.kind, LISTEN_UNIX);

	CU_ASSERT_EQUAL(listen_parse("9000", &s, err), 0);
	CU_ASSERT_EQUAL(s.kind, LISTEN_TCP);
	CU_ASSERT_STRING_EQUAL(s.host, "127.0.0.1");
	CU_ASSERT_STRING_EQUAL(s.port, "9000");
	CU_ASSERT_EQUAL(listen_parse(":9001", &s, err), 0);
	CU_ASSERT_STRING_EQUAL(s.host, "127.0.0.1");
	CU_ASSERT_STRING_EQUAL(s.port, "9001");
	CU_ASSERT_EQUAL(listen_parse("0.0.0.0:65535", &s, err), 0);
	CU_ASSERT_STRING_EQUAL(s.host, "0.0.0.0");
	CU_ASSERT_STRING_EQUAL(s.port, "65535");
	CU_ASSERT_EQUAL(listen_parse("localhost:80", &s, err), 0);
	CU_ASSERT_STRING_EQUAL(s.host, "localhost");
	CU_ASSERT_EQUAL(listen_parse("[::1]:9000", &s, err), 0);
	CU_ASSERT_STRING_EQUAL(s.host, "::1");
	CU_ASSERT_STRING_EQUAL(s.port, "9000");

	CU_ASSERT_EQUAL(listen_parse("127.0.0.1:0", &s, err), -1);
	CU_ASSERT_STRING_EQUAL(err, "--listen: '0' is not a port (1 to 65535)");
	CU_ASSERT_EQUAL(listen_parse("127.0.0.1:65536", &s, err), -1);
	CU_ASSERT_EQUAL(listen_parse("127.0.0.1:", &s, err), -1);
	CU_ASSERT_EQUAL(listen_parse("host:http", &s, err), -1);
	CU_ASSERT_EQUAL(listen_parse("api.sock", &s, err), -1); /* a file name needs ./ */
	CU_ASSERT_STRING_EQUAL(err, "--listen: 'api.sock' is not a port (1 to 65535)");
	CU_ASSERT_EQUAL(listen_parse("::1:9000", &s, err), -1);
	CU_ASSERT_STRING_EQUAL(err, "--listen: write an IPv6 address in brackets: [::1:9000]:PORT");
	CU_ASSERT_EQUAL(listen_parse("[::1]9000", &s, err), -1);
	CU_ASSERT_EQUAL(listen_parse("", &s, err), -1);
	char long_path[200];
	memset(long_path, 'a', sizeof long_path - 1);
	long_path[0] = '/';
	long_path[sizeof long_path - 1] = '\0';
	CU_ASSERT_EQUAL(listen_parse(long_path, &s, err), -1);
}

static bool connects(const char *path)
{
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	struct sockaddr_un addr = {.sun_family = AF_UNIX};
	size_t n = strlen(path);
	if (n >= sizeof addr.sun_path)
		n = sizeof addr.sun_path - 1;
	memcpy(addr.sun_path, path, n);
	bool ok = connect(fd, (struct sockaddr *)&addr, sizeof addr) == 0;
	close(fd);
	return ok;
}

/* The unix socket: 0660 whatever the umask, at fd 0; a stale one is
 * replaced, a live one or a file is not; only our own file is removed. */
static void test_listen_unix(void)
{
	char *dir = unit_tempdir();
	char path[300], err[LISTEN_ERR_LEN];
	snprintf(path, sizeof path, "%s/api.sock", dir);
	int saved_stdin = dup(0);
	mode_t mask = umask(0);
	struct listen_spec s;
	CU_ASSERT_EQUAL_FATAL(listen_parse(path, &s, err), 0);
	CU_ASSERT_EQUAL_FATAL(listen_open(&s, err), 0);
	umask(mask);
	struct stat st;
	CU_ASSERT_EQUAL(stat(path, &st), 0);
	CU_ASSERT_TRUE(S_ISSOCK(st.st_mode));
	CU_ASSERT_EQUAL(st.st_mode & 0777, 0660);
	CU_ASSERT_TRUE(listen_inherited()); /* fd 0 listens now */
	CU_ASSERT_TRUE(connects(path));

	/* Someone listens there: refused, and nothing removed. */
	struct listen_spec again;
	listen_parse(path, &again, err);
	CU_ASSERT_EQUAL(listen_open(&again, err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "another process listens there"));
	CU_ASSERT_EQUAL(stat(path, &st), 0);

	/* The pool gone (fd 0 closed), the file left behind: replaced. */
	dup2(saved_stdin, 0);
	CU_ASSERT_FALSE(connects(path));
	CU_ASSERT_EQUAL(listen_open(&again, err), 0);
	CU_ASSERT_TRUE(connects(path));

	/* The first spec's file is not there any more: left alone. */
	listen_remove(&s);
	CU_ASSERT_EQUAL(stat(path, &st), 0);
	listen_remove(&again);
	CU_ASSERT_EQUAL(stat(path, &st), -1);
	dup2(saved_stdin, 0);

	/* Not a socket: never removed. */
	unit_write_file(dir, "plain", "x");
	snprintf(path, sizeof path, "%s/plain", dir);
	listen_parse(path, &s, err);
	CU_ASSERT_EQUAL(listen_open(&s, err), -1);
	char want[400];
	snprintf(want, sizeof want, "--listen: %s exists and is not a socket", path);
	CU_ASSERT_STRING_EQUAL(err, want);
	CU_ASSERT_EQUAL(stat(path, &st), 0);
	CU_ASSERT_FALSE(listen_inherited()); /* fd 0 is stdin again */
	close(saved_stdin);
	unit_rmtree(dir);
	free(dir);
}

static void test_listen_tcp(void)
{
	char err[LISTEN_ERR_LEN];
	int saved_stdin = dup(0);
	struct listen_spec s;
	CU_ASSERT_EQUAL(listen_parse("192.0.2.1:9", &s, err), 0);
	CU_ASSERT_EQUAL(listen_open(&s, err), -1); /* not an address of this machine */
	CU_ASSERT_STRING_EQUAL(err, "--listen: 192.0.2.1:9: Cannot assign requested address");
	dup2(saved_stdin, 0);
	close(saved_stdin);
}

/* --- buildinfo ------------------------------------------------------------------------ */

static void test_buildinfo(void)
{
	struct strbuf out = STRBUF_INIT;
	buildinfo_describe(&out);
	CU_ASSERT_EQUAL(strncmp(out.ptr, "cms-api " PACKAGE_VERSION "\n", strlen(PACKAGE_VERSION) + 9),
	                0);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.ptr, "\ncache drivers: file, redis (hiredis "));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.ptr, "\nper-user tokens: yes (SQLite "));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.ptr, "\nrate-limit drivers: file, redis (hiredis "));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.ptr, "\nworker pool: yes (-n, --listen)\n"));
	CU_ASSERT_PTR_NOT_NULL(strstr(out.ptr, "\nlibraries: json-c "));
	/* The JIT line says what PCRE2 says. */
	uint32_t jit = 0;
	pcre2_config(PCRE2_CONFIG_JIT, &jit);
	CU_ASSERT_PTR_NOT_NULL(strstr(out.ptr, jit ? "\nregex JIT: yes" : "\nregex JIT: no\n"));
	CU_ASSERT_EQUAL(out.ptr[out.len - 1], '\n');
	strbuf_release(&out);
}

void suite_pool(void)
{
	CU_pSuite s = unit_add_suite("pool");
	unit_add_test(s, "restart back-off", test_backoff);
	unit_add_test(s, "crash streaks", test_streak);
	unit_add_test(s, "retirement after max_requests", test_retirement);
	unit_add_test(s, "old workers kept during a reload", test_old_to_keep);
	unit_add_test(s, "[server] and [log] access keys", test_keys);
	unit_add_test(s, "command line: the pool", test_cli_pool);
	unit_add_test(s, "command line: commands", test_cli_commands);
	unit_add_test(s, "--listen values", test_listen_parse);
	unit_add_test(s, "--listen unix socket", test_listen_unix);
	unit_add_test(s, "--listen TCP errors", test_listen_tcp);
	unit_add_test(s, "--version features", test_buildinfo);
}
