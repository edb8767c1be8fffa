/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_CMPREPORT_H
#define CHARGESIM_CMPREPORT_H
/* The table of a paired comparison (chargesim compare, include/chargesim/
 * compare.h). CSV: the swept keys, trials, p_success_a, p_success_b, delta,
 * delta_lo, delta_hi, then p_<outcome>_a, _b, _delta, _delta_lo, _delta_hi
 * per outcome, method (probabilities as proportions). md and tex: the swept
 * keys, trials, A and B in %, delta and its interval in percentage points,
 * and a note naming A, B, the method, trials, seed and confidence. */
#include <stddef.h>

#include "chargesim/compare.h"
#include "chargesim/table.h"

/* b_desc: the --b overrides as the user wrote them, for the note. */
cs_status cs_cmpreport_table(const cs_cmp_result *r, const char *b_desc, cs_format fmt,
                            cs_table *out);
/* The note under the md and tex table: A, B (b_desc), the method, trials,
 * seed and confidence, in one sentence; delta's unit is percentage points
 * when pp (md, tex), else the CSV's proportion (the web page's table). */
void cs_cmpreport_note(const cs_cmp_result *r, const char *b_desc, bool pp, char *buf,
                       size_t cap);
/* --pivot ROW:COL: delta of p_success (csv: a proportion; md/tex:
 * percentage points) with ROW's values as rows and COL's as columns; the
 * experiment must sweep exactly those two keys (CS_EINPUT otherwise). */
cs_status cs_cmpreport_pivot(const cs_cmp_result *r, const char *row, const char *col,
                                  const char *b_desc, cs_format fmt, cs_table *out,
                                  cs_error *err);
/* What cs_cmpreport_pivot would refuse, from the experiment alone,
 * so --pivot is checked before the first trial runs. */
cs_status cs_cmpreport_pivot_check(const cs_experiment *e, const char *row,
                                        const char *col, cs_error *err);

#endif
