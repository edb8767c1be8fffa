/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/asoiaf.h"
#include "chargesim/registry.h"
#include "chargesim/scenario.h"
#include "support/helpers.h"

/* ---- helpers: the ruleset called directly, parameters from its defaults -- */

static const cs_ruleset *const rs = &cs_rules_asoiaf;

static int key_index(const char *key)
{
    for (int i = 0; i < rs->n_params; i++)
        if (strcmp(rs->params[i].key, key) == 0)
            return i;
    cr_assert_fail("no parameter %s", key);
    return -1;
}

static void defaults(cs_params *p)
{
    th_defaults(rs, p);
}

static void set(cs_params *p, const char *key, const char *value)
{
    int i = key_index(key);
    p->num[i] = th_param_value(&rs->params[i], value);
}

/* Context and layout buffers, large enough for the ruleset's sizes. */
typedef struct run {
    _Alignas(16) unsigned char ctx[1 << 16];
    _Alignas(16) unsigned char layout[1 << 12];
} run;

static run R;

static void setup(const cs_params *p)
{
    cr_assert_leq(rs->ctx_size, sizeof R.ctx);
    cr_assert_leq(rs->layout_size, sizeof R.layout);
    cs_diag diag = {0, NULL, NULL};
    cr_assert_eq(rs->prepare(p, R.ctx, &diag), CS_OK, "prepare: %s %s",
                 diag.key ? diag.key : "", diag.what ? diag.what : "");
    cs_rng rng;
    cs_rng_seed(&rng, 1u, 2u);
    rs->draw_layout(R.ctx, p->num, &rng, R.layout);
}

static void exact(cs_probs *pr)
{
    rs->outcome_probabilities(R.ctx, R.layout, pr);
}

static int outcome(const char *name)
{
    for (int i = 0; i < rs->n_outcomes; i++)
        if (strcmp(rs->outcomes[i], name) == 0)
            return i;
    cr_assert_fail("no outcome %s", name);
    return -1;
}

static int metric(const char *name)
{
    for (int i = 0; i < rs->n_metrics; i++)
        if (strcmp(rs->metrics[i].name, name) == 0)
            return i;
    cr_assert_fail("no metric %s", name);
    return -1;
}

static double p_success(const cs_probs *pr)
{
    double s = 0.0;
    for (int i = 0; i < rs->n_outcomes; i++)
        if (rs->success_mask & (1u << i))
            s += pr->p[i];
    return s;
}

/* |p_hat - p| <= 5 binomial standard errors; a p of 0 or 1 must be hit exactly. */
static void expect_within_5se(double p_hat, double p, int n, const char *what)
{
    double se = sqrt(p * (1.0 - p) / (double)n);
    cr_expect_leq(fabs(p_hat - p), 5.0 * se, "%s: %.6f vs exact %.6f (n = %d)", what, p_hat, p,
                  n);
}

/* Samples n trials on the current layout and returns outcome frequencies. */
static void sample(int n, uint64_t seed, double *freq)
{
    cs_rng rng;
    cs_rng_seed(&rng, seed, 7u);
    int count[CS_MAX_OUTCOMES] = {0};
    for (int t = 0; t < n; t++) {
        cs_trial tr;
        rs->resolve(R.ctx, R.layout, &rng, &tr);
        count[tr.outcome]++;
    }
    for (int i = 0; i < rs->n_outcomes; i++)
        freq[i] = (double)count[i] / (double)n;
}

static double head_on_success(const char *speed, const char *distance, cs_probs *pr)
{
    cs_params p;
    defaults(&p);
    set(&p, "speed", speed);
    set(&p, "distance", distance);
    setup(&p);
    exact(pr);
    return p_success(pr);
}

/* ---- head-on acceptance (issue 6) --------------------------------------- */

/* Speed 5 at 8": 5 + D6 >= 8 needs 3..6, 4/6. At 11": needs a 6, 1/6.
 * At 12": beyond speed + 6 = 11, the charge cannot be declared. */
