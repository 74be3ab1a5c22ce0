/* Unit tests: filter conditions, with the worked examples of
 * statamic-api.md §7.3 (Statamic's QueriesConditionsTest). */
#include "autoconfig.h"

#include <CUnit/CUnit.h>
#include <stdio.h>
#include <string.h>

#include "lib/php.h"
#include "query/filter.h"
#include "site/yaml.h"
#include "unit.h"

/* 2019-03-10 13:00 UTC, the "now" of Statamic's date tests. */
#define NOW 1552222800LL

/* How many items of a YAML list pass filter[key]=value. */
static int count(const char *items_yaml, const char *key, const char *value)
{
	struct value_builder items = VALUE_BUILDER_INIT;
	struct yaml_error yerr;
	CU_ASSERT_EQUAL_FATAL(yaml_parse(items_yaml, strlen(items_yaml), 0, &items, &yerr), 0);
	struct filter f;
	char err[FILTER_ERR_LEN];
	struct regex_budget budget;
	regex_budget_init(&budget, 1000000);
	if (filter_parse(key, value, NOW, &budget, &f, err) != 0) {
		fprintf(stderr, "filter %s: %s\n", key, err);
		vb_release(&items);
		return -1;
	}
	int n = 0;
	struct value_iter it;
	value_iter_init(&it, vb_result(&items));
	while (value_iter_next(&it))
		n += filter_match(&f, filter_field_value(&f, it.value));
	filter_free(&f);
	vb_release(&items);
	return n;
}

static const char *animals = "[{title: Dog}, {title: Cat}, {title: Tiger}]";
static const char *featured =
	"[{title: rat, featured: true}, {title: bat, featured: false}, {title: a}, {title: b}, "
	"{title: c}]";
static const char *stories = "[{title: Dog Stories}, {title: Cat Fables}, {title: Tiger Tales}]";
static const char *ages = "[{age: 11}, {age: '11'}, {age: 21}, {age: '21'}, {age: 24}, {age: '24'}]";

static void test_is_and_not(void)
{
	CU_ASSERT_EQUAL(count(animals, "title:is", "dog"), 1);
	CU_ASSERT_EQUAL(count(animals, "title", "DOG"), 1); /* no condition: is */
	CU_ASSERT_EQUAL(count(animals, "title:equals", "cat"), 1);
	CU_ASSERT_EQUAL(count(featured, "featured:is", "true"), 1);
	CU_ASSERT_EQUAL(count(featured, "featured:is", "false"), 4); /* false = null = '' */
	CU_ASSERT_EQUAL(count(featured, "title:not", "rat"), 4);
	CU_ASSERT_EQUAL(count(featured, "featured:not", "true"), 4);
	CU_ASSERT_EQUAL(count(featured, "featured:isnt", "false"), 4);
	CU_ASSERT_EQUAL(count(featured, "featured:aint", "false"), 4);
	CU_ASSERT_EQUAL(count(featured, "featured:\xc2\xaf\\_(\xe3\x83\x84)_/\xc2\xaf", "false"), 4);
}

