/* SPDX-License-Identifier: GPL-3.0-or-later */
/* coreheim: Mordheim-style skirmish charges (Coreheim rules, 1.1 Profile
 * Characteristics, 1.3 Movement, 1.4 Charges, 5.8 Interception; the reading
 * is docs/rules/coreheim.md).
 *
 * Warriors are single points. The charge runs along the most direct route,
 * a straight horizontal lane of length `distance` from the charger (x = 0)
 * to the target (x = distance); heights enter as the climb and the jump down
 * placed on that lane. Interceptors stand beside the lane at a signed lateral
 * distance and a position along it given as a fraction of the lane.
 *
 * The randomness splits as issue 4 asks. draw_layout turns the parameters,
 * the player's misjudged distance and the interceptors' places into a fixed
 * script: up to three stages of Initiative tests (out of sight, climb, jump),
 * each with where the charger stops if one of its tests fails, then the end
 * reached when every test passes. resolve rolls that script's dice;
 * outcome_probabilities walks it exactly. */
#include <math.h>
#include <stdbool.h>

#include "chargesim/drawing.h"
#include "chargesim/reach.h"
#include "chargesim/registry.h"
#include "chargesim/ruleset.h"

/* Outcomes, in the order of the table below. */
enum {
    O_CHARGED, O_DIVING, O_INTERCEPTED, O_FAILED, O_FAILED_TEST, O_FELL,
    O_DECLINED, O_ILLEGAL, N_OUTCOMES
};

/* Metrics, in the order of the table below. */
enum { M_TESTS, M_MOVED, M_FALL, M_FALL_HIT, M_GAP, N_METRICS };

/* Parameters, in the order of the table below. */
enum {
    P_DISTANCE, P_MOVE, P_MULTIPLIER, P_INITIATIVE, P_TESTS, P_ESTIMATE_SD,
    P_HIDDEN, P_VISIBLE, P_CLIMB, P_CLIMB_DIRECTION, P_CLIMB_AT, P_JUMP,
    P_LAND_GAP, P_INTERCEPTORS, P_ENGAGED, P_INTERCEPT, P_LAT_MIN, P_LAT_MAX,
    P_ALONG_MIN, P_ALONG_MAX, N_PARAMS
};

enum { TESTS_D12_HIGH, TESTS_D6_UNDER };
enum { CLIMB_UP, CLIMB_DOWN };
enum { INTERCEPT_ALWAYS, INTERCEPT_NEVER };

#define MAX_INTERCEPTORS 8
#define MAX_STAGES 3           /* out of sight, climb, jump */
#define MAX_CLIMB 6.0          /* 1.4 Charges Involving Climbing */
#define MAX_JUMP 7.0           /* 1.3 Jumping Down: further automatically fails */
#define INTERCEPT_REACH 2.0    /* 1.4 / 5.8: within 2" of the movement path */
#define DIVING_REACH 2.0       /* 1.4 Diving Charges: lands within 2" */
#define FAILED_MOVE 4.0        /* 1.4 Failed Charges: moved 4" */
#define FAILED_STOP 1.0        /* 1.4 Failed Charges: stop 1" short */
#define MIN_FALL 2.0           /* 1.3 Falling: only from a full 2" or more */

static const char *const tests_choices[] = {"d12_high", "d6_under", NULL};
static const char *const climb_choices[] = {"up", "down", NULL};
static const char *const intercept_choices[] = {"always", "never", NULL};

