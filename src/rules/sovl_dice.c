/* SPDX-License-Identifier: GPL-3.0-or-later */
/* sovl_dice: the dice of SOVL's strategic and combat phases as experiments
 * (discipline tests and rallies, flight moves off the table, ranged attacks
 * with their damage saves), on the pure functions of chargesim/sovl.h. The
 * charge phase is the `sovl` ruleset. */
#include <math.h>

#include "chargesim/reach.h"
#include "chargesim/registry.h"
#include "chargesim/sovl.h"

enum {
    P_TEST,
    P_DISCIPLINE,
    P_MODELS,
    P_FRONTAGE,
    P_PENALTY,
    P_FEARLESS,
    P_REANIMATED,
    P_TYPE,
    P_EDGE_DISTANCE,
    P_SKILL,
    P_WEAPON,
    P_TARGET_DISTANCE,
    P_DEFENSE,
    P_NATURAL_ROLLS,
    N_PARAMS
};

enum { TEST_DISCIPLINE, TEST_FLIGHT, TEST_RANGED };

enum { O_PASS, O_FAIL, O_OFF_TABLE, O_ON_TABLE, O_CASUALTIES, O_NO_CASUALTIES, O_OUT_OF_RANGE,
       N_OUTCOMES };

enum { M_ROLL, M_MARGIN, M_HITS, M_WOUNDS, N_METRICS };

#define MAX_MODELS 40 /* hits and wounds keep their exact distribution in cs_probs */

static const char *const test_choices[] = {"discipline", "flight", "ranged", NULL};

static const cs_param_def params[N_PARAMS] = {
    [P_TEST] = {"test", CS_PARAM_CHOICE, "discipline", "",
                "discipline (break test or rally), flight (move off the table) or ranged (attack "
                "roll and damage save)",
                0, 0, test_choices, 0},
    [P_DISCIPLINE] = {"discipline", CS_PARAM_INT, "7", "",
                      "Discipline stat: a test passes on 2D6 <= Discipline + Rank Bonus - penalty "
                      "(SOVL Unit Stats and Types)",
                      0, 12, NULL, 0},
    [P_MODELS] = {"models", CS_PARAM_INT, "10", "",
                  "models in the unit: ranks for the Rank Bonus, and one D6 each when shooting",
                  1, MAX_MODELS, NULL, 0},
    [P_FRONTAGE] = {"frontage", CS_PARAM_INT, "5", "",
                    "models per rank; each rank of >= 3 models gives +1 Rank Bonus, the first "
                    "included (SOVL Unit Stats and Types)",
                    1, MAX_MODELS, NULL, 0},
    [P_PENALTY] = {"penalty", CS_PARAM_INT, "0", "",
                   "combat score difference subtracted in a break test (SOVL Combat Phase); 0 "
                   "for a rally (SOVL Strategic Phase)",
                   0, 24, NULL, 0},
    [P_FEARLESS] = {"fearless", CS_PARAM_BOOL, "false", "",
                    "Fearless: ignores all penalties to Discipline tests (SOVL Equipment and Unit Properties)",
                    0, 1, NULL, 0},
    [P_REANIMATED] = {"reanimated", CS_PARAM_BOOL, "false", "",
                      "Reanimated: never fails Discipline tests (SOVL Equipment and Unit Properties)", 0, 1,
                      NULL, 0},
    [P_TYPE] = {"type", CS_PARAM_CHOICE, "infantry_20", "",
                "unit type; a flight move is one D6 per 4 points of its base movement "
                "(SOVL Unit Stats and Types)",
                0, 0, cs_sovl_type_keys, 0},
    [P_EDGE_DISTANCE] = {"edge_distance", CS_PARAM_REAL, "6", "in",
                         "distance the fleeing unit must move to reach the table edge; reaching "
                         "it flees the battlefield (SOVL Unit Stats and Types)",
                         0, 200, NULL, CS_PF_LAYOUT},
    [P_SKILL] = {"skill", CS_PARAM_INT, "3", "",
                 "Skill of the shooters: 4+ to hit, one better per point over 3, one worse per "
                 "point under 3 (SOVL Strategic Phase)",
                 0, 10, NULL, 0},
    [P_WEAPON] = {"weapon", CS_PARAM_CHOICE, "longbow", "",
                  "ranged weapon: its maximum range and Power (SOVL Equipment and Unit Properties)", 0, 0,
                  cs_sovl_weapon_keys, 0},
    [P_TARGET_DISTANCE] = {"target_distance", CS_PARAM_REAL, "12", "in",
                           "distance to the target: beyond the weapon's range no attack, beyond "
                           "half of it -1 to hit (long range)",
                           0, 200, NULL, CS_PF_LAYOUT},
    [P_DEFENSE] = {"defense", CS_PARAM_INT, "3", "",
                   "target's Defense against the weapon's Power in the Damage Save table "
                   "(SOVL Combat Phase)",
                   0, 12, NULL, 0},
    [P_NATURAL_ROLLS] = {"natural_rolls", CS_PARAM_BOOL, "false", "",
                         "to hit, a natural 1 always misses and a 6 always hits; the rules are "
                         "silent, the default reads the modifiers literally (needed <= 1 always "
                         "hits, >= 7 never)",
                         0, 1, NULL, CS_PF_ASSUMPTION},
};

