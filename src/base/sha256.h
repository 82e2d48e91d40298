/*
 * sha256.h - SHA-256 (FIPS 180-4), for the data.sha256 provenance field.
 *
 * A report names the exact bytes it was fitted to by their SHA-256, so the
 * CSV reader hashes every byte it reads.  This is the plain FIPS 180-4
 * algorithm in portable C (about a hundred lines, checked against the
 * standard's test vectors in tests/test_csv.c); a crypto library would be a
 * dependency for one function whose speed is not the bottleneck.
 *
 * Use: sf_sha256_init(), any number of sf_sha256_update() calls, then
 * sf_sha256_final(); sf_sha256_hex() turns a digest into lower-case hex.
 * The context is a small value owned by the caller; nothing allocates.
 *
 * Thread safety: a context must not be used by two threads at once;
 * distinct contexts are independent.
 */
#ifndef SF_SHA256_H
#define SF_SHA256_H

#include <stddef.h>
#include <stdint.h>

enum {
	SF_SHA256_SIZE = 32,    /* bytes in a digest */
	SF_SHA256_HEX_SIZE = 65 /* chars in a hex digest, with its NUL */
};

/* The running state of one hash computation. */
typedef struct sf_sha256 {
	uint32_t state[8];       /* chaining value H0..H7 */
	uint64_t length;         /* bytes hashed so far */
	unsigned char block[64]; /* a partial block waiting for more bytes */
	size_t used;             /* bytes held in block */
} sf_sha256;

/* Start a new hash in ctx. */
void sf_sha256_init(sf_sha256 *ctx);

/* Hash length more bytes at data (data may be NULL when length is 0). */
void sf_sha256_update(sf_sha256 *ctx, const void *data, size_t length);

/*
 * Finish the hash and store the 32-byte digest in digest.  ctx must be
 * initialised again before it is reused.
 */
void sf_sha256_final(sf_sha256 *ctx, unsigned char digest[SF_SHA256_SIZE]);

/* Write digest as 64 lower-case hex digits and a NUL into hex. */
void sf_sha256_hex(const unsigned char digest[SF_SHA256_SIZE],
                   char hex[SF_SHA256_HEX_SIZE]);

#endif /* SF_SHA256_H */
