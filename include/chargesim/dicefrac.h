/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_DICEFRAC_H
#define CHARGESIM_DICEFRAC_H
/* The exact distribution of a dice expression (dice.h) as fractions, for
 * the p_fraction column of `chargesim dice --exact` (issue 52): each
 * P(X = v) as "numerator/denominator" in lowest terms, computed with
 * integers (GMP) and never from the double. It counts the outcomes the way
 * cs_dice_exact weighs them (src/core/dice.c: the same faces, re-rolls,
 * explosions and keep/drop), each weight an integer over a common
 * denominator, so 1/216 is 1/216 however many dice there are; core stays
 * free of GMP (scripts/layers.sh), which lives only in this file.
 *
 * Two limits keep it to what is quick to compute and readable to print:
 * CS_DICEFRAC_WORK big-integer multiply-adds for the whole distribution,
 * else no fraction at all (CS_ELIMIT), and CS_DICEFRAC_MAX_DIGITS decimal
 * digits for a numerator or a denominator in lowest terms, else that
 * value's fraction is left out (its cell empty). Memory: the arrays of
 * weights are this file's (CS_ENOMEM when refused); GMP allocates its
 * numbers itself and, as it documents, aborts when memory runs out, which
 * the work limit keeps to a few megabytes. */
#include <stdbool.h>
#include <stddef.h>

#include "chargesim/dice.h"
#include "chargesim/status.h"

#define CS_DICEFRAC_WORK       50000000.0
#define CS_DICEFRAC_MAX_DIGITS 200

/* Opaque: the integer weights and their denominator. */
typedef struct cs_dicefrac cs_dicefrac;

/* The fractions of d's totals into *out (the caller frees it with
 * cs_dicefrac_free). CS_ELIMIT when it would take more than
 * CS_DICEFRAC_WORK multiply-adds or cs_dice_exact refuses d; CS_ENOMEM. */
cs_status cs_dicefrac_new(const cs_dice *d, cs_dicefrac **out);

/* P(X = v) as "n/d" in lowest terms ("0" and "1" as such) into buf (cap >=
 * 2 * CS_DICEFRAC_MAX_DIGITS + 2); false, buf "", when n or d has more than
 * CS_DICEFRAC_MAX_DIGITS digits. A v outside the totals gives "0". */
bool cs_dicefrac_text(const cs_dicefrac *f, int v, char *buf, size_t cap);

void cs_dicefrac_free(cs_dicefrac *f);

#endif
