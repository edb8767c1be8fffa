/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/registry.h"
#include "chargesim/scenario.h"
#include "chargesim/t9a.h"
#include "support/helpers.h"

/* The ruleset is called directly: parameters from the table's defaults,
 * prepare, draw_layout, then outcome_probabilities (exact) or resolve
 * (sampled). Unit sizes are the defaults unless a test says otherwise:
 * charger and target 5" wide, 4" deep, 1" bases (5 files, 4 ranks). */

static const cs_ruleset *const rs = &cs_rules_t9a;
static const double PI = 3.14159265358979323846;

static void defaults(cs_params *p)
{
    th_defaults(rs, p);
}

static void set(cs_params *p, const char *key, double v)
{
    int i = cs_ruleset_param_index(rs, key);
    cr_assert(i >= 0, "no parameter %s", key);
    p->num[i] = v;
}

static void set_choice(cs_params *p, const char *key, const char *text)
{
    int i = cs_ruleset_param_index(rs, key);
    cr_assert(i >= 0, "no parameter %s", key);
    for (int c = 0; rs->params[i].choices[c]; c++)
        if (strcmp(rs->params[i].choices[c], text) == 0) {
            p->num[i] = c;
            return;
        }
    cr_assert_fail("no choice %s for %s", text, key);
}

/* The head-on layout at gap d (docs/rules/README.md, the head-on layout). */
static cs_params head_on(double d)
{
    cs_params p;
    defaults(&p);
    set(&p, "distance", d);
    return p;
}

typedef struct case_ {
    void *ctx, *layout;
} case_;

static case_ open_case(const cs_params *p)
{
    case_ c = {calloc(1, rs->ctx_size), calloc(1, rs->layout_size)};
    cs_diag diag;
    cs_rng rng;
    cr_assert(c.ctx && c.layout);
    cr_assert_eq(rs->prepare(p, c.ctx, &diag), CS_OK, "prepare: %s %s",
                 diag.key ? diag.key : "", diag.what ? diag.what : "");
    cs_rng_seed(&rng, 1u, 1u);
    rs->draw_layout(c.ctx, p->num, &rng, c.layout);
    return c;
}

static void close_case(case_ *c)
{
    free(c->ctx);
    free(c->layout);
}

static cs_probs exact(const cs_params *p)
{
    case_ c = open_case(p);
    cs_probs pr;
    memset(&pr, 0, sizeof pr);
    rs->outcome_probabilities(c.ctx, c.layout, &pr);
    close_case(&c);
    return pr;
}

static double p_of(const cs_probs *pr, const char *outcome)
{
    int o = cs_ruleset_outcome_index(rs, outcome);
    cr_assert(o >= 0, "no outcome %s", outcome);
    return pr->p[o];
}

/* P(metric = v and defined), from the exact distribution. */
static double p_metric(const cs_probs *pr, const char *metric, double v)
{
    int m = cs_ruleset_metric_index(rs, metric);
    double q = 0.0;
    cr_assert(m >= 0, "no metric %s", metric);
    for (int i = 0; i < pr->n[m]; i++)
        if (fabs(pr->value[m][i] - v) <= 1e-9)
            q += pr->prob[m][i];
    return q;
}

/* The single value of a metric that takes one value when defined. */
static double metric_value(const cs_probs *pr, const char *metric)
{
    int m = cs_ruleset_metric_index(rs, metric);
    cr_assert(m >= 0, "no metric %s", metric);
    cr_assert_eq(pr->n[m], 1, "%s takes %d values", metric, pr->n[m]);
    return pr->value[m][0];
}

#define EXPECT_NEAR(a, b, tol) cr_expect_leq(fabs((a) - (b)), (tol), "%s = %.15g, expected %.15g", #a, (double)(a), (double)(b))

/* Monte Carlo frequency of one outcome against its exact value: within 5
 * binomial standard errors at a fixed seed. */
static void mc_agrees(const cs_params *p, const char *outcome, int n, uint64_t seed)
{
    case_ c = open_case(p);
    cs_probs pr;
    cs_rng rng;
    cs_trial t;
    int o = cs_ruleset_outcome_index(rs, outcome), hits = 0;
    memset(&pr, 0, sizeof pr);
    rs->outcome_probabilities(c.ctx, c.layout, &pr);
    cs_rng_seed(&rng, seed, 7u);
    for (int i = 0; i < n; i++) {
        rs->resolve(c.ctx, c.layout, &rng, &t);
        hits += t.outcome == o;
    }
    double phat = (double)hits / (double)n, q = pr.p[o];
    double se = sqrt(q * (1.0 - q) / (double)n);
    cr_expect_leq(fabs(phat - q), 5.0 * se, "%s: sampled %.5f, exact %.5f, 5 SE = %.5f", outcome,
                  phat, q, 5.0 * se);
    close_case(&c);
}