static void test_like(void)
{
	CU_ASSERT_EQUAL(count(stories, "title:contains", "sto"), 1);
	CU_ASSERT_EQUAL(count(stories, "title:doesnt_contain", "sto"), 2);
	CU_ASSERT_EQUAL(count(stories, "title:starts_with", "sto"), 0);
	CU_ASSERT_EQUAL(count(stories, "title:starts_with", "dog"), 1);
	CU_ASSERT_EQUAL(count(stories, "title:begins_with", "dog"), 1);
	CU_ASSERT_EQUAL(count(stories, "title:doesnt_start_with", "dog"), 2);
	CU_ASSERT_EQUAL(count(stories, "title:doesnt_begin_with", "dog"), 2);
	CU_ASSERT_EQUAL(count(stories, "title:ends_with", "stories"), 1);
	CU_ASSERT_EQUAL(count(stories, "title:doesnt_end_with", "stories"), 2);
	CU_ASSERT_EQUAL(count(stories, "title:contains", ""), 3);   /* matches everything */
	CU_ASSERT_EQUAL(count(stories, "title:contains", "a.e"), 0); /* '.' is literal */
	CU_ASSERT_EQUAL(count(stories, "title:contains", "f_b"), 1);   /* '_' is any one: "Fab" */
	CU_ASSERT_EQUAL(count(stories, "title:contains", "g_rt"), 0);   /* one character, not two */
	/* Plain text takes a faster road; both roads agree. */
	CU_ASSERT_EQUAL(count(stories, "title:contains", "DOG sto"), 1);
	CU_ASSERT_EQUAL(count(stories, "title:contains", "tales"), 1);
	CU_ASSERT_EQUAL(count("[{t: \"Caf\u00c9 Noir\"}, {t: caf\u00e9}]", "t:contains", "caf\u00e9"), 2);
	CU_ASSERT_EQUAL(count("[{t: [Tag, Other]}, {t: 3}]", "t:contains", "tag"), 1);
	CU_ASSERT_EQUAL(count("[{t: \"line one\\nline two\"}]", "t:contains", "two"), 1);
	/* The plain-text search: a false start, the very end, too long. */
	CU_ASSERT_EQUAL(count("[{t: aaaB}, {t: xaab}, {t: ab}, {t: a}]", "t:contains", "AAB"), 2);
}

static void test_comparisons(void)
{
	CU_ASSERT_EQUAL(count(ages, "age:gt", "18"), 4);
	CU_ASSERT_EQUAL(count(ages, "age:greater_than", "18"), 4);
	CU_ASSERT_EQUAL(count(ages, "age:lt", "18"), 2);
	CU_ASSERT_EQUAL(count(ages, "age:less_than", "18"), 2);
	CU_ASSERT_EQUAL(count(ages, "age:gte", "21"), 4);
	CU_ASSERT_EQUAL(count(ages, "age:greater_than_or_equal_to", "21"), 4);
	CU_ASSERT_EQUAL(count(ages, "age:lte", "21"), 4);
	CU_ASSERT_EQUAL(count(ages, "age:less_than_or_equal_to", "21"), 4);
	/* The contract: a missing or null value never passes gt/gte/lt/lte. */
	CU_ASSERT_EQUAL(count("[{age: 3}, {age: ~}, {}]", "age:lt", "5"), 1);
	CU_ASSERT_EQUAL(count("[{age: 3}, {age: ~}, {}]", "age:gte", "0"), 1);
}

static void test_in_and_not_in(void)
{
	const char *types = "[{type: canine}, {type: canine}, {type: feline}, {type: feline}, "
	                    "{type: feline}, {type: equine}, {}, {type: [canine]}]";
	CU_ASSERT_EQUAL(count(types, "type:in", "canine|feline"), 5);
	CU_ASSERT_EQUAL(count(types, "type:not_in", "canine|feline"), 3); /* incl. the list */
	CU_ASSERT_EQUAL(count(types, "type:in", "Canine"), 0);          /* case-sensitive */
	CU_ASSERT_EQUAL(count("[{f: true}, {f: false}, {f: 'x'}]", "f:in", "true|x"), 2);
}

static void test_regex(void)
{
	const char *titles = "[{title: Dog Stories}, {title: Cat Fables}, {title: Tiger Tales}, "
	                     "{title: Why I Love My Cat}, {title: Paw Poetry}]";
	CU_ASSERT_EQUAL(count(titles, "title:regex", "cat"), 2);
	CU_ASSERT_EQUAL(count(titles, "title:matches", "^cat"), 1);
	CU_ASSERT_EQUAL(count(titles, "title:match", "c.t$"), 1);
	CU_ASSERT_EQUAL(count(titles, "title:regex", "/^cat/i"), 1);
	CU_ASSERT_EQUAL(count(titles, "title:doesnt_match", "cat"), 3);
	struct filter f;
	char err[FILTER_ERR_LEN];
	struct regex_budget budget;
	regex_budget_init(&budget, 1000);
	CU_ASSERT_EQUAL(filter_parse("title:regex", "(unclosed", NOW, &budget, &f, err), -1);
	CU_ASSERT_PTR_NOT_NULL(strstr(err, "Invalid regular expression in filter[title:regex]"));
	/* Catastrophic backtracking gives up instead of hanging. */
	CU_ASSERT_EQUAL(count("[{t: aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab}]", "t:regex",
	                      "^(a+)+$"), 0);
}

