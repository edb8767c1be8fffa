/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_GEOM_SHAPE_H
#define CHARGESIM_GEOM_SHAPE_H
/* Rectangles and polygons: construction, corners and edges, areas, the
 * convex hull, and the models of a formation along an edge
 * (src/core/geom_shape.c). */
#include "chargesim/geom_vec.h"

/* ---- construction and features ---------------------------------------- */

/* The rectangle with centre c, frontage width, depth and facing (degrees). */
cs_rect cs_geom_rect(cs_vec2 c, double width, double depth, double facing);

/* The rectangle whose front-edge centre is at p (the head-on layout and
 * distances to the front are stated from there). */
cs_rect cs_geom_rect_front_at(cs_vec2 p, double width, double depth, double facing);

/* The facing (degrees, in (-180, 180]) whose forward vector points along v:
 * atan2(-v.x, v.y), from fwd = (-sin f, cos f) (geom_vec.h). */
double cs_geom_facing_of(cs_vec2 v);

/* Recomputes fwd and right from facing (after facing was changed). */
void cs_geom_rect_update(cs_rect *r);

/* Corner k of r (cs_corner order). */
cs_vec2 cs_geom_corner(const cs_rect *r, cs_corner k);

/* All four corners, in cs_corner order (clockwise). */
void cs_geom_corners(const cs_rect *r, cs_vec2 out[4]);

/* The edge of one facing. Orientation, seen from inside the unit looking
 * out through that edge: `a` is the left end, `b` the right end, so for the
 * front a = FL, b = FR; right: a = FR, b = RR; rear: a = RR, b = RL; left:
 * a = RL, b = FL (the boundary traversed clockwise). A unit facing that
 * edge from outside has its front-left corner towards `b`. */
cs_seg cs_geom_edge(const cs_rect *r, cs_facing f);

/* Centre of one facing's edge. */
cs_vec2 cs_geom_edge_centre(const cs_rect *r, cs_facing f);

/* The rectangle as a counter-clockwise cs_poly (4 vertices). */
cs_poly cs_geom_rect_poly(const cs_rect *r);

/* Area of a convex or simple polygon (absolute value of the shoelace sum). */
double cs_geom_poly_area(const cs_poly *p);

/* Convex hull of the n points p (Andrew's monotone chain): writes its
 * vertices counter-clockwise to out, which has room for 2n points, and
 * returns their number (fewer than 3 when the points are collinear). p is
 * reordered (sorted by x, then y). */
int cs_geom_hull(cs_vec2 *p, int n, cs_vec2 *out);

/* How many of the formation's models along facing f of r have a base edge
 * that touches the closed interval [t0, t1] of that edge, where t runs from
 * the edge's `a` end (0) to its `b` end (edge length). Corner-to-corner
 * counts as contact (T9A, Base Contact: bases touching, corners included).
 * Returns 0 when the interval misses the edge. */
int cs_geom_models_on_edge(const cs_rect *r, const cs_formation *fm, cs_facing f,
                           double t0, double t1);

/* Contact between edge fa of a and edge fb of b: when the two edges are
 * collinear within CS_GEOM_EPS and face each other (touching units),
 * returns the length of their overlap (0 for touching at one point) and
 * stores the models of each unit touching the shared part in *na and *nb
 * (either formation may be NULL: its count is then 0). Returns -1 (and
 * zero counts) when the edges are not in flush contact. */
double cs_geom_edge_contact(const cs_rect *a, const cs_formation *fa_models, cs_facing fa,
                            const cs_rect *b, const cs_formation *fb_models, cs_facing fb,
                            int *na, int *nb);

#endif
