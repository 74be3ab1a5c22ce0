/* jsonr: JSON text into packed values; see jsonr.h. */
#include "autoconfig.h"

#include "lib/jsonr.h"

#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lib/strbuf.h"

struct reader {
	const char *p, *start, *end;
	struct value_builder *out;
	char *err;
	int depth;
};

static int fail(struct reader *r, const char *what)
{
	snprintf(r->err, JSONR_ERR_LEN, "%s at byte %zu", what, (size_t)(r->p - r->start));
	return -1;
}

static void skip_space(struct reader *r)
{
	while (r->p < r->end && (*r->p == ' ' || *r->p == '\t' || *r->p == '\n' || *r->p == '\r'))
		r->p++;
}

static bool take(struct reader *r, const char *word)
{
	size_t n = strlen(word);
	if ((size_t)(r->end - r->p) < n || memcmp(r->p, word, n) != 0)
		return false;
	r->p += n;
	return true;
}

static int hex4(struct reader *r, unsigned *out)
{
	if (r->end - r->p < 4)
		return fail(r, "a short \\u escape");
	unsigned v = 0;
	for (int i = 0; i < 4; i++) {
		char c = *r->p++;
		v <<= 4;
		if (c >= '0' && c <= '9')
			v |= (unsigned)(c - '0');
		else if (c >= 'a' && c <= 'f')
			v |= (unsigned)(c - 'a' + 10);
		else if (c >= 'A' && c <= 'F')
			v |= (unsigned)(c - 'A' + 10);
		else
			return fail(r, "a bad \\u escape");
	}
	*out = v;
	return 0;
}

static void add_utf8(struct strbuf *s, unsigned cp)
{
	if (cp < 0x80) {
		strbuf_addch(s, (char)cp);
	} else if (cp < 0x800) {
		strbuf_addch(s, (char)(0xC0 | (cp >> 6)));
		strbuf_addch(s, (char)(0x80 | (cp & 0x3F)));
	} else if (cp < 0x10000) {
		strbuf_addch(s, (char)(0xE0 | (cp >> 12)));
		strbuf_addch(s, (char)(0x80 | ((cp >> 6) & 0x3F)));
		strbuf_addch(s, (char)(0x80 | (cp & 0x3F)));
	} else {
		strbuf_addch(s, (char)(0xF0 | (cp >> 18)));
		strbuf_addch(s, (char)(0x80 | ((cp >> 12) & 0x3F)));
		strbuf_addch(s, (char)(0x80 | ((cp >> 6) & 0x3F)));
		strbuf_addch(s, (char)(0x80 | (cp & 0x3F)));
	}
}

/* A \uXXXX escape (the "\u" read), with its low surrogate if it has one. */
static int unicode_escape(struct reader *r, struct strbuf *s)
{
	unsigned cp, low;
	if (hex4(r, &cp) != 0)
		return -1;
	if (cp >= 0xD800 && cp < 0xDC00 && r->end - r->p >= 6 && r->p[0] == '\\' &&
	    r->p[1] == 'u') {
		const char *back = r->p;
		r->p += 2;
		if (hex4(r, &low) != 0)
			return -1;
		if (low >= 0xDC00 && low < 0xE000) {
			add_utf8(s, 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00));
			return 0;
		}
		r->p = back; /* not its pair: that escape stands alone */
	}
	add_utf8(s, cp >= 0xD800 && cp < 0xE000 ? 0xFFFD : cp);
	return 0;
}

static int escape(struct reader *r, struct strbuf *s)
{
	if (r->p >= r->end)
		return fail(r, "an unfinished escape");
	char c = *r->p++;
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *at = strchr(from, c);
	if (c && at) {
		strbuf_addch(s, to[at - from]);
		return 0;
	}
	if (c == 'u')
		return unicode_escape(r, s);
	return fail(r, "an unknown escape");
}

/* A string (the opening quote read) into s. */
static int string(struct reader *r, struct strbuf *s)
{
	while (r->p < r->end) {
		unsigned char c = (unsigned char)*r->p++;
		if (c == '"')
			return 0;
		if (c < 0x20)
			return fail(r, "a control character in a string");
		if (c == '\\') {
			if (escape(r, s) != 0)
				return -1;
		} else {
			strbuf_addch(s, (char)c);
		}
	}
	return fail(r, "an unfinished string");
}

