/*
 * A property test of the entries list: hundreds of random queries
 * (filters, sort, limit, page) over a random site, each compared with a
 * simple reference implementation written here: the same ids, in the same
 * order, and the same total. Seeded, so a failure repeats.
 */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <ctype.h>
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "app/app.h"
#include "unit.h"

#define NENTRIES 60
#define NQUERIES 400
#define COUNT(a) (sizeof(a) / sizeof(a)[0])

struct model {
	char id[16];
	char title[16];
	int rating;   /* -1: missing */
	int featured; /* -1 missing, 0, 1 */
	bool published;
};

static struct model items[NENTRIES];
static unsigned long long rng = 0x9e3779b97f4a7c15ULL;

static unsigned next_random(unsigned bound)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % bound);
}

static const char *const words[] = {"apple", "Banana", "cherry", "date", "elder", "fig"};

static void make_site(const char *dir)
{
	unit_write_file(dir, "content/collections/items.yaml", "title: Items\n");
	for (int i = 0; i < NENTRIES; i++) {
		struct model *m = &items[i];
		snprintf(m->id, sizeof m->id, "e%02d", i);
		snprintf(m->title, sizeof m->title, "%s", words[next_random(6)]);
		m->rating = next_random(4) == 0 ? -1 : (int)next_random(5) + 1;
		m->featured = (int)next_random(3) - 1;
		m->published = next_random(8) != 0;
		struct strbuf text = STRBUF_INIT, name = STRBUF_INIT;
		strbuf_addf(&text, "---\nid: %s\ntitle: %s\n", m->id, m->title);
		if (m->rating >= 0)
			strbuf_addf(&text, "rating: %d\n", m->rating);
		if (m->featured >= 0)
			strbuf_addf(&text, "featured: %s\n", m->featured ? "true" : "false");
		if (!m->published)
			strbuf_addstr(&text, "published: false\n");
		strbuf_addstr(&text, "---\n");
		strbuf_addf(&name, "content/collections/items/%s.md", m->id);
		unit_write_file(dir, name.ptr, text.ptr);
		strbuf_release(&text);
		strbuf_release(&name);
	}
}

/* --- the query and its reference answer --- */

enum cond { TITLE_CONTAINS, RATING_GT, RATING_LTE, RATING_IN, FEATURED_IS };

struct query {
	enum cond conds[2];
	int nconds;
	char letter;
	int k, k2;
	bool flag;
	int sort;      /* 0 none, 1 rating, 2 -rating, 3 title, 4 -title,rating */
	int limit, page;
};

static bool passes(const struct model *m, const struct query *q)
{
	if (!m->published)
		return false;
	for (int i = 0; i < q->nconds; i++) {
		switch (q->conds[i]) {
		case TITLE_CONTAINS: {
			char needle[2] = {q->letter, 0};
			if (!strcasestr(m->title, needle))
				return false;
			break;
		}
		case RATING_GT:
			if (m->rating < 0 || !(m->rating > q->k))
				return false;
			break;
		case RATING_LTE:
			if (m->rating < 0 || !(m->rating <= q->k))
				return false;
			break;
		case RATING_IN:
			if (m->rating != q->k && m->rating != q->k2)
				return false;
			break;
		case FEATURED_IS:
			if ((m->featured == 1) != q->flag)
				return false;
			break;
		}
	}
	return true;
}

/* Ascending with nulls (missing) last. */
static int by_rating(const struct model *a, const struct model *b)
{
	if (a->rating < 0 || b->rating < 0)
		return (a->rating < 0) - (b->rating < 0);
	return a->rating - b->rating;
}

static int by_title(const struct model *a, const struct model *b)
{
	return strcasecmp(a->title, b->title);
}

static int compare(const struct model *a, const struct model *b, int sort)
{
	switch (sort) {
	case 1: return by_rating(a, b);
	case 2: return -by_rating(a, b);
	case 3: return by_title(a, b);
	case 4: {
		int c = -by_title(a, b);
		return c ? c : by_rating(a, b);
	}
	default: return 0;
	}
}

/* Reference ids of the page into out; returns the total. */
static int reference(const struct query *q, struct strbuf *out)
{
	const struct model *list[NENTRIES];
	int n = 0;
	for (int i = 0; i < NENTRIES; i++)
		if (passes(&items[i], q))
			list[n++] = &items[i];
	/* insertion sort: stable */
	for (int i = 1; i < n; i++)
		for (int j = i; j > 0 && compare(list[j], list[j - 1], q->sort) < 0; j--) {
			const struct model *t = list[j];
			list[j] = list[j - 1];
			list[j - 1] = t;
		}
	strbuf_reset(out);
	for (int i = (q->page - 1) * q->limit; i < n && i < q->page * q->limit; i++)
		strbuf_addf(out, "%s%s", out->len ? "," : "", list[i]->id);
	return n;
}

static void random_query(struct query *q)
{
	memset(q, 0, sizeof *q);
	q->nconds = (int)next_random(3);
	for (int i = 0; i < q->nconds; i++)
		q->conds[i] = (enum cond)next_random(5);
	q->letter = "aeirnx"[next_random(6)];
	q->k = (int)next_random(6);
	q->k2 = (int)next_random(6);
	q->flag = next_random(2);
	q->sort = (int)next_random(5);
	q->limit = (int)next_random(10) + 1;
	q->page = (int)next_random(4) + 1;
}

