/* filter: Statamic's filter conditions; see filter.h. */
#include "autoconfig.h"

#include "query/filter.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/ascii.h"
#include "lib/jsonw.h"
#include "lib/php.h"
#include "lib/strbuf.h"
#include "query/regex.h"
#include "site/yaml.h"

/* --- the conditions --- */

enum like_shape { LIKE_CONTAINS, LIKE_STARTS, LIKE_ENDS };

struct condition {
	const char *name;
	enum filter_kind kind;
	bool negate;
	int arg; /* like shape, compare direction, or is_* pattern index, or date direction */
};

static const char *const is_patterns[] = {
	"^[a-z]+$",
	"^[a-z0-9]+$",
	"^[0-9]*(\\.[0-9]+)?$",
	"^(https|http):\\/\\/[^\\ ]+$",
	"^(https|http):\\/\\/[^\\ ]*(youtube|vimeo|youtu.be)[^\\/]*\\/[^\\ ]+$",
	"^[^\\ ]+@[^\\ ]+\\.[^\\ ]+$",
	"^(1|22|7|9|1002|2\\.3|15|109876567|31)$",
};

static const struct condition conditions[] = {
	{"is", FILTER_IS, false, 0},
	{"equals", FILTER_IS, false, 0},
	{"not", FILTER_NOT, false, 0},
	{"isnt", FILTER_NOT, false, 0},
	{"aint", FILTER_NOT, false, 0},
	{"\xc2\xaf\\_(\xe3\x83\x84)_/\xc2\xaf", FILTER_NOT, false, 0},
	{"contains", FILTER_LIKE, false, LIKE_CONTAINS},
	{"doesnt_contain", FILTER_LIKE, true, LIKE_CONTAINS},
	{"starts_with", FILTER_LIKE, false, LIKE_STARTS},
	{"begins_with", FILTER_LIKE, false, LIKE_STARTS},
	{"doesnt_start_with", FILTER_LIKE, true, LIKE_STARTS},
	{"doesnt_begin_with", FILTER_LIKE, true, LIKE_STARTS},
	{"ends_with", FILTER_LIKE, false, LIKE_ENDS},
	{"doesnt_end_with", FILTER_LIKE, true, LIKE_ENDS},
	{"gt", FILTER_COMPARE, false, 2},
	{"greater_than", FILTER_COMPARE, false, 2},
	{"gte", FILTER_COMPARE, false, 1},
	{"greater_than_or_equal_to", FILTER_COMPARE, false, 1},
	{"lt", FILTER_COMPARE, false, -2},
	{"less_than", FILTER_COMPARE, false, -2},
	{"lte", FILTER_COMPARE, false, -1},
	{"less_than_or_equal_to", FILTER_COMPARE, false, -1},
	{"in", FILTER_IN, false, 0},
	{"not_in", FILTER_IN, true, 0},
	{"matches", FILTER_REGEX, false, -1},
	{"match", FILTER_REGEX, false, -1},
	{"regex", FILTER_REGEX, false, -1},
	{"doesnt_match", FILTER_REGEX, true, -1},
	{"is_empty", FILTER_EMPTY, false, 0},
	{"is_blank", FILTER_EMPTY, false, 0},
	{"doesnt_exist", FILTER_EMPTY, false, 0},
	{"not_set", FILTER_EMPTY, false, 0},
	{"isnt_set", FILTER_EMPTY, false, 0},
	{"null", FILTER_EMPTY, false, 0},
	{"exists", FILTER_EMPTY, true, 0},
	{"isset", FILTER_EMPTY, true, 0},
	{"is_alpha", FILTER_REGEX, false, 0},
	{"is_alpha_numeric", FILTER_REGEX, false, 1},
	{"is_numeric", FILTER_REGEX, false, 2},
	{"is_url", FILTER_REGEX, false, 3},
	{"is_embeddable", FILTER_REGEX, false, 4},
	{"is_email", FILTER_REGEX, false, 5},
	{"is_numberwang", FILTER_REGEX, false, 6},
	{"is_after", FILTER_DATE, false, 1},
	{"is_future", FILTER_DATE, false, 1},
	{"is_before", FILTER_DATE, false, 0},
	{"is_past", FILTER_DATE, false, 0},
	{"overlaps", FILTER_OVERLAPS, false, 0},
	{"doesnt_overlap", FILTER_OVERLAPS, true, 0},
};