Test(asoiaf, head_on_exact)
{
    cs_probs pr;
    cr_expect_float_eq(head_on_success("5", "8", &pr), 4.0 / 6.0, 1e-12);
    cr_expect_float_eq(pr.p[outcome("failed")], 2.0 / 6.0, 1e-12);
    cr_expect_float_eq(head_on_success("5", "11", &pr), 1.0 / 6.0, 1e-12);
    cr_expect_float_eq(pr.p[outcome("disordered")], 0.0, 1e-12);
    cr_expect_float_eq(head_on_success("5", "12", &pr), 0.0, 1e-12);
    cr_expect_float_eq(pr.p[outcome("illegal")], 1.0, 1e-12);
    /* An illegal charge delivers no wounds; the other metrics do not apply. */
    cr_expect_float_eq(pr.mean[metric("wounds_delivered")], 0.0, 1e-12);
    cr_expect_float_eq(pr.pdef[metric("wounds_delivered")], 1.0, 1e-12);
    cr_expect_float_eq(pr.pdef[metric("roll")], 0.0, 1e-12);
    /* At 5" every roll connects, and the 1 is disordered: 1/6. At 7" the 1
     * (5 + 1 = 6 < 7) falls short, so no disordered charge connects. */
    head_on_success("5", "5", &pr);
    cr_expect_float_eq(pr.p[outcome("disordered")], 1.0 / 6.0, 1e-12);
    cr_expect_float_eq(pr.p[outcome("charged")], 5.0 / 6.0, 1e-12);
    head_on_success("5", "7", &pr);
    cr_expect_float_eq(pr.p[outcome("disordered")], 0.0, 1e-12);
    cr_expect_float_eq(pr.p[outcome("failed")], 1.0 / 6.0, 1e-12);
    cr_expect_float_eq(pr.p[outcome("charged")], 5.0 / 6.0, 1e-12);
}

Test(asoiaf, head_on_monte_carlo)
{
    static const struct {
        const char *distance;
        double p_charged, p_disordered, p_illegal;
    } cases[] = {
        {"8", 4.0 / 6.0, 0.0, 0.0},
        {"11", 1.0 / 6.0, 0.0, 0.0},
        {"12", 0.0, 0.0, 1.0},
        {"5", 5.0 / 6.0, 1.0 / 6.0, 0.0},
        {"7", 5.0 / 6.0, 0.0, 0.0},
    };
    const int n = 20000;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cs_probs pr;
        head_on_success("5", cases[i].distance, &pr);
        double f[CS_MAX_OUTCOMES];
        sample(n, 100u + i, f);
        expect_within_5se(f[outcome("charged")], cases[i].p_charged, n, cases[i].distance);
        expect_within_5se(f[outcome("disordered")], cases[i].p_disordered, n, cases[i].distance);
        expect_within_5se(f[outcome("illegal")], cases[i].p_illegal, n, cases[i].distance);
    }
}

/* An engaged charger cannot charge; nor can a charger whose located side
 * (the front, head-on) already holds two units. One unit leaves room. */
Test(asoiaf, declaration_engagement)
{
    cs_params p;
    cs_probs pr;
    defaults(&p);
    set(&p, "charger_engaged", "true");
    setup(&p);
    exact(&pr);
    cr_expect_float_eq(pr.p[outcome("illegal")], 1.0, 1e-12);
    defaults(&p);
    set(&p, "engaged_front", "2");
    setup(&p);
    exact(&pr);
    cr_expect_float_eq(pr.p[outcome("illegal")], 1.0, 1e-12);
    set(&p, "engaged_front", "1");
    setup(&p);
    exact(&pr);
    cr_expect_float_eq(pr.p[outcome("illegal")], 0.0, 1e-12);
}

/* ---- the charge attack --------------------------------------------------- */

/* 6 dice hitting on 4+: p = 1/2, and with misses re-rolled 1/2 + 1/4 = 3/4.
 * Hand values: P(k hits) = C(6,k) 3^k / 4^6 with re-rolls (4^6 = 4096), and
 * C(6,k) / 64 without. */
