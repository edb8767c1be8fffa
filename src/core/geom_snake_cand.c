/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The snaking path's candidates and bounds (geom_snake.h): every path that
 * can be the cheapest for one frame, and the lower bounds that let
 * geom_snake.c stop early. In the frame of geom_internal.h. */
#include "geom_internal.h"

/* Wheel first (forward1 = 0), then forward until the front edge touches the
 * facing. Lazy: the concluding forward is at least how far the nearer
 * facing end lies ahead of the wheeled front edge's line; the facing wholly
 * behind that line is never reached. */
static inline void add_wheel_first(snake_ctx *k, cs_vec2 u)
{
    double l = len(u);
    if (!(l > 0) || u.x < -1e-12 * l || u.y < -1e-12 * l || k->nc >= 64)
        return;
    u = v2(dmax(u.x / l, 0.0), dmax(u.y / l, 0.0));
    cs_vec2 f = v2(-u.y, u.x), piv = v2(-k->hw, 0);
    double h0 = dot(sub(k->e[0], piv), f), h1 = dot(sub(k->e[1], piv), f);
    if (h0 < -1e-9 && h1 < -1e-9)
        return;
    path *p = &k->cand[k->nc];
    p->u = u;
    p->s1 = 0;
    p->s2 = dmax(dmin(h0, h1), 0.0);
    p->cost = k->w * u.y + p->s2;
    p->exact = false;
    k->used[k->nc++] = false;
}

/* The wheel of tangent-half-angle t (t in [0, 1] for 0..90 degrees). */
static cs_vec2 half_tan_dir(double t)
{
    double q = 1 + t * t;
    return v2((1 - t * t) / q, 2 * t / q);
}

/* Slope of the cost of "wheel u first, then forward until corner X meets
 * the facing line", X the pivot (lead = 0) or the outer corner (lead = 1).
 * With the facing's outward normal n = (sin a, -cos a), the approach rate
 * is cos(th - a) and the pivot's height above the line h; cost = w sin th +
 * (h - lead w sin(th - a)) / cos(th - a), so d cost / d th =
 * w cos th - lead w + h_X sin(th - a) / cos^2(th - a).
 * Returned multiplied by q^3 cos^2(th - a) > 0, for the wheel of tangent
 * half-angle t, u = U / q with U = (1 - t^2, 2t), q = 1 + t^2: a polynomial
 * in t with the slope's sign and roots, and no division. */
static inline double wheel_first_slope(double w, double h, cs_vec2 a, int lead, double t)
{
    double q = 1 + t * t, ux = 1 - t * t, uy = 2 * t;
    double cp = ux * a.x + uy * a.y, sp = uy * a.x - ux * a.y;
    return (w * ux - lead * w * q) * cp * cp + q * (h * q - lead * w * sp) * sp;
}

/* Local minima of that cost for t in [lo, hi] (tangent half-angles): where
 * the slope goes from negative to positive, bracketed on a grid (one cell
 * per 0.025 of t, about 3 degrees, at most 6) and then found by the
 * Illinois variant of regula falsi. The pivot-led family's slope rises
 * monotonically when h is at least the frontage (its derivative is
 * h (1 + sin^2) / cos^3 - w sin >= h - w), so no grid is needed then. */
