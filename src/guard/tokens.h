/*
 * tokens: the per-user API tokens of `[api] middleware = auth:token`
 * (spec §6), kept in a SQLite database ([auth] database) shaped like
 * Laravel Sanctum's personal_access_tokens table:
 *
 *   id INTEGER PRIMARY KEY AUTOINCREMENT  -- never reused after a revoke
 *   owner TEXT         -- the id of a user of the site
 *   name TEXT          -- what the token is for
 *   token TEXT UNIQUE  -- the SHA-256 of the secret, 64 lowercase hex digits
 *   abilities TEXT     -- a JSON list, ["*"] (abilities.h)
 *   last_used_at, expires_at, created_at INTEGER  -- Unix seconds (UTC);
 *                         NULL: never used / never expires
 *
 * A client sends "ID|SECRET"; the secret (40 letters and digits from
 * getrandom(2)) is shown once, at creation, and never stored.
 *
 * Two sides. The command line (token_db_*) opens the database read-write,
 * creating it with mode 0600 on first use, and creates, lists and revokes
 * (deletes, as Sanctum does) tokens. A worker (token_reader) only reads:
 * one read-only connection, opened at the first check and opened again
 * when the file is replaced or its mode or owner changes, so a request
 * costs a stat and one primary-key lookup. `last_used_at` is written at
 * most once a minute per token and worker (token_reader_used), after the
 * answer is sent (token_reader_flush), through a second connection that
 * never waits for a lock: a busy or read-only database only means the
 * time is not recorded.
 */
#ifndef CMS_API_TOKENS_H
#define CMS_API_TOKENS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/log.h"
#include "guard/abilities.h"

#define TOKEN_SECRET_LEN 40
#define TOKEN_ERR_LEN 512
/* How often a worker records that a token was used. */
#define TOKEN_USAGE_INTERVAL 60

/* --- the command line's side ------------------------------------------ */

struct token_db;

/* Opens the database at path read-write, creating the file (mode 0600,
 * whatever the umask) and the table when missing. Returns NULL with a
 * message in err. */
struct token_db *token_db_open(const char *path, char err[TOKEN_ERR_LEN]);
void token_db_close(struct token_db *db);

struct token_row {
	long long id;
	const char *owner, *name, *abilities; /* valid during the callback */
	long long created_at, last_used_at, expires_at; /* 0: never */
};

/* Stores a new token and writes its id and secret (NUL-terminated).
 * abilities_json as abilities_to_json writes it; expires_at 0 for never.
 * Returns 0, or -1 with a message in err. */
int token_db_create(struct token_db *db, const char *owner, const char *name,
                    const char *abilities_json, long long created_at, long long expires_at,
                    long long *id, char secret[TOKEN_SECRET_LEN + 1], char err[TOKEN_ERR_LEN]);

/* Calls each for every token, by id. Returns the number of tokens, or -1
 * with a message in err. */
long token_db_list(struct token_db *db, void (*each)(const struct token_row *row, void *ctx),
                   void *ctx, char err[TOKEN_ERR_LEN]);

/* Deletes the token. Returns 1, 0 when there is no such token, or -1
 * with a message in err. */
int token_db_revoke(struct token_db *db, long long id, char err[TOKEN_ERR_LEN]);

/* When a token made now should expire: a duration ("30d", "12h", "90m",
 * "3600s") from now, or a UTC date ("2030-01-31") or date and time
 * ("2030-01-31T12:00:00Z"). Returns 0, or -1 when spec is neither. */
int token_parse_expiry(const char *spec, long long now, long long *expires_at);

/* --- the worker's side ------------------------------------------------ */

enum token_verdict {
	TOKEN_VALID,       /* grant is filled */
	TOKEN_INVALID,     /* not a token of the database: 401 */
	TOKEN_UNAVAILABLE, /* the database cannot answer: 503 (logged once a minute) */
};

/* What a valid token grants. */
struct token_grant {
	long long id;               /* 0 when none */
	bool shared;                /* the guard's: the request carried [api] auth_token,
	                             * which grants what the config enables (id 0) */
	char *owner;                /* owned */
	struct abilities abilities; /* owned */
};

void token_grant_init(struct token_grant *g);
void token_grant_free(struct token_grant *g);

struct token_usage {
	long long id, written; /* when last_used_at was last written (or tried) */
};

struct token_reader {
	char *path;                /* owned; "" when none is configured */
	struct sqlite3 *db;        /* read-only, NULL until needed */
	struct sqlite3_stmt *find; /* the lookup by id, prepared on db */
	dev_t dev;                 /* the file db was opened on, */
	ino_t ino;
	mode_t mode;               /* with its mode and owner then */
	uid_t uid;
	gid_t gid;
	struct sqlite3 *writer;    /* for last_used_at, NULL until needed */
	struct token_usage *usage; /* owned: per token, in the order first used */
	size_t nusage;
	long long pending;         /* the token whose last_used_at the flush writes, or 0 */
	struct log_throttle unavailable_log; /* a 503 is said once a minute, not per request */
	struct log_throttle abilities_log;   /* so is a row whose abilities do not parse */
};

void token_reader_init(struct token_reader *r, const char *path);
void token_reader_free(struct token_reader *r);

/* Checks the bearer token token[0..len) ("ID|SECRET") at time now. A
 * wrong form, an unknown id, a wrong secret (compared in constant time
 * through its SHA-256) or an expiry at or before now is TOKEN_INVALID;
 * a database that is missing, unreadable, corrupt or locked is
 * TOKEN_UNAVAILABLE. On TOKEN_VALID the caller owns what grant holds.
 * A valid token whose stored abilities are not a JSON list of strings
 * grants none at all (the router's second gate then refuses it every
 * resource, a 404 as if disabled), and a warning naming its id is
 * logged, once a minute at most. */
enum token_verdict token_check(struct token_reader *r, const char *token, size_t len,
                               long long now, struct token_grant *grant);

/* Notes that the token id was used at now (by a request that passed):
 * its last_used_at is due for the next flush when it was not written in
 * the last TOKEN_USAGE_INTERVAL seconds by this reader. */
void token_reader_used(struct token_reader *r, long long id, long long now);

/* Writes the last_used_at that token_reader_used found due. Never
 * waits for a lock and never fails the request: call it after the
 * answer is sent. */
void token_reader_flush(struct token_reader *r, long long now);

#endif
