/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A Song of Ice and Fire TMG charges (A Song of Ice and Fire: Tabletop
 * Miniatures Game, core rules, Charge action; docs/rules/asoiaf.md, issue 6).
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
#include "chargesim/drawing.h"
#include "chargesim/geom.h"
#include "chargesim/reach.h"
#include "chargesim/registry.h"
#include "chargesim/ruleset.h"
#include "chargesim/scenario.h"

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
    P_ATTACK_DICE,
    P_HIT,
    P_SAVE,
    P_DISORDERED_EFFECT,
    P_PIVOT,
    P_CHARGER_ENGAGED,
    P_ENGAGED_FRONT, /* then left, right, rear: cs_facing order */
    P_ENGAGED_LEFT,
    P_ENGAGED_RIGHT,
    P_ENGAGED_REAR,
    P_SCN, /* the scenario block (scenario.h) starts here, with `distance` */
    P_COUNT = P_SCN + CS_SCN_N_PARAMS
};
_Static_assert(P_COUNT <= CS_MAX_PARAMS, "asoiaf has too many parameters");

/* What a disordered charge (a natural 1 on the charge die) costs when it
 * still connects. The source names the disordered charge but says nothing of
 * its effect; docs/rules/asoiaf.md takes the loss of the charge bonus. */
enum { DIS_NO_BONUS, DIS_NONE, DIS_NO_ATTACK };
static const char *const disordered_choices[] = {"no_bonus", "none", "no_attack", NULL};

/* Where the charger turns before it rolls (Charge, "Pivoter l'Attaquant":
 * any direction that keeps the target in sight). */
enum { PIVOT_SIDE_CENTRE, PIVOT_TARGET_CENTRE, PIVOT_NONE };
static const char *const pivot_choices[] = {"side_centre", "target_centre", "none", NULL};

/* ASOIAF infantry: 4 x 3 models on 40 mm square bases, a 160 x 120 mm tray. */
static const cs_param_def params[P_COUNT] = {
    [P_SPEED] = {"speed", CS_PARAM_INT, "5", "in",
                 "Speed; charge distance = speed + D6 (Charge, lancer la Distance de Charge)",
                 0, 20, NULL, 0},
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
    [P_PIVOT] = {"pivot", CS_PARAM_CHOICE, "side_centre", "",
                 "the pivot before the roll faces the centre of the located side, the target's "
                 "centre, or is not made (Charge, pivoter: any direction keeping sight)",
                 0, 0, pivot_choices, CS_PF_ASSUMPTION},
    [P_CHARGER_ENGAGED] = {"charger_engaged", CS_PARAM_BOOL, "false", "",
                           "the charger is engaged: it cannot charge (Charge, first paragraph)",
                           0, 1, NULL, 0},
    [P_ENGAGED_FRONT] = {"engaged_front", CS_PARAM_INT, "0", "",
                         "units of the charger's side already engaged on the target's front; "
                         "two fill it (Charge, cible légale, second condition)",
                         0, 2, NULL, 0},
    [P_ENGAGED_LEFT] = {"engaged_left", CS_PARAM_INT, "0", "",
                        "units already engaged on the target's left flank; two fill it",
                        0, 2, NULL, 0},
    [P_ENGAGED_RIGHT] = {"engaged_right", CS_PARAM_INT, "0", "",
                         "units already engaged on the target's right flank; two fill it",
                         0, 2, NULL, 0},
    [P_ENGAGED_REAR] = {"engaged_rear", CS_PARAM_INT, "0", "",
                        "units already engaged on the target's rear; two fill it", 0, 2, NULL,
                        0},
    CS_SCENARIO_PARAMS("8", "6.3", "4.72", "1.575", "1.575", "6.3", "4.72", "1.575", "1.575"),
};

enum { O_CHARGED, O_DISORDERED, O_FAILED, O_ILLEGAL, O_COUNT };
static const char *const outcomes[O_COUNT] = {"charged", "disordered", "failed", "illegal"};
static const char *const outcome_help[O_COUNT] = {
    "the charge reached the enemy in good order",
    "the charge reached the enemy, but a natural 1 on the die disordered it",
    "declared, but the roll fell short (or the lane was blocked)",
    "may not be declared: beyond speed + 6, out of sight, no room on that side, or engaged",
};
/* The default unit (speed 5 + D6) from 4 to 14": sure, then the D6, then out of reach. */
static const char *const example = "distance=4..14";
static const cs_game games[] = {
    {"A Song of Ice and Fire", NULL, &example}};

