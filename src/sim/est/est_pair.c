/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The paired estimators of `compare` (issue 19; rqmc: issue 30): variant A,
 * the run's experiment, and variant B (run->b) in every block on the same
 * streams, so their difference keeps little of the sampling noise. Trial or
 * layout i of block b of point k starts both variants from a copy of the
 * paired stream (stream.h, CS_STREAM_PAIR): each draws its parameters and
 * layout from it (rqmc: its drawn parameters from the same scrambled point
 * instead), then its dice (mc). A's layout is used up before B's is drawn
 * into the same scratch layout. The intervals are those of compare.h; the
 * interface is estimator.h's. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/estimator.h"
#include "chargesim/stream.h"

#define CELLS (CS_MAX_OUTCOMES + 1) /* cell 0: p_success; 1 + o: outcome o */

/* What the paired blocks share besides A's run (setup, released by
 * release): B's draws and B at every sweep point, prepared as the scheduler
 * prepares A's; for rqmc the point set, and the coordinate of each
 * variant's draws in it. */
typedef struct pair_state {
    cs_est_run run_b;  /* B's draws (its trials and blocks are A's) */
    cs_est_point *pt_b; /* B at each sweep point */
    uint64_t n_points;
    int coord_a[CS_MAX_PARAMS], coord_b[CS_MAX_PARAMS];
    cs_est_qmc qmc;
} pair_state;

/* One block's or one point's sums per cell: A's and B's values and the
 * per-trial (per-layout) differences with their squares. */
typedef struct pair_tally {
    uint64_t trials;
    double sa[CELLS], sb[CELLS], sd[CELLS], sd2[CELLS];
} pair_tally;

/* rqmc: the same, and the differences summed per replicate. */
typedef struct pair_rqmc_tally {
    pair_tally all;
    double rep[CS_EXPERIMENT_MAX_REPLICATES][CELLS];
} pair_rqmc_tally;

/* B at A's point pt. */
static const cs_est_point *point_b(const cs_est_run *run, const cs_est_point *pt)
{
    const pair_state *ps = run->state;
    return &ps->pt_b[pt->index];
}

static cs_status pair_setup(cs_est_run *run, cs_error *err)
{
    pair_state *ps = calloc(1, sizeof *ps);
    if (!ps)
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    run->state = ps;
    /* B's draws and success set are all that is read of its run; its
     * trials and blocks are A's, so the estimator given here is immaterial. */
    cs_est_run_init(&ps->run_b, run->b, &cs_est_conditional, run->success_mask);
    ps->pt_b = calloc(run->b->n_points ? (size_t)run->b->n_points : 1, sizeof *ps->pt_b);
    if (!ps->pt_b)
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    ps->n_points = run->b->n_points;
    for (uint64_t k = 0; k < ps->n_points; k++) {
        cs_est_point *pt = &ps->pt_b[k];
        pt->index = pt->k = k;
        cs_experiment_point(run->b, k, &pt->params);
        cs_status st = cs_est_point_prepare(&ps->run_b, pt, err);
        if (st != CS_OK)
            return st;
    }
    return CS_OK;
}

static void pair_release(cs_est_run *run)
{
    pair_state *ps = run->state;
    if (!ps)
        return;
    for (uint64_t k = 0; ps->pt_b && k < ps->n_points; k++)
        cs_est_point_release(&ps->pt_b[k]);
    free(ps->pt_b);
    cs_est_qmc_free(&ps->qmc);
    free(ps);
    run->state = NULL;
}

/* The parameters A or B draws (the union, in table order) are the point
 * set's dimensions: coord[j] is the dimension of the variant's draw j, so
 * a parameter both draw takes one coordinate in both. */
