/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Geometry: construction, corners and edges, the hull, models along an
 * edge (geom_shape.c). */
#include "test_geom.h"

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

/* ---- convex hull -------------------------------------------------------- */

Test(geom, hull_drops_interior_and_collinear_points)
{
    /* The square (0,0)-(2,2) with its centre and the midpoint of its lower
     * edge: the hull is the four corners, counter-clockwise from the lowest
     * x (then y), and its area the square's 4. */
    cs_vec2 p[6] = { P(1, 1), P(2, 2), P(0, 2), P(1, 0), P(2, 0), P(0, 0) };
    cs_vec2 h[12];
    int n = cs_geom_hull(p, 6, h);
    cr_assert_eq(n, 4);
    expect_pt(h[0], 0, 0, 0);
    expect_pt(h[1], 2, 0, 0);
    expect_pt(h[2], 2, 2, 0);
    expect_pt(h[3], 0, 2, 0);
    cs_poly q = { 4, { h[0], h[1], h[2], h[3] } };
    cr_expect_float_eq(cs_geom_poly_area(&q), 4.0, EX);
    /* three collinear points have no area: fewer than 3 vertices */
    cs_vec2 c[3] = { P(2, 2), P(0, 0), P(1, 1) };
    cr_expect_lt(cs_geom_hull(c, 3, h), 3);
}
