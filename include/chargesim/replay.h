#ifndef CHARGESIM_REPLAY_H
#define CHARGESIM_REPLAY_H
/* One trial of an experiment exactly as --method mc runs it, kept whole for
 * `chargesim draw`: its values, its layout, the streams as its layout and
 * its dice started, and the trial resolve gave.
 *
 * Block b of point k draws from the PCG stream (seed, k, b) and a trial
 * takes as many outputs as its layout and dice need (rejection sampling,
 * rerolls, a varying number of dice), so where trial K starts in its stream
 * is known only by replaying the trials before it in its block. A seek would
 * need a fixed number of outputs per trial, which changes every result.
 * Replay is bounded instead: at most CS_REPLAY_MAX trials before K in its
 * block (about 0.7 s for t9a with a drawn layout, the slowest shipped); a
 * trial further in is refused, naming the trials that can be drawn. Runs of
 * up to CS_SIM_MAX_BLOCKS * CS_REPLAY_MAX = 12.8 million trials per point
 * can draw any trial. */
#include <stdint.h>

#include "chargesim/experiment.h"
#include "chargesim/ruleset.h"

#define CS_REPLAY_MAX 50000u /* trials replayed before the one drawn, at most */

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
 * trial out of range or one past the replay bound (the message names the
 * bound and the nearest trial that can be drawn). Free with
 * cs_replay_free, also after a failure. */
cs_status cs_replay_trial(const cs_experiment *e, uint64_t point, uint64_t trial, cs_replay *out,
                          cs_error *err);
void cs_replay_free(cs_replay *r);

#endif