static const struct condition *find_condition(const char *name)
{
	for (size_t i = 0; i < sizeof conditions / sizeof conditions[0]; i++)
		if (strcmp(conditions[i].name, name) == 0)
			return &conditions[i];
	return NULL;
}

/* --- values --- */

static bool is_numeric(const char *s)
{
	return php_is_numeric(s, strlen(s));
}

/* Statamic's coercion: true/false, numbers (a '.' makes a float, anything
 * else numeric is PHP's (int) of it), an empty value is null; everything
 * else stays text. */
static void coerce(const char *s, struct value_builder *out)
{
	if (!*s)
		vb_null(out);
	else if (strcmp(s, "true") == 0)
		vb_bool(out, true);
	else if (strcmp(s, "false") == 0)
		vb_bool(out, false);
	else if (is_numeric(s) && !strchr(s, '.'))
		vb_int(out, strpbrk(s, "eE") ? value_int_of_double(strtod(s, NULL)) : strtoll(s, NULL, 10));
	else if (is_numeric(s))
		vb_double(out, strtod(s, NULL));
	else
		vb_strz(out, s);
}

static bool is_container(value_t v)
{
	return value_type(v) == VALUE_ARRAY || value_type(v) == VALUE_MAP;
}

static bool equal_ignoring_case(value_t a, value_t b)
{
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	php_string(a, &x);
	php_string(b, &y);
	bool same = x.len == y.len && strncasecmp(strbuf_str(&x), strbuf_str(&y), x.len) == 0;
	strbuf_release(&x);
	strbuf_release(&y);
	return same;
}

static bool equal_as_text(value_t a, value_t b)
{
	struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
	php_string(a, &x);
	php_string(b, &y);
	bool same = strcmp(strbuf_str(&x), strbuf_str(&y)) == 0 && value_is_bool(a) == value_is_bool(b);
	strbuf_release(&x);
	strbuf_release(&y);
	return same;
}

/* PHP's !== : same type and value. */
static bool identical(value_t a, value_t b)
{
	if (value_is_null(a) && value_is_null(b))
		return true;
	return value_equal(a, b);
}

/* --- regular expressions --- */

static struct regex *compile(const char *pattern, size_t len, char err[FILTER_ERR_LEN],
                             const char *key)
{
	char why[REGEX_ERR_LEN];
	struct regex *re = regex_compile(pattern, len, why);
	if (!re)
		snprintf(err, FILTER_ERR_LEN, "Invalid regular expression in filter[%s]: %s", key, why);
	return re;
}

/* A regex compiled the first time it is needed: a contains of plain text
 * asks its regex only of the rare texts with a sign that folds to k or s,
 * and most requests never meet one (compiling for the JIT is a good part
 * of a whole list request otherwise). */
struct lazy_regex {
	char *pattern;           /* owned */
	size_t len;
	struct regex *re;        /* owned; NULL until compiled */
};

/* l's regex, compiled now if it is not yet; NULL if it cannot be (a
 * pattern made from plain text always can). */
static struct regex *lazy_regex_get(struct lazy_regex *l)
{
	char err[REGEX_ERR_LEN];
	if (!l->re)
		l->re = regex_compile(l->pattern, l->len, err);
	return l->re;
}

static void lazy_regex_free(struct lazy_regex *l)
{
	if (!l)
		return;
	regex_free(l->re);
	free(l->pattern);
	free(l);
}

/* Whether re, f's regex, matches text[0..len); one that runs out of
 * budget names f as the filter that did. */
