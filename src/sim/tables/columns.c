/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The columns of chargesim's tables, defined once; see include/chargesim/columns.h.
 * Every description here is what the CSVW schema of a CSV says of its column. */
#include "chargesim/columns.h"

#include <stdio.h>
#include <string.h>

#include "chargesim/parse.h"
#include "chargesim/success.h"

/* The inch mark in labels (U+2033 DOUBLE PRIME): 12″. */
#define INCH "\u2033"

/* The columns whose meaning does not depend on the ruleset: the CSV name,
 * datatype, alignment, label (a player's words: the page and the bindings
 * show it) and description (the CSVW schema's). The units table's columns
 * (unitsrc.h: cs_units_table) are here too, from catalogue on. */
static const struct fixed {
    const char *name;
    cs_datatype type;
    bool right;
    const char *label;
    const char *desc;
} fixed[] = {
    {"p_success_a", CS_DT_NUMBER, true, "chance to charge (A)", "p_success of variant A (the experiment with its --set overrides)"},
    {"p_success_b", CS_DT_NUMBER, true, "chance to charge (B)", "p_success of variant B (A with the --b overrides), same random numbers"},
    {"delta", CS_DT_NUMBER, true, "difference (B - A)", "p_success_b - p_success_a, on common random numbers"},
    {"delta_lo", CS_DT_NUMBER, true, "difference, lower bound", "lower end of the paired confidence interval of delta"},
    {"delta_hi", CS_DT_NUMBER, true, "difference, upper bound", "upper end of the paired confidence interval of delta"},
    {"delta_interval", CS_DT_STRING, true, "difference, interval", "the paired confidence interval of delta, [delta_lo, delta_hi] (md and tex: in percentage points)"},
    {"x", CS_DT_NUMBER, true, "across", "the target's front-edge centre across the table, inches (charger at 0)"},
    {"y", CS_DT_NUMBER, true, "ahead", "the target's front-edge centre ahead of the charger, inches"},
    {"trials", CS_DT_INTEGER, true, "trials", "trials (mc) or sampled layouts (conditional, rqmc) behind the row; empty for exact, which runs none"},
    {"successes", CS_DT_INTEGER, true, "charges made", "trials that ended in base contact with the unit charged (mc only)"},
    {"p_success", CS_DT_NUMBER, true, "chance to charge", "probability that the charger ends in base contact with the unit it charged"},
    {"ci_low", CS_DT_NUMBER, true, "lower bound", "lower end of the confidence interval of the row's probability"},
    {"ci_high", CS_DT_NUMBER, true, "upper bound", "upper end of the confidence interval of the row's probability"},
    {"method", CS_DT_STRING, false, "method", "how the numbers were obtained: exact, conditional, rqmc or mc "
                                    "(a map's cell where the target cannot stand: none)"},
    {"p_cannot_stand", CS_DT_NUMBER, true, "target cannot stand", "share of the drawn placements where the target cannot "
                                           "stand (left out of the cell's odds); 1 where it never can"},
    {"ci_low_cannot_stand", CS_DT_NUMBER, true, "cannot stand, lower bound", "lower end of the confidence interval of p_cannot_stand"},
    {"ci_high_cannot_stand", CS_DT_NUMBER, true, "cannot stand, upper bound", "upper end of the confidence interval of p_cannot_stand"},
    {"metric", CS_DT_STRING, false, "quantity", "`outcome`, or the measured quantity whose distribution the row gives"},
    {"value", CS_DT_STRING, true, "value", "an outcome name or a value of the quantity (<x, >x: beyond its range)"},
    {"count", CS_DT_INTEGER, true, "count", "trials with this value (sampled rows only)"},
    {"p", CS_DT_NUMBER, true, "chance", "share of the trials (or rolls) with this value"},
    {"p_at_least", CS_DT_NUMBER, true, "chance of at least", "probability of a total of at least this value"},
    {"p_at_most", CS_DT_NUMBER, true, "chance of at most", "probability of a total of at most this value"},
    {"p_fraction", CS_DT_STRING, true, "chance as a fraction", "p as a fraction in lowest terms, computed with integers "
                                       "(exact dice); empty where its numerator or denominator "
                                       "has over 200 digits, and in every row when computing "
                                       "them would take over 5e7 big-integer multiply-adds"},
    {"ci_low_at_least", CS_DT_NUMBER, true, "at least, lower bound", "lower end of the Wilson interval of p_at_least"},
    {"ci_high_at_least", CS_DT_NUMBER, true, "at least, upper bound", "upper end of the Wilson interval of p_at_least"},
    {"ci_low_at_most", CS_DT_NUMBER, true, "at most, lower bound", "lower end of the Wilson interval of p_at_most"},
    {"ci_high_at_most", CS_DT_NUMBER, true, "at most, upper bound", "upper end of the Wilson interval of p_at_most"},
    {"max_ci_halfwidth_pct", CS_DT_NUMBER, true, "widest margin (\u00b1 points)", "the row's widest interval half-width, in percentage points"},
    {"success", CS_DT_STRING, false, "counted as a charge", "the outcomes p_success counts (--success), joined by +"},
    /* The units table (unitsrc.h), one row per unit. */
    {"catalogue", CS_DT_STRING, false, "catalogue", "the catalogue (or CSV file) the unit is in"},
    {"name", CS_DT_STRING, false, "unit", "the unit; a unit that may choose a mount has a row per choice: "
                                          "NAME (on MOUNT), NAME (on foot)"},
    {"ruleset", CS_DT_STRING, false, "ruleset", "the ruleset its charge is played by"},
    {"points", CS_DT_NUMBER, true, "points", "points of the smallest legal unit (with this mount); empty when "
                                             "the data gives none (never 0)"},
    {"base", CS_DT_STRING, false, "base", "base size as the data gives it"},
    {"type", CS_DT_STRING, false, "type", "the unit's type as the data gives it (The Old World: Troop Type); "
                                          "empty for a mount choice the data gives no type"},
    {"models", CS_DT_NUMBER, true, "models", "a roster's unit: the number of models in it, its mount aside"},
    {"reach_50", CS_DT_NUMBER, true, "reach 50%", "the farthest distance (in) charged at least half the time "
                                                  "(50%), by exact inversion of the range distribution; empty when "
                                                  "below 50% just beyond base contact"},
    {"reach_75", CS_DT_NUMBER, true, "reach 75%", "the farthest distance (in) charged 3 times in 4 (75%), as reach_50"},
    {"reach_90", CS_DT_NUMBER, true, "reach 90%", "the farthest distance (in) charged 9 times in 10 (90%), as reach_50"},
    {"plus1_speed", CS_DT_NUMBER, true, "+1" INCH " speed", "inches of reach_75 one more inch of speed buys (reach_75 at "
                                                            "speed + 1 less reach_75)"},
    {"points_per_inch_75", CS_DT_NUMBER, true, "points per inch", "points / reach_75; empty when the points are unknown"},
};

