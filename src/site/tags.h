/*
 * tags: the cache tags of what a site holds (an entry, its collection's
 * lists, a term, a global set, a navigation, a form, an asset), named the
 * same way when an answer lists what it shows (api/tags.h) and when the
 * watcher works out what a change to a file touched (edge/), so that a
 * purge of the one reaches the other.
 *
 * Tags are short and stable: made of [A-Za-z0-9._-] only (Akamai's
 * Edge-Cache-Tag allows the fewest characters: no ':', '/' or ','), at
 * most TAG_MAX_LEN bytes. An item named by its file (an entry, an asset)
 * is tagged by a hash of its path: the watcher knows the path, not the id
 * inside the file, and a file renamed is a file deleted, which purges
 * every answer that showed it. A handle is written as it is when it is
 * short and plain, else hashed.
 */
#ifndef CMS_API_SITE_TAGS_H
#define CMS_API_SITE_TAGS_H

#include <stdbool.h>

#include "lib/strbuf.h"
#include "lib/tagset.h"

/* Longer than any tag made here: prefix (TAG_MAX_PREFIX) + kind + name. */
#define TAG_MAX_LEN 64
#define TAG_MAX_PREFIX 16

enum tag_kind {
	TAG_ALL,     /* "all": every answer of the site */
	TAG_ANY,     /* "any": purged by every purge (a 404, an answer whose tags were cut) */
	TAG_ENTRY,   /* a: the entry's path (relative to the site root) */
	TAG_ENTRIES, /* a: a collection: its lists and trees */
	TAG_TERM,    /* a: a taxonomy, b: the term's slug */
	TAG_TERMS,   /* a: a taxonomy: its lists of terms */
	TAG_GLOBAL,  /* a: a global set */
	TAG_GLOBALS, /* the list of global sets */
	TAG_NAV,     /* a: a navigation (its tree too) */
	TAG_NAVS,    /* the list of navigations */
	TAG_FORM,    /* a: a form */
	TAG_FORMS,   /* the list of forms */
	TAG_ASSET,   /* a: the disk's name ([disks.<name>]), b: the path below its root */
	TAG_ASSETS,  /* a: a disk: its containers' lists of assets */
	TAG_USERS,   /* every answer showing a user */
};

/* Appends the tag to out: prefix (at most TAG_MAX_PREFIX bytes of the
 * tag alphabet: [edge] tag_prefix) and the kind's name of a and b. */
void tag_name(struct strbuf *out, const char *prefix, enum tag_kind kind, const char *a,
              const char *b);

/* Adds the tag to set, with the coarser tag that covers it (an entry's
 * collection's lists, a term's taxonomy's, an asset's disk's, a global
 * set's, a navigation's or a form's list; none for the rest). For
 * TAG_ENTRY, coarse_a is the entry's collection (ignored otherwise). */
void tag_add(struct tagset *set, const char *prefix, enum tag_kind kind, const char *a,
             const char *b, const char *coarse_a);

/* What one item a changed file holds (event, disk and path as for
 * tags_of_change): its kind, and its names as tag_name takes them (a: the
 * collection, taxonomy, handle or disk; b: the entry's path, the term's
 * slug, the asset's path below its disk). False when the file holds no
 * one item. */
bool tag_item_of_change(const char *event, const char *disk, const char *path,
                        enum tag_kind *kind, struct strbuf *a, struct strbuf *b);

/*
 * Adds to set the tags of every answer a change to one file may have
 * made stale: event is Statamic's ("EntrySaved"), disk the [disks.<name>]
 * it is on (NULL for a file of the site) and path relative to the site
 * root or the disk's root, as the watcher tells them (change/watch.h).
 * Returns false when the change may touch any answer (a blueprint, a
 * collection's settings or tree, the sites, a file it cannot place): then
 * TAG_ALL is the one to purge.
 */
bool tags_of_change(const char *prefix, const char *event, const char *disk, const char *path,
                    struct tagset *set);

#endif
