/* Geometry kernel: hand-computed cases (the computation is in the comment
 * of each) and property tests over random layouts at fixed seeds. */
#include <criterion/criterion.h>
#include <math.h>

#include "chargesim/geom.h"
#include "chargesim/rng.h"

#define EX 1e-12 /* exact computations */
#define PI 3.14159265358979323846

static cs_vec2 P(double x, double y)
{
    cs_vec2 p = { x, y };
    return p;
}

static cs_poly box(double x0, double y0, double x1, double y1)
{
    cs_poly p = { 4, { { x0, y0 }, { x1, y0 }, { x1, y1 }, { x0, y1 } } };
    return p;
}

#define expect_pt(p, X, Y, eps)                                                     \
    do {                                                                            \
        cr_expect_float_eq((p).x, (X), (eps), "x %.17g want %.17g", (p).x, (double)(X)); \
        cr_expect_float_eq((p).y, (Y), (eps), "y %.17g want %.17g", (p).y, (double)(Y)); \
    } while (0)

/* ---- construction ------------------------------------------------------- */

Test(geom, corners_and_edges)
{
    /* 4 wide, 2 deep, at the origin facing +y: FL (-2,1), FR (2,1),
     * RR (2,-1), RL (-2,-1). */
    cs_rect r = cs_geom_rect(P(0, 0), 4, 2, 0);
    cs_vec2 c[4];
    cs_geom_corners(&r, c);
    expect_pt(c[CS_CORNER_FL], -2, 1, EX);
    expect_pt(c[CS_CORNER_FR], 2, 1, EX);
    expect_pt(c[CS_CORNER_RR], 2, -1, EX);
    expect_pt(c[CS_CORNER_RL], -2, -1, EX);
    cs_seg e = cs_geom_edge(&r, CS_LEFT); /* RL -> FL */
    expect_pt(e.a, -2, -1, EX);
    expect_pt(e.b, -2, 1, EX);
    expect_pt(cs_geom_edge_centre(&r, CS_REAR), 0, -1, EX);
    /* facing 90 points along -x; right is +y: FL = c - 2*right + 1*fwd */
    cs_rect q = cs_geom_rect(P(0, 0), 4, 2, 90);
    expect_pt(cs_geom_corner(&q, CS_CORNER_FL), -1, -2, EX);
    expect_pt(cs_geom_corner(&q, CS_CORNER_FR), -1, 2, EX);
    /* front edge centre at (3,4), facing 180: the centre is 1 further +y */
    cs_rect f = cs_geom_rect_front_at(P(3, 4), 4, 2, 180);
    expect_pt(f.c, 3, 5, EX);
    cs_poly p = cs_geom_rect_poly(&r);
    cr_expect_float_eq(cs_geom_poly_area(&p), 8.0, EX);
}

Test(geom, models_on_edges)
{
    /* 12 models, 5 files on a 5 x 3 rectangle: 3 ranks of 1 x 1 cells, the
     * last rank 2 models centred at [1.5, 3.5]. */
    cs_rect r = cs_geom_rect(P(0, 0), 5, 3, 0);
    cs_formation fm = { 5, 12 };
    cr_expect_eq(cs_geom_models_on_edge(&r, &fm, CS_FRONT, 0, 5), 5);
    cr_expect_eq(cs_geom_models_on_edge(&r, &fm, CS_FRONT, 1, 2), 3); /* corners touch */
    cr_expect_eq(cs_geom_models_on_edge(&r, &fm, CS_FRONT, 1.5, 1.5), 1);
    cr_expect_eq(cs_geom_models_on_edge(&r, &fm, CS_REAR, 0, 5), 2);
    cr_expect_eq(cs_geom_models_on_edge(&r, &fm, CS_REAR, 0, 1), 0);
    /* flanks: only the two full ranks reach them; right runs FR -> RR */
    cr_expect_eq(cs_geom_models_on_edge(&r, &fm, CS_RIGHT, 0, 3), 2);
    cr_expect_eq(cs_geom_models_on_edge(&r, &fm, CS_RIGHT, 2.5, 3), 0);
    /* left runs RL -> FL: the full ranks are at [1, 3] */
    cr_expect_eq(cs_geom_models_on_edge(&r, &fm, CS_LEFT, 0, 0.5), 0);
    cr_expect_eq(cs_geom_models_on_edge(&r, &fm, CS_LEFT, 2.5, 3), 1);
    cr_expect_eq(cs_geom_models_on_edge(&r, NULL, CS_FRONT, 0, 5), 0);
    /* three models in one rank of five files: centred at [1, 4] */
    cs_formation few = { 5, 3 };
    cr_expect_eq(cs_geom_models_on_edge(&r, &few, CS_FRONT, 0, 0.9), 0);
    cr_expect_eq(cs_geom_models_on_edge(&r, &few, CS_FRONT, 0, 5), 3);
}

Test(geom, edge_contact_counts)
{
    /* a: 5 x 1 facing +y, front edge y = 0.5, x in [-2.5, 2.5]; b: 3 x 1
     * facing -y with centre (1, 1): front edge y = 0.5, x in [-0.5, 2.5].
     * Shared part x in [-0.5, 2.5], length 3; a's models (1 wide from
     * x = -2.5) touching it: [-1.5,-0.5] (corner) to [1.5,2.5]: 4. */
    cs_rect a = cs_geom_rect(P(0, 0), 5, 1, 0);
    cs_rect b = cs_geom_rect(P(1, 1), 3, 1, 180);
    cs_formation fa = { 5, 5 }, fb = { 3, 3 };
    int na, nb;
    double l = cs_geom_edge_contact(&a, &fa, CS_FRONT, &b, &fb, CS_FRONT, &na, &nb);
    cr_expect_float_eq(l, 3.0, EX);
    cr_expect_eq(na, 4);
    cr_expect_eq(nb, 3);
    /* a gap of 0.1: no contact */
    cs_rect c = cs_geom_rect(P(1, 1.1), 3, 1, 180);
    cr_expect_lt(cs_geom_edge_contact(&a, &fa, CS_FRONT, &c, &fb, CS_FRONT, &na, &nb), 0);
    cr_expect_eq(na, 0);
    /* parallel but same facing direction: not facing each other */
    cr_expect_lt(cs_geom_edge_contact(&a, &fa, CS_FRONT, &b, &fb, CS_REAR, &na, &nb), 0);
}

