/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The SOVL dice (chargesim/sovl.h) and the sovl_dice ruleset: exact values
 * computed by hand, and Monte Carlo checked against them within 5 binomial
 * standard errors at a fixed seed. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/registry.h"
#include "chargesim/sovl.h"

/* Index of a name in a list (the registry's helpers live beside the table
 * of every ruleset; these tests link the sovl rulesets alone). */
static int outcome_index(const cs_ruleset *rs, const char *name)
{
    for (int i = 0; i < rs->n_outcomes; i++)
        if (strcmp(rs->outcomes[i], name) == 0)
            return i;
    return -1;
}

static int metric_index(const cs_ruleset *rs, const char *name)
{
    for (int i = 0; i < rs->n_metrics; i++)
        if (strcmp(rs->metrics[i].name, name) == 0)
            return i;
    return -1;
}

/* Fills p from the ruleset's defaults, then applies "key=value" overrides. */
static void params_from_defaults(const cs_ruleset *rs, cs_params *p, const char *const *set)
{
    memset(p, 0, sizeof *p);
    for (int i = 0; i < rs->n_params; i++) {
        const cs_param_def *d = &rs->params[i];
        const char *v = d->def;
        for (const char *const *s = set; s && *s; s++) {
            size_t n = strlen(d->key);
            if (strncmp(*s, d->key, n) == 0 && (*s)[n] == '=')
                v = *s + n + 1;
        }
        switch (d->type) {
        case CS_PARAM_BOOL:
            p->num[i] = strcmp(v, "true") == 0 ? 1.0 : 0.0;
            break;
        case CS_PARAM_CHOICE:
            p->num[i] = -1.0;
            for (int k = 0; d->choices[k]; k++)
                if (strcmp(d->choices[k], v) == 0)
                    p->num[i] = k;
            cr_assert_geq(p->num[i], 0.0, "choice %s of %s", v, d->key);
            break;
        case CS_PARAM_DICE:
        case CS_PARAM_TEXT:
            p->text[i] = v;
            break;
        default:
            p->num[i] = strtod(v, NULL);
        }
    }
}

/* Runs n trials and returns the share of outcome `o`, and checks the exact
 * probability of `o` against `exact` to 1e-12. */
static double mc_share(const cs_ruleset *rs, const char *const *set, const char *outcome,
                       double exact, int n, uint64_t seed)
{
    cs_params p;
    params_from_defaults(rs, &p, set);
    static unsigned char ctxbuf[1 << 16], layoutbuf[1 << 12];
    cr_assert_leq(rs->ctx_size, sizeof ctxbuf);
    cr_assert_leq(rs->layout_size, sizeof layoutbuf);
    cs_diag diag = {0};
    cr_assert_eq(rs->prepare(&p, ctxbuf, &diag), CS_OK);
    cs_rng rng;
    cs_rng_seed(&rng, seed, 7u);
    rs->draw_layout(ctxbuf, p.num, &rng, layoutbuf);
    int o = outcome_index(rs, outcome);
    cr_assert_geq(o, 0);
    cs_probs probs;
    memset(&probs, 0, sizeof probs);
    rs->outcome_probabilities(ctxbuf, layoutbuf, &probs);
    cr_expect_float_eq(probs.p[o], exact, 1e-12, "exact P(%s) = %.15f, want %.15f", outcome,
                       probs.p[o], exact);
    double sum = 0.0;
    for (int i = 0; i < rs->n_outcomes; i++)
        sum += probs.p[i];
    cr_expect_float_eq(sum, 1.0, 1e-12);
    int hits = 0;
    for (int t = 0; t < n; t++) {
        cs_trial tr;
        rs->resolve(ctxbuf, layoutbuf, &rng, &tr);
        hits += tr.outcome == o;
    }
    double ph = (double)hits / n;
    double se = sqrt(exact * (1.0 - exact) / n);
    cr_expect_leq(fabs(ph - exact), 5.0 * se, "MC %f vs exact %f (5 SE = %f)", ph, exact, 5 * se);
    return ph;
}

