/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <criterion/criterion.h>
#include <math.h>
#include <stdbool.h>

#include "chargesim/rng.h"

/* pcg32-demo's published output for seed 42, stream 54: round 1's six
 * 32-bit outputs, and round 2's six, which come after round 1 has also
 * flipped 65 coins, rolled 33 dice and shuffled 52 cards (51 draws). */
static const uint32_t round1[6] = {
    0xa15c02b7u, 0x7b47f409u, 0xba1d3330u, 0x83d2f293u, 0xbfa4784bu, 0xcbed606eu,
};
static const uint32_t round2[6] = {
    0x74ab93adu, 0x1c1da000u, 0x494ff896u, 0x34462f2fu, 0xd308a3e5u, 0x0fa83bab,
};

Test(rng, reference_vectors_and_negative_advance)
{
    cs_rng r;
    cs_rng_seed(&r, 42u, 54u);
    for (int i = 0; i < 6; i++)
        cr_expect_eq(cs_rng_next(&r), round1[i], "round 1 output %d", i);
    /* The demo's "Again" line: advancing by -6 replays the same six. */
    cs_rng_advance(&r, -6);
    for (int i = 0; i < 6; i++)
        cr_expect_eq(cs_rng_next(&r), round1[i], "replayed output %d", i);
    /* The demo's coins, dice and shuffle, through our bounded draw: for these
     * small bounds no draw falls in the rejection zone, so one output each. */
    for (int i = 0; i < 65; i++)
        cr_assert_lt(cs_rng_bounded(&r, 2u), 2u);
    for (int i = 0; i < 33; i++)
        cr_assert_lt(cs_rng_bounded(&r, 6u), 6u);
    for (uint32_t i = 52; i > 1; i--)
        cr_assert_lt(cs_rng_bounded(&r, i), i);
    for (int i = 0; i < 6; i++)
        cr_expect_eq(cs_rng_next(&r), round2[i], "round 2 output %d", i);
    /* and -6 replays round 2 as well. */
    cs_rng_advance(&r, -6);
    for (int i = 0; i < 6; i++)
        cr_expect_eq(cs_rng_next(&r), round2[i], "replayed round 2 output %d", i);
}

Test(rng, advance_forwards_skips)
{
    cs_rng a, b;
    cs_rng_seed(&a, 7u, 3u);
    b = a;
    for (int i = 0; i < 1000; i++)
        (void)cs_rng_next(&a);
    cs_rng_advance(&b, 1000);
    cr_expect_eq(a.state, b.state);
    cs_rng_advance(&b, 0);
    cr_expect_eq(a.state, b.state);
}

/* Trial generators (issue 18): a seek lands where stepping trial by trial
 * does, and trial k's generator is the block's stream selector started at
 * SplitMix64's k-th state. */
Test(rng, trial_streams_seek_where_stepping_lands)
{
    cs_rng block, r, s;
    cs_rng_stream(&block, 11u, 2u, 5u);
    cs_rng_trials step, seek;
    cs_rng_trials_init(&step, &block);
    cs_rng_trials_init(&seek, &block);
    for (uint64_t k = 0; k < 3000; k++) {
        cs_rng_trials_next(&step, &r);
        cr_assert_eq(r.inc, block.inc);
        cr_assert_eq(r.state, cs_rng_mix64(block.state + k * 0x9e3779b97f4a7c15ULL));
        if (k % 997 == 0 || k == 2999) {
            cs_rng_trials_seek(&seek, k);
            cs_rng_trials_next(&seek, &s);
            cr_expect_eq(r.state, s.state, "trial %llu", (unsigned long long)k);
        }
    }
}

/* Pearson's chi-square of the 6 x 6 table of (first D6 of trial t, first D6
 * of trial t + 1) over n trials whose generators `next` gives. */
static double first_die_pairs_chi2(cs_rng_trials *ts, bool stride, cs_rng *strided, int n)
{
    uint64_t table[6][6] = {{0}};
    int prev = -1;
    for (int t = 0; t < n; t++) {
        cs_rng r;
        if (stride) { /* trial t starts t * 2^32 outputs into the block */
            r = *strided;
            cs_rng_advance(strided, (int64_t)1 << 32);
        } else {
            cs_rng_trials_next(ts, &r);
        }
        int d = cs_rng_die(&r, 6) - 1;
        if (prev >= 0)
            table[prev][d]++;
        prev = d;
    }
    double chi2 = 0.0, e = (double)(n - 1) / 36.0;
    for (int i = 0; i < 6; i++)
        for (int j = 0; j < 6; j++)
            chi2 += ((double)table[i][j] - e) * ((double)table[i][j] - e) / e;
    return chi2;
}

