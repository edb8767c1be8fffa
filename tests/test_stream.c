/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The program's random streams (stream.h, issue 33): no two purposes can
 * share a stream. Their regions of key space are pairwise disjoint; every
 * named stream's key lies in its purpose's region, at the edges of its
 * coordinates too; the named functions open exactly those keys; and no
 * file under src/ seeds a generator except through them. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/experiment.h"
#include "chargesim/stream.h"
#include "support/helpers.h"

/* Whether the regions of two purposes can hold a common key: only with as
 * many words and, word by word, overlapping ranges. */
static bool regions_meet(const cs_stream_def *p, const cs_stream_def *q)
{
    if (p->n != q->n)
        return false;
    for (int i = 0; i < p->n; i++)
        if (p->hi[i] < q->lo[i] || q->hi[i] < p->lo[i])
            return false;
    return true;
}

Test(stream, regions_pairwise_disjoint)
{
    for (int p = 0; p < CS_STREAM_COUNT; p++) {
        cr_assert(cs_stream_defs[p].name && cs_stream_defs[p].what, "stream %d is unnamed", p);
        for (int q = p + 1; q < CS_STREAM_COUNT; q++)
            cr_assert(!regions_meet(&cs_stream_defs[p], &cs_stream_defs[q]),
                      "%s and %s can share a key", cs_stream_defs[p].name, cs_stream_defs[q].name);
    }
}

static bool in_region(cs_stream_id id, const cs_stream_key *k)
{
    const cs_stream_def *d = &cs_stream_defs[id];
    if (k->n != d->n)
        return false;
    for (int i = 0; i < k->n; i++)
        if (k->w[i] < d->lo[i] || k->w[i] > d->hi[i])
            return false;
    return true;
}

/* The coordinates a run can reach: every index is below a uint64_t count,
 * a replicate below CS_EXPERIMENT_MAX_REPLICATES. */
static const uint64_t edges[] = {0, 1, 2, 255, 1u << 20, UINT64_MAX / 2, UINT64_MAX - 1};
#define N_EDGES (sizeof edges / sizeof edges[0])

Test(stream, keys_stay_in_their_region)
{
    const uint64_t seeds[] = {0, 1, 904, CS_STREAM_PAIR_SALT, UINT64_MAX};
    for (size_t s = 0; s < sizeof seeds / sizeof seeds[0]; s++)
        for (size_t i = 0; i < N_EDGES; i++)
            for (size_t j = 0; j < N_EDGES; j++) {
                uint64_t a = edges[i], b = edges[j], seed = seeds[s];
                cs_stream_key k = cs_stream_key_of(CS_STREAM_BLOCK, seed, a, b, 0);
                cr_assert(in_region(CS_STREAM_BLOCK, &k), "block (%llu, %llu)",
                          (unsigned long long)a, (unsigned long long)b);
                k = cs_stream_key_of(CS_STREAM_LAYOUT, seed, a, 0, 0);
                cr_assert(in_region(CS_STREAM_LAYOUT, &k), "layout %llu", (unsigned long long)a);
                for (size_t t = 0; t < N_EDGES; t++) {
                    k = cs_stream_key_of(CS_STREAM_PAIR, seed, a, b, edges[t]);
                    cr_assert(in_region(CS_STREAM_PAIR, &k), "pair");
                }
            }
    for (uint64_t r = 0; r < CS_EXPERIMENT_MAX_REPLICATES; r++) {
        cs_stream_key k = cs_stream_key_of(CS_STREAM_SCRAMBLE, 7, r, 0, 0);
        cr_assert(in_region(CS_STREAM_SCRAMBLE, &k), "scramble %llu", (unsigned long long)r);
    }
    cs_stream_key k = cs_stream_key_of(CS_STREAM_UNREAD, 7, 0, 0, 0);
    cr_assert(in_region(CS_STREAM_UNREAD, &k));
}

static bool same_rng(const cs_rng *a, const cs_rng *b)
{
    return a->state == b->state && a->inc == b->inc;
}

static void open_key(cs_rng *rng, cs_stream_id id, uint64_t seed, uint64_t i, uint64_t j,
                     uint64_t t)
{
    cs_stream_key k = cs_stream_key_of(id, seed, i, j, t);
    cs_stream_open(rng, &k);
}

/* The named functions open their purpose's key; the block stream is rng.h's
 * (seed, point, block) stream, and the unread one PCG32's (0, 0). */
Test(stream, names_open_their_keys)
{
    cs_rng a, b;
    for (size_t i = 0; i < N_EDGES; i++) {
        uint64_t x = edges[i], y = edges[N_EDGES - 1 - i];
        cs_stream_block(&a, 904, x, y);
        open_key(&b, CS_STREAM_BLOCK, 904, x, y, 0);
        cr_assert(same_rng(&a, &b));
        cs_rng_stream(&b, 904, x, y);
        cr_assert(same_rng(&a, &b));
        cs_stream_layout(&a, 904, x);
        open_key(&b, CS_STREAM_LAYOUT, 904, x, 0, 0);
        cr_assert(same_rng(&a, &b));
        cs_stream_pair(&a, 904, x, y, x ^ y);
        open_key(&b, CS_STREAM_PAIR, 904, x, y, x ^ y);
        cr_assert(same_rng(&a, &b));
    }
    cs_stream_scramble(&a, 904, 63);
    open_key(&b, CS_STREAM_SCRAMBLE, 904, 63, 0, 0);
    cr_assert(same_rng(&a, &b));
    cs_stream_unread(&a);
    cs_rng_seed(&b, 0, 0);
    cr_assert(same_rng(&a, &b));
}

/* At the same coordinates the purposes give different generators. */
Test(stream, purposes_apart_at_the_same_coordinates)
{
    cs_rng g[5];
    cs_stream_block(&g[0], 1, 0, 0);
    cs_stream_layout(&g[1], 1, 0);
    cs_stream_scramble(&g[2], 1, 0);
    cs_stream_pair(&g[3], 1, 0, 0, 0);
    cs_stream_unread(&g[4]);
    for (int i = 0; i < 5; i++)
        for (int j = i + 1; j < 5; j++)
            cr_assert(!same_rng(&g[i], &g[j]), "%d and %d", i, j);
}

/* Every generator the program draws from is one of stream.h's: no file
 * under src/ but rng.c (the maths) and stream.c (the names) seeds one. */
Test(stream, only_stream_c_seeds)
{
    char cmd[1024], *out = NULL;
    size_t cap = 0;
    snprintf(cmd, sizeof cmd,
             "cd '%s' && grep -rlE 'cs_rng_(seed|stream|stream_key)[[:space:]]*\\(' src "
             "| grep -vxE 'src/core/rng.c|src/sim/model/stream.c'",
             th_root());
    FILE *p = popen(cmd, "r");
    cr_assert(p);
    ssize_t n = getline(&out, &cap, p);
    pclose(p);
    cr_assert(n <= 0, "seeds a generator outside stream.h: %s", out ? out : "");
    free(out);
}
