/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers every estimator shares (a point prepared and released, the
 * parameters drawn, the run's common setup, the share of trials that cannot
 * stand, the histograms); see include/chargesim/estimator.h. The table of
 * estimators is est_registry.c's, which calls these files and none calls. */
#include "chargesim/estimator.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/stream.h"

cs_status cs_est_point_prepare(const cs_est_run *run, cs_est_point *pt, cs_error *err)
{
    const cs_ruleset *rs = run->rs;
    pt->ctx = calloc(1, rs->ctx_size ? rs->ctx_size : 1);
    pt->layout = calloc(1, rs->layout_size ? rs->layout_size : 1);
    if (!pt->ctx || !pt->layout)
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    cs_status st = cs_experiment_prepare(run->e, pt->index, &pt->params, pt->ctx, err);
    if (st != CS_OK)
        return st;
    pt->random_layout =
        run->n_draw > 0 || (rs->layout_is_random && rs->layout_is_random(pt->ctx));
    if (!pt->random_layout) {
        /* A fixed layout is built once, from a stream of its own. */
        cs_rng rng;
        cs_stream_layout(&rng, run->e->seed, pt->index);
        rs->draw_layout(pt->ctx, pt->params.num, &rng, pt->layout);
    }
    return CS_OK;
}

void cs_est_point_release(cs_est_point *pt)
{
    free(pt->ctx);
    free(pt->layout);
    pt->ctx = pt->layout = NULL;
}

void cs_est_draw_params(const cs_est_run *run, double *num, cs_rng *rng)
{
    for (int i = 0; i < run->n_draw; i++) {
        const cs_est_draw *d = &run->draw[i];
        double x = d->uniform ? d->a + (d->b - d->a) * cs_rng_uniform(rng)
                              : d->a + d->b * cs_rng_normal(rng);
        /* A normal draw is clamped to the parameter's valid range (a
         * distance cannot be negative); documented in the README. */
        num[d->index] = x < d->min ? d->min : x > d->max ? d->max : x;
    }
}

void cs_est_hist_add(const cs_est_run *run, uint64_t *h, int m, double v, uint64_t mass)
{
    if (!((run->hist_mask >> m) & 1u))
        return;
    h[run->bin_offset[m] + cs_binning_index(&run->bins[m], v)] += mass;
}

void cs_est_run_init(cs_est_run *run, const cs_experiment *e, const cs_estimator *est,
                     unsigned success_mask)
{
    memset(run, 0, sizeof *run);
    run->e = e;
    run->rs = e->rs;
    run->success_mask = success_mask ? success_mask : e->rs->success_mask;
    run->trials = est->first_trials(e);
    run->block_size = cs_stream_block_size(run->trials);
    run->sequential = e->precision > 0.0;
    run->hist_mask = ~0u;
    for (int i = 0; i < e->rs->n_params; i++) {
        const cs_value_spec *v = &e->param[i];
        if (v->kind == CS_VAL_UNIFORM || v->kind == CS_VAL_NORMAL)
            run->draw[run->n_draw++] = (cs_est_draw){i, v->kind == CS_VAL_UNIFORM, v->a, v->b,
                                                     e->rs->params[i].min, e->rs->params[i].max};
    }
    run->bin_offset[0] = 0;
    for (int m = 0; m < e->rs->n_metrics; m++) {
        const cs_metric_def *md = &e->rs->metrics[m];
        run->bins[m] = cs_binning_make(md->lo, md->hi, md->resolution);
        run->bin_offset[m + 1] = run->bin_offset[m] + run->bins[m].nbins;
    }
}

bool cs_est_stands(const cs_est_run *run, const cs_est_point *pt, const double *num)
{
    return !pt->caller || run->n_draw == 0 || pt->caller->stands(pt->caller->user, pt->k, num);
}

void cs_est_report_stands(const cs_est_run *run, const cs_est_point *pt, uint64_t cannot_stand,
                          uint64_t stood, double z, cs_point_result *r)
{
    uint64_t n = cannot_stand + stood;
    r->cannot_stand = cannot_stand;
    r->p_cannot_stand = r->cannot_stand_low = r->cannot_stand_high = 0.0;
    /* Asked of no trial: exactly 0. Asked and never seen: still an estimate. */
    if (!pt->caller || run->n_draw == 0 || n == 0)
        return;
    r->p_cannot_stand = (double)cannot_stand / (double)n;
    if (run->sequential)
        cs_stats_wilson_cc(cannot_stand, n, z, &r->cannot_stand_low, &r->cannot_stand_high);
    else
        cs_stats_wilson(cannot_stand, n, z, &r->cannot_stand_low, &r->cannot_stand_high);
}

void cs_est_report_cells(const cs_est_run *run, const cs_est_point *pt, const void *tally,
                         double z, cs_est_cell cell, cs_point_result *r)
{
    cell(run, pt, tally, 0, z, &r->p_success, &r->ci_low, &r->ci_high);
    for (int o = 0; o < run->rs->n_outcomes; o++)
        cell(run, pt, tally, 1 + o, z, &r->p_outcome[o], &r->outcome_low[o], &r->outcome_high[o]);
}

double cs_est_widest(const cs_est_run *run, const cs_est_point *pt, const void *tally, double z,
                     cs_est_cell cell)
{
    double w = 0.0, p, lo, hi;
    for (int c = 0; c <= run->rs->n_outcomes; c++) {
        cell(run, pt, tally, c, z, &p, &lo, &hi);
        w = fmax(w, 0.5 * (hi - lo));
    }
    return w;
}
