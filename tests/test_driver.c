/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The driver: published values exactly and by Monte Carlo, thread-count
 * invariance, conditional against exact, --precision, and the experiment
 * errors. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sys/resource.h>
#include <time.h>

#include "chargesim/dice.h"
#include "chargesim/dicesim.h"
#include "chargesim/estimator.h"
#include "chargesim/replay.h"
#include "chargesim/registry.h"
#include "chargesim/success.h"
#include "support/helpers.h"

static const char *const head_on =
    "[experiment]\nruleset = generic\ntrials = 400000\nseed = 7\n[params]\n";

/* One point's p_success under `method` with the overrides. */
static cs_point_result one_point(const char *method, const char *const *sets, int n)
{
    const char *all[16];
    char m[64];
    snprintf(m, sizeof m, "experiment.method=%s", method);
    all[0] = m;
    for (int i = 0; i < n; i++)
        all[i + 1] = sets[i];
    cs_experiment e;
    cs_error err;
    cr_assert_eq(th_load(head_on, all, n + 1, &e, &err), CS_OK, "%s", err.msg);
    cs_run_result r;
    cr_assert_eq(th_run(&e, 2, &r), CS_OK);
    cs_point_result p = r.point[0];
    memset(p.hist, 0, sizeof p.hist);
    cs_sched_result_free(&r);
    cs_experiment_free(&e);
    return p;
}

/* The published checks of docs/rules/generic.md: exact values by hand.
 * P(2D6 >= 8) = 15/36; re-rolling a failed roll: 1 - (21/36)^2 = 855/1296;
 * 3D6 drop lowest >= 8 = 147/216; highest of 2D6 >= 5 = 1 - (4/6)^2 = 20/36. */
typedef struct oracle {
    const char *sets[4];
    double p;
} oracle;

static const oracle oracles[] = {
    {{"distance=8", NULL}, 15.0 / 36.0},
    {{"distance=8", "reroll=failed", NULL}, 855.0 / 1296.0},
    {{"preset=whfb8", "swiftstride=true", "distance=8", NULL}, 147.0 / 216.0},
    {{"preset=tow", "distance=5", NULL}, 20.0 / 36.0},
};

static int count_sets(const oracle *o)
{
    int n = 0;
    while (n < 4 && o->sets[n])
        n++;
    return n;
}

Test(driver, published_values_exact)
{
    for (size_t i = 0; i < sizeof oracles / sizeof oracles[0]; i++) {
        cs_point_result p = one_point("exact", oracles[i].sets, count_sets(&oracles[i]));
        cr_expect_leq(fabs(p.p_success - oracles[i].p), 1e-12, "oracle %zu: %.15f", i,
                      p.p_success);
        cr_expect_eq(p.ci_low, p.p_success);
        cr_expect_eq(p.ci_high, p.p_success);
    }
}

Test(driver, published_values_monte_carlo_within_5_sigma)
{
    for (size_t i = 0; i < sizeof oracles / sizeof oracles[0]; i++) {
        cs_point_result p = one_point("mc", oracles[i].sets, count_sets(&oracles[i]));
        cr_expect_eq(p.trials, 400000u);
        cr_expect_leq(fabs(p.p_success - oracles[i].p), th_5sigma(oracles[i].p, p.trials),
                      "oracle %zu: %.6f vs %.6f", i, p.p_success, oracles[i].p);
        cr_expect(p.ci_low <= p.p_success && p.p_success <= p.ci_high);
    }
}

Test(driver, published_rounding)
{
    /* The percentages as published: 41.67, 65.97, 68.06, 55.56. */
    static const char *const shown[] = {"41.67", "65.97", "68.06", "55.56"};
    for (size_t i = 0; i < 4; i++) {
        char buf[32];
        snprintf(buf, sizeof buf, "%.2f", 100.0 * oracles[i].p);
        cr_expect_str_eq(buf, shown[i]);
    }
}

Test(driver, same_bytes_for_1_2_and_7_threads)
{
    /* Several blocks per point (trials > block size), a drawn layout
     * parameter, both sampling methods, and the distributions. */
    static const char *const ini =
        "[experiment]\nruleset = generic\ntrials = 50000\nseed = 11\n"
        "[params]\nmove = 3..6\ndistance = uniform(4,16)\nreroll = none,one_die\n";
    const char *mc[] = {"experiment.method=mc"};
    const char *cond[] = {"experiment.method=conditional"};
    th_expect_same_bytes(ini, mc, 1, NULL);
    th_expect_same_bytes(ini, cond, 1, NULL);
}