static bool regex_matches_text(const struct filter *f, struct regex *re, const char *text,
                               size_t len)
{
	if (!re)
		return false;
	enum regex_result r = regex_match(re, text, len, f->budget);
	if (r == REGEX_OVER_BUDGET && !f->budget->spent_by[0])
		snprintf(f->budget->spent_by, sizeof f->budget->spent_by, "%s", f->param);
	return r == REGEX_MATCH;
}

static bool regex_matches(const struct filter *f, value_t item)
{
	/* Text is matched in place; anything else as PHP would print it. */
	if (value_type(item) == VALUE_STRING) {
		size_t len;
		const char *s = value_str(item, &len);
		return regex_matches_text(f, f->regex, s, len);
	}
	struct strbuf subject = STRBUF_INIT;
	php_string(item, &subject);
	bool m = regex_matches_text(f, f->regex, strbuf_str(&subject), subject.len);
	strbuf_release(&subject);
	return m;
}

/* Statamic's like: '%' any run, '_' any one character, "\%" and "\_"
 * themselves, everything else literal; anchored. A '%' at either end
 * leaves that end open instead of adding ".*" and the anchor: over
 * multi-line text "^.*x.*$" finds exactly what "x" finds (no '.' crosses
 * a line break), with a fraction of the work. */
static void like_to_regex(const char *like, struct strbuf *out)
{
	const char *p = like;
	bool open_start = *p == '%';
	while (*p == '%')
		p++;
	if (!open_start)
		strbuf_addch(out, '^');
	size_t pending_runs = 0; /* '%'s not yet written: none if they end the pattern */
	for (; *p; p++) {
		if (*p == '%') {
			pending_runs++;
			continue;
		}
		for (; pending_runs > 0; pending_runs--)
			strbuf_addstr(out, ".*");
		if (p[0] == '\\' && (p[1] == '%' || p[1] == '_')) {
			strbuf_addf(out, "\\%c", *++p);
		} else if (*p == '_') {
			strbuf_addch(out, '.');
		} else if (isalnum((unsigned char)*p) || (unsigned char)*p >= 0x80) {
			strbuf_addch(out, *p);
		} else {
			strbuf_addf(out, "\\%c", *p);
		}
	}
	if (pending_runs == 0)
		strbuf_addch(out, '$');
}

/* "/^cat/i" is "^cat": delimiters and modifiers go. */
static void strip_delimiters(const char *s, const char **start, size_t *len)
{
	*start = s;
	*len = strlen(s);
	const char *last = strrchr(s, '/');
	if (s[0] == '/' && last && last != s) {
		*start = s + 1;
		*len = (size_t)(last - s - 1);
	}
}

/* --- dates --- */

static int parse_moment(const char *s, long long now, long long *out)
{
	long long day = now - (now % 86400 + 86400) % 86400;
	if (strcasecmp(s, "now") == 0)
		*out = now;
	else if (strcasecmp(s, "today") == 0)
		*out = day;
	else if (strcasecmp(s, "yesterday") == 0)
		*out = day - 86400;
	else if (strcasecmp(s, "tomorrow") == 0)
		*out = day + 86400;
	else if (yaml_parse_timestamp(s, strlen(s), out) == 0)
		return 0;
	else if (strlen(s) == 16 && s[10] == ' ') {
		char full[24];
		snprintf(full, sizeof full, "%s:00", s);
		return yaml_parse_timestamp(full, strlen(full), out);
	} else
		return -1;
	return 0;
}

/* An item's moment: a Unix timestamp, or a date string (ISO 8601 as the
 * index delivers dates, or Y-m-d[ H:i[:s]]). */
static int item_moment(value_t item, long long *out)
{
	if (value_type(item) == VALUE_INT) {
		*out = value_int(item);
		return 0;
	}
	if (value_type(item) != VALUE_STRING)
		return -1;
	char buf[40];
	snprintf(buf, sizeof buf, "%s", value_str(item, NULL));
	size_t n = strlen(buf);
	if (n == 27 && buf[10] == 'T' && buf[26] == 'Z') { /* .ffffffZ */
		buf[19] = 'Z';
		buf[20] = '\0';
		n = 20;
	}
	return parse_moment(buf, 0, out);
}

