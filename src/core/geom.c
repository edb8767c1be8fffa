/* Plane geometry of rank-and-file units (see geom.h for the conventions).
 * Everything works in a unit's local frame where that helps: u along its
 * right vector, v along its forward vector, origin at its centre. */
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

/* ---- construction and features ----------------------------------------- */

void cs_geom_rect_update(cs_rect *r)
{
    /* facing 0 (every charger of the head-on layout) needs no libm call:
     * sin 0 = 0 and cos 0 = 1 exactly */
    double s = 0.0, c = 1.0;
    if (r->facing != 0) {
        s = sin(r->facing * DEG);
        c = cos(r->facing * DEG);
    }
    r->fwd = v2(-s, c);
    r->right = v2(c, s);
}

cs_rect cs_geom_rect(cs_vec2 c, double width, double depth, double facing)
{
    cs_rect r;
    r.c = c;
    r.width = width;
    r.depth = depth;
    r.facing = facing;
    cs_geom_rect_update(&r);
    return r;
}

cs_rect cs_geom_rect_front_at(cs_vec2 p, double width, double depth, double facing)
{
    cs_rect r = cs_geom_rect(p, width, depth, facing);
    r.c = sub(p, scale(r.fwd, 0.5 * depth));
    return r;
}

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

cs_vec2 cs_geom_corner(const cs_rect *r, cs_corner k)
{
    double hw = 0.5 * r->width, hd = 0.5 * r->depth;
    switch (k) {
    case CS_CORNER_FL: return at(r, -hw, hd);
    case CS_CORNER_FR: return at(r, hw, hd);
    case CS_CORNER_RR: return at(r, hw, -hd);
    case CS_CORNER_RL: return at(r, -hw, -hd);
    }
    return r->c;
}

void cs_geom_corners(const cs_rect *r, cs_vec2 out[4])
{
    double hw = 0.5 * r->width, hd = 0.5 * r->depth;
    out[CS_CORNER_FL] = at(r, -hw, hd);
    out[CS_CORNER_FR] = at(r, hw, hd);
    out[CS_CORNER_RR] = at(r, hw, -hd);
    out[CS_CORNER_RL] = at(r, -hw, -hd);
}

cs_seg cs_geom_edge(const cs_rect *r, cs_facing f)
{
    static const cs_corner ends[4][2] = {
        [CS_FRONT] = { CS_CORNER_FL, CS_CORNER_FR },
        [CS_LEFT] = { CS_CORNER_RL, CS_CORNER_FL },
        [CS_RIGHT] = { CS_CORNER_FR, CS_CORNER_RR },
        [CS_REAR] = { CS_CORNER_RR, CS_CORNER_RL },
    };
    cs_seg s = { cs_geom_corner(r, ends[f][0]), cs_geom_corner(r, ends[f][1]) };
    return s;
}

cs_vec2 cs_geom_edge_centre(const cs_rect *r, cs_facing f)
{
    double hw = 0.5 * r->width, hd = 0.5 * r->depth;
    switch (f) {
    case CS_FRONT: return at(r, 0, hd);
    case CS_LEFT: return at(r, -hw, 0);
    case CS_RIGHT: return at(r, hw, 0);
    case CS_REAR: return at(r, 0, -hd);
    }
    return r->c;
}

/* Outward unit normal of facing f. */
static cs_vec2 edge_normal(const cs_rect *r, cs_facing f)
{
    switch (f) {
    case CS_FRONT: return r->fwd;
    case CS_LEFT: return scale(r->right, -1.0);
    case CS_RIGHT: return r->right;
    case CS_REAR: return scale(r->fwd, -1.0);
    }
    return r->fwd;
}

static double edge_length(const cs_rect *r, cs_facing f)
{
    return (f == CS_FRONT || f == CS_REAR) ? r->width : r->depth;
}

cs_poly cs_geom_rect_poly(const cs_rect *r)
{
    double hw = 0.5 * r->width, hd = 0.5 * r->depth;
    cs_poly p;
    p.n = 4;
    p.v[0] = at(r, -hw, hd);
    p.v[1] = at(r, -hw, -hd);
    p.v[2] = at(r, hw, -hd);
    p.v[3] = at(r, hw, hd);
    return p;
}

static double signed_area(const cs_vec2 *v, int n)
{
    double a = 0;
    for (int i = 0, j = n - 1; i < n; j = i++)
        a += cross(v[j], v[i]);
    return 0.5 * a;
}

double cs_geom_poly_area(const cs_poly *p)
{
    return fabs(signed_area(p->v, p->n));
}

/* ---- models in ranks and files ------------------------------------------ */

