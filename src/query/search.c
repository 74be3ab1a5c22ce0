/* query/search: the FTS5 index behind q=; see search.h. */
#include "autoconfig.h"

#include "query/search.h"

#include <ctype.h>
#include <inttypes.h>
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "lib/hash.h"
#include "lib/strbuf.h"

/* What the index knows of one list: the snapshot and fields it was last
 * brought current with. */
struct search_list {
	char *name;          /* owned */
	int64_t id;          /* its number in docs.list */
	uint64_t generation;
	char *fields;        /* owned: the fields, joined by ',' */
	bool current;        /* false: never synced, or a sync failed */
};

struct search_index {
	sqlite3 *db;
	struct search_list *lists; /* owned */
	size_t nlists;
	int64_t pass;              /* numbers each sync, for docs.seen */
};

/* docs: one row per item of a list, its rowid the one of its text in fts
 * (the item's head field, then the rest). */
static const char schema[] =
	"PRAGMA journal_mode = OFF;"
	"CREATE TABLE docs (rowid INTEGER PRIMARY KEY, list INTEGER NOT NULL, key TEXT NOT NULL,"
	" hash INTEGER NOT NULL, num INTEGER NOT NULL, seen INTEGER NOT NULL, UNIQUE (list, key));"
	"CREATE VIRTUAL TABLE fts USING fts5(head, body,"
	" tokenize = 'porter unicode61 remove_diacritics 2');";

static int say(char *err, size_t size, const char *what, sqlite3 *db)
{
	snprintf(err, size, "%s: %s", what, db ? sqlite3_errmsg(db) : "out of memory");
	return -1;
}

int search_index_open(struct search_index **out, char *err, size_t err_size)
{
	*out = NULL;
	sqlite3 *db = NULL;
	if (sqlite3_open_v2(":memory:", &db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, NULL) !=
	    SQLITE_OK) {
		say(err, err_size, "the search index cannot open", db);
		sqlite3_close(db);
		return -1;
	}
	if (sqlite3_exec(db, schema, NULL, NULL, NULL) != SQLITE_OK) {
		say(err, err_size, "the search index cannot be made (FTS5?)", db);
		sqlite3_close(db);
		return -1;
	}
	struct search_index *ix = xcalloc(1, sizeof *ix);
	ix->db = db;
	*out = ix;
	return 0;
}

void search_index_close(struct search_index *ix)
{
	if (!ix)
		return;
	for (size_t i = 0; i < ix->nlists; i++) {
		free(ix->lists[i].name);
		free(ix->lists[i].fields);
	}
	free(ix->lists);
	sqlite3_close(ix->db);
	free(ix);
}

static struct search_list *find_list(struct search_index *ix, const char *name, bool add)
{
	for (size_t i = 0; i < ix->nlists; i++)
		if (strcmp(ix->lists[i].name, name) == 0)
			return &ix->lists[i];
	if (!add)
		return NULL;
	ix->lists = xrealloc(ix->lists, (ix->nlists + 1) * sizeof *ix->lists);
	struct search_list *l = &ix->lists[ix->nlists];
	*l = (struct search_list){xstrdup(name), (int64_t)ix->nlists + 1, 0, NULL, false};
	ix->nlists++;
	return l;
}

/* --- an item's text --- */

/* v as words: strings and numbers, those inside lists and maps too. */
static void add_text(struct strbuf *out, value_t v, int depth)
{
	switch (value_type(v)) {
	case VALUE_STRING: {
		size_t len;
		const char *s = value_str(v, &len);
		strbuf_add(out, s, len);
		strbuf_addch(out, '\n');
		break;
	}
	case VALUE_INT:
		strbuf_addf(out, "%" PRId64 "\n", value_int(v));
		break;
	case VALUE_DOUBLE:
		strbuf_addf(out, "%g\n", value_double(v));
		break;
	case VALUE_ARRAY:
	case VALUE_MAP: {
		if (depth >= 8)
			break;
		struct value_iter it;
		value_iter_init(&it, v);
		while (value_iter_next(&it))
			add_text(out, it.value, depth + 1);
		break;
	}
	default:
		break;
	}
}

