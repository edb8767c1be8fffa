/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The scheduler: sweep points in fixed blocks of trials over OpenMP
 * threads, merged in block order, with the --precision stopping rule; what
 * a block computes belongs to its estimator (include/chargesim/estimator.h),
 * what --checkpoint saves and gives back to sched_ckpt.c (its hooks: the
 * chunk's cut, the items dealt to ranks, the tick after each chunk and
 * round, the resume of a pass); and the blocks of a job that is not an
 * experiment (cs_sched_job_run: the dice sampler's). The only file that uses
 * OpenMP. */
#include "chargesim/sched.h"

#include <float.h>
#include <math.h>
#include "../omp_shim.h"
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "chargesim/backend.h"
#include "chargesim/quantile.h"
#include "chargesim/stream.h"
#include "sched_internal.h"


int cs_sched_cores(void)
{
    return omp_get_num_procs();
}

/* The blocks that hold a point's initial trials. */
static uint64_t initial_blocks(const cs_est_run *run)
{
    return (run->trials + run->block_size - 1) / run->block_size;
}

static uint64_t block_trials(const cs_est_run *run, uint64_t b)
{
    uint64_t start = b * run->block_size;
    if (start < run->trials) {
        uint64_t left = run->trials - start;
        return left < run->block_size ? left : run->block_size;
    }
    /* Blocks past the initial trials (--precision) are full size, but for
     * the one that reaches max_trials: a point runs --max-trials exactly. */
    uint64_t before = run->trials + (b - initial_blocks(run)) * run->block_size;
    if (run->max_trials && before + run->block_size > run->max_trials)
        return run->max_trials > before ? run->max_trials - before : 0;
    return run->block_size;
}

/* With several ranks: the other ranks' slots of the round (every slot on
 * every rank, in item order), and their trials into the progress count. */
static void gather_round(sched *s, const uint64_t *items, uint64_t n_items, uint64_t lo,
                         uint64_t hi, unsigned char *slots)
{
    const cs_backend *backend = cs_backend_multi();
    if (!backend)
        return;
    backend->allgather(slots, s->est->tally_size, n_items);
    for (uint64_t i = 0; i < n_items; i++)
        if (i < lo || i >= hi)
            s->done += block_trials(&s->run, items[2 * i + 1]);
}

/* Computes this process's share of a round's items (point, block) into
 * their slots, then gathers the others' (the backend, backend.h). Items
 * are taken in order, and none once the chunk is cut (cs_sched_ckpt_cut),
 * so the items computed are the first *merge of them: their blocks merge
 * as they would have, and the rest is the next chunk's. False when a thread had no
 * memory for its layout: its blocks' slots stay empty, and an empty block
 * must not pass for a computed one. */
static bool run_round(sched *s, const uint64_t *items, uint64_t n_items, unsigned char *slots,
                      uint64_t *merge)
{
    const cs_est_run *run = &s->run;
    const cs_estimator *est = s->est;
    const size_t ts = est->tally_size;
    uint64_t lo, hi, next;
    int failed = 0, cut = 0;
    cs_backend_share(n_items, &lo, &hi);
    next = lo;
#pragma omp parallel num_threads(s->threads)
    {
        void *layout = malloc(run->rs->layout_size ? run->rs->layout_size : 1);
        uint64_t *th = s->thread_hist ? s->thread_hist[omp_get_thread_num()] : NULL;
        if (!layout) {
#pragma omp atomic write
            failed = 1;
        }
        for (;;) {
            uint64_t i;
#pragma omp critical(cs_sched_items)
            {
                if (!cut && next < hi && cs_sched_ckpt_cut(s, next - lo))
                    cut = 1;
                i = cut || next >= hi ? hi : next++;
            }
            if (i >= hi)
                break;
            uint64_t k = items[2 * i], b = items[2 * i + 1], n = block_trials(run, b);
            void *slot = slots + i * ts;
            memset(slot, 0, ts);
            if (layout)
                est->block(run, &s->pts[k].pt, b, n, layout, th ? th + k * s->hist_stride : NULL,
                           slot);
#pragma omp atomic
            s->done += n;
            if (omp_get_thread_num() == 0 && s->opts->progress) {
                uint64_t seen;
#pragma omp atomic read
                seen = s->done;
                s->opts->progress(s->opts->progress_user, seen, s->planned);
            }
        }
        free(layout);
    }
    /* Gathered even so: the other ranks wait in the gather (the caller
     * then fails, and the backend ends them). */
    gather_round(s, items, n_items, lo, hi, slots);
    *merge = cs_backend_multi() ? n_items : next - lo;
    return !failed;
}

/* Adds a round's slots into the points, in item order (point, then block). */
static void merge_round(sched *s, const uint64_t *items, uint64_t n_items,
                        const unsigned char *slots, uint64_t n_dealt)
{
    for (uint64_t i = 0; i < n_items; i++) {
        sched_point *p = &s->pts[items[2 * i]];
        s->est->merge(p->tally, slots + cs_sched_ckpt_dealt(s, i, n_dealt) * s->est->tally_size);
        p->blocks_done++;
    }
}

/* The point a round visits j-th (sched.stride). */
static uint64_t visit(const sched *s, uint64_t j)
{
    return s->stride == 1 ? j : j * s->stride % s->n_points; /* both < 2^32 */
}

/* The first visit from j on whose point has blocks of the round left to
 * run (a resumed round may have finished some), its next block into *b. */
static uint64_t first_open(const sched *s, uint64_t target, uint64_t j, uint64_t *b)
{
    while (j < s->n_points && !(s->pts[visit(s, j)].active &&
                                s->pts[visit(s, j)].blocks_done < target))
        j++;
    if (j < s->n_points)
        *b = s->pts[visit(s, j)].blocks_done;
    return j;
}

/* The next up to `limit` items of a round from visit *j, block *b on:
 * blocks [blocks_done, target) of every active point, in visiting order. */
static uint64_t next_items(const sched *s, uint64_t target, uint64_t *j, uint64_t *b,
                           uint64_t *items, uint64_t limit)
{
    uint64_t n = 0;
    while (n < limit && *j < s->n_points) {
        items[2 * n] = visit(s, *j);
        items[2 * n + 1] = *b;
        n++;
        if (++*b >= target)
            *j = first_open(s, target, *j + 1, b);
    }
    return n;
}

/* The blocks per point of the --precision round after one of `target`:
 * the estimator's, or twice as many up to the cap (cap[0]: whole blocks
 * within max_trials, cap[1]: with the last one cut short); `target` itself
 * when no further round can run. */
static uint64_t next_target(const sched *s, uint64_t target, const uint64_t cap[2])
{
    if (s->est->next_blocks)
        return s->est->next_blocks(&s->run, target, cap[0]);
    return target * 2 < cap[1] ? target * 2 : cap[1];
}

/* --precision: the blocks point p will have run when its interval is
 * narrow enough, from its interval so far. The half-width goes as
 * 1/sqrt(trials), so h now needs (h/H)^2 times the blocks for H; the
 * rounds then grow as run_pass grows them, up to the cap. */
static uint64_t blocks_needed(const sched *s, const sched_point *p, uint64_t target)
{
    double h = s->est->halfwidth(&s->run, &p->pt, p->tally, s->z);
    double grow = h > s->precision ? (h / s->precision) * (h / s->precision) : 1.0;
    double want = (double)p->blocks_done * grow;
    uint64_t t = target;
    for (uint64_t next; (double)t < want && (next = next_target(s, t, s->cap)) > t;)
        t = next;
    return t;
}

/* The whole run's trials as the progress reports them (issue 52: a page
 * models the run's time from it): the round's, and under --precision the
 * rounds each point's interval so far says it will need, a point not yet
 * measured taken as the measured ones' mean. Never less than the round
 * under way still holds (`left` items). */
static void plan_precision(sched *s, uint64_t target, uint64_t left)
{
    uint64_t blocks = 0, measured = 0, waiting = 0;
    for (uint64_t k = 0; k < s->n_points; k++) {
        const sched_point *p = &s->pts[k];
        if (!p->placed)
            continue;
        if (!p->active)
            blocks += p->blocks_done;
        else if (p->blocks_done == 0)
            waiting++;
        else {
            blocks += blocks_needed(s, p, target);
            measured++;
        }
    }
    uint64_t least = s->done + left * s->run.block_size;
    if (measured > 0)
        blocks += waiting * (blocks / measured);
    uint64_t whole = blocks * s->run.block_size;
    s->planned = measured > 0 && whole > least ? whole : least;
}

static cs_status run_round_items(sched *s, uint64_t target, cs_error *err)
{
    uint64_t n_items = 0;
    for (uint64_t k = 0; k < s->n_points; k++)
        if (s->pts[k].active)
            n_items += target - s->pts[k].blocks_done;
    if (n_items == 0)
        return CS_OK;
    uint64_t cap = n_items < CHUNK ? n_items : CHUNK;
    uint64_t *items = malloc(4 * (size_t)cap * sizeof *items);
    unsigned char *slots = malloc((size_t)cap * s->est->tally_size);
    if (!items || !slots) {
        free(items);
        free(slots);
        return cs_error_set(err, CS_ENOMEM, "out of memory for %llu blocks",
                            (unsigned long long)n_items);
    }
    uint64_t *deal = items + 2 * cap; /* the chunk's items as dealt (cs_sched_ckpt_dealt) */
    if (s->precision > 0.0)
        plan_precision(s, target, n_items);
    else
        s->planned = s->done + n_items * s->run.block_size;
    uint64_t b = 0, k = first_open(s, target, 0, &b);
    cs_status st = CS_OK;
    for (uint64_t left = n_items; st == CS_OK && left > 0;) {
        /* Under --precision (alone, no checkpoint) a round's first chunk
         * is about one point's blocks, so plan_precision has an interval
         * to plan from early: items merge in their order whatever the
         * chunks, so the bytes are the same. */
        uint64_t limit = s->chunk;
        if (s->precision > 0.0 && left == n_items && !s->ck && !cs_backend_multi() &&
            target < limit)
            limit = target;
        uint64_t n = next_items(s, target, &k, &b, items, limit), m;
        s->chunk_start = s->ck ? cs_ckpt_now() : 0.0;
        for (uint64_t i = 0; i < n; i++)
            memcpy(deal + 2 * cs_sched_ckpt_dealt(s, i, n), items + 2 * i, 2 * sizeof *items);
        if (!run_round(s, deal, n, slots, &m)) {
            st = cs_error_set(err, CS_ENOMEM, "out of memory");
            break;
        }
        merge_round(s, items, m, slots, n);
        left -= m;
        if (s->precision > 0.0)
            plan_precision(s, target, left);
        if (m < n) { /* a cut chunk (checkpoints: stride 1, so visit j is point j):
                      * the next one starts at its first item left */
            k = items[2 * m];
            b = items[2 * m + 1];
        }
        st = cs_sched_ckpt_tick(s, false, err);
    }
    free(items);
    free(slots);
    return st;
}

/* Rounds of blocks until every point is done: one round without
 * --precision; with it, points whose widest interval is still wider than
 * asked run on with as many blocks again, up to max_trials. The stopping
 * rule reads merged tallies only, so it is as reproducible as the rest. */
static cs_status run_pass(sched *s, cs_error *err)
{
    s->run.max_trials = s->precision > 0.0 ? s->max_trials : 0;
    const cs_est_run *run = &s->run;
    uint64_t target = initial_blocks(run);
    /* The blocks that reach max_trials, the last one cut short; an
     * estimator that keeps rounds whole (next_blocks) gets the whole ones. */
    uint64_t extra = s->max_trials > run->trials ? s->max_trials - run->trials : 0;
    s->cap[0] = target + extra / run->block_size;
    s->cap[1] = target + (extra + run->block_size - 1) / run->block_size;
    const uint64_t *cap = s->cap;
    /* A checkpoint's round must be one this run reaches: the first, or
     * under --precision one of the rounds that follow it (an rqmc round's
     * blocks hold whole replicates, which its point set is grown for). */
    uint64_t round = target, want = cs_sched_ckpt_target(s);
    while (s->precision > 0.0 && round < want && next_target(s, round, cap) > round)
        round = next_target(s, round, cap);
    bool complete;
    cs_status st = cs_sched_ckpt_resume(s, round, &target, &complete, err);
    if (st != CS_OK || complete)
        return st;
    for (;;) {
        s->target = target;
        if (s->est->grow && (st = s->est->grow(&s->run, target, err)) != CS_OK)
            return st;
        if ((st = run_round_items(s, target, err)) != CS_OK)
            return st;
        if (!(s->precision > 0.0))
            return CS_OK;
        uint64_t next = next_target(s, target, cap);
        bool any = false;
        for (uint64_t k = 0; k < s->n_points; k++) {
            sched_point *p = &s->pts[k];
            if (!p->active)
                continue;
            if (next <= target || s->est->halfwidth(run, &p->pt, p->tally, s->z) <= s->precision)
                p->active = false;
            else
                any = true;
        }
        if (!any)
            return CS_OK;
        target = next;
        s->target = target;
        if ((st = cs_sched_ckpt_tick(s, true, err)) != CS_OK)
            return st;
    }
}

/* Point k's values: the sweep's, or the caller's (cs_sched_points, all on the
 * streams of point 0). False: the caller's point cannot exist. */
static bool place_point(sched *s, uint64_t k, cs_est_point *pt)
{
    const cs_sched_points *cp = s->opts->points;
    if (!cp) {
        cs_experiment_point(s->run.e, k, &pt->params);
        s->pts[k].placed = true;
        return true;
    }
    cs_experiment_point(s->run.e, 0, &pt->params);
    pt->index = 0;
    pt->caller = cp->stands ? cp : NULL;
    s->pts[k].placed = cp->place(cp->user, k, &pt->params);
    return s->pts[k].placed;
}

static cs_status prepare_points(sched *s, cs_error *err)
{
    for (uint64_t k = 0; k < s->n_points; k++) {
        cs_est_point *pt = &s->pts[k].pt;
        pt->index = k;
        pt->k = k;
        s->pts[k].tally = s->tallies + k * s->est->tally_size;
        if (!place_point(s, k, pt))
            continue;
        cs_status st = cs_est_point_prepare(&s->run, pt, err);
        if (st != CS_OK)
            return st;
        s->pts[k].active = true;
    }
    return CS_OK;
}

/* A stride for visiting n points that is coprime to n (so every point is
 * visited once) and near n/phi, the golden ratio's, so that the points
 * visited first lie spread over the sweep. */
static uint64_t visit_stride(uint64_t n)
{
    if (n < 3 || n > UINT32_MAX) /* j * stride must not overflow (visit) */
        return 1;
    for (uint64_t st = (uint64_t)((double)n * 0.6180339887); st < n; st++) {
        uint64_t a = n, b = st;
        while (b) {
            uint64_t t = a % b;
            a = b;
            b = t;
        }
        if (st > 1 && a == 1)
            return st;
    }
    return 1;
}

static void run_setup(sched *s, const cs_experiment *e, const cs_estimator *est,
                      const cs_run_opts *opts)
{
    cs_est_run *run = &s->run;
    cs_est_run_init(run, e, est, opts->success_mask);
    run->b = opts->pair;
    s->est = est;
    s->opts = opts;
    s->threads = opts->threads > 0 ? opts->threads : omp_get_max_threads();
    s->n_points = opts->points ? opts->points->n : e->n_points;
    s->hist_stride = (uint64_t)run->bin_offset[e->rs->n_metrics];
    s->precision = e->precision;
    s->z = cs_quantile_normal(e->confidence);
    s->max_trials = opts->max_trials ? opts->max_trials : CS_SCHED_DEFAULT_MAX_TRIALS;
    s->ck = opts->checkpoint;
    /* Under MPI a checkpoint waits for a chunk's end: chunks start small
     * and grow to their interval (ckpt_agree); alone, a chunk is cut. */
    const cs_backend *backend = cs_backend_multi();
    s->chunk = s->ck && backend ? 2 * (uint64_t)backend->size : CHUNK;
    s->stride = s->ck || backend ? 1 : visit_stride(s->n_points);
}

/* Bytes one point holds with estimator est (NULL: not known, as for a
 * plain tally): rqmc's tally holds every replicate, a paired run holds
 * variant B's context and layout and both variants' estimates too. */
static uint64_t point_bytes(const cs_experiment *e, const cs_run_opts *opts,
                            const cs_estimator *est)
{
    const cs_ruleset *rs = e->rs;
    uint64_t bins = 0;
    for (int m = 0; m < rs->n_metrics; m++)
        bins += (uint64_t)cs_binning_make(rs->metrics[m].lo, rs->metrics[m].hi,
                                          rs->metrics[m].resolution)
                    .nbins;
    int threads = opts->threads > 0 ? opts->threads : omp_get_max_threads();
    size_t tally = est ? est->tally_size : sizeof(cs_est_tally);
    uint64_t b = sizeof(sched_point) + tally + sizeof(cs_point_result) +
                 rs->ctx_size + rs->layout_size;
    if (opts->pair)
        b += sizeof(cs_est_point) + sizeof(cs_point_pair) + rs->ctx_size + rs->layout_size;
    if (opts->want_dist)
        b += bins * sizeof(uint64_t) * ((uint64_t)threads + 1);
    return b;
}

cs_status cs_sched_plan(const cs_experiment *e, cs_run_opts *opts, cs_error *err)
{
    return opts->est ? CS_OK : cs_estimator_of(e, opts->pair, &opts->est, err);
}

uint64_t cs_sched_point_bytes(const cs_experiment *e, const cs_run_opts *opts)
{
    cs_run_opts o = *opts;
    cs_error ignored;
    return point_bytes(e, opts, cs_sched_plan(e, &o, &ignored) == CS_OK ? o.est : NULL);
}

/* Work a run may not take on: a sweep whose points would not fit the
 * memory bound, or a --precision whose worst case passes the trial cap.
 * Both are refused before anything runs (issue 18, section 2). */
static cs_status check_bounds(const sched *s, const cs_experiment *e, cs_error *err)
{
    uint64_t per = point_bytes(e, s->opts, s->est);
    if (s->n_points > CS_SCHED_MAX_RUN_BYTES / per)
        return cs_error_set(err, CS_EINPUT,
                            "%llu sweep points need about %.0f MB (%llu bytes per point: the "
                            "ruleset's context, layout, tallies and results); one run takes "
                            "at most %llu MB: split the sweep into several runs",
                            (unsigned long long)s->n_points, (double)s->n_points * (double)per / 1e6,
                            (unsigned long long)per,
                            (unsigned long long)(CS_SCHED_MAX_RUN_BYTES / 1000000u));
    if (s->opts->max_trials > CS_SCHED_MAX_TRIALS)
        return cs_error_set(err, CS_EINPUT, "--max-trials %llu: at most %llu",
                            (unsigned long long)s->opts->max_trials,
                            (unsigned long long)CS_SCHED_MAX_TRIALS);
    if (!(e->precision > 0.0) || !s->est->worst_trials)
        return CS_OK;
    double need = ceil(s->est->worst_trials(e->precision, s->z));
    if (!(need > (double)s->max_trials && need > (double)s->run.trials))
        return CS_OK;
    char howmany[64];
    if (isfinite(need))
        snprintf(howmany, sizeof howmany, "up to %.3g", need);
    else
        snprintf(howmany, sizeof howmany, "more than %.0e", DBL_MAX);
    return cs_error_set(err, CS_EINPUT,
                        "precision %g would need %s trials per sweep point, above the cap of "
                        "%llu; ask for less or allow them with --max-trials N (at most %llu)",
                        e->precision, howmany, (unsigned long long)s->max_trials,
                        (unsigned long long)CS_SCHED_MAX_TRIALS);
    return CS_OK;
}

static cs_status alloc_state(sched *s, cs_run_result *out, cs_error *err)
{
    s->pts = calloc((size_t)s->n_points, sizeof *s->pts);
    s->tallies = calloc((size_t)s->n_points, s->est->tally_size);
    out->point = calloc((size_t)s->n_points, sizeof *out->point);
    if (!s->pts || !s->tallies || !out->point)
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    if (s->run.b) {
        if (!(out->pairs = calloc((size_t)s->n_points, sizeof *out->pairs)))
            return cs_error_set(err, CS_ENOMEM, "out of memory");
        for (uint64_t k = 0; k < s->n_points; k++)
            out->point[k].pair = &out->pairs[k];
    }
    if (!s->opts->want_dist)
        return CS_OK;
    s->thread_hist = calloc((size_t)s->threads, sizeof *s->thread_hist);
    if (!s->thread_hist)
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    uint64_t hb = s->hist_stride * s->n_points;
    for (int t = 0; t < s->threads; t++)
        if (!(s->thread_hist[t] = calloc(hb ? (size_t)hb : 1, sizeof **s->thread_hist)))
            return cs_error_set(err, CS_ENOMEM, "out of memory for histograms");
    return CS_OK;
}

static void free_state(sched *s)
{
    if (s->est && s->est->release)
        s->est->release(&s->run);
    if (s->thread_hist) {
        for (int t = 0; t < s->threads; t++)
            free(s->thread_hist[t]);
        free(s->thread_hist);
    }
    if (s->pts) {
        for (uint64_t k = 0; k < s->n_points; k++)
            cs_est_point_release(&s->pts[k].pt);
        free(s->pts);
    }
    free(s->tallies);
}

/* Metrics the first estimator left open (exact: no exact form) are sampled
 * by its `resample` estimator on the same points for the experiment's
 * trials, without --precision; their histograms are rebuilt from those
 * samples alone (counts), the others are left as they are. */
static cs_status resample_pass(sched *s, cs_run_result *out, cs_error *err)
{
    const cs_estimator *re = s->est->resample;
    unsigned any = 0;
    if (!re) /* an estimator that resamples has cs_est_tally tallies */
        return s->resume.n_passes > 1 ? cs_sched_ckpt_misfit(err, "no metric to resample") : CS_OK;
    for (uint64_t k = 0; k < s->n_points; k++)
        any |= ((const cs_est_tally *)s->pts[k].tally)->sampled_mask;
    if (!any || s->opts->points)
        return s->resume.n_passes > 1 ? cs_sched_ckpt_misfit(err, "no metric to resample") : CS_OK;
    sched r = *s;
    r.pass = 1;
    r.main = s;
    r.est = re;
    r.precision = 0.0;
    r.run.sequential = false;
    r.run.trials = re->first_trials(s->run.e);
    r.run.block_size = cs_stream_block_size(r.run.trials);
    r.run.hist_mask = any;
    r.pts = calloc((size_t)s->n_points, sizeof *r.pts);
    r.tallies = calloc((size_t)s->n_points, re->tally_size);
    if (!r.pts || !r.tallies) {
        free(r.pts);
        free(r.tallies);
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    }
    for (uint64_t k = 0; k < s->n_points; k++) {
        r.pts[k] = (sched_point){s->pts[k].pt, s->pts[k].placed, s->pts[k].placed, 0,
                                 r.tallies + k * re->tally_size};
        for (int t = 0; s->thread_hist && t < s->threads; t++)
            for (int m = 0; m < s->run.rs->n_metrics; m++)
                if ((any >> m) & 1u)
                    memset(s->thread_hist[t] + k * s->hist_stride + s->run.bin_offset[m], 0,
                           (size_t)s->run.bins[m].nbins * sizeof(uint64_t));
    }
    cs_status st = run_pass(&r, err);
    for (uint64_t k = 0; st == CS_OK && k < s->n_points; k++) {
        unsigned mask = ((const cs_est_tally *)s->pts[k].tally)->sampled_mask;
        cs_point_result tmp;
        memset(&tmp, 0, sizeof tmp);
        re->report(&r.run, &r.pts[k].pt, r.pts[k].tally, s->z, &tmp);
        for (int m = 0; m < s->run.rs->n_metrics; m++)
            if ((mask >> m) & 1u) {
                out->point[k].mean[m] = tmp.mean[m];
                out->point[k].mean_sampled[m] = true;
            }
    }
    s->done = r.done;
    free(r.pts);
    free(r.tallies);
    return st;
}

/* With several ranks each holds the bins of its own blocks: the threads'
 * bins into the first thread's, then summed over ranks (integers). */
static void combine_rank_hists(const sched *s)
{
    const cs_backend *backend = cs_backend_multi();
    if (!backend || !s->thread_hist)
        return;
    uint64_t hb = s->hist_stride * s->n_points;
    for (int t = 1; t < s->threads; t++)
        for (uint64_t i = 0; i < hb; i++) {
            s->thread_hist[0][i] += s->thread_hist[t][i];
            s->thread_hist[t][i] = 0;
        }
    backend->sum_u64(s->thread_hist[0], hb);
}

/* Each point's histograms: the threads' bins summed (integers, any order). */
static cs_status collect_hists(const sched *s, cs_run_result *out, cs_error *err)
{
    combine_rank_hists(s);
    for (uint64_t k = 0; s->thread_hist && k < s->n_points; k++)
        for (int m = 0; m < s->run.rs->n_metrics; m++) {
            int nb = s->run.bins[m].nbins;
            uint64_t *h = calloc((size_t)nb, sizeof *h);
            if (!h)
                return cs_error_set(err, CS_ENOMEM, "out of memory for histograms");
            double total = 0.0;
            for (int i = 0; i < nb; i++) {
                for (int t = 0; t < s->threads; t++)
                    h[i] += s->thread_hist[t][k * s->hist_stride +
                                              (uint64_t)(s->run.bin_offset[m] + i)];
                total += (double)h[i];
            }
            out->point[k].hist[m] = h;
            out->point[k].hist_total[m] = total;
        }
    return CS_OK;
}

/* The result of a caller's point that cannot exist: no trials, no numbers. */
static void unplaced_result(const cs_ruleset *rs, const cs_est_point *pt, cs_point_result *r)
{
    r->params = pt->params;
    r->trials = 0;
    r->p_success = r->ci_low = r->ci_high = (double)NAN;
    for (int o = 0; o < rs->n_outcomes; o++)
        r->p_outcome[o] = r->outcome_low[o] = r->outcome_high[o] = (double)NAN;
    for (int m = 0; m < rs->n_metrics; m++)
        r->mean[m] = (double)NAN;
}

static void fill_results(sched *s, cs_run_result *out)
{
    out->exp = s->run.e;
    out->method = s->est->method;
    out->z = s->z;
    out->n_points = s->n_points;
    out->success_mask = s->run.success_mask;
    out->max_trials = s->max_trials;
    out->sequential = s->run.sequential;
    out->precision_met = true;
    for (uint64_t k = 0; k < s->n_points; k++) {
        sched_point *p = &s->pts[k];
        if (!p->placed) {
            unplaced_result(s->run.rs, &p->pt, &out->point[k]);
            continue;
        }
        s->est->report(&s->run, &p->pt, p->tally, s->z, &out->point[k]);
        if (s->precision > 0.0 && s->est->halfwidth(&s->run, &p->pt, p->tally, s->z) > s->precision)
            out->precision_met = false;
    }
    for (int m = 0; m < s->run.rs->n_metrics; m++)
        out->bins[m] = s->run.bins[m];
}

cs_status cs_sched_run(const cs_experiment *e, const cs_run_opts *opts_in, cs_run_result *out,
                       cs_error *err)
{
    sched s;
    cs_run_opts planned = *opts_in;
    const cs_run_opts *opts = &planned;
    cs_status st;
    struct timespec t0, t1;
    const cs_backend *backend = cs_backend_multi();
    clock_gettime(CLOCK_MONOTONIC, &t0);
    memset(out, 0, sizeof *out);
    memset(&s, 0, sizeof s);
    if (backend && !backend->begin())
        return cs_error_set(err, CS_ERUNTIME,
                            "another MPI rank ended before the run (a failure of its own "
                            "there, such as running out of memory)");
    if (opts->pair && opts->points)
        return cs_error_set(err, CS_EINPUT, "a paired run takes the experiment's sweep points");
    if ((st = cs_sched_plan(e, &planned, err)) != CS_OK)
        return st;
    run_setup(&s, e, planned.est, opts);
    /* The bounds first: the setup may prepare every point of variant B. */
    if ((st = check_bounds(&s, e, err)) != CS_OK)
        return st;
    if (s.est->setup && (st = s.est->setup(&s.run, err)) != CS_OK) {
        free_state(&s);
        return st;
    }
    bool resumed = false;
    if (s.ck && (st = cs_ckpt_take_run(s.ck, &s.resume, &resumed, err)) != CS_OK) {
        free_state(&s);
        return st;
    }
    if ((st = alloc_state(&s, out, err)) == CS_OK && (st = prepare_points(&s, err)) == CS_OK &&
        (st = run_pass(&s, err)) == CS_OK) {
        fill_results(&s, out);
        if ((st = resample_pass(&s, out, err)) == CS_OK)
            st = collect_hists(&s, out, err);
    }
    free_state(&s);
    if (st == CS_ENOMEM && backend)
        backend->fail(err->msg); /* the other ranks wait in a gather */
    if (st != CS_OK) {
        cs_sched_result_free(out);
        return st;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    out->seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    return CS_OK;
}

/* With several ranks: every rank's result gathered and joined (the job's
 * hooks); false when out of memory. */
static bool gather_job(const cs_sched_job *job, const cs_backend *backend)
{
    size_t bytes, total;
    const void *mine = job->mine(job->user, &bytes);
    void *all = backend->gatherv(mine, bytes, &total);
    return all && job->gathered(job->user, all, total);
}

cs_status cs_sched_job_run(const cs_sched_job *job, cs_error *err)
{
    const cs_backend *backend = cs_backend_multi();
    if (backend && !backend->begin())
        return cs_error_set(err, CS_ERUNTIME, "another MPI rank ended before %s", job->what);
    uint64_t lo, hi;
    cs_backend_share(job->n_blocks, &lo, &hi);
    int failed = 0;
#pragma omp parallel num_threads(job->threads > 0 ? job->threads : omp_get_max_threads())
    {
        void *state = job->open(job->user);
#pragma omp for schedule(dynamic, 1)
        for (uint64_t b = lo; b < hi; b++)
            if (!state || !job->block(job->user, state, b)) {
#pragma omp atomic write
                failed = 1;
            }
        bool closed;
#pragma omp critical(cs_sched_job_close)
        closed = job->close(job->user, state);
        if (!state || !closed) {
#pragma omp atomic write
            failed = 1;
        }
    }
    if (backend && (failed || !gather_job(job, backend))) {
        failed = 1;
        backend->fail("out of memory"); /* the other ranks wait in the gather */
    }
    return failed ? cs_error_set(err, CS_ENOMEM, "out of memory") : CS_OK;
}

void cs_sched_result_free(cs_run_result *r)
{
    if (r->point)
        for (uint64_t k = 0; k < r->n_points; k++)
            for (int m = 0; m < CS_MAX_METRICS; m++)
                free(r->point[k].hist[m]);
    free(r->point);
    free(r->pairs);
    memset(r, 0, sizeof *r);
}
