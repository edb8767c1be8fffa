/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_REPLAY_H
#define CHARGESIM_REPLAY_H
/* One trial of an experiment exactly as --method mc runs it, kept whole for
 * `chargesim draw`: its values, its layout, the streams as its layout and
 * its dice started, and the trial resolve gave.
 *
 * Block b of point k draws from the PCG stream (seed, k, b), and each trial
 * of the block from a generator seeded from it and the trial's index (rng.h,
 * cs_rng_trials), so trial K is found at once, whatever the trials before
 * it drew (issue 18): any trial of any run can be drawn. */
#include <stdint.h>

#include "chargesim/experiment.h"
#include "chargesim/ruleset.h"

typedef struct cs_replay {
    const cs_ruleset *rs;
    void *ctx;                  /* the point's prepared context (owned) */
    void *layout;               /* the trial's layout (owned) */
    double num[CS_MAX_PARAMS];  /* the trial's values, draws in place */
    cs_rng layout_rng;          /* the stream as draw_layout started */
    cs_rng dice_rng;            /* the stream as resolve started */
    cs_trial trial;             /* what resolve gave */
} cs_replay;

/* Replays trial `trial` of sweep point `point`. CS_EINPUT for a point or
 * trial out of range. Free with
 * cs_replay_free, also after a failure. */
cs_status cs_replay_trial(const cs_experiment *e, uint64_t point, uint64_t trial, cs_replay *out,
                          cs_error *err);
void cs_replay_free(cs_replay *r);

/* The title of the trial's picture (`chargesim draw`), one line each of
 * CS_REPLAY_TITLE_LINE bytes: the experiment's name and ruleset (`run -`:
 * the ruleset alone); the swept values, trial, trials and seed; and, when
 * parameters are drawn per trial, the values this trial drew (offset,
 * angle...), which decide it. Returns the lines written (2 or 3). */
#define CS_REPLAY_TITLE_LINE 512
int cs_replay_title(const cs_experiment *e, uint64_t point, uint64_t trial, const cs_replay *r,
                    char lines[][CS_REPLAY_TITLE_LINE]);

#endif
