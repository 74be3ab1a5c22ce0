/*
 * fastpath: the static fast path ([cache] public_dir). A cached 200 to a
 * GET is also published as a plain file that the web server answers
 * repeats with by itself, without a FastCGI round trip (etc/: an nginx
 * rewrite with error_page, Apache mod_rewrite's -f test, lighttpd
 * mod_magnet).
 *
 * The file's name is the request's path and raw query exactly as the
 * client sent them (REQUEST_URI), so the web server can make the same
 * name from the request line alone:
 *
 *   /api/collections/blog/entries?limit=2
 *     -> <public_dir>/current/api/collections/blog/entries@limit=2.json
 *   /api/collections      -> .../current/api/collections@.json
 *   /api/collections/     -> .../current/api/collections/@.json
 *
 * '@' separates the path from the query because a published path never
 * holds one: a name maps back to one path and one query (with '_', as in
 * Statamic's static cache, /api/a_b and /api/a?b would share a file). The
 * ".json" suffix gives the type, and keeps a file from ever having the
 * name of a directory (/api/collections and /api/collections/blog both
 * work). An answer of another type is published under the suffix of its
 * type instead (fastpath_suffix): an image of api/images.h,
 * /api/img/assets/a.jpg?p=thumb, as .../img/assets/a.jpg@p=thumb.jpg, so
 * that a web server serves it with its own type, from the suffix; a type
 * without a suffix there is never published. Only names that every server derives alike are published
 * (fastpath_file_name); anything else simply goes through FastCGI.
 *
 * Generations: the files live in a directory per cache generation and
 * config, g<generation>-c<config fingerprint>-t<made, microseconds>, and
 * <public_dir>/current is a symlink to the one in force. The watcher
 * (fastpath_follow) swaps the link atomically (a new link renamed over
 * it) when the cache generation moves, so a change to the site makes
 * every published file unreachable at once; it then removes the other
 * directories. It also swaps in a fresh directory when the one in force
 * is older than [cache] expiry (answers that depend on the time, such as
 * scheduled entries, go stale like cached ones) or holds more than
 * [cache] max_size. A worker publishes only into the directory the link
 * names, and only when that is its own generation and config: an answer
 * of an older generation is never reachable.
 *
 * A file is written to a temporary name and renamed, so the web server
 * never reads a torn one. Publishing never fails a request: an error is
 * logged at most once a minute. The files are made world-readable
 * (0644, directories 0755) whatever the umask: they are public answers,
 * and the web server may run as another user than the workers.
 *
 * Only a running watcher notices a change to the site, and a watcher runs
 * only while the worker that started it does (mod_fcgid stops idle
 * workers, and starts new ones only for requests that reach it, which
 * published answers never do). So a watcher that is stopped withdraws the
 * fast path first (fastpath_withdraw): <public_dir>/current goes, every
 * request reaches cms-api again, and the next watcher makes a fresh
 * directory. (A watcher killed outright, SIGKILL or a crash, cannot: the
 * last published answers then stay reachable until a request reaches
 * cms-api.)
 *
 * Requests the web server answers from a published file never reach
 * cms-api, so [rate_limit] counts only what still does (misses, and
 * queries that cannot be published): a worker logs a warning at start
 * when both are on.
 */
#ifndef CMS_API_FASTPATH_H
#define CMS_API_FASTPATH_H

#include <stdbool.h>
#include <stdint.h>

#include "core/config.h"
#include "http/request.h"
#include "http/response.h"
#include "lib/strbuf.h"

/* Bounds on a published name: each component (a path segment, or the
 * last one with its query and suffix) and the whole name. */
#define FASTPATH_MAX_COMPONENT 200
#define FASTPATH_MAX_NAME 1024

/* A worker's side of the fast path. */
struct fastpath {
	const char *dir;       /* borrowed from the config; NULL: off */
	uint64_t fingerprint;  /* the config's */
	struct strbuf name;    /* owned: the file name of the request in hand, "" when
	                        * it has none (not a GET, or not publishable) */
};

/* Sets fp up for cfg (off without [cache] public_dir); warns once when
 * the rate limit is on too. */
void fastpath_init(struct fastpath *fp, const struct config *cfg);
void fastpath_free(struct fastpath *fp);

/*
 * The name below a generation directory of the request with raw path and
 * raw query (without '?'), appended to out: path without its leading '/',
 * '@', query, ".json". Returns false, out untouched, when it cannot be
 * published:
 *  - the path does not start with '/', has an empty segment ("//"), or a
 *    segment that starts with '.' ("." and "..", hidden files) or holds a
 *    byte outside A-Z a-z 0-9 - . _ ~ (a '%' included: nginx and Apache
 *    would decode it, so the name would not be derived alike);
 *  - the query holds a byte outside A-Z a-z 0-9 - . _ ~ = & , : + [ ],
 *    a '%' not followed by two hex digits, or ".." (so never a '/');
 *  - a component is longer than FASTPATH_MAX_COMPONENT bytes, or the name
 *    longer than FASTPATH_MAX_NAME.
 * The query is kept byte for byte (%5B stays %5B), as the web servers pass
 * it on, so a name maps back to exactly one request line.
 */
bool fastpath_file_name(const char *path, const char *query, struct strbuf *out);

/* Notes the request in hand: its file name when it is a GET that can be
 * published, else none. */
void fastpath_note(struct fastpath *fp, const struct request *req);

/* The suffix an answer of content_type is published under ("json",
 * "jpg", "png", "gif", "webp", "avif"), or NULL: not published. */
const char *fastpath_suffix(const char *content_type);

/*
 * Publishes res, an answer the response cache holds for the request last
 * noted, under cache generation generation: only a 200 without
 * Content-Encoding, of a type with a suffix, only when
 * <public_dir>/current names this generation and config. With replace false an existing file is kept (a hit that the
 * web server did not answer itself: the file was missing).
 */
void fastpath_publish(struct fastpath *fp, uint64_t generation, const struct response *res,
                      bool replace);

/*
 * The watcher's side: makes <public_dir>/current name a directory of the
 * cache generation in the generation file, for cfg's config, swapping in a
 * fresh one when it does not or when the one in force has expired; after a
 * swap removes the older directories. Makes public_dir (one level) when it
 * is missing. Cheap when nothing changed (a read of the generation file
 * and a readlink). Does nothing without [cache] public_dir.
 */
void fastpath_follow(const struct config *cfg);

/* The same for the cache generation given, which the generation file does
 * not name yet: the watcher's, as it publishes one (change/indexer.h),
 * so that no published answer of an older one is reachable once a worker
 * may answer from it. */
void fastpath_follow_to(const struct config *cfg, uint64_t generation);

/* The watcher's upkeep, now and then: swaps in a fresh directory when the
 * one in force holds more than [cache] max_size, and removes directories
 * a swap could not (a worker was still writing in one). */
void fastpath_trim(const struct config *cfg);

/*
 * The watcher's last act when it is stopped: removes <public_dir>/current
 * of the config noted by fastpath_arm_withdraw, so that the web server
 * answers nothing from public_dir while no watcher would see a change.
 * Async-signal-safe (one unlink of a path noted beforehand); does nothing
 * without [cache] public_dir or before fastpath_arm_withdraw.
 */
void fastpath_arm_withdraw(const struct config *cfg);
void fastpath_withdraw(void);

#endif
