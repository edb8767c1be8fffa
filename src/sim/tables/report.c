/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Summary, distribution and pivot tables; see include/chargesim/report.h. */
#include "chargesim/report.h"

#include "chargesim/columns.h"
#include "chargesim/success.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The text of swept parameter i at point k (its value as the user wrote it). */
static const char *point_text(const cs_experiment *e, uint64_t k, int sweep_pos)
{
    int choice[CS_MAX_PARAMS];
    cs_experiment_point_choices(e, k, choice);
    const cs_value_spec *v = &e->param[e->sweep[sweep_pos]];
    return v->text[choice[e->sweep[sweep_pos]]];
}

cs_status cs_report_summary(const cs_run_result *r, cs_format fmt, cs_table *out)
{
    cs_summary_col col[CS_SUMMARY_MAX_COLS];
    int ncols = cs_columns_summary(r, fmt, col);
    cs_status st = cs_table_init(out, ncols);
    for (int c = 0; st == CS_OK && c < ncols; c++)
        st = cs_columns_summary_head(out, c, r, fmt, col[c]);
    cs_columns_level(out, r->exp->confidence);
    for (uint64_t k = 0; st == CS_OK && k < r->n_points; k++) {
        int row = cs_table_add_row(out);
        if (row < 0)
            break;
        for (int c = 0; st == CS_OK && c < ncols; c++)
            st = cs_columns_summary_cell(out, row, c, r, k, fmt, col[c]);
    }
    if (st == CS_OK && fmt != CS_FORMAT_CSV) {
        char note[1024];
        cs_report_method_note(r, note, sizeof note);
        cs_table_set_title(out, "%s (%s)", r->exp->name, r->exp->rs->name);
        cs_table_set_note(out, "%s", note);
    }
    return cs_table_status(out);
}

static void method_sentence(const cs_run_result *r, char *buf, int cap)
{
    const cs_experiment *e = r->exp;
    double widest = 0.0;
    uint64_t min_trials = UINT64_MAX, max_trials = 0;
    bool any_sampled = false;
    for (uint64_t k = 0; k < r->n_points; k++) {
        double h = 0.5 * (r->point[k].ci_high - r->point[k].ci_low);
        widest = h > widest ? h : widest;
        for (int o = 0; o < e->rs->n_outcomes; o++) {
            h = 0.5 * (r->point[k].outcome_high[o] - r->point[k].outcome_low[o]);
            widest = h > widest ? h : widest;
        }
        min_trials = r->point[k].trials < min_trials ? r->point[k].trials : min_trials;
        max_trials = r->point[k].trials > max_trials ? r->point[k].trials : max_trials;
        for (int m = 0; m < e->rs->n_metrics; m++)
            any_sampled |= r->point[k].mean_sampled[m];
    }
    if (r->method == CS_METHOD_EXACT) {
        snprintf(buf, (size_t)cap,
                 "Exact probabilities (method exact: every dice outcome enumerated)%s.",
                 any_sampled ? "; means of measured quantities without an exact form are "
                               "Monte Carlo estimates"
                             : "");
        return;
    }
    char count[64];
    if (min_trials == max_trials)
        snprintf(count, sizeof count, "%llu", (unsigned long long)min_trials);
    else
        snprintf(count, sizeof count, "%llu to %llu", (unsigned long long)min_trials,
                 (unsigned long long)max_trials);
    snprintf(buf, (size_t)cap,
             "Method %s: %s%s %s per row, seed %llu; every probability's %g%% interval (%s) "
             "has a half-width of at most %.3f percentage points.",
             cs_method_name(r->method),
             r->method == CS_METHOD_CONDITIONAL || r->method == CS_METHOD_RQMC
                 ? "exact dice averaged over "
                 : "",
             count,
             r->method == CS_METHOD_CONDITIONAL ? "sampled layouts"
             : r->method == CS_METHOD_RQMC      ? "randomised quasi-Monte Carlo layouts"
                                                : "trials",
             (unsigned long long)e->seed, 100.0 * e->confidence,
             r->method == CS_METHOD_RQMC ? "Student t over the replicate means"
             : r->method != CS_METHOD_MC ? "normal, from the per-layout variance"
             : r->sequential       ? "Wilson score with continuity correction"
                                   : "Wilson score",
             100.0 * widest);
}

