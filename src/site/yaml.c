/*
 * yaml: YAML text to packed values, typed the way Symfony YAML types them
 * for Statamic (yaml.h, content-format.md §1).
 *
 * libyaml's event stream is read by a small recursive descent that writes
 * straight into the caller's value_builder, so no document tree is built.
 * The builder refuses nesting deeper than VALUE_MAX_DEPTH, which also
 * bounds the recursion here.
 *
 * Anchored nodes are copied aside (into reader.anchored) when they end and
 * an alias appends that copy. They are not referred to in place because an
 * enclosing integer-keyed map is later rewritten as a list, which moves
 * every node inside it. The copies and the expansions share one budget, so
 * a "billion laughs" document fails early instead of eating memory.
 */
#include "autoconfig.h"

#include "site/yaml.h"

#include <math.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <yaml.h>

#include "lib/ascii.h"
#include "lib/hash.h"
#include "lib/strbuf.h"

/* --- scalar typing --- */

static bool is_digit(char c)
{
	return c >= '0' && c <= '9';
}

static bool equals_nocase(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && strncasecmp(s, word, len) == 0;
}

static bool all_digits(const char *s, size_t len)
{
	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!is_digit(s[i]))
			return false;
	return true;
}

static bool is_null_word(const char *s, size_t len)
{
	return len == 0 || (len == 1 && s[0] == '~') || equals_nocase(s, len, "null");
}

/* -?D+ : what Symfony hands to its (int) round-trip test. */
static bool is_decimal_integer(const char *s, size_t len)
{
	bool negative = len > 0 && s[0] == '-';
	return all_digits(s + negative, len - negative);
}

/* A decimal integer whose int64 value prints back as the same text, as
 * PHP's ($s === (string)(int)$s): "0123", "-0" and overflows do not. */
static bool read_round_trip_int(const char *s, size_t len, int64_t *out)
{
	if (!is_decimal_integer(s, len))
		return false;
	bool negative = s[0] == '-';
	const char *d = s + negative;
	size_t n = len - negative;
	if (d[0] == '0' && (n > 1 || negative))
		return false;
	uint64_t limit = negative ? (uint64_t)INT64_MAX + 1 : (uint64_t)INT64_MAX;
	uint64_t v = 0;
	for (size_t i = 0; i < n; i++) {
		unsigned digit = (unsigned)(d[i] - '0');
		if (v > (limit - digit) / 10)
			return false;
		v = v * 10 + digit;
	}
	/* -(v - 1) - 1 reaches INT64_MIN without overflowing. */
	*out = negative ? -(int64_t)(v - 1) - 1 : (int64_t)v;
	return true;
}

/* [+-]?D[D_]* with an underscore: Symfony drops them before anything else. */
static bool is_integer_with_underscores(const char *s, size_t len)
{
	size_t i = len > 0 && (s[0] == '+' || s[0] == '-');
	if (i == len || !is_digit(s[i]) || !memchr(s, '_', len))
		return false;
	for (; i < len; i++)
		if (!is_digit(s[i]) && s[i] != '_')
			return false;
	return true;
}

/* [+-]?D[D_]*(.[D_]+)? : Symfony's last numeric form, a float. */
static bool is_decimal_with_underscores(const char *s, size_t len)
{
	size_t i = len > 0 && (s[0] == '+' || s[0] == '-');
	if (i == len || !is_digit(s[i]))
		return false;
	while (i < len && (is_digit(s[i]) || s[i] == '_'))
		i++;
	if (i == len)
		return true;
	if (s[i] != '.' || i + 1 == len)
		return false;
	for (i++; i < len; i++)
		if (!is_digit(s[i]) && s[i] != '_')
			return false;
	return true;
}

