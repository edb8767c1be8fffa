/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rqmc estimator (issue 21): the method it runs under auto, the same
 * bytes on any thread count, --precision by whole doublings, and intervals
 * that cover an exact value at their nominal rate. */
#include <criterion/criterion.h>
#include <gsl/gsl_cdf.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/estimator.h"
#include "chargesim/reach.h"
#include "support/helpers.h"

static cs_method resolved(const char *ini, const char *const *sets, int n)
{
    cs_experiment e;
    cs_error err;
    cs_method m;
    cr_assert_eq(th_load(ini, sets, n, &e, &err), CS_OK, "%s", err.msg);
    cr_assert_eq(cs_est_method(&e, &m, &err), CS_OK, "%s", err.msg);
    cs_experiment_free(&e);
    return m;
}

Test(rqmc, auto_picks_rqmc_for_drawn_layouts_only)
{
    static const char *const generic = "[experiment]\nruleset = generic\n[params]\n";
    const char *drawn[] = {"distance=uniform(3,11)"};
    const char *fixed[] = {"distance=7"};
    cr_expect_eq(resolved(generic, drawn, 1), CS_METHOD_RQMC);
    cr_expect_eq(resolved(generic, fixed, 1), CS_METHOD_EXACT);
    /* coreheim's interceptors are placed by the ruleset's own draws: no
     * drawn parameter, so no dimension for the point set. */
    static const char *const coreheim =
        "[experiment]\nruleset = coreheim\n[params]\ninterceptors = 2\n"
        "intercept_lateral_min = -4\nintercept_lateral_max = 4\n";
    cr_expect_eq(resolved(coreheim, NULL, 0), CS_METHOD_CONDITIONAL);
    const char *asked[] = {"experiment.method=rqmc"};
    cr_expect_eq(resolved(coreheim, asked, 1), CS_METHOD_RQMC);
}

Test(rqmc, replicates_key_is_checked)
{
    static const char *const ini = "[experiment]\nruleset = generic\n[params]\n";
    const char *bad[] = {"experiment.replicates=1"};
    const char *big[] = {"experiment.replicates=65"};
    const char *ok[] = {"experiment.replicates=8"};
    cs_experiment e;
    cs_error err;
    cr_expect_eq(th_load(ini, bad, 1, &e, &err), CS_EINPUT);
    cr_expect_eq(th_load(ini, big, 1, &e, &err), CS_EINPUT);
    cr_assert_eq(th_load(ini, ok, 1, &e, &err), CS_OK, "%s", err.msg);
    cr_expect_eq(e.replicates, 8u);
    cs_experiment_free(&e);
}

Test(rqmc, same_bytes_for_1_2_and_7_threads)
{
    /* Several blocks per replicate (4 of 4096 points), a sweep; then
     * --precision's doublings; t9a's two drawn parameters (one normal);
     * coreheim, whose draw_layout takes its own draws from the stream. */
    static const char *const ini =
        "[experiment]\nruleset = generic\ntrials = 200000\nseed = 11\nmethod = rqmc\n"
        "[params]\nmove = 0,3\ndistance = normal(9,2)\nreroll = none,one_die\n";
    th_expect_same_bytes(ini, NULL, 0, ",rqmc");
    const char *prec[] = {"experiment.trials=1000", "experiment.precision=0.0005"};
    th_expect_same_bytes(ini, prec, 2, ",rqmc");
    static const char *const t9a =
        "[experiment]\nruleset = t9a\ntrials = 5000\nseed = 2\nmethod = rqmc\n"
        "[params]\ndistance = 6,8\noffset = uniform(-6,6)\nangle = normal(0,20)\n";
    th_expect_same_bytes(t9a, NULL, 0, ",rqmc");
    static const char *const coreheim =
        "[experiment]\nruleset = coreheim\ntrials = 20000\nseed = 3\nmethod = rqmc\n"
        "[params]\ninterceptors = 1,3\nintercept_lateral_min = -4\n"
        "intercept_lateral_max = 4\nvisible = false\ninitiative = 7\n";
    th_expect_same_bytes(coreheim, NULL, 0, ",rqmc");
}

