/*
 * ratelimit-bench: the cost of the rate limit per request. Answers one
 * cached GET in-process as a FastCGI worker does (app_handle in the shared
 * mode, then app_finish), RUNS times, from CLIENTS client addresses in
 * turn, and prints the mean time a request took. With "limiter" after
 * them, it times the limiter alone instead (rate_limiter_hit and the
 * headers, on requests made beforehand): the part of the figure that is
 * the limit's, without the noise of reading the cached answer.
 *   ratelimit-bench CONFIG URI RUNS CLIENTS [limiter]
 * Built and run by bench/ratelimit-bench.sh.
 */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>

#include "app/app.h"
#include "timing.h"

static void make_request(struct request *req, const char *uri, int client)
{
	request_from_uri(req, "GET", uri);
	free(req->remote_addr);
	req->remote_addr = xmalloc(32);
	snprintf(req->remote_addr, 32, "10.%d.%d.%d", client >> 16 & 255, client >> 8 & 255,
	         client & 255);
}

static void ask(struct app *app, const char *uri, int client, struct response *res)
{
	struct request req;
	struct exchange x;
	make_request(&req, uri, client);
	exchange_init(&x);
	exchange_begin(&x, &req, res);
	app_handle(app, &x);
	app_finish(app, &x);
	exchange_free(&x);
	request_free(&req);
}

/* The limiter alone, on requests made beforehand. */
static double time_limiter(struct app *app, const char *uri, int runs, int clients,
                           struct response *res)
{
	struct request *reqs = xcalloc((size_t)clients, sizeof *reqs);
	for (int c = 0; c < clients; c++)
		make_request(&reqs[c], uri, c);
	double t0 = seconds();
	for (int i = 0; i < runs; i++) {
		struct rate_verdict v;
		rate_limiter_hit(&app->rate, &reqs[i % clients], (long long)time(NULL), &v);
		response_reset(res);
		response_begin(res, 200, NULL);
		rate_verdict_headers(&v, res);
	}
	double mean = (seconds() - t0) / runs;
	for (int c = 0; c < clients; c++)
		request_free(&reqs[c]);
	free(reqs);
	return mean;
}

int main(int argc, char **argv)
{
	if (argc != 5 && argc != 6) {
		fprintf(stderr, "usage: ratelimit-bench CONFIG URI RUNS CLIENTS [limiter]\n");
		return 2;
	}
	int runs = atoi(argv[3]), clients = atoi(argv[4]);
	char err[CONFIG_ERR_LEN];
	struct app app;
	if (app_open(&app, argv[1], APP_SHARED, err) != 0) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	struct response res;
	response_init(&res);
	ask(&app, argv[2], 0, &res); /* now it is cached */
	double mean;
	if (argc == 6) {
		mean = time_limiter(&app, argv[2], runs, clients, &res);
	} else {
		double t0 = seconds();
		for (int i = 0; i < runs; i++)
			ask(&app, argv[2], i % clients, &res);
		mean = (seconds() - t0) / runs;
	}
	const char *remaining = response_header(&res, "X-RateLimit-Remaining");
	printf("%.2f us (status %d, remaining %s)\n", mean * 1e6, res.status,
	       remaining ? remaining : "-");
	response_free(&res);
	app_close(&app);
	return res.status == 200 ? 0 : 1;
}
