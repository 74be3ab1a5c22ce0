/*
 * config: the one INI file that configures cms-api (spec §3), parsed with
 * inih into a struct config, plus the environment overrides
 * CMS_API_ENABLED, CMS_API_ROUTE and CMS_API_AUTH_TOKEN.
 *
 * Loading is all or nothing: any error (unknown section or key, bad
 * boolean or number, unreadable content root) fails the whole load with
 * a "file:line: message" in err, and no half-built config escapes.
 * Relative paths in the file are resolved against the INI file's own
 * directory.
 */
#ifndef CMS_API_CONFIG_H
#define CMS_API_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CONFIG_ERR_LEN 512

/* A list of strings, as written in a comma-separated INI value. */
struct strlist {
	char **items; /* owned, each owned */
	size_t len;
};

/* The resource types of [resources]. */
enum resource_type {
	RES_COLLECTIONS,
	RES_NAVS,
	RES_TAXONOMIES,
	RES_GLOBALS,
	RES_FORMS,
	RES_ASSETS, /* also governs /asset-containers */
	RES_USERS,  /* no handles: filters live at type level */
	RES_SITES,
	RES_SYNC,   /* the sync feed (/sync); no handles: its items are those each type enables */
	RES_TYPE_COUNT
};

/* One [resources.<type>.<handle>] section (handle "*" is the wildcard). */
struct handle_rule {
	char *handle;        /* owned */
	bool enabled;        /* false only when the section says enabled = false */
	bool enabled_set;    /* the section has an enabled key (the wildcard
	                      * enables every handle only with enabled = true) */
	bool filters_set;    /* allowed_filters was given */
	bool filters_off;    /* allowed_filters = false */
	struct strlist filters;
	struct strlist search; /* search = the fields q= searches (entries, terms); a
	                      * named handle's replaces the wildcard's */
	bool search_set;
	int line;            /* where the section starts, for messages */
};

struct resource_rule {
	bool type_set;        /* the [resources] key was given */
	bool type_value;      /* its value */
	bool users_section;   /* RES_USERS: a [resources.users] section exists */
	struct strlist users_filters; /* RES_USERS: its allowed_filters */
	bool users_filters_set;
	struct handle_rule *wildcard; /* [resources.<type>.*] or NULL; owned */
	struct handle_rule *handles;  /* named sections, in file order; owned */
	size_t nhandles;
};

/* One [sites.<handle>] section (only used without resources/sites.yaml). */
struct site_def {
	char *handle, *name, *locale, *url, *lang; /* owned; lang may be NULL */
};

/* One [disks.<name>] section: where an asset container's files live. */
struct disk_def {
	char *name; /* owned */
	char *root; /* owned, absolute */
	char *url;  /* owned, NULL for a private disk */
};

/* One [webhook.<name>] section: where the watcher posts what changed. */
struct webhook_def {
	char *name;            /* owned */
	char *url;             /* owned; required */
	struct strlist events; /* Statamic's event names it is sent for; empty: every event */
	char *secret;          /* owned: the HMAC-SHA256 key of its signature; "" = unsigned */
	int line;              /* where the section starts, for messages */
};

/* One [icons] key: an icon set and the folder of its SVG files, the
 * operator's counterpart of Statamic's Icon::register (site/icons.h). */
struct icon_set {
	char *name;   /* owned: the set's name, as an icon field's `set:` gives it */
	char *folder; /* owned, absolute */
};

/* A key=value the cache driver receives as its own configuration. */
struct kv {
	char *key, *value; /* owned */
	int line;          /* where the file sets it, for the driver's messages */
};

/* One [scope.<name>] section: a query scope, the INI's answer to
 * Statamic's query_scope classes, which a list request asks for with
 * query_scope=<name>: filters joined to the request's (never checked
 * against allowed_filters: the config wrote them), and a sort used when
 * the request gives none. */
