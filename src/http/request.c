/* request: CGI variables to struct request; see request.h. */
#include "autoconfig.h"

#include "http/request.h"

#include <stdlib.h>
#include <string.h>

#include "lib/ascii.h"
#include "lib/strbuf.h"
#include "lib/url.h"

static bool collects_values(const char *name)
{
	size_t n = strlen(name);
	return n >= 2 && strcmp(name + n - 2, "[]") == 0;
}

int query_param_order(const void *a, const void *b)
{
	const struct query_param *const *pa = a, *const *pb = b;
	int c = strcmp((*pa)->name, (*pb)->name);
	if (c != 0)
		return c;
	return *pa < *pb ? -1 : *pa > *pb;
}

static void drop_param(struct query_param *p)
{
	free(p->name);
	free(p->value);
	p->name = p->value = NULL;
}

/*
 * PHP keeps the last value of a repeated name, in the place where the name
 * first appeared; "x[]" names collect. Sorting the parameters by name
 * (then place) brings each name's repeats together, so this takes
 * n log n: comparing each new name with every earlier one made 40,000
 * parameters cost 1.7 s.
 */
static void keep_last_values(struct request *req)
{
	size_t n = req->nparams;
	if (n < 2)
		return;
	struct query_param **sorted = xmalloc(n * sizeof *sorted);
	for (size_t i = 0; i < n; i++)
		sorted[i] = &req->params[i];
	qsort(sorted, n, sizeof *sorted, query_param_order);
	for (size_t i = 0, j; i < n; i = j) {
		for (j = i + 1; j < n && strcmp(sorted[j]->name, sorted[i]->name) == 0; j++)
			;
		if (j - i < 2 || collects_values(sorted[i]->name))
			continue;
		free(sorted[i]->value);
		sorted[i]->value = sorted[j - 1]->value;
		sorted[j - 1]->value = NULL;
		for (size_t k = i + 1; k < j; k++)
			drop_param(sorted[k]);
	}
	free(sorted);
	size_t kept = 0;
	for (size_t i = 0; i < n; i++)
		if (req->params[i].name)
			req->params[kept++] = req->params[i];
	req->nparams = kept;
}

static void add_param(struct request *req, size_t *capacity, char *name, char *value)
{
	if (req->nparams == *capacity) {
		*capacity = *capacity ? 2 * *capacity : 8;
		req->params = xrealloc(req->params, *capacity * sizeof *req->params);
	}
	req->params[req->nparams].name = name;
	req->params[req->nparams].value = value;
	req->nparams++;
}

static void parse_query(struct request *req)
{
	size_t capacity = 0;
	const char *p = req->query;
	while (*p) {
		const char *end = strchr(p, '&');
		size_t len = end ? (size_t)(end - p) : strlen(p);
		const char *eq = memchr(p, '=', len);
		size_t name_len = eq ? (size_t)(eq - p) : len;
		if (name_len > 0) {
			char *name = url_decode(p, name_len, true);
			char *value = eq ? url_decode(eq + 1, len - name_len - 1, true) : xstrdup("");
			add_param(req, &capacity, name, value);
		}
		p += len;
		if (*p == '&')
			p++;
	}
	keep_last_values(req);
}

static void split_uri(struct request *req)
{
	const char *q = strchr(req->uri, '?');
	size_t path_len = q ? (size_t)(q - req->uri) : strlen(req->uri);
	const char *frag = memchr(req->uri, '#', path_len);
	if (frag)
		path_len = (size_t)(frag - req->uri);
	req->path = path_len ? xstrndup(req->uri, path_len) : xstrdup("/");
	req->query = xstrdup(q ? q + 1 : "");
	char *hash = strchr(req->query, '#');
	if (hash)
		*hash = '\0';
	/* "%00" is the only text that decodes to a NUL (a '%' never belongs
	 * to an escape before it). */
	req->holds_nul = strstr(req->path, "%00") || strstr(req->query, "%00");
	parse_query(req);
}

/* Whether a name given twice was given twice by the server's own
 * configuration rather than by the client: every name that is not a
 * request header, and HTTP_HOST, since all three servers refuse a request
 * with two Host headers. nginx sends its fastcgi_param lines in the order
 * of its configuration, so the last is the one meant: the line after
 * "include fastcgi_params" that overrides it (PHP-FPM keeps the last too). */
static bool repeats_are_configuration(const char *name)
{
	return strncmp(name, "HTTP_", 5) != 0 || strcmp(name, "HTTP_HOST") == 0;
}

const char *env_param_get(const char *name, void *ctx)
{
	struct env_params *p = ctx;
	size_t n = strlen(name), count = 0;
	bool keep_last = repeats_are_configuration(name);
	const char *first = NULL, *last = NULL;
	for (char *const *e = p->env; e && *e; e++) {
		if (strncmp(*e, name, n) != 0 || (*e)[n] != '=')
			continue;
		const char *value = *e + n + 1;
		last = value;
		if (keep_last)
			continue;
		if (count == 1) {
			strbuf_reset(&p->joined);
			strbuf_addstr(&p->joined, first);
		}
		if (count >= 1)
			strbuf_addf(&p->joined, ", %s", value);
		else
			first = value;
		count++;
	}
	if (keep_last)
		return last;
	return count > 1 ? p->joined.ptr : first;
}

static const char *or_default(const char *s, const char *fallback)
{
	return s && *s ? s : fallback;
}

