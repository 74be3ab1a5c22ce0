/*
 * model: the data of a loaded site (site_index): its sites, collections,
 * blueprints and entries, with the lookups every reader of it uses. The
 * loaders (entries.h, trees.h, blueprints.h, taxonomies.h, navs.h,
 * globals.h, people.h, assets.h) fill it; index.h runs them in order and
 * frees what they made. A loader includes this header, never index.h:
 * loaders never call back into the load.
 */
#ifndef CMS_API_SITE_MODEL_H
#define CMS_API_SITE_MODEL_H

#include <stdbool.h>
#include <stddef.h>

#include "core/config.h"
#include "lib/value.h"
#include "site/files.h"

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
	char *redirect;        /* owned: where its `redirect` sends (redirects.h), its url
	                        * then; NULL when it sends nowhere */
	long order;            /* 1-based position in the site's tree, -1 when not structured */
	int depth;             /* depth in the tree (1 = top), 0 when not structured */
	const struct entry *parent; /* tree parent, NULL at the top */
	value_t own;           /* owned (its bytes: free((void *)own.p)): the file's data
	                        * minus id, origin and published, a packed map in just
	                        * the bytes it takes (a million of them are held at once) */
};

struct site_index {
	struct site_files files;    /* owned: the site folder and the problems found */
	const struct config *cfg;   /* what it was loaded with; only valid while loading */
	uint64_t config_print;      /* site_config_print of that config: what it renders with */
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
	struct icon_set *icons;     /* owned: the config's [icons], for the icon
	                             * fieldtype (site/icons.h) */
	size_t nicons;
};

/* The collection with that handle, or NULL. */
const struct collection_info *site_index_collection(const struct site_index *idx,
                                                    const char *handle);

/* The site with that handle, or NULL. */
const struct site_info *site_index_site(const struct site_index *idx, const char *handle);

#endif
