/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/registry.h"
#include "support/helpers.h"

/* The ruleset is called directly: parameters come from the table's defaults,
 * with the few each test changes set by key. */
static const cs_ruleset *const R = &cs_rules_coreheim;

static int param(const char *key)
{
    for (int i = 0; i < R->n_params; i++)
        if (strcmp(R->params[i].key, key) == 0)
            return i;
    cr_assert_fail("no parameter %s", key);
    return -1;
}

static int outcome(const char *name)
{
    for (int i = 0; i < R->n_outcomes; i++)
        if (strcmp(R->outcomes[i], name) == 0)
            return i;
    cr_assert_fail("no outcome %s", name);
    return -1;
}

static int metric(const char *name)
{
    for (int i = 0; i < R->n_metrics; i++)
        if (strcmp(R->metrics[i].name, name) == 0)
            return i;
    cr_assert_fail("no metric %s", name);
    return -1;
}

static cs_params defaults(void)
{
    cs_params p;
    th_defaults(R, &p);
    return p;
}

static void set(cs_params *p, const char *key, const char *text)
{
    int i = param(key);
    p->num[i] = th_param_value(&R->params[i], text);
}

/* Everything one scenario needs, on the stack (sizes checked). */
typedef struct scenario {
    cs_params p;
    unsigned char ctx[512];
    unsigned char layout[1024];
} scenario;

static void prepare(scenario *s)
{
    cr_assert_leq(R->ctx_size, sizeof s->ctx);
    cr_assert_leq(R->layout_size, sizeof s->layout);
    cs_diag diag = {0, NULL, NULL};
    cs_status st = R->prepare(&s->p, s->ctx, &diag);
    cr_assert_eq(st, CS_OK, "prepare: %s %s", diag.key ? diag.key : "", diag.what ? diag.what : "");
}

/* Exact probabilities on the scenario's (fixed) layout. */
static cs_probs exact(scenario *s)
{
    prepare(s);
    cs_rng rng;
    cs_rng_seed(&rng, 1u, 1u);
    R->draw_layout(s->ctx, s->p.num, &rng, s->layout);
    cs_probs probs;
    R->outcome_probabilities(s->ctx, s->layout, &probs);
    double total = 0.0;
    for (int o = 0; o < R->n_outcomes; o++)
        total += probs.p[o];
    cr_expect_float_eq(total, 1.0, 1e-12);
    return probs;
}

static double p_success(const cs_probs *probs)
{
    double p = 0.0;
    for (int o = 0; o < R->n_outcomes; o++)
        if (R->success_mask & (1u << o))
            p += probs->p[o];
    return p;
}

/* Monte Carlo over layouts and dice: the fraction of n trials with outcome o
 * (o < 0: success), and the sum of metric m over the trials where it is
 * defined (m >= 0). */
typedef struct mc_result {
    double p;
    double metric_sum;
    int metric_n;
} mc_result;

static mc_result monte_carlo(scenario *s, int o, int m, int n, uint64_t seed)
{
    prepare(s);
    cs_rng rng;
    cs_rng_seed(&rng, seed, 7u);
    int hits = 0;
    mc_result r = {0.0, 0.0, 0};
    for (int t = 0; t < n; t++) {
        cs_trial trial;
        R->draw_layout(s->ctx, s->p.num, &rng, s->layout);
        R->resolve(s->ctx, s->layout, &rng, &trial);
        bool hit = o < 0 ? (R->success_mask & (1u << trial.outcome)) != 0 : trial.outcome == o;
        hits += hit;
        if (m >= 0 && !isnan(trial.m[m])) {
            r.metric_sum += trial.m[m];
            r.metric_n++;
        }
    }
    r.p = (double)hits / (double)n;
    return r;
}

/* The 5-sigma binomial bound of the common brief. */
static void expect_binomial(double p_hat, double p, int n, const char *what)
{
    double bound = 5.0 * sqrt(p * (1.0 - p) / (double)n);
    cr_expect_leq(fabs(p_hat - p), bound, "%s: estimate %.6f, exact %.6f, bound %.6f",
                  what, p_hat, p, bound);
}

/* A charge whose only test is the out-of-sight one, at 3" with M7. */
static scenario one_test(const char *initiative)
{
    scenario s;
    s.p = defaults();
    set(&s.p, "distance", "3");
    set(&s.p, "visible", "false");
    set(&s.p, "initiative", initiative);
    return s;
}

