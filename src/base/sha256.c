/*
 * sha256.c - SHA-256 as specified by FIPS 180-4, sections 4.1.2, 5.3.3, 6.2.
 *
 * Written for clarity first: one compression function over a 16-word
 * message schedule kept in a ring, so the whole state fits in registers.
 */
#include "base/sha256.h"

#include <string.h>

/* The first 32 bits of the fractional parts of the cube roots of the first
 * 64 primes (FIPS 180-4, 4.2.2). */
static const uint32_t sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1,
    0x923f82a4, 0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3,
    0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
    0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147,
    0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
    0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
    0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
    0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208,
    0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

#define ROTR(x, n) (((x) >> (n)) | ((x) << (32 - (n))))

static uint32_t
sha256_load32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	       (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static void
sha256_store32(unsigned char *p, uint32_t v)
{
	p[0] = (unsigned char)(v >> 24);
	p[1] = (unsigned char)(v >> 16);
	p[2] = (unsigned char)(v >> 8);
	p[3] = (unsigned char)v;
}

/* Compress count consecutive 64-byte blocks into state (FIPS 180-4, 6.2.2). */
static void
sha256_blocks(uint32_t state[8], const unsigned char *p, size_t count)
{
	for (; count > 0; count--, p += 64) {
		uint32_t w[16];
		uint32_t a = state[0], b = state[1], c = state[2], d = state[3];
		uint32_t e = state[4], f = state[5], g = state[6], h = state[7];

		for (int t = 0; t < 64; t++) {
			uint32_t wt, t1, t2;

			if (t < 16) {
				wt = sha256_load32(p + 4 * t);
			} else {
				uint32_t w15 = w[(t - 15) & 15],
				         w2 = w[(t - 2) & 15];
				uint32_t s0 =
				    ROTR(w15, 7) ^ ROTR(w15, 18) ^ (w15 >> 3);
				uint32_t s1 =
				    ROTR(w2, 17) ^ ROTR(w2, 19) ^ (w2 >> 10);

				wt = w[t & 15] + s0 + w[(t - 7) & 15] + s1;
			}
			w[t & 15] = wt;
			t1 = h + (ROTR(e, 6) ^ ROTR(e, 11) ^ ROTR(e, 25)) +
			     ((e & f) ^ (~e & g)) + sha256_k[t] + wt;
			t2 = (ROTR(a, 2) ^ ROTR(a, 13) ^ ROTR(a, 22)) +
			     ((a & b) ^ (a & c) ^ (b & c));
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
}

void
sf_sha256_init(sf_sha256 *ctx)
{
	/* The first 32 bits of the fractional parts of the square roots of
	 * the first 8 primes (FIPS 180-4, 5.3.3). */
	static const uint32_t initial[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372,
	                                    0xa54ff53a, 0x510e527f, 0x9b05688c,
	                                    0x1f83d9ab, 0x5be0cd19};

	memcpy(ctx->state, initial, sizeof initial);
	ctx->length = 0;
	ctx->used = 0;
}

void
sf_sha256_update(sf_sha256 *ctx, const void *data, size_t length)
{
	const unsigned char *p = data;

	if (length == 0)
		return;
	ctx->length += length;
	if (ctx->used > 0) {
		size_t take = 64 - ctx->used;

		if (take > length)
			take = length;
		memcpy(ctx->block + ctx->used, p, take);
		ctx->used += take;
		p += take;
		length -= take;
		if (ctx->used < 64)
			return;
		sha256_blocks(ctx->state, ctx->block, 1);
		ctx->used = 0;
	}
	/* Whole blocks are hashed in place, without a copy. */
	sha256_blocks(ctx->state, p, length / 64);
	p += length - length % 64;
	length %= 64;
	memcpy(ctx->block, p, length);
	ctx->used = length;
}

void
sf_sha256_final(sf_sha256 *ctx, unsigned char digest[SF_SHA256_SIZE])
{
	uint64_t bits = ctx->length * 8;

	/* Padding (FIPS 180-4, 5.1.1): a 1 bit, zeros, the 64-bit length. */
	ctx->block[ctx->used++] = 0x80;
	if (ctx->used > 56) {
		memset(ctx->block + ctx->used, 0, 64 - ctx->used);
		sha256_blocks(ctx->state, ctx->block, 1);
		ctx->used = 0;
	}
	memset(ctx->block + ctx->used, 0, 56 - ctx->used);
	sha256_store32(ctx->block + 56, (uint32_t)(bits >> 32));
	sha256_store32(ctx->block + 60, (uint32_t)bits);
	sha256_blocks(ctx->state, ctx->block, 1);
	for (int i = 0; i < 8; i++)
		sha256_store32(digest + 4 * i, ctx->state[i]);
}

void
sf_sha256_hex(const unsigned char digest[SF_SHA256_SIZE],
              char hex[SF_SHA256_HEX_SIZE])
{
	static const char digits[] = "0123456789abcdef";

	for (int i = 0; i < SF_SHA256_SIZE; i++) {
		hex[2 * i] = digits[digest[i] >> 4];
		hex[2 * i + 1] = digits[digest[i] & 15];
	}
	hex[2 * SF_SHA256_SIZE] = '\0';
}