/* --- parsing --- */

static void split_path(struct filter *f)
{
	const char *p = f->field;
	while (1) {
		size_t n = strcspn(p, ".");
		f->path = xrealloc(f->path, (f->npath + 1) * sizeof *f->path);
		f->path[f->npath++] = xstrndup(p, n);
		if (!p[n])
			break;
		p += n + 1;
	}
}

/* "a|b|c" as a list; true/false become booleans. */
static void pipe_list(const char *s, struct value_builder *out)
{
	vb_array_begin(out);
	while (1) {
		size_t n = strcspn(s, "|");
		char *part = xstrndup(s, n);
		if (strcmp(part, "true") == 0 || strcmp(part, "false") == 0)
			vb_bool(out, part[0] == 't');
		else
			vb_strz(out, part);
		free(part);
		if (!s[n])
			break;
		s += n + 1;
	}
	vb_array_end(out);
}

/* Text whose like pattern is itself: ASCII, no wildcard, no escape, no
 * line break. */
static bool plain_ascii_text(const char *s)
{
	for (const unsigned char *p = (const unsigned char *)s; *p; p++)
		if (*p >= 0x80 || *p < 0x20 || *p == '%' || *p == '_' || *p == '\\')
			return false;
	return true;
}

/* Of all the ASCII letters, only k and s have a case-insensitive twin
 * beyond ASCII (PCRE2's caseless sets, as PHP's /iu uses them): U+212A
 * KELVIN SIGN and U+017F LATIN SMALL LETTER LONG S. */
static const char *const folding_signs[] = {"\xe2\x84\xaa", "\xc5\xbf"};

static bool has_k_or_s(const char *s)
{
	return strpbrk(s, "kKsS") != NULL;
}

/* Where the next folding_signs[sign] in text[from..end) starts, or end.
 * The lead byte is looked for with memchr, several times faster than
 * memmem over titles that mostly have none. */
static size_t next_sign(const char *text, size_t from, size_t end, size_t sign)
{
	const char *want = folding_signs[sign];
	size_t n = strlen(want);
	while (from < end) {
		const char *p = memchr(text + from, want[0], end - from);
		if (!p)
			break;
		size_t at = (size_t)(p - text);
		if (at + n <= end && memcmp(p, want, n) == 0)
			return at;
		from = at + 1;
	}
	return end;
}

/* Whether text[0..len) holds U+212A or U+017F. */
static bool holds_folding_sign(const char *text, size_t len)
{
	for (size_t i = 0; i < sizeof folding_signs / sizeof folding_signs[0]; i++)
		if (next_sign(text, 0, len, i) < len)
			return true;
	return false;
}

/* A word of 8 bytes read from any address. */
static uint64_t load8(const char *p)
{
	uint64_t w;
	memcpy(&w, p, sizeof w);
	return w;
}

/* Where the first byte of text[from..end) that may start the needle is
 * (end when none): a byte that lowers to first, or now and then one that
 * does not (the caller compares the whole needle there). Eight bytes a
 * step: a letter is either case of itself with bit 0x20 set, and the
 * classic test for a zero byte flags every zero byte and, above one, maybe
 * others, so its lowest flag in memory order is a true one when the
 * machine is little-endian, and a candidate anyway when it is not. */
static size_t next_start(const char *text, size_t from, size_t end, char first)
{
	const uint64_t ones = 0x0101010101010101ull, highs = 0x8080808080808080ull;
	bool letter = first >= 'a' && first <= 'z';
	uint64_t fold = letter ? 0x20 * ones : 0, want = (uint64_t)(unsigned char)first * ones;
	size_t i = from;
	for (; i + 8 <= end; i += 8) {
		uint64_t v = (load8(text + i) | fold) ^ want;
		uint64_t zero = (v - ones) & ~v & highs;
		if (zero) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
			return i + (size_t)__builtin_ctzll(zero) / 8;
#else
			return i + (size_t)__builtin_clzll(zero) / 8;
#endif
		}
	}
	for (; i < end; i++)
		if (ascii_lower(text[i]) == first)
			return i;
	return end;
}