Test(asoiaf, attack_exact_binomial)
{
    static const double c6[7] = {1, 6, 15, 20, 15, 6, 1};
    double hits[7], wounds[7];
    cs_asoiaf_attack a = {6, 4, 4, true};
    cs_asoiaf_attack_exact(&a, hits, wounds);
    for (int k = 0; k <= 6; k++)
        cr_expect_float_eq(hits[k], c6[k] * pow(3.0, (double)k) / 4096.0, 1e-12, "k=%d", k);
    /* Wounds: a die ends unsaved with 3/4 * 3/6 = 3/8: C(6,k) 3^k 5^(6-k) / 8^6. */
    for (int k = 0; k <= 6; k++)
        cr_expect_float_eq(wounds[k],
                           c6[k] * pow(3.0, (double)k) * pow(5.0, (double)(6 - k)) / 262144.0,
                           1e-12, "k=%d", k);
    a.reroll_misses = false;
    cs_asoiaf_attack_exact(&a, hits, wounds);
    for (int k = 0; k <= 6; k++)
        cr_expect_float_eq(hits[k], c6[k] / 64.0, 1e-12, "k=%d", k);
    /* Save 7 is no save: every hit wounds. */
    a.save = 7;
    cs_asoiaf_attack_exact(&a, hits, wounds);
    for (int k = 0; k <= 6; k++)
        cr_expect_float_eq(wounds[k], hits[k], 1e-12, "k=%d", k);
    /* The largest attack still sums to one. */
    double big_h[CS_ASOIAF_MAX_DICE + 1], big_w[CS_ASOIAF_MAX_DICE + 1];
    cs_asoiaf_attack b = {CS_ASOIAF_MAX_DICE, 3, 5, true};
    cs_asoiaf_attack_exact(&b, big_h, big_w);
    double sh = 0.0, sw = 0.0;
    for (int k = 0; k <= CS_ASOIAF_MAX_DICE; k++) {
        sh += big_h[k];
        sw += big_w[k];
    }
    cr_expect_float_eq(sh, 1.0, 1e-12);
    cr_expect_float_eq(sw, 1.0, 1e-12);
}

Test(asoiaf, attack_monte_carlo)
{
    const int n = 20000;
    for (int reroll = 0; reroll <= 1; reroll++) {
        cs_asoiaf_attack a = {6, 4, 4, reroll == 1};
        double hits[7], wounds[7];
        cs_asoiaf_attack_exact(&a, hits, wounds);
        int ch[7] = {0}, cw[7] = {0};
        cs_rng rng;
        cs_rng_seed(&rng, 42u, (uint64_t)reroll);
        for (int t = 0; t < n; t++) {
            int h, w;
            cs_asoiaf_attack_roll(&a, &rng, &h, &w);
            ch[h]++;
            cw[w]++;
        }
        for (int k = 0; k <= 6; k++) {
            expect_within_5se((double)ch[k] / n, hits[k], n, reroll ? "hits rr" : "hits");
            expect_within_5se((double)cw[k] / n, wounds[k], n, reroll ? "wounds rr" : "wounds");
        }
    }
}

/* At 5" every roll connects: hits are 5/6 of the ordered binomial (p = 3/4)
 * plus 1/6 of the disordered one, whose attack depends on the effect. */
Test(asoiaf, disordered_effect_on_attack)
{
    static const char *const effects[] = {"no_bonus", "none", "no_attack"};
    double ord[7], dis[7], w[7];
    cs_asoiaf_attack a = {6, 4, 4, true};
    cs_asoiaf_attack_exact(&a, ord, w);
    for (int e = 0; e < 3; e++) {
        cs_params p;
        defaults(&p);
        set(&p, "distance", "5");
        set(&p, "disordered_effect", effects[e]);
        setup(&p);
        cs_probs pr;
        exact(&pr);
        a.reroll_misses = e == 1;
        a.dice = e == 2 ? 0 : 6;
        cs_asoiaf_attack_exact(&a, dis, w);
        int mh = metric("hits");
        cr_expect_float_eq(pr.pdef[mh], 1.0, 1e-12);
        double mean = 0.0;
        for (int k = 0; k <= 6; k++) {
            double want = 5.0 / 6.0 * ord[k] + 1.0 / 6.0 * (k <= a.dice ? dis[k] : 0.0);
            cr_expect_float_eq(pr.value[mh][k], (double)k, 1e-12);
            cr_expect_float_eq(pr.prob[mh][k], want, 1e-12, "%s k=%d", effects[e], k);
            mean += want * k;
        }
        cr_expect_float_eq(pr.mean[mh], mean, 1e-12);
    }
}

/* Wounds delivered count a failed (or illegal) charge as 0: at 8" (speed 5) the mean is
 * 4/6 of the ordered mean 6 * 3/8 = 2.25, as the 1 never connects: 1.5. */
