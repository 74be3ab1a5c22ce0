/* cache_plugin: loading and calling a shared-object cache driver; see
 * cache_plugin.h. */
#include "autoconfig.h"

#include "cache/cache_plugin.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cache/cache_options.h"
#include "lib/plugin.h"

static void say(char *error, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void say(char *error, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(error, size, fmt, ap);
	va_end(ap);
}

/* The first required part the table lacks, or NULL. */
static const char *missing_part(const struct cms_api_cache_driver *d)
{
	return !d->name ? "name" : !d->init ? "init" : !d->get ? "get" : !d->put ? "put" : NULL;
}

/* The driver's table, checked; NULL with the reason in error. */
static const struct cms_api_cache_driver *find_table(void *handle, const char *path, char *error,
                                                     size_t size)
{
	static const struct plugin_kind kind = {"cache driver", CMS_API_CACHE_DRIVER_SYMBOL,
	                                        CMS_API_CACHE_DRIVER_ABI_VERSION,
	                                        "<cms-api/cache-driver.h>"};
	const struct cms_api_cache_driver *d = plugin_table(&kind, handle, path, error, size);
	if (!d)
		return NULL;
	const char *missing = missing_part(d);
	if (missing) {
		say(error, size, "%s: the driver's table has no %s", path, missing);
		return NULL;
	}
	return d;
}

/* The driver's init with cfg's options; its state, or NULL with the
 * driver's reason in error. */
static void *init_driver(const struct cms_api_cache_driver *d, const struct config *cfg,
                         char *error, size_t size)
{
	char why[CONFIG_ERR_LEN] = "";
	void *state = cache_driver_init(d, cfg, why, sizeof why);
	if (!state) {
		why[sizeof why - 1] = '\0'; /* a driver that overran its message */
		say(error, size, "%s (%s) cannot start: %s", cfg->cache_plugin_path, d->name,
		    *why ? why : "its init gave no reason");
	}
	return state;
}

int cache_plugin_load(const struct config *cfg, struct cache_plugin *p, char *error,
                      size_t error_size)
{
	memset(p, 0, sizeof *p);
	const char *path = cfg->cache_plugin_path;
	/* dlopen would look a name without a '/' up in the library path. */
	if (!path || path[0] != '/') {
		say(error, error_size, "a plug-in cache driver is named by its absolute path, not %s",
		    path ? path : "(none)");
		return -1;
	}
	void *handle = plugin_open(path, error, error_size);
	if (!handle)
		return -1;
	const struct cms_api_cache_driver *d = find_table(handle, path, error, error_size);
	void *state = d ? init_driver(d, cfg, error, error_size) : NULL;
	if (!state) {
		dlclose(handle);
		return -1;
	}
	p->handle = handle;
	p->driver = d;
	p->state = state;
	return 0;
}

void cache_plugin_unload(struct cache_plugin *p)
{
	if (p->driver && p->driver->free && p->state)
		p->driver->free(p->state);
	if (p->handle)
		dlclose(p->handle);
	memset(p, 0, sizeof *p);
}

/* --- calls --- */

static void append_to_strbuf(void *sink, const void *bytes, size_t len)
{
	strbuf_add(sink, bytes, len);
}

int cache_plugin_get(const struct cache_plugin *p, const struct cms_api_cache_request *req,
                     struct strbuf *out)
{
	size_t before = out->len;
	errno = 0;
	int rc = p->driver->get(p->state, req, append_to_strbuf, out);
	int err = errno;
	if (rc != 1) {
		/* A driver that appended part of an entry and then failed. */
		strbuf_truncate(out, before);
		rc = rc == 0 ? 0 : -1;
	}
	errno = err;
	return rc;
}

int cache_plugin_put(const struct cache_plugin *p, const struct cms_api_cache_request *req,
                     const struct cms_api_cache_response *res)
{
	errno = 0;
	return p->driver->put(p->state, req, res) == 0 ? 0 : -1;
}

int cache_plugin_invalidate(const struct cache_plugin *p, const struct cms_api_cache_event *ev)
{
	if (!p->driver->invalidate)
		return 0;
	errno = 0;
	return p->driver->invalidate(p->state, ev) == 0 ? 0 : -1;
}
