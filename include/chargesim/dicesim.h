/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_DICESIM_H
#define CHARGESIM_DICESIM_H
/* Sampled dice totals for `chargesim dice --trials` (src/sim/runs/dicesim.c):
 * the dice of dice.h rolled as a job of the scheduler (sched.h,
 * cs_sched_job_run), which deals its blocks (stream.h's block size and
 * streams) over OpenMP threads and MPI ranks (backend.h). */
#include <stddef.h>
#include <stdint.h>

#include "chargesim/dice.h"
#include "chargesim/error.h"

/* One sampled total and how often it came up. */
typedef struct cs_dicesim_count {
    int value;
    uint64_t count;
} cs_dicesim_count;

/* Samples the dice expression `trials` times in blocks over threads (block b
 * from stream (seed, 0, b)) and counts each total: *out (malloc'd, the
 * caller frees it) holds *n (value, count) pairs sorted by value, counts
 * above 0. Identical counts for any thread count; memory is bounded by the
 * totals seen plus about 2 MB per thread, whatever the expression's range. */
cs_status cs_dicesim_counts(const cs_dice *d, uint64_t trials, uint64_t seed, int threads,
                            cs_dicesim_count **out, size_t *n, cs_error *err);

#endif
