/*
 * token-bench: the cost of the token check on a cached GET, in-process
 * (app_handle and app_finish, no HTTP), with the response cache on, as a
 * worker has it (APP_SHARED over the config's cache directory).
 *   token-bench CONFIG URI AUTHORIZATION|- RUNS
 * Prints the median and the mean time per request in microseconds, the
 * answer's status, and how many of the runs were cache hits.
 * Built and run by bench/token-bench.sh.
 */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "app/app.h"
#include "core/log.h"
#include "timing.h"

/* One GET as a worker answers it; returns whether it was a cache hit. */
static bool one_request(struct app *app, const char *uri, const char *authorization,
                        struct response *res)
{
	struct request req;
	request_from_uri(&req, "GET", uri);
	if (authorization)
		req.authorization = strdup(authorization);
	struct exchange x;
	exchange_init(&x);
	exchange_begin(&x, &req, res);
	app_handle(app, &x);
	bool hit = x.cache_use == APP_CACHE_HIT;
	app_finish(app, &x);
	exchange_free(&x);
	request_free(&req);
	return hit;
}

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: token-bench CONFIG URI AUTHORIZATION|- RUNS\n");
		return 2;
	}
	const char *authorization = strcmp(argv[3], "-") == 0 ? NULL : argv[3];
	int runs = atoi(argv[4]);
	char err[CONFIG_ERR_LEN];
	struct app app;
	log_open("stderr", LOG_LEVEL_WARNING);
	if (app_open(&app, argv[1], APP_SHARED, err) != 0) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	struct response res;
	response_init(&res);
	one_request(&app, argv[2], authorization, &res); /* fills the cache */
	double *times = malloc((size_t)runs * sizeof *times), total = 0;
	int hits = 0;
	for (int i = 0; i < runs; i++) {
		double t0 = seconds();
		hits += one_request(&app, argv[2], authorization, &res);
		times[i] = seconds() - t0;
		total += times[i];
	}
	qsort(times, (size_t)runs, sizeof *times, compare_doubles);
	printf("%.2f %.2f %d %d\n", times[runs / 2] * 1e6, total / runs * 1e6, res.status, hits);
	free(times);
	response_free(&res);
	app_close(&app);
	return 0;
}
