/* cache_plugin: loading a shared-object cache driver; see cache_plugin.h.
 * Scaffold: the loader is being built on the plugin branch. */
#include "autoconfig.h"

#include "cache_plugin.h"

#include <stdio.h>
#include <string.h>

int cache_plugin_load(const struct config *cfg, struct cache_plugin *p, char *error,
                      size_t error_size)
{
	memset(p, 0, sizeof *p);
	snprintf(error, error_size, "cannot load %s: plug-in cache drivers are not built yet",
	         cfg->cache_plugin_path ? cfg->cache_plugin_path : "(none)");
	return -1;
}

void cache_plugin_unload(struct cache_plugin *p)
{
	memset(p, 0, sizeof *p);
}
