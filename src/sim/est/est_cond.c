/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The conditional estimator (layouts sampled, the dice exact given each)
 * and the exact one (a fixed layout evaluated once). See
 * include/chargesim/estimator.h. */
#include <math.h>
#include <string.h>

#include "chargesim/estimator.h"
#include "chargesim/stream.h"

/* Neumaier's compensated addition: *sum + *comp tracks the exact sum. */
static inline void ksum(double *sum, double *comp, double x)
{
    double t = *sum + x;
    if (fabs(*sum) >= fabs(x))
        *comp += (*sum - t) + x;
    else
        *comp += (x - t) + *sum;
    *sum = t;
}

/* The metrics of one layout's exact answer into the tally: the mean of a
 * listed distribution, or the mean the ruleset gave; false if some metric
 * has neither and must be sampled. */
static bool add_metrics(const cs_est_run *run, const cs_probs *pr, uint64_t *hist,
                        cs_est_tally *t)
{
    bool need_sample = false;
    for (int m = 0; m < run->rs->n_metrics; m++) {
        if (pr->n[m] > 0) {
            double mean = 0.0, def = 0.0;
            for (int i = 0; i < pr->n[m]; i++) {
                mean += pr->value[m][i] * pr->prob[m][i];
                def += pr->prob[m][i];
                if (hist)
                    cs_est_hist_add(run, hist, m, pr->value[m][i],
                                    (uint64_t)llround(pr->prob[m][i] * CS_FIXED_ONE));
            }
            t->msum[m] += mean;
            t->mpdef[m] += def;
        } else if (pr->mean[m] == pr->mean[m]) {
            t->msum[m] += pr->mean[m];
            t->mpdef[m] += pr->pdef[m] == pr->pdef[m] ? pr->pdef[m] : 1.0;
        } else {
            need_sample = true;
        }
    }
    return need_sample;
}

/* Adds one layout's exact answer (and, for metrics it leaves open, one
 * sampled value) to the block's tally. */
void cs_est_cond_add_layout(const cs_est_run *run, const cs_est_point *pt, const void *lay,
                            cs_rng *rng, uint64_t *hist, cs_est_tally *t)
{
    const cs_ruleset *rs = run->rs;
    cs_probs pr;
    double s = cs_ruleset_eval_layout(rs, pt->ctx, lay, run->success_mask, &pr);
    ksum(&t->sum_ps, &t->comp_ps, s);
    t->sum_ps2 += s * s;
    for (int o = 0; o < rs->n_outcomes; o++) {
        ksum(&t->sum_p[o], &t->comp_p[o], pr.p[o]);
        t->sum_p2[o] += pr.p[o] * pr.p[o];
    }
    if (!add_metrics(run, &pr, hist, t))
        return;
    /* Metrics without exact information: one sampled trial on the same
     * layout estimates them without bias. */
    cs_trial tr;
    rs->resolve(pt->ctx, lay, rng, &tr);
    for (int m = 0; m < rs->n_metrics; m++) {
        if (pr.n[m] > 0 || pr.mean[m] == pr.mean[m])
            continue;
        t->sampled_mask |= 1u << m;
        double v = tr.m[m];
        if (v == v) {
            t->msum[m] += v;
            t->mpdef[m] += 1.0;
            if (hist)
                cs_est_hist_add(run, hist, m, v, (uint64_t)CS_FIXED_ONE);
        }
    }
}

static uint64_t cond_first_trials(const cs_experiment *e)
{
    return e->trials;
}

static void cond_block(const cs_est_run *run, const cs_est_point *pt, uint64_t b, uint64_t n,
                       void *layout, uint64_t *hist, void *tally)
{
    cs_est_tally *t = tally;
    double num[CS_MAX_PARAMS];
    cs_rng rng;
    const void *lay = pt->random_layout ? layout : pt->layout;

    cs_stream_block(&rng, run->e->seed, pt->index, b);
    memcpy(num, pt->params.num, sizeof num);
    for (uint64_t i = 0; i < n; i++) {
        if (pt->random_layout) {
            cs_est_draw_params(run, num, &rng);
            if (!cs_est_stands(run, pt, num)) {
                t->cannot_stand++;
                continue;
            }
            run->rs->draw_layout(pt->ctx, num, &rng, layout);
        }
        cs_est_cond_add_layout(run, pt, lay, &rng, hist, t);
    }
    t->trials = n - t->cannot_stand;
}

void cs_est_cond_merge(void *into, const void *block)
{
    cs_est_tally *t = into;
    const cs_est_tally *s = block;
    t->trials += s->trials;
    t->cannot_stand += s->cannot_stand;
    t->sampled_mask |= s->sampled_mask;
    ksum(&t->sum_ps, &t->comp_ps, s->sum_ps + s->comp_ps);
    t->sum_ps2 += s->sum_ps2;
    for (int o = 0; o < CS_MAX_OUTCOMES; o++) {
        ksum(&t->sum_p[o], &t->comp_p[o], s->sum_p[o] + s->comp_p[o]);
        t->sum_p2[o] += s->sum_p2[o];
    }
    for (int m = 0; m < CS_MAX_METRICS; m++) {
        t->msum[m] += s->msum[m];
        t->mpdef[m] += s->mpdef[m];
    }
}

