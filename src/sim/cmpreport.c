/* The compare table; see include/chargesim/cmpreport.h. */
#include "chargesim/cmpreport.h"

#include <stdio.h>
#include <string.h>

static const char *sweep_text(const cs_experiment *e, uint64_t k, int pos)
{
    int choice[CS_MAX_PARAMS];
    cs_experiment_point_choices(e, k, choice);
    const cs_value_spec *v = &e->param[e->sweep[pos]];
    return v->text[choice[e->sweep[pos]]];
}

static cs_status csv_headers(const cs_cmp_result *r, cs_table *t)
{
    const cs_experiment *e = r->a;
    const cs_ruleset *rs = e->rs;
    static const char *const cell[] = {"_a", "_b", "_delta", "_delta_lo", "_delta_hi"};
    static const char *const succ[] = {"p_success_a", "p_success_b", "delta", "delta_lo",
                                       "delta_hi"};
    cs_status st = CS_OK;
    int c = 0;
    char name[160];
    for (int s = 0; s < e->n_sweep; s++)
        st |= cs_table_set_header(t, c++, rs->params[e->sweep[s]].key, true);
    st |= cs_table_set_header(t, c++, "trials", true);
    for (int j = 0; j < 5; j++)
        st |= cs_table_set_header(t, c++, succ[j], true);
    for (int o = 0; o < rs->n_outcomes; o++)
        for (int j = 0; j < 5; j++) {
            snprintf(name, sizeof name, "p_%s%s", rs->outcomes[o], cell[j]);
            st |= cs_table_set_header(t, c++, name, true);
        }
    st |= cs_table_set_header(t, c, "method", false);
    return st;
}

static cs_status csv_row(const cs_cmp_result *r, uint64_t k, cs_table *t, int row)
{
    const cs_experiment *e = r->a;
    const cs_cmp_point *p = &r->point[k];
    cs_status st = CS_OK;
    int c = 0;
    for (int s = 0; s < e->n_sweep; s++)
        st |= cs_table_set(t, row, c++, "%s", sweep_text(e, k, s));
    st |= cs_table_set(t, row, c++, "%llu", (unsigned long long)p->trials);
    for (int j = 0; j <= e->rs->n_outcomes; j++) {
        st |= cs_table_set(t, row, c++, "%.6f", p->a[j]);
        st |= cs_table_set(t, row, c++, "%.6f", p->b[j]);
        st |= cs_table_set(t, row, c++, "%.6f", p->d[j]);
        st |= cs_table_set(t, row, c++, "%.6f", p->lo[j]);
        st |= cs_table_set(t, row, c++, "%.6f", p->hi[j]);
    }
    st |= cs_table_set(t, row, c, "%s", cs_method_name(r->method));
    return st;
}

/* md/tex: one publishable row per point, percentages and percentage points. */
static cs_status pub_table(const cs_cmp_result *r, const char *b_desc, cs_table *t)
{
    const cs_experiment *e = r->a;
    int ns = e->n_sweep;
    cs_status st = cs_table_init(t, ns + 5);
    if (st != CS_OK)
        return st;
    for (int s = 0; s < ns; s++)
        st |= cs_table_set_header(t, s, e->rs->params[e->sweep[s]].key, true);
    st |= cs_table_set_header(t, ns, "trials", true);
    st |= cs_table_set_header(t, ns + 1, "A %", true);
    st |= cs_table_set_header(t, ns + 2, "B %", true);
    st |= cs_table_set_header(t, ns + 3, "delta (pp)", true);
    st |= cs_table_set_header(t, ns + 4, "interval (pp)", true);
    for (uint64_t k = 0; st == CS_OK && k < r->n_points; k++) {
        const cs_cmp_point *p = &r->point[k];
        int row = cs_table_add_row(t);
        if (row < 0)
            return CS_ENOMEM;
        for (int s = 0; s < ns; s++)
            st |= cs_table_set(t, row, s, "%s", sweep_text(e, k, s));
        st |= cs_table_set(t, row, ns, "%llu", (unsigned long long)p->trials);
        st |= cs_table_set(t, row, ns + 1, "%.2f", 100.0 * p->a[0]);
        st |= cs_table_set(t, row, ns + 2, "%.2f", 100.0 * p->b[0]);
        st |= cs_table_set(t, row, ns + 3, "%+.2f", 100.0 * p->d[0]);
        st |= cs_table_set(t, row, ns + 4, "[%+.2f, %+.2f]", 100.0 * p->lo[0], 100.0 * p->hi[0]);
    }
    char how[160];
    if (r->method == CS_METHOD_EXACT)
        snprintf(how, sizeof how, "exact on both sides (one fixed layout per point)");
    else
        snprintf(how, sizeof how, "%s, %llu %s per point, seed %llu, %g%% confidence",
                 cs_method_name(r->method), (unsigned long long)e->trials,
                 r->method == CS_METHOD_MC ? "trials" : "layouts", (unsigned long long)e->seed,
                 100.0 * e->confidence);
    if (st == CS_OK)
        st = cs_table_set_note(t,
                               "A: %s; B: A with %s. delta = B - A in percentage points of "
                               "p_success, paired (common random numbers), %s.",
                               e->name, b_desc, how);
    return st;
}

