/*
 * config: the INI file of spec §3 read with inih; see config.h.
 *
 * inih (Debian r55) gives the handler no line numbers and never reports a
 * section without keys, so the file is fed through our own line reader:
 * it counts lines and notes every "[section]" header itself. Plain keys
 * are described by one table (section, key, type, bounds, destination);
 * the resource, site and disk sections, and [icons] (whose keys are the
 * names of icon sets), have small handlers of their own.
 */
#include "autoconfig.h"

#include "core/config.h"

#include <ctype.h>
#include <errno.h>
#include <ini.h>
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lib/glide.h"
#include "lib/hash.h"
#include "lib/netaddr.h"
#include "lib/strbuf.h"

#ifndef SYSCONFDIR
#define SYSCONFDIR "/etc"
#endif

/* --- string lists --- */

void strlist_add(struct strlist *list, const char *s)
{
	list->items = xrealloc(list->items, (list->len + 1) * sizeof *list->items);
	list->items[list->len++] = xstrdup(s);
}

void strlist_split(struct strlist *list, const char *csv)
{
	const char *p = csv;
	while (*p) {
		size_t n = strcspn(p, ",");
		const char *start = p, *end = p + n;
		while (start < end && isspace((unsigned char)*start))
			start++;
		while (end > start && isspace((unsigned char)end[-1]))
			end--;
		if (end > start) {
			char *item = xstrndup(start, (size_t)(end - start));
			strlist_add(list, item);
			free(item);
		}
		p += n;
		if (*p == ',')
			p++;
	}
}

bool strlist_contains(const struct strlist *list, const char *s)
{
	return strlist_contains_counted(list, s, strlen(s));
}

bool strlist_contains_counted(const struct strlist *list, const char *s, size_t len)
{
	for (size_t i = 0; i < list->len; i++)
		if (strlen(list->items[i]) == len && memcmp(list->items[i], s, len) == 0)
			return true;
	return false;
}

void strlist_add_unique(struct strlist *list, const char *s)
{
	if (!strlist_contains(list, s))
		strlist_add(list, s);
}

void strlist_free(struct strlist *list)
{
	for (size_t i = 0; i < list->len; i++)
		free(list->items[i]);
	free(list->items);
	list->items = NULL;
	list->len = 0;
}

/* --- values --- */

int config_parse_bool(const char *s, bool *out)
{
	static const char *yes[] = {"true", "yes", "on", "1"};
	static const char *no[] = {"false", "no", "off", "0"};
	for (size_t i = 0; i < 4; i++) {
		if (strcasecmp(s, yes[i]) == 0) {
			*out = true;
			return 0;
		}
		if (strcasecmp(s, no[i]) == 0) {
			*out = false;
			return 0;
		}
	}
	return -1;
}

static int parse_long(const char *s, long *out)
{
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno != 0 || end == s || *end != '\0')
		return -1;
	*out = v;
	return 0;
}

static void set_string(char **dst, const char *value)
{
	free(*dst);
	*dst = xstrdup(value);
}

static char *strip_slashes(const char *s, bool leading)
{
	while (leading && *s == '/')
		s++;
	size_t n = strlen(s);
	while (n > 0 && s[n - 1] == '/')
		n--;
	return xstrndup(s, n);
}

static bool route_is_valid(const char *route)
{
	for (const char *p = route; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("._~-/", *p))
			return false;
	return true;
}

static char *resolve_path(const char *dir, const char *value)
{
	if (value[0] == '/' || !dir)
		return xstrdup(value);
	struct strbuf b = STRBUF_INIT;
	strbuf_addf(&b, "%s/%s", dir, value);
	return strbuf_detach(&b, NULL);
}

/* --- the key table --- */

static const char *type_names[RES_TYPE_COUNT] = {
	"collections", "navs", "taxonomies", "globals", "forms", "assets", "users", "sites", "sync",
};

const char *resource_type_name(enum resource_type t)
{
	return type_names[t];
}

/* How a value is written in the file, hence how apply_key parses it. */
enum key_kind {
	K_BOOL, K_LONG, K_STRING, K_PATH, K_LIST, K_ROUTE, K_URL, K_ENUM, K_LOG_TARGET,
	K_RANGES, /* a list of IP addresses or CIDR ranges */
	K_ACCESS, /* a boolean, or a log target */
	K_CACHE_DRIVER, /* an enum_names name, or the absolute path of a plug-in */
	K_ORIGINS, /* "*", or a list of scheme://host[:port] (http/cors.h) */
	K_PRESETS, /* [images] presets: lib/glide.h's syntax */
};

/* How a field is held in struct config, hence how set_default fills it
 * and release_field frees it. */
enum key_store {
	ST_BOOL,   /* bool: nothing to free */
	ST_LONG,   /* long: nothing to free */
	ST_ENUM,   /* one of the enums below, as an int: nothing to free */
	ST_STRING, /* char *, owned: freed */
	ST_LIST,   /* struct strlist, each item owned: strlist_free */
};

/*
 * One row per key: where it is written, how it is parsed and held, its
 * bounds and its default. The defaults of config_init_defaults and
 * config_log_settings, and what config_free releases, all come from here.
 */
struct key_def {
	const char *section, *name; /* NULL in the unkeyed rows */
	enum key_kind kind;
	enum key_store store;    /* follows from kind (KEY checks it against the field) */
	size_t offset;           /* of the destination in struct config */
	long min, max;           /* K_LONG bounds */
	const char *const *enum_names; /* K_ENUM, K_CACHE_DRIVER, a K_STRING of fixed
	                                * values: NULL-terminated, index = value */
	union {
		bool b;          /* ST_BOOL */
		long l;          /* ST_LONG */
		int e;           /* ST_ENUM */
		const char *s;   /* ST_STRING: copied, NULL for none; ST_LIST: as CSV */
	} dflt;
};

static const char *const driver_names[] = {"file", "redis", "none", NULL};
static const char *const rate_by_names[] = {"ip", "token", NULL};
static const char *const rate_driver_names[] = {"file", "redis", NULL};
static const char *const level_names[] = {"error", "warning", "info", "debug", NULL};
static const char *const middleware_names[] = {"", "auth:token", NULL};
/* The tag headers of edge.h: off, Fastly's, Cloudflare's, Varnish's
 * xkey's, Akamai's. */
static const char *const tags_header_names[] = {"",     "Surrogate-Key",  "Cache-Tag",
                                                "xkey", "Edge-Cache-Tag", NULL};

/* ST_ENUM fields are read and written as int. */
_Static_assert(sizeof(enum cache_driver) == sizeof(int), "enum cache_driver is an int");
_Static_assert(sizeof(enum rate_by) == sizeof(int), "enum rate_by is an int");
_Static_assert(sizeof(enum rate_driver) == sizeof(int), "enum rate_driver is an int");
_Static_assert(sizeof(enum log_level) == sizeof(int), "enum log_level is an int");

/* The store a kind parses into. */
#define STORE_OF_KIND(kind)                                                     \
	((kind) == K_BOOL                               ? ST_BOOL               \
	 : (kind) == K_LONG                             ? ST_LONG               \
	 : (kind) == K_ENUM || (kind) == K_CACHE_DRIVER ? ST_ENUM               \
	 : (kind) == K_LIST || (kind) == K_RANGES ||     \
	   (kind) == K_ORIGINS                          ? ST_LIST               \
	                                                : ST_STRING)
/* The store a field's type calls for; a field of any other type has none,
 * and its row does not compile. */
#define STORE_OF_FIELD(field)                                                   \
	_Generic(((struct config *)0)->field,                                   \
		bool: ST_BOOL, long: ST_LONG, char *: ST_STRING,                \
		struct strlist: ST_LIST, enum cache_driver: ST_ENUM,            \
		enum rate_by: ST_ENUM, enum rate_driver: ST_ENUM,               \
		enum log_level: ST_ENUM)
/* The field's offset, or a compile error (an array of size -1) when the
 * kind would parse into, default or free the field as another type. */
#define FIELD_AT(kind, field)                                                   \
	(offsetof(struct config, field) +                                       \
	 0 * sizeof(char[STORE_OF_KIND(kind) == STORE_OF_FIELD(field) ? 1 : -1]))