static void test_empty_and_exists(void)
{
	const char *subs = "[{s: Has sub-title}, {s: ''}, {s: ~}, {}]";
	CU_ASSERT_EQUAL(count(subs, "s:is_empty", "true"), 3);
	CU_ASSERT_EQUAL(count(subs, "s:is_empty", "false"), 1);
	CU_ASSERT_EQUAL(count(subs, "s:is_blank", "true"), 3);
	CU_ASSERT_EQUAL(count(subs, "s:doesnt_exist", "true"), 3);
	CU_ASSERT_EQUAL(count(subs, "s:not_set", "true"), 3);
	CU_ASSERT_EQUAL(count(subs, "s:isnt_set", "true"), 3);
	CU_ASSERT_EQUAL(count(subs, "s:null", "true"), 3);
	CU_ASSERT_EQUAL(count(subs, "s:exists", "true"), 1);
	CU_ASSERT_EQUAL(count(subs, "s:isset", "true"), 1);
	CU_ASSERT_EQUAL(count(subs, "s:exists", "false"), 3);
}

/* false is both empty and set: "= null" is Statamic's loose equals test,
 * "!= null" its not-equals test, strict for anything but strings. */
static void test_false_is_empty_and_set(void)
{
	const char *flags = "[{flag: true}, {flag: false}, {flag: ~}, {}]";
	CU_ASSERT_EQUAL(count(flags, "flag:exists", "true"), 2);    /* true, false */
	CU_ASSERT_EQUAL(count(flags, "flag:is_empty", "false"), 2); /* true, false */
	CU_ASSERT_EQUAL(count(flags, "flag:is_empty", "true"), 3);  /* false, null, missing */
	CU_ASSERT_EQUAL(count(flags, "flag:exists", "false"), 3);   /* false, null, missing */
	/* 0 and lists (even empty ones) are set and not empty; '' is empty. */
	const char *others = "[{v: 0}, {v: []}, {v: [a]}, {v: ''}, {v: '0'}]";
	CU_ASSERT_EQUAL(count(others, "v:exists", "true"), 4);
	CU_ASSERT_EQUAL(count(others, "v:is_empty", "true"), 1);
}

/* Against a boolean, PHP compares booleans; numbers and numeric strings
 * compare numerically; a numeric string is what PHP's is_numeric says. */
static void test_comparisons_of_mixed_types(void)
{
	const char *mixed = "[{v: true}, {v: false}, {v: 5}, {v: '5'}, {v: ' 7'}, {v: '0x10'}, {v: apple}]";
	CU_ASSERT_EQUAL(count(mixed, "v:gt", "false"), 6); /* every truthy one */
	CU_ASSERT_EQUAL(count(mixed, "v:lt", "true"), 1);  /* false */
	/* true (as booleans: equal), 5, '5', ' 7' (numeric), and 'apple' (as
	 * text, 'apple' > '5'); not '0x10' ('0' < '5'), not false. */
	CU_ASSERT_EQUAL(count(mixed, "v:gte", "5"), 5);
	/* Neither is numeric to PHP: both compare as text with '1'. */
	CU_ASSERT_EQUAL(count("[{v: '0x10'}, {v: 'inf'}]", "v:gt", "1"), 1);
	CU_ASSERT_EQUAL(count("[{v: 2.5}, {v: '2.50'}]", "v:is", "2.5"), 1); /* (string) 2.50 is '2.50' */
}

