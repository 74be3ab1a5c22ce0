/* Unit tests: the guard (guard/guard.h): the bearer token of a request,
 * shared or per user (spec §6). Every moment is passed in. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "app/app.h"
#include "core/config.h"
#include "core/log.h"
#include "guard/guard.h"
#include "guard/tokens.h"
#include "http/error.h"
#include "http/request.h"
#include "http/response.h"
#include "site/snapshot.h"
#include "unit.h"

/* --- the Authorization header ------------------------------------------- */

/* The token of header, or "(none)". */
static const char *bearer_of(const char *header)
{
	static char out[128];
	size_t len = 0;
	const char *t = bearer_token(header, &len);
	if (!t)
		return "(none)";
	snprintf(out, sizeof out, "%.*s", (int)len, t);
	return out;
}

static void test_bearer_token_parsing(void)
{
	CU_ASSERT_STRING_EQUAL(bearer_of("Bearer abc"), "abc");
	CU_ASSERT_STRING_EQUAL(bearer_of("bEaReR 1|Xy9"), "1|Xy9");
	CU_ASSERT_STRING_EQUAL(bearer_of("Bearer    abc"), "abc");      /* several spaces */
	CU_ASSERT_STRING_EQUAL(bearer_of(" Bearer abc \t"), "abc");    /* HTTP's OWS */
	CU_ASSERT_STRING_EQUAL(bearer_of("Bearer a/b+c=="), "a/b+c=="); /* b64token */
	/* Exactly the scheme, then the token, then nothing. */
	CU_ASSERT_STRING_EQUAL(bearer_of("Basic Zm9v bearer TOKEN"), "(none)");
	CU_ASSERT_STRING_EQUAL(bearer_of("Basic x, BEARER last"), "(none)");
	CU_ASSERT_STRING_EQUAL(bearer_of("XBearer TOKEN"), "(none)");
	CU_ASSERT_STRING_EQUAL(bearer_of("Bearer TOKEN,garbage"), "(none)");
	CU_ASSERT_STRING_EQUAL(bearer_of("Bearer abc, Basic x"), "(none)");
	/* Two Authorization headers, as lighttpd and Apache join them. */
	CU_ASSERT_STRING_EQUAL(bearer_of("Bearer abc, Bearer abc"), "(none)");
	CU_ASSERT_STRING_EQUAL(bearer_of("Bearer abc def"), "(none)");
	CU_ASSERT_STRING_EQUAL(bearer_of("Bearer"), "(none)");
	CU_ASSERT_STRING_EQUAL(bearer_of("Bearer "), "(none)");
	CU_ASSERT_STRING_EQUAL(bearer_of("Bearer\tabc"), "(none)");
	CU_ASSERT_STRING_EQUAL(bearer_of("Bearerabc"), "(none)");
	CU_ASSERT_STRING_EQUAL(bearer_of("Bearer ab\x01" "c"), "(none)");
	CU_ASSERT_STRING_EQUAL(bearer_of("Bearer \xc3\xa9t\xc3\xa9"), "(none)");
	CU_ASSERT_STRING_EQUAL(bearer_of("Basic abc"), "(none)");
	CU_ASSERT_STRING_EQUAL(bearer_of(""), "(none)");
	CU_ASSERT_STRING_EQUAL(bearer_of(NULL), "(none)");
}

/* The token is a view into the header, of the length given. */
static void test_bearer_token_points_into_the_header(void)
{
	const char *header = "  BEARER   s3cret\t ";
	size_t len = 0;
	const char *t = bearer_token(header, &len);
	CU_ASSERT_PTR_EQUAL(t, header + 11);
	CU_ASSERT_EQUAL(len, 6);
	/* Every printable character but the comma may be in a token. */
	CU_ASSERT_STRING_EQUAL(bearer_of("Bearer !\"#$%&'()*+-./:;<=>?@[\\]^_`{|}~"),
	                       "!\"#$%&'()*+-./:;<=>?@[\\]^_`{|}~");
	CU_ASSERT_STRING_EQUAL(bearer_of("Bearer a,"), "(none)");
	CU_ASSERT_STRING_EQUAL(bearer_of("Bearer ,a"), "(none)");
	CU_ASSERT_STRING_EQUAL(bearer_of("Bearer a\x7f"), "(none)");
	CU_ASSERT_STRING_EQUAL(bearer_of("Bearer a\r\nX-Other: 1"), "(none)");
	CU_ASSERT_STRING_EQUAL(bearer_of(", Bearer abc"), "(none)");
	CU_ASSERT_STRING_EQUAL(bearer_of("\tbearer abc"), "abc");
}

