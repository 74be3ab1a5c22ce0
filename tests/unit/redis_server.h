/*
 * redis_server: a real redis-server for the tests, on a free port of
 * 127.0.0.1, with no persistence, its files in a directory of the test's.
 */
#ifndef CMS_API_TEST_REDIS_SERVER_H
#define CMS_API_TEST_REDIS_SERVER_H

#include <stdbool.h>
#include <sys/types.h>

struct test_redis {
	pid_t pid; /* 0 when none runs */
	int port;
};

/* Whether redis-server can be run here. */
bool test_redis_available(void);

/* Starts one in dir (its log there), answering PING before it returns.
 * 0, or -1 (r->pid 0) when it could not start. */
int test_redis_start(struct test_redis *r, const char *dir);

/* Stops it and starts a new one, empty, on the same port. 0 or -1. */
int test_redis_restart(struct test_redis *r, const char *dir);

/* Sends one command (hiredis's redisCommand format) on a connection of
 * its own; 0 when Redis answered without an error. */
int test_redis_command(const struct test_redis *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* Stops it (SIGCONT first: a test may have stopped it) and waits; the
 * port is kept for a restart. */
void test_redis_stop(struct test_redis *r);

#endif