static void test_is_checks(void)
{
	const char *alpha = "[{t: Post}, {t: Post Two}, {t: \"It's a post\"}, {t: Post1}, {t: Post 2}]";
	CU_ASSERT_EQUAL(count(alpha, "t:is_alpha", "true"), 1);
	CU_ASSERT_EQUAL(count(alpha, "t:is_alpha", "false"), 4);
	CU_ASSERT_EQUAL(count(alpha, "t:is_alpha_numeric", "true"), 2);
	const char *numbers = "[{t: Post}, {t: Post Two}, {t: \"It's a post\"}, {t: '1.2.3'}, "
	                      "{t: '1 2'}, {t: '1'}, {t: '1.2'}, {t: '.2'}]";
	CU_ASSERT_EQUAL(count(numbers, "t:is_numeric", "true"), 3);
	const char *urls = "[{u: 'https://example.com'}, {u: 'http://a.b/c'}, {u: 'ftp://x'}, "
	                   "{u: 'https://has space'}, {u: 'example.com'}]";
	CU_ASSERT_EQUAL(count(urls, "u:is_url", "true"), 2);
	const char *embeds = "[{u: 'https://youtube.com/watch?v=1'}, {u: 'https://vimeo.com/1'}, "
	                     "{u: 'https://example.com/x'}]";
	CU_ASSERT_EQUAL(count(embeds, "u:is_embeddable", "true"), 2);
	const char *emails = "[{e: 'a@b.co'}, {e: 'x@y.z'}, {e: 'nope'}, {e: 'a@b'}]";
	CU_ASSERT_EQUAL(count(emails, "e:is_email", "true"), 2);
	CU_ASSERT_EQUAL(count("[{age: 22}, {age: 57}, {age: 2.3}]", "age:is_numberwang", "true"), 2);
}

static void test_dates(void)
{
	const char *dates = "[{date: '2019-03-09'}, {date: '2019-03-10 00:00'}, "
	                    "{date: '2019-03-10 12:59'}, {date: '2019-03-10 13:00'}, "
	                    "{date: '2019-03-10 13:01'}, {date: '2019-03-11'}]";
	CU_ASSERT_EQUAL(count(dates, "date:is_before", "true"), 3);
	CU_ASSERT_EQUAL(count(dates, "date:is_past", "true"), 3);
	CU_ASSERT_EQUAL(count(dates, "date:is_before", "today"), 1);
	CU_ASSERT_EQUAL(count(dates, "date:is_before", "false"), 2);
	CU_ASSERT_EQUAL(count(dates, "date:is_after", "true"), 2);
	CU_ASSERT_EQUAL(count(dates, "date:is_future", "true"), 2);
	CU_ASSERT_EQUAL(count(dates, "date:is_after", "today"), 4);
	CU_ASSERT_EQUAL(count(dates, "date:is_after", "false"), 3);
	CU_ASSERT_EQUAL(count(dates, "date:is_after", "2019-03-10"), 4);
	/* Delivered ISO dates and timestamps compare too. */
	CU_ASSERT_EQUAL(count("[{d: '2019-03-11T00:00:00.000000Z'}, {d: 1552176000}]", "d:is_after",
	                      "true"), 1);
}

static void test_overlaps(void)
{
	const char *ages_lists = "[{a: [22, 52, 72]}, {a: [57, 72]}, {a: [2, 31, 22]}, {}]";
	CU_ASSERT_EQUAL(count(ages_lists, "a:overlaps", "72"), 2);
	CU_ASSERT_EQUAL(count(ages_lists, "a:overlaps", "31"), 1);
	CU_ASSERT_EQUAL(count(ages_lists, "a:overlaps", "31|57"), 2);
	CU_ASSERT_EQUAL(count(ages_lists, "a:doesnt_overlap", "72"), 2); /* null passes */
}

static void test_nested_fields_and_unknown_conditions(void)
{
	CU_ASSERT_EQUAL(count("[{seo: {title: Hi}}, {seo: {title: Yo}}, {}]", "seo.title:is", "hi"), 1);
	struct filter f;
	char err[FILTER_ERR_LEN];
	struct regex_budget budget;
	regex_budget_init(&budget, 1000);
	CU_ASSERT_EQUAL(filter_parse("title:bogus", "x", NOW, &budget, &f, err), -1);
	CU_ASSERT_STRING_EQUAL(err, "Unknown filter condition [bogus] in filter[title:bogus]");
	/* Anything after a second colon is ignored, as Statamic does. */
	CU_ASSERT_EQUAL(count(animals, "title:is:whatever", "dog"), 1);
}

