/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_ESTIMATOR_H
#define CHARGESIM_ESTIMATOR_H
/* The estimators behind the scheduler (src/sim/sched/sched.c). The scheduler owns
 * blocks, threads, seeding, progress and the stopping rule; an estimator
 * owns what one method computes:
 *
 *   block    accumulates block b of one sweep point into a tally of its own
 *            (plain bytes, tally_size of them, zeroed by the scheduler);
 *            called concurrently for different blocks, it reads only the
 *            run, the point and its streams (stream.h: block b of the
 *            point, or the point's paired trials);
 *   merge    adds a block's tally into the point's, called in block order
 *            (point, then block), so double sums never depend on threads;
 *   halfwidth  the widest interval half-width of every probability cell it
 *            reports (p_success and each p_<outcome>): --precision stops a
 *            point when it is at most H, so H holds for every column;
 *   report   each cell with its interval (and the means) into a result.
 *
 * Tallies are plain data (integers and double sums added in block order,
 * no pointers), so they can be gathered between processes and saved.
 *
 * The estimators, one file each:
 * - mc (est_mc.c), conditional and exact (est_cond.c).
 * - rqmc (est_rqmc.c, issue 21): block b is replicate b mod R, points
 *   [b div R * block_size, + block_size) of the scrambled sequence; the
 *   drawn parameters come from that point set instead of the rng (a
 *   ruleset's own layout draws and the dice still from the stream); the
 *   tally keeps per-replicate sums and halfwidth is the Student-t interval
 *   over the R replicate means. The point set (cs_est_qmc below) is shared
 *   state the blocks only read: the optional setup / grow / next_blocks /
 *   release hooks let the scheduler ready it before each round and keep
 *   its doubling rounds whole (every replicate the same power of two
 *   points).
 * - the paired estimators of compare (est_pair.c; compare.h): a run with a
 *   variant B (cs_est_run.b) runs A and B in every block on the same
 *   streams: per trial (mc) or layout (conditional, exact, rqmc) the paired
 *   stream of stream.h, and for rqmc the same scrambled points. Their state
 *   (setup) holds B's draws and B's prepared points; their tally holds both
 *   variants' sums and the differences; report gives delta = B - A with its
 *   paired interval in each cell and each variant's own estimate beside it
 *   (cs_point_result.pair); halfwidth is the widest delta half-width.
 * - MPI: run_round computes a round's items (point, block) into their
 *   tallies; a backend that gives each rank a share of the items and then
 *   gathers every tally (plain bytes, no pointers) to every rank before
 *   merge_round keeps the merge order, hence the bytes, and lets every rank
 *   take the same stopping decision from the same merged tallies.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chargesim/experiment.h"
#include "chargesim/qmc.h"
#include "chargesim/result.h"
#include "chargesim/stats.h"

/* A parameter drawn per trial: uniform(a, b) or normal(a, b), clamped to
 * [min, max]. */
typedef struct cs_est_draw {
    int index;    /* the parameter */
    bool uniform; /* else normal */
    double a, b, min, max;
} cs_est_draw;

/* What every block of a run shares; read-only while blocks run. */
typedef struct cs_est_run {
    const cs_experiment *e;
    const cs_ruleset *rs;
    unsigned success_mask;  /* outcomes counted in p_success */
    uint64_t trials;        /* the first round's trials per point */
    uint64_t block_size;    /* trials per block (cs_stream_block_size(trials)) */
    bool sequential;        /* --precision: the interval is read at a stopping time */
    uint64_t max_trials;    /* --precision: the most trials a point runs; the block
                               that reaches it is cut short (0: no cap) */
    cs_est_draw draw[CS_MAX_PARAMS];
    int n_draw;
    cs_binning bins[CS_MAX_METRICS];
    int bin_offset[CS_MAX_METRICS + 1]; /* offsets into one point's histogram */
    unsigned hist_mask;     /* metrics whose histogram this pass fills */
    const cs_experiment *b; /* compare: variant B, run paired with e (est_pair.c);
                               NULL for a run of e alone */
    void *state;            /* the estimator's own (rqmc: the point set; paired:
                               B's draws and points), see setup */
} cs_est_run;

