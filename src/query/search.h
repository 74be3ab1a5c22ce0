/*
 * query/search: q=words on a list of entries or terms, ranked, through an
 * SQLite FTS5 index of the fields the config names for it ([resources.
 * collections.<handle>] search = title, content).
 *
 * Each worker keeps one index, in memory, beside the snapshot it serves:
 * a list's documents are brought current when the list is searched and
 * the snapshot has changed since (a change event of the watcher gives a
 * new snapshot, with another signature), incrementally: an item whose
 * text is unchanged is not written again, a new or changed one is, a gone
 * one is removed. Words are folded (case, diacritics: unicode61
 * remove_diacritics 2) and stemmed (porter), so "Crème" finds "creme" and
 * "baking" finds "bake"; every word must match; the best first
 * (bm25, the first field named counting four times as much as the others).
 */
#ifndef CMS_API_SEARCH_H
#define CMS_API_SEARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/config.h"
#include "lib/value.h"

struct search_index;

/* The items of one list as the index reads them, numbered 0..n-1. */
struct search_source {
	size_t n;
	/* The item's value of key (a field named for search, or "id" and
	 * "locale", its identity), valid until the next call. */
	value_t (*value)(void *self, uint32_t item, const char *key, struct value_builder *scratch);
	void *self;
};

/* What a sync did, for the log and the bench. */
struct search_stats {
	size_t docs;      /* the list's documents after it */
	size_t written;   /* new or changed, written */
	size_t removed;   /* gone, removed */
	double seconds;
	bool synced;      /* false: the list was current, nothing read */
};

/* Opens an empty index: 0, or -1 with why in err. */
int search_index_open(struct search_index **out, char *err, size_t err_size);
void search_index_close(struct search_index *ix);

/* Brings list (a name of the caller's: "entries/blog") current with src:
 * a no-op when generation and fields are those of the last sync. fields
 * (a comma-free list) are read in that order. Returns 0, or -1 with why
 * in err (the list is then forgotten, to be read whole next time). */
int search_sync(struct search_index *ix, const char *list, uint64_t generation,
                const struct strlist *fields, const struct search_source *src,
                struct search_stats *stats, char *err, size_t err_size);

/* The items of list matching every word of words (at most
 * SEARCH_MAX_WORDS are read), best first, in *out (owned by the caller,
 * NULL when none match). Returns 0, or -1 with why in err. */
#define SEARCH_MAX_WORDS 16
int search_find(struct search_index *ix, const char *list, const char *words, uint32_t **out,
                size_t *n, char *err, size_t err_size);

/* Whether words holds a word at all. */
bool search_has_words(const char *words);

/* The bytes the index takes in memory. */
size_t search_index_bytes(struct search_index *ix);

#endif
