/*
 * snapshot: the site index in one position-independent block of bytes,
 * so that it is built once and shared: the builder writes it to a file in
 * the cache directory, and every worker maps that file read-only and
 * answers from it at once, instead of reparsing the site.
 *
 * The same bytes serve from the heap when no file can be used (the CLI, a
 * read-only cache directory). Readers go through the accessors below and
 * never see whether the bytes are mapped or allocated.
 *
 * Layout: a head and segments (segment.h). The head is a header, then
 * fixed-size records (sites, collections, entries grouped by collection,
 * problems), an id hash table, the entries' fingerprints, the segments'
 * and the relations' tables, and a blob holding every string
 * (NUL-terminated) and packed value (value.h) the records point at by
 * offset. What an entry renders to (its id, path, slug, blueprint and
 * data: its blob) sits in a segment; its URI, place and title in the
 * head. A build that is given the last snapshot takes from it the blob of
 * every entry whose fingerprint (what its rendering reads) it has, and
 * names the same segment files: an edit writes a new head and the blobs
 * it rendered anew. In memory the one segment is embedded after the head.
 *
 * The short objects of the entries' relations are kept once, in the
 * head: such a reference holds a null object and the object's number as
 * its target (snap_ref_object, snap_ref_target read both kinds).
 */
#ifndef CMS_API_SNAPSHOT_H
#define CMS_API_SNAPSHOT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lib/strbuf.h"
#include "lib/value.h"
#include "site/model.h"

#define SNAP_NONE UINT32_MAX
#define SNAP_ERR_LEN 256

struct snapshot;

/* Readers' views of the records: pointers into the snapshot's bytes,
 * valid while the snapshot is open. Strings that may be absent are NULL. */
struct snap_site {
	const char *handle, *name, *locale, *short_locale, *lang, *url;
};

struct snap_collection {
	const char *handle, *title, *mount;
	bool structured, expects_root, dated, past_private, future_private;
	long max_depth;           /* -1 when absent */
	value_t settings;         /* the collection file */
	uint32_t first_entry;     /* its entries are [first_entry, first_entry + nentries) */
	uint32_t nentries;
	const uint32_t *by_date;  /* dated collections: its nentries entry numbers by date,
	                           * then number, undated last; NULL otherwise */
	const uint32_t *published; /* dated collections: of by_date, the npublished entries
	                           * that are published and have a date; NULL otherwise. Those
	                           * published at a moment are one run of them: the
	                           * scheduled come after it, the expired before. */
	uint32_t npublished;
	uint32_t published_undated; /* dated collections: published entries without a date */
	const char *titles;       /* dated collections: the titles of `published`, in order, as
	                           * a contains filter reads them (PHP's string of each, A-Z
	                           * lowered), one after another; the one of published[i]
	                           * ends at title_ends[i] and starts where the one before
	                           * ends (0 for the first); NULL otherwise */
	const uint32_t *title_ends;
};

struct snap_entry {
	const char *id, *path, *slug, *uri; /* slug and uri may be NULL */
	const char *redirect;     /* where its `redirect` sends, its url then; or NULL */
	uint32_t number;          /* this entry's index */
	uint32_t collection, site;
	uint32_t origin, parent;  /* entry indexes, SNAP_NONE when none */
	bool published, has_date;
	long long date, mtime;
	long order;               /* -1 when not structured */
	int depth;
	value_t data;             /* own values over the origin's over `inject`,
	                           * keys sorted, augmented */
	const char *blueprint, *blueprint_title; /* the blueprint it uses */
	value_t title;            /* data's title, found without a walk */
};

struct snap_problem {
	const char *path, *message;
	int line;
	bool warning;
	bool left_out; /* the file is not served (files.h) */
};

/* Serialises idx into out (appended): a whole snapshot in one block,
 * every entry rendered, with the sources of the files idx read
 * (snapshot_sources). signature identifies the content the index was
 * built from (see snapshot_signature). */
void snapshot_write(const struct site_index *idx, uint64_t signature, struct strbuf *out);

/* What a build did with the entries. */
struct snapshot_build_stats {
	uint32_t rendered; /* rendered now */
	uint32_t reused;   /* taken from the last snapshot (moved included) */
	uint32_t moved;    /* of those, copied out of a segment given up */
};

/* How snapshot_build builds. */
struct snapshot_how {
	const struct snapshot *previous; /* NULL, or the last snapshot, whose entries' blobs are
	                                  * reused where fingerprints match */
	const char *dir;            /* NULL: in memory; else the folder of the files */
	const char *head_name;      /* files: the head's name in dir */
	const char *segment_prefix; /* files: new segments are prefix + a number + ".seg" */
	struct snapshot_build_stats *stats; /* NULL, or filled */
};

/*
 * Builds the snapshot of idx, rendering what previous cannot give. In
 * memory it is one block; to files, the new segments are written and
 * flushed to disk, then the head is published at dir/head_name (flushed,
 * renamed into place). Returns it open (mapped from the files), or NULL
 * with err filled when a file could not be written (the new segments
 * are removed).
 */
struct snapshot *snapshot_build(const struct site_index *idx, uint64_t signature,
                                const struct snapshot_how *how, char err[SNAP_ERR_LEN]);

