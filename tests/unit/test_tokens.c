/* Unit tests: per-user tokens (tokens.c) and their abilities (abilities.c);
 * the router's gate of abilities is test_router's. Every moment is passed
 * in: nothing here reads the clock. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <limits.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/log.h"
#include "guard/abilities.h"
#include "guard/tokens.h"
#include "lib/sha256.h"
#include "unit.h"

/* --- abilities ------------------------------------------------------------ */

static void test_abilities_parse(void)
{
	struct abilities a;
	char err[ABILITIES_ERR_LEN];
	abilities_init(&a);
	CU_ASSERT_EQUAL(abilities_parse_list(&a, " collections:blog, navs ,assets:main", err), 0);
	CU_ASSERT_FALSE(a.all);
	CU_ASSERT_TRUE(abilities_cover_type(&a, RES_NAVS));
	CU_ASSERT_TRUE(abilities_cover_handle(&a, RES_NAVS, "footer"));
	CU_ASSERT_FALSE(abilities_cover_type(&a, RES_COLLECTIONS));
	CU_ASSERT_TRUE(abilities_cover_handle(&a, RES_COLLECTIONS, "blog"));
	CU_ASSERT_FALSE(abilities_cover_handle(&a, RES_COLLECTIONS, "news"));
	CU_ASSERT_FALSE(abilities_cover_handle(&a, RES_TAXONOMIES, "blog"));
	CU_ASSERT_TRUE(abilities_cover_handle(&a, RES_ASSETS, "main"));
	CU_ASSERT_FALSE(abilities_cover_type(&a, RES_USERS));
	struct strbuf json = STRBUF_INIT;
	abilities_to_json(&a, &json);
	CU_ASSERT_STRING_EQUAL(json.ptr, "[\"collections:blog\",\"navs\",\"assets:main\"]");
	abilities_free(&a);

	abilities_init(&a);
	CU_ASSERT_EQUAL(abilities_from_json(&a, json.ptr), 0);
	CU_ASSERT_TRUE(abilities_cover_handle(&a, RES_COLLECTIONS, "blog"));
	CU_ASSERT_EQUAL(a.items.len, 3);
	abilities_free(&a);
	strbuf_release(&json);

	abilities_init(&a);
	CU_ASSERT_EQUAL(abilities_parse_list(&a, "*", err), 0);
	CU_ASSERT_TRUE(abilities_cover_type(&a, RES_SITES));
	CU_ASSERT_TRUE(abilities_cover_handle(&a, RES_FORMS, "contact"));
	abilities_free(&a);
}

static void assert_refused(const char *list, const char *message)
{
	struct abilities a;
	char err[ABILITIES_ERR_LEN] = "";
	abilities_init(&a);
	CU_ASSERT_EQUAL(abilities_parse_list(&a, list, err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, message));
	if (!strstr(err, message))
		fprintf(stderr, "\n%s: %s\n", list, err);
	abilities_free(&a);
}

static void test_abilities_refused(void)
{
	assert_refused("read", "'read' is not an ability");
	assert_refused("collections, entries", "'entries' is not an ability");
	assert_refused("users:ada", "users have no handles, use 'users'");
	assert_refused("sites:en", "sites have no handles");
	assert_refused("collections:", "'' is not a handle");
	assert_refused("collections:../x", "'../x' is not a handle");
	assert_refused("collections:a b", "is not a handle");
	assert_refused(" , ", "no ability given");
	assert_refused("Collections", "is not an ability");
}

/* What a hand-edited row may hold: unknown items grant nothing, and
 * neither does text that is not a list of strings. */
static void test_abilities_stored(void)
{
	struct abilities a;
	abilities_init(&a);
	CU_ASSERT_EQUAL(abilities_from_json(&a, "[\"read\",\"navs\",\"users:x\"]"), 0);
	CU_ASSERT_TRUE(abilities_cover_type(&a, RES_NAVS));
	CU_ASSERT_FALSE(abilities_cover_type(&a, RES_USERS));
	CU_ASSERT_EQUAL(a.items.len, 1);
	abilities_free(&a);
	const char *bad[] = {"", "*", "{\"a\":1}", "[1]", "[\"*\"", "\"*\""};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		abilities_init(&a);
		CU_ASSERT_EQUAL(abilities_from_json(&a, bad[i]), -1);
		CU_ASSERT_FALSE(a.all);
		abilities_free(&a);
	}
}