static void query_uri(const struct query *q, struct strbuf *uri)
{
	static const char *const sorts[] = {"", "rating", "-rating", "title", "-title,rating"};
	strbuf_reset(uri);
	strbuf_addf(uri, "/api/collections/items/entries?fields=id&limit=%d&page=%d", q->limit, q->page);
	if (q->sort)
		strbuf_addf(uri, "&sort=%s", sorts[q->sort]);
	for (int i = 0; i < q->nconds; i++) {
		switch (q->conds[i]) {
		case TITLE_CONTAINS: strbuf_addf(uri, "&filter[title:contains]=%c", q->letter); break;
		case RATING_GT: strbuf_addf(uri, "&filter[rating:gt]=%d", q->k); break;
		case RATING_LTE: strbuf_addf(uri, "&filter[rating:lte]=%d", q->k); break;
		case RATING_IN: strbuf_addf(uri, "&filter[rating:in]=%d%%7C%d", q->k, q->k2); break;
		case FEATURED_IS:
			strbuf_addf(uri, "&filter[featured:is]=%s", q->flag ? "true" : "false");
			break;
		}
	}
}

/* The ids and total of the API's answer. */
static int answer(struct app *app, const char *uri, struct strbuf *out)
{
	struct request req;
	struct response res;
	request_from_uri(&req, "GET", uri);
	response_init(&res);
	unit_handle(app, &req, &res);
	int total = -1;
	strbuf_reset(out);
	json_object *doc = res.status == 200 ? json_tokener_parse(strbuf_str(&res.body)) : NULL;
	json_object *data, *meta, *t;
	if (doc && json_object_object_get_ex(doc, "data", &data) &&
	    json_object_object_get_ex(doc, "meta", &meta) && json_object_object_get_ex(meta, "total", &t)) {
		total = json_object_get_int(t);
		for (size_t i = 0; i < json_object_array_length(data); i++) {
			json_object *id;
			json_object_object_get_ex(json_object_array_get_idx(data, i), "id", &id);
			strbuf_addf(out, "%s%s", out->len ? "," : "", json_object_get_string(id));
		}
	}
	json_object_put(doc);
	response_free(&res);
	request_free(&req);
	return total;
}

/* An app on the site in dir with every collection enabled, filterable on
 * filters. */
static void open_site_app(struct app *app, const char *dir, const char *filters)
{
	struct config cfg;
	config_init_defaults(&cfg);
	free(cfg.content_root);
	cfg.content_root = strdup(dir);
	cfg.enabled = true;
	cfg.resources[RES_COLLECTIONS].type_set = cfg.resources[RES_COLLECTIONS].type_value = true;
	cfg.resources[RES_COLLECTIONS].wildcard = calloc(1, sizeof(struct handle_rule));
	struct handle_rule *w = cfg.resources[RES_COLLECTIONS].wildcard;
	w->handle = strdup("*");
	w->enabled = true;
	w->filters_set = true;
	strlist_split(&w->filters, filters);
	app_open_with_config(app, &cfg, APP_PRIVATE);
}

/* Whether the API's answer to uri has the reference's total and ids; the
 * first five differences are printed. */
static bool same_answer(struct app *app, const char *uri, int total, const struct strbuf *want,
                        struct strbuf *got, int failures_so_far)
{
	int got_total = answer(app, uri, got);
	if (got_total == total && strcmp(strbuf_str(want), strbuf_str(got)) == 0)
		return true;
	if (failures_so_far < 5)
		fprintf(stderr, "\n%s\n want %d [%s]\n got  %d [%s]\n", uri, total, strbuf_str(want),
		        got_total, strbuf_str(got));
	return false;
}

/* One query of a run: its URI, and the reference's ids (in want) and
 * total (returned). */
typedef int (*query_fn)(struct strbuf *uri, struct strbuf *want);

/* n queries from next against the site make writes, filterable on
 * filters; the first five differences are printed. */
static void run_queries(void (*make)(const char *dir), const char *filters, int n, query_fn next)
{
	char *dir = unit_tempdir();
	make(dir);
	struct app app;
	open_site_app(&app, dir, filters);
	struct strbuf uri = STRBUF_INIT, want = STRBUF_INIT, got = STRBUF_INIT;
	int failures = 0;
	for (int i = 0; i < n; i++) {
		int total = next(&uri, &want);
		failures += !same_answer(&app, uri.ptr, total, &want, &got, failures);
	}
	if (failures)
		fprintf(stderr, "\n%d of %d queries differ\n", failures, n);
	CU_ASSERT_EQUAL(failures, 0);
	strbuf_release(&uri);
	strbuf_release(&want);
	strbuf_release(&got);
	app_close(&app);
	unit_rmtree(dir);
	free(dir);
}

static int next_query(struct strbuf *uri, struct strbuf *want)
{
	struct query q;
	random_query(&q);
	query_uri(&q, uri);
	return reference(&q, want);
}

static void test_random_queries(void)
{
	run_queries(make_site, "title, rating, featured", NQUERIES, next_query);
}

/* --- sorting a dated collection by date --- */

struct post {
	char id[8], file[32], title[16];
	int day;        /* the day of January 2024 (2099 when far) in the file name; 0: none */
	bool far;       /* dated in 2099, after any moment the tests run at */
	long long date; /* the day's midnight UTC, else the post's updated_at */
	bool published;
};

static struct post posts[NENTRIES];

static int by_file(const void *a, const void *b)
{
	return strcmp(((const struct post *)a)->file, ((const struct post *)b)->file);
}

#define JAN_1_2024 1704067200LL /* 2024-01-01 00:00:00 UTC */
#define DAY_SECONDS 86400LL

/* The updated_at of a post without a date in its file name (which
 * otherwise takes the file's modification time, the write time): the
 * midnight of one of the dated posts' days, to tie with them, or a moment
 * in 2025. */
