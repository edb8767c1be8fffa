/* A Song of Ice and Fire TMG charges (seed asoiaf-charge-fr.txt, RULES.md
 * asoiaf, issue 6).
 *
 * Everything but the dice lives in the layout: whether the charge may be
 * declared, the distance the straight charge move needs to touch the target,
 * whether a blocker stops it first. The dice are one D6 for the charge
 * distance and the charge attack's hit and save rolls; given the layout their
 * outcome has an exact answer (outcome_probabilities), so conditional Monte
 * Carlo only samples the layout. */
#include <math.h>
#include <string.h>

#include "chargesim/asoiaf.h"
#include "chargesim/rules.h"
#include "chargesim/ruleset.h"

/* ---- the charge attack ------------------------------------------------- */

double cs_asoiaf_hit_probability(const cs_asoiaf_attack *a)
{
    double p = (double)(7 - a->hit) / 6.0;
    /* A re-rolled miss hits with the same p: P = p + (1 - p) p. */
    return a->reroll_misses ? p + (1.0 - p) * p : p;
}

double cs_asoiaf_wound_probability(const cs_asoiaf_attack *a)
{
    /* A hit is unsaved when the save die shows less than `save`: (save-1)/6,
     * so save 7 (no save) lets every hit through. */
    return cs_asoiaf_hit_probability(a) * (double)(a->save - 1) / 6.0;
}

/* pmf[k] = C(n,k) p^k (1-p)^(n-k), k = 0..n. The coefficients are built by
 * the exact integer recurrence C(n,k+1) = C(n,k)(n-k)/(k+1), exact in a
 * double for n <= CS_ASOIAF_MAX_DICE (C(40,20) < 2^53). */
static void binomial_pmf(int n, double p, double *pmf)
{
    double c = 1.0;
    for (int k = 0; k <= n; k++) {
        pmf[k] = c * pow(p, (double)k) * pow(1.0 - p, (double)(n - k));
        c = c * (double)(n - k) / (double)(k + 1);
    }
}

void cs_asoiaf_attack_exact(const cs_asoiaf_attack *a, double *hits, double *wounds)
{
    /* The dice are independent and each ends as a hit (an unsaved hit) with
     * the same probability, so both counts are binomial in `dice`. */
    binomial_pmf(a->dice, cs_asoiaf_hit_probability(a), hits);
    binomial_pmf(a->dice, cs_asoiaf_wound_probability(a), wounds);
}

void cs_asoiaf_attack_roll(const cs_asoiaf_attack *a, cs_rng *rng, int *hits, int *wounds)
{
    int h = 0, w = 0;
    for (int i = 0; i < a->dice; i++) {
        int d = cs_rng_die(rng, 6);
        if (d < a->hit && a->reroll_misses)
            d = cs_rng_die(rng, 6);
        if (d >= a->hit) {
            h++;
            if (cs_rng_die(rng, 6) < a->save)
                w++;
        }
    }
    *hits = h;
    *wounds = w;
}

/* ---- parameters, outcomes, metrics ------------------------------------- */

enum {
    P_SPEED,
    P_DISTANCE,
    P_ATTACK_DICE,
    P_HIT,
    P_SAVE,
    P_DISORDERED_EFFECT,
    P_CHARGER_ENGAGED,
    P_ENGAGED_FRONT,
    P_COUNT
};

/* What a disordered charge (a natural 1 on the charge die) costs when it
 * still connects. The source names the disordered charge but says nothing of
 * its effect; RULES.md takes the loss of the charge bonus. */
enum { DIS_NO_BONUS, DIS_NONE, DIS_NO_ATTACK };
static const char *const disordered_choices[] = {"no_bonus", "none", "no_attack", NULL};