Test(coreheim, d12_test_probabilities_exact_and_mc)
{
    /* 1.1: 7+ passes on 7..12 = 6/12; 2+ on 2..12 = 11/12 (the natural 1
     * fails); 13+ only on the natural 12 = 1/12; 1+ like 2+. */
    const char *init[] = {"7", "2", "13", "1"};
    const double want[] = {6.0 / 12.0, 11.0 / 12.0, 1.0 / 12.0, 11.0 / 12.0};
    for (int i = 0; i < 4; i++) {
        scenario s = one_test(init[i]);
        cs_probs probs = exact(&s);
        cr_expect_float_eq(probs.p[outcome("charged")], want[i], 1e-12, "%s+", init[i]);
        cr_expect_float_eq(probs.p[outcome("failed_test")], 1.0 - want[i], 1e-12);
        const int n = 40000;
        mc_result mc = monte_carlo(&s, outcome("charged"), -1, n, 11u + (uint64_t)i);
        expect_binomial(mc.p, want[i], n, init[i]);
    }
}

Test(coreheim, d6_under_variant)
{
    /* Classic test: D6 <= 4 passes on 1..4 = 4/6. */
    scenario s = one_test("4");
    set(&s.p, "tests", "d6_under");
    cs_probs probs = exact(&s);
    cr_expect_float_eq(probs.p[outcome("charged")], 4.0 / 6.0, 1e-12);
    const int n = 40000;
    expect_binomial(monte_carlo(&s, outcome("charged"), -1, n, 5u).p, 4.0 / 6.0, n, "d6<=4");
}

Test(coreheim, d6_under_natural_six_and_zero_always_fail)
{
    /* Issue 15.3: the classic test (Warhammer Fantasy Battle 7th edition,
     * Characteristic Tests) fails on a natural 6 whatever the value, and a
     * value of 0 always fails: I 6 and I 9 pass on 1..5 only = 5/6, I 5 too,
     * I 1 on the 1 alone = 1/6, I 0 never. */
    const char *init[] = {"6", "9", "14", "5", "1", "0"};
    const double want[] = {5.0 / 6.0, 5.0 / 6.0, 5.0 / 6.0, 5.0 / 6.0, 1.0 / 6.0, 0.0};
    for (int i = 0; i < 6; i++) {
        scenario s = one_test(init[i]);
        set(&s.p, "tests", "d6_under");
        cs_probs probs = exact(&s);
        cr_expect_float_eq(probs.p[outcome("charged")], want[i], 1e-12, "d6 <= %s", init[i]);
        cr_expect_float_eq(probs.p[outcome("failed_test")], 1.0 - want[i], 1e-12);
        const int n = 40000;
        mc_result mc = monte_carlo(&s, outcome("charged"), -1, n, 61u + (uint64_t)i);
        expect_binomial(mc.p, want[i], n, init[i]);
        /* A p of 0 has a zero bound: not one sampled pass. */
        if (want[i] == 0.0)
            cr_expect_eq(mc.p, 0.0);
    }
    /* Two tests (out of sight, a 2" jump) at I 6: (5/6)^2, not 1. */
    scenario s = one_test("6");
    set(&s.p, "tests", "d6_under");
    set(&s.p, "jump", "2");
    cs_probs two = exact(&s);
    cr_expect_float_eq(p_success(&two), 25.0 / 36.0, 1e-12);
}

Test(coreheim, intercepted_is_not_a_success)
{
    /* Issue 15.5: p_success means contact with the declared target; an
     * interceptor takes the charge on itself, so it is not counted. */
    cr_expect_eq(R->success_mask & (1u << outcome("intercepted")), 0u);
    cr_expect_neq(R->success_mask & (1u << outcome("charged")), 0u);
    cr_expect_neq(R->success_mask & (1u << outcome("diving")), 0u);
    scenario s;
    s.p = defaults();
    set(&s.p, "interceptors", "1");
    cs_probs probs = exact(&s);
    cr_expect_float_eq(probs.p[outcome("intercepted")], 1.0, 1e-12);
    cr_expect_float_eq(p_success(&probs), 0.0, 1e-12);
}

