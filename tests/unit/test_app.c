/* Unit tests: the request pipeline (app) and the guard through it. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "app/app.h"
#include "app/router.h"
#include "core/log.h"
#include "guard/guard.h"
#include "guard/tokens.h"

/* More segments than the router takes. */
#define ROUTER_SEGMENTS_FOR_TEST (ROUTER_MAX_SEGMENTS + 8)
#include "unit.h"

static struct app app;
static struct response res;

/* Opens the fixture site with every resource off and the API enabled. */
static void open_fixture(void)
{
	struct config cfg;
	config_init_defaults(&cfg);
	free(cfg.content_root);
	cfg.content_root = strdup(FIXTURES_DIR "/site");
	cfg.enabled = true;
	app_open_with_config(&app, &cfg, APP_PRIVATE);
	response_init(&res);
}

static void close_fixture(void)
{
	response_free(&res);
	app_close(&app);
}

static void get(const char *method, const char *uri)
{
	struct request req;
	request_from_uri(&req, method, uri);
	unit_handle(&app, &req, &res);
	request_free(&req);
}

static void assert_answer(int status, const char *body)
{
	CU_ASSERT_EQUAL(res.status, status);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&res.body), body);
	CU_ASSERT_STRING_EQUAL(response_header(&res, "Content-Type"), "application/json");
}

static void test_ping_and_not_found(void)
{
	open_fixture();
	get("GET", "/api/ping");
	assert_answer(200, "{\"ping\":\"pong\"}");
	get("GET", "/api/ping/");
	assert_answer(200, "{\"ping\":\"pong\"}");
	get("GET", "/apiping");
	assert_answer(404, "{\"message\":\"Not found.\"}");
	get("GET", "/other/ping");
	assert_answer(404, "{\"message\":\"Not found.\"}");
	close_fixture();
}

static void test_disabled_api_is_404_for_everything(void)
{
	open_fixture();
	app.cfg.enabled = false;
	get("GET", "/api/ping");
	assert_answer(404, "{\"message\":\"Not found.\"}");
	get("POST", "/api/ping");
	assert_answer(404, "{\"message\":\"Not found.\"}");
	close_fixture();
}

static void test_method_not_allowed(void)
{
	open_fixture();
	get("POST", "/api/ping");
	assert_answer(405, "{\"message\":\"Method Not Allowed.\"}");
	CU_ASSERT_STRING_EQUAL(response_header(&res, "Allow"), "GET, HEAD");
	get("HEAD", "/api/ping");
	assert_answer(200, "{\"ping\":\"pong\"}");
	CU_ASSERT_PTR_NULL(response_header(&res, "Allow"));
	close_fixture();
}

static void test_resources_follow_the_config(void)
{
	open_fixture();
	get("GET", "/api/collections/team");
	assert_answer(404, "{\"message\":\"Not found.\"}");
	app.cfg.resources[RES_COLLECTIONS].type_set = true;
	app.cfg.resources[RES_COLLECTIONS].type_value = true;
	get("GET", "/api/collections/team");
	assert_answer(200, "{\"data\":{\"handle\":\"team\",\"title\":\"Team\",\"structure\":"
	                   "{\"max_depth\":1,\"expects_root\":false},\"mount\":null,"
	                   "\"api_url\":\"http:\\/\\/localhost\\/api\\/collections\\/team\"}}");
	get("GET", "/api/sites");
	assert_answer(404, "{\"message\":\"Not found.\"}");
	app.cfg.resources[RES_SITES].type_set = true;
	app.cfg.resources[RES_SITES].type_value = true;
	get("GET", "/api/sites");
	CU_ASSERT_EQUAL(res.status, 200);
	CU_ASSERT_PTR_NOT_NULL(strstr(strbuf_str(&res.body), "\"handle\":\"de\""));
	close_fixture();
}

