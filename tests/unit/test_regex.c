/* Unit tests: filter patterns and the one regex budget of a request. */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "query/filter.h"
#include "query/regex.h"
#include "unit.h"

#define NOW 1552222800LL
#define DEFAULT_BUDGET 500000 /* [api] regex_budget's default */
#define VALUES 3000

/* VALUES generated titles: a pathological run of a's for `hostile`,
 * else words and numbers like a blog's. */
static void make_values(struct value_builder *out, bool hostile)
{
	static const char *const words[] = {"Alpha", "Bravo", "Charlie", "Delta", "Echo"};
	vb_array_begin(out);
	for (int i = 0; i < VALUES; i++) {
		char title[80];
		if (hostile)
			snprintf(title, sizeof title, "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa! %d", i);
		else
			snprintf(title, sizeof title, "%s article number %d", words[i % 5], i);
		vb_strz(out, title);
	}
	vb_array_end(out);
}

/* Matches filter[key]=pattern against every value with budget; returns
 * how many matched, counting how many were tried in *tried. */
static int run(const char *key, const char *pattern, value_t values, struct regex_budget *budget,
               int *tried)
{
	struct filter f;
	char err[FILTER_ERR_LEN];
	CU_ASSERT_EQUAL_FATAL(filter_parse(key, pattern, NOW, budget, &f, err), 0);
	int n = 0;
	*tried = 0;
	struct value_iter it;
	value_iter_init(&it, values);
	while (value_iter_next(&it) && !budget->spent) {
		(*tried)++;
		n += filter_match(&f, it.value);
	}
	filter_free(&f);
	return n;
}

static void test_pathological_patterns_run_out(void)
{
	static const char *const patterns[] = {"(a{1,30}){1,30}$", "(a+)+$", "(a|aa)+$", "(.*a){12}$"};
	struct value_builder values = VALUE_BUILDER_INIT;
	make_values(&values, true);
	for (size_t i = 0; i < sizeof patterns / sizeof patterns[0]; i++) {
		struct regex_budget budget;
		regex_budget_init(&budget, DEFAULT_BUDGET);
		int tried;
		CU_ASSERT_EQUAL(run("title:regex", patterns[i], vb_result(&values), &budget, &tried), 0);
		CU_ASSERT_TRUE(budget.spent);
		CU_ASSERT_EQUAL(budget.left, 0);
		CU_ASSERT_STRING_EQUAL(budget.spent_by, "filter[title:regex]");
		/* It stops long before the end of the list. */
		CU_ASSERT_TRUE(tried < VALUES / 10);
	}
	vb_release(&values);
}

static void test_normal_patterns_stay_within(void)
{
	struct value_builder values = VALUE_BUILDER_INIT;
	make_values(&values, false);
	struct regex_budget budget;
	regex_budget_init(&budget, DEFAULT_BUDGET);
	int tried;
	CU_ASSERT_EQUAL(run("title:regex", "^alpha", vb_result(&values), &budget, &tried), VALUES / 5);
	CU_ASSERT_EQUAL(run("title:regex", "number 1[0-9]*$", vb_result(&values), &budget, &tried),
	                1 + 10 + 100 + 1000);
	CU_ASSERT_EQUAL(run("title:regex", "(bravo|delta) article", vb_result(&values), &budget, &tried),
	                2 * VALUES / 5);
	CU_ASSERT_EQUAL(run("title:contains", "article_number", vb_result(&values), &budget, &tried),
	                VALUES);
	CU_ASSERT_EQUAL(run("title:ends_with", "_99", vb_result(&values), &budget, &tried), 30);
	CU_ASSERT_FALSE(budget.spent);
	CU_ASSERT_STRING_EQUAL(budget.spent_by, "");
	/* The pathological patterns too, over values they cannot hurt. */
	CU_ASSERT_EQUAL(run("title:regex", "(a+)+$", vb_result(&values), &budget, &tried), 0);
	CU_ASSERT_FALSE(budget.spent);
	vb_release(&values);
}

/* Two filters of one request draw on one budget: the second finds it
 * spent, and a negated condition does not turn "ran out" into a match. */
static void test_one_budget_for_every_filter(void)
{
	struct value_builder hostile = VALUE_BUILDER_INIT, plain = VALUE_BUILDER_INIT;
	make_values(&hostile, true);
	make_values(&plain, false);
	struct regex_budget budget;
	regex_budget_init(&budget, DEFAULT_BUDGET);
	int tried;
	run("title:regex", "(a+)+$", vb_result(&hostile), &budget, &tried);
	CU_ASSERT_TRUE(budget.spent);
	CU_ASSERT_EQUAL(run("title:doesnt_match", "zzz", vb_result(&plain), &budget, &tried), 0);
	CU_ASSERT_EQUAL(run("title:is", "Alpha article number 0", vb_result(&plain), &budget, &tried), 0);
	CU_ASSERT_STRING_EQUAL(budget.spent_by, "filter[title:regex]");

	regex_budget_init(&budget, DEFAULT_BUDGET);
	CU_ASSERT_EQUAL(run("title:doesnt_match", "(a+)+$", vb_result(&hostile), &budget, &tried), 0);
	CU_ASSERT_TRUE(budget.spent);
	CU_ASSERT_STRING_EQUAL(budget.spent_by, "filter[title:doesnt_match]");
	vb_release(&hostile);
	vb_release(&plain);
}

/* Steps are counted, not timed: the same work always costs the same,
 * and a budget of exactly that much is enough. */