static const cs_param_def params[N_PARAMS] = {
    [P_DISTANCE] = {"distance", CS_PARAM_REAL, "6", "in",
        "horizontal length of the most direct route to the target (1.4 Declaring Charges)",
        0.0, 48.0, NULL, CS_PF_LAYOUT},
    [P_MOVE] = {"move", CS_PARAM_INT, "7", "in",
        "Movement M; the charge range is M (1.1 Movement)", 0.0, 20.0, NULL, 0},
    [P_MULTIPLIER] = {"charge_multiplier", CS_PARAM_INT, "1", "",
        "charge range = move x this; 2 is the classic double-move charge", 1.0, 3.0, NULL, 0},
    [P_INITIATIVE] = {"initiative", CS_PARAM_INT, "7", "",
        "Initiative: the D12 score needed (7 = 7+), or the D6 value to roll under (1.1 Tests)",
        0.0, 14.0, NULL, 0},
    [P_TESTS] = {"tests", CS_PARAM_CHOICE, "d12_high", "",
        "d12_high: D12 >= I, natural 12 passes, natural 1 fails (1.1); d6_under: D6 <= I, "
        "a natural 6 and an I of 0 always fail (WFB 7th ed. Characteristic Tests)",
        0.0, 0.0, tests_choices, 0},
    [P_ESTIMATE_SD] = {"estimate_sd", CS_PARAM_REAL, "0", "",
        "no pre-measuring (1.4): the player judges the move needed x exp(N(0, sd)); 0 = perfect",
        0.0, 2.0, NULL, CS_PF_ASSUMPTION},
    [P_HIDDEN] = {"hidden", CS_PARAM_BOOL, "false", "",
        "the target is hidden and cannot be charged (1.4 Charging Hidden Enemies)",
        0.0, 1.0, NULL, 0},
    [P_VISIBLE] = {"visible", CS_PARAM_BOOL, "true", "",
        "false: out of line of sight, one more Initiative test (1.4 out of Line-of-Sight)",
        0.0, 1.0, NULL, 0},
    [P_CLIMB] = {"climb", CS_PARAM_REAL, "0", "in",
        "height climbed in the charge: uses movement, one test, over 6\" illegal (1.4 Climbing)",
        0.0, 12.0, NULL, CS_PF_LAYOUT},
    [P_CLIMB_DIRECTION] = {"climb_direction", CS_PARAM_CHOICE, "up", "",
        "up: a failure stops at the foot; down: a failure falls the whole height (1.3, 1.4)",
        0.0, 0.0, climb_choices, 0},
    [P_CLIMB_AT] = {"climb_at", CS_PARAM_REAL, "0", "in",
        "distance along the route from the charger to the climb", 0.0, 48.0, NULL, CS_PF_LAYOUT},
    [P_JUMP] = {"jump", CS_PARAM_REAL, "0", "in",
        "height jumped down: a test per full 2\", no movement, over 7\" falls (1.3, 1.4)",
        0.0, 12.0, NULL, CS_PF_LAYOUT},
    [P_LAND_GAP] = {"land_gap", CS_PARAM_REAL, "1", "in",
        "distance from the jump's landing point to the target; within 2\" dives (1.4)",
        0.0, 48.0, NULL, CS_PF_LAYOUT},
    [P_INTERCEPTORS] = {"interceptors", CS_PARAM_INT, "0", "",
        "enemy warriors placed beside the lane (5.8 Interception)", 0.0, 8.0, NULL, CS_PF_LAYOUT},
    [P_ENGAGED] = {"interceptors_engaged", CS_PARAM_INT, "0", "",
        "how many of them are in combat and cannot intercept (5.8)", 0.0, 8.0, NULL, 0},
    [P_INTERCEPT] = {"intercept", CS_PARAM_CHOICE, "always", "",
        "whether an eligible warrior intercepts (5.8 says it may)", 0.0, 0.0,
        intercept_choices, CS_PF_ASSUMPTION},
    [P_LAT_MIN] = {"intercept_lateral_min", CS_PARAM_REAL, "1", "in",
        "each interceptor's signed distance beside the lane: uniform from this", -24.0, 24.0,
        NULL, CS_PF_LAYOUT},
    [P_LAT_MAX] = {"intercept_lateral_max", CS_PARAM_REAL, "1", "in",
        "... to this (equal: fixed)", -24.0, 24.0, NULL, CS_PF_LAYOUT},
    [P_ALONG_MIN] = {"intercept_along_min", CS_PARAM_REAL, "0.5", "",
        "each interceptor's place along the lane, 0 charger, 1 target: uniform from this",
        -1.0, 2.0, NULL, CS_PF_LAYOUT},
    [P_ALONG_MAX] = {"intercept_along_max", CS_PARAM_REAL, "0.5", "",
        "... to this (equal: fixed; above 1 is behind the target)", -1.0, 2.0, NULL,
        CS_PF_LAYOUT},
};

static const char *const outcomes[N_OUTCOMES] = {
    [O_CHARGED] = "charged",
    [O_DIVING] = "diving",
    [O_INTERCEPTED] = "intercepted",
    [O_FAILED] = "failed",
    [O_FAILED_TEST] = "failed_test",
    [O_FELL] = "fell",
    [O_DECLINED] = "declined",
    [O_ILLEGAL] = "illegal",
};
static const char *const outcome_help[N_OUTCOMES] = {
    [O_CHARGED] = "reached the warrior the charge was declared against",
    [O_DIVING] = "a diving charge from above reached the declared target",
    [O_INTERCEPTED] = "another warrior intercepted the charge on its way",
    [O_FAILED] = "declared, but the target was out of range",
    [O_FAILED_TEST] = "an Initiative test on the way failed (climbing, out of sight)",
    [O_FELL] = "the charger fell while climbing or jumping",
    [O_DECLINED] = "the player misjudged the distance as too far and did not declare",
    [O_ILLEGAL] = "may not be declared: the target is hidden, or the climb is over 6\"",
};
/* The default warrior from 4 to 14": within the charge, then beyond it. */
static const char *const example = "distance=4..14";
static const cs_game games[] = {
    {"Coreheim (Mordheim-style skirmish)", NULL, &example}};
static const char *const map_keys[] = {"distance", NULL};

static const cs_metric_def metrics[N_METRICS] = {
    [M_TESTS] = {"tests_taken", "", "Initiative tests rolled (declared charges)", 1.0, 0.0, 10.0,
                 CS_METRIC_DIST},
    [M_MOVED] = {"distance_moved", "in", "movement used, climbing included (declared charges)",
        0.1, 0.0, 30.0, CS_METRIC_DIST},
    [M_FALL] = {"fall_height", "in", "height fallen (outcome fell)", 0.5, 0.0, 12.0,
                CS_METRIC_DIST},
    [M_FALL_HIT] = {"fall_hit", "", "1 if the falling hit struck (outcome fell)", 1.0, 0.0, 1.0,
                    CS_METRIC_DIST},
    [M_GAP] = {"final_gap", "in", "distance left to the target after a failure", 0.1, 0.0, 30.0,
               CS_METRIC_DIST},
};