/* --- what needs a token ------------------------------------------------- */

/* The defaults (a public API) with the fixture site. */
static void config_for_tests(struct config *cfg)
{
	config_init_defaults(cfg);
	free(cfg->content_root);
	cfg->content_root = xstrdup(FIXTURES_DIR "/site");
}

static void set_string(char **field, const char *value)
{
	free(*field);
	*field = value ? xstrdup(value) : NULL;
}

static void test_what_needs_a_token(void)
{
	struct config cfg;
	config_for_tests(&cfg);
	CU_ASSERT_FALSE(guard_per_user(&cfg));
	CU_ASSERT_FALSE(guard_token_required(&cfg));
	set_string(&cfg.auth_token, "s3cret");
	CU_ASSERT_FALSE(guard_per_user(&cfg));
	CU_ASSERT_TRUE(guard_token_required(&cfg));
	set_string(&cfg.auth_token, "");
	set_string(&cfg.middleware, "auth:token");
	CU_ASSERT_TRUE(guard_per_user(&cfg));
	CU_ASSERT_TRUE(guard_token_required(&cfg));
	set_string(&cfg.auth_token, NULL);
	CU_ASSERT_TRUE(guard_token_required(&cfg));
	/* Only that middleware asks for per-user tokens. */
	static const char *const others[] = {"", "auth", "auth:tokens", "auth:token ", "web"};
	for (size_t i = 0; i < sizeof others / sizeof others[0]; i++) {
		set_string(&cfg.middleware, others[i]);
		CU_ASSERT_FALSE(guard_per_user(&cfg));
		CU_ASSERT_FALSE(guard_token_required(&cfg));
	}
	set_string(&cfg.middleware, NULL);
	CU_ASSERT_FALSE(guard_per_user(&cfg));
	CU_ASSERT_FALSE(guard_token_required(&cfg));
	config_free(&cfg);
}

/* --- the guard's verdict ---------------------------------------------------
 *
 * guard() and refused_as() are the only places that know how guard_token
 * reports a refusal (a status, its message in an http_error, made into
 * the answer by the pipeline's one writer, app_answer_error); every test
 * below goes through them. */

struct verdict {
	bool passed;
	int status;          /* of the refusal; 0 when passed */
	char body[128];      /* of the refusal */
	char challenge[32];  /* WWW-Authenticate, "" when none */
	bool res_untouched;  /* a pass left no failure behind */
};

static struct verdict guard(struct guard_state *g, const struct config *cfg,
                            const struct snapshot *snap, uint64_t serial,
                            const char *authorization, long long now, struct token_grant *grant)
{
	struct request req;
	request_from_uri(&req, "GET", "/api/ping");
	if (authorization)
		req.authorization = xstrdup(authorization);
	struct response res;
	struct http_error e = HTTP_ERROR_INIT;
	response_init(&res);
	struct verdict v;
	memset(&v, 0, sizeof v);
	int status = guard_token(g, cfg, snap, serial, &req, now, grant, &e);
	v.passed = status == 0;
	v.res_untouched = e.status == 0;
	if (!v.passed) {
		app_answer_error(&res, &e);
		const char *challenge = response_header(&res, "WWW-Authenticate");
		v.status = res.status;
		snprintf(v.body, sizeof v.body, "%s", strbuf_str(&res.body));
		snprintf(v.challenge, sizeof v.challenge, "%s", challenge ? challenge : "");
	}
	response_free(&res);
	http_error_free(&e);
	request_free(&req);
	return v;
}