static void test_steps_are_deterministic(void)
{
	static const char subject[] = "Charlie article number 1234";
	char err[REGEX_ERR_LEN];
	struct regex *re = regex_compile("art.*ber", 8, err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(re);
	struct regex_budget b;
	regex_budget_init(&b, 0);
	CU_ASSERT_EQUAL(b.left, ULLONG_MAX);
	CU_ASSERT_EQUAL(regex_match(re, subject, strlen(subject), &b), REGEX_MATCH);
	unsigned long long cost = ULLONG_MAX - b.left;
	CU_ASSERT_TRUE(cost > 0);
	for (int i = 0; i < 3; i++) {
		regex_budget_init(&b, cost);
		CU_ASSERT_EQUAL(regex_match(re, subject, strlen(subject), &b), REGEX_MATCH);
		CU_ASSERT_EQUAL(b.left, 0);
		CU_ASSERT_FALSE(b.spent);
	}
	regex_budget_init(&b, cost - 1);
	CU_ASSERT_EQUAL(regex_match(re, subject, strlen(subject), &b), REGEX_OVER_BUDGET);
	CU_ASSERT_TRUE(b.spent);
	/* Spent is spent: even a match that would cost nothing fails. */
	CU_ASSERT_EQUAL(regex_match(re, "", 0, &b), REGEX_OVER_BUDGET);
	regex_free(re);
}

/* A long run through the subject costs its length, not one step. */
static void test_long_runs_cost_their_length(void)
{
	char subject[4001];
	memset(subject, 'x', 4000);
	subject[4000] = '\0';
	char err[REGEX_ERR_LEN];
	struct regex *re = regex_compile("[^#]*+[#!]", 10, err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(re);
	struct regex_budget b;
	regex_budget_init(&b, 0);
	CU_ASSERT_EQUAL(regex_match(re, subject, 4000, &b), REGEX_NO_MATCH);
	/* 4000 start positions, each running to the end: n²/2 bytes. */
	CU_ASSERT_TRUE(ULLONG_MAX - b.left >= 4000ULL * 4000 / 2);
	regex_free(re);
}

/* A match deeper than the JIT's stack goes on in the interpreter, with
 * the steps it has spent so far still spent. */
static void test_deep_matches_finish(void)
{
	static char subject[20001];
	for (int i = 0; i < 20000; i++)
		subject[i] = "ab"[i % 2];
	char err[REGEX_ERR_LEN];
	struct regex *re = regex_compile("^(a(b(?1)?)?)$", 14, err);
	CU_ASSERT_PTR_NOT_NULL_FATAL(re);
	struct regex_budget b;
	regex_budget_init(&b, DEFAULT_BUDGET);
	CU_ASSERT_EQUAL(regex_match(re, subject, 20000, &b), REGEX_MATCH);
	CU_ASSERT_FALSE(b.spent);
	/* "...aa" alternates no more: backing out of 10,000 levels, again and
	 * again, costs more than the budget, and says so. */
	subject[19999] = 'a';
	CU_ASSERT_EQUAL(regex_match(re, subject, 20000, &b), REGEX_OVER_BUDGET);
	subject[19999] = 'b';
	regex_budget_init(&b, DEFAULT_BUDGET);
	CU_ASSERT_EQUAL(regex_match(re, subject, 20000, &b), REGEX_MATCH);
	regex_free(re);
}

static void test_bad_pattern_message(void)
{
	char err[REGEX_ERR_LEN];
	CU_ASSERT_PTR_NULL(regex_compile("(a", 2, err));
	CU_ASSERT_STRING_EQUAL(err, "missing closing parenthesis at offset 2");
}

/* Like patterns open at an end '%' keep their meaning over several lines. */
static void test_like_over_lines(void)
{
	struct value_builder v = VALUE_BUILDER_INIT;
	vb_array_begin(&v);
	vb_strz(&v, "first line\nthe middle line\nlast");
	vb_strz(&v, "one line only");
	vb_array_end(&v);
	struct regex_budget budget;
	regex_budget_init(&budget, DEFAULT_BUDGET);
	int tried;
	CU_ASSERT_EQUAL(run("t:contains", "middle_line", vb_result(&v), &budget, &tried), 1);
	CU_ASSERT_EQUAL(run("t:contains", "line%last", vb_result(&v), &budget, &tried), 0);
	CU_ASSERT_EQUAL(run("t:contains", "e%l", vb_result(&v), &budget, &tried), 2);
	CU_ASSERT_EQUAL(run("t:starts_with", "the_", vb_result(&v), &budget, &tried), 1);
	CU_ASSERT_EQUAL(run("t:starts_with", "o%y", vb_result(&v), &budget, &tried), 1);
	CU_ASSERT_EQUAL(run("t:ends_with", "first_line", vb_result(&v), &budget, &tried), 1);
	CU_ASSERT_EQUAL(run("t:ends_with", "%", vb_result(&v), &budget, &tried), 2);
	CU_ASSERT_EQUAL(run("t:doesnt_contain", "ne_on", vb_result(&v), &budget, &tried), 1);
	CU_ASSERT_EQUAL(run("t:contains", "50\\%", vb_result(&v), &budget, &tried), 0);
	CU_ASSERT_FALSE(budget.spent);
	vb_release(&v);
}

void suite_regex(void)
{
	CU_pSuite s = unit_add_suite("regex");
	unit_add_test(s, "pathological patterns run out", test_pathological_patterns_run_out);
	unit_add_test(s, "normal patterns stay within", test_normal_patterns_stay_within);
	unit_add_test(s, "one budget for every filter", test_one_budget_for_every_filter);
	unit_add_test(s, "steps are deterministic", test_steps_are_deterministic);
	unit_add_test(s, "long runs cost their length", test_long_runs_cost_their_length);
	unit_add_test(s, "deep matches finish", test_deep_matches_finish);
	unit_add_test(s, "bad pattern message", test_bad_pattern_message);
	unit_add_test(s, "like over lines", test_like_over_lines);
}
