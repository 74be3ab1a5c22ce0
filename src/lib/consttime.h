/*
 * consttime: comparing a secret without telling, by the time it takes,
 * how much of it a guess got right. Used for the shared bearer token and
 * for the hashes of per-user tokens.
 */
#ifndef CMS_API_CONSTTIME_H
#define CMS_API_CONSTTIME_H

#include <stdbool.h>
#include <stddef.h>

/* Compares a[0..alen) with b[0..blen), the secret, in time that depends
 * only on blen. */
bool constant_time_equal(const char *a, size_t alen, const char *b, size_t blen);

#endif
