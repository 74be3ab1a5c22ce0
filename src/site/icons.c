/* icons: one icon's SVG; see icons.h. */
#include "autoconfig.h"

#include "site/icons.h"

#include <limits.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


const char *icons_folder(const struct icon_set *sets, size_t n, const char *set)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(sets[i].name, set) == 0)
			return sets[i].folder;
	return NULL;
}

/* A name that makes one file of the folder: not empty, no '/' (so no
 * "../x"), no NUL (the bytes after it would be dropped), not "..". */
static bool file_name(const char *name, size_t len)
{
	return len > 0 && !memchr(name, '/', len) && !memchr(name, '\0', len) &&
	       !(len == 2 && memcmp(name, "..", 2) == 0);
}

/* Whether path, resolved, is a regular file of at most ICONS_MAX_SIZE
 * bytes in the resolved folder (the folder itself may be a link: the
 * operator named it). */
static bool icon_file(const char *folder, const char *path)
{
	char real_folder[PATH_MAX], real_path[PATH_MAX];
	struct stat st;
	if (!realpath(folder, real_folder) || !realpath(path, real_path) ||
	    stat(real_path, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size > (off_t)ICONS_MAX_SIZE)
		return false;
	size_t n = strlen(real_folder);
	if (n == 1) /* the folder is "/" */
		n = 0;
	return strncmp(real_path, real_folder, n) == 0 && real_path[n] == '/';
}

int icons_read(const char *folder, const char *name, size_t len, struct strbuf *out)
{
	if (!file_name(name, len))
		return -1;
	struct strbuf path = STRBUF_INIT;
	strbuf_addf(&path, "%s/%.*s.svg", folder, (int)len, name);
	size_t had = out->len;
	int rc = icon_file(folder, path.ptr) ? strbuf_read_file(out, path.ptr) : -1;
	if (rc != 0)
		strbuf_truncate(out, had);
	strbuf_release(&path);
	return rc;
}