/* Reads item's head (the first field) and body (the others) and returns
 * a hash of both. */
static uint64_t read_item(const struct search_source *src, const struct strlist *fields,
                          uint32_t item, struct value_builder *scratch, struct strbuf *head,
                          struct strbuf *body)
{
	strbuf_reset(head);
	strbuf_reset(body);
	for (size_t f = 0; f < fields->len; f++)
		add_text(f == 0 ? head : body, src->value(src->self, item, fields->items[f], scratch), 0);
	uint64_t h = hash_fnv1a_bytes(head->ptr ? head->ptr : "", head->len);
	return h ^ (hash_fnv1a_bytes(body->ptr ? body->ptr : "", body->len) * 31);
}

/* The item's identity: its id and locale. */
static void read_key(const struct search_source *src, uint32_t item,
                     struct value_builder *scratch, struct strbuf *key)
{
	strbuf_reset(key);
	size_t len;
	const char *id = value_str(src->value(src->self, item, "id", scratch), &len);
	strbuf_add(key, id, len);
	strbuf_addch(key, '\n');
	const char *locale = value_str(src->value(src->self, item, "locale", scratch), &len);
	strbuf_add(key, locale, len);
}

/* --- bringing a list current --- */

enum { Q_FIND, Q_ADD_DOC, Q_ADD_TEXT, Q_SET_TEXT, Q_SEEN, Q_COUNT };

static const char *const sync_sql[Q_COUNT] = {
	"SELECT rowid, hash, seen FROM docs WHERE list = ?1 AND key = ?2",
	"INSERT INTO docs (list, key, hash, num, seen) VALUES (?1, ?2, ?3, ?4, ?5)",
	"INSERT INTO fts (rowid, head, body) VALUES (?1, ?2, ?3)",
	"UPDATE fts SET head = ?2, body = ?3 WHERE rowid = ?1",
	"UPDATE docs SET hash = ?2, num = ?3, seen = ?4 WHERE rowid = ?1",
};

struct sync_run {
	struct search_index *ix;
	struct search_list *list;
	sqlite3_stmt *q[Q_COUNT];
	struct strbuf key, head, body;
	struct value_builder scratch;
	struct search_stats *stats;
};

static int step_done(sqlite3_stmt *st)
{
	int rc = sqlite3_step(st);
	sqlite3_reset(st);
	return rc == SQLITE_DONE ? 0 : -1;
}

static void bind_text(sqlite3_stmt *st, int at, const struct strbuf *b)
{
	sqlite3_bind_text(st, at, b->ptr ? b->ptr : "", (int)b->len, SQLITE_STATIC);
}

/* Writes the text of a new or changed item at rowid. */
static int write_text(struct sync_run *run, int which, int64_t rowid)
{
	sqlite3_stmt *st = run->q[which];
	sqlite3_bind_int64(st, 1, rowid);
	bind_text(st, 2, &run->head);
	bind_text(st, 3, &run->body);
	run->stats->written++;
	return step_done(st);
}

/* Looks the item's key up: SQLITE_ROW with its rowid and hash, or
 * SQLITE_DONE. A key this pass has seen already (two items of one id and
 * locale, which a site may hold by mistake) is made the item's own. */
static int find_row(struct sync_run *run, uint32_t item, int64_t *rowid, uint64_t *hash)
{
	sqlite3_stmt *find = run->q[Q_FIND];
	for (int tries = 0; tries < 2; tries++) {
		sqlite3_bind_int64(find, 1, run->list->id);
		bind_text(find, 2, &run->key);
		int rc = sqlite3_step(find);
		bool taken = rc == SQLITE_ROW && sqlite3_column_int64(find, 2) == run->ix->pass;
		if (rc == SQLITE_ROW) {
			*rowid = sqlite3_column_int64(find, 0);
			*hash = (uint64_t)sqlite3_column_int64(find, 1);
		}
		sqlite3_reset(find);
		if (!taken || tries > 0)
			return rc;
		strbuf_addf(&run->key, "\n#%u", (unsigned)item);
	}
	return SQLITE_ERROR;
}

