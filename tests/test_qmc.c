/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Randomised Sobol point sets (qmc.h): the net property that makes them
 * converge fast, before and after scrambling; every scrambled point uniform
 * (an unbiased estimate whose interval keeps its coverage); determinism. */
#include <criterion/criterion.h>
#include <gsl/gsl_errno.h>
#include <math.h>

#include "chargesim/qmc.h"
#include "chargesim/quantile.h"

/* Every elementary box of 2^-a by 2^-(m-a) holds exactly one of the first
 * 2^m points of dimensions j and k, for every a: a (0, m, 2)-net, which the
 * first two Sobol dimensions are. */
static void check_net2(const cs_qmc_scramble *q, const cs_qmc_set *s, int m, int j, int k)
{
    uint64_t n = (uint64_t)1 << m;
    int *hits = calloc(n, sizeof *hits);
    for (int a = 0; a <= m; a++) {
        memset(hits, 0, n * sizeof *hits);
        for (uint64_t i = 0; i < n; i++) {
            uint64_t bx = (uint64_t)floor(ldexp(cs_qmc_coord(q, s, i, j), a));
            uint64_t by = (uint64_t)floor(ldexp(cs_qmc_coord(q, s, i, k), m - a));
            hits[(bx << (m - a)) | by]++;
        }
        for (uint64_t b = 0; b < n; b++)
            cr_assert_eq(hits[b], 1, "box %llu of 2^-%d x 2^-%d holds %d points",
                         (unsigned long long)b, a, m - a, hits[b]);
    }
    free(hits);
}

/* One dimension alone: each interval of width 2^-m holds one point. */
static void check_strata(const cs_qmc_scramble *q, const cs_qmc_set *s, int m, int j)
{
    uint64_t n = (uint64_t)1 << m;
    int *hits = calloc(n, sizeof *hits);
    for (uint64_t i = 0; i < n; i++)
        hits[(uint64_t)floor(ldexp(cs_qmc_coord(q, s, i, j), m))]++;
    for (uint64_t b = 0; b < n; b++)
        cr_assert_eq(hits[b], 1, "dimension %d, interval %llu: %d points", j,
                     (unsigned long long)b, hits[b]);
    free(hits);
}

Test(qmc, first_points_form_a_net_before_and_after_scrambling)
{
    cs_qmc_set s;
    cs_error err;
    cr_assert_eq(cs_qmc_set_init(&s, 6, 1024, &err), CS_OK);
    cs_qmc_scramble none = {.dim = 6};
    for (int j = 0; j < 6; j++)
        for (int l = 0; l < 32; l++)
            none.col[j][l] = (uint32_t)1 << (31 - l); /* L = identity, no shift */
    check_net2(&none, &s, 10, 0, 1);
    for (uint64_t r = 0; r < 4; r++) {
        cs_qmc_scramble q;
        cs_qmc_scramble_init(&q, 6, 2026, r);
        check_net2(&q, &s, 10, 0, 1);
        for (int j = 0; j < 6; j++)
            check_strata(&q, &s, 10, j);
    }
    cs_qmc_set_free(&s);
}

Test(qmc, growing_keeps_the_points)
{
    cs_qmc_set a, b;
    cs_error err;
    cr_assert_eq(cs_qmc_set_init(&a, 3, 100, &err), CS_OK);
    cr_assert_eq(cs_qmc_set_grow(&a, 700, &err), CS_OK);
    cr_assert_eq(cs_qmc_set_init(&b, 3, 700, &err), CS_OK);
    cr_assert_eq(memcmp(a.x, b.x, 700 * 3 * sizeof *a.x), 0);
    cs_qmc_set_free(&a);
    cs_qmc_set_free(&b);
}

Test(qmc, limits_are_refused)
{
    cs_qmc_set s;
    cs_error err;
    cr_assert_eq(cs_qmc_set_init(&s, 0, 16, &err), CS_ELIMIT);
    cr_assert_eq(cs_qmc_set_init(&s, CS_QMC_MAX_DIM + 1, 16, &err), CS_ELIMIT);
    cr_assert_eq(cs_qmc_set_init(&s, 2, (uint64_t)CS_QMC_MAX_POINTS + 1, &err), CS_ELIMIT);
    cs_qmc_set_free(&s);
}

/* A failed GSL call (gsl_qrng_alloc out of memory) must come back as a
 * status: GSL's default handler would abort() the process inside gsl_error,
 * before the caller could say "out of memory". */
Test(qmc, a_gsl_error_returns_instead_of_aborting)
{
    cs_qmc_set s;
    cs_error err;
    cr_assert_eq(cs_qmc_set_init(&s, 2, 4, &err), CS_OK);
    gsl_error("allocation failed for qrng struct", __FILE__, __LINE__, GSL_ENOMEM);
    cs_qmc_set_free(&s);
}

Test(qmc, scrambles_depend_on_seed_and_replicate_only)
{
    cs_qmc_scramble a, b, c;
    cs_qmc_scramble_init(&a, 4, 7, 3);
    cs_qmc_scramble_init(&b, 4, 7, 3);
    cs_qmc_scramble_init(&c, 4, 7, 4);
    cr_assert_eq(memcmp(&a, &b, sizeof a), 0);
    cr_assert_neq(memcmp(&a, &c, sizeof a), 0);
}

/* f(u) = 8 u0 u1 u2 has integral 1. R = 16 replicates of 256 points give a
 * t interval; over 400 seeds it must cover 1 at 95% less three binomial
 * standard errors of the coverage itself (a bound the test could fail). */
Test(qmc, replicate_intervals_keep_their_coverage)
{
    enum { R = 16, N = 256, SEEDS = 400 };
    cs_qmc_set s;
    cs_error err;
    cr_assert_eq(cs_qmc_set_init(&s, 3, N, &err), CS_OK);
    double t = cs_quantile_t(R - 1, 0.95);
    cr_assert(fabs(t - 2.131449546) < 1e-6, "t(15, 0.975) = %.9f", t);
    int covered = 0;
    for (uint64_t seed = 1; seed <= SEEDS; seed++) {
        double sum = 0.0, sum2 = 0.0;
        for (uint64_t r = 0; r < R; r++) {
            cs_qmc_scramble q;
            cs_qmc_scramble_init(&q, 3, seed, r);
            double m = 0.0;
            for (uint64_t i = 0; i < N; i++)
                m += 8.0 * cs_qmc_coord(&q, &s, i, 0) * cs_qmc_coord(&q, &s, i, 1) *
                     cs_qmc_coord(&q, &s, i, 2);
            m /= N;
            sum += m;
            sum2 += m * m;
        }
        double mean = sum / R, var = (sum2 - R * mean * mean) / (R - 1);
        double half = t * sqrt(fmax(var, 0.0) / R);
        covered += fabs(mean - 1.0) <= half;
    }
    double cov = (double)covered / SEEDS;
    cr_assert(cov >= 0.95 - 3.0 * sqrt(0.95 * 0.05 / SEEDS), "coverage %.4f", cov);
    cs_qmc_set_free(&s);
}