/* The issue's combined charge: 5" at M7, I 7+, climbing 2" up, jumping 4"
 * down (two tests), out of sight: four tests of 1/2 each. */
static scenario combined(void)
{
    scenario s;
    s.p = defaults();
    set(&s.p, "distance", "5");
    set(&s.p, "move", "7");
    set(&s.p, "initiative", "7");
    set(&s.p, "climb", "2");
    set(&s.p, "climb_at", "1");
    set(&s.p, "jump", "4");
    set(&s.p, "visible", "false");
    return s;
}

Test(coreheim, combined_charge_exact)
{
    scenario s = combined();
    /* land_gap 1 by default: lands within 2" with the move left, so the
     * success is a diving charge (1.4). */
    cs_probs probs = exact(&s);
    cr_expect_float_eq(p_success(&probs), 1.0 / 16.0, 1e-12);
    cr_expect_float_eq(probs.p[outcome("diving")], 1.0 / 16.0, 1e-12);
    /* Sight fails 1/2, the climb up 1/4 (failed_test, stops at its foot);
     * a jump test fails 1/8 + 1/16 (fell). */
    cr_expect_float_eq(probs.p[outcome("failed_test")], 0.75, 1e-12);
    cr_expect_float_eq(probs.p[outcome("fell")], 3.0 / 16.0, 1e-12);
    /* Tests taken: 1 w.p. 1/2, 2 w.p. 1/4, 3 w.p. 1/8, 4 w.p. 1/8;
     * mean 1/2 + 1/2 + 3/8 + 1/2 = 15/8. */
    int mt = metric("tests_taken");
    cr_expect_float_eq(probs.mean[mt], 15.0 / 8.0, 1e-12);
    cr_expect_float_eq(probs.pdef[mt], 1.0, 1e-12);
    cr_expect_eq(probs.n[mt], 4);
    /* A 4" fall needs (10 - 4)+ = 6+ on a D12: 7/12. */
    int mh = metric("fall_hit");
    cr_expect_float_eq(probs.mean[mh], 3.0 / 16.0 * 7.0 / 12.0, 1e-12);
    cr_expect_float_eq(probs.pdef[metric("fall_height")], 3.0 / 16.0, 1e-12);
    cr_expect_float_eq(probs.mean[metric("fall_height")], 3.0 / 16.0 * 4.0, 1e-12);
    /* Gaps: sight 5 (w 1/2), climb at 1" leaves 4 (w 1/4), the fall lands
     * 1" from the target (w 3/16): mean 2.5 + 1 + 3/16. */
    cr_expect_float_eq(probs.mean[metric("final_gap")], 2.5 + 1.0 + 3.0 / 16.0, 1e-12);
    /* Moved: the fall happens after 4" of route and the 2" climb: 6" (w
     * 3/16); the dive used distance + climb = 7" (w 1/16); the climb failure
     * 1" (w 1/4). */
    cr_expect_float_eq(probs.mean[metric("distance_moved")],
                       0.25 + 6.0 * 3.0 / 16.0 + 7.0 / 16.0, 1e-12);

    set(&s.p, "land_gap", "3");
    probs = exact(&s);
    cr_expect_float_eq(probs.p[outcome("charged")], 1.0 / 16.0, 1e-12);
    cr_expect_float_eq(probs.p[outcome("diving")], 0.0, 1e-12);
}

Test(coreheim, combined_charge_mc_agrees)
{
    scenario s = combined();
    const int n = 60000;
    mc_result mc = monte_carlo(&s, -1, metric("fall_hit"), n, 3u);
    expect_binomial(mc.p, 1.0 / 16.0, n, "p_success");
    /* fall_hit given a fall is Bernoulli(7/12) over the falls seen. */
    expect_binomial(mc.metric_sum / mc.metric_n, 7.0 / 12.0, mc.metric_n, "fall hit");
    mc = monte_carlo(&s, outcome("fell"), -1, n, 4u);
    expect_binomial(mc.p, 3.0 / 16.0, n, "fell");
}