/* The unit of a column whose numbers are probabilities (or differences of
 * them): proportions from 0 to 1 in CSV, percentages in md and tex; the
 * page shows them as percentages by this unit (never by a name). The
 * unit is the page's and the bindings', never written in the CSV nor its
 * metadata. */
#define PROBABILITY "probability"

/* What each fixed column holds, and its unit (those not listed are
 * probabilities or ends of their intervals). */
static void fixed_meta(cs_table *t, int c, const char *name)
{
    static const struct {
        const char *name;
        cs_colkind kind;
        const char *unit;
    } meta[] = {
        {"x", CS_COL_KEY, "in"}, {"y", CS_COL_KEY, "in"}, {"metric", CS_COL_KEY, NULL},
        {"value", CS_COL_KEY, NULL}, {"trials", CS_COL_COUNT, NULL},
        {"successes", CS_COL_COUNT, NULL}, {"count", CS_COL_COUNT, NULL},
        {"method", CS_COL_TEXT, NULL}, {"success", CS_COL_TEXT, NULL},
        {"p_fraction", CS_COL_TEXT, NULL}, {"delta_interval", CS_COL_INTERVAL, NULL},
        {"max_ci_halfwidth_pct", CS_COL_INTERVAL, "percentage points"},
        /* A unit's row is about the unit: its name, points and models are
         * what the data gives (keys); the rest of what it says, texts. */
        {"catalogue", CS_COL_TEXT, NULL}, {"name", CS_COL_KEY, NULL},
        {"ruleset", CS_COL_TEXT, NULL}, {"points", CS_COL_KEY, "points"},
        {"base", CS_COL_TEXT, NULL}, {"type", CS_COL_TEXT, NULL}, {"models", CS_COL_KEY, NULL},
        {"reach_50", CS_COL_VALUE, "in"}, {"reach_75", CS_COL_VALUE, "in"},
        {"reach_90", CS_COL_VALUE, "in"}, {"plus1_speed", CS_COL_VALUE, "in"},
        {"points_per_inch_75", CS_COL_VALUE, "points per inch"},
    };
    cs_colkind kind = strncmp(name, "ci_", 3) == 0 || strncmp(name, "delta_", 6) == 0
                          ? CS_COL_INTERVAL
                          : CS_COL_VALUE;
    const char *unit = PROBABILITY;
    for (size_t i = 0; i < sizeof meta / sizeof meta[0]; i++)
        if (strcmp(meta[i].name, name) == 0) {
            kind = meta[i].kind;
            unit = meta[i].unit;
        }
    cs_table_column_meta(t, c, kind, unit);
}