static const char doc[] =
    "coreheim: Mordheim-style charges by single warriors (Coreheim rules, 1.1, 1.3,\n"
    "1.4 and 5.8, cited below by number; the project's account: docs/rules/coreheim.md).\n"
    "Readings taken:\n"
    "- Tests (1.1): D12 >= initiative passes; a natural 12 passes and a natural 1 fails.\n"
    "  tests = d6_under, the classic Warhammer test this variant copies (Warhammer\n"
    "  Fantasy Battle 7th edition rulebook, Characteristic Tests): D6 <= initiative\n"
    "  passes, but a natural 6 always fails and an initiative of 0 always fails, so\n"
    "  P(pass) = min(I, 5)/6 for I >= 1 and 0 for I = 0.\n"
    "- Range (1.4): move x charge_multiplier. The move needed is distance + climb\n"
    "  (climbing uses movement, jumping down does not: 1.3, 1.4).\n"
    "- No pre-measuring (1.4): the player judges the move needed as needed x\n"
    "  exp(N(0, estimate_sd)) and declares only if that is within range (else `declined`);\n"
    "  the real move needed decides. The climb height is misjudged with the distance.\n"
    "- Hidden targets cannot be charged (`illegal`); a climb over 6\" is `illegal` (1.4).\n"
    "- Once declared, the range is measured first: out of range is `failed` with no tests.\n"
    "  In range, the tests come in route order: out of sight (1.4) at the start, the climb\n"
    "  (one test) where it stands, the jump (one test per full 2\") at its edge.\n"
    "- Climbing up and failing stops at the foot of the climb (`failed_test`); climbing down\n"
    "  and failing falls the whole height (`fell`, from a full 2\"; less is `failed_test`).\n"
    "- Any failed jump test falls the whole height (`fell`); a jump over 7\" always falls (1.3).\n"
    "- Diving charge (1.4): a charge with a jump down that lands within 2\" of the target and\n"
    "  reaches (`diving`, +1 Strength in the first round).\n"
    "- Falling (1.3): one hit on a D12 roll of (10 - inches fallen)+, no save; fall_hit.\n"
    "- Interception (1.4, 5.8): an interceptor intercepts when it is not engaged and stands\n"
    "  beside the route actually moved: within 2\" of it sideways and between the charger's\n"
    "  start and the target (not behind the target, no stepping up). The first one along the\n"
    "  route intercepts, only one; the charge becomes a charge against it (`intercepted`).\n"
    "  Heights are ignored for interception.\n"
    "- Failed charge (1.4): out of range, the warrior moves 4\" along the route, stopping 1\"\n"
    "  short of the target; a failed test or a fall leaves it where that happened.\n"
    "- Success (p_success): the charger ends in contact with the warrior it declared the\n"
    "  charge against: `charged` and `diving`. `intercepted` is not a success: the\n"
    "  charger ends in contact with another warrior.\n"
    "- Reaching: a length reaches a distance when it is at least the\n"
    "  distance less a millionth of an inch (reach.h), so decimal distances are exact:\n"
    "  range vs distance + climb, the 6\" climb and 7\" jump limits, a test per full\n"
    "  2\" jumped, the 2\" of interception and of a diving charge.\n"
    "Assumptions (the sources are silent):\n"
    "- intercept = always: every eligible warrior chooses to intercept (`never`: none does).\n"
    "- A failed out-of-sight test is taken before moving: the warrior stays at the start.\n"
    "- The 4\" failed-charge move takes no tests: it stops at the foot of a climb or the edge\n"
    "  of a jump on its way.\n"
    "- The falling hit has no natural-1 miss (the X+ rule as written; it matters only\n"
    "  for falls of 9\" or more, which always hit).\n"
    "- Interceptors are drawn independently: lateral uniform on [intercept_lateral_min,\n"
    "  intercept_lateral_max] inches, along uniform on [intercept_along_min,\n"
    "  intercept_along_max] of the route; the first interceptors_engaged are in combat.\n"
    "- Drawn values are clamped into range: climb_at to the route, land_gap to the route;\n"
    "  a drawn interceptor count is rounded to the nearest whole number.";

/* Everything a trial shares: the test's pass probability and the choices. */
typedef struct ch_ctx {
    double p_pass;       /* P(one Initiative test passes) */
    int tests;           /* TESTS_* */
    int initiative;
    double range;        /* charge range in inches */
    double estimate_sd;
    bool hidden, visible;
    bool climb_down;
    bool intercept;      /* eligible warriors intercept */
    int engaged;
    bool random_layout;  /* interceptors or the estimate vary between trials */
} ch_ctx;