Test(coreheim, climbing_down_falls_and_limits)
{
    scenario s;
    s.p = defaults();
    set(&s.p, "distance", "4");
    set(&s.p, "climb", "3");
    set(&s.p, "climb_direction", "down");
    /* One test at 7+: failing falls the whole 3" (1.4). */
    cs_probs probs = exact(&s);
    cr_expect_float_eq(probs.p[outcome("fell")], 0.5, 1e-12);
    cr_expect_float_eq(probs.p[outcome("charged")], 0.5, 1e-12);
    /* Falls under a full 2" are no falls (1.3): a failed 1.5" climb down. */
    set(&s.p, "climb", "1.5");
    probs = exact(&s);
    cr_expect_float_eq(probs.p[outcome("failed_test")], 0.5, 1e-12);
    cr_expect_float_eq(probs.p[outcome("fell")], 0.0, 1e-12);
    /* Over 6" of climbing is not a legal charge (1.4). */
    set(&s.p, "distance", "1");
    set(&s.p, "climb", "6.5");
    set(&s.p, "move", "10");
    probs = exact(&s);
    cr_expect_float_eq(probs.p[outcome("illegal")], 1.0, 1e-12);
    cr_expect_eq(probs.pdef[metric("tests_taken")], 0.0);
}

Test(coreheim, jumps_hidden_and_range)
{
    scenario s;
    s.p = defaults();
    set(&s.p, "distance", "3");
    set(&s.p, "jump", "7.9");
    set(&s.p, "initiative", "2");
    /* A jump over 7" automatically fails (1.3): always falls, no tests; a
     * 7.9" fall needs (10 - 7.9)+, i.e. 3+: 10/12. */
    cs_probs probs = exact(&s);
    cr_expect_float_eq(probs.p[outcome("fell")], 1.0, 1e-12);
    cr_expect_float_eq(probs.mean[metric("tests_taken")], 0.0, 1e-12);
    cr_expect_float_eq(probs.mean[metric("fall_hit")], 10.0 / 12.0, 1e-12);
    /* 6.5" down at 2+: three tests (full 2" each), (11/12)^3. */
    set(&s.p, "jump", "6.5");
    probs = exact(&s);
    cr_expect_float_eq(probs.p[outcome("diving")], pow(11.0 / 12.0, 3.0), 1e-12);
    set(&s.p, "hidden", "true");
    cr_expect_float_eq(exact(&s).p[outcome("illegal")], 1.0, 1e-12);
    /* Perfect judgement never declares a charge out of range: 8" > M7. */
    s.p = defaults();
    set(&s.p, "distance", "8");
    cr_expect_float_eq(exact(&s).p[outcome("declined")], 1.0, 1e-12);
    /* ... which the classic double move reaches. */
    set(&s.p, "move", "4");
    set(&s.p, "charge_multiplier", "2");
    cr_expect_float_eq(exact(&s).p[outcome("charged")], 1.0, 1e-12);
}

/* One interceptor at a fixed place beside a 6" charge. */
static double intercepted_with(const char *lateral, const char *along)
{
    scenario s;
    s.p = defaults();
    set(&s.p, "distance", "6");
    set(&s.p, "interceptors", "1");
    set(&s.p, "intercept_lateral_min", lateral);
    set(&s.p, "intercept_lateral_max", lateral);
    set(&s.p, "intercept_along_min", along);
    set(&s.p, "intercept_along_max", along);
    cs_probs probs = exact(&s);
    cr_expect_float_eq(probs.p[outcome("intercepted")] + probs.p[outcome("charged")], 1.0,
                       1e-12);
    return probs.p[outcome("intercepted")];
}

Test(coreheim, interception_geometry)
{
    /* 5.8: within 2" beside the middle intercepts, on either side. */
    cr_expect_float_eq(intercepted_with("1.9", "0.5"), 1.0, 1e-12);
    cr_expect_float_eq(intercepted_with("-1.9", "0.5"), 1.0, 1e-12);
    cr_expect_float_eq(intercepted_with("2.1", "0.5"), 0.0, 1e-12);
    /* Behind the target (along past 1), even 0.5" from the line: no. */
    cr_expect_float_eq(intercepted_with("0.5", "1.2"), 0.0, 1e-12);
    cr_expect_float_eq(intercepted_with("0.5", "-0.2"), 0.0, 1e-12);
}

