/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Units, stage 4 of 5: analyse (see unitsrc.h for the stages). The per-unit
 * analysis of a list-builder's table (issue 9): every number is
 * exact, from the ruleset's outcome_probabilities at its fixed head-on
 * layout (issue 4's `exact` method), never sampled. See units.h. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/experiment.h"
#include "chargesim/grow.h"
#include "chargesim/reach.h"
#include "chargesim/units.h"

#include "chargesim/sched.h"
#include "chargesim/stream.h"

const double cs_units_reach_levels[CS_UNITS_N_REACH] = {0.50, 0.75, 0.90};

void cs_units_free(cs_units *u)
{
    free(u->unit);
    free(u->note);
    free(u->input);
    *u = (cs_units){0};
}

cs_status cs_units_add_input(cs_units *u, const char *path, const char *sha256)
{
    for (int i = 0; i < u->n_inputs; i++)
        if (strcmp(u->input[i].path, path) == 0)
            return CS_OK;
    cs_units_input *q = cs_grow(u->input, u->n_inputs, &u->cap_inputs, sizeof *q, 8);
    if (!q)
        return CS_ENOMEM;
    u->input = q;
    cs_units_input *in = &u->input[u->n_inputs++];
    *in = (cs_units_input){.no_namespace = false};
    snprintf(in->path, sizeof in->path, "%s", path);
    snprintf(in->sha256, sizeof in->sha256, "%s", sha256);
    return CS_OK;
}

void cs_units_input_no_namespace(cs_units *u, const char *path)
{
    for (int i = 0; i < u->n_inputs; i++)
        if (strcmp(u->input[i].path, path) == 0)
            u->input[i].no_namespace = true;
}

/* ---- distance grids ---------------------------------------------------- */

/* Reads all of [a, b) as a finite number. */
static bool number_in(const char *a, const char *b, double *v)
{
    char buf[64];
    size_t n = (size_t)(b - a);
    if (n == 0 || n >= sizeof buf)
        return false;
    memcpy(buf, a, n);
    buf[n] = '\0';
    char *end;
    errno = 0;
    double x = strtod(buf, &end);
    if (*end != '\0' || errno != 0 || !isfinite(x))
        return false;
    *v = x;
    return true;
}

cs_status cs_units_grid_parse(const char *text, cs_units_grid *g, cs_error *err)
{
    /* Split at `..` and `:` first: strtod would read "1..14" as 1. then .14. */
    const char *end = text + strlen(text);
    const char *dots = strstr(text, "..");
    const char *colon = dots ? strchr(dots + 2, ':') : NULL;
    double lo, hi, step = 1.0;
    if (!number_in(text, dots ? dots : end, &lo) ||
        (dots && !number_in(dots + 2, colon ? colon : end, &hi)))
        return cs_error_set(err, CS_EINPUT, "`%s`: expected a..b or a..b:step (inches)", text);
    if (!dots)
        hi = lo;
    if (colon && (!number_in(colon + 1, end, &step) || !(step > 0.0)))
        return cs_error_set(err, CS_EINPUT, "`%s`: expected a positive step after `:`", text);
    if (lo < 0.0 || hi < lo)
        return cs_error_set(err, CS_EINPUT, "`%s`: expected 0 <= a <= b", text);
    if ((hi - lo) / step + 1.0 > (double)CS_UNITS_MAX_GRID)
        return cs_error_set(err, CS_ELIMIT, "`%s`: more than %d distances", text,
                            CS_UNITS_MAX_GRID);
    *g = (cs_units_grid){lo, hi, step};
    return CS_OK;
}

int cs_units_grid_count(const cs_units_grid *g)
{
    /* The 1e-9 keeps hi itself when (hi - lo) / step rounds just below a
     * whole number (0.1 steps). */
    return (int)floor((g->hi - g->lo) / g->step + 1e-9) + 1;
}

double cs_units_grid_at(const cs_units_grid *g, int i)
{
    /* From i, not by accumulation, so every distance is one rounding away. */
    return g->lo + (double)i * g->step;
}

/* ---- the unit's parameters --------------------------------------------- */

bool cs_units_same_value(const char *a, const char *b)
{
    char *ea, *eb;
    double x = strtod(a, &ea), y = strtod(b, &eb);
    if (ea != a && eb != b) {
        while (*ea == ' ')
            ea++;
        while (*eb == ' ')
            eb++;
        if (*ea == '\0' && *eb == '\0')
            return x == y;
    }
    while (*a == ' ')
        a++;
    while (*b == ' ')
        b++;
    size_t na = strlen(a), nb = strlen(b);
    while (na > 0 && a[na - 1] == ' ')
        na--;
    while (nb > 0 && b[nb - 1] == ' ')
        nb--;
    return na == nb && strncmp(a, b, na) == 0;
}

/* A value `val` for parameter `key`, from `origin`, against the mapping's
 * [locked] values: the mapping's data holds no meaning under another one
 * (T9A 2nd-edition catalogues give Advance Rate, no Charge Speed: edition
 * 3 would print numbers that ignore every unit's profile). CS_EINPUT with
 * the mapping's reason; the table is never printed under a heading its
 * numbers do not have. */
static cs_status check_locked(const cs_units_mapping *m, const char *key, const char *val,
                              const char *origin, cs_error *err)
{
    for (int i = 0; i < m->n_fixed; i++)
        if (m->fixed_why[i][0] != '\0' && strcmp(m->fixed_key[i], key) == 0 &&
            !cs_units_same_value(val, m->fixed_val[i]))
            return cs_error_set(err, CS_EINPUT, "%s %s = %s: mapping %s fixes %s = %s: %s", origin,
                                key, val, m->path, key, m->fixed_val[i], m->fixed_why[i]);
    return CS_OK;
}


/* Reads the unit's parameters through the experiment model, so a unit's
 * values, the mapping's fixed ones and --set read exactly as in an
 * experiment file, and every error names where the value came from. The
 * distance is fixed at the grid's first value, the method exact: finish
 * then refuses a layout that is not fixed. `e` is initialised by the caller. */
static cs_status unit_params(const cs_unit *u, const cs_units_sets *sets, const cs_units_grid *g,
                             cs_experiment *e, cs_error *err)
{
    const cs_units_mapping *m = u->map;
    const cs_ruleset *rs = m->rs;
    char lo[64];
    snprintf(lo, sizeof lo, "%.10g", g->lo);
    cs_status st = cs_experiment_set(e, "experiment", "ruleset", rs->name, m->path, 0, err);
    if (st == CS_OK)
        st = cs_experiment_set(e, "experiment", "method", "exact", "units", 0, err);
    for (int i = 0; st == CS_OK && i < m->n_fixed; i++)
        st = cs_experiment_set(e, "params", m->fixed_key[i], m->fixed_val[i], m->path, 0, err);
    for (int i = 0; st == CS_OK && i < sets->n; i++)
        if (cs_ruleset_param_index(rs, sets->key[i]) >= 0)
            st = cs_experiment_set(e, "params", sets->key[i], sets->val[i], "--set", 0, err);
    for (int i = 0; st == CS_OK && i < u->n_values; i++) {
        char where[CS_UNITS_PATH + 32];
        snprintf(where, sizeof where, "%s:%d:", u->file, u->line);
        const char *key = rs->params[u->value[i].param].key;
        st = check_locked(m, key, u->value[i].text, where, err);
        if (st == CS_OK)
            st = cs_experiment_set(e, "params", key, u->value[i].text, u->file, u->line, err);
    }
    if (st == CS_OK)
        st = cs_experiment_set(e, "params", rs->params[m->distance_param].key, lo, "--distance", 0,
                               err);
    if (st == CS_OK)
        st = cs_experiment_finish(e, err);
    if (st == CS_OK && e->n_points != 1)
        st = cs_error_set(err, CS_EINPUT,
                          "--set: a unit table takes one value per parameter, not a sweep");
    if (st != CS_OK) {
        /* Say which unit the message is about; it names the value's origin
         * (the unit's file:line, the mapping, --set) itself. */
        char msg[sizeof err->msg];
        snprintf(msg, sizeof msg, "%s", err->msg);
        cs_error_set(err, st, "unit `%s`: %s", u->name, msg);
    }
    return st;
}

/* ---- one exact evaluation ---------------------------------------------- */

typedef struct evaluator {
    const cs_unit *u;
    const cs_ruleset *rs;
    int distance;
    cs_params params;
    void *ctx, *layout;
    cs_probs probs;
} evaluator;

/* p_success at distance d with the evaluator's parameters; probs keeps the
 * whole answer for the metrics. */
static cs_status evaluate(evaluator *e, double d, double *p, cs_error *err)
{
    const cs_ruleset *rs = e->rs;
    const cs_param_def *dd = &rs->params[e->distance];
    if (d < dd->min || d > dd->max)
        return cs_error_set(err, CS_EINPUT, "unit `%s` (%s:%d): %s = %g: expected %g to %g",
                            e->u->name, e->u->file, e->u->line, dd->key, d, dd->min, dd->max);
    e->params.num[e->distance] = d;
    cs_diag diag = {0};
    cs_status st = rs->prepare(&e->params, e->ctx, &diag);
    /* A drawn layout was refused at the first distance (unit_params: method
     * exact); refused here too should another distance make it drawn. */
    if (st == CS_OK && rs->layout_is_random && rs->layout_is_random(e->ctx)) {
        st = CS_EINPUT;
        diag.key = NULL;
        diag.what = "the layout is drawn at random; the unit table needs the fixed head-on layout";
    }
    if (st != CS_OK)
        return cs_error_set(err, st, "unit `%s` (%s:%d) at %s = %g: %s%s%s", e->u->name, e->u->file,
                            e->u->line, dd->key, d, diag.key ? diag.key : "", diag.key ? ": " : "",
                            diag.what ? diag.what : "invalid parameters");
    /* The layout is a function of the parameters alone here, so the stream
     * is never read; it is seeded only so that it is defined. */
    cs_rng rng;
    cs_stream_unread(&rng);
    rs->draw_layout(e->ctx, e->params.num, &rng, e->layout);
    *p = cs_ruleset_eval_layout(rs, e->ctx, e->layout, rs->success_mask, &e->probs);
    return CS_OK;
}

/* E[metric | defined] from what the exact evaluation gave: its listed
 * distribution when there is one, else its mean and P(defined); false if
 * nothing (cs_ruleset_eval_layout leaves mean and pdef NAN where the ruleset
 * gives nothing). */
static bool metric_mean(const cs_probs *pr, int i, double *out)
{
    if (pr->n[i] > 0) {
        double s = 0.0, def = 0.0;
        for (int k = 0; k < pr->n[i]; k++) {
            s += pr->value[i][k] * pr->prob[i][k];
            def += pr->prob[i][k];
        }
        if (!(def > 0.0))
            return false;
        *out = s / def;
        return true;
    }
    if (isnan(pr->mean[i]) || !(pr->pdef[i] > 0.0))
        return false;
    *out = pr->mean[i] / pr->pdef[i];
    return true;
}

/* ---- reach: the range distribution inverted ---------------------------- */

/* The nearest distance reach looks at: just beyond base contact (two tape
 * tolerances), since units in contact are engaged and some games forbid
 * their charge (issue 15.2), and never below the parameter's own minimum. */
#define LEVEL_TOL 1e-12

static double reach_floor(const cs_param_def *dd)
{
    return fmax(dd->min, 2.0 * CS_REACH_TOL);
}

/* The farthest distance the unit reaches with probability >= q, a property
 * of the unit, never of the table's distances (issue 15.6). At the fixed
 * head-on layout p_success(d) = P(range reaches d) (reach.h): a step
 * function of d, non-increasing, constant between the atoms of the range
 * distribution and dropping just past each atom a (at a + CS_REACH_TOL).
 * So {d : p(d) >= q} is an interval from the floor to about a_q, where
 * a_q is the atom with P(range >= a_q) >= q > P(range > a_q): the
 * q-quantile of the range, counted from the top. Bisection on d closes on
 * that edge down to adjacent doubles (about 70 evaluations, whatever the
 * dice: no step scan, no cap), and the edge is the atom. Absent when p < q just beyond contact; the distance
 * parameter's maximum when the odds never fall below q within it. */
static cs_status invert(evaluator *e, double q, bool *has, double *reach_at, cs_error *err)
{
    /* A probability within LEVEL_TOL of the level is the level: an exact
     * p_success is a sum of many rounded terms (5d162 sums to 0.5 less
     * 1e-16 where the true value is exactly 1/2), while the atoms next to a
     * level of 50 to 90% differ by far more than that for any dice. */
    q -= LEVEL_TOL;
    const cs_param_def *dd = &e->rs->params[e->distance];
    double lo = reach_floor(dd), hi = dd->max, p;
    cs_status st = evaluate(e, lo, &p, err);
    *has = false;
    if (st != CS_OK || p < q)
        return st;
    *has = true;
    if ((st = evaluate(e, hi, &p, err)) != CS_OK || p >= q) {
        *reach_at = hi;
        return st;
    }
    /* Invariant: p(lo) >= q > p(hi). */
    for (int i = 0; i < 2100; i++) {
        double mid = lo + 0.5 * (hi - lo);
        if (!(mid > lo && mid < hi))
            break;
        if ((st = evaluate(e, mid, &p, err)) != CS_OK)
            return st;
        *(p >= q ? &lo : &hi) = mid;
    }
    /* The edge lies at the atom, or one CS_REACH_TOL beyond it where the
     * ruleset decides through cs_reaches: both round to the same
     * hundred-thousandth of an inch, the grid the reach is given on (any
     * distance written with up to 5 decimals, 8.3 as the double nearest
     * 8.3; n / 1e5 is correctly rounded). */
    const double grid = 1e5;
    *reach_at = round(lo * grid) / grid;
    return CS_OK;
}

static cs_status reach(evaluator *e, cs_unit_result *out, cs_error *err)
{
    cs_status st = CS_OK;
    for (int k = 0; st == CS_OK && k < CS_UNITS_N_REACH; k++)
        st = invert(e, cs_units_reach_levels[k], &out->has_reach[k], &out->reach[k], err);
    if (st == CS_OK)
        return CS_OK;
    /* The distance refused may lie outside --distance: say why it was tried. */
    const cs_param_def *dd = &e->rs->params[e->distance];
    char msg[sizeof err->msg];
    snprintf(msg, sizeof msg, "%s", err->msg);
    return cs_error_set(err, st,
                        "%s (the reach search tries every distance from %g to %g, whatever "
                        "--distance is)",
                        msg, reach_floor(dd), dd->max);
}

/* The speed parameter of the unit: the first of the mapping's list that
 * the unit carries a value for (a t9a CSV row: charge_speed in edition 3,
 * advance_rate in edition 2), else the first; -1 without one. */
static int speed_of(const cs_unit *u)
{
    const cs_units_mapping *m = u->map;
    for (int i = 0; i < m->n_speeds; i++)
        for (int j = 0; j < u->n_values; j++)
            if (u->value[j].param == m->speed_param[i])
                return m->speed_param[i];
    return m->n_speeds > 0 ? m->speed_param[0] : -1;
}

/* +1 speed: how many inches of 75% reach one more inch of the speed
 * parameter buys, reach_75(speed + 1) - reach_75(speed), both by exact
 * inversion, so it is a property of the unit like the reach itself. It is
 * 1 wherever the speed is simply added to the roll (t9a edition 2's
 * 2D6 + Adv, asoiaf's speed + D6, generic's move + dice); less where a
 * declaration limit or the distance parameter's maximum cuts the range.
 * Absent without a speed parameter, when speed + 1 is out of its range, or
 * when reach_75 is absent at either speed. */
static cs_status plus_one(evaluator *e, cs_unit_result *out, cs_error *err)
{
    int s = speed_of(e->u);
    if (s < 0 || !out->has_reach[1])
        return CS_OK;
    const cs_param_def *sd = &e->rs->params[s];
    double base = e->params.num[s], r;
    if (base + 1.0 > sd->max)
        return CS_OK;
    e->params.num[s] = base + 1.0;
    bool has;
    cs_status st = invert(e, cs_units_reach_levels[1], &has, &r, err);
    e->params.num[s] = base;
    if (st == CS_OK && has) {
        out->has_plus1 = true;
        out->plus1 = r - out->reach[1];
    }
    return st;
}

/* The mapping's metrics, a property of the unit like its reach (issue 28:
 * they no longer move with --distance): measured where the charge reaches
 * whatever is rolled, just beyond base contact (the reach search's
 * nearest distance), so they are the means over every roll (asoiaf: a
 * 1 in 6 charges disordered). */
static cs_status metrics(evaluator *e, cs_unit_result *out, cs_error *err)
{
    const cs_units_mapping *m = e->u->map;
    double p;
    cs_status st = evaluate(e, reach_floor(&e->rs->params[e->distance]), &p, err);
    for (int k = 0; st == CS_OK && k < m->n_metrics; k++)
        out->has_metric[k] = metric_mean(&e->probs, m->metric_index[k], &out->metric[k]);
    return st;
}

/* What a unit that may declare a charge gets: p per distance, reach, the
 * metrics, +1 speed, points per inch. */
static cs_status declared(evaluator *e, const cs_units_grid *g, cs_unit_result *out,
                          cs_error *err)
{
    const cs_unit *u = e->u;
    const int n = cs_units_grid_count(g);
    cs_status st = CS_OK;
    for (int i = 0; st == CS_OK && i < n; i++)
        st = evaluate(e, cs_units_grid_at(g, i), &out->p[i], err);
    if (st == CS_OK)
        st = reach(e, out, err);
    if (st == CS_OK && u->complete && u->map->n_metrics > 0)
        st = metrics(e, out, err);
    if (st == CS_OK)
        st = plus_one(e, out, err);
    if (st == CS_OK && u->has_points && out->has_reach[1] && out->reach[1] > 0.0) {
        out->has_ppi = true;
        out->points_per_inch = u->points / out->reach[1];
    }
    return st;
}

cs_status cs_units_analyse(const cs_unit *u, const cs_units_sets *sets, const cs_units_grid *g,
                           cs_unit_result *out, cs_error *err)
{
    const cs_units_mapping *m = u->map;
    const cs_ruleset *rs = m->rs;
    double *p = out->p;
    *out = (cs_unit_result){.p = p};
    if (!rs->outcome_probabilities)
        return cs_error_set(err, CS_EINPUT, "ruleset %s has no exact outcome probabilities",
                            rs->name);
    evaluator *e = calloc(1, sizeof *e);
    if (!e)
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    e->u = u;
    e->rs = rs;
    e->distance = m->distance_param;
    e->ctx = calloc(1, rs->ctx_size ? rs->ctx_size : 1);
    e->layout = calloc(1, rs->layout_size ? rs->layout_size : 1);
    cs_experiment ex;
    cs_experiment_init(&ex, u->file);
    cs_status st = e->ctx && e->layout ? unit_params(u, sets, g, &ex, err)
                                       : cs_error_set(err, CS_ENOMEM, "out of memory");
    if (st == CS_OK) {
        /* Text values in params point into ex, which lives to the end. */
        cs_experiment_point(&ex, 0, &e->params);
        if (m->variant_param >= 0)
            snprintf(out->variant, sizeof out->variant, "%s", ex.param[m->variant_param].raw);
        /* A unit whose rules forbid it to declare a charge never reaches:
         * 0 exactly at every distance, and no reach at any level (its
         * values are still read above, so a bad --set is refused alike). */
        for (int i = 0; u->no_declare && i < cs_units_grid_count(g); i++)
            p[i] = 0.0;
        if (!u->no_declare)
            st = declared(e, g, out, err);
    }
    cs_experiment_free(&ex);
    free(e->ctx);
    free(e->layout);
    free(e);
    return st;
}

cs_status cs_units_check_sets(const cs_units *u, const cs_units_sets *sets, cs_error *err)
{
    for (int s = 0; s < sets->n; s++) {
        bool known = false;
        for (int i = 0; i < u->n; i++) {
            const cs_unit *un = &u->unit[i];
            int k = cs_ruleset_param_index(un->map->rs, sets->key[s]);
            if (k < 0)
                continue;
            known = true;
            cs_status st = check_locked(un->map, sets->key[s], sets->val[s], "--set", err);
            if (st != CS_OK)
                return st;
            if (k == un->map->distance_param)
                return cs_error_set(err, CS_EINPUT,
                                    "--set %s: the table's distance; use --distance", sets->key[s]);
            for (int j = 0; j < un->n_values; j++)
                if (un->value[j].param == k)
                    return cs_error_set(err, CS_EINPUT,
                                        "--set %s: unit `%s` (%s:%d) carries its own %s; --set "
                                        "cannot override a unit's profile",
                                        sets->key[s], un->name, un->file, un->line, sets->key[s]);
        }
        if (!known && u->n > 0)
            return cs_error_set(err, CS_EINPUT,
                                "--set %s: not a parameter of the units' rulesets (see "
                                "`chargesim rules NAME`)",
                                sets->key[s]);
    }
    return CS_OK;
}

cs_status cs_units_analyse_all(const cs_units *u, const cs_units_sets *sets,
                               const cs_units_grid *g, cs_unit_result **res, double **p,
                               cs_error *err)
{
    const int nd = cs_units_grid_count(g);
    size_t rows = (size_t)(u->n > 0 ? u->n : 1);
    *res = calloc(rows, sizeof **res);
    *p = calloc(rows * (size_t)nd, sizeof **p);
    if (!*res || !*p)
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    cs_status st = CS_OK;
    for (int i = 0; st == CS_OK && i < u->n; i++) {
        (*res)[i].p = *p + (size_t)i * (size_t)nd;
        st = cs_units_analyse(&u->unit[i], sets, g, &(*res)[i], err);
    }
    return st;
}
