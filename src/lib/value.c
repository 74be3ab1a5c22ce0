/* value: packed typed values; see value.h for the format. */
#include "autoconfig.h"

#include "lib/value.h"

#include <math.h>
#include <string.h>

static uint32_t read_u32(const unsigned char *p)
{
	uint32_t v;
	memcpy(&v, p, sizeof v);
	return v;
}

static void write_u32(unsigned char *p, uint32_t v)
{
	memcpy(p, &v, sizeof v);
}

enum value_type value_type(value_t v)
{
	return v.p ? (enum value_type)v.p[0] : VALUE_NULL;
}

bool value_is_missing(value_t v)
{
	return v.p == NULL;
}

bool value_is_null(value_t v)
{
	return value_type(v) == VALUE_NULL;
}

bool value_is_bool(value_t v)
{
	enum value_type t = value_type(v);
	return t == VALUE_TRUE || t == VALUE_FALSE;
}

bool value_bool(value_t v)
{
	return value_type(v) == VALUE_TRUE;
}

/*
 * PHP's (int) of a double. C leaves the cast undefined outside int64's
 * range; PHP gives 0 for INF and NaN and wraps larger values modulo 2^64
 * (zend_dval_to_lval), which is done here on the bits: from 2^63 up a
 * double is an integer, its 53-bit mantissa shifted left.
 */
int64_t value_int_of_double(double d)
{
	if (!isfinite(d))
		return 0;
	if (d >= -9223372036854775808.0 && d < 9223372036854775808.0)
		return (int64_t)d;
	uint64_t bits;
	memcpy(&bits, &d, sizeof bits);
	int shift = (int)((bits >> 52) & 0x7ff) - 1075;
	uint64_t mantissa = (bits & 0xfffffffffffffULL) | (1ULL << 52);
	uint64_t u = shift >= 64 ? 0 : mantissa << shift;
	if (d < 0)
		u = -u;
	/* Two's complement without an implementation-defined cast. */
	return u <= INT64_MAX ? (int64_t)u : -(int64_t)(~u) - 1;
}

int64_t value_int(value_t v)
{
	int64_t i;
	switch (value_type(v)) {
	case VALUE_INT:
		memcpy(&i, v.p + 1, sizeof i);
		return i;
	case VALUE_DOUBLE:
		return value_int_of_double(value_double(v));
	case VALUE_TRUE:
		return 1;
	default:
		return 0;
	}
}

double value_double(value_t v)
{
	double d;
	switch (value_type(v)) {
	case VALUE_DOUBLE:
		memcpy(&d, v.p + 1, sizeof d);
		return d;
	case VALUE_INT:
		return (double)value_int(v);
	case VALUE_TRUE:
		return 1;
	default:
		return 0;
	}
}

/* Where a string's payload (u32 length, bytes) starts: a URL has its
 * base byte first. NULL for other values. */
static const unsigned char *string_payload(value_t v)
{
	switch (value_type(v)) {
	case VALUE_STRING: return v.p + 1;
	case VALUE_URL: return v.p + 2;
	default: return NULL;
	}
}

const char *value_str(value_t v, size_t *len)
{
	const unsigned char *payload = string_payload(v);
	if (!payload) {
		if (len)
			*len = 0;
		return "";
	}
	if (len)
		*len = read_u32(payload);
	return (const char *)payload + 4;
}

uint32_t value_count(value_t v)
{
	enum value_type t = value_type(v);
	if (t != VALUE_ARRAY && t != VALUE_MAP)
		return 0;
	return read_u32(v.p + 5);
}

size_t value_size(value_t v)
{
	switch (value_type(v)) {
	case VALUE_INT:
	case VALUE_DOUBLE:
		return 9;
	case VALUE_STRING:
		return 5 + (size_t)read_u32(v.p + 1) + 1;
	case VALUE_URL:
		return 6 + (size_t)read_u32(v.p + 2) + 1;
	case VALUE_ARRAY:
	case VALUE_MAP:
	case VALUE_REF:
		return 5 + (size_t)read_u32(v.p + 1);
	default:
		return v.p ? 1 : 0;
	}
}

