/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Geometry: the snaking charge path (geom_snake.c, geom_snake_cand.c). */
#include "test_geom.h"

/* ---- the snaking charge path -------------------------------------------- */

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

