/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <criterion/criterion.h>
#include <math.h>

#include "chargesim/quantile.h"

Test(quantile, normal_of_common_confidences)
{
    /* Standard normal table values (Abramowitz and Stegun, table 26.5). */
    cr_expect_leq(fabs(cs_quantile_normal(0.95) - 1.959963984540054), 1e-12);
    cr_expect_leq(fabs(cs_quantile_normal(0.99) - 2.5758293035489004), 1e-12);
    cr_expect_leq(fabs(cs_quantile_normal(0.5) - 0.6744897501960817), 1e-12);
}

/* The defining property, checked through erfc (libc's, not GSL's):
 * P(|Z| <= z) = 1 - erfc(z / sqrt 2), out to the far tail where a quantile
 * read as 0.5 + c / 2 would lose its last digits. */
Test(quantile, normal_inverts_erfc)
{
    static const double c[] = {0.1, 0.6827, 0.9, 0.95, 0.999, 0.999999, 1.0 - 1e-12};
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        double z = cs_quantile_normal(c[i]), tail = erfc(z / sqrt(2.0));
        cr_expect_leq(fabs(tail - (1.0 - c[i])) / (1.0 - c[i]), 1e-13, "c = %.15g: z = %.17g",
                      c[i], z);
    }
}

/* Student t in closed form: 1 degree of freedom is Cauchy, t = tan(pi (p - 1/2));
 * 2 degrees give t = (2p - 1) / sqrt(2 p (1 - p)); with p = (1 + c) / 2. */
Test(quantile, t_matches_closed_forms)
{
    static const double c[] = {0.5, 0.9, 0.95, 0.99};
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        double p = (1.0 + c[i]) / 2.0;
        double t1 = tan(acos(-1.0) * (p - 0.5)), t2 = (2.0 * p - 1.0) / sqrt(2.0 * p * (1.0 - p));
        cr_expect_leq(fabs(cs_quantile_t(1.0, c[i]) - t1) / t1, 1e-10, "df 1, c %g", c[i]);
        cr_expect_leq(fabs(cs_quantile_t(2.0, c[i]) - t2) / t2, 1e-10, "df 2, c %g", c[i]);
    }
    /* Many degrees of freedom: the normal's. */
    cr_expect_leq(fabs(cs_quantile_t(1e9, 0.95) - cs_quantile_normal(0.95)), 1e-6);
}