/* ---- dice, head-on ------------------------------------------------------ */

Test(t9a, published_table_edition_3)
{
    /* Charge Range's table: needed 5..10", D6 + 4 reaches d with
     * P(D6 >= d - 4) = (11 - d)/6; Maximised keeps the higher of two D6:
     * P = 1 - ((d - 5)/6)^2. Published, rounded: 100 83 67 50 33 17 and
     * 100 97 89 75 56 31. */
    static const long table[2][6] = {{100, 83, 67, 50, 33, 17}, {100, 97, 89, 75, 56, 31}};
    for (int d = 5; d <= 10; d++) {
        cs_params p = head_on((double)d);
        cs_probs pr = exact(&p);
        double want = (11.0 - d) / 6.0;
        EXPECT_NEAR(p_of(&pr, "charged"), want, 1e-12);
        EXPECT_NEAR(p_of(&pr, "failed"), 1.0 - want, 1e-12);
        cr_expect_eq(lround(100.0 * p_of(&pr, "charged")), table[0][d - 5]);

        set(&p, "maximised", 1);
        pr = exact(&p);
        want = 1.0 - ((d - 5.0) / 6.0) * ((d - 5.0) / 6.0);
        EXPECT_NEAR(p_of(&pr, "charged"), want, 1e-12);
        cr_expect_eq(lround(100.0 * p_of(&pr, "charged")), table[1][d - 5]);
    }
}

Test(t9a, monte_carlo_agrees_with_exact)
{
    cs_params p = head_on(8.0);
    mc_agrees(&p, "charged", 60000, 11u);
    set(&p, "maximised", 1);
    mc_agrees(&p, "charged", 60000, 12u);
    set(&p, "minimised", 2); /* net one Minimised: the lower of two D6 */
    mc_agrees(&p, "charged", 60000, 13u);
    set(&p, "maximised", 0);
    set(&p, "minimised", 0);
    set_choice(&p, "edition", "2");
    set(&p, "maximised", 1);
    mc_agrees(&p, "failed", 60000, 14u);
}

Test(t9a, declaration_needs_the_maximum_range)
{
    /* D6 + 4 reaches 10" at most: 10.5" cannot be declared; 10" can
     * (P = 1/6); Charge Speed 1 makes 10.5" possible with a 6. */
    cs_params p = head_on(10.5);
    cs_probs pr = exact(&p);
    EXPECT_NEAR(p_of(&pr, "illegal"), 1.0, 0.0);
    EXPECT_NEAR(p_of(&pr, "charged"), 0.0, 0.0);
    set(&p, "charge_speed", 1);
    pr = exact(&p);
    EXPECT_NEAR(p_of(&pr, "charged"), 1.0 / 6.0, 1e-12);
    p = head_on(10.0);
    pr = exact(&p);
    EXPECT_NEAR(p_of(&pr, "illegal"), 0.0, 0.0);
    EXPECT_NEAR(p_of(&pr, "charged"), 1.0 / 6.0, 1e-12);
}

/* Issue 15.2. 3rd ed., Declaring Charges: "select one of your units ... that
 * is not Engaged in Combat". At a gap of 0 the units are in base contact,
 * Engaged in Combat: the charge cannot be declared (`illegal`), in the exact
 * and the sampled path. Before the fix both said `charged` with P = 1. */
static void expect_illegal(const cs_params *p, const char *what)
{
    cs_probs pr = exact(p);
    cr_expect_eq(p_of(&pr, "illegal"), 1.0, "%s: P(illegal) = %g", what, p_of(&pr, "illegal"));
    mc_agrees(p, "illegal", 2000, 31u); /* P = 1: every sampled trial must agree */
}

Test(t9a, engaged_at_gap_zero_head_on)
{
    cs_params p = head_on(0.0);
    expect_illegal(&p, "gap 0");
    set(&p, "maximised", 1);
    expect_illegal(&p, "gap 0, maximised");
    set_choice(&p, "reaction", "flee");
    expect_illegal(&p, "gap 0, flee");
    p = head_on(0.0);
    set_choice(&p, "edition", "2");
    expect_illegal(&p, "gap 0, edition 2");
    /* Within CS_REACH_TOL (1e-6 in) of 0 is contact; a hundredth of an inch
     * is a gap every range covers: charged with P = 1. */
    p = head_on(0.5e-6);
    expect_illegal(&p, "gap 0.5e-6");
    p = head_on(0.01);
    cs_probs pr = exact(&p);
    EXPECT_NEAR(p_of(&pr, "charged"), 1.0, 1e-12); /* a sum of 6 sixths */
    EXPECT_NEAR(p_of(&pr, "illegal"), 0.0, 0.0);
}