/* Where a charge stops and what it measured there. */
typedef struct ch_stop {
    int outcome;
    double moved;    /* movement used */
    double gap;      /* distance left to the target; NAN on a success */
    double fall;     /* height fallen; NAN unless `fell` */
    int fall_need;   /* D12 score the falling hit needs */
} ch_stop;

/* A stage of `tests` Initiative tests, all of which must pass. */
typedef struct ch_stage {
    int tests;
    ch_stop fail;    /* where the charger stops on the first failure */
} ch_stage;

typedef struct ch_layout {
    bool declared;   /* false for illegal and declined: no metric applies */
    int n_stages;
    ch_stage stage[MAX_STAGES];
    ch_stop end;     /* reached when every test passes */
} ch_layout;

/* The classic D6-under test the d6_under variant copies (Warhammer Fantasy
 * Battle 7th edition rulebook, Characteristic Tests; the same in The Old
 * World's Automatic Pass and Fail): pass on D6 <= I, but a natural 6 always
 * fails and a characteristic of 0 always fails. */
static bool d6_under_passes(int roll, int initiative)
{
    return initiative > 0 && roll != 6 && roll <= initiative;
}

/* P(pass) of one test (1.1 Characteristics Tests): D12 >= I with the natural
 * 12 always passing and the natural 1 always failing, i.e. the faces
 * max(I, 2)..11 plus the 12; or the classic D6 <= I, whose passing faces are
 * 1..min(I, 5) (the 6 always fails) and none when I is 0. */
static double test_probability(int tests, int initiative)
{
    if (tests == TESTS_D6_UNDER) {
        int faces = 0;
        for (int roll = 1; roll <= 6; roll++)
            faces += d6_under_passes(roll, initiative);
        return (double)faces / 6.0;
    }
    int lo = initiative < 2 ? 2 : initiative;
    int faces = 1 + (lo <= 11 ? 12 - lo : 0);
    return (double)faces / 12.0;
}

static bool roll_test(const ch_ctx *c, cs_rng *rng)
{
    if (c->tests == TESTS_D6_UNDER)
        return d6_under_passes(cs_rng_die(rng, 6), c->initiative);
    int r = cs_rng_die(rng, 12);
    return r == 12 || (r != 1 && r >= c->initiative);
}

/* 1.3 Falling: the hit needs (10 - inches fallen)+ on a D12: the least whole
 * score reaching 10 - inches, so 2.5" needs 8+ like 2" (and 3.0000000001",
 * a decimal sum in binary, needs 7+ like 3"). */
static int fall_need(double height)
{
    return (int)cs_reach_min_roll(10.0 - height);
}

/* 1.3 / 1.4: how many full 2" a jump down holds (one test each): the most k
 * with 2k reached by the height (at most 3 below the 7" limit). */
static int full_two_inches(double jump)
{
    int k = 0;
    while (cs_reaches(jump, 2.0 * (double)(k + 1)))
        k++;
    return k;
}

static double fall_hit_probability(int need)
{
    if (need <= 1)
        return 1.0;
    if (need > 12)
        return 0.0;
    return (double)(13 - need) / 12.0;
}

