/* strmap: string keys to borrowed pointers; see strmap.h. */
#include "autoconfig.h"

#include "lib/strmap.h"

#include <stdlib.h>
#include <string.h>

#include "lib/hash.h"
#include "lib/strbuf.h"

/* The slot of key: where it is, or the empty slot where it would go. */
static size_t slot_of(const struct strmap *m, const char *key)
{
	size_t s = (size_t)hash_fnv1a(key) & (m->nslots - 1);
	while (m->keys[s] && strcmp(m->keys[s], key) != 0)
		s = (s + 1) & (m->nslots - 1);
	return s;
}

static void grow(struct strmap *m)
{
	struct strmap bigger = {NULL, NULL, m->nslots ? m->nslots * 2 : 16, 0};
	bigger.keys = xcalloc(bigger.nslots, sizeof *bigger.keys);
	bigger.values = xcalloc(bigger.nslots, sizeof *bigger.values);
	for (size_t i = 0; i < m->nslots; i++) {
		if (!m->keys[i])
			continue;
		size_t s = slot_of(&bigger, m->keys[i]);
		bigger.keys[s] = m->keys[i];
		bigger.values[s] = m->values[i];
		bigger.n++;
	}
	free(m->keys);
	free(m->values);
	*m = bigger;
}

void strmap_put(struct strmap *m, const char *key, const void *value)
{
	if ((m->n + 1) * 2 >= m->nslots)
		grow(m);
	size_t s = slot_of(m, key);
	if (m->keys[s])
		return;
	m->keys[s] = xstrdup(key);
	m->values[s] = value;
	m->n++;
}

const void *strmap_get(const struct strmap *m, const char *key)
{
	if (m->n == 0)
		return NULL;
	size_t s = slot_of(m, key);
	return m->keys[s] ? m->values[s] : NULL;
}

void strmap_free(struct strmap *m)
{
	for (size_t i = 0; i < m->nslots; i++)
		free(m->keys[i]);
	free(m->keys);
	free(m->values);
	memset(m, 0, sizeof *m);
}

void strmap_put_all(struct strmap *into, const struct strmap *from)
{
	for (size_t i = 0; i < from->nslots; i++)
		if (from->keys[i])
			strmap_put(into, from->keys[i], from->values[i]);
}