Test(t9a, engaged_at_a_corner)
{
    /* Corner to corner counts as base contact: the target slid one
     * frontage (5") to the right touches the charger's front-right corner
     * with its own front corner. */
    cs_params p = head_on(0.0);
    set(&p, "offset", 5.0);
    expect_illegal(&p, "corner to corner");
    /* The target turned 30 degrees about its front-edge centre (0, d): its
     * lower front corner sits 2.5 sin 30 = 1.25" below it, so at d = 1.25
     * it touches the charger's front edge at x = -2.165. 1.26 leaves a
     * gap of 0.01": D6 + 4 always covers it. */
    set(&p, "offset", 0.0);
    set(&p, "angle", 30.0);
    set(&p, "distance", 1.25);
    expect_illegal(&p, "corner on the front edge");
    set(&p, "distance", 1.26);
    cs_probs pr = exact(&p);
    EXPECT_NEAR(metric_value(&pr, "distance"), 0.01, 1e-9);
    EXPECT_NEAR(p_of(&pr, "charged"), 1.0, 1e-12);
}

Test(t9a, engaged_with_another_enemy)
{
    /* A 5" x 2" unit touching the charger's rear (centre 5" behind its front
     * edge, the charger 4" deep): an enemy engages the charger, which then
     * cannot declare; a friend does not (D6 + 4 >= 6: 5/6). */
    cs_params p = head_on(6.0);
    set(&p, "other1_width", 5.0);
    set(&p, "other1_y", -5.0);
    expect_illegal(&p, "enemy at the rear");
    set_choice(&p, "other1_kind", "friend");
    cs_probs pr = exact(&p);
    EXPECT_NEAR(p_of(&pr, "charged"), 5.0 / 6.0, 1e-12);
    /* The geometry says why. */
    cs_scenario s;
    cs_t9a_charge g;
    set_choice(&p, "other1_kind", "enemy");
    cs_scenario_build(p.num, cs_ruleset_param_index(rs, "distance"), &s);
    cs_t9a_charge_geometry(&s, true, &g);
    cr_expect(g.engaged);
    set(&p, "other1_y", -5.01);
    cs_scenario_build(p.num, cs_ruleset_param_index(rs, "distance"), &s);
    cs_t9a_charge_geometry(&s, true, &g);
    cr_expect(!g.engaged);
}

Test(t9a, maximised_and_minimised)
{
    /* Minimised keeps the lower of two D6: at 7" it needs both >= 3,
     * (4/6)^2. One of each cancels: plain D6 (4/6). */
    cs_params p = head_on(7.0);
    set(&p, "minimised", 1);
    cs_probs pr = exact(&p);
    EXPECT_NEAR(p_of(&pr, "charged"), 16.0 / 36.0, 1e-12);
    set(&p, "maximised", 1);
    pr = exact(&p);
    EXPECT_NEAR(p_of(&pr, "charged"), 4.0 / 6.0, 1e-12);
    /* Two Maximised: the highest of three D6 >= 3: 1 - (2/6)^3. */
    set(&p, "minimised", 0);
    set(&p, "maximised", 2);
    pr = exact(&p);
    EXPECT_NEAR(p_of(&pr, "charged"), 1.0 - 8.0 / 216.0, 1e-12);
}

Test(t9a, edition_2_range)
{
    /* 2D6 + 4 at 11": P(2D6 >= 7) = 21/36. Maximised, Advance Rate 0, at
     * 8": 3D6 drop the lowest >= 8, 147/216 by enumeration (docs/rules/t9a.md's
     * oracle 68.06%). Maximised and Minimised cancel. */
    cs_params p = head_on(11.0);
    set_choice(&p, "edition", "2");
    cs_probs pr = exact(&p);
    EXPECT_NEAR(p_of(&pr, "charged"), 21.0 / 36.0, 1e-12);
    set(&p, "maximised", 1);
    set(&p, "minimised", 1);
    pr = exact(&p);
    EXPECT_NEAR(p_of(&pr, "charged"), 21.0 / 36.0, 1e-12);
    p = head_on(8.0);
    set_choice(&p, "edition", "2");
    set(&p, "advance_rate", 0);
    set(&p, "maximised", 1);
    pr = exact(&p);
    EXPECT_NEAR(p_of(&pr, "charged"), 147.0 / 216.0, 1e-12);
    /* 2D6 + 0 reaches 12 at most: 12.5" is illegal. */
    p = head_on(12.5);
    set_choice(&p, "edition", "2");
    set(&p, "advance_rate", 0);
    pr = exact(&p);
    EXPECT_NEAR(p_of(&pr, "illegal"), 1.0, 0.0);
}

Test(t9a, range_rolled_distribution)
{
    /* D6 + 4 + 2: 7..12, each 1/6, whatever the distance. */
    cs_params p = head_on(9.0);
    set(&p, "charge_speed", 2);
    cs_probs pr = exact(&p);
    for (int r = 7; r <= 12; r++)
        EXPECT_NEAR(p_metric(&pr, "range_rolled", r), 1.0 / 6.0, 1e-12);
    EXPECT_NEAR(p_of(&pr, "charged"), 4.0 / 6.0, 1e-12);
}

