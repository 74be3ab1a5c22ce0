/* tokens: the per-user API token database; see tokens.h. */
#include "autoconfig.h"

#include "guard/tokens.h"

#include <errno.h>
#include <fcntl.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/log.h"
#include "lib/consttime.h"
#include "lib/sha256.h"
#include "lib/strbuf.h"

#define TABLE "personal_access_tokens"

static const char schema[] =
	"CREATE TABLE IF NOT EXISTS " TABLE " ("
	" id INTEGER PRIMARY KEY AUTOINCREMENT,"
	" owner TEXT NOT NULL,"
	" name TEXT NOT NULL,"
	" token TEXT NOT NULL UNIQUE,"
	" abilities TEXT NOT NULL DEFAULT '[\"*\"]',"
	" last_used_at INTEGER,"
	" expires_at INTEGER,"
	" created_at INTEGER NOT NULL)";

/* A secret shown once: longer than a read or a failing call may leave
 * behind, so every copy is wiped. */
static void wipe(void *p, size_t n)
{
	explicit_bzero(p, n);
}

/* --- the command line's side ------------------------------------------- */

struct token_db {
	sqlite3 *db;
};

static void sql_error(char err[TOKEN_ERR_LEN], sqlite3 *db, const char *doing)
{
	snprintf(err, TOKEN_ERR_LEN, "%s: %s", doing, db ? sqlite3_errmsg(db) : "out of memory");
}

/* Creates the file with mode 0600 before SQLite sees it: SQLite would
 * make it with 0644 less the umask, and the journal takes the mode of
 * the database. */
static int create_private_file(const char *path, char err[TOKEN_ERR_LEN])
{
	int fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, 0600);
	if (fd < 0 && errno == EEXIST)
		return 0;
	if (fd < 0 || fchmod(fd, 0600) != 0) {
		snprintf(err, TOKEN_ERR_LEN, "%s: %s", path, strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	return 0;
}

struct token_db *token_db_open(const char *path, char err[TOKEN_ERR_LEN])
{
	if (!path || !*path) {
		snprintf(err, TOKEN_ERR_LEN, "no [auth] database is configured");
		return NULL;
	}
	if (create_private_file(path, err) != 0)
		return NULL;
	sqlite3 *db = NULL;
	if (sqlite3_open_v2(path, &db, SQLITE_OPEN_READWRITE, NULL) != SQLITE_OK) {
		snprintf(err, TOKEN_ERR_LEN, "%s: %s", path, db ? sqlite3_errmsg(db) : "out of memory");
		sqlite3_close(db);
		return NULL;
	}
	sqlite3_busy_timeout(db, 5000);
	if (sqlite3_exec(db, schema, NULL, NULL, NULL) != SQLITE_OK) {
		sql_error(err, db, path);
		sqlite3_close(db);
		return NULL;
	}
	struct token_db *t = xmalloc(sizeof *t);
	t->db = db;
	return t;
}

void token_db_close(struct token_db *db)
{
	if (!db)
		return;
	sqlite3_close(db->db);
	free(db);
}

/* TOKEN_SECRET_LEN letters and digits, each equally likely: bytes of 248
 * and more are dropped so that 62 divides what is left. */
static int random_secret(char secret[TOKEN_SECRET_LEN + 1])
{
	static const char alphabet[] =
		"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	unsigned char buf[64];
	size_t n = 0;
	while (n < TOKEN_SECRET_LEN) {
		ssize_t got = getrandom(buf, sizeof buf, 0);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -1;
		for (ssize_t i = 0; i < got && n < TOKEN_SECRET_LEN; i++)
			if (buf[i] < 248)
				secret[n++] = alphabet[buf[i] % 62];
	}
	secret[n] = '\0';
	wipe(buf, sizeof buf);
	return 0;
}

static void bind_time(sqlite3_stmt *st, int i, long long t)
{
	if (t)
		sqlite3_bind_int64(st, i, t);
	else
		sqlite3_bind_null(st, i);
}

int token_db_create(struct token_db *db, const char *owner, const char *name,
                    const char *abilities_json, long long created_at, long long expires_at,
                    long long *id, char secret[TOKEN_SECRET_LEN + 1], char err[TOKEN_ERR_LEN])
{
	if (random_secret(secret) != 0) {
		snprintf(err, TOKEN_ERR_LEN, "getrandom: %s", strerror(errno));
		return -1;
	}
	char hash[SHA256_HEX_LEN + 1];
	sha256_hex(secret, TOKEN_SECRET_LEN, hash);
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db->db,
	                            "INSERT INTO " TABLE " (owner, name, token, abilities, "
	                            "expires_at, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
	                            -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_text(st, 1, owner, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 2, name, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 3, hash, -1, SQLITE_STATIC);
		sqlite3_bind_text(st, 4, abilities_json, -1, SQLITE_STATIC);
		bind_time(st, 5, expires_at);
		sqlite3_bind_int64(st, 6, created_at);
		rc = sqlite3_step(st);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		sql_error(err, db->db, "cannot store the token");
		wipe(secret, TOKEN_SECRET_LEN);
		return -1;
	}
	*id = (long long)sqlite3_last_insert_rowid(db->db);
	return 0;
}

