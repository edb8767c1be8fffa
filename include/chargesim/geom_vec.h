/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_GEOM_VEC_H
#define CHARGESIM_GEOM_VEC_H
/* The value types of the geometry (geom.h includes every geometry header):
 * points, segments, convex polygons, unit rectangles, facings, corners and
 * formations, with the conventions every geometry function follows.
 *
 * Conventions (used by every ruleset and by scenario.h):
 *   - Distances in inches, angles in degrees at the interface.
 *   - The table is the x/y plane seen from above, x to the right, y away
 *     from the viewer. Angles are counter-clockwise (to the left) positive.
 *   - A facing angle of 0 points along +y; facing f points along
 *     fwd = (-sin f, cos f), and the unit's right-hand side is
 *     right = (cos f, sin f). In the head-on layout the charger faces 0 and
 *     the target 180.
 *   - "Touching" is tested with the tolerance CS_GEOM_EPS (inches): two
 *     shapes closer than that are in contact; overlaps smaller than that are
 *     not overlaps. Comparisons of angles use CS_GEOM_EPS in degrees. */
#include <stdbool.h>

#define CS_GEOM_EPS      1e-9
#define CS_POLY_MAX      12 /* vertices of a cs_poly */
#define CS_LOS_MAX_BLOCK 8  /* blockers one line-of-sight query considers */

typedef struct cs_vec2 {
    double x, y;
} cs_vec2;

/* A segment from a to b. */
typedef struct cs_seg {
    cs_vec2 a, b;
} cs_seg;

/* A convex polygon, vertices counter-clockwise, n in 3..CS_POLY_MAX.
 * Terrain that is not convex is given as several convex pieces. */
typedef struct cs_poly {
    int n;
    cs_vec2 v[CS_POLY_MAX];
} cs_poly;

/* A unit's footprint. Build it with cs_geom_rect (or call
 * cs_geom_rect_update after changing a field): fwd and right cache the
 * facing's trigonometry so the hot path never calls sin/cos. */
typedef struct cs_rect {
    cs_vec2 c;      /* centre */
    double width;   /* frontage: length of the front and rear edges, > 0 */
    double depth;   /* length of the flank edges, > 0 */
    double facing;  /* degrees; the direction the front edge faces */
    cs_vec2 fwd;    /* cached unit vector of `facing` */
    cs_vec2 right;  /* cached unit vector to the unit's right: fwd turned -90 */
} cs_rect;

/* The four facings (edges) of a unit, and equally its four arcs. */
typedef enum cs_facing {
    CS_FRONT = 0,
    CS_LEFT = 1,
    CS_RIGHT = 2,
    CS_REAR = 3,
} cs_facing;

/* Corners, in clockwise order seen from above. */
typedef enum cs_corner {
    CS_CORNER_FL = 0, /* front left */
    CS_CORNER_FR = 1, /* front right */
    CS_CORNER_RR = 2, /* rear right */
    CS_CORNER_RL = 3, /* rear left */
} cs_corner;

/* Models in ranks and files inside a unit's rectangle, for counting models
 * in contact. The rectangle's width is split into `files` equal columns and
 * its depth into ranks = ceil(models / files) equal rows, so the model
 * spacing is width/files by depth/ranks whatever the nominal base size. A
 * last rank with fewer than `files` models is centred (assumption: the
 * rules let the owner place it; centring is the neutral choice), so its
 * models touch the rear edge but only reach a flank when the rank is full. */
typedef struct cs_formation {
    int files;  /* models per rank, >= 1 */
    int models; /* >= 1; files * ranks for full ranks */
} cs_formation;

#endif
