/*
 * api/shape_plugin: loading and calling a shape plug-in ([shape] plugin =
 * /abs/path/shape.so, <cms-api/shape.h>), step 3 of an item's way out
 * (api/output.h).
 *
 * A plug-in runs in the worker's own process, so a plug-in that crashes
 * ends its worker: the spawner (lighttpd, mod_fcgid, cms-api -n) starts
 * another, and the other workers go on answering. What cms-api does about
 * it is say so: while a worker is inside the plug-in, a handler of the
 * fatal signals (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, on a stack of
 * its own, so that a plug-in that ran out of stack is caught too) writes
 * one line naming the plug-in, the signal and the item to the log file
 * (or standard error) at once, and leaves the same line in the cache
 * directory (shape-crash.<pid>); the next worker to load the plug-in
 * logs what it finds there (through syslog too) and removes it. Then
 * the signal takes its course: the worker dies of it, as it would have.
 * A fault outside the plug-in is left to whatever handled it before.
 */
#ifndef CMS_API_SHAPE_PLUGIN_H
#define CMS_API_SHAPE_PLUGIN_H

#include <stdbool.h>
#include <stddef.h>

#include <cms-api/shape.h>

#include "core/config.h"
#include "lib/strbuf.h"

struct shape_plugin {
	void *handle;                      /* dlopen's; NULL: none loaded */
	const struct cms_api_shape *table;
	void *state;                       /* the plug-in's init's */
	char *path;                        /* owned */
	bool guard;                        /* the crash handlers are installed */
};

/*
 * Loads cfg's [shape] plugin and calls its init with the other [shape]
 * keys. guard: install the crash handlers (workers; not `cms-api check`).
 * Returns 0, or -1 with why in error (no such file, no such function,
 * another ABI, the plug-in's own refusal); p then holds nothing.
 */
int shape_plugin_load(const struct config *cfg, bool guard, struct shape_plugin *p, char *error,
                      size_t error_size);
void shape_plugin_unload(struct shape_plugin *p);

/* Logs, and removes, the lines that plug-ins which crashed workers left
 * in dir (cfg's cache directory). Returns how many there were. */
size_t shape_plugin_report_crashes(const char *dir);

/* The plug-in's rewrite of one item (JSON text of json_len bytes): 1 and
 * the new item's JSON text in out, 0 unchanged, -1 failed. type and
 * handle name the item for the plug-in and for the crash line. */
int shape_plugin_call(struct shape_plugin *p, const char *type, const char *handle,
                      const char *json, size_t json_len, struct strbuf *out);

#endif
