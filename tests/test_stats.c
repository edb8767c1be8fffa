#include <criterion/criterion.h>
#include <math.h>

#include "chargesim/stats.h"

Test(stats, z_of_common_confidences)
{
    /* Standard normal table values. */
    cr_expect_leq(fabs(cs_stats_z(0.95) - 1.959963984540054), 1e-12);
    cr_expect_leq(fabs(cs_stats_z(0.99) - 2.5758293035489), 1e-12);
}

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

Test(stats, moments_merge_equals_whole)
{
    cs_moments a = {0}, b = {0}, all = {0};
    for (int i = 1; i <= 10; i++) {
        cs_moments_add(i <= 4 ? &a : &b, (double)i);
        cs_moments_add(&all, (double)i);
    }
    cs_moments_merge(&a, &b);
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

Test(stats, binning_and_quantiles)
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
    uint64_t counts[13] = {0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0}; /* values 1..5 */
    cr_expect_eq(cs_stats_quantile(&b, counts, 0.5), 3.0);
    cr_expect_eq(cs_stats_quantile(&b, counts, 0.0), 1.0);
    cr_expect_eq(cs_stats_quantile(&b, counts, 1.0), 5.0);
    counts[12] = 10; /* mostly beyond the range: the median is too */
    cr_expect(isinf(cs_stats_quantile(&b, counts, 0.5)));
}
