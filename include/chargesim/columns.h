/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_COLUMNS_H
#define CHARGESIM_COLUMNS_H
/* The columns of the tables chargesim writes, defined once: each column's
 * name, alignment, datatype, one-line description, label (a player's
 * words for it, short: "chance to charge", "reach 75%", "12″"), kind and
 * unit. A table's producer (report.h, cmpreport.h, dicereport.h, and
 * unitsrc.h's units table) names each of its columns here, and
 * the description travels with the table (cs_table_describe), so the CSVW
 * schema (csvw.h) reads it off the table instead of guessing a column's
 * meaning from its name.
 *
 * The summary of a run (one row per sweep point) is defined whole here:
 * which columns it has, in which order, and how each cell's number is
 * written. The CSV, Markdown and LaTeX of the command line, its CSVW
 * schema and the web edition's table all come from this one definition. */
#include <stdbool.h>
#include <stdint.h>

#include "chargesim/result.h"
#include "chargesim/table.h"

/* Sets cell (row, c) of t to the number x as a CSV writes it (issue 52):
 * computed exactly (exact), the shortest text that reads back as x itself
 * (parse.h, cs_parse_shortest), so no digit of an exact value is lost;
 * else, an estimate, with `sampled_decimals` places (6 for a probability,
 * whose interval is far wider than that). Markdown, LaTeX and the page
 * round for display and do not come here. */
cs_status cs_columns_set_number(cs_table *t, int row, int c, double x, bool exact,
                                int sampled_decimals);

/* Sets column c of t to the fixed column `name`: its header (`header`, or
 * the name when NULL), alignment, datatype, description, label, kind and
 * unit. The fixed columns: trials, successes, p_success, ci_low, ci_high,
 * method (every table of a run), x, y, p_cannot_stand and its interval
 * (maps), p_success_a, p_success_b, delta, delta_lo, delta_hi (compare;
 * delta_interval, md and tex), metric, value, count, p (--dist),
 * p_at_least, p_at_most and their intervals, p_fraction (dice),
 * max_ci_halfwidth_pct (pivots), success (the --success set), and the
 * units table's catalogue, name, ruleset, points, base, type, models,
 * reach_50, reach_75, reach_90, plus1_speed, points_per_inch_75.
 * Any other name is a programming error (CS_EINPUT). */
cs_status cs_columns_fixed(cs_table *t, int c, const char *name, const char *header);

/* The values parameter d accepts, in one line into buf, as `chargesim
 * rules` and the web edition's form show them: "a|b|c" (choices, polygon
 * kinds), "lo..hi" (real, int), "true|false"; "" for the others. */
void cs_columns_accepted(const cs_param_def *d, char *buf, size_t cap);

/* key in a player's words (its underscores as blanks: "units block
 * sight"), the label of a parameter's column and of its field on the page;
 * into buf, which it returns. */
const char *cs_columns_words(const char *key, char *buf, size_t cap);

/* Column c is parameter i of rs: header its key, datatype its type, and a
 * swept key (t->swept): every table gives a parameter a column only where
 * the experiment sweeps it. */
cs_status cs_columns_param(cs_table *t, int c, const cs_ruleset *rs, int i);

/* Column c is KEY_label, the [labels] label of swept parameter i's value. */
cs_status cs_columns_label(cs_table *t, int c, const cs_ruleset *rs, int i);

/* Which number of an outcome a column holds. */
typedef enum cs_columns_est {
    CS_COLUMNS_P,       /* p_<outcome>: the estimate */
    CS_COLUMNS_CI_LOW,  /* ci_low_<outcome> */
    CS_COLUMNS_CI_HIGH, /* ci_high_<outcome> */
} cs_columns_est;

/* Column c is outcome o of rs (its probability or an end of its interval);
 * the header is `header`, or the CSV name when NULL. */
cs_status cs_columns_outcome(cs_table *t, int c, const cs_ruleset *rs, int o,
                             cs_columns_est which, const char *header);

/* Column c is mean_<metric> of metric m of rs. */
cs_status cs_columns_mean(cs_table *t, int c, const cs_ruleset *rs, int m);