cs_status cs_columns_fixed(cs_table *t, int c, const char *name, const char *header)
{
    for (size_t i = 0; i < sizeof fixed / sizeof fixed[0]; i++) {
        if (strcmp(name, fixed[i].name) != 0)
            continue;
        cs_status st = cs_table_set_header(t, c, header ? header : name, fixed[i].right);
        fixed_meta(t, c, name);
        if (st == CS_OK)
            st = cs_table_label(t, c, "%s", fixed[i].label);
        return st == CS_OK ? cs_table_describe(t, c, fixed[i].type, "%s", fixed[i].desc) : st;
    }
    return CS_EINPUT;
}

/* A key as a player reads it: its words without underscores ("advance
 * rate"), into buf. */
const char *cs_columns_words(const char *key, char *buf, size_t cap)
{
    snprintf(buf, cap, "%s", key);
    for (char *p = buf; *p; p++)
        if (*p == '_')
            *p = ' ';
    return buf;
}

void cs_columns_accepted(const cs_param_def *d, char *buf, size_t cap)
{
    buf[0] = '\0';
    if (d->type == CS_PARAM_CHOICE || (d->type == CS_PARAM_POLYGON && d->choices)) {
        for (int c = 0; d->choices[c]; c++) {
            size_t u = strlen(buf);
            snprintf(buf + u, cap - u, "%s%s", c ? "|" : "", d->choices[c]);
        }
    } else if (d->type == CS_PARAM_REAL || d->type == CS_PARAM_INT) {
        snprintf(buf, cap, "%g..%g", d->min, d->max);
    } else if (d->type == CS_PARAM_BOOL) {
        snprintf(buf, cap, "true|false");
    }
}

cs_status cs_columns_param(cs_table *t, int c, const cs_ruleset *rs, int i)
{
    const cs_param_def *d = &rs->params[i];
    cs_datatype type = d->type == CS_PARAM_INT    ? CS_DT_INTEGER
                       : d->type == CS_PARAM_REAL ? CS_DT_NUMBER
                                                  : CS_DT_STRING;
    cs_status st = cs_table_set_header(t, c, d->key, true);
    if (st != CS_OK)
        return st;
    t->swept[c] = true;
    cs_table_column_meta(t, c, CS_COL_KEY, d->unit);
    char w[128];
    cs_table_label(t, c, "%s", cs_columns_words(d->key, w, sizeof w));
    return cs_table_describe(t, c, type, "parameter %s%s%s%s: %s", d->key, d->unit[0] ? " (" : "",
                             d->unit, d->unit[0] ? ")" : "", d->help);
}