void cs_report_method_note(const cs_run_result *r, char *buf, int cap)
{
    char succ[512];
    method_sentence(r, buf, cap);
    const char *custom = cs_columns_custom_success(r, succ, sizeof succ);
    if (!custom)
        return;
    size_t used = strlen(buf);
    for (char *c = succ; *c; c++)
        if (*c == '+')
            *c = ',';
    snprintf(buf + used, (size_t)cap - used, " p_success counts %s (--success).", succ);
}

/* A row of the long form for point k: the swept keys, then metric and
 * value; the caller fills count, p, ci_low, ci_high and method. */
static int dist_row(const cs_run_result *r, uint64_t k, cs_table *out)
{
    const cs_experiment *e = r->exp;
    int row = cs_table_add_row(out);
    for (int c = 0; row >= 0 && c < e->n_sweep; c++)
        cs_table_set(out, row, c, "%s", point_text(e, k, c));
    return row;
}

/* The distribution rows of metric m at point k. */
static void dist_metric(const cs_run_result *r, uint64_t k, int m, cs_table *out)
{
    const cs_experiment *e = r->exp;
    const cs_point_result *pr = &r->point[k];
    bool counts = r->method == CS_METHOD_MC || pr->mean_sampled[m];
    /* Observations behind the shares: trials, or layouts where the
     * metric was measured (its probability mass in layouts). */
    double n = counts ? pr->hist_total[m] : pr->hist_total[m] / CS_FIXED_ONE;
    for (int i = 0; i < r->bins[m].nbins; i++) {
        if (pr->hist[m][i] == 0)
            continue;
        int row = dist_row(r, k, out), c = e->n_sweep;
        if (row < 0)
            return;
        double p = (double)pr->hist[m][i] / pr->hist_total[m], lo = p, hi = p;
        if (counts || r->method != CS_METHOD_EXACT)
            /* n is the number of layouts where the metric was measured
             * for exact distributions (see cs_stats_wilson_real). */
            cs_stats_wilson_real(p, n, r->z, &lo, &hi);
        cs_table_set(out, row, c++, "%s", e->rs->metrics[m].name);
        /* Values beyond the metric's declared range are counted in
         * the outer bins and said to be so. */
        int outside = cs_binning_outside(&r->bins[m], i);
        if (outside < 0)
            cs_table_set(out, row, c++, "<%.10g", cs_binning_lo(&r->bins[m]));
        else if (outside > 0)
            cs_table_set(out, row, c++, ">%.10g", cs_binning_hi(&r->bins[m]));
        else
            cs_table_set(out, row, c++, "%.10g", cs_binning_value(&r->bins[m], i));
        if (counts)
            cs_table_set(out, row, c, "%llu", (unsigned long long)pr->hist[m][i]);
        c++;
        /* Six decimals even under exact: the masses are summed in units of
         * 2^-40 (result.h), so the digits past those are not exact. */
        cs_table_set(out, row, c++, "%.6f", p);
        cs_table_set(out, row, c++, "%.6f", lo);
        cs_table_set(out, row, c++, "%.6f", hi);
        cs_table_set(out, row, c++, "%s", counts ? "mc" : cs_method_name(r->method));
    }
}

