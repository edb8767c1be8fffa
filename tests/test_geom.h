/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Helpers of the geometry tests (tests/test_geom_*.c, one per geometry
 * file): hand-computed cases (the computation is in the comment of each)
 * and property tests over random layouts at fixed seeds. */
#ifndef CHARGESIM_TEST_GEOM_H
#define CHARGESIM_TEST_GEOM_H
#include <criterion/criterion.h>
#include <math.h>

#include "chargesim/geom.h"
#include "chargesim/rng.h"

#define EX 1e-12 /* exact computations */
#define PI 3.14159265358979323846

static inline cs_vec2 P(double x, double y)
{
    cs_vec2 p = { x, y };
    return p;
}

static inline cs_poly box(double x0, double y0, double x1, double y1)
{
    cs_poly p = { 4, { { x0, y0 }, { x1, y0 }, { x1, y1 }, { x0, y1 } } };
    return p;
}

#define expect_pt(p, X, Y, eps)                                                     \
    do {                                                                            \
        cr_expect_float_eq((p).x, (X), (eps), "x %.17g want %.17g", (p).x, (double)(X)); \
        cr_expect_float_eq((p).y, (Y), (eps), "y %.17g want %.17g", (p).y, (double)(Y)); \
    } while (0)

/* The charger of the snaking tests: 4 x 2, front edge centred on the
 * origin, facing +y. */
static inline cs_rect charger4(void)
{
    return cs_geom_rect_front_at(P(0, 0), 4, 2, 0);
}

#endif
