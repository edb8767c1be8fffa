/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The moves of a unit (geom_move.h): pivots, wheels, straight moves, the
 * first contact of a straight advance, and the sweeps of a snaking path's
 * phases (straight, wheel, straight) that geom_snake.c tests paths with. */
#include "geom_internal.h"

/* ---- moves -------------------------------------------------------------- */

cs_rect cs_geom_pivot(const cs_rect *r, double turn)
{
    return cs_geom_rect(r->c, r->width, r->depth, r->facing + turn);
}

cs_rect cs_geom_wheel(const cs_rect *r, double turn)
{
    cs_vec2 p = cs_geom_corner(r, turn >= 0 ? CS_CORNER_FL : CS_CORNER_FR);
    double c = cos(turn * DEG), s = sin(turn * DEG);
    cs_rect w = cs_geom_rect(add(p, rot(sub(r->c, p), c, s)), r->width, r->depth,
                             r->facing + turn);
    return w;
}

double cs_geom_wheel_cost(double width, double turn)
{
    return width * sin(fabs(turn) * DEG);
}

double cs_geom_wheel_arc(double width, double turn)
{
    return width * fabs(turn) * DEG;
}

cs_rect cs_geom_forward(const cs_rect *r, double dist)
{
    cs_rect m = *r;
    m.c = add(r->c, scale(r->fwd, dist));
    return m;
}

/* ---- straight moves: first contact of a translating convex polygon ----- */

/* The least t >= 0 at which polygon a (CCW, na vertices) moved by t*d (d a
 * unit vector) comes within distance g of polygon b (CCW), counting only
 * approaches: events where the distance is decreasing. INFINITY if never.
 * The first such moment is a vertex of one polygon meeting an edge of the
 * other offset by g, or (g > 0) a vertex meeting the circle of radius g
 * about a vertex of the other. */
double cs_geom_first_contact(const cs_vec2 *a, int na, cs_vec2 d, const cs_vec2 *b, int nb,
                             double g)
{
    double best = INFINITY, slack = g > 0 ? 0.0 : CS_GEOM_EPS;
    for (int pass = 0; pass < 2; pass++) {
        /* pass 0: vertices of a against edges of b, moving along d;
         * pass 1: vertices of b against edges of a, moving along -d */
        const cs_vec2 *p = pass ? b : a, *q = pass ? a : b;
        int np = pass ? nb : na, nq = pass ? na : nb;
        cs_vec2 dir = pass ? scale(d, -1.0) : d;
        for (int i = 0, j = nq - 1; i < nq; j = i++) {
            cs_vec2 e = sub(q[i], q[j]);
            double l = len(e);
            if (l == 0)
                continue;
            cs_vec2 u = scale(e, 1.0 / l), n = v2(u.y, -u.x);
            double dn = dot(dir, n);
            /* moving along or away from this edge. Nearly along it (the
             * rounding of a parallel edge's direction) is along: a vertex
             * at the offset line then crosses it by |dn| per inch, under
             * CS_GEOM_EPS over any table distance */
            if (dn >= -1e-12)
                continue;
            double inv = -1.0 / dn;
            for (int k = 0; k < np; k++) {
                double h = dot(sub(p[k], q[j]), n) - g; /* height above the offset edge */
                if (h < -CS_GEOM_EPS)
                    continue; /* already past it: not an approach to this edge */
                double t = h * inv;
                if (t >= best)
                    continue;
                /* at an edge's end with g > 0 the vertex circles decide: a
                 * graze at exactly g there is no approach */
                double s = dot(sub(add(p[k], scale(dir, t)), q[j]), u);
                if (s < -slack || s > l + slack)
                    continue;
                best = dmin(best, dmax(t, 0.0));
            }
        }
    }
    if (g > 0) {
        for (int i = 0; i < na; i++) {
            for (int k = 0; k < nb; k++) {
                cs_vec2 w = sub(a[i], b[k]);
                double bq = dot(w, d), cq = dot(w, w) - g * g;
                /* the line of motion comes within sqrt(g^2 - disc) of the
                 * vertex: disc <= 2 g CS_GEOM_EPS means it never gets
                 * closer than g - CS_GEOM_EPS, a tangency or a miss. This
                 * also keeps a vertex pair exactly at the gap and moving
                 * sideways (bq = 0 up to rounding, as beside a parallel
                 * obstacle already within its gap) from counting as an
                 * approach at t = 0, which the sign of bq + t cannot
                 * decide once bq is rounding noise. */
                double disc = bq * bq - cq;
                if (disc <= 2 * g * CS_GEOM_EPS)
                    continue;
                double t = -bq - sqrt(disc);
                if (t < -CS_GEOM_EPS)
                    continue; /* entry in the past */
                best = dmin(best, dmax(t, 0.0));
            }
        }
    }
    return best;
}