static void test_route_and_base_url(void)
{
	open_fixture();
	free(app.cfg.route);
	app.cfg.route = strdup("v1/content");
	free(app.cfg.base_url);
	app.cfg.base_url = strdup("https://cdn.example");
	app.cfg.resources[RES_COLLECTIONS].type_set = true;
	app.cfg.resources[RES_COLLECTIONS].type_value = true;
	get("GET", "/v1/content/collections/blog");
	assert_answer(200, "{\"data\":{\"handle\":\"blog\",\"title\":\"Blog\",\"structure\":null,"
	                   "\"mount\":null,\"api_url\":\"https:\\/\\/cdn.example\\/v1\\/content\\/"
	                   "collections\\/blog\"}}");
	get("GET", "/api/ping");
	assert_answer(404, "{\"message\":\"Not found.\"}");
	close_fixture();
}

/* A request as a server hands it over through FastCGI params. */
static void get_cgi(char **env)
{
	struct env_params params = {env, STRBUF_INIT};
	struct request req;
	request_from_cgi(&req, env_param_get, &params);
	unit_handle(&app, &req, &res);
	request_free(&req);
	strbuf_release(&params.joined);
}

/* A user's .htaccess rewrites /~bob/api/... to /~bob/cms-api.fcgi: the
 * route follows the script's directory, in routing and in the URLs. */
static void test_route_follows_the_script(void)
{
	open_fixture();
	app.cfg.resources[RES_COLLECTIONS].type_set = true;
	app.cfg.resources[RES_COLLECTIONS].type_value = true;
	char *userdir[] = {"REQUEST_URI=/~bob/api/collections/blog", "SCRIPT_NAME=/~bob/cms-api.fcgi",
	                   "HTTP_HOST=h:8080", NULL};
	get_cgi(userdir);
	assert_answer(200, "{\"data\":{\"handle\":\"blog\",\"title\":\"Blog\",\"structure\":null,"
	                   "\"mount\":null,\"api_url\":\"http:\\/\\/h:8080\\/~bob\\/api\\/"
	                   "collections\\/blog\"}}");
	/* Deeper: a site in a subdirectory of the user's. */
	char *deeper[] = {"REQUEST_URI=/~bob/site/api/ping?x=1", "SCRIPT_NAME=/~bob/site/cms-api.fcgi",
	                  NULL};
	get_cgi(deeper);
	assert_answer(200, "{\"ping\":\"pong\"}");
	/* The route at the root still answers, with the URLs it was asked by. */
	char *root[] = {"REQUEST_URI=/api/collections/blog", "SCRIPT_NAME=/~bob/cms-api.fcgi",
	                "HTTP_HOST=h", NULL};
	get_cgi(root);
	assert_answer(200, "{\"data\":{\"handle\":\"blog\",\"title\":\"Blog\",\"structure\":null,"
	                   "\"mount\":null,\"api_url\":\"http:\\/\\/h\\/api\\/collections\\/blog\"}}");
	/* lighttpd, Apache's Alias: SCRIPT_NAME is the route itself. */
	char *alias[] = {"REQUEST_URI=/api/ping", "SCRIPT_NAME=/api", "PATH_INFO=/ping", NULL};
	get_cgi(alias);
	assert_answer(200, "{\"ping\":\"pong\"}");
	/* Elsewhere in the user's directory, or the route only as a part of
	 * a name, or below another directory: not the API. */
	const char *outside[] = {"/~bob/cms-api.fcgi", "/~bob/apix/ping", "/~bob/x/api/ping",
	                         "/~bobby/api/ping", "/~bob//api/ping", "/other/ping"};
	for (size_t i = 0; i < sizeof outside / sizeof *outside; i++) {
		char uri[64];
		snprintf(uri, sizeof uri, "REQUEST_URI=%s", outside[i]);
		char *env[] = {uri, "SCRIPT_NAME=/~bob/cms-api.fcgi", NULL};
		get_cgi(env);
		assert_answer(404, "{\"message\":\"Not found.\"}");
	}
	close_fixture();
}

static void test_token_guard(void)
{
	open_fixture();
	free(app.cfg.auth_token);
	app.cfg.auth_token = strdup("t0ken");
	get("GET", "/api/ping");
	assert_answer(401, "{\"message\":\"Unauthenticated.\"}");
	CU_ASSERT_STRING_EQUAL(response_header(&res, "WWW-Authenticate"), "Bearer");
	/* The token is checked before the method. */
	get("POST", "/api/ping");
	CU_ASSERT_EQUAL(res.status, 401);
	close_fixture();
}