Test(driver, conditional_on_a_fixed_layout_equals_exact)
{
    const char *sets[] = {"preset=whfb8", "move=5", "distance=11"};
    cs_point_result c = one_point("conditional", sets, 3);
    cs_point_result x = one_point("exact", sets, 3);
    cr_expect_leq(fabs(c.p_success - x.p_success), 1e-12);
    cr_expect_leq(fabs(c.ci_high - c.ci_low), 1e-12, "a fixed layout has no variance");
}

Test(driver, conditional_agrees_with_mc_on_random_layouts)
{
    /* distance ~ U(4, 16), move 4. On (k, k+1] the need is k + 1 - 4, so the
     * exact average is (1/12) * sum_{k=4}^{15} P(2D6 >= k - 3). */
    static const double at_least[13] = {1, 1, 1, 35.0 / 36, 33.0 / 36, 30.0 / 36, 26.0 / 36,
                                        21.0 / 36, 15.0 / 36, 10.0 / 36, 6.0 / 36, 3.0 / 36,
                                        1.0 / 36};
    double exact = 0.0;
    for (int k = 4; k <= 15; k++)
        exact += (k - 3 <= 12 ? at_least[k - 3] : 0.0) / 12.0;
    const char *sets[] = {"move=4", "distance=uniform(4,16)"};
    cs_point_result c = one_point("conditional", sets, 2);
    cs_point_result m = one_point("mc", sets, 2);
    double se_m = sqrt(exact * (1 - exact) / (double)m.trials);
    double se_c = (c.ci_high - c.ci_low) / 2.0 / 1.959963984540054;
    cr_expect_leq(fabs(m.p_success - exact), 5.0 * se_m, "mc %.6f vs %.6f", m.p_success, exact);
    cr_expect_leq(fabs(c.p_success - exact), 5.0 * se_c, "conditional %.6f vs %.6f",
                  c.p_success, exact);
    cr_expect_leq(fabs(c.p_success - m.p_success), 5.0 * sqrt(se_m * se_m + se_c * se_c));
    cr_expect_lt(c.ci_high - c.ci_low, m.ci_high - m.ci_low,
                 "conditional must be narrower than mc");
}

Test(driver, precision_stops_meets_the_width_and_repeats)
{
    static const char *const ini =
        "[experiment]\nruleset = generic\ntrials = 5000\nseed = 3\nmethod = mc\n"
        "precision = 0.004\n[params]\ndistance = 6,8\n";
    cs_experiment e;
    cs_error err;
    cr_assert_eq(th_load(ini, NULL, 0, &e, &err), CS_OK, "%s", err.msg);
    cs_run_result r;
    cr_assert_eq(th_run(&e, 2, &r), CS_OK);
    cr_expect(r.precision_met);
    for (uint64_t k = 0; k < r.n_points; k++) {
        cr_expect_leq(0.5 * (r.point[k].ci_high - r.point[k].ci_low), 0.004);
        cr_expect_gt(r.point[k].trials, 5000u, "it had to add blocks");
        /* Blocks double each round: the width must not have been reached
         * long before the last round (no huge overshoot). */
        cr_expect_lt(r.point[k].trials, 4u * 60000u);
    }
    cs_sched_result_free(&r);
    char *a = th_run_csv(&e, 1, NULL), *b = th_run_csv(&e, 7, NULL);
    cr_expect_str_eq(a, b);
    free(a), free(b);
    cs_experiment_free(&e);
}

/* Every probability column meets --precision, not only p_success: with
 * three outcomes of unequal size the run must go on until the widest
 * outcome interval is narrow enough. */