enum {
    M_ROLL,
    M_DISTANCE_NEEDED,
    M_MOVED,
    M_HITS,
    M_WOUNDS,
    M_HITS_ORDERED, /* then hits_disordered, wounds_ordered, wounds_disordered */
    M_HITS_DISORDERED,
    M_WOUNDS_ORDERED,
    M_WOUNDS_DISORDERED,
    M_WOUNDS_DELIVERED,
    M_ALIGNMENT,
    M_DEFENDER_SHIFT,
    M_COUNT
};
_Static_assert(M_COUNT <= CS_MAX_METRICS, "asoiaf has too many metrics");
static const cs_metric_def metrics[M_COUNT] = {
    [M_ROLL] = {"roll", "", "the charge distance die (legal charges)", 1, 1, 6, CS_METRIC_DIST},
    [M_DISTANCE_NEEDED] = {"distance_needed", "in",
                           "straight move that touches the target (when nothing stops it first)",
                           0.1, 0, 30, CS_METRIC_DIST},
    [M_MOVED] = {"moved", "in",
                 "distance the charger moved: to contact, to 1\" from a blocker, or speed + D6",
                 0.1, 0, 30, CS_METRIC_DIST},
    [M_HITS] = {"hits", "", "hits of the charge attack (charges that connect)", 1, 0,
                CS_ASOIAF_MAX_DICE, CS_METRIC_DIST},
    [M_WOUNDS] = {"wounds", "", "unsaved hits of the charge attack (charges that connect)", 1, 0,
                  CS_ASOIAF_MAX_DICE, CS_METRIC_DIST},
    [M_HITS_ORDERED] = {"hits_ordered", "", "hits of an ordered charge (misses re-rolled)", 1,
                        0, CS_ASOIAF_MAX_DICE, CS_METRIC_DIST},
    [M_HITS_DISORDERED] = {"hits_disordered", "",
                           "hits of a disordered charge (as disordered_effect says)", 1, 0,
                           CS_ASOIAF_MAX_DICE, CS_METRIC_DIST},
    [M_WOUNDS_ORDERED] = {"wounds_ordered", "", "unsaved hits of an ordered charge", 1, 0,
                          CS_ASOIAF_MAX_DICE, CS_METRIC_DIST},
    [M_WOUNDS_DISORDERED] = {"wounds_disordered", "", "unsaved hits of a disordered charge", 1,
                             0, CS_ASOIAF_MAX_DICE, CS_METRIC_DIST},
    [M_WOUNDS_DELIVERED] = {"wounds_delivered", "",
                            "wounds per trial: 0 when the charge fails or cannot be declared", 1, 0,
                            CS_ASOIAF_MAX_DICE, CS_METRIC_DIST},
    [M_ALIGNMENT] = {"alignment", "%",
                     "100 centre to centre, 50 half, 0 neither possible (charges that connect)",
                     50, 0, 100, CS_METRIC_DIST},
    [M_DEFENDER_SHIFT] = {"defender_shift", "in",
                          "how far the defender slid to align (charges that connect)", 0.1, 0,
                          10, CS_METRIC_DIST},
};

/* ---- context and layout ------------------------------------------------ */

typedef struct ctx {
    int speed;
    int pivot;             /* PIVOT_* */
    bool charger_engaged;
    int engaged[4];        /* units already engaged per side, cs_facing order */
    cs_asoiaf_attack ordered;    /* the attack of an ordered charge */
    cs_asoiaf_attack disordered; /* the attack of a disordered one */
    double ordered_hits[CS_ASOIAF_MAX_DICE + 1];
    double ordered_wounds[CS_ASOIAF_MAX_DICE + 1];
    double disordered_hits[CS_ASOIAF_MAX_DICE + 1];
    double disordered_wounds[CS_ASOIAF_MAX_DICE + 1];
} ctx;

/* Everything of one trial but the dice. The move and its end are fixed once
 * the charger has pivoted: the die only decides how far along it gets. */
typedef struct layout {
    bool legal;       /* the charge may be declared */
    bool reachable;   /* the straight move touches the target before any stop */
    double needed;    /* its length, when reachable */
    double stop;      /* where a blocker stops the move; INFINITY if none does */
    double alignment; /* percent, for a charge that connects */
    double shift;     /* defender shift, in, for a charge that connects */
} layout;

/* Far enough for any straight move on a scenario (coordinates are within
 * 200" of the origin): the need is measured even beyond speed + 6. */
#define MAX_ADVANCE 1000.0
/* ASOIAF lines of sight are drawn from the front arc, bounded by rays at 45
 * degrees outward from the front corners: a 90 degree field of view. */
#define LOS_ARC 90.0
/* Charge, "Lancer la Distance de Charge": stop 1" from other units and
 * impassable terrain. */
#define SPACING 1.0

