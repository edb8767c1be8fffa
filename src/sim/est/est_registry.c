/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The estimators' registry (estimator.h), as src/rules/registry.c is the
 * rulesets': the estimator of each method, plain and paired, and the one
 * rule that picks which a run uses (auto resolved, a pair's method). The
 * estimators' files (est_mc.c, est_cond.c, est_rqmc.c, est_pair.c) and
 * their helpers (est_common.c) never call it: the calls go one way. */
#include "chargesim/estimator.h"

#include <stdbool.h>
#include <stdio.h>

const cs_estimator *cs_estimator_for(cs_method m)
{
    switch (m) {
    case CS_METHOD_MC:
        return &cs_est_mc;
    case CS_METHOD_CONDITIONAL:
        return &cs_est_conditional;
    case CS_METHOD_EXACT:
        return &cs_est_exact;
    case CS_METHOD_RQMC:
        return &cs_est_rqmc;
    case CS_METHOD_AUTO:
        break;
    }
    return NULL;
}

const cs_estimator *cs_estimator_paired(cs_method m)
{
    switch (m) {
    case CS_METHOD_MC:
        return &cs_est_pair_mc;
    case CS_METHOD_CONDITIONAL:
        return &cs_est_pair_conditional;
    case CS_METHOD_EXACT:
        return &cs_est_pair_exact;
    case CS_METHOD_RQMC:
        return &cs_est_pair_rqmc;
    case CS_METHOD_AUTO:
        break;
    }
    return NULL;
}

cs_status cs_est_method(const cs_experiment *e, cs_method *out, cs_error *err)
{
    if (e->method != CS_METHOD_AUTO) {
        cs_status st = cs_experiment_method_check(e, e->method, err);
        if (st == CS_OK)
            *out = e->method;
        return st;
    }
    /* RQMC needs layouts made of drawn parameters (its point set's
     * dimensions); a layout random only through the ruleset's own draws
     * gains nothing from it (issue 21). */
    *out = !e->rs->outcome_probabilities ? CS_METHOD_MC
           : !e->layout_random            ? CS_METHOD_EXACT
           : e->n_drawn >= 1 && e->n_drawn <= CS_QMC_MAX_DIM ? CS_METHOD_RQMC
                                          : CS_METHOD_CONDITIONAL;
    return CS_OK;
}

cs_status cs_est_run_method(const cs_experiment *e, const cs_experiment *b, cs_method *m,
                            cs_error *err)
{
    return b ? cs_est_pair_method(e, b, m, err) : cs_est_method(e, m, err);
}

cs_status cs_estimator_of(const cs_experiment *e, const cs_experiment *b,
                          const cs_estimator **est, cs_error *err)
{
    cs_method m;
    cs_status st = cs_est_run_method(e, b, &m, err);
    if (st != CS_OK)
        return st;
    *est = b ? cs_estimator_paired(m) : cs_estimator_for(m);
    return CS_OK;
}

/* The rank of a method in exactness, for the less exact of two. */
static int exactness(cs_method m)
{
    return m == CS_METHOD_MC ? 0 : m == CS_METHOD_CONDITIONAL ? 1 : m == CS_METHOD_RQMC ? 2 : 3;
}

/* The parameters drawn by a or b (or both). */
static int drawn_by_either(const cs_experiment *a, const cs_experiment *b)
{
    int n = 0;
    for (int i = 0; i < a->rs->n_params; i++) {
        bool da = a->param[i].kind == CS_VAL_UNIFORM || a->param[i].kind == CS_VAL_NORMAL;
        bool db = b->param[i].kind == CS_VAL_UNIFORM || b->param[i].kind == CS_VAL_NORMAL;
        n += da || db;
    }
    return n;
}

cs_status cs_est_pair_method(const cs_experiment *a, const cs_experiment *b, cs_method *m,
                             cs_error *err)
{
    cs_method ma, mb;
    cs_status st = cs_est_method(a, &ma, err);
    if (st == CS_OK && (st = cs_est_method(b, &mb, err)) != CS_OK) {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err->msg);
        cs_error_set(err, st, "variant B: %s", why);
    }
    if (st != CS_OK)
        return st;
    /* EXACT only when both are (neither layout is then random: see
     * cs_est_method). */
    *m = exactness(ma) < exactness(mb) ? ma : mb;
    /* As run's auto: rqmc within the Sobol sequence's dimensions, here the
     * parameters A and B draw between them. An rqmc asked for past them is
     * refused by its setup (qmc.h), in run's words. */
    if (*m == CS_METHOD_RQMC && a->method == CS_METHOD_AUTO && b->method == CS_METHOD_AUTO &&
        drawn_by_either(a, b) > CS_QMC_MAX_DIM)
        *m = CS_METHOD_CONDITIONAL;
    return CS_OK;
}