/* Whether v is the refusal: 401 with the Bearer challenge, or 503
 * without one. */
static bool refused_as(const struct verdict *v, int status)
{
	const char *body = status == 401 ? "{\"message\":\"Unauthenticated.\"}"
	                                 : "{\"message\":\"Service Unavailable\"}";
	const char *challenge = status == 401 ? "Bearer" : "";
	return !v->passed && v->status == status && strcmp(v->body, body) == 0 &&
	       strcmp(v->challenge, challenge) == 0;
}

static void assert_refused(const struct verdict *v, int status, int line)
{
	CU_ASSERT_TRUE(refused_as(v, status));
	if (!refused_as(v, status))
		fprintf(stderr, "\nline %d: want %d, got %s %d %s [%s]\n", line, status,
		        v->passed ? "pass" : "refusal", v->status, v->body, v->challenge);
}

static void assert_passed(const struct verdict *v, int line)
{
	CU_ASSERT_TRUE(v->passed && v->res_untouched);
	if (!v->passed || !v->res_untouched)
		fprintf(stderr, "\nline %d: want a pass, got %d %s\n", line, v->status, v->body);
}

#define ASSERT_401(v) assert_refused(&(v), 401, __LINE__)
#define ASSERT_503(v) assert_refused(&(v), 503, __LINE__)
#define ASSERT_PASSED(v) assert_passed(&(v), __LINE__)

/* --- the shared token ------------------------------------------------------ */

static void test_public_api(void)
{
	struct config cfg;
	config_for_tests(&cfg);
	struct guard_state g;
	guard_state_init(&g, "");
	struct token_grant grant;
	token_grant_init(&grant);
	static const char *const headers[] = {NULL, "", "Bearer anything", "Basic x", "1|abc"};
	for (size_t i = 0; i < sizeof headers / sizeof headers[0]; i++) {
		struct verdict v = guard(&g, &cfg, NULL, 1, headers[i], 500, &grant);
		ASSERT_PASSED(v);
		CU_ASSERT_EQUAL(grant.id, 0);
		/* No token needed is no token verified (the rate limit's key). */
		CU_ASSERT_FALSE(grant.shared);
	}
	token_grant_free(&grant);
	guard_state_free(&g);
	config_free(&cfg);
}

static void test_shared_token(void)
{
	struct config cfg;
	config_for_tests(&cfg);
	set_string(&cfg.auth_token, "s3cret");
	struct guard_state g;
	guard_state_init(&g, "");
	struct token_grant grant;
	token_grant_init(&grant);
	struct verdict v = guard(&g, &cfg, NULL, 1, "Bearer s3cret", 500, &grant);
	ASSERT_PASSED(v);
	CU_ASSERT_EQUAL(grant.id, 0);
	CU_ASSERT_TRUE(grant.shared);
	v = guard(&g, &cfg, NULL, 1, "bearer   s3cret ", 500, &grant);
	ASSERT_PASSED(v);
	CU_ASSERT_TRUE(grant.shared);
	static const char *const wrong[] = {
		NULL, "", "Bearer", "Bearer ", "Bearer s3cre", "Bearer s3cret1", "Bearer S3CRET",
		"Bearer s3cret, Bearer s3cret", "Basic s3cret", "s3cret", "Bearer s3cret x",
		"Bearer 1|s3cret",
	};
	for (size_t i = 0; i < sizeof wrong / sizeof wrong[0]; i++) {
		v = guard(&g, &cfg, NULL, 1, wrong[i], 500, &grant);
		ASSERT_401(v);
		CU_ASSERT_EQUAL(grant.id, 0);
		CU_ASSERT_FALSE(grant.shared); /* the pass before is forgotten */
	}
	/* Without the middleware a per-user token is no token at all, and no
	 * database is asked (none is configured: it would be a 503). */
	v = guard(&g, &cfg, NULL, 1, "Bearer 1|abcdefghij", 500, &grant);
	ASSERT_401(v);
	token_grant_free(&grant);
	guard_state_free(&g);
	config_free(&cfg);
}