Test(t9a, flee)
{
    /* At 4" the target flees 2D6 = F; the range D6 + 4 catches it when
     * D6 >= F: sum over D6 = k of P(2D6 <= k) / 6 = (0+1+3+6+10+15)/216. */
    cs_params p = head_on(4.0);
    set_choice(&p, "reaction", "flee");
    cs_probs pr = exact(&p);
    EXPECT_NEAR(p_of(&pr, "caught"), 35.0 / 216.0, 1e-12);
    EXPECT_NEAR(p_of(&pr, "fled"), 181.0 / 216.0, 1e-12);
    EXPECT_NEAR(p_of(&pr, "charged") + p_of(&pr, "failed"), 0.0, 0.0);
    mc_agrees(&p, "caught", 60000, 21u);
}

/* ---- re-rolls (issue 50) ------------------------------------------------ */

/* Edition 2, Advance Rate adv, Maximised: 3D6 with the lowest dropped. With
 * ones, each die showing a natural 1 is rolled once more, the second result
 * final (Greenfire Eyes, Rerolling Dice), before the lowest is dropped: every
 * die is enumerated as a (first, second) pair, 36^3 equally likely cases. */
static double maximised_3d6(int adv, double d, bool ones)
{
    long hit = 0, all = 0;
    for (int code = 0; code < 36 * 36 * 36; code++) {
        int f[3], x = code;
        for (int i = 0; i < 3; i++, x /= 36) {
            int first = x % 36 % 6 + 1, second = x % 36 / 6 + 1;
            f[i] = ones && first == 1 ? second : first;
        }
        int lo = f[0] < f[1] ? (f[0] < f[2] ? f[0] : f[2]) : (f[1] < f[2] ? f[1] : f[2]);
        hit += f[0] + f[1] + f[2] - lo + adv >= d;
        all++;
    }
    return (double)hit / (double)all;
}

Test(t9a, swiftstride_edition_2_is_adv_plus_the_highest_two_of_3d6)
{
    /* T9A 2nd ed., Swiftstride: "its rolls for Charge Range ... are subject
     * to Maximised Roll": Adv 8 + the highest two of 3D6 at 17". */
    cs_params p = head_on(17.0);
    set_choice(&p, "edition", "2");
    set(&p, "advance_rate", 8);
    set(&p, "maximised", 1);
    cs_probs pr = exact(&p);
    EXPECT_NEAR(p_of(&pr, "charged"), maximised_3d6(8, 17.0, false), 1e-12);
    EXPECT_NEAR(p_of(&pr, "charged"), 113.0 / 216.0, 1e-12); /* highest two >= 9 */
}

Test(t9a, reroll_ones_before_the_maximised_discard)
{
    /* Greenfire Eyes: "must reroll any natural rolls of 1 when rolling for
     * Charge Range". Plain 2D6 + 4 at 12": each die is 1 with 1/36 and k >= 2
     * with 7/36; P(sum >= 8) by enumeration of the four dice. */
    cs_params p = head_on(12.0);
    set_choice(&p, "edition", "2");
    set(&p, "reroll_ones", 1);
    long hit = 0;
    for (int code = 0; code < 36 * 36; code++) {
        int a = code % 6 + 1, a2 = code / 6 % 6 + 1, b = code / 36 % 6 + 1, b2 = code / 216 + 1;
        hit += (a == 1 ? a2 : a) + (b == 1 ? b2 : b) + 4 >= 12;
    }
    cs_probs pr = exact(&p);
    EXPECT_NEAR(p_of(&pr, "charged"), (double)hit / 1296.0, 1e-12);
    /* With Maximised, every die of the three is re-rolled on a 1, then the
     * lowest is dropped; at 12" and Adv 4 the re-roll helps (never harms). */
    set(&p, "maximised", 1);
    pr = exact(&p);
    double want = maximised_3d6(4, 12.0, true);
    EXPECT_NEAR(p_of(&pr, "charged"), want, 1e-12);
    cr_expect_gt(want, maximised_3d6(4, 12.0, false));
    mc_agrees(&p, "charged", 60000, 31u);
    mc_agrees(&p, "failed", 60000, 32u);
}