static int pair_dimensions(const cs_est_run *a, const cs_est_run *b, int *coord_a, int *coord_b)
{
    int dim = 0, ja = 0, jb = 0;
    while (ja < a->n_draw || jb < b->n_draw) {
        int ia = ja < a->n_draw ? a->draw[ja].index : CS_MAX_PARAMS;
        int ib = jb < b->n_draw ? b->draw[jb].index : CS_MAX_PARAMS;
        if (ia <= ib)
            coord_a[ja++] = dim;
        if (ib <= ia)
            coord_b[jb++] = dim;
        dim++;
    }
    return dim;
}

static cs_status pair_rqmc_setup(cs_est_run *run, cs_error *err)
{
    cs_status st = pair_setup(run, err);
    if (st != CS_OK)
        return st;
    pair_state *ps = run->state;
    int dim = pair_dimensions(run, &ps->run_b, ps->coord_a, ps->coord_b);
    /* The points per replicate as rqmc_first_trials gives them for A's
     * draws, here for both variants' (the same unless B draws others). */
    run->trials = cs_est_qmc_trials(run->e, dim);
    return cs_est_qmc_init(&ps->qmc, run, dim, err);
}

static cs_status pair_rqmc_grow(cs_est_run *run, uint64_t blocks, cs_error *err)
{
    pair_state *ps = run->state;
    return cs_est_qmc_grow(&ps->qmc, run, blocks, err);
}

static uint64_t pair_rqmc_next_blocks(const cs_est_run *run, uint64_t blocks,
                                      uint64_t cap_blocks)
{
    const pair_state *ps = run->state;
    return cs_est_qmc_next_blocks(&ps->qmc, run, blocks, cap_blocks);
}

/* The layout of one variant for this trial: drawn from rng when random,
 * its drawn parameters from rng or, with q, from point i of replicate r. */
static const void *variant_layout(const cs_est_run *run, const cs_est_point *pt, cs_rng *rng,
                                  const cs_est_qmc *q, const int *coord, uint64_t r, uint64_t i,
                                  void *scratch)
{
    if (!pt->random_layout)
        return pt->layout;
    double num[CS_MAX_PARAMS];
    memcpy(num, pt->params.num, sizeof num);
    if (q)
        cs_est_qmc_params(q, run, coord, r, i, num);
    else
        cs_est_draw_params(run, num, rng);
    run->rs->draw_layout(pt->ctx, num, rng, scratch);
    return scratch;
}

static void add_pair(pair_tally *t, int c, double a, double b)
{
    double d = b - a;
    t->sa[c] += a;
    t->sb[c] += b;
    t->sd[c] += d;
    t->sd2[c] += d * d;
}

/* mc: one trial of each variant from a copy of the trial's paired stream. */
static void mc_pair_block(const cs_est_run *run, const cs_est_point *pt, uint64_t b, uint64_t n,
                          void *layout, uint64_t *hist, void *tally)
{
    const pair_state *ps = run->state;
    const cs_est_point *ptb = point_b(run, pt);
    const cs_ruleset *rs = run->rs;
    pair_tally *t = tally;
    (void)hist;
    for (uint64_t i = 0; i < n; i++) {
        cs_rng r0, ra, rb;
        cs_trial ta, tb;
        cs_stream_pair(&r0, run->e->seed, pt->index, b, i);
        ra = r0;
        rb = r0;
        const void *la = variant_layout(run, pt, &ra, NULL, NULL, 0, 0, layout);
        rs->resolve(pt->ctx, la, &ra, &ta);
        const void *lb = variant_layout(&ps->run_b, ptb, &rb, NULL, NULL, 0, 0, layout);
        rs->resolve(ptb->ctx, lb, &rb, &tb);
        add_pair(t, 0, (run->success_mask >> ta.outcome) & 1u,
                 (run->success_mask >> tb.outcome) & 1u);
        for (int o = 0; o < rs->n_outcomes; o++)
            add_pair(t, 1 + o, ta.outcome == o, tb.outcome == o);
    }
    t->trials = n;
}

/* Layout i of block b of a point: each variant's exact answer into t, and
 * the differences B - A of its cells into d. The drawn parameters come from
 * the paired stream, or with q from point `at` of replicate r; whatever
 * else the layout draws comes from the paired stream. */
