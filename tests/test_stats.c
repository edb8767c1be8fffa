/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <criterion/criterion.h>
#include <math.h>

#include "chargesim/stats.h"

Test(stats, wilson_matches_hand_computation)
{
    /* 8 of 10 at z = 1.96: centre (0.8 + 0.19208)/1.38416 = 0.7167380,
     * half 1.96/1.38416 * sqrt(0.016 + 0.009604) = 0.2265811 (published: 0.4902, 0.9433). */
    double lo, hi;
    cs_stats_wilson(8, 10, 1.96, &lo, &hi);
    cr_expect_leq(fabs(lo - 0.4901568467), 1e-9, "lo %.8f", lo);
    cr_expect_leq(fabs(hi - 0.9433190520), 1e-9, "hi %.8f", hi);
    cs_stats_wilson(0, 10, 1.96, &lo, &hi);
    cr_expect_eq(lo, 0.0);
    cs_stats_wilson(10, 10, 1.96, &lo, &hi);
    cr_expect_eq(hi, 1.0);
}

Test(stats, moments_mean_and_variance)
{
    cs_moments a = {0};
    for (int i = 1; i <= 10; i++) {
        a.n++;
        a.sum += (double)i;
        a.sumsq += (double)(i * i);
    }
    cr_expect_eq(a.n, 10u);
    cr_expect_leq(fabs(cs_moments_mean(&a) - 5.5), 1e-12);
    /* variance of 1..10 = 110/12 = 9.1666... */
    cr_expect_leq(fabs(cs_moments_variance(&a) - 55.0 / 6.0), 1e-12);
    cr_expect(isnan(cs_moments_mean(&(cs_moments){0})));
}

Test(stats, mean_interval_collapses_without_variance)
{
    double lo, hi;
    cs_stats_mean_interval(0.25, 0.0, 100, 1.96, &lo, &hi);
    cr_expect_eq(lo, 0.25);
    cr_expect_eq(hi, 0.25);
    cs_stats_mean_interval(0.5, 0.25, 100, 2.0, &lo, &hi);
    cr_expect_leq(fabs(lo - 0.4), 1e-12);
    cr_expect_leq(fabs(hi - 0.6), 1e-12);
}

Test(stats, binning)
{
    /* Regular bins 0..10 at indices 1..11; 0 and 12 hold what falls outside. */
    cs_binning b = cs_binning_make(0.0, 10.0, 1.0);
    cr_expect_eq(b.nbins, 13);
    cr_expect_eq(cs_binning_index(&b, 3.2), 4);
    cr_expect_eq(cs_binning_value(&b, 4), 3.0);
    cr_expect_eq(cs_binning_index(&b, 0.0), 1);
    cr_expect_eq(cs_binning_index(&b, 10.0), 11);
    cr_expect_eq(cs_binning_index(&b, -5.0), 0);
    cr_expect_eq(cs_binning_outside(&b, 0), -1);
    cr_expect_eq(cs_binning_index(&b, 99.0), 12);
    cr_expect_eq(cs_binning_outside(&b, 12), 1);
    cr_expect_eq(cs_binning_outside(&b, 5), 0);
    cr_expect_eq(cs_binning_index(&b, (double)NAN), 0);
    cr_expect_eq(cs_binning_hi(&b), 10.0);
}

/* Newcombe (1998), Table I, method 4 (score with continuity correction),
 * z = 1.96, printed to 4 decimals (so within one unit of the last):
 * 81/263 -> 0.2535..0.3682, 15/148 -> 0.0598..0.1644, 0/20 -> 0..0.2005,
 * 1/29 -> 0.0018..0.1963. */
Test(stats, wilson_continuity_corrected_matches_newcombe)
{
    static const struct {
        uint64_t k, n;
        double lo, hi;
    } c[] = {{81, 263, 0.2535, 0.3682}, {15, 148, 0.0598, 0.1644}, {0, 20, 0.0, 0.2005},
             {1, 29, 0.0018, 0.1963}};
    for (size_t i = 0; i < sizeof c / sizeof c[0]; i++) {
        double lo, hi;
        cs_stats_wilson_cc(c[i].k, c[i].n, 1.96, &lo, &hi);
        cr_expect_leq(fabs(lo - c[i].lo), 1e-4, "%llu/%llu lo %.5f", (unsigned long long)c[i].k,
                      (unsigned long long)c[i].n, lo);
        cr_expect_leq(fabs(hi - c[i].hi), 1e-4, "%llu/%llu hi %.5f", (unsigned long long)c[i].k,
                      (unsigned long long)c[i].n, hi);
    }
}