Test(t9a, reroll_failed_rolls_the_whole_range_again)
{
    /* Devotees of Tyranny: "may reroll failed Charge Range rolls": taken when
     * the roll falls short. Edition 3, D6 + 4 at 8": p = 1/2 a roll, so
     * 1 - (1/2)^2. Edition 2, Adv 4, at 11": 2D6 >= 7 in 21/36, so
     * 1 - (15/36)^2; the range rolled is the second roll after a failure. */
    cs_params p = head_on(8.0);
    set(&p, "reroll_failed", 1);
    cs_probs pr = exact(&p);
    EXPECT_NEAR(p_of(&pr, "charged"), 0.75, 1e-12);
    EXPECT_NEAR(p_metric(&pr, "range_rolled", 5.0), 0.5 / 6.0, 1e-12);
    EXPECT_NEAR(p_metric(&pr, "range_rolled", 9.0), 1.0 / 6.0 + 0.5 / 6.0, 1e-12);
    p = head_on(11.0);
    set_choice(&p, "edition", "2");
    set(&p, "reroll_failed", 1);
    pr = exact(&p);
    EXPECT_NEAR(p_of(&pr, "charged"), 1.0 - (15.0 / 36.0) * (15.0 / 36.0), 1e-12);
    EXPECT_NEAR(p_of(&pr, "failed"), (15.0 / 36.0) * (15.0 / 36.0), 1e-12);
    mc_agrees(&p, "charged", 60000, 33u);
    /* Against a fleeing target at 4" (D6 + 4, the flee 2D6 = F known first):
     * caught when the first or, after a miss, the second D6 >= F. */
    p = head_on(4.0);
    set_choice(&p, "reaction", "flee");
    set(&p, "reroll_failed", 1);
    long caught = 0;
    for (int code = 0; code < 6 * 6 * 6 * 6; code++) {
        int f = code % 6 + code / 6 % 6 + 2, r1 = code / 36 % 6 + 1, r2 = code / 216 + 1;
        caught += r1 >= f || r2 >= f;
    }
    pr = exact(&p);
    EXPECT_NEAR(p_of(&pr, "caught"), (double)caught / 1296.0, 1e-12);
    mc_agrees(&p, "caught", 60000, 34u);
}

Test(t9a, reroll_ones_and_reroll_failed_are_refused_together)
{
    /* Rerolling Dice: a rerolled die is never rerolled again. */
    cs_params p = head_on(8.0);
    set(&p, "reroll_ones", 1);
    set(&p, "reroll_failed", 1);
    void *ctx = calloc(1, rs->ctx_size);
    cs_diag diag;
    cr_assert(ctx);
    cr_expect_eq(rs->prepare(&p, ctx, &diag), CS_EINPUT);
    cr_expect_str_eq(diag.key, "reroll_failed");
    cr_expect(strstr(diag.what, "reroll_ones"), "%s", diag.what);
    free(ctx);
}

/* ---- geometry ----------------------------------------------------------- */

Test(t9a, head_on_path_and_contact)
{
    /* Straight forward 8", no wheel; flush 5 against 5. */
    cs_params p = head_on(8.0);
    cs_probs pr = exact(&p);
    EXPECT_NEAR(metric_value(&pr, "distance"), 8.0, 1e-9);
    EXPECT_NEAR(metric_value(&pr, "path_cost"), 8.0, 1e-9);
    EXPECT_NEAR(metric_value(&pr, "wheel_angle"), 0.0, 1e-9);
    EXPECT_NEAR(p_metric(&pr, "contact_charger", 5.0), 0.5, 1e-12);
    EXPECT_NEAR(p_metric(&pr, "contact_target", 5.0), 0.5, 1e-12);
}

Test(t9a, offset_by_half_a_frontage)
{
    /* Target 2.5" to the right: the charger's front-edge centre is on the
     * end of the target's front edge, still the front arc; straight forward
     * 8" meets the target's front along [0, 2.5]; the align slides the
     * charger right, keeping that contact, to face all 5 models. */
    cs_params p = head_on(8.0);
    set(&p, "offset", 2.5);
    cs_probs pr = exact(&p);
    EXPECT_NEAR(metric_value(&pr, "distance"), 8.0, 1e-9);
    EXPECT_NEAR(p_of(&pr, "charged"), 3.0 / 6.0, 1e-12);
    EXPECT_NEAR(metric_value(&pr, "path_cost"), 8.0, 1e-9);
    EXPECT_NEAR(metric_value(&pr, "wheel_angle"), 0.0, 1e-9);
    EXPECT_NEAR(p_metric(&pr, "contact_target", 5.0), 0.5, 1e-12);
    EXPECT_NEAR(p_metric(&pr, "contact_charger", 5.0), 0.5, 1e-12);
}

Test(t9a, target_turned_30_degrees)
{
    /* The target turned 30 degrees about its front-edge centre (0, 8): its
     * front edge runs from (-2.5 cos 30, 8 - 2.5 sin 30) = (-2.165, 6.75)
     * to (2.165, 9.25). The lower end is over the charger's frontage, so the
     * closest points are 6.75" apart and decide: D6 + 4 >= 6.75 needs 3+,
     * 4/6. The charger is in the target's front arc (the bearing is 30
     * degrees off the target's forward), the align puts it flush. */
    cs_params p = head_on(8.0);
    set(&p, "angle", 30.0);
    cs_probs pr = exact(&p);
    EXPECT_NEAR(metric_value(&pr, "distance"), 6.75, 1e-9);
    EXPECT_NEAR(p_of(&pr, "charged"), 4.0 / 6.0, 1e-12);
    cr_expect_geq(metric_value(&pr, "path_cost"), 6.75 - 1e-9);
    EXPECT_NEAR(p_metric(&pr, "contact_target", 5.0), 4.0 / 6.0, 1e-12);
}