static const char *column_text(sqlite3_stmt *st, int i)
{
	const unsigned char *s = sqlite3_column_text(st, i);
	return s ? (const char *)s : "";
}

long token_db_list(struct token_db *db, void (*each)(const struct token_row *row, void *ctx),
                   void *ctx, char err[TOKEN_ERR_LEN])
{
	sqlite3_stmt *st = NULL;
	long n = 0;
	int rc = sqlite3_prepare_v2(db->db,
	                            "SELECT id, owner, name, abilities, created_at, last_used_at, "
	                            "expires_at FROM " TABLE " ORDER BY id",
	                            -1, &st, NULL);
	while (rc == SQLITE_OK && (rc = sqlite3_step(st)) == SQLITE_ROW) {
		struct token_row row = {
			.id = sqlite3_column_int64(st, 0),
			.owner = column_text(st, 1),
			.name = column_text(st, 2),
			.abilities = column_text(st, 3),
			.created_at = sqlite3_column_int64(st, 4),
			.last_used_at = sqlite3_column_int64(st, 5),
			.expires_at = sqlite3_column_int64(st, 6),
		};
		each(&row, ctx);
		n++;
		rc = SQLITE_OK;
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		sql_error(err, db->db, "cannot list the tokens");
		return -1;
	}
	return n;
}

int token_db_revoke(struct token_db *db, long long id, char err[TOKEN_ERR_LEN])
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(db->db, "DELETE FROM " TABLE " WHERE id = ?1", -1, &st, NULL);
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, id);
		rc = sqlite3_step(st);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE) {
		sql_error(err, db->db, "cannot revoke the token");
		return -1;
	}
	return sqlite3_changes(db->db) > 0 ? 1 : 0;
}

/* "30d", "12h", "90m", "3600s": at least one second, at most 100 years. */
static int parse_duration(const char *s, long long *seconds)
{
	char *end;
	errno = 0;
	long long n = strtoll(s, &end, 10);
	if (end == s || *s < '0' || *s > '9' || errno != 0 || end[0] == '\0' || end[1] != '\0')
		return -1;
	long long unit;
	switch (*end) {
	case 's': unit = 1; break;
	case 'm': unit = 60; break;
	case 'h': unit = 3600; break;
	case 'd': unit = 86400; break;
	default: return -1;
	}
	if (n < 1 || n > 100LL * 366 * 86400 / unit)
		return -1;
	*seconds = n * unit;
	return 0;
}

/* "YYYY-MM-DD" (midnight) or "YYYY-MM-DDTHH:MM:SSZ", UTC. */
static int parse_date(const char *s, long long *at)
{
	struct tm tm;
	memset(&tm, 0, sizeof tm);
	const char *end = strptime(s, "%Y-%m-%d", &tm);
	if (end && *end == 'T')
		end = strptime(end, "T%H:%M:%SZ", &tm);
	if (!end || *end || strlen(s) < 10 || s[4] != '-')
		return -1;
	struct tm check = tm;
	time_t t = timegm(&tm);
	/* timegm moves 2030-02-31 to March: a date that does not exist. */
	if (t == (time_t)-1 || tm.tm_mday != check.tm_mday || tm.tm_mon != check.tm_mon)
		return -1;
	*at = (long long)t;
	return 0;
}

int token_parse_expiry(const char *spec, long long now, long long *expires_at)
{
	long long seconds;
	if (parse_duration(spec, &seconds) == 0) {
		*expires_at = now + seconds;
		return 0;
	}
	return parse_date(spec, expires_at);
}

/* --- the worker's side ------------------------------------------------- */

void token_grant_init(struct token_grant *g)
{
	memset(g, 0, sizeof *g);
	abilities_init(&g->abilities);
}

void token_grant_free(struct token_grant *g)
{
	free(g->owner);
	abilities_free(&g->abilities);
	token_grant_init(g);
}