/* ---- arcs --------------------------------------------------------------- */

Test(geom, arc_of_point)
{
    /* r: 4 x 2 at the origin facing +y; the FR ray is y - 1 = x - 2. */
    cs_rect r = cs_geom_rect(P(0, 0), 4, 2, 0);
    cr_expect_eq(cs_geom_arc_of_point(&r, P(0, 5)), CS_FRONT);
    cr_expect_eq(cs_geom_arc_of_point(&r, P(5, 0)), CS_RIGHT);
    cr_expect_eq(cs_geom_arc_of_point(&r, P(-5, 0)), CS_LEFT);
    cr_expect_eq(cs_geom_arc_of_point(&r, P(0, -5)), CS_REAR);
    /* exactly on the 45-degree rays: flank */
    cr_expect_eq(cs_geom_arc_of_point(&r, P(5, 4)), CS_RIGHT);
    cr_expect_eq(cs_geom_arc_of_point(&r, P(-5, 4)), CS_LEFT);
    cr_expect_eq(cs_geom_arc_of_point(&r, P(5, -4)), CS_RIGHT);
    cr_expect_eq(cs_geom_arc_of_point(&r, P(-5, -4)), CS_LEFT);
    /* just inside the front and rear wedges */
    cr_expect_eq(cs_geom_arc_of_point(&r, P(4.9, 4)), CS_FRONT);
    cr_expect_eq(cs_geom_arc_of_point(&r, P(-4.9, -4)), CS_REAR);
    /* on the front edge: front; the corner: flank; inside: nearest edge */
    cr_expect_eq(cs_geom_arc_of_point(&r, P(1, 1)), CS_FRONT);
    cr_expect_eq(cs_geom_arc_of_point(&r, P(2, 1)), CS_RIGHT);
    cr_expect_eq(cs_geom_arc_of_point(&r, P(0, 0.9)), CS_FRONT);
    cr_expect_eq(cs_geom_arc_of_point(&r, P(-1.9, 0)), CS_LEFT);
    /* a rotated unit: facing 90 (front towards -x) */
    cs_rect q = cs_geom_rect(P(10, 10), 4, 2, 90);
    cr_expect_eq(cs_geom_arc_of_point(&q, P(0, 10)), CS_FRONT);
    cr_expect_eq(cs_geom_arc_of_point(&q, P(10, 20)), CS_RIGHT);
}

Test(geom, arc_share_hand_cases)
{
    cs_rect r = cs_geom_rect(P(0, 0), 4, 2, 0);
    cs_arc_share s;
    /* wholly in front */
    cs_rect a = cs_geom_rect(P(0, 5), 2, 2, 180);
    cs_geom_arc_share(&r, &a, &s);
    cr_expect_float_eq(s.area[CS_FRONT], 4.0, EX);
    cr_expect_eq(s.majority, CS_FRONT);
    cr_expect(!s.tie);
    /* square [4,6]x[3,5]: its diagonal is the FR ray y = x - 1: 2 and 2 */
    cs_rect b = cs_geom_rect(P(5, 4), 2, 2, 0);
    cs_geom_arc_share(&r, &b, &s);
    cr_expect_float_eq(s.area[CS_FRONT], 2.0, EX);
    cr_expect_float_eq(s.area[CS_RIGHT], 2.0, EX);
    cr_expect(s.tie);
    cr_expect_eq(s.majority, CS_FRONT);
    cr_expect_eq(s.tie_with, CS_RIGHT);
    /* square [4,6]x[2,4]: above y = x - 1 is the triangle (4,4) (4,3) (5,4),
     * area 1/2; the rest, 3.5, is in the right arc */
    cs_rect c = cs_geom_rect(P(5, 3), 2, 2, 90);
    cs_geom_arc_share(&r, &c, &s);
    cr_expect_float_eq(s.area[CS_FRONT], 0.5, EX);
    cr_expect_float_eq(s.area[CS_RIGHT], 3.5, EX);
    cr_expect_eq(s.majority, CS_RIGHT);
    cr_expect(!s.tie);
    /* the same rectangle as r: all of it overlaps, no arc */
    cs_geom_arc_share(&r, &r, &s);
    cr_expect_float_eq(s.overlap, 8.0, EX);
    /* the rear-left ray from (-2,-1) runs along y = x + 1; a square turned
     * 45 degrees centred on it at (-3,-2) has two sides parallel to it, so
     * the ray halves it: 2 and 2, a tie between left and rear */
    cs_rect d = cs_geom_rect(P(-3, -2), 2, 2, 45);
    cs_geom_arc_share(&r, &d, &s);
    cr_expect_float_eq(s.area[CS_LEFT], 2.0, 1e-12);
    cr_expect_float_eq(s.area[CS_REAR], 2.0, 1e-12);
    cr_expect(s.tie);
    cr_expect_eq(s.majority, CS_LEFT);
    cr_expect_eq(s.tie_with, CS_REAR);
}

Test(geom, arc_share_property_sums)
{
    /* property: the four arc areas plus the overlap are the rectangle's
     * area, for random sizes, positions and angles (seed 7). */
    cs_rng g;
    cs_rng_seed(&g, 7, 1);
    for (int i = 0; i < 20000; i++) {
        cs_rect r = cs_geom_rect(P(0, 0), 1 + 9 * cs_rng_uniform(&g), 0.5 + 4 * cs_rng_uniform(&g),
                                 360 * cs_rng_uniform(&g));
        cs_rect o = cs_geom_rect(P(16 * cs_rng_uniform(&g) - 8, 16 * cs_rng_uniform(&g) - 8),
                                 1 + 9 * cs_rng_uniform(&g), 0.5 + 4 * cs_rng_uniform(&g),
                                 360 * cs_rng_uniform(&g));
        cs_arc_share s;
        cs_geom_arc_share(&r, &o, &s);
        double sum = s.area[0] + s.area[1] + s.area[2] + s.area[3] + s.overlap;
        double want = o.width * o.depth;
        cr_assert_float_eq(sum, want, 1e-9 * want, "trial %d: %.15g vs %.15g", i, sum, want);
        for (int a = 0; a < 4; a++)
            cr_assert_geq(s.area[s.majority], s.area[a] - 1e-9 * want);
        /* the centre's arc holds some of the area unless it is inside r */
        cs_facing ca = cs_geom_arc_of_point(&r, o.c);
        if (s.overlap == 0)
            cr_assert_gt(s.area[ca], 0, "trial %d", i);
    }
}

