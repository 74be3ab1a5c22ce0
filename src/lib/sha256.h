/*
 * sha256: SHA-256 (FIPS 180-4), for the per-user API tokens, which are
 * kept only as the hash of their secret. Small and dependency-free: no
 * crypto library is among the project's dependencies. Not for bulk data
 * (no SIMD), and no secret is ever kept in the context after final.
 */
#ifndef CMS_API_SHA256_H
#define CMS_API_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define SHA256_DIGEST_LEN 32
#define SHA256_HEX_LEN 64

struct sha256 {
	uint32_t state[8];
	uint64_t bytes;        /* message length so far */
	unsigned char block[64];
	size_t used;           /* bytes waiting in block */
};

void sha256_init(struct sha256 *ctx);
void sha256_update(struct sha256 *ctx, const void *data, size_t len);
/* Writes the digest and wipes the context. */
void sha256_final(struct sha256 *ctx, unsigned char digest[SHA256_DIGEST_LEN]);

/* The digest of data[0..len) as 64 lowercase hex digits and a NUL. */
void sha256_hex(const void *data, size_t len, char hex[SHA256_HEX_LEN + 1]);

/* HMAC-SHA256 (RFC 2104) of data[0..len) under key[0..key_len), as 64
 * lowercase hex digits and a NUL: a webhook's signature. */
void hmac_sha256_hex(const void *key, size_t key_len, const void *data, size_t len,
                     char hex[SHA256_HEX_LEN + 1]);

#endif