/* --- per-user tokens ------------------------------------------------------- */

static char *db_dir, db_path[PATH_MAX];
static struct snapshot *site_snap;

/* The token "ID|SECRET" of a new token of owner in the database. */
static void create_token(struct token_db *db, const char *owner, const char *abilities,
                         long long expires_at, char token[64])
{
	char err[TOKEN_ERR_LEN], secret[TOKEN_SECRET_LEN + 1];
	long long id = 0;
	CU_ASSERT_EQUAL_FATAL(token_db_create(db, owner, "test", abilities, 100, expires_at, &id,
	                                      secret, err), 0);
	snprintf(token, 64, "%lld|%s", id, secret);
}

/* A fresh database: tokens[0] of user-ada reading collections:blog,
 * tokens[1] of user-bob expiring at 1000, tokens[2] of an owner that is
 * no user of the site. cfg asks for per-user tokens. */
static void open_tokens(struct config *cfg, char tokens[3][64])
{
	char err[TOKEN_ERR_LEN];
	config_for_tests(cfg);
	set_string(&cfg->middleware, "auth:token");
	db_dir = unit_tempdir();
	snprintf(db_path, sizeof db_path, "%s/tokens.sqlite", db_dir);
	struct token_db *db = token_db_open(db_path, err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	create_token(db, "user-ada", "[\"collections:blog\"]", 0, tokens[0]);
	create_token(db, "user-bob", "[\"*\"]", 1000, tokens[1]);
	create_token(db, "user-gone", "[\"*\"]", 0, tokens[2]);
	token_db_close(db);
	site_snap = unit_snapshot(cfg);
}

static void close_tokens(struct config *cfg)
{
	snapshot_close(site_snap);
	site_snap = NULL;
	config_free(cfg);
	unit_rmtree(db_dir);
	free(db_dir);
}

static struct verdict guard_bearer(struct guard_state *g, const struct config *cfg,
                                   const char *token, long long now, struct token_grant *grant)
{
	char header[160];
	snprintf(header, sizeof header, "Bearer %s", token);
	return guard(g, cfg, site_snap, 1, header, now, grant);
}

static void test_per_user_tokens(void)
{
	struct config cfg;
	char tokens[3][64];
	open_tokens(&cfg, tokens);
	struct guard_state g;
	guard_state_init(&g, db_path);
	struct token_grant grant;
	token_grant_init(&grant);

	struct verdict v = guard_bearer(&g, &cfg, tokens[0], 500, &grant);
	ASSERT_PASSED(v);
	CU_ASSERT_EQUAL(grant.id, 1);
	CU_ASSERT_FALSE(grant.shared);
	CU_ASSERT_STRING_EQUAL(grant.owner, "user-ada");
	/* The same token spelt with a leading zero is the same token: id 1,
	 * which is what the rate limit keys its budget on. */
	char spelt[80];
	snprintf(spelt, sizeof spelt, "0%s", tokens[0]);
	v = guard_bearer(&g, &cfg, spelt, 500, &grant);
	ASSERT_PASSED(v);
	CU_ASSERT_EQUAL(grant.id, 1);
	CU_ASSERT_TRUE(abilities_cover_handle(&grant.abilities, RES_COLLECTIONS, "blog"));
	CU_ASSERT_FALSE(abilities_cover_handle(&grant.abilities, RES_COLLECTIONS, "news"));
	/* Expired at its expiry. */
	v = guard_bearer(&g, &cfg, tokens[1], 999, &grant);
	ASSERT_PASSED(v);
	CU_ASSERT_EQUAL(grant.id, 2);
	v = guard_bearer(&g, &cfg, tokens[1], 1000, &grant);
	ASSERT_401(v);
	CU_ASSERT_EQUAL(grant.id, 0); /* the grant held before is emptied */
	/* An owner that is not a user of the site. */
	v = guard_bearer(&g, &cfg, tokens[2], 500, &grant);
	ASSERT_401(v);
	CU_ASSERT_EQUAL(grant.id, 0);
	CU_ASSERT_PTR_NULL(grant.owner);
	/* No index: no user. */
	char header[160];
	snprintf(header, sizeof header, "Bearer %s", tokens[0]);
	v = guard(&g, &cfg, NULL, 2, header, 500, &grant);
	ASSERT_401(v);
	CU_ASSERT_EQUAL(grant.id, 0);
	/* Wrong, malformed, missing. */
	char wrong[64];
	snprintf(wrong, sizeof wrong, "%s", tokens[0]);
	wrong[5] = wrong[5] == 'x' ? 'y' : 'x';
	const char *bad[] = {wrong, "1|", "|x", "abc", "9|abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMN"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		v = guard_bearer(&g, &cfg, bad[i], 500, &grant);
		ASSERT_401(v);
	}
	v = guard(&g, &cfg, site_snap, 1, NULL, 500, &grant);
	ASSERT_401(v);
	snprintf(header, sizeof header, "Bearer %s, Bearer %s", tokens[0], tokens[0]);
	v = guard(&g, &cfg, site_snap, 1, header, 500, &grant);
	ASSERT_401(v);
	token_grant_free(&grant);
	guard_state_free(&g);
	close_tokens(&cfg);
}

/* With per-user tokens the shared token, when set, is accepted as well:
 * it carries no grant and reads whatever the config enables. */
static void test_shared_token_with_per_user_tokens(void)
{
	struct config cfg;
	char tokens[3][64];
	open_tokens(&cfg, tokens);
	set_string(&cfg.auth_token, "s3cret");
	struct guard_state g;
	guard_state_init(&g, db_path);
	struct token_grant grant;
	token_grant_init(&grant);
	struct verdict v = guard_bearer(&g, &cfg, tokens[0], 500, &grant);
	ASSERT_PASSED(v);
	CU_ASSERT_EQUAL(grant.id, 1);
	v = guard_bearer(&g, &cfg, "s3cret", 500, &grant);
	ASSERT_PASSED(v);
	CU_ASSERT_EQUAL(grant.id, 0);
	CU_ASSERT_PTR_NULL(grant.owner);
	v = guard_bearer(&g, &cfg, "s3cret2", 500, &grant);
	ASSERT_401(v);
	/* Even with the database gone. */
	CU_ASSERT_EQUAL(unlink(db_path), 0);
	v = guard_bearer(&g, &cfg, "s3cret", 500, &grant);
	ASSERT_PASSED(v);
	token_grant_free(&grant);
	guard_state_free(&g);
	close_tokens(&cfg);
}

/* Owners are looked up in the index the serial names: a new serial, a
 * new lookup. The v3 fixture site has no users. */
static void test_owners_follow_the_index(void)
{
	struct config cfg;
	char tokens[3][64];
	open_tokens(&cfg, tokens);
	struct config other_cfg;
	config_for_tests(&other_cfg);
	set_string(&other_cfg.content_root, FIXTURES_DIR "/v3-site");
	struct snapshot *no_users = unit_snapshot(&other_cfg);
	struct guard_state g;
	guard_state_init(&g, db_path);
	struct token_grant grant;
	token_grant_init(&grant);
	char header[160];
	snprintf(header, sizeof header, "Bearer %s", tokens[0]);
	struct verdict v = guard(&g, &cfg, site_snap, 1, header, 500, &grant);
	ASSERT_PASSED(v);
	v = guard(&g, &cfg, no_users, 2, header, 500, &grant);
	ASSERT_401(v);
	CU_ASSERT_EQUAL(grant.id, 0);
	v = guard(&g, &cfg, site_snap, 3, header, 500, &grant);
	ASSERT_PASSED(v);
	token_grant_free(&grant);
	guard_state_free(&g);
	snapshot_close(no_users);
	config_free(&other_cfg);
	close_tokens(&cfg);
}

/* A database that cannot answer is a 503, never an open door; a request
 * without a per-user token is still a 401. */
static void test_database_unavailable(void)
{
	struct config cfg;
	char tokens[3][64];
	open_tokens(&cfg, tokens);
	char log_path[PATH_MAX + 8];
	snprintf(log_path, sizeof log_path, "%s/log", db_dir);
	log_open(log_path, LOG_LEVEL_WARNING);
	struct guard_state g;
	guard_state_init(&g, db_path);
	struct token_grant grant;
	token_grant_init(&grant);
	struct verdict v = guard_bearer(&g, &cfg, tokens[0], 500, &grant);
	ASSERT_PASSED(v);
	/* Not a database, then none at all. */
	CU_ASSERT_EQUAL(unit_write_file(db_dir, "tokens.sqlite", "this is not SQLite, not at all "
	                                "and long enough to be read as a header........."), 0);
	v = guard_bearer(&g, &cfg, tokens[0], 500, &grant);
	ASSERT_503(v);
	CU_ASSERT_EQUAL(grant.id, 0);
	CU_ASSERT_EQUAL(unlink(db_path), 0);
	v = guard_bearer(&g, &cfg, tokens[0], 500, &grant);
	ASSERT_503(v);
	v = guard(&g, &cfg, site_snap, 1, NULL, 500, &grant);
	ASSERT_401(v);
	v = guard(&g, &cfg, site_snap, 1, "Basic x", 500, &grant);
	ASSERT_401(v);
	guard_state_free(&g);
	/* None configured. */
	guard_state_init(&g, "");
	v = guard_bearer(&g, &cfg, tokens[0], 500, &grant);
	ASSERT_503(v);
	token_grant_free(&grant);
	guard_state_free(&g);
	log_open("stderr", LOG_LEVEL_WARNING);
	close_tokens(&cfg);
}

/* Run as a user permissions hold for: a database it may not read is a
 * 503, whether made so while open or unreadable from the start. */
static struct config unreadable_cfg;
static char unreadable_tokens[3][64];

static void check_unreadable(const char *dir)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/tokens.sqlite", dir);
	log_open("/dev/null", LOG_LEVEL_WARNING); /* the 503s are told: expected */
	struct guard_state g;
	guard_state_init(&g, path);
	struct token_grant grant;
	token_grant_init(&grant);
	struct verdict v = guard_bearer(&g, &unreadable_cfg, unreadable_tokens[0], 500, &grant);
	int failed = !v.passed;
	failed |= chmod(path, 0) != 0;
	v = guard_bearer(&g, &unreadable_cfg, unreadable_tokens[0], 500, &grant);
	failed |= !refused_as(&v, 503) << 1;
	guard_state_free(&g);
	guard_state_init(&g, path);
	v = guard_bearer(&g, &unreadable_cfg, unreadable_tokens[0], 500, &grant);
	failed |= !refused_as(&v, 503) << 2;
	v = guard(&g, &unreadable_cfg, site_snap, 1, NULL, 500, &grant);
	failed |= !refused_as(&v, 401) << 3;
	_exit(failed);
}

static void test_database_unreadable(void)
{
	open_tokens(&unreadable_cfg, unreadable_tokens);
	CU_ASSERT_EQUAL(unit_run_unprivileged(db_dir, check_unreadable), 0);
	close_tokens(&unreadable_cfg);
}

void suite_guard(void)
{
	CU_pSuite s = unit_add_suite("guard");
	unit_add_test(s, "bearer token parsing", test_bearer_token_parsing);
	unit_add_test(s, "the bearer token points into the header",
	              test_bearer_token_points_into_the_header);
	unit_add_test(s, "what needs a token", test_what_needs_a_token);
	unit_add_test(s, "a public API", test_public_api);
	unit_add_test(s, "the shared token", test_shared_token);
	unit_add_test(s, "per-user tokens", test_per_user_tokens);
	unit_add_test(s, "the shared token with per-user tokens",
	              test_shared_token_with_per_user_tokens);
	unit_add_test(s, "owners follow the index", test_owners_follow_the_index);
	unit_add_test(s, "database unavailable", test_database_unavailable);
	unit_add_test(s, "database unreadable", test_database_unreadable);
}