cs_status cs_report_dist(const cs_run_result *r, cs_table *out)
{
    const cs_experiment *e = r->exp;
    const cs_ruleset *rs = e->rs;
    static const char *const tail[] = {"metric", "value", "count", "p",
                                       "ci_low", "ci_high", "method"};
    const bool exact = r->method == CS_METHOD_EXACT;
    int c;
    if (cs_table_init(out, e->n_sweep + 7) != CS_OK)
        return cs_table_status(out);
    for (c = 0; c < e->n_sweep; c++)
        cs_columns_param(out, c, rs, e->sweep[c]);
    for (int j = 0; j < 7; j++)
        cs_columns_fixed(out, c++, tail[j], NULL);
    cs_columns_level(out, e->confidence);
    for (uint64_t k = 0; k < r->n_points && cs_table_status(out) == CS_OK; k++) {
        const cs_point_result *pr = &r->point[k];
        for (int o = 0; o < rs->n_outcomes; o++) {
            int row = dist_row(r, k, out);
            if (row < 0)
                break;
            c = e->n_sweep;
            cs_table_set(out, row, c++, "outcome");
            cs_table_set(out, row, c++, "%s", rs->outcomes[o]);
            if (r->method == CS_METHOD_MC)
                cs_table_set(out, row, c, "%llu", (unsigned long long)pr->outcome_count[o]);
            c++;
            cs_columns_set_number(out, row, c++, pr->p_outcome[o], exact, 6);
            cs_columns_set_number(out, row, c++, pr->outcome_low[o], exact, 6);
            cs_columns_set_number(out, row, c++, pr->outcome_high[o], exact, 6);
            cs_table_set(out, row, c++, "%s", cs_method_name(r->method));
        }
        for (int m = 0; m < rs->n_metrics && pr->hist[m]; m++)
            if (rs->metrics[m].kind == CS_METRIC_DIST) /* else a mean only (ruleset.h) */
                dist_metric(r, k, m, out);
    }
    return cs_table_status(out);
}

static int sweep_pos_of(const cs_experiment *e, const char *key)
{
    for (int s = 0; s < e->n_sweep; s++)
        if (strcmp(e->rs->params[e->sweep[s]].key, key) == 0)
            return s;
    return -1;
}

/* A reported column a pivot can show, as the summary CSV names it: a
 * probability or an end of its interval, a mean, trials or successes. */
static bool pivot_parse(const cs_ruleset *rs, const char *name, cs_summary_col *w)
{
    static const char *const pre[] = {"p_", "ci_low_", "ci_high_"};
    static const char *const succ[] = {"p_success", "ci_low", "ci_high"};
    static const cs_summary_kind kind[2][3] = {
        {CS_SUM_P_SUCCESS, CS_SUM_CI_LOW, CS_SUM_CI_HIGH},
        {CS_SUM_P_OUTCOME, CS_SUM_CI_LOW_OUTCOME, CS_SUM_CI_HIGH_OUTCOME}};
    *w = (cs_summary_col){strcmp(name, "trials") == 0 ? CS_SUM_TRIALS : CS_SUM_SUCCESSES, 0};
    if (strcmp(name, "trials") == 0 || strcmp(name, "successes") == 0)
        return true;
    for (int i = 0; i < 3; i++) {
        *w = (cs_summary_col){kind[0][i], 0};
        if (strcmp(name, succ[i]) == 0)
            return true;
        size_t n = strlen(pre[i]);
        for (int o = 0; strncmp(name, pre[i], n) == 0 && o < rs->n_outcomes; o++)
            if (strcmp(name + n, rs->outcomes[o]) == 0) {
                *w = (cs_summary_col){kind[1][i], o};
                return true;
            }
    }
    for (int m = 0; strncmp(name, "mean_", 5) == 0 && m < rs->n_metrics; m++)
        if (strcmp(name + 5, rs->metrics[m].name) == 0) {
            *w = (cs_summary_col){CS_SUM_MEAN, m};
            return true;
        }
    return false;
}

/* Whether a summary column holds a probability (or an end of its interval). */
static bool is_probability(cs_summary_col w)
{
    return w.kind != CS_SUM_TRIALS && w.kind != CS_SUM_SUCCESSES && w.kind != CS_SUM_MEAN;
}

/* One pivot cell: point k's value of column w, written as the summary
 * writes it (columns.h), probabilities in percent with 2 decimals as in md;
 * *half gets the interval half-width behind a probability (percentage
 * points), or -1 where the column has none. */
