/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_QUANTILE_H
#define CHARGESIM_QUANTILE_H
/* The quantiles an interval's half-width is made of (src/sim/est/quantile.c):
 * the standard normal's and Student's t, both GSL's, one of each for the
 * whole program. They live in sim, not beside the intervals in core's
 * stats.h, because core includes libc's maths only: the interval functions
 * there take z as a parameter and their callers here compute it. */

/* The two-sided standard normal quantile z with P(|Z| <= z) = confidence,
 * 0 < confidence < 1 (0.95 -> 1.959964...). Pure: any thread may call it. */
double cs_quantile_normal(double confidence);

/* The two-sided Student t quantile with df > 0 degrees of freedom at
 * confidence c: the half-width of an interval of R replicate means is
 * cs_quantile_t(R - 1, c) * sd / sqrt(R). It turns GSL's aborting error
 * handler off for the whole process (as cs_qmc_set_init does, qmc.h), so
 * call it before a run's threads start, not from one. */
double cs_quantile_t(double df, double confidence);

#endif
