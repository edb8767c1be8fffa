/* SPDX-License-Identifier: GPL-3.0-or-later */
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

/* The stream of a key of n >= 1 words: h = mix(w[0]), then h = mix(h ^
 * w[i]) for each further word (splitmix64's finaliser, below), and the
 * generator seeded with state h on the stream selector mix(h ^ a constant).
 * Chained mixing keeps keys apart even when they differ by one in several
 * words at once; two different keys give the same generator only when
 * their chains collide (odds about 2^-64 per pair). Which keys the program
 * uses, and for what, is listed in one place: chargesim/stream.h. */
void cs_rng_stream_key(cs_rng *rng, const uint64_t *w, int n);

/* The stream of the three-word key (seed, point, block): every block of
 * trials of every sweep point draws from its own stream, so the partition
 * of blocks among threads cannot change any number (stream.h,
 * CS_STREAM_BLOCK). */
void cs_rng_stream(cs_rng *rng, uint64_t seed, uint64_t point, uint64_t block);

/* Moves the generator `delta` steps; a negative delta (as two's complement)
 * steps backwards, since the LCG has period 2^64. O(log delta). */
void cs_rng_advance(cs_rng *rng, int64_t delta);

/* splitmix64 finaliser (Steele, Lea, Flood 2014), used to derive streams. */
static inline uint64_t cs_rng_mix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

/* The trials of one block, each on a generator of its own: trial k of the
 * block starts the block's LCG (the same stream selector) at the state
 * cs_rng_mix64(key + k * 0x9e3779b97f4a7c15), key the block's first state:
 * SplitMix64's k-th output (Steele, Lea, Flood 2014). A trial's first draw
 * is therefore known without drawing the ones before it, whatever they used
 * (rejection, rerolls, a varying number of dice): `chargesim draw --trial
 * K` seeks trial K at once (issue 18). Not a fixed stride of the block's
 * stream: trials 2^32 outputs apart share the low 32 bits of every state,
 * and their dice came out visibly correlated (tests/test_rng.c keeps a
 * test that sees it). Starting points spread at random over the period
 * 2^64 overlap with odds of about n^2 d / 2^64 for n trials of d draws. */
typedef struct cs_rng_trials {
    uint64_t key;  /* the block's state before its first output */
    uint64_t inc;  /* the block's stream selector */
    uint64_t next; /* the index of the next trial */
} cs_rng_trials;

/* The trials of the block whose stream is `block`, from trial 0. */
static inline void cs_rng_trials_init(cs_rng_trials *ts, const cs_rng *block)
{
    ts->key = block->state;
    ts->inc = block->inc;
    ts->next = 0;
}

/* The next trial to come is trial k of the block. */
static inline void cs_rng_trials_seek(cs_rng_trials *ts, uint64_t k)
{
    ts->next = k;
}

/* The generator of the next trial, into rng; the one after becomes next. */
static inline void cs_rng_trials_next(cs_rng_trials *ts, cs_rng *rng)
{
    rng->state = cs_rng_mix64(ts->key + ts->next * 0x9e3779b97f4a7c15ULL);
    rng->inc = ts->inc;
    ts->next++;
}

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
