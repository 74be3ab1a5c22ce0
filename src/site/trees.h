/*
 * trees: collection trees and entry URIs (content-format.md §4, §5.6, §6).
 */
#ifndef CMS_API_SITE_TREES_H
#define CMS_API_SITE_TREES_H

#include "site/model.h"

/* Reads each structured collection's tree per site and sets its entries'
 * order, depth and parent (entries the tree leaves out go last at the top
 * level), then every entry's URI from its collection's route; needs the
 * entries loaded. A route cms-api cannot render is recorded as a warning. */
void trees_load(struct site_index *idx);

#endif