static cs_status pivot_cell(cs_table *t, int row, int col, const cs_run_result *r, uint64_t k,
                            cs_summary_col w, bool csv, double *half)
{
    const cs_point_result *pr = &r->point[k];
    bool p = is_probability(w);
    bool success = w.kind == CS_SUM_P_SUCCESS || w.kind == CS_SUM_CI_LOW ||
                   w.kind == CS_SUM_CI_HIGH;
    *half = !p       ? -1.0
            : success ? 50.0 * (pr->ci_high - pr->ci_low)
                      : 50.0 * (pr->outcome_high[w.index] - pr->outcome_low[w.index]);
    return cs_columns_summary_cell(t, row, col, r, k, p || !csv ? CS_FORMAT_MD : CS_FORMAT_CSV,
                                   w);
}

cs_status cs_report_pivot(const cs_run_result *r, const char *row, const char *col,
                          cs_format fmt, cs_table **out, int *n, cs_error *err)
{
    return cs_report_pivot_column(r, row, col, "p_success", fmt, out, n, err);
}

/* One pivot being built: which swept keys are its rows and columns, and
 * which reported column fills its cells. */
typedef struct pivot {
    const cs_run_result *r;
    const cs_experiment *e;
    const char *row, *col, *column;
    cs_summary_col what;
    bool pct;                       /* cells are percentages */
    int rp, cp, n_other;            /* sweep positions; other swept keys */
    const cs_value_spec *rv, *cv;   /* the row and column keys' values */
    bool csv;
    const char *custom;             /* --success set, CSV only */
} pivot;

/* Headers (and, for md and tex, the note) of one pivot table. */
static cs_status pivot_headers(const pivot *pv, cs_table *t, const char *note)
{
    const cs_experiment *e = pv->e;
    int lead = pv->csv ? pv->n_other : 0;
    /* A CSV pivot has no note: each row carries its provenance instead. */
    int tail = pv->csv ? 2 + (pv->custom != NULL) : 0;
    if (cs_table_init(t, lead + 1 + pv->cv->n + tail) != CS_OK)
        return cs_table_status(t);
    int c = 0;
    for (int s = 0; pv->csv && s < e->n_sweep; s++)
        if (s != pv->rp && s != pv->cp)
            cs_columns_param(t, c++, e->rs, e->sweep[s]);
    char head[256];
    snprintf(head, sizeof head, "%s \\ %s", pv->row, pv->col);
    cs_columns_param(t, c, e->rs, e->sweep[pv->rp]);
    if (!pv->csv) /* md, tex: the corner names both keys */
        cs_table_set_header(t, c, head, true);
    c++;
    cs_colkind kind = pv->what.kind == CS_SUM_TRIALS || pv->what.kind == CS_SUM_SUCCESSES
                          ? CS_COL_COUNT
                      : pv->what.kind == CS_SUM_CI_LOW || pv->what.kind == CS_SUM_CI_HIGH
                          ? CS_COL_INTERVAL
                          : CS_COL_VALUE;
    for (int j = 0; j < pv->cv->n; j++) {
        const char *lab = cs_experiment_label(e, e->sweep[pv->cp], j);
        char label[300], desc[400];
        if (pv->csv)
            snprintf(head, sizeof head, "%s=%s", pv->col, pv->cv->text[j]);
        else if (lab)
            snprintf(head, sizeof head, "%s (%s)", lab, pv->cv->text[j]);
        else
            snprintf(head, sizeof head, "%s", pv->cv->text[j]);
        snprintf(label, sizeof label, "%s %s", pv->col, lab ? lab : pv->cv->text[j]);
        for (char *p = label; *p; p++)
            *p = *p == '_' ? ' ' : *p;
        snprintf(desc, sizeof desc, "%s%s at %s = %s", pv->column, pv->pct ? " in percent" : "",
                 pv->col, pv->cv->text[j]);
        cs_columns_cell(t, c++, head, kind,
                        pv->what.kind == CS_SUM_MEAN || pv->pct ? CS_DT_NUMBER : CS_DT_INTEGER,
                        label, desc);
    }
    if (pv->csv) {
        cs_columns_fixed(t, c++, "method", NULL);
        cs_columns_fixed(t, c++, "max_ci_halfwidth_pct", NULL);
        if (pv->custom)
            cs_columns_fixed(t, c++, "success", NULL);
    } else {
        cs_table_set_note(t, "Cells: %s%s. %s", pv->column, pv->pct ? " in percent" : "", note);
    }
    return cs_table_status(t);
}

