/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The compare table; see include/chargesim/cmpreport.h. */
#include "chargesim/cmpreport.h"

#include "chargesim/cmpverdict.h"
#include "chargesim/columns.h"

#include <stdio.h>
#include <string.h>

static const char *sweep_text(const cs_experiment *e, uint64_t k, int pos)
{
    int choice[CS_MAX_PARAMS];
    cs_experiment_point_choices(e, k, choice);
    const cs_value_spec *v = &e->param[e->sweep[pos]];
    return v->text[choice[e->sweep[pos]]];
}

/* The [labels] label of swept position pos at point k, or NULL. */
static const char *sweep_label(const cs_experiment *e, uint64_t k, int pos)
{
    int choice[CS_MAX_PARAMS];
    cs_experiment_point_choices(e, k, choice);
    return cs_experiment_label(e, e->sweep[pos], choice[e->sweep[pos]]);
}

/* Swept keys with [labels]: each gets a KEY_label column beside it, as in
 * run's summary, which the charts name their curves by. */
static int n_labelled(const cs_experiment *e)
{
    int n = 0;
    for (int s = 0; s < e->n_sweep; s++)
        n += e->label[e->sweep[s]].n > 0;
    return n;
}

/* The swept keys' columns from *c on: each key, and its label beside it. */
static void sweep_headers(const cs_experiment *e, cs_table *t, int *c)
{
    for (int s = 0; s < e->n_sweep; s++) {
        cs_columns_param(t, (*c)++, e->rs, e->sweep[s]);
        if (e->label[e->sweep[s]].n > 0)
            cs_columns_label(t, (*c)++, e->rs, e->sweep[s]);
    }
}

static void sweep_cells(const cs_experiment *e, uint64_t k, cs_table *t, int row, int *c)
{
    for (int s = 0; s < e->n_sweep; s++) {
        cs_table_set(t, row, (*c)++, "%s", sweep_text(e, k, s));
        if (e->label[e->sweep[s]].n > 0)
            cs_table_set(t, row, (*c)++, "%s", sweep_label(e, k, s));
    }
}

static cs_status csv_headers(const cs_cmp_result *r, cs_table *t)
{
    const cs_experiment *e = r->a;
    const cs_ruleset *rs = e->rs;
    int c = 0;
    sweep_headers(e, t, &c);
    cs_columns_fixed(t, c++, "trials", NULL);
    for (int o = -1; o < rs->n_outcomes; o++)
        for (int j = 0; j < 5; j++)
            cs_columns_paired(t, c++, rs, o, j);
    cs_columns_fixed(t, c, "method", NULL);
    cs_columns_level(t, e->confidence);
    return cs_table_status(t);
}

static cs_status csv_row(const cs_cmp_result *r, uint64_t k, cs_table *t, int row)
{
    const cs_experiment *e = r->a;
    const cs_cmp_point *p = &r->point[k];
    int c = 0;
    sweep_cells(e, k, t, row, &c);
    if (r->method != CS_METHOD_EXACT) /* exact claims no trial count */
        cs_table_set(t, row, c, "%llu", (unsigned long long)p->trials);
    c++;
    for (int j = 0; j <= e->rs->n_outcomes; j++) {
        const double v[5] = {p->a[j], p->b[j], p->d[j], p->lo[j], p->hi[j]};
        for (int i = 0; i < 5; i++)
            cs_columns_set_number(t, row, c++, v[i], r->method == CS_METHOD_EXACT, 6);
    }
    cs_table_set(t, row, c, "%s", cs_method_name(r->method));
    return cs_table_status(t);
}

/* A and B by the settings in which they differ (issue 52: a reader of
 * "A: t9a" had to guess what B changed): "A: charge_speed 8 · B:
 * charge_speed 9 (all else as in NAME)"; the settings compared as the pair
 * check does (compare.c, cs_cmp_pair_problem: the values as written). */
