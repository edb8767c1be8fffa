/* generic — any "move + dice" charge (docs/rules/generic.md), the
 * smallest complete ruleset and the model for the others.
 *
 * range = move + <dice>; the charge succeeds when the range reaches
 * distance - engagement (reach.h: decimal distances are exact). Re-roll
 * policies: none; failed (re-roll the whole roll once if it fails); one_die
 * (re-roll the single die that best helps: the lowest). Presets fill move's
 * role, the dice, how near counts as a charge and who may declare, as four
 * published games play them (issue 15.1; the numbers in preset_rules). */
#include <math.h>
#include <string.h>

#include "chargesim/dice.h"
#include "chargesim/reach.h"
#include "chargesim/rules.h"

enum { P_PRESET, P_MOVE, P_DICE, P_SWIFTSTRIDE, P_REROLL, P_ENGAGEMENT, P_DISTANCE, P_COUNT };
enum { PRESET_NONE, PRESET_W40K, PRESET_AOS, PRESET_TOW, PRESET_WHFB8 };
enum { REROLL_NONE, REROLL_FAILED, REROLL_ONE_DIE };
enum { O_CHARGED, O_FAILED, O_ILLEGAL, O_COUNT };
enum { M_ROLL, M_RANGE };

static const char *const preset_names[] = {"none", "w40k", "aos", "tow", "whfb8", NULL};
static const char *const reroll_names[] = {"none", "failed", "one_die", NULL};

static const cs_param_def params[P_COUNT] = {
    {"preset", CS_PARAM_CHOICE, "none", "",
     "published game: w40k and aos 2D6 (no move), tow M + highest of 2D6, whfb8 M + 2D6", 0, 0,
     preset_names, 0},
    {"move", CS_PARAM_REAL, "0", "in", "the unit's move characteristic, added to the roll", 0,
     100, NULL, 0},
    {"dice", CS_PARAM_DICE, "", "",
     "the charge dice (Roll20 notation); empty: the preset's, 2d6 without one", 0, 0, NULL, 0},
    {"swiftstride", CS_PARAM_BOOL, "false", "",
     "tow: a third D6 in the pool (highest of 3D6); whfb8: roll 3D6 and drop the lowest", 0,
     0, NULL,
     CS_PF_ASSUMPTION},
    {"reroll", CS_PARAM_CHOICE, "none", "",
     "none; failed: re-roll the whole roll once if it fails; one_die: re-roll the lowest die",
     0, 0, reroll_names, 0},
    {"engagement", CS_PARAM_REAL, "-1", "in",
     "how near counts as a charge: success when range >= distance - engagement; -1 (default): "
     "the preset's (w40k 1, aos 0.5, tow/whfb8/none 0)",
     -1, 100, NULL, 0},
    {"distance", CS_PARAM_REAL, "8", "in", "gap to the target", 0, 1000, NULL, CS_PF_LAYOUT},
};

static const char *const outcomes[O_COUNT] = {"charged", "failed", "illegal"};

static const cs_metric_def metrics[] = {
    {"roll", "", "the dice total after any re-roll", 1.0, -50.0, 650.0, CS_METRIC_DIST},
    {"range", "in", "move + roll", 0.5, -50.0, 750.0, CS_METRIC_DIST},
};

typedef struct generic_ctx {
    cs_dice dice;
    cs_dist dist;      /* exact distribution of one roll */
    double move;
    double engagement; /* inches: ending this near the target is a charge */
    int limit;         /* LIMIT_*: who may declare */
    double max_declare; /* LIMIT_FIXED / LIMIT_MAX_RANGE: the farthest legal target */
    int reroll;
    int n_dice, sides, constant; /* one_die: the roll is n_dice d sides + constant */
} generic_ctx;

typedef struct generic_layout {
    double distance;
    double need; /* the least whole roll that reaches (cs_reach_min_roll) */
    bool legal;  /* the charge may be declared */
} generic_layout;

/* Who may declare a charge. NONE: anyone, at any gap (none, whfb8). FIXED:
 * a target within max_declare (w40k, aos: 12"). MAX_RANGE: within the
 * maximum possible charge range (tow). Under FIXED and MAX_RANGE a charger
 * already within its engagement distance of the target (at gap 0 when that
 * is 0: base contact) is engaged and may not declare. */
enum { LIMIT_NONE, LIMIT_FIXED, LIMIT_MAX_RANGE };

