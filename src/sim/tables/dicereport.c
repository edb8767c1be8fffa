/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The table of a dice expression's distribution; see include/chargesim/dicereport.h. */
#include "chargesim/dicereport.h"

#include <stdio.h>
#include <stdlib.h>

#include "chargesim/columns.h"
#include "chargesim/dicefrac.h"
#include "chargesim/dicesim.h"
#include "chargesim/quantile.h"
#include "chargesim/stats.h"

cs_status cs_dicereport_parse(const char *expr, cs_dice *d, cs_error *err)
{
    cs_diag diag = {0};
    cs_status st = cs_dice_parse(expr, d, &diag);
    if (st == CS_OK)
        return CS_OK;
    /* The caret sits under column `column` (1-based) of the echoed expression. */
    return cs_error_set(err, st, "'%s': column %d: %s\n  %s\n  %*s^", expr, diag.column,
                        diag.what, expr, diag.column > 1 ? diag.column - 1 : 0, "");
}

cs_status cs_dicereport_options(bool exact, uint64_t trials, const char *sampling_only,
                                cs_error *err)
{
    if (exact && trials)
        return cs_error_set(err, CS_EINPUT, "--exact and --trials exclude each other");
    if (sampling_only && !trials)
        return cs_error_set(err, CS_EINPUT,
                            "%s applies only to sampling (--trials N); the exact distribution "
                            "has no seed, threads or interval",
                            sampling_only);
    return CS_OK;
}

/* Column c is the fixed column `name`, marked " %" in md and tex. */
static void share_column(cs_table *t, int c, const char *name, bool pct)
{
    char h[40];
    snprintf(h, sizeof h, "%s %%", name);
    cs_columns_fixed(t, c, name, pct ? h : NULL);
}

/* p, p_at_least and p_at_most of total x: in CSV each whole, the shortest
 * decimal that reads back as the double (issue 52: 1/216 prints
 * 0.004629629629629629, not 0.004630); in md and tex percentages with 4
 * decimals, for display. */
static void exact_cells(cs_table *t, int r, const cs_dist *dist, int x, bool pct)
{
    const double v[3] = {dist->p[x - dist->lo], cs_dist_p_at_least(dist, x),
                         cs_dist_p_at_most(dist, x)};
    for (int c = 0; c < 3; c++)
        if (pct)
            cs_table_set(t, r, c + 1, "%.4f", 100.0 * v[c]);
        else
            cs_columns_set_number(t, r, c + 1, v[c], true, 6);
}

/* What the note says of p_fraction's empty cells, if any. */
static const char *fraction_note(cs_status st, bool cut)
{
    if (st == CS_ELIMIT)
        return "; p_fraction is empty: the fractions would take more than 5e7 big-integer "
               "multiply-adds (CS_DICEFRAC_WORK)";
    if (cut)
        return "; p_fraction is empty where a numerator or denominator in lowest terms has "
               "more than 200 digits (CS_DICEFRAC_MAX_DIGITS)";
    return "";
}

cs_status cs_dicereport_exact(const char *expr, const cs_dice *d, cs_format fmt, cs_table *t,
                              cs_error *err)
{
    cs_diag diag = {0};
    cs_dist *dist = malloc(sizeof *dist);
    if (!dist)
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    cs_status st = cs_dice_exact(d, dist, &diag);
    if (st != CS_OK) {
        free(dist);
        return cs_error_set(err, st, "'%s': %s; sample it with --trials N", expr, diag.what);
    }
    bool pct = fmt != CS_FORMAT_CSV;
    /* The CSV's p_fraction (issue 52): Markdown and LaTeX show percentages. */
    cs_dicefrac *frac = NULL;
    cs_status fst = pct ? CS_OK : cs_dicefrac_new(d, &frac);
    if (fst == CS_ENOMEM) {
        free(dist);
        return cs_error_set(err, fst, "out of memory");
    }
    static const char *const names[] = {"p", "p_at_least", "p_at_most", "p_fraction"};
    if (cs_table_init(t, pct ? 4 : 5) == CS_OK)
        cs_columns_total(t, 0, expr);
    for (int c = 0; c < (pct ? 3 : 4); c++)
        share_column(t, c + 1, names[c], pct && c < 3);
    bool cut = false; /* a fraction left out: too many digits */
    for (int x = dist->lo; x <= dist->hi && cs_table_status(t) == CS_OK; x++) {
        double p = dist->p[x - dist->lo];
        if (p == 0.0)
            continue;
        int r = cs_table_add_row(t);
        cs_table_set(t, r, 0, "%d", x);
        exact_cells(t, r, dist, x, pct);
        char text[2 * CS_DICEFRAC_MAX_DIGITS + 2];
        if (frac && cs_dicefrac_text(frac, x, text, sizeof text))
            cs_table_set(t, r, 4, "%s", text);
        else
            cut |= frac != NULL;
    }
    char canon[128];
    cs_dice_format(d, canon, sizeof canon);
    cs_table_set_title(t, "%s", canon);
    cs_table_set_note(t, "Exact probabilities (every outcome enumerated)%s%s.",
                      pct ? ", in percent" : "", pct ? "" : fraction_note(fst, cut));
    cs_dicefrac_free(frac);
    free(dist);
    if ((st = cs_table_status(t)) != CS_OK)
        return cs_error_set(err, st, "out of memory");
    return CS_OK;
}

