/*
 * libFuzzer target: any bytes as the query string of a list request. The
 * parser must agree with the plain quadratic one PHP's $_GET rules come
 * from (last value wins in the first place, "[]" names collect), notice
 * every encoded NUL, give the cache a key, and every filter[...] it holds
 * must parse or be refused, then match a few values within a small regex
 * budget, and say of the text values all at once (filter_match_lowered)
 * what it says of each; sort keys are counted as sort_parse makes them, and
 * those a sort keeps when ?withheld= names excluded keys are the others, in
 * order. The filters are read as filterparams.h reads them too: OR groups
 * (filter[or][N][...]), each group numbered below the count, or a refusal
 * that says why; and each filter is matched through relations (a
 * relationship field of references, read by a reader over a small world of
 * items). q= is looked up in a small search index: words, never FTS5's
 * syntax, so any q finds or does not, and never fails. Never crash, never
 * leak, never run past the budget.
 */
#include "autoconfig.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cache/cache.h"
#include "core/config.h"
#include "http/request.h"
#include "lib/strbuf.h"
#include "lib/url.h"
#include "lib/value.h"
#include "query/filter.h"
#include "query/filterparams.h"
#include "query/regex.h"
#include "query/search.h"
#include "query/sort.h"

/* The search index of three items, made once: q= is looked up in it. */
static value_t search_doc(void *self, uint32_t item, const char *key, struct value_builder *scratch)
{
	(void)self;
	static const char *const titles[] = {"Crème brûlée", "Winter bread", "Notes \"quoted\" *"};
	vb_reset(scratch);
	if (strcmp(key, "id") == 0)
		vb_int(scratch, item);
	else
		vb_strz(scratch, strcmp(key, "title") == 0 ? titles[item % 3] : "bake OR NEAR(a b)");
	return vb_result(scratch);
}

static void try_search(const struct request *req)
{
	static struct search_index *ix;
	char err[256];
	if (!ix) {
		struct strlist fields = {NULL, 0};
		strlist_split(&fields, "title, body");
		struct search_source src = {3, search_doc, NULL};
		if (search_index_open(&ix, err, sizeof err) != 0 ||
		    search_sync(ix, "entries/blog", 1, &fields, &src, NULL, err, sizeof err) != 0)
			__builtin_trap();
		strlist_free(&fields);
	}
	const char *q = request_param(req, "q");
	if (!q || !search_has_words(q))
		return;
	uint32_t *items;
	size_t n;
	if (search_find(ix, "entries/blog", q, &items, &n, err, sizeof err) != 0 || n > 3)
		__builtin_trap(); /* words only: never a syntax error */
	free(items);
}

/* The keys a sort is left with when ?withheld= (comma-separated) is
 * excluded_keys: those whose field is not withheld, in their order. */
