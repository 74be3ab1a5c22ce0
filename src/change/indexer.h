/*
 * indexer: the one way a snapshot of the site is built and published in
 * the cache directory (docs/change-path.md). The watcher runs one for as
 * long as it watches; `cms-api warm`, and a worker that finds nothing to
 * map, run one for a single build (watch_scan_once).
 *
 * A publication is made in the order that lets no request see a change
 * half, or see it and then not see it:
 *   1. the snapshot of generation G is written whole: its new segments,
 *      then its head, each flushed to disk and put in place;
 *   2. what answers outside the workers moves to G's cache generation
 *      (the hooks: the static fast path's link), while no worker may
 *      answer from G yet;
 *   3. the generation file names G.
 * A worker reads the generation file at every request and moves before
 * it answers, only ever forward: once a request was answered from G, any
 * request that starts after it finds G or later, and its snapshot there.
 * Publications are one at a time (the index lock), whoever makes them.
 *
 * A build goes on from the last snapshot: entries whose rendering reads
 * nothing that changed keep their blobs (snapshot.h). A site that cannot
 * be read whole is published as such (snapshot_incomplete): workers keep
 * their last good index. When the snapshot cannot be written (a full
 * disk), the generation is published without one and each worker reads
 * the site itself (GENERATION_NO_SNAPSHOT): edits never wait for space.
 * Each file left out, and why, is logged once.
 */
#ifndef CMS_API_INDEXER_H
#define CMS_API_INDEXER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "change/hooks.h"
#include "change/shared.h"
#include "change/signature.h"
#include "core/config.h"
#include "lib/strbuf.h"
#include "lib/strmap.h"
#include "site/files.h"
#include "site/snapshot.h"

struct indexer {
	const struct config *cfg;        /* borrowed */
	const struct watch_hooks *hooks; /* borrowed: may be NULL */
	void *hook_state;                /* the hooks' (open) */
	struct shared_paths paths;       /* owned, when shared */
	bool shared;                     /* the cache directory can be used */
	char *segment_prefix;            /* owned: its segments' names */
	struct snapshot *snap;           /* owned: the last snapshot it built or found */
	uint64_t generation;             /* the index generation snap is of */
	bool caught_up;                  /* the last catch-up found the site published, or
	                                  * published it (not: files kept changing) */
	struct strbuf logged;            /* owned: the problems last logged, one a line */
	bool keep_sources;               /* keep what the files of snap parsed to (true
	                                  * from indexer_init): one that publishes once
	                                  * and ends needs no fallback */
	struct value_builder sources;    /* owned: those files' maps (rel -> map), the last
	                                  * good version of a file that stops parsing;
	                                  * closed once known, empty (depth 0, no bytes)
	                                  * while not known */
	struct files_memo memo;          /* owned: which of those files need not be read
	                                  * again (files.h) */
	size_t read, taken;              /* the last publication's files: read, of which
	                                  * taken from the memo (not read again) */
	struct snapshot_build_stats built; /* what its last build did with the entries */
	struct signature_terms terms;      /* owned: the content signature's, as last signed */
	long long ms_signature, ms_read, ms_check; /* what its last publication's steps
	                                    * took (the content signature; reading the site,
	                                    * checking what was read), for its debug line */
};

/* Sets x up for cfg's site. hooks (may be NULL) are called with state as
 * it publishes. Returns 0, or -1 with errno set when the cache directory
 * cannot be used (x is then still set up, and freed by indexer_free). */
int indexer_init(struct indexer *x, const struct config *cfg, const struct watch_hooks *hooks,
                 void *state);
void indexer_free(struct indexer *x);

/* The sources of the files its last snapshot was built from (a map rel
 * path -> parsed file), or VALUE_MISSING when it keeps none. */
value_t indexer_sources(const struct indexer *x);

/* What a publication is for. */
struct indexer_change {
	bool cache;        /* the cache generation moves (not every event was ignored) */
	const char *event; /* Statamic's name of the first such change (NULL: ContentSaved) */
	const char *path;  /* its file, relative to the site root, when it is the only one */
	/* Every file the change touched, for the hooks (moved_files), or
	 * NULL when which files changed is not known. */
	const struct watch_file *files;
	size_t nfiles;
	/* When not NULL, every file (absolute path) that may have changed
	 * since the last publication of this indexer (a watcher's events,
	 * none of them a folder's): only they are looked at, the others
	 * taken as that publication read them. NULL: every file is. */
	const struct strmap *changed;
};

/* The absolute path of the file f names, in out (emptied first). */
void indexer_file_path(const struct config *cfg, const struct watch_file *f, struct strbuf *out);

/* Builds the snapshot of the site as it is now and publishes it as the
 * next generation. Returns 1, or -1 when nothing could be published
 * (logged at most once a minute). */
int indexer_publish(struct indexer *x, const struct indexer_change *ch);

/*
 * What a publication asks once the site is read and before anything of it
 * is published: of the files read (each with the version read), those
 * that may have been read half (written meanwhile, or still being
 * written), added to suspects as absolute paths (any value).
 */
typedef void (*indexer_check_fn)(void *arg, const struct file_read *reads, size_t nreads,
                                 struct strmap *suspects);

/*
 * The same, never reading the files in held (absolute paths: being
 * written): their last good versions stand in until a later publication.
 * When check names suspects, they are held too (added to held) and the
 * site read again, until none is left (a few rounds at most: what is held
 * is not read again). Returns 1, 0 when files kept changing under every
 * round (the caller tries again), -1.
 */
int indexer_publish_held(struct indexer *x, const struct indexer_change *ch, struct strmap *held,
                         indexer_check_fn check, void *arg);

/* Publishes when the generation file is missing, names a snapshot that
 * cannot be opened, or was written for other files than the site's (the
 * content signature): as indexer_publish, the cache generation moving.
 * Returns 1 when it published, 0 when it found the site published, -1 on
 * error. */
int indexer_catch_up(struct indexer *x);

/* The same, holding and checking as indexer_publish_held (0 also when
 * files kept changing: x->caught_up tells the two apart). */
int indexer_catch_up_held(struct indexer *x, struct strmap *held, indexer_check_fn check,
                          void *arg);

#endif