cs_status cs_columns_label(cs_table *t, int c, const cs_ruleset *rs, int i)
{
    char name[160];
    snprintf(name, sizeof name, "%s_label", rs->params[i].key);
    cs_status st = cs_table_set_header(t, c, name, false);
    if (st != CS_OK)
        return st;
    cs_table_column_meta(t, c, CS_COL_TEXT, NULL);
    char w[128];
    cs_table_label(t, c, "%s, named", cs_columns_words(rs->params[i].key, w, sizeof w));
    return cs_table_describe(t, c, CS_DT_STRING, "the label ([labels]) of %s's value",
                             rs->params[i].key);
}

cs_status cs_columns_outcome(cs_table *t, int c, const cs_ruleset *rs, int o,
                             cs_columns_est which, const char *header)
{
    static const char *const prefix[] = {"p_", "ci_low_", "ci_high_"};
    char name[128];
    snprintf(name, sizeof name, "%s%s", prefix[which], rs->outcomes[o]);
    cs_status st = cs_table_set_header(t, c, header ? header : name, true);
    if (st != CS_OK)
        return st;
    cs_table_column_meta(t, c, which == CS_COLUMNS_P ? CS_COL_VALUE : CS_COL_INTERVAL,
                         PROBABILITY);
    static const char *const end[] = {"", ", lower bound", ", upper bound"};
    char w[128];
    cs_table_label(t, c, "%s%s", cs_columns_words(rs->outcomes[o], w, sizeof w), end[which]);
    if (which == CS_COLUMNS_P)
        return cs_table_describe(t, c, CS_DT_NUMBER, "probability of the outcome %s%s",
                                 rs->outcomes[o],
                                 rs->success_mask & (1u << o) ? " (a success)" : "");
    return cs_table_describe(t, c, CS_DT_NUMBER, "%s end of the confidence interval of p_%s",
                             which == CS_COLUMNS_CI_LOW ? "lower" : "upper", rs->outcomes[o]);
}

/* Column c of t as metric d's mean: its name mean_NAME, kind, unit and
 * label (the description is the caller's: where the mean was measured). */
static cs_status mean_head(cs_table *t, int c, const cs_metric_def *d)
{
    char name[128];
    snprintf(name, sizeof name, "mean_%s", d->name);
    cs_status st = cs_table_set_header(t, c, name, true);
    if (st != CS_OK)
        return st;
    cs_table_column_meta(t, c, CS_COL_VALUE, d->unit);
    char w[128];
    return cs_table_label(t, c, "mean %s", cs_columns_words(d->name, w, sizeof w));
}

cs_status cs_columns_mean(cs_table *t, int c, const cs_ruleset *rs, int m)
{
    const cs_metric_def *d = &rs->metrics[m];
    cs_status st = mean_head(t, c, d);
    if (st != CS_OK)
        return st;
    return cs_table_describe(t, c, CS_DT_NUMBER,
                             "mean %s%s%s%s over the trials where it was measured: %s", d->name,
                             d->unit[0] ? " (" : "", d->unit, d->unit[0] ? ")" : "", d->help);
}

cs_status cs_columns_paired(cs_table *t, int c, const cs_ruleset *rs, int o, int which)
{
    static const char *const succ[] = {"p_success_a", "p_success_b", "delta", "delta_lo",
                                       "delta_hi"};
    static const char *const suffix[] = {"_a", "_b", "_delta", "_delta_lo", "_delta_hi"};
    if (o < 0)
        return cs_columns_fixed(t, c, succ[which], NULL);
    const char *out = rs->outcomes[o];
    char name[160];
    snprintf(name, sizeof name, "p_%s%s", out, suffix[which]);
    cs_status st = cs_table_set_header(t, c, name, true);
    if (st != CS_OK)
        return st;
    cs_table_column_meta(t, c, which < 3 ? CS_COL_VALUE : CS_COL_INTERVAL, PROBABILITY);
    static const char *const what[] = {" (A)", " (B)", ", difference (B - A)",
                                       ", difference, lower bound", ", difference, upper bound"};
    char w[128];
    cs_table_label(t, c, "%s%s", cs_columns_words(out, w, sizeof w), what[which]);
    switch (which) {
    case 0:
        return cs_table_describe(t, c, CS_DT_NUMBER, "p_%s of variant A", out);
    case 1:
        return cs_table_describe(t, c, CS_DT_NUMBER,
                                 "p_%s of variant B (A with the --b overrides), same random "
                                 "numbers", out);
    case 2:
        return cs_table_describe(t, c, CS_DT_NUMBER, "p_%s_b - p_%s_a, on common random numbers",
                                 out, out);
    default:
        return cs_table_describe(t, c, CS_DT_NUMBER,
                                 "%s end of the paired confidence interval of p_%s_delta",
                                 which == 3 ? "lower" : "upper", out);
    }
}