static const long long updated_ats[] = {
	JAN_1_2024,
	JAN_1_2024 + 1 * DAY_SECONDS,
	JAN_1_2024 + 2 * DAY_SECONDS,
	JAN_1_2024 + 3 * DAY_SECONDS,
	1740787200LL, /* 2025-03-01 00:00:00 UTC */
	1752575400LL, /* 2025-07-15 10:30:00 UTC */
};

#define JAN_1_2099 4070908800LL /* 2099-01-01 00:00:00 UTC */

/* What the posts collection keeps private (date_behavior). */
static bool future_private, past_private;

/* Posts on a few days (many ties); when undated, some without a date in
 * the file name but with an updated_at; when private (future or past
 * entries kept private), some in 2099. Kept in path order as the
 * collection lists them. */
static void make_dated_site(const char *dir, bool undated, const char *private)
{
	future_private = private && strcmp(private, "future") == 0;
	past_private = private && strcmp(private, "past") == 0;
	struct strbuf collection = STRBUF_INIT;
	strbuf_addstr(&collection, "title: Posts\ndate: true\n");
	if (private)
		strbuf_addf(&collection, "date_behavior:\n  %s: private\n", private);
	unit_write_file(dir, "content/collections/posts.yaml", collection.ptr);
	strbuf_release(&collection);
	for (int i = 0; i < NENTRIES; i++) {
		struct post *p = &posts[i];
		unsigned number = (unsigned)i % 100u; /* bounded, for the compiler's sake */
		snprintf(p->id, sizeof p->id, "p%02u", number);
		snprintf(p->title, sizeof p->title, "%s", words[next_random(6)]);
		p->day = undated && next_random(5) == 0 ? 0 : (int)next_random(4) + 1;
		p->published = next_random(8) != 0;
		p->far = private && p->day && next_random(3) == 0;
		if (p->far) {
			snprintf(p->file, sizeof p->file, "2099-01-0%u.p%02u.md", (unsigned)p->day % 10u,
			         number);
			p->date = JAN_1_2099 + (p->day - 1) * DAY_SECONDS;
		} else if (p->day) {
			snprintf(p->file, sizeof p->file, "2024-01-0%u.p%02u.md", (unsigned)p->day % 10u,
			         number);
			p->date = JAN_1_2024 + (p->day - 1) * DAY_SECONDS;
		} else {
			snprintf(p->file, sizeof p->file, "p%02u.md", number);
			p->date = updated_ats[next_random(COUNT(updated_ats))];
		}
		struct strbuf text = STRBUF_INIT, name = STRBUF_INIT;
		strbuf_addf(&text, "---\nid: %s\ntitle: %s\n", p->id, p->title);
		if (!p->day)
			strbuf_addf(&text, "updated_at: %lld\n", p->date);
		strbuf_addf(&text, "%s---\n", p->published ? "" : "published: false\n");
		strbuf_addf(&name, "content/collections/posts/%s", p->file);
		unit_write_file(dir, name.ptr, text.ptr);
		strbuf_release(&text);
		strbuf_release(&name);
	}
	qsort(posts, NENTRIES, sizeof posts[0], by_file);
}

/* By date (the file name's day, else updated_at); ties keep path order. */
static int by_date(const struct post *a, const struct post *b, bool descending)
{
	int c = (a->date > b->date) - (a->date < b->date);
	return descending ? -c : c;
}

static int reference_by_date(bool descending, char letter, int limit, int page, struct strbuf *out)
{
	const struct post *list[NENTRIES];
	int n = 0;
	for (int i = 0; i < NENTRIES; i++) {
		char needle[2] = {letter, 0};
		/* Scheduled and expired posts are not listed. */
		bool private = posts[i].far ? future_private : past_private;
		if (posts[i].published && !(private && posts[i].day) &&
		    (!letter || strcasestr(posts[i].title, needle)))
			list[n++] = &posts[i];
	}
	for (int i = 1; i < n; i++) /* insertion sort: stable */
		for (int j = i; j > 0 && by_date(list[j], list[j - 1], descending) < 0; j--) {
			const struct post *t = list[j];
			list[j] = list[j - 1];
			list[j - 1] = t;
		}
	strbuf_reset(out);
	for (int i = (page - 1) * limit; i < n && i < page * limit; i++)
		strbuf_addf(out, "%s%s", out->len ? "," : "", list[i]->id);
	return n;
}

/* sort=date and sort=-date, which walk the snapshot's date order when
 * every candidate has a date and sort otherwise, against the reference. */
static int next_date_query(struct strbuf *uri, struct strbuf *want)
{
	bool descending = next_random(2);
	char letter = next_random(3) == 0 ? "aeirnx"[next_random(6)] : 0;
	int limit = (int)next_random(10) + 1, page = (int)next_random(4) + 1;
	strbuf_reset(uri);
	strbuf_addf(uri, "/api/collections/posts/entries?fields=id&limit=%d&page=%d&sort=%s", limit,
	            page, descending ? "-date" : "date");
	if (letter)
		strbuf_addf(uri, "&filter[title:contains]=%c", letter);
	return reference_by_date(descending, letter, limit, page, want);
}

static void make_dated_site_every_entry_dated(const char *dir)
{
	make_dated_site(dir, false, NULL);
}

static void make_dated_site_some_undated(const char *dir)
{
	make_dated_site(dir, true, NULL);
}

static void make_dated_site_future_private(const char *dir)
{
	make_dated_site(dir, false, "future");
}

static void make_dated_site_past_private(const char *dir)
{
	make_dated_site(dir, false, "past");
}

static void make_dated_site_future_private_some_undated(const char *dir)
{
	make_dated_site(dir, true, "future");
}

static void test_date_sorts_every_entry_dated(void)
{
	run_queries(make_dated_site_every_entry_dated, "title", NQUERIES / 2, next_date_query);
}

