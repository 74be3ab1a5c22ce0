/*
 * icons: one icon's SVG, for the icon fieldtype (augment.h).
 *
 * Statamic answers an icon field with the bytes of <folder>/<name>.svg,
 * the folder being the one its set was registered with in PHP
 * (Icon::register('heroicons', base_path(...))); cms-api's [icons] section
 * names those folders (core/config.h, struct icon_set). The site index
 * keeps a copy of them (struct site_index), because icons are read when
 * the snapshot is written, after the config has gone.
 *
 * Statamic reads whatever path the name makes; cms-api only a file of the
 * folder: a name holding '/' or NUL, or ".." itself, is no icon's name,
 * and a file whose real path (symbolic links followed) is outside the
 * folder is no icon of it.
 */
#ifndef CMS_API_SITE_ICONS_H
#define CMS_API_SITE_ICONS_H

#include <stddef.h>

#include "core/config.h"
#include "lib/strbuf.h"

/* An SVG larger than this is refused (no icon is; strbuf_read_file has
 * no bound of its own). */
#define ICONS_MAX_SIZE ((size_t)1 << 20)

/* The folder of the set named set among sets[0..n), or NULL. */
const char *icons_folder(const struct icon_set *sets, size_t n, const char *set);

/* Appends the bytes of the icon named name[0..len) in folder (absolute)
 * to out: <folder>/<name>.svg, a regular file inside the folder of at
 * most ICONS_MAX_SIZE bytes. Returns 0, or -1 (out as it was) when the
 * name is no file name or there is no such file. */
int icons_read(const char *folder, const char *name, size_t len, struct strbuf *out);

#endif
