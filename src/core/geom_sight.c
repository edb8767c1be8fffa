/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A unit's arcs, its field of view and line of sight (geom_sight.h): the
 * areas in each arc and in the field of view by convex clipping. */
#include "geom_internal.h"

/* ---- convex clipping ---------------------------------------------------- */

/* Keeps the part of polygon v[0..n) where a*x + b*y <= c (Sutherland-Hodgman
 * against one half-plane). out has room for n + 1 vertices. */
static inline int clip_half(const cs_vec2 *v, int n, double a, double b, double c, cs_vec2 *out)
{
    int m = 0;
    if (n == 0)
        return 0;
    cs_vec2 p = v[n - 1];
    double fp = a * p.x + b * p.y - c;
    for (int i = 0; i < n; i++) {
        cs_vec2 q = v[i];
        double fq = a * q.x + b * q.y - c;
        if (fq <= 0) {
            if (fp > 0) {
                double t = fp / (fp - fq);
                out[m++] = v2(p.x + t * (q.x - p.x), p.y + t * (q.y - p.y));
            }
            out[m++] = q;
        } else if (fp <= 0) {
            double t = fp / (fp - fq);
            out[m++] = v2(p.x + t * (q.x - p.x), p.y + t * (q.y - p.y));
        }
        p = q;
        fp = fq;
    }
    return m;
}

/* Area of polygon v[0..n) inside the intersection of k half-planes
 * h[i] = (a, b, c): a*x + b*y <= c. n + k <= 12. */
static double clipped_area(const cs_vec2 *v, int n, const double (*h)[3], int k)
{
    cs_vec2 buf[2][16];
    const cs_vec2 *src = v;
    int m = n;
    for (int i = 0; i < k && m > 0; i++) {
        m = clip_half(src, m, h[i][0], h[i][1], h[i][2], buf[i & 1]);
        src = buf[i & 1];
    }
    return m >= 3 ? fabs(signed_area(src, m)) : 0.0;
}

/* ---- arcs --------------------------------------------------------------- */

cs_facing cs_geom_arc_of_point(const cs_rect *r, cs_vec2 p)
{
    double hw = 0.5 * r->width, hd = 0.5 * r->depth;
    cs_vec2 q = local(r, p);
    double u = q.x, v = q.y, au = fabs(u);
    if (au <= hw && fabs(v) <= hd) {
        /* inside or on the boundary: the nearest edge, ties to the flank */
        double df = hd - v, dr = v + hd, ds = hw - au;
        if (ds <= df && ds <= dr)
            return u < 0 ? CS_LEFT : CS_RIGHT;
        return df <= dr ? CS_FRONT : CS_REAR;
    }
    /* outside: the front arc is beyond the front edge line and strictly
     * inside the two 45-degree rays from the front corners; the rear alike;
     * everything else, the rays themselves included, is flank */
    if (v >= hd && v - hd > au - hw)
        return CS_FRONT;
    if (v <= -hd && -v - hd > au - hw)
        return CS_REAR;
    return u < 0 ? CS_LEFT : CS_RIGHT;
}

/* The arc of r (half width hw, half depth hd) holding all four corners c of
 * a rectangle (in r's frame), or -2 when they are not all in one arc or one
 * lies inside r. Most placements put the whole rectangle in one arc: the
 * arcs are convex, so when all four corners lie outside r in one arc, so
 * does the rectangle (a corner on a boundary ray is taken as flank, which at
 * worst sends a rectangle to the clipping of arc_areas). */
static inline int corners_arc(const cs_vec2 c[4], double hw, double hd)
{
    int inside_all = -1;
    for (int i = 0; i < 4 && inside_all != -2; i++) {
        double u = c[i].x, v = c[i].y, au = fabs(u);
        int arc;
        if (au <= hw && fabs(v) <= hd)
            arc = -2; /* inside r or on its boundary */
        else if (v >= hd && v - hd > au - hw)
            arc = CS_FRONT;
        else if (v <= -hd && -v - hd > au - hw)
            arc = CS_REAR;
        else
            arc = u < 0 ? CS_LEFT : CS_RIGHT;
        if (i == 0)
            inside_all = arc;
        else if (arc != inside_all)
            inside_all = -2;
    }
    return inside_all;
}

/* Each arc of r as the intersection of three half-planes a*u + b*v <= c in
 * r's frame: its edge line and the two diagonal rays' lines (a ray from a
 * corner at 135 degrees to both edges lies on u +- v = +-k, k = hw - hd). */
