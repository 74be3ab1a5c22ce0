/*
 * image-bench: what one image costs to make, in-process (image_make, as
 * the image route calls it: libvips with one thread, no cache).
 *   image-bench CONFIG FILE WIDTH RUNS
 * Makes FILE WIDTH pixels wide (its format, q 90) RUNS times after one
 * warm-up, and prints the median and mean milliseconds per image and the
 * images a second that the median makes on one core. Built and run by
 * bench/image-bench.sh.
 */
#include "autoconfig.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "api/image.h"
#include "core/config.h"
#include "core/log.h"
#include "timing.h"

int main(int argc, char **argv)
{
	if (argc != 5) {
		fprintf(stderr, "usage: image-bench CONFIG FILE WIDTH RUNS\n");
		return 2;
	}
	int runs = atoi(argv[4]);
	char err[CONFIG_ERR_LEN];
	struct config cfg;
	log_open("stderr", LOG_LEVEL_WARNING);
	if (config_load(&cfg, argv[1], err) != 0) {
		fprintf(stderr, "%s\n", err);
		return 2;
	}
	const char *ext = strrchr(argv[2], '.') ? strrchr(argv[2], '.') + 1 : "jpg";
	struct glide_params p;
	glide_params_init(&p);
	p.w = atol(argv[3]);
	double *times = malloc((size_t)(runs > 0 ? runs : 1) * sizeof *times), total = 0;
	size_t bytes = 0;
	for (int i = -1; i < runs; i++) {
		struct strbuf out = STRBUF_INIT, why = STRBUF_INIT;
		const char *type;
		double t0 = seconds();
		if (image_make(&cfg, argv[2], ext, &p, &out, &type, &why) != IMAGE_OK) {
			fprintf(stderr, "image-bench: %s\n", why.ptr);
			return 1;
		}
		double t = seconds() - t0;
		if (i >= 0) {
			times[i] = t;
			total += t;
		}
		bytes = out.len;
		strbuf_release(&out);
		strbuf_release(&why);
	}
	qsort(times, (size_t)runs, sizeof *times, compare_doubles);
	double median = times[runs / 2];
	printf("%s to %s px: median %.2f ms, mean %.2f ms, %.0f images/s on one core, %zu bytes\n",
	       argv[2], argv[3], median * 1e3, total / runs * 1e3, 1.0 / median, bytes);
	free(times);
	config_free(&cfg);
	return 0;
}
