/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_GEOM_SNAKE_H
#define CHARGESIM_GEOM_SNAKE_H
/* The snaking charge path (src/core/geom_snake.c, geom_snake_cand.c). */
#include "chargesim/geom_vec.h"

/* The snaking charge path (T9A, Charge Move: a single Snaking Forward Move
 * of unlimited distance: initial forward, at most one wheel of up to 90
 * degrees about a front corner, concluding forward) that brings the
 * charger's front edge into contact with the target's facing f first (no
 * other part of either unit touches first). Cheapest means the least T9A
 * distance: forward1 + width * sin|wheel| + forward2. */
typedef struct cs_snake {
    bool found;       /* a path exists */
    double forward1;  /* initial forward move, in (all of a path without a
                         wheel: then forward2 = 0) */
    double wheel;     /* wheel angle, degrees (> 0 left about the front-left
                         corner, < 0 right about the front-right corner) */
    double forward2;  /* concluding forward move, in */
    double cost;      /* T9A distance: forward1 + width*sin|wheel| + forward2 */
    double length;    /* forward1 + width*|wheel| (radians) + forward2: the
                         outer front corner's travelled length */
    cs_rect final;    /* the charger at the first contact */
    cs_vec2 contact;  /* the initial point of contact (on the target facing) */
    int touches;      /* index in `others` of the first unit that the chosen
                         path touches on the way (sweep of the footprint,
                         touching counts), -1 if none */
} cs_snake;

/* Cheapest snaking path for `charger` to the facing f of `target`.
 * Without others it is exact: for a fixed wheel the cost is least at a
 * vertex of the set of contact positions (no initial forward, no concluding
 * forward, or corner on corner), and along each such family the cheapest
 * wheel is an end of the family or a solved stationary point; all of those
 * candidate paths are tried, cheapest first, and the first that reaches the
 * facing before touching the target anywhere else is returned.
 * With others (other enemies: T9A forbids contact with any enemy but the
 * target) the cheapest candidate that touches none of them is returned with
 * touches = -1: a valid path, though a detour hugging a blocker could be a
 * little cheaper. When every candidate touches one, the cheapest is
 * returned with `touches` naming the unit it meets (the ruleset decides: no
 * room, or an interception). found = false when no path reaches the facing
 * (e.g. it is behind the charger). others may be NULL when n_others is 0. */
void cs_geom_snake(const cs_rect *charger, const cs_rect *target, cs_facing f,
                   const cs_rect *others, int n_others, cs_snake *out);

/* True when the footprint of r, moving along the snaking path (forward1,
 * wheel, forward2), touches or overlaps `other` at some point of the path. */
bool cs_geom_snake_sweep_hits(const cs_rect *r, double forward1, double wheel,
                              double forward2, const cs_rect *other);

#endif