struct scope_def {
	char *name;              /* owned */
	struct kv *filters;      /* owned: key "featured" or "title:contains" (what
	                          * filter[...] holds), value as written */
	size_t nfilters;
	char *sort;              /* owned; NULL when it sets none */
	struct strlist resources; /* where it may be asked: "collections",
	                          * "collections.blog", "users", ...; none: every list */
	int line;                /* where the section starts */
};

/* The kinds of item a [shape.<type>] section shapes. */
enum shape_type {
	SHAPE_ENTRIES, SHAPE_TERMS, SHAPE_GLOBALS, SHAPE_ASSETS, SHAPE_USERS, SHAPE_PAGES,
	SHAPE_TYPE_COUNT
};

/* rename.<from> = <to> */
struct shape_rename {
	char *from, *to; /* owned */
};

/* keys.<field> = a, b: the keys kept of the field's object (a relation's
 * related items, a map, or each map of a list) */
struct shape_nested {
	char *field;         /* owned */
	struct strlist keys;
};

/* One [shape.<type>] or [shape.<type>.<handle>] section: how an item of
 * that kind (of that collection, taxonomy, set, container, or tree) is
 * written, before fields= selects from it. */
struct shape_def {
	enum shape_type type;
	char *handle;            /* owned; NULL for the type's own section */
	struct strlist keys;     /* keys = the keys kept, in that order */
	bool keys_set;           /* none: every key, in the item's order */
	struct strlist drop;     /* drop = keys removed */
	struct shape_rename *renames; /* owned, in file order */
	size_t nrenames;
	struct shape_nested *nested;  /* owned */
	size_t nnested;
	int line;
};

/* CACHE_PLUGIN: driver = an absolute path to a shared object (cache_plugin.h). */
enum cache_driver { CACHE_FILE, CACHE_REDIS, CACHE_NONE, CACHE_PLUGIN };
enum rate_by { RATE_BY_IP, RATE_BY_TOKEN };
enum rate_driver { RATE_DRIVER_FILE, RATE_DRIVER_REDIS };
enum log_level { LOG_LEVEL_ERROR, LOG_LEVEL_WARNING, LOG_LEVEL_INFO, LOG_LEVEL_DEBUG };

/* What tells one version of a file from another without reading it (an
 * INI edited in place, or replaced by a rename): stat's device, inode,
 * size and mtime. */
struct config_stamp {
	bool exists; /* false: the file could not be stat()ed */
	unsigned long long dev, ino;
	long long size, mtime_ns;
};

/* The defaults noted below are documentation: the key table in config.c
 * sets them. */
struct config {
	char *path; /* owned: the INI file it was read from, or NULL for defaults */
	struct config_stamp stamp; /* that file as it was read */
	char *dir;  /* owned: that file's directory (base of relative paths) */
	uint64_t fingerprint; /* a hash of the file's bytes and the environment's
	                       * overrides: answers cached under one config are
	                       * never served under another */

	/* [api] */
	bool enabled;            /* default false */
	char *route;             /* owned; no leading/trailing '/'; default "api"; may be "" */
	char *auth_token;        /* owned; "" = public API */
	char *middleware;        /* owned; "" or "auth:token" */
	char *base_url;          /* owned; "" = from the request; no trailing '/' */
	long default_limit;      /* default 25, >= 1 */
	long max_limit;          /* default 1000, >= default_limit */
	struct strlist excluded_keys;
	/* Bounds on what one request may ask (0: no bound); exceeding one is a
	 * 400 naming it. */
	long max_query_length;   /* bytes of the raw query string, default 8192 */
	long max_filters;        /* filter[...] parameters, default 20 */
	long max_sort_keys;      /* keys of ?sort=, default 10 */
	long max_fields;         /* names in ?fields= and fields[], default 100 */
	long regex_budget;       /* steps every regex match of a request may take
	                          * together (query/regex.h), default 500000 */
	bool openapi;            /* /{route}/openapi.json (api/openapi.h), default false */
	struct strlist cors_origins; /* origins a page may call from (http/cors.h): "*", or
	                          * scheme://host[:port] each; empty (default): no CORS */
	long cors_max_age;       /* seconds a browser keeps a preflight's answer, default 600 */
	bool cors_credentials;   /* Access-Control-Allow-Credentials (never with "*"),
	                          * default false */