Test(asoiaf, wounds_delivered_mean)
{
    cs_probs pr;
    head_on_success("5", "8", &pr);
    int md = metric("wounds_delivered"), mw = metric("wounds");
    cr_expect_float_eq(pr.mean[md], 1.5, 1e-12);
    cr_expect_float_eq(pr.pdef[md], 1.0, 1e-12);
    cr_expect_float_eq(pr.pdef[mw], 4.0 / 6.0, 1e-12);
    cr_expect_float_eq(pr.mean[mw] / pr.pdef[mw], 2.25, 1e-12);
    double s = 0.0;
    for (int k = 0; k < pr.n[md]; k++)
        s += pr.prob[md][k];
    cr_expect_float_eq(s, 1.0, 1e-12);
}

/* ---- geometry (scenario frame: charger front-edge centre at the origin,
 * facing +y; default trays 6.3" x 4.72", so the charger's centre is at
 * (0, -2.36) and its lane spans x in [-3.15, 3.15]) ------------------------ */

static void run_exact(cs_params *p, cs_probs *pr)
{
    setup(p);
    exact(pr);
}

static double metric_mean(const cs_probs *pr, const char *name)
{
    int i = metric(name);
    return pr->pdef[i] > 0.0 ? pr->mean[i] / pr->pdef[i] : (double)NAN;
}

static void set_unit(cs_params *p, int n, const char *kind, const char *x, const char *y,
                     const char *w, const char *d)
{
    char key[32];
    static const char *const field[] = {"kind", "x", "y", "width", "depth"};
    const char *val[] = {kind, x, y, w, d};
    for (int i = 0; i < 5; i++) {
        snprintf(key, sizeof key, "other%d_%s", n, field[i]);
        set(p, key, val[i]);
    }
}

/* A friendly unit 3" wide, 2" deep, centred at (1.5, 5) stands in the lane
 * with its near edge at y = 4: the charger stops 1" short, at 3", and the
 * charge fails whatever the die (speed 5 + 6 = 11 >= the 10" gap). Sight
 * passes to its left, so the charge is legal. */
Test(asoiaf, blocked_lane_stops_one_inch_short)
{
    cs_params p;
    cs_probs pr;
    defaults(&p);
    set(&p, "distance", "10");
    set_unit(&p, 1, "friend", "1.5", "5", "3", "2");
    run_exact(&p, &pr);
    cr_expect_float_eq(pr.p[outcome("failed")], 1.0, 1e-12);
    cr_expect_float_eq(metric_mean(&pr, "moved"), 3.0, 1e-9);
    cr_expect_eq(pr.n[metric("moved")], 1);
    cr_expect_float_eq(pr.pdef[metric("distance_needed")], 0.0, 1e-12);
    /* Sampled: every trial fails after moving 3". */
    cs_rng rng;
    cs_rng_seed(&rng, 5u, 5u);
    for (int t = 0; t < 200; t++) {
        cs_trial tr;
        rs->resolve(R.ctx, R.layout, &rng, &tr);
        cr_assert_eq(tr.outcome, outcome("failed"));
        cr_assert_float_eq(tr.m[metric("moved")], 3.0, 1e-9);
    }
    /* An enemy beside the lane, its near edge at x = 3.5 (0.35" clear of
     * the lane): the front-right corner (3.15, s) stops 1" from its corner
     * (3.5, 4), at s = 4 - sqrt(1 - 0.35^2). */
    defaults(&p);
    set(&p, "distance", "10");
    set_unit(&p, 1, "enemy", "5", "5", "3", "2");
    run_exact(&p, &pr);
    cr_expect_float_eq(pr.p[outcome("failed")], 1.0, 1e-12);
    cr_expect_float_eq(metric_mean(&pr, "moved"), 4.0 - sqrt(1.0 - 0.35 * 0.35), 1e-9);
    /* 1.05" clear it does not stop the charge: head-on 8", 4/6. */
    defaults(&p);
    set_unit(&p, 1, "enemy", "5.2", "5", "2", "2");
    run_exact(&p, &pr);
    cr_expect_float_eq(p_success(&pr), 4.0 / 6.0, 1e-12);
    /* Impassable terrain 10" x 1" centred at (0, 5): its near edge at 4.5,
     * the charger stops at 3.5; it does not block sight. */
    defaults(&p);
    set(&p, "distance", "10");
    set(&p, "terrain1_kind", "impassable");
    set(&p, "terrain1_y", "5");
    set(&p, "terrain1_width", "10");
    set(&p, "terrain1_depth", "1");
    run_exact(&p, &pr);
    cr_expect_float_eq(pr.p[outcome("failed")], 1.0, 1e-12);
    cr_expect_float_eq(metric_mean(&pr, "moved"), 3.5, 1e-9);
}