/* A row; the rest (bounds, names, the default) as designated initializers. */
#define KEY(sec, key, kind_, field, ...)                                        \
	{.section = (sec), .name = (key), .kind = (kind_),                      \
	 .store = STORE_OF_KIND(kind_), .offset = FIELD_AT(kind_, field), __VA_ARGS__}

static const struct key_def keys[] = {
	KEY("api", "enabled", K_BOOL, enabled, .dflt.b = false),
	KEY("api", "route", K_ROUTE, route, .dflt.s = "api"),
	KEY("api", "auth_token", K_STRING, auth_token, .dflt.s = ""),
	KEY("api", "middleware", K_STRING, middleware, .enum_names = middleware_names,
	    .dflt.s = ""),
	KEY("api", "base_url", K_URL, base_url, .dflt.s = ""),
	KEY("api", "default_limit", K_LONG, default_limit, .min = 1, .max = 1000000, .dflt.l = 25),
	KEY("api", "max_limit", K_LONG, max_limit, .min = 1, .max = 1000000, .dflt.l = 1000),
	KEY("api", "excluded_keys", K_LIST, excluded_keys, .dflt.s = ""),
	KEY("api", "max_query_length", K_LONG, max_query_length, .min = 0, .max = 1073741824,
	    .dflt.l = 8192),
	KEY("api", "max_filters", K_LONG, max_filters, .min = 0, .max = 1000000, .dflt.l = 20),
	KEY("api", "max_sort_keys", K_LONG, max_sort_keys, .min = 0, .max = 1000000, .dflt.l = 10),
	KEY("api", "max_fields", K_LONG, max_fields, .min = 0, .max = 1000000, .dflt.l = 100),
	KEY("api", "regex_budget", K_LONG, regex_budget, .min = 0, .max = 1000000000000L,
	    .dflt.l = 500000),
	KEY("api", "openapi", K_BOOL, openapi, .dflt.b = false),
	KEY("api", "cors_origins", K_ORIGINS, cors_origins, .dflt.s = ""),
	KEY("api", "cors_max_age", K_LONG, cors_max_age, .min = 0, .max = 86400, .dflt.l = 600),
	KEY("api", "cors_credentials", K_BOOL, cors_credentials, .dflt.b = false),
	/* Required: validate refuses a config without it. */
	KEY("content", "root", K_PATH, content_root, .dflt.s = NULL),
	KEY("content", "app_name", K_STRING, app_name, .dflt.s = "Statamic"),
	KEY("cache", "enabled", K_BOOL, cache_enabled, .dflt.b = true),
	KEY("cache", "driver", K_CACHE_DRIVER, cache_driver, .enum_names = driver_names,
	    .dflt.e = CACHE_FILE),
	KEY("cache", "expiry", K_LONG, cache_expiry, .min = 0, .max = 5256000, .dflt.l = 60),
	KEY("cache", "ignored_events", K_LIST, ignored_events, .dflt.s = "UserSaved, UserDeleted"),
	KEY("cache", "dir", K_PATH, cache_dir, .dflt.s = "/var/cache/cms-api"),
	KEY("cache", "max_size", K_LONG, cache_max_size, .min = 0, .max = 1048576, .dflt.l = 256),
	KEY("cache", "public_dir", K_PATH, cache_public_dir, .dflt.s = ""),
	KEY("rate_limit", "per_minute", K_LONG, rate_per_minute, .min = 0, .max = 1000000000,
	    .dflt.l = 60),
	KEY("rate_limit", "by", K_ENUM, rate_by, .enum_names = rate_by_names, .dflt.e = RATE_BY_IP),
	KEY("rate_limit", "driver", K_ENUM, rate_driver, .enum_names = rate_driver_names,
	    .dflt.e = RATE_DRIVER_FILE),
	KEY("rate_limit", "trusted_proxies", K_RANGES, rate_trusted_proxies, .dflt.s = ""),
	KEY("rate_limit", "redis_host", K_STRING, rate_redis_host, .dflt.s = "127.0.0.1"),
	KEY("rate_limit", "redis_port", K_LONG, rate_redis_port, .min = 1, .max = 65535,
	    .dflt.l = 6379),
	KEY("rate_limit", "redis_socket", K_PATH, rate_redis_socket, .dflt.s = ""),
	KEY("rate_limit", "redis_database", K_LONG, rate_redis_database, .min = 0, .max = 1000000,
	    .dflt.l = 0),
	KEY("rate_limit", "redis_password", K_STRING, rate_redis_password, .dflt.s = ""),
	KEY("rate_limit", "redis_prefix", K_STRING, rate_redis_prefix, .dflt.s = "cms-api:"),
	KEY("rate_limit", "redis_timeout_ms", K_LONG, rate_redis_timeout_ms, .min = 1, .max = 60000,
	    .dflt.l = 50),
	KEY("auth", "database", K_PATH, auth_database, .dflt.s = ""),
	KEY("log", "target", K_LOG_TARGET, log_target, .dflt.s = "syslog"),
	KEY("log", "level", K_ENUM, log_level, .enum_names = level_names,
	    .dflt.e = LOG_LEVEL_WARNING),
	KEY("log", "access", K_ACCESS, log_access, .dflt.s = ""),
	KEY("images", "presets", K_PRESETS, images_presets, .dflt.s = ""),
	KEY("images", "sign_key", K_STRING, images_sign_key, .dflt.s = ""),
	KEY("images", "max_input_pixels", K_LONG, images_max_input_pixels, .min = 1,
	    .max = 1000000000, .dflt.l = 40000000),
	KEY("images", "max_output_pixels", K_LONG, images_max_output_pixels, .min = 1,
	    .max = 268402689, .dflt.l = 4194304),
	KEY("images", "max_memory", K_LONG, images_max_memory, .min = 16, .max = 65536,
	    .dflt.l = 256),
	KEY("images", "max_time_ms", K_LONG, images_max_time_ms, .min = 10, .max = 600000,
	    .dflt.l = 5000),
	KEY("server", "max_requests", K_LONG, max_requests, .min = 0, .max = 1000000000000L,
	    .dflt.l = 0),
	KEY("edge", "tags_header", K_STRING, edge_tags_header, .enum_names = tags_header_names,
	    .dflt.s = ""),
	KEY("edge", "tag_prefix", K_STRING, edge_tag_prefix, .dflt.s = ""),
	KEY("edge", "varnish", K_URL, edge_varnish, .dflt.s = ""),
	KEY("edge", "purge_url", K_URL, edge_purge_url, .dflt.s = ""),
	KEY("edge", "purge_header", K_STRING, edge_purge_header, .dflt.s = ""),
	KEY("sync", "generations", K_LONG, sync_generations, .min = 1, .max = 1000000,
	    .dflt.l = 1000),
};

/* Owned strings that no key sets by itself, defaulted and freed the same
 * way: the file's path and directory (config_load), and the plug-in that
 * a path in [cache] driver names (set_cache_driver). */
static const struct key_def unkeyed[] = {
	KEY(NULL, NULL, K_STRING, path, .dflt.s = NULL),
	KEY(NULL, NULL, K_STRING, dir, .dflt.s = NULL),
	KEY(NULL, NULL, K_STRING, cache_plugin_path, .dflt.s = NULL),
};
#undef KEY
#undef FIELD_AT
#undef STORE_OF_FIELD
#undef STORE_OF_KIND

#define NKEYS (sizeof keys / sizeof keys[0])
#define NUNKEYED (sizeof unkeyed / sizeof unkeyed[0])

/* The row of [section] name; NULL when the table has none. */
static const struct key_def *find_key(const char *section, const char *name)
{
	for (size_t i = 0; i < NKEYS; i++)
		if (strcmp(keys[i].section, section) == 0 && strcmp(keys[i].name, name) == 0)
			return &keys[i];
	return NULL;
}

const char *config_key_at(size_t i, const char **section)
{
	if (i >= NKEYS)
		return NULL;
	*section = keys[i].section;
	return keys[i].name;
}

/* --- defaults and freeing --- */

static void *field_of(struct config *cfg, const struct key_def *k)
{
	return (char *)cfg + k->offset;
}

