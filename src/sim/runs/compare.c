/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `compare`: the scheduler run with variant B paired with A (sched.h,
 * cs_run_opts.pair), whose paired estimators live in est_pair.c; this file
 * checks that B pairs with A and reads the run's result as the table's
 * cells. See include/chargesim/compare.h. */
#include "chargesim/compare.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The cells of a paired run's point: delta and its interval as the run
 * reports them, each variant's own estimate from its pair. */
static void cells_of(const cs_ruleset *rs, const cs_point_result *r, cs_cmp_point *p)
{
    p->params = r->params;
    p->trials = r->trials;
    for (int c = 0; c <= rs->n_outcomes; c++) {
        p->a[c] = r->pair->a[c];
        p->b[c] = r->pair->b[c];
        p->d[c] = c == 0 ? r->p_success : r->p_outcome[c - 1];
        p->lo[c] = c == 0 ? r->ci_low : r->outcome_low[c - 1];
        p->hi[c] = c == 0 ? r->ci_high : r->outcome_high[c - 1];
    }
}

cs_status cs_cmp_run(const cs_experiment *a, const cs_experiment *b, const cs_run_opts *opts,
                     cs_cmp_result *out, cs_error *err)
{
    memset(out, 0, sizeof *out);
    if (a->rs != b->rs || a->n_points != b->n_points || a->trials != b->trials ||
        a->seed != b->seed)
        return cs_error_set(err, CS_EINPUT,
                            "variant B must keep A's ruleset, sweep shape, trials and seed");
    /* The run reads them from A: a B of its own would be ignored. */
    if (a->confidence != b->confidence || a->precision != b->precision ||
        a->replicates != b->replicates)
        return cs_error_set(err, CS_EINPUT,
                            "variant B must keep A's confidence, precision and replicates");
    cs_run_opts o = *opts;
    cs_run_result r;
    o.pair = b;
    cs_status st = cs_sched_run(a, &o, &r, err);
    if (st != CS_OK)
        return st;
    out->point = calloc(r.n_points ? (size_t)r.n_points : 1, sizeof *out->point);
    if (!out->point) {
        cs_sched_result_free(&r);
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    }
    out->a = a;
    out->b = b;
    out->method = r.method;
    out->z = r.z;
    out->n_points = r.n_points;
    out->precision_met = r.precision_met;
    out->success_mask = r.success_mask;
    for (uint64_t k = 0; k < r.n_points; k++)
        cells_of(a->rs, &r.point[k], &out->point[k]);
    cs_sched_result_free(&r);
    return CS_OK;
}

void cs_cmp_result_free(cs_cmp_result *r)
{
    free(r->point);
    memset(r, 0, sizeof *r);
}

/* The command line and the web edition word this one refusal (compare.h). */
const char *cs_cmp_pair_problem(const cs_experiment *a, const cs_experiment *b, char *buf,
                                size_t cap)
{
    if (a->trials != b->trials || a->seed != b->seed)
        return "--b changes trials or seed: both variants run the same trials on the same "
               "seed (set them with --trials and --seed)";
    if (a->confidence != b->confidence || a->precision != b->precision ||
        a->replicates != b->replicates)
        return "--b changes confidence, precision or replicates: delta has one interval, "
               "read from both variants alike (set them with --confidence, --precision and "
               "--replicates)";
    bool same_sweep = a->n_sweep == b->n_sweep && a->n_points == b->n_points;
    for (int s = 0; same_sweep && s < a->n_sweep; s++)
        same_sweep = a->sweep[s] == b->sweep[s] &&
                     a->param[a->sweep[s]].n == b->param[b->sweep[s]].n;
    if (!same_sweep) {
        snprintf(buf, cap,
                 "--b changes the sweep shape (A has %llu sweep points, B %llu): rows pair "
                 "point by point, so sweep a key with --set (both variants) and give B fixed "
                 "values",
                 (unsigned long long)a->n_points, (unsigned long long)b->n_points);
        return buf;
    }
    bool same = a->method == b->method;
    for (int i = 0; same && i < a->rs->n_params; i++)
        same = strcmp(a->param[i].raw ? a->param[i].raw : "",
                      b->param[i].raw ? b->param[i].raw : "") == 0;
    return same ? "--b changes nothing: variant B equals A" : NULL;
}
