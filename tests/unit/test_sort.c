/* Unit tests: sort parameter and comparator. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "lib/strbuf.h"
#include "query/sort.h"
#include "site/yaml.h"
#include "unit.h"

static value_t item_value(void *ctx, uint32_t item, const struct sort_key *key)
{
	return sort_key_value(key, value_array_get(*(value_t *)ctx, item));
}

/* Sorts a YAML list of maps by param's keys but those of withheld (a
 * comma-separated list, "" for none); returns their `id`s joined by ','. */
static void sorted_ids_withheld(const char *yaml, const char *param, const char *withheld_keys,
                                struct strbuf *out)
{
	struct value_builder b = VALUE_BUILDER_INIT;
	struct yaml_error err;
	CU_ASSERT_EQUAL_FATAL(yaml_parse(yaml, strlen(yaml), 0, &b, &err), 0);
	value_t list = vb_result(&b);
	uint32_t items[32];
	uint32_t n = value_count(list);
	for (uint32_t i = 0; i < n; i++)
		items[i] = i;
	struct sort_spec spec, served;
	struct strlist withheld = {NULL, 0};
	strlist_split(&withheld, withheld_keys);
	sort_parse(param, &spec);
	sort_view_served(&spec, &withheld, &served);
	sort_items(items, n, &served, item_value, &list);
	strbuf_reset(out);
	for (uint32_t i = 0; i < n; i++)
		strbuf_addf(out, "%s%s", i ? "," : "",
		            value_str(value_map_getz(value_array_get(list, items[i]), "id"), NULL));
	sort_view_free(&served);
	sort_free(&spec);
	strlist_free(&withheld);
	vb_release(&b);
}

static void sorted_ids(const char *yaml, const char *param, struct strbuf *out)
{
	sorted_ids_withheld(yaml, param, "", out);
}

static void assert_order(const char *yaml, const char *param, const char *want)
{
	struct strbuf got = STRBUF_INIT;
	sorted_ids(yaml, param, &got);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&got), want);
	if (strcmp(strbuf_str(&got), want) != 0)
		fprintf(stderr, "\nsort=%s: got %s, want %s\n", param, strbuf_str(&got), want);
	strbuf_release(&got);
}

static void test_parse(void)
{
	struct sort_spec s;
	sort_parse("title,-date,,seo->title", &s);
	CU_ASSERT_EQUAL_FATAL(s.n, 3);
	CU_ASSERT_FALSE(s.keys[0].descending);
	CU_ASSERT_TRUE(s.keys[1].descending);
	CU_ASSERT_STRING_EQUAL(s.keys[1].path[0], "date");
	CU_ASSERT_EQUAL(s.keys[2].npath, 2);
	CU_ASSERT_STRING_EQUAL(s.keys[2].path[1], "title");
	sort_free(&s);
	sort_parse("", &s);
	CU_ASSERT_EQUAL(s.n, 0);
	sort_free(&s);
}

static void test_text_and_numbers(void)
{
	const char *items = "[{id: a, t: banana}, {id: b, t: Apple}, {id: c, t: cherry}]";
	assert_order(items, "t", "b,a,c"); /* case-insensitive */
	assert_order(items, "-t", "c,a,b");
	const char *nums = "[{id: a, n: '10'}, {id: b, n: 9}, {id: c, n: 100}, {id: d, n: '9.5'}]";
	assert_order(nums, "n", "b,d,a,c"); /* numeric strings compare as numbers */
}

static void test_nulls_lists_booleans(void)
{
	const char *items = "[{id: a, v: 2}, {id: b}, {id: c, v: 1}, {id: d, v: ~}, {id: e, v: [0, 9]}]";
	assert_order(items, "v", "e,c,a,b,d"); /* a list by its first item; nulls last, stable */
	assert_order(items, "-v", "b,d,a,c,e"); /* descending: nulls first */
	const char *flags = "[{id: a, f: true}, {id: b, f: false}, {id: c, f: true}]";
	assert_order(flags, "f", "b,a,c");
	/* A map is a PHP array too: it sorts by its first value ("1" < "zed"). */
	const char *maps = "[{id: a, v: {x: zz}}, {id: b, v: zed}, {id: c, v: {x: 1}}]";
	assert_order(maps, "v", "c,b,a");
}

