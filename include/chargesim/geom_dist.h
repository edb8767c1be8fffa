/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_GEOM_DIST_H
#define CHARGESIM_GEOM_DIST_H
/* Distances between points, segments, rectangles and polygons, and the
 * separating-axis overlap test (src/core/geom_dist.c). */
#include "chargesim/geom_vec.h"

/* ---- distances ---------------------------------------------------------- */

double cs_geom_dist_point_seg(cs_vec2 p, cs_seg s);

/* Closest approach between two segments (0 when they touch or cross). */
double cs_geom_dist_seg_seg(cs_seg s, cs_seg t);

/* Closest approach between the boundaries of two rectangles: T9A
 * "distance between units" (closest points). 0 when they touch or overlap. */
double cs_geom_dist_rect_rect(const cs_rect *a, const cs_rect *b);

/* Closest approach between a rectangle and a convex polygon (0 when they
 * touch or overlap). */
double cs_geom_dist_rect_poly(const cs_rect *a, const cs_poly *p);

/* True when the two rectangles overlap by more than CS_GEOM_EPS (touching
 * is not overlapping). Separating axis test. */
bool cs_geom_rects_overlap(const cs_rect *a, const cs_rect *b);

/* SOVL charge range measure: from the centre of a's front edge to the
 * centre of b's facing f. */
double cs_geom_front_to_facing(const cs_rect *a, const cs_rect *b, cs_facing f);

/* True when the convex polygons a and b overlap by more than CS_GEOM_EPS
 * (touching is not overlapping), as cs_geom_rects_overlap: the separating
 * axis test on both outlines' edge normals. */
bool cs_geom_polys_overlap(const cs_poly *a, const cs_poly *b);

#endif