static double clamp(double x, double lo, double hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

static ch_stop stop_at(int outcome, double moved, double gap)
{
    return (ch_stop){outcome, moved, gap, NAN, 0};
}

static ch_stop fall_at(double moved, double gap, double height)
{
    return (ch_stop){O_FELL, moved, gap, height, fall_need(height)};
}

static cs_status prepare(const cs_params *p, void *vctx, cs_diag *diag)
{
    ch_ctx *c = vctx;
    const double *v = p->num;
    if (v[P_LAT_MIN] > v[P_LAT_MAX]) {
        *diag = (cs_diag){0, "intercept_lateral_min", "must not exceed intercept_lateral_max"};
        return CS_EINPUT;
    }
    if (v[P_ALONG_MIN] > v[P_ALONG_MAX]) {
        *diag = (cs_diag){0, "intercept_along_min", "must not exceed intercept_along_max"};
        return CS_EINPUT;
    }
    /* Only checked where the obstacle exists and nothing is drawn, so that a
     * distance sweep without a climb or a jump never trips on the defaults. */
    bool fixed = !p->drawn[P_DISTANCE];
    if (fixed && v[P_CLIMB] > 0.0 && !p->drawn[P_CLIMB_AT] &&
        !cs_reaches(v[P_DISTANCE], v[P_CLIMB_AT])) {
        *diag = (cs_diag){0, "climb_at", "must lie on the route: at most distance"};
        return CS_EINPUT;
    }
    if (fixed && v[P_JUMP] > 0.0 && !p->drawn[P_LAND_GAP] &&
        !cs_reaches(v[P_DISTANCE], v[P_LAND_GAP])) {
        *diag = (cs_diag){0, "land_gap", "must lie on the route: at most distance"};
        return CS_EINPUT;
    }
    c->tests = (int)v[P_TESTS];
    c->initiative = (int)v[P_INITIATIVE];
    c->p_pass = test_probability(c->tests, c->initiative);
    c->range = v[P_MOVE] * v[P_MULTIPLIER];
    c->estimate_sd = v[P_ESTIMATE_SD];
    c->hidden = v[P_HIDDEN] != 0.0;
    c->visible = v[P_VISIBLE] != 0.0;
    c->climb_down = (int)v[P_CLIMB_DIRECTION] == CLIMB_DOWN;
    c->intercept = (int)v[P_INTERCEPT] == INTERCEPT_ALWAYS;
    c->engaged = (int)v[P_ENGAGED];
    bool spread = v[P_LAT_MIN] < v[P_LAT_MAX] || v[P_ALONG_MIN] < v[P_ALONG_MAX];
    c->random_layout = c->estimate_sd > 0.0 || (v[P_INTERCEPTORS] > 0.0 && spread);
    return CS_OK;
}

static bool layout_is_random(const void *vctx)
{
    const ch_ctx *c = vctx;
    return c->random_layout;
}

static double uniform_between(cs_rng *rng, double lo, double hi)
{
    return hi > lo ? lo + (hi - lo) * cs_rng_uniform(rng) : lo;
}

/* 1.4 / 5.8 Interception: places the interceptors and returns the route
 * position of the first one that may intercept on the route [0, reach], or
 * -1. Eligible: not engaged, within 2" sideways, and beside the route: not
 * behind the target (5.8: no stepping up) nor behind the charger. */
static double first_interceptor(const ch_ctx *c, const double *v, cs_rng *rng,
                                double distance, double reach)
{
    long n = lround(clamp(v[P_INTERCEPTORS], 0.0, (double)MAX_INTERCEPTORS));
    double first = -1.0;
    for (long i = 0; i < n; i++) {
        double lateral = uniform_between(rng, v[P_LAT_MIN], v[P_LAT_MAX]);
        double along = uniform_between(rng, v[P_ALONG_MIN], v[P_ALONG_MAX]);
        if (!c->intercept || i < c->engaged)
            continue;
        double x = along * distance;
        if (!cs_reaches(INTERCEPT_REACH, fabs(lateral)) || along < 0.0 || along > 1.0 ||
            !cs_reaches(reach, x))
            continue;
        if (first < 0.0 || x < first)
            first = x;
    }
    return first;
}

static void draw_layout(const void *vctx, const double *v, cs_rng *rng, void *vlayout)
{
    const ch_ctx *c = vctx;
    ch_layout *L = vlayout;
    L->n_stages = 0;
    L->declared = false;

    double d = fmax(v[P_DISTANCE], 0.0);
    double climb = fmax(v[P_CLIMB], 0.0);
    double jump = fmax(v[P_JUMP], 0.0);
    double x_climb = clamp(v[P_CLIMB_AT], 0.0, d);
    double x_jump = d - clamp(v[P_LAND_GAP], 0.0, d);
    double need = d + climb;

    /* 1.4: hidden warriors cannot be charged; the climb may not exceed 6". */
    if (c->hidden || !cs_reaches(MAX_CLIMB, climb)) {
        L->end = stop_at(O_ILLEGAL, NAN, NAN);
        return;
    }
    /* 1.4: no measuring before declaring; the player goes by his estimate. */
    double judged = need;
    if (c->estimate_sd > 0.0)
        judged *= exp(c->estimate_sd * cs_rng_normal(rng));
    bool in_range = cs_reaches(c->range, need);
    /* The route actually moved: all of it, or the failed-charge move of 4",
     * stopping 1" short and (assumption) at the first climb or jump. */
    double reach = d;
    if (!in_range) {
        reach = fmin(FAILED_MOVE, d - FAILED_STOP);
        if (climb > 0.0)
            reach = fmin(reach, x_climb);
        if (jump > 0.0)
            reach = fmin(reach, x_jump);
        reach = fmax(reach, 0.0);
    }
    double x_int = first_interceptor(c, v, rng, d, reach);
    if (!cs_reaches(c->range, judged)) {
        L->end = stop_at(O_DECLINED, NAN, NAN);
        return;
    }
    L->declared = true;
    if (!in_range) {
        L->end = x_int >= 0.0 ? stop_at(O_INTERCEPTED, x_int, NAN)
                              : stop_at(O_FAILED, reach, d - reach);
        return;
    }

    /* In range: the tests in route order; an interceptor at the same place
     * as an obstacle steps in before it is crossed. */
    if (!c->visible)
        L->stage[L->n_stages++] = (ch_stage){1, stop_at(O_FAILED_TEST, 0.0, d)};
    bool climb_pending = climb > 0.0, jump_pending = jump > 0.0;
    double climbed = 0.0;
    for (;;) {
        bool take_climb = climb_pending && (!jump_pending || cs_reaches(x_jump, x_climb));
        double x_next = take_climb ? x_climb : (jump_pending ? x_jump : HUGE_VAL);
        if (x_int >= 0.0 && cs_reaches(x_next, x_int)) {
            L->end = stop_at(O_INTERCEPTED, x_int + climbed, NAN);
            return;
        }
        if (take_climb) {
            /* 1.4: a single test; down and failing falls the entire height,
             * but 1.3 only counts falls from a full 2". */
            ch_stop fail = c->climb_down && cs_reaches(climb, MIN_FALL)
                               ? fall_at(x_climb, d - x_climb, climb)
                               : stop_at(O_FAILED_TEST, x_climb, d - x_climb);
            L->stage[L->n_stages++] = (ch_stage){1, fail};
            climb_pending = false;
            climbed = climb;
        } else if (jump_pending) {
            ch_stop fall = fall_at(x_jump + climbed, d - x_jump, jump);
            if (!cs_reaches(MAX_JUMP, jump)) {
                L->end = fall;
                return;
            }
            /* 1.3 / 1.4: a test for each full 2"; any failure falls. */
            int tests = full_two_inches(jump);
            if (tests > 0)
                L->stage[L->n_stages++] = (ch_stage){tests, fall};
            jump_pending = false;
        } else {
            break;
        }
    }
    bool diving = jump > 0.0 && cs_reaches(DIVING_REACH, d - x_jump);
    L->end = stop_at(diving ? O_DIVING : O_CHARGED, need, NAN);
}

static void record(const ch_layout *L, const ch_stop *s, int tests, cs_rng *rng, cs_trial *out)
{
    out->outcome = s->outcome;
    for (int i = 0; i < N_METRICS; i++)
        out->m[i] = NAN;
    if (!L->declared)
        return;
    out->m[M_TESTS] = (double)tests;
    out->m[M_MOVED] = s->moved;
    out->m[M_GAP] = s->gap;
    if (s->outcome == O_FELL) {
        out->m[M_FALL] = s->fall;
        out->m[M_FALL_HIT] = cs_rng_die(rng, 12) >= s->fall_need ? 1.0 : 0.0;
    }
}

static void resolve(const void *vctx, const void *vlayout, cs_rng *rng, cs_trial *out)
{
    const ch_ctx *c = vctx;
    const ch_layout *L = vlayout;
    int tests = 0;
    for (int s = 0; s < L->n_stages; s++) {
        for (int t = 0; t < L->stage[s].tests; t++) {
            tests++;
            if (!roll_test(c, rng)) {
                record(L, &L->stage[s].fail, tests, rng, out);
                return;
            }
        }
    }
    record(L, &L->end, tests, rng, out);
}


/* One leaf of the test tree: the charge stops at s after `tests` tests,
 * with probability w. */
static void add_leaf(cs_probs *out, const ch_layout *L, const ch_stop *s, int tests, double w)
{
    if (w == 0.0)
        return;
    out->p[s->outcome] += w;
    if (!L->declared)
        return;
    cs_probs_add(out, M_TESTS, (double)tests, w);
    cs_probs_add(out, M_MOVED, s->moved, w);
    cs_probs_add(out, M_GAP, s->gap, w);
    if (s->outcome == O_FELL) {
        double q = fall_hit_probability(s->fall_need);
        cs_probs_add(out, M_FALL, s->fall, w);
        cs_probs_add(out, M_FALL_HIT, 1.0, w * q);
        cs_probs_add(out, M_FALL_HIT, 0.0, w * (1.0 - q));
    }
}

/* Exact given the layout (issue 4): the tests are independent, so the
 * charge stops at the j-th test with probability p^(j-1) (1 - p) times the
 * chance of reaching it, and reaches the end with p^(all tests). */
static void outcome_probabilities(const void *vctx, const void *vlayout, cs_probs *out)
{
    const ch_ctx *c = vctx;
    const ch_layout *L = vlayout;
    for (int o = 0; o < N_OUTCOMES; o++)
        out->p[o] = 0.0;
    for (int i = 0; i < N_METRICS; i++) {
        out->n[i] = 0;
        out->mean[i] = 0.0;
        out->pdef[i] = 0.0;
    }
    double p = c->p_pass, reach = 1.0;
    int tests = 0;
    for (int s = 0; s < L->n_stages; s++) {
        for (int t = 0; t < L->stage[s].tests; t++) {
            tests++;
            add_leaf(out, L, &L->stage[s].fail, tests, reach * (1.0 - p));
            reach *= p;
        }
    }
    add_leaf(out, L, &L->end, tests, reach);
}

static void draw(const void *vctx, const double *v, const cs_rng *layout_rng,
                 const void *vlayout, const cs_rng *dice_rng, const cs_trial *tr, cs_drawing *d);
static cs_status map_place(cs_params *p, double x, double y, cs_map_spot *spot, cs_diag *diag);

const cs_ruleset cs_rules_coreheim = {
    .name = "coreheim",
    .summary = "Mordheim-style skirmish: Initiative tests, climbing, diving, interception",
    .doc = doc,
    .params = params,
    .n_params = N_PARAMS,
    .outcomes = outcomes,
    .outcome_help = outcome_help,
    .n_outcomes = N_OUTCOMES,
    .games = games,
    .n_games = 1,
    .map_keys = map_keys,
    /* p_success: contact with the declared target (docs/rules/coreheim.md, issue 15.5); an
     * interception ends in contact with another warrior. */
    .success_mask = (1u << O_CHARGED) | (1u << O_DIVING),
    .metrics = metrics,
    .n_metrics = N_METRICS,
    .ctx_size = sizeof(ch_ctx),
    .layout_size = sizeof(ch_layout),
    .prepare = prepare,
    .layout_is_random = layout_is_random,
    .draw_layout = draw_layout,
    .resolve = resolve,
    .outcome_probabilities = outcome_probabilities,
    .map_place = map_place,
    .draw = draw,
};

/* ---- the picture of one trial (chargesim draw) ----------------------------- */

#define BASE 1.0 /* a warrior's base drawn as a 1" square (25 mm) */

/* A warrior's base centred on (x, y) facing along +x (facing -90) or -x. */
static cs_rect warrior(double x, double y, bool towards_plus_x)
{
    return cs_geom_rect((cs_vec2){x, y}, BASE, BASE, towards_plus_x ? -90.0 : 90.0);
}

/* The interceptors as draw_layout placed them, replayed from its stream in
 * the same order (the judged distance's draw first); returns the route
 * position of the first that intercepts, as first_interceptor. */
static void draw_interceptors(const ch_ctx *c, const double *v, cs_rng *rng, double d,
                              cs_drawing *dr)
{
    if (c->estimate_sd > 0.0)
        (void)cs_rng_normal(rng);
    long n = lround(clamp(v[P_INTERCEPTORS], 0.0, (double)MAX_INTERCEPTORS));
    char label[CS_DRAW_TEXT];
    for (long i = 0; i < n; i++) {
        double lateral = uniform_between(rng, v[P_LAT_MIN], v[P_LAT_MAX]);
        double along = uniform_between(rng, v[P_ALONG_MIN], v[P_ALONG_MAX]);
        cs_drawing_format(label, CS_DRAW_TEXT, i < c->engaged ? "E%d (engaged)" : "E%d",
                          (int)i + 1);
        cs_rect r = warrior(along * d, lateral, lateral < 0.0);
        r.facing = lateral < 0.0 ? 0.0 : 180.0; /* facing the lane */
        cs_geom_rect_update(&r);
        cs_drawing_rect(dr, CS_DRAW_ENEMY, &r, label);
    }
    if (n > 0) {
        /* 1.4 / 5.8: within 2" of the movement path */
        cs_vec2 band[4] = {{0, -INTERCEPT_REACH}, {d, -INTERCEPT_REACH}, {d, INTERCEPT_REACH},
                           {0, INTERCEPT_REACH}};
        cs_draw_line *l = cs_drawing_line(dr, CS_DRAW_REACH, band, 4,
                                          "interception reach: 2\" of the route (5.8)");
        if (l)
            l->closed = true;
    }
}

/* The climb and the jump down placed on the route, as bands across it. */
static void draw_heights(const double *v, double d, cs_drawing *dr)
{
    char label[CS_DRAW_TEXT];
    double climb = fmax(v[P_CLIMB], 0.0), jump = fmax(v[P_JUMP], 0.0);
    if (climb > 0.0) {
        double x = clamp(v[P_CLIMB_AT], 0.0, d);
        cs_rect r = cs_geom_rect((cs_vec2){x, 0.0}, 3.0, 0.4, -90.0);
        cs_drawing_format(label, CS_DRAW_TEXT, "climb %.1f\" %s", climb,
                          (int)v[P_CLIMB_DIRECTION] == CLIMB_DOWN ? "down" : "up");
        cs_drawing_rect(dr, CS_DRAW_TERRAIN_MOVE, &r, label);
        dr->shape[dr->n_shapes - 1].front = -1;
    }
    if (jump > 0.0) {
        double x = d - clamp(v[P_LAND_GAP], 0.0, d);
        cs_rect r = cs_geom_rect((cs_vec2){x, 0.0}, 3.0, 0.4, -90.0);
        cs_drawing_format(label, CS_DRAW_TEXT, "jump down %.1f\"", jump);
        cs_drawing_rect(dr, CS_DRAW_TERRAIN_SOLID, &r, label);
        dr->shape[dr->n_shapes - 1].front = -1;
    }
    cs_drawing_format(dr->legend[CS_DRAW_TERRAIN_MOVE], CS_DRAW_TEXT,
                      "climb on the route (1.4 Climbing)");
    cs_drawing_format(dr->legend[CS_DRAW_TERRAIN_SOLID], CS_DRAW_TEXT,
                      "jump down on the route (1.3 Jumping Down)");
}

/* Where along the route the charger stopped: the target, short of it by
 * the gap, or at the interceptor. */
static double stop_x(const ch_ctx *c, const double *v, const cs_rng *layout_rng, double d,
                     const cs_trial *tr)
{
    if (tr->outcome == O_INTERCEPTED) {
        cs_rng r = *layout_rng;
        if (c->estimate_sd > 0.0)
            (void)cs_rng_normal(&r);
        double need = d + fmax(v[P_CLIMB], 0.0);
        double reach = cs_reaches(c->range, need) ? d : tr->m[M_MOVED];
        return first_interceptor(c, v, &r, d, reach);
    }
    return tr->m[M_GAP] == tr->m[M_GAP] ? d - tr->m[M_GAP] : d;
}

static const char *const stop_words[N_OUTCOMES] = {
    [O_CHARGED] = "reached the target", [O_DIVING] = "dived onto the target (1.4 Diving Charges)",
    [O_INTERCEPTED] = "met by an interceptor (5.8 Interception)",
    [O_FAILED] = "out of range: the failed charge moved 4\", stopping 1\" short (1.4)",
    [O_FAILED_TEST] = "stopped by a failed Initiative test",
    [O_FELL] = "fell (1.3 Falling)", [O_DECLINED] = "not declared: the player judged it too far",
    [O_ILLEGAL] = "not allowed (hidden target, or a climb over 6\")",
};

static void draw(const void *vctx, const double *v, const cs_rng *layout_rng,
                 const void *vlayout, const cs_rng *dice_rng, const cs_trial *tr, cs_drawing *dr)
{
    const ch_ctx *c = vctx;
    const ch_layout *L = vlayout;
    (void)dice_rng;
    double d = fmax(v[P_DISTANCE], 0.0);
    cs_rng r = *layout_rng;
    cs_rect ch = warrior(-0.5 * BASE, 0.0, true), tg = warrior(d + 0.5 * BASE, 0.0, false);
    draw_heights(v, d, dr);
    draw_interceptors(c, v, &r, d, dr);
    cs_drawing_rect(dr, CS_DRAW_TARGET, &tg, "target");
    cs_drawing_rect(dr, CS_DRAW_CHARGER, &ch, "charger");
    cs_drawing_format(dr->legend[CS_DRAW_ENEMY], CS_DRAW_TEXT, "enemy warrior beside the route");
    dr->outcome = outcomes[tr->outcome];
    dr->rolled = c->range;
    dr->needed = d + fmax(v[P_CLIMB], 0.0);
    cs_drawing_format(dr->rolled_what, CS_DRAW_TEXT, "Charge range (Move %.0f x %.0f, no dice)",
                      v[P_MOVE], v[P_MULTIPLIER]);
    cs_drawing_format(dr->needed_what, CS_DRAW_TEXT, "route %.1f\" plus the climb", d);
    cs_drawing_caption(dr, "Coreheim: the charge runs the most direct route, straight to the "
                           "target (1.4 Declaring Charges); warriors are points");
    if (L->declared) {
        double x = stop_x(c, v, layout_rng, d, tr);
        bool reached = tr->outcome == O_CHARGED || tr->outcome == O_DIVING;
        cs_vec2 p[2] = {{0.0, 0.0}, {x, 0.0}};
        cs_draw_line *l = cs_drawing_line(dr, reached ? CS_DRAW_PATH : CS_DRAW_FAILED, p, 2,
                                          reached ? "charge move along the route"
                                                  : "the move until it stopped");
        if (l)
            l->arrow = true;
        if (!reached)
            cs_drawing_mark(dr, p[1], "stopped");
        cs_drawing_caption(dr, "Initiative tests taken: %.0f (%s); %s", tr->m[M_TESTS],
                           c->tests == TESTS_D6_UNDER ? "D6 <= I" : "D12 >= I, 1.1",
                           stop_words[tr->outcome]);
    } else {
        cs_drawing_caption(dr, "Charge %s", stop_words[tr->outcome]);
    }
    if (tr->outcome == O_FELL)
        cs_drawing_caption(dr, "Fell %.1f\": the hit %s (D12 against the fall, 1.3)",
                           tr->m[M_FALL], tr->m[M_FALL_HIT] > 0.5 ? "landed" : "missed");
}

/* Threat maps (issue 20). Warriors are single points with no facing and no
 * arc: any visible enemy may be charged (1.4 Declaring Charges), and
 * "unless a charge involves climbing, chargers must take the most direct
 * route to the charge target" (1.4), so a target at (x, y) is charged along
 * the straight line to it: distance = hypot(x, y), and everything placed
 * along the route (climb, jump, interceptors) keeps its place on it. The
 * map is therefore round, and at x = 0 it is `run` at distance y. The
 * warrior is drawn on a 1" base (a 25 mm round base) for scale. A target
 * nearer than the experiment's climb or jump landing point cannot stand
 * there: that route has no room for them (prepare's "must lie on the
 * route"). */
static cs_status map_place(cs_params *p, double x, double y, cs_map_spot *spot, cs_diag *diag)
{
    if (p->drawn[P_DISTANCE]) {
        *diag = (cs_diag){0, "distance",
                          "is drawn per trial, but a threat map sets it from the cell "
                          "(distance = hypot(x, y)): fix it or leave it out"};
        return CS_EINPUT;
    }
    double d = hypot(x, y);
    const double *v = p->num;
    p->num[P_DISTANCE] = d;
    spot->charger_w = 1.0;
    spot->charger_d = 1.0;
    spot->placed = !(v[P_CLIMB] > 0.0 && !p->drawn[P_CLIMB_AT] && !cs_reaches(d, v[P_CLIMB_AT])) &&
                   !(v[P_JUMP] > 0.0 && !p->drawn[P_LAND_GAP] && !cs_reaches(d, v[P_LAND_GAP]));
    return CS_OK;
}