/* statamic-api.md §8 and Statamic's DataCollection::normalizeSortableValue:
 * a list sorts as its first element, an empty list as null. */
static void test_lists_sort_by_their_first_element(void)
{
	const char *tags = "[{id: a, tags: [red, blue], title: x}, {id: b, tags: [], title: a},"
	                   " {id: c, tags: [blue], title: z}, {id: d, tags: [red], title: b},"
	                   " {id: e, title: c}]";
	assert_order(tags, "tags,title", "c,d,a,b,e");
	assert_order(tags, "-tags,title", "b,e,d,a,c");
}

/* Mixed types in one field, as the Comparator compares them: anything
 * against a boolean by truthiness, numbers (and numeric strings)
 * numerically, everything else as lower-cased text. */
static void test_mixed_types(void)
{
	const char *mixed = "[{id: a, v: Apple}, {id: b, v: 10}, {id: c, v: '9'}, {id: d, v: 2.5},"
	                    " {id: e, v: banana}, {id: f, v: ''}]";
	/* 2.5 < '9' < 10 numerically; '' < '10' < 'apple' < 'banana' as text. */
	assert_order(mixed, "v", "f,d,c,b,a,e");
	/* Against a boolean only truthiness counts: false, 0 and '0' are alike
	 * (they keep their order) and before true; true and 'apple' are alike. */
	assert_order("[{id: a, v: true}, {id: c, v: false}, {id: d, v: 0}]", "v", "c,d,a");
	assert_order("[{id: a, v: apple}, {id: b, v: false}]", "v", "b,a");
	assert_order("[{id: a, v: true}, {id: b, v: apple}]", "v", "a,b");
	assert_order("[{id: b, v: apple}, {id: a, v: true}]", "v", "b,a");
}

static void test_several_keys_nested_and_stable(void)
{
	const char *items = "[{id: a, g: 1, seo: {t: b}}, {id: b, g: 2, seo: {t: a}}, "
	                    "{id: c, g: 1, seo: {t: a}}, {id: d, g: 2, seo: {t: a}}]";
	assert_order(items, "g,seo->t", "c,a,b,d");
	assert_order(items, "-g,-seo->t", "b,d,a,c");
	assert_order(items, "missing", "a,b,c,d"); /* nobody has it: order kept */
	assert_order(items, "seo->t", "b,c,d,a");  /* ties keep their order */
}

/* Items whose value at "v" is values[item]: many ties, some nulls. */
static value_t int_item(void *ctx, uint32_t item, const struct sort_key *key)
{
	(void)key;
	return value_array_get(*(value_t *)ctx, item);
}

/* sort_items_first must give exactly the first items sort_items gives,
 * however the input is ordered (ascending, descending, random, all
 * equal), for every page end. */
