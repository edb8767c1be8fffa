/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Randomised Sobol point sets; see include/chargesim/qmc.h. */
#include "chargesim/qmc.h"

#include <gsl/gsl_errno.h>
#include <gsl/gsl_qrng.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/stream.h"

/* GSL's default error handler prints and calls abort() (GSL manual, "Error
 * Handling"): a failed gsl_qrng_alloc would kill the process instead of
 * returning NULL to the check below. The manual recommends turning it off in
 * production programs and checking return values, as every GSL call here
 * does. The handler is one process-wide pointer that GSL reads on any error,
 * in any thread; the manual allows setting it only from the thread that sets
 * up the program, so it is set here, from the calls a run makes before its
 * threads start (est_rqmc.c's setup), never from a worker. */
static void gsl_errors_returned(void)
{
    gsl_set_error_handler_off();
}

cs_status cs_qmc_set_init(cs_qmc_set *s, int dim, uint64_t n, cs_error *err)
{
    gsl_errors_returned();
    memset(s, 0, sizeof *s);
    if (dim < 1 || dim > CS_QMC_MAX_DIM)
        return cs_error_set(err, CS_ELIMIT,
                            "rqmc: %d random layout dimensions; the Sobol sequence supports 1 to %d",
                            dim, CS_QMC_MAX_DIM);
    gsl_qrng *g = gsl_qrng_alloc(gsl_qrng_sobol, (unsigned)dim);
    if (!g)
        return cs_error_set(err, CS_ENOMEM, "rqmc: out of memory for the Sobol generator");
    s->dim = dim;
    s->gen = g;
    return cs_qmc_set_grow(s, n, err);
}

cs_status cs_qmc_set_grow(cs_qmc_set *s, uint64_t n, cs_error *err)
{
    if (n > CS_QMC_MAX_POINTS)
        return cs_error_set(err, CS_ELIMIT,
                            "rqmc: %llu points per replicate; at most %u are held (raise the "
                            "replicates instead)",
                            (unsigned long long)n, CS_QMC_MAX_POINTS);
    if (n <= s->n)
        return CS_OK;
    size_t d = (size_t)s->dim;
    uint32_t *x = realloc(s->x, (size_t)n * d * sizeof *x);
    if (!x)
        return cs_error_set(err, CS_ENOMEM, "rqmc: out of memory for %llu points",
                            (unsigned long long)n);
    s->x = x;
    double v[CS_QMC_MAX_DIM];
    for (uint64_t i = s->n; i < n; i++) {
        if (i == 0) { /* the origin: GSL starts at the sequence's second point */
            memset(x, 0, d * sizeof *x);
            continue;
        }
        gsl_qrng_get(s->gen, v);
        /* GSL's points are k / 2^30 exactly, so this is exact. */
        for (size_t j = 0; j < d; j++)
            x[(size_t)i * d + j] = (uint32_t)ldexp(v[j], 32);
    }
    s->n = n;
    return CS_OK;
}

void cs_qmc_set_free(cs_qmc_set *s)
{
    if (s->gen)
        gsl_qrng_free(s->gen);
    free(s->x);
    memset(s, 0, sizeof *s);
}

void cs_qmc_scramble_init(cs_qmc_scramble *q, int dim, uint64_t seed, uint64_t replicate)
{
    memset(q, 0, sizeof *q);
    q->dim = dim;
    cs_rng rng;
    cs_stream_scramble(&rng, seed, replicate);
    for (int j = 0; j < dim; j++) {
        /* Digit l (l = 0 the most significant, weight 1/2) is bit 31 - l.
         * Column l of L has its unit diagonal at digit l and random digits
         * below it (l + 1 ... 31), none above: lower-triangular. */
        for (int l = 0; l < 32; l++) {
            uint32_t diag = (uint32_t)1 << (31 - l);
            q->col[j][l] = diag | (cs_rng_next(&rng) & (diag - 1u));
        }
        q->shift[j] = cs_rng_next(&rng);
    }
}

double cs_qmc_coord(const cs_qmc_scramble *q, const cs_qmc_set *s, uint64_t i, int j)
{
    uint32_t x = s->x[(size_t)i * (size_t)s->dim + (size_t)j];
    uint32_t y = q->shift[j];
    for (int l = 0; x != 0; l++, x <<= 1)
        if (x & 0x80000000u)
            y ^= q->col[j][l];
    return ((double)y + 0.5) * 0x1p-32;
}