static void cond_pair_layout(const cs_est_run *run, const cs_est_point *pt, uint64_t b,
                             uint64_t i, const cs_est_qmc *q, uint64_t r, uint64_t at,
                             void *layout, pair_tally *t, double *d)
{
    const pair_state *ps = run->state;
    const cs_est_point *ptb = point_b(run, pt);
    const cs_ruleset *rs = run->rs;
    cs_rng r0, ra, rb;
    cs_probs pa, pb;
    cs_stream_pair(&r0, run->e->seed, pt->index, b, i);
    ra = r0;
    rb = r0;
    const void *la = variant_layout(run, pt, &ra, q, ps->coord_a, r, at, layout);
    double sa = cs_ruleset_eval_layout(rs, pt->ctx, la, run->success_mask, &pa);
    const void *lb = variant_layout(&ps->run_b, ptb, &rb, q, ps->coord_b, r, at, layout);
    double sb = cs_ruleset_eval_layout(rs, ptb->ctx, lb, run->success_mask, &pb);
    add_pair(t, 0, sa, sb);
    d[0] = sb - sa;
    for (int o = 0; o < rs->n_outcomes; o++) {
        add_pair(t, 1 + o, pa.p[o], pb.p[o]);
        d[1 + o] = pb.p[o] - pa.p[o];
    }
}

/* conditional and exact: one layout of each variant, its exact answer. */
static void cond_pair_block(const cs_est_run *run, const cs_est_point *pt, uint64_t b, uint64_t n,
                            void *layout, uint64_t *hist, void *tally)
{
    double d[CELLS];
    (void)hist;
    for (uint64_t i = 0; i < n; i++)
        cond_pair_layout(run, pt, b, i, NULL, 0, 0, layout, tally, d);
    ((pair_tally *)tally)->trials = n;
}

/* rqmc: block b is replicate b mod R, points [b div R * size, + size) of
 * the point set, as for rqmc (est_rqmc.c); A and B read the same points. */
static void rqmc_pair_block(const cs_est_run *run, const cs_est_point *pt, uint64_t b,
                            uint64_t n, void *layout, uint64_t *hist, void *tally)
{
    const pair_state *ps = run->state;
    pair_rqmc_tally *t = tally;
    uint64_t r = b % ps->qmc.replicates, start = b / ps->qmc.replicates * run->block_size;
    double d[CELLS];
    (void)hist;
    for (uint64_t i = 0; i < n; i++) {
        cond_pair_layout(run, pt, b, i, &ps->qmc, r, start + i, layout, &t->all, d);
        for (int c = 0; c <= run->rs->n_outcomes; c++)
            t->rep[r][c] += d[c];
    }
    t->all.trials = n;
}

static void pair_merge(void *into, const void *block)
{
    pair_tally *t = into;
    const pair_tally *s = block;
    t->trials += s->trials;
    for (int c = 0; c < CELLS; c++) {
        t->sa[c] += s->sa[c];
        t->sb[c] += s->sb[c];
        t->sd[c] += s->sd[c];
        t->sd2[c] += s->sd2[c];
    }
}

static void rqmc_pair_merge(void *into, const void *block)
{
    pair_rqmc_tally *t = into;
    const pair_rqmc_tally *s = block;
    pair_merge(&t->all, &s->all);
    for (int r = 0; r < (int)CS_EXPERIMENT_MAX_REPLICATES; r++)
        for (int c = 0; c < CELLS; c++)
            t->rep[r][c] += s->rep[r][c];
}

/* Whether the pair's difference is random: mc always (the dice), the
 * others when either variant's layout varies at this point. */
static bool pair_random(const cs_est_run *run, const cs_est_point *pt, bool mc)
{
    return mc || pt->random_layout || point_b(run, pt)->random_layout;
}

