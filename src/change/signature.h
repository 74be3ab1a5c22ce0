/*
 * signature: which files of a site cms-api reads, and a hash of them all.
 *
 * The files are those below the site root's content/, resources/ and
 * users/ (dot files are Statamic's to ignore) and below each asset disk
 * (its .meta folders included), and the files of each icon folder of
 * [icons] (not its subfolders). The content signature hashes the path
 * (relative to its root), size and modification time of each, as a sum,
 * so that it does not depend on the order a folder lists them in, and is
 * the same on two machines serving the same files: it names the cache's
 * entries in a store they share (generation.h).
 */
#ifndef CMS_API_SIGNATURE_H
#define CMS_API_SIGNATURE_H

#include <stdbool.h>
#include <stdint.h>

#include "core/config.h"
#include "lib/strmap.h"

/* The folders of a site root that Statamic reads. */
#define SIGNATURE_NTOPS 3

/* How deep below its root a tree is signed and watched. */
#define SIGNATURE_MAX_DEPTH 32
extern const char *const signature_tops[SIGNATURE_NTOPS];

/* Whether a file or folder of that name is read: dot files are not, but
 * an asset disk's .meta folders (disk true), which hold the assets' data. */
bool signature_visible(const char *name, bool disk);

/* A hash of the path, size and modification time of every file Statamic
 * reads under the site root and the asset disks, of the files of the icon
 * folders ([icons]), and of what the index reads of the config
 * (site_config_print): equal signatures mean nothing changed. */
uint64_t content_signature(const struct config *cfg);

/* The terms of a content signature, one per file signed, so that it can
 * be brought up to date for the files that changed without walking the
 * site again (a watcher's, at every edit: a stat of every file is most
 * of an edit's cost at a million entries). */
struct signature_terms {
	uint64_t *keys;  /* owned: the hash of each file's signed path (| 1); 0: free */
	uint64_t *terms; /* owned: what it adds (0: no longer signed) */
	size_t nslots, n;
	uint64_t sum;    /* of the terms */
	uint64_t seed;   /* the signature's start (the config's part) */
	bool known;      /* filled by a walk */
};
#define SIGNATURE_TERMS_INIT {NULL, NULL, 0, 0, 0, 0, false}
void signature_terms_free(struct signature_terms *t);

/* content_signature, each file's term recorded in t (emptied first). */
uint64_t content_signature_terms(const struct config *cfg, struct signature_terms *t);

/* The same, from t as the last walk or update left it, for the files in
 * changed (absolute paths; files changed, made or gone since, and no
 * folder: those need a walk): only they are looked at. A t never filled,
 * or of another config, is filled by a walk. Equals content_signature
 * when every file that changed since t was filled is in changed. */
uint64_t content_signature_update(const struct config *cfg, struct signature_terms *t,
                                  const struct strmap *changed);

#endif