static const cs_param_def params[P_COUNT] = {
    [P_SPEED] = {"speed", CS_PARAM_INT, "5", "in",
                 "Speed; charge distance = speed + D6 (Charge, lancer la Distance de Charge)",
                 0, 20, NULL, 0},
    [P_DISTANCE] = {"distance", CS_PARAM_REAL, "8", "in",
                    "head-on gap between the two front edges", 0, 72, NULL, CS_PF_LAYOUT},
    [P_ATTACK_DICE] = {"attack_dice", CS_PARAM_INT, "6", "",
                       "dice of the charge melee attack (Charge, résoudre l'attaque)",
                       0, CS_ASOIAF_MAX_DICE, NULL, 0},
    [P_HIT] = {"hit", CS_PARAM_INT, "4", "",
               "the attack hits on this D6 score or more", 2, 6, NULL, 0},
    [P_SAVE] = {"save", CS_PARAM_INT, "4", "",
                "the defender saves a hit on this D6 score or more (7: no save)", 2, 7, NULL, 0},
    [P_DISORDERED_EFFECT] = {"disordered_effect", CS_PARAM_CHOICE, "no_bonus", "",
                             "effect of a disordered charge (natural 1) that connects: no_bonus "
                             "loses the re-roll of misses, none, no_attack (source silent)",
                             0, 0, disordered_choices, CS_PF_ASSUMPTION},
    [P_CHARGER_ENGAGED] = {"charger_engaged", CS_PARAM_BOOL, "false", "",
                           "the charger is engaged: it cannot charge (Charge, first paragraph)",
                           0, 1, NULL, 0},
    [P_ENGAGED_FRONT] = {"engaged_front", CS_PARAM_INT, "0", "",
                         "units of the charger's side already engaged on the target's front; "
                         "two fill it (Charge, cible légale, second condition)",
                         0, 2, NULL, 0},
};

enum { O_CHARGED, O_DISORDERED, O_FAILED, O_ILLEGAL, O_COUNT };
static const char *const outcomes[O_COUNT] = {"charged", "disordered", "failed", "illegal"};

enum { M_ROLL, M_DISTANCE_NEEDED, M_HITS, M_WOUNDS, M_WOUNDS_DELIVERED, M_COUNT };
static const cs_metric_def metrics[M_COUNT] = {
    [M_ROLL] = {"roll", "", "the charge distance die (legal charges)", 1, 1, 6},
    [M_DISTANCE_NEEDED] = {"distance_needed", "in",
                           "straight move that touches the target (when nothing stops it first)",
                           0.1, 0, 30},
    [M_HITS] = {"hits", "", "hits of the charge attack (charges that connect)", 1, 0,
                CS_ASOIAF_MAX_DICE},
    [M_WOUNDS] = {"wounds", "", "unsaved hits of the charge attack (charges that connect)", 1, 0,
                  CS_ASOIAF_MAX_DICE},
    [M_WOUNDS_DELIVERED] = {"wounds_delivered", "",
                            "wounds per declared charge, 0 when it fails", 1, 0,
                            CS_ASOIAF_MAX_DICE},
};

/* ---- context and layout ------------------------------------------------ */

typedef struct ctx {
    int speed;
    int effect;            /* DIS_* */
    bool charger_engaged;
    int engaged_front;
    cs_asoiaf_attack ordered;    /* the attack of an ordered charge */
    cs_asoiaf_attack disordered; /* the attack of a disordered one */
    double ordered_hits[CS_ASOIAF_MAX_DICE + 1];
    double ordered_wounds[CS_ASOIAF_MAX_DICE + 1];
    double disordered_hits[CS_ASOIAF_MAX_DICE + 1];
    double disordered_wounds[CS_ASOIAF_MAX_DICE + 1];
} ctx;

typedef struct layout {
    bool legal;     /* the charge may be declared */
    bool reachable; /* the straight move touches the target before any stop */
    double needed;  /* its length, when reachable */
} layout;

/* A distance computed by geometry may miss a whole number by rounding; a
 * charge distance within this of the need reaches. */
#define REACH_EPS 1e-9

static bool whole(double x)
{
    return x == floor(x);
}