/* The target turned 90 degrees and moved 9" left at 5": it faces +x, its
 * front edge is x = -9, y in [2.5, 7.5], its body x in [-13, -9]. The
 * charger's front-edge centre (0, 0) is 15.5 degrees off the target's
 * forward as seen from the corner (-9, 2.5): the front arc. */
static cs_params turned_90(void)
{
    cs_params p = head_on(5.0);
    set(&p, "offset", -9.0);
    set(&p, "angle", 90.0);
    return p;
}

Test(t9a, target_turned_90_degrees_the_closest_distance_decides)
{
    /* Closest points: the charger's front-left corner (-2.5, 0) and the
     * target's corner (-9, 2.5): sqrt(6.5^2 + 2.5^2) = sqrt(48.5) = 6.964;
     * D6 + 4 >= 6.964 needs 3+: 4/6. The front edge must face -x: wheel 90
     * degrees left about (-2.5, 0) (cost 5 sin 90 = 5), then 6.5" forward:
     * 11.5", more than the 10" the dice can roll; a smaller wheel only
     * costs more (5 sin t + 6.5 / sin t falls all the way to 90). The
     * wheel does not decide: the charge is legal and succeeds on 3+. */
    cs_params p = turned_90();
    cs_probs pr = exact(&p);
    EXPECT_NEAR(metric_value(&pr, "distance"), sqrt(48.5), 1e-9);
    EXPECT_NEAR(p_of(&pr, "charged"), 4.0 / 6.0, 1e-12);
    EXPECT_NEAR(p_of(&pr, "illegal"), 0.0, 0.0);
    EXPECT_NEAR(metric_value(&pr, "path_cost"), 11.5, 1e-6);
    EXPECT_NEAR(metric_value(&pr, "wheel_angle"), 90.0, 1e-6);
    EXPECT_NEAR(p_metric(&pr, "contact_target", 5.0), 4.0 / 6.0, 1e-12);
    EXPECT_NEAR(p_metric(&pr, "contact_charger", 5.0), 4.0 / 6.0, 1e-12);
}

/* num[] of the scenario, for calling the geometry functions directly. */
static int first_scn(void)
{
    return cs_ruleset_param_index(rs, "distance");
}

Test(t9a, another_enemy_on_the_only_path_leaves_no_room)
{
    /* As turned_90, with an enemy 2" x 2" centred at (1.5, 3.5): the wheel
     * the path needs sweeps the quarter disc of radius 5 about (-2.5, 0),
     * which holds the enemy's corner (0.5, 2.5) (3.9" away); an initial
     * forward first would run the frontage into it; a wheel under 30
     * degrees cannot then reach the target facing (the front-left corner
     * passes above y = 7.5). Sight is kept: lines from the front's left part
     * go up and left, far from the enemy. No room: the charge cannot be
     * declared, so it never succeeds. */
    cs_params p = turned_90();
    set(&p, "other1_x", 1.5);
    set(&p, "other1_y", 3.5);
    set(&p, "other1_width", 2.0);
    set(&p, "other1_depth", 2.0);
    cs_probs pr = exact(&p);
    EXPECT_NEAR(p_of(&pr, "illegal"), 1.0, 0.0);
    EXPECT_NEAR(p_of(&pr, "charged"), 0.0, 0.0);

    cs_scenario s;
    cs_t9a_charge g;
    cs_scenario_build(p.num, first_scn(), &s);
    cs_t9a_charge_geometry(&s, true, &g);
    cr_expect(g.sight);
    cr_expect(!g.room);
    cr_expect_eq(g.arc, CS_FRONT);
}