static void wheel_first_minimum(snake_ctx *k, double h, cs_vec2 a, int lead, double lo, double hi)
{
    if (!(hi - lo > 1e-12))
        return;
    int m = (lead == 0 && h >= k->w) ? 1 : 1 + (int)((hi - lo) * 40);
    if (m > 6)
        m = 6;
    double x0 = lo, f0 = wheel_first_slope(k->w, h, a, lead, lo);
    for (int i = 1; i <= m; i++) {
        double x1 = lo + (hi - lo) * i / m;
        double f1 = wheel_first_slope(k->w, h, a, lead, x1);
        if (f0 < 0 && f1 > 0) {
            double bl = x0, fl = f0, bh = x1, fh = f1, x = x0;
            int side = 0;
            for (int it = 0; it < 60 && bh - bl > 1e-14; it++) {
                x = (bl * fh - bh * fl) / (fh - fl);
                double fx = wheel_first_slope(k->w, h, a, lead, x);
                if (fx == 0)
                    break;
                if (fx < 0) {
                    bl = x, fl = fx;
                    if (side == -1)
                        fh *= 0.5;
                    side = -1;
                } else {
                    bh = x, fh = fx;
                    if (side == 1)
                        fl *= 0.5;
                    side = 1;
                }
            }
            add_wheel_first(k, half_tan_dir(x));
        }
        x0 = x1;
        f0 = f1;
    }
}

/* tan(th / 2) of the angle th of unit vector a, plus k * 90 degrees for k
 * in -1..1 (unwrapped: th in (-180, 180]), clamped to [0, 90] degrees: the
 * half-angle tangent of a direction is y / (1 + x), no trigonometry. */
static inline double half_tan_of(cs_vec2 a, int k)
{
    /* the direction turned by k * 90 degrees, and whether the unwrapped
     * angle lies below 0 or above 90 degrees */
    cs_vec2 b = k == 0 ? a : k > 0 ? v2(-a.y, a.x) : v2(a.y, -a.x);
    bool below, above;
    if (k == 0) {
        below = a.y < 0;
        above = !below && a.x <= 0;
    } else if (k > 0) {
        below = a.y < 0 && a.x <= 0;
        above = !below && a.y >= 0;
    } else {
        above = false;
        below = !(a.x < 0 && a.y >= 0);
    }
    if (below)
        return 0.0;
    if (above)
        return 1.0;
    return dmin(dmax(b.y / (1 + b.x), 0.0), 1.0);
}

/* Narrows the half-tangent range [lo, hi] of wheels to those between the
 * directions u0 and u1 (lengths l0, l1), when they are in counter-clockwise
 * order; both wheel-first families use it. */
static inline void clip_to_wheels(cs_vec2 u0, double l0, cs_vec2 u1, double l1, double *lo,
                                  double *hi)
{
    double t0 = u0.y / (l0 + u0.x), t1 = u1.y / (l1 + u1.x);
    if (t0 > t1) {
        double tmp = t0;
        t0 = t1;
        t1 = tmp;
        cs_vec2 tu = u0;
        u0 = u1;
        u1 = tu;
    }
    if (cross(u0, u1) >= 0) {
        *lo = dmax(*lo, t0);
        *hi = dmin(*hi, t1);
    }
}

/* Corner on corner with the facing's ends e[0], e[1] (pivot L = l): the
 * wheel from the start reaching an end, wheel first then forward, and
 * forward then a wheel ending on it (up to 90 degrees). */
static void corner_candidates(snake_ctx *k, cs_vec2 l)
{
    double hw = k->hw, w = k->w;
    for (int i = 0; i < 2; i++) {
        cs_vec2 e = k->e[i], q = sub(e, l);
        double r2 = dot(q, q);
        if (r2 <= w * w * (1 + 1e-12) && r2 > 0)
            add_path(k, 0, q, 0);
        /* corner on corner, wheel first: the pivot onto e along the new
         * forward direction; the outer corner onto e, at w along the edge
         * and s2 = sqrt(|q|^2 - w^2) forward: the turn taking (w, s2) to q */
        add_wheel_first(k, v2(q.y, -q.x));
        if (r2 >= w * w) {
            double s2 = sqrt(r2 - w * w);
            add_wheel_first(k, v2(w * q.x + s2 * q.y, w * q.y - s2 * q.x));
        }
        /* corner on corner at the end of the wheel: the outer corner reaches
         * e after forward e.y - w sin th */
        double cx = q.x / w;
        if (cx >= -1e-12 && cx <= 1 + 1e-12) {
            cs_vec2 u = v2(dmin(dmax(cx, 0.0), 1.0), sqrt(dmax(0.0, 1 - cx * cx)));
            add_path(k, e.y - w * u.y, u, 0);
        }
        /* corner on corner with a full 90-degree wheel: the new forward is
         * -x; L, or R at L + (0, w), reaches e */
        add_path(k, e.y, v2(0, 1), -hw - e.x);
        add_path(k, e.y - w, v2(0, 1), -hw - e.x);
    }
}

