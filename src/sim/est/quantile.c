/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The normal and Student t quantiles, both GSL's; see include/chargesim/quantile.h. */
#include "chargesim/quantile.h"

#include <gsl/gsl_cdf.h>
#include <gsl/gsl_errno.h>

double cs_quantile_normal(double confidence)
{
    /* The upper tail (1 - c) / 2 is computed exactly for 0.5 <= c < 1
     * (Sterbenz), where 0.5 + c / 2 would round: GSL's Qinv on the tail
     * keeps the quantile's last bits (at c = 0.999999 the Pinv form is off
     * by 2e4 ulps). gsl_cdf_ugaussian_Qinv reports no error. */
    return gsl_cdf_ugaussian_Qinv((1.0 - confidence) / 2.0);
}

double cs_quantile_t(double df, double confidence)
{
    /* GSL's default handler aborts on an error (qmc.c says why it is off). */
    gsl_set_error_handler_off();
    return gsl_cdf_tdist_Pinv(0.5 + confidence / 2.0, df);
}
