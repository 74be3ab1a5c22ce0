/*
 * globals: global sets in all three layouts (content-format.md §9), into
 * the index's extras.
 */
#ifndef CMS_API_SITE_GLOBALS_H
#define CMS_API_SITE_GLOBALS_H

#include "site/model.h"

/* Appends "globals" and its list (shape in globals.c) to the open
 * idx->extras map; needs the sites read. */
void globals_load(struct site_index *idx);

#endif