static inline void arc_planes(double hw, double hd, double h[4][3][3])
{
    static const double sgn[4][3][3] = {
        [CS_FRONT] = { { 0, -1, -1 }, { 1, -1, 1 }, { -1, -1, 1 } },
        [CS_REAR] = { { 0, 1, -1 }, { 1, 1, 1 }, { -1, 1, 1 } },
        [CS_LEFT] = { { 1, 0, -1 }, { 1, 1, -1 }, { 1, -1, -1 } },
        [CS_RIGHT] = { { -1, 0, -1 }, { -1, 1, -1 }, { -1, -1, -1 } },
    };
    double k = hw - hd;
    for (int a = 0; a < 4; a++) {
        double edge = (a == CS_FRONT || a == CS_REAR) ? hd : hw;
        h[a][0][0] = sgn[a][0][0];
        h[a][0][1] = sgn[a][0][1];
        h[a][0][2] = sgn[a][0][2] * edge;
        for (int j = 1; j < 3; j++) {
            h[a][j][0] = sgn[a][j][0];
            h[a][j][1] = sgn[a][j][1];
            h[a][j][2] = sgn[a][j][2] * k;
        }
    }
}

/* The arcs the rectangle with corners c may reach: those no half-plane of
 * which has every corner outside it. Each half-plane is a bound on u, v,
 * u + v or u - v, so the corners' extremes of those decide. */
static inline void arcs_touched(const cs_vec2 c[4], double hw, double hd, bool touches[4])
{
    double k = hw - hd;
    double lo[4], hi[4]; /* u, v, u + v, u - v */
    for (int i = 0; i < 4; i++) {
        double f[4] = { c[i].x, c[i].y, c[i].x + c[i].y, c[i].x - c[i].y };
        for (int j = 0; j < 4; j++) {
            lo[j] = i ? dmin(lo[j], f[j]) : f[j];
            hi[j] = i ? dmax(hi[j], f[j]) : f[j];
        }
    }
    touches[CS_FRONT] = -hi[1] <= -hd && lo[3] <= k && -hi[2] <= k;
    touches[CS_REAR] = lo[1] <= -hd && lo[2] <= k && -hi[3] <= k;
    touches[CS_LEFT] = lo[0] <= -hw && lo[2] <= -k && lo[3] <= -k;
    touches[CS_RIGHT] = -hi[0] <= -hw && -hi[3] <= -k && -hi[2] <= -k;
}

/* out's areas of `other` (corners c in r's frame, centre oc, unit vector ou
 * along its front edge, area total) in r's arcs and in r, when it is not in
 * one arc: clipped against each arc it may reach. */
static void arc_areas(const cs_vec2 c[4], double hw, double hd, cs_vec2 oc, cs_vec2 ou,
                      const cs_rect *other, double total, cs_arc_share *out)
{
    double h[4][3][3];
    bool touches[4];
    arc_planes(hw, hd, h);
    arcs_touched(c, hw, hd, touches);
    /* the arcs cover all but r itself: when other is clear of r, the last
     * arc it touches holds what the others do not */
    bool clear = rects_apart(v2(0, 0), v2(1, 0), hw, hd, oc, ou, 0.5 * other->width,
                             0.5 * other->depth, 0.0);
    int last = 3;
    while (clear && last > 0 && !touches[last])
        last--;
    clear = clear && touches[last];
    double sum = 0;
    for (int a = 0; a < 4; a++)
        if (touches[a] && !(clear && a == last))
            sum += out->area[a] = clipped_area(c, 4, h[a], 3);
    if (clear)
        out->area[last] = dmax(total - sum, 0.0);
    /* else clip against r only when some area is missing */
    else if (sum < total * (1 - 1e-12)) {
        const double box[4][3] = { { 1, 0, hw }, { -1, 0, hw }, { 0, 1, hd }, { 0, -1, hd } };
        out->overlap = clipped_area(c, 4, box, 4);
    }
}

/* out's majority, runner-up and tie from its areas (other's area total). */
static inline void arc_majority(double total, cs_arc_share *out)
{
    int best = 0, second = -1;
    for (int a = 1; a < 4; a++) {
        if (out->area[a] > out->area[best]) {
            second = best;
            best = a;
        } else if (second < 0 || out->area[a] > out->area[second]) {
            second = a;
        }
    }
    out->tie = out->area[best] - out->area[second] <= CS_GEOM_EPS * total;
    if (out->tie && second < best) {
        int t = best;
        best = second;
        second = t;
    }
    out->majority = (cs_facing)best;
    out->tie_with = (cs_facing)second;
}

