/*
 * app: one cms-api instance, a loaded config plus the site index, and the
 * request pipeline of DESIGN.md: enabled? route prefix, token guard,
 * method, route, handler. The FastCGI server, CGI mode and `cms-api get`
 * all answer through app_handle, so they behave the same.
 */
#ifndef CMS_API_APP_H
#define CMS_API_APP_H

#include "config.h"
#include "request.h"
#include "response.h"
#include "site/snapshot.h"

struct app {
	struct config cfg;         /* owned */
	struct snapshot *snap;     /* owned: the site index requests read */
};

/* Loads the config at path (see config_find_path) and the site. Returns 0,
 * or -1 with a "file:line: message" in err and app left empty. */
int app_open(struct app *app, const char *config_path, char err[CONFIG_ERR_LEN]);

/* Takes ownership of an already loaded config and loads the site. */
void app_open_with_config(struct app *app, struct config *cfg);

void app_close(struct app *app);

/* Answers one request into res (which must be initialised). Never fails:
 * anything unexpected becomes a 500 and a log line. */
void app_handle(struct app *app, const struct request *req, struct response *res);

#endif
