/*
 * bench/timing.h: what the in-process timers of bench/ share: a
 * monotonic clock in seconds and the comparison qsort needs to take a
 * median of run times.
 */
#ifndef CMS_API_BENCH_TIMING_H
#define CMS_API_BENCH_TIMING_H

#include <time.h>

static inline double seconds(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static inline int compare_doubles(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;
	return (x > y) - (x < y);
}

#endif