static void ab_words(const cs_cmp_result *r, const char *b_desc, char *buf, size_t cap)
{
    const cs_experiment *a = r->a, *b = r->b;
    char sa[480] = "", sb[480] = "";
    size_t la = 0, lb = 0;
    for (int i = 0; b && i < a->rs->n_params; i++) {
        const char *va = a->param[i].raw ? a->param[i].raw : "";
        const char *vb = b->param[i].raw ? b->param[i].raw : "";
        if (strcmp(va, vb) == 0 || la >= sizeof sa || lb >= sizeof sb)
            continue;
        const char *key = a->rs->params[i].key;
        int wa = snprintf(sa + la, sizeof sa - la, "%s%s %s", la ? ", " : "", key, va);
        int wb = snprintf(sb + lb, sizeof sb - lb, "%s%s %s", lb ? ", " : "", key, vb);
        la += wa > 0 ? (size_t)wa : 0;
        lb += wb > 0 ? (size_t)wb : 0;
    }
    if (la == 0) /* nothing the ruleset names differs: B as the user wrote it */
        snprintf(buf, cap, "A: %s; B: A with %s", a->name, b_desc);
    else
        snprintf(buf, cap, "A: %.480s \u00b7 B: %.480s (all else as in %s)", sa, sb, a->name);
}

void cs_cmpreport_note(const cs_cmp_result *r, const char *b_desc, bool pp, char *buf,
                       size_t cap)
{
    const cs_experiment *e = r->a;
    char how[256], count[64];
    uint64_t lo = r->n_points ? r->point[0].trials : 0, hi = lo;
    for (uint64_t k = 1; k < r->n_points; k++) {
        lo = r->point[k].trials < lo ? r->point[k].trials : lo;
        hi = r->point[k].trials > hi ? r->point[k].trials : hi;
    }
    if (hi > lo)
        snprintf(count, sizeof count, "%llu to %llu", (unsigned long long)lo,
                 (unsigned long long)hi);
    else
        snprintf(count, sizeof count, "%llu", (unsigned long long)lo);
    if (r->method == CS_METHOD_EXACT)
        snprintf(how, sizeof how, "exact on both sides (one fixed layout per point)");
    else if (r->method == CS_METHOD_RQMC) /* the layouts it ran: R times a power of two */
        snprintf(how, sizeof how,
                 "rqmc, %s randomised quasi-Monte Carlo layouts per point (%u replicates, A "
                 "and B on the same points), seed %llu, %g%% confidence",
                 count, e->replicates, (unsigned long long)e->seed, 100.0 * e->confidence);
    else
        snprintf(how, sizeof how, "%s, %llu %s per point, seed %llu, %g%% confidence",
                 cs_method_name(r->method), (unsigned long long)e->trials,
                 r->method == CS_METHOD_MC ? "trials" : "layouts", (unsigned long long)e->seed,
                 100.0 * e->confidence);
    char ab[1024];
    ab_words(r, b_desc, ab, sizeof ab);
    snprintf(buf, cap,
             "%s. delta = B - A %s of p_success, paired "
             "(common random numbers), %s.",
             ab,
             pp ? "in percentage points"
                : "as a proportion like p_success (0.05 = 5 percentage points)",
             how);
}

/* md/tex: one publishable row per point, percentages and percentage points. */
static cs_status pub_table(const cs_cmp_result *r, const char *b_desc, cs_table *t)
{
    const cs_experiment *e = r->a;
    int ns = e->n_sweep + n_labelled(e), c = 0;
    static const char *const head[] = {"trials", "A %", "B %", "delta (pp)", "interval (pp)"};
    if (cs_table_init(t, ns + 5) != CS_OK)
        return cs_table_status(t);
    static const char *const name[] = {"trials", "p_success_a", "p_success_b", "delta",
                                       "delta_interval"};
    sweep_headers(e, t, &c);
    for (int j = 0; j < 5; j++)
        cs_columns_fixed(t, ns + j, name[j], head[j]);
    cs_columns_level(t, e->confidence);
    for (uint64_t k = 0; cs_table_status(t) == CS_OK && k < r->n_points; k++) {
        const cs_cmp_point *p = &r->point[k];
        int row = cs_table_add_row(t);
        if (row < 0)
            break;
        c = 0;
        sweep_cells(e, k, t, row, &c);
        if (r->method != CS_METHOD_EXACT)
            cs_table_set(t, row, ns, "%llu", (unsigned long long)p->trials);
        cs_table_set(t, row, ns + 1, "%.2f", 100.0 * p->a[0]);
        cs_table_set(t, row, ns + 2, "%.2f", 100.0 * p->b[0]);
        cs_table_set(t, row, ns + 3, "%+.2f", 100.0 * p->d[0]);
        cs_table_set(t, row, ns + 4, "[%+.2f, %+.2f]", 100.0 * p->lo[0], 100.0 * p->hi[0]);
    }
    char note[2048], verdict[1024];
    cs_cmpreport_note(r, b_desc, true, note, sizeof note);
    cs_cmpverdict(r, verdict, sizeof verdict);
    cs_table_set_note(t, "%s %s", verdict, note);
    return cs_table_status(t);
}

