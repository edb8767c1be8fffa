/* Summary, distribution and pivot tables; see include/chargesim/report.h. */
#include "chargesim/report.h"

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

/* The outcomes p_success counts when --success changed them, joined by
 * '+'; NULL for the ruleset's own set, so default output keeps its bytes. */
static const char *custom_success(const cs_run_result *r, char *buf, size_t cap)
{
    if (!r->success_mask || r->success_mask == r->exp->rs->success_mask)
        return NULL;
    cs_sim_success_names(r->exp->rs, r->success_mask, buf, cap);
    for (char *c = buf; *c; c++)
        if (*c == ',')
            *c = '+';
    return buf;
}

/* The [labels] label of swept parameter i at point k, or NULL. */
static const char *point_label(const cs_experiment *e, uint64_t k, int sweep_pos)
{
    int choice[CS_MAX_PARAMS];
    cs_experiment_point_choices(e, k, choice);
    int i = e->sweep[sweep_pos];
    return cs_experiment_label(e, i, choice[i]);
}

/* Swept keys with [labels]: each gets a KEY_label column beside it. */
static int n_labelled(const cs_experiment *e)
{
    int n = 0;
    for (int s = 0; s < e->n_sweep; s++)
        n += e->label[e->sweep[s]].n > 0;
    return n;
}

static bool method_exactish(const cs_run_result *r)
{
    return r->method == CS_METHOD_EXACT;
}

static cs_status set_prob(cs_table *t, int row, int col, double p, cs_format fmt)
{
    if (fmt == CS_FORMAT_CSV)
        return cs_table_set(t, row, col, "%.6f", p);
    return cs_table_set(t, row, col, "%.2f", 100.0 * p);
}

