/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_GEOM_INTERNAL_H
#define CHARGESIM_GEOM_INTERNAL_H
/* Shared by the geometry files src/core/geom_*.c only (not a public
 * header): the small vector helpers, kept static inline so every file
 * inlines them, the frame and candidate paths of the snaking path, and the
 * few functions one geometry file calls in another (cs_geom_ names, not in
 * any public header). Everything works in a unit's local frame where that
 * helps: u along its right vector, v along its forward vector, origin at
 * its centre. */
#include "chargesim/geom.h"

#include <math.h>
#include <stddef.h>

#define PI 3.14159265358979323846
#define DEG (PI / 180.0)

/* ---- small vector helpers ----------------------------------------------- */

static inline cs_vec2 v2(double x, double y)
{
    cs_vec2 r = { x, y };
    return r;
}
static inline cs_vec2 add(cs_vec2 a, cs_vec2 b) { return v2(a.x + b.x, a.y + b.y); }
static inline cs_vec2 sub(cs_vec2 a, cs_vec2 b) { return v2(a.x - b.x, a.y - b.y); }
static inline cs_vec2 scale(cs_vec2 a, double k) { return v2(a.x * k, a.y * k); }
static inline double dot(cs_vec2 a, cs_vec2 b) { return a.x * b.x + a.y * b.y; }
static inline double cross(cs_vec2 a, cs_vec2 b) { return a.x * b.y - a.y * b.x; }
static inline double len(cs_vec2 a) { return sqrt(dot(a, a)); }
/* a turned 90 degrees counter-clockwise */
static inline cs_vec2 perp(cs_vec2 a) { return v2(-a.y, a.x); }
/* a rotated by the angle whose cosine and sine are c, s (counter-clockwise) */
static inline cs_vec2 rot(cs_vec2 a, double c, double s)
{
    return v2(c * a.x - s * a.y, s * a.x + c * a.y);
}
static inline double dmin(double a, double b) { return a < b ? a : b; }
static inline double dmax(double a, double b) { return a > b ? a : b; }

/* The point at local coordinates (u, v) of r. */
static inline cs_vec2 at(const cs_rect *r, double u, double v)
{
    return add(r->c, add(scale(r->right, u), scale(r->fwd, v)));
}

/* Local coordinates of world point p in r's frame. */
static inline cs_vec2 local(const cs_rect *r, cs_vec2 p)
{
    cs_vec2 d = sub(p, r->c);
    return v2(dot(d, r->right), dot(d, r->fwd));
}

/* Outward unit normal of facing f. */
static inline cs_vec2 edge_normal(const cs_rect *r, cs_facing f)
{
    switch (f) {
    case CS_FRONT: return r->fwd;
    case CS_LEFT: return scale(r->right, -1.0);
    case CS_RIGHT: return r->right;
    case CS_REAR: return scale(r->fwd, -1.0);
    }
    return r->fwd;
}

static inline double edge_length(const cs_rect *r, cs_facing f)
{
    return (f == CS_FRONT || f == CS_REAR) ? r->width : r->depth;
}

static inline double signed_area(const cs_vec2 *v, int n)
{
    double a = 0;
    for (int i = 0, j = n - 1; i < n; j = i++)
        a += cross(v[j], v[i]);
    return 0.5 * a;
}

/* separated() for two rectangles, each given by its centre, the unit
 * vector along its front edge and its half width and half depth: the same
 * four axes, each rectangle's extent along them from its half sizes. */
static inline bool rects_apart(cs_vec2 ca, cs_vec2 ua, double hwa, double hda, cs_vec2 cb, cs_vec2 ub,
                        double hwb, double hdb, double tol)
{
    cs_vec2 dc = sub(cb, ca);
    /* |cos| and |sin| of the angle between them give every cross term */
    double c = fabs(dot(ua, ub)), sn = fabs(cross(ua, ub));
    return fabs(dot(dc, ua)) - hwa - (hwb * c + hdb * sn) >= -tol ||
           fabs(cross(ua, dc)) - hda - (hwb * sn + hdb * c) >= -tol ||
           fabs(dot(dc, ub)) - hwb - (hwa * c + hda * sn) >= -tol ||
           fabs(cross(ub, dc)) - hdb - (hwa * sn + hda * c) >= -tol;
}

/* The squared distance from p to segment s. */
static inline double point_seg_d2(cs_vec2 p, cs_seg s)
{
    cs_vec2 d = sub(s.b, s.a), w = sub(p, s.a);
    double l2 = dot(d, d);
    double t = l2 > 0 ? dot(w, d) / l2 : 0.0;
    if (t < 0)
        t = 0;
    else if (t > 1)
        t = 1;
    cs_vec2 r = sub(w, scale(d, t));
    return dot(r, r);
}

static inline bool segs_cross(cs_seg s, cs_seg t)
{
    cs_vec2 d = sub(s.b, s.a), e = sub(t.b, t.a);
    double den = cross(d, e);
    if (den == 0)
        return false; /* parallel: the endpoint distances decide */
    cs_vec2 w = sub(t.a, s.a);
    double a = cross(w, e) / den, b = cross(w, d) / den;
    return a >= 0 && a <= 1 && b >= 0 && b <= 1;
}

/* cs_geom_dist_seg_seg(s, t) <= tol, from squared distances. */
static inline bool segs_within(cs_seg s, cs_seg t, double tol)
{
    if (segs_cross(s, t))
        return true;
    double t2 = tol * tol;
    return point_seg_d2(s.a, t) <= t2 || point_seg_d2(s.b, t) <= t2 || point_seg_d2(t.a, s) <= t2 ||
           point_seg_d2(t.b, s) <= t2;
}