/* ---- distances ---------------------------------------------------------- */

Test(geom, distances)
{
    cs_seg s = { { 0, 0 }, { 4, 0 } };
    cr_expect_float_eq(cs_geom_dist_point_seg(P(2, 3), s), 3.0, EX);
    cr_expect_float_eq(cs_geom_dist_point_seg(P(7, 4), s), 5.0, EX); /* 3-4-5 past b */
    cr_expect_float_eq(cs_geom_dist_point_seg(P(1, 0), s), 0.0, EX);
    cs_seg t = { { 2, -1 }, { 2, 1 } };
    cr_expect_float_eq(cs_geom_dist_seg_seg(s, t), 0.0, EX);
    cs_seg u = { { 5, 1 }, { 8, 5 } };
    cr_expect_float_eq(cs_geom_dist_seg_seg(s, u), sqrt(2.0), EX);
    /* head-on, front edges at y = 1 and y = 4: gap 3 */
    cs_rect a = cs_geom_rect(P(0, 0), 4, 2, 0);
    cs_rect b = cs_geom_rect(P(0, 5), 4, 2, 180);
    cr_expect_float_eq(cs_geom_dist_rect_rect(&a, &b), 3.0, EX);
    cr_expect_float_eq(cs_geom_front_to_facing(&a, &b, CS_FRONT), 3.0, EX);
    cr_expect_float_eq(cs_geom_front_to_facing(&a, &b, CS_REAR), 5.0, EX);
    cr_expect_float_eq(cs_geom_front_to_facing(&a, &b, CS_LEFT), sqrt(4.0 + 16.0), EX); /* (0,1) to (2,5) */
    /* touching, and overlapping: 0 */
    cs_rect c = cs_geom_rect(P(0, 2), 4, 2, 180);
    cr_expect_float_eq(cs_geom_dist_rect_rect(&a, &c), 0.0, EX);
    cr_expect(!cs_geom_rects_overlap(&a, &c));
    cs_rect d = cs_geom_rect(P(1, 1), 4, 2, 30);
    cr_expect_float_eq(cs_geom_dist_rect_rect(&a, &d), 0.0, EX);
    cr_expect(cs_geom_rects_overlap(&a, &d));
    /* a unit square with its RL corner at (3,2), diagonal from a's FR corner
     * (2,1) from (3,2): corner to corner sqrt(2) */
    cs_rect e = cs_geom_rect(P(3.5, 2.5), 1, 1, 0);
    cr_expect_float_eq(cs_geom_dist_rect_rect(&a, &e), sqrt(2.0), 1e-12);
    cs_poly bx = box(5, -1, 6, 1);
    cr_expect_float_eq(cs_geom_dist_rect_poly(&a, &bx), 3.0, EX);
}

/* ---- line of sight ------------------------------------------------------ */

Test(geom, field_of_view)
{
    /* front edge y = 1, x in [-2,2]; arc 90: limit rays from (2,1) along
     * (1,1) and from (-2,1) along (-1,1) */
    cs_rect v = cs_geom_rect(P(0, 0), 4, 2, 0);
    cr_expect(cs_geom_in_fov(&v, 90, P(5, 4)));   /* on the limit ray */
    cr_expect(!cs_geom_in_fov(&v, 90, P(5.1, 4)));
    cr_expect(cs_geom_in_fov(&v, 90, P(-5, 4)));
    cr_expect(cs_geom_in_fov(&v, 90, P(0, 1)));   /* on the front edge */
    cr_expect(!cs_geom_in_fov(&v, 90, P(0, 0.5)));
    /* arc 180: the whole half-plane beyond the front edge */
    cr_expect(cs_geom_in_fov(&v, 180, P(100, 1)));
    cr_expect(!cs_geom_in_fov(&v, 180, P(100, 0.99)));
    /* arc 45 (the literal SOVL reading): rays at 22.5 degrees off forward;
     * at height 10 above the edge the limit is x = 2 + 10 tan(22.5) */
    double xl = 2 + 10 * tan(22.5 * PI / 180);
    cr_expect(cs_geom_in_fov(&v, 45, P(xl - 1e-6, 11)));
    cr_expect(!cs_geom_in_fov(&v, 45, P(xl + 1e-6, 11)));
    /* a target straddling the limit is partly in view; one beyond it not */
    cs_rect t1 = cs_geom_rect(P(6, 4), 2, 2, 180);
    cs_rect t2 = cs_geom_rect(P(9, 4), 2, 2, 180);
    cr_expect(cs_geom_rect_in_fov(&v, 90, t1.c.x > 0 ? &t1 : &t2));
    cr_expect(!cs_geom_rect_in_fov(&v, 90, &t2));
    /* behind: never */
    cs_rect t3 = cs_geom_rect(P(0, -5), 2, 2, 0);
    cr_expect(!cs_geom_rect_in_fov(&v, 180, &t3));
}

Test(geom, segment_crosses_polygon)
{
    cs_poly sq = box(0, 0, 2, 2);
    cs_seg through = { { -1, 1 }, { 3, 1 } };
    cs_seg along = { { -1, 0 }, { 3, 0 } };     /* runs along an edge */
    cs_seg diag = { { -1, -1 }, { 1, 1 } };     /* enters at the corner */
    cs_seg graze = { { -1, 1 }, { 1, -1 } };    /* touches the corner only */
    cs_seg short_of = { { -1, 1 }, { 0, 1 } };  /* ends on the edge */
    cr_expect(cs_geom_seg_crosses_poly(through, &sq));
    cr_expect(!cs_geom_seg_crosses_poly(along, &sq));
    cr_expect(cs_geom_seg_crosses_poly(diag, &sq));
    cr_expect(!cs_geom_seg_crosses_poly(graze, &sq));
    cr_expect(!cs_geom_seg_crosses_poly(short_of, &sq));
}

