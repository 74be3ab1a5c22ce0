/*
 * assets: asset containers and their files (content-format.md §12), into
 * the index's extras, and the few ways of reading them back that need to
 * know how they are stored.
 */
#ifndef CMS_API_SITE_ASSETS_H
#define CMS_API_SITE_ASSETS_H

#include <stdbool.h>

#include "lib/strbuf.h"
#include "lib/value.h"
#include "site/model.h"

/* Appends "assets" and its list (shape in assets.c) to the open
 * idx->extras map; a container's files are listed from its disk's root
 * in idx->cfg ([disks.*] in the INI). */
void assets_load(struct site_index *idx);

/* The file of the container (one item of that list) whose path is path
 * exactly, or missing; a binary search, no walk through the list. */
value_t assets_find_file(value_t container, const char *path);

/* Appends an asset's url: its container's url and its path
 * ("/assets" + "img/a.png" is "/assets/img/a.png"), as Statamic's
 * URL::assemble, unencoded; false, appending nothing, when the container
 * has no url (a private disk). */
bool assets_url(value_t container, const char *path, struct strbuf *out);

/* Appends "assets/{container}/{path}", an asset's place below the API
 * root, each segment percent-encoded as Laravel's route URLs are
 * (rawurlencode, with @ : ; , = + ! * | & left bare) and the path's '/'
 * kept; '?', '#' and '%' stay encoded, where Laravel would leave them and
 * break the URL: a name with a space or a '#' still makes a URL that
 * names it. */
void assets_api_path(const char *container, const char *path, struct strbuf *out);

#endif
