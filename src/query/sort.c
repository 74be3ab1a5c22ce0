/* sort: Statamic's sort parameter and comparator; see sort.h. */
#include "autoconfig.h"

#include "query/sort.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "strbuf.h"

static void add_key(struct sort_spec *spec, const char *text, size_t len)
{
	bool descending = len > 0 && text[0] == '-';
	if (descending)
		text++, len--;
	if (len == 0)
		return;
	spec->keys = xrealloc(spec->keys, (spec->n + 1) * sizeof *spec->keys);
	struct sort_key *k = &spec->keys[spec->n++];
	memset(k, 0, sizeof *k);
	k->descending = descending;
	const char *p = text, *end = text + len;
	while (p <= end) {
		const char *arrow = memmem(p, (size_t)(end - p), "->", 2);
		const char *stop = arrow ? arrow : end;
		k->path = xrealloc(k->path, (k->npath + 1) * sizeof *k->path);
		k->path[k->npath++] = xstrndup(p, (size_t)(stop - p));
		if (!arrow)
			break;
		p = arrow + 2;
	}
}

void sort_parse(const char *param, struct sort_spec *out)
{
	memset(out, 0, sizeof *out);
	const char *p = param ? param : "";
	while (*p) {
		size_t n = strcspn(p, ",");
		add_key(out, p, n);
		p += n;
		if (*p == ',')
			p++;
	}
}

void sort_free(struct sort_spec *spec)
{
	for (size_t i = 0; i < spec->n; i++) {
		for (size_t j = 0; j < spec->keys[i].npath; j++)
			free(spec->keys[i].path[j]);
		free(spec->keys[i].path);
	}
	free(spec->keys);
	memset(spec, 0, sizeof *spec);
}

value_t sort_key_value(const struct sort_key *key, value_t map)
{
	value_t v = map;
	for (size_t i = 0; i < key->npath; i++)
		v = value_map_getz(v, key->path[i]);
	return v;
}

static bool numeric(value_t v, double *out)
{
	if (value_type(v) == VALUE_INT || value_type(v) == VALUE_DOUBLE) {
		*out = value_double(v);
		return true;
	}
	if (value_type(v) != VALUE_STRING)
		return false;
	const char *s = value_str(v, NULL);
	char *end;
	if (!*s)
		return false;
	*out = strtod(s, &end);
	return *end == '\0';
}

/* Ranks of the kinds of value, in ascending order. */
static int rank(value_t v)
{
	switch (value_type(v)) {
	case VALUE_NULL: return 3;
	case VALUE_ARRAY:
	case VALUE_MAP: return 2;
	default: return 1;
	}
}

static void text_of(value_t v, struct strbuf *out)
{
	switch (value_type(v)) {
	case VALUE_STRING: strbuf_addstr(out, value_str(v, NULL)); break;
	case VALUE_TRUE: strbuf_addch(out, '1'); break;
	case VALUE_INT: strbuf_addf(out, "%lld", (long long)value_int(v)); break;
	default: break;
	}
}

int sort_compare(value_t a, value_t b)
{
	/* A list sorts by its first item. */
	if (value_type(a) == VALUE_ARRAY && value_count(a))
		a = value_array_get(a, 0);
	if (value_type(b) == VALUE_ARRAY && value_count(b))
		b = value_array_get(b, 0);
	int ra = rank(a), rb = rank(b);
	if (ra != rb || ra != 1)
		return ra - rb;
	if (value_is_bool(a) && value_is_bool(b))
		return (int)value_bool(a) - (int)value_bool(b);
	double x, y;
	if (numeric(a, &x) && numeric(b, &y))
		return (x > y) - (x < y);
	struct strbuf s = STRBUF_INIT, t = STRBUF_INIT;
	text_of(a, &s);
	text_of(b, &t);
	int cmp = strcasecmp(strbuf_str(&s), strbuf_str(&t));
	strbuf_release(&s);
	strbuf_release(&t);
	return (cmp > 0) - (cmp < 0);
}

struct sort_run {
	const struct sort_spec *spec;
	sort_value_fn get;
	void *ctx;
};

static int compare_items(uint32_t x, uint32_t y, const struct sort_run *run)
{
	for (size_t i = 0; i < run->spec->n; i++) {
		const struct sort_key *k = &run->spec->keys[i];
		int cmp = sort_compare(run->get(run->ctx, x, k), run->get(run->ctx, y, k));
		if (cmp)
			return k->descending ? -cmp : cmp;
	}
	return 0;
}

/* A merge sort: stable, and n log n however the comparisons fall. */
static void merge_sort(uint32_t *items, uint32_t *tmp, size_t n, const struct sort_run *run)
{
	if (n < 2)
		return;
	size_t half = n / 2;
	merge_sort(items, tmp, half, run);
	merge_sort(items + half, tmp, n - half, run);
	size_t i = 0, j = half, k = 0;
	while (i < half && j < n)
		tmp[k++] = compare_items(items[j], items[i], run) < 0 ? items[j++] : items[i++];
	while (i < half)
		tmp[k++] = items[i++];
	while (j < n)
		tmp[k++] = items[j++];
	memcpy(items, tmp, n * sizeof *items);
}

void sort_items(uint32_t *items, size_t n, const struct sort_spec *spec, sort_value_fn get,
                void *ctx)
{
	if (spec->n == 0 || n < 2)
		return;
	uint32_t *tmp = xmalloc(n * sizeof *tmp);
	struct sort_run run = {spec, get, ctx};
	merge_sort(items, tmp, n, &run);
	free(tmp);
}
