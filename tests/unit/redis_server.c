/* redis_server: a redis-server for the tests; see redis_server.h. */
#include "autoconfig.h"

#include "redis_server.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <hiredis.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

bool test_redis_available(void)
{
	return system("command -v redis-server >/dev/null 2>&1") == 0;
}

/* A port nothing listens on now (the kernel's pick for a bind). */
static int free_port(void)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a;
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	socklen_t len = sizeof a;
	int port = -1;
	if (fd >= 0 && bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
	    getsockname(fd, (struct sockaddr *)&a, &len) == 0)
		port = ntohs(a.sin_port);
	if (fd >= 0)
		close(fd);
	return port;
}

static bool answers_ping(int port)
{
	struct timeval tv = {0, 200000};
	redisContext *c = redisConnectWithTimeout("127.0.0.1", port, tv);
	bool up = false;
	if (c && !c->err) {
		redisReply *reply = redisCommand(c, "PING");
		up = reply && reply->type == REDIS_REPLY_STATUS;
		if (reply)
			freeReplyObject(reply);
	}
	if (c)
		redisFree(c);
	return up;
}

static pid_t spawn(const char *dir, int port)
{
	char port_text[16], log[4096];
	snprintf(port_text, sizeof port_text, "%d", port);
	snprintf(log, sizeof log, "%s/redis.log", dir);
	pid_t pid = fork();
	if (pid != 0)
		return pid;
	int null = open("/dev/null", O_RDWR);
	dup2(null, 0);
	dup2(null, 1);
	dup2(null, 2);
	execlp("redis-server", "redis-server", "--port", port_text, "--bind", "127.0.0.1",
	       "--save", "", "--appendonly", "no", "--daemonize", "no", "--dir", dir, "--logfile",
	       log, (char *)NULL);
	_exit(127);
}

/* Starts one on port; its pid, 0 when it did not answer (the port was
 * taken), -1 when it could not be run. */
static pid_t start_on(const char *dir, int port)
{
	pid_t pid = spawn(dir, port);
	if (pid < 0)
		return -1;
	for (int i = 0; i < 100; i++) {
		if (answers_ping(port))
			return pid;
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return 0;
		struct timespec ts = {0, 50000000};
		nanosleep(&ts, NULL);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return 0;
}

int test_redis_start(struct test_redis *r, const char *dir)
{
	memset(r, 0, sizeof r[0]);
	/* The port may be taken between the pick and the bind: try again. */
	for (int attempt = 0; attempt < 5; attempt++) {
		int port = free_port();
		pid_t pid = port < 0 ? -1 : start_on(dir, port);
		if (pid < 0)
			return -1;
		if (pid > 0) {
			r->pid = pid;
			r->port = port;
			return 0;
		}
	}
	return -1;
}

int test_redis_restart(struct test_redis *r, const char *dir)
{
	test_redis_stop(r);
	pid_t pid = start_on(dir, r->port);
	r->pid = pid > 0 ? pid : 0;
	return pid > 0 ? 0 : -1;
}

int test_redis_command(const struct test_redis *r, const char *fmt, ...)
{
	struct timeval tv = {2, 0};
	redisContext *c = redisConnectWithTimeout("127.0.0.1", r->port, tv);
	int rc = -1;
	if (c && !c->err) {
		va_list ap;
		va_start(ap, fmt);
		redisReply *reply = redisvCommand(c, fmt, ap);
		va_end(ap);
		rc = reply && reply->type != REDIS_REPLY_ERROR ? 0 : -1;
		if (reply)
			freeReplyObject(reply);
	}
	if (c)
		redisFree(c);
	return rc;
}

void test_redis_stop(struct test_redis *r)
{
	if (r->pid > 0) {
		kill(r->pid, SIGCONT);
		kill(r->pid, SIGTERM);
		waitpid(r->pid, NULL, 0);
	}
	r->pid = 0;
	/* the port stays: test_redis_restart uses it */
}
