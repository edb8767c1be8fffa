/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One trial replayed as --method mc runs it; see include/chargesim/replay.h.
 * The streams and the order of draws follow the scheduler (src/sim/sched/sched.c,
 * prepare_points) and the mc estimator (est_mc.c): the point is prepared
 * by cs_est_point_prepare, a fixed layout built from the point's layout
 * stream (stream.h); trial K of block b has a generator of its own seeded
 * from the block's stream and K (rng.h, cs_rng_trials), from which a random
 * layout takes its drawn values and layout, then the dice. */
#include "chargesim/replay.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/estimator.h"
#include "chargesim/sched.h"
#include "chargesim/stream.h"

cs_status cs_replay_trial(const cs_experiment *e, uint64_t point, uint64_t trial, cs_replay *out,
                          cs_error *err)
{
    const cs_ruleset *rs = e->rs;
    memset(out, 0, sizeof *out);
    out->rs = rs;
    if (point >= e->n_points)
        return cs_error_set(err, CS_EINPUT, "--point %llu: the experiment has %llu sweep points",
                            (unsigned long long)point, (unsigned long long)e->n_points);
    if (trial >= e->trials)
        return cs_error_set(err, CS_EINPUT, "--trial %llu: the experiment runs %llu trials",
                            (unsigned long long)trial, (unsigned long long)e->trials);
    cs_est_run run;
    cs_est_run_init(&run, e, &cs_est_mc, 0);
    uint64_t block_size = run.block_size;
    cs_est_point pt = {.index = point};
    cs_experiment_point(e, point, &pt.params);
    /* The point as the scheduler prepares it (its fixed layout built). */
    cs_status st = cs_est_point_prepare(&run, &pt, err);
    out->ctx = pt.ctx;
    out->layout = pt.layout;
    if (st != CS_OK)
        return st;
    memcpy(out->num, pt.params.num, sizeof out->num);
    bool random = pt.random_layout;
    uint64_t b = trial / block_size;
    cs_rng rng;
    cs_rng_trials trials;
    cs_stream_block(&rng, e->seed, point, b);
    cs_rng_trials_init(&trials, &rng);
    if (!random)
        cs_stream_layout(&out->layout_rng, e->seed, point);
    cs_rng_trials_seek(&trials, trial - b * block_size);
    cs_rng_trials_next(&trials, &rng);
    if (random) {
        cs_est_draw_params(&run, out->num, &rng);
        out->layout_rng = rng;
        rs->draw_layout(out->ctx, out->num, &rng, out->layout);
    }
    out->dice_rng = rng;
    rs->resolve(out->ctx, out->layout, &rng, &out->trial);
    return CS_OK;
}

void cs_replay_free(cs_replay *r)
{
    free(r->ctx);
    free(r->layout);
    r->ctx = r->layout = NULL;
}

int cs_replay_title(const cs_experiment *e, uint64_t point, uint64_t trial, const cs_replay *r,
                    char lines[][CS_REPLAY_TITLE_LINE])
{
    char label[384];
    cs_experiment_point_label(e, point, label, sizeof label);
    if (strcmp(e->name, e->rs->name) == 0) /* run -: named after its ruleset */
        snprintf(lines[0], CS_REPLAY_TITLE_LINE, "ruleset %s", e->rs->name);
    else
        snprintf(lines[0], CS_REPLAY_TITLE_LINE, "%s (ruleset %s)", e->name, e->rs->name);
    snprintf(lines[1], CS_REPLAY_TITLE_LINE, "%s%strial %llu of %llu, seed %llu", label,
             label[0] ? "; " : "", (unsigned long long)trial, (unsigned long long)e->trials,
             (unsigned long long)e->seed);
    /* The drawn values decide the trial: a picture without them would not
     * say which placement it shows. */
    size_t used = 0;
    for (int i = 0; i < e->rs->n_params && used < CS_REPLAY_TITLE_LINE; i++) {
        const cs_value_spec *v = &e->param[i];
        if (v->kind != CS_VAL_UNIFORM && v->kind != CS_VAL_NORMAL)
            continue;
        const cs_param_def *d = &e->rs->params[i];
        int w = snprintf(lines[2] + used, CS_REPLAY_TITLE_LINE - used, "%s%s = %.2f%s%s (%s)",
                         used ? ", " : "drawn for this trial: ", d->key, r->num[i],
                         d->unit[0] ? " " : "", d->unit, v->raw);
        used += w > 0 ? (size_t)w : 0;
    }
    return used ? 3 : 2;
}
