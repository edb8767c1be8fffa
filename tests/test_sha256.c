/* SPDX-License-Identifier: GPL-3.0-or-later */
/* SHA-256 against the FIPS 180-2 test vectors (appendix B: one block, two
 * blocks, a million 'a's) and the empty message; and the same digest
 * whatever the pieces the message is fed in. */
#include <criterion/criterion.h>
#include <string.h>

#include "chargesim/sha256.h"

Test(sha256, fips_180_2_one_block_abc)
{
    char hex[65];
    cs_sha256_hex("abc", 3, hex);
    cr_expect_str_eq(hex, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

Test(sha256, fips_180_2_two_blocks)
{
    const char *m = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq";
    char hex[65];
    cs_sha256_hex(m, strlen(m), hex);
    cr_expect_str_eq(hex, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

Test(sha256, fips_180_2_a_million_a_fed_in_odd_pieces)
{
    static char a[1000];
    memset(a, 'a', sizeof a);
    cs_sha256 s;
    uint8_t d[32];
    char hex[65];
    cs_sha256_init(&s);
    /* 1000 pieces of 999 and one of 1000 - ... : a total of 10^6 bytes in
     * pieces that straddle every block boundary. */
    size_t left = 1000000;
    for (size_t piece = 1; left > 0; piece = piece % 997 + 1) {
        size_t n = piece < left ? piece : left;
        cs_sha256_update(&s, a, n);
        left -= n;
    }
    cs_sha256_final(&s, d);
    cs_sha256_to_hex(d, hex);
    cr_expect_str_eq(hex, "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

Test(sha256, empty_message_and_padding_edges)
{
    char hex[65];
    cs_sha256_hex("", 0, hex);
    cr_expect_str_eq(hex, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    /* 55 and 56 bytes: the length fits the first block, or needs a second
     * (digests from coreutils' sha256sum, an independent implementation). */
    static const char m[] = "0123456789012345678901234567890123456789012345678901234567";
    cs_sha256_hex(m, 55, hex);
    cr_expect_str_eq(hex, "f34d5a0f80c0cbf84c8c0b90218c22637abd199965249da736a20143c8c9c9d9");
    cs_sha256_hex(m, 56, hex);
    cr_expect_str_eq(hex, "83aa034bda83e458a0dc9cbce0d4e354716aa0ff770ed37ac0ed2b292052e4af");
}
