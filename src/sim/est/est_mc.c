/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The Monte Carlo estimator: layout and dice sampled for every trial;
 * integer tallies, Wilson intervals. See include/chargesim/estimator.h. */
#include <math.h>
#include <string.h>

#include "chargesim/estimator.h"
#include "chargesim/stream.h"

static uint64_t mc_first_trials(const cs_experiment *e)
{
    return e->trials;
}

static void mc_block(const cs_est_run *run, const cs_est_point *pt, uint64_t b, uint64_t n,
                     void *layout, uint64_t *hist, void *tally)
{
    const cs_ruleset *rs = run->rs;
    cs_est_tally *out = tally;
    cs_tally tl;
    double num[CS_MAX_PARAMS];
    cs_rng rng;
    cs_rng_trials trials;
    cs_trial tr;
    const void *lay = pt->random_layout ? layout : pt->layout;
    const int nm = rs->n_metrics;

    memset(&tl, 0, sizeof tl);
    /* Each trial draws from a generator of its own, seeded from the block's
     * stream and its index (rng.h), so `chargesim draw --trial K` finds
     * trial K without replaying the trials before it. */
    cs_stream_block(&rng, run->e->seed, pt->index, b);
    cs_rng_trials_init(&trials, &rng);
    if (!pt->random_layout && !hist && rs->resolve_batch) {
        /* The same draws and sums as the loop below, without a call per trial. */
        rs->resolve_batch(pt->ctx, lay, &trials, n, &tl);
    } else {
        memcpy(num, pt->params.num, sizeof num);
        for (uint64_t t = 0; t < n; t++) {
            cs_rng_trials_next(&trials, &rng);
            if (pt->random_layout) {
                cs_est_draw_params(run, num, &rng);
                if (!cs_est_stands(run, pt, num)) {
                    out->cannot_stand++;
                    continue;
                }
                rs->draw_layout(pt->ctx, num, &rng, layout);
            }
            rs->resolve(pt->ctx, lay, &rng, &tr);
            tl.count[tr.outcome]++;
            for (int m = 0; m < nm; m++) {
                double v = tr.m[m];
                if (v == v) { /* not NAN: measured in this trial */
                    tl.mdef[m]++;
                    tl.msum[m] += v;
                    if (hist)
                        cs_est_hist_add(run, hist, m, v, 1u);
                }
            }
        }
    }
    out->trials = n - out->cannot_stand;
    memcpy(out->count, tl.count, sizeof out->count);
    memcpy(out->mdef, tl.mdef, sizeof out->mdef);
    memcpy(out->msum, tl.msum, sizeof out->msum);
}

static void mc_merge(void *into, const void *block)
{
    cs_est_tally *t = into;
    const cs_est_tally *s = block;
    t->trials += s->trials;
    t->cannot_stand += s->cannot_stand;
    for (int o = 0; o < CS_MAX_OUTCOMES; o++)
        t->count[o] += s->count[o];
    for (int m = 0; m < CS_MAX_METRICS; m++) {
        t->mdef[m] += s->mdef[m];
        t->msum[m] += s->msum[m];
    }
}

/* Wilson's interval of `count` in n trials. Under --precision the run stops
 * at the first round whose interval is narrow enough, which favours a
 * stop where the count happens to be low (a narrow interval near 0): the
 * plain Wilson interval then covered 93.2% at p = 0.001 for a nominal 95%.
 * The continuity-corrected Wilson interval (Newcombe 1998, method 4) is
 * read at the stopping point instead; tests/test_driver.c measures its
 * coverage over 2,000 seeds. Without --precision the plain interval stays. */
static void mc_interval(const cs_est_run *run, uint64_t count, uint64_t n, double z, double *p,
                        double *lo, double *hi)
{
    if (n == 0) { /* no layout stood (cs_est_stands): nothing known */
        *p = *lo = *hi = (double)NAN;
        return;
    }
    *p = (double)count / (double)n;
    if (run->sequential)
        cs_stats_wilson_cc(count, n, z, lo, hi);
    else
        cs_stats_wilson(count, n, z, lo, hi);
}

static uint64_t mc_successes(const cs_est_run *run, const cs_est_tally *t)
{
    uint64_t s = 0;
    for (int o = 0; o < run->rs->n_outcomes; o++)
        if (run->success_mask & (1u << o))
            s += t->count[o];
    return s;
}

/* Cell c of a point's tally (estimator.h): p_success, then each outcome. */
static void mc_cell(const cs_est_run *run, const cs_est_point *pt, const void *tally, int c,
                    double z, double *p, double *lo, double *hi)
{
    const cs_est_tally *t = tally;
    (void)pt;
    mc_interval(run, c == 0 ? mc_successes(run, t) : t->count[c - 1], t->trials, z, p, lo, hi);
}

static double mc_halfwidth(const cs_est_run *run, const cs_est_point *pt, const void *tally,
                           double z)
{
    if (((const cs_est_tally *)tally)->trials == 0)
        return 1.0; /* no layout stood yet: nothing known */
    return cs_est_widest(run, pt, tally, z, mc_cell);
}

static void mc_report(const cs_est_run *run, const cs_est_point *pt, const void *tally, double z,
                      cs_point_result *r)
{
    const cs_est_tally *t = tally;
    r->params = pt->params;
    r->trials = t->trials;
    r->successes = mc_successes(run, t);
    cs_est_report_stands(run, pt, t->cannot_stand, t->trials, z, r);
    cs_est_report_cells(run, pt, tally, z, mc_cell, r);
    for (int o = 0; o < run->rs->n_outcomes; o++)
        r->outcome_count[o] = t->count[o];
    for (int m = 0; m < run->rs->n_metrics; m++) {
        r->mean[m] = t->mdef[m] ? t->msum[m] / (double)t->mdef[m] : (double)NAN;
        r->mean_sampled[m] = true;
    }
}

/* Wilson's half-width is widest at p = 1/2: z / (2 sqrt(n + z^2)), and the
 * continuity correction of a --precision run adds up to 1 / 2n, so it stays
 * below x z / 2 + x^2 / 2 with x = 1 / sqrt(n). That equals h at
 * x = sqrt(z^2 / 4 + 2h) - z / 2: n = 1 / x^2 is the most a half-width h
 * needs ((z / 2h)^2 alone falls short by about z / 2h trials). */
static double mc_worst_trials(double h, double z)
{
    double x = sqrt(z * z / 4.0 + 2.0 * h) - z / 2.0;
    return 1.0 / (x * x);
}

const cs_estimator cs_est_mc = {
    .name = "mc",
    .method = CS_METHOD_MC,
    .tally_size = sizeof(cs_est_tally),
    .first_trials = mc_first_trials,
    .block = mc_block,
    .merge = mc_merge,
    .halfwidth = mc_halfwidth,
    .report = mc_report,
    .worst_trials = mc_worst_trials,
    .resample = NULL,
};