cs_status cs_columns_unit_param(cs_table *t, int c, const cs_param_def *d)
{
    cs_status st = cs_table_set_header(t, c, d->key, true);
    if (st != CS_OK)
        return st;
    cs_table_column_meta(t, c, CS_COL_KEY, d->unit);
    char w[128];
    cs_table_label(t, c, "%s", cs_columns_words(d->key, w, sizeof w));
    return cs_table_describe(
        t, c, d->type == CS_PARAM_REAL || d->type == CS_PARAM_INT ? CS_DT_NUMBER : CS_DT_STRING,
        "parameter %s%s%s%s, the unit's value: %s", d->key, d->unit[0] ? " (" : "", d->unit,
        d->unit[0] ? ")" : "", d->help);
}

cs_status cs_columns_unit_mean(cs_table *t, int c, const cs_metric_def *d)
{
    cs_status st = mean_head(t, c, d);
    if (st != CS_OK)
        return st;
    return cs_table_describe(t, c, CS_DT_NUMBER,
                             "mean %s%s%s%s: %s; measured just beyond base contact, where every "
                             "roll reaches (a property of the unit, whatever the distances)",
                             d->name, d->unit[0] ? " (" : "", d->unit, d->unit[0] ? ")" : "",
                             d->help);
}

cs_status cs_columns_unit_distance(cs_table *t, int c, double d)
{
    char name[64];
    snprintf(name, sizeof name, "p_%g", d);
    cs_status st = cs_table_set_header(t, c, name, true);
    if (st != CS_OK)
        return st;
    cs_table_column_meta(t, c, CS_COL_VALUE, PROBABILITY);
    cs_table_label(t, c, "%g" INCH, d);
    return cs_table_describe(t, c, CS_DT_NUMBER,
                             "chance to reach a target %g in away, head-on: p_success there (exact)", d);
}

cs_status cs_columns_total(cs_table *t, int c, const char *expr)
{
    cs_status st = cs_table_set_header(t, c, "value", true);
    if (st != CS_OK)
        return st;
    cs_table_column_meta(t, c, CS_COL_KEY, NULL);
    cs_table_label(t, c, "total");
    return cs_table_describe(t, c, CS_DT_INTEGER, "a total of %s", expr);
}

cs_status cs_columns_cell(cs_table *t, int c, const char *header, cs_colkind kind,
                          cs_datatype type, const char *label, const char *desc)
{
    cs_status st = cs_table_set_header(t, c, header, true);
    if (st != CS_OK)
        return st;
    cs_table_column_meta(t, c, kind, NULL);
    cs_table_label(t, c, "%s", label);
    return cs_table_describe(t, c, type, "%s", desc);
}

void cs_columns_level(cs_table *t, double confidence)
{
    static const char bound[] = " bound";
    for (int c = 0; c < t->ncols && cs_table_status(t) == CS_OK; c++) {
        const char *l = t->label[c];
        size_t n = l ? strlen(l) : 0;
        if (t->meta[c].kind != CS_COL_INTERVAL || n < sizeof bound - 1 ||
            strcmp(l + n - (sizeof bound - 1), bound) != 0)
            continue;
        char was[256];
        snprintf(was, sizeof was, "%s", l);
        cs_table_label(t, c, "%s (%g%%)", was, 100.0 * confidence);
    }
}