/* Counts the intervals [x0 + k*step, x0 + (k+1)*step], k = 0..n-1, that meet
 * the closed interval [t0, t1] (touching counts, within CS_GEOM_EPS). */
static int count_cells(double x0, double step, int n, double t0, double t1)
{
    if (n <= 0 || t1 < t0 - CS_GEOM_EPS)
        return 0;
    /* cell k meets [t0,t1] iff x0 + k*step <= t1 and x0 + (k+1)*step >= t0 */
    double kmax = floor((t1 - x0 + CS_GEOM_EPS) / step);
    double kmin = ceil((t0 - x0 - CS_GEOM_EPS) / step) - 1.0;
    if (kmax > n - 1)
        kmax = n - 1;
    if (kmin < 0)
        kmin = 0;
    return kmax >= kmin ? (int)(kmax - kmin) + 1 : 0;
}

/* The models along facing f as cells [x0 + k*step, x0 + (k+1)*step],
 * k = 0..n-1, in the edge's parameter (from its `a` end). */
static int edge_cells(const cs_rect *r, const cs_formation *fm, cs_facing f, double *x0,
                      double *step)
{
    *x0 = 0;
    *step = 1;
    if (fm == NULL || fm->files < 1 || fm->models < 1)
        return 0;
    int files = fm->files;
    int ranks = (fm->models + files - 1) / files;
    int last = fm->models - (ranks - 1) * files; /* models in the last rank */
    double sw = r->width / files, sd = r->depth / ranks;
    switch (f) {
    case CS_FRONT: {
        /* a single rank may be short: it is centred like any last rank */
        int k = ranks == 1 ? last : files;
        *x0 = 0.5 * (files - k) * sw;
        *step = sw;
        return k;
    }
    case CS_REAR:
        /* centred, so symmetric: the reversed parameter does not matter */
        *x0 = 0.5 * (files - last) * sw;
        *step = sw;
        return last;
    case CS_LEFT:
    case CS_RIGHT: {
        /* rank i (0 = front) reaches the flank when full; the right edge runs
         * front to rear from its `a` end, the left edge rear to front */
        int full = last == files ? ranks : ranks - 1;
        *x0 = f == CS_RIGHT ? 0.0 : r->depth - full * sd;
        *step = sd;
        return full;
    }
    }
    return 0;
}

int cs_geom_models_on_edge(const cs_rect *r, const cs_formation *fm, cs_facing f,
                           double t0, double t1)
{
    double x0, step;
    int n = edge_cells(r, fm, f, &x0, &step);
    return count_cells(x0, step, n, t0, t1);
}

double cs_geom_edge_contact(const cs_rect *a, const cs_formation *fa_models, cs_facing fa,
                            const cs_rect *b, const cs_formation *fb_models, cs_facing fb,
                            int *na, int *nb)
{
    *na = 0;
    *nb = 0;
    cs_seg ea = cs_geom_edge(a, fa), eb = cs_geom_edge(b, fb);
    cs_vec2 n = edge_normal(a, fa), m = edge_normal(b, fb);
    /* facing each other and on one line */
    if (dot(n, m) > -1.0 + 1e-9)
        return -1;
    if (fabs(dot(sub(eb.a, ea.a), n)) > CS_GEOM_EPS || fabs(dot(sub(eb.b, ea.a), n)) > CS_GEOM_EPS)
        return -1;
    double la = edge_length(a, fa), lb = edge_length(b, fb);
    cs_vec2 ua = scale(sub(ea.b, ea.a), 1.0 / la);
    /* b's edge runs the other way along the line: b.b is at the lower parameter */
    double p0 = dot(sub(eb.b, ea.a), ua), p1 = dot(sub(eb.a, ea.a), ua);
    double lo = dmax(0.0, p0), hi = dmin(la, p1);
    if (hi < lo - CS_GEOM_EPS)
        return -1;
    if (hi < lo)
        hi = lo;
    *na = cs_geom_models_on_edge(a, fa_models, fa, lo, hi);
    /* in b's parameter, point p of a's line is at p1 - p */
    *nb = cs_geom_models_on_edge(b, fb_models, fb, dmax(0.0, p1 - hi), dmin(lb, p1 - lo));
    return hi - lo;
}

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

