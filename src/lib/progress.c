/* progress: a counter on a terminal; see progress.h. */
#include "autoconfig.h"

#include "lib/progress.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "lib/strbuf.h"

#define REDRAW_NS 100000000LL /* a tenth of a second */

static struct {
	bool on;    /* counting */
	bool shown; /* drawn on a terminal */
	bool drawn; /* the line is on the screen now */
	FILE *out;
	char *label;
	unsigned long count;
	long long next_draw;
} progress;

static long long now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC_COARSE, &ts);
	return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static void draw(void)
{
	fprintf(progress.out, "\r%s: %lu file%s", progress.label, progress.count,
	        progress.count == 1 ? "" : "s");
	fflush(progress.out);
	progress.drawn = true;
	progress.next_draw = now_ns() + REDRAW_NS;
}

void progress_begin(FILE *out, const char *label, bool force)
{
	free(progress.label);
	progress.on = true;
	progress.shown = force || isatty(fileno(out));
	progress.drawn = false;
	progress.out = out;
	progress.label = xstrdup(label);
	progress.count = 0;
	progress.next_draw = 0;
	if (progress.shown)
		draw();
}

void progress_tick(void)
{
	if (!progress.on)
		return;
	progress.count++;
	if (progress.shown && now_ns() >= progress.next_draw)
		draw();
}

void progress_suspend(void)
{
	if (!progress.drawn)
		return;
	/* Back to the start of the line, and the line erased. */
	fputs("\r\033[K", progress.out);
	fflush(progress.out);
	progress.drawn = false;
	progress.next_draw = 0;
}

unsigned long progress_end(void)
{
	unsigned long n = progress.count;
	if (progress.shown) {
		draw();
		fputc('\n', progress.out);
		fflush(progress.out);
	}
	progress_reset();
	return n;
}

void progress_reset(void)
{
	free(progress.label);
	memset(&progress, 0, sizeof progress);
}