/* PHP's (int) of a number too big for an int: INF is 0, the rest wraps;
 * never C's undefined cast (the query fuzzer found 1e999). */
static void test_huge_numbers(void)
{
	CU_ASSERT_EQUAL(count("[{n: 0}, {n: 1}]", "n:is", "1e999"), 1);
	CU_ASSERT_EQUAL(count("[{n: 0}, {n: 1}]", "n:is", "-1e999"), 1);
}

/* --- plain text, searched without the regex engine --- */

static unsigned long long seed = 0x2545f4914f6cdd1dULL;

static unsigned random_below(unsigned bound)
{
	seed ^= seed << 13;
	seed ^= seed >> 7;
	seed ^= seed << 17;
	return (unsigned)(seed % bound);
}

/* Bytes next to the letters' ranges ('@', '[', '`', '{'), high bytes and a
 * NUL, so that a search that folds case by bit tricks is caught out. */
static const char text_bytes[] = "aAbBxXzZ@[`{ 09-\xc3\xa9\x80\xff" "\0";

static char lower_ascii(char c)
{
	return c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
}

/* The reference: needle (lowercase) in text, A-Z compared without case. */
static bool naive_contains(const char *text, size_t len, const char *needle, size_t n)
{
	for (size_t i = 0; i + n <= len; i++) {
		size_t j = 0;
		while (j < n && lower_ascii(text[i + j]) == needle[j])
			j++;
		if (j == n)
			return true;
	}
	return false;
}

static void random_text(char *out, size_t len, const char *alphabet, size_t nalphabet)
{
	for (size_t i = 0; i < len; i++)
		out[i] = alphabet[random_below((unsigned)nalphabet)];
}

static struct filter parse_ok(const char *key, const char *value, struct regex_budget *budget)
{
	struct filter f;
	char err[FILTER_ERR_LEN];
	CU_ASSERT_EQUAL(filter_parse(key, value, NOW, budget, &f, err), 0);
	return f;
}

static void test_plain_contains_anywhere(void)
{
	/* Needles with no k or s (those fold from non-ASCII signs) and no
	 * wildcard: the plain search, not the regex. */
	static const char needle_bytes[] = "abxzAX@[`{ 09-";
	struct regex_budget budget;
	regex_budget_init(&budget, 1000000);
	for (int round = 0; round < 20000; round++) {
		char text[48], needle[6], lowered[6];
		size_t len = random_below(sizeof text), n = 1 + random_below(3);
		random_text(text, len, text_bytes, sizeof text_bytes - 1);
		random_text(needle, n, needle_bytes, sizeof needle_bytes - 1);
		needle[n] = '\0';
		for (size_t i = 0; i <= n; i++)
			lowered[i] = lower_ascii(needle[i]);
		struct filter f = parse_ok("t:contains", needle, &budget);
		CU_ASSERT_FALSE(filter_uses_regex(&f));
		struct value_builder v = VALUE_BUILDER_INIT;
		vb_str(&v, text, len);
		bool want = naive_contains(text, len, lowered, n);
		if (filter_match(&f, vb_result(&v)) != want) {
			CU_FAIL("contains differs from the reference");
			fprintf(stderr, "needle \"%s\" in %zu bytes: want %d\n", needle, len, want);
		}
		vb_release(&v);
		filter_free(&f);
	}
	/* k and s too (test_contains_k_and_s): the search, and the regex only
	 * where a text holds a sign that folds to one of them. */
	struct filter re = parse_ok("t:contains", "desk", &budget);
	CU_ASSERT_FALSE(filter_uses_regex(&re));
	filter_free(&re);
	re = parse_ok("t:contains", "50%", &budget);
	CU_ASSERT_TRUE(filter_uses_regex(&re)); /* a wildcard: the regex */
	filter_free(&re);
}

