/*
 * navpages: the pages of navigation trees as Statamic's API delivers them
 * (its AugmentedPage), augmented once when the index is built.
 *
 * A tree item's page takes its values through the navigation's
 * blueprint. A page that links an entry shows every field of that
 * blueprint, each the item's own value when it is truthy, else the
 * entry's, through the navigation's field (else the entry's); a link or
 * heading shows only the keys its data sets. The rest of an entry's page
 * (its own fields, url, ...) is the entry's, merged per request.
 */
#ifndef CMS_API_NAVPAGES_H
#define CMS_API_NAVPAGES_H

#include "lib/value.h"
#include "site/augment.h"

/* Appends trees (navs.c's {site: [item]} of the navigation whose
 * blueprint is fields) with each item's data replaced by its page's
 * augmented values (keys sorted), children likewise. */
void navpages_augment_trees(const struct augment_ctx *ctx, value_t fields, value_t trees,
                            struct value_builder *out);

#endif
