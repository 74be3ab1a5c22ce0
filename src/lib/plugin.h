/*
 * lib/plugin: what the two kinds of plug-in (cache drivers, shape
 * plug-ins) share: a shared object named by its absolute path, opened
 * at once (RTLD_NOW: an undefined symbol fails here, not in a request)
 * and apart (RTLD_LOCAL: its symbols never stand in for cms-api's), that
 * exports one function returning a table whose first member, in every
 * version of every plug-in header, is its ABI version: read before
 * anything else, so that a table of another version is refused unread.
 */
#ifndef CMS_API_LIB_PLUGIN_H
#define CMS_API_LIB_PLUGIN_H

#include <stddef.h>

struct plugin_kind {
	const char *name;   /* in messages: "cache driver", "shape plug-in" */
	const char *symbol; /* the function it exports */
	int abi_version;    /* the one this cms-api loads */
	const char *header; /* "<cms-api/cache-driver.h>" */
};

/* dlopen(path): the handle, or NULL with "cannot load PATH: why" in
 * error (path is absolute: the caller checked). */
void *plugin_open(const char *path, char *error, size_t size);

/* The table handle's k->symbol() returns, of k's ABI version; NULL with
 * why in error (no such function, no table, another version). */
const void *plugin_table(const struct plugin_kind *k, void *handle, const char *path,
                         char *error, size_t size);

#endif