/* PHP's is_numeric(): [+-]? (D+(.D*)? | .D+) ([eE][+-]?D+)? */
static bool is_php_numeric(const char *s, size_t len)
{
	size_t i = len > 0 && (s[0] == '+' || s[0] == '-');
	size_t digits = 0;
	for (; i < len && is_digit(s[i]); i++)
		digits++;
	if (i < len && s[i] == '.')
		for (i++; i < len && is_digit(s[i]); i++)
			digits++;
	if (digits == 0)
		return false;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			i++;
		if (i == len || !is_digit(s[i]))
			return false;
		while (i < len && is_digit(s[i]))
			i++;
	}
	return i == len;
}

/* PHP's (float) of a numeric string, underscores dropped. strtod needs a
 * NUL-terminated copy, and the C locale, which the program never changes. */
static double to_double(const char *s, size_t len)
{
	char *copy = xmalloc(len + 1);
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		if (s[i] != '_')
			copy[n++] = s[i];
	copy[n] = '\0';
	double d = strtod(copy, NULL);
	free(copy);
	return d;
}

/* hexdec()/octdec() of validated digits (underscores skipped): an integer,
 * or a float once it no longer fits, as in PHP. */
static void emit_radix(const char *s, size_t len, unsigned base, bool negative,
                       struct value_builder *out)
{
	uint64_t v = 0;
	double d = 0;
	bool fits = true;
	for (size_t i = 0; i < len; i++) {
		if (s[i] == '_')
			continue;
		unsigned digit = (unsigned)ascii_hex_value(s[i]);
		if (v > ((uint64_t)INT64_MAX - digit) / base)
			fits = false;
		v = v * base + digit;
		d = d * base + digit;
	}
	if (fits)
		vb_int(out, negative ? -(int64_t)v : (int64_t)v);
	else
		vb_double(out, negative ? -d : d);
}

/* [+-]?0o[0-7_]+ */
static bool emit_octal(const char *s, size_t len, struct value_builder *out)
{
	size_t i = len > 0 && (s[0] == '+' || s[0] == '-');
	if (len < i + 3 || s[i] != '0' || s[i + 1] != 'o')
		return false;
	for (size_t j = i + 2; j < len; j++)
		if ((s[j] < '0' || s[j] > '7') && s[j] != '_')
			return false;
	emit_radix(s + i + 2, len - i - 2, 8, s[0] == '-', out);
	return true;
}

/* 0x[0-9a-fA-F_]+ */
static bool emit_hex(const char *s, size_t len, struct value_builder *out)
{
	if (len < 3 || s[0] != '0' || s[1] != 'x')
		return false;
	for (size_t i = 2; i < len; i++)
		if (ascii_hex_value(s[i]) < 0 && s[i] != '_')
			return false;
	emit_radix(s + 2, len - 2, 16, false, out);
	return true;
}

static bool emit_special_float(const char *s, size_t len, struct value_builder *out)
{
	if (equals_nocase(s, len, ".inf"))
		vb_double(out, INFINITY);
	else if (equals_nocase(s, len, "-.inf"))
		vb_double(out, -INFINITY);
	else if (equals_nocase(s, len, ".nan"))
		vb_double(out, NAN);
	else
		return false;
	return true;
}

/* The numeric forms once underscores are settled, in Symfony's order.
 * Returns false when s is none of them. */
static bool emit_numeric_form(const char *s, size_t len, struct value_builder *out)
{
	int64_t i;
	if (read_round_trip_int(s, len, &i))
		vb_int(out, i);
	else if (is_decimal_integer(s, len))
		vb_str(out, s, len); /* "0123", or too large */
	else if (is_php_numeric(s, len) || is_decimal_with_underscores(s, len))
		vb_double(out, to_double(s, len));
	else
		return emit_hex(s, len, out) || emit_special_float(s, len, out);
	return true;
}

/* "1_000" is 1000: Symfony drops an integer's underscores first. */
static bool emit_underscored_integer(const char *s, size_t len, struct value_builder *out)
{
	char *digits = xmalloc(len);
	size_t n = 0;
	for (size_t i = 0; i < len; i++)
		if (s[i] != '_')
			digits[n++] = s[i];
	bool done = emit_numeric_form(digits, n, out);
	free(digits);
	return done;
}