static void test_date_sorts_some_undated(void)
{
	run_queries(make_dated_site_some_undated, "title", NQUERIES / 2, next_date_query);
}

/* Scheduled (future private) or expired (past private) posts are left
 * out: the published ones are one run of the date order. */
static void test_date_sorts_with_private_dates(void)
{
	run_queries(make_dated_site_future_private, "title", NQUERIES / 2, next_date_query);
	run_queries(make_dated_site_past_private, "title", NQUERIES / 2, next_date_query);
	run_queries(make_dated_site_future_private_some_undated, "title", NQUERIES / 2,
	            next_date_query);
	future_private = past_private = false;
}

/* --- booleans, nulls, lists and mixed types --- */

/*
 * A second model: fields whose values are of any type, with a reference
 * that follows Statamic's rules for them (its query builder's filter tests
 * and its Comparator), value by value. The collection has no blueprint
 * and no taxonomies, so the values are served as stored.
 */

enum kind { K_MISSING, K_NULL, K_FALSE, K_TRUE, K_INT, K_FLOAT, K_STRING, K_LIST };

struct val {
	enum kind kind;
	long long i;        /* K_INT */
	double f;           /* K_FLOAT */
	const char *s;      /* K_STRING, and K_FLOAT as written; static text */
	int n;              /* K_LIST: n words in list */
	const char *list[3];
};

enum field { F_TITLE, F_FLAG, F_MIX, F_TAGS, NFIELDS };
static const char *const field_names[NFIELDS] = {"title", "flag", "mix", "tags"};

struct mixed_entry {
	char id[8];
	bool published;
	struct val v[NFIELDS];
};

static struct mixed_entry mixed[NENTRIES];

static const char *const mix_words[] = {"Apple", "apple", "banana", "Cherry"};
static const char *const numeric_texts[] = {"7", "0", "10", "2.5"};
static const long long mix_ints[] = {0, 1, 3, 10};
static const char *const float_texts[] = {"0.5", "2.5", "3.0", "7.25"}; /* as written */
static const char *const tag_words[] = {"red", "blue", "Green", "yellow"};

static struct val random_flag(void)
{
	static const enum kind kinds[] = {K_TRUE, K_FALSE, K_NULL, K_MISSING};
	return (struct val){.kind = kinds[next_random(4)]};
}

static struct val random_mix(void)
{
	struct val v = {.kind = K_MISSING};
	switch (next_random(9)) {
	case 0: v.kind = K_INT; v.i = mix_ints[next_random(COUNT(mix_ints))]; break;
	case 1: v.kind = K_STRING; v.s = numeric_texts[next_random(COUNT(numeric_texts))]; break;
	case 2:
		v.kind = K_FLOAT;
		v.s = float_texts[next_random(COUNT(float_texts))];
		v.f = strtod(v.s, NULL);
		break;
	case 3: v.kind = K_STRING; v.s = mix_words[next_random(COUNT(mix_words))]; break;
	case 4: v.kind = K_STRING; v.s = ""; break;
	case 5: v.kind = K_TRUE; break;
	case 6: v.kind = K_FALSE; break;
	case 7: v.kind = K_NULL; break;
	default: break;
	}
	return v;
}

static struct val random_tags(void)
{
	struct val v = {.kind = K_MISSING};
	switch (next_random(4)) {
	case 0:
	case 1:
		v.kind = K_LIST;
		v.n = (int)next_random(3) + 1;
		for (int i = 0; i < v.n; i++)
			v.list[i] = tag_words[next_random(COUNT(tag_words))];
		break;
	case 2: v.kind = K_LIST; break; /* [] */
	default: break;
	}
	return v;
}

/* "key: value\n" in YAML (nothing for a missing value), null and lists in
 * either of their spellings. */
static void write_yaml_field(struct strbuf *text, const char *key, const struct val *v)
{
	if (v->kind == K_MISSING)
		return;
	strbuf_addf(text, "%s:", key);
	switch (v->kind) {
	case K_NULL: strbuf_addstr(text, next_random(2) ? " ~" : " null"); break;
	case K_FALSE: strbuf_addstr(text, " false"); break;
	case K_TRUE: strbuf_addstr(text, " true"); break;
	case K_INT: strbuf_addf(text, " %lld", v->i); break;
	case K_FLOAT: strbuf_addf(text, " %s", v->s); break;
	case K_STRING:
		/* Words plain or quoted; numbers and '' must be quoted. */
		if (isalpha((unsigned char)v->s[0]) && next_random(2))
			strbuf_addf(text, " %s", v->s);
		else
			strbuf_addf(text, " '%s'", v->s);
		break;
	case K_LIST:
		if (v->n > 0 && next_random(2)) {
			for (int i = 0; i < v->n; i++)
				strbuf_addf(text, "\n  - %s", v->list[i]);
		} else {
			strbuf_addstr(text, " [");
			for (int i = 0; i < v->n; i++)
				strbuf_addf(text, "%s%s", i ? ", " : "", v->list[i]);
			strbuf_addch(text, ']');
		}
		break;
	case K_MISSING: break;
	}
	strbuf_addch(text, '\n');
}

