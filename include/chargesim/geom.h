#ifndef CHARGESIM_GEOM_H
#define CHARGESIM_GEOM_H
/* Plane geometry of rank-and-file units: rectangles with a facing, their
 * arcs, distances, line of sight and the moves a charge makes. Pure: no
 * allocation, no globals, no I/O; every function is a value computation.
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

/* ---- construction and features ---------------------------------------- */

/* The rectangle with centre c, frontage width, depth and facing (degrees). */
cs_rect cs_geom_rect(cs_vec2 c, double width, double depth, double facing);

/* The rectangle whose front-edge centre is at p (the head-on layout and
 * distances to the front are stated from there). */
cs_rect cs_geom_rect_front_at(cs_vec2 p, double width, double depth, double facing);

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

/* ---- arcs (RULES.md, Common geometry) ----------------------------------- */

/* The arc of r holding point p. The arcs are bounded by four rays, one from
 * each corner, pointing outward at 135 degrees to both edges meeting there
 * (45 degrees off the unit's forward or backward direction); a point on a
 * boundary ray belongs to the flank arc (RULES.md). A point inside r (or on
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
                           CS_GEOM_EPS * other's area: RULES.md lets the
                           charger choose between `majority` and `tie_with` */
    cs_facing tie_with; /* the runner-up arc (meaningful when tie) */
} cs_arc_share;

/* The arc of r holding the majority of other's area (ASOIAF and SOVL:
 * "located" by majority of the tray). On a tie, `majority` is the arc that
 * comes first in cs_facing order and `tie_with` the other one. */
void cs_geom_arc_share(const cs_rect *r, const cs_rect *other, cs_arc_share *out);

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

/* The align move (T9A, Align Move): the charger is placed with its front
 * edge flush against the target's facing f, still touching the initial
 * contact point, overlapping no unit in `others`, maximising the target's
 * models in contact, then the charger's; among equal placements the one
 * moved least from the charger's contact position. */
typedef struct cs_align {
    bool flush;        /* a flush placement exists (else Unaligned Charges
                          apply: the ruleset decides) */
    cs_rect final;     /* the charger after the align move */
    double overlap;    /* length of front edge on the facing, in */
    int models_target; /* target models in contact (0 without a formation) */
    int models_charger;
} cs_align;

void cs_geom_align(const cs_rect *charger, const cs_formation *charger_models,
                   const cs_rect *target, const cs_formation *target_models,
                   cs_facing f, cs_vec2 contact,
                   const cs_rect *others, int n_others, cs_align *out);

#endif
