/* The unit table (unitsrc.h: cs_units_table), as a cs_table so that CSV,
 * Markdown and LaTeX come from the project's one set of writers. */
#include <stdio.h>
#include <string.h>

#include "chargesim/unitsrc.h"

#define MAX_NAMES 64

/* The union of the units' parameter and metric columns, in order of first
 * appearance, so units of several mappings share one table. */
typedef struct names {
    int n;
    const char *name[MAX_NAMES];
} names;

static void add_name(names *l, const char *name)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->name[i], name) == 0)
            return;
    if (l->n < MAX_NAMES)
        l->name[l->n++] = name;
}

/* The unit's value of parameter `key` as the experiment model read it. */
static const char *value_of(const cs_unit *u, const char *key)
{
    for (int i = 0; i < u->n_values; i++)
        if (strcmp(u->map->rs->params[u->value[i].param].key, key) == 0)
            return u->value[i].text;
    return NULL;
}

static int metric_slot(const cs_unit *u, const char *name)
{
    for (int k = 0; k < u->map->n_metrics; k++)
        if (strcmp(u->map->metric[k], name) == 0)
            return k;
    return -1;
}

cs_status cs_units_table(const cs_units *u, const cs_unit_result *res, const cs_units_grid *g,
                         cs_format fmt, const char *title, cs_table *t)
{
    names params = {0}, metrics = {0};
    for (int i = 0; i < u->n; i++) {
        const cs_units_mapping *m = u->unit[i].map;
        for (int k = 0; k < m->n_chars; k++)
            add_name(&params, m->chars[k].param);
        for (int k = 0; k < u->unit[i].n_values; k++)
            add_name(&params, m->rs->params[u->unit[i].value[k].param].key);
        for (int k = 0; k < m->n_metrics; k++)
            add_name(&metrics, m->metric[k]);
    }
    static const char *const head[] = {"catalogue", "name", "ruleset", "points", "base"};
    static const char *const tail[] = {"reach_50", "reach_75", "reach_90", "plus1_speed",
                                       "points_per_inch_75"};
    const int nd = cs_units_grid_count(g);
    const int c_params = 5, c_tail = c_params + params.n, c_metrics = c_tail + 5,
              c_p = c_metrics + metrics.n, ncols = c_p + nd;
    /* CSV keeps probabilities in [0, 1] for programs; md and tex show
     * percentages for readers. */
    const bool pct = fmt != CS_FORMAT_CSV;
    const char *none = pct ? "-" : "";
    cs_status st = cs_table_init(t, ncols);
    for (int c = 0; st == CS_OK && c < 5; c++)
        st = cs_table_set_header(t, c, head[c], c == 3);
    for (int c = 0; st == CS_OK && c < params.n; c++)
        st = cs_table_set_header(t, c_params + c, params.name[c], true);
    for (int c = 0; st == CS_OK && c < 5; c++)
        st = cs_table_set_header(t, c_tail + c, tail[c], true);
    for (int c = 0; st == CS_OK && c < metrics.n; c++) {
        char h[CS_UNITS_TEXT + 8];
        snprintf(h, sizeof h, "mean_%s", metrics.name[c]);
        st = cs_table_set_header(t, c_metrics + c, h, true);
    }
    for (int c = 0; st == CS_OK && c < nd; c++) {
        char h[64];
        snprintf(h, sizeof h, "p_%g", cs_units_grid_at(g, c));
        st = cs_table_set_header(t, c_p + c, h, true);
    }
    if (st == CS_OK && title && title[0])
        st = cs_table_set_title(t, "%s", title);
    if (st == CS_OK && pct)
        st = cs_table_set_note(t, "p_D: p_success (%%) with the target D inches away; reach_Q: "
                                  "the farthest distance still at least Q%%; plus1_speed: inches "
                                  "of reach_75 one more inch of speed buys.");
    for (int r = 0; st == CS_OK && r < u->n; r++) {
        const cs_unit *un = &u->unit[r];
        const cs_unit_result *x = &res[r];
        int row = cs_table_add_row(t);
        if (row < 0)
            return CS_ENOMEM;
        st = cs_table_set(t, row, 0, "%s", un->catalogue);
        if (st == CS_OK)
            st = cs_table_set(t, row, 1, "%s", un->name);
        if (st == CS_OK)
            st = cs_table_set(t, row, 2, "%s", un->map->rs->name);
        if (st == CS_OK)
            st = un->has_points ? cs_table_set(t, row, 3, "%g", un->points)
                                : cs_table_set(t, row, 3, "%s", none);
        if (st == CS_OK)
            st = cs_table_set(t, row, 4, "%s", un->base[0] ? un->base : none);
        for (int c = 0; st == CS_OK && c < params.n; c++) {
            const char *v = value_of(un, params.name[c]);
            st = cs_table_set(t, row, c_params + c, "%s", v ? v : none);
        }
        for (int k = 0; st == CS_OK && k < CS_UNITS_N_REACH; k++)
            st = x->has_reach[k] ? cs_table_set(t, row, c_tail + k, "%g", x->reach[k])
                                 : cs_table_set(t, row, c_tail + k, "%s", none);
        if (st == CS_OK)
            st = !x->has_plus1 ? cs_table_set(t, row, c_tail + 3, "%s", none)
                              : cs_table_set(t, row, c_tail + 3, pct ? "%+g" : "%g", x->plus1);
        if (st == CS_OK)
            st = x->has_ppi
                     ? cs_table_set(t, row, c_tail + 4, pct ? "%.2f" : "%.4f", x->points_per_inch)
                     : cs_table_set(t, row, c_tail + 4, "%s", none);
        for (int c = 0; st == CS_OK && c < metrics.n; c++) {
            int k = metric_slot(un, metrics.name[c]);
            st = k >= 0 && x->has_metric[k]
                     ? cs_table_set(t, row, c_metrics + c, pct ? "%.2f" : "%.6f", x->metric[k])
                     : cs_table_set(t, row, c_metrics + c, "%s", none);
        }
        for (int c = 0; st == CS_OK && c < nd; c++)
            st = pct ? cs_table_set(t, row, c_p + c, "%.2f", 100.0 * x->p[c])
                     : cs_table_set(t, row, c_p + c, "%.6f", x->p[c]);
    }
    return st;
}