/* One sweep point as the scheduler prepared it. */
typedef struct cs_est_point {
    uint64_t index;     /* k of its streams (stream.h: block b of point k, ...) */
    void *ctx;          /* the ruleset's prepared context */
    void *layout;       /* the fixed layout, built once (unused when random) */
    cs_params params;   /* the point's values, drawn ones at their centre */
    bool random_layout; /* the layout varies between trials */
    uint64_t k;         /* the point's own index (index is 0 for a caller's point) */
    const cs_sched_points *caller; /* a caller's point with stands: asked of each
                                    trial's drawn values; else NULL */
} cs_est_point;

/* The tally of mc, conditional and exact: one block's or one point's. */
typedef struct cs_est_tally {
    uint64_t trials;                  /* trials or layouts (those that stand, cs_est_stands) */
    uint64_t cannot_stand;            /* trials left out: the target could not stand */
    uint64_t count[CS_MAX_OUTCOMES];  /* mc: trials per outcome */
    uint64_t mdef[CS_MAX_METRICS];    /* mc: trials where the metric was measured */
    unsigned sampled_mask;            /* conditional: metrics estimated by sampling */
    /* conditional: sums of p_success, its compensation (Neumaier: a fixed
     * layout repeated 10^6 times must still sum to n times its value to
     * ~1e-16, so conditional equals exact to 1e-12) and of its square */
    double sum_ps, comp_ps, sum_ps2;
    double sum_p[CS_MAX_OUTCOMES], comp_p[CS_MAX_OUTCOMES], sum_p2[CS_MAX_OUTCOMES];
    double msum[CS_MAX_METRICS];  /* mc: sum of X; conditional: of E[X 1{def}] or sampled X */
    double mpdef[CS_MAX_METRICS]; /* conditional: sum of P(def) or sampled 1{def} */
} cs_est_tally;

typedef struct cs_estimator {
    const char *name;
    cs_method method;
    size_t tally_size;
    /* Trials of the first round for the experiment's `trials` (exact: 1). */
    uint64_t (*first_trials)(const cs_experiment *e);
    void (*block)(const cs_est_run *run, const cs_est_point *pt, uint64_t b, uint64_t n,
                  void *scratch_layout, uint64_t *hist, void *tally);
    void (*merge)(void *into, const void *block);
    double (*halfwidth)(const cs_est_run *run, const cs_est_point *pt, const void *tally,
                        double z);
    void (*report)(const cs_est_run *run, const cs_est_point *pt, const void *tally, double z,
                   cs_point_result *out);
    /* Trials per point that a half-width h may need in the worst case
     * (p = 1/2), for the bound on --precision; NULL: never more than the
     * first round. */
    double (*worst_trials)(double h, double z);
    /* Metrics this estimator leaves open (tally's sampled_mask) are then
     * sampled by this one on the same points; NULL if none. */
    const struct cs_estimator *resample;
    /* Optional (NULL for mc, conditional, exact); used by rqmc, whose
     * blocks read shared state (the point set) the scheduler cannot know:
     *   setup        once before any block: may set run->block_size and
     *                run->state (released by release);
     *   grow         before each round, on the main thread: readies the
     *                state for blocks [0, blocks) of every point;
     *   next_blocks  the blocks per point of the next --precision round
     *                after `blocks`, at most cap_blocks (whole blocks
     *                within max_trials: no block is cut short); `blocks` itself
     *                when no further round can be run (NULL: twice as many,
     *                capped). */
    cs_status (*setup)(cs_est_run *run, cs_error *err);
    cs_status (*grow)(cs_est_run *run, uint64_t blocks, cs_error *err);
    uint64_t (*next_blocks)(const cs_est_run *run, uint64_t blocks, uint64_t cap_blocks);
    void (*release)(cs_est_run *run);
} cs_estimator;

extern const cs_estimator cs_est_mc;
extern const cs_estimator cs_est_conditional;
extern const cs_estimator cs_est_exact;
extern const cs_estimator cs_est_rqmc;
/* compare's, est_pair.c */
extern const cs_estimator cs_est_pair_mc;
extern const cs_estimator cs_est_pair_conditional;
extern const cs_estimator cs_est_pair_exact;
extern const cs_estimator cs_est_pair_rqmc;

