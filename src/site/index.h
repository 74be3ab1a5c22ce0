/*
 * index: everything cms-api knows about one Statamic site folder, read
 * from its flat files once, so that a request never parses YAML.
 *
 * What it holds so far: the sites (locales) and the collections with
 * their settings. A file that cannot be read is recorded as a problem
 * (path, line, message) and left out; the rest of the site is served.
 */
#ifndef CMS_API_SITE_INDEX_H
#define CMS_API_SITE_INDEX_H

#include <stdbool.h>
#include <stddef.h>

#include "config.h"
#include "value.h"

/* One Statamic site (a locale of the website). */
struct site_info {
	char *handle;       /* owned, e.g. "en" */
	char *name;         /* owned */
	char *locale;       /* owned, e.g. "en_US" */
	char *short_locale; /* owned, e.g. "en" */
	char *lang;         /* owned: `lang`, else short_locale */
	char *url;          /* owned: as configured, trailing '/' trimmed except "/" */
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
};

/* A file that could not be read; line 0 when no line applies. */
struct problem {
	char *path; /* owned, relative to the content root */
	int line;
	char *message; /* owned */
};

struct site_index {
	char *root;                 /* owned: the site folder */
	struct site_info *sites;    /* owned; the first is the default site */
	size_t nsites;
	bool multisite;             /* site folders are used on disk */
	struct collection_info *collections; /* owned, sorted by handle */
	size_t ncollections;
	struct problem *problems;   /* owned, in the order found */
	size_t nproblems;
};

/*
 * Reads the site at cfg->content_root. Returns a new index (never NULL):
 * unreadable files become problems, they do not fail the load.
 */
struct site_index *site_index_load(const struct config *cfg);
void site_index_free(struct site_index *idx);

const struct collection_info *site_index_collection(const struct site_index *idx,
                                                    const char *handle);
const struct site_info *site_index_site(const struct site_index *idx, const char *handle);

/* Writes "path:line: message" lines for every problem to out; returns
 * the number of problems. */
size_t site_index_report(const struct site_index *idx, struct strbuf *out);

#endif
