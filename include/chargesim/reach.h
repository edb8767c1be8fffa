/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_REACH_H
#define CHARGESIM_REACH_H
/* "Does this range reach this distance?" decided in one place (issue 15.4).
 *
 * Distances are measured on the table with a tape, in inches, and users write
 * them as decimals (8.3"). Binary floating point cannot hold 8.3 or 1.3
 * exactly, so 1.3 + 7 >= 8.3 may come out false. A millionth of an inch is
 * far below anything a tape can tell apart, so two lengths within
 * CS_REACH_TOL of each other are equal: a range reaches a distance when
 * range >= distance - CS_REACH_TOL. Every ruleset, in its exact and its
 * sampled path, and the unit tables decide through these two helpers; no
 * code compares a range with a distance by a bare >= on doubles. */
#include <math.h>
#include <stdbool.h>

#define CS_REACH_TOL 1e-6 /* inches: lengths closer than this are equal */

/* True when `range` covers `distance` (both in inches). */
static inline bool cs_reaches(double range, double distance)
{
    return range >= distance - CS_REACH_TOL;
}

/* The least whole roll r with cs_reaches(r, need): ceil(need - tol). A
 * need of 4.0000000001 (8.3 - 4.3 in binary) needs 4, not 5. */
static inline double cs_reach_min_roll(double need)
{
    return ceil(need - CS_REACH_TOL);
}

#endif