/* Each preset's engagement distance and declaration limit, from the game's
 * core rules (docs/rules/generic.md, the presets):
 * - w40k: a charge must end within Engagement Range, 1" (so a gap of d
 *   needs 2D6 >= d - 1); a charge may be declared against a unit within
 *   12", and not by a unit already within Engagement Range of an enemy.
 * - aos: the charge must end within 1/2" of the target; declared against a
 *   unit within 12"; a unit already within 1/2" (in combat) cannot charge.
 * - tow: charges end in base contact (0"); a charge may only be declared
 *   against a unit within the Maximum Possible Charge Range, M + 6 (the
 *   best Charge roll), + 3 with Swiftstride (the rule's own figure, though
 *   its extra D6 can carry the charger further).
 * - whfb8 and none: base contact, no declaration limit. */
typedef struct preset_rule {
    double engagement;
    int limit;
    double max_declare; /* LIMIT_FIXED: inches; LIMIT_MAX_RANGE: added to M */
} preset_rule;

static const preset_rule preset_rules[] = {
    [PRESET_NONE] = {0.0, LIMIT_NONE, 0.0},
    [PRESET_W40K] = {1.0, LIMIT_FIXED, 12.0},
    [PRESET_AOS] = {0.5, LIMIT_FIXED, 12.0},
    [PRESET_TOW] = {0.0, LIMIT_MAX_RANGE, 6.0},
    [PRESET_WHFB8] = {0.0, LIMIT_NONE, 0.0},
};

/* The dice each preset rolls. tow: "M + highest of 2D6"; its Swiftstride
 * adds a D6 to that pool, the highest still kept: the highest of 3D6 (The
 * Old World rulebook, Swiftstride, as issue 32 reads it; docs/rules/generic.md;
 * Knights Errant, M 8, reach 10" with 1 - (1/6)^3) -- an assumption, marked
 * on the parameter, where adding the D6 to the total is the other reading.
 * whfb8 swiftstride: 3D6 drop lowest. */
static const char *preset_dice(int preset, bool swift)
{
    switch (preset) {
    case PRESET_TOW: return swift ? "3d6kh1" : "2d6kh1";
    case PRESET_WHFB8: return swift ? "3d6dl1" : "2d6";
    default: return "2d6";
    }
}

static cs_status prepare(const cs_params *p, void *vctx, cs_diag *diag)
{
    generic_ctx *c = vctx;
    int preset = (int)p->num[P_PRESET];
    bool swift = p->num[P_SWIFTSTRIDE] != 0.0;
    const char *text = p->text[P_DICE];
    bool own_dice = text && text[0] != '\0';

    memset(c, 0, sizeof *c);
    c->move = p->num[P_MOVE];
    c->reroll = (int)p->num[P_REROLL];
    *diag = (cs_diag){0, NULL, NULL};
    if (p->num[P_ENGAGEMENT] < 0.0 && p->num[P_ENGAGEMENT] != -1.0) {
        *diag = (cs_diag){0, "engagement",
                          "give inches >= 0, or -1 (the default) for the preset's value"};
        return CS_EINPUT;
    }
    const preset_rule *rule = &preset_rules[preset];
    c->engagement = p->num[P_ENGAGEMENT] == -1.0 ? rule->engagement : p->num[P_ENGAGEMENT];
    c->limit = rule->limit;
    c->max_declare = rule->max_declare;
    if (rule->limit == LIMIT_MAX_RANGE)
        c->max_declare += c->move + (swift ? 3.0 : 0.0);
    if ((preset == PRESET_W40K || preset == PRESET_AOS) && c->move != 0.0) {
        *diag = (cs_diag){0, "move", "w40k and aos charge on 2D6 alone: leave move at 0"};
        return CS_EINPUT;
    }
    if (swift && preset != PRESET_TOW && preset != PRESET_WHFB8) {
        *diag = (cs_diag){0, "swiftstride", "swiftstride applies to the tow and whfb8 presets"};
        return CS_EINPUT;
    }
    if (own_dice && preset != PRESET_NONE) {
        *diag = (cs_diag){0, "dice", "a preset sets the dice: use preset = none with your own"};
        return CS_EINPUT;
    }
    cs_status st = cs_dice_parse(own_dice ? text : preset_dice(preset, swift), &c->dice, diag);
    if (st == CS_OK)
        st = cs_dice_exact(&c->dice, &c->dist, diag);
    if (st != CS_OK) {
        diag->key = "dice";
        return st;
    }
    if (c->reroll == REROLL_ONE_DIE) {
        /* "The single die that best helps" is only well defined for a plain
         * sum of like dice: re-rolling the lowest then helps most. */
        const cs_dice_term *t = &c->dice.term[0];
        bool plain = c->dice.n_terms >= 1 && t->sides > 0 && t->sign > 0 &&
                     t->keep == CS_KEEP_ALL && t->reroll == CS_REROLL_NONE && !t->explode;
        for (int i = 1; plain && i < c->dice.n_terms; i++)
            plain = c->dice.term[i].sides == 0;
        if (!plain || t->count > 16 || pow((double)t->sides, (double)t->count + 1.0) > 2e6) {
            *diag = (cs_diag){0, "reroll",
                              "one_die needs a plain NdX(+constant) roll of at most a few dice"};
            return CS_EINPUT;
        }
        c->n_dice = t->count;
        c->sides = t->sides;
        for (int i = 1; i < c->dice.n_terms; i++)
            c->constant += c->dice.term[i].sign * c->dice.term[i].count;
    }
    return CS_OK;
}

