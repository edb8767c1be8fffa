#ifndef CHARGESIM_COMPARE_H
#define CHARGESIM_COMPARE_H
/* Paired comparison of two variants of one experiment (issue 19): A and B
 * share their sweep, trials and seed; trial t of sweep point k draws the
 * same numbers in both (common random numbers), so the difference B - A is
 * estimated with most of the sampling noise cancelled.
 *
 * Streams: in compare mode every trial has a sub-stream of its own, derived
 * from (seed, point, block, trial) by chained splitmix (cs_cmp_trial_rng),
 * so a variant that rolls an extra die cannot shift the other's later
 * trials. Both variants start each trial from a copy of that sub-stream:
 * their drawn parameters and layout come first, so they agree whenever the
 * layout parameters agree. `run` keeps its own per-block streams.
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
 *   exact        both sides exact on the fixed layout: delta_lo = delta =
 *                delta_hi.
 * --precision H adds blocks until every delta's half-width is at most H. */
#include <stdbool.h>
#include <stdint.h>

#include "chargesim/estimator.h"
#include "chargesim/rng.h"
#include "chargesim/sim.h"

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
 * seed (the caller checks; CS_EINPUT otherwise). The method is the one both
 * allow: the less exact of A's and B's when AUTO. */
cs_status cs_sim_compare(const cs_experiment *a, const cs_experiment *b, const cs_run_opts *opts,
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

/* The sub-stream of trial t of block b of point k. */
void cs_cmp_trial_rng(cs_rng *rng, uint64_t seed, uint64_t k, uint64_t b, uint64_t t);

/* The scheduler run with a given estimator, its merged tallies copied into
 * `tallies` (n_points * est->tally_size bytes); *met: every point met
 * --precision. Defined in src/sim/sched.c. */
cs_status cs_sim_run_tallies(const cs_experiment *e, const cs_estimator *est,
                             const cs_run_opts *opts, void *tallies, bool *met, cs_error *err);

#endif
