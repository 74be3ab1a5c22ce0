/*
 * cache_options: a driver of cms-api/cache-driver.h started with the
 * [cache] options, the one place they are handed over: for the built-in
 * Redis driver, a plug-in (cache_plugin.h) and the config check
 * (cache_admin.h) alike.
 */
#ifndef CMS_API_CACHE_OPTIONS_H
#define CMS_API_CACHE_OPTIONS_H

#include <stddef.h>

#include "cms-api/cache-driver.h"
#include "core/config.h"

/* cfg's [cache] options as a driver's init takes them (the strings are
 * cfg's). The caller frees the array. */
struct cms_api_cache_option *cache_options_of(const struct config *cfg);

/* Driver d's init with cfg's [cache] options: its state, or NULL with
 * d's reason in error. */
void *cache_driver_init(const struct cms_api_cache_driver *d, const struct config *cfg,
                        char *error, size_t error_size);

#endif