/* Declaration and the roll needed, decided once per layout so that the
 * sampled and the exact paths share them. Every "reaches" goes through
 * reach.h: 1.3 + 7 reaches 8.3 though binary floating point says otherwise. */
static void draw_layout(const void *vctx, const double *num, cs_rng *rng, void *vl)
{
    const generic_ctx *c = vctx;
    generic_layout *l = vl;
    (void)rng;
    l->distance = num[P_DISTANCE];
    l->legal = c->limit == LIMIT_NONE ||
               (!cs_reaches(c->engagement, l->distance) && cs_reaches(c->max_declare, l->distance));
    /* range = move + roll reaches distance - engagement exactly when the
     * whole roll is at least cs_reach_min_roll(distance - engagement - move). */
    l->need = cs_reach_min_roll(l->distance - c->engagement - c->move);
}

/* One roll with the one_die policy: re-roll the lowest die if it fails. */
static int roll_one_die(const generic_ctx *c, double need, cs_rng *rng)
{
    int sum = c->constant, low = c->sides + 1;
    for (int i = 0; i < c->n_dice; i++) {
        int d = cs_rng_die(rng, c->sides);
        sum += d;
        low = d < low ? d : low;
    }
    if ((double)sum < need)
        sum += cs_rng_die(rng, c->sides) - low;
    return sum;
}

/* One charge roll under the re-roll policy (shared by resolve and
 * resolve_batch, so both draw the same numbers). */
static inline int roll_once(const generic_ctx *c, double need, cs_rng *rng)
{
    if (c->reroll == REROLL_ONE_DIE)
        return roll_one_die(c, need, rng);
    int roll = cs_dice_roll(&c->dice, rng);
    if (c->reroll == REROLL_FAILED && (double)roll < need)
        roll = cs_dice_roll(&c->dice, rng);
    return roll;
}

static void resolve(const void *vctx, const void *vl, cs_rng *rng, cs_trial *out)
{
    const generic_ctx *c = vctx;
    const generic_layout *l = vl;
    if (!l->legal) {
        /* Not declared: nothing is rolled. */
        out->outcome = O_ILLEGAL;
        out->m[M_ROLL] = out->m[M_RANGE] = (double)NAN;
        return;
    }
    double need = l->need;
    int roll = roll_once(c, need, rng);
    out->outcome = (double)roll >= need ? O_CHARGED : O_FAILED;
    out->m[M_ROLL] = (double)roll;
    out->m[M_RANGE] = c->move + (double)roll;
}