	/* [content] */
	char *content_root;      /* owned, absolute; required */
	char *app_name;          /* owned; stands in for {{ config:app:name }}; default "Statamic" */

	/* [cache] */
	bool cache_enabled;      /* default true */
	enum cache_driver cache_driver; /* default file */
	char *cache_plugin_path; /* owned: the shared object when CACHE_PLUGIN */
	int cache_plugin_line;   /* where driver = names it, for the check's message */
	long cache_expiry;       /* minutes, default 60, >= 0 */
	struct strlist ignored_events; /* default UserSaved, UserDeleted */
	char *cache_dir;         /* owned, absolute; default /var/cache/cms-api */
	long cache_max_size;     /* file driver: MiB its answers may take, default 256; 0 = no limit */
	char *cache_public_dir;  /* owned, absolute; "" = no static fast path (fastpath.h) */
	struct kv *cache_options; /* owned: every other [cache] key, for the driver */
	size_t ncache_options;

	/* [rate_limit] */
	long rate_per_minute;    /* default 60; 0 = off */
	enum rate_by rate_by;    /* default ip */
	enum rate_driver rate_driver; /* default file */
	struct strlist rate_trusted_proxies; /* addresses or CIDR ranges (checked at load) */
	char *rate_redis_host;   /* owned; default 127.0.0.1 */
	long rate_redis_port;    /* default 6379 */
	char *rate_redis_socket; /* owned; "" = TCP to host:port */
	long rate_redis_database; /* default 0 */
	char *rate_redis_password; /* owned; "" = none */
	char *rate_redis_prefix; /* owned; default "cms-api:" */
	long rate_redis_timeout_ms; /* connect and command timeout, default 50 */

	/* [auth] */
	char *auth_database;     /* owned, absolute; "" = none */

	/* [log] */
	char *log_target;        /* owned: "syslog" (default), "stderr" or a file path */
	enum log_level log_level; /* default warning */
	char *log_access;        /* owned: where the access lines go: "" (off, the
	                          * default), "syslog", "stderr" or a file path;
	                          * access = true is resolved to log_target */

	/* [images] (api/images.h): sizes of an asset's image made on request */
	char *images_presets;    /* owned: "name:w=300,h=300,fit=crop ..." (lib/glide.h),
	                          * checked at load; default "" */
	char *images_sign_key;   /* owned: Glide's secure-URL key; "" (default): presets only */
	long images_max_input_pixels;  /* a source image's width x height, default 40000000 */
	long images_max_output_pixels; /* a made image's width x height, default 4194304 */
	long images_max_memory;  /* MiB libvips may hold for one image, default 256 */
	long images_max_time_ms; /* milliseconds one image may take, default 5000 */

	/* [server] (the pool of cms-api -n) */
	long max_requests;       /* requests a pool worker answers before it is
	                          * replaced; default 0 = never */

	/* [edge] (edge/edge.h): caches in front of cms-api */
	char *edge_tags_header;  /* owned: "" (off, the default), "Surrogate-Key", "Cache-Tag",
	                          * "xkey" or "Edge-Cache-Tag" */
	char *edge_tag_prefix;   /* owned: put before every tag, default "" (site/tags.h) */
	char *edge_varnish;      /* owned: a Varnish to purge by xkey, "" = none */
	char *edge_purge_url;    /* owned: an endpoint POSTed {"tags": [...]}, "" = none */
	char *edge_purge_header; /* owned: one "Name: value" header sent with it, "" = none */

	/* [sync] */
	long sync_generations;   /* generations a sync token stays valid, default 1000 */