void cs_geom_arc_share(const cs_rect *r, const cs_rect *other, cs_arc_share *out)
{
    double hw = 0.5 * r->width, hd = 0.5 * r->depth;
    /* other's corners in r's frame (cs_corner order), from its centre and
     * its axes there (a rotation keeps fwd = perp(right)) */
    cs_vec2 oc = local(r, other->c);
    cs_vec2 ou = v2(dot(other->right, r->right), dot(other->right, r->fwd));
    cs_vec2 ow = scale(ou, 0.5 * other->width), od = scale(perp(ou), 0.5 * other->depth);
    cs_vec2 c[4] = { add(oc, sub(od, ow)), add(oc, add(ow, od)), sub(oc, sub(od, ow)),
                     sub(oc, add(ow, od)) };
    double total = other->width * other->depth;
    int inside_all = corners_arc(c, hw, hd);
    out->overlap = 0;
    for (int a = 0; a < 4; a++)
        out->area[a] = 0;
    if (inside_all >= 0)
        out->area[inside_all] = total;
    else
        arc_areas(c, hw, hd, oc, ou, other, total, out);
    arc_majority(total, out);
}

/* ---- line of sight ------------------------------------------------------ */

/* The field of view as three half-planes a*x + b*y <= c in world
 * coordinates: beyond the front edge line, and inside the two limit rays
 * from the front corners (each turned half the arc outward from forward). */
static void fov_planes(const cs_rect *r, double arc, double h[3][3])
{
    double hw = 0.5 * r->width, hd = 0.5 * r->depth;
    double sa = sin(0.5 * arc * DEG), ca = cos(0.5 * arc * DEG);
    cs_vec2 o = at(r, 0, hd);
    /* -v' <= 0 with v' = (p - o).fwd */
    cs_vec2 n0 = scale(r->fwd, -1.0);
    /* right limit: (u - hw)*ca - v'*sa <= 0, left: (-u - hw)*ca - v'*sa <= 0 */
    cs_vec2 n1 = sub(scale(r->right, ca), scale(r->fwd, sa));
    cs_vec2 n2 = sub(scale(r->right, -ca), scale(r->fwd, sa));
    h[0][0] = n0.x, h[0][1] = n0.y, h[0][2] = dot(n0, o);
    h[1][0] = n1.x, h[1][1] = n1.y, h[1][2] = dot(n1, o) + hw * ca;
    h[2][0] = n2.x, h[2][1] = n2.y, h[2][2] = dot(n2, o) + hw * ca;
}

bool cs_geom_in_fov(const cs_rect *viewer, double arc, cs_vec2 p)
{
    double h[3][3];
    fov_planes(viewer, arc, h);
    for (int i = 0; i < 3; i++)
        if (h[i][0] * p.x + h[i][1] * p.y > h[i][2] + CS_GEOM_EPS)
            return false;
    return true;
}

bool cs_geom_rect_in_fov(const cs_rect *viewer, double arc, const cs_rect *target)
{
    double h[3][3];
    fov_planes(viewer, arc, h);
    cs_poly t = cs_geom_rect_poly(target);
    return clipped_area(t.v, 4, (const double (*)[3])h, 3) > CS_GEOM_EPS;
}

/* Cyrus-Beck: the parameter interval [*t0, *t1] of the line a + t*d inside
 * convex CCW polygon p shrunk by `inset` (inset < 0 grows it). Returns false
 * when the line misses it. */
static bool line_in_poly(cs_vec2 a, cs_vec2 d, const cs_vec2 *v, int n, double inset,
                         double *t0, double *t1)
{
    double lo = -INFINITY, hi = INFINITY;
    for (int i = 0, j = n - 1; i < n; j = i++) {
        cs_vec2 e = sub(v[i], v[j]);
        double l = len(e);
        if (l == 0)
            continue;
        cs_vec2 nn = scale(v2(e.y, -e.x), 1.0 / l);
        double num = dot(sub(a, v[j]), nn) + inset, den = dot(d, nn);
        /* inside the edge where num + t*den <= 0 */
        if (den == 0) {
            if (num > 0)
                return false;
        } else if (den > 0) {
            hi = dmin(hi, -num / den);
        } else {
            lo = dmax(lo, -num / den);
        }
        if (lo > hi)
            return false;
    }
    *t0 = lo;
    *t1 = hi;
    return true;
}

bool cs_geom_seg_crosses_poly(cs_seg s, const cs_poly *p)
{
    double t0, t1;
    if (!line_in_poly(s.a, sub(s.b, s.a), p->v, p->n, CS_GEOM_EPS, &t0, &t1))
        return false;
    return dmin(t1, 1.0) > dmax(t0, 0.0);
}

