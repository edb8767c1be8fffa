/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `chargesim draw`: one trial's battlefield as a picture (SVG, PNG or PDF).
 * The ruleset describes the trial (its draw hook, chargesim/drawing.h); the
 * battlefield module renders it; this file only wires the two together. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/battlefield.h"
#include "chargesim/cli.h"
#include "chargesim/drawing.h"
#include "chargesim/expfile.h"
#include "chargesim/options.h"
#include "chargesim/output.h"
#include "chargesim/registry.h"
#include "chargesim/replay.h"

/* The rulesets with a draw hook, for the refusal's message. */
static void drawable(char *buf, size_t cap)
{
    buf[0] = '\0';
    for (int i = 0; i < cs_registry_count(); i++) {
        const cs_ruleset *rs = cs_registry_at(i);
        size_t n = strlen(buf);
        if (rs->draw && n < cap)
            snprintf(buf + n, cap - n, "%s%s", n ? ", " : "", rs->name);
    }
}

/* The one place draw writes a file: through the output module. */
static int write_picture(const cs_drawing *d, const cs_battlefield_title *t,
                         cs_canvas_format fmt, const char *out)
{
    cs_outfile o;
    cs_error err;
    if (cs_outfile_open(&o, out, &err) != CS_OK)
        return cs_cli_fail_err("draw", &err);
    if (cs_battlefield_write(d, t, fmt, o.f, &err) != CS_OK) {
        cs_outfile_abort(&o);
        return cs_cli_fail_err("draw", &err);
    }
    if (cs_outfile_commit(&o, &err) != CS_OK)
        return cs_cli_fail_err("draw", &err);
    return 0;
}

/* Replays the trial, asks its ruleset for the picture and writes it. */
static int draw_trial(const cs_experiment *e, const char *path, uint64_t point, uint64_t trial,
                      cs_canvas_format fmt, const char *out)
{
    if (!e->rs->draw) {
        char names[256];
        drawable(names, sizeof names);
        return cs_cli_fail("draw", CS_EINPUT,
                           "%s: ruleset %s has no table geometry to draw; draw supports %s",
                           path, e->rs->name, names);
    }
    cs_replay r;
    cs_error err;
    if (cs_replay_trial(e, point, trial, &r, &err) != CS_OK) {
        cs_replay_free(&r);
        return cs_cli_fail_err("draw", &err);
    }
    static cs_drawing d; /* a few tens of kilobytes */
    cs_drawing_init(&d);
    e->rs->draw(r.ctx, r.num, &r.layout_rng, r.layout, &r.dice_rng, &r.trial, &d);
    char lines[3][CS_REPLAY_TITLE_LINE];
    int n = cs_replay_title(e, point, trial, &r, lines);
    cs_replay_free(&r);
    cs_battlefield_title t = {n, {lines[0], lines[1], n > 2 ? lines[2] : NULL, NULL}};
    return write_picture(&d, &t, fmt, out);
}

/* What the command line asked for. */
typedef struct draw_args {
    const char *path, *out;
    cs_cli_sets sets;
    uint64_t point, trial;
} draw_args;

/* One option or operand (cs_cli_args): 0, or the exit status. */
static int on_arg(void *user, const cs_opt *o, const char *v)
{
    draw_args *a = user;
    if (!o) {
        if (a->path)
            return cs_cli_fail("draw", CS_EINPUT, "one experiment file at a time");
        a->path = v;
        return 0;
    }
    if (!o->key) {
        a->out = v;
        return 0;
    }
    if (strcmp(o->key, "set") == 0)
        return cs_cli_sets_add("draw", &a->sets, v);
    return cs_cli_uint("draw", o->name, v, 0, UINT64_MAX,
                       strcmp(o->key, "point") == 0 ? &a->point : &a->trial);
}

int cs_cli_draw(int argc, char **argv)
{
    draw_args a = {0};
    int rc = cs_cli_args("draw", argc, argv, NULL, on_arg, &a);
    if (rc)
        return rc < 0 ? 0 : rc;
    const char *path = a.path, *out = a.out;
    if (!path) {
        cs_cli_usage("draw", stderr);
        return 2;
    }
    cs_canvas_format fmt = CS_CANVAS_SVG;
    if (out && strcmp(out, "-") != 0 && !cs_canvas_format_of(out, &fmt))
        return cs_cli_fail("draw", CS_EINPUT,
                           "-o %s: unknown picture format; the file name must end in .svg, "
                           ".png or .pdf", out);
    cs_experiment e;
    cs_error err;
    if (cs_output_check_inputs(out, "-o", &path, 1, &err) != CS_OK ||
        cs_expfile_load(path, a.sets.set, a.sets.n, &e, &err) != CS_OK)
        return cs_cli_fail_err("draw", &err);
    rc = draw_trial(&e, path, a.point, a.trial, fmt, out);
    cs_experiment_free(&e);
    return rc;
}