/* Consecutive trials' dice are independent: the pair table's chi-square (35
 * degrees of freedom) stays under 84.0, its 1 - 10^-6 quantile, at this
 * seed. The same test refuses trials a fixed stride of 2^32 outputs apart
 * (their states share the low 32 bits, and their starts lie almost in an
 * arithmetic progression): the test can see the defect it guards against. */
Test(rng, consecutive_trials_roll_independent_dice)
{
    cs_rng block;
    cs_rng_stream(&block, 2026u, 0u, 0u);
    cs_rng_trials ts;
    cs_rng_trials_init(&ts, &block);
    double ours = first_die_pairs_chi2(&ts, false, NULL, 360000);
    cr_expect_lt(ours, 84.0, "trial generators: chi-square %.1f", ours);
    cs_rng strided = block;
    double bad = first_die_pairs_chi2(NULL, true, &strided, 360000);
    cr_expect_gt(bad, 84.0, "a 2^32 stride: chi-square %.1f", bad);
}

Test(rng, bounded_stays_in_range_and_hits_every_value)
{
    cs_rng r;
    cs_rng_seed(&r, 1u, 1u);
    int seen[7] = {0};
    for (int i = 0; i < 10000; i++) {
        uint32_t v = cs_rng_bounded(&r, 7u);
        cr_assert_lt(v, 7u);
        seen[v]++;
    }
    for (int v = 0; v < 7; v++)
        cr_expect_gt(seen[v], 0);
    /* A bound whose rejection zone is large: 2^31 + 1. */
    for (int i = 0; i < 1000; i++)
        cr_assert_lt(cs_rng_bounded(&r, 0x80000001u), 0x80000001u);
}

Test(rng, die_is_fair_within_five_sigma)
{
    /* 600000 rolls: each face count is binomial(n, 1/6); 5 standard errors. */
    cs_rng r;
    cs_rng_seed(&r, 99u, 5u);
    const int n = 600000;
    int count[7] = {0};
    for (int i = 0; i < n; i++)
        count[cs_rng_die(&r, 6)]++;
    double sd = sqrt(n * (1.0 / 6.0) * (5.0 / 6.0));
    for (int f = 1; f <= 6; f++)
        cr_expect_leq(fabs(count[f] - n / 6.0), 5.0 * sd, "face %d: %d", f, count[f]);
}

Test(rng, streams_differ_and_repeat)
{
    cs_rng a, b, c;
    cs_rng_stream(&a, 1u, 0u, 0u);
    cs_rng_stream(&b, 1u, 0u, 1u);
    cs_rng_stream(&c, 1u, 0u, 0u);
    cr_expect_neq(cs_rng_next(&a), cs_rng_next(&b));
    cs_rng_stream(&a, 1u, 0u, 0u);
    cr_expect_eq(cs_rng_next(&a), cs_rng_next(&c));
}

Test(rng, uniform_and_normal_moments)
{
    cs_rng r;
    cs_rng_seed(&r, 5u, 8u);
    const int n = 200000;
    double su = 0, sn = 0, sn2 = 0;
    for (int i = 0; i < n; i++) {
        double u = cs_rng_uniform(&r);
        cr_assert(u >= 0.0 && u < 1.0);
        su += u;
        double z = cs_rng_normal(&r);
        sn += z;
        sn2 += z * z;
    }
    /* Standard errors: sqrt(1/12/n) for the uniform mean, 1/sqrt(n) for the
     * normal mean, sqrt(2/n) for the normal's second moment. */
    cr_expect_leq(fabs(su / n - 0.5), 5.0 * sqrt(1.0 / 12.0 / n));
    cr_expect_leq(fabs(sn / n), 5.0 / sqrt(n));
    cr_expect_leq(fabs(sn2 / n - 1.0), 5.0 * sqrt(2.0 / n));
}