static void test_first_items_match_a_full_sort(void)
{
	enum { N = 400 };
	static const char *const orders[] = {"up", "down", "random", "equal"};
	uint32_t seed = 12345;
	for (size_t o = 0; o < 4; o++) {
		struct value_builder b = VALUE_BUILDER_INIT;
		vb_array_begin(&b);
		for (int i = 0; i < N; i++) {
			seed = seed * 1103515245u + 12345u;
			int v = o == 0 ? i / 3 : o == 1 ? (N - i) / 3 : o == 2 ? (int)(seed >> 16) % 37 : 7;
			if (o == 2 && v == 0)
				vb_null(&b);
			else
				vb_int(&b, v);
		}
		vb_array_end(&b);
		value_t list = vb_result(&b);
		for (const char *const *param = (const char *const[]){"v", "-v", NULL}; *param; param++) {
			struct sort_spec spec;
			sort_parse(*param, &spec);
			uint32_t full[N], part[N];
			for (uint32_t i = 0; i < N; i++)
				full[i] = i;
			sort_items(full, N, &spec, int_item, &list);
			static const size_t firsts[] = {1, 2, 10, 25, 49, 50, 51, 399};
			for (size_t f = 0; f < sizeof firsts / sizeof firsts[0]; f++) {
				for (uint32_t i = 0; i < N; i++)
					part[i] = i;
				sort_items_first(part, N, firsts[f], &spec, int_item, &list);
				bool same = memcmp(full, part, firsts[f] * sizeof *part) == 0;
				CU_ASSERT_TRUE(same);
				if (!same)
					fprintf(stderr, "\n%s, sort=%s, first %zu differ\n", orders[o], *param,
					        firsts[f]);
			}
			sort_free(&spec);
		}
		vb_release(&b);
	}
}

/* sort_view_served leaves out the keys whose field is withheld, by the
 * first part of the path, keeping the others in order. */
static void test_view_without_withheld_keys(void)
{
	struct strlist withheld = {NULL, 0};
	strlist_split(&withheld, "secret, rank");
	struct sort_spec spec, view;
	sort_parse("-secret,title,rank->a,-date,title->secret,secretive", &spec);
	sort_view_served(&spec, &withheld, &view);
	CU_ASSERT_EQUAL_FATAL(view.n, 4);
	CU_ASSERT_STRING_EQUAL(view.keys[0].path[0], "title");
	CU_ASSERT_STRING_EQUAL(view.keys[1].path[0], "date");
	CU_ASSERT_TRUE(view.keys[1].descending);
	CU_ASSERT_EQUAL(view.keys[2].npath, 2);
	CU_ASSERT_STRING_EQUAL(view.keys[2].path[1], "secret");
	CU_ASSERT_STRING_EQUAL(view.keys[3].path[0], "secretive");
	sort_view_free(&view);
	sort_free(&spec);
	/* Sorted by a withheld key, each way: the order of the list, as for a
	 * key no item has; other keys still order it. */
	static const char yaml[] = "- {id: a, secret: 2, title: y}\n- {id: b, secret: 3, title: x}\n"
	                           "- {id: c, secret: 1, title: x}\n";
	static const char *const params[] = {"secret", "-secret", "secret->x", "-rank,secret"};
	struct strbuf got = STRBUF_INIT;
	for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
		sorted_ids_withheld(yaml, params[i], "secret, rank", &got);
		CU_ASSERT_STRING_EQUAL(strbuf_str(&got), "a,b,c");
	}
	sorted_ids_withheld(yaml, "-secret,title", "secret", &got);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&got), "b,c,a");
	/* Not withheld, the same keys do order it. */
	sorted_ids_withheld(yaml, "-secret", "rank", &got);
	CU_ASSERT_STRING_EQUAL(strbuf_str(&got), "b,a,c");
	strbuf_release(&got);
	strlist_free(&withheld);
}

void suite_sort(void)
{
	CU_pSuite s = unit_add_suite("sort");
	unit_add_test(s, "parse", test_parse);
	unit_add_test(s, "text and numbers", test_text_and_numbers);
	unit_add_test(s, "nulls, lists, booleans", test_nulls_lists_booleans);
	unit_add_test(s, "lists sort by their first element", test_lists_sort_by_their_first_element);
	unit_add_test(s, "mixed types", test_mixed_types);
	unit_add_test(s, "several keys, nested, stable", test_several_keys_nested_and_stable);
	unit_add_test(s, "a page's first items match a full sort", test_first_items_match_a_full_sort);
	unit_add_test(s, "keys withheld from the answer do not order it",
	              test_view_without_withheld_keys);
}