static const char *const outcomes[N_OUTCOMES] = {
    [O_PASS] = "pass",
    [O_FAIL] = "fail",
    [O_OFF_TABLE] = "off_table",
    [O_ON_TABLE] = "on_table",
    [O_CASUALTIES] = "casualties",
    [O_NO_CASUALTIES] = "no_casualties",
    [O_OUT_OF_RANGE] = "out_of_range",
};
static const char *const outcome_help[N_OUTCOMES] = {
    [O_PASS] = "the Discipline test (a break test or a rally) passed",
    [O_FAIL] = "the Discipline test failed",
    [O_OFF_TABLE] = "the flight move reached the table edge: the unit leaves the table",
    [O_ON_TABLE] = "the flight move stayed on the table",
    [O_CASUALTIES] = "the ranged attack caused at least one wound",
    [O_NO_CASUALTIES] = "no hit, or every hit saved",
    [O_OUT_OF_RANGE] = "the target is beyond the weapon's range: no attack",
};
/* The default discipline test over every Discipline 2D6 can pass or fail. */
static const char *const example = "discipline=2..12";
static const cs_game games[] = {
    {"SOVL: tests, flight and shooting", NULL, &example}};

static const cs_metric_def metrics[N_METRICS] = {
    [M_ROLL] = {"roll", "", "discipline: the 2D6 total; flight: the distance rolled", 1, 0, 96,
                CS_METRIC_DIST},
    [M_MARGIN] = {"margin", "",
                  "discipline: target - roll (>= 0 passes); flight: roll - edge distance (>= 0 "
                  "leaves the table)",
                  1, -100, 100, CS_METRIC_DIST},
    [M_HITS] = {"hits", "", "ranged: successful hits", 1, 0, MAX_MODELS, CS_METRIC_DIST},
    [M_WOUNDS] = {"wounds", "", "ranged: failed damage saves, one wound each", 1, 0, MAX_MODELS,
                  CS_METRIC_DIST},
};

typedef struct ctx {
    int test;
    /* discipline */
    int target;             /* largest passing 2D6 total */
    /* flight */
    int flight_dice;
    double nd6[6 * CS_SOVL_MAX_DICE + 1];
    /* ranged */
    int shooters;
    int range;              /* weapon's maximum range */
    int hit_short, hit_long;/* D6 score needed within and beyond half range */
    bool natural;
    int save;               /* Damage Save score */
} ctx;

typedef struct layout {
    double edge_distance;
    double target_distance;
} layout;

/* Every value is valid alone, and no two conflict: nothing to refuse. */
static cs_status prepare(const cs_params *p, void *vctx, cs_diag *diag)
{
    (void)diag;
    ctx *c = vctx;
    const double *num = p->num;
    c->test = (int)num[P_TEST];
    /* Indices of their choices, checked by the loader (ruleset.h, prepare). */
    const cs_sovl_unit_type *type = cs_sovl_type_get((int)num[P_TYPE]);
    const cs_sovl_weapon_def *weapon = cs_sovl_weapon_get((int)num[P_WEAPON]);
    unsigned props = (num[P_FEARLESS] != 0.0 ? CS_SOVL_FEARLESS : 0u) |
                     (num[P_REANIMATED] != 0.0 ? CS_SOVL_REANIMATED : 0u);
    int rank_bonus = cs_sovl_rank_bonus((int)num[P_MODELS], (int)num[P_FRONTAGE]);
    c->target = cs_sovl_discipline_target((int)num[P_DISCIPLINE], rank_bonus, (int)num[P_PENALTY],
                                          props);
    c->flight_dice = cs_sovl_flight_dice(type->move);
    cs_sovl_nd6(c->flight_dice, c->nd6);
    c->shooters = (int)num[P_MODELS];
    c->range = weapon->range;
    c->hit_short = cs_sovl_hit_needed((int)num[P_SKILL], false);
    c->hit_long = cs_sovl_hit_needed((int)num[P_SKILL], true);
    c->natural = num[P_NATURAL_ROLLS] != 0.0;
    c->save = cs_sovl_save_needed(weapon->power, (int)num[P_DEFENSE]);
    return CS_OK;
}