/* Whether the lowercase ASCII needle occurs in text, ASCII letters
 * compared without case (every other byte as it is). A title filter runs
 * this on every entry: glibc's strcasestr costs several times more. */
static bool contains_ascii_nocase(const char *text, size_t len, const char *needle,
                                  size_t needle_len)
{
	if (needle_len == 0)
		return true;
	if (needle_len > len)
		return false;
	size_t last = len - needle_len; /* the last place the needle can start */
	for (size_t i = next_start(text, 0, last + 1, needle[0]); i <= last;
	     i = next_start(text, i + 1, last + 1, needle[0])) {
		size_t j = 0;
		while (j < needle_len && ascii_lower(text[i + j]) == needle[j])
			j++;
		if (j == needle_len)
			return true;
	}
	return false;
}

/* contains of plain text in text[0..len): a case-insensitive search,
 * which is what the anchored ".*text.*" regex comes to, line by line or
 * not; where the needle has a k or an s that the search did not find and
 * the text holds a sign that folds to one, the regex says. */
static bool contains_in(const struct filter *f, const char *text, size_t len)
{
	if (contains_ascii_nocase(text, len, f->needle, f->needle_len))
		return true;
	return f->folds && holds_folding_sign(text, len) &&
	       regex_matches_text(f, lazy_regex_get(f->folds), text, len);
}

static bool contains_text(const struct filter *f, value_t item)
{
	if (value_type(item) != VALUE_STRING) {
		struct strbuf subject = STRBUF_INIT;
		php_string(item, &subject);
		bool found = contains_in(f, strbuf_str(&subject), subject.len);
		strbuf_release(&subject);
		return found;
	}
	size_t len;
	const char *text = value_str(item, &len);
	return contains_in(f, text, len);
}

static int prepare_like(struct filter *f, const struct condition *c, const char *value,
                        const char *key, char err[FILTER_ERR_LEN])
{
	struct strbuf like = STRBUF_INIT, re = STRBUF_INIT;
	php_string(vb_result(&f->value), &like);
	struct strbuf shaped = STRBUF_INIT;
	strbuf_addf(&shaped, "%s%s%s", c->arg == LIKE_STARTS ? "" : "%", strbuf_str(&like),
	            c->arg == LIKE_ENDS ? "" : "%");
	like_to_regex(shaped.ptr, &re);
	if (c->arg == LIKE_CONTAINS && plain_ascii_text(strbuf_str(&like))) {
		/* A plain search; the regex only for a k or an s, and later. */
		f->needle = xstrdup(strbuf_str(&like));
		f->needle_len = strlen(f->needle);
		if (has_k_or_s(f->needle)) {
			f->folds = xcalloc(1, sizeof *f->folds);
			f->folds->pattern = strbuf_detach(&re, &f->folds->len);
		}
		for (char *p = f->needle; *p; p++)
			*p = ascii_lower(*p);
	} else {
		f->regex = compile(re.ptr, re.len, err, key);
	}
	strbuf_release(&like);
	strbuf_release(&re);
	strbuf_release(&shaped);
	(void)value;
	return f->needle || f->regex ? 0 : -1;
}

static int prepare_regex(struct filter *f, const struct condition *c, const char *value,
                         const char *key, char err[FILTER_ERR_LEN])
{
	const char *start;
	size_t len;
	if (c->arg >= 0) {
		/* is_alpha and friends: the value says whether to match or not. */
		f->negate = !(strcmp(value, "true") == 0 || strcmp(value, "1") == 0);
		start = is_patterns[c->arg];
		len = strlen(start);
	} else {
		strip_delimiters(value, &start, &len);
	}
	f->regex = compile(start, len, err, key);
	return f->regex ? 0 : -1;
}

static bool truthy_text(const char *s)
{
	return *s && strcmp(s, "0") != 0 && strcmp(s, "false") != 0;
}

