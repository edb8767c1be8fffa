/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `chargesim compare`: what a change does to the odds, with paired
 * intervals (issue 19; include/chargesim/compare.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "chargesim/cli.h"
#include "chargesim/csvw.h"
#include "chargesim/cmpreport.h"
#include "chargesim/compare.h"
#include "chargesim/expfile.h"
#include "chargesim/output.h"
#include "chargesim/sched.h"
#include "chargesim/success.h"

static const char usage[] =
    "usage: chargesim compare EXPERIMENT.ini --b K=V [--b K=V ...] [options]\n"
    "\n"
    "Runs two variants of the experiment on common random numbers: A is the\n"
    "experiment with its --set overrides, B is A with the --b overrides on top.\n"
    "Trial t of each sweep point draws the same layout and dice in both (each\n"
    "trial its own stream), so the difference B - A is far less noisy than that of\n"
    "two independent runs. One row per sweep point: the swept keys, trials,\n"
    "p_success_a, p_success_b, delta (B - A), delta_lo, delta_hi (the paired\n"
    "interval), p_<outcome>_a, _b, _delta, _delta_lo, _delta_hi, method; a swept\n"
    "key that [labels] name has its KEY_label column beside it.\n"
    "\n"
    "options:\n"
    "  --b K=V            variant B's override, the syntax of --set (repeatable; at\n"
    "                     least one; it must change something and keep the sweep)\n"
    "  --set K=V          override a key in both variants\n"
    "  --trials N         trials (or sampled layouts) per sweep point\n"
    "  --seed S           the seed; the same seed gives the same bytes on any thread count\n"
    "  --threads T        worker threads (default: all cores)\n"
    "  --method M         auto (default), mc, conditional, rqmc or exact: paired Wald\n"
    "                     interval on per-trial differences (mc), CLT on per-layout\n"
    "                     differences of the exact probabilities (conditional), Student t\n"
    "                     over the replicates' mean differences, A and B on the same\n"
    "                     scrambled points (rqmc; auto picks it where run does), exact on\n"
    "                     both sides\n"
    "  --replicates R     rqmc: independent scrambles, 2 to 64 (default 16)\n"
    "  --confidence C     interval confidence, default 0.95\n"
    "  --precision H      add blocks until every delta's half-width is at most H (rqmc:\n"
    "                     double every replicate's points; it may stop short, and warns)\n"
    "  --max-trials N     allow --precision up to N trials per point\n"
    "  --success LIST     outcomes p_success counts, in both variants\n"
    "  --format F         csv (default), md or tex (delta in percentage points)\n"
    "  --pivot ROW:COL    a table of delta (p_success; md/tex in percentage points): rows\n"
    "                     one swept key, columns the other (the experiment sweeps two)\n"
    "  -o FILE            write to FILE (default: standard output); a CSV gets\n"
    "                     FILE-metadata.json beside it (CSVW: columns, provenance)\n"
    "  --quiet            no progress bar\n"
    "  --checkpoint FILE  keep the comparison's state in FILE, as run does: the same\n"
    "                     command run again goes on from it; removed when done\n"
    "  --checkpoint-every S  seconds between checkpoints (default 60)\n"
    "  -h, --help         this text\n"
    "\n"
    "Exit status: 0 done, 2 bad input or usage, 1 runtime failure, 128 + the signal\n"
    "when SIGINT or SIGTERM stopped a comparison with --checkpoint.\n";

typedef struct cmp_args {
    const char *path, *out, *success, *pivot;
    cs_cli_sets sets, b; /* A's overrides; B's, on top of A's */
    int threads;
    uint64_t max_trials;
    bool quiet;
    cs_format fmt;
    int argc;    /* the command line, for the metadata */
    char **argv;
    cs_cli_ckpt ckpt; /* --checkpoint */
} cmp_args;

static int fail(const char *fmt, const char *v)
{
    return cs_cli_fail("compare", CS_EINPUT, fmt, v ? v : "");
}

static int value_option(cmp_args *a, int argc, char **argv, int *i, bool *matched)
{
    const char *v;
    int rc = cs_cli_ckpt_option("compare", &a->ckpt, argc, argv, i, matched);
    if (rc || *matched)
        return rc;
    *matched = true;
    if (cs_cli_opt(argc, argv, i, "--threads", &v))
        return cs_cli_threads("compare", v, &a->threads);
    if (cs_cli_opt(argc, argv, i, "--max-trials", &v))
        return cs_cli_uint("compare", "--max-trials", v, 1, CS_SCHED_MAX_TRIALS, &a->max_trials);
    if (cs_cli_opt(argc, argv, i, "--format", &v))
        return !v || !cs_format_parse(v, &a->fmt) ? fail("--format '%s': expected csv, md or tex", v)
                                                   : 0;
    if (cs_cli_opt(argc, argv, i, "--pivot", &v))
        return (a->pivot = v) && strchr(v, ':') ? 0 : fail("--pivot '%s': expected ROW:COL", v);
    if (cs_cli_opt(argc, argv, i, "-o", &v))
        return (a->out = v) ? 0 : fail("-o needs a file name%s", "");
    if (cs_cli_opt(argc, argv, i, "--success", &v))
        return (a->success = v) ? 0 : fail("--success needs a list of outcomes%s", "");
    *matched = false;
    return 0;
}

static int parse_args(cmp_args *a, int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        const char *s = argv[i];
        bool matched = false;
        int rc;
        if (strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0) {
            fputs(usage, stdout);
            return -1;
        }
        if ((rc = cs_cli_sets_option("compare", &a->sets, "--set", CS_CLI_SETS_EXP_REPL, argc,
                                     argv, &i, &matched)) != 0 ||
            (!matched && (rc = cs_cli_sets_option("compare", &a->b, "--b", CS_CLI_SETS_ONLY,
                                                  argc, argv, &i, &matched)) != 0))
            return rc;
        if (!matched && (rc = value_option(a, argc, argv, &i, &matched)) != 0)
            return rc;
        if (matched)
            continue;
        if (strcmp(s, "--quiet") == 0)
            a->quiet = true;
        else if (s[0] == '-' && s[1] != '\0')
            return cs_cli_unknown_option("compare", s, usage);
        else if (a->path)
            return fail("one experiment file at a time ('%s')", s);
        else
            a->path = s;
    }
    if (!a->path) {
        fputs(usage, stderr);
        return 2;
    }
    if (a->b.n == 0)
        return fail(CS_CMP_NO_B "%s", "");
    return 0;
}

