/*
 * params-bench: times the parsing of a query string of N parameters
 * (request_from_uri: split, decode, PHP's last-value-wins), the median of
 * several runs. Names are distinct (p0=1&p1=1&...), the case where each
 * new name used to be compared with every earlier one; with "repeat",
 * every name comes twice (the second value wins).
 *   params-bench N [RUNS] [repeat]
 * Built and run by bench/hostile-bench.sh.
 */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "http/request.h"
#include "lib/strbuf.h"
#include "timing.h"

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: params-bench N [RUNS] [repeat]\n");
		return 2;
	}
	long n = atol(argv[1]);
	int runs = argc > 2 ? atoi(argv[2]) : 5;
	int copies = argc > 3 && strcmp(argv[3], "repeat") == 0 ? 2 : 1;
	struct strbuf uri = STRBUF_INIT;
	strbuf_addstr(&uri, "/api/collections/articles/entries?");
	for (int c = 0; c < copies; c++)
		for (long i = 0; i < n; i++)
			strbuf_addf(&uri, "%sp%ld=%d", c || i ? "&" : "", i, c + 1);
	double *times = malloc((size_t)runs * sizeof *times);
	size_t nparams = 0;
	for (int r = 0; r < runs; r++) {
		struct request req;
		double t0 = seconds();
		request_from_uri(&req, "GET", uri.ptr);
		times[r] = seconds() - t0;
		nparams = req.nparams;
		request_free(&req);
	}
	qsort(times, (size_t)runs, sizeof *times, compare_doubles);
	printf("%.3f ms (%zu parameters kept of %ld, %zu bytes)\n", times[runs / 2] * 1000, nparams,
	       n * copies, uri.len);
	free(times);
	strbuf_release(&uri);
	return 0;
}
