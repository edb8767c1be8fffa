/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_REPORT_H
#define CHARGESIM_REPORT_H
/* Turning a run's results into tables: the summary (one row per sweep
 * point), the long-form distributions (--dist), pivoted probability
 * tables (--pivot ROW:COL) for publishing, and a threat map's cells. The
 * tables hold text as the CSV writes it (columns.h defines each column);
 * both front ends show them: the command line through tablewrite.h, the
 * web edition as they are. */
#include "chargesim/error.h"
#include "chargesim/map.h"
#include "chargesim/result.h"
#include "chargesim/table.h"

/* The summary: swept keys, trials, successes, p_success, ci_low, ci_high,
 * p_<outcome>..., mean_<metric>..., (CSV only) ci_low_<outcome> and
 * ci_high_<outcome> for each outcome, method. For CSV probabilities are
 * proportions, whole when exact (columns.h: cs_columns_set_number), else
 * with 6 decimals; for md and tex they are percentages with 2. */
cs_status cs_report_summary(const cs_run_result *r, cs_format fmt, cs_table *out);

/* Long form: swept keys, metric, value, count, p, ci_low, ci_high, method. The metric
 * `outcome` lists every outcome; other metrics their histogram bins (p is
 * the share among trials where the metric was measured). */
cs_status cs_report_dist(const cs_run_result *r, cs_table *out);

/* Pivot: rows the values of swept key `row`, columns those of `col`, cells
 * p_success in percent (2 decimals). Any other swept keys give one table each
 * (their values in the title) for md and tex, and leading columns for csv,
 * whose rows end with method and max_ci_halfwidth_pct (md and tex say it in
 * the note),
 * so *n tables come back in *out (free each, then the array). */
cs_status cs_report_pivot(const cs_run_result *r, const char *row, const char *col,
                          cs_format fmt, cs_table **out, int *n, cs_error *err);

/* The same with any reported column of the summary in the cells
 * (--pivot ROW:COL:COLUMN): p_success, ci_low, ci_high, p_<outcome>,
 * ci_low_<outcome>, ci_high_<outcome> (in percent, 2 decimals),
 * mean_<metric>, trials or successes. An unknown column is CS_EINPUT with
 * the accepted names. */
cs_status cs_report_pivot_column(const cs_run_result *r, const char *row, const char *col,
                                 const char *column, cs_format fmt, cs_table **out, int *n,
                                 cs_error *err);

/* What cs_report_pivot_column would refuse, found from the experiment
 * alone, so --pivot is checked before the first trial runs. */
cs_status cs_report_pivot_check(const cs_experiment *e, const char *row, const char *col,
                                const char *column, cs_error *err);

/* The CSV of a threat map (map.h), one row per cell, y outer: x, y,
 * trials, p_success, ci_low, ci_high, p_<outcome>..., p_cannot_stand and
 * its interval, method. A cell where the target cannot stand at all has
 * trials 0, empty probabilities and method none. */
cs_status cs_report_map(const cs_map_result *m, cs_table *t);

/* The warning of a --precision run some of whose `what` ("points",
 * "cells") stopped at the trial cap: "warning: some ... (--max-trials)". */
void cs_report_precision_warning(const char *what, uint64_t max_trials, char *buf, size_t cap);

/* A map's one-line caption (the picture's second line, the web page's
 * note): ruleset, what p_success counts, method, seed, then the values the
 * experiment set (not the defaults, not the map's own), cut with "..." past
 * about 140 characters. */
void cs_report_map_caption(const cs_map_result *m, char *buf, size_t cap);

/* One sentence saying how the numbers were obtained: "exact", or the
 * method, trials and the widest interval half-width. */
void cs_report_method_note(const cs_run_result *r, char *buf, int cap);

#endif