static cs_status prepare(const cs_params *p, void *vctx, cs_diag *diag)
{
    ctx *c = vctx;
    memset(c, 0, sizeof *c);
    static const int ints[] = {P_SPEED, P_ATTACK_DICE, P_HIT, P_SAVE, P_ENGAGED_FRONT};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        const cs_param_def *d = &params[ints[i]];
        double v = p->num[ints[i]];
        if (!whole(v) || v < d->min || v > d->max) {
            diag->key = d->key;
            diag->what = "expected a whole number in the parameter's range";
            return CS_EINPUT;
        }
    }
    c->speed = (int)p->num[P_SPEED];
    c->effect = (int)p->num[P_DISORDERED_EFFECT];
    c->charger_engaged = p->num[P_CHARGER_ENGAGED] != 0.0;
    c->engaged_front = (int)p->num[P_ENGAGED_FRONT];
    c->ordered = (cs_asoiaf_attack){(int)p->num[P_ATTACK_DICE], (int)p->num[P_HIT],
                                    (int)p->num[P_SAVE], true};
    c->disordered = c->ordered;
    if (c->effect == DIS_NO_BONUS)
        c->disordered.reroll_misses = false;
    else if (c->effect == DIS_NO_ATTACK)
        c->disordered.dice = 0;
    cs_asoiaf_attack_exact(&c->ordered, c->ordered_hits, c->ordered_wounds);
    cs_asoiaf_attack_exact(&c->disordered, c->disordered_hits, c->disordered_wounds);
    return CS_OK;
}

/* Head-on: the charger faces the target squarely, so the straight move
 * needs exactly the gap, and the charger is located in the target's front. */
static void draw_layout(const void *vctx, const double *num, cs_rng *rng, void *vlayout)
{
    const ctx *c = vctx;
    layout *l = vlayout;
    (void)rng;
    double distance = num[P_DISTANCE];
    /* Declaration (Charge, cible légale): no engaged charger; room on the
     * located side (fewer than two units already there); the target within
     * the most the charger could move, speed + 6. */
    l->legal = !c->charger_engaged && c->engaged_front < 2 &&
               distance <= (double)(c->speed + 6) + REACH_EPS;
    l->reachable = l->legal;
    l->needed = distance;
}

static bool reaches(const ctx *c, const layout *l, int roll)
{
    return l->reachable && (double)(c->speed + roll) + REACH_EPS >= l->needed;
}

static void resolve(const void *vctx, const void *vlayout, cs_rng *rng, cs_trial *out)
{
    const ctx *c = vctx;
    const layout *l = vlayout;
    for (int i = 0; i < M_COUNT; i++)
        out->m[i] = NAN;
    if (!l->legal) {
        out->outcome = O_ILLEGAL;
        return;
    }
    int roll = cs_rng_die(rng, 6);
    out->m[M_ROLL] = (double)roll;
    if (l->reachable)
        out->m[M_DISTANCE_NEEDED] = l->needed;
    if (!reaches(c, l, roll)) {
        out->outcome = O_FAILED;
        out->m[M_WOUNDS_DELIVERED] = 0.0;
        return;
    }
    /* Charge, lancer la distance: a 1 on the die makes the charge disordered. */
    bool disordered = roll == 1;
    out->outcome = disordered ? O_DISORDERED : O_CHARGED;
    int hits, wounds;
    cs_asoiaf_attack_roll(disordered ? &c->disordered : &c->ordered, rng, &hits, &wounds);
    out->m[M_HITS] = (double)hits;
    out->m[M_WOUNDS] = (double)wounds;
    out->m[M_WOUNDS_DELIVERED] = (double)wounds;
}

/* Sets metric i to the distribution pmf[0..n] scaled by weight w, adding to
 * what is there (the caller clears first). */
static void add_pmf(cs_probs *out, int i, const double *pmf, int n, double w)
{
    for (int k = 0; k <= n; k++) {
        out->value[i][k] = (double)k;
        out->prob[i][k] += w * pmf[k];
        out->mean[i] += w * pmf[k] * (double)k;
    }
    if (out->n[i] < n + 1)
        out->n[i] = n + 1;
    out->pdef[i] += w;
}

