/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_RESULT_H
#define CHARGESIM_RESULT_H
/* The types a run takes and gives, without the scheduler that runs it
 * (issue 43): the points a caller gives instead of an experiment's sweep,
 * each point's result and a run's result. The estimators fill a point's
 * result (estimator.h), the scheduler gathers them (sched.h) and the
 * tables read them (report.h, columns.h, cmpreport.h): none of those
 * needs the scheduler for it. Types only (header only, no .c). */
#include <stdbool.h>
#include <stdint.h>

#include "chargesim/experiment.h"
#include "chargesim/stats.h"

#define CS_FIXED_ONE 4294967296.0        /* 2^32: fixed-point unit of probability mass, so
                                            4e9 layouts still fit a 64-bit count */

/* Points a caller gives instead of the experiment's sweep (threat maps,
 * issue 20; the experiment must have no sweep). Point k holds the
 * experiment's values changed by place(user, k, params); place returns
 * false where the point cannot exist (the target cannot stand there): the
 * point is not prepared nor run, and its result has trials = 0 and NAN
 * probabilities. Every point draws from the streams of sweep point 0, as
 * the experiment run alone would: common random numbers, so a point equals
 * `run` at its values, and neighbouring points share their draws. Metrics
 * an estimator leaves open are not resampled (a map reports none). */
typedef struct cs_sched_points {
    uint64_t n;
    bool (*place)(void *user, uint64_t k, cs_params *params);
    void *user;
    /* Optional (NULL: every layout stands). Where parameters are drawn per
     * trial, whether point k's target can stand in the layout one trial's
     * values `num` make (a drawn angle may turn it onto the charger): false
     * leaves the trial out of the point's estimate, which is then over the
     * layouts that can stand, and counts it in cannot_stand. Called from
     * the worker threads: it must only read. */
    bool (*stands)(void *user, uint64_t k, const double *num);
} cs_sched_points;

/* What a paired run reports per point besides delta: each variant's own
 * estimate, cell 0 p_success, cell 1 + o outcome o. */
typedef struct cs_point_pair {
    double a[CS_MAX_OUTCOMES + 1], b[CS_MAX_OUTCOMES + 1];
} cs_point_pair;

typedef struct cs_point_result {
    cs_params params;         /* the point's values (drawn ones at their centre) */
    uint64_t trials;          /* trials (mc) or layouts (conditional, exact) */
    uint64_t successes;       /* mc only */
    /* cs_sched_points.stands: the trials left out as layouts where the target
     * cannot stand (not in trials), and their share of all trials with its
     * interval (0 when none is left out). */
    uint64_t cannot_stand;
    double p_cannot_stand, cannot_stand_low, cannot_stand_high;
    double p_success, ci_low, ci_high;
    double p_outcome[CS_MAX_OUTCOMES];
    double outcome_low[CS_MAX_OUTCOMES], outcome_high[CS_MAX_OUTCOMES]; /* their intervals */
    uint64_t outcome_count[CS_MAX_OUTCOMES]; /* mc only */
    double mean[CS_MAX_METRICS];     /* NAN where never measured */
    bool mean_sampled[CS_MAX_METRICS]; /* estimated by sampling, not exact */
    /* With want_dist: per metric, bin masses (mc: counts; conditional and
     * exact: probability mass in units of 2^-40 per layout). */
    uint64_t *hist[CS_MAX_METRICS];
    double hist_total[CS_MAX_METRICS]; /* the masses' sum, to normalise */
    /* A paired run (cs_run_opts.pair): p_success and each p_outcome above
     * are then delta = B - A with its paired interval, and this holds A's
     * and B's own (in the result's `pairs`); NULL otherwise. */
    cs_point_pair *pair;
} cs_point_result;

typedef struct cs_run_result {
    const cs_experiment *exp;
    cs_method method;          /* the method that ran */
    double z;                  /* normal quantile of the confidence */
    uint64_t n_points;
    cs_point_result *point;
    cs_binning bins[CS_MAX_METRICS];
    bool precision_met;        /* every point met --precision (true when off) */
    bool sequential;           /* run under --precision (intervals at a stopping time) */
    uint64_t max_trials;       /* the cap --precision ran under */
    unsigned success_mask;     /* the outcomes p_success counts */
    double seconds;
    cs_point_pair *pairs;      /* a paired run: n_points of them; else NULL */
} cs_run_result;

#endif