Test(rqmc, precision_doubles_the_points_of_every_replicate)
{
    static const char *const ini =
        "[experiment]\nruleset = generic\ntrials = 1000\nseed = 5\nmethod = rqmc\n"
        "precision = 0.0002\n[params]\ndistance = uniform(3,11)\nmove = 0,2\n";
    cs_experiment e;
    cs_error err;
    cr_assert_eq(th_load(ini, NULL, 0, &e, &err), CS_OK, "%s", err.msg);
    cs_run_result r;
    cr_assert_eq(th_run(&e, 2, &r), CS_OK);
    cr_expect(r.precision_met);
    for (uint64_t k = 0; k < r.n_points; k++) {
        const cs_point_result *p = &r.point[k];
        uint64_t per = p->trials / 16;
        cr_expect_eq(p->trials % 16, 0);
        cr_expect_eq(per & (per - 1), 0, "%llu points per replicate: a power of two",
                     (unsigned long long)per);
        cr_expect_gt(per, 64u, "the first round's 64 points were doubled");
        cr_expect_leq(0.5 * (p->ci_high - p->ci_low), 0.0002);
        for (int o = 0; o < e.rs->n_outcomes; o++)
            cr_expect_leq(0.5 * (p->outcome_high[o] - p->outcome_low[o]), 0.0002);
    }
    cs_sched_result_free(&r);
    cs_experiment_free(&e);
}

/* P(2D6 = r). */
static double p2d6(int r)
{
    return (6.0 - fabs((double)r - 7.0)) / 36.0;
}

/* generic, preset none, move 0: a roll r reaches a gap d when
 * r >= d - CS_REACH_TOL (reach.h), so p_success is the average over the
 * drawn distance of a step function: for uniform(a, b) the share of
 * [a, b) at most r + CS_REACH_TOL, for normal(m, s) Phi((r + tol - m) / s)
 * (the clamp at 0 lies below every roll). */
static double exact_uniform(double a, double b)
{
    double p = 0.0;
    for (int r = 2; r <= 12; r++)
        p += p2d6(r) * fmin(1.0, fmax(0.0, (r + CS_REACH_TOL - a) / (b - a)));
    return p;
}

static double exact_normal(double m, double s)
{
    double p = 0.0;
    for (int r = 2; r <= 12; r++)
        p += p2d6(r) * gsl_cdf_ugaussian_P((r + CS_REACH_TOL - m) / s);
    return p;
}

/* Over `seeds` seeds, the share of p_success (charged) and p_failed
 * intervals holding the exact value. */
static void coverage(const char *drawn, double exact, int seeds, double *cov_s, double *cov_f)
{
    int hit_s = 0, hit_f = 0;
    for (int seed = 1; seed <= seeds; seed++) {
        char s[64];
        snprintf(s, sizeof s, "experiment.seed=%d", seed);
        const char *sets[] = {s, drawn};
        cs_experiment e;
        cs_error err;
        cr_assert_eq(th_load("[experiment]\nruleset = generic\ntrials = 512\nmethod = rqmc\n"
                             "[params]\npreset = none\nmove = 0\ndice = 2d6\n",
                             sets, 2, &e, &err),
                     CS_OK, "%s", err.msg);
        cs_run_result r;
        cr_assert_eq(th_run(&e, 1, &r), CS_OK);
        const cs_point_result *p = &r.point[0];
        hit_s += p->ci_low <= exact && exact <= p->ci_high;
        hit_f += p->outcome_low[1] <= 1.0 - exact && 1.0 - exact <= p->outcome_high[1];
        cs_sched_result_free(&r);
        cs_experiment_free(&e);
    }
    *cov_s = (double)hit_s / seeds;
    *cov_f = (double)hit_f / seeds;
}

Test(rqmc, intervals_cover_the_exact_value_at_their_nominal_rate, .timeout = 120)
{
    /* 95% intervals; the bar is the nominal rate less 1 pp, less 3
     * binomial standard errors of a coverage measured on n seeds. In one
     * dimension the scrambled net stratifies the distance so well that the
     * replicate means barely differ and the interval is mostly its floor
     * for an unseen region (z^2 / (n + z^2)); the Student t over replicate
     * means alone is tested on a smooth integrand in tests/test_qmc.c. */
    const int n = 1500;
    double bar = 0.95 - 0.01 - 3.0 * sqrt(0.95 * 0.05 / n);
    struct {
        const char *drawn;
        double exact;
    } cases[] = {
        {"distance=uniform(3,11)", exact_uniform(3.0, 11.0)},
        {"distance=uniform(6.3,8.9)", exact_uniform(6.3, 8.9)},
        {"distance=normal(7,2)", exact_normal(7.0, 2.0)},
    };
    for (size_t c = 0; c < sizeof cases / sizeof *cases; c++) {
        double cs, cf;
        coverage(cases[c].drawn, cases[c].exact, n, &cs, &cf);
        cr_log_info("%s: coverage %.4f (p_success), %.4f (p_failed) over %d seeds; bar %.4f",
                    cases[c].drawn, cs, cf, n, bar);
        cr_expect_geq(cs, bar, "%s: p_success covered %.4f of %d times, below %.4f",
                      cases[c].drawn, cs, n, bar);
        cr_expect_geq(cf, bar, "%s: p_failed covered %.4f of %d times, below %.4f",
                      cases[c].drawn, cf, n, bar);
    }
}
