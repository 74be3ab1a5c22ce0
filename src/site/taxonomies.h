/*
 * taxonomies: taxonomies and their terms (content-format.md §8), into the
 * index's extras.
 */
#ifndef CMS_API_SITE_TAXONOMIES_H
#define CMS_API_SITE_TAXONOMIES_H

#include "site/model.h"

/* Appends "taxonomies" and its list (shape in taxonomies.c) to the open
 * idx->extras map; needs the entries loaded, since terms list the entries
 * that use them. */
void taxonomies_load(struct site_index *idx);

#endif
