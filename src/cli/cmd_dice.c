/* `chargesim dice`: the distribution of a dice expression, exact or sampled. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/cli.h"
#include "chargesim/dice.h"
#include "chargesim/sim.h"
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
    "  --threads T    threads for the sampling (the counts do not depend on it)\n"
    "  --confidence C interval confidence (default 0.95)\n"
    "  --format F     csv (default), md or tex\n"
    "  -o FILE        write to FILE (default: standard output); a CSV gets\n"
    "                 FILE-metadata.json beside it (CSVW: columns, provenance)\n"
    "  -h, --help     this text\n"
    "\n"
    "example: chargesim dice 3d6dl1 --format md\n";

int cs_cli_dice(int argc, char **argv)
{
    const char *expr = NULL, *out = NULL, *v;
    uint64_t trials = 0, seed = 1, t;
    int threads = 0;
    bool exact = false;
    const char *sampling_only = NULL; /* an option that means nothing without --trials */
    double confidence = 0.95;
    cs_format fmt = CS_FORMAT_CSV;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        if (strcmp(a, "-h") == 0 || strcmp(a, "--help") == 0) {
            fputs(usage, stdout);
            return 0;
        } else if (strcmp(a, "--exact") == 0) {
            exact = true;
        } else if (cs_cli_opt(argc, argv, &i, "--trials", &v)) {
            if (!v || !cs_cli_parse_u64(v, &trials) || trials < 1 || trials > 1000000000000ULL)
                return cs_cli_fail("dice", CS_EINPUT,
                                   "--trials '%s': expected a whole number from 1 to 10^12",
                                   v ? v : "");
        } else if (cs_cli_opt(argc, argv, &i, "--seed", &v)) {
            if (!v || !cs_cli_parse_u64(v, &seed))
                return cs_cli_fail("dice", CS_EINPUT, "--seed '%s': expected a whole number",
                                   v ? v : "");
            sampling_only = "--seed";
        } else if (cs_cli_opt(argc, argv, &i, "--threads", &v)) {
            if (!v || !cs_cli_parse_u64(v, &t) || t < 1 || t > 1024)
                return cs_cli_fail("dice", CS_EINPUT, "--threads '%s': expected 1 to 1024",
                                   v ? v : "");
            threads = (int)t;
            sampling_only = "--threads";
        } else if (cs_cli_opt(argc, argv, &i, "--confidence", &v)) {
            char *end;
            confidence = v ? strtod(v, &end) : 0.0;
            if (!v || *end || !(confidence > 0.0 && confidence < 1.0))
                return cs_cli_fail("dice", CS_EINPUT,
                                   "--confidence '%s': expected a number between 0 and 1",
                                   v ? v : "");
            sampling_only = "--confidence";
        } else if (cs_cli_opt(argc, argv, &i, "--format", &v)) {
            if (!v || !cs_format_parse(v, &fmt))
                return cs_cli_fail("dice", CS_EINPUT, "--format '%s': expected csv, md or tex",
                                   v ? v : "");
        } else if (cs_cli_opt(argc, argv, &i, "-o", &v)) {
            if (!v)
                return cs_cli_fail("dice", CS_EINPUT, "-o needs a file name");
            out = v;
        } else if (a[0] == '-' && a[1] != '\0' && !(a[1] >= '0' && a[1] <= '9') &&
                   a[1] != 'd' && a[1] != 'D') {
            return cs_cli_fail("dice", CS_EINPUT, "unknown option '%s' (see chargesim dice --help)",
                               a);
        } else if (expr) {
            return cs_cli_fail("dice", CS_EINPUT,
                               "one expression at a time ('%s' and '%s'); write it without spaces "
                               "or quote it",
                               expr, a);
        } else {
            expr = a;
        }
    }
    if (!expr) {
        fputs(usage, stderr);
        return 2;
    }
    if (exact && trials)
        return cs_cli_fail("dice", CS_EINPUT, "--exact and --trials exclude each other");
    if (sampling_only && !trials)
        return cs_cli_fail("dice", CS_EINPUT,
                           "%s applies only to sampling (--trials N); the exact distribution "
                           "has no seed, threads or interval",
                           sampling_only);

    cs_dice d;
    cs_diag diag = {0};
    cs_status st = cs_dice_parse(expr, &d, &diag);
    if (st != CS_OK)
        /* The caret sits under column `column` (1-based) of the echoed expression. */
        return cs_cli_fail("dice", st, "'%s': column %d: %s\n  %s\n  %*s^", expr, diag.column,
                           diag.what, expr, diag.column > 1 ? diag.column - 1 : 0, "");
    cs_dist *dist = malloc(sizeof *dist);
    if (!dist)
        return cs_cli_fail("dice", CS_ENOMEM, "out of memory");
    cs_table tab;
    int rc = 0;
    bool pct = fmt != CS_FORMAT_CSV;
    if (!trials) {
        if ((st = cs_dice_exact(&d, dist, &diag)) != CS_OK) {
            free(dist);
            return cs_cli_fail("dice", st, "'%s': %s; sample it with --trials N", expr,
                               diag.what);
        }
        cs_table_init(&tab, 4);
        cs_table_set_header(&tab, 0, "value", true);
        cs_table_set_header(&tab, 1, pct ? "p %" : "p", true);
        cs_table_set_header(&tab, 2, pct ? "p_at_least %" : "p_at_least", true);
        cs_table_set_header(&tab, 3, pct ? "p_at_most %" : "p_at_most", true);
        for (int x = dist->lo; x <= dist->hi; x++) {
            double p = dist->p[x - dist->lo];
            if (p == 0.0)
                continue;
            int r = cs_table_add_row(&tab);
            double s = pct ? 100.0 : 1.0;
            const char *f = pct ? "%.4f" : "%.12g";
            cs_table_set(&tab, r, 0, "%d", x);
            cs_table_set(&tab, r, 1, f, s * p);
            cs_table_set(&tab, r, 2, f, s * cs_dist_p_at_least(dist, x));
            cs_table_set(&tab, r, 3, f, s * cs_dist_p_at_most(dist, x));
        }
        char canon[128];
        cs_dice_format(&d, canon, sizeof canon);
        cs_table_set_title(&tab, "%s", canon);
        cs_table_set_note(&tab, "Exact probabilities (every outcome enumerated), in percent.");
    } else {
        int lo = cs_dice_min(&d), width = cs_dice_max(&d) - lo + 1;
        cs_error err;
        uint64_t *counts = calloc((size_t)width, sizeof *counts);
        if (!counts) {
            free(dist);
            return cs_cli_fail("dice", CS_ENOMEM, "'%s' spans too many values to count", expr);
        }
        if (cs_sim_dice_counts(&d, trials, seed, threads, counts, &err) != CS_OK) {
            free(counts);
            free(dist);
            return cs_cli_fail_err("dice", &err);
        }
        double z = cs_stats_z(confidence), s = pct ? 100.0 : 1.0;
        const char *f = pct ? "%.4f" : "%.6f";
        uint64_t below = 0;
        /* Every sampled share with its Wilson interval: p's (ci_low,
         * ci_high, as issue 2 names them), then the two cumulative ones. */
        enum { NCOL = 11 };
        cs_table_init(&tab, NCOL);
        const char *names[NCOL] = {"value", "p", "p_at_least", "p_at_most", "count", "ci_low",
                                   "ci_high", "ci_low_at_least", "ci_high_at_least",
                                   "ci_low_at_most", "ci_high_at_most"};
        for (int c = 0; c < NCOL; c++) {
            char h[40];
            snprintf(h, sizeof h, "%s%s", names[c], pct && c != 0 && c != 4 ? " %" : "");
            cs_table_set_header(&tab, c, h, true);
        }
        for (int x = 0; x < width; x++) {
            if (counts[x] == 0)
                continue;
            double lo_ci, hi_ci, n = (double)trials;
            int r = cs_table_add_row(&tab);
            cs_table_set(&tab, r, 0, "%d", lo + x);
            cs_table_set(&tab, r, 1, f, s * (double)counts[x] / n);
            cs_table_set(&tab, r, 2, f, s * (double)(trials - below) / n);
            cs_stats_wilson(trials - below, trials, z, &lo_ci, &hi_ci);
            cs_table_set(&tab, r, 7, f, s * lo_ci);
            cs_table_set(&tab, r, 8, f, s * hi_ci);
            below += counts[x];
            cs_table_set(&tab, r, 3, f, s * (double)below / n);
            cs_stats_wilson(below, trials, z, &lo_ci, &hi_ci);
            cs_table_set(&tab, r, 9, f, s * lo_ci);
            cs_table_set(&tab, r, 10, f, s * hi_ci);
            cs_table_set(&tab, r, 4, "%llu", (unsigned long long)counts[x]);
            cs_stats_wilson(counts[x], trials, z, &lo_ci, &hi_ci);
            cs_table_set(&tab, r, 5, f, s * lo_ci);
            cs_table_set(&tab, r, 6, f, s * hi_ci);
        }
        free(counts);
        cs_table_set_title(&tab, "%s", expr);
        cs_table_set_note(&tab,
                          "Monte Carlo: %llu rolls, seed %llu; %g%% Wilson intervals, in percent.",
                          (unsigned long long)trials, (unsigned long long)seed,
                          100.0 * confidence);
    }
    free(dist);
    cs_csvw_source meta = {CS_CSVW_DICE, "dice", argc, argv, out, NULL, NULL, NULL, expr,
                           trials, seed, confidence};
    rc = cs_cli_write_tables_meta("dice", out, &tab, 1, fmt, &meta);
    cs_table_free(&tab);
    return rc;
}
