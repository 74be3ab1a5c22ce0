/*
 * siphash: SipHash-2-4 (Aumasson and Bernstein), a keyed 64-bit hash.
 * Whoever does not know the key can neither predict a hash nor aim two
 * inputs at one. The rate limit names its counters with it, so that a
 * client key (an address, a bearer token) is never stored as it is and no
 * client can pick a text that lands on another client's counter.
 */
#ifndef CMS_API_SIPHASH_H
#define CMS_API_SIPHASH_H

#include <stddef.h>
#include <stdint.h>

#define SIPHASH_KEY_LEN 16

uint64_t siphash24(const uint8_t key[SIPHASH_KEY_LEN], const void *data, size_t len);

#endif