static int number(struct reader *r)
{
	const char *s = r->p;
	if (r->p < r->end && *r->p == '-')
		r->p++;
	if (r->p >= r->end || *r->p < '0' || *r->p > '9')
		return fail(r, "a bad number");
	if (*r->p == '0')
		r->p++;
	else
		while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
			r->p++;
	bool integral = true;
	if (r->p < r->end && *r->p == '.') {
		integral = false;
		r->p++;
		if (r->p >= r->end || *r->p < '0' || *r->p > '9')
			return fail(r, "a bad number");
		while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
			r->p++;
	}
	if (r->p < r->end && (*r->p == 'e' || *r->p == 'E')) {
		integral = false;
		r->p++;
		if (r->p < r->end && (*r->p == '+' || *r->p == '-'))
			r->p++;
		if (r->p >= r->end || *r->p < '0' || *r->p > '9')
			return fail(r, "a bad number");
		while (r->p < r->end && *r->p >= '0' && *r->p <= '9')
			r->p++;
	}
	char *text = xstrndup(s, (size_t)(r->p - s));
	errno = 0;
	long long v = integral ? strtoll(text, NULL, 10) : 0;
	if (integral && errno == 0)
		vb_int(r->out, v);
	else
		vb_double(r->out, strtod(text, NULL)); /* beyond 64 bits, as PHP reads it */
	free(text);
	return 0;
}

static int value(struct reader *r);

/* Whether the next byte is c; it is then read. */
static bool next_is(struct reader *r, char c)
{
	if (r->p >= r->end || *r->p != c)
		return false;
	r->p++;
	return true;
}

/* The items of an array or an object (the opening bracket read). */
static int container(struct reader *r, bool object)
{
	if (++r->depth >= VALUE_MAX_DEPTH)
		return fail(r, "nesting too deep");
	object ? vb_map_begin(r->out) : vb_array_begin(r->out);
	skip_space(r);
	char close = object ? '}' : ']';
	bool first = true;
	while (!(r->p < r->end && *r->p == close)) {
		if (!first && !next_is(r, ','))
			return fail(r, object ? "a missing ',' or '}'" : "a missing ',' or ']'");
		first = false;
		skip_space(r);
		if (object) {
			struct strbuf key = STRBUF_INIT;
			int rc = next_is(r, '"') ? string(r, &key) : fail(r, "a missing key");
			vb_key(r->out, key.ptr ? key.ptr : "", key.len);
			strbuf_release(&key);
			skip_space(r);
			if (rc != 0 || !next_is(r, ':'))
				return rc != 0 ? rc : fail(r, "a missing ':'");
		}
		if (value(r) != 0)
			return -1;
		skip_space(r);
	}
	r->p++;
	object ? vb_map_end(r->out) : vb_array_end(r->out);
	r->depth--;
	return 0;
}

static int value(struct reader *r)
{
	skip_space(r);
	if (r->p >= r->end)
		return fail(r, "a missing value");
	char c = *r->p;
	if (c == '{' || c == '[') {
		r->p++;
		return container(r, c == '{');
	}
	if (c == '"') {
		struct strbuf s = STRBUF_INIT;
		r->p++;
		int rc = string(r, &s);
		vb_str(r->out, s.ptr ? s.ptr : "", s.len);
		strbuf_release(&s);
		return rc;
	}
	if (take(r, "true"))
		vb_bool(r->out, true);
	else if (take(r, "false"))
		vb_bool(r->out, false);
	else if (take(r, "null"))
		vb_null(r->out);
	else
		return number(r);
	return 0;
}

int jsonr_parse(const char *text, size_t len, struct value_builder *out,
                char err[JSONR_ERR_LEN])
{
	struct reader r = {text, text, text + len, out, err, 0};
	if (value(&r) != 0)
		return -1;
	skip_space(&r);
	if (r.p != r.end)
		return fail(&r, "text after the value");
	if (out->error)
		return fail(&r, "nesting too deep");
	return 0;
}
