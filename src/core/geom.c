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
    double s = sin(r->facing * DEG), c = cos(r->facing * DEG);
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

int cs_geom_models_on_edge(const cs_rect *r, const cs_formation *fm, cs_facing f,
                           double t0, double t1)
{
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
        return count_cells(0.5 * (files - k) * sw, sw, k, t0, t1);
    }
    case CS_REAR:
        /* centred, so symmetric: the reversed parameter does not matter */
        return count_cells(0.5 * (files - last) * sw, sw, last, t0, t1);
    case CS_LEFT:
    case CS_RIGHT: {
        /* rank i (0 = front) reaches the flank when full; the right edge runs
         * front to rear from its `a` end, the left edge rear to front */
        int full = last == files ? ranks : ranks - 1;
        if (f == CS_RIGHT)
            return count_cells(0.0, sd, full, t0, t1);
        return count_cells(r->depth - full * sd, sd, full, t0, t1);
    }
    }
    return 0;
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
static int clip_half(const cs_vec2 *v, int n, double a, double b, double c, cs_vec2 *out)
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

void cs_geom_arc_share(const cs_rect *r, const cs_rect *other, cs_arc_share *out)
{
    double hw = 0.5 * r->width, hd = 0.5 * r->depth, k = hw - hd;
    cs_vec2 c[4];
    cs_geom_corners(other, c);
    for (int i = 0; i < 4; i++)
        c[i] = local(r, c[i]);
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
    double h[4][3][3];
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
    /* Most placements put the whole rectangle in one arc: test the corners
     * against each arc's half-planes before clipping anything. */
    int inside_all = -1;
    bool touches[4];
    for (int a = 0; a < 4; a++) {
        int in = 0;
        bool out_of_one = false;
        for (int j = 0; j < 3; j++) {
            int cnt = 0;
            for (int i = 0; i < 4; i++)
                cnt += h[a][j][0] * c[i].x + h[a][j][1] * c[i].y <= h[a][j][2];
            if (cnt == 4)
                in++;
            else if (cnt == 0)
                out_of_one = true;
        }
        touches[a] = !out_of_one;
        if (in == 3)
            inside_all = a;
    }
    out->overlap = 0;
    for (int a = 0; a < 4; a++)
        out->area[a] = 0;
    if (inside_all >= 0) {
        out->area[inside_all] = total;
    } else {
        for (int a = 0; a < 4; a++)
            if (touches[a])
                out->area[a] = clipped_area(c, 4, h[a], 3);
        if (cs_geom_rects_overlap(r, other)) {
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

static bool segs_cross(cs_seg s, cs_seg t)
{
    cs_vec2 d = sub(s.b, s.a), e = sub(t.b, t.a);
    double den = cross(d, e);
    if (den == 0)
        return false; /* parallel: the endpoint distances decide */
    cs_vec2 w = sub(t.a, s.a);
    double a = cross(w, e) / den, b = cross(w, d) / den;
    return a >= 0 && a <= 1 && b >= 0 && b <= 1;
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
            if (dn >= -1e-15)
                continue; /* moving along or away from this edge */
            for (int k = 0; k < np; k++) {
                double h = dot(sub(p[k], q[j]), n) - g; /* height above the offset edge */
                if (h < -CS_GEOM_EPS)
                    continue; /* already past it: not an approach to this edge */
                double t = -h / dn;
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
                double disc = bq * bq - cq;
                if (disc < 0)
                    continue;
                double t = -bq - sqrt(disc);
                if (t < -CS_GEOM_EPS || bq + t >= 0)
                    continue; /* entry in the past, or not approaching */
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