static void prepare_date(struct filter *f, const struct condition *c, const char *value,
                         long long now)
{
	f->after = c->arg == 1;
	f->when = now;
	if (strcmp(value, "false") == 0)
		f->after = !f->after;
	else if (strcmp(value, "true") != 0 && !is_numeric(value) &&
	         parse_moment(value, now, &f->when) != 0)
		f->when = now;
}

int filter_parse(const char *key, const char *value, long long now, struct regex_budget *budget,
                 struct filter *out, char err[FILTER_ERR_LEN])
{
	memset(out, 0, sizeof *out);
	struct strbuf param = STRBUF_INIT;
	strbuf_addf(&param, "filter[%s]", key);
	out->param = strbuf_detach(&param, NULL);
	out->budget = budget;
	const char *colon = strchr(key, ':');
	out->field = colon ? xstrndup(key, (size_t)(colon - key)) : xstrdup(key);
	char *name = colon ? xstrndup(colon + 1, strcspn(colon + 1, ":")) : xstrdup("is");
	split_path(out);
	const struct condition *c = find_condition(name);
	int rc = 0;
	if (!c) {
		snprintf(err, FILTER_ERR_LEN, "Unknown filter condition [%s] in filter[%s]", name, key);
		rc = -1;
		goto done;
	}
	out->kind = c->kind;
	out->negate = c->negate;
	out->value = (struct value_builder)VALUE_BUILDER_INIT;
	switch (c->kind) {
	case FILTER_IN:
	case FILTER_OVERLAPS:
		pipe_list(value, &out->value);
		break;
	case FILTER_LIKE:
		vb_strz(&out->value, value);
		rc = prepare_like(out, c, value, key, err);
		break;
	case FILTER_REGEX:
		rc = prepare_regex(out, c, value, key, err);
		break;
	case FILTER_EMPTY:
		/* negate: the value must be set (exists=true, is_empty=false). */
		out->negate = c->negate == truthy_text(value);
		break;
	case FILTER_DATE:
		prepare_date(out, c, value, now);
		break;
	case FILTER_COMPARE:
		out->compare = c->arg;
		coerce(value, &out->value);
		break;
	default:
		coerce(value, &out->value);
		break;
	}
done:
	free(name);
	if (rc != 0)
		filter_free(out);
	return rc;
}

/* --- matching --- */

/* Statamic's "= null", its equals test: (string) of null, missing, ''
 * and false is '' alike. */
static bool loosely_null(value_t v)
{
	switch (value_type(v)) {
	case VALUE_NULL:
	case VALUE_FALSE:
		return true;
	case VALUE_STRING:
		return value_str(v, NULL)[0] == '\0';
	default:
		return false;
	}
}

/* Statamic's "!= null", its not-equals test: case-folded text for a
 * string, strict !== for anything else, so false, 0 and lists are set. */
static bool strictly_set(value_t v)
{
	if (value_type(v) == VALUE_STRING)
		return value_str(v, NULL)[0] != '\0';
	return !value_is_null(v);
}

static bool compare_matches(const struct filter *f, value_t item)
{
	value_t want = vb_result(&f->value);
	if (value_is_null(item) || value_is_null(want) || is_container(item))
		return false;
	double a, b;
	int cmp;
	if (value_is_bool(item) || value_is_bool(want)) {
		/* PHP compares anything with a boolean as booleans. */
		cmp = (int)php_truthy(item) - (int)php_truthy(want);
	} else if (php_numeric(item, &a) && php_numeric(want, &b)) {
		cmp = (a > b) - (a < b);
	} else {
		struct strbuf x = STRBUF_INIT, y = STRBUF_INIT;
		php_string(item, &x);
		php_string(want, &y);
		cmp = strcmp(strbuf_str(&x), strbuf_str(&y));
		cmp = (cmp > 0) - (cmp < 0);
		strbuf_release(&x);
		strbuf_release(&y);
	}
	switch (f->compare) {
	case 2: return cmp > 0;
	case 1: return cmp >= 0;
	case -1: return cmp <= 0;
	default: return cmp < 0;
	}
}