void token_reader_init(struct token_reader *r, const char *path)
{
	memset(r, 0, sizeof *r);
	r->path = xstrdup(path ? path : "");
}

static void close_connections(struct token_reader *r)
{
	sqlite3_finalize(r->find);
	sqlite3_close(r->db);
	sqlite3_close(r->writer);
	r->find = NULL;
	r->db = NULL;
	r->writer = NULL;
}

void token_reader_free(struct token_reader *r)
{
	close_connections(r);
	free(r->path);
	free(r->usage);
	memset(r, 0, sizeof *r);
}

static bool same_file(const struct token_reader *r, const struct stat *st)
{
	return r->dev == st->st_dev && r->ino == st->st_ino && r->mode == st->st_mode &&
	       r->uid == st->st_uid && r->gid == st->st_gid;
}

static void remember_file(struct token_reader *r, const struct stat *st)
{
	r->dev = st->st_dev;
	r->ino = st->st_ino;
	r->mode = st->st_mode;
	r->uid = st->st_uid;
	r->gid = st->st_gid;
}

/* Opens the read-only connection and prepares the lookup. Returns false
 * with why. Never creates the file: a worker that finds none says so. */
static bool open_reader(struct token_reader *r, const struct stat *st, struct strbuf *why)
{
	int rc = sqlite3_open_v2(r->path, &r->db, SQLITE_OPEN_READONLY, NULL);
	if (rc == SQLITE_OK) {
		/* The command line commits in milliseconds; a lock held longer
		 * is a 503, not a stalled worker. */
		sqlite3_busy_timeout(r->db, 50);
		rc = sqlite3_prepare_v3(r->db, "SELECT token, owner, abilities, expires_at FROM "
		                        TABLE " WHERE id = ?1", -1, SQLITE_PREPARE_PERSISTENT,
		                        &r->find, NULL);
	}
	if (rc != SQLITE_OK) {
		int sys = r->db ? sqlite3_system_errno(r->db) : 0;
		strbuf_addstr(why, r->db ? sqlite3_errmsg(r->db) : "out of memory");
		if (sys)
			strbuf_addf(why, " (%s)", strerror(sys));
		close_connections(r);
		return false;
	}
	remember_file(r, st);
	return true;
}

/* A connection on the file as it is now: opened again when it was
 * replaced, or its mode or owner changed (a chmod 000 shuts a worker out
 * as it shuts out a new one). */
static bool reader_ready(struct token_reader *r, struct strbuf *why)
{
	struct stat st;
	if (!*r->path) {
		strbuf_addstr(why, "no [auth] database is configured");
		return false;
	}
	if (stat(r->path, &st) != 0) {
		strbuf_addstr(why, strerror(errno));
		close_connections(r);
		return false;
	}
	if (r->db && same_file(r, &st))
		return true;
	close_connections(r);
	return open_reader(r, &st, why);
}

/* "ID|SECRET": a decimal id and a secret of sane length. */
static bool split_token(const char *token, size_t len, long long *id, const char **secret,
                        size_t *secret_len)
{
	const char *bar = memchr(token, '|', len);
	size_t digits = bar ? (size_t)(bar - token) : 0;
	if (digits == 0 || digits > 18)
		return false;
	long long n = 0;
	for (size_t i = 0; i < digits; i++) {
		if (token[i] < '0' || token[i] > '9')
			return false;
		n = n * 10 + (token[i] - '0');
	}
	*id = n;
	*secret = bar + 1;
	*secret_len = len - digits - 1;
	return n > 0 && *secret_len > 0 && *secret_len <= 256;
}

static struct token_usage *usage_of(struct token_reader *r, long long id)
{
	for (size_t i = 0; i < r->nusage; i++)
		if (r->usage[i].id == id)
			return &r->usage[i];
	/* Bounded: a worker that saw this many tokens starts counting again. */
	if (r->nusage == 4096)
		r->nusage = 0;
	r->usage = xrealloc(r->usage, (r->nusage + 1) * sizeof *r->usage);
	r->usage[r->nusage] = (struct token_usage){id, 0};
	return &r->usage[r->nusage++];
}

/* The abilities stored for token id: all of them, or none when the text
 * is not a JSON list of strings. Fails closed: a list with one item that
 * is not a string and a "*" beside it grants nothing, not everything.
 * Said in the log, with the id: all the token's owner sees is a 404 for
 * every resource. */