/* Pieces of text for k and s: both cases, the two signs that fold to them
 * (U+212A KELVIN SIGN, U+017F LONG S), another two-byte letter and a line
 * break. (Valid UTF-8 only: the regex matches no invalid text, where a
 * plain search goes by the bytes, with or without a k.) */
static const char *const fold_pieces[] = {
	"k", "K", "s", "S", "a", "e", " ", "\xe2\x84\xaa", "\xc5\xbf", "\xc3\xa9", "\n",
};

static size_t random_fold_text(char *out, size_t pieces)
{
	size_t len = 0;
	for (size_t i = 0; i < pieces; i++) {
		const char *p = fold_pieces[random_below(sizeof fold_pieces / sizeof fold_pieces[0])];
		memcpy(out + len, p, strlen(p));
		len += strlen(p);
	}
	return len;
}

/* filter_match and filter_match_lowered of texts (from fold_pieces) for a
 * contains or doesnt_contain of needle: what the regex says of the same
 * needle (a regex condition of the needle's letters is a caseless search
 * for them, as contains is), with the signs folded as PCRE2 folds them. */
static void check_folds(const char *key, const char *needle, bool negate,
                        struct regex_budget *budget)
{
	enum { NTEXTS = 24 };
	char texts[NTEXTS][8 * 3];
	size_t lens[NTEXTS];
	uint32_t ends[NTEXTS];
	struct strbuf block = STRBUF_INIT;
	struct filter f = parse_ok(key, needle, budget);
	struct filter ref = parse_ok("t:regex", needle, budget);
	CU_ASSERT_FALSE(filter_uses_regex(&f));
	for (size_t i = 0; i < NTEXTS; i++) {
		lens[i] = random_fold_text(texts[i], random_below(9));
		strbuf_add(&block, texts[i], lens[i]);
		ends[i] = (uint32_t)block.len;
		struct value_builder v = VALUE_BUILDER_INIT;
		vb_str(&v, texts[i], lens[i]);
		bool want = filter_match(&ref, vb_result(&v)) != negate;
		if (filter_match(&f, vb_result(&v)) != want) {
			CU_FAIL("contains of k or s differs from the regex");
			fprintf(stderr, "%s=%s in \"%.*s\": want %d\n", key, needle, (int)lens[i], texts[i], want);
		}
		vb_release(&v);
	}
	for (size_t i = 0; i < block.len; i++)
		block.ptr[i] = lower_ascii(block.ptr[i]);
	size_t from = random_below(NTEXTS), to = from + random_below(NTEXTS - (unsigned)from + 1);
	unsigned char pass[NTEXTS];
	CU_ASSERT_TRUE_FATAL(filter_match_lowered(&f, block.ptr ? block.ptr : "", ends, from, to, pass));
	for (size_t i = from; i < to; i++) {
		struct value_builder v = VALUE_BUILDER_INIT;
		vb_str(&v, texts[i], lens[i]);
		CU_ASSERT_EQUAL(pass[i - from], filter_match(&f, vb_result(&v)));
		vb_release(&v);
	}
	filter_free(&f);
	filter_free(&ref);
	strbuf_release(&block);
}

static void test_contains_k_and_s(void)
{
	static const char *const needles[] = {"k", "s", "S", "sk", "Ks", "ks", "a k", "es", "kK"};
	struct regex_budget budget;
	regex_budget_init(&budget, 0);
	for (int round = 0; round < 2000; round++) {
		const char *needle = needles[random_below(sizeof needles / sizeof needles[0])];
		check_folds("t:contains", needle, false, &budget);
		check_folds("t:doesnt_contain", needle, true, &budget);
	}
	CU_ASSERT_FALSE(budget.spent);
	/* The signs themselves: the Kelvin sign is a k, the long s an s. */
	const char *titles = "[{t: \"\u212Ait\"}, {t: \"de\u017Fk\"}, {t: desk}, {t: \"\u212A\u017F\"}, {t: dex}]";
	CU_ASSERT_EQUAL(count(titles, "t:contains", "kit"), 1);
	CU_ASSERT_EQUAL(count(titles, "t:contains", "desk"), 2);
	CU_ASSERT_EQUAL(count(titles, "t:contains", "KS"), 1);
	CU_ASSERT_EQUAL(count(titles, "t:doesnt_contain", "s"), 2);
}