cs_status cs_report_compare(const cs_cmp_result *r, const char *b_desc, cs_format fmt,
                            cs_table *out)
{
    if (fmt != CS_FORMAT_CSV)
        return pub_table(r, b_desc, out);
    cs_status st = cs_table_init(out, r->a->n_sweep + 7 + 5 * r->a->rs->n_outcomes);
    if (st == CS_OK)
        st = csv_headers(r, out);
    for (uint64_t k = 0; st == CS_OK && k < r->n_points; k++) {
        int row = cs_table_add_row(out);
        st = row < 0 ? CS_ENOMEM : csv_row(r, k, out, row);
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

cs_status cs_report_compare_pivot(const cs_cmp_result *r, const char *row, const char *col,
                                  const char *b_desc, cs_format fmt, cs_table *out,
                                  cs_error *err)
{
    const cs_experiment *e = r->a;
    int rp = sweep_pos(e, row), cp = sweep_pos(e, col);
    if (rp < 0 || cp < 0 || rp == cp || e->n_sweep != 2)
        return cs_error_set(err, CS_EINPUT,
                            "--pivot %s:%s: compare pivots delta on the two swept keys of an "
                            "experiment that sweeps exactly two",
                            row, col);
    const cs_value_spec *rv = &e->param[e->sweep[rp]], *cv = &e->param[e->sweep[cp]];
    cs_status st = cs_table_init(out, cv->n + 1);
    st |= cs_table_set_header(out, 0, row, true);
    for (int j = 0; j < cv->n; j++)
        st |= cs_table_set_header(out, j + 1, cv->text[j], true);
    for (int i = 0; st == CS_OK && i < rv->n; i++) {
        if (cs_table_add_row(out) != i)
            return cs_error_set(err, CS_ENOMEM, "out of memory");
        st |= cs_table_set(out, i, 0, "%s", rv->text[i]);
    }
    for (uint64_t k = 0; st == CS_OK && k < r->n_points; k++) {
        int choice[CS_MAX_PARAMS];
        cs_experiment_point_choices(e, k, choice);
        double d = r->point[k].d[0];
        st = fmt == CS_FORMAT_CSV
                 ? cs_table_set(out, choice[e->sweep[rp]], choice[e->sweep[cp]] + 1, "%.6f", d)
                 : cs_table_set(out, choice[e->sweep[rp]], choice[e->sweep[cp]] + 1, "%+.2f",
                                100.0 * d);
    }
    if (st == CS_OK && fmt != CS_FORMAT_CSV)
        st = cs_table_set_note(out,
                               "delta = B - A of p_success in percentage points (rows %s, "
                               "columns %s); A: %s; B: A with %s; paired, %s, seed %llu.",
                               row, col, e->name, b_desc, cs_method_name(r->method),
                               (unsigned long long)e->seed);
    return st == CS_OK ? CS_OK : cs_error_set(err, st, "out of memory");
}