static cs_status prepare(const cs_params *p, void *vctx, cs_diag *diag)
{
    ctx *c = vctx;
    memset(c, 0, sizeof *c);
    cs_status st = cs_scenario_check(p->num, P_SCN, diag);
    if (st != CS_OK)
        return st;
    c->speed = (int)p->num[P_SPEED];
    c->pivot = (int)p->num[P_PIVOT];
    c->charger_engaged = p->num[P_CHARGER_ENGAGED] != 0.0;
    for (int f = 0; f < 4; f++)
        c->engaged[f] = (int)p->num[P_ENGAGED_FRONT + f];
    c->ordered = (cs_asoiaf_attack){(int)p->num[P_ATTACK_DICE], (int)p->num[P_HIT],
                                    (int)p->num[P_SAVE], true};
    c->disordered = c->ordered;
    int effect = (int)p->num[P_DISORDERED_EFFECT];
    if (effect == DIS_NO_BONUS)
        c->disordered.reroll_misses = false;
    else if (effect == DIS_NO_ATTACK)
        c->disordered.dice = 0;
    cs_asoiaf_attack_exact(&c->ordered, c->ordered_hits, c->ordered_wounds);
    cs_asoiaf_attack_exact(&c->disordered, c->disordered_hits, c->disordered_wounds);
    return CS_OK;
}

/* ---- geometry helpers ---------------------------------------------------- */

static bool stops_movement(const cs_terrain *t)
{
    return t->kind == CS_TERRAIN_IMPASSABLE || t->kind == CS_TERRAIN_SOLID;
}

/* True when r may stand where it is: it overlaps no other unit and no
 * terrain that blocks movement, nor `also` when given (touching is fine). */
static bool free_spot(const cs_scenario *s, const cs_rect *r, const cs_rect *also)
{
    if (also && cs_geom_rects_overlap(r, also))
        return false;
    for (int i = 0; i < s->n_others; i++)
        if (cs_geom_rects_overlap(r, &s->others[i].r))
            return false;
    cs_poly rp = cs_geom_rect_poly(r);
    for (int i = 0; i < s->n_terrain; i++)
        if (stops_movement(&s->terrain[i]) && cs_geom_polys_overlap(&rp, &s->terrain[i].poly))
            return false;
    return true;
}

/* A drawn unit or terrain piece that would overlap the charger or the target
 * could not stand there: it is left off the table for that trial. */
static void drop_impossible(cs_scenario *s)
{
    const cs_rect *ch = &s->charger.r, *tg = &s->target.r;
    int n = 0;
    for (int i = 0; i < s->n_others; i++)
        if (!cs_geom_rects_overlap(&s->others[i].r, ch) &&
            !cs_geom_rects_overlap(&s->others[i].r, tg))
            s->others[n++] = s->others[i];
    s->n_others = n;
    cs_poly pc = cs_geom_rect_poly(ch), pt = cs_geom_rect_poly(tg);
    n = 0;
    for (int i = 0; i < s->n_terrain; i++)
        if (!cs_geom_polys_overlap(&s->terrain[i].poly, &pc) &&
            !cs_geom_polys_overlap(&s->terrain[i].poly, &pt))
            s->terrain[n++] = s->terrain[i];
    s->n_terrain = n;
}

/* ---- one candidate side ---------------------------------------------------- */

/* Units of the charger's side already engaged on side f: the parameter's
 * abstract count plus friendly units on the table touching the target in
 * that arc. */
static int engaged_on(const ctx *c, const cs_scenario *s, cs_facing f)
{
    int n = c->engaged[f];
    for (int i = 0; i < s->n_others; i++) {
        const cs_unit *u = &s->others[i];
        if (u->kind != CS_UNIT_FRIEND ||
            cs_geom_dist_rect_rect(&u->r, &s->target.r) > CS_GEOM_EPS)
            continue;
        cs_arc_share sh;
        cs_geom_arc_share(&s->target.r, &u->r, &sh);
        if (sh.majority == f)
            n++;
    }
    return n;
}

/* Charge, "Pivoter l'Attaquant": the charger turns about its centre to face
 * the aim point (pivot parameter), keeping the target in sight; a pivot that
 * would lose sight or overlap anything is not made (assumption: the charger
 * then keeps its facing). */
static cs_rect pivoted(const ctx *c, const cs_scenario *s, cs_facing f, const cs_poly *sight,
                       int n_sight)
{
    const cs_rect *ch = &s->charger.r;
    if (c->pivot == PIVOT_NONE)
        return *ch;
    cs_vec2 aim = c->pivot == PIVOT_SIDE_CENTRE ? cs_geom_edge_centre(&s->target.r, f)
                                                : s->target.r.c;
    double turn = cs_geom_facing_of((cs_vec2){aim.x - ch->c.x, aim.y - ch->c.y}) - ch->facing;
    turn = remainder(turn, 360.0);
    if (fabs(turn) <= CS_GEOM_EPS)
        return *ch;
    cs_rect r = cs_geom_pivot(ch, turn);
    if (!free_spot(s, &r, &s->target.r) || !cs_geom_los(&r, LOS_ARC, &s->target.r, sight, n_sight))
        return *ch;
    return r;
}

