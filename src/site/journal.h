/*
 * journal: what changed in the site, generation by generation, as the
 * sync feed (api/sync.c) tells it: the watcher appends one record each
 * time the cache generation moves (edge/hooks.c, from the files the
 * change touched), and a worker answering GET /sync?sync_token=T reads
 * the records after T's, so a request never compares the site with
 * anything. It lives in the site layer, below both: it names the site's
 * items and reads their paths in a snapshot, nothing more.
 *
 * A record names its generation (the cache signature, generation.h: the
 * same on every machine serving the same files) and the items whose files
 * changed: kind, handle (collection, taxonomy, global set, navigation,
 * asset container), id (an entry's, when known: for a deleted entry the
 * sync feed must name it), path (the entry's or the asset's file). A record
 * marked reset stands for a change whose items are not known (a
 * blueprint, the sites, a scan): no token from before it can be answered
 * item by item.
 *
 * The file, "sync-<site>.journal" in the cache directory: a first line
 * "cms-api-sync 1", then per record "g SIGNATURE" (16 hex digits) and
 * "r" if it is a reset, and per item "+"/"-" (saved, deleted), the kind
 * and the percent-encoded handle, id and path, separated by spaces. It
 * keeps the last [sync] generations records, and is replaced whole
 * (publish.h) at each append, so a reader sees the old one or the new.
 */
#ifndef CMS_API_SITE_JOURNAL_H
#define CMS_API_SITE_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "site/snapshot.h"

enum journal_kind { JOURNAL_ENTRY, JOURNAL_TERM, JOURNAL_GLOBAL, JOURNAL_NAV, JOURNAL_ASSET };
#define JOURNAL_KINDS 5

struct journal_item {
	enum journal_kind kind;
	bool deleted;
	char *handle, *id, *path; /* owned; id and path "" when none */
};

struct journal_gen {
	uint64_t signature;
	bool reset;
	struct journal_item *items; /* owned */
	size_t n, alloc;
};

struct journal {
	struct journal_gen *gens; /* owned, oldest first */
	size_t n;
};

/* The kind's name ("entry", "term", "global", "nav", "asset"). */
const char *journal_kind_name(enum journal_kind k);

void journal_gen_add(struct journal_gen *g, enum journal_kind kind, bool deleted,
                     const char *handle, const char *id, const char *path);
void journal_gen_free(struct journal_gen *g);

/* Reads a journal from text[0..len). Returns 0, or -1 (j empty) when it
 * is not one. */
int journal_parse(const char *text, size_t len, struct journal *j);

/* Reads the journal at path; a missing file is an empty journal. Returns
 * 0, or -1 (j empty) when it cannot be read or is not a journal. */
int journal_read(const char *path, struct journal *j);
void journal_free(struct journal *j);

/* Appends g to the journal at path, keeping the last keep records.
 * Returns 0, or -1 with errno set. */
int journal_append(const char *path, const struct journal_gen *g, size_t keep);

enum journal_span { JOURNAL_FOUND, JOURNAL_UNKNOWN, JOURNAL_RESET };

/* The records after since's, up to upto's (or to the end when upto is
 * not in it), in *first and *end (indexes into j->gens). JOURNAL_UNKNOWN:
 * since is not in the journal (too old, or never one of this site's);
 * JOURNAL_RESET: a reset lies in between. since == upto is found and
 * empty. */
enum journal_span journal_since(const struct journal *j, uint64_t since, uint64_t upto,
                                size_t *first, size_t *end);

/* The entry of collection (a handle) whose file is path (relative to the
 * site root), or SNAP_NONE. (A walk through the collection's entries: the
 * journal's items are few, and the index keeps a site's files together
 * rather than all in path order.) */
uint32_t journal_entry_at(const struct snapshot *s, const char *collection, const char *path);

/* The token a client is given for a generation, and back: 16 hex digits.
 * journal_token_parse returns false for anything else. */
void journal_token(uint64_t signature, char out[17]);
bool journal_token_parse(const char *s, uint64_t *signature);

#endif
