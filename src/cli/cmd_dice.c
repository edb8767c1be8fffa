/* `chargesim dice`: the distribution of a dice expression, exact or sampled. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/cli.h"
#include "chargesim/dice.h"
#include "chargesim/dicesim.h"
#include "chargesim/stats.h"

static const char usage[] =
    "usage: chargesim dice EXPR [--exact | --trials N [--seed S] [--threads T]]\n"
    "                      [--confidence C] [--format csv|md|tex] [-o FILE]\n"
    "\n"
    "The distribution of a dice expression in Roll20 notation: NdX, constants,\n"
    "+ and -, keep/drop khK klK dhK dlK, re-roll rV r<V r>V (while it matches)\n"
    "and roV (once), explode ! (at most 10 extra rolls per die).\n"
    "\n"
    "  --exact        exact probabilities (the default): columns value, p,\n"
    "                 p_at_least, p_at_most\n"
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
        return cs_cli_uint("dice", "--trials", v, 1, 1000000000000ULL, &a->trials);
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
    if (a->exact && a->trials)
        return cs_cli_fail("dice", CS_EINPUT, "--exact and --trials exclude each other");
    if (a->sampling_only && !a->trials)
        return cs_cli_fail("dice", CS_EINPUT,
                           "%s applies only to sampling (--trials N); the exact distribution "
                           "has no seed, threads or interval",
                           a->sampling_only);
    return 0;
}

/* Whether every header, cell, title and note of a table of `rows` rows got
 * its memory: the cs_table calls report running out one by one, and a table
 * with a hole must not be written as if it were whole. */
static bool table_complete(const cs_table *t, long rows)
{
    if (!t->header || !t->right || t->nrows != rows || !t->title || !t->note)
        return false;
    for (int c = 0; c < t->ncols; c++)
        if (!t->header[c])
            return false;
    for (long i = 0; i < rows * t->ncols; i++)
        if (!t->cell[i])
            return false;
    return true;
}

/* The exact distribution as a table: 0, or the exit status of an error. */
static int exact_table(const dice_args *a, const cs_dice *d, cs_table *tab)
{
    cs_diag diag = {0};
    cs_dist *dist = malloc(sizeof *dist);
    if (!dist)
        return cs_cli_fail("dice", CS_ENOMEM, "out of memory");
    cs_status st = cs_dice_exact(d, dist, &diag);
    if (st != CS_OK) {
        free(dist);
        return cs_cli_fail("dice", st, "'%s': %s; sample it with --trials N", a->expr,
                           diag.what);
    }
    bool pct = a->fmt != CS_FORMAT_CSV;
    long rows = 0;
    cs_table_init(tab, 4);
    cs_table_set_header(tab, 0, "value", true);
    cs_table_set_header(tab, 1, pct ? "p %" : "p", true);
    cs_table_set_header(tab, 2, pct ? "p_at_least %" : "p_at_least", true);
    cs_table_set_header(tab, 3, pct ? "p_at_most %" : "p_at_most", true);
    for (int x = dist->lo; x <= dist->hi; x++) {
        double p = dist->p[x - dist->lo];
        if (p == 0.0)
            continue;
        int r = cs_table_add_row(tab);
        rows++;
        double s = pct ? 100.0 : 1.0;
        const char *f = pct ? "%.4f" : "%.12g";
        cs_table_set(tab, r, 0, "%d", x);
        cs_table_set(tab, r, 1, f, s * p);
        cs_table_set(tab, r, 2, f, s * cs_dist_p_at_least(dist, x));
        cs_table_set(tab, r, 3, f, s * cs_dist_p_at_most(dist, x));
    }
    char canon[128];
    cs_dice_format(d, canon, sizeof canon);
    cs_table_set_title(tab, "%s", canon);
    cs_table_set_note(tab, "Exact probabilities (every outcome enumerated), in percent.");
    free(dist);
    if (!table_complete(tab, rows)) {
        cs_table_free(tab);
        return cs_cli_fail("dice", CS_ENOMEM, "out of memory");
    }
    return 0;
}