/* --- a sort by a key never served --------------------------------------- */

static void enable(enum resource_type type)
{
	app.cfg.resources[type].type_set = true;
	app.cfg.resources[type].type_value = true;
}

/* The "data" of the answer to GET uri (the links name the sort). */
static char *data_of(const char *uri)
{
	get("GET", uri);
	CU_ASSERT_EQUAL(res.status, 200);
	const char *body = strbuf_str(&res.body), *links = strstr(body, ",\"links\":");
	return strndup(body, links ? (size_t)(links - body) : strlen(body));
}

/* uri with each sort gives the same data as uri alone. */
static void assert_unsorted(const char *uri, const char *const sorts[], size_t n)
{
	char *plain = data_of(uri);
	for (size_t i = 0; i < n; i++) {
		char sorted_uri[256];
		snprintf(sorted_uri, sizeof sorted_uri, "%s&sort=%s", uri, sorts[i]);
		char *sorted = data_of(sorted_uri);
		CU_ASSERT_STRING_EQUAL(sorted, plain);
		if (strcmp(sorted, plain) != 0)
			fprintf(stderr, "\n%s: %s\n  unsorted: %s\n", sorted_uri, sorted, plain);
		free(sorted);
	}
	free(plain);
}

/* A key that excluded_keys withholds (or one users never show) orders
 * nothing: two requests, sorted each way, would tell how its hidden
 * values rank. Entries, terms and users alike. */
static void test_sort_by_a_withheld_key(void)
{
	open_fixture();
	enable(RES_COLLECTIONS);
	enable(RES_TAXONOMIES);
	enable(RES_USERS);
	strlist_split(&app.cfg.excluded_keys, "title, email, date");
	static const char *const by_title[] = {"title", "-title", "-title->x", "-date"};
	assert_unsorted("/api/collections/blog/entries?fields=id", by_title, 4);
	assert_unsorted("/api/taxonomies/tags/terms?fields=slug", by_title, 3);
	static const char *const by_secret[] = {"-email", "email", "-password_hash", "-password",
	                                        "-remember_token"};
	assert_unsorted("/api/users?fields=id", by_secret, 5);
	/* What is served still sorts. */
	char *plain = data_of("/api/collections/blog/entries?fields=id");
	char *by_id = data_of("/api/collections/blog/entries?fields=id&sort=-title,-id");
	CU_ASSERT_STRING_NOT_EQUAL(by_id, plain);
	free(by_id);
	free(plain);
	close_fixture();
}

/* fields never brings a withheld key back: null, for terms as for entries. */
static void test_fields_keep_withheld_keys_out(void)
{
	open_fixture();
	enable(RES_COLLECTIONS);
	enable(RES_TAXONOMIES);
	strlist_split(&app.cfg.excluded_keys, "title, url");
	get("GET", "/api/taxonomies/tags/terms/news?fields=title,url,slug");
	assert_answer(200, "{\"data\":{\"title\":null,\"url\":null,\"slug\":\"news\"}}");
	char *terms = data_of("/api/taxonomies/tags/terms?fields=title&limit=1");
	CU_ASSERT_STRING_EQUAL(terms, "{\"data\":[{\"title\":null}]");
	free(terms);
	char *entries = data_of("/api/collections/blog/entries?fields=title&limit=1");
	CU_ASSERT_STRING_EQUAL(entries, "{\"data\":[{\"title\":null}]");
	free(entries);
	close_fixture();
}

/* --- per-user tokens through the pipeline ------------------------------- */

static char *tokens_dir;
static char tokens_path[512];

/* The fixture app with middleware = auth:token and collections on, and a
 * token database holding one token per owner/abilities pair given; their
 * "ID|SECRET" in tokens[]. */
