/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The scheduler's checkpoints (issue 34; checkpoint.h for the file): a
 * run's state is every point's merged tally, blocks done and activity and
 * the round's target, taken only between chunks, where every block
 * computed is merged (cs_sched_ckpt_tick), and given back before a pass's
 * first round (cs_sched_ckpt_resume). In one process a chunk is cut as
 * soon as a checkpoint is due or a signal asks to stop (cs_sched_ckpt_cut:
 * threads take items in order and none once it is cut, so the items
 * computed are a prefix and merge as they would have). Under MPI the
 * ranks decide together at each chunk's end (ckpt_agree), on chunks dealt
 * to them in turn (cs_sched_ckpt_dealt). */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/backend.h"
#include "sched_internal.h"

/* Whether the chunk under way stops taking items (one process only; under
 * MPI the ranks decide together between chunks, ckpt_agree): a signal
 * asked to stop, or a checkpoint is due once `taken` items are (at least
 * one, so that an interval shorter than a checkpoint's writing still
 * moves on). Asked each time a thread takes an item. */
bool cs_sched_ckpt_cut(const sched *s, uint64_t taken)
{
    const cs_ckpt *ck = s->ck;
    if (!ck || cs_backend_multi())
        return false;
    return cs_ckpt_asked(ck) || (taken > 0 && cs_ckpt_due(ck));
}

/* Under MPI with --checkpoint, a chunk's items are dealt to the ranks in
 * turn (item i to rank i mod size) rather than cut into contiguous shares:
 * a short chunk then gives every rank blocks of the same points, so the
 * ranks reach the chunk's end together. The position item i of n takes in
 * the dealt list, whose shares are contiguous as the gather wants them;
 * i itself when not dealt. */
uint64_t cs_sched_ckpt_dealt(const sched *s, uint64_t i, uint64_t n)
{
    const cs_backend *backend = cs_backend_multi();
    if (!s->ck || !backend)
        return i;
    uint64_t size = (uint64_t)backend->size, lo, hi;
    cs_backend_share_of(n, (int)(i % size), backend->size, &lo, &hi);
    return lo + i / size;
}

cs_status cs_sched_ckpt_misfit(cs_error *err, const char *what)
{
    return cs_error_set(err, CS_EINPUT,
                        "--checkpoint: the run's state in it does not fit this run (%s); "
                        "remove the file to start afresh",
                        what);
}

/* Pass p's points as cs_ckpt_save_run takes them; bd and act hold
 * n_points each. */
static void pass_record(const sched *p, uint64_t *bd, unsigned char *act, cs_ckpt_pass *out)
{
    for (uint64_t k = 0; k < p->n_points; k++) {
        bd[k] = p->pts[k].blocks_done;
        act[k] = p->pts[k].active;
    }
    *out = (cs_ckpt_pass){p->target, p->n_points, p->est->tally_size, "", bd, act, p->tallies};
    snprintf(out->estimator, sizeof out->estimator, "%s", p->est->name);
}

/* Every point's histograms summed over threads and ranks (a collective
 * under MPI) into *hist (malloc'ed; NULL without --dist). */
static cs_status hist_sum(const sched *s, uint64_t **hist, uint64_t *len, cs_error *err)
{
    *hist = NULL;
    *len = s->thread_hist ? s->hist_stride * s->n_points : 0;
    if (!s->thread_hist)
        return CS_OK;
    if (!(*hist = calloc(*len ? (size_t)*len : 1, sizeof **hist)))
        return cs_error_set(err, CS_ENOMEM, "out of memory for the checkpoint");
    for (int t = 0; t < s->threads; t++)
        for (uint64_t i = 0; i < *len; i++)
            (*hist)[i] += s->thread_hist[t][i];
    const cs_backend *backend = cs_backend_multi();
    if (backend)
        backend->sum_u64(*hist, *len);
    return CS_OK;
}

/* Writes a checkpoint of s (in resample_pass, of the run's own pass too);
 * under MPI rank 0 writes what every rank holds. */
static cs_status ckpt_save(sched *s, cs_error *err)
{
    const sched *p[2] = {s->pass ? s->main : s, s};
    cs_ckpt_run r = {.n_passes = s->pass + 1, .done = s->done};
    uint64_t *bd = calloc(2 * (size_t)s->n_points + 1, sizeof *bd);
    unsigned char *act = calloc(2 * (size_t)s->n_points + 1, 1);
    uint64_t *hist = NULL;
    cs_status st = bd && act ? hist_sum(s, &hist, &r.hist_len, err)
                             : cs_error_set(err, CS_ENOMEM, "out of memory for the checkpoint");
    for (int i = 0; st == CS_OK && i < r.n_passes; i++)
        pass_record(p[i], bd + (size_t)i * s->n_points, act + (size_t)i * s->n_points,
                    &r.pass[i]);
    r.hist = hist;
    const cs_backend *backend = cs_backend_multi();
    if (st == CS_OK && (!backend || backend->rank == 0))
        st = cs_ckpt_save_run(s->ck, &r, err);
    free(bd);
    free(act);
    free(hist);
    return st;
}

