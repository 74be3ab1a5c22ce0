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
 * This header holds the data and the whole load. Each kind of content has
 * its own reader and header (entries.h, trees.h, blueprints.h,
 * taxonomies.h, navs.h, globals.h, people.h, assets.h), which declares
 * what it answers about the loaded index too: entries by id and their
 * fields and status in entries.h, an entry's blueprint in blueprints.h.
 */
#ifndef CMS_API_SITE_INDEX_H
#define CMS_API_SITE_INDEX_H

#include <stdbool.h>
#include <stddef.h>

#include "core/config.h"
#include "site/files.h"
#include "lib/value.h"

/* One Statamic site (a locale of the website). */
struct site_info {
	char *handle;       /* owned, e.g. "en" */
	char *name;         /* owned */
	char *locale;       /* owned, e.g. "en_US" */
	char *short_locale; /* owned, e.g. "en" */
	char *lang;         /* owned: `lang`, else short_locale */
	char *url;          /* owned: as configured, trailing '/' trimmed except "/" */
};

/* One blueprint of a collection (content-format.md §13). */
struct blueprint {
	char *handle;              /* owned: the file name */
	char *title;               /* owned */
	bool hidden;               /* `hide: true`: never chosen by default */
	long order;                /* `order`, LONG_MAX when absent */
	struct value_builder fields; /* owned: handle -> field config, in order */
};

struct collection_info {
	char *handle;          /* owned: the file name */
	char *title;           /* owned: `title`, else the handle with its first letter upper-cased */
	bool structured;       /* has `structure:` */
	long max_depth;        /* structure.max_depth, -1 when absent (null) */
	bool expects_root;     /* structure.root */
	char *mount;           /* owned: entry id, or NULL */
	bool dated;            /* `date: true` */
	struct value_builder settings; /* owned: the whole collection file as a map */
	bool future_private;   /* date_behavior.future is private: future entries are scheduled */
	bool past_private;     /* date_behavior.past is private: past entries are expired */
	struct entry **entries; /* owned array (the entries are the index's), sorted by path */
	size_t nentries;
	struct blueprint *blueprints; /* owned, sorted for the default choice */
	size_t nblueprints;
};

/* One entry file (one localization of an entry). */
struct entry {
	char *id;              /* owned: `id`, or one made from the path (with a warning) */
	char *path;            /* owned: relative to the content root */
	char *slug;            /* owned, NULL for a slugless collection whose file is named by id */
	char *origin_id;       /* owned, NULL when this is not a localization */
	const struct entry *origin; /* the entry origin_id names, or NULL */
	size_t collection;     /* index into site_index.collections */
	size_t site;           /* index into site_index.sites */
	bool published;        /* `published` (not inherited), default true */
	bool has_date;         /* dated collection: date is meaningful */
	long long date;        /* Unix seconds, UTC */
	long long mtime;       /* the file's modification time */
	char *uri;             /* owned: site-relative, NULL when the collection has no route */
	long order;            /* 1-based position in the site's tree, -1 when not structured */
	int depth;             /* depth in the tree (1 = top), 0 when not structured */
	const struct entry *parent; /* tree parent, NULL at the top */
	struct value_builder own;   /* owned: the file's data minus id, origin and published */
};

struct site_index {
	struct site_files files;    /* owned: the site folder and the problems found */
	const struct config *cfg;   /* what it was loaded with; only valid while loading */
	struct site_info *sites;    /* owned; the first is the default site */
	size_t nsites;
	bool multisite;             /* site folders are used on disk */
	struct collection_info *collections; /* owned, sorted by handle */
	size_t ncollections;
	struct entry *entries;      /* owned, every collection's, sorted by collection then path */
	size_t nentries;
	size_t *entry_slots;        /* owned: open-addressing table of entry index + 1 by id */
	size_t nslots;              /* a power of two, at least twice nentries */
	size_t *localized;          /* owned: [root entry * nsites + site] -> entry index + 1,
	                             * the localization of an entry (through its origins'
	                             * root) in a site; 0 when it has none */
	struct value_builder extras; /* owned: a map of the smaller kinds of content,
	                              * "taxonomies", "navs", "globals", "forms",
	                              * "users" (see each reader for its shape) */
};

/*
 * Reads the site at cfg->content_root. Returns a new index (never NULL):
 * unreadable files become problems, they do not fail the load. A folder
 * that cannot be read, or the site folder or its content/ gone, leaves
 * idx->files.unreadable set: the index is then not the site, and must not
 * be served in place of a good one.
 */
struct site_index *site_index_load(const struct config *cfg);

/* The same, a file that no longer parses standing in with its version in
 * previous (the sources of an earlier read, snapshot_sources()). */
struct site_index *site_index_load_over(const struct config *cfg, value_t previous);
void site_index_free(struct site_index *idx);

/* The collection with that handle, or NULL. */
const struct collection_info *site_index_collection(const struct site_index *idx,
                                                    const char *handle);

/* The site with that handle, or NULL. */
const struct site_info *site_index_site(const struct site_index *idx, const char *handle);

#endif
