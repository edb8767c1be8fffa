/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_STREAM_H
#define CHARGESIM_STREAM_H
/* Every random stream the program draws from, by name, with what it is for
 * (OpenMC names its streams in one header the same way). A stream is the
 * PCG32 generator of a key, a few 64-bit words chained through splitmix64
 * (rng.h, cs_rng_stream_key). Each purpose owns a region of key space of
 * its own:
 *
 *   CS_STREAM_BLOCK    (seed, point, block)    point, block < UINT64_MAX
 *       The trials of block `block` of sweep point `point`. mc gives each
 *       trial a generator of its own started from it (rng.h, cs_rng_trials);
 *       conditional draws its layouts from it in turn; rqmc takes from it
 *       what is not a drawn parameter (a ruleset placing things itself,
 *       metrics without an exact form). The same purpose serves a threat
 *       map, whose cells all use point 0's blocks (common random numbers,
 *       sched.h), and `chargesim dice`, whose rolls are the blocks of its one
 *       point 0.
 *   CS_STREAM_LAYOUT   (seed, point, UINT64_MAX)
 *       A fixed layout, built once per sweep point before any trial (the
 *       scheduler, `draw`'s replay, and compare's variant B at the point).
 *   CS_STREAM_SCRAMBLE (seed, UINT64_MAX, replicate)  replicate < 64
 *       rqmc: the random linear scramble and digital shift of replicate
 *       `replicate` (qmc.c), shared by every sweep point.
 *   CS_STREAM_PAIR     (seed ^ CS_STREAM_PAIR_SALT, point, block, trial)
 *       compare: trial (or layout) `trial` of block `block` of sweep point
 *       `point`, started afresh for variant A and for variant B, so both
 *       draw the same parameters, layout and dice and an extra die in B
 *       never shifts A (compare.h). Four words: no three-word key above is
 *       one of these. The salt only keeps the numbers compare has given
 *       since it was written.
 *   CS_STREAM_UNREAD   no key: PCG32's published seeding of (0, 0)
 *       The generator handed to a ruleset's draw_layout where the layout is
 *       a function of the parameters alone and the generator is never read
 *       (units' head-on tables).
 *
 * Indices are below UINT64_MAX by their types: a point or block index is
 * less than a count held in a uint64_t, and a replicate less than
 * CS_EXPERIMENT_MAX_REPLICATES. So two purposes never share a key, and
 * within one purpose the coordinates name the key: different keys are
 * different streams up to the chain's collision odds (rng.h).
 * tests/test_stream.c checks the regions pairwise, that each function below
 * keeps to its region, and that no file under src/ seeds a generator any
 * other way. */
#include <stdint.h>

#include "chargesim/rng.h"

typedef enum cs_stream_id {
    CS_STREAM_BLOCK,
    CS_STREAM_LAYOUT,
    CS_STREAM_SCRAMBLE,
    CS_STREAM_PAIR,
    CS_STREAM_UNREAD,
    CS_STREAM_COUNT
} cs_stream_id;

#define CS_STREAM_PAIR_SALT 0x636f6d70617265ULL /* "compare" in ASCII */
#define CS_STREAM_KEY_WORDS 4                   /* the longest key */

/* A key: n words (0 for CS_STREAM_UNREAD, which has none). */
typedef struct cs_stream_key {
    int n;
    uint64_t w[CS_STREAM_KEY_WORDS];
} cs_stream_key;

/* A purpose and its region of key space: keys of n words whose word i lies
 * in [lo[i], hi[i]] (word 0, the seed or the salted seed, takes any value). */
typedef struct cs_stream_def {
    const char *name; /* "block", "layout", ... */
    const char *what; /* one line: what draws from it */
    int n;
    uint64_t lo[CS_STREAM_KEY_WORDS], hi[CS_STREAM_KEY_WORDS];
} cs_stream_def;

/* The table above, indexed by cs_stream_id. */
extern const cs_stream_def cs_stream_defs[CS_STREAM_COUNT];

/* The key of stream `id` of a run seeded `seed` at coordinates (i, j, t):
 * BLOCK (point, block, -), LAYOUT (point, -, -), SCRAMBLE (replicate, -, -),
 * PAIR (point, block, trial), UNREAD (-, -, -); unused ones are ignored. */
cs_stream_key cs_stream_key_of(cs_stream_id id, uint64_t seed, uint64_t i, uint64_t j,
                               uint64_t t);
/* The generator of a key. */
void cs_stream_open(cs_rng *rng, const cs_stream_key *key);

/* The streams by name: each is cs_stream_open of its cs_stream_key_of. */
void cs_stream_block(cs_rng *rng, uint64_t seed, uint64_t point, uint64_t block);
void cs_stream_layout(cs_rng *rng, uint64_t seed, uint64_t point);
void cs_stream_scramble(cs_rng *rng, uint64_t seed, uint64_t replicate);
void cs_stream_pair(cs_rng *rng, uint64_t seed, uint64_t point, uint64_t block, uint64_t trial);
void cs_stream_unread(cs_rng *rng);

/* The blocks that key the streams: a point's trials are cut into blocks of
 * cs_stream_block_size(trials) trials, a size that depends on the trial
 * count alone (never on threads or ranks), and block b draws from stream
 * (seed, point, b). Part of the reproducibility contract: a change here
 * changes every sampled number. */
#define CS_STREAM_MIN_BLOCK 4096u /* trials per block, at least */
#define CS_STREAM_MAX_BLOCKS 256u /* blocks per point for the initial trials */
uint64_t cs_stream_block_size(uint64_t trials);

#endif