Test(geom, line_of_sight_blockers)
{
    cs_rect v = cs_geom_rect(P(0, 0), 4, 2, 0);       /* front edge y = 1 */
    cs_rect t = cs_geom_rect(P(0, 10), 4, 2, 180);    /* front edge y = 9 */
    cr_expect(cs_geom_los(&v, 90, &t, NULL, 0));
    cs_poly mid = box(-1, 4, 1, 6);
    cr_expect(cs_geom_los(&v, 90, &t, &mid, 1));      /* seen past it */
    cs_poly wall = box(-10, 4, 10, 6);
    cr_expect(!cs_geom_los(&v, 90, &t, &wall, 1));
    cs_poly gap[2] = { box(-10, 4, -0.5, 6), box(0.5, 4, 10, 6) };
    cr_expect(cs_geom_los(&v, 90, &t, gap, 2));
    /* Staggered walls meeting at the point (0,5): x < 0 blocked for
     * 4 < y < 5, x > 0 for 5 < y < 6. Only lines through (0,5) leaning
     * left pass, e.g. (2,1) to (-2,9): 26.6 degrees off forward. */
    cs_poly stag[2] = { box(-10, 4, 0, 5), box(0, 5, 10, 6) };
    cr_expect(cs_geom_los(&v, 90, &t, stag, 2));
    /* with arc 40 (20 degrees each way) that line is out of the arc; the
     * steepest one, 20 degrees, still passes through (0,5) from
     * x = 4 tan 20 = 1.46 on the front edge: in view */
    cr_expect(cs_geom_los(&v, 40, &t, stag, 2));
    /* overlapping staggered walls leave no line at all */
    cs_poly shut[2] = { box(-10, 4, 0.3, 5), box(-0.3, 5, 10, 6) };
    cr_expect(!cs_geom_los(&v, 90, &t, shut, 2));
    /* the target out of the arc: no line of sight whatever the blockers */
    cs_rect far = cs_geom_rect(P(20, 3), 2, 2, 180);
    cr_expect(!cs_geom_los(&v, 90, &far, NULL, 0));
}

Test(geom, line_of_sight_property_sampled_lines)
{
    /* property (seed 13): whenever a sampled sight line (a point of the
     * front edge to a point of the target, within 45 degrees of forward)
     * crosses no blocker, cs_geom_los finds line of sight; and it never
     * finds it for a target wholly outside the field of view */
    cs_rng g;
    cs_rng_seed(&g, 13, 5);
    int seen = 0, sampled_free = 0;
    for (int i = 0; i < 300; i++) {
        cs_rect v = cs_geom_rect_front_at(P(0, 0), 2 + 4 * cs_rng_uniform(&g), 1, 0);
        cs_rect t = cs_geom_rect_front_at(P(24 * cs_rng_uniform(&g) - 12, 4 + 10 * cs_rng_uniform(&g)),
                                          1 + 4 * cs_rng_uniform(&g), 1 + 2 * cs_rng_uniform(&g),
                                          360 * cs_rng_uniform(&g));
        cs_poly bl[3];
        int nb = 0;
        for (int k = 0; k < 3; k++) {
            cs_rect b = cs_geom_rect(P(20 * cs_rng_uniform(&g) - 10, 1.5 + 10 * cs_rng_uniform(&g)),
                                     0.5 + 3 * cs_rng_uniform(&g), 0.3 + 2 * cs_rng_uniform(&g),
                                     360 * cs_rng_uniform(&g));
            if (cs_geom_rects_overlap(&b, &t) || cs_geom_dist_rect_rect(&b, &v) < 0.1)
                continue;
            bl[nb++] = cs_geom_rect_poly(&b);
        }
        bool los = cs_geom_los(&v, 90, &t, bl, nb);
        seen += los;
        if (!cs_geom_rect_in_fov(&v, 90, &t))
            cr_assert(!los, "layout %d", i);
        cs_seg fe = cs_geom_edge(&v, CS_FRONT);
        for (int j = 0; j < 400; j++) {
            double a = cs_rng_uniform(&g);
            cs_vec2 p = { fe.a.x + a * (fe.b.x - fe.a.x), fe.a.y + a * (fe.b.y - fe.a.y) };
            double du = cs_rng_uniform(&g) - 0.5, dv = cs_rng_uniform(&g) - 0.5;
            cs_vec2 q = { t.c.x + du * t.width * t.right.x + dv * t.depth * t.fwd.x,
                          t.c.y + du * t.width * t.right.y + dv * t.depth * t.fwd.y };
            double dx = q.x - p.x, dy = q.y - p.y;
            if (dy <= 0 || fabs(dx) > dy)
                continue; /* beyond 45 degrees off forward */
            cs_seg sl = { p, q };
            bool free = true;
            for (int k = 0; k < nb && free; k++)
                free = !cs_geom_seg_crosses_poly(sl, &bl[k]);
            if (free) {
                sampled_free++;
                cr_assert(los, "layout %d: a free line from (%g,%g) to (%g,%g)", i, p.x, p.y, q.x, q.y);
                break;
            }
        }
    }
    cr_expect_gt(seen, 50);
    cr_expect_gt(sampled_free, 50);
}

/* ---- moves -------------------------------------------------------------- */

Test(geom, pivot_and_wheel)
{
    cs_rect r = cs_geom_rect(P(0, 0), 4, 2, 0);
    cs_rect p = cs_geom_pivot(&r, 90);
    expect_pt(p.c, 0, 0, EX);
    expect_pt(cs_geom_corner(&p, CS_CORNER_FL), -1, -2, EX);
    /* left wheel 90 about FL (-2,1): the centre (0,0) turns to
     * (-2,1) + rot90((2,-1)) = (-1,3); FR goes to (-2,1) + 4*(0,1) */
    cs_rect w = cs_geom_wheel(&r, 90);
    expect_pt(w.c, -1, 3, 1e-12);
    expect_pt(cs_geom_corner(&w, CS_CORNER_FL), -2, 1, 1e-12);
    expect_pt(cs_geom_corner(&w, CS_CORNER_FR), -2, 5, 1e-12);
    cr_expect_float_eq(cs_geom_wheel_cost(4, 90), 4.0, EX);
    cr_expect_float_eq(cs_geom_wheel_arc(4, 90), 2 * PI, EX);
    /* 0 degrees: nothing moves, nothing spent */
    cs_rect z = cs_geom_wheel(&r, 0);
    expect_pt(z.c, 0, 0, EX);
    cr_expect_float_eq(cs_geom_wheel_cost(4, 0), 0.0, EX);
    /* right wheel 30 about FR (2,1): FL goes to (2,1) - 4*(cos30, -sin30)
     * = (2 - 2 sqrt 3, 3); T9A cost 4 sin 30 = 2 */
    cs_rect q = cs_geom_wheel(&r, -30);
    expect_pt(cs_geom_corner(&q, CS_CORNER_FR), 2, 1, 1e-12);
    expect_pt(cs_geom_corner(&q, CS_CORNER_FL), 2 - 2 * sqrt(3.0), 3, 1e-12);
    cr_expect_float_eq(cs_geom_wheel_cost(4, -30), 2.0, 1e-12);
    cs_rect f = cs_geom_forward(&q, 2);
    expect_pt(f.c, q.c.x - 2 * sin(-30 * PI / 180), q.c.y + 2 * cos(30 * PI / 180), 1e-12);
}