/* --- expiries -------------------------------------------------------------- */

static void test_parse_expiry(void)
{
	long long at = 0;
	CU_ASSERT_EQUAL(token_parse_expiry("30d", 1000, &at), 0);
	CU_ASSERT_EQUAL(at, 1000 + 30 * 86400);
	CU_ASSERT_EQUAL(token_parse_expiry("12h", 1000, &at), 0);
	CU_ASSERT_EQUAL(at, 1000 + 12 * 3600);
	CU_ASSERT_EQUAL(token_parse_expiry("90m", 1000, &at), 0);
	CU_ASSERT_EQUAL(at, 1000 + 90 * 60);
	CU_ASSERT_EQUAL(token_parse_expiry("3600s", 1000, &at), 0);
	CU_ASSERT_EQUAL(at, 4600);
	CU_ASSERT_EQUAL(token_parse_expiry("2030-01-31", 1000, &at), 0);
	CU_ASSERT_EQUAL(at, 1896048000);
	CU_ASSERT_EQUAL(token_parse_expiry("2000-01-01T00:00:01Z", 1000, &at), 0);
	CU_ASSERT_EQUAL(at, 946684801);
	const char *bad[] = {"", "30", "d", "0s", "-1d", "1.5h", "30 d", "30dd", "1w",
	                     "99999999999999999999s", "40000d", "2030-02-31", "2030-13-01",
	                     "2030-1-1", "2030-01-31T25:00:00Z", "2030-01-31T12:00:00",
	                     "2030-01-31 12:00:00Z", "tomorrow"};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CU_ASSERT_EQUAL(token_parse_expiry(bad[i], 1000, &at), -1);
		if (token_parse_expiry(bad[i], 1000, &at) != -1)
			fprintf(stderr, "\naccepted: %s\n", bad[i]);
	}
}

/* --- the database ---------------------------------------------------------- */

static char *db_dir, db_path[PATH_MAX];

/* A fresh database in a fresh directory, holding one token for owner
 * with abilities and an expiry; its "ID|SECRET" in token. */
static struct token_db *fresh_db(char token[64], const char *abilities, long long expires_at)
{
	char err[TOKEN_ERR_LEN];
	db_dir = unit_tempdir();
	snprintf(db_path, sizeof db_path, "%s/tokens.sqlite", db_dir);
	struct token_db *db = token_db_open(db_path, err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	char secret[TOKEN_SECRET_LEN + 1];
	long long id = 0;
	CU_ASSERT_EQUAL_FATAL(token_db_create(db, "user-ada", "deploy", abilities, 100, expires_at,
	                                      &id, secret, err), 0);
	snprintf(token, 64, "%lld|%s", id, secret);
	return db;
}

static void drop_db(struct token_db *db)
{
	token_db_close(db);
	unit_rmtree(db_dir);
	free(db_dir);
}

static enum token_verdict check(struct token_reader *r, const char *token, long long now)
{
	struct token_grant g;
	token_grant_init(&g);
	enum token_verdict v = token_check(r, token, strlen(token), now, &g);
	CU_ASSERT_EQUAL(g.id != 0, v == TOKEN_VALID);
	token_grant_free(&g);
	return v;
}

static void test_created_private(void)
{
	char err[TOKEN_ERR_LEN];
	char *dir = unit_tempdir(), path[PATH_MAX];
	snprintf(path, sizeof path, "%s/t.db", dir);
	mode_t old = umask(0); /* the widest umask: the file is 0600 all the same */
	struct token_db *db = token_db_open(path, err);
	umask(old);
	CU_ASSERT_PTR_NOT_NULL_FATAL(db);
	struct stat st;
	CU_ASSERT_EQUAL(stat(path, &st), 0);
	CU_ASSERT_EQUAL(st.st_mode & 07777, 0600);
	token_db_close(db);
	/* Opened again, it is used as it is. */
	db = token_db_open(path, err);
	CU_ASSERT_PTR_NOT_NULL(db);
	token_db_close(db);
	CU_ASSERT_PTR_NULL(token_db_open("", err));
	CU_ASSERT_STRING_EQUAL(err, "no [auth] database is configured");
	snprintf(path, sizeof path, "%s/no/such/dir/t.db", dir);
	CU_ASSERT_PTR_NULL(token_db_open(path, err));
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "No such file or directory"));
	unit_rmtree(dir);
	free(dir);
}