/* The front edge along another edge of the target: wheel first, or a
 * forward that puts the pivot on that edge's line and a wheel ending there. */
static void edge_candidates(snake_ctx *k)
{
    double hw = k->hw;
    for (int i = 0, j = 3; i < 4; j = i++) {
        cs_vec2 ed = sub(k->t[i], k->t[j]);
        for (int r = 0; r < 2; r++, ed = scale(ed, -1.0)) {
            if (ed.x < 0 || ed.y < 0)
                continue;
            add_wheel_first(k, ed);
            if (ed.x > 0)
                add_path(k, k->t[j].y + (-hw - k->t[j].x) * ed.y / ed.x, ed, 0);
        }
    }
}

/* The wheel-first minima, the pivot leading below the aligned wheel a and
 * the outer corner above it, where the approach rate cos(th - a) > 0; hl > 0
 * is the pivot L = l's height above the facing's line. */
static void minimum_candidates(snake_ctx *k, double hl, cs_vec2 a, cs_vec2 l)
{
    double w = k->w;
    /* the pivot meets the facing itself only while its new forward
     * direction (-sin th, cos th) points between the facing's ends: the
     * wheels (q.y, -q.x) of q = e - L, in half-tangents, unless the
     * facing is behind the pivot (the short way between them passes
     * backwards, and no wheel of 0..90 lies within) */
    double lo = half_tan_of(a, -1), hi = half_tan_of(a, 0);
    cs_vec2 q0 = sub(k->e[0], l), q1 = sub(k->e[1], l);
    cs_vec2 u0 = v2(q0.y, -q0.x), u1 = v2(q1.y, -q1.x);
    double l0 = len(u0), l1 = len(u1);
    if (l0 > 0 && l1 > 0) {
        clip_to_wheels(u0, l0, u1, l1, &lo, &hi);
    }
    wheel_first_minimum(k, hl, a, 0, lo, hi);
    /* likewise the outer corner, between the wheels that take it onto
     * either end (the corner-on-corner turns of (w, s2) onto q) */
    lo = half_tan_of(a, 0);
    hi = half_tan_of(a, 1);
    double r0 = dot(q0, q0) - w * w, r1 = dot(q1, q1) - w * w;
    if (r0 >= 0 && r1 >= 0) {
        double s0 = sqrt(r0), s1 = sqrt(r1);
        u0 = v2(w * q0.x + s0 * q0.y, w * q0.y - s0 * q0.x);
        u1 = v2(w * q1.x + s1 * q1.y, w * q1.y - s1 * q1.x);
        l0 = len(u0);
        l1 = len(u1);
        clip_to_wheels(u0, l0, u1, l1, &lo, &hi);
    }
    wheel_first_minimum(k, hl, a, 1, lo, hi);
}

/* The candidate paths of one frame (left wheels): every path that can be
 * cheapest. For a fixed wheel the cost forward1 + forward2 is linear over
 * the convex set of contact positions, so it is least at a vertex: no
 * initial forward, no concluding forward, or corner on corner. Along each
 * of those families the cost is monotone or concave in the wheel angle,
 * except wheel-first-then-forward with a corner meeting the facing line,
 * whose minima are solved for. So the candidates are the ends of the
 * families (straight, 90 degrees, corner on corner, contact during the
 * wheel, the front edge parallel to the facing or to another edge of the
 * target, beyond which the first touch is no longer on the facing) and
 * those minima. */