Test(t9a, failed_charge_wheels_4_inches_of_corner_travel)
{
    /* A 10" x 2" charger; the target (5" x 4", facing the charger) 10"
     * left at 8": front edge y = 8, x in [-12.5, -7.5]. Closest points
     * (-5, 0) and (-7.5, 8): sqrt(70.25) = 8.38; D6 + 4 fails on 1-4.
     * Failed Charge Move: the centre of the target facing is (-10, 8), to
     * the left; facing it would take a wheel of 64 degrees about (-5, 0),
     * but the wheel stops when its cost, the outer (front-right) corner's
     * travel in the forward direction, 10 sin t, reaches 4": t = asin 0.4 =
     * 23.578 degrees, nothing left to move forward. The front-right corner
     * goes from (5, 0) to (-5 + 10 sqrt 0.84, 4). The target's corner
     * (-7.5, 8) is then sqrt 0.84 * 8 + 0.4 * 2.5 = 1 + 8 sqrt 0.84 =
     * 8.3321" from the turned front edge. */
    cs_params p = head_on(8.0);
    set(&p, "offset", -10.0);
    set(&p, "charger_width", 10.0);
    set(&p, "charger_depth", 2.0);
    cs_probs pr = exact(&p);
    double gap = 1.0 + 8.0 * sqrt(0.84);
    EXPECT_NEAR(metric_value(&pr, "distance"), sqrt(70.25), 1e-9);
    EXPECT_NEAR(p_of(&pr, "failed"), 4.0 / 6.0, 1e-12);
    EXPECT_NEAR(p_metric(&pr, "final_gap", gap), 4.0 / 6.0, 1e-12);

    cs_scenario s;
    cs_t9a_failed fm;
    cs_scenario_build(p.num, first_scn(), &s);
    cs_t9a_failed_move(&s, CS_FRONT, 4.0, &fm);
    EXPECT_NEAR(fm.wheel, asin(0.4) * 180.0 / PI, 1e-9);
    EXPECT_NEAR(fm.forward, 0.0, 1e-9);
    cs_vec2 fr = cs_geom_corner(&fm.final, CS_CORNER_FR);
    EXPECT_NEAR(fr.x, -5.0 + 10.0 * sqrt(0.84), 1e-9);
    EXPECT_NEAR(fr.y, 4.0, 1e-9);
    EXPECT_NEAR(fm.gap, gap, 1e-9);
}

Test(t9a, failed_charge_stops_wheeling_when_facing_the_target)
{
    /* A 5" x 2" charger, centre (0, -1). Wheeled 30 degrees right about its
     * front-right corner K = (2.5, 0), its centre is K + R(-30)(-2.5, -1) =
     * (2.5 - 2.5 cos 30 - sin 30, 2.5 sin 30 - cos 30) and its forward
     * (sin 30, cos 30). The target's front-edge centre T is put on that
     * line at y = 8, so the wheel stops at exactly 30 degrees (cost 5 sin
     * 30 = 2.5) and the concluding forward is the remaining 1.5". */
    double c30 = cos(PI / 6.0), s30 = 0.5;
    double cx = 2.5 - 2.5 * c30 - s30, cy = 2.5 * s30 - c30;
    double k = (8.0 - cy) / c30;
    cs_params p = head_on(8.0);
    set(&p, "offset", cx + k * s30);
    set(&p, "charger_depth", 2.0);
    cs_probs pr = exact(&p);
    EXPECT_NEAR(metric_value(&pr, "distance"), 8.0, 1e-9);
    EXPECT_NEAR(p_of(&pr, "failed"), 3.0 / 6.0, 1e-12);

    cs_scenario s;
    cs_t9a_failed fm;
    cs_scenario_build(p.num, first_scn(), &s);
    cs_t9a_failed_move(&s, CS_FRONT, 4.0, &fm);
    EXPECT_NEAR(fm.wheel, -30.0, 1e-9);
    EXPECT_NEAR(fm.forward, 1.5, 1e-9);
    EXPECT_NEAR(fm.final.c.x, cx + 1.5 * s30, 1e-9);
    EXPECT_NEAR(fm.final.c.y, cy + 1.5 * c30, 1e-9);
    EXPECT_NEAR(p_metric(&pr, "final_gap", fm.gap), 3.0 / 6.0, 1e-12);
}

Test(t9a, failed_charge_head_on_moves_4_inches)
{
    /* Head-on at 9.5": D6 + 4 fails on 1-5; the failed move goes straight
     * 4" (already facing the target facing's centre): gap 5.5". */
    cs_params p = head_on(9.5);
    cs_probs pr = exact(&p);
    EXPECT_NEAR(p_of(&pr, "failed"), 5.0 / 6.0, 1e-12);
    EXPECT_NEAR(p_metric(&pr, "final_gap", 5.5), 5.0 / 6.0, 1e-12);
}

Test(t9a, failed_charge_edition_2_moves_the_highest_die)
{
    /* 2D6 + 0 at 12": only double six charges. A failed roll moves the
     * highest die h straight on: gap 12 - h, P(highest = h) = (2h - 1)/36,
     * less the double six for h = 6. */
    cs_params p = head_on(12.0);
    set_choice(&p, "edition", "2");
    set(&p, "advance_rate", 0);
    cs_probs pr = exact(&p);
    EXPECT_NEAR(p_of(&pr, "charged"), 1.0 / 36.0, 1e-12);
    for (int h = 1; h <= 6; h++)
        EXPECT_NEAR(p_metric(&pr, "final_gap", 12.0 - h), (2.0 * h - 1.0 - (h == 6)) / 36.0,
                    1e-12);
}

