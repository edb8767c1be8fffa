#ifndef CHARGESIM_SIM_H
#define CHARGESIM_SIM_H
/* The block driver: runs an experiment's sweep points in fixed blocks of
 * trials spread over OpenMP threads. Block b of point k draws from the stream
 * (seed, k, b); the block size depends on the trial count only; integer
 * tallies merge in any order and double sums in block order, so 1, 2 or 7
 * threads give identical numbers. */
#include <stdbool.h>
#include <stdint.h>

#include "chargesim/experiment.h"
#include "chargesim/stats.h"

#define CS_SIM_MIN_BLOCK 4096u   /* trials per block, at least */
#define CS_SIM_MAX_BLOCKS 256u   /* blocks per point for the initial trials */
#define CS_SIM_MAX_TRIALS 4000000000000ULL /* --precision stops here */
#define CS_FIXED_ONE 4294967296.0        /* 2^32: fixed-point unit of probability mass, so
                                            4e9 layouts still fit a 64-bit count */

typedef struct cs_run_opts {
    int threads;      /* 0: OpenMP's default */
    bool want_dist;   /* collect histograms of the metrics */
    /* Called from one thread now and then with trials done so far and the
     * total planned (the total grows under --precision). May be NULL. */
    void (*progress)(void *user, uint64_t done, uint64_t total);
    void *progress_user;
} cs_run_opts;

typedef struct cs_point_result {
    cs_params params;         /* the point's values (drawn ones at their centre) */
    uint64_t trials;          /* trials (mc) or layouts (conditional, exact) */
    uint64_t successes;       /* mc only */
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
} cs_point_result;

typedef struct cs_run_result {
    const cs_experiment *exp;
    cs_method method;          /* the method that ran */
    double z;                  /* normal quantile of the confidence */
    uint64_t n_points;
    cs_point_result *point;
    cs_binning bins[CS_MAX_METRICS];
    bool precision_met;        /* every point met --precision (true when off) */
    double seconds;
} cs_run_result;

/* Runs e (finished). On failure returns the status with err set and leaves
 * out empty. */
cs_status cs_sim_run(const cs_experiment *e, const cs_run_opts *opts, cs_run_result *out,
                     cs_error *err);
void cs_run_result_free(cs_run_result *r);

/* The block size the driver uses for a trial count. */
uint64_t cs_sim_block_size(uint64_t trials);



/* Samples the dice expression `trials` times in blocks over threads (block b
 * from stream (seed, 0, b)) and counts each total: counts[v - lo] for
 * lo = cs_dice_min(d), counts sized cs_dice_max(d) - lo + 1. Identical counts
 * for any thread count. */
struct cs_dice;
cs_status cs_sim_dice_counts(const struct cs_dice *d, uint64_t trials, uint64_t seed,
                             int threads, uint64_t *counts, cs_error *err);
/* The numeric parameter values of one trial as --method mc draws it: trial
 * `trial` (0-based) of sweep point `point`, its per-trial draws in place.
 * The trials before it in its block are replayed (layouts and dice), so the
 * values are exactly those that trial used. */
cs_status cs_sim_trial_params(const cs_experiment *e, uint64_t point, uint64_t trial,
                              double *num, cs_error *err);

#endif