struct listed {
	int n;
	char text[512];
};

static void collect(const struct token_row *row, void *ctx)
{
	struct listed *l = ctx;
	size_t used = strlen(l->text);
	snprintf(l->text + used, sizeof l->text - used, "%lld %s %s %s %lld %lld %lld;", row->id,
	         row->owner, row->name, row->abilities, row->created_at, row->last_used_at,
	         row->expires_at);
	l->n++;
}

static void test_create_list_revoke(void)
{
	char token[64], err[TOKEN_ERR_LEN], secret[TOKEN_SECRET_LEN + 1];
	struct token_db *db = fresh_db(token, "[\"*\"]", 0);
	/* The secret: 40 letters and digits, after "1|". */
	CU_ASSERT_EQUAL(strncmp(token, "1|", 2), 0);
	CU_ASSERT_EQUAL(strlen(token), 2 + TOKEN_SECRET_LEN);
	CU_ASSERT_EQUAL(strspn(token + 2, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
	                                  "0123456789"), TOKEN_SECRET_LEN);
	long long id;
	CU_ASSERT_EQUAL(token_db_create(db, "user-bob", "ci", "[\"navs\"]", 200, 900, &id, secret,
	                                err), 0);
	CU_ASSERT_EQUAL(id, 2);
	CU_ASSERT_NOT_EQUAL(strcmp(secret, token + 2), 0);
	struct listed l = {0, ""};
	CU_ASSERT_EQUAL(token_db_list(db, collect, &l, err), 2);
	CU_ASSERT_STRING_EQUAL(l.text, "1 user-ada deploy [\"*\"] 100 0 0;"
	                               "2 user-bob ci [\"navs\"] 200 0 900;");
	/* Only the hash is stored, never the secret. */
	sqlite3 *raw;
	sqlite3_stmt *st;
	CU_ASSERT_EQUAL(sqlite3_open(db_path, &raw), SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_prepare_v2(raw, "SELECT token FROM personal_access_tokens WHERE "
	                                   "id = 2", -1, &st, NULL), SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_step(st), SQLITE_ROW);
	char hex[SHA256_HEX_LEN + 1];
	snprintf(hex, sizeof hex, "%s", (const char *)sqlite3_column_text(st, 0));
	CU_ASSERT_EQUAL(strlen(hex), SHA256_HEX_LEN);
	CU_ASSERT_PTR_NULL(strstr(hex, secret));
	sqlite3_finalize(st);
	sqlite3_close(raw);

	CU_ASSERT_EQUAL(token_db_revoke(db, 1, err), 1);
	CU_ASSERT_EQUAL(token_db_revoke(db, 1, err), 0);
	CU_ASSERT_EQUAL(token_db_revoke(db, 77, err), 0);
	l = (struct listed){0, ""};
	CU_ASSERT_EQUAL(token_db_list(db, collect, &l, err), 1);
	/* Ids are never reused after a revoke. */
	CU_ASSERT_EQUAL(token_db_revoke(db, 2, err), 1);
	CU_ASSERT_EQUAL(token_db_create(db, "user-bob", "again", "[\"*\"]", 300, 0, &id, secret,
	                                err), 0);
	CU_ASSERT_EQUAL(id, 3);
	drop_db(db);
}