/* A new row of table tt for point k's row value ri: the other swept keys
 * (CSV) or the table's title (md, tex), and the row key's value. */
static cs_status pivot_new_row(const pivot *pv, cs_table *tt, uint64_t k, int ri, int *slot)
{
    const cs_experiment *e = pv->e;
    if ((*slot = cs_table_add_row(tt)) < 0)
        return cs_table_status(tt);
    int c = 0;
    char title[512] = "";
    for (int s = 0; s < e->n_sweep; s++) {
        if (s == pv->rp || s == pv->cp)
            continue;
        if (pv->csv)
            cs_table_set(tt, *slot, c++, "%s", point_text(e, k, s));
        size_t used = strlen(title);
        snprintf(title + used, sizeof title - used, "%s%s = %s", used ? ", " : "",
                 e->rs->params[e->sweep[s]].key, point_text(e, k, s));
    }
    /* md and tex name a labelled value by its label too ([labels]). */
    const char *lab = pv->csv ? NULL : cs_experiment_label(e, e->sweep[pv->rp], ri);
    if (lab)
        cs_table_set(tt, *slot, c, "%s (%s)", lab, pv->rv->text[ri]);
    else
        cs_table_set(tt, *slot, c, "%s", pv->rv->text[ri]);
    if (!pv->csv && title[0])
        cs_table_set_title(tt, "%s: %s%s, %s", e->name, pv->column, pv->pct ? " (%)" : "", title);
    else if (!pv->csv)
        cs_table_set_title(tt, "%s: %s%s", e->name, pv->column, pv->pct ? " (%)" : "");
    return cs_table_status(tt);
}

/* Point k into its (group, row value, column value) cell. */
static cs_status pivot_point(const pivot *pv, cs_table *t, int *row_of, uint64_t k)
{
    const cs_experiment *e = pv->e;
    uint64_t g = 0, gmul = 1;
    int ri = 0, ci = 0, choice[CS_MAX_PARAMS];
    cs_status st;
    cs_experiment_point_choices(e, k, choice);
    for (int s = e->n_sweep - 1; s >= 0; s--) {
        int idx = choice[e->sweep[s]];
        if (s == pv->rp)
            ri = idx;
        else if (s == pv->cp)
            ci = idx;
        else {
            g += (uint64_t)idx * gmul;
            gmul *= (uint64_t)e->param[e->sweep[s]].n;
        }
    }
    cs_table *tt = &t[pv->csv ? 0 : g];
    int *slot = &row_of[g * (uint64_t)pv->rv->n + (uint64_t)ri];
    if (*slot < 0 && (st = pivot_new_row(pv, tt, k, ri, slot)) != CS_OK)
        return st;
    int col0 = (pv->csv ? pv->n_other : 0) + 1, nc = pv->cv->n;
    double h;
    pivot_cell(tt, *slot, col0 + ci, pv->r, k, pv->what, pv->csv, &h);
    if (!pv->csv)
        return cs_table_status(tt);
    /* The row's widest interval half-width, in percentage points (empty for
     * a column without an interval). */
    const char *prev = tt->cell[(size_t)*slot * (size_t)tt->ncols + (size_t)(col0 + nc + 1)];
    if (h >= 0.0 && (!prev || strtod(prev, NULL) < h))
        cs_table_set(tt, *slot, col0 + nc + 1, "%.4f", h);
    cs_table_set(tt, *slot, col0 + nc, "%s", cs_method_name(pv->r->method));
    if (pv->custom)
        cs_table_set(tt, *slot, col0 + nc + 2, "%s", pv->custom);
    return cs_table_status(tt);
}

/* The pivot's row and column keys: CS_OK, or the error naming what was
 * asked and what the run offers. */
