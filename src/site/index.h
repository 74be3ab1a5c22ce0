/*
 * index: everything cms-api knows about one Statamic site folder, read
 * from its flat files once, so that a request never parses YAML.
 *
 * What it holds so far: the sites (locales), the collections with their
 * settings, their entries (file-name grammar, ids, localizations, dates)
 * and their trees (order, parents, URIs). A file that cannot be read is
 * recorded as a problem (path, line, message) and left out; the rest of
 * the site is served.
 *
 * The data is model.h's; this header is the whole load, and the freeing
 * of what it made. Each kind of content has its own reader and header
 * (entries.h, trees.h, blueprints.h, taxonomies.h, navs.h, globals.h,
 * people.h, assets.h), which declares what it answers about the loaded
 * index too: entries by id and their fields and status in entries.h, an
 * entry's blueprint in blueprints.h.
 */
#ifndef CMS_API_SITE_INDEX_H
#define CMS_API_SITE_INDEX_H

#include "core/config.h"
#include "lib/value.h"
#include "site/model.h"

/*
 * Reads the site at cfg->content_root. Returns a new index (never NULL):
 * unreadable files become problems, they do not fail the load. A folder
 * that cannot be read, or the site folder or its content/ gone, leaves
 * idx->files.unreadable set: the index is then not the site, and must not
 * be served in place of a good one.
 */
struct site_index *site_index_load(const struct config *cfg);

/* A hash of what an index reads of cfg besides the site's files:
 * app_name, base_url, [sites.*], the names and URLs of [disks.*] and the
 * sets of [icons]. An
 * index (or a snapshot) made with another config print is not this
 * config's, whatever else the INI changed. */
uint64_t site_config_print(const struct config *cfg);

/* The same, a file that no longer parses standing in with its version in
 * previous (the sources of an earlier read, snapshot_sources()). */
struct site_index *site_index_load_over(const struct config *cfg, value_t previous);

/* The same, the files in held (absolute paths: being written) not read:
 * their versions in previous stand in (files.h). */
struct site_index *site_index_load_holding(const struct config *cfg, value_t previous,
                                           const struct strmap *held);

/* site_index_load_holding, the sources of the files read kept in
 * idx->files.sources only when sources is true (they are a copy of
 * every file parsed: a read whose sources nobody keeps saves it), with
 * their memo (files.h). A file memo (NULL: none; else previous's) says
 * is the version it parsed is taken from previous, not read again. With
 * changed (NULL: none), the files that may have changed since memo was
 * made (absolute paths): any other file memo has is taken without a
 * stat. */
struct site_index *site_index_read(const struct config *cfg, value_t previous,
                                   const struct files_memo *memo, const struct strmap *held,
                                   const struct strmap *changed, bool sources);
void site_index_free(struct site_index *idx);

#endif