/* Column c of a comparison (compare.h): for outcome o, or p_success when
 * o < 0, which = 0 variant A, 1 variant B, 2 their difference B - A,
 * 3 and 4 the ends of its paired interval (p_success_a ... delta_hi,
 * p_<outcome>_a ... p_<outcome>_delta_hi). */
cs_status cs_columns_paired(cs_table *t, int c, const cs_ruleset *rs, int o, int which);

/* The units table's columns (unitsrc.h: cs_units_table) besides the
 * fixed ones (cs_columns_fixed: catalogue, name, ruleset, points, base,
 * type, models, reach_50, reach_75, reach_90, plus1_speed,
 * points_per_inch_75). Column c is parameter d, each unit's own value (not
 * a swept key); mean_<metric> of metric d, measured just beyond base
 * contact; p_<D>, p_success with the target d inches away. */
cs_status cs_columns_unit_param(cs_table *t, int c, const cs_param_def *d);
cs_status cs_columns_unit_mean(cs_table *t, int c, const cs_metric_def *d);
cs_status cs_columns_unit_distance(cs_table *t, int c, double d);

/* Column c is dice's `value`: a total of expr. */
cs_status cs_columns_total(cs_table *t, int c, const char *expr);

/* Column c is a pivot's cell column (a value of the column key): header,
 * kind, datatype, label and description as its pivot words them. */
cs_status cs_columns_cell(cs_table *t, int c, const char *header, cs_colkind kind,
                          cs_datatype type, const char *label, const char *desc);

/* Names the confidence level in the labels of t's interval ends ("lower
 * bound (95%)"), once the table's columns are all set. */
void cs_columns_level(cs_table *t, double confidence);

/* The summary's columns, in order. */
typedef enum cs_summary_kind {
    CS_SUM_SWEEP,         /* index: sweep position; the key's value as written */
    CS_SUM_LABEL,         /* index: sweep position; its [labels] label */
    CS_SUM_TRIALS,
    CS_SUM_SUCCESSES,     /* mc only; empty otherwise */
    CS_SUM_P_SUCCESS,
    CS_SUM_CI_LOW,
    CS_SUM_CI_HIGH,
    CS_SUM_P_OUTCOME,     /* index: outcome */
    CS_SUM_MEAN,          /* index: metric; empty where never measured */
    CS_SUM_CI_LOW_OUTCOME,  /* index: outcome; CSV only */
    CS_SUM_CI_HIGH_OUTCOME, /* index: outcome; CSV only */
    CS_SUM_METHOD,
    CS_SUM_SUCCESS,       /* CSV with --success only: the outcomes counted, joined by + */
} cs_summary_kind;

typedef struct cs_summary_col {
    cs_summary_kind kind;
    int index;
} cs_summary_col;

#define CS_SUMMARY_MAX_COLS (2 * CS_MAX_PARAMS + 8 + 3 * CS_MAX_OUTCOMES + CS_MAX_METRICS)

/* The columns of r's summary in format fmt: the swept keys (each with its
 * KEY_label column when it has [labels]), trials, successes, p_success,
 * ci_low, ci_high, p_<outcome>..., mean_<metric>..., (CSV only)
 * ci_low_<outcome> and ci_high_<outcome> for each outcome, method, and
 * (CSV with --success) success. Fills col (CS_SUMMARY_MAX_COLS entries)
 * and returns how many. */
int cs_columns_summary(const cs_run_result *r, cs_format fmt, cs_summary_col *col);

/* Column c of t as summary column col: header (md and tex mark
 * percentages " %"), alignment, datatype, description. */
cs_status cs_columns_summary_head(cs_table *t, int c, const cs_run_result *r, cs_format fmt,
                                  cs_summary_col col);

/* The cell of point k in summary column col, written into (row, c) of t:
 * CSV gives probabilities as proportions and means whole under the exact
 * method (cs_columns_set_number), else with 6 and 4 decimals; md and tex
 * percentages and means with 2. */
cs_status cs_columns_summary_cell(cs_table *t, int row, int c, const cs_run_result *r,
                                  uint64_t k, cs_format fmt, cs_summary_col col);

/* The outcomes p_success counts when --success changed them, joined by
 * '+' into buf; NULL for the ruleset's own set (the output then names
 * none, so default output keeps its bytes). */
const char *cs_columns_custom_success(const cs_run_result *r, char *buf, size_t cap);

#endif
