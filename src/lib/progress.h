/*
 * progress: a counter of the files a long command (check, warm) has read,
 * shown on standard error while it runs, rewritten in place with '\r',
 * when and only when standard error is a terminal: scripts, CI and the
 * workers see nothing. Redrawn at most ten times a second, so that
 * counting costs a comparison per file.
 *
 * One counter per process (the site readers tick it without knowing who
 * watches); off until progress_begin.
 */
#ifndef CMS_API_PROGRESS_H
#define CMS_API_PROGRESS_H

#include <stdbool.h>
#include <stdio.h>

/* Starts counting, shown as "LABEL: N files" on out when out is a
 * terminal (force: also when it is not, for tests). label is copied. */
void progress_begin(FILE *out, const char *label, bool force);

/* One more file read; redraws the line when it is due. */
void progress_tick(void);

/* Draws the final count and ends the line; returns the count. Counting
 * stops. */
unsigned long progress_end(void);

/* Takes the line off the screen before something else is written to the
 * terminal (a log line); the next tick draws it again. */
void progress_suspend(void);

/* Stops counting without drawing anything or touching the stream (which
 * may be closed by now): the counter is as a process starts with it. For
 * the unit tests, which share one process: a test that failed between
 * progress_begin and progress_end leaves no counter behind for the log's
 * next line on stderr to erase through a dead stream. */
void progress_reset(void);

#endif
