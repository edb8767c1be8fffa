/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The program's random streams by name, and the block size that keys them
 * (cs_stream_block_size); see include/chargesim/stream.h. The only file,
 * with src/core/rng.c, that seeds a generator. */
#include "chargesim/stream.h"

#include "chargesim/experiment.h"

#define ANY UINT64_MAX
#define LAST (UINT64_MAX - 1u) /* the greatest index a uint64_t count allows */

_Static_assert(CS_EXPERIMENT_MAX_REPLICATES - 1u < ANY, "replicates stay below UINT64_MAX");

const cs_stream_def cs_stream_defs[CS_STREAM_COUNT] = {
    [CS_STREAM_BLOCK] = {"block",
                         "the trials of block b of sweep point k (mc, conditional, rqmc's "
                         "own draws; a map's cells on point 0; dice's rolls on point 0)",
                         3, {0, 0, 0}, {ANY, LAST, LAST}},
    [CS_STREAM_LAYOUT] = {"layout", "a sweep point's fixed layout, built once", 3, {0, 0, ANY},
                          {ANY, LAST, ANY}},
    [CS_STREAM_SCRAMBLE] = {"scramble", "rqmc: replicate r's scramble and digital shift", 3,
                            {0, ANY, 0}, {ANY, ANY, CS_EXPERIMENT_MAX_REPLICATES - 1u}},
    [CS_STREAM_PAIR] = {"pair",
                        "compare: trial t of block b of sweep point k, the same in A and B",
                        4, {0, 0, 0, 0}, {ANY, LAST, LAST, LAST}},
    [CS_STREAM_UNREAD] = {"unread", "a generator a fixed layout is handed and never reads", 0,
                          {0}, {0}},
};

cs_stream_key cs_stream_key_of(cs_stream_id id, uint64_t seed, uint64_t i, uint64_t j,
                               uint64_t t)
{
    switch (id) {
    case CS_STREAM_BLOCK:
        return (cs_stream_key){3, {seed, i, j}};
    case CS_STREAM_LAYOUT:
        return (cs_stream_key){3, {seed, i, ANY}};
    case CS_STREAM_SCRAMBLE:
        return (cs_stream_key){3, {seed, ANY, i}};
    case CS_STREAM_PAIR:
        return (cs_stream_key){4, {seed ^ CS_STREAM_PAIR_SALT, i, j, t}};
    case CS_STREAM_UNREAD:
    case CS_STREAM_COUNT:
        break;
    }
    return (cs_stream_key){0, {0}};
}

void cs_stream_open(cs_rng *rng, const cs_stream_key *key)
{
    if (key->n > 0)
        cs_rng_stream_key(rng, key->w, key->n);
    else
        cs_rng_seed(rng, 0u, 0u);
}

static void open_of(cs_rng *rng, cs_stream_id id, uint64_t seed, uint64_t i, uint64_t j,
                    uint64_t t)
{
    cs_stream_key k = cs_stream_key_of(id, seed, i, j, t);
    cs_stream_open(rng, &k);
}

void cs_stream_block(cs_rng *rng, uint64_t seed, uint64_t point, uint64_t block)
{
    open_of(rng, CS_STREAM_BLOCK, seed, point, block, 0);
}

void cs_stream_layout(cs_rng *rng, uint64_t seed, uint64_t point)
{
    open_of(rng, CS_STREAM_LAYOUT, seed, point, 0, 0);
}

void cs_stream_scramble(cs_rng *rng, uint64_t seed, uint64_t replicate)
{
    open_of(rng, CS_STREAM_SCRAMBLE, seed, replicate, 0, 0);
}

void cs_stream_pair(cs_rng *rng, uint64_t seed, uint64_t point, uint64_t block, uint64_t trial)
{
    open_of(rng, CS_STREAM_PAIR, seed, point, block, trial);
}

void cs_stream_unread(cs_rng *rng)
{
    open_of(rng, CS_STREAM_UNREAD, 0, 0, 0, 0);
}

uint64_t cs_stream_block_size(uint64_t trials)
{
    uint64_t b = (trials + CS_STREAM_MAX_BLOCKS - 1) / CS_STREAM_MAX_BLOCKS;
    return b < CS_STREAM_MIN_BLOCK ? CS_STREAM_MIN_BLOCK : b;
}
