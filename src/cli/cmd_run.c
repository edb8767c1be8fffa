/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `chargesim run`: an experiment file to summary, distribution and pivot tables. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/cli.h"
#include "chargesim/csvw.h"
#include "chargesim/expfile.h"
#include "chargesim/output.h"
#include "chargesim/report.h"
#include "chargesim/sched.h"
#include "chargesim/success.h"
#include "chargesim/tablewrite.h"

static const char usage[] =
    "usage: chargesim run EXPERIMENT.ini [options]\n"
    "       chargesim run - --set experiment.ruleset=NAME [options]   (no file)\n"
    "\n"
    "Runs every sweep point of the experiment and writes one row per point:\n"
    "the swept keys (and KEY_label where [labels] name their values), trials,\n"
    "successes, p_success, ci_low, ci_high, p_<outcome> for each outcome,\n"
    "mean_<metric> for each measured quantity, (CSV) ci_low_<outcome> and\n"
    "ci_high_<outcome>, and method (then success, with --success).\n"
    "\n"
    "options:\n"
    "  --set K=V          override a key: section.key=value, or key=value for [params]\n"
    "                     (repeatable; values take the file's syntax, e.g. distance=1..12;\n"
    "                     a..b:step must land on b)\n"
    "  --trials N         trials (or sampled layouts) per sweep point\n"
    "  --seed S           the seed; the same seed gives the same bytes on any thread count\n"
    "  --threads T        worker threads (default: all cores; more are capped at them)\n"
    "  --method M         auto (default: the best the scenario allows), mc, conditional\n"
    "                     (exact dice averaged over sampled layouts), exact (fixed layout)\n"
    "                     or rqmc (exact dice over randomised quasi-Monte Carlo layouts;\n"
    "                     auto picks it when parameters are drawn per trial)\n"
    "  --replicates R     rqmc: independent scrambles, 2 to 64 (default 16); the interval\n"
    "                     is a Student t on their R means\n"
    "  --confidence C     interval confidence, default 0.95\n"
    "  --precision H      add blocks until the interval half-width of every probability\n"
    "                     column (p_success and each p_<outcome>) is at most H (a\n"
    "                     proportion, e.g. 0.001, or a percentage, e.g. 0.1%); mc then\n"
    "                     reports Wilson intervals with continuity correction. Refused\n"
    "                     if it could need more than 10^9 trials per point\n"
    "  --max-trials N     allow --precision up to N trials per point (at most 4e12)\n"
    "  --success LIST     outcomes p_success counts, e.g. charged,intercepted (default:\n"
    "                     the ruleset's; see chargesim rules NAME); the output names it\n"
    "  --format F         csv (default), md or tex\n"
    "  --pivot ROW:COL[:COLUMN]\n"
    "                     a table of COLUMN (default p_success; probabilities in %):\n"
    "                     rows one swept key, columns another\n"
    "  -o FILE            write to FILE (default: standard output); a CSV gets\n"
    "                     FILE-metadata.json beside it (CSVW: columns, provenance)\n"
    "  --dist FILE        also write distributions in long form (CSV): swept keys,\n"
    "                     metric, value, count, p, ci_low, ci_high, method\n"
    "  --quiet            no progress bar (it shows only on a terminal, after 1 s)\n"
    "  --checkpoint FILE  keep the run's state in FILE: at least every 60 s, after each\n"
    "                     round of --precision, and on SIGINT or SIGTERM, which then\n"
    "                     stop it; the same command run again goes on from it and writes\n"
    "                     what an uninterrupted run writes; FILE is removed when done.\n"
    "                     A FILE written by another command, version or experiment, or\n"
    "                     damaged, is refused (exit 2) and left as it is\n"
    "  --checkpoint-every S  seconds between checkpoints (default 60)\n"
    "  -h, --help         this text\n"
    "\n"
    "Exit status: 0 done, 2 bad input or usage, 1 runtime failure, 128 + the signal\n"
    "when SIGINT or SIGTERM stopped a run with --checkpoint. Output files are\n"
    "written under a temporary name and renamed, never left half-written.\n";


/* What the command line asked for. */
typedef struct run_args {
    const char *path, *out, *dist, *pivot, *success;
    cs_cli_sets sets;
    int threads;
    uint64_t max_trials;
    bool quiet;
    cs_format fmt;
    int argc;    /* the command line, for the metadata */
    char **argv;
    const cs_csvw_remade *remade; /* run by rerun: the original provenance */
    cs_cli_ckpt ckpt;             /* --checkpoint */
} run_args;

