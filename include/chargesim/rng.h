#ifndef CHARGESIM_RNG_H
#define CHARGESIM_RNG_H
/* PCG32 (O'Neill 2014, XSH-RR output on a 64-bit LCG), written from the
 * published algorithm, plus the derived streams that make runs reproducible
 * whatever the thread count. Pure: no globals, the state is a plain value. */
#include <stdint.h>

typedef struct cs_rng {
    uint64_t state; /* LCG state, advanced before each output */
    uint64_t inc;   /* stream selector, always odd */
} cs_rng;

/* pcg32_srandom_r: the state and stream of (initstate, initseq). */
void cs_rng_seed(cs_rng *rng, uint64_t initstate, uint64_t initseq);

/* The independent stream of (seed, point, block): every block of trials of
 * every sweep point draws from its own stream, derived through splitmix64,
 * so the partition of blocks among threads cannot change any number. */
void cs_rng_stream(cs_rng *rng, uint64_t seed, uint64_t point, uint64_t block);

/* Moves the generator `delta` steps; a negative delta (as two's complement)
 * steps backwards, since the LCG has period 2^64. O(log delta). */
void cs_rng_advance(cs_rng *rng, int64_t delta);

/* splitmix64 finaliser (Steele, Lea, Flood 2014), used to derive streams. */
uint64_t cs_rng_mix64(uint64_t x);

static inline uint32_t cs_rng_next(cs_rng *rng)
{
    uint64_t old = rng->state;
    rng->state = old * 6364136223846793005ULL + rng->inc;
    uint32_t xorshifted = (uint32_t)(((old >> 18u) ^ old) >> 27u);
    uint32_t rot = (uint32_t)(old >> 59u);
    return (xorshifted >> rot) | (xorshifted << ((-rot) & 31u));
}

/* Uniform integer in [0, bound), bound > 0: Lemire's nearly-divisionless
 * method. The 64-bit product's high word is the answer; its low word tells
 * whether this draw fell in the biased zone. Only then is the threshold
 * 2^32 mod bound, computed as (-bound) % bound in 32-bit arithmetic, needed. */
static inline uint32_t cs_rng_bounded(cs_rng *rng, uint32_t bound)
{
    uint64_t m = (uint64_t)cs_rng_next(rng) * bound;
    uint32_t low = (uint32_t)m;
    if (low < bound) {
        uint32_t threshold = (uint32_t)(-bound) % bound;
        while (low < threshold) {
            m = (uint64_t)cs_rng_next(rng) * bound;
            low = (uint32_t)m;
        }
    }
    return (uint32_t)(m >> 32);
}

/* One roll of a die with `sides` faces: 1..sides. */
static inline int cs_rng_die(cs_rng *rng, int sides)
{
    return (int)cs_rng_bounded(rng, (uint32_t)sides) + 1;
}

/* Uniform double in [0, 1) with 53 random bits (two outputs). */
double cs_rng_uniform(cs_rng *rng);

/* Standard normal deviate (Box-Muller, both outputs of which are drawn
 * afresh each call so a call always consumes the same number of outputs). */
double cs_rng_normal(cs_rng *rng);

#endif
