/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_STATS_H
#define CHARGESIM_STATS_H
/* Statistics of a run: intervals, moments and histograms. Every
 * accumulator here merges exactly: integer counts in any order, the double
 * sums in the fixed block order the scheduler uses, so a merged result never
 * depends on how blocks were spread over threads. Pure, no allocation. */
#include <stdint.h>

/* Wilson score interval for `successes` out of `n` (n > 0) at z. */
void cs_stats_wilson(uint64_t successes, uint64_t n, double z, double *lo, double *hi);
/* The same for a share p of n observations with n real (n > 0), the bounds
 * kept on either side of p: for shares of probability mass, where the
 * per-layout shares lie in [0, 1] so the binomial variance bounds theirs. */
void cs_stats_wilson_real(double p, double n, double z, double *lo, double *hi);
/* Wilson's interval with continuity correction (Newcombe 1998, method 4):
 * wider by about 1/2n, it keeps its coverage where the plain one dips below
 * nominal (small counts, and intervals read at a --precision stopping time). */
void cs_stats_wilson_cc(uint64_t successes, uint64_t n, double z, double *lo, double *hi);

/* Sums of one quantity: the estimators keep them in their tallies. */
typedef struct cs_moments {
    uint64_t n;   /* observations */
    double sum;   /* of the values */
    double sumsq; /* of their squares */
} cs_moments;

double cs_moments_mean(const cs_moments *m);      /* NAN when n == 0 */
double cs_moments_variance(const cs_moments *m);  /* sample variance, NAN when n < 2 */

/* Interval for a mean of n i.i.d. values in [0, 1] with the given sample
 * variance (the central limit theorem), clipped to [0, 1]. A zero variance
 * collapses it onto the mean: that is how an exact answer reads. */
void cs_stats_mean_interval(double mean, double variance, uint64_t n, double z,
                            double *lo, double *hi);

/* Histogram bins of width `res` centred on lo, lo + res, ..., hi, with an
 * underflow bin before them (index 0: values below lo - res/2) and an
 * overflow bin after them (index nbins - 1: above hi + res/2), so a value
 * outside the declared range is counted as such, never as an edge value. */
typedef struct cs_binning {
    double lo, res;
    int nbins; /* the regular bins plus the two outer ones */
} cs_binning;

cs_binning cs_binning_make(double lo, double hi, double res);
int cs_binning_index(const cs_binning *b, double x);
/* A regular bin's representative value (1 <= i <= nbins - 2). */
double cs_binning_value(const cs_binning *b, int i);
/* -1 for the underflow bin, 1 for the overflow bin, 0 for a regular one. */
int cs_binning_outside(const cs_binning *b, int i);
/* The lowest and highest representable values: lo and hi as made. */
double cs_binning_lo(const cs_binning *b);
double cs_binning_hi(const cs_binning *b);

#endif
