/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rqmc estimator (issue 21): the conditional estimator's exact dice on
 * layouts from a randomised Sobol point set (qmc.h) instead of the rng.
 *
 * R replicates (experiment key `replicates`) each scramble the same first
 * P points independently; a replicate's mean over its P layouts is an
 * unbiased estimate, and the interval is the Student t on R - 1 degrees of
 * freedom over the R replicate means (Owen, ACM TOMACS 13 (2003) 363; L'Ecuyer
 * and Lemieux, "Recent advances in randomized quasi-Monte Carlo methods",
 * 2002). Block b is replicate b mod R, points [b div R * size, + size) of it,
 * so a round of blocks [0, B) (B a multiple of R) gives every replicate its
 * first B / R * size points: --precision's doubling rounds double P, and P
 * stays a power of two (a whole net). Randomness that is not a drawn
 * parameter (a ruleset's own draw_layout use of the rng, sampled metrics)
 * keeps the block's PCG stream (stream.h, CS_STREAM_BLOCK). The point set
 * and its replicates (cs_est_qmc) are shared with compare's paired rqmc
 * (est_pair.c). See estimator.h. */
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/estimator.h"
#include "chargesim/qmc.h"
#include "chargesim/quantile.h"
#include "chargesim/stream.h"

/* Points per block at most: blocks stay a few thousand layouts long. */
#define RQMC_BLOCK 4096u
/* Digits of the shared point set at most (points per replicate times the
 * drawn parameters, 4 bytes each): 256 MiB, whatever the dimension. */
#define RQMC_MAX_DIGITS ((uint64_t)1 << 26)

/* The points per replicate the point set may hold for dim dimensions. */
static uint64_t max_points(int dim)
{
    uint64_t by_memory = dim > 0 ? RQMC_MAX_DIGITS / (uint64_t)dim : CS_QMC_MAX_POINTS;
    return by_memory < CS_QMC_MAX_POINTS ? by_memory : CS_QMC_MAX_POINTS;
}

/* Column 0 is p_success, column 1 + o outcome o. */
typedef struct rqmc_tally {
    cs_est_tally all; /* as conditional: trials, every layout's sums, metrics */
    double rep[CS_EXPERIMENT_MAX_REPLICATES][1 + CS_MAX_OUTCOMES]; /* per replicate */
    /* Per replicate, its layouts that stood (cs_est_stands): a replicate's
     * mean is over them (a ratio estimate when some could not stand). */
    uint64_t stood[CS_EXPERIMENT_MAX_REPLICATES];
} rqmc_tally;

/* The least power of two at least n, or the greatest up to cap. */
static uint64_t pow2_at_least(uint64_t n, uint64_t cap)
{
    uint64_t p = 1;
    while (p < n && p * 2 <= cap)
        p <<= 1;
    return p;
}

uint64_t cs_est_qmc_trials(const cs_experiment *e, int dim)
{
    uint64_t r = e->replicates;
    return r * pow2_at_least((e->trials + r - 1) / r, max_points(dim));
}

/* R times the points per replicate: at least `trials` in all (within the
 * point set's limit), the points per replicate a power of two (a whole
 * net). */
static uint64_t rqmc_first_trials(const cs_experiment *e)
{
    return cs_est_qmc_trials(e, e->n_drawn);
}

cs_status cs_est_qmc_init(cs_est_qmc *q, cs_est_run *run, int dim, cs_error *err)
{
    q->replicates = run->e->replicates;
    q->dim = dim;
    q->t = cs_quantile_t((double)(q->replicates - 1), run->e->confidence);
    uint64_t per = run->trials / q->replicates;
    run->block_size = per < RQMC_BLOCK ? per : RQMC_BLOCK;
    for (uint64_t r = 0; r < q->replicates; r++)
        cs_qmc_scramble_init(&q->scramble[r], dim, run->e->seed, r);
    if (dim == 0)
        return CS_OK;
    return cs_qmc_set_init(&q->set, dim, 1, err);
}

cs_status cs_est_qmc_grow(cs_est_qmc *q, const cs_est_run *run, uint64_t blocks, cs_error *err)
{
    if (q->dim == 0)
        return CS_OK;
    return cs_qmc_set_grow(&q->set, blocks / q->replicates * run->block_size, err);
}

/* Whole doublings only, so every replicate keeps as many points as the
 * others (the replicate means are then equally weighted) within the
 * sequence's limit. */
uint64_t cs_est_qmc_next_blocks(const cs_est_qmc *q, const cs_est_run *run, uint64_t blocks,
                                uint64_t cap_blocks)
{
    uint64_t next = blocks * 2;
    if (next > cap_blocks)
        return blocks;
    if (next / q->replicates * run->block_size > max_points(q->dim))
        return blocks;
    return next;
}

void cs_est_qmc_free(cs_est_qmc *q)
{
    if (q->set.gen)
        cs_qmc_set_free(&q->set);
}

void cs_est_qmc_params(const cs_est_qmc *q, const cs_est_run *run, const int *coord, uint64_t r,
                       uint64_t i, double *num)
{
    for (int j = 0; j < run->n_draw; j++) {
        const cs_est_draw *d = &run->draw[j];
        double u = cs_qmc_coord(&q->scramble[r], &q->set, i, coord ? coord[j] : j);
        double x = d->uniform ? d->a + (d->b - d->a) * u : d->a + d->b * gsl_cdf_ugaussian_Pinv(u);
        num[d->index] = x < d->min ? d->min : x > d->max ? d->max : x;
    }
}

double cs_est_qmc_spread(const cs_est_qmc *q, const double *v, double *mean)
{
    double rr = (double)q->replicates, m = 0.0, ss = 0.0;
    for (uint64_t r = 0; r < q->replicates; r++)
        m += v[r];
    m /= rr;
    for (uint64_t r = 0; r < q->replicates; r++) {
        double d = v[r] - m;
        ss += d * d;
    }
    *mean = m;
    return q->t * sqrt(ss / (rr - 1.0) / rr);
}

static cs_status rqmc_setup(cs_est_run *run, cs_error *err)
{
    cs_est_qmc *q = calloc(1, sizeof *q);
    if (!q)
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    run->state = q;
    return cs_est_qmc_init(q, run, run->n_draw, err);
}

static cs_status rqmc_grow(cs_est_run *run, uint64_t blocks, cs_error *err)
{
    return cs_est_qmc_grow(run->state, run, blocks, err);
}

static uint64_t rqmc_next_blocks(const cs_est_run *run, uint64_t blocks, uint64_t cap_blocks)
{
    return cs_est_qmc_next_blocks(run->state, run, blocks, cap_blocks);
}

static void rqmc_release(cs_est_run *run)
{
    cs_est_qmc *q = run->state;
    if (!q)
        return;
    cs_est_qmc_free(q);
    free(q);
    run->state = NULL;
}

static void rqmc_block(const cs_est_run *run, const cs_est_point *pt, uint64_t b, uint64_t n,
                       void *layout, uint64_t *hist, void *tally)
{
    rqmc_tally *t = tally;
    const cs_est_qmc *q = run->state;
    uint64_t r = b % q->replicates, start = b / q->replicates * run->block_size;
    double num[CS_MAX_PARAMS];
    cs_rng rng;
    const void *lay = pt->random_layout ? layout : pt->layout;

    cs_stream_block(&rng, run->e->seed, pt->index, b);
    memcpy(num, pt->params.num, sizeof num);
    for (uint64_t i = 0; i < n; i++) {
        if (pt->random_layout) {
            if (run->n_draw > 0)
                cs_est_qmc_params(q, run, NULL, r, start + i, num);
            if (!cs_est_stands(run, pt, num)) {
                t->all.cannot_stand++;
                continue;
            }
            run->rs->draw_layout(pt->ctx, num, &rng, layout);
        }
        cs_est_cond_add_layout(run, pt, lay, &rng, hist, &t->all);
    }
    t->all.trials = n - t->all.cannot_stand;
    t->stood[r] = t->all.trials;
    t->rep[r][0] = t->all.sum_ps + t->all.comp_ps;
    for (int o = 0; o < run->rs->n_outcomes; o++)
        t->rep[r][1 + o] = t->all.sum_p[o] + t->all.comp_p[o];
}

static void rqmc_merge(void *into, const void *block)
{
    rqmc_tally *t = into;
    const rqmc_tally *s = block;
    cs_est_cond_merge(&t->all, &s->all);
    for (int r = 0; r < (int)CS_EXPERIMENT_MAX_REPLICATES; r++) {
        t->stood[r] += s->stood[r];
        for (int c = 0; c < 1 + CS_MAX_OUTCOMES; c++)
            t->rep[r][c] += s->rep[r][c];
    }
}

/* The mean of the R replicate values v and the Student t half-width of
 * their spread; never narrower, on a random layout, than the Wilson bound
 * for a region none of the n layouts fell in (as conditional). */
static void t_interval(const cs_est_run *run, const cs_est_point *pt, const double *v,
                       uint64_t n, double z, double *p, double *lo, double *hi)
{
    double mean;
    double half = cs_est_qmc_spread(run->state, v, &mean);
    *p = fmin(1.0, fmax(0.0, mean));
    *lo = fmax(0.0, *p - half);
    *hi = fmin(1.0, *p + half);
    if (pt->random_layout) {
        double w = z * z / ((double)n + z * z);
        *lo = fmin(*lo, *p - *p * w);
        *hi = fmax(*hi, *p + (1.0 - *p) * w);
    }
}

/* Column c's estimate: the mean of the R replicate means, each over the
 * layouts of its replicate that stood, with the Student t interval on
 * their spread (t_interval). A replicate none of whose layouts stood has
 * no mean: the estimate is then the pooled one and its interval [0, 1]. */
static void rqmc_interval(const cs_est_run *run, const cs_est_point *pt, const void *tally,
                          int c, double z, double *p, double *lo, double *hi)
{
    const rqmc_tally *t = tally;
    const cs_est_qmc *q = run->state;
    double v[CS_EXPERIMENT_MAX_REPLICATES], sum = 0.0;
    bool all = true;
    for (uint64_t r = 0; r < q->replicates; r++) {
        v[r] = t->rep[r][c] / (double)t->stood[r];
        sum += t->rep[r][c];
        all = all && t->stood[r] > 0;
    }
    if (t->all.trials == 0) {
        *p = *lo = *hi = (double)NAN;
    } else if (!all) {
        *p = fmin(1.0, fmax(0.0, sum / (double)t->all.trials));
        *lo = 0.0;
        *hi = 1.0;
    } else {
        t_interval(run, pt, v, t->all.trials, z, p, lo, hi);
    }
}

/* The share of layouts that could not stand: per replicate, of its
 * points; 0 exactly where no trial is asked (cs_est_stands). */
static void rqmc_stands(const cs_est_run *run, const cs_est_point *pt, const rqmc_tally *t,
                        double z, cs_point_result *r)
{
    const cs_est_qmc *q = run->state;
    uint64_t n = t->all.trials + t->all.cannot_stand, per = n / q->replicates;
    double v[CS_EXPERIMENT_MAX_REPLICATES];
    r->cannot_stand = t->all.cannot_stand;
    r->p_cannot_stand = r->cannot_stand_low = r->cannot_stand_high = 0.0;
    if (!pt->caller || run->n_draw == 0 || per == 0)
        return;
    for (uint64_t k = 0; k < q->replicates; k++)
        v[k] = (double)(per - t->stood[k]) / (double)per;
    t_interval(run, pt, v, n, z, &r->p_cannot_stand, &r->cannot_stand_low,
               &r->cannot_stand_high);
}

static double rqmc_halfwidth(const cs_est_run *run, const cs_est_point *pt, const void *tally,
                             double z)
{
    if (((const rqmc_tally *)tally)->all.trials == 0)
        return 1.0; /* no layout stood yet: nothing known */
    return cs_est_widest(run, pt, tally, z, rqmc_interval);
}

static void rqmc_report(const cs_est_run *run, const cs_est_point *pt, const void *tally,
                        double z, cs_point_result *r)
{
    const rqmc_tally *t = tally;
    r->params = pt->params;
    r->trials = t->all.trials;
    rqmc_stands(run, pt, t, z, r);
    cs_est_report_cells(run, pt, tally, z, rqmc_interval, r);
    cs_est_cond_means(run, &t->all, r);
}

/* No worst case: the replicate means of a discontinuous integrand need not
 * shrink with the points, so --precision is bounded by the trial cap and
 * the sequence's CS_QMC_MAX_POINTS per replicate, not refused up front. */
const cs_estimator cs_est_rqmc = {
    .name = "rqmc",
    .method = CS_METHOD_RQMC,
    .tally_size = sizeof(rqmc_tally),
    .first_trials = rqmc_first_trials,
    .block = rqmc_block,
    .merge = rqmc_merge,
    .halfwidth = rqmc_halfwidth,
    .report = rqmc_report,
    .worst_trials = NULL,
    .resample = NULL,
    .setup = rqmc_setup,
    .grow = rqmc_grow,
    .next_blocks = rqmc_next_blocks,
    .release = rqmc_release,
};
