/* cache_options: a driver started with the [cache] options; see
 * cache_options.h. */
#include "autoconfig.h"

#include "cache/cache_options.h"

#include <stdlib.h>

#include "lib/strbuf.h"

struct cms_api_cache_option *cache_options_of(const struct config *cfg)
{
	struct cms_api_cache_option *o = xcalloc(cfg->ncache_options + 1, sizeof *o);
	for (size_t i = 0; i < cfg->ncache_options; i++)
		o[i] = (struct cms_api_cache_option){cfg->cache_options[i].key,
		                                     cfg->cache_options[i].value};
	return o;
}

void *cache_driver_init(const struct cms_api_cache_driver *d, const struct config *cfg,
                        char *error, size_t error_size)
{
	struct cms_api_cache_option *options = cache_options_of(cfg);
	void *state = d->init(options, cfg->ncache_options, error, error_size);
	free(options);
	return state;
}