static void resolve_batch(const void *vctx, const void *vl, cs_rng_trials *trials, uint64_t n,
                          cs_tally *t)
{
    const generic_ctx *c = vctx;
    const generic_layout *l = vl;
    if (!l->legal) {
        t->count[O_ILLEGAL] += n;
        return;
    }
    double need = l->need;
    const cs_dice_term *d = &c->dice.term[0];
    double sum_roll = t->msum[M_ROLL], sum_range = t->msum[M_RANGE];
    uint64_t ok = 0;
    if (c->reroll == REROLL_NONE && c->dice.n_terms == 1 && d->sides > 0 && d->sign > 0 &&
        d->keep == CS_KEEP_ALL && d->reroll == CS_REROLL_NONE && !d->explode) {
        /* Plain NdX: the dice drawn inline, as cs_dice_roll draws them. */
        const uint32_t sides = (uint32_t)d->sides;
        const int count = d->count;
        for (uint64_t i = 0; i < n; i++) {
            cs_rng rng;
            cs_rng_trials_next(trials, &rng);
            int roll = count;
            for (int k = 0; k < count; k++)
                roll += (int)cs_rng_bounded(&rng, sides);
            ok += (double)roll >= need;
            sum_roll += (double)roll;
            sum_range += c->move + (double)roll;
        }
    } else {
        for (uint64_t i = 0; i < n; i++) {
            cs_rng rng;
            cs_rng_trials_next(trials, &rng);
            int roll = roll_once(c, need, &rng);
            ok += (double)roll >= need;
            sum_roll += (double)roll;
            sum_range += c->move + (double)roll;
        }
    }
    t->count[O_CHARGED] += ok;
    t->count[O_FAILED] += n - ok;
    t->mdef[M_ROLL] += n;
    t->mdef[M_RANGE] += n;
    t->msum[M_ROLL] = sum_roll;
    t->msum[M_RANGE] = sum_range;
}


/* Exact one_die probabilities: every roll of the dice, and for a failing one
 * every face of the re-rolled lowest die. */
static double one_die_exact(const generic_ctx *c, double need, cs_probs *pr, bool dist)
{
    int face[32];
    double success = 0.0, w = pow((double)c->sides, -(double)c->n_dice);
    for (int i = 0; i < c->n_dice; i++)
        face[i] = 1;
    for (;;) {
        int sum = c->constant, low = c->sides + 1;
        for (int i = 0; i < c->n_dice; i++) {
            sum += face[i];
            low = face[i] < low ? face[i] : low;
        }
        if ((double)sum >= need) {
            success += w;
            if (dist)
                cs_probs_add(pr, M_ROLL, (double)sum, w);
        } else {
            for (int f = 1; f <= c->sides; f++) {
                int r = sum - low + f;
                double q = w / (double)c->sides;
                if ((double)r >= need)
                    success += q;
                if (dist)
                    cs_probs_add(pr, M_ROLL, (double)r, q);
            }
        }
        int i = 0;
        while (i < c->n_dice && face[i] == c->sides)
            face[i++] = 1;
        if (i == c->n_dice)
            break;
        face[i]++;
    }
    return success;
}

/* P(the final roll is v) when the first roll shows v with probability q:
 * without a re-roll, q; with the failed policy, q if v already succeeds, plus
 * P(first fails) q for the re-roll. */
static double kept(int v, double need, double again, double q)
{
    if (again == 0.0)
        return q;
    return ((double)v >= need ? q : 0.0) + again * q;
}

static void outcome_probabilities(const void *vctx, const void *vl, cs_probs *pr)
{
    const generic_ctx *c = vctx;
    const generic_layout *l = vl;
    if (!l->legal) {
        /* Nothing is rolled: both metrics are never defined. */
        pr->p[O_ILLEGAL] = 1.0;
        for (int m = M_ROLL; m <= M_RANGE; m++) {
            pr->n[m] = 0;
            pr->mean[m] = pr->pdef[m] = 0.0;
        }
        return;
    }
    double need = l->need;
    int width = c->dist.hi - c->dist.lo + 1;
    bool dist = width <= CS_PROBS_MAX_VALUES;
    double p;

    if (c->reroll == REROLL_ONE_DIE) {
        p = one_die_exact(c, need, pr, dist && c->n_dice * c->sides <= CS_PROBS_MAX_VALUES);
        p = fmin(1.0, p); /* a sum of exact terms may round a hair above 1 */
    } else {
        double p1 = cs_dist_p_at_least_real(&c->dist, need);
        /* again = P(the whole roll is re-rolled); 0 also when p1 = 1. */
        double again = c->reroll == REROLL_FAILED ? 1.0 - p1 : 0.0;
        p = p1 + again * p1;
        if (dist) {
            /* P(final roll = v) = P(v on the first roll and it succeeds)
             * + P(first fails) P(v on the re-roll). */
            for (int v = c->dist.lo; v <= c->dist.hi; v++) {
                double q = c->dist.p[v - c->dist.lo];
                cs_probs_add(pr, M_ROLL, (double)v, kept(v, need, again, q));
            }
        } else {
            double mean = 0.0;
            for (int v = c->dist.lo; v <= c->dist.hi; v++) {
                double q = c->dist.p[v - c->dist.lo];
                mean += (double)v * kept(v, need, again, q);
            }
            pr->mean[M_ROLL] = mean;
        }
    }
    pr->p[O_CHARGED] = p;
    pr->p[O_FAILED] = 1.0 - p;
    /* range = move + roll: the same distribution, shifted. */
    pr->n[M_RANGE] = pr->n[M_ROLL];
    for (int i = 0; i < pr->n[M_ROLL]; i++) {
        pr->value[M_RANGE][i] = c->move + pr->value[M_ROLL][i];
        pr->prob[M_RANGE][i] = pr->prob[M_ROLL][i];
    }
    pr->pdef[M_ROLL] = pr->pdef[M_RANGE] = 1.0;
    if (pr->n[M_ROLL] == 0 && pr->mean[M_ROLL] == pr->mean[M_ROLL])
        pr->mean[M_RANGE] = c->move + pr->mean[M_ROLL];
}