static bool emit_number(const char *s, size_t len, struct value_builder *out)
{
	bool starts_like_number =
		len > 0 && (is_digit(s[0]) || s[0] == '+' || s[0] == '-' || s[0] == '.');
	if (!starts_like_number)
		return false;
	if (is_integer_with_underscores(s, len))
		return emit_underscored_integer(s, len, out);
	return emit_numeric_form(s, len, out);
}

void yaml_type_plain_scalar(const char *s, size_t len, struct value_builder *out)
{
	long long ts;
	if (is_null_word(s, len))
		vb_null(out);
	else if (equals_nocase(s, len, "true") || equals_nocase(s, len, "false"))
		vb_bool(out, len == 4);
	else if (emit_octal(s, len, out) || emit_number(s, len, out))
		return;
	else if (yaml_parse_timestamp(s, len, &ts) == 0)
		vb_int(out, (int64_t)ts);
	else
		vb_str(out, s, len);
}

/* --- timestamps --- */

/*
 * Symfony's timestamp pattern:
 *   YYYY-M?M-D?D ( ([Tt]|[ \t]+) H?H:MM:SS(.D*)? ([ \t]*(Z|[+-]H?H(:MM)?))? )?
 * The fraction is dropped: Unix seconds are whole.
 */
struct cursor {
	const char *s;
	size_t len, pos;
};

struct moment {
	int year, month, day, hour, minute, second;
	int zone; /* seconds east of UTC */
};

static bool at_end(const struct cursor *c)
{
	return c->pos == c->len;
}

static bool accept(struct cursor *c, char ch)
{
	if (at_end(c) || c->s[c->pos] != ch)
		return false;
	c->pos++;
	return true;
}

static bool at_blank(const struct cursor *c)
{
	return !at_end(c) && (c->s[c->pos] == ' ' || c->s[c->pos] == '\t');
}

static void skip_blanks(struct cursor *c)
{
	while (at_blank(c))
		c->pos++;
}

/* Reads min..max digits into *out. */
static bool read_digits(struct cursor *c, int min, int max, int *out)
{
	int n = 0, v = 0;
	while (n < max && !at_end(c) && is_digit(c->s[c->pos])) {
		v = v * 10 + (c->s[c->pos++] - '0');
		n++;
	}
	*out = v;
	return n >= min;
}

static bool read_date(struct cursor *c, struct moment *m)
{
	return read_digits(c, 4, 4, &m->year) && accept(c, '-') &&
	       read_digits(c, 1, 2, &m->month) && accept(c, '-') &&
	       read_digits(c, 1, 2, &m->day);
}

static bool read_zone(struct cursor *c, struct moment *m)
{
	int hours, minutes = 0;
	skip_blanks(c);
	if (accept(c, 'Z'))
		return true;
	int sign = accept(c, '-') ? -1 : accept(c, '+') ? 1 : 0;
	if (sign == 0 || !read_digits(c, 1, 2, &hours))
		return false;
	if (accept(c, ':') && (!read_digits(c, 2, 2, &minutes) || minutes > 59))
		return false;
	m->zone = sign * (hours * 3600 + minutes * 60);
	return true;
}

static bool read_time(struct cursor *c, struct moment *m)
{
	if (!accept(c, 'T') && !accept(c, 't')) {
		if (!at_blank(c))
			return false;
		skip_blanks(c);
	}
	if (!read_digits(c, 1, 2, &m->hour) || !accept(c, ':') ||
	    !read_digits(c, 2, 2, &m->minute) || !accept(c, ':') ||
	    !read_digits(c, 2, 2, &m->second))
		return false;
	if (accept(c, '.'))
		while (!at_end(c) && is_digit(c->s[c->pos]))
			c->pos++;
	return at_end(c) || read_zone(c, m);
}