const char *cs_columns_custom_success(const cs_run_result *r, char *buf, size_t cap)
{
    if (!r->success_mask || r->success_mask == r->exp->rs->success_mask)
        return NULL;
    cs_success_names(r->exp->rs, r->success_mask, buf, cap);
    for (char *c = buf; *c; c++)
        if (*c == ',')
            *c = '+';
    return buf;
}

int cs_columns_summary(const cs_run_result *r, cs_format fmt, cs_summary_col *col)
{
    const cs_experiment *e = r->exp;
    const cs_ruleset *rs = e->rs;
    bool csv = fmt == CS_FORMAT_CSV;
    char succ[512];
    int n = 0;
    for (int s = 0; s < e->n_sweep; s++) {
        col[n++] = (cs_summary_col){CS_SUM_SWEEP, s};
        if (e->label[e->sweep[s]].n > 0)
            col[n++] = (cs_summary_col){CS_SUM_LABEL, s};
    }
    static const cs_summary_kind lead[] = {CS_SUM_TRIALS, CS_SUM_SUCCESSES, CS_SUM_P_SUCCESS,
                                           CS_SUM_CI_LOW, CS_SUM_CI_HIGH};
    for (int i = 0; i < 5; i++)
        col[n++] = (cs_summary_col){lead[i], 0};
    for (int o = 0; o < rs->n_outcomes; o++)
        col[n++] = (cs_summary_col){CS_SUM_P_OUTCOME, o};
    for (int m = 0; m < rs->n_metrics; m++)
        col[n++] = (cs_summary_col){CS_SUM_MEAN, m};
    /* CSV also carries each outcome's interval; md and tex state the widest
     * of them in the note instead, to stay readable. */
    for (int o = 0; csv && o < rs->n_outcomes; o++) {
        col[n++] = (cs_summary_col){CS_SUM_CI_LOW_OUTCOME, o};
        col[n++] = (cs_summary_col){CS_SUM_CI_HIGH_OUTCOME, o};
    }
    col[n++] = (cs_summary_col){CS_SUM_METHOD, 0};
    if (csv && cs_columns_custom_success(r, succ, sizeof succ))
        col[n++] = (cs_summary_col){CS_SUM_SUCCESS, 0};
    return n;
}

cs_status cs_columns_summary_head(cs_table *t, int c, const cs_run_result *r, cs_format fmt,
                                  cs_summary_col col)
{
    const cs_experiment *e = r->exp;
    const cs_ruleset *rs = e->rs;
    bool pct = fmt != CS_FORMAT_CSV;
    char name[160];
    switch (col.kind) {
    case CS_SUM_SWEEP:
        return cs_columns_param(t, c, rs, e->sweep[col.index]);
    case CS_SUM_LABEL:
        return cs_columns_label(t, c, rs, e->sweep[col.index]);
    case CS_SUM_TRIALS:
        return cs_columns_fixed(t, c, "trials", NULL);
    case CS_SUM_SUCCESSES:
        return cs_columns_fixed(t, c, "successes", NULL);
    case CS_SUM_P_SUCCESS:
        return cs_columns_fixed(t, c, "p_success", pct ? "p_success %" : NULL);
    case CS_SUM_CI_LOW:
        return cs_columns_fixed(t, c, "ci_low", pct ? "ci_low %" : NULL);
    case CS_SUM_CI_HIGH:
        return cs_columns_fixed(t, c, "ci_high", pct ? "ci_high %" : NULL);
    case CS_SUM_P_OUTCOME:
        snprintf(name, sizeof name, "p_%s %%", rs->outcomes[col.index]);
        return cs_columns_outcome(t, c, rs, col.index, CS_COLUMNS_P, pct ? name : NULL);
    case CS_SUM_MEAN:
        return cs_columns_mean(t, c, rs, col.index);
    case CS_SUM_CI_LOW_OUTCOME:
        return cs_columns_outcome(t, c, rs, col.index, CS_COLUMNS_CI_LOW, NULL);
    case CS_SUM_CI_HIGH_OUTCOME:
        return cs_columns_outcome(t, c, rs, col.index, CS_COLUMNS_CI_HIGH, NULL);
    case CS_SUM_METHOD:
        return cs_columns_fixed(t, c, "method", NULL);
    case CS_SUM_SUCCESS:
        return cs_columns_fixed(t, c, "success", NULL);
    }
    return CS_EINPUT;
}