/* A share k of n in columns c (p) and c + 1, c + 2 (its Wilson interval). */
static void set_share(cs_table *tab, int r, const int cols[3], uint64_t k, uint64_t n, double z,
                      double s, const char *f)
{
    double lo, hi;
    cs_stats_wilson(k, n, z, &lo, &hi);
    if (cols[0] >= 0)
        cs_table_set(tab, r, cols[0], f, s * (double)k / (double)n);
    cs_table_set(tab, r, cols[1], f, s * lo);
    cs_table_set(tab, r, cols[2], f, s * hi);
}

/* The sampled distribution as a table: 0, or the exit status of an error. */
static int sampled_table(const dice_args *a, const cs_dice *d, cs_table *tab)
{
    cs_error err;
    cs_dicesim_count *cnt;
    size_t n_cnt;
    if (cs_dicesim_counts(d, a->trials, a->seed, a->threads, &cnt, &n_cnt, &err) != CS_OK)
        return cs_cli_fail_err("dice", &err);
    bool pct = a->fmt != CS_FORMAT_CSV;
    double z = cs_stats_z(a->confidence), s = pct ? 100.0 : 1.0;
    const char *f = pct ? "%.4f" : "%.6f";
    uint64_t below = 0, n = a->trials;
    /* Every sampled share with its Wilson interval: p's (ci_low, ci_high, as
     * issue 2 names them), then the two cumulative ones. */
    enum { NCOL = 11 };
    cs_table_init(tab, NCOL);
    const char *names[NCOL] = {"value", "p", "p_at_least", "p_at_most", "count", "ci_low",
                               "ci_high", "ci_low_at_least", "ci_high_at_least",
                               "ci_low_at_most", "ci_high_at_most"};
    for (int c = 0; c < NCOL; c++) {
        char h[40];
        snprintf(h, sizeof h, "%s%s", names[c], pct && c != 0 && c != 4 ? " %" : "");
        cs_table_set_header(tab, c, h, true);
    }
    static const int at_least[3] = {2, 7, 8}, at_most[3] = {3, 9, 10}, share[3] = {1, 5, 6};
    for (size_t i = 0; i < n_cnt; i++) {
        int r = cs_table_add_row(tab);
        cs_table_set(tab, r, 0, "%d", cnt[i].value);
        set_share(tab, r, at_least, n - below, n, z, s, f);
        below += cnt[i].count;
        set_share(tab, r, at_most, below, n, z, s, f);
        cs_table_set(tab, r, 4, "%llu", (unsigned long long)cnt[i].count);
        set_share(tab, r, share, cnt[i].count, n, z, s, f);
    }
    free(cnt);
    cs_table_set_title(tab, "%s", a->expr);
    cs_table_set_note(tab, "Monte Carlo: %llu rolls, seed %llu; %g%% Wilson intervals, in percent.",
                      (unsigned long long)a->trials, (unsigned long long)a->seed,
                      100.0 * a->confidence);
    if (!table_complete(tab, (long)n_cnt)) {
        cs_table_free(tab);
        return cs_cli_fail("dice", CS_ENOMEM, "out of memory");
    }
    return 0;
}

int cs_cli_dice(int argc, char **argv)
{
    dice_args a = {.seed = 1, .confidence = 0.95, .fmt = CS_FORMAT_CSV};
    int rc = parse_args(&a, argc, argv);
    if (rc)
        return rc < 0 ? 0 : rc;
    cs_dice d;
    cs_diag diag = {0};
    cs_status st = cs_dice_parse(a.expr, &d, &diag);
    if (st != CS_OK)
        /* The caret sits under column `column` (1-based) of the echoed expression. */
        return cs_cli_fail("dice", st, "'%s': column %d: %s\n  %s\n  %*s^", a.expr, diag.column,
                           diag.what, a.expr, diag.column > 1 ? diag.column - 1 : 0, "");
    cs_table tab;
    rc = a.trials ? sampled_table(&a, &d, &tab) : exact_table(&a, &d, &tab);
    if (rc)
        return rc;
    cs_csvw_source meta = {.kind = CS_CSVW_DICE, .command = "dice", .argc = argc, .argv = argv,
                           .csv_path = a.out, .dice_expr = a.expr, .dice_trials = a.trials,
                           .dice_seed = a.seed, .dice_confidence = a.confidence};
    rc = cs_cli_write_tables_meta("dice", a.out, &tab, 1, a.fmt, &meta);
    cs_table_free(&tab);
    return rc;
}
