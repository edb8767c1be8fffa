#ifndef CHARGESIM_SCHED_H
#define CHARGESIM_SCHED_H
/* The scheduler (src/sim/sched.c), the block driver: runs an experiment's
 * sweep points in fixed blocks of trials spread over OpenMP threads. Block
 * b of point k draws from the stream (seed, k, b); the block size depends
 * on the trial count only; tallies merge in block order, so 1, 2 or 7
 * threads give identical numbers. The scheduler owns blocks, threads,
 * seeding, progress and the stopping rule (and, through backend.h, the
 * share of each MPI rank); one estimator per method (src/sim/est_*.c,
 * interface in chargesim/estimator.h) owns what a block computes and each
 * reported cell's interval.
 *
 * --precision H: a point runs on, doubling its blocks, until the widest
 * interval half-width of every reported probability column (p_success and
 * each p_<outcome>) is at most H. The intervals are then read at a
 * data-dependent stopping time; mc uses the continuity-corrected Wilson
 * interval there, which keeps its coverage (the plain one covered 93.2% at
 * p = 0.001 for 95%; tests/test_driver.c measures it over 2,000 seeds).
 * A precision whose worst case (p = 1/2: (z / 2H)^2 trials) passes the cap
 * (CS_SCHED_DEFAULT_MAX_TRIALS, or cs_run_opts.max_trials from --max-trials)
 * is refused before the run. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chargesim/experiment.h"
#include "chargesim/stats.h"

#define CS_SCHED_MIN_BLOCK 4096u   /* trials per block, at least */
#define CS_SCHED_MAX_BLOCKS 256u   /* blocks per point for the initial trials */
#define CS_SCHED_MAX_TRIALS 4000000000000ULL /* --max-trials at most */
/* --precision runs at most this many trials per point unless --max-trials
 * says otherwise: 10^9 is minutes per point for the slower rulesets. */
#define CS_SCHED_DEFAULT_MAX_TRIALS 1000000000ULL
/* Memory one run may hold for its sweep points (contexts, layouts, tallies,
 * results, histograms): cs_sched_point_bytes per point, measured at 4 KB
 * (coreheim) to 37 KB (generic, whose context holds its dice tables), up to
 * 92 KB with --dist on 2 threads: 11,000 to 240,000 points per run. */
#define CS_SCHED_MAX_RUN_BYTES 1000000000ULL
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

typedef struct cs_run_opts {
    int threads;      /* 0: OpenMP's default */
    bool want_dist;   /* collect histograms of the metrics */
    /* Called from one thread now and then with trials done so far and the
     * total planned (the total grows under --precision). May be NULL. */
    void (*progress)(void *user, uint64_t done, uint64_t total);
    void *progress_user;
    uint64_t max_trials;   /* --precision's cap per point; 0: CS_SCHED_DEFAULT_MAX_TRIALS */
    unsigned success_mask; /* outcomes counted in p_success; 0: the ruleset's */
    const cs_sched_points *points; /* NULL: the experiment's sweep points */
    /* compare: variant B, run paired with the experiment on the same
     * streams by a paired estimator (compare.h); NULL: a plain run. B keeps
     * the experiment's ruleset, sweep, trials, seed, confidence, precision
     * and replicates (cs_cmp_run checks), and has no `points`. */
    const cs_experiment *pair;
    /* --checkpoint (checkpoint.h): the run saves its state through it at
     * least every ck->every seconds, at the end of each --precision round
     * that another follows, and when its sink says stop (then it returns
     * CS_ERUNTIME with checkpoint->stopped set); it resumes from the state
     * cs_ckpt_load found. NULL: no checkpoints. */
    struct cs_ckpt *checkpoint;
} cs_run_opts;

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

/* Runs e (finished). On failure returns the status with err set and leaves
 * out empty. */
cs_status cs_sched_run(const cs_experiment *e, const cs_run_opts *opts, cs_run_result *out,
                       cs_error *err);
void cs_sched_result_free(cs_run_result *r);

/* The block size the driver uses for a trial count. */
uint64_t cs_sched_block_size(uint64_t trials);
/* Processors available to this process (the cap the CLI puts on --threads). */
int cs_sched_cores(void);
/* Bytes one sweep point of e holds during a run with opts. */
uint64_t cs_sched_point_bytes(const cs_experiment *e, const cs_run_opts *opts);

#endif
