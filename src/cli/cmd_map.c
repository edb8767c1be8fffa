/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `chargesim map`: a threat map of an experiment, CSV and picture (issue 20). */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/canvas.h"
#include "chargesim/cli.h"
#include "chargesim/csvw.h"
#include "chargesim/expfile.h"
#include "chargesim/heatmap.h"
#include "chargesim/map.h"
#include "chargesim/output.h"
#include "chargesim/report.h"
#include "chargesim/sched.h"
#include "chargesim/success.h"
#include "chargesim/tablewrite.h"

static const char usage[] =
    "usage: chargesim map EXPERIMENT.ini [options]\n"
    "\n"
    "A threat map: p_success of the experiment for every target position on a grid\n"
    "around the charger. Inches on the table: the charger's front-edge centre at\n"
    "(0, 0), facing +y; cell (x, y) puts the target's front-edge centre at (x, y),\n"
    "facing the charger unless the experiment sets its angle (at x = 0 the gap is y).\n"
    "How a game places it: t9a, asoiaf offset = x, distance = y; sovl b1 head-on;\n"
    "coreheim (warriors are points) distance = hypot(x, y). generic and sovl_dice\n"
    "place no units and have no map. Every other value comes from the experiment\n"
    "and --set, drawn ones included (each cell is then estimated like a run; a fixed\n"
    "layout is exact); a swept key is an error. Every cell draws from the same\n"
    "streams (common random numbers), so the cell at x = 0 equals chargesim run at\n"
    "distance y wherever every placement stands (below), and the same seed gives\n"
    "the same bytes on any thread count.\n"
    "\n"
    "Output: one CSV row per cell, y outer, x inner: x, y, trials, p_success,\n"
    "ci_low, ci_high, p_<outcome> for each outcome, p_cannot_stand,\n"
    "ci_low_cannot_stand, ci_high_cannot_stand, method. A cell where the target\n"
    "cannot stand (touching or overlapping the charger, on another unit or on\n"
    "impassable terrain) has trials 0, empty probabilities, p_cannot_stand 1 and\n"
    "method none. Where values are drawn per trial (angle = uniform(-45,45)), a\n"
    "trial whose draws put the target where it cannot stand is no failed charge:\n"
    "it is left out, the cell's odds are over the placements that can stand\n"
    "(trials counts those), and p_cannot_stand is the share left out, with its\n"
    "interval; the picture hatches a cell the more, the larger that share.\n"
    "\n"
    "options:\n"
    "  --x LO..HI:STEP    target positions across, inches (default -24..24:0.5); STEP\n"
    "                     must land on HI\n"
    "  --y LO..HI:STEP    target positions ahead, inches (default 0..24:0.5)\n"
    "  --set K=V          override a key: section.key=value, or key=value for [params]\n"
    "  --trials N         trials (or sampled layouts) per cell when the layout is random\n"
    "  --seed S           the seed; the same seed gives the same bytes on any thread count\n"
    "  --threads T        worker threads (default: all cores; more are capped at them)\n"
    "  --method M         auto (default), mc, conditional, exact or rqmc (as for run)\n"
    "  --replicates R     rqmc: independent scrambles, 2 to 64 (default 16)\n"
    "  --confidence C     interval confidence, default 0.95\n"
    "  --precision H      add blocks until every probability's interval half-width is at\n"
    "                     most H in each cell (as chargesim run --precision)\n"
    "  --max-trials N     allow --precision up to N trials per cell (at most 4e12)\n"
    "  --success LIST     outcomes p_success counts (default: the ruleset's)\n"
    "  -o FILE            write the CSV to FILE (default: standard output, unless --plot\n"
    "                     is given)\n"
    "  --plot FILE        the picture: .svg, .png or .pdf by the extension; heatmap with\n"
    "                     the 50/75/90% contours, the charger to scale, colour bar,\n"
    "                     cells where the target cannot stand hatched grey, cells\n"
    "                     where some drawn placements cannot hatched over\n"
    "  --quiet            no progress bar (it shows only on a terminal, after 1 s)\n"
    "  --checkpoint FILE  keep the map's state in FILE, as run does: the same command\n"
    "                     run again goes on from it; removed when done\n"
    "  --checkpoint-every S  seconds between checkpoints (default 60)\n"
    "  -h, --help         this text\n"
    "\n"
    "Exit status: 0 done, 2 bad input or usage, 1 runtime failure, 128 + the signal\n"
    "when SIGINT or SIGTERM stopped a map with --checkpoint. Output files are\n"
    "written under a temporary name and renamed, never left half-written.\n";

