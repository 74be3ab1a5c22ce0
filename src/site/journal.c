/* journal: the sync feed's record of changes; see journal.h. */
#include "autoconfig.h"

#include "site/journal.h"

#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/publish.h"
#include "lib/strbuf.h"
#include "lib/url.h"

#define MAGIC "cms-api-sync 1"

static const char *const kind_names[JOURNAL_KINDS] = {"entry", "term", "global", "nav", "asset"};

const char *journal_kind_name(enum journal_kind k)
{
	return kind_names[k];
}

void journal_gen_add(struct journal_gen *g, enum journal_kind kind, bool deleted,
                     const char *handle, const char *id, const char *path)
{
	if (g->n == g->alloc) {
		g->alloc = g->alloc ? g->alloc * 2 : 8;
		g->items = xrealloc(g->items, g->alloc * sizeof *g->items);
	}
	g->items[g->n++] = (struct journal_item){kind, deleted, xstrdup(handle ? handle : ""),
	                                         xstrdup(id ? id : ""), xstrdup(path ? path : "")};
}

void journal_gen_free(struct journal_gen *g)
{
	for (size_t i = 0; i < g->n; i++) {
		free(g->items[i].handle);
		free(g->items[i].id);
		free(g->items[i].path);
	}
	free(g->items);
	memset(g, 0, sizeof *g);
}

void journal_free(struct journal *j)
{
	for (size_t i = 0; i < j->n; i++)
		journal_gen_free(&j->gens[i]);
	free(j->gens);
	memset(j, 0, sizeof *j);
}

void journal_token(uint64_t signature, char out[17])
{
	snprintf(out, 17, "%016" PRIx64, signature);
}

bool journal_token_parse(const char *s, uint64_t *signature)
{
	if (strlen(s) != 16 || strspn(s, "0123456789abcdef") != 16)
		return false;
	*signature = strtoull(s, NULL, 16);
	return true;
}

/* --- the file --- */

/* A field: '=' and the value percent-encoded, never empty, never a space. */
static void put_field(struct strbuf *out, const char *s)
{
	strbuf_addstr(out, " =");
	url_encode(s, out);
}

static void put_gen(struct strbuf *out, const struct journal_gen *g)
{
	strbuf_addf(out, "g %016" PRIx64 "\n", g->signature);
	if (g->reset)
		strbuf_addstr(out, "r\n");
	for (size_t i = 0; i < g->n; i++) {
		const struct journal_item *it = &g->items[i];
		strbuf_addf(out, "%c %s", it->deleted ? '-' : '+', kind_names[it->kind]);
		put_field(out, it->handle);
		put_field(out, it->id);
		put_field(out, it->path);
		strbuf_addch(out, '\n');
	}
}

static struct journal_gen *new_gen(struct journal *j, uint64_t signature)
{
	j->gens = xrealloc(j->gens, (j->n + 1) * sizeof *j->gens);
	struct journal_gen *g = &j->gens[j->n++];
	memset(g, 0, sizeof *g);
	g->signature = signature;
	return g;
}

/* The next space-separated field of line at *p ("=..." decoded), or NULL. */
static char *take_field(char **p)
{
	char *s = *p;
	if (*s != ' ' || s[1] != '=')
		return NULL;
	s += 2;
	size_t n = strcspn(s, " ");
	char *v = url_decode(s, n, false);
	*p = s + n;
	return v;
}

static int kind_named(const char *s, size_t n)
{
	for (int k = 0; k < JOURNAL_KINDS; k++)
		if (strlen(kind_names[k]) == n && memcmp(kind_names[k], s, n) == 0)
			return k;
	return -1;
}