static void test_check(void)
{
	char token[64], err[TOKEN_ERR_LEN], secret[TOKEN_SECRET_LEN + 1];
	struct token_db *db = fresh_db(token, "[\"collections:blog\"]", 0);
	long long id;
	CU_ASSERT_EQUAL(token_db_create(db, "user-bob", "short", "[\"*\"]", 100, 1000, &id, secret,
	                                err), 0);
	char expiring[64];
	snprintf(expiring, sizeof expiring, "%lld|%s", id, secret);
	struct token_reader r;
	token_reader_init(&r, db_path);

	struct token_grant g;
	token_grant_init(&g);
	CU_ASSERT_EQUAL(token_check(&r, token, strlen(token), 500, &g), TOKEN_VALID);
	CU_ASSERT_EQUAL(g.id, 1);
	CU_ASSERT_STRING_EQUAL(g.owner, "user-ada");
	CU_ASSERT_TRUE(abilities_cover_handle(&g.abilities, RES_COLLECTIONS, "blog"));
	CU_ASSERT_FALSE(abilities_cover_handle(&g.abilities, RES_COLLECTIONS, "news"));
	token_grant_free(&g);

	/* The token is compared whole: counted, not up to a NUL. */
	CU_ASSERT_EQUAL(token_check(&r, token, strlen(token) - 1, 500, &g), TOKEN_INVALID);
	char wrong[80];
	snprintf(wrong, sizeof wrong, "%s", token);
	wrong[10] = wrong[10] == 'x' ? 'y' : 'x';
	CU_ASSERT_EQUAL(check(&r, wrong, 500), TOKEN_INVALID);
	snprintf(wrong, sizeof wrong, "9%s", token); /* 91|...: no such id */
	CU_ASSERT_EQUAL(check(&r, wrong, 500), TOKEN_INVALID);
	snprintf(wrong, sizeof wrong, "%lld%s", id, token + 1); /* another token's id */
	CU_ASSERT_EQUAL(check(&r, wrong, 500), TOKEN_INVALID);
	const char *malformed[] = {"", "|", "1|", "|abc", "x|abc", "1x|abc", "0|abc", "-1|abc",
	                           "abc", "1234567890123456789|abc"};
	for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++)
		CU_ASSERT_EQUAL(check(&r, malformed[i], 500), TOKEN_INVALID);

	/* Expired at its expiry, not a second later. */
	CU_ASSERT_EQUAL(check(&r, expiring, 999), TOKEN_VALID);
	CU_ASSERT_EQUAL(check(&r, expiring, 1000), TOKEN_INVALID);
	CU_ASSERT_EQUAL(check(&r, expiring, 5000), TOKEN_INVALID);

	/* Revoked by another connection: refused at once. */
	CU_ASSERT_EQUAL(token_db_revoke(db, 1, err), 1);
	CU_ASSERT_EQUAL(check(&r, token, 500), TOKEN_INVALID);
	token_reader_free(&r);
	drop_db(db);
}

/* last_used_at: once a minute per token at most, written by the flush. */
static long long last_used(struct token_db *db, long long id)
{
	char err[TOKEN_ERR_LEN];
	struct listed l = {0, ""};
	token_db_list(db, collect, &l, err);
	char want[32];
	snprintf(want, sizeof want, "%lld ", id);
	const char *row = strstr(l.text, want);
	long long created, used = -1;
	if (row && sscanf(strchr(row, ']') + 1, "%lld %lld", &created, &used) != 2)
		used = -1;
	return used;
}

static void use(struct token_reader *r, const char *token, long long now)
{
	struct token_grant g;
	token_grant_init(&g);
	CU_ASSERT_EQUAL(token_check(r, token, strlen(token), now, &g), TOKEN_VALID);
	token_reader_used(r, g.id, now);
	token_reader_flush(r, now);
	token_grant_free(&g);
}

