/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Geometry: pivots, wheels and the straight advance (geom_move.c). */
#include "test_geom.h"

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