	/* [webhook.*] in file order */
	struct webhook_def *webhooks;
	size_t nwebhooks;

	/* [resources] and its sub-sections */
	struct resource_rule resources[RES_TYPE_COUNT];

	/* [scope.*], [shape.*] in file order, and [shape] (config_shapes.c) */
	struct scope_def *scopes;
	size_t nscopes;
	struct shape_def *shapes;
	size_t nshapes;
	char *shape_plugin_path; /* owned: [shape] plugin, an absolute path; NULL: none */
	int shape_plugin_line;
	struct kv *shape_options; /* owned: every other [shape] key, for the plug-in */
	size_t nshape_options;

	/* [sites.*] in file order, [disks.*] */
	struct site_def *sites;
	size_t nsites;
	struct disk_def *disks;
	size_t ndisks;

	/* [icons], in file order */
	struct icon_set *icon_sets;
	size_t nicon_sets;
};

/* Fills cfg with every default (API disabled, no content root): those of
 * the key table in config.c, zero for everything else. */
void config_init_defaults(struct config *cfg);

/*
 * Reads the INI file at path over the defaults, applies the environment
 * overrides, and validates the result (content root readable).
 * Returns 0, or -1 with a "file:line: message" (or "file: message") in err.
 * On failure cfg is left zeroed, holding nothing to free.
 */
int config_load(struct config *cfg, const char *path, char err[CONFIG_ERR_LEN]);

/* Applies CMS_API_ENABLED, CMS_API_ROUTE, CMS_API_AUTH_TOKEN from the
 * environment. Returns 0 or -1 with "CMS_API_ENABLED: message" in err.
 * (config_load calls it; exposed for tests and the no-file case.) */
int config_apply_env(struct config *cfg, char err[CONFIG_ERR_LEN]);

/* Where a worker logs when its config cannot be used (a content root
 * gone, a bad key): the [log] target and level the file names, read
 * leniently (anything else in the file may be wrong), else syslog and
 * warning. *target is newly allocated. */
void config_log_settings(const char *path, char **target, enum log_level *level);

/* Which INI file to read: cli_path if given, else $CMS_API_CONFIG, else
 * SYSCONFDIR "/cms-api.ini". The result is not owned by the caller. */
const char *config_find_path(const char *cli_path);

/* What config_check_file found. */
enum config_news {
	CONFIG_SAME,    /* the file is the one read, or the one looked at last */
	CONFIG_CHANGED, /* another, good one: read it again to take it up */
	CONFIG_BROKEN,  /* another, that cannot be used: err says why */
};

/*
 * Whether cfg's INI file changed since cfg was read from it: one stat
 * when it did not. A changed file is read whole (and validated, as
 * config_load does) once per version: *seen is the stamp of the last
 * version looked at (zeroed at first), so that a broken file is reported
 * once, not at every call. A config read from no file never changes.
 */
enum config_news config_check_file(const struct config *cfg, struct config_stamp *seen,
                                   char err[CONFIG_ERR_LEN]);

/* path's stamp; exists is false when it cannot be stat()ed. */
void config_stamp_of(const char *path, struct config_stamp *out);

/* Frees all that cfg owns and zeroes it (a zeroed config frees again
 * harmlessly). */
void config_free(struct config *cfg);

/* The keys of the simple sections, in the table's order, so that a test
 * can tell whether it covers every one: the name of key i, with its
 * section in *section; NULL past the last key. */
const char *config_key_at(size_t i, const char **section);

/* Whether answers are cached at all: [cache] enabled, a driver other
 * than none, and an expiry above 0. */
bool config_caches(const struct config *cfg);

/* Parses a boolean the way the INI does (true/false, yes/no, on/off, 1/0,
 * any case). Returns 0 and sets *out, or -1. */
int config_parse_bool(const char *s, bool *out);

/* The name of a type as written in [resources] ("collections", ...). */
const char *resource_type_name(enum resource_type t);