/* Charge, "S'Aligner sur l'Ennemi": the charger is placed flush against the
 * target's side f (the located arc), centre to centre or at 50% (assumption:
 * its corner on the side's centre, so it covers half of the side and leaves
 * the other half to a second unit), choosing the placement that fits nearest
 * to where it touched. With one unit already on that side only the 50%
 * placements remain. If none fits the defender slides along that side until
 * one of them holds (the least slide that fits); if that fails too the units
 * stay as they touched (alignment 0: "au mieux"). */
static void align(const cs_scenario *s, cs_facing f, int engaged, const cs_rect *at,
                  double *alignment, double *shift)
{
    const cs_rect *tg = &s->target.r;
    const double w = at->width, d = at->depth;
    cs_vec2 e = cs_geom_edge_centre(tg, f);
    cs_vec2 out = {e.x - tg->c.x, e.y - tg->c.y};
    double len = hypot(out.x, out.y);
    out.x /= len;
    out.y /= len;
    /* Flush, the charger faces into the side: forward -out, so its right
     * (forward turned -90 degrees) is rt = (-out.y, out.x). */
    double phi = cs_geom_facing_of((cs_vec2){-out.x, -out.y});
    cs_vec2 rt = {-out.y, out.x};
    double t = (at->c.x - e.x) * rt.x + (at->c.y - e.y) * rt.y;
    double cand[3] = {0.0, -0.5 * w, 0.5 * w};
    int first = engaged >= 1 ? 1 : 0;
    /* Candidates nearest to the touching position first; ties keep the order
     * centre, left, right. */
    int order[3] = {0, 1, 2};
    for (int i = first; i < 3; i++)
        for (int j = i + 1; j < 3; j++)
            if (fabs(cand[order[j]] - t) < fabs(cand[order[i]] - t) - CS_GEOM_EPS) {
                int k = order[i];
                order[i] = order[j];
                order[j] = k;
            }
    for (int i = first; i < 3; i++) {
        double o = cand[order[i]];
        cs_rect r = cs_geom_rect_front_at((cs_vec2){e.x + o * rt.x, e.y + o * rt.y}, w, d, phi);
        if (free_spot(s, &r, tg)) {
            *alignment = o == 0.0 ? 100.0 : 50.0;
            *shift = 0.0;
            return;
        }
    }
    cs_rect stay = cs_geom_rect_front_at((cs_vec2){e.x + t * rt.x, e.y + t * rt.y}, w, d, phi);
    if (free_spot(s, &stay, tg)) {
        /* Sorted by |o - t|, so the slides come smallest first. */
        for (int i = first; i < 3; i++) {
            double slide = t - cand[order[i]];
            cs_rect moved = *tg;
            moved.c.x += slide * rt.x;
            moved.c.y += slide * rt.y;
            if (free_spot(s, &moved, &stay)) {
                *alignment = cand[order[i]] == 0.0 ? 100.0 : 50.0;
                *shift = fabs(slide);
                return;
            }
        }
    }
    *alignment = 0.0;
    *shift = 0.0;
}

/* Charge, "Lancer la Distance de Charge": the charge distance speed + roll
 * touches the target when it reaches the straight move's length. The length
 * comes from geometry on decimal inches, so it may miss a whole number by
 * rounding: reach.h decides, with its documented tolerance (issue 15.4). */
static bool reaches(const ctx *c, const layout *l, int roll)
{
    return l->reachable && cs_reaches((double)(c->speed + roll), l->needed);
}

/* How many of the six rolls connect. */
static int connecting_rolls(const ctx *c, const layout *l)
{
    int n = 0;
    for (int roll = 1; roll <= 6; roll++)
        if (l->legal && reaches(c, l, roll))
            n++;
    return n;
}

/* The charge located in side f: room on that side, the pivot, the straight
 * move and the alignment. */
