/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Intervals, moments and histograms; see include/chargesim/stats.h. */
#include "chargesim/stats.h"

#include <math.h>

void cs_stats_wilson_real(double p, double n, double z, double *lo, double *hi)
{
    double z2 = z * z;
    double centre = (p + z2 / (2.0 * n)) / (1.0 + z2 / n);
    double half = z / (1.0 + z2 / n) * sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n));
    *lo = fmax(0.0, fmin(p, centre - half));
    *hi = fmin(1.0, fmax(p, centre + half));
}

void cs_stats_wilson(uint64_t successes, uint64_t n, double z, double *lo, double *hi)
{
    cs_stats_wilson_real((double)successes / (double)n, (double)n, z, lo, hi);
    /* At p = 0 or 1 one bound is exactly the observed value. */
    if (successes == 0)
        *lo = 0.0;
    if (successes == n)
        *hi = 1.0;
}

void cs_stats_wilson_cc(uint64_t successes, uint64_t n, double z, double *lo, double *hi)
{
    double nn = (double)n, p = (double)successes / nn, q = 1.0 - p, z2 = z * z;
    double den = 2.0 * (nn + z2);
    double rl = z2 - 2.0 - 1.0 / nn + 4.0 * p * (nn * q + 1.0);
    double rh = z2 + 2.0 - 1.0 / nn + 4.0 * p * (nn * q - 1.0);
    *lo = successes == 0 ? 0.0 : (2.0 * nn * p + z2 - 1.0 - z * sqrt(fmax(0.0, rl))) / den;
    *hi = successes == n ? 1.0 : (2.0 * nn * p + z2 + 1.0 + z * sqrt(fmax(0.0, rh))) / den;
    *lo = fmax(0.0, fmin(p, *lo));
    *hi = fmin(1.0, fmax(p, *hi));
}

double cs_moments_mean(const cs_moments *m)
{
    return m->n ? m->sum / (double)m->n : (double)NAN;
}

double cs_moments_variance(const cs_moments *m)
{
    if (m->n < 2)
        return (double)NAN;
    double n = (double)m->n, mean = m->sum / n;
    double v = (m->sumsq - n * mean * mean) / (n - 1.0);
    return v > 0.0 ? v : 0.0; /* rounding can make a zero variance negative */
}

void cs_stats_mean_interval(double mean, double variance, uint64_t n, double z,
                            double *lo, double *hi)
{
    double half = (n > 0 && variance > 0.0) ? z * sqrt(variance / (double)n) : 0.0;
    *lo = fmax(0.0, mean - half);
    *hi = fmin(1.0, mean + half);
}

cs_binning cs_binning_make(double lo, double hi, double res)
{
    int regular = (int)floor((hi - lo) / res + 0.5) + 1;
    cs_binning b = {lo, res, (regular < 1 ? 1 : regular) + 2};
    return b;
}

int cs_binning_index(const cs_binning *b, double x)
{
    double i = floor((x - b->lo) / b->res + 0.5);
    if (!(i >= 0.0)) /* below, or NAN */
        return 0;
    if (i > (double)(b->nbins - 3))
        return b->nbins - 1;
    return (int)i + 1;
}

double cs_binning_value(const cs_binning *b, int i)
{
    return b->lo + b->res * (double)(i - 1);
}

int cs_binning_outside(const cs_binning *b, int i)
{
    return i == 0 ? -1 : i == b->nbins - 1 ? 1 : 0;
}

double cs_binning_lo(const cs_binning *b)
{
    return b->lo;
}

double cs_binning_hi(const cs_binning *b)
{
    return b->lo + b->res * (double)(b->nbins - 3);
}
