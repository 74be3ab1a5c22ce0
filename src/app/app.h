/*
 * app: one cms-api instance, a loaded config plus the site index, and the
 * request pipeline of DESIGN.md: enabled? route prefix, Host, the token
 * guard with the rate limit around it (a spent address is refused before
 * its token is checked, a refused token counts against its address),
 * method, rate limit, route and its two gates (what the config enables,
 * what a per-user token may read), response cache, handler; then what
 * every answer tells HTTP caches (http_cache.h: ETag, 304, Cache-Control,
 * Vary, the stored gzip copy). After the answer is sent, app_finish
 * stores it in the cache and records the token's use. The FastCGI
 * server, CGI mode and `cms-api get` all answer through app_handle, so
 * they behave the same. The index it answers from is change/follow.h's.
 */
#ifndef CMS_API_APP_H
#define CMS_API_APP_H

#include <sys/types.h>

#include "api/renders.h"
#include "api/shape_plugin.h"
#include "cache/cache.h"
#include "cache/fastpath.h"
#include "change/follow.h"
#include "core/config.h"
#include "guard/guard.h"
#include "guard/ratelimit.h"
#include "guard/tokens.h"
#include "http/error.h"
#include "http/request.h"
#include "http/response.h"
#include "lib/tagset.h"

/* How an app gets its site index (change/follow.h). */
enum app_mode {
	APP_PRIVATE = FOLLOW_PRIVATE,           /* built in memory, alone (the CLI, tests) */
	APP_SHARED = FOLLOW_SHARED,             /* the cache directory's snapshot, followed */
	APP_SHARED_WATCH = FOLLOW_SHARED_WATCH, /* the same, and a watcher kept running (workers) */
};

/* What the response cache did for a request (the access log). */
enum app_cache_use {
	APP_CACHE_UNASKED, /* not consulted: off, or answered before it */
	APP_CACHE_HIT,
	APP_CACHE_MISS,    /* looked up and not there */
};

/*
 * One request on its way through the pipeline: the request and its
 * answer, and what app_handle learns of it that the access log and
 * app_finish need once the answer has gone out. Everything that belongs
 * to one request lives here, not on the app, which holds what outlives
 * requests. A worker may keep one for every request it serves
 * (exchange_begin clears what the last one left, keeping the buffers).
 */
struct exchange {
	const struct request *req;     /* borrowed */
	struct response *res;          /* borrowed */
	enum app_cache_use cache_use;
	bool put_pending;              /* app_finish stores the answer under ask */
	struct cache_ask ask;          /* owned: the request's cache key and parts */
	struct token_grant grant;      /* owned: the per-user token it carried (id 0: none) */
	struct http_error error;       /* owned: why it failed, when it did (status 0: it did
	                                * not); app_handle answers it */
	struct tagset tags;            /* owned: the answer's cache tags ([edge] tags_header) */
};

void exchange_init(struct exchange *x);
/* Starts x on a new request, its answer in res (initialised). */
void exchange_begin(struct exchange *x, const struct request *req, struct response *res);
void exchange_free(struct exchange *x);

/* What outlives requests: the config, the index followed from generation
 * to generation, and each worker-wide service of the pipeline. */
struct app {
	struct config cfg;         /* owned */
	struct follow follow;      /* owned: the site index requests read (follow.snap) */
	struct cache cache;        /* off until the follower shares the cache directory */
	struct guard_state guard;  /* owned: the token database */
	struct rate_limiter rate;  /* owned: on in the shared modes (web server requests) */
	struct fastpath fastpath;  /* owned: the static fast path, on in the shared modes */
	struct renders renders;    /* owned: rendered entries of follow.snap (cleared as it is
	                            * replaced) */
	struct shape_plugin shape; /* owned: [shape] plugin, loaded (handle set) or not */
	bool shape_tried;          /* its loading was tried (at the first request) */
	struct search_index *search; /* owned: q='s index, opened at the first q= (api/search.c) */
	char *sync_journal;        /* owned: the sync journal in the shared cache directory
	                            * (edge/syncrecord.h), NULL while not sharing */
	struct config_stamp config_seen; /* the version of the INI looked at last */
};

/* Loads the config at path (see config_find_path) and the site. Returns 0,
 * or -1 with a "file:line: message" in err and app left empty. */
int app_open(struct app *app, const char *config_path, enum app_mode mode,
             char err[CONFIG_ERR_LEN]);

/* Takes ownership of an already loaded config and loads the site. */
void app_open_with_config(struct app *app, struct config *cfg, enum app_mode mode);

/* Moves to a newer index when the site changed (follow_refresh), and
 * sets up what follows it. Called per request by app_handle. */
void app_refresh(struct app *app);

void app_close(struct app *app);

/* Between requests, never with one in hand (server.h's accept loop, about
 * once a second while idle): what may fork, a watcher started or the
 * cache directory tried again (follow_tend), and what follows it. */
void app_between_requests(struct app *app);

/* Between requests, for a worker on its own: whether its configuration
 * file changed to a good one (config_check_file), which it takes up by
 * starting again; a broken one is logged once and the config in use
 * stays. */
bool app_config_changed(struct app *app);

/*
 * Starts the watcher of cfg's site, with the hooks of every layer, for a
 * parent that reaps its children itself (the pool's supervisor; see
 * watch_spawn). Returns its pid, 0 when a watcher runs already, -1 when
 * none can be started (no usable cache directory, fork failed).
 */
pid_t app_spawn_watcher(const struct config *cfg);

/* Answers x's request into x->res. Never fails: anything unexpected
 * becomes a 500 and a log line. Every step of the pipeline, the handler
 * and its helpers included, reports a failure in x->error and returns
 * its status; app_handle alone makes the error answer of it
 * (app_answer_error). */
void app_handle(struct app *app, struct exchange *x);

/* Makes res the error answer of e (spec §5): {"message": ...} with e's
 * status, and the header a 401 or a 405 carries. The one writer of error
 * bodies (DESIGN.md "One answer per request"): app_handle's, and the
 * server's for a request it could not read. */
void app_answer_error(struct response *res, const struct http_error *e);

/* Finishes x, answered by app_handle: stores the answer in the response
 * cache when it was computed (not itself a hit) and may be cached,
 * publishes a cached 200 to a GET for the static fast path (fastpath.h),
 * and writes a per-user token's last_used_at when due. Call it after the
 * answer was sent, so the client never waits for the writes. */
void app_finish(struct app *app, struct exchange *x);

#endif
