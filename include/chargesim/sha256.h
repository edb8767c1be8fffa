/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_SHA256_H
#define CHARGESIM_SHA256_H
/* SHA-256 (FIPS 180-4, unchanged from FIPS 180-2), for the experiment
 * file's digest in the CSVW metadata. Pure core: bytes in, digest out; the
 * io layer reads the file. Checked against the FIPS 180-2 test vectors
 * (tests/test_sha256.c). */
#include <stddef.h>
#include <stdint.h>

typedef struct cs_sha256 {
    uint32_t h[8];      /* the chaining value */
    uint64_t bytes;     /* message length so far */
    uint8_t block[64];  /* the partial block */
    size_t used;        /* bytes in block */
} cs_sha256;

void cs_sha256_init(cs_sha256 *s);
void cs_sha256_update(cs_sha256 *s, const void *data, size_t n);
/* Pads, finishes and writes the 32-byte digest. */
void cs_sha256_final(cs_sha256 *s, uint8_t digest[32]);
/* The digest of data as 64 lower-case hex digits and a NUL. */
void cs_sha256_hex(const void *data, size_t n, char hex[65]);
/* 32 bytes as 64 lower-case hex digits and a NUL. */
void cs_sha256_to_hex(const uint8_t digest[32], char hex[65]);

#endif
