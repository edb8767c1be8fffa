/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Distances between points, segments, rectangles and polygons, and the
 * separating-axis overlap test (geom_dist.h). */
#include "geom_internal.h"

/* ---- distances ---------------------------------------------------------- */

double cs_geom_dist_point_seg(cs_vec2 p, cs_seg s)
{
    cs_vec2 d = sub(s.b, s.a), w = sub(p, s.a);
    double l2 = dot(d, d);
    double t = l2 > 0 ? dot(w, d) / l2 : 0.0;
    if (t < 0)
        t = 0;
    else if (t > 1)
        t = 1;
    return len(sub(w, scale(d, t)));
}

double cs_geom_dist_seg_seg(cs_seg s, cs_seg t)
{
    if (segs_cross(s, t))
        return 0.0;
    double d = cs_geom_dist_point_seg(s.a, t);
    d = dmin(d, cs_geom_dist_point_seg(s.b, t));
    d = dmin(d, cs_geom_dist_point_seg(t.a, s));
    return dmin(d, cs_geom_dist_point_seg(t.b, s));
}

/* Separating-axis test of two convex polygons: true when some edge normal
 * separates them by more than -tol (tol > 0: touching counts as separated). */
bool cs_geom_separated(const cs_vec2 *a, int na, const cs_vec2 *b, int nb, double tol)
{
    for (int pass = 0; pass < 2; pass++) {
        const cs_vec2 *p = pass ? b : a, *q = pass ? a : b;
        int np = pass ? nb : na, nq = pass ? na : nb;
        for (int i = 0, j = np - 1; i < np; j = i++) {
            cs_vec2 e = sub(p[i], p[j]);
            double l = len(e);
            if (l == 0)
                continue;
            cs_vec2 n = scale(v2(e.y, -e.x), 1.0 / l); /* outward for CCW p */
            double pmax = -INFINITY, qmin = INFINITY;
            for (int k = 0; k < np; k++)
                pmax = dmax(pmax, dot(p[k], n));
            for (int k = 0; k < nq; k++)
                qmin = dmin(qmin, dot(q[k], n));
            if (qmin >= pmax - tol)
                return true;
        }
    }
    return false;
}

double cs_geom_dist_polys(const cs_vec2 *a, int na, const cs_vec2 *b, int nb)
{
    if (!cs_geom_separated(a, na, b, nb, 0.0))
        return 0.0;
    double d = INFINITY;
    for (int i = 0, j = na - 1; i < na; j = i++) {
        cs_seg s = { a[j], a[i] };
        for (int k = 0; k < nb; k++)
            d = dmin(d, cs_geom_dist_point_seg(b[k], s));
    }
    for (int i = 0, j = nb - 1; i < nb; j = i++) {
        cs_seg s = { b[j], b[i] };
        for (int k = 0; k < na; k++)
            d = dmin(d, cs_geom_dist_point_seg(a[k], s));
    }
    return d;
}

double cs_geom_dist_rect_rect(const cs_rect *a, const cs_rect *b)
{
    cs_poly pa = cs_geom_rect_poly(a), pb = cs_geom_rect_poly(b);
    return cs_geom_dist_polys(pa.v, 4, pb.v, 4);
}

double cs_geom_dist_rect_poly(const cs_rect *a, const cs_poly *p)
{
    cs_poly pa = cs_geom_rect_poly(a);
    return cs_geom_dist_polys(pa.v, 4, p->v, p->n);
}

bool cs_geom_rects_overlap(const cs_rect *a, const cs_rect *b)
{
    cs_poly pa = cs_geom_rect_poly(a), pb = cs_geom_rect_poly(b);
    return !cs_geom_separated(pa.v, 4, pb.v, 4, CS_GEOM_EPS);
}

double cs_geom_front_to_facing(const cs_rect *a, const cs_rect *b, cs_facing f)
{
    return len(sub(cs_geom_edge_centre(b, f), cs_geom_edge_centre(a, CS_FRONT)));
}

bool cs_geom_polys_overlap(const cs_poly *a, const cs_poly *b)
{
    return !cs_geom_separated(a->v, a->n, b->v, b->n, CS_GEOM_EPS);
}