/* Fills the row's field, which holds nothing yet, with its default. */
static void set_default(struct config *cfg, const struct key_def *k)
{
	void *field = field_of(cfg, k);
	switch (k->store) {
	case ST_BOOL:
		*(bool *)field = k->dflt.b;
		return;
	case ST_LONG:
		*(long *)field = k->dflt.l;
		return;
	case ST_ENUM:
		*(int *)field = k->dflt.e;
		return;
	case ST_STRING:
		*(char **)field = k->dflt.s ? xstrdup(k->dflt.s) : NULL;
		return;
	case ST_LIST:
		if (k->dflt.s)
			strlist_split(field, k->dflt.s);
		return;
	}
}

/* Frees what the row's field owns and leaves it holding nothing. */
static void release_field(struct config *cfg, const struct key_def *k)
{
	void *field = field_of(cfg, k);
	switch (k->store) {
	case ST_BOOL:
	case ST_LONG:
	case ST_ENUM:
		return;
	case ST_STRING:
		free(*(char **)field);
		*(char **)field = NULL;
		return;
	case ST_LIST:
		strlist_free(field);
		return;
	}
}

void config_init_defaults(struct config *cfg)
{
	/* Zero is "none" for every field the tables do not describe: no
	 * resource rules, sites, disks or driver options, no fingerprint. */
	memset(cfg, 0, sizeof *cfg);
	for (size_t i = 0; i < NKEYS; i++)
		set_default(cfg, &keys[i]);
	for (size_t i = 0; i < NUNKEYED; i++)
		set_default(cfg, &unkeyed[i]);
}

/*
 * The structured sections are not simple keys, so the table does not
 * describe them: [resources.*], [sites.*], [disks.*] and the cache
 * driver's own options each have a small free function of their own.
 */
static void free_rule(struct handle_rule *r)
{
	free(r->handle);
	strlist_free(&r->filters);
	strlist_free(&r->search);
}

static void free_resources(struct resource_rule *r)
{
	strlist_free(&r->users_filters);
	if (r->wildcard) {
		free_rule(r->wildcard);
		free(r->wildcard);
	}
	for (size_t i = 0; i < r->nhandles; i++)
		free_rule(&r->handles[i]);
	free(r->handles);
}

static void free_sites(struct config *cfg)
{
	for (size_t i = 0; i < cfg->nsites; i++) {
		struct site_def *s = &cfg->sites[i];
		free(s->handle);
		free(s->name);
		free(s->locale);
		free(s->url);
		free(s->lang);
	}
	free(cfg->sites);
}

static void free_disks(struct config *cfg)
{
	for (size_t i = 0; i < cfg->ndisks; i++) {
		free(cfg->disks[i].name);
		free(cfg->disks[i].root);
		free(cfg->disks[i].url);
	}
	free(cfg->disks);
}

static void free_webhooks(struct config *cfg)
{
	for (size_t i = 0; i < cfg->nwebhooks; i++) {
		free(cfg->webhooks[i].name);
		free(cfg->webhooks[i].url);
		strlist_free(&cfg->webhooks[i].events);
		free(cfg->webhooks[i].secret);
	}
	free(cfg->webhooks);
}

struct icon_set *icon_sets_copy(const struct icon_set *sets, size_t n)
{
	if (n == 0)
		return NULL;
	struct icon_set *copy = xcalloc(n, sizeof *copy);
	for (size_t i = 0; i < n; i++)
		copy[i] = (struct icon_set){xstrdup(sets[i].name), xstrdup(sets[i].folder)};
	return copy;
}

void icon_sets_free(struct icon_set *sets, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(sets[i].name);
		free(sets[i].folder);
	}
	free(sets);
}

static void free_cache_options(struct config *cfg)
{
	for (size_t i = 0; i < cfg->ncache_options; i++) {
		free(cfg->cache_options[i].key);
		free(cfg->cache_options[i].value);
	}
	free(cfg->cache_options);
}

void config_free(struct config *cfg)
{
	for (size_t i = 0; i < NKEYS; i++)
		release_field(cfg, &keys[i]);
	for (size_t i = 0; i < NUNKEYED; i++)
		release_field(cfg, &unkeyed[i]);
	free_cache_options(cfg);
	for (int t = 0; t < RES_TYPE_COUNT; t++)
		free_resources(&cfg->resources[t]);
	free_sites(cfg);
	free_disks(cfg);
	config_shapes_free(cfg);
	free_webhooks(cfg);
	icon_sets_free(cfg->icon_sets, cfg->nicon_sets);
	memset(cfg, 0, sizeof *cfg);
}

/* --- parsing state --- */

#define MAX_SEEN_KEYS 512
#define MAX_SECTION_NAME 50 /* inih's MAX_SECTION, the terminating NUL included */

struct parse_state {
	struct config *cfg;
	const char *file;
	FILE *stream;
	int line;              /* the line most recently read */
	char section[200];     /* the section most recently opened */
	int root_line;         /* where [content] root was set, 0 if never */
	int public_dir_line;   /* where [cache] public_dir was set, 0 if never */
	char *seen[MAX_SEEN_KEYS]; /* "section\nkey" of every key so far */
	size_t nseen;
	char err[CONFIG_ERR_LEN];
	bool failed;
};

/* Copies a message into an error buffer, cut to fit. */
static void copy_message(char err[CONFIG_ERR_LEN], const char *msg)
{
	size_t n = strlen(msg);
	if (n >= CONFIG_ERR_LEN)
		n = CONFIG_ERR_LEN - 1;
	memcpy(err, msg, n);
	err[n] = '\0';
}