/* A copy of a list header's value, NULL when absent or too long. */
static char *list_header(const char *value)
{
	return value && strlen(value) <= REQUEST_LIST_HEADER_MAX ? xstrdup(value) : NULL;
}

static char *scheme_from_cgi(cgi_getter get, void *ctx)
{
	const char *https = get("HTTPS", ctx);
	if (https && *https && strcmp(https, "off") != 0)
		return xstrdup("https");
	const char *scheme = get("REQUEST_SCHEME", ctx);
	if (scheme && strcmp(scheme, "https") == 0)
		return xstrdup("https");
	return xstrdup("http");
}

void request_from_cgi(struct request *req, cgi_getter get, void *ctx)
{
	memset(req, 0, sizeof *req);
	req->method = xstrdup(or_default(get("REQUEST_METHOD", ctx), "GET"));
	/* Route on REQUEST_URI: nginx and Apache fill SCRIPT_NAME and
	 * PATH_INFO differently, REQUEST_URI is the same everywhere. */
	const char *uri = get("REQUEST_URI", ctx);
	if (uri && *uri) {
		req->uri = xstrdup(uri);
	} else {
		struct strbuf b = STRBUF_INIT;
		strbuf_addstr(&b, or_default(get("SCRIPT_NAME", ctx), ""));
		strbuf_addstr(&b, or_default(get("PATH_INFO", ctx), ""));
		const char *qs = get("QUERY_STRING", ctx);
		if (qs && *qs) {
			strbuf_addch(&b, '?');
			strbuf_addstr(&b, qs);
		}
		req->uri = b.len ? strbuf_detach(&b, NULL) : xstrdup("/");
		strbuf_release(&b);
	}
	req->scheme = scheme_from_cgi(get, ctx);
	const char *host = get("HTTP_HOST", ctx);
	if (!host || !*host)
		host = get("SERVER_NAME", ctx);
	req->host = xstrdup(or_default(host, "localhost"));
	req->remote_addr = xstrdup(or_default(get("REMOTE_ADDR", ctx), ""));
	const char *forwarded = get("HTTP_X_FORWARDED_FOR", ctx);
	req->forwarded_for = forwarded ? xstrdup(forwarded) : NULL;
	const char *auth = get("HTTP_AUTHORIZATION", ctx);
	req->authorization = auth ? xstrdup(auth) : NULL;
	req->if_none_match = list_header(get("HTTP_IF_NONE_MATCH", ctx));
	req->accept_encoding = list_header(get("HTTP_ACCEPT_ENCODING", ctx));
	req->origin = list_header(get("HTTP_ORIGIN", ctx));
	req->cors_method = list_header(get("HTTP_ACCESS_CONTROL_REQUEST_METHOD", ctx));
	const char *script = or_default(get("SCRIPT_NAME", ctx), "");
	const char *slash = strrchr(script, '/');
	req->script_dir = xstrndup(script, slash ? (size_t)(slash - script) : 0);
	split_uri(req);
}

void request_from_uri(struct request *req, const char *method, const char *uri)
{
	memset(req, 0, sizeof *req);
	req->method = xstrdup(method);
	req->uri = xstrdup(uri && *uri ? uri : "/");
	req->scheme = xstrdup("http");
	req->host = xstrdup("localhost");
	req->remote_addr = xstrdup("127.0.0.1");
	req->authorization = NULL;
	req->script_dir = xstrdup("");
	split_uri(req);
}

void request_free(struct request *req)
{
	for (size_t i = 0; i < req->nparams; i++) {
		free(req->params[i].name);
		free(req->params[i].value);
	}
	free(req->params);
	free(req->method);
	free(req->uri);
	free(req->path);
	free(req->query);
	free(req->scheme);
	free(req->host);
	free(req->remote_addr);
	free(req->forwarded_for);
	free(req->authorization);
	free(req->if_none_match);
	free(req->accept_encoding);
	free(req->origin);
	free(req->cors_method);
	free(req->script_dir);
	memset(req, 0, sizeof *req);
}

static bool is_alnum(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
}

static bool is_name_char(char c)
{
	return is_alnum(c) || c == '-' || c == '.' || c == '_';
}

static bool is_bracketed_char(char c)
{
	return ascii_hex_value(c) >= 0 || c == ':' || c == '.';
}

bool request_host_valid(const char *host)
{
	size_t n = strlen(host);
	if (n == 0 || n > 255)
		return false;
	const char *p = host;
	if (*p == '[') {
		for (p++; is_bracketed_char(*p); p++)
			;
		if (*p != ']' || p == host + 1)
			return false;
		p++;
	} else {
		/* A name of dots, dashes and underscores alone ("..", "-") is
		 * no host, and could pass for a path or an option where the
		 * name is used. */
		bool named = false;
		for (; is_name_char(*p); p++)
			named |= is_alnum(*p);
		if (!named)
			return false;
	}
	if (*p == ':') {
		const char *digits = ++p;
		for (; *p >= '0' && *p <= '9'; p++)
			;
		if (p == digits || p - digits > 5)
			return false;
	}
	return *p == '\0';
}

const char *request_param(const struct request *req, const char *name)
{
	for (size_t i = req->nparams; i-- > 0;)
		if (strcmp(req->params[i].name, name) == 0)
			return req->params[i].value;
	return NULL;
}