/* The mean of the per-layout probabilities (sum, sum of squares) with its
 * normal interval. A layout drawn at random can always hide a rarer one
 * the sample missed: with n layouts all alike, up to w = z^2 / (n + z^2) of
 * them (the Wilson bound for none seen) could lie anywhere in [0, 1], so the
 * interval is never narrower than that. A fixed layout needs no such floor:
 * there the answer is exact. */
static void cond_interval(const cs_est_point *pt, uint64_t n, double sum, double sum2, double z,
                          double *p, double *lo, double *hi)
{
    if (n == 0) { /* no layout stood (cs_est_stands): nothing known */
        *p = *lo = *hi = (double)NAN;
        return;
    }
    cs_moments mo = {n, sum, sum2};
    /* A mean of probabilities may round a hair outside [0, 1]. */
    *p = fmin(1.0, fmax(0.0, cs_moments_mean(&mo)));
    double var = n > 1 ? cs_moments_variance(&mo) : 0.0;
    cs_stats_mean_interval(*p, var, n, z, lo, hi);
    if (pt->random_layout) {
        double w = z * z / ((double)n + z * z);
        *lo = fmin(*lo, *p - *p * w);
        *hi = fmax(*hi, *p + (1.0 - *p) * w);
    }
    /* Rounding must not push the estimate outside its own interval. */
    if (*lo > *p)
        *lo = *p;
    if (*hi < *p)
        *hi = *p;
}

void cs_est_cond_means(const cs_est_run *run, const cs_est_tally *t, cs_point_result *r)
{
    for (int m = 0; m < run->rs->n_metrics; m++) {
        r->mean[m] = t->mpdef[m] > 0.0 ? t->msum[m] / t->mpdef[m] : (double)NAN;
        r->mean_sampled[m] = (t->sampled_mask >> m) & 1u;
    }
}

/* Cell c of a point's tally (estimator.h): p_success, then each outcome. */
static void cond_cell(const cs_est_run *run, const cs_est_point *pt, const void *tally, int c,
                      double z, double *p, double *lo, double *hi)
{
    const cs_est_tally *t = tally;
    (void)run;
    if (c == 0)
        cond_interval(pt, t->trials, t->sum_ps + t->comp_ps, t->sum_ps2, z, p, lo, hi);
    else
        cond_interval(pt, t->trials, t->sum_p[c - 1] + t->comp_p[c - 1], t->sum_p2[c - 1], z, p,
                      lo, hi);
}

static double cond_halfwidth(const cs_est_run *run, const cs_est_point *pt, const void *tally,
                             double z)
{
    if (((const cs_est_tally *)tally)->trials == 0)
        return 1.0; /* no layout stood yet: nothing known */
    return cs_est_widest(run, pt, tally, z, cond_cell);
}

static void cond_report(const cs_est_run *run, const cs_est_point *pt, const void *tally,
                        double z, cs_point_result *r)
{
    const cs_est_tally *t = tally;
    r->params = pt->params;
    r->trials = t->trials;
    cs_est_report_stands(run, pt, t->cannot_stand, t->trials, z, r);
    cs_est_report_cells(run, pt, tally, z, cond_cell, r);
    cs_est_cond_means(run, t, r);
}

/* A per-layout probability lies in [0, 1], so its sample variance (n - 1
 * in the denominator) is at most n / 4(n - 1) and the half-width at most
 * z / 2 sqrt(n - 1): n = (z / 2h)^2 + 1 layouts bound a half-width h. */
static double cond_worst_trials(double h, double z)
{
    double s = z / (2.0 * h);
    return s * s + 1.0;
}

static uint64_t exact_first_trials(const cs_experiment *e)
{
    (void)e;
    return 1; /* the fixed layout, evaluated once */
}

const cs_estimator cs_est_conditional = {
    .name = "conditional",
    .method = CS_METHOD_CONDITIONAL,
    .tally_size = sizeof(cs_est_tally),
    .first_trials = cond_first_trials,
    .block = cond_block,
    .merge = cs_est_cond_merge,
    .halfwidth = cond_halfwidth,
    .report = cond_report,
    .worst_trials = cond_worst_trials,
    .resample = NULL,
};

/* Exact: the conditional estimator on the one fixed layout (its interval
 * collapses onto the value); metrics the ruleset cannot give exactly are
 * then sampled by mc on that layout for the experiment's trials. */
const cs_estimator cs_est_exact = {
    .name = "exact",
    .method = CS_METHOD_EXACT,
    .tally_size = sizeof(cs_est_tally),
    .first_trials = exact_first_trials,
    .block = cond_block,
    .merge = cs_est_cond_merge,
    .halfwidth = cond_halfwidth,
    .report = cond_report,
    .worst_trials = NULL,
    .resample = &cs_est_mc,
};