static void make_mixed_site(const char *dir)
{
	unit_write_file(dir, "content/collections/mixed.yaml", "title: Mixed\n");
	for (int i = 0; i < NENTRIES; i++) {
		struct mixed_entry *m = &mixed[i];
		unsigned number = (unsigned)i % 100u; /* bounded, for the compiler's sake */
		snprintf(m->id, sizeof m->id, "m%02u", number);
		m->v[F_TITLE] = (struct val){.kind = K_STRING, .s = words[next_random(6)]};
		m->v[F_FLAG] = random_flag();
		m->v[F_MIX] = random_mix();
		m->v[F_TAGS] = random_tags();
		m->published = next_random(8) != 0;
		struct strbuf text = STRBUF_INIT, name = STRBUF_INIT;
		strbuf_addf(&text, "---\nid: %s\n", m->id);
		for (int f = 0; f < NFIELDS; f++)
			write_yaml_field(&text, field_names[f], &m->v[f]);
		if (!m->published)
			strbuf_addstr(&text, "published: false\n");
		strbuf_addstr(&text, "---\n");
		strbuf_addf(&name, "content/collections/mixed/%s.md", m->id);
		unit_write_file(dir, name.ptr, text.ptr);
		strbuf_release(&text);
		strbuf_release(&name);
	}
}

/* --- PHP's view of a value --- */

static bool is_null(const struct val *v)
{
	return v->kind == K_MISSING || v->kind == K_NULL;
}

static bool is_bool(const struct val *v)
{
	return v->kind == K_TRUE || v->kind == K_FALSE;
}

/* The texts generated here are plain: digits with at most one '.'. */
static bool numeric_text(const char *s)
{
	bool digits = false, dot = false;
	for (; *s; s++) {
		if (isdigit((unsigned char)*s))
			digits = true;
		else if (*s == '.' && !dot)
			dot = true;
		else
			return false;
	}
	return digits;
}

/* PHP's is_numeric: a number, or a numeric string ("" is not). */
static bool is_numeric(const struct val *v)
{
	return v->kind == K_INT || v->kind == K_FLOAT || (v->kind == K_STRING && numeric_text(v->s));
}

static double number_of(const struct val *v)
{
	return v->kind == K_INT ? (double)v->i : v->kind == K_FLOAT ? v->f : strtod(v->s, NULL);
}

/* PHP's truthiness: false, 0, 0.0, "", "0", null and [] are falsy. */
static bool truthy(const struct val *v)
{
	switch (v->kind) {
	case K_TRUE: return true;
	case K_INT: return v->i != 0;
	case K_FLOAT: return v->f != 0;
	case K_STRING: return v->s[0] && strcmp(v->s, "0") != 0;
	case K_LIST: return v->n > 0;
	default: return false;
	}
}

/* PHP's (string): true "1", false and null "", a float in its shortest
 * form (3.0 is "3"); a list as json_encode writes it. */
static void php_string(const struct val *v, struct strbuf *out)
{
	strbuf_reset(out);
	switch (v->kind) {
	case K_TRUE: strbuf_addch(out, '1'); break;
	case K_INT: strbuf_addf(out, "%lld", v->i); break;
	case K_FLOAT:
		for (int precision = 1; precision <= 17; precision++) {
			strbuf_reset(out);
			strbuf_addf(out, "%.*g", precision, v->f);
			if (strtod(out->ptr, NULL) == v->f)
				break;
		}
		break;
	case K_STRING: strbuf_addstr(out, v->s); break;
	case K_LIST:
		strbuf_addch(out, '[');
		for (int i = 0; i < v->n; i++)
			strbuf_addf(out, "%s\"%s\"", i ? "," : "", v->list[i]);
		strbuf_addch(out, ']');
		break;
	default: break;
	}
}

/* Whether the PHP strings of a and b are the same, ignoring ASCII case
 * when nocase. */
static bool same_text(const struct val *a, const struct val *b, bool nocase)
{
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	php_string(a, &x);
	php_string(b, &y);
	bool same = nocase ? strcasecmp(strbuf_str(&x), strbuf_str(&y)) == 0
	                   : strcmp(strbuf_str(&x), strbuf_str(&y)) == 0;
	strbuf_release(&x);
	strbuf_release(&y);
	return same;
}

/* The query's value: "true", "false", "" (null), an integer, a decimal,
 * else the text itself. */
static struct val query_value(const char *s)
{
	if (strcmp(s, "true") == 0)
		return (struct val){.kind = K_TRUE};
	if (strcmp(s, "false") == 0)
		return (struct val){.kind = K_FALSE};
	if (!*s)
		return (struct val){.kind = K_NULL};
	if (numeric_text(s) && !strchr(s, '.'))
		return (struct val){.kind = K_INT, .i = strtoll(s, NULL, 10)};
	if (numeric_text(s))
		return (struct val){.kind = K_FLOAT, .f = strtod(s, NULL)};
	return (struct val){.kind = K_STRING, .s = s};
}

/* --- the filter rules --- */

static bool rule_is(const struct val *item, const struct val *value)
{
	return item->kind != K_LIST && same_text(item, value, true);
}

/* PHP's ===, with null and missing the same null. */
static bool identical(const struct val *a, const struct val *b)
{
	if (is_null(a) || is_null(b))
		return is_null(a) && is_null(b);
	if (a->kind != b->kind)
		return false;
	switch (a->kind) {
	case K_INT: return a->i == b->i;
	case K_FLOAT: return a->f == b->f;
	case K_STRING: return strcmp(a->s, b->s) == 0;
	case K_LIST: return false; /* a query value is never a list */
	default: return true;      /* true, false */
	}
}

/* Text is compared without case, anything else must not be identical:
 * the integer 1 is not true, 3.0 is not 3. */
static bool rule_not(const struct val *item, const struct val *value)
{
	if (item->kind == K_STRING)
		return !same_text(item, value, true);
	return !identical(item, value);
}

/* exists=true, isset=true, is_empty=false: false, 0 and [] exist. */
static bool strictly_not_null(const struct val *item)
{
	if (item->kind == K_STRING)
		return item->s[0] != '\0';
	return !is_null(item);
}