/* An option taking a value that is kept as text: 0, or the exit status. */
static int text_option(int argc, char **argv, int *i, const char *name, const char *what,
                       const char **dst, bool *matched)
{
    const char *v;
    if (!cs_cli_opt(argc, argv, i, name, &v))
        return 0;
    *matched = true;
    if (!v)
        return cs_cli_fail("run", CS_EINPUT, "%s needs %s", name, what);
    *dst = v;
    return 0;
}

static int value_option(run_args *a, int argc, char **argv, int *i, bool *matched)
{
    const char *v;
    int rc;
    if (cs_cli_opt(argc, argv, i, "--threads", &v)) {
        *matched = true;
        return cs_cli_threads("run", v, &a->threads);
    }
    if (cs_cli_opt(argc, argv, i, "--max-trials", &v)) {
        *matched = true;
        return cs_cli_uint("run", "--max-trials", v, 1, CS_SCHED_MAX_TRIALS, &a->max_trials);
    }
    if (cs_cli_opt(argc, argv, i, "--format", &v)) {
        *matched = true;
        if (!v || !cs_format_parse(v, &a->fmt))
            return cs_cli_fail("run", CS_EINPUT, "--format '%s': expected csv, md or tex",
                               v ? v : "");
        return 0;
    }
    if (cs_cli_opt(argc, argv, i, "--pivot", &v)) {
        *matched = true;
        if (!v || !strchr(v, ':'))
            return cs_cli_fail("run", CS_EINPUT, "--pivot '%s': expected ROW:COL[:COLUMN]",
                               v ? v : "");
        a->pivot = v;
        return 0;
    }
    if ((rc = text_option(argc, argv, i, "-o", "a file name", &a->out, matched)) || *matched)
        return rc;
    if ((rc = cs_cli_ckpt_option("run", &a->ckpt, argc, argv, i, matched)) || *matched)
        return rc;
    if ((rc = text_option(argc, argv, i, "--dist", "a file name", &a->dist, matched)) ||
        *matched)
        return rc;
    return text_option(argc, argv, i, "--success", "a list of outcomes", &a->success, matched);
}

/* Fills *a from argv: 0, -1 after --help, or the exit status of an error. */
static int parse_args(run_args *a, int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        const char *s = argv[i];
        bool matched = false;
        int rc;
        if (strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0) {
            fputs(usage, stdout);
            return -1;
        }
        if ((rc = cs_cli_sets_option("run", &a->sets, "--set", CS_CLI_SETS_EXP_REPL, argc, argv,
                                     &i, &matched)) != 0)
            return rc;
        if (!matched && (rc = value_option(a, argc, argv, &i, &matched)) != 0)
            return rc;
        if (matched)
            continue;
        if (strcmp(s, "--quiet") == 0)
            a->quiet = true;
        else if (s[0] == '-' && s[1] != '\0')
            return cs_cli_unknown_option("run", s, usage);
        else if (a->path)
            return cs_cli_fail("run", CS_EINPUT, "one experiment file at a time ('%s' and '%s')",
                               a->path, s);
        else
            a->path = s;
    }
    if (!a->path) {
        fputs(usage, stderr);
        return 2;
    }
    if (a->out && a->dist && strcmp(a->out, "-") != 0 && cs_cli_same_file(a->out, a->dist))
        return cs_cli_fail("run", CS_EINPUT, "-o and --dist name the same file '%s'", a->dist);
    return 0;
}

/* --pivot ROW:COL[:COLUMN] cut into its parts; *what is COLUMN, p_success
 * when not given. */
static void pivot_parts(const char *pivot, char *row, char *col, size_t cap, const char **what)
{
    const char *colon = strchr(pivot, ':'), *w = strchr(colon + 1, ':');
    snprintf(row, cap, "%.*s", (int)(colon - pivot), pivot);
    snprintf(col, cap, "%.*s", (int)(w ? (size_t)(w - colon - 1) : cap - 1), colon + 1);
    *what = w ? w + 1 : "p_success";
}

/* The tables of a finished run: the pivot, or the summary. */
static cs_status make_tables(const run_args *a, const cs_run_result *res, cs_table **tables,
                             int *n_tables, cs_error *err)
{
    if (a->pivot) {
        char row[256], col[256];
        const char *what;
        pivot_parts(a->pivot, row, col, sizeof row, &what);
        return cs_report_pivot_column(res, row, col, what, a->fmt, tables, n_tables, err);
    }
    *tables = calloc(1, sizeof **tables);
    *n_tables = *tables ? 1 : 0;
    cs_status st = *tables ? cs_report_summary(res, a->fmt, *tables) : CS_ENOMEM;
    if (st != CS_OK)
        cs_error_set(err, st, "out of memory");
    return st;
}