/* The interval [d - h, d + h] of a difference in [-1, 1], floored when
 * random by the Wilson "none seen" bound w = z^2 / (n + z^2) mapped to
 * [-1, 1]: below by (1 + d) w, above by (1 - d) w (compare.h). */
static void delta_bounds(double d, double h, uint64_t trials, bool random, double z, double *lo,
                         double *hi)
{
    double n = (double)trials;
    *lo = d - h;
    *hi = d + h;
    if (random) {
        double w = z * z / (n + z * z);
        *lo = fmin(*lo, d - (1.0 + d) * w);
        *hi = fmax(*hi, d + (1.0 - d) * w);
    }
    *lo = fmax(-1.0, *lo);
    *hi = fmin(1.0, *hi);
}

/* mc, conditional, exact: delta of cell c with the CLT interval on the
 * differences. */
static void delta_interval(const pair_tally *t, int c, bool random, double z, double *d,
                           double *lo, double *hi)
{
    double n = (double)t->trials;
    *d = fmin(1.0, fmax(-1.0, t->sd[c] / n));
    double var = t->trials > 1 ? fmax(0.0, (t->sd2[c] - t->sd[c] * t->sd[c] / n) / (n - 1.0))
                               : 0.0;
    delta_bounds(*d, z * sqrt(var / n), t->trials, random, z, lo, hi);
}

/* rqmc: delta of cell c, the mean of the R replicate means of the
 * differences, with the Student t interval on their spread. */
static void rqmc_delta_interval(const cs_est_run *run, const cs_est_point *pt,
                                const pair_rqmc_tally *t, int c, double z, double *d, double *lo,
                                double *hi)
{
    const pair_state *ps = run->state;
    uint64_t per = t->all.trials / ps->qmc.replicates;
    double v[CS_EXPERIMENT_MAX_REPLICATES], mean;
    for (uint64_t r = 0; r < ps->qmc.replicates; r++)
        v[r] = t->rep[r][c] / (double)per;
    double h = cs_est_qmc_spread(&ps->qmc, v, &mean);
    *d = fmin(1.0, fmax(-1.0, mean));
    delta_bounds(*d, h, t->all.trials, pair_random(run, pt, false), z, lo, hi);
}

/* Cell c of a point's tally: delta with its interval. */

static void mc_cell(const cs_est_run *run, const cs_est_point *pt, const void *tally, int c,
                    double z, double *d, double *lo, double *hi)
{
    delta_interval(tally, c, pair_random(run, pt, true), z, d, lo, hi);
}

static void cond_cell(const cs_est_run *run, const cs_est_point *pt, const void *tally, int c,
                      double z, double *d, double *lo, double *hi)
{
    delta_interval(tally, c, pair_random(run, pt, false), z, d, lo, hi);
}

static void rqmc_cell(const cs_est_run *run, const cs_est_point *pt, const void *tally, int c,
                      double z, double *d, double *lo, double *hi)
{
    rqmc_delta_interval(run, pt, tally, c, z, d, lo, hi);
}

/* Each cell's delta and interval into r's p_success and p_outcome, and
 * each variant's mean into r->pair (sched.h). */
static void report_of(const cs_est_run *run, const cs_est_point *pt, const void *tally,
                      const pair_tally *all, double z, cs_est_cell cell, cs_point_result *r)
{
    double n = (double)all->trials;
    r->params = pt->params;
    r->trials = all->trials;
    cs_est_report_cells(run, pt, tally, z, cell, r);
    for (int c = 0; c <= run->rs->n_outcomes; c++) {
        r->pair->a[c] = fmin(1.0, fmax(0.0, all->sa[c] / n));
        r->pair->b[c] = fmin(1.0, fmax(0.0, all->sb[c] / n));
    }
    for (int m = 0; m < run->rs->n_metrics; m++)
        r->mean[m] = (double)NAN; /* compare reports no metric */
}

static double mc_pair_halfwidth(const cs_est_run *run, const cs_est_point *pt, const void *tally,
                                double z)
{
    return cs_est_widest(run, pt, tally, z, mc_cell);
}

