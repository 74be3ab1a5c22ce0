/*
 * yaml: libyaml's event stream to packed values, typed as Symfony YAML
 * types them for Statamic; see yaml.h for the rules.
 *
 * The parser is a small recursive descent over events that writes
 * straight into the caller's value_builder, so no document tree is ever
 * built. Anchored nodes are remembered as byte ranges of that output; an
 * alias is a copy of its range, bounded in total size.
 */
#include "autoconfig.h"

#include "site/yaml.h"

#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#include "strbuf.h"

struct anchor {
	char *name;       /* owned */
	size_t start, end; /* byte range of the node in the output */
};

struct yaml_reader {
	yaml_parser_t parser;
	struct value_builder *out;
	struct anchor *anchors; /* owned */
	size_t nanchors;
	size_t limit;      /* the output may not grow past this */
	size_t start_len;  /* output length at entry, for the error exit */
	int line_offset;
	int depth;
	struct yaml_error *err;
	bool failed;
};

static void fail(struct yaml_reader *r, int line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static void fail(struct yaml_reader *r, int line, const char *fmt, ...)
{
	if (r->failed)
		return;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(r->err->message, sizeof r->err->message, fmt, ap);
	va_end(ap);
	r->err->line = line + r->line_offset;
	r->failed = true;
}

static int event_line(const yaml_event_t *ev)
{
	return (int)ev->start_mark.line + 1;
}

static bool next_event(struct yaml_reader *r, yaml_event_t *ev)
{
	if (r->failed)
		return false;
	if (!yaml_parser_parse(&r->parser, ev)) {
		const char *problem = r->parser.problem ? r->parser.problem : "invalid YAML";
		int line = (int)r->parser.problem_mark.line + 1;
		if (r->parser.context)
			fail(r, line, "%s %s", problem, r->parser.context);
		else
			fail(r, line, "%s", problem);
		return false;
	}
	return true;
}

/* --- scalar typing --- */

static bool all_digits(const char *s, size_t len)
{
	if (len == 0)
		return false;
	for (size_t i = 0; i < len; i++)
		if (!isdigit((unsigned char)s[i]))
			return false;
	return true;
}

static bool equals_nocase(const char *s, size_t len, const char *word)
{
	return strlen(word) == len && strncasecmp(s, word, len) == 0;
}

/* PHP's is_numeric for a trimmed string: [+-]? (d+(.d*)? | .d+) ([eE][+-]?d+)? */
static bool is_php_numeric(const char *s, size_t len)
{
	size_t i = 0, digits = 0;
	if (i < len && (s[i] == '+' || s[i] == '-'))
		i++;
	while (i < len && isdigit((unsigned char)s[i]))
		i++, digits++;
	if (i < len && s[i] == '.') {
		i++;
		while (i < len && isdigit((unsigned char)s[i]))
			i++, digits++;
	}
	if (digits == 0)
		return false;
	if (i < len && (s[i] == 'e' || s[i] == 'E')) {
		i++;
		if (i < len && (s[i] == '+' || s[i] == '-'))
			i++;
		if (i == len || !isdigit((unsigned char)s[i]))
			return false;
		while (i < len && isdigit((unsigned char)s[i]))
			i++;
	}
	return i == len;
}

/* An integer whose decimal form reads back the same ("0123" does not). */
static bool parse_round_trip_int(const char *s, size_t len, int64_t *out)
{
	char buf[32];
	if (len == 0 || len >= sizeof buf)
		return false;
	memcpy(buf, s, len);
	buf[len] = '\0';
	bool negative = buf[0] == '-';
	if (!all_digits(buf + negative, len - negative))
		return false;
	errno = 0;
	long long v = strtoll(buf, NULL, 10);
	if (errno != 0)
		return false;
	char back[32];
	snprintf(back, sizeof back, "%lld", v);
	if (strcmp(back, buf) != 0)
		return false;
	*out = v;
	return true;
}

static bool parse_radix(const char *s, size_t len, const char *prefix, int base, int64_t *out)
{
	size_t plen = strlen(prefix);
	if (len <= plen || strncasecmp(s, prefix, plen) != 0)
		return false;
	uint64_t v = 0;
	for (size_t i = plen; i < len; i++) {
		int d;
		char c = (char)tolower((unsigned char)s[i]);
		if (c == '_')
			continue;
		if (isdigit((unsigned char)c))
			d = c - '0';
		else if (c >= 'a' && c <= 'f')
			d = c - 'a' + 10;
		else
			return false;
		if (d >= base || v > (UINT64_MAX - (uint64_t)d) / (uint64_t)base)
			return false;
		v = v * (uint64_t)base + (uint64_t)d;
	}
	if (v > INT64_MAX)
		return false;
	*out = (int64_t)v;
	return true;
}

/* Symfony reads "1_000" and "1_000.5" as floats with the '_' removed. */
static bool parse_underscored_number(const char *s, size_t len, double *out)
{
	if (!memchr(s, '_', len))
		return false;
	char buf[64];
	size_t n = 0, i = 0;
	if (len >= sizeof buf)
		return false;
	if (s[0] == '+' || s[0] == '-')
		buf[n++] = s[i++];
	if (i == len || !isdigit((unsigned char)s[i]))
		return false;
	bool dot = false;
	for (; i < len; i++) {
		if (s[i] == '_')
			continue;
		if (s[i] == '.' && !dot) {
			dot = true;
		} else if (!isdigit((unsigned char)s[i])) {
			return false;
		}
		buf[n++] = s[i];
	}
	if (buf[n - 1] == '.')
		return false;
	buf[n] = '\0';
	*out = strtod(buf, NULL);
	return true;
}

static int64_t days_from_civil(int64_t y, int64_t m, int64_t d)
{
	y -= m <= 2;
	int64_t era = (y >= 0 ? y : y - 399) / 400;
	int64_t yoe = y - era * 400;
	int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
	int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
	return era * 146097 + doe - 719468;
}

/* Reads up to max digits (at least min) at s[*i]; returns -1 if too few. */
static long read_digits(const char *s, size_t len, size_t *i, int min, int max)
{
	long v = 0;
	int n = 0;
	while (*i < len && n < max && isdigit((unsigned char)s[*i])) {
		v = v * 10 + (s[*i] - '0');
		(*i)++;
		n++;
	}
	return n >= min ? v : -1;
}

static bool expect_char(const char *s, size_t len, size_t *i, char c)
{
	if (*i < len && s[*i] == c) {
		(*i)++;
		return true;
	}
	return false;
}

/* The zone part of a timestamp: Z or [+-]HH(:?MM)?; *offset in seconds. */
static bool read_zone(const char *s, size_t len, size_t *i, long *offset)
{
	while (*i < len && (s[*i] == ' ' || s[*i] == '\t'))
		(*i)++;
	if (*i == len)
		return true;
	if (s[*i] == 'Z') {
		(*i)++;
		return true;
	}
	if (s[*i] != '+' && s[*i] != '-')
		return false;
	int sign = s[(*i)++] == '-' ? -1 : 1;
	long hours = read_digits(s, len, i, 1, 2), minutes = 0;
	if (hours < 0)
		return false;
	if (*i < len && s[*i] == ':')
		(*i)++;
	if (*i < len) {
		minutes = read_digits(s, len, i, 2, 2);
		if (minutes < 0)
			return false;
	}
	*offset = sign * (hours * 3600 + minutes * 60);
	return true;
}

/* Parses Symfony's timestamp forms; *fraction gets the fractional second. */
static int parse_timestamp_parts(const char *s, size_t len, long long *out, double *fraction)
{
	size_t i = 0;
	long year = read_digits(s, len, &i, 4, 4), month, day, hour = 0, minute = 0, second = 0;
	long zone = 0;
	*fraction = 0;
	if (year < 0 || !expect_char(s, len, &i, '-') || (month = read_digits(s, len, &i, 1, 2)) < 0 ||
	    !expect_char(s, len, &i, '-') || (day = read_digits(s, len, &i, 1, 2)) < 0)
		return -1;
	if (i < len) {
		if (s[i] == 'T' || s[i] == 't') {
			i++;
		} else if (s[i] == ' ' || s[i] == '\t') {
			while (i < len && (s[i] == ' ' || s[i] == '\t'))
				i++;
		} else {
			return -1;
		}
		if ((hour = read_digits(s, len, &i, 1, 2)) < 0 || !expect_char(s, len, &i, ':') ||
		    (minute = read_digits(s, len, &i, 2, 2)) < 0 || !expect_char(s, len, &i, ':') ||
		    (second = read_digits(s, len, &i, 2, 2)) < 0)
			return -1;
		if (expect_char(s, len, &i, '.')) {
			double scale = 0.1;
			while (i < len && isdigit((unsigned char)s[i])) {
				*fraction += (s[i++] - '0') * scale;
				scale /= 10;
			}
		}
		if (!read_zone(s, len, &i, &zone))
			return -1;
	}
	if (i != len || month < 1 || month > 12 || day < 1 || day > 31 || hour > 24 ||
	    minute > 59 || second > 60)
		return -1;
	int64_t days = days_from_civil(year, month, 1) + day - 1;
	*out = days * 86400 + hour * 3600 + minute * 60 + second - zone;
	return 0;
}

int yaml_parse_timestamp(const char *s, size_t len, long long *out)
{
	double fraction;
	return parse_timestamp_parts(s, len, out, &fraction);
}

void yaml_type_plain_scalar(const char *s, size_t len, struct value_builder *out)
{
	int64_t i;
	double d;
	long long ts;
	if (len == 0 || equals_nocase(s, len, "null") || (len == 1 && s[0] == '~')) {
		vb_null(out);
	} else if (equals_nocase(s, len, "true") || equals_nocase(s, len, "false")) {
		vb_bool(out, tolower((unsigned char)s[0]) == 't');
	} else if (parse_round_trip_int(s, len, &i)) {
		vb_int(out, i);
	} else if (all_digits(s + (s[0] == '-'), len - (s[0] == '-'))) {
		vb_str(out, s, len); /* "0123", or too large for an integer */
	} else if (parse_radix(s, len, "0x", 16, &i) || parse_radix(s, len, "0o", 8, &i)) {
		vb_int(out, i);
	} else if (is_php_numeric(s, len)) {
		char buf[64];
		snprintf(buf, sizeof buf, "%.*s", (int)(len < 63 ? len : 63), s);
		vb_double(out, strtod(buf, NULL));
	} else if (equals_nocase(s, len, ".inf") || equals_nocase(s, len, "+.inf")) {
		vb_double(out, INFINITY);
	} else if (equals_nocase(s, len, "-.inf")) {
		vb_double(out, -INFINITY);
	} else if (equals_nocase(s, len, ".nan")) {
		vb_double(out, NAN);
	} else if (parse_underscored_number(s, len, &d)) {
		vb_double(out, d);
	} else if (parse_timestamp_parts(s, len, &ts, &d) == 0) {
		if (d > 0)
			vb_double(out, (double)ts + d);
		else
			vb_int(out, ts);
	} else {
		vb_str(out, s, len);
	}
}

/* --- nodes --- */

static void remember_anchor(struct yaml_reader *r, const yaml_char_t *name, size_t start)
{
	if (!name)
		return;
	r->anchors = xrealloc(r->anchors, (r->nanchors + 1) * sizeof *r->anchors);
	r->anchors[r->nanchors].name = xstrdup((const char *)name);
	r->anchors[r->nanchors].start = start;
	r->anchors[r->nanchors].end = r->out->buf.len;
	r->nanchors++;
}

static bool check_limit(struct yaml_reader *r, int line)
{
	if (r->out->buf.len > r->limit) {
		fail(r, line, "alias expansion too large");
		return false;
	}
	return true;
}

static void read_alias(struct yaml_reader *r, const yaml_event_t *ev)
{
	const char *name = (const char *)ev->data.alias.anchor;
	for (size_t i = r->nanchors; i-- > 0;) {
		if (strcmp(r->anchors[i].name, name) != 0)
			continue;
		size_t n = r->anchors[i].end - r->anchors[i].start;
		if (r->out->buf.len + n > r->limit) {
			fail(r, event_line(ev), "alias expansion too large");
			return;
		}
		/* Copy out first: appending may move the buffer we copy from. */
		unsigned char *copy = xmalloc(n);
		memcpy(copy, r->out->buf.ptr + r->anchors[i].start, n);
		vb_value(r->out, (value_t){copy});
		free(copy);
		return;
	}
	fail(r, event_line(ev), "unknown alias *%s", name);
}

static void read_scalar(struct yaml_reader *r, const yaml_event_t *ev)
{
	const char *s = (const char *)ev->data.scalar.value;
	size_t len = ev->data.scalar.length;
	if (ev->data.scalar.style == YAML_PLAIN_SCALAR_STYLE && ev->data.scalar.plain_implicit)
		yaml_type_plain_scalar(s, len, r->out);
	else
		vb_str(r->out, s, len);
}

static void read_node(struct yaml_reader *r, yaml_event_t *ev);

static void read_sequence(struct yaml_reader *r)
{
	yaml_event_t ev;
	vb_array_begin(r->out);
	while (next_event(r, &ev)) {
		if (ev.type == YAML_SEQUENCE_END_EVENT) {
			yaml_event_delete(&ev);
			break;
		}
		read_node(r, &ev);
		yaml_event_delete(&ev);
	}
	vb_array_end(r->out);
}

/* PHP turns a canonical decimal key ("8", "-2", not "08") into an int. */
static bool is_integer_key(const char *s, size_t len)
{
	size_t neg = len > 0 && s[0] == '-';
	if (!all_digits(s + neg, len - neg))
		return false;
	return s[neg] != '0' || len - neg == 1;
}

struct key_list {
	char **keys;
	size_t n;
};

static bool key_seen(struct key_list *kl, const char *key)
{
	for (size_t i = 0; i < kl->n; i++)
		if (strcmp(kl->keys[i], key) == 0)
			return true;
	kl->keys = xrealloc(kl->keys, (kl->n + 1) * sizeof *kl->keys);
	kl->keys[kl->n++] = xstrdup(key);
	return false;
}

static void free_keys(struct key_list *kl)
{
	for (size_t i = 0; i < kl->n; i++)
		free(kl->keys[i]);
	free(kl->keys);
}

/* Reads one key; returns false at the end of the mapping or on error. */
static bool read_key(struct yaml_reader *r, struct key_list *seen, bool *all_int)
{
	yaml_event_t ev;
	if (!next_event(r, &ev))
		return false;
	if (ev.type == YAML_MAPPING_END_EVENT) {
		yaml_event_delete(&ev);
		return false;
	}
	if (ev.type != YAML_SCALAR_EVENT) {
		fail(r, event_line(&ev), "only plain keys are supported in a mapping");
		yaml_event_delete(&ev);
		return false;
	}
	const char *key = (const char *)ev.data.scalar.value;
	size_t len = ev.data.scalar.length;
	bool plain = ev.data.scalar.style == YAML_PLAIN_SCALAR_STYLE;
	if (plain && (len == 0 || (len == 1 && key[0] == '~') || equals_nocase(key, len, "null")))
		key = "", len = 0;
	if (key_seen(seen, key)) {
		fail(r, event_line(&ev), "duplicate key \"%s\"", key);
		yaml_event_delete(&ev);
		return false;
	}
	*all_int = *all_int && is_integer_key(key, len);
	vb_key(r->out, key, len);
	yaml_event_delete(&ev);
	return true;
}

static void read_mapping(struct yaml_reader *r)
{
	size_t start = r->out->buf.len;
	struct key_list seen = {NULL, 0};
	bool all_int = true;
	vb_map_begin(r->out);
	while (read_key(r, &seen, &all_int)) {
		yaml_event_t ev;
		if (!next_event(r, &ev))
			break;
		read_node(r, &ev);
		yaml_event_delete(&ev);
	}
	vb_map_end(r->out);
	/* Statamic reads {8: a, 9: b} where a list was meant, in file order. */
	if (!r->failed && !r->out->error && all_int && seen.n > 0)
		vb_map_to_array(r->out, start);
	free_keys(&seen);
}

static void read_node(struct yaml_reader *r, yaml_event_t *ev)
{
	size_t start = r->out->buf.len;
	if (r->failed)
		return;
	if (++r->depth > VALUE_MAX_DEPTH) {
		fail(r, event_line(ev), "nesting too deep");
		r->depth--;
		return;
	}
	switch (ev->type) {
	case YAML_SCALAR_EVENT:
		read_scalar(r, ev);
		remember_anchor(r, ev->data.scalar.anchor, start);
		break;
	case YAML_SEQUENCE_START_EVENT:
		read_sequence(r);
		remember_anchor(r, ev->data.sequence_start.anchor, start);
		break;
	case YAML_MAPPING_START_EVENT:
		read_mapping(r);
		remember_anchor(r, ev->data.mapping_start.anchor, start);
		break;
	case YAML_ALIAS_EVENT:
		read_alias(r, ev);
		break;
	default:
		fail(r, event_line(ev), "unexpected YAML event");
		break;
	}
	r->depth--;
	if (!r->failed && r->out->error)
		fail(r, event_line(ev), "nesting too deep");
	if (!r->failed)
		check_limit(r, event_line(ev));
}

/* Skips stream and document starts; reads the first document's root. */
static void read_document(struct yaml_reader *r)
{
	yaml_event_t ev;
	while (next_event(r, &ev)) {
		yaml_event_type_t type = ev.type;
		if (type == YAML_STREAM_START_EVENT || type == YAML_DOCUMENT_START_EVENT) {
			yaml_event_delete(&ev);
			continue;
		}
		if (type == YAML_STREAM_END_EVENT) {
			vb_map_begin(r->out); /* an empty file is an empty map */
			vb_map_end(r->out);
		} else {
			read_node(r, &ev);
		}
		yaml_event_delete(&ev);
		return;
	}
}

int yaml_parse(const char *text, size_t len, int line_offset, struct value_builder *out,
               struct yaml_error *err)
{
	struct yaml_reader r;
	memset(&r, 0, sizeof r);
	memset(err, 0, sizeof *err);
	r.out = out;
	r.err = err;
	r.line_offset = line_offset;
	r.start_len = out->buf.len;
	int start_depth = out->depth;
	/* A failed parse closes what it opened, which counts as an item of the
	 * caller's open container; the count is put back with the length. */
	uint32_t start_count = start_depth > 0 ? out->count[start_depth - 1] : 0;
	size_t budget = len * 64 > (1u << 20) ? len * 64 : (1u << 20);
	r.limit = r.start_len + budget;
	if (!yaml_parser_initialize(&r.parser)) {
		snprintf(err->message, sizeof err->message, "cannot start the YAML parser");
		return -1;
	}
	yaml_parser_set_input_string(&r.parser, (const unsigned char *)text, len);
	read_document(&r);
	yaml_parser_delete(&r.parser);
	for (size_t i = 0; i < r.nanchors; i++)
		free(r.anchors[i].name);
	free(r.anchors);
	if (r.failed) {
		strbuf_truncate(&out->buf, r.start_len);
		out->depth = start_depth;
		if (start_depth > 0)
			out->count[start_depth - 1] = start_count;
		out->error = false;
		return -1;
	}
	return 0;
}