Test(driver, precision_holds_for_every_probability_column)
{
    static const char *const ini =
        "[experiment]\nruleset = generic\ntrials = 4096\nseed = 5\nmethod = mc\n"
        "precision = 0.006\n[params]\ndice = 1d10\ndistance = 2\nreroll = failed\n";
    cs_experiment e;
    cs_error err;
    cr_assert_eq(th_load(ini, NULL, 0, &e, &err), CS_OK, "%s", err.msg);
    cs_run_result r;
    cr_assert_eq(th_run(&e, 2, &r), CS_OK);
    cr_expect(r.precision_met);
    const cs_point_result *pr = &r.point[0];
    cr_expect_leq(0.5 * (pr->ci_high - pr->ci_low), 0.006);
    for (int o = 0; o < e.rs->n_outcomes; o++)
        cr_expect_leq(0.5 * (pr->outcome_high[o] - pr->outcome_low[o]), 0.006, "%s",
                      e.rs->outcomes[o]);
    cs_sched_result_free(&r);
    cs_experiment_free(&e);
}

/* Coverage under the sequential stopping of --precision: over 2,000 seeds
 * the 95% interval of an mc run with a known exact p must cover p at least
 * 95% of the time, less three binomial standard errors of the measured
 * rate (the allowance for measuring coverage with 2,000 runs). The first
 * round is small (2,000 trials) so that most runs stop in a later round,
 * where optional stopping would show. */
typedef struct coverage_case {
    const char *dice, *distance;
    double p, precision;
} coverage_case;

static double coverage(const coverage_case *c, int runs)
{
    char dice[64], dist[64], prec[64];
    snprintf(dice, sizeof dice, "dice=%s", c->dice);
    snprintf(dist, sizeof dist, "distance=%s", c->distance);
    snprintf(prec, sizeof prec, "experiment.precision=%g", c->precision);
    int covered = 0;
    for (int i = 0; i < runs; i++) {
        char seed[64];
        snprintf(seed, sizeof seed, "experiment.seed=%d", 1000 + i);
        const char *sets[] = {dice, dist, prec, seed};
        cs_experiment e;
        cs_error err;
        cr_assert_eq(th_load("[experiment]\nruleset = generic\ntrials = 2000\nmethod = mc\n"
                             "[params]\n",
                             sets, 4, &e, &err),
                     CS_OK, "%s", err.msg);
        cs_run_result r;
        cr_assert_eq(th_run(&e, 1, &r), CS_OK);
        const cs_point_result *pr = &r.point[0];
        covered += pr->ci_low <= c->p && c->p <= pr->ci_high;
        cs_sched_result_free(&r);
        cs_experiment_free(&e);
    }
    return (double)covered / runs;
}

Test(driver, precision_intervals_keep_their_coverage, .timeout = 60)
{
    /* P(3d10 >= 30) = 1/1000, P(1d20 >= 20) = 1/20, P(1d10 >= 6) = 1/2. */
    static const coverage_case cases[] = {
        {"3d10", "30", 0.001, 0.0005},
        {"1d20", "20", 0.05, 0.005},
        {"1d10", "6", 0.5, 0.01},
    };
    const int runs = 2000;
    double allowance = 3.0 * sqrt(0.95 * 0.05 / runs);
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        double cov = coverage(&cases[i], runs);
        cr_expect_geq(cov, 0.95 - allowance, "p = %g: coverage %.4f below %.4f", cases[i].p,
                      cov, 0.95 - allowance);
        fprintf(stderr, "coverage at p = %g: %.4f\n", cases[i].p, cov);
    }
}

/* Error paths: each names the place and what was expected. */
typedef struct bad_case {
    const char *ini;
    const char *set;
    const char *needle;
} bad_case;