static char *b_description(const cmp_args *a)
{
    size_t len = 1;
    for (int i = 0; i < a->b.n; i++)
        len += strlen(a->b.set[i]) + 2;
    char *s = malloc(len);
    if (!s)
        return NULL;
    s[0] = '\0';
    for (int i = 0; i < a->b.n; i++) {
        if (i)
            strcat(s, ", ");
        strcat(s, a->b.set[i]);
    }
    return s;
}

/* The one place compare writes its output (the output module). */
static int write_table(const cmp_args *a, const cs_cmp_result *res, cs_table *t)
{
    cs_run_result made = {.exp = res->a, .method = res->method};
    cs_csvw_source meta = {.kind = CS_CSVW_COMPARE, .command = "compare", .argc = a->argc,
                           .argv = a->argv, .csv_path = a->out, .input = a->path, .run = &made,
                           .pivot = a->pivot};
    return cs_cli_write_tables_meta("compare", a->out, t, 1, a->fmt, &meta);
}

/* --pivot ROW:COL: 0, or the exit status after the message. */
static int make_pivot(const cmp_args *a, const cs_cmp_result *res, const char *bd, cs_table *t)
{
    char row[256];
    cs_error err;
    const char *colon = strchr(a->pivot, ':');
    snprintf(row, sizeof row, "%.*s", (int)(colon - a->pivot), a->pivot);
    if (cs_cmpreport_pivot(res, row, colon + 1, bd, a->fmt, t, &err) != CS_OK)
        return cs_cli_fail_err("compare", &err);
    return 0;
}

/* What the output would refuse after the run, checked before it: the
 * pivot's keys, and -o naming the experiment or a file that cannot be
 * made (opened here and dropped; the table is written through the output
 * module after the run). 0, or the exit status after the message. */
static int check_outputs(const cmp_args *a, const cs_experiment *e)
{
    cs_error err;
    if (a->pivot) {
        char row[256];
        const char *colon = strchr(a->pivot, ':');
        snprintf(row, sizeof row, "%.*s", (int)(colon - a->pivot), a->pivot);
        if (cs_cmpreport_pivot_check(e, row, colon + 1, &err) != CS_OK)
            return cs_cli_fail_err("compare", &err);
    }
    if (cs_output_check_inputs(a->out, "-o", &a->path, 1, &err) != CS_OK)
        return cs_cli_fail_err("compare", &err);
    /* A device or FIFO is written through: opening one now would write to
     * it, or wait for a reader. */
    struct stat sb;
    if (!a->out || strcmp(a->out, "-") == 0 || (stat(a->out, &sb) == 0 && !S_ISREG(sb.st_mode)))
        return 0;
    cs_outfile o;
    if (cs_outfile_open(&o, a->out, &err) != CS_OK)
        return cs_cli_fail_err("compare", &err);
    cs_outfile_abort(&o);
    return 0;
}