/* The registry (src/sim/est/est_registry.c): the estimators by method, and
 * the rule that picks a run's. */

/* The estimator of a method (AUTO must be resolved first). */
const cs_estimator *cs_estimator_for(cs_method m);
/* The paired estimator of a method (AUTO resolved by cs_est_pair_method). */
const cs_estimator *cs_estimator_paired(cs_method m);
/* The method that will run e alone: AUTO resolved, or CS_EINPUT when the
 * requested one is impossible (cs_experiment_method_check: exact with a
 * random layout, exact/conditional/rqmc for a ruleset without
 * outcome_probabilities). AUTO picks rqmc where the dice are exact given
 * the layout and 1 to CS_QMC_MAX_DIM parameters are drawn per trial (the
 * layout's random dimensions), conditional where the layout is random
 * otherwise, exact where it is fixed, mc where the dice have no exact form.
 * The one place auto is decided. */
cs_status cs_est_method(const cs_experiment *e, cs_method *out, cs_error *err);
/* The method a run of e runs: cs_est_method, or with a variant b (compare)
 * cs_est_pair_method. What the scheduler, a checkpoint's identity and the
 * web page ask. */
cs_status cs_est_run_method(const cs_experiment *e, const cs_experiment *b, cs_method *m,
                            cs_error *err);
/* The estimator a run of e uses: its method's (cs_est_method), or,
 * with a variant b, the paired one of the method both allow
 * (cs_est_pair_method). CS_EINPUT with err set when there is none. */
cs_status cs_estimator_of(const cs_experiment *e, const cs_experiment *b,
                          const cs_estimator **est, cs_error *err);
/* The method a pair runs (est_registry.c): the less exact of A's and B's in the
 * order mc < conditional < rqmc < exact, except that under auto a pair
 * whose drawn parameters (A's and B's together) pass the Sobol sequence's
 * dimensions runs conditional. So auto pairs on rqmc wherever run's auto
 * picks rqmc for both variants (or for one, the other being exact). */
cs_status cs_est_pair_method(const cs_experiment *a, const cs_experiment *b, cs_method *m,
                             cs_error *err);

/* Shared by the estimators (src/sim/est/est_common.c). */

/* What every block of a run of e with est shares: the success set (0: the
 * ruleset's own), the first round's trials and block size, the per-trial
 * draws and the metrics' histogram bins. The scheduler and the replay of
 * one trial (replay.c) start from it, so they draw alike. */
void cs_est_run_init(cs_est_run *run, const cs_experiment *e, const cs_estimator *est,
                     unsigned success_mask);

/* Point pt of run as the scheduler prepares it, from pt->index and
 * pt->params (which the caller sets): the ruleset's context (prepared, its
 * refusals worded by cs_experiment_prepare), whether its layout varies
 * between trials, and a fixed layout built once from the point's layout
 * stream (stream.h). Release with cs_est_point_release, also after a
 * failure. */
cs_status cs_est_point_prepare(const cs_est_run *run, cs_est_point *pt, cs_error *err);
void cs_est_point_release(cs_est_point *pt);

/* Draws the per-trial parameters into num from rng, in table order. */
void cs_est_draw_params(const cs_est_run *run, double *num, cs_rng *rng);
/* Whether the target of point pt can stand in the layout of the drawn
 * values num (cs_sched_points.stands); true when nothing is drawn or no
 * caller asks. A trial where it cannot is left out of every sum. */
bool cs_est_stands(const cs_est_run *run, const cs_est_point *pt, const double *num);
/* The share of trials left out (cannot_stand of all) and its interval,
 * Wilson's (continuity-corrected at a --precision stopping time), into r;
 * exactly 0 where no trial is asked (cs_est_stands). For mc and
 * conditional, whose trials draw independently. */
void cs_est_report_stands(const cs_est_run *run, const cs_est_point *pt, uint64_t cannot_stand,
                          uint64_t stood, double z, cs_point_result *r);
/* A report's cells, written once for every estimator (issue 43): cell 0 is
 * p_success, cell 1 + o outcome o. A cell function gives cell c of a
 * point's tally: its estimate *p and interval [*lo, *hi]. */