static void draw_layout(const void *vctx, const double *num, cs_rng *rng, void *vlayout)
{
    (void)vctx;
    (void)rng;
    layout *l = vlayout;
    l->edge_distance = num[P_EDGE_DISTANCE];
    l->target_distance = num[P_TARGET_DISTANCE];
}

static void clear_metrics(cs_trial *out)
{
    for (int i = 0; i < N_METRICS; i++)
        out->m[i] = NAN;
}

/* The hit score for a target at distance d, or 0 beyond the weapon's range
 * (SOVL Strategic Phase "units outside of that range can't be targeted";
 * "further away than half the maximum range" is long range). Both are
 * "does this range reach this distance" (reach.h): a target at 15.0" is
 * within half of a 30" range even when the decimal it came from does not
 * round to exactly 15 in binary. */
static int hit_score(const ctx *c, double d)
{
    if (!cs_reaches((double)c->range, d))
        return 0;
    return cs_reaches(0.5 * (double)c->range, d) ? c->hit_short : c->hit_long;
}

static void resolve(const void *vctx, const void *vlayout, cs_rng *rng, cs_trial *out)
{
    const ctx *c = vctx;
    const layout *l = vlayout;
    clear_metrics(out);
    if (c->test == TEST_DISCIPLINE) {
        int roll;
        bool pass = cs_sovl_discipline_roll(c->target, rng, &roll);
        out->outcome = pass ? O_PASS : O_FAIL;
        out->m[M_ROLL] = roll;
        out->m[M_MARGIN] = c->target - roll;
    } else if (c->test == TEST_FLIGHT) {
        int roll = cs_sovl_flight_roll(c->flight_dice, rng);
        /* the same reach test as cs_sovl_flight_p_reach (reach.h) */
        out->outcome = cs_reaches((double)roll, l->edge_distance) ? O_OFF_TABLE : O_ON_TABLE;
        out->m[M_ROLL] = roll;
        out->m[M_MARGIN] = (double)roll - l->edge_distance;
    } else {
        int needed = hit_score(c, l->target_distance);
        if (needed == 0) {
            out->outcome = O_OUT_OF_RANGE;
            return;
        }
        /* SOVL Strategic Phase: a D6 per model; the defender rolls a
         * Damage Save against each hit and takes a wound per failure. */
        int hits = 0, wounds = 0;
        for (int k = 0; k < c->shooters; k++)
            if (cs_sovl_d6_roll_at_least(needed, c->natural, rng)) {
                hits++;
                if (!cs_sovl_d6_roll_at_least(c->save, true, rng))
                    wounds++;
            }
        out->outcome = wounds > 0 ? O_CASUALTIES : O_NO_CASUALTIES;
        out->m[M_HITS] = hits;
        out->m[M_WOUNDS] = wounds;
    }
}

/* Stores a whole distribution of metric i: values v0 + k*step for k < n. */
static void put_dist(cs_probs *out, int i, const double *p, int n, double v0)
{
    double mean = 0.0, def = 0.0;
    out->n[i] = n;
    for (int k = 0; k < n; k++) {
        out->value[i][k] = v0 + (double)k;
        out->prob[i][k] = p[k];
        mean += (v0 + (double)k) * p[k];
        def += p[k];
    }
    out->mean[i] = mean;
    out->pdef[i] = def;
}