static void test_last_used_batched(void)
{
	char token[64];
	struct token_db *db = fresh_db(token, "[\"*\"]", 0);
	struct token_reader r;
	token_reader_init(&r, db_path);
	CU_ASSERT_EQUAL(last_used(db, 1), 0);
	use(&r, token, 1000);
	CU_ASSERT_EQUAL(last_used(db, 1), 1000);
	use(&r, token, 1030);
	use(&r, token, 1059);
	CU_ASSERT_EQUAL(last_used(db, 1), 1000);
	use(&r, token, 1060);
	CU_ASSERT_EQUAL(last_used(db, 1), 1060);
	/* A check that is not followed by token_reader_used (the owner was
	 * not a user) writes nothing. */
	CU_ASSERT_EQUAL(check(&r, token, 2000), TOKEN_VALID);
	token_reader_flush(&r, 2000);
	CU_ASSERT_EQUAL(last_used(db, 1), 1060);

	/* A locked database: the write is skipped, never waited for, and the
	 * check still answers from the last committed state once the lock
	 * is gone. */
	sqlite3 *locker;
	CU_ASSERT_EQUAL(sqlite3_open(db_path, &locker), SQLITE_OK);
	CU_ASSERT_EQUAL(sqlite3_exec(locker, "BEGIN EXCLUSIVE", NULL, NULL, NULL), SQLITE_OK);
	token_reader_used(&r, 1, 3000);
	token_reader_flush(&r, 3000);
	CU_ASSERT_EQUAL(check(&r, token, 3000), TOKEN_UNAVAILABLE);
	CU_ASSERT_EQUAL(sqlite3_exec(locker, "COMMIT", NULL, NULL, NULL), SQLITE_OK);
	sqlite3_close(locker);
	CU_ASSERT_EQUAL(last_used(db, 1), 1060);
	CU_ASSERT_EQUAL(check(&r, token, 3001), TOKEN_VALID);
	token_reader_free(&r);
	drop_db(db);
}

/* Lines of the file at path. */
static int lines_of(const char *path)
{
	FILE *f = fopen(path, "r");
	int n = 0, c;
	while (f && (c = fgetc(f)) != EOF)
		n += c == '\n';
	if (f)
		fclose(f);
	return n;
}

static void test_unavailable(void)
{
	char token[64], log_path[PATH_MAX];
	struct token_db *db = fresh_db(token, "[\"*\"]", 0);
	snprintf(log_path, sizeof log_path, "%s/log", db_dir);
	log_open(log_path, LOG_LEVEL_WARNING);
	struct token_reader r;
	token_reader_init(&r, db_path);
	CU_ASSERT_EQUAL(check(&r, token, 500), TOKEN_VALID);

	/* Moved away: missing, whatever was open. Said once, not per request. */
	char moved[PATH_MAX + 8];
	snprintf(moved, sizeof moved, "%s.moved", db_path);
	CU_ASSERT_EQUAL(rename(db_path, moved), 0);
	for (int i = 0; i < 3; i++)
		CU_ASSERT_EQUAL(check(&r, token, 500), TOKEN_UNAVAILABLE);
	CU_ASSERT_EQUAL(lines_of(log_path), 1);
	/* A malformed token is a 401 without asking the database. */
	CU_ASSERT_EQUAL(check(&r, "nope", 500), TOKEN_INVALID);

	/* Not a database. */
	CU_ASSERT_EQUAL(unit_write_file(db_dir, "tokens.sqlite", "this is not SQLite, not at all "
	                                "and long enough to be read as a header........."), 0);
	CU_ASSERT_EQUAL(check(&r, token, 500), TOKEN_UNAVAILABLE);
	/* An empty file: no table. */
	CU_ASSERT_EQUAL(unit_write_file(db_dir, "tokens.sqlite", ""), 0);
	CU_ASSERT_EQUAL(check(&r, token, 500), TOKEN_UNAVAILABLE);

	/* Back, as a new file (another inode): found again. */
	CU_ASSERT_EQUAL(rename(moved, db_path), 0);
	CU_ASSERT_EQUAL(check(&r, token, 500), TOKEN_VALID);

	/* Nothing configured. */
	struct token_reader none;
	token_reader_init(&none, "");
	CU_ASSERT_EQUAL(check(&none, token, 500), TOKEN_UNAVAILABLE);
	token_reader_free(&none);
	token_reader_free(&r);
	log_reset();
	drop_db(db);
}

/* Whether the grant of a valid token allows nothing at all. */
static bool grants_nothing(const struct token_grant *g)
{
	bool none = !g->abilities.all && g->abilities.items.len == 0;
	for (int t = 0; t < RES_TYPE_COUNT; t++)
		none = none && !abilities_cover_type(&g->abilities, (enum resource_type)t) &&
		       !abilities_cover_handle(&g->abilities, (enum resource_type)t, "blog");
	return none;
}

