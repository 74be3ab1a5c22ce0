/*
 * hash: FNV-1a 64, for hash tables keyed by strings. Not for secrets: the
 * full key is always compared after a hash matches.
 */
#ifndef CMS_API_HASH_H
#define CMS_API_HASH_H

#include <stdint.h>

static inline uint64_t hash_fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

#endif