static cs_status pivot_keys(pivot *pv, cs_error *err)
{
    const cs_experiment *e = pv->e;
    if (!pivot_parse(e->rs, pv->column, &pv->what))
        return cs_error_set(err, CS_EINPUT,
                            "--pivot %s:%s:%s: '%s' is not a reported column; expected "
                            "p_success, ci_low, ci_high, p_/ci_low_/ci_high_<outcome>, "
                            "mean_<metric>, trials or successes (chargesim rules %s)",
                            pv->row, pv->col, pv->column, pv->column, e->rs->name);
    pv->pct = is_probability(pv->what);
    pv->rp = sweep_pos_of(e, pv->row);
    pv->cp = sweep_pos_of(e, pv->col);
    if (pv->rp < 0 || pv->cp < 0 || pv->rp == pv->cp) {
        char list[512] = "";
        for (int s = 0; s < e->n_sweep; s++) {
            size_t used = strlen(list);
            snprintf(list + used, sizeof list - used, "%s%s", s ? ", " : "",
                     e->rs->params[e->sweep[s]].key);
        }
        return cs_error_set(err, CS_EINPUT,
                            "--pivot %s:%s: expected two different swept keys; this run sweeps: %s",
                            pv->row, pv->col, e->n_sweep ? list : "nothing");
    }
    pv->rv = &e->param[e->sweep[pv->rp]];
    pv->cv = &e->param[e->sweep[pv->cp]];
    pv->n_other = e->n_sweep - 2;
    return CS_OK;
}

cs_status cs_report_pivot_check(const cs_experiment *e, const char *row, const char *col,
                                const char *column, cs_error *err)
{
    pivot pv = {.e = e, .row = row, .col = col, .column = column};
    return pivot_keys(&pv, err);
}

cs_status cs_report_pivot_column(const cs_run_result *r, const char *row, const char *col,
                                 const char *column, cs_format fmt, cs_table **out, int *n,
                                 cs_error *err)
{
    pivot pv = {.r = r, .e = r->exp, .row = row, .col = col, .column = column,
                .csv = fmt == CS_FORMAT_CSV};
    *out = NULL;
    *n = 0;
    cs_status st = pivot_keys(&pv, err);
    if (st != CS_OK)
        return st;
    /* Other swept keys: one "group" per combination of their values. */
    uint64_t groups = r->n_points / ((uint64_t)pv.rv->n * (uint64_t)pv.cv->n);
    int n_tables = pv.csv ? 1 : (int)groups;
    cs_table *t = calloc((size_t)n_tables, sizeof *t);
    int *row_of = calloc((size_t)(groups * (uint64_t)pv.rv->n), sizeof *row_of);
    char note[1024], succ[512];
    cs_report_method_note(r, note, sizeof note);
    pv.custom = pv.csv ? cs_columns_custom_success(r, succ, sizeof succ) : NULL;
    st = t && row_of ? CS_OK : CS_ENOMEM;
    for (int i = 0; i < n_tables && st == CS_OK; i++)
        st = pivot_headers(&pv, &t[i], note);
    for (uint64_t g = 0; row_of && g < groups * (uint64_t)pv.rv->n; g++)
        row_of[g] = -1;
    for (uint64_t k = 0; k < r->n_points && st == CS_OK; k++)
        st = pivot_point(&pv, t, row_of, k);
    free(row_of);
    if (st != CS_OK) {
        for (int i = 0; t && i < n_tables; i++)
            cs_table_free(&t[i]);
        free(t);
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    }
    *out = t;
    *n = n_tables;
    return CS_OK;
}

