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
#include "chargesim/output.h"
#include "chargesim/registry.h"
#include "chargesim/replay.h"

static const char usage[] =
    "usage: chargesim draw EXPERIMENT.ini [--set K=V]... [--point P] [--trial K] -o FILE\n"
    "\n"
    "Draws one trial as its ruleset plays it: the units and terrain to scale on a\n"
    "1-inch grid, the charge path the ruleset uses (t9a: the snaking move and the\n"
    "align move; asoiaf: the straight charge move and the alignment; coreheim: the\n"
    "route with its climb, jump and interceptors; sovl: every declared charge of\n"
    "the phase), a scale bar in inches, a legend, and a caption with the trial's\n"
    "outcome, the range it rolled, the distance it needed and the rules applied.\n"
    "The title names the experiment (or, for `run -`, the ruleset), the swept\n"
    "values, the trial and seed, and the values drawn for this trial (offset,\n"
    "angle...), which decide it.\n"
    "\n"
    "  --set K=V    override a key, as for chargesim run\n"
    "  --point P    the sweep point, 0-based, in the order of `run`'s rows (default 0)\n"
    "  --trial K    the trial, 0-based (default 0), exactly as --method mc runs it:\n"
    "               its drawn values, layout and dice (any trial of the run, found\n"
    "               at once: each trial has a generator of its own)\n"
    "  -o FILE      the picture: FILE.svg, FILE.png or FILE.pdf by its extension\n"
    "               (default: SVG on standard output)\n"
    "  -h, --help   this text\n"
    "\n"
    "Rulesets without table geometry (generic, sovl_dice) cannot be drawn (exit 2).\n";

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

int cs_cli_draw(int argc, char **argv)
{
    const char *path = NULL, *out = NULL, *v;
    cs_cli_sets sets = {.n = 0};
    uint64_t point = 0, trial = 0;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            return 0;
        }
        bool matched = false;
        int rc = cs_cli_sets_option("draw", &sets, "--set", CS_CLI_SETS_ONLY, argc, argv, &i,
                                    &matched);
        if (rc)
            return rc;
        if (matched)
            continue;
        if (cs_cli_opt(argc, argv, &i, "--point", &v)) {
            if ((rc = cs_cli_uint("draw", "--point", v, 0, UINT64_MAX, &point)) != 0)
                return rc;
        } else if (cs_cli_opt(argc, argv, &i, "--trial", &v)) {
            if ((rc = cs_cli_uint("draw", "--trial", v, 0, UINT64_MAX, &trial)) != 0)
                return rc;
        } else if (cs_cli_opt(argc, argv, &i, "-o", &v)) {
            if (!v)
                return cs_cli_fail("draw", CS_EINPUT, "-o needs a file name");
            out = v;
        } else if (a[0] == '-' && a[1] != '\0') {
            return cs_cli_unknown_option("draw", a, usage);
        } else if (path) {
            return cs_cli_fail("draw", CS_EINPUT, "one experiment file at a time");
        } else {
            path = a;
        }
    }
    if (!path) {
        fputs(usage, stderr);
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
        cs_expfile_load(path, sets.set, sets.n, &e, &err) != CS_OK)
        return cs_cli_fail_err("draw", &err);
    int rc = draw_trial(&e, path, point, trial, fmt, out);
    cs_experiment_free(&e);
    return rc;
}