/* Checks token with r: valid, granting nothing. */
static void expect_refused_everything(struct token_reader *r, const char *token)
{
	struct token_grant g;
	token_grant_init(&g);
	CU_ASSERT_EQUAL(token_check(r, token, strlen(token), 500, &g), TOKEN_VALID);
	CU_ASSERT_TRUE(grants_nothing(&g));
	token_grant_free(&g);
}

/* Stored abilities that are not a JSON list of strings (a row edited by
 * hand): the token grants nothing, not even what a "*" beside a bad item
 * would, and the log names the token, once a minute at most per worker. */
static void test_abilities_unreadable(void)
{
	char token[64], mixed[64], err[TOKEN_ERR_LEN], secret[TOKEN_SECRET_LEN + 1];
	struct token_db *db = fresh_db(token, "not JSON", 0);
	long long id;
	CU_ASSERT_EQUAL_FATAL(token_db_create(db, "user-bob", "mixed", "[\"*\",1]", 100, 0, &id,
	                                      secret, err), 0);
	snprintf(mixed, sizeof mixed, "%lld|%s", id, secret);
	char log_path[PATH_MAX];
	snprintf(log_path, sizeof log_path, "%s/log", db_dir);
	log_reset();
	CU_ASSERT_EQUAL(log_open(log_path, LOG_LEVEL_WARNING), 0);

	struct token_reader r;
	token_reader_init(&r, db_path);
	expect_refused_everything(&r, token);
	expect_refused_everything(&r, token); /* refused again, not logged again */
	token_reader_free(&r);
	token_reader_init(&r, db_path); /* another worker */
	expect_refused_everything(&r, mixed);
	token_reader_free(&r);
	log_reset();

	CU_ASSERT_EQUAL(lines_of(log_path), 2);
	char want[PATH_MAX + 200];
	FILE *f = fopen(log_path, "r");
	char text[4096] = "";
	size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
	text[n] = '\0';
	if (f)
		fclose(f);
	snprintf(want, sizeof want, "warning: token 1: its abilities in %s are not a JSON list of "
	         "strings; it grants nothing", db_path);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, want));
	snprintf(want, sizeof want, "warning: token %lld: its abilities in %s", id, db_path);
	CU_ASSERT_PTR_NOT_NULL(strstr(text, want));
	drop_db(db);
}

/* Run as a user permissions hold for: a database it may not read is a
 * 503, whether it was unreadable from the start or made so while open. */
static char unreadable_token[64];

static void check_unreadable(const char *dir)
{
	char path[PATH_MAX];
	snprintf(path, sizeof path, "%s/tokens.sqlite", dir);
	struct token_reader r;
	token_reader_init(&r, path);
	int failed = check(&r, unreadable_token, 500) != TOKEN_VALID;
	failed |= chmod(path, 0) != 0;
	failed |= check(&r, unreadable_token, 500) != TOKEN_UNAVAILABLE;
	token_reader_free(&r);
	token_reader_init(&r, path);
	failed |= check(&r, unreadable_token, 500) != TOKEN_UNAVAILABLE;
	token_reader_free(&r);
	_exit(failed);
}

static void test_unreadable(void)
{
	struct token_db *db = fresh_db(unreadable_token, "[\"*\"]", 0);
	token_db_close(db);
	CU_ASSERT_EQUAL(unit_run_unprivileged(db_dir, check_unreadable), 0);
	drop_db(NULL);
}

void suite_tokens(void)
{
	CU_pSuite s = unit_add_suite("tokens");
	unit_add_test(s, "abilities parsed", test_abilities_parse);
	unit_add_test(s, "abilities refused", test_abilities_refused);
	unit_add_test(s, "abilities as stored", test_abilities_stored);
	unit_add_test(s, "expiries", test_parse_expiry);
	unit_add_test(s, "a new database is 0600", test_created_private);
	unit_add_test(s, "create, list, revoke", test_create_list_revoke);
	unit_add_test(s, "check", test_check);
	unit_add_test(s, "last_used_at batched", test_last_used_batched);
	unit_add_test(s, "database unavailable", test_unavailable);
	unit_add_test(s, "database unreadable", test_unreadable);
	unit_add_test(s, "abilities that do not parse", test_abilities_unreadable);
}
