/*
 * navs: navigations and their trees (content-format.md §7), into the
 * index's extras.
 */
#ifndef CMS_API_SITE_NAVS_H
#define CMS_API_SITE_NAVS_H

#include "site/model.h"

/* Appends "navs" and its list (shape in navs.c) to the open idx->extras
 * map; needs the sites read. */
void navs_load(struct site_index *idx);

#endif
