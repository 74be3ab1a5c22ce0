/*
 * request: one HTTP request as cms-api sees it, built from CGI variables
 * (FastCGI params, a CGI environment, or `cms-api get`). It holds copies,
 * never pointers into the FastCGI params, and knows nothing of FastCGI,
 * so it can be built and tested anywhere.
 *
 * The query string is parsed the way PHP fills $_GET: '&'-separated
 * pairs, '+' and %XX decoded, a repeated name keeps its last value (in
 * the place it first had) except for names ending in "[]"
 * (fields[]=a&fields[]=b), which collect. Parsing takes n log n in the
 * number of parameters.
 */
#ifndef CMS_API_REQUEST_H
#define CMS_API_REQUEST_H

#include <stdbool.h>
#include <stddef.h>

#include "lib/strbuf.h"

/* The longest If-None-Match or Accept-Encoding taken: a longer one is
 * taken as absent, which only costs the client a whole, uncompressed
 * answer (web servers bound a header line at 8 KB or so anyway). */
#define REQUEST_LIST_HEADER_MAX 4096

struct query_param {
	char *name;  /* owned, decoded, e.g. "filter[title:contains]" */
	char *value; /* owned, decoded */
};

struct request {
	char *method;      /* owned, e.g. "GET" */
	char *uri;         /* owned: REQUEST_URI as sent */
	char *path;        /* owned: the URI's path, not decoded */
	char *query;       /* owned: the raw query string ("" when none) */
	struct query_param *params; /* owned, in order of appearance */
	size_t nparams;
	char *scheme;      /* owned: "http" or "https" */
	char *host;        /* owned: Host header (with port), "localhost" when absent */
	char *remote_addr; /* owned: client address, "" when unknown */
	char *forwarded_for; /* owned: X-Forwarded-For header, NULL when absent */
	char *authorization; /* owned: Authorization header, NULL when absent */
	char *if_none_match;   /* owned: If-None-Match header, NULL when absent or
	                        * longer than REQUEST_LIST_HEADER_MAX */
	char *accept_encoding; /* owned: Accept-Encoding header, the same */
	char *origin;      /* owned: Origin header (CORS), NULL when absent */
	char *cors_method; /* owned: Access-Control-Request-Method (a CORS
	                    * preflight), NULL when absent */
	char *script_dir;  /* owned: the directory of SCRIPT_NAME ("/~bob" for
	                    * "/~bob/cms-api.fcgi"), "" when it has none: where
	                    * a request rewritten to the script (shared hosting,
	                    * a user's directory) has its route */
	bool holds_nul;    /* the path or the query encodes a NUL byte (%00): a
	                    * name or value would read cut short, so the request
	                    * must be refused */
};

/* Looks up a CGI variable by name; returns NULL when it is absent. */
typedef const char *(*cgi_getter)(const char *name, void *ctx);

/* A cgi_getter over a "NAME=value" list ending in NULL (FastCGI params,
 * environ). A name given more than once is read one of two ways:
 *  - a request header a client may repeat (HTTP_* but HTTP_HOST): the
 *    values joined with ", ", as lighttpd and Apache join a repeated
 *    header, since nginx before 1.23 passes each as a param of its own;
 *    so every server shows a header sent twice the same way;
 *  - anything else, HTTP_HOST included, is the server's configuration
 *    speaking twice (nginx: "include fastcgi_params" and a fastcgi_param
 *    line after it): the last value, the one that overrides.
 * ctx is a struct env_params; a value returned stays valid until the
 * next call. */
struct env_params {
	char *const *env;
	struct strbuf joined; /* owned: the last joined value */
};
const char *env_param_get(const char *name, void *ctx);

/* Fills req from CGI variables. Never fails (missing variables get
 * defaults: GET, "/"). */
void request_from_cgi(struct request *req, cgi_getter get, void *ctx);

/* Builds a GET request for uri (path and query) as `cms-api get` does. */
void request_from_uri(struct request *req, const char *method, const char *uri);

void request_free(struct request *req);

/* Whether host (a Host header) is a host name: letters, digits, '-', '.'
 * and '_', at least one a letter or digit, or an IP address in brackets,
 * with an optional ":port". Absolute URLs in answers and the cache key are
 * made from it, so anything else (a '/', '@', a space, a name of dots or
 * dashes alone such as ".." or "-") is refused. */
bool request_host_valid(const char *host);

/* The last value of a scalar query parameter, or NULL. */
const char *request_param(const struct request *req, const char *name);

/* Orders pointers to query parameters (qsort) by name, then by place in
 * the request, so that a repeated name keeps the order of its values. */
int query_param_order(const void *a, const void *b);

#endif
