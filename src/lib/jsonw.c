/*
 * jsonw: JSON output byte-compatible with PHP's json_encode($x, 0); see
 * jsonw.h for the rules. Runs of plain ASCII are copied in one append,
 * since this writer serialises every response.
 */
#include "autoconfig.h"

#include "lib/jsonw.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char hex_digits[] = "0123456789abcdef";

static void add_u_escape(struct strbuf *out, unsigned cp)
{
	char e[6] = {'\\', 'u', hex_digits[(cp >> 12) & 15], hex_digits[(cp >> 8) & 15],
	             hex_digits[(cp >> 4) & 15], hex_digits[cp & 15]};
	strbuf_add(out, e, 6);
}

/* Decodes one UTF-8 sequence at s (n bytes left). Returns its length and
 * the code point, or 0 when the bytes are not valid UTF-8. */
static size_t decode_utf8(const unsigned char *s, size_t n, unsigned *cp)
{
	unsigned c = s[0];
	size_t len;
	unsigned min;
	if (c >= 0xc2 && c <= 0xdf) {
		len = 2, min = 0x80, c &= 0x1f;
	} else if (c >= 0xe0 && c <= 0xef) {
		len = 3, min = 0x800, c &= 0x0f;
	} else if (c >= 0xf0 && c <= 0xf4) {
		len = 4, min = 0x10000, c &= 0x07;
	} else {
		return 0;
	}
	if (n < len)
		return 0;
	for (size_t i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = (c << 6) | (s[i] & 0x3f);
	}
	if (c < min || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return len;
}

static void escape_code_point(struct strbuf *out, unsigned cp)
{
	if (cp >= 0x10000) {
		cp -= 0x10000;
		add_u_escape(out, 0xd800 + (cp >> 10));
		add_u_escape(out, 0xdc00 + (cp & 0x3ff));
	} else {
		add_u_escape(out, cp);
	}
}

static bool is_plain_ascii(unsigned char c)
{
	return c >= 0x20 && c < 0x80 && c != '"' && c != '\\' && c != '/';
}

static void escape_ascii(struct strbuf *out, unsigned char c)
{
	switch (c) {
	case '"': strbuf_add(out, "\\\"", 2); break;
	case '\\': strbuf_add(out, "\\\\", 2); break;
	case '/': strbuf_add(out, "\\/", 2); break;
	case '\b': strbuf_add(out, "\\b", 2); break;
	case '\f': strbuf_add(out, "\\f", 2); break;
	case '\n': strbuf_add(out, "\\n", 2); break;
	case '\r': strbuf_add(out, "\\r", 2); break;
	case '\t': strbuf_add(out, "\\t", 2); break;
	default: add_u_escape(out, c); break;
	}
}

void json_escape(struct strbuf *out, const char *str, size_t len)
{
	const unsigned char *s = (const unsigned char *)str;
	size_t i = 0;
	while (i < len) {
		size_t run = i;
		while (run < len && is_plain_ascii(s[run]))
			run++;
		if (run > i) {
			strbuf_add(out, s + i, run - i);
			i = run;
			continue;
		}
		if (s[i] < 0x80) {
			escape_ascii(out, s[i]);
			i++;
			continue;
		}
		unsigned cp;
		size_t n = decode_utf8(s + i, len - i, &cp);
		if (n == 0) {
			add_u_escape(out, 0xfffd);
			i++;
		} else {
			escape_code_point(out, cp);
			i += n;
		}
	}
}

/*
 * PHP (serialize_precision = -1, php_gcvt in mode 0) prints the shortest
 * digits that read back as the same double; it switches to scientific
 * notation when the decimal point would sit more than 3 places left of the
 * first digit or more than 17 places right of it (decimal exponent below
 * -4 or at least 17), and keeps a ".0" on a value that would otherwise
 * look like an integer.
 */
void json_format_double(struct strbuf *out, double d)
{
	if (!isfinite(d)) {
		strbuf_addch(out, '0');
		return;
	}
	char digits[40];
	int precision;
	for (precision = 1; precision <= 17; precision++) {
		snprintf(digits, sizeof digits, "%.*e", precision - 1, d);
		if (strtod(digits, NULL) == d)
			break;
	}
	if (precision > 17)
		precision = 17;
	int exponent = atoi(strchr(digits, 'e') + 1);
	char text[64];
	if (exponent < -4 || exponent >= 17) {
		/* digits is "d.ddde+XX"; PHP writes the mantissa with ".0" when it
		 * has a single digit and the exponent without leading zeros. */
		char *e = strchr(digits, 'e');
		*e = '\0';
		snprintf(text, sizeof text, "%s%se%c%d", digits, strchr(digits, '.') ? "" : ".0",
		         exponent < 0 ? '-' : '+', abs(exponent));
	} else {
		int decimals = precision - 1 - exponent;
		snprintf(text, sizeof text, "%.*f", decimals > 0 ? decimals : 0, d);
		if (!strchr(text, '.'))
			strcat(text, ".0");
	}
	strbuf_addstr(out, text);
}

void jsonw_init(struct jsonw *w, struct strbuf *out)
{
	/* need_comma is set as each container opens: no need to clear it. */
	w->out = out;
	w->env = NULL;
	w->marks = NULL;
	w->depth = 0;
	w->after_key = false;
}

/* The comma flag of the innermost open container. */
static bool *comma_flag(struct jsonw *w)
{
	int i = w->depth - 1;
	return &w->need_comma[i < JSONW_MAX_DEPTH ? i : JSONW_MAX_DEPTH - 1];
}

/* Emits the comma that separates this value from the previous one. */
static void before_value(struct jsonw *w)
{
	if (w->after_key) {
		w->after_key = false;
		return;
	}
	if (w->depth == 0)
		return;
	bool *flag = comma_flag(w);
	if (*flag)
		strbuf_addch(w->out, ',');
	*flag = true;
}

static void open_container(struct jsonw *w, char c)
{
	before_value(w);
	strbuf_addch(w->out, c);
	w->depth++;
	*comma_flag(w) = false;
}

static void close_container(struct jsonw *w, char c)
{
	strbuf_addch(w->out, c);
	if (w->depth > 0)
		w->depth--;
}

void jsonw_object_begin(struct jsonw *w) { open_container(w, '{'); }
void jsonw_object_end(struct jsonw *w) { close_container(w, '}'); }
void jsonw_array_begin(struct jsonw *w) { open_container(w, '['); }
void jsonw_array_end(struct jsonw *w) { close_container(w, ']'); }

void jsonw_key(struct jsonw *w, const char *key, size_t len)
{
	before_value(w);
	strbuf_addch(w->out, '"');
	json_escape(w->out, key, len);
	strbuf_add(w->out, "\":", 2);
	w->after_key = true;
}

void jsonw_keyz(struct jsonw *w, const char *key)
{
	jsonw_key(w, key, strlen(key));
}

void jsonw_null(struct jsonw *w)
{
	before_value(w);
	strbuf_add(w->out, "null", 4);
}

void jsonw_bool(struct jsonw *w, bool v)
{
	before_value(w);
	strbuf_addstr(w->out, v ? "true" : "false");
}

void jsonw_int(struct jsonw *w, int64_t v)
{
	/* Digits by hand: printf costs more than the rest of a small value. */
	char digits[24];
	char *end = digits + sizeof digits, *p = end;
	uint64_t u = v < 0 ? -(uint64_t)v : (uint64_t)v;
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	before_value(w);
	strbuf_add(w->out, p, (size_t)(end - p));
}

void jsonw_double(struct jsonw *w, double v)
{
	before_value(w);
	json_format_double(w->out, v);
}

void jsonw_set_env(struct jsonw *w, const struct jsonw_env *env)
{
	w->env = env;
}

void jsonw_string(struct jsonw *w, const char *s, size_t len)
{
	before_value(w);
	strbuf_addch(w->out, '"');
	json_escape(w->out, s, len);
	strbuf_addch(w->out, '"');
}

static void add_mark(struct jsonw_marks *m, size_t at, enum url_base base)
{
	if (m->len == m->cap) {
		m->cap = m->cap ? 2 * m->cap : 8;
		m->items = xrealloc(m->items, m->cap * sizeof *m->items);
	}
	m->items[m->len++] = (struct jsonw_mark){at, base};
}

void jsonw_url(struct jsonw *w, enum url_base base, const char *path, size_t len)
{
	const char *prefix = !w->env ? NULL : base == URL_API ? w->env->api_base : w->env->site_base;
	before_value(w);
	strbuf_addch(w->out, '"');
	if (prefix && w->marks) {
		add_mark(w->marks, w->out->len, base);
	} else if (prefix) {
		json_escape(w->out, prefix, strlen(prefix));
		if (base == URL_API)
			strbuf_add(w->out, "\\/", 2);
	}
	json_escape(w->out, path, len);
	strbuf_addch(w->out, '"');
}

/* A reference through the env's writer; a hidden one still owes a value
 * where a key (or nothing) came before it. */
static void write_ref(struct jsonw *w, value_t ref)
{
	if (!w->env || !w->env->write_ref) {
		jsonw_value(w, value_ref_raw(ref));
		return;
	}
	bool owed = w->after_key || w->depth == 0;
	if (!w->env->write_ref(w, ref, w->env->ref_ctx) && owed)
		jsonw_null(w);
}

void jsonw_stringz(struct jsonw *w, const char *s)
{
	jsonw_string(w, s, strlen(s));
}

void jsonw_stringz_or_null(struct jsonw *w, const char *s)
{
	if (s)
		jsonw_stringz(w, s);
	else
		jsonw_null(w);
}

void jsonw_raw(struct jsonw *w, const char *json, size_t len)
{
	before_value(w);
	strbuf_add(w->out, json, len);
}

void jsonw_value(struct jsonw *w, value_t v)
{
	struct value_iter it;
	size_t len;
	const char *s;
	switch (value_type(v)) {
	case VALUE_NULL: jsonw_null(w); break;
	case VALUE_FALSE: jsonw_bool(w, false); break;
	case VALUE_TRUE: jsonw_bool(w, true); break;
	case VALUE_INT: jsonw_int(w, value_int(v)); break;
	case VALUE_DOUBLE: jsonw_double(w, value_double(v)); break;
	case VALUE_STRING:
		s = value_str(v, &len);
		jsonw_string(w, s, len);
		break;
	case VALUE_URL:
		s = value_str(v, &len);
		jsonw_url(w, value_url_base(v), s, len);
		break;
	case VALUE_REF:
		write_ref(w, v);
		break;
	case VALUE_ARRAY:
		jsonw_array_begin(w);
		value_iter_init(&it, v);
		while (value_iter_next(&it))
			jsonw_value(w, it.value);
		jsonw_array_end(w);
		break;
	case VALUE_MAP:
		/* An empty PHP array encodes as [], whatever it was meant to be. */
		if (value_count(v) == 0) {
			jsonw_array_begin(w);
			jsonw_array_end(w);
			break;
		}
		jsonw_object_begin(w);
		value_iter_init(&it, v);
		while (value_iter_next(&it)) {
			jsonw_key(w, it.key, it.key_len);
			jsonw_value(w, it.value);
		}
		jsonw_object_end(w);
		break;
	}
}

void jsonw_record_marks(struct jsonw *w, struct jsonw_marks *marks)
{
	w->marks = marks;
}

void jsonw_marks_release(struct jsonw_marks *marks)
{
	free(marks->items);
	memset(marks, 0, sizeof *marks);
}

void jsonw_bases_set(struct jsonw_bases *b, const struct jsonw_env *env)
{
	strbuf_reset(&b->site);
	strbuf_reset(&b->api);
	json_escape(&b->site, env->site_base, strlen(env->site_base));
	json_escape(&b->api, env->api_base, strlen(env->api_base));
	strbuf_add(&b->api, "\\/", 2);
}

void jsonw_bases_release(struct jsonw_bases *b)
{
	strbuf_release(&b->site);
	strbuf_release(&b->api);
}

void jsonw_template(struct jsonw *w, const char *text, size_t len, const struct jsonw_mark *marks,
                    size_t nmarks, const struct jsonw_bases *bases)
{
	before_value(w);
	size_t done = 0;
	for (size_t i = 0; i < nmarks; i++) {
		const struct strbuf *base = marks[i].base == URL_API ? &bases->api : &bases->site;
		strbuf_add(w->out, text + done, marks[i].at - done);
		strbuf_add(w->out, base->ptr, base->len);
		done = marks[i].at;
	}
	strbuf_add(w->out, text + done, len - done);
}
