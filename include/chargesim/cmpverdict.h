/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_CMPVERDICT_H
#define CHARGESIM_CMPVERDICT_H
/* The verdict of a paired comparison in one sentence (issue 52), which the
 * command line prints under compare's table and the page shows above it,
 * so that a reader need not find delta_lo and delta_hi:
 *   "B reaches more often at 6–10″ (+2.7 to +2.9 points at 8″, 95%); no
 *    difference detected at 4″ and from 14″."
 * The reading is docs/compare.md's "The verdict": a point is B's where the
 * interval of delta (p_success) lies wholly above 0, A's where wholly below,
 * undecided where it holds 0 (exact: delta itself > 0, < 0, or 0); points
 * of one kind in a row of the sweep make one range (past six ranges, a
 * count); the size given is
 * delta's interval at the point of largest |delta| among those that differ
 * (exact: delta itself). */
#include <stddef.h>

#include "chargesim/compare.h"

/* The point's class: +1 B more often, -1 A, 0 no difference detected. */
int cs_cmpverdict_class(const cs_cmp_result *r, uint64_t k);

/* The sentence of r into buf (cap bytes; cut, still a C string, when
 * short: 1024 bytes hold any verdict of a sweep of one key). */
void cs_cmpverdict(const cs_cmp_result *r, char *buf, size_t cap);

#endif