static void plan_side(const ctx *c, const cs_scenario *s, cs_facing f, const cs_poly *sight,
                      int n_sight, layout *l)
{
    int engaged = engaged_on(c, s, f);
    /* Charge, cible légale: a third unit never engages the same side. */
    if (engaged >= 2)
        return;
    l->legal = true;
    cs_rect r = pivoted(c, s, f, sight, n_sight);
    cs_obstacle obs[CS_SCN_MAX_OTHERS + CS_SCN_MAX_TERRAIN + 1];
    int n_obs = cs_scenario_obstacles(s, true, SPACING, obs);
    cs_advance adv = cs_geom_advance(&r, MAX_ADVANCE, obs, n_obs);
    /* The target is obstacle 0 (gap 0): contact "à un quelconque moment" of
     * the move is a successful charge; any other obstacle stops it 1" away. */
    if (adv.hit == 0) {
        l->reachable = true;
        l->needed = adv.dist;
        cs_rect at = cs_geom_forward(&r, adv.dist);
        align(s, f, engaged, &at, &l->alignment, &l->shift);
    } else if (adv.hit > 0) {
        l->stop = adv.dist;
    }
}

static void plan(const ctx *c, cs_scenario *s, layout *l)
{
    *l = (layout){false, false, NAN, INFINITY, NAN, NAN};
    drop_impossible(s);
    const cs_rect *ch = &s->charger.r, *tg = &s->target.r;
    /* Charge, first paragraph: an engaged unit (in contact with an enemy
     * tray, the target included) cannot charge. */
    if (c->charger_engaged || cs_geom_dist_rect_rect(ch, tg) <= CS_GEOM_EPS)
        return;
    for (int i = 0; i < s->n_others; i++)
        if (s->others[i].kind == CS_UNIT_ENEMY &&
            cs_geom_dist_rect_rect(ch, &s->others[i].r) <= CS_GEOM_EPS)
            return;
    /* Charge, cible légale: the most the charger could move, speed + 6,
     * reaches the target (closest points of the trays). */
    if (!cs_reaches((double)(c->speed + 6), cs_geom_dist_rect_rect(ch, tg)))
        return;
    /* ... and the target is in sight at the start; other units and
     * sight-blocking terrain block it. */
    cs_poly sight[CS_LOS_MAX_BLOCK];
    int n_sight = cs_scenario_sight_blockers(s, sight);
    if (!cs_geom_los(ch, LOS_ARC, tg, sight, n_sight))
        return;
    /* Charge, "Déterminer la Ligne de Vue": the side is the target's arc
     * holding most of the charger's tray; on a 50/50 split the charger
     * chooses, and takes the side with the better chance of connecting
     * (then the one listed first: front, left, right, rear). */
    cs_arc_share sh;
    cs_geom_arc_share(tg, ch, &sh);
    plan_side(c, s, sh.majority, sight, n_sight, l);
    if (sh.tie) {
        layout alt = {false, false, NAN, INFINITY, NAN, NAN};
        plan_side(c, s, sh.tie_with, sight, n_sight, &alt);
        int a = connecting_rolls(c, l), b = connecting_rolls(c, &alt);
        if (b > a || (b == a && alt.legal && !l->legal))
            *l = alt;
    }
}

static void draw_layout(const void *vctx, const double *num, cs_rng *rng, void *vlayout)
{
    (void)rng;
    cs_scenario s;
    cs_scenario_build(num, P_SCN, &s);
    plan(vctx, &s, vlayout);
}

/* ---- the dice ------------------------------------------------------------ */

/* Charge, "Lancer la Distance de Charge": the charger moves the whole charge
 * distance unless it touches the target or stops 1" from a blocker. */
static double moved(const ctx *c, const layout *l, int roll)
{
    return reaches(c, l, roll) ? l->needed : fmin((double)(c->speed + roll), l->stop);
}

static void resolve(const void *vctx, const void *vlayout, cs_rng *rng, cs_trial *out)
{
    const ctx *c = vctx;
    const layout *l = vlayout;
    for (int i = 0; i < M_COUNT; i++)
        out->m[i] = NAN;
    if (!l->legal) {
        out->outcome = O_ILLEGAL;
        out->m[M_WOUNDS_DELIVERED] = 0.0;
        return;
    }
    int roll = cs_rng_die(rng, 6);
    out->m[M_ROLL] = (double)roll;
    out->m[M_MOVED] = moved(c, l, roll);
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
    out->m[disordered ? M_HITS_DISORDERED : M_HITS_ORDERED] = (double)hits;
    out->m[disordered ? M_WOUNDS_DISORDERED : M_WOUNDS_ORDERED] = (double)wounds;
    out->m[M_WOUNDS_DELIVERED] = (double)wounds;
    out->m[M_ALIGNMENT] = l->alignment;
    out->m[M_DEFENDER_SHIFT] = l->shift;
}


static void add_pmf(cs_probs *out, int i, const double *pmf, int n, double w)
{
    for (int k = 0; k <= n; k++)
        cs_probs_add(out, i, (double)k, w * pmf[k]);
}