/* The files one run writes, committed together (output.h): the tables,
 * the distributions, and the CSVW metadata beside each CSV file. */
typedef struct run_files {
    cs_outfile of, mf, df, dmf;
    char *mpath, *dmpath;
} run_files;

static void files_abort(run_files *f)
{
    cs_outfile_abort(&f->of);
    cs_outfile_abort(&f->mf);
    cs_outfile_abort(&f->df);
    cs_outfile_abort(&f->dmf);
    free(f->mpath);
    free(f->dmpath);
}

/* Opens every output before the run, so an unwritable path fails at once. */
static cs_status files_open(const run_args *a, run_files *f, cs_error *err)
{
    memset(f, 0, sizeof *f);
    cs_status st = cs_outfile_open(&f->of, a->out, err);
    if (st == CS_OK && a->dist)
        st = cs_outfile_open(&f->df, a->dist, err);
    if (st == CS_OK && a->fmt == CS_FORMAT_CSV && cs_outfile_is_regular(&f->of))
        st = (f->mpath = cs_csvw_path(a->out)) ? cs_outfile_open(&f->mf, f->mpath, err)
                                               : cs_error_set(err, CS_ENOMEM, "out of memory");
    if (st == CS_OK && a->dist && cs_outfile_is_regular(&f->df))
        st = (f->dmpath = cs_csvw_path(a->dist)) ? cs_outfile_open(&f->dmf, f->dmpath, err)
                                                 : cs_error_set(err, CS_ENOMEM, "out of memory");
    if (st != CS_OK)
        files_abort(f);
    return st;
}

/* Provenance: the note line under md/tex tables, or the CSV's metadata. */
static cs_status add_provenance(const run_args *a, const cs_csvw_source *meta, run_files *f,
                                cs_table *tables, int n_tables, cs_error *err)
{
    cs_status st = CS_OK;
    for (int t = 0; st == CS_OK && a->fmt != CS_FORMAT_CSV && t < n_tables; t++) {
        char line[8192];
        cs_csvw_note(meta, line, sizeof line);
        if (cs_table_set_note(&tables[t], "%s%s%s", tables[t].note ? tables[t].note : "",
                              tables[t].note ? " " : "", line))
            st = cs_error_set(err, CS_ENOMEM, "out of memory");
    }
    if (st == CS_OK && f->mpath)
        st = cs_csvw_write(f->mf.f, meta, &tables[0], err);
    return st;
}

static cs_status write_dist(const run_args *a, const cs_run_result *res,
                            const cs_csvw_source *meta, run_files *f, cs_error *err)
{
    cs_table dt;
    cs_status st = cs_report_dist(res, &dt);
    if (st == CS_OK && cs_tablewrite(&dt, CS_FORMAT_CSV, f->df.f) != CS_OK)
        st = cs_outfile_write_error(&f->df, err);
    else if (st != CS_OK)
        cs_error_set(err, st, "out of memory");
    cs_csvw_source dmeta = *meta;
    dmeta.kind = CS_CSVW_DIST;
    dmeta.csv_path = a->dist;
    dmeta.pivot = NULL;
    if (st == CS_OK && f->dmpath)
        st = cs_csvw_write(f->dmf.f, &dmeta, &dt, err);
    cs_table_free(&dt);
    return st;
}

/* Writes the run's tables, distributions and metadata, and commits them all
 * or none. A run whose table would have no rows writes nothing (exit 2). */
static cs_status write_outputs(const run_args *a, const cs_run_result *res, run_files *f,
                               cs_error *err)
{
    cs_table *tables = NULL;
    int n_tables = 0;
    /* Never empty: an experiment has at least one sweep point, a row each
     * (or a cell each of a pivot). */
    cs_status st = make_tables(a, res, &tables, &n_tables, err);
    const char *input = a->remade ? a->remade->input : strcmp(a->path, "-") ? a->path : NULL;
    cs_csvw_source meta = {.kind = a->pivot ? CS_CSVW_PIVOT : CS_CSVW_SUMMARY,
                           .command = "run", .argc = a->argc, .argv = a->argv,
                           .csv_path = a->out, .input = input, .run = res, .pivot = a->pivot,
                           .remade = a->remade};
    if (st == CS_OK)
        st = add_provenance(a, &meta, f, tables, n_tables, err);
    for (int t = 0; st == CS_OK && t < n_tables; t++) {
        if (t && a->fmt != CS_FORMAT_CSV)
            fputc('\n', f->of.f);
        if (cs_tablewrite(&tables[t], a->fmt, f->of.f) != CS_OK)
            st = cs_outfile_write_error(&f->of, err);
    }
    for (int t = 0; t < n_tables; t++)
        cs_table_free(&tables[t]);
    free(tables);
    if (st == CS_OK && a->dist)
        st = write_dist(a, res, &meta, f, err);
    cs_outfile *const all[] = {&f->of, &f->mf, &f->df, &f->dmf};
    if (st == CS_OK)
        st = cs_outfile_commit_all(all, 4, err);
    if (st != CS_OK)
        files_abort(f);
    else {
        free(f->mpath);
        free(f->dmpath);
    }
    return st;
}