Test(sovl_dice, rank_bonus)
{
    /* 10 models 5 wide: two full ranks of 5 -> +2. */
    cr_expect_eq(cs_sovl_rank_bonus(10, 5), 2);
    /* 12 models 5 wide: 5, 5, 2 -> the rear rank of 2 gives nothing. */
    cr_expect_eq(cs_sovl_rank_bonus(12, 5), 2);
    /* 13 models 5 wide: 5, 5, 3 -> +3. */
    cr_expect_eq(cs_sovl_rank_bonus(13, 5), 3);
    /* 6 models 2 wide: three ranks of 2 -> none has 3 models. */
    cr_expect_eq(cs_sovl_rank_bonus(6, 2), 0);
    /* 3 models 10 wide: one partial first rank of 3 -> +1. */
    cr_expect_eq(cs_sovl_rank_bonus(3, 10), 1);
    cr_expect_eq(cs_sovl_rank_bonus(0, 5), 0);
}

Test(sovl_dice, discipline_exact)
{
    /* The acceptance value: discipline 7 + rank bonus 2 passes on
     * 2D6 <= 9; ways to roll 10, 11, 12 are 3 + 2 + 1 = 6, so 30/36. */
    int t = cs_sovl_discipline_target(7, 2, 0, 0);
    cr_expect_eq(t, 9);
    cr_expect_float_eq(cs_sovl_discipline_p(t), 30.0 / 36.0, 1e-12);
    /* A break test lost by 3: 7 + 2 - 3 = 6 -> 1+2+3+4+5 = 15/36. */
    cr_expect_eq(cs_sovl_discipline_target(7, 2, 3, 0), 6);
    cr_expect_float_eq(cs_sovl_discipline_p(6), 15.0 / 36.0, 1e-12);
    /* Fearless ignores the penalty; Reanimated never fails. */
    cr_expect_eq(cs_sovl_discipline_target(7, 2, 3, CS_SOVL_FEARLESS), 9);
    cr_expect_float_eq(cs_sovl_discipline_p(cs_sovl_discipline_target(2, 0, 5, CS_SOVL_REANIMATED)),
                       1.0, 1e-12);
    cr_expect_float_eq(cs_sovl_discipline_p(1), 0.0, 1e-12);
    cr_expect_float_eq(cs_sovl_discipline_p(2), 1.0 / 36.0, 1e-12);
    cr_expect_float_eq(cs_sovl_discipline_p(15), 1.0, 1e-12);
}

Test(sovl_dice, flight_exact)
{
    cr_expect_eq(cs_sovl_flight_dice(8), 2);
    cr_expect_eq(cs_sovl_flight_dice(12), 3);
    cr_expect_eq(cs_sovl_flight_dice(16), 4);
    cr_expect_eq(cs_sovl_flight_dice(0), 0);
    /* 4D6: 146 of the 1296 outcomes total 14 (the mode), and the law is
     * symmetric about 14, so P(>= 14) = (1296 + 146) / 2 / 1296 = 721/1296. */
    double p[25];
    cs_sovl_nd6(4, p);
    cr_expect_float_eq(p[14], 146.0 / 1296.0, 1e-12);
    cr_expect_float_eq(p[4], 1.0 / 1296.0, 1e-12);
    cr_expect_float_eq(cs_sovl_flight_p_reach(4, 14.0), 721.0 / 1296.0, 1e-12);
    /* A real distance rounds up: 13.5" needs 14 as well. */
    cr_expect_float_eq(cs_sovl_flight_p_reach(4, 13.5), 721.0 / 1296.0, 1e-12);
    /* 2D6 >= 12 is 1/36; an edge 0" away is always reached. */
    cr_expect_float_eq(cs_sovl_flight_p_reach(2, 12.0), 1.0 / 36.0, 1e-12);
    cr_expect_float_eq(cs_sovl_flight_p_reach(0, 0.0), 1.0, 1e-12);
    cr_expect_float_eq(cs_sovl_flight_p_reach(0, 1.0), 0.0, 1e-12);
}