Test(coreheim, interception_engaged_and_never)
{
    scenario s;
    s.p = defaults();
    set(&s.p, "interceptors", "2");
    set(&s.p, "interceptors_engaged", "1");
    cs_probs probs = exact(&s);
    cr_expect_float_eq(probs.p[outcome("intercepted")], 1.0, 1e-12);
    /* The interceptor stands in the middle of the default 6": moved 3". */
    cr_expect_float_eq(probs.mean[metric("distance_moved")], 3.0, 1e-12);
    set(&s.p, "interceptors_engaged", "2");
    cr_expect_float_eq(exact(&s).p[outcome("charged")], 1.0, 1e-12);
    set(&s.p, "interceptors_engaged", "0");
    set(&s.p, "intercept", "never");
    cr_expect_float_eq(exact(&s).p[outcome("charged")], 1.0, 1e-12);
}

Test(coreheim, two_eligible_give_exactly_the_first)
{
    /* Two interceptors both always eligible (within 2" beside the lane);
     * exactly one intercepts, the first along the route: the charger moves
     * min(x1, x2). The test redraws the same places from a copy of the
     * stream (lateral then along, per interceptor). */
    scenario s;
    s.p = defaults();
    set(&s.p, "distance", "6");
    set(&s.p, "interceptors", "2");
    set(&s.p, "intercept_lateral_min", "-2");
    set(&s.p, "intercept_lateral_max", "2");
    set(&s.p, "intercept_along_min", "0");
    set(&s.p, "intercept_along_max", "1");
    prepare(&s);
    cr_expect(R->layout_is_random(s.ctx));
    cs_rng rng;
    cs_rng_seed(&rng, 9u, 2u);
    for (int t = 0; t < 200; t++) {
        cs_rng copy = rng;
        double x[2];
        for (int i = 0; i < 2; i++) {
            (void)cs_rng_uniform(&copy);
            x[i] = 6.0 * cs_rng_uniform(&copy);
        }
        R->draw_layout(s.ctx, s.p.num, &rng, s.layout);
        cs_trial trial;
        R->resolve(s.ctx, s.layout, &rng, &trial);
        cr_assert_eq(trial.outcome, outcome("intercepted"));
        cr_assert_float_eq(trial.m[metric("distance_moved")], fmin(x[0], x[1]), 1e-12);
    }
}

Test(coreheim, random_interceptors_mc_and_conditional)
{
    /* Two interceptors, lateral uniform on [-4, 4] (eligible w.p. 1/2 each),
     * anywhere along the lane; the out-of-sight test at 7+ first. Exact:
     * failed_test 1/2, intercepted 1/2 * 3/4 = 3/8, charged 1/2 * 1/4. */
    scenario s;
    s.p = defaults();
    set(&s.p, "visible", "false");
    set(&s.p, "interceptors", "2");
    set(&s.p, "intercept_lateral_min", "-4");
    set(&s.p, "intercept_lateral_max", "4");
    set(&s.p, "intercept_along_min", "0");
    set(&s.p, "intercept_along_max", "1");
    const int n = 40000;
    expect_binomial(monte_carlo(&s, outcome("intercepted"), -1, n, 21u).p, 3.0 / 8.0, n,
                    "mc intercepted");
    /* Conditional: the mean of exact per-layout probabilities; its variance
     * is at most the binomial one, so the same bound holds. */
    prepare(&s);
    cs_rng rng;
    cs_rng_seed(&rng, 22u, 1u);
    double sum = 0.0, sum_charged = 0.0;
    for (int t = 0; t < n; t++) {
        cs_probs probs;
        R->draw_layout(s.ctx, s.p.num, &rng, s.layout);
        R->outcome_probabilities(s.ctx, s.layout, &probs);
        sum += probs.p[outcome("intercepted")];
        sum_charged += probs.p[outcome("charged")];
    }
    expect_binomial(sum / n, 3.0 / 8.0, n, "conditional intercepted");
    expect_binomial(sum_charged / n, 1.0 / 8.0, n, "conditional charged");
}

