/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Every experiment file under experiments/ loads, runs, and where its
 * ruleset has exact outcome probabilities, --method conditional (or exact)
 * and --method mc agree on every row within 5 combined standard errors at
 * a fixed seed, and with a fixed layout conditional equals exact to 1e-12
 * (issue 4's acceptance tests, for all rulesets at once). */
#include <criterion/criterion.h>
#include <glob.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chargesim/expfile.h"
#include "support/helpers.h"

#define TRIALS "experiment.trials=20000"

static int load_with(const char *path, const char *method, cs_experiment *e, cs_error *err)
{
    char m[64];
    snprintf(m, sizeof m, "experiment.method=%s", method);
    const char *sets[] = {TRIALS, m};
    return cs_expfile_load(path, sets, 2, e, err);
}

static void check_file(const char *path)
{
    cs_experiment e;
    cs_error err;
    cr_assert_eq(load_with(path, "mc", &e, &err), CS_OK, "%s", err.msg);
    cs_run_result mc;
    cr_assert_eq(th_run(&e, 2, &mc), CS_OK, "%s runs", path);
    bool exactish = e.rs->outcome_probabilities != NULL;
    cs_experiment_free(&e);
    if (!exactish)
        goto done;
    cr_assert_eq(load_with(path, "conditional", &e, &err), CS_OK, "%s", err.msg);
    cs_run_result c;
    cr_assert_eq(th_run(&e, 2, &c), CS_OK);
    cr_assert_eq(c.n_points, mc.n_points);
    for (uint64_t k = 0; k < c.n_points; k++) {
        const cs_point_result *a = &mc.point[k], *b = &c.point[k];
        /* The mc standard error from the better estimate of p; the
         * conditional one from its own interval. */
        double p = b->p_success;
        double se_m2 = fmax(0.0, p * (1.0 - p)) / (double)a->trials;
        double se_c = 0.5 * (b->ci_high - b->ci_low) / c.z;
        double bound = 5.0 * sqrt(se_m2 + se_c * se_c);
        char label[256];
        cs_experiment_point_label(&e, k, label, sizeof label);
        cr_expect_leq(fabs(a->p_success - b->p_success), bound + 1e-12,
                      "%s [%s]: mc %.6f, conditional %.6f, bound %.6f", path, label,
                      a->p_success, b->p_success, bound);
    }
    cs_sched_result_free(&c);
    /* With a fixed layout, conditional is exact: the same numbers to 1e-12. */
    if (!e.layout_random) {
        cs_experiment_free(&e);
        cr_assert_eq(load_with(path, "exact", &e, &err), CS_OK, "%s", err.msg);
        cs_run_result x;
        cr_assert_eq(th_run(&e, 2, &x), CS_OK);
        cs_experiment ce;
        cr_assert_eq(load_with(path, "conditional", &ce, &err), CS_OK, "%s", err.msg);
        cr_assert_eq(th_run(&ce, 2, &c), CS_OK);
        for (uint64_t k = 0; k < x.n_points; k++)
            for (int o = 0; o < e.rs->n_outcomes; o++)
                cr_expect_leq(fabs(x.point[k].p_outcome[o] - c.point[k].p_outcome[o]), 1e-12,
                              "%s point %llu outcome %s: exact %.15f, conditional %.15f", path,
                              (unsigned long long)k, e.rs->outcomes[o], x.point[k].p_outcome[o],
                              c.point[k].p_outcome[o]);
        cs_sched_result_free(&x);
        cs_sched_result_free(&c);
        cs_experiment_free(&ce);
    }
    cs_experiment_free(&e);
done:
    cs_sched_result_free(&mc);
}

Test(experiments, every_file_runs_and_methods_agree, .timeout = 300)
{
    char pattern[1024];
    snprintf(pattern, sizeof pattern, "%s/experiments/*.ini", th_root());
    glob_t g;
    cr_assert_eq(glob(pattern, 0, NULL, &g), 0, "no experiments under %s", pattern);
    cr_expect_geq(g.gl_pathc, 1u);
    for (size_t i = 0; i < g.gl_pathc; i++)
        check_file(g.gl_pathv[i]);
    globfree(&g);
}
