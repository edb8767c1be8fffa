/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_GEOM_MOVE_H
#define CHARGESIM_GEOM_MOVE_H
/* The moves of a unit: pivots, wheels, straight moves and the straight
 * advance up to the first obstacle (src/core/geom_move.c). */
#include "chargesim/geom_vec.h"

/* ---- moves -------------------------------------------------------------- */

/* r pivoted about its centre by `turn` degrees (positive = to the left). */
cs_rect cs_geom_pivot(const cs_rect *r, double turn);

/* r wheeled by `turn` degrees: rotated forward about a front corner, the
 * front-left one when turning left (turn > 0), the front-right one when
 * turning right (turn < 0). |turn| <= 90 for a wheel (T9A, Snaking Forward
 * Move: "up to 90 degrees"). */
cs_rect cs_geom_wheel(const cs_rect *r, double turn);

/* T9A distance of a wheel: how far the outer front corner moves in the
 * unit's original straight-forward direction, width * sin|turn|. */
double cs_geom_wheel_cost(double width, double turn);

/* The arc length the outer front corner travels: width * |turn| (radians). */
double cs_geom_wheel_arc(double width, double turn);

/* r moved `dist` inches straight forward. */
cs_rect cs_geom_forward(const cs_rect *r, double dist);

/* One obstacle of a straight advance: a convex polygon and the clearance
 * the mover must keep from it (0: move into contact, as a charger with its
 * target; 1: stop 1" short, ASOIAF and T9A unit spacing). */
typedef struct cs_obstacle {
    cs_poly poly;
    double gap;
} cs_obstacle;

typedef struct cs_advance {
    double dist;  /* distance travelled, 0 <= dist <= max_dist */
    int hit;      /* index of the obstacle that stopped the move, -1 if the
                     whole max_dist was travelled */
} cs_advance;

/* Moves r straight forward up to max_dist, stopping at the first point
 * where it would come closer than obstacle i's gap to obstacle i (exactly
 * at that gap). An obstacle already closer than its gap only forbids moving
 * closer still. Ties between obstacles go to the lowest index. Exact
 * (vertex-edge and vertex-vertex events of the two convex outlines). */
cs_advance cs_geom_advance(const cs_rect *r, double max_dist,
                           const cs_obstacle *obs, int n_obs);

#endif
