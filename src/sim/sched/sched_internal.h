/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_SCHED_INTERNAL_H
#define CHARGESIM_SCHED_INTERNAL_H
/* Shared by the scheduler (sched.c) and its checkpoints (sched_ckpt.c);
 * not part of the public interface (sched.h, checkpoint.h). */
#include <stdbool.h>
#include <stdint.h>

#include "chargesim/checkpoint.h"
#include "chargesim/estimator.h"
#include "chargesim/sched.h"

typedef struct sched_point {
    cs_est_point pt;
    bool active;          /* still running blocks (--precision) */
    bool placed;          /* false: a caller's point that cannot exist (cs_sched_points) */
    uint64_t blocks_done;
    void *tally;          /* the merged tally, est->tally_size bytes */
} sched_point;

typedef struct sched {
    cs_est_run run;
    const cs_estimator *est;
    const cs_run_opts *opts;
    int threads;
    uint64_t n_points;
    /* A round visits point (j * stride) mod n_points j-th (issue 52): a
     * stride coprime to n_points spreads the first half-second over the
     * whole sweep, so the page's estimate, which measures it, sees every
     * part of a map and not its first corner. 1 (in order) with a
     * checkpoint or MPI, whose chunks resume from the points in order. */
    uint64_t stride;
    sched_point *pts;
    unsigned char *tallies;  /* every point's tally, one allocation */
    uint64_t **thread_hist;  /* [thread][point * hist_stride] */
    uint64_t hist_stride;
    double precision, z;
    uint64_t max_trials;     /* --precision adds blocks up to this many trials */
    uint64_t done, planned;  /* progress, trials; planned is the whole run's (plan_precision) */
    uint64_t cap[2];         /* --precision's blocks per point at most (run_pass) */
    /* --checkpoint (checkpoint.h; NULL: off): saved between chunks, resumed
     * from `resume` (its passes not yet taken); pass 1 is resample_pass,
     * whose checkpoints hold the run's own (`main`) too. */
    cs_ckpt *ck;
    cs_ckpt_run resume;
    int pass;
    const struct sched *main;
    uint64_t chunk;          /* items per chunk (CHUNK; adapted under MPI, ckpt_agree) */
    uint64_t target;         /* blocks per point of the round under way */
    double chunk_start;      /* when the chunk under way started */
} sched;

/* Items of a round are cut into chunks so the slots stay small. */
#define CHUNK 16384u

/* --checkpoint (sched_ckpt.c). */

/* Whether the chunk under way stops taking items, asked as a thread takes
 * item `taken` of this process's share (one process only). */
bool cs_sched_ckpt_cut(const sched *s, uint64_t taken);
/* The position item i of a chunk of n takes in the list dealt to the
 * ranks (i itself unless under MPI with a checkpoint). */
uint64_t cs_sched_ckpt_dealt(const sched *s, uint64_t i, uint64_t n);
/* After a chunk (round_end: after a --precision round another follows):
 * a checkpoint when one is due or the sink says stop; then CS_ESTOPPED
 * with the signal kept (cs_ckpt_stop). */
cs_status cs_sched_ckpt_tick(sched *s, bool round_end, cs_error *err);
/* The round (blocks per point) the checkpoint resumed holds for this
 * pass; 0 when it holds none. The scheduler walks its own rounds towards
 * it (only sched.c walks rounds) and hands the round it reached to: */
uint64_t cs_sched_ckpt_target(const sched *s);
/* At the start of a pass: its state from the checkpoint resumed, if any,
 * when `round` is the checkpoint's (*target its round); *complete when the
 * checkpoint is past this pass. */
cs_status cs_sched_ckpt_resume(sched *s, uint64_t round, uint64_t *target, bool *complete,
                               cs_error *err);
/* CS_EINPUT: the state in the checkpoint does not fit this run (what). */
cs_status cs_sched_ckpt_misfit(cs_error *err, const char *what);

#endif
