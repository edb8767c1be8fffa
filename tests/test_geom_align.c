/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Geometry: the align move (geom_align.c). */
#include "test_geom.h"

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