static void outcome_probabilities(const void *vctx, const void *vlayout, cs_probs *out)
{
    const ctx *c = vctx;
    const layout *l = vlayout;
    memset(out, 0, sizeof *out);
    if (!l->legal) {
        out->p[O_ILLEGAL] = 1.0;
        cs_probs_add(out, M_WOUNDS_DELIVERED, 0.0, 1.0);
        for (int i = 0; i < M_COUNT; i++)
            if (i != M_WOUNDS_DELIVERED)
                out->mean[i] = NAN;
        return;
    }
    const int n = c->ordered.dice;
    const double sixth = 1.0 / 6.0;
    /* Hits and wounds list every count 0..n first, so that wounds delivered
     * can add its failed charges to the 0 entry. */
    for (int k = 0; k <= n; k++) {
        cs_probs_add(out, M_HITS, (double)k, 0.0);
        cs_probs_add(out, M_WOUNDS, (double)k, 0.0);
        cs_probs_add(out, M_WOUNDS_DELIVERED, (double)k, 0.0);
    }
    for (int roll = 1; roll <= 6; roll++) {
        cs_probs_add(out, M_ROLL, (double)roll, sixth);
        cs_probs_add(out, M_MOVED, moved(c, l, roll), sixth);
        if (!reaches(c, l, roll)) {
            out->p[O_FAILED] += sixth;
            cs_probs_add(out, M_WOUNDS_DELIVERED, 0.0, sixth);
            continue;
        }
        bool disordered = roll == 1;
        out->p[disordered ? O_DISORDERED : O_CHARGED] += sixth;
        const double *h = disordered ? c->disordered_hits : c->ordered_hits;
        const double *w = disordered ? c->disordered_wounds : c->ordered_wounds;
        add_pmf(out, M_HITS, h, n, sixth);
        add_pmf(out, M_WOUNDS, w, n, sixth);
        add_pmf(out, disordered ? M_HITS_DISORDERED : M_HITS_ORDERED, h, n, sixth);
        add_pmf(out, disordered ? M_WOUNDS_DISORDERED : M_WOUNDS_ORDERED, w, n, sixth);
        add_pmf(out, M_WOUNDS_DELIVERED, w, n, sixth);
        cs_probs_add(out, M_ALIGNMENT, l->alignment, sixth);
        cs_probs_add(out, M_DEFENDER_SHIFT, l->shift, sixth);
    }
    if (l->reachable)
        cs_probs_add(out, M_DISTANCE_NEEDED, l->needed, 1.0);
    for (int i = 0; i < M_COUNT; i++)
        if (out->pdef[i] == 0.0) {
            out->n[i] = 0;
            out->mean[i] = NAN;
        }
}

static const char doc[] =
    "A Song of Ice and Fire TMG charges (core rules, Charge action; docs/rules/asoiaf.md).\n"
    "Declaration (Charge, cible légale), else `illegal`: the charger is not engaged (the\n"
    "charger_engaged flag, or touching the target or another enemy); the target is within\n"
    "speed + 6 (closest points of the trays: the most the charger could move); it is in\n"
    "line of sight from the charger's front arc (90 degrees, other units and sight-blocking\n"
    "terrain block); the target's side the charger is located in (the arc holding most of\n"
    "its tray) has room: fewer than two units already engaged there (engaged_<side> plus\n"
    "friendly units on the table touching that side).\n"
    "Pivot: the charger turns about its centre to face the centre of the located side\n"
    "(assumption; pivot = target_centre or none), unless that loses sight of the target or\n"
    "overlaps a unit or impassable terrain (then it keeps its facing).\n"
    "Charge distance = speed + D6. The charger moves straight ahead; touching the target at\n"
    "any point is a successful charge; it stops 1\" from any other unit or impassable\n"
    "terrain (then the charge fails: we read \"never declare a charge it cannot\n"
    "potentially accomplish\" as the speed + 6 range check only, so a blocked lane is a\n"
    "failed charge, not an illegal one). A natural 1 is a disordered charge: outcome\n"
    "`disordered` when it still connects, `failed` otherwise.\n"
    "Reaching: speed + roll reaches the straight move's length, and speed + 6 the\n"
    "declaration distance, when it is at least that length less a millionth of an inch\n"
    "(reach.h): decimal distances are exact.\n"
    "50/50 split between two arcs: the charger chooses the side with the higher chance of\n"
    "connecting (the sides differ in room and in the pivot), else the first in the order\n"
    "front, left, right, rear.\n"
    "Align: flush on the located side, centre to centre or 50% (assumption: the charger's\n"
    "corner on the side's centre), the fitting placement nearest to the contact; with one\n"
    "unit already there only 50%; if none fits the defender slides along the side (least\n"
    "slide); if that fails the units stay (alignment 0).\n"
    "Charge attack: attack_dice D6 hitting on hit+, misses re-rolled (the charge bonus),\n"
    "then one save per hit on save+ (7: none); hits and wounds are exact binomials.\n"
    "Assumption (source silent): a disordered charge loses the charge bonus\n"
    "(disordered_effect = no_bonus; none and no_attack are the alternatives).\n"
    "Drawn units or terrain overlapping the charger or the target are left off the table.\n"
    "Metrics: roll, moved and distance_needed (legal charges); hits, wounds, alignment and\n"
    "defender_shift (charges that connect); hits_ordered, wounds_ordered, hits_disordered,\n"
    "wounds_disordered (the connecting charges of each kind); wounds_delivered (every\n"
    "trial, 0 when the charge fails or is illegal: what the charge is worth, for comparing\n"
    "speeds).\n"
    "A War Machine ('cannot Charge or Retreat', the Builder Scorpion Crew's rule in the\n"
    "data) is kept at p 0 by `chargesim units` (its mapping's declare = no).\n";