Test(geom, straight_advance)
{
    cs_rect r = cs_geom_rect(P(0, 0), 4, 2, 0); /* front edge y = 1 */
    cs_obstacle o[2];
    o[0].poly = box(-1, 5, 1, 7);
    o[0].gap = 0;
    cs_advance a = cs_geom_advance(&r, 10, o, 1);
    cr_expect_float_eq(a.dist, 4.0, EX);
    cr_expect_eq(a.hit, 0);
    o[0].gap = 1;
    a = cs_geom_advance(&r, 10, o, 1);
    cr_expect_float_eq(a.dist, 3.0, EX);
    a = cs_geom_advance(&r, 2.5, o, 1);
    cr_expect_float_eq(a.dist, 2.5, EX);
    cr_expect_eq(a.hit, -1);
    /* beside the path, exactly 1" to the side: passes (distance stays 1) */
    o[0].poly = box(3, 5, 5, 7);
    a = cs_geom_advance(&r, 10, o, 1);
    cr_expect_eq(a.hit, -1);
    /* 0.5 to the side: the FR corner meets the 1" circle about (2.5,5)
     * when (2.5-2)^2 + (5-1-t)^2 = 1: t = 4 - sqrt(0.75) */
    o[0].poly = box(2.5, 5, 4.5, 7);
    a = cs_geom_advance(&r, 10, o, 1);
    cr_expect_float_eq(a.dist, 4 - sqrt(0.75), 1e-12);
    /* two obstacles: the nearer stops it, even listed second */
    o[1].poly = box(-3, 2, -1, 3);
    o[1].gap = 1;
    a = cs_geom_advance(&r, 10, o, 2);
    cr_expect_float_eq(a.dist, 0.0, EX); /* already exactly 1 from it */
    cr_expect_eq(a.hit, 1);
    /* a blocker at 0.5 already: may not come closer, so no move */
    o[1].poly = box(-3, 1.5, -1, 3);
    a = cs_geom_advance(&r, 10, o, 2);
    cr_expect_float_eq(a.dist, 0.0, EX);
    /* moving away from a close blocker is free */
    o[1].poly = box(-3, -3, 3, -1.5);
    a = cs_geom_advance(&r, 10, o, 2);
    cr_expect_float_eq(a.dist, 4 - sqrt(0.75), 1e-12);
    cr_expect_eq(a.hit, 0);
    /* a turned mover: facing -45 (towards +x+y), obstacle wall x = 10 */
    cs_rect m = cs_geom_rect(P(0, 0), 2, 2, -45);
    o[0].poly = box(10, -20, 12, 20);
    o[0].gap = 0;
    a = cs_geom_advance(&m, 100, o, 1);
    /* the leading corner FR is at sqrt(2) along +x: (sqrt 2, 0); it
     * reaches x = 10 after (10 - sqrt 2) / cos 45 */
    cr_expect_float_eq(a.dist, (10 - sqrt(2.0)) * sqrt(2.0), 1e-12);
}

Test(geom, straight_advance_away_from_a_close_parallel_blocker)
{
    /* Regression: the mover's front edge y = 0, x in [-3.15, 3.15]; the
     * blocker x in [-6, -4], y in [-2, 0], 0.85 to its left (inside the 1"
     * gap) with parallel edges. The nearest pair, FL (-3.15, 0) and the
     * blocker's corner (-4, 0), is exactly 0.85 apart and moving forward
     * only separates them (the motion is tangent to that circle), so the
     * whole 10" is free. Rotating the square blocker by 90, 180 or 270
     * degrees gives the same square up to the rounding of sin and cos,
     * which must not turn the tangency into an approach. */
    cs_rect m = cs_geom_rect_front_at(P(0, 0), 6.3, 4.72, 0);
    for (int k = 0; k < 8; k++) {
        cs_rect b = cs_geom_rect(P(-5, -1), 2, 2, 90.0 * k);
        cs_obstacle o = { cs_geom_rect_poly(&b), 1 };
        cs_advance a = cs_geom_advance(&m, 10, &o, 1);
        cr_expect_float_eq(a.dist, 10.0, EX, "facing %d", 90 * k);
        cr_expect_eq(a.hit, -1, "facing %d", 90 * k);
        /* mirrored: the blocker on the right, the mover facing away */
        b = cs_geom_rect(P(5, -1), 2, 2, 90.0 * k);
        o.poly = cs_geom_rect_poly(&b);
        a = cs_geom_advance(&m, 10, &o, 1);
        cr_expect_float_eq(a.dist, 10.0, EX, "mirrored, facing %d", 90 * k);
        cr_expect_eq(a.hit, -1, "mirrored, facing %d", 90 * k);
    }
    /* the same layout turned as a whole by 0, 15, ..., 345 degrees: only
     * rounding differs, so the whole 10" is free every time */
    for (int j = 0; j < 24; j++) {
        double th = 15.0 * j;
        cs_rect mt = cs_geom_rect_front_at(P(0, 0), 6.3, 4.72, th);
        for (int k = 0; k < 4; k++) {
            cs_vec2 c = P(-5 * mt.right.x - 1 * mt.fwd.x, -5 * mt.right.y - 1 * mt.fwd.y);
            cs_rect b = cs_geom_rect(c, 2, 2, th + 90.0 * k);
            cs_obstacle o = { cs_geom_rect_poly(&b), 1 };
            cs_advance a = cs_geom_advance(&mt, 10, &o, 1);
            cr_expect_float_eq(a.dist, 10.0, EX, "turned %g, facing %d", th, 90 * k);
            cr_expect_eq(a.hit, -1, "turned %g, facing %d", th, 90 * k);
        }
    }
}