Test(sovl_dice, to_hit_and_saves)
{
    cr_expect_eq(cs_sovl_hit_needed(3, false), 4);
    cr_expect_eq(cs_sovl_hit_needed(5, false), 2);
    cr_expect_eq(cs_sovl_hit_needed(2, true), 6);
    cr_expect_eq(cs_sovl_hit_needed(0, true), 8);
    cr_expect_float_eq(cs_sovl_d6_p_at_least(4, false), 0.5, 1e-12);
    /* Skill 6: needed 1 -> always hits literally, 5/6 with a natural 1. */
    cr_expect_float_eq(cs_sovl_d6_p_at_least(1, false), 1.0, 1e-12);
    cr_expect_float_eq(cs_sovl_d6_p_at_least(1, true), 5.0 / 6.0, 1e-12);
    cr_expect_float_eq(cs_sovl_d6_p_at_least(8, false), 0.0, 1e-12);
    cr_expect_float_eq(cs_sovl_d6_p_at_least(8, true), 1.0 / 6.0, 1e-12);
    /* SOVL Combat Phase Damage Save table. */
    cr_expect_eq(cs_sovl_save_needed(6, 3), 6); /* more than 2 higher */
    cr_expect_eq(cs_sovl_save_needed(5, 3), 5); /* 2 higher */
    cr_expect_eq(cs_sovl_save_needed(4, 3), 5);
    cr_expect_eq(cs_sovl_save_needed(3, 3), 4);
    cr_expect_eq(cs_sovl_save_needed(2, 3), 3);
    cr_expect_eq(cs_sovl_save_needed(1, 3), 3); /* 2 lower */
    cr_expect_eq(cs_sovl_save_needed(0, 3), 2); /* more than 2 lower */
    /* Binomial(3, 1/2): 1/8, 3/8, 3/8, 1/8. */
    double b[4];
    cs_sovl_binomial(3, 0.5, b);
    cr_expect_float_eq(b[0], 0.125, 1e-12);
    cr_expect_float_eq(b[1], 0.375, 1e-12);
    cr_expect_float_eq(b[2], 0.375, 1e-12);
    cr_expect_float_eq(b[3], 0.125, 1e-12);
}

Test(sovl_dice, ruleset_discipline_mc_vs_exact)
{
    /* Defaults: discipline 7, 10 models 5 wide -> rank bonus 2 -> 30/36. */
    mc_share(&cs_rules_sovl_dice, NULL, "pass", 30.0 / 36.0, 20000, 11u);
}

Test(sovl_dice, ruleset_flight_mc_vs_exact)
{
    const char *const set[] = {"test=flight", "type=cavalry", "edge_distance=14", NULL};
    mc_share(&cs_rules_sovl_dice, set, "off_table", 721.0 / 1296.0, 20000, 12u);
}

Test(sovl_dice, ruleset_ranged_mc_vs_exact)
{
    /* 10 longbows, Skill 3, at 12" (within 15", half of 30): 4+ hits (1/2);
     * Power 3 against Defense 3 saves on 4+, so each model wounds with
     * probability 1/2 * 1/2 = 1/4 and P(no casualties) = (3/4)^10. */
    const char *const set[] = {"test=ranged", NULL};
    mc_share(&cs_rules_sovl_dice, set, "no_casualties", pow(0.75, 10), 20000, 13u);
    /* At 20" long range: 5+ (1/3), wound 1/6, P(none) = (5/6)^10. */
    const char *const far[] = {"test=ranged", "target_distance=20", NULL};
    mc_share(&cs_rules_sovl_dice, far, "no_casualties", pow(5.0 / 6.0, 10), 20000, 14u);
    const char *const out[] = {"test=ranged", "target_distance=30.5", NULL};
    mc_share(&cs_rules_sovl_dice, out, "out_of_range", 1.0, 1000, 15u);
}

Test(sovl_dice, ruleset_metric_means)
{
    cs_params p;
    const char *const set[] = {"test=ranged", NULL};
    params_from_defaults(&cs_rules_sovl_dice, &p, set);
    static unsigned char ctxbuf[1 << 16], layoutbuf[256];
    cs_diag diag;
    cr_assert_eq(cs_rules_sovl_dice.prepare(&p, ctxbuf, &diag), CS_OK);
    cs_rng rng;
    cs_rng_seed(&rng, 1u, 1u);
    cs_rules_sovl_dice.draw_layout(ctxbuf, p.num, &rng, layoutbuf);
    cs_probs probs;
    memset(&probs, 0, sizeof probs);
    cs_rules_sovl_dice.outcome_probabilities(ctxbuf, layoutbuf, &probs);
    /* 10 models hitting on 4+: 5 hits on average; 2.5 wounds. */
    int h = metric_index(&cs_rules_sovl_dice, "hits");
    int w = metric_index(&cs_rules_sovl_dice, "wounds");
    cr_expect_float_eq(probs.mean[h], 5.0, 1e-12);
    cr_expect_float_eq(probs.mean[w], 2.5, 1e-12);
    cr_expect_float_eq(probs.pdef[w], 1.0, 1e-12);
}
