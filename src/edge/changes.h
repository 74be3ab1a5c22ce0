/*
 * changes: the files of one change as the edge tells them (the sync
 * journal, webhooks): each file once, with its last event, and without
 * the files that came and went within the change (an editor's or sed's
 * temporary file, saved then renamed over the real one) unless the site
 * had it before (the kept snapshot knows it): a real file edited then
 * deleted at once is still told deleted.
 */
#ifndef CMS_API_EDGE_CHANGES_H
#define CMS_API_EDGE_CHANGES_H

#include <stddef.h>

#include "change/watch.h"
#include "edge/syncrecord.h"

/* Writes the compacted files[0..n) into out (room for n; the strings are
 * files'), and returns how many. k may be NULL (no snapshot: a file that
 * came and went is dropped all the same). */
size_t edge_changes_compact(const struct watch_file *files, size_t n, const struct sync_keeper *k,
                            struct watch_file *out);

#endif