/* Pivot: target shifted 10.36" right at 8", so the centre of its front edge,
 * (10.36, 8), lies at 45 degrees from the charger's centre (0, -2.36). The
 * charger pivots to face it (u = (1,1)/sqrt2); its front-edge centre is then
 * F = C + 2.36 u, and the target's front-left corner P = (10.36 - 3.15, 8)
 * meets the charger's front edge after s = (P - F).u
 * = sqrt2 (8 + 2.36) - 3.15/sqrt2 - 2.36 = 10.0638...: speed 5 needs a 6
 * (1/6), speed 6 a 5 or 6 (2/6). Without the pivot the straight lane misses
 * the target: a legal charge that always fails. */
Test(asoiaf, pivot_to_face_the_side)
{
    const double need = sqrt(2.0) * 10.36 - 3.15 / sqrt(2.0) - 2.36;
    cs_params p;
    cs_probs pr;
    defaults(&p);
    set(&p, "offset", "10.36");
    run_exact(&p, &pr);
    cr_expect_float_eq(metric_mean(&pr, "distance_needed"), need, 1e-9);
    cr_expect_float_eq(p_success(&pr), 1.0 / 6.0, 1e-12);
    set(&p, "speed", "6");
    run_exact(&p, &pr);
    cr_expect_float_eq(p_success(&pr), 2.0 / 6.0, 1e-12);
    const int n = 20000;
    double f[CS_MAX_OUTCOMES];
    sample(n, 77u, f);
    expect_within_5se(f[outcome("charged")], 2.0 / 6.0, n, "pivoted charge");
    set(&p, "pivot", "none");
    run_exact(&p, &pr);
    cr_expect_float_eq(pr.p[outcome("failed")], 1.0, 1e-12);
}

/* Room on the located side (Charge, cible légale): units already engaged
 * there, abstract (engaged_front) or on the table (friendly trays touching
 * the target's front edge at its ends, 2" x 2" centred at (-4, 7) and
 * (4, 7): each has most of its area in the front arc). Two fill the side. */
Test(asoiaf, full_side_is_illegal)
{
    cs_params p;
    cs_probs pr;
    defaults(&p);
    set_unit(&p, 1, "friend", "-4", "7", "2", "2");
    run_exact(&p, &pr);
    cr_expect_float_eq(pr.p[outcome("illegal")], 0.0, 1e-12);
    set_unit(&p, 2, "friend", "4", "7", "2", "2");
    run_exact(&p, &pr);
    cr_expect_float_eq(pr.p[outcome("illegal")], 1.0, 1e-12);
    defaults(&p);
    set_unit(&p, 1, "friend", "-4", "7", "2", "2");
    set(&p, "engaged_front", "1");
    run_exact(&p, &pr);
    cr_expect_float_eq(pr.p[outcome("illegal")], 1.0, 1e-12);
    /* An engaged charger: an enemy tray touching its left flank, or the
     * target touching it (distance 0). */
    defaults(&p);
    set_unit(&p, 1, "enemy", "-4.15", "-1", "2", "2");
    run_exact(&p, &pr);
    cr_expect_float_eq(pr.p[outcome("illegal")], 1.0, 1e-12);
    defaults(&p);
    set(&p, "distance", "0");
    run_exact(&p, &pr);
    cr_expect_float_eq(pr.p[outcome("illegal")], 1.0, 1e-12);
}

/* A 50/50 split: the target (2" wide, 10" deep) turned 45 degrees about its
 * front-edge centre, shifted by sin45 * 1" so that the boundary ray of its
 * front-right corner runs straight down the charger's centre line: half the
 * charger lies in the front arc, half in the right arc. The charger chooses:
 * facing the right side's centre needs less than facing the front's (5/6
 * against 4/6 at speed 5, distance 8), so it takes the right side. Filling
 * one side forces the other; filling both makes the charge illegal. */