static bool in_list(value_t list, value_t item)
{
	struct value_iter it;
	value_iter_init(&it, list);
	while (value_iter_next(&it))
		if (equal_as_text(it.value, item))
			return true;
	return false;
}

static bool overlaps(value_t list, value_t item)
{
	if (!is_container(item))
		return in_list(list, item);
	struct value_iter it;
	value_iter_init(&it, item);
	while (value_iter_next(&it))
		if (in_list(list, value_raw(it.value)))
			return true;
	return false;
}

static bool matches(const struct filter *f, value_t item)
{
	value_t want = vb_result(&f->value);
	long long moment;
	switch (f->kind) {
	case FILTER_IS:
		return !is_container(item) && equal_ignoring_case(item, want);
	case FILTER_NOT:
		if (value_type(item) == VALUE_STRING)
			return !equal_ignoring_case(item, want);
		return !identical(item, want);
	case FILTER_LIKE:
		return f->needle ? contains_text(f, item) : regex_matches(f, item);
	case FILTER_REGEX:
		return regex_matches(f, item);
	case FILTER_COMPARE:
		return compare_matches(f, item);
	case FILTER_IN:
		/* not_in lets list values through; in never matches them. */
		return is_container(item) ? f->negate : in_list(want, item);
	case FILTER_EMPTY:
		/* Not one test and its negation: false is both empty and set. */
		return f->negate ? strictly_set(item) : loosely_null(item);
	case FILTER_DATE:
		if (item_moment(item, &moment) != 0)
			return false;
		return f->after ? moment > f->when : moment < f->when;
	case FILTER_OVERLAPS:
		return !value_is_null(item) && overlaps(want, item);
	}
	return false;
}

bool filter_match(const struct filter *f, value_t item)
{
	item = value_raw(item);
	bool m = matches(f, item);
	/* A match cut short says nothing, whichever way the filter reads it. */
	if (f->budget->spent)
		return false;
	if (f->kind == FILTER_DATE || f->kind == FILTER_COMPARE || f->kind == FILTER_EMPTY)
		return m;
	if (f->kind == FILTER_IN)
		return f->negate ? (is_container(item) || !m) : m;
	return f->negate ? !m : m;
}

/*
 * filter_match_lowered's second look, for a needle with a k or an s: the
 * texts of from..to that hold U+212A or U+017F and that the search passed
 * over are asked of the regex. The lowered text does for the original: the
 * regex is caseless, so A-Z lowered changes none of its answers.
 */
static void recheck_folding_signs(const struct filter *f, const char *lowered,
                                  const uint32_t *ends, size_t from, size_t to,
                                  unsigned char *pass)
{
	unsigned char found = !f->negate;
	size_t begin = from > 0 ? ends[from - 1] : 0, end = ends[to - 1];
	for (size_t s = 0; s < sizeof folding_signs / sizeof folding_signs[0]; s++) {
		size_t n = strlen(folding_signs[s]), at = begin, i = from, pos;
		while ((pos = next_sign(lowered, at, end, s)) < end) {
			while (ends[i] <= pos) /* the text the sign starts in */
				i++;
			size_t start = i > 0 ? ends[i - 1] : 0;
			if (pos + n <= ends[i] && pass[i - from] != found &&
			    regex_matches_text(f, lazy_regex_get(f->folds), lowered + start,
			                       ends[i] - start))
				pass[i - from] = found;
			at = pos + n <= ends[i] ? ends[i] : pos + 1;
		}
	}
}

