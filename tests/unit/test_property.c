/*
 * A property test of the entries list: hundreds of random queries
 * (filters, sort, limit, page) over a random site, each compared with a
 * simple reference implementation written here: the same ids, in the same
 * order, and the same total. Seeded, so a failure repeats.
 */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "app.h"
#include "unit.h"

#define NENTRIES 60
#define NQUERIES 400

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
	app_handle(app, &req, &res);
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

static void test_random_queries(void)
{
	char *dir = unit_tempdir();
	make_site(dir);
	struct app app;
	open_site_app(&app, dir, "title, rating, featured");

	struct strbuf uri = STRBUF_INIT, want = STRBUF_INIT, got = STRBUF_INIT;
	int failures = 0;
	for (int i = 0; i < NQUERIES; i++) {
		struct query q;
		random_query(&q);
		query_uri(&q, &uri);
		int total = reference(&q, &want);
		failures += !same_answer(&app, uri.ptr, total, &want, &got, failures);
	}
	CU_ASSERT_EQUAL(failures, 0);
	strbuf_release(&uri);
	strbuf_release(&want);
	strbuf_release(&got);
	app_close(&app);
	unit_rmtree(dir);
	free(dir);
}

/* --- sorting a dated collection by date --- */

struct post {
	char id[8], file[32], title[16];
	int day;        /* the day of January 2024 in the file name; 0: none */
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

/* Posts on a few days (many ties); when undated, some without a date in
 * the file name but with an updated_at. Kept in path order as the
 * collection lists them. */
static void make_dated_site(const char *dir, bool undated)
{
	unit_write_file(dir, "content/collections/posts.yaml", "title: Posts\ndate: true\n");
	for (int i = 0; i < NENTRIES; i++) {
		struct post *p = &posts[i];
		unsigned number = (unsigned)i % 100u; /* bounded, for the compiler's sake */
		snprintf(p->id, sizeof p->id, "p%02u", number);
		snprintf(p->title, sizeof p->title, "%s", words[next_random(6)]);
		p->day = undated && next_random(5) == 0 ? 0 : (int)next_random(4) + 1;
		p->published = next_random(8) != 0;
		if (p->day) {
			snprintf(p->file, sizeof p->file, "2024-01-0%u.p%02u.md", (unsigned)p->day % 10u,
			         number);
			p->date = JAN_1_2024 + (p->day - 1) * DAY_SECONDS;
		} else {
			snprintf(p->file, sizeof p->file, "p%02u.md", number);
			p->date = updated_ats[next_random(sizeof updated_ats / sizeof updated_ats[0])];
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
		if (posts[i].published && (!letter || strcasestr(posts[i].title, needle)))
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
static void run_date_queries(bool undated)
{
	char *dir = unit_tempdir();
	make_dated_site(dir, undated);
	struct app app;
	open_site_app(&app, dir, "title");
	struct strbuf uri = STRBUF_INIT, want = STRBUF_INIT, got = STRBUF_INIT;
	int failures = 0;
	for (int i = 0; i < NQUERIES / 2; i++) {
		bool descending = next_random(2);
		char letter = next_random(3) == 0 ? "aeirnx"[next_random(6)] : 0;
		int limit = (int)next_random(10) + 1, page = (int)next_random(4) + 1;
		strbuf_reset(&uri);
		strbuf_addf(&uri, "/api/collections/posts/entries?fields=id&limit=%d&page=%d&sort=%s",
		            limit, page, descending ? "-date" : "date");
		if (letter)
			strbuf_addf(&uri, "&filter[title:contains]=%c", letter);
		int total = reference_by_date(descending, letter, limit, page, &want);
		failures += !same_answer(&app, uri.ptr, total, &want, &got, failures);
	}
	CU_ASSERT_EQUAL(failures, 0);
	strbuf_release(&uri);
	strbuf_release(&want);
	strbuf_release(&got);
	app_close(&app);
	unit_rmtree(dir);
	free(dir);
}

static void test_date_sorts_every_entry_dated(void)
{
	run_date_queries(false);
}

static void test_date_sorts_some_undated(void)
{
	run_date_queries(true);
}

void suite_property(void)
{
	CU_pSuite s = unit_add_suite("entries property test");
	unit_add_test(s, "400 random queries against a reference", test_random_queries);
	unit_add_test(s, "date sorts, every entry dated", test_date_sorts_every_entry_dated);
	unit_add_test(s, "date sorts, some entries undated", test_date_sorts_some_undated);
}