void value_iter_init(struct value_iter *it, value_t c)
{
	memset(it, 0, sizeof *it);
	enum value_type t = value_type(c);
	if (t != VALUE_ARRAY && t != VALUE_MAP)
		return;
	it->is_map = t == VALUE_MAP;
	it->pos = c.p + 9;
	it->end = c.p + 5 + read_u32(c.p + 1);
}

bool value_iter_next(struct value_iter *it)
{
	if (!it->pos || it->pos >= it->end)
		return false;
	if (it->is_map) {
		it->key_len = read_u32(it->pos);
		it->key = (const char *)it->pos + 4;
		it->pos += 4 + it->key_len + 1;
	}
	it->value.p = it->pos;
	it->pos += value_size(it->value);
	return true;
}

value_t value_map_get(value_t map, const char *key, size_t key_len)
{
	struct value_iter it;
	if (value_type(map) != VALUE_MAP)
		return VALUE_MISSING;
	value_iter_init(&it, map);
	while (value_iter_next(&it))
		if (it.key_len == key_len && memcmp(it.key, key, key_len) == 0)
			return it.value;
	return VALUE_MISSING;
}

value_t value_map_getz(value_t map, const char *key)
{
	return value_map_get(map, key, strlen(key));
}

value_t value_array_get(value_t array, uint32_t n)
{
	struct value_iter it;
	if (value_type(array) != VALUE_ARRAY)
		return VALUE_MISSING;
	value_iter_init(&it, array);
	for (uint32_t i = 0; value_iter_next(&it); i++)
		if (i == n)
			return it.value;
	return VALUE_MISSING;
}

enum url_base value_url_base(value_t v)
{
	return value_type(v) == VALUE_URL ? (enum url_base)v.p[1] : 0;
}

/* A reference: the container header (9 bytes), kind (1), target (4), then
 * the raw value and the short object. */
#define REF_HEADER 14

enum ref_kind value_ref_kind(value_t v)
{
	return value_type(v) == VALUE_REF ? (enum ref_kind)v.p[9] : 0;
}

uint32_t value_ref_target(value_t v)
{
	return value_type(v) == VALUE_REF ? read_u32(v.p + 10) : UINT32_MAX;
}

value_t value_ref_raw(value_t v)
{
	if (value_type(v) != VALUE_REF)
		return VALUE_MISSING;
	return (value_t){v.p + REF_HEADER};
}

value_t value_ref_object(value_t v)
{
	value_t raw = value_ref_raw(v);
	if (value_is_missing(raw))
		return VALUE_MISSING;
	return (value_t){raw.p + value_size(raw)};
}

value_t value_raw(value_t v)
{
	return value_type(v) == VALUE_REF ? value_ref_raw(v) : v;
}

bool value_equal(value_t a, value_t b)
{
	size_t na = value_size(a), nb = value_size(b);
	if (value_type(a) != value_type(b))
		return false;
	if (!a.p || !b.p)
		return a.p == b.p || value_type(a) == VALUE_NULL;
	return na == nb && memcmp(a.p, b.p, na) == 0;
}

/* --- builder --- */

static void count_item(struct value_builder *b)
{
	if (b->depth > 0)
		b->count[b->depth - 1]++;
}

static void put_tag(struct value_builder *b, enum value_type t)
{
	strbuf_addch(&b->buf, (char)t);
}

void vb_null(struct value_builder *b)
{
	put_tag(b, VALUE_NULL);
	count_item(b);
}

void vb_bool(struct value_builder *b, bool v)
{
	put_tag(b, v ? VALUE_TRUE : VALUE_FALSE);
	count_item(b);
}

void vb_int(struct value_builder *b, int64_t v)
{
	put_tag(b, VALUE_INT);
	strbuf_add(&b->buf, &v, sizeof v);
	count_item(b);
}

void vb_double(struct value_builder *b, double v)
{
	put_tag(b, VALUE_DOUBLE);
	strbuf_add(&b->buf, &v, sizeof v);
	count_item(b);
}