Test(geom, straight_advance_property_never_overlaps)
{
    /* property: after the advance, the mover keeps every gap (to 1e-9) and
     * does not overlap any obstacle (seed 11) */
    cs_rng g;
    cs_rng_seed(&g, 11, 3);
    for (int i = 0; i < 5000; i++) {
        cs_rect r = cs_geom_rect(P(0, 0), 1 + 6 * cs_rng_uniform(&g), 1 + 3 * cs_rng_uniform(&g),
                                 360 * cs_rng_uniform(&g));
        cs_obstacle o[3];
        double before[3];
        for (int k = 0; k < 3; k++) {
            cs_rect b = cs_geom_rect(P(30 * cs_rng_uniform(&g) - 15, 30 * cs_rng_uniform(&g) - 15),
                                     1 + 6 * cs_rng_uniform(&g), 1 + 3 * cs_rng_uniform(&g),
                                     360 * cs_rng_uniform(&g));
            o[k].poly = cs_geom_rect_poly(&b);
            o[k].gap = k == 0 ? 0.0 : 1.0;
            before[k] = cs_geom_dist_rect_poly(&r, &o[k].poly);
        }
        cs_advance a = cs_geom_advance(&r, 20, o, 3);
        cr_assert_geq(a.dist, 0);
        cr_assert_leq(a.dist, 20);
        cs_rect m = cs_geom_forward(&r, a.dist);
        for (int k = 0; k < 3; k++) {
            double d = cs_geom_dist_rect_poly(&m, &o[k].poly);
            if (before[k] > 0) {
                double need = before[k] < o[k].gap ? before[k] : o[k].gap;
                cr_assert_geq(d, need - 1e-9, "trial %d obstacle %d: %.12g < %.12g", i, k, d, need);
            }
        }
        /* and it stops no earlier than it must: a little further would break
         * the gap (checked where the gap held at the start; an obstacle
         * already closer only forbids coming closer still, which a sliding
         * move can approach arbitrarily slowly) */
        if (a.hit >= 0 && before[a.hit] >= o[a.hit].gap) {
            cs_rect f = cs_geom_forward(&r, a.dist + 1e-4);
            double d = cs_geom_dist_rect_poly(&f, &o[a.hit].poly);
            double need = before[a.hit] < o[a.hit].gap ? before[a.hit] : o[a.hit].gap;
            cr_assert_lt(d, need + 1e-12, "trial %d: hit %d at %.15g, d %.15g need %.15g before %.15g", i, a.hit, a.dist, d, need, before[a.hit]);
        }
    }
}

/* ---- the snaking charge path -------------------------------------------- */

/* The charger of the snaking tests: 4 x 2, front edge centred on the
 * origin, facing +y. */
static cs_rect charger4(void)
{
    return cs_geom_rect_front_at(P(0, 0), 4, 2, 0);
}

Test(geom, snake_head_on_and_zero_gap)
{
    cs_rect c = charger4();
    cs_rect t = cs_geom_rect_front_at(P(0, 6), 4, 2, 180);
    cs_snake s;
    cs_geom_snake(&c, &t, CS_FRONT, NULL, 0, &s);
    cr_assert(s.found);
    cr_expect_float_eq(s.cost, 6.0, EX);
    cr_expect_float_eq(s.length, 6.0, EX);
    cr_expect_float_eq(s.wheel, 0.0, EX);
    cr_expect_eq(s.touches, -1);
    expect_pt(s.final.c, 0, 5, EX);
    expect_pt(s.contact, 0, 6, EX); /* flush: the middle of the common part */
    /* touching already: nothing to move */
    cs_rect z = cs_geom_rect_front_at(P(1, 0), 4, 2, 180);
    cs_geom_snake(&c, &z, CS_FRONT, NULL, 0, &s);
    cr_assert(s.found);
    cr_expect_float_eq(s.cost, 0.0, EX);
    expect_pt(s.contact, 0.5, 0, EX); /* common part x in [-1, 2] */
    /* anti-parallel but the facing is the target's rear: no path can reach
     * it without touching the front first unless it goes round; behind the
     * charger nothing is reachable */
    cs_rect b = cs_geom_rect_front_at(P(0, -10), 4, 2, 0);
    cs_geom_snake(&c, &b, CS_FRONT, NULL, 0, &s);
    cr_expect(!s.found);
}

Test(geom, snake_wheel_first_stationary)
{
    /* The facing is the line x = -3 (target 8 wide, facing +x, y in
     * [-1, 7]), h = 1 from the charger's front-left corner L = (-2, 0).
     * Wheel left th about L, then forward until L meets the line:
     * cost = 4 sin th + 1 / sin th, least at sin th = sqrt(1/4) = 1/2:
     * th = 30, forward 2, cost 2 sqrt(4 * 1) = 4, contact (-3, 2 cos 30). */
    cs_rect c = charger4();
    cs_rect t = cs_geom_rect_front_at(P(-3, 3), 8, 2, -90);
    cs_snake s;
    cs_geom_snake(&c, &t, CS_FRONT, NULL, 0, &s);
    cr_assert(s.found);
    cr_expect_float_eq(s.wheel, 30.0, 1e-9);
    cr_expect_float_eq(s.forward1, 0.0, EX);
    cr_expect_float_eq(s.forward2, 2.0, 1e-9);
    cr_expect_float_eq(s.cost, 4.0, 1e-12);
    cr_expect_float_eq(s.length, 4 * PI / 6 + 2, 1e-9);
    expect_pt(s.contact, -3, sqrt(3.0), 1e-9);
    /* mirrored: a right wheel of 30 */
    cs_rect m = cs_geom_rect_front_at(P(3, 3), 8, 2, 90);
    cs_geom_snake(&c, &m, CS_FRONT, NULL, 0, &s);
    cr_expect_float_eq(s.wheel, -30.0, 1e-9);
    cr_expect_float_eq(s.cost, 4.0, 1e-12);
}

