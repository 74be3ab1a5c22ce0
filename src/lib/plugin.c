/* lib/plugin: opening a plug-in and finding its table; see plugin.h. */
#include "autoconfig.h"

#include "lib/plugin.h"

#include <dlfcn.h>
#include <stdio.h>
#include <string.h>

typedef const void *(*entry_fn)(void);

/* dlerror's message without the object's path it usually starts with:
 * the caller's message names the object already. */
static const char *dl_reason(const char *path)
{
	const char *why = dlerror();
	size_t n = strlen(path);
	if (!why)
		return "no reason given";
	if (strncmp(why, path, n) == 0 && strncmp(why + n, ": ", 2) == 0)
		return why + n + 2;
	return why;
}

void *plugin_open(const char *path, char *error, size_t size)
{
	void *handle = dlopen(path, RTLD_NOW | RTLD_LOCAL);
	if (!handle)
		snprintf(error, size, "cannot load %s: %s", path, dl_reason(path));
	return handle;
}

const void *plugin_table(const struct plugin_kind *k, void *handle, const char *path,
                         char *error, size_t size)
{
	dlerror();
	void *sym = dlsym(handle, k->symbol);
	dlerror();
	if (!sym) {
		snprintf(error, size, "%s is not a cms-api %s: it exports no %s()", path, k->name,
		         k->symbol);
		return NULL;
	}
	/* POSIX: what dlsym finds for a function converts to a pointer to it. */
	const void *table = ((entry_fn)sym)();
	if (!table) {
		snprintf(error, size, "%s: %s() gave no table", path, k->symbol);
		return NULL;
	}
	int abi = *(const int *)table;
	if (abi != k->abi_version) {
		snprintf(error, size, "%s is a %s of ABI version %d, but this cms-api loads ABI "
		         "version %d only: rebuild it against this cms-api's %s", path, k->name, abi,
		         k->abi_version, k->header);
		return NULL;
	}
	return table;
}