/*
 * The enabling rules of spec §3.
 *
 * resource_enabled: the type is on at all (a handle-less check: users,
 * sites, or "is any handle of this type possibly on").
 * handle_enabled: this handle of the type answers (else 404).
 * allowed_filters: the filter allow-list for one handle of a type (for
 * users, handle is ignored). Returns false when filtering is off there
 * (every filter is then forbidden); otherwise true, and *out receives a
 * newly allocated list the caller frees with strlist_free (password and
 * password_hash are never in the users list).
 */
bool resource_enabled(const struct config *cfg, enum resource_type t);
bool handle_enabled(const struct config *cfg, enum resource_type t, const char *handle);
bool allowed_filters(const struct config *cfg, enum resource_type t, const char *handle,
                     struct strlist *out);

/* Deep copies of sets[0..n) (NULL when n is 0), and their release. */
struct icon_set *icon_sets_copy(const struct icon_set *sets, size_t n);
void icon_sets_free(struct icon_set *sets, size_t n);

/* The [scope.<name>] section of that name, or NULL. */
const struct scope_def *config_scope(const struct config *cfg, const char *name);
/* Whether a scope may be asked for on a list of a type's handle (NULL:
 * users, which have none). */
bool scope_applies(const struct scope_def *s, enum resource_type t, const char *handle);
/* The shape of items of a type and handle (NULL for users): the handle's
 * own section, else the type's, else NULL. */
const struct shape_def *config_shape(const struct config *cfg, enum shape_type t,
                                     const char *handle);
/* The fields q= searches on a collection's or taxonomy's list, or NULL
 * when search is off there. */
const struct strlist *search_fields(const struct config *cfg, enum resource_type t,
                                    const char *handle);

/* A handle or a section's name: letters, digits, '_' and '-', not empty. */
bool config_valid_name(const char *s);

/*
 * config_shapes.c reads the sections that change what a list asks or how
 * an item is written, for config_load (which feeds it the lines):
 *   [scope.<name>]            filter[<field>[:<condition>]] = value, sort = ...,
 *                             resources = collections.blog, users, ...
 *   [shape.<type>[.<handle>]] keys = ..., drop = ..., rename.<key> = <new name>,
 *                             keys.<field> = ... (type: entries, terms, globals,
 *                             assets, users, pages)
 *   [shape]                   plugin = /abs/path/shape.so, and the plug-in's own keys
 * Messages come without the file and line, which config_load adds.
 */
/* A "[section]" line: returns 1 when the section is one of these (and
 * opens it), 0 when it is not, -1 with a message in err. */
int config_shapes_open(struct config *cfg, const char *section, int line,
                       char err[CONFIG_ERR_LEN]);

/* A key = value of a section: returns 1 when taken, 0 when the section
 * is not one of these, -1 with a message in err. */
int config_shapes_key(struct config *cfg, const char *section, const char *name,
                      const char *value, int line, char err[CONFIG_ERR_LEN]);

/*
 * inih splits a line at its first ':' or '=', so "filter[title:contains] =
 * x" would reach config_shapes_key as the key "filter[title". A scope's
 * line goes through this first (section: the one it is in), which hides
 * the colons of a filter[...] key from inih; config_shapes_key shows them
 * again.
 */
void config_shapes_protect_line(const char *section, char *line);

void config_shapes_free(struct config *cfg);

/* Splits "a, b ,c" into trimmed, non-empty items appended to list. */
void strlist_split(struct strlist *list, const char *csv);
void strlist_add(struct strlist *list, const char *s);
bool strlist_contains(const struct strlist *list, const char *s);
/* The same for s[0..len), which need not be NUL-terminated. */
bool strlist_contains_counted(const struct strlist *list, const char *s, size_t len);
/* Appends s unless the list holds it already. */
void strlist_add_unique(struct strlist *list, const char *s);
void strlist_free(struct strlist *list);

#endif