/* exists=false, is_empty=true: false is empty as well (and exists). */
static bool equals_null(const struct val *item)
{
	return is_null(item) || item->kind == K_FALSE ||
	       (item->kind == K_STRING && item->s[0] == '\0');
}

/* in=a|b: "true" and "false" parts are booleans; a part matches by its
 * text, case-sensitively, and only a boolean matches a boolean. */
static bool rule_in(const struct val *item, const char *parts)
{
	if (item->kind == K_LIST)
		return false;
	char part[32];
	for (const char *p = parts;;) {
		size_t n = strcspn(p, "|");
		snprintf(part, sizeof part, "%.*s", (int)(n < sizeof part ? n : sizeof part - 1), p);
		struct val v = {.kind = K_STRING, .s = part};
		if (strcmp(part, "true") == 0 || strcmp(part, "false") == 0)
			v = (struct val){.kind = part[0] == 't' ? K_TRUE : K_FALSE};
		if (is_bool(item) == is_bool(&v) && same_text(item, &v, false))
			return true;
		if (!p[n])
			return false;
		p += n + 1;
	}
}

/* item <=> value for gt, gte, lt, lte (never called on a null or list). */
static int compare_for_filter(const struct val *item, const struct val *value)
{
	if (is_bool(item) || is_bool(value))
		return (int)truthy(item) - (int)truthy(value);
	if (is_numeric(item) && is_numeric(value)) {
		double a = number_of(item), b = number_of(value);
		return (a > b) - (a < b);
	}
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	php_string(item, &x);
	php_string(value, &y);
	int c = strcmp(strbuf_str(&x), strbuf_str(&y));
	strbuf_release(&x);
	strbuf_release(&y);
	return (c > 0) - (c < 0);
}

/* contains: a list as its JSON text; without case. */
static bool rule_contains(const struct val *item, const char *needle)
{
	struct strbuf x = STRBUF_INIT;
	php_string(item, &x);
	bool found = strcasestr(strbuf_str(&x), needle) != NULL;
	strbuf_release(&x);
	return found;
}

/* --- the sort rules --- */

/* missing is null; a list sorts as its first item, an empty one as null. */
static struct val sort_normal(const struct val *v)
{
	if (v->kind == K_MISSING || (v->kind == K_LIST && v->n == 0))
		return (struct val){.kind = K_NULL};
	if (v->kind == K_LIST)
		return (struct val){.kind = K_STRING, .s = v->list[0]};
	return *v;
}

/* Ascending: nulls last, booleans by truthiness against anything, numbers
 * as numbers, else texts without ASCII case. */
static int sort_compare_values(const struct val *x, const struct val *y)
{
	struct val a = sort_normal(x), b = sort_normal(y);
	if (is_null(&a) || is_null(&b))
		return (int)is_null(&a) - (int)is_null(&b);
	if (is_bool(&a) || is_bool(&b))
		return (int)truthy(&a) - (int)truthy(&b);
	if (is_numeric(&a) && is_numeric(&b)) {
		double m = number_of(&a), n = number_of(&b);
		return (m > n) - (m < n);
	}
	struct strbuf s = STRBUF_INIT, t = STRBUF_INIT;
	php_string(&a, &s);
	php_string(&b, &t);
	for (char *p = s.ptr; p && *p; p++)
		*p = (char)tolower((unsigned char)*p);
	for (char *p = t.ptr; p && *p; p++)
		*p = (char)tolower((unsigned char)*p);
	int c = strcmp(strbuf_str(&s), strbuf_str(&t));
	strbuf_release(&s);
	strbuf_release(&t);
	return (c > 0) - (c < 0);
}

static enum field field_named(const char *name, size_t len)
{
	for (int f = 0; f < NFIELDS; f++)
		if (strlen(field_names[f]) == len && strncmp(field_names[f], name, len) == 0)
			return (enum field)f;
	abort(); /* the sorts below name only these fields */
}

/* By a sort parameter such as "-tags,title": the first key that differs. */
static int compare_mixed(const struct mixed_entry *a, const struct mixed_entry *b,
                         const char *sort)
{
	for (const char *p = sort; *p;) {
		bool descending = *p == '-';
		p += descending;
		size_t n = strcspn(p, ",");
		enum field f = field_named(p, n);
		int c = sort_compare_values(&a->v[f], &b->v[f]);
		if (c)
			return descending ? -c : c;
		p += n + (p[n] == ',');
	}
	return 0;
}

/* --- the queries --- */

enum op { OP_IS, OP_NOT, OP_EXISTS, OP_ISSET, OP_IS_EMPTY, OP_IN, OP_GT, OP_GTE, OP_LT, OP_LTE,
	  OP_CONTAINS, NOPS };
static const char *const op_names[NOPS] = {"is", "not", "exists", "isset", "is_empty", "in",
                                           "gt", "gte", "lt", "lte", "contains"};

static const char *const is_values[] = {"true", "false", "", "0", "1", "3", "7", "10", "2.5",
                                        "apple", "Apple", "banana", "Cherry"};
static const char *const compare_values[] = {"true", "false", "0", "1", "3", "7", "10", "2.5",
                                             "apple", "banana", "B"};
static const char *const in_parts[] = {"0", "1", "3", "7", "10", "2.5", "apple", "Apple",
                                       "banana", "true", "false"};
static const char *const contains_needles[] = {"red", "BLU", "e", "[]", "\"red\"", "n", "\",\""};
static const char *const mixed_sorts[] = {"", "mix", "-mix", "flag,title", "-flag,mix",
                                          "tags,title", "-tags,title", "mix,-title",
                                          "title,-mix", "-mix,tags"};

struct mixed_cond {
	enum field field;
	enum op op;
	char value[40]; /* as the query gives it, decoded */
};

