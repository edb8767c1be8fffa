/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Units, stage 5 of 5: the table (unitsrc.h: cs_units_table), one row per
 * unit with what stage 4 (src/sim/runs/units.c) found, as a cs_table so that
 * CSV, Markdown and LaTeX come from the project's one set of writers. Its
 * columns (name, label, description, kind, unit) are the one registry's,
 * columns.h, as every other table's. */
#include <stdio.h>
#include <string.h>

#include "chargesim/columns.h"
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

/* The table's columns: 5 head, the parameters, 5 tail, the metrics, one
 * per distance. */
typedef struct layout {
    names params, metrics;
    int c_params, c_tail, c_metrics, c_p, ncols, nd;
    bool pct;         /* md and tex: percentages for readers; CSV: [0, 1] */
    const char *none; /* an absent value */
    bool any_unknown; /* some unit's points are unknown */
    bool has_type;    /* some unit's mapping names a type: a `type` column after base */
    bool has_models;  /* some unit counts its models (a roster's): a `models` column next */
} layout;

static const char *const head[] = {"catalogue", "name", "ruleset", "points", "base"};
static const char *const tail[] = {"reach_50", "reach_75", "reach_90", "plus1_speed",
                                   "points_per_inch_75"};

/* A parameter of some unit's ruleset (every column's is one). */
static const cs_param_def *param_of(const cs_units *u, const char *key)
{
    for (int i = 0; i < u->n; i++) {
        int k = cs_ruleset_param_index(u->unit[i].map->rs, key);
        if (k >= 0)
            return &u->unit[i].map->rs->params[k];
    }
    return NULL;
}

/* A metric of some unit's mapping (every column's is one). */
static const cs_metric_def *metric_of(const cs_units *u, const char *name)
{
    for (int i = 0; i < u->n; i++) {
        const cs_units_mapping *m = u->unit[i].map;
        for (int k = 0; k < m->n_metrics; k++)
            if (strcmp(m->metric[k], name) == 0)
                return &m->rs->metrics[m->metric_index[k]];
    }
    return NULL;
}

/* Every column from the registry (columns.h); a parameter or metric that
 * no unit's ruleset defines is a programming error (CS_EINPUT). */
static cs_status headers(cs_table *t, const layout *l, const cs_units *u,
                         const cs_units_grid *g, const char *title)
{
    cs_status st = cs_table_init(t, l->ncols);
    for (int c = 0; st == CS_OK && c < 5; c++)
        st = cs_columns_fixed(t, c, head[c], NULL);
    if (st == CS_OK && l->has_type)
        st = cs_columns_fixed(t, 5, "type", NULL);
    if (st == CS_OK && l->has_models)
        st = cs_columns_fixed(t, 5 + l->has_type, "models", NULL);
    for (int c = 0; st == CS_OK && c < l->params.n; c++) {
        const cs_param_def *d = param_of(u, l->params.name[c]);
        st = d ? cs_columns_unit_param(t, l->c_params + c, d) : CS_EINPUT;
    }
    for (int c = 0; st == CS_OK && c < 5; c++)
        st = cs_columns_fixed(t, l->c_tail + c, tail[c], NULL);
    for (int c = 0; st == CS_OK && c < l->metrics.n; c++) {
        const cs_metric_def *d = metric_of(u, l->metrics.name[c]);
        st = d ? cs_columns_unit_mean(t, l->c_metrics + c, d) : CS_EINPUT;
    }
    for (int c = 0; st == CS_OK && c < l->nd; c++)
        st = cs_columns_unit_distance(t, l->c_p + c, cs_units_grid_at(g, c));
    if (st == CS_OK && title && title[0])
        st = cs_table_set_title(t, "%s", title);
    if (st == CS_OK && l->pct)
        st = cs_table_set_note(t, "p_D: p_success (%%) with the target D inches away; reach_Q: "
                                  "the farthest distance still at least Q%%; plus1_speed: inches "
                                  "of reach_75 one more inch of speed buys%s%s",
                               l->metrics.n > 0 ? "; mean_<metric>: the charge's mean where "
                                                  "every roll reaches, just beyond base contact "
                                                  "(a property of the unit, whatever the "
                                                  "distances)" : "",
                               l->any_unknown ? "; `-`: unknown or none (points the data "
                                                "does not give are never 0)." : ".");
    return st;
}