cs_advance cs_geom_advance(const cs_rect *r, double max_dist, const cs_obstacle *obs, int n_obs)
{
    cs_advance res = { max_dist, -1 };
    cs_poly a = cs_geom_rect_poly(r);
    for (int i = 0; i < n_obs; i++) {
        double g = obs[i].gap;
        if (g > 0) {
            /* already within the gap: keep at least the present distance */
            double now = cs_geom_dist_polys(a.v, 4, obs[i].poly.v, obs[i].poly.n);
            if (now < g)
                g = now;
        }
        double t = cs_geom_first_contact(a.v, 4, r->fwd, obs[i].poly.v, obs[i].poly.n, g);
        if (t < res.dist) {
            res.dist = t;
            res.hit = i;
        }
    }
    return res;
}

/* ---- sweeps of the snaking path (in its frame, geom_internal.h) --------- */

/* first_contact (g = 0) for the charger's rectangle, front-left corner fl,
 * front edge along the unit vector u, moving along its own forward
 * direction perp(u), against rectangle b given as cs_geom_rect_poly's
 * outline in the frame (CCW, as poly_local leaves it), bw by bd: the same
 * events, counted in the charger's own frame, where it is the box [0, w] x
 * [-d, 0] moving along +y. Its only edge facing the motion is the front
 * edge, which meets b's vertices; its corners meet b's edges facing the
 * other way. In either vertex order, the edge ending at b's vertex i is
 * bw long for even i and bd for odd i, so no square root is needed. */
static inline double box_sweep_local(double w, double d, const cs_vec2 *q, double bw, double bd)
{
    double best = INFINITY;
    for (int k = 0; k < 4; k++) {
        /* a vertex of b against the front edge: an approach from height
         * y, meeting it within its length */
        if (q[k].y >= -CS_GEOM_EPS && q[k].x >= -CS_GEOM_EPS && q[k].x <= w + CS_GEOM_EPS)
            best = dmin(best, dmax(q[k].y, 0.0));
    }
    for (int i = 0, j = 3; i < 4; j = i++) {
        cs_vec2 e = sub(q[i], q[j]);
        double l = (i & 1) ? bd : bw;
        /* the outward normal (e.y, -e.x) / l opposes the motion by more
         * than 1e-12 (first_contact's threshold) */
        if (!(e.x > 1e-12 * l))
            continue;
        double inv = 1.0 / e.x, el = CS_GEOM_EPS * l;
        for (int k = 0; k < 2; k++) {
            /* the box's corners at x = 0 and x = w: the front one meets the
             * edge's line first, and the rear one (d later, at the same
             * point of the line) only counts when the front one is past it
             * already */
            cs_vec2 pq = v2(k * w - q[j].x, -q[j].y);
            /* h l: the corner's height above b's edge line, times l */
            double hl = pq.x * e.y - pq.y * e.x;
            if (hl < -el) {
                pq.y -= d;
                hl += d * e.x;
                if (hl < -el)
                    continue;
            }
            double t = hl * inv;
            if (t >= best)
                continue;
            /* where along the edge it meets it, times l */
            double sl = dot(pq, e) + t * e.y;
            if (sl < -el || sl > l * l + el)
                continue;
            best = dmax(t, 0.0);
        }
    }
    return best;
}

static double box_sweep(double w, double d, cs_vec2 fl, cs_vec2 u, const cs_vec2 *b, double bw,
                        double bd)
{
    cs_vec2 f = perp(u), q[4];
    for (int k = 0; k < 4; k++) {
        cs_vec2 r = sub(b[k], fl);
        q[k] = v2(dot(r, u), dot(r, f));
    }
    return box_sweep_local(w, d, q, bw, bd);
}

/* box_sweep from the start, front-left corner (-w/2, 0), u = (1, 0). */
double cs_geom_box_sweep_start(double w, double d, const cs_vec2 *b, double bw, double bd)
{
    cs_vec2 q[4];
    for (int k = 0; k < 4; k++)
        q[k] = v2(b[k].x + 0.5 * w, b[k].y);
    return box_sweep_local(w, d, q, bw, bd);
}