static void outcome_probabilities(const void *vctx, const void *vlayout, cs_probs *out)
{
    const ctx *c = vctx;
    const layout *l = vlayout;
    memset(out, 0, sizeof *out);
    if (!l->legal) {
        out->p[O_ILLEGAL] = 1.0;
        for (int i = 0; i < M_COUNT; i++)
            out->mean[i] = NAN;
        return;
    }
    const int n = c->ordered.dice;
    const double sixth = 1.0 / 6.0;
    for (int roll = 1; roll <= 6; roll++) {
        out->value[M_ROLL][roll - 1] = (double)roll;
        out->prob[M_ROLL][roll - 1] = sixth;
        out->mean[M_ROLL] += sixth * (double)roll;
        if (!reaches(c, l, roll)) {
            out->p[O_FAILED] += sixth;
            continue;
        }
        bool disordered = roll == 1;
        out->p[disordered ? O_DISORDERED : O_CHARGED] += sixth;
        add_pmf(out, M_HITS, disordered ? c->disordered_hits : c->ordered_hits, n, sixth);
        add_pmf(out, M_WOUNDS, disordered ? c->disordered_wounds : c->ordered_wounds, n, sixth);
    }
    out->n[M_ROLL] = 6;
    out->pdef[M_ROLL] = 1.0;
    /* Wounds delivered: the connected charges' wounds, plus a 0 for each
     * failed one. */
    out->n[M_WOUNDS_DELIVERED] = n + 1;
    out->pdef[M_WOUNDS_DELIVERED] = 1.0;
    out->mean[M_WOUNDS_DELIVERED] = out->mean[M_WOUNDS];
    for (int k = 0; k <= n; k++) {
        out->value[M_WOUNDS_DELIVERED][k] = (double)k;
        out->prob[M_WOUNDS_DELIVERED][k] = out->prob[M_WOUNDS][k];
    }
    out->prob[M_WOUNDS_DELIVERED][0] += out->p[O_FAILED];
    if (l->reachable) {
        out->n[M_DISTANCE_NEEDED] = 1;
        out->value[M_DISTANCE_NEEDED][0] = l->needed;
        out->prob[M_DISTANCE_NEEDED][0] = 1.0;
        out->pdef[M_DISTANCE_NEEDED] = 1.0;
        out->mean[M_DISTANCE_NEEDED] = l->needed;
    }
    for (int i = 0; i < M_COUNT; i++)
        if (out->pdef[i] == 0.0)
            out->mean[i] = NAN;
}

static const char doc[] =
    "A Song of Ice and Fire TMG charges (seed asoiaf-charge-fr.txt; RULES.md asoiaf).\n"
    "Declaration: an engaged charger cannot charge; the target must be within speed + 6\n"
    "(the most the charger could move); the target's side the charger is located in must\n"
    "have room: fewer than two units already engaged there. Else `illegal`.\n"
    "Charge distance = speed + D6; the charger moves straight that far and succeeds if it\n"
    "touches the target. A natural 1 is a disordered charge: outcome `disordered` when it\n"
    "still connects, `failed` otherwise.\n"
    "Charge attack: attack_dice D6 hitting on hit+, misses re-rolled (the charge bonus),\n"
    "then one save per hit on save+ (7: none); hits and wounds are exact binomials.\n"
    "Assumption (source silent): a disordered charge loses the charge bonus\n"
    "(disordered_effect = no_bonus; none and no_attack are the alternatives).\n"
    "Metrics: roll and distance_needed (legal charges), hits and wounds (charges that\n"
    "connect), wounds_delivered (every declared charge, 0 when it fails).\n";

const cs_ruleset cs_rules_asoiaf = {
    .name = "asoiaf",
    .summary = "A Song of Ice and Fire: speed + D6 straight charge, disordered 1s, charge attack",
    .doc = doc,
    .params = params,
    .n_params = P_COUNT,
    .outcomes = outcomes,
    .n_outcomes = O_COUNT,
    .success_mask = (1u << O_CHARGED) | (1u << O_DISORDERED),
    .metrics = metrics,
    .n_metrics = M_COUNT,
    .ctx_size = sizeof(ctx),
    .layout_size = sizeof(layout),
    .prepare = prepare,
    .layout_is_random = NULL,
    .draw_layout = draw_layout,
    .resolve = resolve,
    .outcome_probabilities = outcome_probabilities,
};
