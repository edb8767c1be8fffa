/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_GEOM_SIGHT_H
#define CHARGESIM_GEOM_SIGHT_H
/* A unit's arcs, its field of view and line of sight (src/core/geom_sight.c). */
#include "chargesim/geom_vec.h"

/* ---- arcs (docs/rules/README.md, units as rectangles) ------------------- */

/* The arc of r holding point p. The arcs are bounded by four rays, one from
 * each corner, pointing outward at 135 degrees to both edges meeting there
 * (45 degrees off the unit's forward or backward direction); a point on a
 * boundary ray belongs to the flank arc (docs/rules/README.md). A point inside r (or on
 * its boundary) is given the arc of its nearest edge, ties to the flank,
 * then front before rear. */
cs_facing cs_geom_arc_of_point(const cs_rect *r, cs_vec2 p);

/* The exact area of `other` in each arc of r (Sutherland-Hodgman clipping
 * of the rectangle against the arc wedges). */
typedef struct cs_arc_share {
    double area[4];     /* indexed by cs_facing */
    double overlap;     /* area of `other` inside r itself (0 unless they overlap);
                           area[0..3] + overlap = other's area */
    cs_facing majority; /* the arc with the largest area */
    bool tie;           /* the two largest areas are equal within
                           CS_GEOM_EPS * other's area: the rules let the
                           charger choose between `majority` and `tie_with` */
    cs_facing tie_with; /* the runner-up arc (meaningful when tie) */
} cs_arc_share;

/* The arc of r holding the majority of other's area (ASOIAF and SOVL:
 * "located" by majority of the tray). On a tie, `majority` is the arc that
 * comes first in cs_facing order and `tie_with` the other one. */
void cs_geom_arc_share(const cs_rect *r, const cs_rect *other, cs_arc_share *out);

/* ---- line of sight ------------------------------------------------------ */

/* The field of view of a unit: sight lines start on its front edge and
 * deviate at most arc/2 degrees from its forward direction (T9A Line of
 * Sight: "at most 45 degrees", arc = 90). The region they sweep is bounded
 * by the front edge and two rays from the front corners turned arc/2
 * outward from forward, i.e. at (180 - arc)/2 degrees to the front edge
 * line; SOVL's los_arc = 90 is rays at 45 degrees from both front corners.
 * arc is in (0, 180]. */

/* True when p lies in the field of view (closed: boundary rays and the
 * front edge itself included). */
bool cs_geom_in_fov(const cs_rect *viewer, double arc, cs_vec2 p);

/* True when some part of `target` of positive area lies in the field of
 * view (blockers ignored). */
bool cs_geom_rect_in_fov(const cs_rect *viewer, double arc, const cs_rect *target);

/* True when segment s passes through the interior of convex polygon p
 * (grazing a vertex or running along an edge does not block). The simple
 * SOVL reading: the range line, front-edge centre to target-side centre,
 * blocked by terrain. */
bool cs_geom_seg_crosses_poly(cs_seg s, const cs_poly *p);

/* Line of sight in the any-part reading (T9A Line of Sight; SOVL's strict
 * option): true when some straight line from a point of the viewer's front
 * edge to a point of `target`, within the field of view `arc` as above,
 * crosses the interior of none of the n_block convex blockers (terrain
 * pieces and other units as cs_poly; at most CS_LOS_MAX_BLOCK). Exact: a
 * free sight line exists iff one exists through two of the critical points
 * (front-edge ends, target corners, blocker vertices) or through one of them
 * at the field-of-view limit, and all those candidates are tried.
 * Assumption: no blocker overlaps the viewer's front edge or the target. */
bool cs_geom_los(const cs_rect *viewer, double arc, const cs_rect *target,
                 const cs_poly *block, int n_block);

#endif