void cs_geom_snake_candidates(snake_ctx *k)
{
    double hw = k->hw, w = k->w;
    cs_vec2 l = v2(-hw, 0);
    /* n = (sin a, -cos a): the wheel a makes the front edge parallel to
     * the facing */
    cs_vec2 a = v2(-k->n.y, k->n.x);
    add_wheel_first(k, v2(1, 0));
    add_wheel_first(k, v2(0, 1));
    add_wheel_first(k, a);
    double hl = dot(k->n, sub(l, k->e[0])); /* pivot's height above the line */
    /* the wheel from the start ends in contact: the outer corner's circle
     * meets the facing line, n.(c, s) = -hl / w, or a facing end within
     * reach meets the wheeling edge */
    double kap = -hl / w;
    if (fabs(kap) <= 1) {
        double r = sqrt(1 - kap * kap);
        cs_vec2 np = v2(-k->n.y, k->n.x);
        add_path(k, 0, add(scale(k->n, kap), scale(np, r)), 0);
        add_path(k, 0, sub(scale(k->n, kap), scale(np, r)), 0);
    }
    corner_candidates(k, l);
    edge_candidates(k);
    if (hl > 0)
        minimum_candidates(k, hl, a, l);
}

/* ---- lower bounds ------------------------------------------------------- */

/* The least cost any path needs to put a point of its front edge on x:
 * every point of the front edge advances (along the charger's forward
 * direction, y) by at most the cost. A point a = |x| - hw beyond the end of
 * the frontage needs a wheel th towards it and a concluding forward s2 with
 * s2 sin th >= a: cost >= a / sin th + w sin th >= 2 sqrt(a w) (a + w when
 * a > w); and as forward1 >= 0 forces tan th >= a / y, cost >= y +
 * a tan(th / 2) >= sqrt(a^2 + y^2). */
static inline double point_need(const snake_ctx *k, cs_vec2 x)
{
    double a = fabs(x.x) - k->hw, w = k->w;
    if (a <= 0)
        return x.y;
    double lat = a <= w ? 2 * sqrt(a * w) : a + w;
    return dmax(dmax(x.y, lat), x.y > 0 ? sqrt(a * a + x.y * x.y) : 0.0);
}

/* A lower bound of the cost of every path whose front edge meets the
 * facing at x <= xmax: the least point_need over that part of the facing,
 * taken at its ends, where it crosses the ends of the frontage, and where
 * the forward and lateral needs cross (on each piece the need is the larger
 * of an increasing and a decreasing part). A frame's left wheels cannot
 * reach beyond x = hw, so xmax = hw bounds them; xmax = INFINITY bounds
 * every path. */
double cs_geom_snake_lower_bound(const snake_ctx *k, double xmax)
{
    cs_vec2 e0 = k->e[0], ed = sub(k->e[1], k->e[0]);
    double lo = 0, hi = 1;
    if (ed.x != 0) {
        double t = (xmax - e0.x) / ed.x;
        if (ed.x > 0)
            hi = dmin(hi, t);
        else
            lo = dmax(lo, t);
    } else if (e0.x > xmax) {
        return INFINITY;
    }
    if (lo > hi)
        return INFINITY;
    double ts[10] = { lo, hi };
    int nt = 2;
    for (int sgn = -1; sgn <= 1; sgn += 2) {
        if (ed.x != 0) {
            double t = (sgn * k->hw - e0.x) / ed.x;
            if (t > lo && t < hi)
                ts[nt++] = t;
        }
        /* y = 2 sqrt(w a) with a = sgn x - hw: a quadratic in t */
        double a0 = sgn * e0.x - k->hw, da = sgn * ed.x, w = k->w;
        double qa = ed.y * ed.y, qb = 2 * e0.y * ed.y - 4 * w * da, qc = e0.y * e0.y - 4 * w * a0;
        double disc = qb * qb - 4 * qa * qc;
        if (qa > 0 && disc >= 0)
            for (int r = -1; r <= 1; r += 2) {
                double t = (-qb + r * sqrt(disc)) / (2 * qa);
                if (t > lo && t < hi)
                    ts[nt++] = t;
            }
        if (ed.y != da) {
            double t = (a0 + w - e0.y) / (ed.y - da);
            if (t > lo && t < hi)
                ts[nt++] = t;
        }
    }
    double best = INFINITY;
    for (int i = 0; i < nt; i++)
        best = dmin(best, point_need(k, add(e0, scale(ed, ts[i]))));
    return best;
}