cs_status cs_report_map(const cs_map_result *m, cs_table *t)
{
    const cs_ruleset *rs = m->exp->rs;
    static const char *const head[] = {"x", "y", "trials", "p_success", "ci_low", "ci_high"};
    static const char *const stand[] = {"p_cannot_stand", "ci_low_cannot_stand",
                                        "ci_high_cannot_stand"};
    int nc = 10 + rs->n_outcomes, c = 0;
    const bool exact = m->method == CS_METHOD_EXACT; /* else sampled: 6 decimals */
    if (cs_table_init(t, nc) != CS_OK)
        return cs_table_status(t);
    for (int k = 0; k < 6; k++)
        cs_columns_fixed(t, c++, head[k], NULL);
    for (int o = 0; o < rs->n_outcomes; o++)
        cs_columns_outcome(t, c++, rs, o, CS_COLUMNS_P, NULL);
    for (int k = 0; k < 3; k++)
        cs_columns_fixed(t, c++, stand[k], NULL);
    cs_columns_fixed(t, c, "method", NULL);
    cs_columns_level(t, m->exp->confidence);
    for (int j = 0; j < m->y.n; j++)
        for (int i = 0; i < m->x.n && cs_table_status(t) == CS_OK; i++) {
            const cs_map_cell *cell = &m->cell[(size_t)j * (size_t)m->x.n + (size_t)i];
            int row = cs_table_add_row(t);
            if (row < 0)
                break;
            c = 0;
            char xt[64], yt[64];
            cs_map_axis_text(&m->x, i, xt, sizeof xt);
            cs_map_axis_text(&m->y, j, yt, sizeof yt);
            cs_table_set(t, row, c++, "%s", xt);
            cs_table_set(t, row, c++, "%s", yt);
            if (m->method != CS_METHOD_EXACT) /* exact claims no trial count */
                cs_table_set(t, row, c, "%llu", (unsigned long long)cell->trials);
            c++;
            /* Where the target stands: the share of placements where it cannot. */
            cs_columns_set_number(t, row, nc - 4, cell->p_cannot_stand, exact, 6);
            cs_columns_set_number(t, row, nc - 3, cell->cannot_stand_low, exact, 6);
            cs_columns_set_number(t, row, nc - 2, cell->cannot_stand_high, exact, 6);
            cs_table_set(t, row, nc - 1, "%s", cell->placed ? cs_method_name(m->method) : "none");
            if (!cell->placed || cell->trials == 0)
                continue; /* no placement stood: no odds */
            cs_columns_set_number(t, row, c++, cell->p_success, exact, 6);
            cs_columns_set_number(t, row, c++, cell->ci_low, exact, 6);
            cs_columns_set_number(t, row, c++, cell->ci_high, exact, 6);
            for (int o = 0; o < rs->n_outcomes; o++)
                cs_columns_set_number(t, row, c++, cell->p_outcome[o], exact, 6);
        }
    return cs_table_status(t);
}

void cs_report_precision_warning(const char *what, uint64_t max_trials, char *buf, size_t cap)
{
    snprintf(buf, cap,
             "warning: some %s stopped before reaching the requested precision: no further "
             "round fits the cap of %llu trials (--max-trials)",
             what, (unsigned long long)max_trials);
}

/* The picture's second line: ruleset, what p_success counts, method,
 * seed, then the values the experiment set (not the defaults, not the
 * map's own), cut with "..." where the line would outgrow the picture. */
#define CAPTION_CHARS 140

void cs_report_map_caption(const cs_map_result *m, char *buf, size_t cap)
{
    const cs_experiment *e = m->exp;
    char succ[256];
    cs_success_names(e->rs, m->success_mask, succ, sizeof succ);
    size_t u = (size_t)snprintf(buf, cap, "%s; p_success = %s; %s, seed %llu", e->rs->name, succ,
                                cs_method_name(m->method), (unsigned long long)e->seed);
    bool first = true;
    for (int i = 0; i < e->rs->n_params && u < cap; i++) {
        const cs_value_spec *v = &e->param[i];
        const char *key = e->rs->params[i].key;
        if (!v->raw || strcmp(v->origin, "default") == 0 || strcmp(key, "distance") == 0 ||
            strcmp(key, "offset") == 0)
            continue;
        size_t need = strlen(key) + strlen(v->raw) + 3;
        if (u + need > CAPTION_CHARS) {
            snprintf(buf + u, cap - u, "%s", first ? "; ..." : ", ...");
            return;
        }
        u += (size_t)snprintf(buf + u, cap - u, "%s %s=%s", first ? ";" : ",", key, v->raw);
        first = false;
    }
}
