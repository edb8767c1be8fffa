/* SPDX-License-Identifier: GPL-3.0-or-later */
/* PCG32 and its derived streams; see include/chargesim/rng.h. */
#include "chargesim/rng.h"

#include <math.h>

#define PCG_MULT 6364136223846793005ULL

void cs_rng_seed(cs_rng *rng, uint64_t initstate, uint64_t initseq)
{
    /* Published seeding: one step from zero on the chosen stream, add the
     * seed, one more step, so nearby seeds do not give nearby states. */
    rng->state = 0u;
    rng->inc = (initseq << 1u) | 1u;
    (void)cs_rng_next(rng);
    rng->state += initstate;
    (void)cs_rng_next(rng);
}

void cs_rng_stream_key(cs_rng *rng, const uint64_t *w, int n)
{
    uint64_t h = cs_rng_mix64(w[0]);
    for (int i = 1; i < n; i++)
        h = cs_rng_mix64(h ^ w[i]);
    cs_rng_seed(rng, h, cs_rng_mix64(h ^ 0x5851f42d4c957f2dULL));
}

void cs_rng_stream(cs_rng *rng, uint64_t seed, uint64_t point, uint64_t block)
{
    const uint64_t key[3] = {seed, point, block};
    cs_rng_stream_key(rng, key, 3);
}

void cs_rng_advance(cs_rng *rng, int64_t delta)
{
    /* Brown (1994), "Random number generation with arbitrary strides": the
     * affine map x -> m x + c applied `delta` times is accumulated by
     * squaring, the way pcg_advance_lcg_64 does it. Unsigned wrap-around
     * turns a negative delta into 2^64 - |delta| steps, i.e. backwards. */
    uint64_t d = (uint64_t)delta;
    uint64_t cur_mult = PCG_MULT, cur_plus = rng->inc;
    uint64_t acc_mult = 1u, acc_plus = 0u;
    while (d > 0) {
        if (d & 1u) {
            acc_mult *= cur_mult;
            acc_plus = acc_plus * cur_mult + cur_plus;
        }
        cur_plus = (cur_mult + 1u) * cur_plus;
        cur_mult *= cur_mult;
        d >>= 1u;
    }
    rng->state = acc_mult * rng->state + acc_plus;
}

double cs_rng_uniform(cs_rng *rng)
{
    uint64_t hi = cs_rng_next(rng), lo = cs_rng_next(rng);
    uint64_t bits = ((hi << 32) | lo) >> 11;
    return (double)bits * 0x1.0p-53;
}

double cs_rng_normal(cs_rng *rng)
{
    /* 1 - u keeps the logarithm's argument in (0, 1]. */
    double u1 = 1.0 - cs_rng_uniform(rng);
    double u2 = cs_rng_uniform(rng);
    return sqrt(-2.0 * log(u1)) * cos(2.0 * 3.14159265358979323846 * u2);
}