Test(geom, snake_corner_on_corner)
{
    /* Target front edge y = 6, x in [8, 12]: straight ahead misses it.
     * Cheapest: wheel right, then forward until the charger's front-left
     * corner meets the target's corner (8, 6). In the mirrored frame that
     * corner is q = (-8, 6) - (-2, 0) = (-6, 6) from the pivot; the outer
     * corner at w along the new edge and s2 along the new forward direction
     * reaches it when s2 = sqrt(|q|^2 - w^2) = sqrt(56) and
     * th = 135 - atan2(sqrt 56, 4); sin th = (4 + sqrt 56) / 12, so
     * cost = 4 sin th + sqrt 56 = (4/3)(1 + sqrt 56). */
    cs_rect c = charger4();
    cs_rect t = cs_geom_rect_front_at(P(10, 6), 4, 2, 180);
    cs_snake s;
    cs_geom_snake(&c, &t, CS_FRONT, NULL, 0, &s);
    cr_assert(s.found);
    cr_expect_float_eq(s.cost, 4.0 / 3.0 * (1 + sqrt(56.0)), 1e-12);
    cr_expect_float_eq(s.forward2, sqrt(56.0), 1e-12);
    cr_expect_float_eq(s.wheel, -(135.0 - atan2(sqrt(56.0), 4.0) * 180 / PI), 1e-9);
    expect_pt(s.contact, 8, 6, 1e-9);
    expect_pt(cs_geom_corner(&s.final, CS_CORNER_FL), 8, 6, 1e-9);
    /* An enemy on that path: the next candidate that avoids it is taken
     * and the path returned clears it. At (4, 2): wheel right 90 after 6
     * forward, then 6 forward to touch the corner: cost 6 + 4 + 6. */
    cs_rect o = cs_geom_rect(P(4, 2), 1, 1, 0);
    cr_expect(cs_geom_snake_sweep_hits(&c, s.forward1, s.wheel, s.forward2, &o));
    cs_snake d;
    cs_geom_snake(&c, &t, CS_FRONT, &o, 1, &d);
    cr_assert(d.found);
    cr_expect_eq(d.touches, -1);
    cr_expect(!cs_geom_snake_sweep_hits(&c, d.forward1, d.wheel, d.forward2, &o));
    cr_expect_float_eq(d.cost, 16.0, 1e-12);
    cr_expect_float_eq(d.wheel, -90.0, 1e-12);
    /* an enemy wall across the whole way: the cheapest path is reported
     * with the unit it touches */
    cs_rect h = cs_geom_rect_front_at(P(0, 6), 4, 2, 180);
    cs_rect wall = cs_geom_rect(P(0, 3), 40, 1, 180);
    cs_geom_snake(&c, &h, CS_FRONT, &wall, 1, &d);
    cr_assert(d.found);
    cr_expect_eq(d.touches, 0);
    cr_expect_float_eq(d.cost, 6.0, EX);
}

/* The least cost over a grid of paths (forward s1, wheel th, then forward
 * until the charger touches the target) that reach the facing with the
 * front edge and touch the target nowhere before: an upper bound of the
 * true minimum, for comparison with cs_geom_snake. */
static double brute_snake(const cs_rect *c, const cs_rect *t, cs_facing f)
{
    cs_seg e = cs_geom_edge(t, f);
    cs_obstacle ob = { cs_geom_rect_poly(t), 0 };
    double best = INFINITY;
    for (double th = -90; th <= 90 + 1e-9; th += 1.0) {
        for (double s1 = 0; s1 <= 20; s1 += 0.1) {
            if (cs_geom_snake_sweep_hits(c, s1, th, 0, t))
                break;
            cs_rect p1 = cs_geom_forward(c, s1), p2 = cs_geom_wheel(&p1, th);
            cs_advance a = cs_geom_advance(&p2, 100, &ob, 1);
            if (a.hit < 0)
                continue;
            cs_rect fin = cs_geom_forward(&p2, a.dist);
            if (cs_geom_dist_seg_seg(cs_geom_edge(&fin, CS_FRONT), e) > 1e-7)
                continue;
            double cost = s1 + cs_geom_wheel_cost(c->width, th) + a.dist;
            if (cost < best)
                best = cost;
        }
    }
    return best;
}

Test(geom, snake_property_random_layouts)
{
    /* properties over random layouts (seed 5): the path is valid (its front
     * edge ends on the facing, no overlap, nothing touched on the way); its
     * cost is at least the straight-line gap and its length at least its
     * cost; head-on it equals the gap; and on a sample, no grid path is
     * cheaper (the grid is 1 degree by 0.1 inch). */
    cs_rng g;
    cs_rng_seed(&g, 5, 9);
    int brute_done = 0;
    for (int i = 0; i < 3000; i++) {
        double w = 1 + 5 * cs_rng_uniform(&g), d = 1 + 2 * cs_rng_uniform(&g);
        cs_rect c = cs_geom_rect_front_at(P(0, 0), w, d, 0);
        cs_rect t = cs_geom_rect_front_at(P(20 * cs_rng_uniform(&g) - 10, 1 + 12 * cs_rng_uniform(&g)),
                                          1 + 5 * cs_rng_uniform(&g), 1 + 2 * cs_rng_uniform(&g),
                                          360 * cs_rng_uniform(&g));
        if (cs_geom_rects_overlap(&c, &t))
            continue;
        cs_facing f = cs_geom_arc_of_point(&t, cs_geom_edge_centre(&c, CS_FRONT));
        cs_snake s;
        cs_geom_snake(&c, &t, f, NULL, 0, &s);
        if (!s.found)
            continue;
        double gap = cs_geom_dist_rect_rect(&c, &t);
        cr_assert_geq(s.cost, gap - 1e-9, "layout %d", i);
        cr_assert_geq(s.length, s.cost - 1e-12, "layout %d", i);
        cr_assert_leq(cs_geom_dist_seg_seg(cs_geom_edge(&s.final, CS_FRONT), cs_geom_edge(&t, f)),
                      1e-7, "layout %d", i);
        cr_assert(!cs_geom_rects_overlap(&s.final, &t), "layout %d", i);
        double fw = s.forward2 > 1e-6 ? s.forward2 - 1e-6 : s.forward2;
        double wh = s.forward2 > 1e-6 ? s.wheel : s.wheel * (1 - 1e-6);
        if (s.forward2 > 1e-6 || fabs(s.wheel) > 1e-3)
            cr_assert(!cs_geom_snake_sweep_hits(&c, s.forward1, wh, fw, &t), "layout %d", i);
        if (i % 100 == 0) {
            double b = brute_snake(&c, &t, f);
            cr_assert_leq(s.cost, b + 1e-9, "layout %d: %.12g > grid %.12g", i, s.cost, b);
            brute_done++;
        }
        /* head-on (same layout, target moved square in front): the gap */
        cs_rect h = cs_geom_rect_front_at(P(0, gap + 0.5), t.width, t.depth, 180);
        cs_geom_snake(&c, &h, CS_FRONT, NULL, 0, &s);
        cr_assert(s.found);
        cr_assert_float_eq(s.cost, gap + 0.5, 1e-12, "layout %d", i);
    }
    cr_expect_geq(brute_done, 20);
}

