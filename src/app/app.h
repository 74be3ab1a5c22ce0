/*
 * app: one cms-api instance, a loaded config plus the site index, and the
 * request pipeline of DESIGN.md: enabled? route prefix, token guard,
 * method, rate limit, route and its two gates (what the config enables,
 * what a per-user token may read), response cache, handler; then what
 * every answer tells HTTP caches (http_cache.h: ETag, 304, Cache-Control,
 * Vary, the stored gzip copy). After the answer is sent, app_finish
 * stores it in the cache and records the token's use. The FastCGI
 * server, CGI mode and `cms-api get` all answer through app_handle, so
 * they behave the same.
 */
#ifndef CMS_API_APP_H
#define CMS_API_APP_H

#include "api/renders.h"
#include "cache/cache.h"
#include "core/config.h"
#include "cache/fastpath.h"
#include "guard/ratelimit.h"
#include "http/request.h"
#include "http/response.h"
#include "change/shared.h"
#include "site/snapshot.h"
#include "guard/guard.h"

/* How an app gets its site index. */
enum app_mode {
	APP_PRIVATE,      /* build it in memory, alone (the CLI, tests) */
	APP_SHARED,       /* map the snapshot in the cache directory, building
	                   * it there when it is missing; follow the generation */
	APP_SHARED_WATCH, /* the same, and make sure a watcher runs (workers) */
};

/* What the response cache did for the last request (the access log). */
enum app_cache_use {
	APP_CACHE_UNASKED, /* not consulted: off, or answered before it */
	APP_CACHE_HIT,
	APP_CACHE_MISS,    /* looked up and not there */
};

/*
 * A shared app whose cache directory cannot be used (read-only, full, not
 * there) does not stay blind: it answers from an index of its own,
 * uncached, checks the site's files for changes itself (a stat scan at
 * most once a second, at a request), tries the directory again every two
 * seconds, and goes back to the shared mode once it works. Both moves are
 * logged.
 */
struct app {
	struct config cfg;         /* owned */
	struct snapshot *snap;     /* owned: the site index requests read */
	enum app_mode wanted;      /* the mode asked for */
	enum app_mode mode;        /* the mode in use: APP_PRIVATE while the cache
	                            * directory cannot be used */
	struct shared_paths paths; /* owned, shared modes */
	uint64_t generation;       /* the index generation snap was built for */
	long long seen_mtime_ns;   /* the generation file as last seen */
	unsigned long seen_ino;
	long long next_watch_check; /* when to make sure a watcher runs again */
	long long next_share_try;  /* fallen back: when to try the directory again */
	long long next_site_scan;  /* fallen back: when to look for changes again */
	uint64_t own_signature;    /* fallen back: the site's files the own index was built from */
	struct strbuf logged_problems; /* owned: the last build's errors, one a line, as logged */
	uint64_t failed_generation; /* the last generation whose site could not be read whole */
	long long next_build_try;  /* when to try building it again */
	struct cache cache;        /* off in APP_PRIVATE: nothing follows its generation */
	uint64_t cache_generation; /* the generation file's cache signature (the
	                            * name of the cache's entries), when it goes
	                            * with app->generation */
	bool cache_current;        /* cache_generation goes with the index in use */
	struct cache_ask pending;  /* owned: what app_finish stores the answer under */
	bool put_pending;
	enum app_cache_use cache_use; /* the last request's, set by app_handle */
	uint64_t index_serial;     /* changes whenever snap is replaced */
	struct guard_state guard;  /* owned: the token database, the request's token */
	struct rate_limiter rate;  /* owned: on in the shared modes (web server requests) */
	struct fastpath fastpath;  /* owned: the static fast path, on in the shared modes */
	struct renders renders;    /* owned: rendered entries of snap (cleared as it is replaced) */
};

/* Loads the config at path (see config_find_path) and the site. Returns 0,
 * or -1 with a "file:line: message" in err and app left empty. */
int app_open(struct app *app, const char *config_path, enum app_mode mode,
             char err[CONFIG_ERR_LEN]);

/* Takes ownership of an already loaded config and loads the site. */
void app_open_with_config(struct app *app, struct config *cfg, enum app_mode mode);

/* In a shared mode, moves to a newer index when the generation file says
 * the site changed (one stat when it did not). Called per request. */
void app_refresh(struct app *app);

void app_close(struct app *app);

/* Answers one request into res (which must be initialised). Never fails:
 * anything unexpected becomes a 500 and a log line. */
void app_handle(struct app *app, const struct request *req, struct response *res);

/* Stores the answer app_handle just gave in the response cache when it was
 * computed (not itself a hit) and may be cached, publishes a cached 200 to
 * a GET for the static fast path (fastpath.h), and writes a per-user
 * token's last_used_at when due. Call it after the answer was sent, so
 * the client never waits for the writes. */
void app_finish(struct app *app, const struct response *res);

#endif
