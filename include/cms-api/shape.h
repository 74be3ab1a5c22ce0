/*
 * cms-api/shape.h: the interface of a shape plug-in, which cms-api loads
 * ([shape] plugin = /path/to/shape.so) to rewrite each item as it is
 * written: the C equivalent of binding a Resource class of one's own in
 * Statamic, for what the INI's [shape.*] sections cannot say.
 *
 * A plug-in is a shared object that exports one function,
 *
 *     const struct cms_api_shape *cms_api_shape(void);
 *
 * returning a table whose abi_version is CMS_API_SHAPE_ABI_VERSION.
 * cms-api refuses a table of another version (`cms-api check` fails and
 * names both versions), so a plug-in built against an older header is
 * never called with a layout it does not know.
 *
 * Each worker process loads the plug-in itself, calls init once, then
 * rewrite for every item it writes, one at a time (a worker is
 * single-threaded), and free when it ends. The item comes after the
 * INI's shape of its kind and before `fields` selects from it: what the
 * plug-in leaves is what fields= chooses among. An item a plug-in gives
 * back is read as JSON: anything but one JSON object is ignored (the item
 * goes out unchanged, and the worker logs why once a minute). Whatever
 * the plug-in writes, the keys spec §6 never serves (password,
 * password_hash, remember_token, two-factor and passkey data,
 * preferences) and those [api] excluded_keys names are taken out of it.
 *
 * A plug-in runs inside the worker: a plug-in that crashes takes its
 * worker with it (the other workers go on answering, and the spawner
 * starts another), and the log names the plug-in and the item it was
 * rewriting. cms-api caches what a plug-in writes like any other answer:
 * a plug-in whose output depends on anything but the item should be run
 * with the cache off.
 *
 * Every pointer cms-api passes is borrowed for the call only. Build a
 * plug-in with only this header: cc -shared -fPIC -o shape.so shape.c
 * (see examples/shape-plugin/ in cms-api's sources and cms-api.ini(5)).
 */
#ifndef CMS_API_SHAPE_H
#define CMS_API_SHAPE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CMS_API_SHAPE_ABI_VERSION 1

/* The name of the function a plug-in exports (what cms-api asks dlsym). */
#define CMS_API_SHAPE_SYMBOL "cms_api_shape"

/* One key = value of the INI's [shape] section other than plugin: the
 * plug-in's configuration, in the order of the file. */
struct cms_api_shape_option {
	const char *name;
	const char *value;
};

/* The item to rewrite. type is the kind of item: "entries", "terms",
 * "globals", "assets", "users" or "pages" (a page of a collection's or a
 * navigation's tree); handle its collection, taxonomy, global set,
 * asset container, or tree ("" for users). json is the item as it would
 * be written, one JSON object, NUL-terminated (json_len bytes before the
 * NUL), with absolute URLs and related items as the request sees them. */
struct cms_api_shape_item {
	const char *type;
	const char *handle;
	const char *json;
	size_t json_len;
};

/* rewrite's way to hand the new item back: append may be called several
 * times; the bytes are copied. What was appended counts only when
 * rewrite returns 1. */
typedef void (*cms_api_shape_append_fn)(void *sink, const void *bytes, size_t len);

struct cms_api_shape {
	/* CMS_API_SHAPE_ABI_VERSION. The first member in every version of
	 * this header, so that cms-api can read it from a table of any
	 * version and refuse one it does not know before reading anything
	 * else. */
	int abi_version;
	const char *name; /* for the log: "reading-time", ...; not NULL */

	/* Returns the plug-in's state (not NULL), or NULL with a message of
	 * at most error_size bytes (the NUL included) in error: `cms-api
	 * check` then fails with it, and a worker writes items unchanged and
	 * logs it. Required. */
	void *(*init)(const struct cms_api_shape_option *options, size_t noptions, char *error,
	              size_t error_size);

	/* 1: rewritten, the new item (one JSON object) handed to append(sink,
	 * ...); 0: the item goes out as it is; -1: failed (the item goes out
	 * as it is, and the worker logs it). Required. */
	int (*rewrite)(void *state, const struct cms_api_shape_item *item,
	               cms_api_shape_append_fn append, void *sink);

	/* Releases state. May be NULL. */
	void (*free)(void *state);
};

/* The one function a plug-in exports; it returns a table that lives as
 * long as the plug-in is loaded (a static one). */
#if defined(__GNUC__)
__attribute__((visibility("default")))
#endif
const struct cms_api_shape *cms_api_shape(void);

#ifdef __cplusplus
}
#endif

#endif