static void check_served(const struct request *req, const struct sort_spec *spec)
{
	const char *text = request_param(req, "withheld");
	struct strlist withheld = {NULL, 0};
	strlist_split(&withheld, text ? text : "");
	struct sort_spec view;
	sort_view_served(spec, &withheld, &view);
	size_t k = 0;
	for (size_t i = 0; i < spec->n; i++) {
		if (strlist_contains(&withheld, spec->keys[i].path[0]))
			continue;
		if (k >= view.n || view.keys[k].path != spec->keys[i].path)
			__builtin_trap();
		k++;
	}
	if (k != view.n)
		__builtin_trap();
	sort_view_free(&view);
	strlist_free(&withheld);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* The parser cms-api had before, kept as the oracle. */
static bool same_as_quadratic(const struct request *req)
{
	struct query_param *ref = NULL;
	size_t n = 0;
	bool same = true;
	for (const char *p = req->query; *p;) {
		size_t len = strcspn(p, "&");
		const char *eq = memchr(p, '=', len);
		size_t name_len = eq ? (size_t)(eq - p) : len;
		if (name_len > 0) {
			char *name = url_decode(p, name_len, true);
			char *value = eq ? url_decode(eq + 1, len - name_len - 1, true) : xstrdup("");
			size_t nl = strlen(name);
			bool collects = nl >= 2 && strcmp(name + nl - 2, "[]") == 0;
			size_t i = 0;
			while (!collects && i < n && strcmp(ref[i].name, name) != 0)
				i++;
			if (!collects && i < n) {
				free(ref[i].value);
				ref[i].value = value;
				free(name);
			} else {
				ref = xrealloc(ref, (n + 1) * sizeof *ref);
				ref[n].name = name;
				ref[n++].value = value;
			}
		}
		p += len;
		if (*p == '&')
			p++;
	}
	same = n == req->nparams;
	for (size_t i = 0; i < n; i++) {
		if (same)
			same = strcmp(ref[i].name, req->params[i].name) == 0 &&
			       strcmp(ref[i].value, req->params[i].value) == 0;
		free(ref[i].name);
		free(ref[i].value);
	}
	free(ref);
	return same;
}

static void build_values(struct value_builder *vb)
{
	vb_array_begin(vb);
	vb_strz(vb, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!");
	vb_strz(vb, "Hello World\nsecond line");
	/* U+212A KELVIN SIGN and U+017F LONG S fold to k and s. */
	vb_strz(vb, "\xe2\x84\xaait de\xc5\xbfk \xc3\xa9t\xc3\xa9 Desk");
	vb_strz(vb, "2019-03-10 13:00");
	vb_strz(vb, "");
	vb_int(vb, 42);
	vb_double(vb, 2.5);
	vb_bool(vb, true);
	vb_null(vb);
	vb_array_begin(vb);
	vb_strz(vb, "news");
	vb_int(vb, 7);
	vb_array_end(vb);
	vb_map_begin(vb);
	vb_keyz(vb, "title");
	vb_strz(vb, "nested");
	vb_map_end(vb);
	vb_array_end(vb);
}

/* The relation reader: every reference names the same item, the world. */
static value_t world_value(void *ctx, value_t ref, const char *key, struct value_builder *scratch)
{
	(void)ref;
	vb_reset(scratch);
	vb_value(scratch, value_map_getz(*(const value_t *)ctx, key));
	return vb_result(scratch);
}

/* An item with a relationship field, "rel", of two references. */
static void build_related(struct value_builder *vb)
{
	vb_map_begin(vb);
	vb_keyz(vb, "rel");
	vb_ref_begin(vb, REF_FIELD, UINT32_MAX);
	vb_array_begin(vb);
	vb_strz(vb, "a");
	vb_strz(vb, "b");
	vb_array_end(vb);
	vb_array_begin(vb);
	for (int i = 0; i < 2; i++) {
		vb_ref_begin(vb, i ? REF_TERM : REF_ENTRY, UINT32_MAX);
		vb_strz(vb, i ? "b" : "a");
		vb_map_begin(vb);
		vb_keyz(vb, "title");
		vb_strz(vb, i ? "Bee" : "Ay");
		vb_keyz(vb, "rel"); /* the world relates to itself: paths go on */
		vb_int(vb, i);
		vb_map_end(vb);
		vb_ref_end(vb);
	}
	vb_array_end(vb);
	vb_ref_end(vb);
	vb_keyz(vb, "title");
	vb_strz(vb, "Hello");
	vb_map_end(vb);
}

/* Every filter as filter_params_read reads it, matched through the
 * relation of an item. */
static void try_params(const struct request *req)
{
	struct filter_params p;
	struct http_error e = HTTP_ERROR_INIT;
	if (filter_params_read(req, &p, &e) != 0) {
		if (e.status != 400 || !e.message.len)
			__builtin_trap(); /* a refusal always says why */
		http_error_free(&e);
		return;
	}
	struct value_builder item = VALUE_BUILDER_INIT;
	build_related(&item);
	value_t world = vb_result(&item);
	struct relation_reader rr = {world_value, NULL, &world};
	struct regex_budget budget;
	regex_budget_init(&budget, 20000);
	for (size_t i = 0; i < p.n; i++) {
		if (p.items[i].group != FILTER_TOP && p.items[i].group >= p.ngroups)
			__builtin_trap();
		struct filter f;
		char err[FILTER_ERR_LEN];
		if (i < 8 && filter_parse(p.items[i].key, p.items[i].value, 0, &budget, &f, err) == 0) {
			if (filter_match_path(&f, value_map_getz(world, f.path[0]), 1, &rr) && budget.spent)
				__builtin_trap();
			filter_free(&f);
		}
	}
	vb_release(&item);
	filter_params_free(&p);
	http_error_free(&e);
}

/* Whether filter_match_lowered, when it applies to f, says of the string
 * values what filter_match says of each. */
static bool lowered_agrees(const struct filter *f, value_t values)
{
	struct strbuf block = STRBUF_INIT;
	uint32_t ends[16];
	value_t texts[16];
	size_t n = 0;
	struct value_iter it;
	value_iter_init(&it, values);
	while (value_iter_next(&it) && n < 16) {
		if (value_type(it.value) != VALUE_STRING)
			continue;
		size_t len;
		const char *s = value_str(it.value, &len);
		strbuf_add(&block, s, len);
		ends[n] = (uint32_t)block.len;
		texts[n++] = it.value;
	}
	for (size_t i = 0; i < block.len; i++)
		if (block.ptr[i] >= 'A' && block.ptr[i] <= 'Z')
			block.ptr[i] = (char)(block.ptr[i] - 'A' + 'a');
	unsigned char pass[16];
	bool same = true;
	if (filter_match_lowered(f, block.ptr ? block.ptr : "", ends, 0, n, pass))
		for (size_t i = 0; i < n && !f->budget->spent; i++)
			same = same && pass[i] == filter_match(f, texts[i]);
	strbuf_release(&block);
	return same || f->budget->spent;
}

static void try_filters(const struct request *req, value_t values)
{
	struct regex_budget budget;
	regex_budget_init(&budget, 20000);
	for (size_t i = 0; i < req->nparams && i < 8; i++) {
		const char *name = req->params[i].name;
		size_t n = strlen(name);
		if (n < 9 || strncmp(name, "filter[", 7) != 0 || name[n - 1] != ']')
			continue;
		char *key = xstrndup(name + 7, n - 8);
		struct filter f;
		char err[FILTER_ERR_LEN];
		if (filter_parse(key, req->params[i].value, 1552222800LL, &budget, &f, err) == 0) {
			struct value_iter it;
			value_iter_init(&it, values);
			while (value_iter_next(&it))
				if (filter_match(&f, it.value) && budget.spent)
					__builtin_trap(); /* a match cut short is never a match */
			if (!lowered_agrees(&f, values))
				__builtin_trap();
			filter_free(&f);
		} else if (!err[0]) {
			__builtin_trap(); /* a refusal always says why */
		}
		free(key);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct strbuf uri = STRBUF_INIT;
	strbuf_addstr(&uri, "/api/collections/blog/entries?");
	strbuf_add(&uri, (const char *)data, size);
	struct request req;
	/* A raw NUL ends the URI, as it ends any CGI variable. */
	request_from_uri(&req, "GET", uri.ptr);
	if (!same_as_quadratic(&req))
		__builtin_trap();
	if (req.holds_nul != (strstr(req.query, "%00") != NULL))
		__builtin_trap();

	struct config cfg;
	config_init_defaults(&cfg);
	struct strbuf key = STRBUF_INIT;
	cache_key(&cfg, &req, &key);
	strbuf_release(&key);
	config_free(&cfg);

	const char *sort = request_param(&req, "sort");
	struct sort_spec spec;
	sort_parse(sort, &spec);
	if (spec.n != sort_key_count(sort))
		__builtin_trap();
	check_served(&req, &spec);
	sort_free(&spec);

	struct value_builder values = VALUE_BUILDER_INIT;
	build_values(&values);
	try_filters(&req, vb_result(&values));
	try_params(&req);
	try_search(&req);
	vb_release(&values);
	request_free(&req);
	strbuf_release(&uri);
	return 0;
}
