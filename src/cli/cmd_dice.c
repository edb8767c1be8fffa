/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `chargesim dice`: the distribution of a dice expression, exact or sampled. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/cli.h"
#include "chargesim/dicereport.h"

static const char usage[] =
    "usage: chargesim dice EXPR [--exact | --trials N [--seed S] [--threads T]]\n"
    "                      [--confidence C] [--format csv|md|tex] [-o FILE]\n"
    "\n"
    "The distribution of a dice expression in Roll20 notation: NdX, constants,\n"
    "+ and -, keep/drop khK klK dhK dlK, re-roll rV r<V r>V (while it matches)\n"
    "and roV (every matching die once), explode ! (at most 10 extra rolls per\n"
    "die); and our extension rsV: re-roll once a single die that matches (the\n"
    "lowest), before keep/drop (2d6rs1kh1: The Old World's Knights Panther).\n"
    "\n"
    "  --exact        exact probabilities (the default): columns value, p,\n"
    "                 p_at_least, p_at_most, p_fraction (CSV: p in lowest terms)\n"
    "  --trials N     sample N rolls instead; adds count, ci_low, ci_high (Wilson\n"
    "                 interval of p) and the intervals of p_at_least and p_at_most\n"
    "  --seed S       seed of the sampling (default 1)\n"
    "  --threads T    threads for the sampling (the counts do not depend on it;\n"
    "                 more than the processors are capped at them)\n"
    "  --confidence C interval confidence (default 0.95)\n"
    "  --format F     csv (default), md or tex\n"
    "  -o FILE        write to FILE (default: standard output); a CSV gets\n"
    "                 FILE-metadata.json beside it (CSVW: columns, provenance)\n"
    "  -h, --help     this text\n"
    "\n"
    "example: chargesim dice 3d6dl1 --format md\n";

/* What the command line asked for. */
typedef struct dice_args {
    const char *expr, *out;
    uint64_t trials, seed;
    int threads;
    bool exact;
    const char *sampling_only; /* an option that means nothing without --trials */
    double confidence;
    cs_format fmt;
} dice_args;

/* One option at argv[*i]: 0 (and *matched), or the exit status of an error. */
static int dice_option(dice_args *a, int argc, char **argv, int *i, bool *matched)
{
    const char *v;
    *matched = true;
    if (strcmp(argv[*i], "--exact") == 0) {
        a->exact = true;
        return 0;
    }
    if (cs_cli_opt(argc, argv, i, "--trials", &v))
        return cs_cli_uint("dice", "--trials", v, 1, CS_DICE_MAX_TRIALS, &a->trials);
    if (cs_cli_opt(argc, argv, i, "--seed", &v)) {
        a->sampling_only = "--seed";
        return cs_cli_uint("dice", "--seed", v, 0, UINT64_MAX, &a->seed);
    }
    if (cs_cli_opt(argc, argv, i, "--threads", &v)) {
        a->sampling_only = "--threads";
        return cs_cli_threads("dice", v, &a->threads);
    }
    if (cs_cli_opt(argc, argv, i, "--confidence", &v)) {
        char *end;
        a->confidence = v ? strtod(v, &end) : 0.0;
        if (!v || *end || !(a->confidence > 0.0 && a->confidence < 1.0))
            return cs_cli_fail("dice", CS_EINPUT,
                               "--confidence '%s': expected a number between 0 and 1",
                               v ? v : "");
        a->sampling_only = "--confidence";
        return 0;
    }
    if (cs_cli_opt(argc, argv, i, "--format", &v)) {
        if (!v || !cs_format_parse(v, &a->fmt))
            return cs_cli_fail("dice", CS_EINPUT, "--format '%s': expected csv, md or tex",
                               v ? v : "");
        return 0;
    }
    if (cs_cli_opt(argc, argv, i, "-o", &v)) {
        if (!v)
            return cs_cli_fail("dice", CS_EINPUT, "-o needs a file name");
        a->out = v;
        return 0;
    }
    *matched = false;
    return 0;
}

/* Fills *a from argv: 0, -1 after --help, or the exit status of an error. */
static int parse_args(dice_args *a, int argc, char **argv)
{
    for (int i = 0; i < argc; i++) {
        const char *s = argv[i];
        bool matched;
        int rc;
        if (strcmp(s, "-h") == 0 || strcmp(s, "--help") == 0) {
            fputs(usage, stdout);
            return -1;
        }
        if ((rc = dice_option(a, argc, argv, &i, &matched)) != 0)
            return rc;
        if (matched)
            continue;
        /* "-1d6" or "-3" is an expression, not an option. */
        if (s[0] == '-' && s[1] != '\0' && !(s[1] >= '0' && s[1] <= '9') && s[1] != 'd' &&
            s[1] != 'D')
            return cs_cli_unknown_option("dice", s, usage);
        if (a->expr)
            return cs_cli_fail("dice", CS_EINPUT,
                               "one expression at a time ('%s' and '%s'); write it without "
                               "spaces or quote it",
                               a->expr, s);
        a->expr = s;
    }
    if (!a->expr) {
        fputs(usage, stderr);
        return 2;
    }
    cs_error err;
    if (cs_dicereport_options(a->exact, a->trials, a->sampling_only, &err) != CS_OK)
        return cs_cli_fail_err("dice", &err);
    return 0;
}

int cs_cli_dice(int argc, char **argv)
{
    dice_args a = {.seed = 1, .confidence = 0.95, .fmt = CS_FORMAT_CSV};
    int rc = parse_args(&a, argc, argv);
    if (rc)
        return rc < 0 ? 0 : rc;
    cs_dice d;
    cs_error err;
    cs_table tab;
    memset(&tab, 0, sizeof tab);
    if (cs_dicereport_parse(a.expr, &d, &err) != CS_OK ||
        (a.trials ? cs_dicereport_sampled(a.expr, &d, a.trials, a.seed, a.threads, a.confidence,
                                          a.fmt, &tab, &err)
                  : cs_dicereport_exact(a.expr, &d, a.fmt, &tab, &err)) != CS_OK) {
        cs_table_free(&tab);
        return cs_cli_fail_err("dice", &err);
    }
    cs_csvw_source meta = {.kind = CS_CSVW_DICE, .command = "dice", .argc = argc, .argv = argv,
                           .csv_path = a.out, .dice_expr = a.expr, .dice_trials = a.trials,
                           .dice_seed = a.seed, .dice_confidence = a.confidence};
    rc = cs_cli_write_tables_meta("dice", a.out, &tab, 1, a.fmt, &meta);
    cs_table_free(&tab);
    return rc;
}