static void put_bytes(struct value_builder *b, const char *s, size_t len)
{
	unsigned char n[4];
	write_u32(n, (uint32_t)len);
	strbuf_add(&b->buf, n, 4);
	strbuf_add(&b->buf, s, len);
	strbuf_addch(&b->buf, '\0');
}

void vb_str(struct value_builder *b, const char *s, size_t len)
{
	put_tag(b, VALUE_STRING);
	put_bytes(b, s, len);
	count_item(b);
}

void vb_strz(struct value_builder *b, const char *s)
{
	vb_str(b, s, strlen(s));
}

void vb_value(struct value_builder *b, value_t v)
{
	if (!v.p) {
		vb_null(b);
		return;
	}
	strbuf_add(&b->buf, v.p, value_size(v));
	count_item(b);
}

static void open_container(struct value_builder *b, enum value_type t)
{
	if (b->depth >= VALUE_MAX_DEPTH) {
		b->error = true;
		return;
	}
	size_t at = b->buf.len;
	put_tag(b, t);
	unsigned char zero[8] = {0};
	strbuf_add(&b->buf, zero, 8);
	b->open[b->depth] = at;
	b->count[b->depth] = 0;
	b->depth++;
}

static void close_container(struct value_builder *b)
{
	if (b->error || b->depth == 0)
		return;
	b->depth--;
	size_t at = b->open[b->depth];
	unsigned char *p = (unsigned char *)b->buf.ptr + at;
	write_u32(p + 1, (uint32_t)(b->buf.len - at - 5));
	write_u32(p + 5, b->count[b->depth]);
	count_item(b);
}

void vb_array_begin(struct value_builder *b)
{
	open_container(b, VALUE_ARRAY);
}

void vb_array_end(struct value_builder *b)
{
	close_container(b);
}

void vb_map_begin(struct value_builder *b)
{
	open_container(b, VALUE_MAP);
}

void vb_map_end(struct value_builder *b)
{
	close_container(b);
}

void vb_url(struct value_builder *b, enum url_base base, const char *path, size_t len)
{
	put_tag(b, VALUE_URL);
	strbuf_addch(&b->buf, (char)base);
	put_bytes(b, path, len);
	count_item(b);
}

void vb_ref_begin(struct value_builder *b, enum ref_kind kind, uint32_t target)
{
	open_container(b, VALUE_REF);
	if (b->error)
		return;
	unsigned char extra[5];
	extra[0] = (unsigned char)kind;
	write_u32(extra + 1, target);
	strbuf_add(&b->buf, extra, sizeof extra);
}

void vb_ref_end(struct value_builder *b)
{
	close_container(b);
}

void vb_key(struct value_builder *b, const char *k, size_t len)
{
	put_bytes(b, k, len);
}

void vb_keyz(struct value_builder *b, const char *k)
{
	vb_key(b, k, strlen(k));
}

value_t vb_result(const struct value_builder *b)
{
	if (b->error || b->buf.len == 0)
		return VALUE_MISSING;
	return (value_t){(const unsigned char *)b->buf.ptr};
}

void vb_reset(struct value_builder *b)
{
	strbuf_reset(&b->buf);
	b->depth = 0;
	b->error = false;
}

void vb_release(struct value_builder *b)
{
	strbuf_release(&b->buf);
	b->depth = 0;
	b->error = false;
}

void vb_map_to_array(struct value_builder *b, size_t at)
{
	unsigned char *base = (unsigned char *)b->buf.ptr + at;
	if (base[0] != VALUE_MAP)
		return;
	unsigned char *read = base + 9, *write = base + 9;
	unsigned char *end = base + 5 + read_u32(base + 1);
	while (read < end) {
		uint32_t klen = read_u32(read);
		read += 4 + klen + 1;
		size_t n = value_size((value_t){read});
		memmove(write, read, n);
		read += n;
		write += n;
	}
	base[0] = VALUE_ARRAY;
	write_u32(base + 1, (uint32_t)(write - base - 5));
	strbuf_truncate(&b->buf, (size_t)(write - (unsigned char *)b->buf.ptr));
}
