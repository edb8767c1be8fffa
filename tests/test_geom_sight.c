/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Geometry: arcs, field of view and line of sight (geom_sight.c). */
#include "test_geom.h"

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