/* A monotone stand-in for the angle of (x, y) in [0, 2 pi): 0..4 around
 * the circle (the "diamond angle"); comparisons of angles need no atan2. */
static inline double pseudo_angle(double x, double y)
{
    if (y >= 0)
        return x >= 0 ? y / (x + y) : 1 - x / (-x + y);
    return x < 0 ? 2 - y / (-x - y) : 3 + x / (x - y);
}

/* The first turn, as a pseudo-angle in [0, pseudo_angle(u)], at which
 * polygon a turning counter-clockwise about p touches polygon b; INFINITY
 * if none within u. Every contact starts as a vertex of one meeting an
 * edge of the other: a vertex of a runs on a circle about p; a vertex of b,
 * seen from a, runs on a circle the other way. */
static double first_turn_contact(const cs_vec2 *a, int na, cs_vec2 p, cs_vec2 u,
                                 const cs_vec2 *b, int nb)
{
    double best = INFINITY, lim = pseudo_angle(u.x, u.y);
    /* the turning outline stays within its largest radius about p */
    double rmax = 0;
    for (int i = 0; i < na; i++)
        rmax = dmax(rmax, dot(sub(a[i], p), sub(a[i], p)));
    double near2 = INFINITY, reach = sqrt(rmax) + CS_GEOM_EPS;
    for (int i = 0, j = nb - 1; i < nb; j = i++) {
        cs_seg s = { b[j], b[i] };
        near2 = dmin(near2, point_seg_d2(p, s));
    }
    if (near2 > reach * reach)
        return INFINITY;
    for (int pass = 0; pass < 2; pass++) {
        const cs_vec2 *m = pass ? b : a, *e = pass ? a : b;
        int nm = pass ? nb : na, ne = pass ? na : nb;
        for (int k = 0; k < nm; k++) {
            cs_vec2 w = sub(m[k], p);
            double rho2 = dot(w, w);
            if (rho2 < CS_GEOM_EPS * CS_GEOM_EPS)
                continue; /* the pivot itself does not move */
            for (int i = 0, j = ne - 1; i < ne; j = i++) {
                cs_vec2 q = sub(e[j], p), ed = sub(e[i], e[j]);
                double qa = dot(ed, ed), qb = dot(q, ed), qc = dot(q, q) - rho2;
                double disc = qb * qb - qa * qc;
                if (qa == 0 || disc < 0)
                    continue;
                double sq = sqrt(disc);
                for (int r = 0; r < 2; r++) {
                    double s = (-qb + (r ? sq : -sq)) / qa;
                    if (s < -1e-12 || s > 1 + 1e-12)
                        continue;
                    /* the turn taking w to x (a's vertex), or x to w */
                    cs_vec2 x = add(q, scale(ed, s));
                    double phi = pass ? pseudo_angle(dot(x, w), cross(x, w))
                                      : pseudo_angle(dot(w, x), cross(w, x));
                    if (phi > 4 - 1e-12)
                        phi = 0;
                    if (phi <= lim + 1e-12)
                        best = dmin(best, phi);
                }
            }
        }
    }
    return best;
}

/* Whether the phases of path pa touch polygon b (in the frame): 0 no;
 * otherwise the phase (1, 2, 3) of the first touch, and *early when that
 * touch comes before the end of the path. t1 is how far the charger goes
 * straight before touching b, or NAN to compute it. */
int cs_geom_path_touch(double hw, double d, const path *pa, const cs_vec2 *b, double bw,
                       double bd, double t1, bool *early)
{
    const double tol = 1e-9;
    cs_vec2 c[4];
    bool turns = pa->u.y > 0;
    /* t1: the straight advance before touching b, when known already */
    double t = isnan(t1) ? cs_geom_box_sweep_start(2 * hw, d, b, bw, bd) : t1;
    if (t <= pa->s1 + tol) {
        *early = t < pa->s1 - tol || turns || pa->s2 > 0;
        return 1;
    }
    if (turns) {
        charger_at(hw, d, pa->s1, v2(1, 0), c);
        double phi = first_turn_contact(c, 4, v2(-hw, pa->s1), pa->u, b, 4);
        if (isfinite(phi)) {
            *early = phi < pseudo_angle(pa->u.x, pa->u.y) - tol || pa->s2 > 0;
            return 2;
        }
    }
    t = box_sweep(2 * hw, d, v2(-hw, pa->s1), pa->u, b, bw, bd);
    if (t <= pa->s2 + tol) {
        *early = t < pa->s2 - tol;
        return 3;
    }
    return 0;
}
