/*
 * entries: reads every collection's entry files into the site index
 * (content-format.md §5) and answers about them once loaded: an entry by
 * id, a field as Statamic resolves it, its localization in a site.
 */
#ifndef CMS_API_SITE_ENTRIES_H
#define CMS_API_SITE_ENTRIES_H

#include "lib/value.h"
#include "site/model.h"

/* Reads every collection's entries into idx->entries (sorted by collection
 * then path), fills the id table, links origins, and lists each
 * collection's entries; needs the sites and collections read. A dated
 * entry's date is its file name's (has_date), or none yet (dates.h).
 * Unreadable files and guesses are recorded as problems. */
void entries_load(struct site_index *idx);

/* Frees what entries_load made (the entries, the id table and the
 * collections' lists of entries). */
void entries_free(struct site_index *idx);

/* The entry with that id, or NULL. */
const struct entry *site_index_entry(const struct site_index *idx, const char *id);

/* The entry's localization in site (Statamic's $entry->in($site)): the
 * entry of that site that shares its origins' root, e itself when e is in
 * that site, or NULL when the entry has no localization there. */
const struct entry *entry_in_site(const struct site_index *idx, const struct entry *e,
                                  size_t site);

/* A field of an entry as Statamic resolves it: the entry's own data, else
 * its origin's (recursively), else the collection's `inject`; missing
 * when none has it. `published` is never inherited. */
value_t entry_field(const struct site_index *idx, const struct entry *e, const char *key);

#endif
