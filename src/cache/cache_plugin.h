/*
 * cache_plugin: loads a cache driver built as a shared object
 * ([cache] driver = /path/to/driver.so) behind the interface of
 * include/cms-api/cache-driver.h, checking its ABI version, and calls it.
 *
 * Loading is all or nothing: the object is opened (dlopen, RTLD_NOW, so
 * that a missing symbol shows at once, not at the first request), its
 * table found and checked (the ABI version, a name for the log, the
 * required operations), and its init called with the driver's options
 * ([cache] keys that cms-api does not read). Any failure gives a message
 * that names the object and what is wrong with it, for `cms-api check`
 * and the worker's log, and leaves nothing loaded.
 *
 * The calls (get, put, invalidate) hand the driver's answer back as it
 * is (1/0/-1), with errno saying why a -1 came when the driver said; the
 * caller decides what a failure costs (cache.c: an uncached answer).
 */
#ifndef CMS_API_CACHE_PLUGIN_H
#define CMS_API_CACHE_PLUGIN_H

#include <stddef.h>

#include "cms-api/cache-driver.h"
#include "core/config.h"
#include "lib/strbuf.h"

struct cache_plugin {
	void *handle;                              /* owned: dlopen's */
	const struct cms_api_cache_driver *driver; /* borrowed from handle */
	void *state;                               /* owned by the driver: its init's */
};

/* Loads cfg's plug-in (cfg->cache_plugin_path) and initialises it with
 * cfg's driver options. 0, or -1 with a message for the log or the config
 * check in error (at most error_size bytes) and p all zero. */
int cache_plugin_load(const struct config *cfg, struct cache_plugin *p, char *error,
                      size_t error_size);

/* Frees the driver's state and unloads it; p is all zero afterwards.
 * Harmless on an all-zero p. */
void cache_plugin_unload(struct cache_plugin *p);

/* The calls below need a p that cache_plugin_load loaded.
 *
 * The driver's get: 1 with the entry appended to out, 0 (not found) or -1
 * (failed; errno says why, 0 when the driver did not say). out is as
 * before the call unless 1 is returned. */
int cache_plugin_get(const struct cache_plugin *p, const struct cms_api_cache_request *req,
                     struct strbuf *out);

/* The driver's put: 0 or -1 (errno as for get). */
int cache_plugin_put(const struct cache_plugin *p, const struct cms_api_cache_request *req,
                     const struct cms_api_cache_response *res);

/* The driver's invalidate, when it has one (0 when not): 0 or -1. */
int cache_plugin_invalidate(const struct cache_plugin *p, const struct cms_api_cache_event *ev);

#endif