/* A share k of n in columns cols[0] (p; -1: none) and cols[1], cols[2]
 * (its Wilson interval). */
static void set_share(cs_table *t, int r, const int cols[3], uint64_t k, uint64_t n, double z,
                      double s, const char *f)
{
    double lo, hi;
    cs_stats_wilson(k, n, z, &lo, &hi);
    if (cols[0] >= 0)
        cs_table_set(t, r, cols[0], f, s * (double)k / (double)n);
    cs_table_set(t, r, cols[1], f, s * lo);
    cs_table_set(t, r, cols[2], f, s * hi);
}

cs_status cs_dicereport_sampled(const char *expr, const cs_dice *d, uint64_t trials,
                                uint64_t seed, int threads, double confidence, cs_format fmt,
                                cs_table *t, cs_error *err)
{
    cs_dicesim_count *cnt;
    size_t n_cnt;
    cs_status st = cs_dicesim_counts(d, trials, seed, threads, &cnt, &n_cnt, err);
    if (st != CS_OK)
        return st;
    bool pct = fmt != CS_FORMAT_CSV;
    double z = cs_quantile_normal(confidence), s = pct ? 100.0 : 1.0;
    const char *f = pct ? "%.4f" : "%.6f";
    uint64_t below = 0, n = trials;
    /* Every sampled share with its Wilson interval: p's (ci_low, ci_high, as
     * issue 2 names them), then the two cumulative ones. */
    enum { NCOL = 11 };
    static const char *const names[NCOL] = {
        "value",  "p",       "p_at_least",      "p_at_most",        "count",         "ci_low",
        "ci_high", "ci_low_at_least", "ci_high_at_least", "ci_low_at_most", "ci_high_at_most"};
    if (cs_table_init(t, NCOL) == CS_OK)
        cs_columns_total(t, 0, expr);
    for (int c = 1; c < NCOL; c++)
        share_column(t, c, names[c], pct && c != 4);
    cs_columns_level(t, confidence);
    static const int at_least[3] = {2, 7, 8}, at_most[3] = {3, 9, 10}, share[3] = {1, 5, 6};
    for (size_t i = 0; i < n_cnt && cs_table_status(t) == CS_OK; i++) {
        int r = cs_table_add_row(t);
        cs_table_set(t, r, 0, "%d", cnt[i].value);
        set_share(t, r, at_least, n - below, n, z, s, f);
        below += cnt[i].count;
        set_share(t, r, at_most, below, n, z, s, f);
        cs_table_set(t, r, 4, "%llu", (unsigned long long)cnt[i].count);
        set_share(t, r, share, cnt[i].count, n, z, s, f);
    }
    free(cnt);
    cs_table_set_title(t, "%s", expr);
    cs_table_set_note(t, "Monte Carlo: %llu rolls, seed %llu; %g%% Wilson intervals%s.",
                      (unsigned long long)trials, (unsigned long long)seed, 100.0 * confidence,
                      pct ? ", in percent" : "");
    if ((st = cs_table_status(t)) != CS_OK)
        return cs_error_set(err, st, "out of memory");
    return CS_OK;
}
