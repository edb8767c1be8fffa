/* SPDX-License-Identifier: GPL-3.0-or-later */
/* coin: the smallest game, for the recipe "a new game is one file and one
 * line" (docs/ARCHITECTURE.md, "Where to add things"). tests/recipes.sh
 * builds a chargesim with this file and the line X(coin) added to a copy of
 * include/chargesim/registry.h, runs it, and removes it all; it is never
 * part of bin/chargesim. A charge succeeds when one die of `sides` faces
 * shows `need` or more: exactly (sides - need + 1) / sides. */
#include "chargesim/registry.h"

enum { P_SIDES, P_NEED, P_COUNT };
enum { O_CHARGED, O_FAILED, O_COUNT };

static const cs_param_def params[P_COUNT] = {
    {"sides", CS_PARAM_INT, "6", "", "faces of the die", 2, 100, NULL, 0},
    {"need", CS_PARAM_INT, "4", "", "the least face that charges", 1, 100, NULL, CS_PF_LAYOUT},
};

static const char *const outcomes[O_COUNT] = {"charged", "failed"};
static const char *const outcome_help[O_COUNT] = {"the die showed need or more",
                                                  "the die showed less than need"};
static const cs_game games[] = {{"Coin (the recipe's test game)", NULL, NULL}};

static const cs_metric_def metrics[] = {
    {"face", "", "the face rolled", 1.0, 0.0, 101.0, CS_METRIC_DIST},
};

typedef struct coin_ctx {
    int sides;
} coin_ctx;

typedef struct coin_layout {
    int need;
} coin_layout;

static cs_status prepare(const cs_params *p, void *vctx, cs_diag *diag)
{
    coin_ctx *c = vctx;
    c->sides = (int)p->num[P_SIDES];
    if (!p->drawn[P_NEED] && p->num[P_NEED] > p->num[P_SIDES]) {
        *diag = (cs_diag){0, "need", "at most sides"};
        return CS_EINPUT;
    }
    return CS_OK;
}

static void draw_layout(const void *vctx, const double *num, cs_rng *rng, void *vl)
{
    (void)vctx;
    (void)rng;
    ((coin_layout *)vl)->need = (int)num[P_NEED];
}

static void resolve(const void *vctx, const void *vl, cs_rng *rng, cs_trial *out)
{
    int face = cs_rng_die(rng, ((const coin_ctx *)vctx)->sides);
    out->outcome = face >= ((const coin_layout *)vl)->need ? O_CHARGED : O_FAILED;
    out->m[0] = (double)face;
}

static void outcome_probabilities(const void *vctx, const void *vl, cs_probs *pr)
{
    int sides = ((const coin_ctx *)vctx)->sides, need = ((const coin_layout *)vl)->need;
    double q = 1.0 / (double)sides;
    pr->p[O_CHARGED] = need > sides ? 0.0 : (double)(sides - need + 1) * q;
    pr->p[O_FAILED] = 1.0 - pr->p[O_CHARGED];
    pr->mean[0] = pr->pdef[0] = 0.0;
    for (int f = 1; f <= sides; f++)
        cs_probs_add(pr, 0, (double)f, q);
}

const cs_ruleset cs_rules_coin = {
    .name = "coin",
    .summary = "one die against a need (the recipe's test game)",
    .doc = "A charge succeeds when one die shows need or more (tests/recipes/coin.c).\n"
           "Its rules: docs/rules/README.md (a test game has no page of its own).",
    .params = params,
    .n_params = P_COUNT,
    .outcomes = outcomes,
    .outcome_help = outcome_help,
    .n_outcomes = O_COUNT,
    .games = games,
    .n_games = 1,
    .success_mask = 1u << O_CHARGED,
    .metrics = metrics,
    .n_metrics = 1,
    .ctx_size = sizeof(coin_ctx),
    .layout_size = sizeof(coin_layout),
    .prepare = prepare,
    .draw_layout = draw_layout,
    .resolve = resolve,
    .outcome_probabilities = outcome_probabilities,
};