/* Whether the pivot-led cost of reaching X, R + w a / R, is at least s
 * along X(t) = (a0 + da t, y0 + dy t) for t in [tl, th], where a, y >= 0
 * (a beyond the pivot, y ahead of it, R = |X|; see straight_least). As
 * a >= 0 it holds iff q = (R^2 + w a)^2 - s^2 R^2 >= 0, a quartic in t:
 * checked at the ends and at its interior minima, the roots of q' found
 * on the pieces where q' is monotone (between the roots of q''). */
static bool pivot_need_at_least(double a0, double da, double y0, double dy, double w, double s,
                                double tl, double th)
{
    double r2 = da * da + dy * dy, r1 = 2 * (a0 * da + y0 * dy), r0 = a0 * a0 + y0 * y0;
    double p1 = r1 + w * da, p0 = r0 + w * a0, ss = s * s;
    /* q = (r2 t^2 + p1 t + p0)^2 - s^2 (r2 t^2 + r1 t + r0) */
    double c[5] = { p0 * p0 - ss * r0, 2 * p1 * p0 - ss * r1, p1 * p1 + 2 * r2 * p0 - ss * r2,
                    2 * r2 * p1, r2 * r2 };
#define Q(t) ((((c[4] * (t) + c[3]) * (t) + c[2]) * (t) + c[1]) * (t) + c[0])
#define DQ(t) (((4 * c[4] * (t) + 3 * c[3]) * (t) + 2 * c[2]) * (t) + c[1])
#define DDQ(t) ((12 * c[4] * (t) + 6 * c[3]) * (t) + 2 * c[2])
    if (Q(tl) < 0 || Q(th) < 0)
        return false;
    double cut[4] = { tl, th, th, th };
    int nc = 1;
    double qa = 12 * c[4], qb = 6 * c[3], qc = 2 * c[2], disc = qb * qb - 4 * qa * qc;
    if (qa > 0 && disc > 0) {
        double sq = sqrt(disc), x0 = (-qb - sq) / (2 * qa), x1 = (-qb + sq) / (2 * qa);
        if (x0 > tl && x0 < th)
            cut[nc++] = x0;
        if (x1 > tl && x1 < th)
            cut[nc++] = x1;
    }
    cut[nc] = th;
    for (int i = 0; i < nc; i++) {
        double lo = cut[i], hi = cut[i + 1];
        if (!(DQ(lo) < 0 && DQ(hi) > 0))
            continue; /* no minimum of q inside this piece */
        /* q' rises through 0 on [lo, hi]: Newton, kept in the bracket */
        double x = 0.5 * (lo + hi);
        for (int it = 0; it < 60 && hi - lo > 1e-13 * (1 + fabs(x)); it++) {
            double d = DQ(x), dd = DDQ(x);
            if (d < 0)
                lo = x;
            else
                hi = x;
            double nx = dd > 0 ? x - d / dd : lo - 1;
            x = nx > lo && nx < hi ? nx : 0.5 * (lo + hi);
        }
        if (Q(lo) < 0 || Q(hi) < 0 || Q(x) < 0)
            return false;
    }
#undef Q
#undef DQ
#undef DDQ
    return true;
}