/* Loads, runs and writes: the exit status. */
/* run's engine call and outputs, for cs_cli_engine_run. */
typedef struct run_engine {
    const run_args *a;
    const cs_experiment *e;
    run_files *f;
    cs_run_result res;
} run_engine;

static cs_status engine(void *user, cs_run_opts *opts, cs_error *err)
{
    run_engine *g = user;
    return cs_sched_run(g->e, opts, &g->res, err);
}

static int engine_write(void *user)
{
    run_engine *g = user;
    cs_error err;
    return write_outputs(g->a, &g->res, g->f, &err) != CS_OK ? cs_cli_fail_err("run", &err) : 0;
}

static void engine_abort(void *user)
{
    files_abort(((run_engine *)user)->f);
}

static bool engine_precision(void *user, uint64_t *max_trials)
{
    run_engine *g = user;
    *max_trials = g->res.max_trials;
    return g->res.precision_met;
}

static int run_experiment(run_args *a)
{
    cs_experiment e;
    cs_error err;
    cs_run_opts opts = {.threads = a->threads, .want_dist = a->dist != NULL,
                        .max_trials = a->max_trials};
    if (cs_output_check_inputs(a->out, "-o", &a->path, 1, &err) != CS_OK ||
        cs_output_check_inputs(a->dist, "--dist", &a->path, 1, &err) != CS_OK ||
        cs_expfile_load(a->path, a->sets.set, a->sets.n, &e, &err) != CS_OK)
        return cs_cli_fail_err("run", &err);
    char row[256], col[256];
    const char *what = "p_success";
    if (a->pivot)
        pivot_parts(a->pivot, row, col, sizeof row, &what);
    /* Every option is checked before the first trial runs. */
    cs_status st = a->remade ? cs_csvw_remade_apply(a->remade, &e, &err) : CS_OK;
    if (st == CS_OK && a->success)
        st = cs_success_parse(e.rs, a->success, &opts.success_mask, &err);
    if (st == CS_OK && a->pivot)
        st = cs_report_pivot_check(&e, row, col, what, &err);
    if (st == CS_OK && a->max_trials && !(e.precision > 0.0))
        st = cs_error_set(&err, CS_EINPUT, "--max-trials applies only with --precision");
    int rc = st != CS_OK ? cs_cli_fail_err("run", &err) : 0;
    const char *outs[2] = {a->out, a->dist};
    if (!rc)
        rc = cs_cli_ckpt_start(&a->ckpt, &e, &opts, NULL, &a->path, 1, outs, 2);
    run_files f;
    if (!rc && files_open(a, &f, &err) != CS_OK)
        rc = cs_cli_fail_err("run", &err);
    if (rc) {
        cs_experiment_free(&e);
        return rc;
    }
    run_engine g = {a, &e, &f, {0}};
    const cs_cli_engine eng = {"run", "points", a->quiet, &a->ckpt, &g, engine, engine_write,
                               engine_abort, engine_precision};
    rc = cs_cli_engine_run(&eng, &e, &opts);
    if (g.res.point)
        cs_sched_result_free(&g.res);
    cs_experiment_free(&e);
    return cs_cli_ckpt_finish(&a->ckpt, rc);
}

int cs_cli_run(int argc, char **argv)
{
    return cs_cli_run_remade(argc, argv, NULL);
}

int cs_cli_run_remade(int argc, char **argv, const cs_csvw_remade *remade)
{
    run_args a;
    memset(&a, 0, sizeof a);
    a.remade = remade;
    a.fmt = CS_FORMAT_CSV;
    a.argc = argc;
    a.argv = argv;
    a.ckpt = (cs_cli_ckpt){.cmd = "run", .argc = argc, .argv = argv};
    int rc = parse_args(&a, argc, argv);
    if (rc == 0)
        rc = run_experiment(&a);
    else if (rc < 0)
        rc = 0;
    cs_cli_sets_free(&a.sets);
    cs_cli_ckpt_free(&a.ckpt);
    return rc;
}