#define CMD "map"

typedef struct map_args {
    const char *path, *out, *plot, *success, *x, *y;
    cs_cli_sets sets;
    int threads;
    uint64_t max_trials;
    bool quiet;
    int argc;    /* the command line, for the metadata */
    char **argv;
    cs_cli_ckpt ckpt; /* --checkpoint */
} map_args;

/* Options whose value is kept as text. */
static int text_option(map_args *a, int argc, char **argv, int *i, bool *matched)
{
    static const struct {
        const char *name, *what;
        size_t off;
    } opts[] = {
        {"-o", "a file name", offsetof(map_args, out)},
        {"--plot", "a file name (.svg, .png or .pdf)", offsetof(map_args, plot)},
        {"--success", "a list of outcomes", offsetof(map_args, success)},
        {"--x", "LO..HI:STEP", offsetof(map_args, x)},
        {"--y", "LO..HI:STEP", offsetof(map_args, y)},
    };
    const char *v;
    for (size_t k = 0; k < sizeof opts / sizeof opts[0]; k++) {
        if (!cs_cli_opt(argc, argv, i, opts[k].name, &v))
            continue;
        *matched = true;
        if (!v)
            return cs_cli_fail(CMD, CS_EINPUT, "%s needs %s", opts[k].name, opts[k].what);
        *(const char **)((char *)a + opts[k].off) = v;
        return 0;
    }
    return 0;
}

static int value_option(map_args *a, int argc, char **argv, int *i, bool *matched)
{
    const char *v;
    int rc = cs_cli_ckpt_option(CMD, &a->ckpt, argc, argv, i, matched);
    if (rc || *matched)
        return rc;
    if (cs_cli_opt(argc, argv, i, "--threads", &v)) {
        *matched = true;
        return cs_cli_threads(CMD, v, &a->threads);
    }
    if (cs_cli_opt(argc, argv, i, "--max-trials", &v)) {
        *matched = true;
        return cs_cli_uint(CMD, "--max-trials", v, 1, CS_SCHED_MAX_TRIALS, &a->max_trials);
    }
    return text_option(a, argc, argv, i, matched);
}

/* Fills *a from argv: 0, -1 after --help, or the exit status of an error. */
static int parse_args(map_args *a, int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        const char *s = argv[i];
        bool matched = false;
        int rc;
        if (strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0) {
            fputs(usage, stdout);
            return -1;
        }
        if ((rc = cs_cli_sets_option(CMD, &a->sets, "--set", CS_CLI_SETS_EXP_REPL, argc, argv, &i,
                                     &matched)) != 0)
            return rc;
        if (!matched && (rc = value_option(a, argc, argv, &i, &matched)) != 0)
            return rc;
        if (matched)
            continue;
        if (strcmp(s, "--quiet") == 0)
            a->quiet = true;
        else if (s[0] == '-' && s[1] != '\0')
            return cs_cli_unknown_option(CMD, s, usage);
        else if (a->path)
            return cs_cli_fail(CMD, CS_EINPUT, "one experiment file at a time ('%s' and '%s')",
                               a->path, s);
        else
            a->path = s;
    }
    if (!a->path) {
        fputs(usage, stderr);
        return 2;
    }
    cs_canvas_format f;
    if (a->plot && !cs_canvas_format_of(a->plot, &f))
        return cs_cli_fail(CMD, CS_EINPUT, "--plot '%s': expected a .svg, .png or .pdf file",
                           a->plot);
    /* Neither output may overwrite the experiment or the other output. */
    if (a->out && a->plot && strcmp(a->out, "-") != 0 && cs_cli_same_file(a->out, a->plot))
        return cs_cli_fail(CMD, CS_EINPUT, "-o and --plot name the same file '%s'", a->plot);
    cs_error err;
    const char *in[2] = {a->path, a->plot};
    if ((a->out && strcmp(a->out, "-") != 0 &&
         cs_output_check_inputs(a->out, "-o", in, a->plot ? 2 : 1, &err) != CS_OK) ||
        (a->plot && cs_output_check_inputs(a->plot, "--plot", in, 1, &err) != CS_OK))
        return cs_cli_fail_err(CMD, &err);
    return 0;
}

