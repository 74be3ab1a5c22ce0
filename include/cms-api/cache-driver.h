/*
 * cms-api/cache-driver.h: the interface of a cache driver that cms-api
 * loads as a plug-in ([cache] driver = /path/to/driver.so), the C
 * equivalent of the mission's cache.class.
 *
 * A plug-in is a shared object that exports one function,
 *
 *     const struct cms_api_cache_driver *cms_api_cache_driver(void);
 *
 * returning a table whose abi_version is CMS_API_CACHE_DRIVER_ABI_VERSION.
 * cms-api refuses a table of another version (the config check fails and
 * names both versions), so a driver built against an older header is
 * never called with a layout it does not know.
 *
 * Each worker process calls init once, then get and put for the requests
 * it serves, one at a time (a worker is single-threaded), and free when it
 * ends. The watcher process (one per site and cache directory) calls init
 * and then invalidate for each change to the site. Each process loads the
 * driver itself (a worker after it was forked), so no state (descriptors,
 * connections) is ever shared between processes: what several workers
 * must see in common lives where the driver keeps its entries.
 *
 * What a driver stores is opaque: cms-api hands put an entry (its own
 * stored form: key, expiry, status, headers, body and a checksum) and
 * expects get to give back exactly those bytes. It checks every entry it
 * gets (the key, the expiry, the checksum), so a driver that returns a
 * wrong, torn or stale entry costs a miss, never a wrong answer.
 *
 * A driver must never block a request for long: cms-api answers uncached
 * whenever get or put fails (returns -1), and logs the failure once per
 * outage. A driver should bound its own waits (the [cache] keys it reads
 * are its own; a "timeout" key is the convention). On -1 a driver may
 * leave errno set to say why: the log line then names it.
 *
 * Every pointer cms-api passes (options, requests, responses, events and
 * the strings in them) is borrowed for the call only: a driver copies
 * what it keeps.
 *
 * Build a driver with only this header: cc -shared -fPIC -o driver.so
 * driver.c (see examples/cache-driver/ in cms-api's sources and
 * cms-api.ini(5)).
 */
#ifndef CMS_API_CACHE_DRIVER_H
#define CMS_API_CACHE_DRIVER_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CMS_API_CACHE_DRIVER_ABI_VERSION 1

/* The name of the function a plug-in exports (what cms-api asks dlsym). */
#define CMS_API_CACHE_DRIVER_SYMBOL "cms_api_cache_driver"

/* One key = value of the INI's [cache] section that cms-api itself does
 * not read (enabled, driver, expiry, ignored_events, dir, max_size and
 * public_dir are its own): the driver's configuration, in the order of
 * the file. The value is as written, spaces around it trimmed. */
struct cms_api_cache_option {
	const char *name;
	const char *value;
};

/* The request an entry answers. key is the full cache key (the request's
 * path, normalised query and the config's fingerprint, NUL-terminated);
 * key_hash its 64-bit FNV-1a hash, convenient as a name (two keys may
 * share a hash: cms-api checks the key of every entry get returns).
 * generation names the content the answer was made from: it changes with
 * every change to the site that invalidates, and is the same on every
 * machine that serves the same files, so a driver shared by several
 * machines may put it in its names. method, path and query are the
 * request as the client sent them, for a driver's own use (query without
 * '?', "" when none). */
struct cms_api_cache_request {
	const char *key;
	uint64_t key_hash;
	uint64_t generation;
	const char *method;
	const char *path;
	const char *query;
};

/* An answer to store: entry/entry_len are the bytes get must give back;
 * status, content_type and body/body_len describe the answer for a
 * driver's own use (all borrowed for the call only). ttl_seconds is how
 * long the entry is valid ([cache] expiry); a driver may drop it sooner. */
struct cms_api_cache_response {
	const char *entry;
	size_t entry_len;
	long long ttl_seconds;
	int status;
	const char *content_type;
	const char *body;
	size_t body_len;
};

/* A change to the site, as the watcher saw it: Statamic's event name
 * ("EntrySaved", "TermDeleted", ...), the changed file relative to the
 * site root (NULL when the watcher only knows that something changed),
 * and the generation before and after. Answers of old_generation are
 * never asked for again. */
struct cms_api_cache_event {
	const char *name;
	const char *path;
	uint64_t old_generation;
	uint64_t new_generation;
};

/* get's way to hand the entry back: append may be called several times
 * (a driver reading in chunks); the bytes are copied. What was appended
 * counts only when get returns 1. */
typedef void (*cms_api_cache_append_fn)(void *sink, const void *bytes, size_t len);

struct cms_api_cache_driver {
	/* CMS_API_CACHE_DRIVER_ABI_VERSION. The first member in every
	 * version of this header, so that cms-api can read it from a table
	 * of any version and refuse one it does not know before reading
	 * anything else. */
	int abi_version;
	const char *name; /* for the log: "dir-driver", ...; not NULL */

	/* Returns the driver's state (not NULL), or NULL with a message of at
	 * most error_size bytes (the NUL included) in error (a bad option,
	 * an unreachable store): `cms-api check` then fails with that
	 * message, and a worker answers uncached and logs it. Required. */
	void *(*init)(const struct cms_api_cache_option *options, size_t noptions, char *error,
	              size_t error_size);

	/* 1: found, the entry handed to append(sink, ...); 0: not found;
	 * -1: the store failed (the request is answered uncached). Required. */
	int (*get)(void *state, const struct cms_api_cache_request *request,
	           cms_api_cache_append_fn append, void *sink);

	/* 0: stored (or deliberately not); -1: the store failed. Called
	 * after the answer was sent. Required. */
	int (*put)(void *state, const struct cms_api_cache_request *request,
	           const struct cms_api_cache_response *response);

	/* 0 or -1, called in the watcher process. May be NULL. */
	int (*invalidate)(void *state, const struct cms_api_cache_event *event);

	/* Releases state. May be NULL. */
	void (*free)(void *state);
};

/* The one function a plug-in exports; it returns a table that lives as
 * long as the plug-in is loaded (a static one). Declared visible, so that
 * a driver built with -fvisibility=hidden still exports it. */
#if defined(__GNUC__)
__attribute__((visibility("default")))
#endif
const struct cms_api_cache_driver *cms_api_cache_driver(void);

#ifdef __cplusplus
}
#endif

#endif