/* ---- the align move ----------------------------------------------------- */

Test(geom, align_flush_and_models)
{
    /* Target 6 x 2 facing -y, front edge y = 6 from a = (3,6) to b = (-3,6),
     * six 1" models; charger 4 wide, four models. */
    cs_rect t = cs_geom_rect_front_at(P(0, 6), 6, 2, 180);
    cs_formation tf = { 6, 12 }, cf = { 4, 8 };
    cs_align a;
    /* already flush over x in [-2, 2]: facing parameters [1, 5]; target
     * models touching it: all six (the end ones at a corner); no move */
    cs_rect c = cs_geom_rect_front_at(P(0, 6), 4, 2, 0);
    cs_geom_align(&c, &cf, &t, &tf, CS_FRONT, P(0, 6), NULL, 0, &a);
    cr_assert(a.flush);
    cr_expect_eq(a.models_target, 6);
    cr_expect_eq(a.models_charger, 4);
    expect_pt(a.final.c, 0, 5, 1e-12);
    cr_expect_float_eq(a.overlap, 4.0, 1e-12);
    /* Charger hanging off the end, x in [0, 4], contact (2.5, 6): facing
     * parameter 0.5, so its right end s is in [-3.5, 0.5]. Five target
     * models and four of its own for s in [0, 0.5]; the least move from
     * s = -1 is s = 0: x in [-1, 3], front centre (1, 6). */
    c = cs_geom_rect_front_at(P(2, 6), 4, 2, 0);
    cs_geom_align(&c, &cf, &t, &tf, CS_FRONT, P(2.5, 6), NULL, 0, &a);
    cr_assert(a.flush);
    cr_expect_eq(a.models_target, 5);
    cr_expect_eq(a.models_charger, 4);
    expect_pt(cs_geom_edge_centre(&a.final, CS_FRONT), 1, 6, 1e-12);
    cr_expect_float_eq(a.final.facing, 0.0, 1e-12);
    /* A unit beside the target, x <= -0.5 for y in [3, 5]: the charger may
     * not reach past x = -0.5, so s <= -0.5 and the five-model placements
     * are gone. For s in [-1, -0.5] the target models touching [0, s + 4]
     * are four (the fourth at a corner when s = -1) and so are the
     * charger's; the least move is none: x stays in [0, 4]. */
    cs_rect o = cs_geom_rect(P(-2.75, 4), 4.5, 2, 0);
    cs_geom_align(&c, &cf, &t, &tf, CS_FRONT, P(2.5, 6), &o, 1, &a);
    cr_assert(a.flush);
    cr_expect_eq(a.models_target, 4);
    cr_expect_eq(a.models_charger, 4);
    expect_pt(cs_geom_edge_centre(&a.final, CS_FRONT), 2, 6, 1e-12);
    cr_expect(!cs_geom_rects_overlap(&a.final, &o));
    /* the unit closer, x <= 0.5: s <= -1.5; best s = -1.5, x in [0.5, 4.5];
     * target models touching facing parameters [0, 2.5]: three; charger
     * front parameters (s + 4 - t) [0, 2.5]: three */
    cs_rect o2 = cs_geom_rect(P(-1.75, 4), 4.5, 2, 0);
    cs_geom_align(&c, &cf, &t, &tf, CS_FRONT, P(2.5, 6), &o2, 1, &a);
    cr_assert(a.flush);
    cr_expect_eq(a.models_target, 3);
    cr_expect_eq(a.models_charger, 3);
    expect_pt(cs_geom_edge_centre(&a.final, CS_FRONT), 2.5, 6, 1e-12);
    /* a unit in front of the whole facing: no flush placement */
    cs_rect wall = cs_geom_rect(P(0, 4), 20, 2, 0);
    cs_geom_align(&c, &cf, &t, &tf, CS_FRONT, P(2.5, 6), &wall, 1, &a);
    cr_expect(!a.flush);
}

Test(geom, align_flank_after_snake)
{
    /* The stationary-wheel case: the charger reaches the target's facing
     * (x = -3, y in [-1, 7], facing +x) at (-3, sqrt 3) after a 30 degree
     * wheel. Aligned flush it faces -x (facing 90), keeps (-3, sqrt 3) on
     * its front edge, and with no formations moves least: it turns about
     * nothing but its own position, so its front edge spans the projection
     * of where it was, clamped to keep the contact point. */
    cs_rect c = charger4();
    cs_rect t = cs_geom_rect_front_at(P(-3, 3), 8, 2, -90);
    cs_snake s;
    cs_geom_snake(&c, &t, CS_FRONT, NULL, 0, &s);
    cs_align a;
    cs_geom_align(&s.final, NULL, &t, NULL, CS_FRONT, s.contact, NULL, 0, &a);
    cr_assert(a.flush);
    cr_expect_float_eq(a.final.facing, 90.0, 1e-12);
    cs_seg fe = cs_geom_edge(&a.final, CS_FRONT);
    /* flush on x = -3 */
    cr_expect_float_eq(fe.a.x, -3.0, 1e-12);
    cr_expect_float_eq(fe.b.x, -3.0, 1e-12);
    /* the snake left FL at the contact point (-3, sqrt 3), FR at
     * (-3 + 4 cos 30, sqrt 3 + 4 sin 30); FR projects onto the line at
     * y = sqrt 3 + 2; the contact must stay on the edge, so FR (the
     * facing's lower parameter side) is at y = sqrt 3 + 2 - that is within
     * [sqrt 3, sqrt 3 + 4]: no clamping */
    cr_expect_float_eq(fe.b.y, sqrt(3.0) + 2, 1e-9);
    cr_expect_float_eq(fe.a.y, sqrt(3.0) - 2, 1e-9);
    cr_expect_float_eq(a.overlap, 4.0, 1e-9);
}