static cs_status write_plot(cs_outfile *o, const cs_map_result *m, cs_error *err)
{
    cs_mapdraw d;
    if (cs_mapdraw_of_map(m, &d) != CS_OK)
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    char title[512], cap[1024];
    if (m->exp->description && m->exp->description[0])
        snprintf(title, sizeof title, "%s", m->exp->description);
    else
        snprintf(title, sizeof title, "%s: threat map (p_success by the target's position)",
                 m->exp->name);
    cs_report_map_caption(m, cap, sizeof cap);
    cs_heatmap h = {&d, title, cap};
    cs_canvas_format f = CS_CANVAS_SVG;
    cs_canvas_format_of(o->path, &f);
    cs_status st = cs_heatmap_draw(&h, f, o->f, err);
    cs_mapdraw_free(&d);
    return st;
}

/* Every file this command writes goes through here: the CSV to csv (if
 * open), the picture to pic (if open); both committed, or both aborted. */
static cs_status write_outputs(const map_args *a, const cs_map_result *m, cs_outfile *csv,
                               cs_outfile *meta, cs_outfile *pic, cs_error *err)
{
    cs_status st = CS_OK;
    if (csv->f) {
        cs_table t;
        st = cs_report_map(m, &t);
        if (st != CS_OK)
            cs_error_set(err, st, "out of memory");
        else if (cs_tablewrite(&t, CS_FORMAT_CSV, csv->f) != CS_OK)
            st = cs_outfile_write_error(csv, err);
        /* The CSV's provenance (CSVW) beside a CSV file, committed with it. */
        cs_run_result made = {.exp = m->exp, .method = m->method};
        cs_csvw_source src = {.kind = CS_CSVW_MAP, .command = "map", .argc = a->argc,
                              .argv = a->argv, .csv_path = a->out, .input = a->path,
                              .run = &made};
        if (st == CS_OK && meta->f)
            st = cs_csvw_write(meta->f, &src, &t, err);
        cs_table_free(&t);
    }
    if (st == CS_OK && pic->f)
        st = write_plot(pic, m, err);
    cs_outfile *files[3];
    int n = 0;
    if (csv->f)
        files[n++] = csv;
    if (meta->f)
        files[n++] = meta;
    if (pic->f)
        files[n++] = pic;
    if (st == CS_OK)
        st = cs_outfile_commit_all(files, n, err);
    if (st != CS_OK) {
        cs_outfile_abort(csv);
        cs_outfile_abort(meta);
        cs_outfile_abort(pic);
    }
    return st;
}

/* Opens the outputs before the run, so an unwritable path fails at once:
 * the CSV (and its metadata beside a CSV file) and the picture. */
static cs_status open_outputs(const map_args *a, cs_outfile *csv, cs_outfile *meta,
                              cs_outfile *pic, cs_error *err)
{
    cs_status st = CS_OK;
    if (a->out || !a->plot)
        st = cs_outfile_open(csv, a->out, err);
    if (st == CS_OK && csv->f && cs_outfile_is_regular(csv)) {
        char *mpath = cs_csvw_path(a->out);
        st = mpath ? cs_outfile_open(meta, mpath, err)
                   : cs_error_set(err, CS_ENOMEM, "out of memory");
        free(mpath);
    }
    if (st == CS_OK && a->plot)
        st = cs_outfile_open(pic, a->plot, err);
    if (st != CS_OK) {
        cs_outfile_abort(csv);
        cs_outfile_abort(meta);
        cs_outfile_abort(pic);
    }
    return st;
}

/* The axes, the success outcomes and the option checks: 0 or the status. */
static int setup(const map_args *a, const cs_experiment *e, cs_map_axis *x, cs_map_axis *y,
                 cs_run_opts *opts)
{
    cs_error err;
    if (cs_map_axis_parse(a->x ? a->x : CS_MAP_DEFAULT_X, "--x", x, &err) != CS_OK ||
        cs_map_axis_parse(a->y ? a->y : CS_MAP_DEFAULT_Y, "--y", y, &err) != CS_OK ||
        (a->success && cs_success_parse(e->rs, a->success, &opts->success_mask, &err) != CS_OK))
        return cs_cli_fail_err(CMD, &err);
    if (a->max_trials && !(e->precision > 0.0))
        return cs_cli_fail(CMD, CS_EINPUT, "--max-trials applies only with --precision");
    return 0;
}

/* The map's own lines of a checkpoint's identity: every value of each
 * axis, as the cells get them. */