static void read_abilities(struct token_reader *r, long long id, const char *json,
                           struct abilities *a)
{
	if (abilities_from_json(a, json) == 0)
		return;
	abilities_free(a);
	abilities_init(a);
	if (LOG_LEVEL_WARNING <= log_threshold)
		log_throttled(&r->abilities_log, LOG_LEVEL_WARNING, __FILE__, __LINE__,
		              "token %lld: its abilities in %s are not a JSON list of strings; it "
		              "grants nothing until they are (cms-api token revoke, then create)", id,
		              r->path);
}

/* The row found for id: the secret's hash must match, the token must not
 * have expired. */
static enum token_verdict verify_row(struct token_reader *r, long long id, const char *secret,
                                     size_t secret_len, long long now, struct token_grant *grant)
{
	char hash[SHA256_HEX_LEN + 1];
	sha256_hex(secret, secret_len, hash);
	const char *stored = column_text(r->find, 0);
	bool match = constant_time_equal(hash, SHA256_HEX_LEN, stored, strlen(stored)) &&
	             strlen(stored) == SHA256_HEX_LEN;
	wipe(hash, sizeof hash);
	bool expired = sqlite3_column_type(r->find, 3) != SQLITE_NULL &&
	               sqlite3_column_int64(r->find, 3) <= now;
	if (!match || expired)
		return TOKEN_INVALID;
	grant->owner = xstrdup(column_text(r->find, 1));
	read_abilities(r, id, column_text(r->find, 2), &grant->abilities);
	return TOKEN_VALID;
}

enum token_verdict token_check(struct token_reader *r, const char *token, size_t len,
                               long long now, struct token_grant *grant)
{
	long long id;
	const char *secret;
	size_t secret_len;
	token_grant_free(grant);
	if (!split_token(token, len, &id, &secret, &secret_len))
		return TOKEN_INVALID;
	struct strbuf why = STRBUF_INIT;
	enum token_verdict v = TOKEN_UNAVAILABLE;
	if (reader_ready(r, &why)) {
		sqlite3_bind_int64(r->find, 1, id);
		int rc = sqlite3_step(r->find);
		if (rc == SQLITE_ROW)
			v = verify_row(r, id, secret, secret_len, now, grant);
		else if (rc == SQLITE_DONE)
			v = TOKEN_INVALID;
		else
			strbuf_addstr(&why, sqlite3_errmsg(r->db));
		sqlite3_reset(r->find);
		sqlite3_clear_bindings(r->find);
		if (v == TOKEN_UNAVAILABLE)
			close_connections(r); /* corrupt or locked: start afresh next time */
	}
	if (v == TOKEN_UNAVAILABLE && LOG_LEVEL_ERROR <= log_threshold)
		log_throttled(&r->unavailable_log, LOG_LEVEL_ERROR, __FILE__, __LINE__,
		              "the token database %s cannot be read: %s; requests with a per-user "
		              "token get 503", r->path, strbuf_str(&why));
	strbuf_release(&why);
	if (v == TOKEN_VALID)
		grant->id = id;
	else
		token_grant_free(grant);
	return v;
}

void token_reader_used(struct token_reader *r, long long id, long long now)
{
	struct token_usage *u = usage_of(r, id);
	if (u->written == 0 || now - u->written >= TOKEN_USAGE_INTERVAL)
		r->pending = id;
}

/* The write connection: never waits for a lock. */
static bool open_writer(struct token_reader *r)
{
	if (r->writer)
		return true;
	if (sqlite3_open_v2(r->path, &r->writer, SQLITE_OPEN_READWRITE, NULL) == SQLITE_OK)
		return true;
	sqlite3_close(r->writer);
	r->writer = NULL;
	return false;
}

void token_reader_flush(struct token_reader *r, long long now)
{
	long long id = r->pending;
	r->pending = 0;
	if (!id)
		return;
	usage_of(r, id)->written = now; /* tried: not again for a minute either way */
	sqlite3_stmt *st = NULL;
	int rc = open_writer(r) ? sqlite3_prepare_v2(r->writer, "UPDATE " TABLE " SET "
	                                             "last_used_at = ?1 WHERE id = ?2", -1, &st, NULL)
	                        : SQLITE_CANTOPEN;
	if (rc == SQLITE_OK) {
		sqlite3_bind_int64(st, 1, now);
		sqlite3_bind_int64(st, 2, id);
		rc = sqlite3_step(st);
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		log_every_minute(LOG_LEVEL_INFO, "token %lld: last_used_at not recorded in %s: %s", id,
		                 r->path, r->writer ? sqlite3_errmsg(r->writer) : "cannot open it");
}