static void fail_at(struct parse_state *st, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

static void fail_at(struct parse_state *st, const char *fmt, ...)
{
	if (st->failed)
		return;
	struct strbuf msg = STRBUF_INIT;
	va_list ap;
	strbuf_addf(&msg, "%s:%d: ", st->file, st->line);
	va_start(ap, fmt);
	strbuf_vaddf(&msg, fmt, ap);
	va_end(ap);
	copy_message(st->err, msg.ptr);
	strbuf_release(&msg);
	st->failed = true;
}

/* The handle part of "resources.<type>.<handle>", or NULL. */
static const char *resource_section_type(const char *section, enum resource_type *type)
{
	static const char prefix[] = "resources.";
	if (strncmp(section, prefix, sizeof prefix - 1) != 0)
		return NULL;
	const char *rest = section + sizeof prefix - 1;
	for (int t = 0; t < RES_TYPE_COUNT; t++) {
		size_t n = strlen(type_names[t]);
		if (strncmp(rest, type_names[t], n) == 0 && (rest[n] == '\0' || rest[n] == '.')) {
			*type = (enum resource_type)t;
			return rest[n] == '.' ? rest + n + 1 : rest + n;
		}
	}
	return NULL;
}

static struct handle_rule *find_rule(struct resource_rule *r, const char *handle)
{
	if (strcmp(handle, "*") == 0)
		return r->wildcard;
	for (size_t i = 0; i < r->nhandles; i++)
		if (strcmp(r->handles[i].handle, handle) == 0)
			return &r->handles[i];
	return NULL;
}

static struct handle_rule *add_rule(struct resource_rule *r, const char *handle, int line)
{
	struct handle_rule *rule;
	if (strcmp(handle, "*") == 0) {
		r->wildcard = xcalloc(1, sizeof *r->wildcard);
		rule = r->wildcard;
	} else {
		r->handles = xrealloc(r->handles, (r->nhandles + 1) * sizeof *r->handles);
		rule = &r->handles[r->nhandles++];
		memset(rule, 0, sizeof *rule);
	}
	rule->handle = xstrdup(handle);
	rule->enabled = true;
	rule->line = line;
	return rule;
}

static bool is_simple_section(const char *s)
{
	static const char *const names[] = {"api",    "content", "cache",  "rate_limit",
	                                    "auth",   "log",     "server", "resources",
	                                    "images", "edge",    "sync",   "icons"};
	for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
		if (strcmp(s, names[i]) == 0)
			return true;
	return false;
}

/* A handle: letters, digits, '_' and '-', and the other characters
 * `also` names. */
static bool valid_handle(const char *s, const char *also)
{
	if (!*s)
		return false;
	for (const char *p = s; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr("_-", *p) && !strchr(also, *p))
			return false;
	return true;
}

bool config_valid_name(const char *s)
{
	return valid_handle(s, "");
}

/* A site handle may hold dots too: Statamic sites named for versions
 * ("v2.3") exist. */
static bool valid_site_handle(const char *s)
{
	return valid_handle(s, ".");
}

static struct disk_def *disk_named(struct config *cfg, const char *name);
static struct webhook_def *webhook_named(struct config *cfg, const char *name);

/* Called by the reader for every "[section]" line, so that sections
 * without keys count too. */
static void open_section(struct parse_state *st, const char *name)
{
	snprintf(st->section, sizeof st->section, "%s", name);
	/* inih keeps 49 characters of a section name: a longer one would
	 * reach the handler as another section. */
	if (strlen(name) >= MAX_SECTION_NAME) {
		fail_at(st, "section name longer than %d characters: [%s]", MAX_SECTION_NAME - 1, name);
		return;
	}
	struct config *cfg = st->cfg;
	enum resource_type type;
	const char *handle = resource_section_type(name, &type);
	if (handle) {
		struct resource_rule *r = &cfg->resources[type];
		if (type == RES_USERS && *handle == '\0') {
			r->users_section = true;
			return;
		}
		if (*handle == '\0' || type == RES_USERS || type == RES_SITES || type == RES_SYNC ||
		    (strcmp(handle, "*") != 0 && !config_valid_name(handle))) {
			fail_at(st, "unknown section [%s]", name);
			return;
		}
		if (find_rule(r, handle)) {
			fail_at(st, "section [%s] appears twice", name);
			return;
		}
		add_rule(r, handle, st->line);
		return;
	}
	if (strncmp(name, "sites.", 6) == 0 && valid_site_handle(name + 6)) {
		for (size_t i = 0; i < cfg->nsites; i++)
			if (strcmp(cfg->sites[i].handle, name + 6) == 0) {
				fail_at(st, "section [%s] appears twice", name);
				return;
			}
		cfg->sites = xrealloc(cfg->sites, (cfg->nsites + 1) * sizeof *cfg->sites);
		memset(&cfg->sites[cfg->nsites], 0, sizeof *cfg->sites);
		cfg->sites[cfg->nsites++].handle = xstrdup(name + 6);
		return;
	}
	if (strncmp(name, "disks.", 6) == 0 && config_valid_name(name + 6)) {
		if (disk_named(cfg, name + 6)) {
			fail_at(st, "section [%s] appears twice", name);
			return;
		}
		cfg->disks = xrealloc(cfg->disks, (cfg->ndisks + 1) * sizeof *cfg->disks);
		memset(&cfg->disks[cfg->ndisks], 0, sizeof *cfg->disks);
		cfg->disks[cfg->ndisks++].name = xstrdup(name + 6);
		return;
	}
	if (strncmp(name, "webhook.", 8) == 0 && config_valid_name(name + 8)) {
		if (webhook_named(cfg, name + 8)) {
			fail_at(st, "section [%s] appears twice", name);
			return;
		}
		cfg->webhooks = xrealloc(cfg->webhooks, (cfg->nwebhooks + 1) * sizeof *cfg->webhooks);
		cfg->webhooks[cfg->nwebhooks++] = (struct webhook_def){
			xstrdup(name + 8), NULL, {NULL, 0}, xstrdup(""), st->line};
		return;
	}
	char why[CONFIG_ERR_LEN];
	int ours = config_shapes_open(cfg, name, st->line, why);
	if (ours < 0)
		fail_at(st, "%s", why);
	else if (ours == 0 && !is_simple_section(name))
		fail_at(st, "unknown section [%s]", name);
}

/* Reads one line for inih, counting lines and spotting section headers. */
static char *read_line(char *str, int num, void *stream)
{
	struct parse_state *st = stream;
	if (!fgets(str, num, st->stream))
		return NULL;
	st->line++;
	const char *p = str;
	while (isspace((unsigned char)*p))
		p++;
	if (*p == '[') {
		const char *close = strchr(p, ']');
		if (close) {
			char name[200];
			snprintf(name, sizeof name, "%.*s", (int)(close - p - 1), p + 1);
			char *trimmed = name;
			while (isspace((unsigned char)*trimmed))
				trimmed++;
			size_t n = strlen(trimmed);
			while (n > 0 && isspace((unsigned char)trimmed[n - 1]))
				trimmed[--n] = '\0';
			open_section(st, trimmed);
		}
	} else {
		config_shapes_protect_line(st->section, str);
	}
	return str;
}

static int set_long(struct parse_state *st, const struct key_def *k, const char *value, long *dst)
{
	long v;
	if (parse_long(value, &v) != 0) {
		fail_at(st, "[%s] %s: not a whole number: %s", k->section, k->name, value);
		return 0;
	}
	if (v < k->min || v > k->max) {
		fail_at(st, "[%s] %s: %ld is out of range (%ld to %ld)", k->section, k->name, v,
		        k->min, k->max);
		return 0;
	}
	*dst = v;
	return 1;
}

static int set_enum(struct parse_state *st, const struct key_def *k, const char *value, void *dst)
{
	for (int i = 0; k->enum_names[i]; i++) {
		if (strcmp(value, k->enum_names[i]) == 0) {
			if (k->kind == K_STRING)
				set_string(dst, value);
			else
				*(int *)dst = i;
			return 1;
		}
	}
	fail_at(st, "[%s] %s: unknown value: %s", k->section, k->name, value);
	return 0;
}

static int set_ranges(struct parse_state *st, const struct key_def *k, const char *value,
                      struct strlist *dst)
{
	struct strlist ranges = {0};
	strlist_split(&ranges, value);
	for (size_t i = 0; i < ranges.len; i++) {
		struct netrange r;
		if (!netrange_parse(ranges.items[i], &r)) {
			fail_at(st, "[%s] %s: not an IP address or CIDR range: %s", k->section, k->name,
			        ranges.items[i]);
			strlist_free(&ranges);
			return 0;
		}
	}
	strlist_free(dst);
	*dst = ranges;
	return 1;
}

/* "syslog" and "stderr" are places; anything else is a file path. */
static char *log_place(const char *dir, const char *value)
{
	return strcmp(value, "syslog") == 0 || strcmp(value, "stderr") == 0
	               ? xstrdup(value)
	               : resolve_path(dir, value);
}

/* [log] access: off (""), on ("on", the log's own place once the whole
 * file is read: see resolve_access), or a place of its own. A resolved
 * file path is absolute, so it is never "on". */
static int set_access(struct parse_state *st, const char *value, char **dst)
{
	bool b;
	free(*dst);
	if (config_parse_bool(value, &b) == 0)
		*dst = xstrdup(b ? "on" : "");
	else if (!*value)
		*dst = xstrdup("");
	else
		*dst = log_place(st->cfg->dir, value);
	return 1;
}

/* [cache] driver: a built-in driver's name, or the absolute path of a
 * plug-in (cache_plugin.h), which is only loaded when a worker starts or
 * `cms-api check` runs: a config that names a broken plug-in still
 * loads, and its workers answer uncached. A path relative to anything
 * (the INI's directory, the worker's) would be a guess, so it is refused. */
static int set_cache_driver(struct parse_state *st, const struct key_def *k, const char *value)
{
	struct config *cfg = st->cfg;
	size_t n = strlen(value);
	if (value[0] == '/') {
		cfg->cache_driver = CACHE_PLUGIN;
		set_string(&cfg->cache_plugin_path, value);
		cfg->cache_plugin_line = st->line;
		return 1;
	}
	if (strchr(value, '/') || (n > 3 && strcmp(value + n - 3, ".so") == 0)) {
		fail_at(st, "[%s] %s: a plug-in is named by its absolute path, not %s", k->section,
		        k->name, value);
		return 0;
	}
	return set_enum(st, k, value, &cfg->cache_driver);
}

/* An origin as a browser sends it: scheme "://" host [":" port], no path,
 * no user, nothing after (RFC 6454 §6.2). */
static bool origin_valid(const char *o)
{
	const char *rest = strncmp(o, "https://", 8) == 0 ? o + 8
	                   : strncmp(o, "http://", 7) == 0 ? o + 7
	                                                   : NULL;
	if (!rest || !*rest)
		return false;
	for (const char *p = rest; *p; p++)
		if (!isalnum((unsigned char)*p) && !strchr(".-:[]", *p))
			return false;
	return true;
}

/* [api] cors_origins: "*" alone, or origins. */
static int set_origins(struct parse_state *st, const struct key_def *k, const char *value,
                       struct strlist *dst)
{
	struct strlist origins = {0};
	strlist_split(&origins, value);
	for (size_t i = 0; i < origins.len; i++) {
		const char *o = origins.items[i];
		bool star = strcmp(o, "*") == 0;
		if ((star && origins.len > 1) || (!star && !origin_valid(o))) {
			fail_at(st, star ? "[%s] %s: \"*\" stands alone: every origin, or a list"
			                 : "[%s] %s: not an origin (scheme://host[:port], nothing "
			                   "after): %s",
			        k->section, k->name, o);
			strlist_free(&origins);
			return 0;
		}
	}
	strlist_free(dst);
	*dst = origins;
	return 1;
}

/* [images] presets: checked whole now, so that a worker never meets a bad
 * one; api/images.c reads the text again. */
static int set_presets(struct parse_state *st, const struct key_def *k, const char *value,
                       char **dst)
{
	struct glide_presets presets;
	char why[GLIDE_ERR_LEN];
	if (glide_presets_parse(value, &presets, why) != 0) {
		fail_at(st, "[%s] %s: %s", k->section, k->name, why);
		return 0;
	}
	glide_presets_free(&presets);
	set_string(dst, value);
	return 1;
}

static void resolve_access(struct config *cfg)
{
	if (strcmp(cfg->log_access, "on") == 0)
		set_string(&cfg->log_access, cfg->log_target);
}

static int apply_key(struct parse_state *st, const struct key_def *k, const char *value)
{
	void *dst = (char *)st->cfg + k->offset;
	bool b;
	switch (k->kind) {
	case K_BOOL:
		if (config_parse_bool(value, &b) != 0) {
			fail_at(st, "[%s] %s: not a boolean: %s", k->section, k->name, value);
			return 0;
		}
		*(bool *)dst = b;
		return 1;
	case K_LONG:
		return set_long(st, k, value, dst);
	case K_ENUM:
		return set_enum(st, k, value, dst);
	case K_STRING:
		if (k->enum_names)
			return set_enum(st, k, value, dst);
		set_string(dst, value);
		return 1;
	case K_PATH:
		free(*(char **)dst);
		*(char **)dst = *value ? resolve_path(st->cfg->dir, value) : xstrdup("");
		return 1;
	case K_LOG_TARGET:
		free(*(char **)dst);
		*(char **)dst = log_place(st->cfg->dir, value);
		return 1;
	case K_ACCESS:
		return set_access(st, value, dst);
	case K_CACHE_DRIVER:
		return set_cache_driver(st, k, value);
	case K_LIST:
		strlist_free(dst);
		strlist_split(dst, value);
		return 1;
	case K_RANGES:
		return set_ranges(st, k, value, dst);
	case K_ORIGINS:
		return set_origins(st, k, value, dst);
	case K_PRESETS:
		return set_presets(st, k, value, dst);
	case K_ROUTE:
		if (!route_is_valid(value)) {
			fail_at(st, "[%s] %s: not a URL path: %s", k->section, k->name, value);
			return 0;
		}
		free(*(char **)dst);
		*(char **)dst = strip_slashes(value, true);
		return 1;
	case K_URL:
		free(*(char **)dst);
		*(char **)dst = strip_slashes(value, false);
		return 1;
	}
	return 0;
}

static int handle_resource_key(struct parse_state *st, const char *section, const char *name,
                               const char *value)
{
	enum resource_type type;
	const char *handle = resource_section_type(section, &type);
	struct resource_rule *r = &st->cfg->resources[type];
	if (type == RES_USERS) {
		if (strcmp(name, "allowed_filters") != 0) {
			fail_at(st, "unknown key '%s' in [%s]", name, section);
			return 0;
		}
		bool b;
		strlist_free(&r->users_filters);
		r->users_filters_set = !(config_parse_bool(value, &b) == 0 && !b);
		if (r->users_filters_set)
			strlist_split(&r->users_filters, value);
		return 1;
	}
	struct handle_rule *rule = find_rule(r, handle);
	if (!rule) {
		/* inih read a section header differently from our reader. */
		fail_at(st, "unknown section [%s]", section);
		return 0;
	}
	if (strcmp(name, "enabled") == 0) {
		bool b;
		if (config_parse_bool(value, &b) != 0) {
			fail_at(st, "[%s] enabled: not a boolean: %s", section, value);
			return 0;
		}
		rule->enabled = b;
		rule->enabled_set = true;
		return 1;
	}
	if (strcmp(name, "search") == 0 && (type == RES_COLLECTIONS || type == RES_TAXONOMIES)) {
		strlist_free(&rule->search);
		strlist_split(&rule->search, value);
		rule->search_set = true;
		return 1;
	}
	if (strcmp(name, "allowed_filters") == 0) {
		bool b;
		rule->filters_set = true;
		strlist_free(&rule->filters);
		rule->filters_off = config_parse_bool(value, &b) == 0 && !b;
		if (!rule->filters_off)
			strlist_split(&rule->filters, value);
		return 1;
	}
	fail_at(st, "unknown key '%s' in [%s]", name, section);
	return 0;
}

static int handle_type_switch(struct parse_state *st, const char *name, const char *value)
{
	for (int t = 0; t < RES_TYPE_COUNT; t++) {
		if (strcmp(name, type_names[t]) != 0)
			continue;
		bool b;
		if (config_parse_bool(value, &b) != 0) {
			fail_at(st, "[resources] %s: not a boolean: %s", name, value);
			return 0;
		}
		st->cfg->resources[t].type_set = true;
		st->cfg->resources[t].type_value = b;
		return 1;
	}
	fail_at(st, "unknown key '%s' in [resources]", name);
	return 0;
}

static struct site_def *site_named(struct config *cfg, const char *handle)
{
	for (size_t i = 0; i < cfg->nsites; i++)
		if (strcmp(cfg->sites[i].handle, handle) == 0)
			return &cfg->sites[i];
	return NULL;
}

static struct disk_def *disk_named(struct config *cfg, const char *name)
{
	for (size_t i = 0; i < cfg->ndisks; i++)
		if (strcmp(cfg->disks[i].name, name) == 0)
			return &cfg->disks[i];
	return NULL;
}

static struct webhook_def *webhook_named(struct config *cfg, const char *name)
{
	for (size_t i = 0; i < cfg->nwebhooks; i++)
		if (strcmp(cfg->webhooks[i].name, name) == 0)
			return &cfg->webhooks[i];
	return NULL;
}

static int handle_webhook_key(struct parse_state *st, const char *section, const char *name,
                              const char *value)
{
	struct webhook_def *h = webhook_named(st->cfg, section + strlen("webhook."));
	if (!h) {
		fail_at(st, "unknown section [%s]", section);
		return 0;
	}
	if (strcmp(name, "url") == 0) {
		free(h->url);
		h->url = xstrdup(value);
	} else if (strcmp(name, "events") == 0) {
		strlist_free(&h->events);
		strlist_split(&h->events, value);
	} else if (strcmp(name, "secret") == 0) {
		set_string(&h->secret, value);
	} else {
		fail_at(st, "unknown key '%s' in [%s]", name, st->section);
		return 0;
	}
	return 1;
}

static int handle_site_key(struct parse_state *st, const char *section, const char *name,
                           const char *value)
{
	struct site_def *s = site_named(st->cfg, section + strlen("sites."));
	if (!s) {
		fail_at(st, "unknown section [%s]", section);
		return 0;
	}
	char **dst = strcmp(name, "name") == 0     ? &s->name
	             : strcmp(name, "locale") == 0 ? &s->locale
	             : strcmp(name, "url") == 0    ? &s->url
	             : strcmp(name, "lang") == 0   ? &s->lang
	                                           : NULL;
	if (!dst) {
		fail_at(st, "unknown key '%s' in [%s]", name, st->section);
		return 0;
	}
	set_string(dst, value);
	return 1;
}

static int handle_disk_key(struct parse_state *st, const char *section, const char *name,
                           const char *value)
{
	struct disk_def *d = disk_named(st->cfg, section + strlen("disks."));
	if (!d) {
		fail_at(st, "unknown section [%s]", section);
		return 0;
	}
	if (strcmp(name, "root") == 0) {
		free(d->root);
		d->root = resolve_path(st->cfg->dir, value);
	} else if (strcmp(name, "url") == 0) {
		free(d->url);
		d->url = *value ? strip_slashes(value, false) : NULL;
		if (d->url && !*d->url) {
			free(d->url);
			d->url = xstrdup("/");
		}
	} else {
		fail_at(st, "unknown key '%s' in [%s]", name, st->section);
		return 0;
	}
	return 1;
}

/* [icons] <set> = <folder>: a key of any name is a set (handle_key saw
 * to it that none is given twice). */
static void handle_icon_key(struct parse_state *st, const char *name, const char *value)
{
	if (!*value) {
		fail_at(st, "[icons] %s: names no folder", name);
		return;
	}
	struct config *cfg = st->cfg;
	cfg->icon_sets = xrealloc(cfg->icon_sets, (cfg->nicon_sets + 1) * sizeof *cfg->icon_sets);
	cfg->icon_sets[cfg->nicon_sets++] =
		(struct icon_set){xstrdup(name), resolve_path(cfg->dir, value)};
}

static void add_cache_option(struct config *cfg, const char *name, const char *value, int line)
{
	cfg->cache_options =
		xrealloc(cfg->cache_options, (cfg->ncache_options + 1) * sizeof *cfg->cache_options);
	cfg->cache_options[cfg->ncache_options].key = xstrdup(name);
	cfg->cache_options[cfg->ncache_options].value = xstrdup(value);
	cfg->cache_options[cfg->ncache_options].line = line;
	cfg->ncache_options++;
}

static void handle_plain_key(struct parse_state *st, const char *section, const char *name,
                             const char *value);

/* inih calls the handler again for an indented continuation line; a key
 * given twice is a mistake either way. */
static bool first_time_seen(struct parse_state *st, const char *section, const char *name)
{
	struct strbuf id = STRBUF_INIT;
	strbuf_addf(&id, "%s\n%s", section, name);
	for (size_t i = 0; i < st->nseen; i++) {
		if (strcmp(st->seen[i], id.ptr) == 0) {
			strbuf_release(&id);
			return false;
		}
	}
	if (st->nseen < MAX_SEEN_KEYS)
		st->seen[st->nseen++] = strbuf_detach(&id, NULL);
	else
		strbuf_release(&id);
	return true;
}

/* A key of [scope.*], [shape] or [shape.*] (config_shapes.h): whether it
 * was one. */
static bool handle_shapes_key(struct parse_state *st, const char *section, const char *name,
                              const char *value)
{
	char why[CONFIG_ERR_LEN];
	int rc = config_shapes_key(st->cfg, section, name, value, st->line, why);
	if (rc < 0)
		fail_at(st, "%s", why);
	return rc != 0;
}

static int handle_key(void *user, const char *section, const char *name, const char *value)
{
	struct parse_state *st = user;
	if (st->failed)
		return 1;
	if (!first_time_seen(st, section, name)) {
		fail_at(st, "[%s] %s is set twice (or an indented line continues it)", section,
		        name);
		return 1;
	}
	enum resource_type type;
	if (*section == '\0') {
		fail_at(st, "key '%s' outside any section", name);
		return 1;
	}
	/* Errors are recorded in st; inih is always told to go on, so that
	 * its own line count never disagrees with ours. */
	if (resource_section_type(section, &type))
		handle_resource_key(st, section, name, value);
	else if (strcmp(section, "resources") == 0)
		handle_type_switch(st, name, value);
	else if (strncmp(section, "sites.", 6) == 0)
		handle_site_key(st, section, name, value);
	else if (strncmp(section, "disks.", 6) == 0)
		handle_disk_key(st, section, name, value);
	else if (strncmp(section, "webhook.", 8) == 0)
		handle_webhook_key(st, section, name, value);
	else if (strcmp(section, "icons") == 0)
		handle_icon_key(st, name, value);
	else if (!handle_shapes_key(st, section, name, value))
		handle_plain_key(st, section, name, value);
	return 1;
}

static void handle_plain_key(struct parse_state *st, const char *section, const char *name,
                             const char *value)
{
	const struct key_def *k = find_key(section, name);
	if (k) {
		if (k->offset == offsetof(struct config, content_root))
			st->root_line = st->line;
		if (k->offset == offsetof(struct config, cache_public_dir))
			st->public_dir_line = st->line;
		apply_key(st, k, value);
		return;
	}
	if (strcmp(section, "cache") == 0)
		add_cache_option(st->cfg, name, value, st->line);
	else
		fail_at(st, "unknown key '%s' in [%s]", name, section);
}

/* --- environment and validation --- */

int config_apply_env(struct config *cfg, char err[CONFIG_ERR_LEN])
{
	const char *enabled = getenv("CMS_API_ENABLED");
	if (enabled && *enabled && config_parse_bool(enabled, &cfg->enabled) != 0) {
		snprintf(err, CONFIG_ERR_LEN, "CMS_API_ENABLED: not a boolean: %s", enabled);
		return -1;
	}
	const char *route = getenv("CMS_API_ROUTE");
	if (route && *route) {
		if (!route_is_valid(route)) {
			snprintf(err, CONFIG_ERR_LEN, "CMS_API_ROUTE: not a URL path: %s", route);
			return -1;
		}
		free(cfg->route);
		cfg->route = strip_slashes(route, true);
	}
	const char *token = getenv("CMS_API_AUTH_TOKEN");
	if (token && *token)
		set_string(&cfg->auth_token, token);
	return 0;
}

/* Whether path is dir or below it (both absolute, without trailing '/'). */
static bool path_within(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	return strncmp(path, dir, n) == 0 && (path[n] == '\0' || path[n] == '/');
}

/*
 * [cache] public_dir, the static fast path: the web server hands the files
 * published there to anyone, without asking cms-api. So it cannot go with
 * a token (every published answer would be public), nor without
 * [api] base_url (the answers' absolute URLs would come from the Host of
 * whichever client came first), nor without a cache (only cached answers
 * are published), and it must be a directory of its own: outside the site,
 * whose watcher would take each published file for a change, and apart
 * from [cache] dir, which holds drafts (nor around it: public_dir may be
 * served whole, as in public_html on shared hosting). (The rate limit
 * goes on counting what reaches cms-api; see fastpath.h.)
 */
static int validate_public_dir(const struct config *cfg, const struct parse_state *st,
                               char err[CONFIG_ERR_LEN])
{
	const char *dir = cfg->cache_public_dir;
	if (!*dir)
		return 0;
	const char *problem = NULL;
	if (*cfg->auth_token)
		problem = getenv("CMS_API_AUTH_TOKEN") && *getenv("CMS_API_AUTH_TOKEN")
		                  ? "the web server would hand published answers to anyone, and "
		                    "CMS_API_AUTH_TOKEN asks for a token: a token-protected API "
		                    "cannot have a static fast path"
		                  : "the web server would hand published answers to anyone, and "
		                    "[api] auth_token asks for a token: a token-protected API "
		                    "cannot have a static fast path";
	else if (strcmp(cfg->middleware, "auth:token") == 0)
		problem = "the web server would hand published answers to anyone, and [api] "
		          "middleware = auth:token asks for per-user tokens: a token-protected API "
		          "cannot have a static fast path";
	else if (!*cfg->base_url)
		problem = "needs [api] base_url: published answers hold absolute URLs, which "
		          "would otherwise come from the Host header of the request that was "
		          "published, and go to every client";
	else if (!config_caches(cfg))
		problem = "needs the response cache (enabled = true, a driver, expiry > 0): only "
		          "cached answers are published";
	else if (cfg->content_root && path_within(dir, cfg->content_root))
		problem = "is inside [content] root: the watcher would take every published "
		          "file for a change to the site";
	else if (strcmp(dir, cfg->cache_dir) == 0)
		problem = "is [cache] dir, which holds unpublished data (drafts): give the "
		          "published answers a directory of their own";
	else if (path_within(cfg->cache_dir, dir))
		problem = "holds [cache] dir, which holds unpublished data (drafts), where the "
		          "web server may serve it (an .htaccess recipe serves public_dir "
		          "from public_html): give the cache a directory outside it";
	if (!problem)
		return 0;
	snprintf(err, CONFIG_ERR_LEN, "%s:%d: [cache] public_dir: %s", st->file,
	         st->public_dir_line, problem);
	return -1;
}

/*
 * [api] cors_origins (http/cors.h). Credentials with every origin would
 * let any page read answers with its visitor's credentials, which the
 * CORS protocol itself forbids (browsers refuse "*" with credentials).
 * With [cache] public_dir the web server answers published requests from
 * the file, without asking cms-api, so without the CORS headers: a page on
 * another origin would get its first answer and be refused every repeat.
 * The static fast path is same-origin only, and a config that asks for
 * both is refused rather than half working.
 */
static int validate_cors(const struct config *cfg, const struct parse_state *st,
                         char err[CONFIG_ERR_LEN])
{
	const struct strlist *o = &cfg->cors_origins;
	const char *problem = NULL;
	if (cfg->cors_credentials && o->len == 1 && strcmp(o->items[0], "*") == 0)
		problem = "cors_credentials = true needs a list of origins, never \"*\": browsers "
		          "refuse credentials offered to every origin";
	else if (o->len > 0 && *cfg->cache_public_dir)
		problem = "cors_origins and [cache] public_dir: the web server answers published "
		          "files without CORS headers, so a page on another origin would be refused "
		          "every repeat; the static fast path is same-origin only";
	if (!problem)
		return 0;
	snprintf(err, CONFIG_ERR_LEN, "%s: [api] %s", st->file, problem);
	return -1;
}

/* Whether url is an http:// or https:// URL. */
static bool http_url(const char *url)
{
	return strncmp(url, "http://", 7) == 0 || strncmp(url, "https://", 8) == 0;
}

/* [edge] and [webhook.*]: tags the CDNs accept, the static fast path off
 * when tags are on (the web server's copies carry none, so no purge would
 * reach them at the edge), URLs curl can send to. */
static int validate_edge(const struct config *cfg, const struct parse_state *st,
                         char err[CONFIG_ERR_LEN])
{
	const char *prefix = cfg->edge_tag_prefix;
	size_t n = strlen(prefix);
	bool prefix_ok = n <= 16;
	for (size_t i = 0; i < n; i++)
		prefix_ok = prefix_ok && (isalnum((unsigned char)prefix[i]) || strchr("._-", prefix[i]));
	const char *problem = NULL;
	if (!prefix_ok)
		problem = "[edge] tag_prefix: at most 16 of the characters A-Z a-z 0-9 . _ - "
		          "(what every CDN takes in a tag)";
	else if (*cfg->edge_tags_header && *cfg->cache_public_dir)
		problem = "[edge] tags_header cannot go with [cache] public_dir: the answers the web "
		          "server serves from public_dir carry no tags, so no purge would reach "
		          "their copies at the edge";
	else if (*cfg->edge_varnish && !http_url(cfg->edge_varnish))
		problem = "[edge] varnish: not an http:// URL";
	else if (*cfg->edge_purge_url && !http_url(cfg->edge_purge_url))
		problem = "[edge] purge_url: not an http:// or https:// URL";
	else if (*cfg->edge_purge_header && !strchr(cfg->edge_purge_header, ':'))
		problem = "[edge] purge_header: not a \"Name: value\" header";
	if (problem) {
		snprintf(err, CONFIG_ERR_LEN, "%s: %s", st->file, problem);
		return -1;
	}
	for (size_t i = 0; i < cfg->nwebhooks; i++) {
		const struct webhook_def *h = &cfg->webhooks[i];
		if (!h->url || !http_url(h->url)) {
			snprintf(err, CONFIG_ERR_LEN, "%s:%d: [webhook.%s] url: %s", st->file, h->line,
			         h->name, h->url ? "not an http:// or https:// URL" : "required");
			return -1;
		}
	}
	return 0;
}

static int validate(struct config *cfg, const struct parse_state *st, char err[CONFIG_ERR_LEN])
{
	if (!cfg->content_root || !*cfg->content_root) {
		snprintf(err, CONFIG_ERR_LEN, "%s: [content] root is required", st->file);
		return -1;
	}
	struct stat sb;
	const char *problem = NULL;
	if (stat(cfg->content_root, &sb) != 0)
		problem = strerror(errno);
	else if (!S_ISDIR(sb.st_mode))
		problem = strerror(ENOTDIR);
	else if (access(cfg->content_root, R_OK | X_OK) != 0)
		problem = strerror(errno);
	if (problem) {
		snprintf(err, CONFIG_ERR_LEN, "%s:%d: [content] root: %s: %s", st->file, st->root_line,
		         cfg->content_root, problem);
		return -1;
	}
	if (strcmp(cfg->middleware, "auth:token") == 0 && !*cfg->auth_database) {
		snprintf(err, CONFIG_ERR_LEN, "%s: [api] middleware = auth:token needs "
		         "[auth] database, the file of the per-user tokens", st->file);
		return -1;
	}
	if (validate_public_dir(cfg, st, err) != 0 || validate_cors(cfg, st, err) != 0 ||
	    validate_edge(cfg, st, err) != 0)
		return -1;
	if (cfg->max_limit < cfg->default_limit) {
		snprintf(err, CONFIG_ERR_LEN, "%s: [api] max_limit (%ld) is below default_limit (%ld)",
		         st->file, cfg->max_limit, cfg->default_limit);
		return -1;
	}
	return 0;
}

static char *directory_of(const char *path)
{
	char resolved[PATH_MAX];
	const char *p = realpath(path, resolved) ? resolved : path;
	const char *slash = strrchr(p, '/');
	if (!slash)
		return xstrdup(".");
	return slash == p ? xstrdup("/") : xstrndup(p, (size_t)(slash - p));
}

static void free_seen(struct parse_state *st)
{
	for (size_t i = 0; i < st->nseen; i++)
		free(st->seen[i]);
	st->nseen = 0;
}

/* Sections that never change an answer's body: how the cache, the log,
 * the rate limit and the pool work. Left out of the fingerprint, so that
 * machines whose configs differ only there (each its own cache directory
 * or log) share the answers a shared cache driver stores. */
static bool section_shapes_no_answer(const char *line, size_t len)
{
	static const char *const sections[] = {"cache", "log", "rate_limit", "server"};
	const char *close = memchr(line, ']', len);
	size_t name_len = close ? (size_t)(close - line - 1) : 0;
	for (size_t i = 0; close && i < sizeof sections / sizeof sections[0]; i++)
		if (name_len == strlen(sections[i]) && memcmp(line + 1, sections[i], name_len) == 0)
			return true;
	return false;
}

/* The file's lines that matter to answers, blanks and comments left out,
 * each trimmed and ended by a newline. (The file may hold a NUL: lines
 * are cut at newlines only and every byte is kept.) */
static void add_answer_lines(struct strbuf *all, const char *text, size_t len)
{
	bool skipping = false;
	for (size_t at = 0; at < len;) {
		const char *nl = memchr(text + at, '\n', len - at);
		size_t end = nl ? (size_t)(nl - text) : len;
		size_t a = at, b = end;
		while (a < b && isspace((unsigned char)text[a]))
			a++;
		while (b > a && isspace((unsigned char)text[b - 1]))
			b--;
		if (a < b && text[a] == '[')
			skipping = section_shapes_no_answer(text + a, b - a);
		if (a < b && text[a] != ';' && text[a] != '#' && !skipping) {
			strbuf_add(all, text + a, b - a);
			strbuf_addch(all, '\n');
		}
		at = end + 1;
	}
}

/* A hash of everything in a config that answers depend on: the file's
 * lines outside the sections above, and the environment variables that
 * override it. */
static uint64_t fingerprint_of(const char *path)
{
	struct strbuf text = STRBUF_INIT, all = STRBUF_INIT;
	FILE *f = fopen(path, "re");
	char chunk[4096];
	size_t n;
	while (f && (n = fread(chunk, 1, sizeof chunk, f)) > 0)
		strbuf_add(&text, chunk, n);
	if (f)
		fclose(f);
	add_answer_lines(&all, text.ptr, text.len);
	static const char *const overrides[] = {"CMS_API_ENABLED", "CMS_API_ROUTE",
	                                        "CMS_API_AUTH_TOKEN"};
	for (size_t i = 0; i < sizeof overrides / sizeof overrides[0]; i++) {
		const char *v = getenv(overrides[i]);
		strbuf_addf(&all, "\n%s=%s", overrides[i], v ? v : "");
	}
	uint64_t h = hash_fnv1a_bytes(all.ptr, all.len);
	strbuf_release(&text);
	strbuf_release(&all);
	return h;
}

static void stamp_of_stat(const struct stat *st, struct config_stamp *out)
{
	*out = (struct config_stamp){true, (unsigned long long)st->st_dev,
	                             (unsigned long long)st->st_ino, (long long)st->st_size,
	                             (long long)st->st_mtim.tv_sec * 1000000000LL + st->st_mtim.tv_nsec};
}

/* The stamp of the file open at fd: the version that is read, even when
 * the path is replaced meanwhile. */
static void stamp_of_fd(int fd, struct config_stamp *out)
{
	struct stat st;
	if (fstat(fd, &st) == 0)
		stamp_of_stat(&st, out);
	else
		memset(out, 0, sizeof *out);
}

void config_stamp_of(const char *path, struct config_stamp *out)
{
	struct stat st;
	if (stat(path, &st) == 0)
		stamp_of_stat(&st, out);
	else
		memset(out, 0, sizeof *out);
}

static bool same_stamp(const struct config_stamp *a, const struct config_stamp *b)
{
	return a->exists == b->exists && a->dev == b->dev && a->ino == b->ino &&
	       a->size == b->size && a->mtime_ns == b->mtime_ns;
}

enum config_news config_check_file(const struct config *cfg, struct config_stamp *seen,
                                   char err[CONFIG_ERR_LEN])
{
	if (!cfg->path)
		return CONFIG_SAME;
	struct config_stamp now;
	config_stamp_of(cfg->path, &now);
	if (same_stamp(&now, &cfg->stamp) || same_stamp(&now, seen))
		return CONFIG_SAME;
	*seen = now;
	struct config next;
	if (config_load(&next, cfg->path, err) != 0)
		return CONFIG_BROKEN;
	config_free(&next);
	return CONFIG_CHANGED;
}

int config_load(struct config *cfg, const char *path, char err[CONFIG_ERR_LEN])
{
	config_init_defaults(cfg);
	struct parse_state st;
	memset(&st, 0, sizeof st);
	st.cfg = cfg;
	st.file = path;
	st.stream = fopen(path, "re");
	if (!st.stream) {
		snprintf(err, CONFIG_ERR_LEN, "%s: %s", path, strerror(errno));
		goto fail;
	}
	cfg->path = xstrdup(path);
	cfg->dir = directory_of(path);
	stamp_of_fd(fileno(st.stream), &cfg->stamp);
	int rc = ini_parse_stream(read_line, &st, handle_key, &st);
	fclose(st.stream);
	free_seen(&st);
	if (st.failed) {
		snprintf(err, CONFIG_ERR_LEN, "%s", st.err);
		goto fail;
	}
	if (rc != 0) {
		snprintf(err, CONFIG_ERR_LEN, "%s:%d: not an INI line (lines are 'key = value' or "
		                              "'[section]', at most 199 characters)", path, rc > 0 ? rc : 0);
		goto fail;
	}
	resolve_access(cfg);
	if (config_apply_env(cfg, err) != 0 || validate(cfg, &st, err) != 0)
		goto fail;
	cfg->fingerprint = fingerprint_of(path);
	return 0;
fail:
	config_free(cfg);
	return -1;
}

/* What config_log_settings gathers. */
struct log_settings {
	const char *dir;
	const struct key_def *level_key; /* [log] level: its names */
	char *target;
	enum log_level level;
};

static int log_settings_key(void *user, const char *section, const char *name, const char *value)
{
	struct log_settings *ls = user;
	if (strcmp(section, "log") != 0)
		return 1;
	if (strcmp(name, "target") == 0 && *value) {
		free(ls->target);
		ls->target = log_place(ls->dir, value);
	} else if (strcmp(name, "level") == 0) {
		const char *const *names = ls->level_key->enum_names;
		for (int i = 0; names[i]; i++)
			if (strcmp(value, names[i]) == 0)
				ls->level = (enum log_level)i;
	}
	return 1;
}

/* The defaults are those of the [log] rows, which the table has. */
void config_log_settings(const char *path, char **target, enum log_level *level)
{
	const struct key_def *target_key = find_key("log", "target");
	const struct key_def *level_key = find_key("log", "level");
	char *dir = directory_of(path);
	struct log_settings ls = {dir, level_key, NULL, (enum log_level)level_key->dflt.e};
	ini_parse(path, log_settings_key, &ls); /* a broken file still names its log */
	free(dir);
	*target = ls.target ? ls.target : xstrdup(target_key->dflt.s);
	*level = ls.level;
}

const char *config_find_path(const char *cli_path)
{
	if (cli_path && *cli_path)
		return cli_path;
	const char *env = getenv("CMS_API_CONFIG");
	if (env && *env)
		return env;
	return SYSCONFDIR "/cms-api.ini";
}

/* --- the enabling rules of spec §3 --- */

static const struct handle_rule *named_rule(const struct resource_rule *r, const char *handle)
{
	for (size_t i = 0; i < r->nhandles; i++)
		if (strcmp(r->handles[i].handle, handle) == 0)
			return &r->handles[i];
	return NULL;
}

static bool explicitly_off(const struct resource_rule *r)
{
	return r->type_set && !r->type_value;
}

bool config_caches(const struct config *cfg)
{
	return cfg->cache_enabled && cfg->cache_driver != CACHE_NONE && cfg->cache_expiry > 0;
}

bool resource_enabled(const struct config *cfg, enum resource_type t)
{
	const struct resource_rule *r = &cfg->resources[t];
	if (explicitly_off(r))
		return false;
	if (r->type_value)
		return true;
	if (t == RES_USERS)
		return r->users_section;
	if (r->wildcard && r->wildcard->enabled_set && r->wildcard->enabled)
		return true;
	for (size_t i = 0; i < r->nhandles; i++)
		if (r->handles[i].enabled)
			return true;
	return false;
}

bool handle_enabled(const struct config *cfg, enum resource_type t, const char *handle)
{
	const struct resource_rule *r = &cfg->resources[t];
	if (explicitly_off(r))
		return false;
	if (t == RES_USERS || t == RES_SITES || t == RES_SYNC)
		return resource_enabled(cfg, t);
	const struct handle_rule *named = named_rule(r, handle);
	if (named)
		return named->enabled;
	if (r->type_value)
		return true;
	return r->wildcard && r->wildcard->enabled_set && r->wildcard->enabled;
}

static void add_unique(struct strlist *out, const struct strlist *from)
{
	for (size_t i = 0; i < from->len; i++)
		strlist_add_unique(out, from->items[i]);
}

static bool users_filters(const struct resource_rule *r, struct strlist *out)
{
	if (!r->users_filters_set)
		return false;
	for (size_t i = 0; i < r->users_filters.len; i++) {
		const char *f = r->users_filters.items[i];
		if (strcmp(f, "password") != 0 && strcmp(f, "password_hash") != 0 &&
		    !strlist_contains(out, f))
			strlist_add(out, f);
	}
	return true;
}

bool allowed_filters(const struct config *cfg, enum resource_type t, const char *handle,
                     struct strlist *out)
{
	const struct resource_rule *r = &cfg->resources[t];
	memset(out, 0, sizeof *out);
	if (t == RES_USERS)
		return users_filters(r, out);
	const struct handle_rule *named = handle ? named_rule(r, handle) : NULL;
	if (named && named->filters_off)
		return false;
	bool any = false;
	if (r->wildcard && r->wildcard->filters_set && !r->wildcard->filters_off) {
		add_unique(out, &r->wildcard->filters);
		any = true;
	}
	if (named && named->filters_set) {
		add_unique(out, &named->filters);
		any = true;
	}
	return any;
}

const struct strlist *search_fields(const struct config *cfg, enum resource_type t,
                                    const char *handle)
{
	const struct resource_rule *r = &cfg->resources[t];
	const struct handle_rule *named = handle ? named_rule(r, handle) : NULL;
	if (named && named->search_set)
		return named->search.len ? &named->search : NULL;
	if (r->wildcard && r->wildcard->search_set && r->wildcard->search.len)
		return &r->wildcard->search;
	return NULL;
}
