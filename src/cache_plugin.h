/*
 * cache_plugin: loads a cache driver built as a shared object
 * ([cache] driver = /path/to/driver.so) behind the interface of
 * include/cms-api/cache-driver.h, checking its ABI version.
 */
#ifndef CMS_API_CACHE_PLUGIN_H
#define CMS_API_CACHE_PLUGIN_H

#include <stddef.h>

#include "cms-api/cache-driver.h"
#include "config.h"

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

/* Frees the driver's state and unloads it; p is all zero afterwards. */
void cache_plugin_unload(struct cache_plugin *p);

#endif