/* One item line ("+ entry =h =id =path") into the last record. */
static bool parse_item(struct journal *j, char *line)
{
	if (j->n == 0 || (line[0] != '+' && line[0] != '-') || line[1] != ' ')
		return false;
	char *p = line + 2;
	size_t n = strcspn(p, " ");
	int kind = kind_named(p, n);
	p += n;
	char *handle = take_field(&p), *id = handle ? take_field(&p) : NULL;
	char *path = id ? take_field(&p) : NULL;
	bool ok = kind >= 0 && path && *p == '\0';
	if (ok)
		journal_gen_add(&j->gens[j->n - 1], (enum journal_kind)kind, line[0] == '-', handle,
		                id, path);
	free(handle);
	free(id);
	free(path);
	return ok;
}

static bool parse_line(struct journal *j, char *line)
{
	uint64_t sig;
	if (line[0] == 'g' && line[1] == ' ' && journal_token_parse(line + 2, &sig)) {
		new_gen(j, sig);
		return true;
	}
	if (strcmp(line, "r") == 0 && j->n > 0) {
		j->gens[j->n - 1].reset = true;
		return true;
	}
	return parse_item(j, line);
}

int journal_parse(const char *text, size_t len, struct journal *j)
{
	memset(j, 0, sizeof *j);
	const char *p = text, *end = text + len;
	bool ok = true, first = true;
	while (ok && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
		char *line = xstrndup(p, n);
		/* A NUL inside a line would cut it short: not a journal. */
		ok = strlen(line) == n && (first ? strcmp(line, MAGIC) == 0 : parse_line(j, line));
		free(line);
		first = false;
		p += n + (nl != NULL);
	}
	if (!ok)
		journal_free(j);
	return ok ? 0 : -1;
}

int journal_read(const char *path, struct journal *j)
{
	memset(j, 0, sizeof *j);
	struct strbuf text = STRBUF_INIT;
	int rc = strbuf_read_file(&text, path) == 0 ? journal_parse(strbuf_str(&text), text.len, j)
	         : errno == ENOENT                ? 0
	                                          : -1;
	strbuf_release(&text);
	return rc;
}

int journal_append(const char *path, const struct journal_gen *g, size_t keep)
{
	struct journal j;
	if (journal_read(path, &j) != 0)
		memset(&j, 0, sizeof j); /* not a journal: start a new one */
	struct strbuf out = STRBUF_INIT;
	strbuf_addstr(&out, MAGIC "\n");
	size_t kept = keep > 0 ? keep - 1 : 0;
	for (size_t i = j.n > kept ? j.n - kept : 0; i < j.n; i++)
		put_gen(&out, &j.gens[i]);
	put_gen(&out, g);
	int rc = publish_bytes(path, out.ptr, out.len, 0644, PUBLISH_REPLACE);
	strbuf_release(&out);
	journal_free(&j);
	return rc;
}

/* The latest record of signature, or j->n. */
static size_t find_gen(const struct journal *j, uint64_t signature)
{
	for (size_t i = j->n; i > 0; i--)
		if (j->gens[i - 1].signature == signature)
			return i - 1;
	return j->n;
}

enum journal_span journal_since(const struct journal *j, uint64_t since, uint64_t upto,
                                size_t *first, size_t *end)
{
	*first = *end = 0;
	if (since == upto)
		return JOURNAL_FOUND;
	size_t from = find_gen(j, since);
	if (from == j->n)
		return JOURNAL_UNKNOWN;
	size_t to = find_gen(j, upto);
	to = to == j->n || to < from ? j->n : to + 1;
	for (size_t i = from + 1; i < to; i++)
		if (j->gens[i].reset)
			return JOURNAL_RESET;
	*first = from + 1;
	*end = to;
	return JOURNAL_FOUND;
}

uint32_t journal_entry_at(const struct snapshot *s, const char *collection, const char *path)
{
	uint32_t c = snap_collection_find(s, collection);
	if (c == SNAP_NONE)
		return SNAP_NONE;
	struct snap_collection col = snap_collection_at(s, c);
	for (uint32_t i = 0; i < col.nentries; i++)
		if (strcmp(snap_entry_at(s, col.first_entry + i).path, path) == 0)
			return col.first_entry + i;
	return SNAP_NONE;
}