static char *axes_identity(const cs_map_axis *x, const cs_map_axis *y)
{
    size_t cap = 64 * ((size_t)x->n + (size_t)y->n) + 64, u = 0;
    char *s = malloc(cap);
    for (int k = 0; s && k < 2; k++) {
        const cs_map_axis *ax = k ? y : x;
        u += (size_t)snprintf(s + u, cap - u, "%s ", k ? "--y" : "--x");
        for (int i = 0; i < ax->n; i++) {
            char v[64];
            cs_map_axis_text(ax, i, v, sizeof v);
            u += (size_t)snprintf(s + u, cap - u, "%s%s", i ? "," : "", v);
        }
        u += (size_t)snprintf(s + u, cap - u, "\n");
    }
    return s;
}

/* --checkpoint's checks and the file read to resume: 0 or the status. */
static int start_checkpoint(map_args *a, const cs_experiment *e, const cs_map_axis *x,
                            const cs_map_axis *y, cs_run_opts *opts)
{
    if (!a->ckpt.path)
        return cs_cli_ckpt_start(&a->ckpt, e, opts, NULL, NULL, 0, NULL, 0);
    char *extra = axes_identity(x, y);
    if (!extra)
        return cs_cli_fail(CMD, CS_ENOMEM, "out of memory");
    const char *in[1] = {a->path}, *out[2] = {a->out, a->plot};
    int rc = cs_cli_ckpt_start(&a->ckpt, e, opts, extra, in, 1, out, 2);
    free(extra);
    return rc;
}

/* map's engine call and outputs, for cs_cli_engine_run. */
typedef struct map_engine {
    const map_args *a;
    const cs_experiment *e;
    const cs_map_axis *x, *y;
    cs_outfile *csv, *meta, *pic;
    cs_map_result m;
    bool ran; /* m holds a result to free */
} map_engine;

static cs_status engine(void *user, cs_run_opts *opts, cs_error *err)
{
    map_engine *g = user;
    cs_status st = cs_map_run(g->e, g->x, g->y, opts, &g->m, err);
    g->ran = st == CS_OK;
    return st;
}

static int engine_write(void *user)
{
    map_engine *g = user;
    cs_error err;
    return write_outputs(g->a, &g->m, g->csv, g->meta, g->pic, &err) != CS_OK
               ? cs_cli_fail_err(CMD, &err)
               : 0;
}

static void engine_abort(void *user)
{
    map_engine *g = user;
    cs_outfile_abort(g->csv);
    cs_outfile_abort(g->meta);
    cs_outfile_abort(g->pic);
}

static bool engine_precision(void *user, uint64_t *max_trials)
{
    map_engine *g = user;
    *max_trials = g->m.max_trials;
    return g->m.precision_met;
}

static int run_map(map_args *a)
{
    cs_experiment e;
    cs_error err;
    cs_map_axis x, y;
    cs_run_opts opts = {.threads = a->threads, .max_trials = a->max_trials};
    if (cs_expfile_load(a->path, a->sets.set, a->sets.n, &e, &err) != CS_OK)
        return cs_cli_fail_err(CMD, &err);
    int rc = setup(a, &e, &x, &y, &opts);
    if (!rc)
        rc = start_checkpoint(a, &e, &x, &y, &opts);
    cs_outfile csv = {0}, meta = {0}, pic = {0};
    if (!rc && open_outputs(a, &csv, &meta, &pic, &err) != CS_OK)
        rc = cs_cli_fail_err(CMD, &err);
    if (rc) {
        cs_experiment_free(&e);
        return rc;
    }
    map_engine g = {a, &e, &x, &y, &csv, &meta, &pic, {0}, false};
    const cs_cli_engine eng = {CMD, "cells", a->quiet, &a->ckpt, &g, engine, engine_write,
                               engine_abort, engine_precision};
    rc = cs_cli_engine_run(&eng, &e, &opts);
    if (g.ran)
        cs_map_result_free(&g.m);
    cs_experiment_free(&e);
    return cs_cli_ckpt_finish(&a->ckpt, rc);
}

int cs_cli_map(int argc, char **argv)
{
    map_args a;
    memset(&a, 0, sizeof a);
    a.argc = argc;
    a.argv = argv;
    a.ckpt = (cs_cli_ckpt){.cmd = CMD, .argc = argc, .argv = argv};
    int rc = parse_args(&a, argc, argv);
    if (rc == 0)
        rc = run_map(&a);
    else if (rc < 0)
        rc = 0;
    cs_cli_sets_free(&a.sets);
    cs_cli_ckpt_free(&a.ckpt);
    return rc;
}
