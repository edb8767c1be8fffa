/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Sampled dice totals for `chargesim dice --trials`; see include/chargesim/dicesim.h.
 * The rolls are a job of the scheduler (sched.h, cs_sched_job_run), which
 * deals their blocks over threads and ranks; this file says what a block
 * rolls and how the counts join.
 *
 * Memory is bounded by what the answer needs, never by the expression's
 * range times the threads (issue 18: 64 threads once took 4.27 GB): each
 * block counts its totals in a window of SPAN counters (the rest sorted SUB
 * at a time) into its thread's sorted list of (value, count); the threads'
 * lists are merged as they close. Counts are integers, so they do not depend
 * on the thread count, the rank count or the order blocks ran in. */
#include "chargesim/dicesim.h"

#include <stdlib.h>
#include <string.h>

#include "chargesim/sched.h"
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

/* The job: the expression, its blocks, and the counts so far. */
typedef struct rolls {
    const cs_dice *d;
    uint64_t trials, seed, block_size, n_blocks;
    vlist acc;
} rolls;

/* A thread's state: its scratch and its own counts. */
typedef struct thread_rolls {
    scratch w;
    vlist mine;
} thread_rolls;

static void *rolls_open(void *user)
{
    (void)user;
    thread_rolls *t = calloc(1, sizeof *t);
    if (!t)
        return NULL;
    t->w = (scratch){calloc(SPAN, sizeof *t->w.dense), malloc(SUB * sizeof *t->w.buf),
                     malloc(SPAN * sizeof *t->w.run)};
    if (t->w.dense && t->w.buf && t->w.run)
        return t;
    free(t->w.dense);
    free(t->w.buf);
    free(t->w.run);
    free(t);
    return NULL;
}

static bool rolls_block(void *user, void *state, uint64_t b)
{
    const rolls *r = user;
    thread_rolls *t = state;
    uint64_t n = b + 1 == r->n_blocks ? r->trials - b * r->block_size : r->block_size;
    return roll_block(r->d, r->seed, b, n, &t->w, &t->mine);
}

/* Integer counts: the order the threads' lists join in cannot matter, and
 * the answer stays sorted by value. */
static bool rolls_close(void *user, void *state)
{
    rolls *r = user;
    thread_rolls *t = state;
    if (!t)
        return true;
    bool merged = vlist_merge(&r->acc, t->mine.v, t->mine.n);
    free(t->mine.v);
    free(t->w.dense);
    free(t->w.buf);
    free(t->w.run);
    free(t);
    return merged;
}

static const void *rolls_mine(void *user, size_t *bytes)
{
    const rolls *r = user;
    *bytes = r->acc.n * sizeof *r->acc.v;
    return r->acc.v;
}

/* Every rank's list, concatenated: sorted by value, the counts of one value
 * summed (integers: the same list whichever rank rolled which block). */
static bool rolls_gathered(void *user, void *all_bytes, size_t bytes)
{
    rolls *r = user;
    cs_dicesim_count *all = all_bytes;
    size_t n = bytes / sizeof *all, k = 0;
    qsort(all, n, sizeof *all, cmp_count);
    for (size_t i = 0; i < n; i++)
        if (k && all[k - 1].value == all[i].value)
            all[k - 1].count += all[i].count;
        else
            all[k++] = all[i];
    free(r->acc.v);
    r->acc = (vlist){all, k, n};
    return true;
}

cs_status cs_dicesim_counts(const cs_dice *d, uint64_t trials, uint64_t seed, int threads,
                            cs_dicesim_count **out, size_t *n_out, cs_error *err)
{
    uint64_t bs = cs_stream_block_size(trials);
    rolls r = {d, trials, seed, bs, (trials + bs - 1) / bs, {0}};
    const cs_sched_job job = {r.n_blocks, threads, "the rolls", &r,
                              rolls_open, rolls_block, rolls_close, rolls_mine, rolls_gathered};
    cs_status st = cs_sched_job_run(&job, err);
    if (st != CS_OK) {
        free(r.acc.v);
        return st;
    }
    *out = r.acc.v;
    *n_out = r.acc.n;
    return CS_OK;
}
