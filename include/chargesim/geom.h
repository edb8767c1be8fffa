/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_GEOM_H
#define CHARGESIM_GEOM_H
/* Plane geometry of rank-and-file units: rectangles with a facing, their
 * arcs, distances, line of sight and the moves a charge makes. Pure: no
 * allocation, no globals, no I/O; every function is a value computation.
 * One header per concept, this one including them all; the conventions
 * (units, angles, facings, the tolerance CS_GEOM_EPS) are in geom_vec.h. */
#include "chargesim/geom_vec.h"
#include "chargesim/geom_shape.h"
#include "chargesim/geom_dist.h"
#include "chargesim/geom_sight.h"
#include "chargesim/geom_move.h"
#include "chargesim/geom_snake.h"
#include "chargesim/geom_align.h"

#endif