/* Under MPI the ranks take every checkpoint decision together, between
 * chunks: a stop any rank's sink asked for stops them all (the highest
 * code: each code a counter of its own, so the sum tells which); rank 0's
 * clock says when a checkpoint is due and how many items the next chunk
 * takes, so that a chunk lasts about an eighth of the interval, at most a
 * quarter of a second: a signal is answered within it (mpirun kills its
 * ranks 1 s after it passes SIGTERM on). */
#define CODES 64
static void ckpt_agree(sched *s, const cs_backend *backend, int *stop, bool *due)
{
    uint64_t v[CODES + 2] = {0};
    v[*stop > 0 && *stop < CODES ? *stop : *stop ? CODES - 1 : 0] = *stop > 0;
    if (backend->rank == 0) {
        double dt = cs_ckpt_now() - s->chunk_start, want = fmin(cs_ckpt_every(s->ck) / 8.0, 0.25);
        double next = fmin((double)s->chunk * want / fmax(dt, 1e-6), 2.0 * (double)s->chunk);
        uint64_t least = 2 * (uint64_t)backend->size;
        v[CODES] = *due;
        v[CODES + 1] = next < (double)least ? least : next > (double)CHUNK ? CHUNK : (uint64_t)next;
    }
    backend->sum_u64(v, CODES + 2);
    *stop = 0;
    for (int c = 1; c < CODES; c++)
        if (v[c])
            *stop = c;
    *due = v[CODES] > 0;
    s->chunk = v[CODES + 1];
}

/* After a chunk (or, round_end, a --precision round that another follows):
 * a checkpoint when one is due or a signal asks to stop, and then the
 * stop. */
cs_status cs_sched_ckpt_tick(sched *s, bool round_end, cs_error *err)
{
    cs_ckpt *ck = s->ck;
    if (!ck)
        return CS_OK;
    int stop = cs_ckpt_asked(ck);
    bool due = round_end || cs_ckpt_due(ck);
    const cs_backend *backend = cs_backend_multi();
    if (backend)
        ckpt_agree(s, backend, &stop, &due);
    if (!stop && !due)
        return CS_OK;
    cs_status st = ckpt_save(s, err);
    if (st != CS_OK || !stop)
        return st;
    if (backend) { /* no rank ends before rank 0's checkpoint is on disk */
        uint64_t one = 1;
        backend->sum_u64(&one, 1);
    }
    cs_ckpt_stop(ck, stop);
    return cs_error_set(err, CS_ESTOPPED, "stopped by a signal after writing a checkpoint");
}

uint64_t cs_sched_ckpt_target(const sched *s)
{
    return s->resume.n_passes > s->pass ? s->resume.pass[s->pass].target : 0;
}

/* This pass's state from the checkpoint the run resumes, if any: every
 * point's blocks, activity and tally and the round's target; for the pass
 * that was under way, the progress and histograms too (under MPI rank 0
 * holds them, as if its threads had computed every block). *complete: the
 * checkpoint is past this pass (an exact run's resampling was under way).
 * `round` is the round of this run the scheduler walked to towards the
 * checkpoint's (cs_sched_ckpt_target): the checkpoint fits only if it is
 * that one. */
cs_status cs_sched_ckpt_resume(sched *s, uint64_t round, uint64_t *target, bool *complete,
                               cs_error *err)
{
    *complete = false;
    if (s->resume.n_passes <= s->pass)
        return CS_OK;
    const cs_ckpt_pass *in = &s->resume.pass[s->pass];
    if (in->n_points != s->n_points || in->tally_size != s->est->tally_size ||
        strcmp(in->estimator, s->est->name) != 0 || round != in->target)
        return cs_sched_ckpt_misfit(err, "its points, estimator or round");
    for (uint64_t k = 0; k < s->n_points; k++) {
        uint64_t bd = cs_ckpt_u64_at(in->blocks_done, k);
        if (bd > in->target || in->active[k] > 1 || (!s->pts[k].placed && (bd || in->active[k])))
            return cs_sched_ckpt_misfit(err, "a point's blocks");
        s->pts[k].blocks_done = bd;
        s->pts[k].active = in->active[k] && s->resume.n_passes == s->pass + 1;
    }
    memcpy(s->tallies, in->tallies, (size_t)s->n_points * s->est->tally_size);
    *target = in->target;
    s->target = in->target;
    if ((*complete = s->resume.n_passes > s->pass + 1))
        return CS_OK;
    uint64_t hl = s->thread_hist ? s->hist_stride * s->n_points : 0;
    if (s->resume.hist_len != hl)
        return cs_sched_ckpt_misfit(err, "its histograms");
    for (int t = 0; t < s->threads && hl; t++)
        memset(s->thread_hist[t], 0, (size_t)hl * sizeof **s->thread_hist);
    const cs_backend *backend = cs_backend_multi();
    for (uint64_t i = 0; hl && (!backend || backend->rank == 0) && i < hl; i++)
        s->thread_hist[0][i] = cs_ckpt_u64_at(s->resume.hist, i);
    s->done = s->resume.done;
    s->resume.n_passes = 0;
    return CS_OK;
}

