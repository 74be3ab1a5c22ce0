/*
 * query-bench: times requests answered in-process (app_handle: routing,
 * filtering, sorting, paging and JSON, no HTTP), the median of many runs.
 *   query-bench CONFIG URI [RUNS]
 * Built and run by bench/query-bench.sh.
 */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>

#include "app/app.h"
#include "timing.h"

int main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: query-bench CONFIG URI [RUNS]\n");
		return 2;
	}
	int runs = argc > 3 ? atoi(argv[3]) : 101;
	char err[CONFIG_ERR_LEN];
	struct app app;
	if (app_open(&app, argv[1], APP_PRIVATE, err) != 0) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	double *times = malloc((size_t)runs * sizeof *times);
	struct response res;
	struct exchange x;
	response_init(&res);
	exchange_init(&x);
	for (int i = 0; i < runs; i++) {
		struct request req;
		double t0 = seconds();
		request_from_uri(&req, "GET", argv[2]);
		exchange_begin(&x, &req, &res);
		app_handle(&app, &x);
		request_free(&req);
		times[i] = seconds() - t0;
	}
	qsort(times, (size_t)runs, sizeof *times, compare_doubles);
	printf("%.3f ms (status %d, %zu bytes)\n", times[runs / 2] * 1000, res.status, res.body.len);
	free(times);
	exchange_free(&x);
	response_free(&res);
	app_close(&app);
	return 0;
}
