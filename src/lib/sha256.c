/* sha256: FIPS 180-4 SHA-256; see sha256.h. */
#include "autoconfig.h"

#include "lib/sha256.h"

#include <stdio.h>
#include <string.h>

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2,
};

static uint32_t rotr(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

static uint32_t load_be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static void store_be32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* FIPS 180-4 §6.2.2: one 512-bit block into the state. */
static void compress(uint32_t state[8], const unsigned char block[64])
{
	uint32_t w[64];
	for (int t = 0; t < 16; t++)
		w[t] = load_be32(block + 4 * t);
	for (int t = 16; t < 64; t++) {
		uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
		uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
		w[t] = w[t - 16] + s0 + w[t - 7] + s1;
	}
	uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
	uint32_t e = state[4], f = state[5], g = state[6], h = state[7];
	for (int t = 0; t < 64; t++) {
		uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) +
		              K[t] + w[t];
		uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
		h = g;
		g = f;
		f = e;
		e = d + t1;
		d = c;
		c = b;
		b = a;
		a = t1 + t2;
	}
	state[0] += a;
	state[1] += b;
	state[2] += c;
	state[3] += d;
	state[4] += e;
	state[5] += f;
	state[6] += g;
	state[7] += h;
}

void sha256_init(struct sha256 *ctx)
{
	static const uint32_t initial[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
	                                    0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
	memcpy(ctx->state, initial, sizeof initial);
	ctx->bytes = 0;
	ctx->used = 0;
}

void sha256_update(struct sha256 *ctx, const void *data, size_t len)
{
	const unsigned char *p = data;
	ctx->bytes += len;
	while (len > 0) {
		size_t n = sizeof ctx->block - ctx->used;
		if (n > len)
			n = len;
		memcpy(ctx->block + ctx->used, p, n);
		ctx->used += n;
		p += n;
		len -= n;
		if (ctx->used == sizeof ctx->block) {
			compress(ctx->state, ctx->block);
			ctx->used = 0;
		}
	}
}

void sha256_final(struct sha256 *ctx, unsigned char digest[SHA256_DIGEST_LEN])
{
	/* §5.1.1: a 1 bit, zeros, then the length in bits in the last 8 bytes. */
	uint64_t bits = ctx->bytes * 8;
	ctx->block[ctx->used++] = 0x80;
	if (ctx->used > 56) {
		memset(ctx->block + ctx->used, 0, sizeof ctx->block - ctx->used);
		compress(ctx->state, ctx->block);
		ctx->used = 0;
	}
	memset(ctx->block + ctx->used, 0, 56 - ctx->used);
	store_be32(ctx->block + 56, (uint32_t)(bits >> 32));
	store_be32(ctx->block + 60, (uint32_t)bits);
	compress(ctx->state, ctx->block);
	for (int i = 0; i < 8; i++)
		store_be32(digest + 4 * i, ctx->state[i]);
	/* The input was a secret: leave none of it behind. */
	memset(ctx, 0, sizeof *ctx);
	__asm__ __volatile__("" : : "r"(ctx) : "memory");
}

void sha256_hex(const void *data, size_t len, char hex[SHA256_HEX_LEN + 1])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char digest[SHA256_DIGEST_LEN];
	struct sha256 ctx;
	sha256_init(&ctx);
	sha256_update(&ctx, data, len);
	sha256_final(&ctx, digest);
	for (int i = 0; i < SHA256_DIGEST_LEN; i++) {
		hex[2 * i] = digits[digest[i] >> 4];
		hex[2 * i + 1] = digits[digest[i] & 15];
	}
	hex[SHA256_HEX_LEN] = '\0';
}

void hmac_sha256_hex(const void *key, size_t key_len, const void *data, size_t len,
                     char hex[SHA256_HEX_LEN + 1])
{
	unsigned char k[64] = {0}, pad[64], inner[SHA256_DIGEST_LEN], digest[SHA256_DIGEST_LEN];
	struct sha256 ctx;
	if (key_len > sizeof k) {
		/* A key longer than a block is its digest (RFC 2104 §2). */
		sha256_init(&ctx);
		sha256_update(&ctx, key, key_len);
		sha256_final(&ctx, k);
	} else {
		memcpy(k, key, key_len);
	}
	for (size_t i = 0; i < sizeof pad; i++)
		pad[i] = k[i] ^ 0x36;
	sha256_init(&ctx);
	sha256_update(&ctx, pad, sizeof pad);
	sha256_update(&ctx, data, len);
	sha256_final(&ctx, inner);
	for (size_t i = 0; i < sizeof pad; i++)
		pad[i] = k[i] ^ 0x5c;
	sha256_init(&ctx);
	sha256_update(&ctx, pad, sizeof pad);
	sha256_update(&ctx, inner, sizeof inner);
	sha256_final(&ctx, digest);
	for (size_t i = 0; i < SHA256_DIGEST_LEN; i++)
		snprintf(hex + 2 * i, 3, "%02x", digest[i]);
	memset(k, 0, sizeof k);
	memset(pad, 0, sizeof pad);
}