/* Whether no path reaches the facing (frame 0) for less than s, the cost
 * of the straight path there: every point X of the facing needs at least
 * what the cheapest path whose front edge touches X costs. Within the
 * frontage that is X's y (no point of the front edge advances more than the
 * cost, and none falls behind y = 0). Beyond one end by a, y >= 0 ahead of
 * that end's corner L (the pivot of the wheels that reach there; y < 0
 * cannot be reached), a path forward s1, wheel th about L, forward s2
 * touching X at lam along the front edge costs y + t (a - lam) + w sin th
 * (t = tan(th / 2)), least at the largest lam allowed by s1 >= 0, lam =
 * min(w, y sin th - a cos th), th at least th0 = atan2(a, y). As a function
 * of th that is unimodal with a maximum while lam < w and concave after, so
 * least at th0 (T0 = R + w a / R, R = |X - L|: wheel towards X, then the
 * pivot onto it), at 90 degrees (T90 = a + max(w, y)), or where lam
 * reaches w, possible only for y > w (Tc: wheel first, then the outer
 * corner onto X: Tc = w sin thc + sqrt(R^2 - w^2) with sin thc >= w / R,
 * and Tc >= y; both grow with R, so the nearest X to L bounds it). Each of
 * the three is shown to be at least s over the facing's part beyond each
 * end: T90 is piecewise linear (its least value at the ends or where y =
 * w), T0 is pivot_need_at_least. */
bool cs_geom_snake_straight_least(const snake_ctx *k, double s)
{
    const double tol = 1e-12;
    cs_vec2 e0 = k->e[0], ed = sub(k->e[1], k->e[0]);
    double hw = k->hw, w = k->w;
    /* [lo, hi] within [0, 1] where lin0 + lin1 t >= 0 */
#define CLIP(lin0, lin1, lo, hi)                                                                   \
    do {                                                                                          \
        if ((lin1) > 0)                                                                           \
            lo = dmax(lo, -(lin0) / (lin1));                                                      \
        else if ((lin1) < 0)                                                                      \
            hi = dmin(hi, -(lin0) / (lin1));                                                      \
        else if ((lin0) < 0)                                                                      \
            hi = -1;                                                                              \
    } while (0)
    /* within the frontage, ahead of the front edge: y >= s */
    double lo = 0, hi = 1;
    CLIP(hw - e0.x, -ed.x, lo, hi);
    CLIP(hw + e0.x, ed.x, lo, hi);
    CLIP(e0.y, ed.y, lo, hi);
    if (lo <= hi && dmin(e0.y + ed.y * lo, e0.y + ed.y * hi) < s - tol)
        return false;
    for (int sg = -1; sg <= 1; sg += 2) {
        /* beyond the end on side sg: a = sg x - hw >= 0, y >= 0 */
        double a0 = sg * e0.x - hw, da = sg * ed.x, y0 = e0.y, dy = ed.y;
        lo = 0;
        hi = 1;
        CLIP(a0, da, lo, hi);
        CLIP(y0, dy, lo, hi);
        if (lo > hi)
            continue;
        double ts[3] = { lo, hi, lo };
        if (dy != 0) {
            double t = (w - y0) / dy;
            if (t > lo && t < hi)
                ts[2] = t;
        }
        for (int i = 0; i < 3; i++)
            if (a0 + da * ts[i] + dmax(w, y0 + dy * ts[i]) < s - tol)
                return false;
        if (!pivot_need_at_least(a0, da, y0, dy, w, s - tol, lo, hi))
            return false;
        /* the part where y >= w */
        double clo = lo, chi = hi;
        CLIP(y0 - w, dy, clo, chi);
        if (clo <= chi) {
            double r2 = da * da + dy * dy, t = clo;
            if (r2 > 0)
                t = dmin(dmax(-(a0 * da + y0 * dy) / r2, clo), chi);
            double a = a0 + da * t, y = y0 + dy * t, rr = a * a + y * y;
            double tc = w * w / sqrt(rr) + sqrt(dmax(rr - w * w, 0.0));
            double ymin = dmin(y0 + dy * clo, y0 + dy * chi);
            if (dmax(tc, ymin) < s - tol)
                return false;
        }
    }
#undef CLIP
    return true;
}
