/*
 * assets: asset containers and their files (content-format.md §12), into
 * the index's extras.
 */
#ifndef CMS_API_SITE_ASSETS_H
#define CMS_API_SITE_ASSETS_H

#include "site/index.h"

/* Appends "assets" and its list (shape in assets.c) to the open
 * idx->extras map; a container's files are listed from its disk's root
 * in idx->cfg ([disks.*] in the INI). */
void assets_load(struct site_index *idx);

#endif
