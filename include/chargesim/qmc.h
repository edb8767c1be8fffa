/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_QMC_H
#define CHARGESIM_QMC_H
/* Randomised quasi-Monte Carlo point sets for the layouts (issue 21).
 *
 * The points are the Sobol sequence (GSL's gsl_qrng_sobol: Bratley and Fox,
 * ACM TOMS 14 (1988) 88, Antonov-Saleev Gray-code order, 30 binary digits,
 * up to CS_QMC_MAX_DIM dimensions), preceded by the origin so that the first
 * 2^m points are a whole (t, m, s)-net. Each replicate randomises the same
 * points with its own random linear matrix scramble and digital shift
 * (Matousek, J. Complexity 14 (1998) 527; Owen, ACM TOMACS 13 (2003) 363):
 *   y = L x + e   over GF(2), digit by digit,
 * with L random lower-triangular with a unit diagonal and e a random digit
 * vector. Every scrambled point is uniform on (0, 1)^s, the replicates are
 * independent, and the net structure survives, so R replicate means give an
 * unbiased estimate whose interval comes from their spread (Student t on
 * R - 1 degrees of freedom).
 *
 * The points are kept as 32-bit digit vectors in one shared read-only array
 * (4 bytes per point and dimension); a replicate only stores its scramble,
 * so any block of any replicate can be computed by any thread, in any order,
 * with the same bytes. */
#include <stdint.h>

#include "chargesim/error.h"

#define CS_QMC_MAX_DIM 40            /* dimensions GSL's Sobol generator supports */
#define CS_QMC_MAX_POINTS (1u << 24) /* points per replicate at most: 64 MiB per dimension */

typedef struct cs_qmc_set {
    int dim;
    uint64_t n;          /* points held */
    uint32_t *x;         /* n * dim digit vectors: x[i * dim + j], value x / 2^32 */
    void *gen;           /* GSL generator, positioned after point n - 1 */
} cs_qmc_set;

typedef struct cs_qmc_scramble {
    int dim;
    uint32_t col[CS_QMC_MAX_DIM][32]; /* column l of L per dimension, as a digit vector */
    uint32_t shift[CS_QMC_MAX_DIM];   /* the digital shift e */
} cs_qmc_scramble;

/* The first n points (n >= 1) of the sequence in dim dimensions
 * (1 <= dim <= CS_QMC_MAX_DIM, n <= CS_QMC_MAX_POINTS). CS_ELIMIT past those
 * limits, CS_ENOMEM when memory runs out; err says which. Like
 * cs_quantile_t (quantile.h), it turns GSL's aborting error handler off for
 * the whole process (qmc.c), so call it before the run's threads start, not
 * from one. */
cs_status cs_qmc_set_init(cs_qmc_set *s, int dim, uint64_t n, cs_error *err);
/* Extends the set to n points (n >= s->n), keeping the ones it has. */
cs_status cs_qmc_set_grow(cs_qmc_set *s, uint64_t n, cs_error *err);
void cs_qmc_set_free(cs_qmc_set *s);

/* Replicate `replicate`'s scramble, a function of (seed, replicate) only. */
void cs_qmc_scramble_init(cs_qmc_scramble *q, int dim, uint64_t seed, uint64_t replicate);

/* Coordinate j of point i, scrambled by q, in (0, 1): the scrambled digit
 * vector y read as (y + 1/2) / 2^32, so it is never 0 or 1 and an inverse
 * CDF (normal) stays finite. */
double cs_qmc_coord(const cs_qmc_scramble *q, const cs_qmc_set *s, uint64_t i, int j);

#endif