static void open_with_tokens(const char *const owners[], const char *const abilities[], size_t n,
                             char tokens[][64])
{
	open_fixture();
	tokens_dir = unit_tempdir();
	snprintf(tokens_path, sizeof tokens_path, "%s/tokens.sqlite", tokens_dir);
	free(app.cfg.middleware);
	app.cfg.middleware = strdup("auth:token");
	app.cfg.resources[RES_COLLECTIONS].type_set = true;
	app.cfg.resources[RES_COLLECTIONS].type_value = true;
	guard_state_free(&app.guard);
	guard_state_init(&app.guard, tokens_path);
	char err[TOKEN_ERR_LEN], secret[TOKEN_SECRET_LEN + 1];
	struct token_db *db = token_db_open(tokens_path, err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	for (size_t i = 0; i < n; i++) {
		long long id;
		CU_ASSERT_EQUAL(token_db_create(db, owners[i], "t", abilities[i], 1, 0, &id, secret, err),
		                0);
		snprintf(tokens[i], 64, "%lld|%s", id, secret);
	}
	token_db_close(db);
}

static void close_with_tokens(void)
{
	close_fixture();
	unit_rmtree(tokens_dir);
	free(tokens_dir);
}

/* GET uri with "Authorization: Bearer token" (none when token is NULL). */
static void get_as(const char *token, const char *uri)
{
	struct request req;
	request_from_uri(&req, "GET", uri);
	if (token) {
		char header[128];
		snprintf(header, sizeof header, "Bearer %s", token);
		req.authorization = strdup(header);
	}
	struct exchange x;
	exchange_init(&x);
	exchange_begin(&x, &req, &res);
	app_handle(&app, &x);
	app_finish(&app, &x);
	exchange_free(&x);
	request_free(&req);
}

/* --- the rate limit around the guard ------------------------------------ */

/* A limit of per_minute in a table of this app alone (the cache directory
 * is made for it: tokens_dir), by token or by address. */
static void limit_rate(long per_minute, enum rate_by by)
{
	app.cfg.rate_per_minute = per_minute;
	app.cfg.rate_by = by;
	free(app.cfg.cache_dir);
	app.cfg.cache_dir = strdup(tokens_dir);
	rate_limiter_free(&app.rate);
	rate_limiter_init(&app.rate, &app.cfg, true); /* as for a web server's client */
}

/* METHOD uri from the address remote, with "Authorization: Bearer token"
 * (none when token is NULL). */
static void ask_from(const char *remote, const char *method, const char *token, const char *uri)
{
	struct request req;
	request_from_uri(&req, method, uri);
	free(req.remote_addr);
	req.remote_addr = strdup(remote);
	if (token) {
		char header[128];
		snprintf(header, sizeof header, "Bearer %s", token);
		req.authorization = strdup(header);
	}
	unit_handle(&app, &req, &res);
	request_free(&req);
}

/* The last answer: status, and X-RateLimit-Remaining ("" when absent). */
static void assert_rate(int status, const char *remaining, int line)
{
	const char *got = response_header(&res, "X-RateLimit-Remaining");
	CU_ASSERT_EQUAL(res.status, status);
	CU_ASSERT_STRING_EQUAL(got ? got : "", remaining);
	if (res.status != status || strcmp(got ? got : "", remaining) != 0)
		fprintf(stderr, "\nline %d: want %d with %s left, got %d with %s\n", line, status,
		        remaining, res.status, got ? got : "none");
}
#define ASSERT_RATE(status, remaining) assert_rate((status), (remaining), __LINE__)

static void ask_many(int n, const char *remote, const char *prefix)
{
	for (int i = 0; i < n; i++) {
		char token[64];
		snprintf(token, sizeof token, "%s%d", prefix, i);
		ask_from(remote, "GET", token, "/api/ping");
	}
}

/* by = token: the budget is the verified token's, whatever address it
 * comes from and however it is spelt; a token that does not verify counts
 * against its address, with the headers on its 401, and once that address
 * has spent its budget it gets a 429 before any token of its is checked,
 * a good one included. */
static void test_rate_by_verified_token(void)
{
	static const char *const owners[] = {"user-ada", "user-bob"};
	static const char *const abilities[] = {"[\"*\"]", "[\"*\"]"};
	char tokens[2][64];
	open_with_tokens(owners, abilities, 2, tokens);
	limit_rate(3, RATE_BY_TOKEN);
	ask_from("192.0.2.1", "GET", tokens[0], "/api/ping");
	ASSERT_RATE(200, "2");
	ask_from("192.0.2.2", "GET", tokens[0], "/api/ping");
	ASSERT_RATE(200, "1");
	char spelt[80];
	snprintf(spelt, sizeof spelt, "0%s", tokens[0]); /* "01|secret": still token 1 */
	ask_from("192.0.2.3", "GET", spelt, "/api/ping");
	ASSERT_RATE(200, "0");
	ask_from("192.0.2.4", "GET", spelt, "/api/ping");
	ASSERT_RATE(429, "0");
	CU_ASSERT_STRING_EQUAL(strbuf_str(&res.body), "{\"message\":\"Too Many Attempts.\"}");
	/* Token 2 has its own budget, and so has an address without a token. */
	ask_from("192.0.2.1", "GET", tokens[1], "/api/ping");
	ASSERT_RATE(200, "2");
	ask_from("192.0.2.1", "GET", NULL, "/api/ping");
	ASSERT_RATE(401, "2");
	CU_ASSERT_STRING_EQUAL(response_header(&res, "WWW-Authenticate"), "Bearer");
	/* Made-up tokens: one budget, the address's; then a 429 even for a good token. */
	ask_many(2, "198.51.100.7", "1|made-up-");
	ASSERT_RATE(401, "1");
	ask_many(1, "198.51.100.7", "");
	ASSERT_RATE(401, "0");
	ask_many(20, "198.51.100.7", "2|guess-");
	ASSERT_RATE(429, "0");
	CU_ASSERT_PTR_NOT_NULL(response_header(&res, "Retry-After"));
	CU_ASSERT_PTR_NULL(response_header(&res, "WWW-Authenticate"));
	ask_from("198.51.100.7", "GET", tokens[1], "/api/ping");
	ASSERT_RATE(429, "0");
	/* That good token is still good elsewhere, and its budget untouched. */
	ask_from("198.51.100.8", "GET", tokens[1], "/api/ping");
	ASSERT_RATE(200, "1");
	/* A 405 passed the guard and is not counted. */
	ask_from("198.51.100.8", "POST", tokens[1], "/api/ping");
	ASSERT_RATE(405, "");
	ask_from("198.51.100.8", "GET", tokens[1], "/api/ping");
	ASSERT_RATE(200, "0");
	close_with_tokens();
}

/* by = ip with the shared token: guessing it costs the address its
 * budget; once spent, the right token gets the 429 too. */
static void test_rate_guessing_the_shared_token(void)
{
	char tokens[1][64];
	open_with_tokens(NULL, NULL, 0, tokens);
	free(app.cfg.middleware);
	app.cfg.middleware = strdup("");
	free(app.cfg.auth_token);
	app.cfg.auth_token = strdup("s3cret");
	limit_rate(3, RATE_BY_IP);
	ask_from("192.0.2.1", "GET", "s3cret", "/api/ping");
	ASSERT_RATE(200, "2");
	ask_from("192.0.2.1", "GET", "guess", "/api/ping");
	ASSERT_RATE(401, "1");
	ask_from("192.0.2.1", "POST", "guess", "/api/ping"); /* refused before the method */
	ASSERT_RATE(401, "0");
	ask_from("192.0.2.1", "GET", "s3cret", "/api/ping");
	ASSERT_RATE(429, "0");
	ask_from("192.0.2.1", "GET", "guess", "/api/ping");
	ASSERT_RATE(429, "0");
	ask_from("192.0.2.2", "GET", "s3cret", "/api/ping");
	ASSERT_RATE(200, "2");
	/* by = token: the shared token is one budget for all who hold it. */
	limit_rate(2, RATE_BY_TOKEN);
	ask_from("192.0.2.3", "GET", "s3cret", "/api/ping");
	ASSERT_RATE(200, "1");
	ask_from("192.0.2.4", "GET", "s3cret", "/api/ping");
	ASSERT_RATE(200, "0");
	ask_from("192.0.2.5", "GET", "s3cret", "/api/ping");
	ASSERT_RATE(429, "0");
	ask_from("192.0.2.5", "GET", NULL, "/api/ping");
	ASSERT_RATE(401, "1");
	close_with_tokens();
}

/* Appends 'y' or 'n' to the string ctx: whether the token was used. */
static void note_used(const struct token_row *row, void *ctx)
{
	strcat(ctx, row->last_used_at ? "y" : "n");
}

#define UNAUTHENTICATED "{\"message\":\"Unauthenticated.\"}"
#define NOT_FOUND "{\"message\":\"Not found.\"}"

static void test_per_user_tokens(void)
{
	static const char *const owners[] = {"user-ada", "user-bob", "user-gone"};
	static const char *const abilities[] = {"[\"*\"]", "[\"collections:blog\"]", "[\"*\"]"};
	char tokens[3][64];
	open_with_tokens(owners, abilities, 3, tokens);
	get_as(NULL, "/api/ping");
	assert_answer(401, UNAUTHENTICATED);
	CU_ASSERT_STRING_EQUAL(response_header(&res, "WWW-Authenticate"), "Bearer");
	get_as(tokens[0], "/api/ping");
	assert_answer(200, "{\"ping\":\"pong\"}");
	get_as(tokens[0], "/api/collections/team");
	CU_ASSERT_EQUAL(res.status, 200);
	/* Abilities: a handle of the type, never the list or another. */
	get_as(tokens[1], "/api/ping");
	CU_ASSERT_EQUAL(res.status, 200);
	get_as(tokens[1], "/api/collections/blog");
	CU_ASSERT_EQUAL(res.status, 200);
	get_as(tokens[1], "/api/collections/team");
	assert_answer(404, NOT_FOUND);
	get_as(tokens[1], "/api/collections");
	assert_answer(404, NOT_FOUND);
	/* An owner that is not a user of the site. */
	get_as(tokens[2], "/api/ping");
	assert_answer(401, UNAUTHENTICATED);
	/* A bearer that is not a per-user token, and no shared one is set. */
	get_as("s3cret", "/api/ping");
	assert_answer(401, UNAUTHENTICATED);
	/* The shared token is accepted too, once set, and reads everything. */
	free(app.cfg.auth_token);
	app.cfg.auth_token = strdup("s3cret");
	get_as("s3cret", "/api/collections/team");
	CU_ASSERT_EQUAL(res.status, 200);
	get_as(tokens[1], "/api/collections/team");
	assert_answer(404, NOT_FOUND);
	/* app_finish recorded the uses of the tokens that passed, not of the
	 * one whose owner is gone. */
	char err[TOKEN_ERR_LEN];
	struct token_db *db = token_db_open(tokens_path, err);
	char used[8] = "";
	CU_ASSERT_EQUAL(token_db_list(db, note_used, used, err), 3);
	CU_ASSERT_STRING_EQUAL(used, "yyn");
	token_db_close(db);
	close_with_tokens();
}

/* Without middleware = auth:token a per-user token is no token at all. */
static void test_per_user_tokens_need_the_middleware(void)
{
	static const char *const owners[] = {"user-ada"};
	static const char *const abilities[] = {"[\"*\"]"};
	char tokens[1][64];
	open_with_tokens(owners, abilities, 1, tokens);
	free(app.cfg.middleware);
	app.cfg.middleware = strdup("");
	get_as(NULL, "/api/ping");
	assert_answer(200, "{\"ping\":\"pong\"}");
	free(app.cfg.auth_token);
	app.cfg.auth_token = strdup("s3cret");
	get_as(tokens[0], "/api/ping");
	assert_answer(401, UNAUTHENTICATED);
	close_with_tokens();
}

/* A database that cannot answer is a 503, never an open door; a request
 * without a token is still a 401. */
static void test_token_database_missing(void)
{
	static const char *const owners[] = {"user-ada"};
	static const char *const abilities[] = {"[\"*\"]"};
	char tokens[1][64];
	open_with_tokens(owners, abilities, 1, tokens);
	char log_path[600];
	snprintf(log_path, sizeof log_path, "%s/log", tokens_dir);
	log_open(log_path, LOG_LEVEL_WARNING);
	CU_ASSERT_EQUAL(unlink(tokens_path), 0);
	get_as(tokens[0], "/api/ping");
	assert_answer(503, "{\"message\":\"Service Unavailable\"}");
	CU_ASSERT_PTR_NULL(response_header(&res, "WWW-Authenticate"));
	get_as(tokens[0], "/api/collections/team");
	assert_answer(503, "{\"message\":\"Service Unavailable\"}");
	get_as(NULL, "/api/ping");
	assert_answer(401, UNAUTHENTICATED);
	log_open("stderr", LOG_LEVEL_WARNING);
	FILE *f = fopen(log_path, "r");
	char line[512] = "";
	CU_ASSERT_PTR_NOT_NULL_FATAL(f);
	CU_ASSERT_PTR_NOT_NULL(fgets(line, sizeof line, f));
	CU_ASSERT_PTR_NOT_NULL(strstr(line, "cannot be read: No such file or directory"));
	CU_ASSERT_PTR_NULL(fgets(line, sizeof line, f)); /* once, not per request */
	fclose(f);
	close_with_tokens();
}

/* A path of more segments than any route has is a 404, and every
 * segment decoded so far is freed (LeakSanitizer checks under ASan). */
static void test_too_many_segments(void)
{
	open_fixture();
	struct strbuf uri = STRBUF_INIT;
	strbuf_addstr(&uri, "/api");
	for (int i = 0; i < ROUTER_SEGMENTS_FOR_TEST; i++)
		strbuf_addstr(&uri, "/a%20b");
	get("GET", uri.ptr);
	assert_answer(404, "{\"message\":\"Not found.\"}");
	strbuf_release(&uri);
	close_fixture();
}

/* Absolute URLs and the cache key come from Host: a Host that is not a
 * host name (a '/' in it) is refused before anything is looked up. */
static void test_host_must_be_a_host(void)
{
	open_fixture();
	const char *bad[] = {"h/api/ping", "a b", "user@h", "h:80:80", "h:123456", "[::1", "", "h?x"};
	const char *good[] = {"localhost", "127.0.0.1:8080", "[::1]:80", "cms.example.org", "a_b-c"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		struct request req;
		request_from_uri(&req, "GET", "/api/ping");
		free(req.host);
		req.host = strdup(bad[i]);
		unit_handle(&app, &req, &res);
		assert_answer(400, "{\"message\":\"The Host header is not a host name.\"}");
		request_free(&req);
	}
	for (size_t i = 0; i < sizeof good / sizeof good[0]; i++)
		CU_ASSERT_TRUE(request_host_valid(good[i]));
	close_fixture();
}

void suite_app(void)
{
	CU_pSuite s = unit_add_suite("app");
	unit_add_test(s, "ping and not found", test_ping_and_not_found);
	unit_add_test(s, "disabled API", test_disabled_api_is_404_for_everything);
	unit_add_test(s, "405", test_method_not_allowed);
	unit_add_test(s, "a sort by a withheld key orders nothing", test_sort_by_a_withheld_key);
	unit_add_test(s, "fields never brings a withheld key back", test_fields_keep_withheld_keys_out);
	unit_add_test(s, "rate limit by the verified token, 401s by the address",
	              test_rate_by_verified_token);
	unit_add_test(s, "rate limit: guessing the shared token is throttled",
	              test_rate_guessing_the_shared_token);
	unit_add_test(s, "resources follow the config", test_resources_follow_the_config);
	unit_add_test(s, "route and base_url", test_route_and_base_url);
	unit_add_test(s, "route follows the script", test_route_follows_the_script);
	unit_add_test(s, "token guard", test_token_guard);
	unit_add_test(s, "per-user tokens", test_per_user_tokens);
	unit_add_test(s, "per-user tokens need the middleware", test_per_user_tokens_need_the_middleware);
	unit_add_test(s, "token database missing", test_token_database_missing);
	unit_add_test(s, "too many segments", test_too_many_segments);
	unit_add_test(s, "Host must be a host", test_host_must_be_a_host);
}
