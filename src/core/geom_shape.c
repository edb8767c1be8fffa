/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Rectangles and polygons: construction, corners and edges, areas, the
 * convex hull, and the models of a formation along an edge (geom_shape.h). */
#include "geom_internal.h"

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

double cs_geom_facing_of(cs_vec2 v)
{
    return atan2(-v.x, v.y) / DEG;
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

double cs_geom_poly_area(const cs_poly *p)
{
    return fabs(signed_area(p->v, p->n));
}


/* ---- convex hull -------------------------------------------------------- */

/* Andrew's monotone chain: the lower chain left to right, then the upper
 * chain back; a turn that is not strictly left (cross <= 0) drops the
 * middle point, so collinear points are not vertices. */
int cs_geom_hull(cs_vec2 *p, int n, cs_vec2 *out)
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
int cs_geom_edge_cells(const cs_rect *r, const cs_formation *fm, cs_facing f, double *x0,
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
    int n = cs_geom_edge_cells(r, fm, f, &x0, &step);
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