/* filter_match_lowered says of each text what filter_match says of it. */
static void check_lowered(const char *key, const char *value, struct regex_budget *budget)
{
	enum { NTEXTS = 40 };
	struct value_builder texts[NTEXTS];
	struct strbuf block = STRBUF_INIT;
	uint32_t ends[NTEXTS];
	for (size_t i = 0; i < NTEXTS; i++) {
		char text[12];
		size_t len = random_below(sizeof text);
		random_text(text, len, text_bytes, sizeof text_bytes - 1);
		texts[i] = (struct value_builder)VALUE_BUILDER_INIT;
		if (random_below(8) == 0)
			vb_int(&texts[i], (int64_t)random_below(1000) - 500); /* as PHP prints it */
		else
			vb_str(&texts[i], text, len);
		php_string(vb_result(&texts[i]), &block);
		ends[i] = (uint32_t)block.len;
	}
	for (size_t i = 0; i < block.len; i++)
		block.ptr[i] = lower_ascii(block.ptr[i]);
	struct filter f = parse_ok(key, value, budget);
	size_t from = random_below(NTEXTS), to = from + random_below(NTEXTS - (unsigned)from + 1);
	unsigned char pass[NTEXTS];
	CU_ASSERT_TRUE_FATAL(filter_match_lowered(&f, block.ptr ? block.ptr : "", ends, from, to, pass));
	for (size_t i = from; i < to; i++)
		CU_ASSERT_EQUAL(pass[i - from], filter_match(&f, vb_result(&texts[i])));
	filter_free(&f);
	for (size_t i = 0; i < NTEXTS; i++)
		vb_release(&texts[i]);
	strbuf_release(&block);
}

static void test_contains_over_many_texts(void)
{
	struct regex_budget budget;
	regex_budget_init(&budget, 1000000);
	static const char *const needles[] = {"a", "ab", "Xz", "@", "a a", "-1", "0", "", "{`"};
	for (int round = 0; round < 300; round++) {
		const char *needle = needles[random_below(sizeof needles / sizeof needles[0])];
		check_lowered("t:contains", needle, &budget);
		check_lowered("t:doesnt_contain", needle, &budget);
	}
	/* Any other filter is not one of plain text. */
	unsigned char pass[1];
	uint32_t ends[1] = {1};
	struct filter f = parse_ok("t:starts_with", "a", &budget);
	CU_ASSERT_FALSE(filter_match_lowered(&f, "a", ends, 0, 1, pass));
	filter_free(&f);
	f = parse_ok("t:contains", "a%b", &budget);
	CU_ASSERT_FALSE(filter_match_lowered(&f, "a", ends, 0, 1, pass));
	filter_free(&f);
}

void suite_filter(void)
{
	CU_pSuite s = unit_add_suite("filter conditions");
	unit_add_test(s, "is and not (and aliases)", test_is_and_not);
	unit_add_test(s, "like conditions", test_like);
	unit_add_test(s, "comparisons", test_comparisons);
	unit_add_test(s, "in and not_in", test_in_and_not_in);
	unit_add_test(s, "regex", test_regex);
	unit_add_test(s, "empty and exists", test_empty_and_exists);
	unit_add_test(s, "false is empty and set", test_false_is_empty_and_set);
	unit_add_test(s, "comparisons of mixed types", test_comparisons_of_mixed_types);
	unit_add_test(s, "is_* checks", test_is_checks);
	unit_add_test(s, "dates", test_dates);
	unit_add_test(s, "overlaps", test_overlaps);
	unit_add_test(s, "nested fields, unknown conditions", test_nested_fields_and_unknown_conditions);
	unit_add_test(s, "huge numbers", test_huge_numbers);
	unit_add_test(s, "plain contains, anywhere", test_plain_contains_anywhere);
	unit_add_test(s, "contains over many texts at once", test_contains_over_many_texts);
	unit_add_test(s, "contains of k and s, and the signs that fold to them", test_contains_k_and_s);
}