const cs_ruleset cs_rules_generic = {
    .name = "generic",
    .summary = "any \"move + dice\" charge, with w40k, aos, tow and whfb8 presets",
    .doc =
        "range = move + dice; the charge succeeds when the range reaches distance -\n"
        "engagement (head-on; a range reaches a distance when range >= distance - 1e-6\n"
        "inch, so decimal distances such as 8.3 are exact).\n"
        "Presets (docs/rules/generic.md), each as its game's core rules play it:\n"
        "  preset  roll                engagement   who may declare\n"
        "  w40k    2D6 (no move)       1\"           target within 12\"; not already within 1\"\n"
        "  aos     2D6 (no move)       1/2\"         target within 12\"; not already within 1/2\"\n"
        "  tow     M + highest of 2D6  0 (contact)  target within M + 6 (+3 Swiftstride)\n"
        "  whfb8   M + 2D6             0 (contact)  no limit\n"
        "  none    move + dice         0 (contact)  no limit\n"
        "Sources: Warhammer 40,000 core rules, Charge phase: a charge may be declared\n"
        "against units within 12\" and must end within Engagement Range (1\"), so a gap\n"
        "of d needs 2D6 >= d - 1; a unit within Engagement Range is engaged and cannot\n"
        "declare. Age of Sigmar core rules: charge targets within 12\", the move must end\n"
        "within 1/2\" of the target, a unit already within 1/2\" is in combat. The Old\n"
        "World: charges are declared only within the Maximum Possible Charge Range, M + 6\n"
        "(+3 with Swiftstride), and end in base contact. Under a declaration limit a\n"
        "charger already within its engagement distance of the target (gap 0 where that\n"
        "is 0: base contact) is engaged: outcome `illegal`, as is a target out of range.\n"
        "engagement (inches) overrides the preset's value; its default -1 means \"the\n"
        "preset's\". The declaration limits follow the preset; none and whfb8 have none.\n"
        "Swiftstride: whfb8 rolls 3D6 and drops the lowest; tow adds a D6 to the pool\n"
        "the highest is kept from: the highest of 3D6 (its rulebook, Swiftstride;\n"
        "assumption: set preset = none and dice = 2d6kh1+1d6 to add the D6 to the\n"
        "total instead). The rule's own M + 9 declaration limit stays, though the\n"
        "highest of 3D6 never carries the charger past M + 6.\n"
        "Re-rolls: failed re-rolls the whole roll once when it falls short; one_die\n"
        "re-rolls the single die that best helps, which for a plain sum is the lowest one\n"
        "(only plain NdX(+constant) rolls accept it).\n"
        "Success: charged. Outcomes: charged, failed, illegal (no dice are rolled).\n"
        "Exact: outcome probabilities and the roll's distribution are computed from the\n"
        "dice language's exact distributions (method exact / conditional).",
    .params = params,
    .n_params = P_COUNT,
    .outcomes = outcomes,
    .n_outcomes = O_COUNT,
    .success_mask = 1u << O_CHARGED,
    .metrics = metrics,
    .n_metrics = 2,
    .ctx_size = sizeof(generic_ctx),
    .layout_size = sizeof(generic_layout),
    .prepare = prepare,
    .layout_is_random = NULL,
    .draw_layout = draw_layout,
    .resolve = resolve,
    .outcome_probabilities = outcome_probabilities,
    .resolve_batch = resolve_batch,
};