/* compare's engine call and table, for cs_cli_engine_run. */
typedef struct cmp_engine {
    const cmp_args *a;
    const cs_experiment *ea, *eb;
    cs_cmp_result res;
} cmp_engine;

static cs_status engine(void *user, cs_run_opts *opts, cs_error *err)
{
    cmp_engine *g = user;
    return cs_cmp_run(g->ea, g->eb, opts, &g->res, err);
}

static int engine_write(void *user)
{
    cmp_engine *g = user;
    const cmp_args *a = g->a;
    cs_table t;
    char *bd = b_description(a);
    int rc = 0;
    memset(&t, 0, sizeof t);
    if (!bd)
        rc = cs_cli_fail("compare", CS_ENOMEM, "out of memory");
    else if (a->pivot)
        rc = make_pivot(a, &g->res, bd, &t);
    else if (cs_cmpreport_table(&g->res, bd, a->fmt, &t) != CS_OK)
        rc = cs_cli_fail("compare", CS_ENOMEM, "out of memory");
    if (!rc)
        rc = write_table(a, &g->res, &t);
    cs_table_free(&t);
    free(bd);
    return rc;
}

/* Not met only past the cap, which the estimators' worst case keeps above
 * what any point needs (sched.c, check_bounds). */
static bool engine_precision(void *user, uint64_t *max_trials)
{
    cmp_engine *g = user;
    *max_trials = g->a->max_trials ? g->a->max_trials : CS_SCHED_DEFAULT_MAX_TRIALS;
    return g->res.precision_met;
}

static int run_compare(cmp_args *a)
{
    cs_experiment ea, eb;
    cs_error err;
    char why[512];
    cs_run_opts opts = {.threads = a->threads, .max_trials = a->max_trials};
    const char *both[2 * CS_CLI_MAX_SETS]; /* B: A's overrides, then its own */
    memcpy(both, a->sets.set, (size_t)a->sets.n * sizeof *both);
    memcpy(both + a->sets.n, a->b.set, (size_t)a->b.n * sizeof *both);
    if (cs_expfile_load(a->path, a->sets.set, a->sets.n, &ea, &err) != CS_OK)
        return cs_cli_fail_err("compare", &err);
    if (cs_expfile_load(a->path, both, a->sets.n + a->b.n, &eb, &err) != CS_OK) {
        cs_experiment_free(&ea);
        return cs_cli_fail_err("compare", &err);
    }
    int rc = 0;
    const char *prob = cs_cmp_pair_problem(&ea, &eb, why, sizeof why);
    if (prob)
        rc = cs_cli_fail("compare", CS_EINPUT, "%s", prob);
    else if (a->success &&
             cs_success_parse(ea.rs, a->success, &opts.success_mask, &err) != CS_OK)
        rc = cs_cli_fail_err("compare", &err);
    else if (a->max_trials && !(ea.precision > 0.0))
        rc = cs_cli_fail("compare", CS_EINPUT, "--max-trials applies only with --precision");
    else
        rc = check_outputs(a, &ea);
    if (!rc) { /* B as the run pairs it, for the checkpoint's identity */
        cs_run_opts paired = opts;
        paired.pair = &eb;
        const char *out[1] = {a->out};
        rc = cs_cli_ckpt_start(&a->ckpt, &ea, &paired, NULL, &a->path, 1, out, 1);
        opts.checkpoint = paired.checkpoint;
        opts.est = paired.est; /* the paired estimator, planned once */
    }
    cmp_engine g = {a, &ea, &eb, {0}};
    const cs_cli_engine eng = {"compare", "points", a->quiet, &a->ckpt, &g, engine, engine_write,
                               NULL, engine_precision};
    if (!rc)
        rc = cs_cli_engine_run(&eng, &ea, &opts);
    cs_cmp_result_free(&g.res);
    cs_experiment_free(&eb);
    cs_experiment_free(&ea);
    return cs_cli_ckpt_finish(&a->ckpt, rc);
}

int cs_cli_compare(int argc, char **argv)
{
    cmp_args a;
    memset(&a, 0, sizeof a);
    a.fmt = CS_FORMAT_CSV;
    a.argc = argc;
    a.argv = argv;
    a.ckpt = (cs_cli_ckpt){.cmd = "compare", .argc = argc, .argv = argv};
    int rc = parse_args(&a, argc, argv);
    if (rc == 0)
        rc = run_compare(&a);
    else if (rc < 0)
        rc = 0;
    cs_cli_sets_free(&a.sets);
    cs_cli_sets_free(&a.b);
    cs_cli_ckpt_free(&a.ckpt);
    return rc;
}