struct mixed_query {
	struct mixed_cond conds[2];
	int nconds;
	const char *sort;
	int limit, page;
};

static bool cond_holds(const struct mixed_cond *c, const struct val *item)
{
	struct val value = query_value(c->value);
	switch (c->op) {
	case OP_IS: return rule_is(item, &value);
	case OP_NOT: return rule_not(item, &value);
	case OP_EXISTS:
	case OP_ISSET:
		return strcmp(c->value, "true") == 0 ? strictly_not_null(item) : equals_null(item);
	case OP_IS_EMPTY:
		return strcmp(c->value, "true") == 0 ? equals_null(item) : strictly_not_null(item);
	case OP_IN: return rule_in(item, c->value);
	case OP_CONTAINS: return rule_contains(item, c->value);
	default: break;
	}
	/* gt, gte, lt, lte never match a null, missing or list item. */
	if (is_null(item) || item->kind == K_LIST)
		return false;
	int cmp = compare_for_filter(item, &value);
	switch (c->op) {
	case OP_GT: return cmp > 0;
	case OP_GTE: return cmp >= 0;
	case OP_LT: return cmp < 0;
	default: return cmp <= 0;
	}
}

static bool mixed_passes(const struct mixed_entry *m, const struct mixed_query *q)
{
	if (!m->published)
		return false;
	for (int i = 0; i < q->nconds; i++)
		if (!cond_holds(&q->conds[i], &m->v[q->conds[i].field]))
			return false;
	return true;
}

/*
 * Whether the sorted list falls into runs of equals, each run ordered
 * before every later entry: a strict weak order, which a stable sort puts
 * in one order only. A boolean ties with every value of its truthiness,
 * and those need not tie with each other (true ties with 2.5 and with
 * "apple", 2.5 is before "apple"): the order of such a set depends on the
 * sorting algorithm, in Statamic as anywhere, and no reference can say it.
 */
static bool weakly_ordered(const struct mixed_entry *const *list, int n, const char *sort)
{
	for (int start = 0; start < n;) {
		int end = start + 1;
		while (end < n && compare_mixed(list[start], list[end], sort) == 0)
			end++;
		for (int i = start; i < end; i++)
			for (int j = i + 1; j < n; j++) {
				int c = compare_mixed(list[i], list[j], sort);
				if (j < end ? c != 0 : c >= 0)
					return false;
			}
		start = end;
	}
	return true;
}

/* Reference ids of the page into out; returns the total, or -1 when the
 * sort has no one right order for the entries kept. */
static int mixed_reference(const struct mixed_query *q, struct strbuf *out)
{
	const struct mixed_entry *list[NENTRIES];
	int n = 0;
	for (int i = 0; i < NENTRIES; i++)
		if (mixed_passes(&mixed[i], q))
			list[n++] = &mixed[i];
	for (int i = 1; i < n; i++) /* insertion sort: stable */
		for (int j = i; j > 0 && compare_mixed(list[j], list[j - 1], q->sort) < 0; j--) {
			const struct mixed_entry *t = list[j];
			list[j] = list[j - 1];
			list[j - 1] = t;
		}
	if (!weakly_ordered(list, n, q->sort))
		return -1;
	strbuf_reset(out);
	for (int i = (q->page - 1) * q->limit; i < n && i < q->page * q->limit; i++)
		strbuf_addf(out, "%s%s", out->len ? "," : "", list[i]->id);
	return n;
}

static void random_cond(struct mixed_cond *c)
{
	static const enum field any_field[] = {F_FLAG, F_MIX, F_MIX, F_TAGS};
	c->op = (enum op)next_random(NOPS);
	c->field = c->op == OP_CONTAINS ? F_TAGS : any_field[next_random(COUNT(any_field))];
	switch (c->op) {
	case OP_IS:
	case OP_NOT:
		snprintf(c->value, sizeof c->value, "%s", is_values[next_random(COUNT(is_values))]);
		break;
	case OP_EXISTS:
	case OP_IS_EMPTY:
		snprintf(c->value, sizeof c->value, "%s", next_random(2) ? "true" : "false");
		break;
	case OP_ISSET:
		snprintf(c->value, sizeof c->value, "true");
		break;
	case OP_IN: {
		struct strbuf parts = STRBUF_INIT;
		int n = (int)next_random(3) + 1;
		for (int i = 0; i < n; i++) {
			const char *part = in_parts[next_random(COUNT(in_parts))];
			strbuf_addf(&parts, "%s%s", i ? "|" : "", part);
		}
		snprintf(c->value, sizeof c->value, "%s", parts.ptr);
		strbuf_release(&parts);
		break;
	}
	case OP_CONTAINS:
		snprintf(c->value, sizeof c->value, "%s",
		         contains_needles[next_random(COUNT(contains_needles))]);
		break;
	default:
		snprintf(c->value, sizeof c->value, "%s",
		         compare_values[next_random(COUNT(compare_values))]);
		break;
	}
}

static void random_mixed_query(struct mixed_query *q)
{
	memset(q, 0, sizeof *q);
	q->nconds = (int)next_random(3);
	for (int i = 0; i < q->nconds; i++)
		random_cond(&q->conds[i]);
	/* A repeated parameter name keeps only its last value (as in PHP):
	 * the model keeps one condition per name. */
	if (q->nconds == 2 && q->conds[0].field == q->conds[1].field &&
	    q->conds[0].op == q->conds[1].op)
		q->nconds = 1;
	q->sort = mixed_sorts[next_random(COUNT(mixed_sorts))];
	q->limit = (int)next_random(10) + 1;
	q->page = (int)next_random(4) + 1;
}