/* The reach, +1 speed, points per inch and metric cells of one row. */
static cs_status results(cs_table *t, int row, const layout *l, const cs_unit *un,
                         const cs_unit_result *x)
{
    const bool pct = l->pct;
    const char *none = l->none;
    cs_status st = CS_OK;
    for (int k = 0; st == CS_OK && k < CS_UNITS_N_REACH; k++)
        st = x->has_reach[k] ? cs_table_set(t, row, l->c_tail + k, "%g", x->reach[k])
                             : cs_table_set(t, row, l->c_tail + k, "%s", none);
    if (st == CS_OK)
        st = !x->has_plus1 ? cs_table_set(t, row, l->c_tail + 3, "%s", none)
                           : cs_table_set(t, row, l->c_tail + 3, pct ? "%+g" : "%g", x->plus1);
    if (st == CS_OK)
        st = x->has_ppi
                 ? cs_table_set(t, row, l->c_tail + 4, pct ? "%.2f" : "%.4f", x->points_per_inch)
                 : cs_table_set(t, row, l->c_tail + 4, "%s", none);
    for (int c = 0; st == CS_OK && c < l->metrics.n; c++) {
        int k = metric_slot(un, l->metrics.name[c]);
        /* A unit is evaluated exactly: its means whole in CSV (issue 52). */
        st = !(k >= 0 && x->has_metric[k]) ? cs_table_set(t, row, l->c_metrics + c, "%s", none)
             : pct ? cs_table_set(t, row, l->c_metrics + c, "%.2f", x->metric[k])
                   : cs_columns_set_number(t, row, l->c_metrics + c, x->metric[k], true, 6);
    }
    return st;
}

/* One unit's row. */
static cs_status unit_row(cs_table *t, const layout *l, const cs_unit *un,
                          const cs_unit_result *x)
{
    const char *none = l->none;
    int row = cs_table_add_row(t);
    if (row < 0)
        return CS_ENOMEM;
    cs_status st = cs_table_set(t, row, 0, "%s", un->catalogue);
    if (st == CS_OK)
        st = cs_table_set(t, row, 1, "%s", un->name);
    if (st == CS_OK)
        st = cs_table_set(t, row, 2, "%s", un->map->rs->name);
    if (st == CS_OK)
        st = un->has_points ? cs_table_set(t, row, 3, "%g", un->points)
                            : cs_table_set(t, row, 3, "%s", none);
    if (st == CS_OK)
        st = cs_table_set(t, row, 4, "%s", un->base[0] ? un->base : none);
    if (st == CS_OK && l->has_type)
        st = cs_table_set(t, row, 5, "%s", un->type[0] ? un->type : none);
    if (st == CS_OK && l->has_models)
        st = un->models > 0 ? cs_table_set(t, row, 5 + l->has_type, "%d", un->models)
                            : cs_table_set(t, row, 5 + l->has_type, "%s", none);
    for (int c = 0; st == CS_OK && c < l->params.n; c++) {
        const char *v = value_of(un, l->params.name[c]);
        st = cs_table_set(t, row, l->c_params + c, "%s", v ? v : none);
    }
    if (st == CS_OK)
        st = results(t, row, l, un, x);
    for (int c = 0; st == CS_OK && c < l->nd; c++)
        st = l->pct ? cs_table_set(t, row, l->c_p + c, "%.2f", 100.0 * x->p[c])
                    : cs_columns_set_number(t, row, l->c_p + c, x->p[c], true, 6);
    return st;
}

cs_status cs_units_table(const cs_units *u, const cs_unit_result *res, const cs_units_grid *g,
                         cs_format fmt, const char *title, cs_table *t)
{
    layout l = {.pct = fmt != CS_FORMAT_CSV};
    l.none = l.pct ? "-" : "";
    for (int i = 0; i < u->n; i++) {
        const cs_units_mapping *m = u->unit[i].map;
        /* A characteristic with a `when` is a column only where a unit
         * carries it (t9a.ini: charge_speed or advance_rate, as the edition). */
        for (int k = 0; k < m->n_chars; k++)
            if (m->when_param[k] < 0 || value_of(&u->unit[i], m->chars[k].param))
                add_name(&l.params, m->chars[k].param);
        for (int k = 0; k < u->unit[i].n_values; k++)
            add_name(&l.params, m->rs->params[u->unit[i].value[k].param].key);
        for (int k = 0; k < m->n_metrics; k++)
            add_name(&l.metrics, m->metric[k]);
        l.any_unknown = l.any_unknown || !u->unit[i].has_points;
        l.has_type = l.has_type || m->type[0] != '\0';
        l.has_models = l.has_models || u->unit[i].models > 0;
    }
    l.nd = cs_units_grid_count(g);
    l.c_params = 5 + l.has_type + l.has_models;
    l.c_tail = l.c_params + l.params.n;
    l.c_metrics = l.c_tail + 5;
    l.c_p = l.c_metrics + l.metrics.n;
    l.ncols = l.c_p + l.nd;
    cs_status st = headers(t, &l, u, g, title);
    for (int r = 0; st == CS_OK && r < u->n; r++)
        st = unit_row(t, &l, &u->unit[r], &res[r]);
    return st;
}