/* Days from 1970-01-01 to y-m-d in the proleptic Gregorian calendar. */
static int64_t days_from_civil(int64_t y, int64_t m, int64_t d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* Out-of-range fields make PHP's DateTime fail, so such text stays a
 * string. Days past the month's end roll over, as in PHP. */
static bool moment_in_range(const struct moment *m)
{
	return m->month >= 1 && m->month <= 12 && m->day >= 1 && m->day <= 31 &&
	       m->hour <= 24 && m->minute <= 59 && m->second <= 60;
}

int yaml_parse_timestamp(const char *s, size_t len, long long *out)
{
	struct cursor c = {s, len, 0};
	struct moment m = {0};
	if (!read_date(&c, &m) || (!at_end(&c) && !read_time(&c, &m)) || !at_end(&c) ||
	    !moment_in_range(&m))
		return -1;
	int64_t days = days_from_civil(m.year, m.month, 1) + m.day - 1;
	*out = days * 86400 + m.hour * 3600 + m.minute * 60 + m.second - m.zone;
	return 0;
}

/* --- name tables: the keys of one mapping, the anchors of a document --- */

struct name_slot {
	char *name; /* owned; NULL in an empty slot */
	size_t len;
	uint64_t hash;
	size_t value; /* the anchor's index; unused for keys */
};

/* Open addressing; cap is 0 or a power of two, at most half full. */
struct name_table {
	struct name_slot *slots;
	size_t cap, count;
};

/* The slot holding name, or the empty slot where it belongs. */
static struct name_slot *find_slot(const struct name_table *t, const char *name, size_t len,
                                   uint64_t h)
{
	size_t mask = t->cap - 1;
	for (size_t i = h & mask;; i = (i + 1) & mask) {
		struct name_slot *slot = &t->slots[i];
		if (!slot->name ||
		    (slot->hash == h && slot->len == len && memcmp(slot->name, name, len) == 0))
			return slot;
	}
}

static void grow_table(struct name_table *t)
{
	struct name_table bigger = {NULL, t->cap ? t->cap * 2 : 16, t->count};
	bigger.slots = xcalloc(bigger.cap, sizeof *bigger.slots);
	for (size_t i = 0; i < t->cap; i++) {
		struct name_slot *old = &t->slots[i];
		if (old->name)
			*find_slot(&bigger, old->name, old->len, old->hash) = *old;
	}
	free(t->slots);
	*t = bigger;
}

/* The slot for name, added (value 0) when new; *added says which. */
static struct name_slot *put_name(struct name_table *t, const char *name, size_t len, bool *added)
{
	if ((t->count + 1) * 2 > t->cap)
		grow_table(t);
	uint64_t h = hash_fnv1a_bytes(name, len);
	struct name_slot *slot = find_slot(t, name, len, h);
	*added = !slot->name;
	if (*added) {
		*slot = (struct name_slot){xstrndup(name, len), len, h, 0};
		t->count++;
	}
	return slot;
}

static const struct name_slot *get_name(const struct name_table *t, const char *name)
{
	size_t len = strlen(name);
	if (t->cap == 0)
		return NULL;
	const struct name_slot *slot = find_slot(t, name, len, hash_fnv1a_bytes(name, len));
	return slot->name ? slot : NULL;
}

static void free_table(struct name_table *t)
{
	for (size_t i = 0; i < t->cap; i++)
		free(t->slots[i].name);
	free(t->slots);
}

/* --- the event reader --- */

/* An anchored node's packed bytes in reader.anchored. */
struct anchor {
	size_t at, size;
};

struct reader {
	yaml_parser_t parser;
	const char *text; /* the input, to place encoding errors */
	size_t text_len;
	struct value_builder *out;
	size_t out_start;        /* out's length on entry */
	size_t budget;           /* bound on output growth plus anchored copies */
	struct strbuf anchored;  /* copies of anchored nodes */
	struct anchor *anchors;  /* owned */
	size_t nanchors, anchors_cap;
	struct name_table names; /* anchor name to index; a redefinition wins */
	int line_offset;
	struct yaml_error *err;
	bool failed;
};

static void fail(struct reader *r, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Records the first error only: later ones are its consequences. */
static void fail(struct reader *r, int line, const char *fmt, ...)
{
	va_list ap;
	if (r->failed)
		return;
	va_start(ap, fmt);
	vsnprintf(r->err->message, sizeof r->err->message, fmt, ap);
	va_end(ap);
	r->err->line = line > 0 ? line + r->line_offset : 0;
	r->failed = true;
}

static int event_line(const yaml_event_t *ev)
{
	return (int)ev->start_mark.line + 1;
}

/* libyaml leaves the mark unset for encoding errors; count the lines up
 * to the offending byte instead. */
static int line_at_offset(const struct reader *r, size_t offset)
{
	int line = 1;
	for (size_t i = 0; i < offset && i < r->text_len; i++)
		line += r->text[i] == '\n';
	return line;
}

static void fail_from_parser(struct reader *r)
{
	const yaml_parser_t *p = &r->parser;
	int line = p->error == YAML_READER_ERROR ? line_at_offset(r, p->problem_offset)
	                                         : (int)p->problem_mark.line + 1;
	if (!p->problem)
		fail(r, line, "YAML parser error");
	else if (p->context)
		fail(r, line, "%s (%s)", p->problem, p->context);
	else
		fail(r, line, "%s", p->problem);
}

/* The next event, which the caller deletes; false after an error. */
static bool next_event(struct reader *r, yaml_event_t *ev)
{
	if (r->failed)
		return false;
	if (!yaml_parser_parse(&r->parser, ev)) {
		fail_from_parser(r);
		return false;
	}
	return true;
}

static bool within_budget(const struct reader *r, size_t more)
{
	size_t used = r->out->buf.len - r->out_start + r->anchored.len;
	return more <= r->budget && used <= r->budget - more;
}

/* The builder refuses containers past VALUE_MAX_DEPTH; stop there. */
static bool depth_ok(struct reader *r, const yaml_event_t *ev)
{
	if (!r->out->error)
		return true;
	fail(r, event_line(ev), "nesting too deep");
	return false;
}

static void remember_anchor(struct reader *r, const yaml_char_t *name, const void *bytes,
                            size_t size, int line)
{
	bool added;
	if (!within_budget(r, size)) {
		fail(r, line, "alias expansion too large");
		return;
	}
	if (r->nanchors == r->anchors_cap) {
		r->anchors_cap = r->anchors_cap ? r->anchors_cap * 2 : 16;
		r->anchors = xrealloc(r->anchors, r->anchors_cap * sizeof *r->anchors);
	}
	r->anchors[r->nanchors] = (struct anchor){r->anchored.len, size};
	strbuf_add(&r->anchored, bytes, size);
	const char *s = (const char *)name;
	put_name(&r->names, s, strlen(s), &added)->value = r->nanchors++;
}

static void read_alias(struct reader *r, const yaml_event_t *ev)
{
	const char *name = (const char *)ev->data.alias.anchor;
	const struct name_slot *slot = get_name(&r->names, name);
	const struct anchor *a = slot ? &r->anchors[slot->value] : NULL;
	if (!a)
		fail(r, event_line(ev), "unknown alias *%s", name);
	else if (!within_budget(r, a->size))
		fail(r, event_line(ev), "alias expansion too large");
	else
		vb_value(r->out, (value_t){(const unsigned char *)r->anchored.ptr + a->at});
}

static bool is_plain(const yaml_event_t *ev)
{
	return ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && ev->data.scalar.plain_implicit;
}

/* Quoted, block and tagged scalars are strings; only plain ones are typed. */
static void emit_scalar(struct value_builder *out, const yaml_event_t *ev)
{
	const char *s = (const char *)ev->data.scalar.value;
	size_t len = ev->data.scalar.length;
	if (is_plain(ev))
		yaml_type_plain_scalar(s, len, out);
	else
		vb_str(out, s, len);
}

static void read_node(struct reader *r, const yaml_event_t *ev);

/* Reads the next node; false after an error. */
static bool read_value(struct reader *r)
{
	yaml_event_t ev;
	if (!next_event(r, &ev))
		return false;
	read_node(r, &ev);
	yaml_event_delete(&ev);
	return !r->failed;
}

/* Reads the next sequence item; false at the end or after an error. */
static bool read_item(struct reader *r)
{
	yaml_event_t ev;
	if (!next_event(r, &ev))
		return false;
	bool more = ev.type != YAML_SEQUENCE_END_EVENT;
	if (more)
		read_node(r, &ev);
	yaml_event_delete(&ev);
	return more && !r->failed;
}

static void read_sequence(struct reader *r, const yaml_event_t *start)
{
	vb_array_begin(r->out);
	if (!depth_ok(r, start))
		return;
	while (read_item(r))
		;
	vb_array_end(r->out);
}

/* An anchored key may be aliased later as a value, so its value is kept. */
static void remember_key_anchor(struct reader *r, const yaml_event_t *key)
{
	struct value_builder tmp = VALUE_BUILDER_INIT;
	emit_scalar(&tmp, key);
	remember_anchor(r, key->data.scalar.anchor, tmp.buf.ptr, tmp.buf.len, event_line(key));
	vb_release(&tmp);
}

/* Writes one key as written, a null key as "" (what PHP makes of it).
 * *int_keys stays true while every key is a plain canonical integer: "8"
 * and "-2", not "08". */
static void write_key(struct reader *r, const yaml_event_t *ev, struct name_table *keys,
                      bool *int_keys)
{
	if (ev->type != YAML_SCALAR_EVENT) {
		fail(r, event_line(ev), "only scalar mapping keys are supported");
		return;
	}
	const char *key = (const char *)ev->data.scalar.value;
	size_t len = ev->data.scalar.length;
	int64_t unused;
	bool added;
	if (is_plain(ev) && is_null_word(key, len))
		len = 0;
	put_name(keys, key, len, &added);
	if (!added) {
		fail(r, event_line(ev), "duplicate key \"%.*s\"", (int)len, key);
		return;
	}
	*int_keys = *int_keys && is_plain(ev) && read_round_trip_int(key, len, &unused);
	vb_key(r->out, key, len);
	if (ev->data.scalar.anchor)
		remember_key_anchor(r, ev);
}

/* Reads the next key; false at the end of the mapping or after an error. */
static bool read_key(struct reader *r, struct name_table *keys, bool *int_keys)
{
	yaml_event_t ev;
	if (!next_event(r, &ev))
		return false;
	bool more = ev.type != YAML_MAPPING_END_EVENT;
	if (more)
		write_key(r, &ev, keys, int_keys);
	yaml_event_delete(&ev);
	return more && !r->failed;
}

static void read_mapping(struct reader *r, const yaml_event_t *start)
{
	size_t at = r->out->buf.len;
	struct name_table keys = {NULL, 0, 0};
	bool int_keys = true;
	vb_map_begin(r->out);
	if (!depth_ok(r, start))
		return;
	while (read_key(r, &keys, &int_keys) && read_value(r))
		;
	vb_map_end(r->out);
	/* {8: a, 9: b} is how a PHP array writes a list: Statamic iterates
	 * its values in file order. */
	if (!r->failed && int_keys && keys.count > 0)
		vb_map_to_array(r->out, at);
	free_table(&keys);
}

static void read_node(struct reader *r, const yaml_event_t *ev)
{
	size_t start = r->out->buf.len;
	const yaml_char_t *anchor;
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		emit_scalar(r->out, ev);
		anchor = ev->data.scalar.anchor;
		break;
	case YAML_SEQUENCE_START_EVENT:
		read_sequence(r, ev);
		anchor = ev->data.sequence_start.anchor;
		break;
	case YAML_MAPPING_START_EVENT:
		read_mapping(r, ev);
		anchor = ev->data.mapping_start.anchor;
		break;
	case YAML_ALIAS_EVENT:
		read_alias(r, ev);
		return;
	default:
		fail(r, event_line(ev), "unexpected YAML event");
		return;
	}
	if (anchor && !r->failed)
		remember_anchor(r, anchor, r->out->buf.ptr + start, r->out->buf.len - start,
		                event_line(ev));
}

/* "---" alone, or nothing but comments after it: an empty plain scalar. */
static bool is_empty_document(const yaml_event_t *ev)
{
	return ev->type == YAML_SCALAR_EVENT && is_plain(ev) && ev->data.scalar.length == 0 &&
	       !ev->data.scalar.anchor;
}

/* Skips the stream and document starts: the root's event, or the
 * stream's end when there is no document. */
static bool next_root_event(struct reader *r, yaml_event_t *ev)
{
	while (next_event(r, ev)) {
		if (ev->type != YAML_STREAM_START_EVENT && ev->type != YAML_DOCUMENT_START_EVENT)
			return true;
		yaml_event_delete(ev);
	}
	return false;
}

static void read_first_document(struct reader *r)
{
	yaml_event_t ev;
	if (!next_root_event(r, &ev))
		return;
	bool no_document = ev.type == YAML_STREAM_END_EVENT;
	if (no_document || is_empty_document(&ev)) {
		vb_map_begin(r->out);
		vb_map_end(r->out);
	} else {
		read_node(r, &ev);
	}
	yaml_event_delete(&ev);
	/* The document's end and the start of whatever follows: libyaml
	 * reports trailing garbage only there. Later documents are not read. */
	for (int i = 0; i < 2 && !no_document && next_event(r, &ev); i++)
		yaml_event_delete(&ev);
}

/* What a failed parse puts back into the caller's builder. */
struct builder_mark {
	size_t len;
	int depth;
	uint32_t count; /* items of the caller's open container */
	bool error;
};

static struct builder_mark mark_builder(const struct value_builder *b)
{
	return (struct builder_mark){b->buf.len, b->depth,
	                             b->depth > 0 ? b->count[b->depth - 1] : 0, b->error};
}

static void restore_builder(struct value_builder *b, const struct builder_mark *m)
{
	strbuf_truncate(&b->buf, m->len);
	b->depth = m->depth;
	if (m->depth > 0)
		b->count[m->depth - 1] = m->count;
	b->error = m->error;
}

/* max(1 MiB, 64 * input length) */
static size_t expansion_budget(size_t len)
{
	size_t floor = (size_t)1 << 20;
	if (len > SIZE_MAX / 64)
		return SIZE_MAX;
	return len * 64 > floor ? len * 64 : floor;
}

static void free_reader(struct reader *r)
{
	yaml_parser_delete(&r->parser);
	free(r->anchors);
	free_table(&r->names);
	strbuf_release(&r->anchored);
}

int yaml_parse(const char *text, size_t len, int line_offset, struct value_builder *out,
               struct yaml_error *err)
{
	struct builder_mark mark = mark_builder(out);
	struct reader r = {
		.text = text,
		.text_len = len,
		.out = out,
		.out_start = out->buf.len,
		.anchored = STRBUF_INIT,
		.budget = expansion_budget(len),
		.line_offset = line_offset,
		.err = err,
	};
	memset(err, 0, sizeof *err);
	if (!yaml_parser_initialize(&r.parser)) {
		snprintf(err->message, sizeof err->message, "cannot start the YAML parser");
		return -1;
	}
	yaml_parser_set_input_string(&r.parser, (const unsigned char *)text, len);
	read_first_document(&r);
	free_reader(&r);
	if (r.failed) {
		restore_builder(out, &mark);
		return -1;
	}
	return 0;
}