Test(asoiaf, tie_takes_the_best_side)
{
    cs_params p;
    cs_probs pr;
    defaults(&p);
    set(&p, "target_width", "2");
    set(&p, "target_depth", "10");
    set(&p, "angle", "45");
    set(&p, "offset", "0.70710678118654752");
    cs_scenario s;
    cs_scenario_build(p.num, key_index("distance"), &s);
    cs_arc_share sh;
    cs_geom_arc_share(&s.target.r, &s.charger.r, &sh);
    cr_assert(sh.tie);
    cr_assert_eq(sh.majority, CS_FRONT);
    cr_assert_eq(sh.tie_with, CS_RIGHT);
    run_exact(&p, &pr);
    double both = p_success(&pr);
    set(&p, "engaged_right", "2");
    run_exact(&p, &pr);
    double front = p_success(&pr);
    set(&p, "engaged_right", "0");
    set(&p, "engaged_front", "2");
    run_exact(&p, &pr);
    double right = p_success(&pr);
    cr_expect_float_eq(front, 4.0 / 6.0, 1e-12);
    cr_expect_float_eq(right, 5.0 / 6.0, 1e-12);
    cr_expect_float_eq(both, right, 1e-12);
    set(&p, "engaged_right", "2");
    run_exact(&p, &pr);
    cr_expect_float_eq(pr.p[outcome("illegal")], 1.0, 1e-12);
}

/* Alignment on the front (no pivot, so the charger touches where its lane
 * meets the target). Offset 1: centre to centre is 1" away, the 50% places
 * 2.15" and 4.15": 100. Offset 3.15: the charger's centre is already on the
 * target's corner line, a 50% placement: 50. With one unit already on the
 * front only 50% remains. */
Test(asoiaf, alignment_centre_or_half)
{
    cs_params p;
    cs_probs pr;
    defaults(&p);
    run_exact(&p, &pr);
    cr_expect_float_eq(metric_mean(&pr, "alignment"), 100.0, 1e-12);
    cr_expect_float_eq(metric_mean(&pr, "defender_shift"), 0.0, 1e-12);
    set(&p, "pivot", "none");
    set(&p, "offset", "1");
    run_exact(&p, &pr);
    cr_expect_float_eq(metric_mean(&pr, "alignment"), 100.0, 1e-12);
    set(&p, "engaged_front", "1");
    run_exact(&p, &pr);
    cr_expect_float_eq(metric_mean(&pr, "alignment"), 50.0, 1e-12);
    set(&p, "engaged_front", "0");
    set(&p, "offset", "3.15");
    run_exact(&p, &pr);
    cr_expect_float_eq(metric_mean(&pr, "alignment"), 50.0, 1e-12);
}

/* The defender shifts: target offset 1.5, no pivot. Friendly trays 2.8" x 2"
 * at (-5.6, 6) and (5.6, 6) (x in [-7, -4.2] and [4.2, 7], 1.05" clear of
 * the lane) leave the charger's own spot free but block all three of its
 * placements (centres at x = 1.5, 4.65 and -1.65, each 6.3" wide, down to
 * y = 3.28). The defender slides 1.5" to centre itself on the charger. */
Test(asoiaf, defender_shift)
{
    cs_params p;
    cs_probs pr;
    defaults(&p);
    set(&p, "pivot", "none");
    set(&p, "offset", "1.5");
    set_unit(&p, 1, "friend", "-5.6", "6", "2.8", "2");
    set_unit(&p, 2, "friend", "5.6", "6", "2.8", "2");
    run_exact(&p, &pr);
    cr_expect_float_eq(p_success(&pr), 4.0 / 6.0, 1e-12);
    cr_expect_float_eq(metric_mean(&pr, "alignment"), 100.0, 1e-12);
    cr_expect_float_eq(metric_mean(&pr, "defender_shift"), 1.5, 1e-9);
}

/* The same defender shift with impassable terrain instead of the two trays
 * (3" x 2" pieces at (-5.7, 6) and (5.7, 6): x in [-7.2, -4.2] and
 * [4.2, 7.2]): terrain blocks the placements as units do. */
Test(asoiaf, defender_shift_by_terrain)
{
    cs_params p;
    cs_probs pr;
    defaults(&p);
    set(&p, "pivot", "none");
    set(&p, "offset", "1.5");
    static const char *const xs[2] = {"-5.7", "5.7"};
    for (int i = 0; i < 2; i++) {
        char key[32];
        snprintf(key, sizeof key, "terrain%d_kind", i + 1);
        set(&p, key, "impassable");
        snprintf(key, sizeof key, "terrain%d_x", i + 1);
        set(&p, key, xs[i]);
        snprintf(key, sizeof key, "terrain%d_y", i + 1);
        set(&p, key, "6");
        snprintf(key, sizeof key, "terrain%d_width", i + 1);
        set(&p, key, "3");
        snprintf(key, sizeof key, "terrain%d_depth", i + 1);
        set(&p, key, "2");
    }
    run_exact(&p, &pr);
    cr_expect_float_eq(p_success(&pr), 4.0 / 6.0, 1e-12);
    cr_expect_float_eq(metric_mean(&pr, "alignment"), 100.0, 1e-12);
    cr_expect_float_eq(metric_mean(&pr, "defender_shift"), 1.5, 1e-9);
}