/* One candidate sight line of cs_geom_los: through point p with direction d
 * (unit, forward within the arc). Free when it meets the front edge, then
 * reaches the target, crossing no blocker before the target. */
static bool sight_line_free(const cs_rect *viewer, cs_vec2 p, cs_vec2 d, const cs_poly *tgt,
                            const cs_poly *block, const int *use, int n_use)
{
    double hw = 0.5 * viewer->width, hd = 0.5 * viewer->depth;
    cs_vec2 o = at(viewer, 0, hd);
    double df = dot(d, viewer->fwd);
    if (df <= 0)
        return false;
    double s = -dot(sub(p, o), viewer->fwd) / df;
    cs_vec2 a = add(p, scale(d, s));
    if (fabs(dot(sub(a, o), viewer->right)) > hw + CS_GEOM_EPS)
        return false;
    double t0, t1;
    if (!line_in_poly(a, d, tgt->v, tgt->n, -CS_GEOM_EPS, &t0, &t1) || t1 < 0)
        return false;
    cs_seg sight = { a, add(a, scale(d, dmax(t0, 0.0))) };
    for (int i = 0; i < n_use; i++)
        if (cs_geom_seg_crosses_poly(sight, &block[use[i]]))
            return false;
    return true;
}

bool cs_geom_los(const cs_rect *viewer, double arc, const cs_rect *target,
                 const cs_poly *block, int n_block)
{
    if (!cs_geom_rect_in_fov(viewer, arc, target))
        return false;
    cs_poly tgt = cs_geom_rect_poly(target);
    /* Every sight line lies in the hull of the front edge and the target:
     * blockers outside it cannot matter. */
    cs_vec2 pts[6], hv[13];
    pts[0] = cs_geom_corner(viewer, CS_CORNER_FL);
    pts[1] = cs_geom_corner(viewer, CS_CORNER_FR);
    for (int i = 0; i < 4; i++)
        pts[2 + i] = tgt.v[i];
    int nh = cs_geom_hull(pts, 6, hv);
    int use[CS_LOS_MAX_BLOCK], n_use = 0;
    if (n_block > CS_LOS_MAX_BLOCK)
        n_block = CS_LOS_MAX_BLOCK;
    for (int i = 0; i < n_block; i++)
        if (!cs_geom_separated(hv, nh, block[i].v, block[i].n, CS_GEOM_EPS))
            use[n_use++] = i;
    if (n_use == 0)
        return true;
    /* The critical points: a free sight line, if any, can be moved until it
     * passes through two of them, or through one at the limit of the arc. */
    cs_vec2 crit[6 + CS_LOS_MAX_BLOCK * CS_POLY_MAX];
    int nc = 0;
    crit[nc++] = cs_geom_corner(viewer, CS_CORNER_FL);
    crit[nc++] = cs_geom_corner(viewer, CS_CORNER_FR);
    for (int i = 0; i < 4; i++)
        crit[nc++] = tgt.v[i];
    for (int i = 0; i < n_use; i++)
        for (int k = 0; k < block[use[i]].n; k++)
            crit[nc++] = block[use[i]].v[k];
    double sa = sin(0.5 * arc * DEG), ca = cos(0.5 * arc * DEG);
    cs_vec2 lim[2] = { add(scale(viewer->fwd, ca), scale(viewer->right, sa)),
                       sub(scale(viewer->fwd, ca), scale(viewer->right, sa)) };
    /* the line from the centre of the front edge to the target's centre
     * settles most cases at once */
    cs_vec2 o = at(viewer, 0, 0.5 * viewer->depth);
    cs_vec2 dc = sub(target->c, o);
    double lc = len(dc);
    if (lc > 0 && dot(dc, viewer->fwd) >= ca * lc - CS_GEOM_EPS &&
        sight_line_free(viewer, o, scale(dc, 1.0 / lc), &tgt, block, use, n_use))
        return true;
    for (int i = 0; i < nc; i++) {
        for (int k = 0; k < 2; k++)
            if (sight_line_free(viewer, crit[i], lim[k], &tgt, block, use, n_use))
                return true;
        for (int j = i + 1; j < nc; j++) {
            cs_vec2 d = sub(crit[j], crit[i]);
            double l = len(d);
            if (l < CS_GEOM_EPS)
                continue;
            d = scale(d, 1.0 / l);
            if (dot(d, viewer->fwd) < 0)
                d = scale(d, -1.0);
            if (dot(d, viewer->fwd) < ca - 1e-12)
                continue;
            if (sight_line_free(viewer, crit[i], d, &tgt, block, use, n_use))
                return true;
        }
    }
    return false;
}
