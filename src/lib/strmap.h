/*
 * strmap: a hash table from strings to pointers, for lookups built once
 * and read many times (an index's terms, users, assets by key). Keys are
 * copied; values are borrowed. The first value put under a key stays.
 */
#ifndef CMS_API_STRMAP_H
#define CMS_API_STRMAP_H

#include <stddef.h>

struct strmap {
	char **keys;         /* owned, NULL in empty slots */
	const void **values; /* borrowed */
	size_t nslots;       /* 0, or a power of two more than twice n */
	size_t n;
};

#define STRMAP_INIT {NULL, NULL, 0, 0}

/* Adds key -> value unless key is there already. */
void strmap_put(struct strmap *m, const char *key, const void *value);
/* The value under key, or NULL. */
const void *strmap_get(const struct strmap *m, const char *key);
/* Puts every key of from (with its value) into into. */
void strmap_put_all(struct strmap *into, const struct strmap *from);
void strmap_free(struct strmap *m);

#endif