Test(t9a, probabilities_sum_to_one_and_metrics_are_exact)
{
    /* Every outcome vector sums to 1; every metric is given (a distribution
     * or an explicit zero), so the driver never samples one. */
    cs_params p = turned_90();
    set(&p, "maximised", 2);
    cs_probs pr = exact(&p);
    double sum = 0.0;
    for (int o = 0; o < rs->n_outcomes; o++)
        sum += pr.p[o];
    EXPECT_NEAR(sum, 1.0, 1e-12);
    for (int m = 0; m < rs->n_metrics; m++)
        cr_expect(pr.n[m] > 0 || pr.mean[m] == pr.mean[m], "metric %d", m);
}

Test(t9a, edition_2_failed_die_kept_or_rolled)
{
    /* Edition 2, Minimised, Advance Rate 0, at 12": 3D6 keep the lower
     * two; only three sixes charge (1/216). A failed charge moves h and ends
     * 12 - h away. failed_die = kept: h is the middle die; it is 6 when at
     * least two dice show 6 (3 * 5 + 1 = 16 rolls), less the triple six:
     * 15/216. failed_die = rolled: h is the highest of the three, 6 in
     * 6^3 - 5^3 = 91 rolls, less the triple six: 90/216. */
    cs_params p = head_on(12.0);
    set_choice(&p, "edition", "2");
    set(&p, "advance_rate", 0);
    set(&p, "minimised", 1);
    cs_probs pr = exact(&p);
    EXPECT_NEAR(p_of(&pr, "charged"), 1.0 / 216.0, 1e-12);
    EXPECT_NEAR(p_metric(&pr, "final_gap", 6.0), 15.0 / 216.0, 1e-12);
    set_choice(&p, "failed_die", "rolled");
    pr = exact(&p);
    EXPECT_NEAR(p_of(&pr, "charged"), 1.0 / 216.0, 1e-12);
    EXPECT_NEAR(p_metric(&pr, "final_gap", 6.0), 90.0 / 216.0, 1e-12);
    /* the highest rolled is 1 only for three ones: gap 11 with 1/216 */
    EXPECT_NEAR(p_metric(&pr, "final_gap", 11.0), 1.0 / 216.0, 1e-12);
    mc_agrees(&p, "failed", 40000, 31u);
}

Test(t9a, other_units_block_sight_unless_told_otherwise)
{
    /* Head-on at 8" with an enemy 12" x 0.5" across the way at y = 4: every
     * line from the charger's front to the target crosses it. With units
     * blocking sight there is no Line of Sight; without, there is. Either
     * way it leaves no room, and the charge is illegal. */
    cs_params p = head_on(8.0);
    set(&p, "other1_y", 4.0);
    set(&p, "other1_width", 12.0);
    set(&p, "other1_depth", 0.5);
    cs_scenario s;
    cs_t9a_charge g;
    cs_scenario_build(p.num, first_scn(), &s);
    cs_t9a_charge_geometry(&s, true, &g);
    cr_expect(!g.sight);
    cr_expect(!g.room);
    cs_t9a_charge_geometry(&s, false, &g);
    cr_expect(g.sight);
    cr_expect(!g.room);
    cs_probs pr = exact(&p);
    EXPECT_NEAR(p_of(&pr, "illegal"), 1.0, 0.0);
}

Test(t9a, terrain_blocks_sight_or_movement_by_kind)
{
    /* Head-on at 8" with a 12" x 1" terrain piece across the way at y = 4,
     * turned 10 degrees (still spanning every path and sight line). Blocking
     * terrain hides the target but lets the charge through; impassable
     * terrain lets it be seen but leaves no room; either way: illegal. */
    cs_params p = head_on(8.0);
    set(&p, "terrain1_y", 4.0);
    set(&p, "terrain1_width", 12.0);
    set(&p, "terrain1_depth", 1.0);
    set(&p, "terrain1_angle", 10.0);
    cs_scenario s;
    cs_t9a_charge g;

    set_choice(&p, "terrain1_kind", "blocking");
    cs_scenario_build(p.num, first_scn(), &s);
    cs_t9a_charge_geometry(&s, true, &g);
    cr_expect(!g.sight);
    cr_expect(g.room);
    cs_probs pr = exact(&p);
    EXPECT_NEAR(p_of(&pr, "illegal"), 1.0, 0.0);

    set_choice(&p, "terrain1_kind", "impassable");
    cs_scenario_build(p.num, first_scn(), &s);
    cs_t9a_charge_geometry(&s, true, &g);
    cr_expect(g.sight);
    cr_expect(!g.room);
    pr = exact(&p);
    EXPECT_NEAR(p_of(&pr, "illegal"), 1.0, 0.0);

    /* Moved aside (centre x = 10), it blocks nothing: 4+ on D6 + 4 at 8". */
    set(&p, "terrain1_x", 10.0);
    pr = exact(&p);
    EXPECT_NEAR(p_of(&pr, "charged"), 0.5, 1e-12);
}