/* ---- shared between the geometry files ----------------------------------- */

/* The models along facing f of r as cells [x0 + k*step, x0 + (k+1)*step],
 * k = 0..n-1, in the edge's parameter (from its `a` end); returns n
 * (geom_shape.c). */
int cs_geom_edge_cells(const cs_rect *r, const cs_formation *fm, cs_facing f, double *x0,
                       double *step);

/* Separating-axis test of two convex CCW polygons: true when some edge
 * normal separates them by more than -tol (tol > 0: touching counts as
 * separated). The one such test of chargesim (geom_dist.c); rects_apart
 * above is its closed form for two rectangles. */
bool cs_geom_separated(const cs_vec2 *a, int na, const cs_vec2 *b, int nb, double tol);

/* Closest approach between two convex CCW polygons, 0 when they touch or
 * overlap (geom_dist.c). */
double cs_geom_dist_polys(const cs_vec2 *a, int na, const cs_vec2 *b, int nb);

/* The least t >= 0 at which convex polygon a moved by t*d (d a unit
 * vector) comes within g of convex polygon b, approaches only; INFINITY if
 * never (geom_move.c). */
double cs_geom_first_contact(const cs_vec2 *a, int na, cs_vec2 d, const cs_vec2 *b, int nb,
                             double g);

/* ---- the snaking path (geom_move.c, geom_snake.c, geom_snake_cand.c) ---- */

/* The snaking path is solved in the charger's frame: origin at the centre
 * of its front edge, x to its right, y forward, and mirrored (x -> -x) for
 * wheels to the right, so that every wheel is a left wheel about the
 * front-left corner L = (-hw, forward1). A wheel angle th in [0, 90]
 * degrees is carried as its unit vector (cos th, sin th): every candidate
 * angle comes from a direction in the layout, so the search needs no
 * trigonometry. */

/* The charger's outline after forward s1 and a wheel u = (cos, sin) about
 * L, in the frame: FL, RL, RR, FR (counter-clockwise). */
static inline void charger_at(double hw, double d, double s1, cs_vec2 u, cs_vec2 out[4])
{
    double w = 2 * hw;
    out[0] = v2(-hw, s1);
    out[1] = v2(-hw + d * u.y, s1 - d * u.x);
    out[2] = v2(-hw + w * u.x + d * u.y, s1 + w * u.y - d * u.x);
    out[3] = v2(-hw + w * u.x, s1 + w * u.y);
}

/* One candidate path in the frame: forward s1, a left wheel u, forward s2.
 * A wheel-first candidate is created with only a lower bound of s2 (lazy:
 * most are never the cheapest, so their contact is never computed). */
typedef struct path {
    double s1, s2, cost;
    cs_vec2 u;
    bool exact; /* s2 and cost are exact, not a lower bound */
} path;

/* The geometric data of one snaking problem in one frame. */
typedef struct snake_ctx {
    double hw, d, w;
    cs_vec2 t[4];   /* target outline */
    double tw, td;  /* target width and depth */
    cs_vec2 tc, tu; /* target centre and the unit vector along its front edge */
    cs_vec2 e[2];   /* target facing */
    cs_vec2 n;      /* its outward normal */
    double t1;      /* straight advance before touching the target */
    path cand[64];
    bool used[64];  /* tried already */
    int nc;
} snake_ctx;

/* Appends the exact candidate (forward s1, wheel u, forward s2) to k,
 * unless it is no path: a negative or infinite forward, or a wheel outside
 * 0..90 degrees to the left. */
static inline void add_path(snake_ctx *k, double s1, cs_vec2 u, double s2)
{
    if (k->nc >= 64 || !(s1 >= -1e-9 && s2 >= -1e-9) || !isfinite(s1) || !isfinite(s2))
        return;
    if (u.x < -1e-12 || u.y < -1e-12)
        return; /* not a wheel of 0..90 degrees to the left */
    path *p = &k->cand[k->nc];
    double l = len(u);
    p->u = v2(dmax(u.x / l, 0.0), dmax(u.y / l, 0.0));
    p->s1 = dmax(s1, 0.0);
    p->s2 = s2 < 1e-9 ? 0.0 : s2;
    p->cost = p->s1 + k->w * p->u.y + p->s2;
    p->exact = true;
    k->used[k->nc++] = false;
}

/* box_sweep from the start: how far the charger (w by d, front-left corner
 * at (-w/2, 0), facing +y) goes straight before touching rectangle b (bw by
 * bd, outline in the frame, counter-clockwise) (geom_move.c). */
double cs_geom_box_sweep_start(double w, double d, const cs_vec2 *b, double bw, double bd);

/* Whether the phases of path pa touch polygon b (in the frame): 0 no;
 * otherwise the phase (1, 2, 3) of the first touch, and *early when that
 * touch comes before the end of the path. t1 is how far the charger goes
 * straight before touching b, or NAN to compute it (geom_move.c). */
int cs_geom_path_touch(double hw, double d, const path *pa, const cs_vec2 *b, double bw,
                       double bd, double t1, bool *early);

/* The candidate paths of one frame (left wheels), every path that can be
 * cheapest, appended to k->cand (geom_snake_cand.c). */
void cs_geom_snake_candidates(snake_ctx *k);

/* A lower bound of the cost of every path whose front edge meets the
 * facing at x <= xmax (geom_snake_cand.c). */
double cs_geom_snake_lower_bound(const snake_ctx *k, double xmax);

/* Whether no path reaches the facing (frame 0) for less than s, the cost
 * of the straight path there (geom_snake_cand.c). */
bool cs_geom_snake_straight_least(const snake_ctx *k, double s);

#endif