static void draw(const void *vctx, const double *num, const cs_rng *layout_rng,
                 const void *vlayout, const cs_rng *dice_rng, const cs_trial *tr, cs_drawing *d);
static cs_status map_place(cs_params *p, double x, double y, cs_map_spot *spot,
                            cs_diag *diag);

const cs_ruleset cs_rules_asoiaf = {
    .name = "asoiaf",
    .summary = "A Song of Ice and Fire: speed + D6 straight charge, disordered 1s, charge attack",
    .doc = doc,
    .params = params,
    .n_params = P_COUNT,
    .outcomes = outcomes,
    .outcome_help = outcome_help,
    .n_outcomes = O_COUNT,
    .games = games,
    .n_games = 1,
    .map_keys = cs_scenario_map_keys,
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
    .map_place = map_place,
    .draw = draw,
};

/* ---- the picture of one trial (chargesim draw) ----------------------------- */

static const char *const side_names[] = {"front", "left flank", "right flank", "rear"};

/* The side plan() settled on: the majority arc, or on a 50/50 split the
 * side whose plan is the layout's. */
static cs_facing drawn_side(const ctx *c, const cs_scenario *s, const layout *l)
{
    cs_arc_share sh;
    cs_geom_arc_share(&s->target.r, &s->charger.r, &sh);
    if (!sh.tie)
        return sh.majority;
    cs_poly sight[CS_LOS_MAX_BLOCK];
    int n_sight = cs_scenario_sight_blockers(s, sight);
    layout a = {false, false, NAN, INFINITY, NAN, NAN};
    plan_side(c, s, sh.majority, sight, n_sight, &a);
    bool same = a.legal == l->legal && a.reachable == l->reachable &&
                (a.needed == l->needed || (a.needed != a.needed && l->needed != l->needed)) &&
                a.stop == l->stop;
    return same ? sh.majority : sh.tie_with;
}

/* Where "S'Aligner sur l'Ennemi" put the charger: flush on side f at the
 * placement the layout's alignment names (align() above), nearest first. */
static cs_rect drawn_alignment(const cs_scenario *s, cs_facing f, const cs_rect *at,
                               const layout *l)
{
    const cs_rect *tg = &s->target.r;
    cs_vec2 e = cs_geom_edge_centre(tg, f);
    cs_vec2 out = {e.x - tg->c.x, e.y - tg->c.y};
    double len = hypot(out.x, out.y);
    out.x /= len;
    out.y /= len;
    double phi = cs_geom_facing_of((cs_vec2){-out.x, -out.y});
    cs_vec2 rt = {-out.y, out.x};
    double t = (at->c.x - e.x) * rt.x + (at->c.y - e.y) * rt.y, o = t;
    if (l->alignment == 100.0 && l->shift == 0.0) {
        o = 0.0;
    } else if (l->alignment == 50.0 && l->shift == 0.0) {
        double a = fabs(-0.5 * at->width - t) <= fabs(0.5 * at->width - t) ? -0.5 : 0.5;
        cs_rect r = cs_geom_rect_front_at((cs_vec2){e.x + a * at->width * rt.x,
                                                    e.y + a * at->width * rt.y},
                                          at->width, at->depth, phi);
        o = free_spot(s, &r, tg) ? a * at->width : -a * at->width;
    }
    return cs_geom_rect_front_at((cs_vec2){e.x + o * rt.x, e.y + o * rt.y}, at->width,
                                 at->depth, phi);
}

/* The straight charge move (Charge, "Lancer la Distance de Charge"): the
 * pivot, the move of speed + D6 or to contact or to 1" from a blocker, and
 * the alignment. */