static void outcome_probabilities(const void *vctx, const void *vlayout, cs_probs *out)
{
    const ctx *c = vctx;
    const layout *l = vlayout;
    for (int o = 0; o < N_OUTCOMES; o++)
        out->p[o] = 0.0;
    if (c->test == TEST_DISCIPLINE) {
        double p2d6[13];
        cs_sovl_nd6(2, p2d6);
        out->p[O_PASS] = cs_sovl_discipline_p(c->target);
        out->p[O_FAIL] = 1.0 - out->p[O_PASS];
        put_dist(out, M_ROLL, p2d6 + 2, 11, 2.0);
        /* margin = target - roll takes the values target-12 .. target-2 */
        double rev[11];
        for (int k = 0; k < 11; k++)
            rev[k] = p2d6[12 - k];
        put_dist(out, M_MARGIN, rev, 11, (double)(c->target - 12));
        /* E[2D6] = 7 exactly; the summed form leaves a rounding residue
         * that would print as -0.0000 on an even target. */
        out->mean[M_MARGIN] = (double)c->target - 7.0;
    } else if (c->test == TEST_FLIGHT) {
        int n = c->flight_dice;
        out->p[O_OFF_TABLE] = cs_sovl_flight_p_reach(n, l->edge_distance);
        out->p[O_ON_TABLE] = 1.0 - out->p[O_OFF_TABLE];
        put_dist(out, M_ROLL, c->nd6 + n, 5 * n + 1, (double)n);
        put_dist(out, M_MARGIN, c->nd6 + n, 5 * n + 1, (double)n - l->edge_distance);
        out->mean[M_MARGIN] = 3.5 * (double)n - l->edge_distance; /* E[nD6] = 3.5 n */
    } else {
        int needed = hit_score(c, l->target_distance);
        if (needed == 0) {
            out->p[O_OUT_OF_RANGE] = 1.0;
            return;
        }
        double ph = cs_sovl_d6_p_at_least(needed, c->natural);
        double pw = ph * (1.0 - cs_sovl_d6_p_at_least(c->save, true));
        double b[MAX_MODELS + 1];
        cs_sovl_binomial(c->shooters, ph, b);
        put_dist(out, M_HITS, b, c->shooters + 1, 0.0);
        /* Each model independently hits and then fails the save, so the
         * wounds are Binomial(models, p_hit * p_fail). */
        cs_sovl_binomial(c->shooters, pw, b);
        put_dist(out, M_WOUNDS, b, c->shooters + 1, 0.0);
        out->p[O_NO_CASUALTIES] = b[0];
        out->p[O_CASUALTIES] = 1.0 - b[0];
    }
}

static const char doc[] =
    "SOVL dice of the strategic and combat phases (SOVL rules; docs/rules/sovl.md).\n"
    "test = discipline: 2D6 <= Discipline + Rank Bonus - penalty passes (SOVL Unit Stats and Types\n"
    "  \"Discipline and Rank Bonus\"); Rank Bonus = ranks of >= 3 models, the first included,\n"
    "  from models and frontage; penalty = the combat score difference of a break test\n"
    "  (SOVL Combat Phase); a rally is the same test with penalty 0\n"
    "  (SOVL Strategic Phase). Fearless drops the penalty, Reanimated never fails.\n"
    "  Outcomes pass / fail.\n"
    "test = flight: one D6 per 4 points of the type's base movement (infantry 2D6, monsters\n"
    "  3D6, cavalry 4D6); the unit leaves the table when the roll >= edge_distance - 1e-6\n"
    "  (SOVL Unit Stats and Types \"Flight Move\"). Outcomes off_table / on_table.\n"
    "test = ranged: one D6 per model, 4+ to hit, +-1 per point of Skill from 3, -1 beyond half\n"
    "  the weapon's range, no attack beyond it (SOVL Strategic Phase \"Ranged Attacks\");\n"
    "  in range means target_distance <= range + 1e-6\" and long range target_distance >\n"
    "  range/2 + 1e-6\" (CS_REACH_TOL: decimal distances are never flipped by binary\n"
    "  floating point); each hit then faces the Damage Save of the weapon's Power against\n"
    "  the target's Defense (SOVL Combat Phase: 5+ / 6+ when Power is more than 2 higher,\n"
    "  4+ equal, 3+ / 2+ when more than 2 lower). Outcomes casualties (>= 1 wound) /\n"
    "  no_casualties / out_of_range.\n"
    "p_success is P(pass, off_table or casualties): the event each test asks about.\n"
    "Assumption: natural_rolls (false) - the sources do not say whether a 1 always misses\n"
    "and a 6 always hits; by default the modifiers are read literally.\n"
    "Exact: every outcome and metric distribution given the layout (edge_distance,\n"
    "target_distance).\n";

const cs_ruleset cs_rules_sovl_dice = {
    .name = "sovl_dice",
    .summary = "SOVL discipline tests, rallies, flight moves and ranged attacks (exact)",
    .doc = doc,
    .params = params,
    .n_params = N_PARAMS,
    .outcomes = outcomes,
    .outcome_help = outcome_help,
    .n_outcomes = N_OUTCOMES,
    .games = games,
    .n_games = 1,
    .success_mask = (1u << O_PASS) | (1u << O_OFF_TABLE) | (1u << O_CASUALTIES),
    .metrics = metrics,
    .n_metrics = N_METRICS,
    .ctx_size = sizeof(ctx),
    .layout_size = sizeof(layout),
    .prepare = prepare,
    .layout_is_random = NULL,
    .draw_layout = draw_layout,
    .resolve = resolve,
    .outcome_probabilities = outcome_probabilities,
};