cs_status cs_cmpreport_table(const cs_cmp_result *r, const char *b_desc, cs_format fmt,
                            cs_table *out)
{
    if (fmt != CS_FORMAT_CSV)
        return pub_table(r, b_desc, out);
    cs_status st =
        cs_table_init(out, r->a->n_sweep + n_labelled(r->a) + 7 + 5 * r->a->rs->n_outcomes);
    if (st == CS_OK)
        st = csv_headers(r, out);
    for (uint64_t k = 0; st == CS_OK && k < r->n_points; k++) {
        int row = cs_table_add_row(out);
        st = row < 0 ? cs_table_status(out) : csv_row(r, k, out, row);
    }
    return st;
}

/* Position of key among e's swept keys, or -1. */
static int sweep_pos(const cs_experiment *e, const char *key)
{
    for (int s = 0; s < e->n_sweep; s++)
        if (strcmp(e->rs->params[e->sweep[s]].key, key) == 0)
            return s;
    return -1;
}

cs_status cs_cmpreport_pivot_check(const cs_experiment *e, const char *row,
                                        const char *col, cs_error *err)
{
    int rp = sweep_pos(e, row), cp = sweep_pos(e, col);
    if (rp < 0 || cp < 0 || rp == cp || e->n_sweep != 2)
        return cs_error_set(err, CS_EINPUT,
                            "--pivot %s:%s: compare pivots delta on the two swept keys of an "
                            "experiment that sweeps exactly two",
                            row, col);
    return CS_OK;
}

cs_status cs_cmpreport_pivot(const cs_cmp_result *r, const char *row, const char *col,
                                  const char *b_desc, cs_format fmt, cs_table *out,
                                  cs_error *err)
{
    const cs_experiment *e = r->a;
    cs_status st = cs_cmpreport_pivot_check(e, row, col, err);
    if (st != CS_OK)
        return st;
    int rp = sweep_pos(e, row), cp = sweep_pos(e, col);
    const cs_value_spec *rv = &e->param[e->sweep[rp]], *cv = &e->param[e->sweep[cp]];
    if (cs_table_init(out, cv->n + 1) == CS_OK)
        cs_columns_param(out, 0, e->rs, e->sweep[rp]);
    for (int j = 0; j < cv->n; j++) {
        char label[300], desc[300];
        snprintf(label, sizeof label, "difference at %s %s", col, cv->text[j]);
        snprintf(desc, sizeof desc, "delta of p_success at %s = %s", col, cv->text[j]);
        cs_columns_cell(out, j + 1, cv->text[j], CS_COL_VALUE, CS_DT_NUMBER, label, desc);
    }
    for (int i = 0; cs_table_status(out) == CS_OK && i < rv->n; i++)
        if (cs_table_add_row(out) == i)
            cs_table_set(out, i, 0, "%s", rv->text[i]);
    for (uint64_t k = 0; cs_table_status(out) == CS_OK && k < r->n_points; k++) {
        int choice[CS_MAX_PARAMS];
        cs_experiment_point_choices(e, k, choice);
        double d = r->point[k].d[0];
        if (fmt == CS_FORMAT_CSV)
            cs_columns_set_number(out, choice[e->sweep[rp]], choice[e->sweep[cp]] + 1, d,
                                  r->method == CS_METHOD_EXACT, 6);
        else
            cs_table_set(out, choice[e->sweep[rp]], choice[e->sweep[cp]] + 1, "%+.2f", 100.0 * d);
    }
    if (fmt != CS_FORMAT_CSV) {
        char ab[1024], verdict[1024];
        ab_words(r, b_desc, ab, sizeof ab);
        cs_cmpverdict(r, verdict, sizeof verdict);
        cs_table_set_note(out,
                          "%s delta = B - A of p_success in percentage points (rows %s, "
                          "columns %s); %s; paired, %s, seed %llu.",
                          verdict, row, col, ab, cs_method_name(r->method),
                          (unsigned long long)e->seed);
    }
    st = cs_table_status(out);
    return st == CS_OK ? CS_OK : cs_error_set(err, st, "out of memory");
}
