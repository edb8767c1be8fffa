/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_SCHED_H
#define CHARGESIM_SCHED_H
/* The scheduler (src/sim/sched/sched.c): runs an experiment's
 * sweep points in fixed blocks of trials spread over OpenMP threads. Block
 * b of point k draws from the stream (seed, k, b); the block size depends
 * on the trial count only; tallies merge in block order, so 1, 2 or 7
 * threads give identical numbers. The scheduler owns blocks, threads,
 * seeding, progress and the stopping rule (and, through backend.h, the
 * share of each MPI rank); one estimator per method (src/sim/est/est_*.c,
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
#include "chargesim/result.h"
#include "chargesim/stats.h"

#define CS_SCHED_MAX_TRIALS 4000000000000ULL /* --max-trials at most */
/* --precision runs at most this many trials per point unless --max-trials
 * says otherwise: 10^9 is minutes per point for the slower rulesets. */
#define CS_SCHED_DEFAULT_MAX_TRIALS 1000000000ULL
/* Memory one run may hold for its sweep points (contexts, layouts, tallies,
 * results, histograms): cs_sched_point_bytes per point, measured at 4 KB
 * (coreheim) to 37 KB (generic, whose context holds its dice tables), up to
 * 92 KB with --dist on 2 threads: 11,000 to 240,000 points per run. */
#define CS_SCHED_MAX_RUN_BYTES 1000000000ULL

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
     * least every cs_ckpt_every seconds, at the end of each --precision round
     * that another follows, and when its sink says stop (then it returns
     * CS_ESTOPPED, the signal kept: cs_ckpt_stopped); it resumes from the state
     * cs_ckpt_load found. NULL: no checkpoints. */
    struct cs_ckpt *checkpoint;
    /* The estimator the run uses: its method with auto resolved (with
     * `pair`, the paired one), decided once by cs_sched_plan when the run
     * is built and read from here by the run, its checkpoint's identity and
     * cs_sched_point_bytes. NULL: cs_sched_run plans it itself. */
    const struct cs_estimator *est;
} cs_run_opts;

/* Builds the run of e with opts: resolves its estimator once into opts->est
 * (the estimators' registry, cs_estimator_of: auto, a pair's method) unless
 * it is set. CS_EINPUT with err set when the method cannot run e. */
cs_status cs_sched_plan(const cs_experiment *e, cs_run_opts *opts, cs_error *err);
/* Runs e (finished). On failure returns the status with err set and leaves
 * out empty. */
cs_status cs_sched_run(const cs_experiment *e, const cs_run_opts *opts, cs_run_result *out,
                       cs_error *err);
void cs_sched_result_free(cs_run_result *r);

/* Work in blocks that is not an experiment's (`chargesim dice`: dicesim.c):
 * blocks [0, n_blocks) of one computation, which the scheduler deals as it
 * deals a run's, over OpenMP threads (each taking the next block as it
 * frees) and MPI ranks (backend.h: contiguous shares, then one gather).
 * What a block computes and how results join is the caller's; as blocks
 * reach threads in any order, the join must not depend on it (integer
 * counts). The block's stream is the caller's too: stream.h's
 * cs_stream_block(seed, 0, b), as a run's point 0. */
typedef struct cs_sched_job {
    uint64_t n_blocks;
    int threads;      /* 0: OpenMP's default */
    const char *what; /* what it computes, for its errors: "the rolls" */
    void *user;       /* the caller's result and inputs, passed to every hook */
    /* A thread's own state, or NULL when out of memory (the job fails). */
    void *(*open)(void *user);
    /* Computes block b into the thread's state; false: out of memory. */
    bool (*block)(void *user, void *state, uint64_t b);
    /* Joins a thread's state (NULL if open failed) into the result and
     * frees it; called one thread at a time. False: out of memory. */
    bool (*close)(void *user, void *state);
    /* With several ranks, after every close: this rank's result as *bytes
     * bytes (still the caller's), then every rank's concatenated in rank
     * order (`all`, malloc'd, now the caller's), to become the result that
     * one process gives. False: out of memory. */
    const void *(*mine)(void *user, size_t *bytes);
    bool (*gathered)(void *user, void *all, size_t bytes);
} cs_sched_job;

/* Runs the job. CS_ERUNTIME when another MPI rank ended before it,
 * CS_ENOMEM when a hook or the gather ran out of memory (the backend is told,
 * so the other ranks do not wait); err says which. */
cs_status cs_sched_job_run(const cs_sched_job *job, cs_error *err);

/* Processors available to this process (the cap the CLI puts on --threads). */
int cs_sched_cores(void);
/* Bytes one sweep point of e holds during a run with opts. */
uint64_t cs_sched_point_bytes(const cs_experiment *e, const cs_run_opts *opts);

#endif
