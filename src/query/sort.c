/* sort: Statamic's sort parameter and comparator; see sort.h. */
#include "autoconfig.h"

#include "query/sort.h"

#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "lib/php.h"
#include "lib/strbuf.h"

/* A key's text without its '-'; "" and "-" name no key. */
static bool key_named(const char **text, size_t *len)
{
	if (*len > 0 && **text == '-')
		(*text)++, (*len)--;
	return *len > 0;
}

static void add_key(struct sort_spec *spec, const char *text, size_t len)
{
	bool descending = len > 0 && text[0] == '-';
	if (!key_named(&text, &len))
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

size_t sort_key_count(const char *param)
{
	size_t n = 0;
	for (const char *p = param ? param : ""; *p;) {
		size_t len = strcspn(p, ",");
		const char *text = p;
		n += key_named(&text, &len);
		p += strcspn(p, ",");
		if (*p == ',')
			p++;
	}
	return n;
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

void sort_view_served(const struct sort_spec *spec, const struct strlist *withheld,
                      struct sort_spec *view)
{
	view->keys = xmalloc((spec->n + 1) * sizeof *view->keys);
	view->n = 0;
	for (size_t i = 0; i < spec->n; i++)
		if (!strlist_contains(withheld, spec->keys[i].path[0]))
			view->keys[view->n++] = spec->keys[i];
}

void sort_view_free(struct sort_spec *view)
{
	free(view->keys); /* the paths are the spec's */
	memset(view, 0, sizeof *view);
}

value_t sort_key_value(const struct sort_key *key, value_t map)
{
	value_t v = map;
	for (size_t i = 0; i < key->npath; i++)
		v = value_map_getz(v, key->path[i]);
	return v;
}

/* A value as the comparator sees it, worked out once per item and key
 * rather than once per comparison. */
struct datum {
	value_t v;      /* normalised: never a list, a map or a reference */
	bool is_null;
	bool is_bool;
	bool truthy;
	bool has_number;
	double number;
};

/* Statamic's normalisation before comparing: a list (or map) sorts by its
 * first item, an empty one as null; a relation by its stored value. */
static value_t normalise(value_t v)
{
	for (int depth = 0; depth < VALUE_MAX_DEPTH; depth++) {
		v = value_raw(v);
		enum value_type t = value_type(v);
		if (t != VALUE_ARRAY && t != VALUE_MAP)
			return v;
		struct value_iter it;
		value_iter_init(&it, v);
		if (!value_iter_next(&it))
			return VALUE_MISSING;
		v = it.value;
	}
	return VALUE_MISSING;
}

static struct datum decorate(value_t raw)
{
	value_t v = normalise(raw);
	struct datum d = {v, value_is_null(v), value_is_bool(v), php_truthy(v), false, 0};
	d.has_number = !d.is_null && !d.is_bool && php_numeric(v, &d.number);
	return d;
}

/* Statamic's Comparator: nulls after everything (statamic-api.md §8);
 * anything against a boolean as booleans; numbers (and numeric strings)
 * numerically; the rest as lower-cased text. */
static int compare_data(const struct datum *a, const struct datum *b)
{
	if (a->is_null || b->is_null)
		return (int)a->is_null - (int)b->is_null;
	if (a->is_bool || b->is_bool)
		return (int)a->truthy - (int)b->truthy;
	if (a->has_number && b->has_number)
		return (a->number > b->number) - (a->number < b->number);
	if (value_type(a->v) == VALUE_STRING && value_type(b->v) == VALUE_STRING) {
		int cmp = strcasecmp(value_str(a->v, NULL), value_str(b->v, NULL));
		return (cmp > 0) - (cmp < 0);
	}
	struct strbuf s = STRBUF_INIT, t = STRBUF_INIT;
	php_string(a->v, &s);
	php_string(b->v, &t);
	int cmp = strcasecmp(strbuf_str(&s), strbuf_str(&t));
	strbuf_release(&s);
	strbuf_release(&t);
	return (cmp > 0) - (cmp < 0);
}

int sort_compare(value_t a, value_t b)
{
	struct datum x = decorate(a), y = decorate(b);
	return compare_data(&x, &y);
}

/* The items' values for every key, decorated; positions index items. */
struct sort_run {
	const struct sort_spec *spec;
	struct datum *data; /* [position * spec->n + key] */
	double *numbers;    /* [position] when one key holds only numbers, else NULL */
};

/* One key and nothing but numbers (dates, ratings: the usual sorts):
 * comparisons then read one packed array of doubles. */
static double *numbers_only(const struct datum *data, size_t n, const struct sort_spec *spec)
{
	if (spec->n != 1)
		return NULL;
	for (size_t i = 0; i < n; i++)
		if (!data[i].has_number)
			return NULL;
	double *numbers = xmalloc(n * sizeof *numbers);
	for (size_t i = 0; i < n; i++)
		numbers[i] = spec->keys[0].descending ? -data[i].number : data[i].number;
	return numbers;
}

static void run_init(struct sort_run *run, const uint32_t *items, size_t n,
                     const struct sort_spec *spec, sort_value_fn get, void *ctx)
{
	run->spec = spec;
	run->data = xmalloc(n * spec->n * sizeof *run->data);
	for (size_t i = 0; i < n; i++)
		for (size_t k = 0; k < spec->n; k++)
			run->data[i * spec->n + k] = decorate(get(ctx, items[i], &spec->keys[k]));
	run->numbers = numbers_only(run->data, n, spec);
}

static int compare_positions(uint32_t x, uint32_t y, const struct sort_run *run)
{
	if (run->numbers) {
		double a = run->numbers[x], b = run->numbers[y];
		return (a > b) - (a < b);
	}
	const struct datum *a = &run->data[(size_t)x * run->spec->n];
	const struct datum *b = &run->data[(size_t)y * run->spec->n];
	for (size_t k = 0; k < run->spec->n; k++) {
		int cmp = compare_data(&a[k], &b[k]);
		if (cmp)
			return run->spec->keys[k].descending ? -cmp : cmp;
	}
	return 0;
}

/* The sort's order made total by position: equal items keep the order
 * they came in, whatever algorithm arranges them. */
static bool before(uint32_t a, uint32_t b, const struct sort_run *run)
{
	int cmp = compare_positions(a, b, run);
	return cmp < 0 || (cmp == 0 && a < b);
}

/* A merge sort in the total order: n log n however the comparisons fall. */
static void merge_sort(uint32_t *pos, uint32_t *tmp, size_t n, const struct sort_run *run)
{
	if (n < 2)
		return;
	size_t half = n / 2;
	merge_sort(pos, tmp, half, run);
	merge_sort(pos + half, tmp, n - half, run);
	size_t i = 0, j = half, k = 0;
	while (i < half && j < n)
		tmp[k++] = before(pos[j], pos[i], run) ? pos[j++] : pos[i++];
	while (i < half)
		tmp[k++] = pos[i++];
	while (j < n)
		tmp[k++] = pos[j++];
	memcpy(pos, tmp, n * sizeof *pos);
}

static void swap_positions(uint32_t *pos, size_t a, size_t b)
{
	uint32_t t = pos[a];
	pos[a] = pos[b];
	pos[b] = t;
}

/* Moves the median of pos[lo], pos[mid] and pos[hi - 1] to pos[hi - 1]. */
static void median_of_three_last(uint32_t *pos, size_t lo, size_t hi, const struct sort_run *run)
{
	size_t mid = lo + (hi - lo) / 2, last = hi - 1;
	if (before(pos[mid], pos[lo], run))
		swap_positions(pos, mid, lo);
	if (before(pos[last], pos[lo], run))
		swap_positions(pos, last, lo);
	if (before(pos[mid], pos[last], run))
		swap_positions(pos, mid, last);
}

/* Partitions pos[lo, hi) around the pivot chosen at its end; returns
 * where the pivot lands. */
static size_t partition(uint32_t *pos, size_t lo, size_t hi, const struct sort_run *run)
{
	median_of_three_last(pos, lo, hi, run);
	uint32_t pivot = pos[hi - 1];
	size_t store = lo;
	for (size_t i = lo; i + 1 < hi; i++)
		if (before(pos[i], pivot, run))
			swap_positions(pos, i, store++);
	swap_positions(pos, store, hi - 1);
	return store;
}

/*
 * Brings the first `first` of pos[0, n) (in the total order) to its
 * front, in no particular order, by quickselect: about 3n comparisons
 * whatever order the items came in. Returns false when the partitions
 * keep coming out lopsided (an input built against the median of three);
 * the caller then sorts everything.
 */
static bool select_first(uint32_t *pos, size_t n, size_t first, const struct sort_run *run)
{
	size_t lo = 0, hi = n, budget = 64;
	while (hi - lo > 1 && budget-- > 0) {
		size_t p = partition(pos, lo, hi, run);
		if (p == first || p + 1 == first)
			return true;
		if (p > first)
			hi = p;
		else
			lo = p + 1;
	}
	return hi - lo <= 1;
}

void sort_items_first(uint32_t *items, size_t n, size_t first, const struct sort_spec *spec,
                      sort_value_fn get, void *ctx)
{
	if (first > n)
		first = n;
	if (spec->n == 0 || n < 2 || first == 0)
		return;
	struct sort_run run;
	run_init(&run, items, n, spec, get, ctx);
	uint32_t *pos = xmalloc(n * sizeof *pos);
	for (uint32_t i = 0; i < n; i++)
		pos[i] = i;
	/* Choosing pays when the chosen are few among many. */
	size_t to_sort = first < n / 8 && select_first(pos, n, first, &run) ? first : n;
	uint32_t *tmp = xmalloc(to_sort * sizeof *tmp);
	merge_sort(pos, tmp, to_sort, &run);
	free(tmp);
	sort_reorder(items, pos, first);
	free(pos);
	free(run.numbers);
	free(run.data);
}

void sort_reorder(uint32_t *items, const uint32_t *order, size_t n)
{
	uint32_t *ordered = xmalloc(n * sizeof *ordered);
	for (size_t i = 0; i < n; i++)
		ordered[i] = items[order[i]];
	memcpy(items, ordered, n * sizeof *items);
	free(ordered);
}

void sort_items(uint32_t *items, size_t n, const struct sort_spec *spec, sort_value_fn get,
                void *ctx)
{
	sort_items_first(items, n, n, spec, get, ctx);
}

/* Each item's sort values are asked for once, not once per comparison
 * (a computed value may be a formatted string). */
struct sort_cache {
	struct value_builder values;
	size_t *offsets; /* [position * nkeys + key] into values */
	const struct sort_spec *spec;
};

static value_t cached_value(void *ctx, uint32_t position, const struct sort_key *key)
{
	struct sort_cache *c = ctx;
	size_t k = (size_t)(key - c->spec->keys);
	return (value_t){(const unsigned char *)c->values.buf.ptr +
	                 c->offsets[position * c->spec->n + k]};
}

void sort_items_first_cached(uint32_t *items, size_t n, size_t first, const struct sort_spec *spec,
                             sort_value_fn get, void *get_ctx)
{
	if (spec->n == 0 || n < 2)
		return;
	struct sort_cache c = {VALUE_BUILDER_INIT, xmalloc(n * spec->n * sizeof(size_t)), spec};
	uint32_t *positions = xmalloc(n * sizeof *positions);
	for (size_t i = 0; i < n; i++) {
		positions[i] = (uint32_t)i;
		for (size_t k = 0; k < spec->n; k++) {
			c.offsets[i * spec->n + k] = c.values.buf.len;
			vb_value(&c.values, get(get_ctx, items[i], &spec->keys[k]));
		}
	}
	sort_items_first(positions, n, first, spec, cached_value, &c);
	sort_reorder(items, positions, first);
	free(positions);
	free(c.offsets);
	vb_release(&c.values);
}
