/*
 * hash: FNV-1a 64, for hash tables keyed by strings. Not for secrets: the
 * full key is always compared after a hash matches.
 */
#ifndef CMS_API_HASH_H
#define CMS_API_HASH_H

#include <stddef.h>
#include <stdint.h>

/* Of len bytes, NULs included. */
static inline uint64_t hash_fnv1a_bytes(const void *bytes, size_t len)
{
	const unsigned char *b = bytes;
	uint64_t h = 0xcbf29ce484222325ULL;
	for (size_t i = 0; i < len; i++)
		h = (h ^ b[i]) * 0x100000001b3ULL;
	return h;
}

static inline uint64_t hash_fnv1a(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ULL;
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ULL;
	return h;
}

#endif