typedef void (*cs_est_cell)(const cs_est_run *run, const cs_est_point *pt, const void *tally,
                            int c, double z, double *p, double *lo, double *hi);
/* Every cell of tally into r's p_success, ci_low, ci_high and p_outcome,
 * outcome_low, outcome_high. */
void cs_est_report_cells(const cs_est_run *run, const cs_est_point *pt, const void *tally,
                         double z, cs_est_cell cell, cs_point_result *r);
/* The widest half-width of every cell of tally (the halfwidth hook's). */
double cs_est_widest(const cs_est_run *run, const cs_est_point *pt, const void *tally, double z,
                     cs_est_cell cell);
/* Adds `mass` to metric m's bin of value v in one point's histogram h, if
 * this pass fills metric m's histogram. */
void cs_est_hist_add(const cs_est_run *run, uint64_t *h, int m, double v, uint64_t mass);
/* The conditional estimator's work on one layout (est_cond.c), shared with
 * rqmc: its exact outcome probabilities and metrics into t, and one trial
 * sampled from rng on that layout for metrics it has no exact form of. */
void cs_est_cond_add_layout(const cs_est_run *run, const cs_est_point *pt, const void *lay,
                            cs_rng *rng, uint64_t *hist, cs_est_tally *t);
/* Adds block tally `block` into `into` as the conditional estimator does. */
void cs_est_cond_merge(void *into, const void *block);
/* Each metric's mean (and whether it was sampled) of a conditional tally
 * into r, as the conditional estimator reports them (est_cond.c). */
void cs_est_cond_means(const cs_est_run *run, const cs_est_tally *t, cs_point_result *r);

/* rqmc's randomised point set (est_rqmc.c), shared with the paired rqmc
 * (est_pair.c): R replicates that scramble the same first points of a
 * Sobol sequence in dim dimensions, each its own way (qmc.h). */
typedef struct cs_est_qmc {
    uint64_t replicates; /* R, the experiment's `replicates` */
    int dim;             /* dimensions: the drawn parameters (0: no point set) */
    double t;            /* the Student t quantile on R - 1 degrees of freedom */
    cs_qmc_set set;      /* the unscrambled points, grown before each round */
    cs_qmc_scramble scramble[CS_EXPERIMENT_MAX_REPLICATES];
} cs_est_qmc;

/* R times the points per replicate for e's trials in dim dimensions: at
 * least the trials (within the point set's limit), the points per replicate
 * a power of two (a whole net). */
uint64_t cs_est_qmc_trials(const cs_experiment *e, int dim);
/* Readies q for run (R from run->e, dim dimensions: the scrambles and the
 * sequence's generator) and sets run->block_size (a block holds points of
 * one replicate). Call from setup, before the threads start (qmc.h). */
cs_status cs_est_qmc_init(cs_est_qmc *q, cs_est_run *run, int dim, cs_error *err);
/* The grow hook's work: the points blocks [0, blocks) of a point read. */
cs_status cs_est_qmc_grow(cs_est_qmc *q, const cs_est_run *run, uint64_t blocks,
                          cs_error *err);
/* The next_blocks hook's work: whole doublings within cap_blocks and the
 * point set's limit, else `blocks` (no further round). */
uint64_t cs_est_qmc_next_blocks(const cs_est_qmc *q, const cs_est_run *run, uint64_t blocks,
                                uint64_t cap_blocks);
void cs_est_qmc_free(cs_est_qmc *q);
/* run's drawn parameters at point i of replicate r into num: draw j reads
 * coordinate coord[j] (coord NULL: coordinate j) through its inverse CDF,
 * clamped as cs_est_draw_params clamps a sampled draw. */
void cs_est_qmc_params(const cs_est_qmc *q, const cs_est_run *run, const int *coord, uint64_t r,
                       uint64_t i, double *num);
/* The mean of R replicate values v[0 .. R - 1] (each replicate's mean)
 * into *mean, and the half-width of its Student t interval (R - 1 degrees
 * of freedom). */
double cs_est_qmc_spread(const cs_est_qmc *q, const double *v, double *mean);

#endif
