/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_COMPARE_H
#define CHARGESIM_COMPARE_H
/* Paired comparison of two variants of one experiment (issue 19): A and B
 * share their sweep, trials and seed; trial t of sweep point k draws the
 * same numbers in both (common random numbers), so the difference B - A is
 * estimated with most of the sampling noise cancelled. It is the scheduler
 * (sched.h) run with a paired estimator (estimator.h, est_pair.c).
 *
 * Streams: every trial (or layout) has a stream of its own, the paired
 * stream of (seed, point, block, trial) (stream.h, CS_STREAM_PAIR), so a
 * variant that rolls an extra die cannot shift the other's later trials.
 * Both variants start each trial from a copy of that stream: their drawn
 * parameters and layout come first, so they agree whenever the layout
 * parameters agree. Under rqmc both read the same scrambled Sobol point
 * for their drawn parameters (a parameter either draws is one dimension).
 *
 * Method: the less exact of A's and B's (mc < conditional < rqmc < exact),
 * so auto runs the pair on rqmc where `run` would run both on rqmc (or one
 * on rqmc, the other exact); cs_est_pair_method.
 *
 * Intervals of delta, per column (p_success and each p_<outcome>):
 *   mc           Wald interval on the n per-trial differences d in {-1,0,1}
 *                (the paired-proportion Wald interval), widened to at least
 *                the Wilson "none seen" bound w = z^2 / (n + z^2) mapped to
 *                [-1, 1]: below by (1 + delta) w, above by (1 - delta) w, so
 *                no discordant trial in the sample never means a zero width;
 *   conditional  CLT interval on the per-layout differences of the exact
 *                probabilities, with the conditional estimator's floor (a
 *                rarer layout the sample missed) mapped the same way;
 *   rqmc         Student t on R - 1 degrees of freedom over the R replicate
 *                means of the per-layout differences (each replicate one
 *                scramble of the same points, A and B alike), with the same
 *                floor over all R x P layouts;
 *   exact        both sides exact on the fixed layout: delta_lo = delta =
 *                delta_hi.
 * The floor applies where either variant's layout varies at the point.
 * --precision H adds blocks (rqmc: doubles every replicate's points) until
 * every delta's half-width is at most H. */
#include <stdbool.h>
#include <stdint.h>

#include "chargesim/sched.h"

#define CS_CMP_CELLS (CS_MAX_OUTCOMES + 1) /* cell 0: p_success; 1 + o: outcome o */

typedef struct cs_cmp_point {
    cs_params params;   /* variant A's values at this point */
    uint64_t trials;    /* trials (mc) or layouts */
    /* per cell: A, B, delta = B - A and the paired interval of delta */
    double a[CS_CMP_CELLS], b[CS_CMP_CELLS], d[CS_CMP_CELLS], lo[CS_CMP_CELLS],
        hi[CS_CMP_CELLS];
} cs_cmp_point;

typedef struct cs_cmp_result {
    const cs_experiment *a, *b;
    cs_method method;
    double z;
    uint64_t n_points;
    cs_cmp_point *point;
    bool precision_met;
    unsigned success_mask;
} cs_cmp_result;

/* Runs A and B paired. B must have A's ruleset, sweep shape, trials and
 * seed, and A's confidence, precision and replicates (the caller checks;
 * CS_EINPUT otherwise). The method is the one both allow (see above). */
cs_status cs_cmp_run(const cs_experiment *a, const cs_experiment *b, const cs_run_opts *opts,
                     cs_cmp_result *out, cs_error *err);
void cs_cmp_result_free(cs_cmp_result *r);

/* The refusal of a comparison that names no change for B. */
#define CS_CMP_NO_B "no --b override: say what variant B changes, e.g. --b charge_speed=9"

/* Why B cannot pair with A (the refusal both front ends word the same), or
 * NULL: rows pair by sweep point, so B must keep the sweep shape; the same
 * trials and seed are what makes the pairing; and B must change something.
 * buf (cap bytes) may hold the text. */
const char *cs_cmp_pair_problem(const cs_experiment *a, const cs_experiment *b, char *buf,
                                size_t cap);

#endif
