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