/* The text of swept parameter s at point k (its value as the user wrote it). */
static const char *point_text(const cs_experiment *e, uint64_t k, int s)
{
    int choice[CS_MAX_PARAMS];
    cs_experiment_point_choices(e, k, choice);
    return e->param[e->sweep[s]].text[choice[e->sweep[s]]];
}

cs_status cs_columns_set_number(cs_table *t, int row, int c, double x, bool exact,
                                int sampled_decimals)
{
    if (!exact)
        return cs_table_set(t, row, c, "%.*f", sampled_decimals, x);
    char buf[CS_PARSE_SHORTEST_CAP];
    cs_parse_shortest(buf, sizeof buf, x);
    return cs_table_set(t, row, c, "%s", buf);
}

/* A probability: a proportion in CSV (whole when exact, else 6 decimals),
 * else a percentage with 2. */
static cs_status set_prob(cs_table *t, int row, int c, double p, cs_format fmt, bool exact)
{
    if (fmt == CS_FORMAT_CSV)
        return cs_columns_set_number(t, row, c, p, exact, 6);
    return cs_table_set(t, row, c, "%.2f", 100.0 * p);
}

cs_status cs_columns_summary_cell(cs_table *t, int row, int c, const cs_run_result *r,
                                  uint64_t k, cs_format fmt, cs_summary_col col)
{
    const cs_experiment *e = r->exp;
    const cs_point_result *pr = &r->point[k];
    int choice[CS_MAX_PARAMS], i = col.index;
    char succ[512];
    const bool exact = r->method == CS_METHOD_EXACT;
    switch (col.kind) {
    case CS_SUM_SWEEP:
        return cs_table_set(t, row, c, "%s", point_text(e, k, i));
    case CS_SUM_LABEL:
        cs_experiment_point_choices(e, k, choice);
        return cs_table_set(t, row, c, "%s",
                            cs_experiment_label(e, e->sweep[i], choice[e->sweep[i]]));
    case CS_SUM_TRIALS:
        /* An exact row enumerates the dice: it ran no trial, and claims none. */
        return r->method == CS_METHOD_EXACT
                   ? CS_OK
                   : cs_table_set(t, row, c, "%llu", (unsigned long long)pr->trials);
    case CS_SUM_SUCCESSES:
        return r->method == CS_METHOD_MC
                   ? cs_table_set(t, row, c, "%llu", (unsigned long long)pr->successes)
                   : CS_OK;
    case CS_SUM_P_SUCCESS:
        return set_prob(t, row, c, pr->p_success, fmt, exact);
    case CS_SUM_CI_LOW:
        return set_prob(t, row, c, pr->ci_low, fmt, exact);
    case CS_SUM_CI_HIGH:
        return set_prob(t, row, c, pr->ci_high, fmt, exact);
    case CS_SUM_P_OUTCOME:
        return set_prob(t, row, c, pr->p_outcome[i], fmt, exact);
    case CS_SUM_MEAN:
        if (pr->mean[i] != pr->mean[i])
            return CS_OK; /* never measured: empty */
        if (fmt == CS_FORMAT_CSV) /* a mean without an exact form was sampled */
            return cs_columns_set_number(t, row, c, pr->mean[i], exact && !pr->mean_sampled[i], 4);
        return cs_table_set(t, row, c, "%.2f", pr->mean[i]);
    case CS_SUM_CI_LOW_OUTCOME:
        return set_prob(t, row, c, pr->outcome_low[i], fmt, exact);
    case CS_SUM_CI_HIGH_OUTCOME:
        return set_prob(t, row, c, pr->outcome_high[i], fmt, exact);
    case CS_SUM_METHOD:
        return cs_table_set(t, row, c, "%s", cs_method_name(r->method));
    case CS_SUM_SUCCESS:
        return cs_table_set(t, row, c, "%s", cs_columns_custom_success(r, succ, sizeof succ));
    }
    return CS_EINPUT;
}
