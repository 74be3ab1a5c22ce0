/* filterparams: the filter[...] parameters of a request; see filterparams.h. */
#include "autoconfig.h"

#include "query/filterparams.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "lib/strbuf.h"

char *filter_param_key(const char *name)
{
	size_t n = strlen(name);
	if (n < 9 || strncmp(name, "filter[", 7) != 0 || name[n - 1] != ']')
		return NULL;
	return xstrndup(name + 7, n - 8);
}

char *filter_param_field(const char *key)
{
	if (strncmp(key, "taxonomy:", 9) == 0)
		return xstrndup(key, 9 + strcspn(key + 9, ":"));
	return xstrndup(key, strcspn(key, ":"));
}

static void add(struct filter_params *out, char *key, const char *value, size_t group)
{
	out->items = xrealloc(out->items, (out->n + 1) * sizeof *out->items);
	out->items[out->n++] = (struct filter_param){key, value, group};
}

void filter_params_add(struct filter_params *out, const char *key, const char *value)
{
	add(out, xstrdup(key), value, FILTER_TOP);
}

/* The place of the group numbered `number` (as written), made when new. */
static size_t group_place(char ***numbers, size_t *n, const char *number, size_t len)
{
	for (size_t i = 0; i < *n; i++)
		if (strlen((*numbers)[i]) == len && memcmp((*numbers)[i], number, len) == 0)
			return i;
	*numbers = xrealloc(*numbers, (*n + 1) * sizeof **numbers);
	(*numbers)[*n] = xstrndup(number, len);
	return (*n)++;
}

/* "or][N][KEY" (what filter[...] holds for a group filter): N's digits
 * and KEY. Returns 0, or -1 when it is malformed. */
static int split_group(const char *inner, const char **number, size_t *number_len,
                       const char **key)
{
	const char *p = inner + 4; /* past "or][" */
	size_t digits = 0;
	while (isdigit((unsigned char)p[digits]))
		digits++;
	if (digits == 0 || digits > FILTER_GROUP_MAX_DIGITS || strncmp(p + digits, "][", 2) != 0)
		return -1;
	*number = p;
	*number_len = digits;
	*key = p + digits + 2;
	/* A field, and no group inside the group. */
	if (!**key || strncmp(*key, "or][", 4) == 0 || strstr(*key, "]["))
		return -1;
	return 0;
}

static void free_numbers(char **numbers, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(numbers[i]);
	free(numbers);
}

int filter_params_read(const struct request *req, struct filter_params *out,
                       struct http_error *e)
{
	memset(out, 0, sizeof *out);
	char **numbers = NULL;
	for (size_t i = 0; i < req->nparams; i++) {
		const struct query_param *q = &req->params[i];
		char *inner = filter_param_key(q->name);
		if (!inner)
			continue;
		if (strncmp(inner, "or][", 4) != 0) {
			add(out, inner, q->value, FILTER_TOP);
			continue;
		}
		const char *number, *key;
		size_t len;
		if (split_group(inner, &number, &len, &key) != 0) {
			free(inner);
			free_numbers(numbers, out->ngroups);
			filter_params_free(out);
			return http_error_set(e, 400,
			                      "Malformed filter group %.200s: write filter[or][N][field:condition], "
			                      "N a number, one level deep.", q->name);
		}
		size_t group = group_place(&numbers, &out->ngroups, number, len);
		add(out, xstrdup(key), q->value, group);
		free(inner);
	}
	free_numbers(numbers, out->ngroups);
	return 0;
}

void filter_params_free(struct filter_params *p)
{
	for (size_t i = 0; i < p->n; i++)
		free(p->items[i].key);
	free(p->items);
	memset(p, 0, sizeof *p);
}