Test(coreheim, misjudged_distance)
{
    /* 6.5" at M7 with estimate_sd 0.2: declared iff 6.5 exp(0.2 Z) <= 7,
     * i.e. Z <= ln(7/6.5)/0.2; then it reaches. */
    scenario s;
    s.p = defaults();
    set(&s.p, "distance", "6.5");
    set(&s.p, "estimate_sd", "0.2");
    double z = log(7.0 / 6.5) / 0.2;
    double declared = 0.5 * erfc(-z / sqrt(2.0));
    const int n = 40000;
    expect_binomial(monte_carlo(&s, outcome("charged"), -1, n, 31u).p, declared, n, "charged");
    /* 7.5" is out of reach: declared w.p. P(Z <= ln(7/7.5)/0.2), then a
     * failed charge of 4" (stopping well short), leaving 3.5". */
    set(&s.p, "distance", "7.5");
    z = log(7.0 / 7.5) / 0.2;
    declared = 0.5 * erfc(-z / sqrt(2.0));
    mc_result mc = monte_carlo(&s, outcome("failed"), metric("final_gap"), n, 32u);
    expect_binomial(mc.p, declared, n, "failed");
    cr_expect_gt(mc.metric_n, 0);
    cr_expect_float_eq(mc.metric_sum / mc.metric_n, 3.5, 1e-12);
}

Test(coreheim, failed_charge_move_stops_short_and_can_be_intercepted)
{
    /* Out of range and still declared (a large misjudgement): 4.5" needs
     * 4.5 + climb 3 > M7. The failed move goes min(4, 4.5 - 1) = 3.5". */
    scenario s;
    s.p = defaults();
    set(&s.p, "distance", "4.5");
    set(&s.p, "climb", "3");
    set(&s.p, "climb_at", "4.5");
    set(&s.p, "estimate_sd", "1.5");
    set(&s.p, "interceptors", "1");
    set(&s.p, "intercept_lateral_min", "3");
    set(&s.p, "intercept_lateral_max", "3");
    prepare(&s);
    cs_rng rng;
    cs_rng_seed(&rng, 41u, 1u);
    int failed = 0;
    for (int t = 0; t < 200; t++) {
        cs_trial trial;
        R->draw_layout(s.ctx, s.p.num, &rng, s.layout);
        R->resolve(s.ctx, s.layout, &rng, &trial);
        cr_assert(trial.outcome == outcome("failed") || trial.outcome == outcome("declined"));
        if (trial.outcome == outcome("failed")) {
            failed++;
            cr_expect_float_eq(trial.m[metric("final_gap")], 1.0, 1e-12);
            cr_expect_float_eq(trial.m[metric("tests_taken")], 0.0, 1e-12);
        }
    }
    cr_expect_gt(failed, 0);
    /* An interceptor beside the moved part (2.25" along, within 2") takes
     * the failed move; one beyond 3.5" would not be reached. */
    set(&s.p, "intercept_lateral_min", "1");
    set(&s.p, "intercept_lateral_max", "1");
    for (int t = 0; t < 200; t++) {
        cs_trial trial;
        prepare(&s);
        R->draw_layout(s.ctx, s.p.num, &rng, s.layout);
        R->resolve(s.ctx, s.layout, &rng, &trial);
        cr_assert(trial.outcome == outcome("intercepted") || trial.outcome == outcome("declined"));
    }
    set(&s.p, "intercept_along_min", "0.9");
    set(&s.p, "intercept_along_max", "0.9");
    prepare(&s);
    for (int t = 0; t < 200; t++) {
        cs_trial trial;
        R->draw_layout(s.ctx, s.p.num, &rng, s.layout);
        R->resolve(s.ctx, s.layout, &rng, &trial);
        cr_assert(trial.outcome == outcome("failed") || trial.outcome == outcome("declined"));
    }
}

Test(coreheim, prepare_rejects_inverted_ranges)
{
    scenario s;
    s.p = defaults();
    set(&s.p, "intercept_lateral_min", "2");
    set(&s.p, "intercept_lateral_max", "1");
    cs_diag diag = {0, NULL, NULL};
    cr_expect_eq(R->prepare(&s.p, s.ctx, &diag), CS_EINPUT);
    cr_expect_str_eq(diag.key, "intercept_lateral_min");
    /* land_gap beyond the route matters only with a jump. */
    s.p = defaults();
    set(&s.p, "land_gap", "7");
    cr_expect_eq(R->prepare(&s.p, s.ctx, &diag), CS_OK);
    set(&s.p, "jump", "2");
    cr_expect_eq(R->prepare(&s.p, s.ctx, &diag), CS_EINPUT);
    cr_expect_str_eq(diag.key, "land_gap");
}