/* One item: its row found, added or brought current, marked seen. */
static int sync_item(struct sync_run *run, const struct search_source *src,
                     const struct strlist *fields, uint32_t item)
{
	read_key(src, item, &run->scratch, &run->key);
	uint64_t h = read_item(src, fields, item, &run->scratch, &run->head, &run->body);
	int64_t rowid = 0;
	uint64_t had = 0;
	int rc = find_row(run, item, &rowid, &had);
	bool same = rc == SQLITE_ROW && had == h;
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return -1;
	if (rc == SQLITE_DONE) {
		sqlite3_stmt *add = run->q[Q_ADD_DOC];
		sqlite3_bind_int64(add, 1, run->list->id);
		bind_text(add, 2, &run->key);
		sqlite3_bind_int64(add, 3, (int64_t)h);
		sqlite3_bind_int64(add, 4, item);
		sqlite3_bind_int64(add, 5, run->ix->pass);
		if (step_done(add) != 0)
			return -1;
		return write_text(run, Q_ADD_TEXT, sqlite3_last_insert_rowid(run->ix->db));
	}
	if (!same && write_text(run, Q_SET_TEXT, rowid) != 0)
		return -1;
	sqlite3_stmt *seen = run->q[Q_SEEN];
	sqlite3_bind_int64(seen, 1, rowid);
	sqlite3_bind_int64(seen, 2, (int64_t)h);
	sqlite3_bind_int64(seen, 3, item);
	sqlite3_bind_int64(seen, 4, run->ix->pass);
	return step_done(seen);
}

/* Removes the list's items this pass did not see; counts the rest. */
static int remove_unseen(struct sync_run *run)
{
	sqlite3 *db = run->ix->db;
	char sql[256];
	snprintf(sql, sizeof sql,
	         "DELETE FROM fts WHERE rowid IN (SELECT rowid FROM docs WHERE list = %" PRId64
	         " AND seen <> %" PRId64 ")", run->list->id, run->ix->pass);
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return -1;
	snprintf(sql, sizeof sql, "DELETE FROM docs WHERE list = %" PRId64 " AND seen <> %" PRId64,
	         run->list->id, run->ix->pass);
	if (sqlite3_exec(db, sql, NULL, NULL, NULL) != SQLITE_OK)
		return -1;
	run->stats->removed = (size_t)sqlite3_changes(db);
	return 0;
}

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static char *joined(const struct strlist *fields)
{
	struct strbuf b = STRBUF_INIT;
	for (size_t i = 0; i < fields->len; i++)
		strbuf_addf(&b, "%s%s", i ? "," : "", fields->items[i]);
	strbuf_addstr(&b, "");
	return strbuf_detach(&b, NULL);
}