Test(driver, experiment_errors_name_line_and_key)
{
    static const bad_case cases[] = {
        {"[experiment]\nruleset = generic\n[params]\nmvoe = 3\n", NULL, ":4: [params] unknown key 'mvoe'"},
        {"[experiment]\nruleset = generic\n[parms]\nmove = 3\n", NULL, ":4: unknown section [parms]"},
        {"[experiment]\nruleset = generic\ntrails = 5\n", NULL, ":3: [experiment] unknown key 'trails'"},
        {"[experiment]\nruleset = nope\n", NULL, ":2: ruleset = 'nope': expected one of"},
        {"[experiment]\nruleset = generic\n[params]\nmove = 3..x\n", NULL, ":4: move = '3..x': expected a sweep"},
        {"[experiment]\nruleset = generic\n[params]\nmove = 5..3\n", NULL, "needs a <= b"},
        {"[experiment]\nruleset = generic\n[params]\nmove = 1..3:0\n", NULL, "step > 0"},
        {"[experiment]\nruleset = generic\n[params]\nmove = 3,,4\n", NULL, "empty element"},
        {"[experiment]\nruleset = generic\n[params]\ndice = 2d\n", NULL, "column 3"},
        {"[experiment]\nruleset = generic\n[params]\nmove = uniform(1,3)\n", NULL, "only layout parameters can be drawn"},
        {"[experiment]\nruleset = generic\nmethod = exact\n[params]\ndistance = uniform(1,3)\n", NULL,
         ":3: method = exact: the layout is drawn at random each trial (distance = uniform(1,3), "},
        {"[experiment]\nruleset = generic\n[params]\ndistance = 7..9:1.5\n", NULL,
         ":4: distance = '7..9:1.5': the step does not land on 9 (the last value would be 8.5)"},
        {"[experiment]\nruleset = generic\n[params]\ndistance = 8..8.00000000000001:0.000000000000001\n",
         NULL, ":4: distance = '8..8.00000000000001:0.000000000000001': the step is too small"},
        {"[experiment]\nruleset = generic\n[params]\nreroll = sometimes\n", NULL, "expected one of: none, failed, one_die"},
        {"[experiment]\nruleset = generic\n[params]\nmove = 3\n", "mvoe=4", "command line: [params] unknown key 'mvoe'"},
        {"[experiment]\nruleset = generic\n[params]\npreset = w40k\nmove = 5\n", NULL, ":5: move = 5: w40k and aos"},
        {"[experiment]\nruleset = generic\ntrials = 0\n", NULL, "trials = '0'"},
        {"no section here\n", NULL, ":1: malformed line"},
        {"[experiment]\nruleset = generic\n[params]\nmove = 3..10\ndistance = 5\nmove = 5\n", NULL,
         ":6: [params] move given again (first at line 4)"},
        {"[experiment]\nruleset = generic\ntrials = 5\n[params]\nmove = 4\n[experiment]\ntrials = 6\n",
         NULL, ":7: [experiment] trials given again (first at line 3)"},
        {"[experiment]\nruleset = generic\n[params]\ndice = 2d6,1d6\n[labels]\ndice = A\n", NULL,
         ":6: [labels] dice: 1 label for 2 values"},
        {"[experiment]\nruleset = generic\n[params]\nmove = 4\n[labels]\nmove = A, B\n", NULL,
         ":6: [labels] move: move is not swept"},
        {"[experiment]\nruleset = generic\n[labels]\nmvoe = A\n[params]\nmove = 4,5\n", NULL,
         ":4: [labels] unknown key 'mvoe'"},
        {"[experiment]\nruleset = generic\n[labels]\nmove = A,,B\n[params]\nmove = 4,5,6\n", NULL,
         ":4: [labels] move = 'A,,B': empty label"},
        {"[experiment]\nruleset = generic\n[params]\nmove = 4,5\n", "labels.move=A",
         "command line: [labels] move: 1 label for 2 values"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cs_experiment e;
        cs_error err = {0};
        const char *sets[1] = {cases[i].set};
        cs_status st = th_load(cases[i].ini, sets, cases[i].set ? 1 : 0, &e, &err);
        cr_expect_eq(st, CS_EINPUT, "case %zu should fail", i);
        cr_expect(strstr(err.msg, cases[i].needle) != NULL, "case %zu: '%s' lacks '%s'", i,
                  err.msg, cases[i].needle);
    }
}

/* A file's labels name the file's values: --set replacing the values drops
 * them (the run goes on, unlabelled); --set may give new labels. */
Test(driver, set_replacing_a_labelled_sweep_drops_its_labels)
{
    static const char *const ini =
        "[experiment]\nruleset = generic\n[params]\nmove = 4,5\n[labels]\nmove = A, B\n";
    cs_experiment e;
    cs_error err;
    int mv = cs_ruleset_param_index(&cs_rules_generic, "move");
    cr_assert_eq(th_load(ini, NULL, 0, &e, &err), CS_OK, "%s", err.msg);
    cr_expect_str_eq(cs_experiment_label(&e, mv, 1), "B");
    cs_experiment_free(&e);
    const char *sets[] = {"move=3,4,5"};
    cr_assert_eq(th_load(ini, sets, 1, &e, &err), CS_OK, "%s", err.msg);
    cr_expect_null(cs_experiment_label(&e, mv, 0));
    cs_experiment_free(&e);
    const char *both[] = {"move=3,4,5", "labels.move=X, Y, Z"};
    cr_assert_eq(th_load(ini, both, 2, &e, &err), CS_OK, "%s", err.msg);
    cr_expect_str_eq(cs_experiment_label(&e, mv, 2), "Z");
    cs_experiment_free(&e);
}

/* inih reads lines into a fixed buffer (INI_MAX_LINE, 200 bytes in Debian's
 * build: 199 characters). A longer line is named as such, with its own line
 * number; one of exactly 199 characters is whole, and the lines after it keep
 * their numbers. */
Test(driver, long_lines_are_named_and_keep_the_numbering)
{
    char ini[1024], pad[512];
    cs_experiment e;
    cs_error err = {0};
    memset(pad, 'x', 300);
    pad[300] = '\0';
    snprintf(ini, sizeof ini, "[experiment]\nruleset = generic\ntrials = 1000 ; %s\n", pad);
    cr_expect_eq(th_load(ini, NULL, 0, &e, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, ":3: line longer than 199 characters"), "%s", err.msg);
    /* "name = " is 7 characters: 192 more make 199. */
    pad[192] = '\0';
    snprintf(ini, sizeof ini, "[experiment]\nname = %s\nruleset = generic\nbogus = 1\n", pad);
    cr_expect_eq(th_load(ini, NULL, 0, &e, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, ":4: [experiment] unknown key 'bogus'"), "%s", err.msg);
    snprintf(ini, sizeof ini, "[experiment]\nname = %s\nruleset = generic\n", pad);
    cr_assert_eq(th_load(ini, NULL, 0, &e, &err), CS_OK, "%s", err.msg);
    cr_expect_str_eq(e.name, pad);
    cs_experiment_free(&e);
}

Test(driver, sweeps_are_cartesian_in_file_order)
{
    static const char *const ini = "[experiment]\nruleset = generic\n[params]\n"
                                   "distance = 2..6:2\nmove = 1,3\n";
    cs_experiment e;
    cs_error err;
    cr_assert_eq(th_load(ini, NULL, 0, &e, &err), CS_OK, "%s", err.msg);
    cr_expect_eq(e.n_points, 6u);
    char label[128];
    cs_experiment_point_label(&e, 1, label, sizeof label);
    cr_expect_str_eq(label, "distance=2, move=3");
    cs_experiment_point_label(&e, 4, label, sizeof label);
    cr_expect_str_eq(label, "distance=6, move=1");
    cs_experiment_free(&e);
}

Test(driver, trial_params_replay_the_draws_of_that_trial)
{
    /* Trial 0 of point 1 draws distance first, from the first trial
     * generator of stream (seed, 1, 0). */
    static const char *const ini = "[experiment]\nruleset = generic\ntrials = 10000\nseed = 5\n"
                                   "[params]\nmove = 3,4\ndistance = uniform(2,14)\n";
    cs_experiment e;
    cs_error err;
    cr_assert_eq(th_load(ini, NULL, 0, &e, &err), CS_OK, "%s", err.msg);
    cs_replay rp;
    cr_assert_eq(cs_replay_trial(&e, 1, 0, &rp, &err), CS_OK);
    double num[CS_MAX_PARAMS];
    memcpy(num, rp.num, sizeof num);
    cs_replay_free(&rp);
    cs_rng block, r;
    cs_rng_stream(&block, 5, 1, 0);
    cs_rng_trials ts;
    cs_rng_trials_init(&ts, &block);
    cs_rng_trials_next(&ts, &r);
    double want = 2.0 + 12.0 * cs_rng_uniform(&r);
    int d = cs_ruleset_param_index(e.rs, "distance"), m = cs_ruleset_param_index(e.rs, "move");
    cr_expect_eq(num[d], want);
    cr_expect_eq(num[m], 4.0);
    /* A later trial differs, and stays within the range. */
    cr_assert_eq(cs_replay_trial(&e, 1, 9000, &rp, &err), CS_OK);
    cr_expect(rp.num[d] >= 2.0 && rp.num[d] < 14.0 && rp.num[d] != want);
    cs_replay_free(&rp);
    cr_expect_eq(cs_replay_trial(&e, 2, 0, &rp, &err), CS_EINPUT);
    cs_replay_free(&rp);
    cs_experiment_free(&e);
}

Test(driver, a_random_layout_never_reads_as_exact)
{
    /* move 5 + 2D6 >= 2 for every distance in [1, 2): every sampled layout
     * gives p = 1, yet a random layout could hide a rarer one: the interval
     * keeps the width z^2 / (n + z^2) the Wilson bound gives for none seen. */
    const char *sets[] = {"move=5", "distance=uniform(1,2)"};
    cs_point_result c = one_point("conditional", sets, 2);
    double z = 1.959963984540054, w = z * z / (400000.0 + z * z);
    cr_expect_eq(c.p_success, 1.0);
    cr_expect_eq(c.ci_high, 1.0);
    cr_expect_leq(fabs(c.ci_low - (1.0 - w)), 1e-12, "%.12f", c.ci_low);
    /* The fixed layout, by contrast, is exact. */
    const char *fixed[] = {"move=5", "distance=1.5"};
    cs_point_result x = one_point("conditional", fixed, 2);
    cr_expect_eq(x.ci_low, 1.0);
}

Test(driver, every_outcome_has_its_interval)
{
    const char *sets[] = {"distance=8"};
    cs_point_result m = one_point("mc", sets, 1);
    /* Two outcomes: failed's interval mirrors charged's (Wilson is symmetric
     * under p -> 1 - p). */
    cr_expect_leq(fabs(m.outcome_low[0] - m.ci_low), 1e-15);
    cr_expect_leq(fabs(m.outcome_low[1] - (1.0 - m.ci_high)), 1e-12);
    cr_expect(m.outcome_low[1] <= m.p_outcome[1] && m.p_outcome[1] <= m.outcome_high[1]);
    const char *random[] = {"move=4", "distance=uniform(4,16)"};
    cs_point_result c = one_point("conditional", random, 2);
    cr_expect_leq(fabs((c.outcome_high[1] - c.outcome_low[1]) - (c.ci_high - c.ci_low)), 1e-12,
                  "a two-outcome layout: the same per-layout variance");
}

/* A sweep whose points would not fit the run's memory bound is refused at
 * once, with the bytes per point (issue 18: 10^6 points took 7.2 GB). */
Test(driver, a_sweep_beyond_the_memory_bound_is_refused_at_once)
{
    cs_experiment e;
    cs_error err;
    cr_assert_eq(th_load("[experiment]\nruleset = sovl\ntrials = 10\nmethod = mc\n[params]\n"
                         "distance = 0..199\noffset = -200..199\nangle = 0..9\n",
                         NULL, 0, &e, &err),
                 CS_OK, "%s", err.msg);
    cs_run_opts o = {.threads = 2};
    cr_assert_gt(e.n_points * cs_sched_point_bytes(&e, &o), CS_SCHED_MAX_RUN_BYTES);
    cs_run_result r;
    double t0 = th_now();
    cr_expect_eq(cs_sched_run(&e, &o, &r, &err), CS_EINPUT);
    cr_expect_lt(th_now() - t0, 1.0);
    cr_expect(strstr(err.msg, "800000 sweep points need about"), "%s", err.msg);
    cr_expect(strstr(err.msg, "bytes per point"), "%s", err.msg);
    cs_experiment_free(&e);
}

/* The library refuses a precision past the cap too, and a larger
 * max_trials lets it run. */
Test(driver, precision_cap_and_max_trials)
{
    cs_experiment e;
    cs_error err;
    cr_assert_eq(th_load("[experiment]\nruleset = generic\ntrials = 4096\nmethod = mc\n"
                         "precision = 0.004\n[params]\ndistance = 8\n",
                         NULL, 0, &e, &err),
                 CS_OK, "%s", err.msg);
    cs_run_result r;
    cs_run_opts small = {.threads = 2, .max_trials = 50000};
    double t0 = th_now();
    cr_expect_eq(cs_sched_run(&e, &small, &r, &err), CS_EINPUT);
    cr_expect_lt(th_now() - t0, 1.0);
    cr_expect(strstr(err.msg, "up to 6.03e+04 trials"), "%s", err.msg);
    cs_run_opts enough = {.threads = 2, .max_trials = 300000};
    cr_assert_eq(cs_sched_run(&e, &enough, &r, &err), CS_OK, "%s", err.msg);
    cr_expect(r.precision_met);
    cr_expect_leq(r.point[0].trials, 300000u);
    cs_sched_result_free(&r);
    /* The cap itself is the library's too, not only the command line's. */
    cs_run_opts over = {.threads = 1, .max_trials = CS_SCHED_MAX_TRIALS + 1};
    cr_expect_eq(cs_sched_run(&e, &over, &r, &err), CS_EINPUT);
    cr_expect_str_eq(err.msg, "--max-trials 4000000000001: at most 4000000000000");
    cs_experiment_free(&e);
}

/* The ruleset decides what the parameters are: it may change while none is
 * set (an override of the file's), not after. */
Test(driver, ruleset_changes_only_before_its_parameters)
{
    cs_experiment e;
    cs_error err;
    const char *sets[] = {"experiment.ruleset=t9a"};
    cr_assert_eq(th_load("[experiment]\nruleset = generic\n", sets, 1, &e, &err), CS_OK,
                 "%s", err.msg);
    cr_expect_str_eq(e.rs->name, "t9a");
    cs_experiment_free(&e);
    cs_experiment_init(&e, "here");
    cr_assert_eq(cs_experiment_set(&e, "experiment", "ruleset", "generic", "here", 1, &err),
                 CS_OK, "%s", err.msg);
    cr_assert_eq(cs_experiment_set(&e, "params", "move", "5", "here", 2, &err), CS_OK, "%s",
                 err.msg);
    cr_expect_eq(cs_experiment_set(&e, "experiment", "ruleset", "t9a", "here", 3, &err),
                 CS_EINPUT);
    cr_expect_str_eq(err.msg, "here:3: ruleset = 't9a': set the ruleset before its parameters");
    cr_expect_str_eq(e.rs->name, "generic");
    cs_experiment_free(&e);
}

/* A success set given to the library: p_success is the sum of those
 * outcomes, for every method. */
Test(driver, success_mask_overrides_the_rulesets)
{
    static const char *const methods[] = {"exact", "conditional", "mc"};
    for (int i = 0; i < 3; i++) {
        char m[64];
        snprintf(m, sizeof m, "experiment.method=%s", methods[i]);
        const char *sets[] = {m};
        cs_experiment e;
        cs_error err;
        cr_assert_eq(th_load(head_on, sets, 1, &e, &err), CS_OK, "%s", err.msg);
        unsigned mask;
        cr_assert_eq(cs_success_parse(e.rs, "failed", &mask, &err), CS_OK);
        cs_run_opts o = {.threads = 2, .success_mask = mask};
        cs_run_result r;
        cr_assert_eq(cs_sched_run(&e, &o, &r, &err), CS_OK, "%s", err.msg);
        int failed = cs_ruleset_outcome_index(e.rs, "failed");
        cr_expect_eq(r.point[0].p_success, r.point[0].p_outcome[failed], "%s", methods[i]);
        cr_expect_leq(fabs(r.point[0].p_success - 21.0 / 36.0), th_5sigma(21.0 / 36.0, 400000),
                      "%s", methods[i]);
        cr_expect_eq(r.success_mask, mask);
        cs_sched_result_free(&r);
        cr_expect_eq(cs_success_parse(e.rs, "charged,nope", &mask, &err), CS_EINPUT);
        cr_expect(strstr(err.msg, "expected one or more of: charged, failed"), "%s", err.msg);
        cs_experiment_free(&e);
    }
}

/* Sampled dice counts: a bounded structure, the same for any thread count
 * (issue 18: an array as wide as the range per thread took 4.27 GB at 64
 * threads for an expression spanning about 8.8 million totals). */
Test(driver, dice_counts_are_bounded_and_thread_free, .timeout = 30)
{
    cs_dice d;
    cs_diag diag = {0};
    const char *expr = "100d1000!+100d1000!+100d1000!+100d1000!+100d1000!+100d1000!+"
                       "100d1000!+100d1000!";
    cr_assert_eq(cs_dice_parse(expr, &d, &diag), CS_OK, "%s", diag.what);
    cr_assert_gt(cs_dice_max(&d) - cs_dice_min(&d), 8000000);
    cs_error err;
    cs_dicesim_count *c1, *c64;
    size_t n1, n64;
    double t0 = th_now();
    cr_assert_eq(cs_dicesim_counts(&d, 9000, 4, 1, &c1, &n1, &err), CS_OK);
    cr_assert_eq(cs_dicesim_counts(&d, 9000, 4, 64, &c64, &n64, &err), CS_OK);
    cr_expect_lt(th_now() - t0, th_time_limit(1.0));
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    /* 64 arrays as wide as the range would be 4.5 GB. */
    cr_expect_lt(ru.ru_maxrss, 400L * 1024L, "max RSS %ld KB", ru.ru_maxrss);
    cr_assert_eq(n1, n64);
    uint64_t total = 0;
    for (size_t i = 0; i < n1; i++) {
        cr_expect_eq(c1[i].value, c64[i].value);
        cr_expect_eq(c1[i].count, c64[i].count);
        cr_expect(i == 0 || c1[i - 1].value < c1[i].value, "sorted by value");
        total += c1[i].count;
    }
    cr_expect_eq(total, 9000u);
    free(c1);
    free(c64);
    /* A narrow expression over several blocks: the exact law within 5 sigma. */
    cr_assert_eq(cs_dice_parse("2d6", &d, &diag), CS_OK);
    cr_assert_eq(cs_dicesim_counts(&d, 2000000, 9, 3, &c1, &n1, &err), CS_OK);
    cr_assert_eq(n1, 11u);
    for (size_t i = 0; i < n1; i++) {
        double p = (6.0 - fabs(7.0 - c1[i].value)) / 36.0;
        cr_expect_leq(fabs((double)c1[i].count / 2e6 - p), th_5sigma(p, 2000000), "%d",
                      c1[i].value);
    }
    free(c1);
}

/* A ruleset may come without exact outcome probabilities (ruleset.h: the
 * hook is optional; every built-in one has it): auto then runs mc, and the
 * methods that need them are refused by name. A copy of generic without
 * the hook stands in for one. */
Test(driver, a_ruleset_without_exact_probabilities_runs_mc)
{
    cs_ruleset bare = *cs_registry_find("generic");
    bare.outcome_probabilities = NULL;
    cs_experiment e;
    cs_error err;
    cr_assert_eq(th_load("[experiment]\nruleset = generic\ntrials = 40000\nseed = 3\n"
                         "[params]\ndistance = 8\n",
                         NULL, 0, &e, &err),
                 CS_OK, "%s", err.msg);
    e.rs = &bare;
    cs_method m;
    cr_assert_eq(cs_est_method(&e, &m, &err), CS_OK);
    cr_expect_eq(m, CS_METHOD_MC);
    cs_run_result r;
    cr_assert_eq(th_run(&e, 2, &r), CS_OK);
    cr_expect_eq(r.method, CS_METHOD_MC);
    cr_expect_leq(fabs(r.point[0].p_success - 15.0 / 36.0), th_5sigma(15.0 / 36.0, 40000),
                  "%.6f", r.point[0].p_success);
    cs_sched_result_free(&r);
    static const cs_method exact_ones[] = {CS_METHOD_CONDITIONAL, CS_METHOD_EXACT,
                                           CS_METHOD_RQMC};
    for (int i = 0; i < 3; i++) {
        e.method = exact_ones[i];
        cr_expect_eq(cs_est_method(&e, &m, &err), CS_EINPUT);
        char want[256];
        snprintf(want, sizeof want, "method %s: ruleset generic has no exact outcome "
                 "probabilities; use --method mc", cs_method_name(exact_ones[i]));
        cr_expect_str_eq(err.msg, want);
    }
    cs_experiment_free(&e);
}

/* precision = H% is H / 100. */
Test(driver, precision_in_percent)
{
    cs_experiment e;
    cs_error err;
    const char *sets[] = {"experiment.precision=0.5%"};
    cr_assert_eq(th_load("[experiment]\nruleset = generic\n", sets, 1, &e, &err), CS_OK, "%s",
                 err.msg);
    cr_expect_eq(e.precision, 0.005);
    cs_experiment_free(&e);
    sets[0] = "experiment.precision=150%";
    cr_expect_eq(th_load("[experiment]\nruleset = generic\n", sets, 1, &e, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, "precision = '150%': expected an interval half-width such as "
                              "0.001 or 0.1% (0 = off)"),
              "%s", err.msg);
}
