/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Geometry: distances and the separating-axis overlap test (geom_dist.c). */
#include "test_geom.h"

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

Test(geom, polygons_overlap)
{
    cs_poly sq = box(0, 0, 2, 2);
    cs_poly over = box(1, 1, 3, 3);
    cr_expect(cs_geom_polys_overlap(&sq, &over));
    cr_expect(cs_geom_polys_overlap(&over, &sq));
    /* sharing the edge x = 2, or overlapping by less than CS_GEOM_EPS, is
     * touching, not overlapping; 0.1" is overlapping */
    cs_poly touch = box(2, 0, 4, 2), thin = box(2 - 1e-10, 0, 4, 2), deep = box(1.9, 0, 4, 2);
    cr_expect_not(cs_geom_polys_overlap(&sq, &touch));
    cr_expect_not(cs_geom_polys_overlap(&sq, &thin));
    cr_expect(cs_geom_polys_overlap(&sq, &deep));
    /* The triangle (3,1.5), (3,3), (1.5,3) overlaps the square in x and in
     * y but lies beyond x + y = 4.5 where the square reaches x + y = 4: only
     * the triangle's slanted edge separates them. Moved 0.6 towards the
     * origin along x and y, its edge is on x + y = 3.3 and they overlap. */
    cs_poly tri = { 3, { { 3, 1.5 }, { 3, 3 }, { 1.5, 3 } } };
    cs_poly near = { 3, { { 2.4, 0.9 }, { 2.4, 2.4 }, { 0.9, 2.4 } } };
    cr_expect_not(cs_geom_polys_overlap(&sq, &tri));
    cr_expect_not(cs_geom_polys_overlap(&tri, &sq));
    cr_expect(cs_geom_polys_overlap(&sq, &near));
    /* the same answer as the rectangle test for rectangles */
    cs_rect a = cs_geom_rect(P(0, 0), 4, 2, 30), b = cs_geom_rect(P(3, 1), 4, 2, -20);
    cs_poly pa = cs_geom_rect_poly(&a), pb = cs_geom_rect_poly(&b);
    cr_expect_eq(cs_geom_polys_overlap(&pa, &pb), cs_geom_rects_overlap(&a, &b));
}