cs_status cs_report_summary(const cs_run_result *r, cs_format fmt, cs_table *out)
{
    const cs_experiment *e = r->exp;
    const cs_ruleset *rs = e->rs;
    bool pct = fmt != CS_FORMAT_CSV;
    /* CSV also carries each outcome's interval; md and tex state the widest
     * of them in the note instead, to stay readable. */
    int n_ci = pct ? 0 : 2 * rs->n_outcomes;
    char succ[512];
    const char *custom = pct ? NULL : custom_success(r, succ, sizeof succ);
    int ncols = e->n_sweep + n_labelled(e) + 5 + rs->n_outcomes + rs->n_metrics + n_ci + 1 +
                (custom != NULL);
    int c = 0;
    char name[128];
    cs_status st = cs_table_init(out, ncols);
    if (st != CS_OK)
        return st;
    for (int s = 0; s < e->n_sweep; s++) {
        st |= cs_table_set_header(out, c++, rs->params[e->sweep[s]].key, true);
        if (e->label[e->sweep[s]].n > 0) {
            snprintf(name, sizeof name, "%s_label", rs->params[e->sweep[s]].key);
            st |= cs_table_set_header(out, c++, name, false);
        }
    }
    st |= cs_table_set_header(out, c++, "trials", true);
    st |= cs_table_set_header(out, c++, "successes", true);
    st |= cs_table_set_header(out, c++, pct ? "p_success %" : "p_success", true);
    st |= cs_table_set_header(out, c++, pct ? "ci_low %" : "ci_low", true);
    st |= cs_table_set_header(out, c++, pct ? "ci_high %" : "ci_high", true);
    for (int o = 0; o < rs->n_outcomes; o++) {
        snprintf(name, sizeof name, pct ? "p_%s %%" : "p_%s", rs->outcomes[o]);
        st |= cs_table_set_header(out, c++, name, true);
    }
    for (int m = 0; m < rs->n_metrics; m++) {
        snprintf(name, sizeof name, "mean_%s", rs->metrics[m].name);
        st |= cs_table_set_header(out, c++, name, true);
    }
    for (int o = 0; o < rs->n_outcomes && n_ci; o++) {
        snprintf(name, sizeof name, "ci_low_%s", rs->outcomes[o]);
        st |= cs_table_set_header(out, c++, name, true);
        snprintf(name, sizeof name, "ci_high_%s", rs->outcomes[o]);
        st |= cs_table_set_header(out, c++, name, true);
    }
    st |= cs_table_set_header(out, c++, "method", false);
    if (custom)
        st |= cs_table_set_header(out, c++, "success", false);
    /* c == ncols: the column count above is the one place to change. */
    for (uint64_t k = 0; k < r->n_points && st == CS_OK; k++) {
        const cs_point_result *pr = &r->point[k];
        int row = cs_table_add_row(out);
        if (row < 0)
            return CS_ENOMEM;
        c = 0;
        for (int s = 0; s < e->n_sweep; s++) {
            st |= cs_table_set(out, row, c++, "%s", point_text(e, k, s));
            if (e->label[e->sweep[s]].n > 0)
                st |= cs_table_set(out, row, c++, "%s", point_label(e, k, s));
        }
        st |= cs_table_set(out, row, c++, "%llu", (unsigned long long)pr->trials);
        if (r->method == CS_METHOD_MC)
            st |= cs_table_set(out, row, c, "%llu", (unsigned long long)pr->successes);
        c++;
        st |= set_prob(out, row, c++, pr->p_success, fmt);
        st |= set_prob(out, row, c++, pr->ci_low, fmt);
        st |= set_prob(out, row, c++, pr->ci_high, fmt);
        for (int o = 0; o < rs->n_outcomes; o++)
            st |= set_prob(out, row, c++, pr->p_outcome[o], fmt);
        for (int m = 0; m < rs->n_metrics; m++) {
            if (pr->mean[m] == pr->mean[m])
                st |= cs_table_set(out, row, c, pct ? "%.2f" : "%.4f", pr->mean[m]);
            c++;
        }
        for (int o = 0; o < rs->n_outcomes && n_ci; o++) {
            st |= set_prob(out, row, c++, pr->outcome_low[o], fmt);
            st |= set_prob(out, row, c++, pr->outcome_high[o], fmt);
        }
        st |= cs_table_set(out, row, c++, "%s", cs_method_name(r->method));
        if (custom)
            st |= cs_table_set(out, row, c++, "%s", custom);
    }
    if (st != CS_OK)
        return CS_ENOMEM;
    if (pct) {
        char note[1024];
        cs_report_method_note(r, note, sizeof note);
        st |= cs_table_set_title(out, "%s (%s)", e->name, rs->name);
        st |= cs_table_set_note(out, "%s", note);
    }
    return st == CS_OK ? CS_OK : CS_ENOMEM;
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
    if (method_exactish(r)) {
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
    const char *custom = custom_success(r, succ, sizeof succ);
    if (!custom)
        return;
    size_t used = strlen(buf);
    for (char *c = succ; *c; c++)
        if (*c == '+')
            *c = ',';
    snprintf(buf + used, (size_t)cap - used, " p_success counts %s (--success).", succ);
}

cs_status cs_report_dist(const cs_run_result *r, cs_table *out)
{
    const cs_experiment *e = r->exp;
    const cs_ruleset *rs = e->rs;
    int ncols = e->n_sweep + 7, c;
    cs_status st = cs_table_init(out, ncols);
    if (st != CS_OK)
        return st;
    for (c = 0; c < e->n_sweep; c++)
        st |= cs_table_set_header(out, c, rs->params[e->sweep[c]].key, true);
    st |= cs_table_set_header(out, c++, "metric", false);
    st |= cs_table_set_header(out, c++, "value", true);
    st |= cs_table_set_header(out, c++, "count", true);
    st |= cs_table_set_header(out, c++, "p", true);
    st |= cs_table_set_header(out, c++, "ci_low", true);
    st |= cs_table_set_header(out, c++, "ci_high", true);
    st |= cs_table_set_header(out, c++, "method", false);
    for (uint64_t k = 0; k < r->n_points && st == CS_OK; k++) {
        const cs_point_result *pr = &r->point[k];
        for (int o = 0; o < rs->n_outcomes; o++) {
            int row = cs_table_add_row(out);
            if (row < 0)
                return CS_ENOMEM;
            for (c = 0; c < e->n_sweep; c++)
                st |= cs_table_set(out, row, c, "%s", point_text(e, k, c));
            st |= cs_table_set(out, row, c++, "outcome");
            st |= cs_table_set(out, row, c++, "%s", rs->outcomes[o]);
            if (r->method == CS_METHOD_MC)
                st |= cs_table_set(out, row, c, "%llu",
                                   (unsigned long long)pr->outcome_count[o]);
            c++;
            st |= cs_table_set(out, row, c++, "%.6f", pr->p_outcome[o]);
            st |= cs_table_set(out, row, c++, "%.6f", pr->outcome_low[o]);
            st |= cs_table_set(out, row, c++, "%.6f", pr->outcome_high[o]);
            st |= cs_table_set(out, row, c++, "%s", cs_method_name(r->method));
        }
        for (int m = 0; m < rs->n_metrics && pr->hist[m]; m++) {
            if (rs->metrics[m].kind != CS_METRIC_DIST)
                continue; /* a mean only (ruleset.h, cs_metric_kind) */
            bool counts = r->method == CS_METHOD_MC || pr->mean_sampled[m];
            /* Observations behind the shares: trials, or layouts where the
             * metric was measured (its probability mass in layouts). */
            double n = counts ? pr->hist_total[m] : pr->hist_total[m] / CS_FIXED_ONE;
            for (int i = 0; i < r->bins[m].nbins; i++) {
                if (pr->hist[m][i] == 0)
                    continue;
                int row = cs_table_add_row(out);
                if (row < 0)
                    return CS_ENOMEM;
                double p = (double)pr->hist[m][i] / pr->hist_total[m], lo = p, hi = p;
                if (counts || r->method != CS_METHOD_EXACT)
                    /* n is the number of layouts where the metric was measured
                     * for exact distributions (see cs_stats_wilson_real). */
                    cs_stats_wilson_real(p, n, r->z, &lo, &hi);
                for (c = 0; c < e->n_sweep; c++)
                    st |= cs_table_set(out, row, c, "%s", point_text(e, k, c));
                st |= cs_table_set(out, row, c++, "%s", rs->metrics[m].name);
                /* Values beyond the metric's declared range are counted in
                 * the outer bins and said to be so. */
                int outside = cs_binning_outside(&r->bins[m], i);
                if (outside < 0)
                    st |= cs_table_set(out, row, c++, "<%.10g", cs_binning_lo(&r->bins[m]));
                else if (outside > 0)
                    st |= cs_table_set(out, row, c++, ">%.10g", cs_binning_hi(&r->bins[m]));
                else
                    st |= cs_table_set(out, row, c++, "%.10g", cs_binning_value(&r->bins[m], i));
                if (counts)
                    st |= cs_table_set(out, row, c, "%llu", (unsigned long long)pr->hist[m][i]);
                c++;
                st |= cs_table_set(out, row, c++, "%.6f", p);
                st |= cs_table_set(out, row, c++, "%.6f", lo);
                st |= cs_table_set(out, row, c++, "%.6f", hi);
                st |= cs_table_set(out, row, c++, "%s",
                                   counts ? "mc" : cs_method_name(r->method));
            }
        }
    }
    return st == CS_OK ? CS_OK : CS_ENOMEM;
}

static int sweep_pos_of(const cs_experiment *e, const char *key)
{
    for (int s = 0; s < e->n_sweep; s++)
        if (strcmp(e->rs->params[e->sweep[s]].key, key) == 0)
            return s;
    return -1;
}

/* A reported column a pivot can show: a probability (and its interval),
 * a mean, or a count, as the summary CSV names them. */
typedef struct pivot_what {
    enum { PV_PROB, PV_MEAN, PV_TRIALS, PV_SUCCESSES } kind;
    int idx;   /* outcome (-1: success) or metric */
    int which; /* probabilities: 0 the estimate, 1 ci_low, 2 ci_high */
} pivot_what;

static bool pivot_parse(const cs_ruleset *rs, const char *name, pivot_what *w)
{
    static const char *const pre[] = {"p_", "ci_low_", "ci_high_"};
    static const char *const succ[] = {"p_success", "ci_low", "ci_high"};
    memset(w, 0, sizeof *w);
    if (strcmp(name, "trials") == 0 || strcmp(name, "successes") == 0) {
        w->kind = name[0] == 't' ? PV_TRIALS : PV_SUCCESSES;
        return true;
    }
    for (int i = 0; i < 3; i++) {
        w->kind = PV_PROB;
        w->which = i;
        w->idx = -1;
        if (strcmp(name, succ[i]) == 0)
            return true;
        size_t n = strlen(pre[i]);
        for (int o = 0; strncmp(name, pre[i], n) == 0 && o < rs->n_outcomes; o++)
            if (strcmp(name + n, rs->outcomes[o]) == 0) {
                w->idx = o;
                return true;
            }
    }
    for (int m = 0; strncmp(name, "mean_", 5) == 0 && m < rs->n_metrics; m++)
        if (strcmp(name + 5, rs->metrics[m].name) == 0) {
            w->kind = PV_MEAN;
            w->idx = m;
            return true;
        }
    return false;
}

/* One pivot cell; *half gets the interval half-width behind a probability
 * (percentage points), or -1 where the column has none. */
static cs_status pivot_cell(cs_table *t, int row, int col, const cs_run_result *r,
                            const cs_point_result *pr, const pivot_what *w, bool csv,
                            double *half)
{
    *half = -1.0;
    switch (w->kind) {
    case PV_TRIALS:
        return cs_table_set(t, row, col, "%llu", (unsigned long long)pr->trials);
    case PV_SUCCESSES:
        return r->method == CS_METHOD_MC
                   ? cs_table_set(t, row, col, "%llu", (unsigned long long)pr->successes)
                   : CS_OK;
    case PV_MEAN:
        if (pr->mean[w->idx] != pr->mean[w->idx])
            return CS_OK; /* never measured: empty, as in the summary */
        return cs_table_set(t, row, col, csv ? "%.4f" : "%.2f", pr->mean[w->idx]);
    case PV_PROB:
        break;
    }
    double p = w->idx < 0 ? pr->p_success : pr->p_outcome[w->idx];
    double lo = w->idx < 0 ? pr->ci_low : pr->outcome_low[w->idx];
    double hi = w->idx < 0 ? pr->ci_high : pr->outcome_high[w->idx];
    *half = 50.0 * (hi - lo);
    return cs_table_set(t, row, col, "%.2f", 100.0 * (w->which == 0 ? p : w->which == 1 ? lo : hi));
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
    pivot_what what;
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
    cs_status st = cs_table_init(t, lead + 1 + pv->cv->n + tail);
    int c = 0;
    for (int s = 0; pv->csv && s < e->n_sweep; s++)
        if (s != pv->rp && s != pv->cp)
            st |= cs_table_set_header(t, c++, e->rs->params[e->sweep[s]].key, true);
    char head[256];
    snprintf(head, sizeof head, "%s \\ %s", pv->row, pv->col);
    st |= cs_table_set_header(t, c++, pv->csv ? pv->row : head, true);
    for (int j = 0; j < pv->cv->n; j++) {
        const char *lab = cs_experiment_label(e, e->sweep[pv->cp], j);
        if (pv->csv)
            snprintf(head, sizeof head, "%s=%s", pv->col, pv->cv->text[j]);
        else if (lab)
            snprintf(head, sizeof head, "%s (%s)", lab, pv->cv->text[j]);
        else
            snprintf(head, sizeof head, "%s", pv->cv->text[j]);
        st |= cs_table_set_header(t, c++, head, true);
    }
    if (pv->csv) {
        st |= cs_table_set_header(t, c++, "method", false);
        st |= cs_table_set_header(t, c++, "max_ci_halfwidth_pct", true);
        if (pv->custom)
            st |= cs_table_set_header(t, c++, "success", false);
    } else {
        st |= cs_table_set_note(t, "Cells: %s%s. %s", pv->column, pv->pct ? " in percent" : "",
                                note);
    }
    return st;
}

/* A new row of table tt for point k's row value ri: the other swept keys
 * (CSV) or the table's title (md, tex), and the row key's value. */
static cs_status pivot_new_row(const pivot *pv, cs_table *tt, uint64_t k, int ri, int *slot)
{
    const cs_experiment *e = pv->e;
    cs_status st = CS_OK;
    if ((*slot = cs_table_add_row(tt)) < 0)
        return CS_ENOMEM;
    int c = 0;
    char title[512] = "";
    for (int s = 0; s < e->n_sweep; s++) {
        if (s == pv->rp || s == pv->cp)
            continue;
        if (pv->csv)
            st |= cs_table_set(tt, *slot, c++, "%s", point_text(e, k, s));
        size_t used = strlen(title);
        snprintf(title + used, sizeof title - used, "%s%s = %s", used ? ", " : "",
                 e->rs->params[e->sweep[s]].key, point_text(e, k, s));
    }
    /* md and tex name a labelled value by its label too ([labels]). */
    const char *lab = pv->csv ? NULL : cs_experiment_label(e, e->sweep[pv->rp], ri);
    if (lab)
        st |= cs_table_set(tt, *slot, c, "%s (%s)", lab, pv->rv->text[ri]);
    else
        st |= cs_table_set(tt, *slot, c, "%s", pv->rv->text[ri]);
    if (!pv->csv)
        st |= title[0] ? cs_table_set_title(tt, "%s: %s%s, %s", e->name, pv->column,
                                            pv->pct ? " (%)" : "", title)
                       : cs_table_set_title(tt, "%s: %s%s", e->name, pv->column,
                                            pv->pct ? " (%)" : "");
    return st;
}

/* Point k into its (group, row value, column value) cell. */
static cs_status pivot_point(const pivot *pv, cs_table *t, int *row_of, uint64_t k)
{
    const cs_experiment *e = pv->e;
    uint64_t g = 0, gmul = 1;
    int ri = 0, ci = 0, choice[CS_MAX_PARAMS];
    cs_status st = CS_OK;
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
    st |= pivot_cell(tt, *slot, col0 + ci, pv->r, &pv->r->point[k], &pv->what, pv->csv, &h);
    if (!pv->csv)
        return st;
    /* The row's widest interval half-width, in percentage points (empty for
     * a column without an interval). */
    const char *prev = tt->cell[(size_t)*slot * (size_t)tt->ncols + (size_t)(col0 + nc + 1)];
    if (h >= 0.0 && (!prev || strtod(prev, NULL) < h))
        st |= cs_table_set(tt, *slot, col0 + nc + 1, "%.4f", h);
    st |= cs_table_set(tt, *slot, col0 + nc, "%s", cs_method_name(pv->r->method));
    if (pv->custom)
        st |= cs_table_set(tt, *slot, col0 + nc + 2, "%s", pv->custom);
    return st;
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
    pv->pct = pv->what.kind == PV_PROB;
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
    pv.custom = pv.csv ? custom_success(r, succ, sizeof succ) : NULL;
    st = t && row_of ? CS_OK : CS_ENOMEM;
    for (int i = 0; i < n_tables && st == CS_OK; i++)
        st |= pivot_headers(&pv, &t[i], note);
    for (uint64_t g = 0; row_of && g < groups * (uint64_t)pv.rv->n; g++)
        row_of[g] = -1;
    for (uint64_t k = 0; k < r->n_points && st == CS_OK; k++)
        st |= pivot_point(&pv, t, row_of, k);
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