void cs_geom_arc_share(const cs_rect *r, const cs_rect *other, cs_arc_share *out)
{
    double hw = 0.5 * r->width, hd = 0.5 * r->depth, k = hw - hd;
    /* other's corners in r's frame (cs_corner order), from its centre and
     * its axes there (a rotation keeps fwd = perp(right)) */
    cs_vec2 oc = local(r, other->c);
    cs_vec2 ou = v2(dot(other->right, r->right), dot(other->right, r->fwd));
    cs_vec2 ow = scale(ou, 0.5 * other->width), od = scale(perp(ou), 0.5 * other->depth);
    cs_vec2 c[4] = { add(oc, sub(od, ow)), add(oc, add(ow, od)), sub(oc, sub(od, ow)),
                     sub(oc, add(ow, od)) };
    double total = other->width * other->depth;
    /* Each arc is the intersection of three half-planes a*u + b*v <= c in
     * r's frame: its edge line and the two diagonal rays' lines (a ray from
     * a corner at 135 degrees to both edges lies on u +- v = +-k). */
    static const double sgn[4][3][3] = {
        [CS_FRONT] = { { 0, -1, -1 }, { 1, -1, 1 }, { -1, -1, 1 } },
        [CS_REAR] = { { 0, 1, -1 }, { 1, 1, 1 }, { -1, 1, 1 } },
        [CS_LEFT] = { { 1, 0, -1 }, { 1, 1, -1 }, { 1, -1, -1 } },
        [CS_RIGHT] = { { -1, 0, -1 }, { -1, 1, -1 }, { -1, -1, -1 } },
    };
    /* Most placements put the whole rectangle in one arc: the arcs are
     * convex, so when all four corners lie outside r in one arc, so does
     * the rectangle (a corner on a boundary ray is taken as flank, which at
     * worst sends a rectangle to the clipping below). */
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
    double h[4][3][3];
    for (int a = 0; a < 4 && inside_all < 0; a++) {
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
    /* else clip against each arc no half-plane of which has every corner
     * outside it: each half-plane is a bound on u, v, u + v or u - v, so
     * the corners' extremes of those decide */
    bool touches[4];
    if (inside_all < 0) {
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
    out->overlap = 0;
    for (int a = 0; a < 4; a++)
        out->area[a] = 0;
    if (inside_all >= 0) {
        out->area[inside_all] = total;
    } else {
        /* the arcs cover all but r itself: when other is clear of r, the
         * last arc it touches holds what the others do not */
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

/* ---- distances ---------------------------------------------------------- */

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
static bool separated(const cs_vec2 *a, int na, const cs_vec2 *b, int nb, double tol)
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

static double dist_polys(const cs_vec2 *a, int na, const cs_vec2 *b, int nb)
{
    if (!separated(a, na, b, nb, 0.0))
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
    return dist_polys(pa.v, 4, pb.v, 4);
}

double cs_geom_dist_rect_poly(const cs_rect *a, const cs_poly *p)
{
    cs_poly pa = cs_geom_rect_poly(a);
    return dist_polys(pa.v, 4, p->v, p->n);
}

bool cs_geom_rects_overlap(const cs_rect *a, const cs_rect *b)
{
    cs_poly pa = cs_geom_rect_poly(a), pb = cs_geom_rect_poly(b);
    return !separated(pa.v, 4, pb.v, 4, CS_GEOM_EPS);
}

double cs_geom_front_to_facing(const cs_rect *a, const cs_rect *b, cs_facing f)
{
    return len(sub(cs_geom_edge_centre(b, f), cs_geom_edge_centre(a, CS_FRONT)));
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

/* Convex hull (CCW, Andrew's monotone chain) of n <= 16 points; returns its
 * vertex count. */
static int hull(cs_vec2 *p, int n, cs_vec2 *out)
{
    for (int i = 1; i < n; i++) { /* insertion sort by x, then y */
        cs_vec2 k = p[i];
        int j = i - 1;
        while (j >= 0 && (p[j].x > k.x || (p[j].x == k.x && p[j].y > k.y))) {
            p[j + 1] = p[j];
            j--;
        }
        p[j + 1] = k;
    }
    int m = 0;
    for (int i = 0; i < n; i++) {
        while (m >= 2 && cross(sub(out[m - 1], out[m - 2]), sub(p[i], out[m - 2])) <= 0)
            m--;
        out[m++] = p[i];
    }
    for (int i = n - 2, lo = m + 1; i >= 0; i--) {
        while (m >= lo && cross(sub(out[m - 1], out[m - 2]), sub(p[i], out[m - 2])) <= 0)
            m--;
        out[m++] = p[i];
    }
    return m - 1;
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
    int nh = hull(pts, 6, hv);
    int use[CS_LOS_MAX_BLOCK], n_use = 0;
    if (n_block > CS_LOS_MAX_BLOCK)
        n_block = CS_LOS_MAX_BLOCK;
    for (int i = 0; i < n_block; i++)
        if (!separated(hv, nh, block[i].v, block[i].n, CS_GEOM_EPS))
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
static double first_contact(const cs_vec2 *a, int na, cs_vec2 d, const cs_vec2 *b, int nb,
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
            double now = dist_polys(a.v, 4, obs[i].poly.v, obs[i].poly.n);
            if (now < g)
                g = now;
        }
        double t = first_contact(a.v, 4, r->fwd, obs[i].poly.v, obs[i].poly.n, g);
        if (t < res.dist) {
            res.dist = t;
            res.hit = i;
        }
    }
    return res;
}

/* ---- the snaking charge path -------------------------------------------- */

/* The path is solved in the charger's frame: origin at the centre of its
 * front edge, x to its right, y forward, and mirrored (x -> -x) for wheels
 * to the right, so that every wheel is a left wheel about the front-left
 * corner L = (-hw, forward1). A wheel angle th in [0, 90] degrees is carried
 * as its unit vector (cos th, sin th): every candidate angle comes from a
 * direction in the layout, so the search needs no trigonometry. */
typedef struct frame {
    cs_vec2 o, right, fwd;
    double sx; /* +1, or -1 when mirrored */
} frame;

static cs_vec2 to_local(const frame *f, cs_vec2 p)
{
    cs_vec2 d = sub(p, f->o);
    return v2(f->sx * dot(d, f->right), dot(d, f->fwd));
}

static cs_vec2 to_world(const frame *f, cs_vec2 p)
{
    return add(f->o, add(scale(f->right, f->sx * p.x), scale(f->fwd, p.y)));
}

/* A world polygon in the frame, kept counter-clockwise. */
static void poly_local(const frame *f, const cs_vec2 *v, int n, cs_vec2 *out)
{
    for (int i = 0; i < n; i++)
        out[f->sx > 0 ? i : n - 1 - i] = to_local(f, v[i]);
}

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
static double box_sweep_start(double w, double d, const cs_vec2 *b, double bw, double bd)
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

/* One candidate path in the frame: forward s1, a left wheel u, forward s2.
 * A wheel-first candidate is created with only a lower bound of s2 (lazy:
 * most are never the cheapest, so their contact is never computed). */
typedef struct path {
    double s1, s2, cost;
    cs_vec2 u;
    bool exact; /* s2 and cost are exact, not a lower bound */
} path;

/* Whether the phases of path pa touch polygon b (in the frame): 0 no;
 * otherwise the phase (1, 2, 3) of the first touch, and *early when that
 * touch comes before the end of the path. t1 is how far the charger goes
 * straight before touching b, or NAN to compute it. */
static int path_touch(double hw, double d, const path *pa, const cs_vec2 *b, double bw,
                      double bd, double t1, bool *early)
{
    const double tol = 1e-9;
    cs_vec2 c[4];
    bool turns = pa->u.y > 0;
    /* t1: the straight advance before touching b, when known already */
    double t = isnan(t1) ? box_sweep_start(2 * hw, d, b, bw, bd) : t1;
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

/* When segment [p0, p1] moving along d first touches segment [e0, e1]
 * (INFINITY if never): an end of one meets the other. A segment parallel to
 * d is met at its ends by the other's rays. */
static inline double seg_contact(cs_vec2 p0, cs_vec2 p1, cs_vec2 d, cs_vec2 e0, cs_vec2 e1)
{
    double best = INFINITY;
    cs_vec2 ed = sub(e1, e0), pd = sub(p1, p0);
    double de = cross(d, ed), dp = cross(d, pd);
    const cs_vec2 ps[2] = { p0, p1 }, es[2] = { e0, e1 };
    for (int i = 0; i < 2; i++) {
        if (de != 0) { /* the end of the moving segment runs into [e0, e1] */
            cs_vec2 w = sub(e0, ps[i]);
            double t = cross(w, ed) / de, u = cross(w, d) / de;
            if (t >= -1e-12 && u >= -1e-12 && u <= 1 + 1e-12)
                best = dmin(best, dmax(t, 0.0));
        }
        if (dp != 0) { /* an end of [e0, e1] is met by the moving segment */
            cs_vec2 w = sub(es[i], p0);
            double t = cross(w, pd) / dp, u = cross(d, w) / dp;
            if (t >= -1e-12 && u >= -1e-12 && u <= 1 + 1e-12)
                best = dmin(best, dmax(t, 0.0));
        }
    }
    return best;
}

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

/* The concluding forward of wheel-first path p: until the wheeled front
 * edge touches the facing. */
static inline double wheel_first_forward(const snake_ctx *k, cs_vec2 u)
{
    cs_vec2 p0 = v2(-k->hw, 0), p1 = v2(-k->hw + k->w * u.x, k->w * u.y);
    return seg_contact(p0, p1, v2(-u.y, u.x), k->e[0], k->e[1]);
}

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
static void snake_candidates(snake_ctx *k)
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
    /* the front edge along another edge of the target: wheel first, or a
     * forward that puts the pivot on that edge's line and a wheel ending
     * there */
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
    /* wheel-first minima, the pivot leading below the aligned angle and the
     * outer corner above it, where the approach rate cos(th - a) > 0 */
    if (hl > 0) {
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
}

static void snake_frame(const cs_rect *ch, double sx, frame *fr)
{
    fr->o = cs_geom_edge_centre(ch, CS_FRONT);
    fr->right = ch->right;
    fr->fwd = ch->fwd;
    fr->sx = sx;
}

/* The wheel of path p in degrees (> 0 left) in the world. */
static inline double path_wheel(const frame *fr, const path *p)
{
    return p->u.y == 0 ? 0.0 : fr->sx * atan2(p->u.y, p->u.x) / DEG;
}

/* The pose of a path as a world rectangle: the charger turned by the wheel
 * (its unit vectors rotated by u, mirrored with the frame). */
static cs_rect path_pose(const cs_rect *ch, const frame *fr, const path *p, double wheel)
{
    double hw = 0.5 * ch->width;
    cs_vec2 fc = add(add(v2(-hw, p->s1), scale(p->u, hw)), scale(v2(-p->u.y, p->u.x), p->s2));
    cs_rect r = *ch;
    double c = p->u.x, sn = fr->sx * p->u.y;
    r.facing = ch->facing + wheel;
    r.fwd = rot(ch->fwd, c, sn);
    r.right = rot(ch->right, c, sn);
    r.c = sub(to_world(fr, fc), scale(r.fwd, 0.5 * ch->depth));
    return r;
}

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
static double snake_lower_bound(const snake_ctx *k, double xmax)
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
static bool straight_least(const snake_ctx *k, double s)
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

/* Sets out from path p of frame fr, touching others[hit] (-1: none). */
static void snake_result(const cs_rect *charger, double wheel, const path *p, cs_rect fin,
                         cs_seg fe, cs_seg e, int hit, cs_snake *out)
{
    out->found = true;
    out->wheel = wheel;
    /* without a wheel, "wheel first then forward" and "forward" are one
     * straight move: reported as the initial forward */
    out->forward1 = p->u.y == 0 ? p->s1 + p->s2 : p->s1;
    out->forward2 = p->u.y == 0 ? 0.0 : p->s2;
    out->cost = p->cost;
    out->length = p->s1 + charger->width * fabs(out->wheel) * DEG + p->s2;
    out->final = fin;
    out->touches = hit;
    /* the contact point: the middle of the common part when the front edge
     * meets the facing flush, else the closest pair's point on the facing */
    cs_vec2 ev = sub(e.b, e.a);
    double el2 = dot(ev, ev), tt;
    if (fabs(cross(sub(fe.b, fe.a), ev)) <= 1e-9 * sqrt(el2) * charger->width) {
        double ta = dot(sub(fe.a, e.a), ev) / el2, tb = dot(sub(fe.b, e.a), ev) / el2;
        tt = 0.5 * (dmax(dmin(ta, tb), 0.0) + dmin(dmax(ta, tb), 1.0));
    } else {
        /* squared distances, a square root only where the margin needs it */
        cs_vec2 best = fe.a;
        double bd2 = point_seg_d2(fe.a, e), d2 = point_seg_d2(fe.b, e);
        if (d2 < bd2)
            best = fe.b, bd2 = d2;
        double bd = sqrt(bd2);
        const cs_vec2 ends[2] = { e.a, e.b };
        for (int i = 0; i < 2; i++) {
            double di2 = point_seg_d2(ends[i], fe);
            if (di2 < bd2 && sqrt(di2) < bd - 1e-12)
                best = ends[i], bd = sqrt(di2), bd2 = di2;
        }
        tt = dot(sub(best, e.a), ev) / el2;
    }
    out->contact = add(e.a, scale(ev, dmin(dmax(tt, 0.0), 1.0)));
}

/* Tries the untried candidates of both frames cheapest first, cheaper
 * than a clean path already in out. A valid one reaches the facing with
 * the front edge, touching the target nowhere before. Returns true when out
 * holds a valid path touching no other unit; the cheapest valid path
 * touching one is kept in out meanwhile. */
static bool try_candidates(const cs_rect *charger, cs_seg e, const cs_rect *others,
                           int n_others, snake_ctx *k, const frame *fr, cs_snake *out)
{
    /* the untried candidates of both frames, cheapest first (frame in bit
     * 6 of each entry), their costs alongside */
    int ord[128], n = 0;
    double oc[128];
    for (int m = 0; m < 2; m++)
        for (int i = 0; i < k[m].nc; i++)
            if (!k[m].used[i]) {
                double c = k[m].cand[i].cost;
                int j = n++;
                for (; j > 0 && oc[j - 1] > c; j--) {
                    ord[j] = ord[j - 1];
                    oc[j] = oc[j - 1];
                }
                ord[j] = m << 6 | i;
                oc[j] = c;
            }
    for (int at = 0; at < n;) {
        int bm = ord[at] >> 6, bi = ord[at] & 63;
        path *p = &k[bm].cand[bi];
        if (out->found && out->touches < 0 && p->cost >= out->cost)
            return true;
        if (!p->exact) {
            /* a lazy candidate: its true cost, then back in order, before
             * its equals */
            double s2 = wheel_first_forward(&k[bm], p->u);
            if (!isfinite(s2)) {
                k[bm].used[bi] = true;
                at++;
                continue;
            }
            p->s2 = s2 < 1e-9 ? 0.0 : s2;
            p->cost = k[bm].w * p->u.y + p->s2;
            p->exact = true;
            int j = at, v = ord[at];
            for (; j + 1 < n && oc[j + 1] < p->cost; j++) {
                ord[j] = ord[j + 1];
                oc[j] = oc[j + 1];
            }
            ord[j] = v;
            oc[j] = p->cost;
            continue;
        }
        at++;
        k[bm].used[bi] = true;
        /* the end first: the front edge on the facing, no overlap; then the
         * way there */
        const snake_ctx *kk = &k[bm];
        cs_vec2 c[4];
        charger_at(kk->hw, kk->d, p->s1, p->u, c);
        cs_vec2 step = scale(v2(-p->u.y, p->u.x), p->s2);
        for (int i = 0; i < 4; i++)
            c[i] = add(c[i], step);
        cs_seg fe = { c[0], c[3] }, ek = { kk->e[0], kk->e[1] };
        if (!segs_within(fe, ek, 1e-7) ||
            !rects_apart(scale(add(c[0], c[2]), 0.5), p->u, kk->hw, 0.5 * kk->d, kk->tc, kk->tu,
                         0.5 * kk->tw, 0.5 * kk->td, CS_GEOM_EPS))
            continue;
        bool early = false;
        int ph = path_touch(kk->hw, kk->d, p, kk->t, kk->tw, kk->td, kk->t1, &early);
        if (ph == 0 || early)
            continue;
        double wheel = path_wheel(&fr[bm], p);
        cs_rect fin = path_pose(charger, &fr[bm], p, wheel);
        int hit = -1;
        for (int o = 0; o < n_others && hit < 0; o++) {
            cs_poly op = cs_geom_rect_poly(&others[o]);
            cs_vec2 ol[4];
            poly_local(&fr[bm], op.v, 4, ol);
            bool dummy;
            if (path_touch(kk->hw, kk->d, p, ol, others[o].width, others[o].depth, NAN, &dummy) !=
                0)
                hit = o;
        }
        if (hit >= 0 && out->found)
            continue;
        cs_seg fw = { to_world(&fr[bm], c[0]), to_world(&fr[bm], c[3]) };
        if (fr[bm].sx < 0) { /* mirrored: the frame's FL is the world's FR */
            cs_vec2 t = fw.a;
            fw.a = fw.b;
            fw.b = t;
        }
        snake_result(charger, wheel, p, fin, fw, e, hit, out);
        if (hit < 0)
            return true;
    }
    return out->found && out->touches < 0;
}

void cs_geom_snake(const cs_rect *charger, const cs_rect *target, cs_facing f,
                   const cs_rect *others, int n_others, cs_snake *out)
{
    out->found = false;
    out->touches = -1;
    snake_ctx k[2];
    frame fr[2];
    cs_seg e = cs_geom_edge(target, f);
    cs_vec2 n = edge_normal(target, f);
    snake_frame(charger, 1.0, &fr[0]);
    fr[1] = fr[0];
    fr[1].sx = -1.0;
    /* the target in the unmirrored frame: its centre, right and forward
     * vectors, and its outline in cs_geom_rect_poly's order (FL, RL, RR,
     * FR, counter-clockwise) */
    cs_vec2 tc = to_local(&fr[0], target->c);
    cs_vec2 tr = v2(dot(target->right, charger->right), dot(target->right, charger->fwd));
    cs_vec2 tf = v2(dot(target->fwd, charger->right), dot(target->fwd, charger->fwd));
    cs_vec2 thw = scale(tr, 0.5 * target->width), thd = scale(tf, 0.5 * target->depth);
    k[0].t[0] = add(tc, sub(thd, thw));
    k[0].t[1] = sub(tc, add(thw, thd));
    k[0].t[2] = add(tc, sub(thw, thd));
    k[0].t[3] = add(tc, add(thw, thd));
    k[0].tc = tc;
    k[0].tu = tr;
    k[0].e[0] = to_local(&fr[0], e.a);
    k[0].e[1] = to_local(&fr[0], e.b);
    k[0].n = v2(dot(n, charger->right), dot(n, charger->fwd));
    for (int m = 0; m < 2; m++) {
        k[m].hw = 0.5 * charger->width;
        k[m].w = charger->width;
        k[m].d = charger->depth;
        k[m].tw = target->width;
        k[m].td = target->depth;
        k[m].nc = 0;
    }
    /* the same in both frames: the mirror keeps distances along y */
    k[0].t1 = k[1].t1 =
        box_sweep_start(k[0].w, k[0].d, k[0].t, target->width, target->depth);
    /* The straight path first: when no path can cost less (straight_least,
     * or else the two frames' bounds), it is the cheapest. Then the wheels,
     * the frame whose bound is lower first; the other frame is skipped when
     * a clean path found already costs no more than its bound. */
    add_path(&k[0], seg_contact(v2(-k[0].hw, 0), v2(k[0].hw, 0), v2(0, 1), k[0].e[0], k[0].e[1]),
             v2(1, 0), 0);
    double lb[2] = { NAN, NAN };
    bool least = false;
    if (k[0].nc == 1) {
        /* no path costs less than the facing's least y (no point of the
         * front edge advances more than the cost): often enough at once */
        double s = k[0].cand[0].cost;
        least = dmin(k[0].e[0].y, k[0].e[1].y) + 1e-12 >= s || straight_least(&k[0], s);
        /* the straight path alone, the mirrored frame not needed */
        if (least && try_candidates(charger, e, others, n_others, k, fr, out))
            return;
    }
    /* the mirrored frame: x -> -x, the outline reversed to stay
     * counter-clockwise */
    for (int i = 0; i < 4; i++)
        k[1].t[3 - i] = v2(-k[0].t[i].x, k[0].t[i].y);
    k[1].tc = v2(-tc.x, tc.y);
    k[1].tu = v2(-tr.x, tr.y);
    for (int i = 0; i < 2; i++)
        k[1].e[i] = v2(-k[0].e[i].x, k[0].e[i].y);
    k[1].n = v2(-k[0].n.x, k[0].n.y);
    if (k[0].nc == 1 && !least) {
        /* the frames' bounds cover the paths of both, and together every
         * path */
        lb[0] = snake_lower_bound(&k[0], k[0].hw);
        lb[1] = snake_lower_bound(&k[1], k[1].hw);
        least = k[0].cand[0].cost <= dmin(lb[0], lb[1]) + 1e-12;
        if (least && try_candidates(charger, e, others, n_others, k, fr, out))
            return;
    }
    if (isnan(lb[0])) {
        lb[0] = snake_lower_bound(&k[0], k[0].hw);
        lb[1] = snake_lower_bound(&k[1], k[1].hw);
    }
    int first = lb[1] < lb[0];
    for (int r = 0; r < 2; r++) {
        int m = r ? 1 - first : first;
        if (out->found && out->touches < 0 && out->cost <= lb[m] + 1e-12)
            break;
        snake_candidates(&k[m]);
        if (try_candidates(charger, e, others, n_others, k, fr, out) && r == 1)
            return;
    }
}

bool cs_geom_snake_sweep_hits(const cs_rect *r, double forward1, double wheel, double forward2,
                              const cs_rect *other)
{
    frame fr;
    snake_frame(r, wheel < 0 ? -1.0 : 1.0, &fr);
    cs_poly op = cs_geom_rect_poly(other);
    cs_vec2 ol[4];
    poly_local(&fr, op.v, 4, ol);
    double th = fabs(wheel) * DEG;
    path p = { forward1, forward2, 0, v2(cos(th), sin(th)), true };
    bool early;
    return path_touch(0.5 * r->width, r->depth, &p, ol, other->width, other->depth, NAN, &early) !=
           0;
}

/* ---- the align move ----------------------------------------------------- */

/* The charger flush against facing segment e (length l, unit direction u,
 * outward normal n), covering e's parameters [s, s + w]: facing e from
 * outside, its front-right corner is at parameter s (geom.h: a unit facing
 * an edge has its front-left corner towards the edge's `b` end). */
static cs_rect flush_pose(const cs_rect *ch, cs_vec2 ea, cs_vec2 u, cs_vec2 n, double s)
{
    double facing = atan2(n.x, -n.y) / DEG; /* fwd = (-sin, cos) = -n */
    return cs_geom_rect_front_at(add(ea, scale(u, s + 0.5 * ch->width)), ch->width, ch->depth,
                                 facing);
}

void cs_geom_align(const cs_rect *charger, const cs_formation *charger_models,
                   const cs_rect *target, const cs_formation *target_models, cs_facing f,
                   cs_vec2 contact, const cs_rect *others, int n_others, cs_align *out)
{
    cs_seg e = cs_geom_edge(target, f);
    double l = edge_length(target, f), w = charger->width;
    cs_vec2 u = scale(sub(e.b, e.a), 1.0 / l), n = edge_normal(target, f);
    double tc = dmin(dmax(dot(sub(contact, e.a), u), 0.0), l);
    /* keeping the contact point in contact: s in [tc - w, tc] */
    double lo = tc - w, hi = tc;
    double now = dot(sub(cs_geom_corner(charger, CS_CORNER_FR), e.a), u);
    double cand[128];
    int nc = 0;
    cand[nc++] = lo;
    cand[nc++] = hi;
    cand[nc++] = dmin(dmax(now, lo), hi);
    cand[nc++] = 0;
    cand[nc++] = l - w;
    /* where a model boundary of either unit meets an end of the other's
     * edge, the counts change */
    double x0, step;
    int nt = edge_cells(target, target_models, f, &x0, &step);
    for (int k = 0; k <= nt && nc < 80; k++) {
        cand[nc++] = x0 + k * step;
        cand[nc++] = x0 + k * step - w;
    }
    int ncm = edge_cells(charger, charger_models, CS_FRONT, &x0, &step);
    for (int k = 0; k <= ncm && nc < 116; k++) {
        /* charger parameter p sits at s + w - p on the facing */
        cand[nc++] = x0 + k * step - w;
        cand[nc++] = l + x0 + k * step - w;
    }
    /* where the charger, slid along the facing, starts or stops touching
     * another unit: from far away on each side, the first contact */
    double blk[2 * 8];
    int nb = 0;
    const double far = 1000.0 + l + 2 * w;
    for (int o = 0; o < n_others && o < 8; o++) {
        cs_poly op = cs_geom_rect_poly(&others[o]);
        cs_rect pa = flush_pose(charger, e.a, u, n, -far), pb = flush_pose(charger, e.a, u, n, far);
        cs_poly qa = cs_geom_rect_poly(&pa), qb = cs_geom_rect_poly(&pb);
        double ta = first_contact(qa.v, 4, u, op.v, 4, 0.0);
        double tb = first_contact(qb.v, 4, scale(u, -1.0), op.v, 4, 0.0);
        if (isfinite(ta) && isfinite(tb)) {
            blk[nb++] = -far + ta;
            blk[nb++] = far - tb;
            if (nc < 126) {
                cand[nc++] = -far + ta;
                cand[nc++] = far - tb;
            }
        }
    }
    out->flush = false;
    int best_t = -1, best_c = -1;
    double best_move = INFINITY, best_s = 0;
    for (int i = 0; i < nc; i++) {
        double s = cand[i];
        if (s < lo - 1e-12 || s > hi + 1e-12)
            continue;
        s = dmin(dmax(s, lo), hi);
        bool free = true;
        for (int b = 0; b < nb && free; b += 2)
            if (s > blk[b] + CS_GEOM_EPS && s < blk[b + 1] - CS_GEOM_EPS)
                free = false;
        if (!free)
            continue;
        double t0 = dmax(s, 0.0), t1 = dmin(s + w, l);
        int mt = cs_geom_models_on_edge(target, target_models, f, t0, t1);
        /* the charger's front parameter of facing parameter t is s + w - t */
        int mc = cs_geom_models_on_edge(charger, charger_models, CS_FRONT, s + w - t1, s + w - t0);
        double move = fabs(s - now);
        if (mt > best_t || (mt == best_t && (mc > best_c || (mc == best_c && move < best_move)))) {
            best_t = mt;
            best_c = mc;
            best_move = move;
            best_s = s;
            out->flush = true;
        }
    }
    if (!out->flush) {
        out->final = *charger;
        out->overlap = 0;
        out->models_target = 0;
        out->models_charger = 0;
        return;
    }
    out->final = flush_pose(charger, e.a, u, n, best_s);
    out->overlap = dmin(best_s + w, l) - dmax(best_s, 0.0);
    out->models_target = best_t;
    out->models_charger = best_c;
}
