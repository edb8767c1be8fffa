/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sampled dice totals for `chargesim dice --trials`; see include/chargesim/dicesim.h.
 *
 * Memory is bounded by what the answer needs, never by the expression's
 * range times the threads (issue 18: 64 threads once took 4.27 GB): each
 * block counts its totals in a window of SPAN counters (the rest sorted SUB
 * at a time) into its thread's sorted list of (value, count); the threads'
 * lists are merged at the end. Counts are integers, so they do not depend on the
 * thread count. */
#include "chargesim/dicesim.h"

#include "../omp_shim.h"
#include <stdlib.h>
#include <string.h>

#include "chargesim/backend.h"
#include "chargesim/stream.h"

#define SUB 65536   /* totals outside the window held at once per thread */
#define SPAN 65536  /* the window of dense counters per thread */

typedef struct vlist {
    cs_dicesim_count *v;
    size_t n, cap;
} vlist;

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* *into := *into + *from (both sorted by value); false when out of memory. */
static bool vlist_merge(vlist *into, const cs_dicesim_count *from, size_t nf)
{
    size_t need = into->n + nf;
    cs_dicesim_count *out = malloc((need ? need : 1) * sizeof *out);
    if (!out)
        return false;
    size_t i = 0, j = 0, k = 0;
    while (i < into->n || j < nf) {
        if (j >= nf || (i < into->n && into->v[i].value < from[j].value))
            out[k++] = into->v[i++];
        else if (i >= into->n || from[j].value < into->v[i].value)
            out[k++] = from[j++];
        else {
            out[k] = into->v[i++];
            out[k++].count += from[j++].count;
        }
    }
    free(into->v);
    into->v = out;
    into->n = into->cap = k;
    return true;
}

/* The rolls in buf[0..n) as sorted (value, count) pairs into run. */
static size_t sort_rolls(int *buf, size_t n, cs_dicesim_count *run)
{
    qsort(buf, n, sizeof *buf, cmp_int);
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (k && run[k - 1].value == buf[i])
            run[k - 1].count++;
        else
            run[k++] = (cs_dicesim_count){buf[i], 1};
    return k;
}

/* Per-thread scratch: a window of SPAN dense counters around the block's
 * first total, a buffer for totals outside it (sorted when full), and room
 * for one run of pairs. */
typedef struct scratch {
    uint64_t *dense;
    int *buf;
    cs_dicesim_count *run;
} scratch;

/* Block b: n rolls from the stream (seed, 0, b) into *out; false when out
 * of memory. */
static bool roll_block(const cs_dice *d, uint64_t seed, uint64_t b, uint64_t n, scratch *w,
                       vlist *out)
{
    cs_rng rng;
    cs_stream_block(&rng, seed, 0, b);
    int64_t wlo = 0, lo_i = SPAN, hi_i = -1;
    size_t nbuf = 0;
    for (uint64_t t = 0; t < n; t++) {
        int v = cs_dice_roll(d, &rng);
        if (t == 0)
            wlo = (int64_t)v - SPAN / 2;
        int64_t i = (int64_t)v - wlo;
        if (i >= 0 && i < SPAN) {
            w->dense[i]++;
            lo_i = i < lo_i ? i : lo_i;
            hi_i = i > hi_i ? i : hi_i;
            continue;
        }
        w->buf[nbuf++] = v;
        if (nbuf == SUB) {
            if (!vlist_merge(out, w->run, sort_rolls(w->buf, nbuf, w->run)))
                return false;
            nbuf = 0;
        }
    }
    if (nbuf && !vlist_merge(out, w->run, sort_rolls(w->buf, nbuf, w->run)))
        return false;
    size_t k = 0;
    for (int64_t i = lo_i; i <= hi_i; i++)
        if (w->dense[i]) {
            w->run[k++] = (cs_dicesim_count){(int)(wlo + i), w->dense[i]};
            w->dense[i] = 0;
        }
    return vlist_merge(out, w->run, k);
}

static int cmp_count(const void *a, const void *b)
{
    return cmp_int(&((const cs_dicesim_count *)a)->value, &((const cs_dicesim_count *)b)->value);
}

/* With several ranks (backend.h): every rank's list into *acc, sorted by
 * value, the counts of one value summed (integers: the same list whichever
 * rank rolled which block); false when out of memory. */
static bool gather_ranks(const cs_backend *be, vlist *acc)
{
    size_t total;
    cs_dicesim_count *all = be->gatherv(acc->v, acc->n * sizeof *acc->v, &total);
    if (!all)
        return false;
    size_t n = total / sizeof *all, k = 0;
    qsort(all, n, sizeof *all, cmp_count);
    for (size_t i = 0; i < n; i++)
        if (k && all[k - 1].value == all[i].value)
            all[k - 1].count += all[i].count;
        else
            all[k++] = all[i];
    free(acc->v);
    *acc = (vlist){all, k, n};
    return true;
}

cs_status cs_dicesim_counts(const cs_dice *d, uint64_t trials, uint64_t seed, int threads,
                            cs_dicesim_count **out, size_t *n_out, cs_error *err)
{
    uint64_t bs = cs_stream_block_size(trials), nb = (trials + bs - 1) / bs;
    int nt = threads > 0 ? threads : omp_get_max_threads();
    (void)nt; /* unused where OpenMP is not (the web edition) */
    vlist acc = {0};
    int failed = 0;
    const cs_backend *be = cs_backend_multi();
    bool multi = be != NULL;
    if (multi && !be->begin())
        return cs_error_set(err, CS_ERUNTIME, "another MPI rank ended before the rolls");
    uint64_t lo, hi;
    cs_backend_share(nb, &lo, &hi);
#pragma omp parallel num_threads(nt)
    {
        scratch w = {calloc(SPAN, sizeof *w.dense), malloc(SUB * sizeof *w.buf),
                     malloc(SPAN * sizeof *w.run)};
        vlist mine = {0};
#pragma omp for schedule(dynamic, 1)
        for (uint64_t b = lo; b < hi; b++) {
            uint64_t n = b + 1 == nb ? trials - b * bs : bs;
            if (!w.dense || !w.buf || !w.run || !roll_block(d, seed, b, n, &w, &mine)) {
#pragma omp atomic write
                failed = 1;
            }
        }
        /* Integer counts: the order the threads' lists join in cannot
         * matter, and the answer stays sorted by value. */
        bool merged;
#pragma omp critical(cs_dice_counts_merge)
        merged = vlist_merge(&acc, mine.v, mine.n);
        if (!merged) {
#pragma omp atomic write
            failed = 1;
        }
        free(mine.v);
        free(w.dense);
        free(w.buf);
        free(w.run);
    }
    if (multi && (failed || !gather_ranks(be, &acc))) {
        failed = 1;
        be->fail("out of memory"); /* the other ranks wait in the gather */
    }
    if (failed) {
        free(acc.v);
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    }
    *out = acc.v;
    *n_out = acc.n;
    return CS_OK;
}