static void mixed_query_uri(const struct mixed_query *q, struct strbuf *uri)
{
	strbuf_reset(uri);
	strbuf_addf(uri, "/api/collections/mixed/entries?fields=id&limit=%d&page=%d", q->limit,
	            q->page);
	if (*q->sort)
		strbuf_addf(uri, "&sort=%s", q->sort);
	for (int i = 0; i < q->nconds; i++) {
		const struct mixed_cond *c = &q->conds[i];
		strbuf_addf(uri, "&filter[%s:%s]=", field_names[c->field], op_names[c->op]);
		for (const char *p = c->value; *p; p++) {
			if (isalnum((unsigned char)*p) || *p == '.')
				strbuf_addch(uri, *p);
			else
				strbuf_addf(uri, "%%%02X", (unsigned)(unsigned char)*p);
		}
	}
}

static int next_mixed_query(struct strbuf *uri, struct strbuf *want)
{
	struct mixed_query q;
	int total;
	do { /* a query without one right order is drawn again */
		random_mixed_query(&q);
		total = mixed_reference(&q, want);
	} while (total < 0);
	mixed_query_uri(&q, uri);
	return total;
}

static void test_random_mixed_queries(void)
{
	rng = 0x2545f4914f6cdd1dULL; /* its own seed, whatever ran before */
	run_queries(make_mixed_site, "title, flag, mix, tags", NQUERIES, next_mixed_query);
}

/* --- fixed examples of the rules --- */

static void check_query(struct app *app, const char *uri, int total, const char *ids)
{
	struct strbuf want = STRBUF_INIT, got = STRBUF_INIT;
	strbuf_addstr(&want, ids);
	CU_ASSERT(same_answer(app, uri, total, &want, &got, 0));
	strbuf_release(&want);
	strbuf_release(&got);
}

/* The example: false both exists and is empty; null and missing
 * are only empty. */
static void test_flag_exists_and_is_empty(void)
{
	char *dir = unit_tempdir();
	unit_write_file(dir, "content/collections/flags.yaml", "title: Flags\n");
	unit_write_file(dir, "content/collections/flags/f1.md", "---\nid: f1\nflag: true\n---\n");
	unit_write_file(dir, "content/collections/flags/f2.md", "---\nid: f2\nflag: false\n---\n");
	unit_write_file(dir, "content/collections/flags/f3.md", "---\nid: f3\nflag: ~\n---\n");
	unit_write_file(dir, "content/collections/flags/f4.md", "---\nid: f4\n---\n");
	struct app app;
	open_site_app(&app, dir, "flag");
	const char *base = "/api/collections/flags/entries?fields=id";
	char uri[128];
	snprintf(uri, sizeof uri, "%s&filter[flag:exists]=true", base);
	check_query(&app, uri, 2, "f1,f2");
	snprintf(uri, sizeof uri, "%s&filter[flag:isset]=true", base);
	check_query(&app, uri, 2, "f1,f2");
	snprintf(uri, sizeof uri, "%s&filter[flag:is_empty]=false", base);
	check_query(&app, uri, 2, "f1,f2");
	snprintf(uri, sizeof uri, "%s&filter[flag:is_empty]=true", base);
	check_query(&app, uri, 3, "f2,f3,f4");
	snprintf(uri, sizeof uri, "%s&filter[flag:exists]=false", base);
	check_query(&app, uri, 3, "f2,f3,f4");
	app_close(&app);
	unit_rmtree(dir);
	free(dir);
}

/* [red, blue] sorts as "red", [] as null (with the missing ones, after
 * every value ascending, before them descending; title breaks the ties). */
static void test_sort_by_list(void)
{
	char *dir = unit_tempdir();
	unit_write_file(dir, "content/collections/tagged.yaml", "title: Tagged\n");
	unit_write_file(dir, "content/collections/tagged/t1.md",
	                "---\nid: t1\ntitle: Echo\ntags: [red, blue]\n---\n");
	unit_write_file(dir, "content/collections/tagged/t2.md",
	                "---\nid: t2\ntitle: Delta\ntags: [blue]\n---\n");
	unit_write_file(dir, "content/collections/tagged/t3.md",
	                "---\nid: t3\ntitle: Charlie\ntags: []\n---\n");
	unit_write_file(dir, "content/collections/tagged/t4.md", "---\nid: t4\ntitle: Bravo\n---\n");
	unit_write_file(dir, "content/collections/tagged/t5.md",
	                "---\nid: t5\ntitle: Alpha\ntags: [Green]\n---\n");
	struct app app;
	open_site_app(&app, dir, "tags");
	check_query(&app, "/api/collections/tagged/entries?fields=id&sort=tags,title", 5,
	            "t2,t5,t1,t4,t3");
	check_query(&app, "/api/collections/tagged/entries?fields=id&sort=-tags,title", 5,
	            "t4,t3,t1,t5,t2");
	app_close(&app);
	unit_rmtree(dir);
	free(dir);
}

void suite_property(void)
{
	CU_pSuite s = unit_add_suite("entries property test");
	unit_add_test(s, "400 random queries against a reference", test_random_queries);
	unit_add_test(s, "date sorts, every entry dated", test_date_sorts_every_entry_dated);
	unit_add_test(s, "date sorts, some entries undated", test_date_sorts_some_undated);
	unit_add_test(s, "date sorts, private dates", test_date_sorts_with_private_dates);
	unit_add_test(s, "400 random queries over booleans, nulls, lists and mixed types",
	              test_random_mixed_queries);
	unit_add_test(s, "exists and is_empty of true, false, null and missing",
	              test_flag_exists_and_is_empty);
	unit_add_test(s, "sort by a list: its first item, an empty one as null", test_sort_by_list);
}
