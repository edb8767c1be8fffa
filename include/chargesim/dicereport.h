/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_DICEREPORT_H
#define CHARGESIM_DICEREPORT_H
/* The table of `chargesim dice`: the distribution of a dice expression
 * (dice.h), exact or sampled, with its columns defined in columns.h and its
 * refusals worded here, so the command line and the web edition show the
 * same table and the same messages.
 *   exact:   value, p, p_at_least, p_at_most (CSV: whole, the shortest
 *            decimal that reads back as the double), and in CSV only
 *            p_fraction (dicefrac.h: in lowest terms, from integers)
 *   sampled: value, p, p_at_least, p_at_most, count, ci_low, ci_high,
 *            ci_low_at_least, ci_high_at_least, ci_low_at_most,
 *            ci_high_at_most (Wilson intervals; CSV: %.6f)
 * md and tex give percentages with 4 decimals ("p %"), a title (the
 * expression) and a note saying how the numbers were obtained. */
#include <stdbool.h>
#include <stdint.h>

#include "chargesim/dice.h"
#include "chargesim/error.h"
#include "chargesim/table.h"

/* Parses expr into *d; CS_EINPUT with the message the command line prints:
 * "'EXPR': column N: what", then the expression and a caret under column N. */
cs_status cs_dicereport_parse(const char *expr, cs_dice *d, cs_error *err);

/* Trials `chargesim dice --trials` takes at most. */
#define CS_DICE_MAX_TRIALS 1000000000000ULL

/* The options' combination: --exact and --trials N exclude each other, and
 * sampling_only (an option meaningful only when sampling, "--seed", or
 * NULL) needs --trials. CS_OK, or CS_EINPUT with the refusal. */
cs_status cs_dicereport_options(bool exact, uint64_t trials, const char *sampling_only,
                                cs_error *err);

/* The exact distribution of d (expr as the user wrote it). A refusal of
 * cs_dice_exact says to sample instead. */
cs_status cs_dicereport_exact(const char *expr, const cs_dice *d, cs_format fmt, cs_table *t,
                              cs_error *err);

/* `trials` rolls of d from seed (dicesim.h: cs_dicesim_counts, on `threads`
 * threads; the counts do not depend on them), with intervals at
 * `confidence`. */
cs_status cs_dicereport_sampled(const char *expr, const cs_dice *d, uint64_t trials,
                                uint64_t seed, int threads, double confidence, cs_format fmt,
                                cs_table *t, cs_error *err);

#endif