/* The sync proper, in one transaction. */
static int run_sync(struct sync_run *run, const struct strlist *fields,
                    const struct search_source *src)
{
	sqlite3 *db = run->ix->db;
	for (int i = 0; i < Q_COUNT; i++)
		if (sqlite3_prepare_v2(db, sync_sql[i], -1, &run->q[i], NULL) != SQLITE_OK)
			return -1;
	if (sqlite3_exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
		return -1;
	run->ix->pass++;
	for (size_t i = 0; i < src->n; i++)
		if (sync_item(run, src, fields, (uint32_t)i) != 0)
			return -1;
	if (remove_unseen(run) != 0)
		return -1;
	return sqlite3_exec(db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK ? 0 : -1;
}

int search_sync(struct search_index *ix, const char *list, uint64_t generation,
                const struct strlist *fields, const struct search_source *src,
                struct search_stats *stats, char *err, size_t err_size)
{
	struct search_stats ignored;
	stats = stats ? stats : &ignored;
	memset(stats, 0, sizeof *stats);
	struct search_list *l = find_list(ix, list, true);
	char *names = joined(fields);
	if (l->current && l->generation == generation && strcmp(l->fields, names) == 0) {
		free(names);
		stats->docs = src->n;
		return 0;
	}
	double t0 = now_seconds();
	struct sync_run run = {ix, l, {NULL}, STRBUF_INIT, STRBUF_INIT, STRBUF_INIT,
	                       VALUE_BUILDER_INIT, stats};
	int rc = run_sync(&run, fields, src);
	if (rc != 0) {
		say(err, err_size, "the search index cannot be brought current", ix->db);
		sqlite3_exec(ix->db, "ROLLBACK", NULL, NULL, NULL);
	}
	for (int i = 0; i < Q_COUNT; i++)
		sqlite3_finalize(run.q[i]);
	strbuf_release(&run.key);
	strbuf_release(&run.head);
	strbuf_release(&run.body);
	vb_release(&run.scratch);
	free(l->fields);
	l->fields = names;
	l->generation = generation;
	l->current = rc == 0;
	stats->synced = true;
	stats->docs = src->n;
	stats->seconds = now_seconds() - t0;
	return rc;
}

/* --- finding --- */

bool search_has_words(const char *words)
{
	for (const char *p = words; *p; p++)
		if (!isspace((unsigned char)*p))
			return true;
	return false;
}

/* words as an FTS5 query: each word a quoted string (so that no word is
 * read as an operator), all of them required. */
static void match_expression(const char *words, struct strbuf *out)
{
	size_t count = 0;
	const char *p = words;
	while (*p && count < SEARCH_MAX_WORDS) {
		while (isspace((unsigned char)*p))
			p++;
		if (!*p)
			break;
		strbuf_addstr(out, count++ ? " \"" : "\"");
		for (; *p && !isspace((unsigned char)*p); p++) {
			if (*p == '"')
				strbuf_addch(out, '"');
			strbuf_addch(out, *p);
		}
		strbuf_addch(out, '"');
	}
}

int search_find(struct search_index *ix, const char *list, const char *words, uint32_t **out,
                size_t *n, char *err, size_t err_size)
{
	*out = NULL;
	*n = 0;
	struct search_list *l = find_list(ix, list, false);
	if (!l)
		return 0;
	struct strbuf match = STRBUF_INIT;
	match_expression(words, &match);
	sqlite3_stmt *st;
	if (sqlite3_prepare_v2(ix->db,
	                       "SELECT docs.num FROM fts JOIN docs ON docs.rowid = fts.rowid"
	                       " WHERE fts MATCH ?1 AND docs.list = ?2"
	                       " ORDER BY bm25(fts, 4.0, 1.0), docs.num",
	                       -1, &st, NULL) != SQLITE_OK) {
		strbuf_release(&match);
		return say(err, err_size, "the search index cannot be read", ix->db);
	}
	bind_text(st, 1, &match);
	sqlite3_bind_int64(st, 2, l->id);
	size_t cap = 0;
	int rc;
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		if (*n == cap) {
			cap = cap ? cap * 2 : 64;
			*out = xrealloc(*out, cap * sizeof **out);
		}
		(*out)[(*n)++] = (uint32_t)sqlite3_column_int64(st, 0);
	}
	int status = 0;
	if (rc != SQLITE_DONE) {
		status = say(err, err_size, "the search index cannot be read", ix->db);
		free(*out);
		*out = NULL;
		*n = 0;
	}
	sqlite3_finalize(st);
	strbuf_release(&match);
	return status;
}

size_t search_index_bytes(struct search_index *ix)
{
	sqlite3_stmt *st;
	size_t bytes = 0;
	if (sqlite3_prepare_v2(ix->db,
	                       "SELECT page_count * page_size FROM pragma_page_count, pragma_page_size",
	                       -1, &st, NULL) == SQLITE_OK) {
		if (sqlite3_step(st) == SQLITE_ROW)
			bytes = (size_t)sqlite3_column_int64(st, 0);
		sqlite3_finalize(st);
	}
	return bytes;
}
