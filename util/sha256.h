/* SPDX-License-Identifier: GPL-2.0-or-later */
/* SHA-256 (FIPS 180-4), for the snapshot manifest's checksums. */
#ifndef RDMADIAG_SHA256_H
#define RDMADIAG_SHA256_H

#include <stddef.h>
#include <stdint.h>

struct sha256 {
	uint32_t h[8];
	uint64_t len;		/* bytes hashed so far */
	uint8_t block[64];
	size_t fill;
};

void sha256_init(struct sha256 *s);
void sha256_update(struct sha256 *s, const void *data, size_t len);
void sha256_final(struct sha256 *s, uint8_t out[32]);
/* The digest of data as 64 lowercase hex digits and a NUL. */
void sha256_hex(const void *data, size_t len, char out[65]);

#endif
