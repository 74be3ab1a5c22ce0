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

#endif