/* A drawn unit or terrain piece landing on the target cannot stand there
 * and is left out: the head-on 8" charge keeps its 4/6. (prepare checks
 * only the centre of a draw, so the layout is built here directly.) */
Test(asoiaf, drawn_overlaps_are_left_out)
{
    cs_params p;
    cs_probs pr;
    defaults(&p);
    setup(&p);
    set_unit(&p, 1, "enemy", "0", "9", "3", "2");
    set(&p, "terrain1_kind", "impassable");
    set(&p, "terrain1_y", "10");
    set(&p, "terrain1_width", "2");
    cs_rng rng;
    cs_rng_seed(&rng, 1u, 2u);
    rs->draw_layout(R.ctx, p.num, &rng, R.layout);
    exact(&pr);
    cr_expect_float_eq(p_success(&pr), 4.0 / 6.0, 1e-12);
    /* Placed clear of the target instead (3" x 1" centred at (0, 5.5), so
     * y in [5, 6]), the unit blocks the lane: the charger stops 1" short of
     * its near edge, at 4". */
    set_unit(&p, 1, "enemy", "0", "5.5", "3", "1");
    set(&p, "terrain1_width", "0");
    rs->draw_layout(R.ctx, p.num, &rng, R.layout);
    exact(&pr);
    cr_expect_float_eq(pr.p[outcome("failed")], 1.0, 1e-12);
    cr_expect_float_eq(metric_mean(&pr, "moved"), 4.0, 1e-9);
}

/* Issue 6 acceptance through the ruleset: at 5" (speed 5) every roll
 * connects; the five ordered charges (p 5/6) hit as Bin(6, 3/4), the
 * disordered one (1/6) as Bin(6, 1/2): C(6,k) 3^k / 4096 and C(6,k) / 64. */
Test(asoiaf, ordered_and_disordered_hit_distributions)
{
    static const double c6[7] = {1, 6, 15, 20, 15, 6, 1};
    cs_probs pr;
    head_on_success("5", "5", &pr);
    int mo = metric("hits_ordered"), md = metric("hits_disordered");
    cr_expect_float_eq(pr.pdef[mo], 5.0 / 6.0, 1e-12);
    cr_expect_float_eq(pr.pdef[md], 1.0 / 6.0, 1e-12);
    for (int k = 0; k <= 6; k++) {
        cr_expect_float_eq(pr.value[mo][k], (double)k, 1e-12);
        cr_expect_float_eq(pr.prob[mo][k] / pr.pdef[mo], c6[k] * pow(3.0, (double)k) / 4096.0,
                           1e-12, "k=%d", k);
        cr_expect_float_eq(pr.prob[md][k] / pr.pdef[md], c6[k] / 64.0, 1e-12, "k=%d", k);
    }
    /* Sampled through resolve: the hit counts of each kind of charge. */
    const int n = 30000;
    int cnt[2][7] = {{0}}, tot[2] = {0, 0};
    cs_rng rng;
    cs_rng_seed(&rng, 9u, 9u);
    for (int t = 0; t < n; t++) {
        cs_trial tr;
        rs->resolve(R.ctx, R.layout, &rng, &tr);
        int kind = tr.outcome == outcome("disordered");
        double h = tr.m[kind ? md : mo];
        cr_assert(!isnan(h));
        cr_assert(isnan(tr.m[kind ? mo : md]));
        cnt[kind][(int)h]++;
        tot[kind]++;
    }
    expect_within_5se((double)tot[1] / n, 1.0 / 6.0, n, "disordered share");
    for (int k = 0; k <= 6; k++) {
        expect_within_5se((double)cnt[0][k] / tot[0], c6[k] * pow(3.0, (double)k) / 4096.0,
                          tot[0], "ordered hits");
        expect_within_5se((double)cnt[1][k] / tot[1], c6[k] / 64.0, tot[1], "disordered hits");
    }
}