bool filter_match_lowered(const struct filter *f, const char *lowered, const uint32_t *ends,
                          size_t from, size_t to, unsigned char *pass)
{
	if (f->kind != FILTER_LIKE || !f->needle)
		return false;
	/* What contains says of a text: true where the needle occurs. */
	unsigned char found = !f->negate, missed = f->negate;
	memset(pass, f->needle_len == 0 ? found : missed, to - from);
	if (f->needle_len == 0 || from == to)
		return true;
	size_t at = from > 0 ? ends[from - 1] : 0, end = ends[to - 1];
	size_t i = from;
	while (at < end) {
		const char *hit = memmem(lowered + at, end - at, f->needle, f->needle_len);
		if (!hit)
			break;
		size_t pos = (size_t)(hit - lowered);
		while (ends[i] <= pos) /* the text the hit starts in */
			i++;
		if (pos + f->needle_len <= ends[i]) {
			pass[i - from] = found;
			at = ends[i]; /* on to the next text */
		} else {
			at = pos + 1; /* it runs into the next text */
		}
	}
	if (f->folds)
		recheck_folding_signs(f, lowered, ends, from, to, pass);
	return true;
}

bool filter_uses_regex(const struct filter *f)
{
	return f->regex != NULL;
}

value_t filter_field_value(const struct filter *f, value_t map)
{
	value_t v = map;
	for (size_t i = 0; i < f->npath; i++)
		v = value_map_getz(v, f->path[i]);
	return v;
}

/* A reference to an item a relation_reader reads. */
static bool names_item(value_t v)
{
	enum ref_kind kind = value_ref_kind(v);
	return kind == REF_ENTRY || kind == REF_TERM || kind == REF_USER || kind == REF_ASSET;
}

/* Whether any of a relationship field's related items (a list, one
 * reference, or null) passes at path[from..]. */
static bool related_match(const struct filter *f, value_t related, size_t from,
                          const struct relation_reader *rr)
{
	if (value_type(related) != VALUE_ARRAY)
		return filter_match_path(f, related, from, rr);
	if (value_count(related) == 0)
		return filter_match_path(f, VALUE_MISSING, from, rr);
	struct value_iter it;
	value_iter_init(&it, related);
	while (value_iter_next(&it) && !f->budget->spent)
		if (filter_match_path(f, it.value, from, rr))
			return true;
	return false;
}

bool filter_match_path(const struct filter *f, value_t v, size_t from,
                       const struct relation_reader *rr)
{
	if (from >= f->npath)
		return filter_match(f, v);
	switch (value_ref_kind(v)) {
	case REF_FIELD:
		return related_match(f, value_ref_object(v), from, rr);
	case REF_OBJECT: /* a collection, a form, a link: its object is all there is */
		return filter_match_path(f, value_map_getz(rr && rr->object ? rr->object(rr->ctx, v)
		                                              : value_ref_object(v),
		                                           f->path[from]),
		                         from + 1, rr);
	default:
		break;
	}
	if (!names_item(v))
		return filter_match_path(f, value_map_getz(v, f->path[from]), from + 1, rr);
	struct value_builder scratch = VALUE_BUILDER_INIT;
	value_t w = rr ? rr->value(rr->ctx, v, f->path[from], &scratch) : VALUE_MISSING;
	bool m = filter_match_path(f, w, from + 1, rr);
	vb_release(&scratch);
	return m;
}

void filter_free(struct filter *f)
{
	free(f->param);
	free(f->field);
	for (size_t i = 0; i < f->npath; i++)
		free(f->path[i]);
	free(f->path);
	vb_release(&f->value);
	regex_free(f->regex);
	free(f->needle);
	lazy_regex_free(f->folds);
	memset(f, 0, sizeof *f);
}

value_t filter_absolute(const struct jsonw_env *env, value_t v, struct value_builder *scratch)
{
	if (value_type(v) != VALUE_URL)
		return v;
	bool api = value_url_base(v) == URL_API;
	struct strbuf text = STRBUF_INIT;
	strbuf_addf(&text, "%s%s%s", api ? env->api_base : env->site_base, api ? "/" : "",
	            value_str(v, NULL));
	vb_reset(scratch);
	vb_str(scratch, text.ptr, text.len);
	strbuf_release(&text);
	return vb_result(scratch);
}

const char *filter_condition_at(size_t i)
{
	return i < sizeof conditions / sizeof conditions[0] ? conditions[i].name : NULL;
}