static void draw_move(const ctx *c, const cs_scenario *s, const layout *l, const cs_trial *tr,
                      cs_drawing *d)
{
    cs_facing f = drawn_side(c, s, l);
    cs_poly sight[CS_LOS_MAX_BLOCK];
    int n_sight = cs_scenario_sight_blockers(s, sight);
    cs_rect r = pivoted(c, s, f, sight, n_sight);
    double moved_by = tr->m[M_MOVED];
    cs_rect end = cs_geom_forward(&r, moved_by);
    if (r.facing != s->charger.r.facing)
        cs_drawing_rect(d, CS_DRAW_MOVED, &r, "pivoted");
    cs_vec2 p[2] = {cs_geom_edge_centre(&r, CS_FRONT), cs_geom_edge_centre(&end, CS_FRONT)};
    bool connects = tr->outcome == O_CHARGED || tr->outcome == O_DISORDERED;
    cs_draw_line *ln = cs_drawing_line(d, connects ? CS_DRAW_PATH : CS_DRAW_FAILED, p, 2,
                                       connects ? "charge move: straight, to contact"
                                                : "charge move: straight, speed + D6");
    if (ln)
        ln->arrow = true;
    cs_drawing_caption(d, "Located side: the target's %s (the arc holding most of the "
                          "charger's tray, Determiner la Ligne de Vue)", side_names[f]);
    cs_drawing_caption(d, "Pivot (Pivoter l'Attaquant): %.1f deg; then a straight move of "
                          "%.2f\"", fabs(remainder(r.facing - s->charger.r.facing, 360.0)),
                       moved_by);
    if (!connects) {
        cs_drawing_rect(d, CS_DRAW_FINAL, &end, "stops here");
        if (isfinite(l->stop))
            cs_drawing_caption(d, "Stopped 1\" short of a unit or impassable terrain after "
                                  "%.2f\"", l->stop);
        return;
    }
    cs_rect al = drawn_alignment(s, f, &end, l);
    cs_vec2 a[2] = {p[1], cs_geom_edge_centre(&al, CS_FRONT)};
    if (hypot(a[1].x - a[0].x, a[1].y - a[0].y) > 1e-6 || al.facing != end.facing) {
        cs_drawing_rect(d, CS_DRAW_MOVED, &end, "at contact");
        cs_draw_line *aln = cs_drawing_line(d, CS_DRAW_ALIGN, a, 2, "alignment (S'Aligner)");
        if (aln)
            aln->arrow = true;
    }
    cs_drawing_rect(d, CS_DRAW_FINAL, &al, "aligned");
    cs_drawing_caption(d, "S'Aligner sur l'Ennemi: %.0f%% alignment, defender slid %.2f\"%s",
                       l->alignment, l->shift,
                       tr->outcome == O_DISORDERED ? "; a 1 on the die: disordered charge" : "");
    cs_drawing_caption(d, "Charge attack: %.0f hits, %.0f unsaved", tr->m[M_HITS],
                       tr->m[M_WOUNDS]);
}

static void draw(const void *vctx, const double *num, const cs_rng *layout_rng,
                 const void *vlayout, const cs_rng *dice_rng, const cs_trial *tr, cs_drawing *d)
{
    const ctx *c = vctx;
    const layout *l = vlayout;
    (void)layout_rng;
    (void)dice_rng;
    cs_scenario s;
    cs_scenario_build(num, P_SCN, &s);
    drop_impossible(&s);
    cs_drawing_scenario(d, &s);
    cs_drawing_arcs(d, &s.target.r);
    cs_drawing_sight(d, &s.charger.r, LOS_ARC);
    d->outcome = outcomes[tr->outcome];
    d->rolled = tr->m[M_ROLL] == tr->m[M_ROLL] ? (double)c->speed + tr->m[M_ROLL] : (double)NAN;
    d->needed = l->reachable ? l->needed : (double)NAN;
    cs_drawing_format(d->rolled_what, CS_DRAW_TEXT, "Charge distance, speed %d + D6", c->speed);
    cs_drawing_format(d->needed_what, CS_DRAW_TEXT, "straight move to contact");
    cs_drawing_caption(d, "A Song of Ice and Fire: charge distance speed + D6, moved straight "
                          "(Lancer la Distance de Charge)");
    if (!l->legal) {
        cs_drawing_caption(d, "Charge: not declared (engaged, out of speed + 6, out of sight, "
                              "or the side already holds two units)");
        return;
    }
    draw_move(c, &s, l, tr, d);
}

/* Threat maps (issue 20): the head-on scenario with offset = x and
 * distance = y (scenario.h, cs_scenario_map_place). */
static cs_status map_place(cs_params *p, double x, double y, cs_map_spot *spot, cs_diag *diag)
{
    return cs_scenario_map_place(p, P_SCN, x, y, spot, diag);
}