static double cond_pair_halfwidth(const cs_est_run *run, const cs_est_point *pt,
                                  const void *tally, double z)
{
    return cs_est_widest(run, pt, tally, z, cond_cell);
}

static double rqmc_pair_halfwidth(const cs_est_run *run, const cs_est_point *pt,
                                  const void *tally, double z)
{
    return cs_est_widest(run, pt, tally, z, rqmc_cell);
}

static void mc_pair_report(const cs_est_run *run, const cs_est_point *pt, const void *tally,
                           double z, cs_point_result *r)
{
    report_of(run, pt, tally, tally, z, mc_cell, r);
}

static void cond_pair_report(const cs_est_run *run, const cs_est_point *pt, const void *tally,
                             double z, cs_point_result *r)
{
    report_of(run, pt, tally, tally, z, cond_cell, r);
}

static void rqmc_pair_report(const cs_est_run *run, const cs_est_point *pt, const void *tally,
                             double z, cs_point_result *r)
{
    report_of(run, pt, tally, &((const pair_rqmc_tally *)tally)->all, z, rqmc_cell, r);
}

/* A difference lies in [-1, 1]: its sample variance (n - 1 in the
 * denominator, delta_interval) is at most n / (n - 1), so the half-width
 * z sqrt(var / n) is at most z / sqrt(n - 1): n = (z / h)^2 + 1. */
static double pair_worst_trials(double h, double z)
{
    double s = z / h;
    return s * s + 1.0;
}

static uint64_t pair_first_trials(const cs_experiment *e)
{
    return e->trials;
}

static uint64_t exact_pair_first_trials(const cs_experiment *e)
{
    (void)e;
    return 1;
}

/* As rqmc's: R times a power of two points for A's draws (setup widens it
 * to B's draws too). */
static uint64_t rqmc_pair_first_trials(const cs_experiment *e)
{
    return cs_est_qmc_trials(e, e->n_drawn);
}

const cs_estimator cs_est_pair_mc = {
    .name = "mc", .method = CS_METHOD_MC, .tally_size = sizeof(pair_tally),
    .first_trials = pair_first_trials, .block = mc_pair_block, .merge = pair_merge,
    .halfwidth = mc_pair_halfwidth, .report = mc_pair_report,
    .worst_trials = pair_worst_trials, .setup = pair_setup, .release = pair_release,
};
const cs_estimator cs_est_pair_conditional = {
    .name = "conditional", .method = CS_METHOD_CONDITIONAL, .tally_size = sizeof(pair_tally),
    .first_trials = pair_first_trials, .block = cond_pair_block, .merge = pair_merge,
    .halfwidth = cond_pair_halfwidth, .report = cond_pair_report,
    .worst_trials = pair_worst_trials, .setup = pair_setup, .release = pair_release,
};
const cs_estimator cs_est_pair_exact = {
    .name = "exact", .method = CS_METHOD_EXACT, .tally_size = sizeof(pair_tally),
    .first_trials = exact_pair_first_trials, .block = cond_pair_block, .merge = pair_merge,
    .halfwidth = cond_pair_halfwidth, .report = cond_pair_report, .setup = pair_setup,
    .release = pair_release,
};
/* No worst case, as for rqmc: --precision is bounded by the trial cap and
 * the point set's limit, and warns where it stops short. */
const cs_estimator cs_est_pair_rqmc = {
    .name = "rqmc", .method = CS_METHOD_RQMC, .tally_size = sizeof(pair_rqmc_tally),
    .first_trials = rqmc_pair_first_trials, .block = rqmc_pair_block, .merge = rqmc_pair_merge,
    .halfwidth = rqmc_pair_halfwidth, .report = rqmc_pair_report, .setup = pair_rqmc_setup,
    .grow = pair_rqmc_grow, .next_blocks = pair_rqmc_next_blocks, .release = pair_release,
};