/* Opens a snapshot on bytes the caller hands over (freed on close). Returns
 * NULL with err filled when the bytes are not a valid snapshot. */
struct snapshot *snapshot_from_bytes(char *bytes, size_t len, char err[SNAP_ERR_LEN]);

/* Maps the snapshot file at path read-only. Returns NULL with err filled
 * when it is missing, truncated or not a snapshot of this version. */
struct snapshot *snapshot_map(const char *path, char err[SNAP_ERR_LEN]);

/* Writes bytes to path through a temporary file and rename(), so readers
 * see the old file or the new one, never half of one. Returns 0 or -1. */
int snapshot_save(const struct strbuf *bytes, const char *path, char err[SNAP_ERR_LEN]);
/* The same for the bytes of an open snapshot in memory (one of files is
 * refused: its head names files beside it). */
int snapshot_save_open(const struct snapshot *snap, const char *path, char err[SNAP_ERR_LEN]);

void snapshot_close(struct snapshot *snap);

uint64_t snapshot_signature_of(const struct snapshot *snap);
/* True when a folder of the site could not be read when it was built: it
 * is not the whole site, and must not be served in place of a good one. */
bool snapshot_incomplete(const struct snapshot *snap);
/* Every file it was built from, parsed: a map rel path -> the file's map,
 * for the next build to fall back on (site_index_load_over). Only a
 * snapshot of snapshot_write has them; others answer VALUE_MISSING (the
 * builder of a shared snapshot keeps them itself: workers never read
 * them, and they were half its bytes). */
value_t snapshot_sources(const struct snapshot *snap);
long long snapshot_built_at(const struct snapshot *snap);
/* Bytes the snapshot occupies (mapped or allocated, segments included). */
size_t snapshot_size(const struct snapshot *snap);
/* What its segments take, and how much of that the entries' blobs use:
 * the rest is dead (blobs of entries since changed), until a build gives
 * such a segment up. */
void snapshot_space(const struct snapshot *snap, uint64_t *segments, uint64_t *live);
/* Its segments, and the file name of each (NULL: embedded). */
uint32_t snapshot_segment_count(const struct snapshot *snap);
const char *snapshot_segment_name(const struct snapshot *snap, uint32_t i);

uint32_t snap_site_count(const struct snapshot *snap);
struct snap_site snap_site_at(const struct snapshot *snap, uint32_t i);
bool snap_multisite(const struct snapshot *snap);
/* The site's index, or SNAP_NONE. */
uint32_t snap_site_find(const struct snapshot *snap, const char *handle);

uint32_t snap_collection_count(const struct snapshot *snap);
struct snap_collection snap_collection_at(const struct snapshot *snap, uint32_t i);
/* The collection's index, or SNAP_NONE (collections are sorted by handle). */
uint32_t snap_collection_find(const struct snapshot *snap, const char *handle);

uint32_t snap_entry_count(const struct snapshot *snap);
struct snap_entry snap_entry_at(const struct snapshot *snap, uint32_t i);
/* An entry's date and collection without the rest of it (a sort by date
 * reads every candidate's). Returns false when the entry has no date. */
bool snap_entry_date(const struct snapshot *s, uint32_t i, long long *date, uint32_t *collection);

/* What a list reads of every candidate (its status, its site), without
 * the rest of the entry. */
struct snap_entry_brief {
	uint32_t collection, site;
	bool published, has_date;
	long long date;
};
struct snap_entry_brief snap_entry_brief_at(const struct snapshot *s, uint32_t i);
/* The entry's title (snap_entry's `title`) alone. */
value_t snap_entry_title(const struct snapshot *s, uint32_t i);

/* The entry's index by id, or SNAP_NONE. */
uint32_t snap_entry_find(const struct snapshot *snap, const char *id);

/* The entry of a collection and site with that slug (the first in path
 * order when files share one), or SNAP_NONE. */
uint32_t snap_entry_find_slug(const struct snapshot *snap, uint32_t collection, uint32_t site,
                              const char *slug);

/* The smaller kinds of content, as packed values: "taxonomies", "navs",
 * "globals", "forms", "users", "assets" (shapes in taxonomies.c, navs.c,
 * globals.c, people.c and assets.c). Missing when the kind is unknown. */
value_t snap_extras(const struct snapshot *snap, const char *kind);
/* The item of that kind whose "handle" is handle, or missing. */
value_t snap_extras_find(const struct snapshot *snap, const char *kind, const char *handle);

/* A relation's short object, and for an entry relation the number of the
 * entry it names (SNAP_NONE when none, or another kind). */
value_t snap_ref_object(const struct snapshot *snap, value_t ref);
uint32_t snap_ref_target(const struct snapshot *snap, value_t ref);

uint32_t snap_problem_count(const struct snapshot *snap);
struct snap_problem snap_problem_at(const struct snapshot *snap, uint32_t i);

/* Writes "root/path:line: message" lines for every problem (warnings say
 * so) to out; returns the number of errors, not counting warnings. */
size_t snapshot_report(const struct snapshot *snap, const char *root, struct strbuf *out);

#endif
