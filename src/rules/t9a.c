/* SPDX-License-Identifier: GPL-3.0-or-later */
/* t9a — The Ninth Age charges (The Ninth Age: Fantasy Battles, 3rd edition
 * rulebook, cited below by section; the reading is docs/rules/t9a.md).
 *
 * A trial splits as issue 4 asks: draw_layout does all the geometry of one
 * placement (declaration checks, closest distance, Target Facing, snaking
 * path, align move, the failed charge move for every distance it can take);
 * resolve rolls the dice on it; outcome_probabilities sums the exact dice
 * distributions instead. The range dice (with Maximised / Minimised) are
 * enumerated once per sweep point in prepare, jointly with the highest die
 * that edition 2's failed charge moves. */
#include <math.h>
#include <string.h>

#include "chargesim/drawing.h"
#include "chargesim/geom.h"
#include "chargesim/reach.h"
#include "chargesim/registry.h"
#include "chargesim/scenario.h"
#include "chargesim/t9a.h"

enum { P_EDITION, P_CHARGE_SPEED, P_ADVANCE_RATE, P_MAXIMISED, P_MINIMISED, P_REROLL_ONES,
       P_REROLL_FAILED, P_REACTION, P_UNITS_BLOCK_SIGHT, P_FAILED_DIE, P_SCN, P_COUNT = P_SCN + CS_SCN_N_PARAMS };
enum { ED_3, ED_2 };
enum { REACT_HOLD, REACT_FLEE };
enum { DIE_KEPT, DIE_ROLLED };
enum { O_CHARGED, O_FAILED, O_CAUGHT, O_FLED, O_ILLEGAL, O_COUNT };
enum { M_RANGE, M_DISTANCE, M_PATH_COST, M_WHEEL_ANGLE, M_CONTACT_CHARGER, M_CONTACT_TARGET,
       M_FINAL_GAP, M_COUNT };

#define MAX_EXTRA 3                /* Maximised / Minimised up to 3 each */
#define MAX_DICE (2 + MAX_EXTRA)   /* edition 2 rolls 2D6, plus the extra dice */
#define FRONT_DEPTH 1e-6           /* depth of the charger's front facing as a strip */
#define PI 3.14159265358979323846

static const char *const edition_names[] = {"3", "2", NULL};
static const char *const reaction_names[] = {"hold", "flee", NULL};
static const char *const die_names[] = {"kept", "rolled", NULL};

static const cs_param_def params[P_COUNT] = {
    {"edition", CS_PARAM_CHOICE, "3", "",
     "3: Charge Range D6 + 4 + Charge Speed (3rd ed., Charge Range); 2: 2D6 + Advance Rate", 0, 0,
     edition_names, 0},
    {"charge_speed", CS_PARAM_INT, "0", "in",
     "edition 3: the unit's Charge Speed (Cha) added to D6 + 4; 0 is the published table's case",
     -10, 20, NULL, 0},
    {"advance_rate", CS_PARAM_INT, "4", "in",
     "edition 2: the unit's Advance Rate added to 2D6", 0, 20, NULL, 0},
    {"maximised", CS_PARAM_INT, "0", "",
     "extra D6 rolled for range, the lowest discarded (Dice: Maximised; Swiftstride = 1)", 0,
     MAX_EXTRA, NULL, 0},
    {"minimised", CS_PARAM_INT, "0", "",
     "extra D6 rolled for range, the highest discarded (Dice: Minimised); each cancels one "
     "maximised", 0, MAX_EXTRA, NULL, 0},
    {"reroll_ones", CS_PARAM_BOOL, "false", "",
     "every natural 1 rolled for range is re-rolled once, before Maximised/Minimised discard "
     "(Dice: Rerolling Dice; Greenfire Eyes: 'must reroll any natural rolls of 1')", 0, 0, NULL, 0},
    {"reroll_failed", CS_PARAM_BOOL, "false", "",
     "a range roll that falls short is rolled again, every die, once; the second is final "
     "(Devotees of Tyranny: 'may reroll failed Charge Range rolls', taken whenever it fails)", 0,
     0, NULL, 0},
    {"reaction", CS_PARAM_CHOICE, "hold", "",
     "target's Charge Reaction: hold, or flee 2D6 directly away (Charge Reactions, Flee Move)", 0,
     0, reaction_names, 0},
    {"units_block_sight", CS_PARAM_BOOL, "true", "",
     "other units block Line of Sight (read: every unit of one Height; false: only terrain)",
     0, 0, NULL, CS_PF_ASSUMPTION},
    {"failed_die", CS_PARAM_CHOICE, "kept", "",
     "edition 2's failed charge moves the highest D6 of the range roll: kept dice, or also a "
     "die Minimised discarded", 0, 0, die_names, CS_PF_ASSUMPTION},
    CS_SCENARIO_PARAMS("8", "5", "4", "1", "1", "5", "4", "1", "1"),
};

static const char *const outcomes[O_COUNT] = {"charged", "failed", "caught", "fled", "illegal"};
static const char *const outcome_help[O_COUNT] = {
    "the charge range reached: the charger ends in base contact",
    "declared, but the roll fell short: the charger makes its failed charge move",
    "the target fled, and the charger still reached it: the fleeing unit is destroyed",
    "the target fled out of the charger's reach",
    "may not be declared: beyond the maximum charge range, out of sight, or already engaged",
};
/* The default unit (a charge range of D6 + 4 here) from 4 to 14": the D6's curve. */
static const char *const example = "distance=4..14";
static const cs_game games[] = {
    {"The Ninth Age", NULL, &example}};

static const cs_metric_def metrics[M_COUNT] = {
    {"range_rolled", "in", "the Charge Range rolled (charges declared)", 1.0, 0.0, 40.0,
     CS_METRIC_DIST},
    {"distance", "in", "closest points of the two units at declaration", 0.1, 0.0, 40.0,
     CS_METRIC_DIST},
    {"path_cost", "in",
     "T9A distance of the cheapest snaking path to the Target Facing (forward + w sin(wheel) "
     "+ forward; charges declared)", 0.1, 0.0, 60.0, CS_METRIC_DIST},
    {"wheel_angle", "deg", "size of that path's wheel (charges declared)", 1.0, 0.0, 90.0,
     CS_METRIC_DIST},
    {"contact_charger", "", "charger models in contact after the align move (charged)", 1.0, 0.0,
     40.0, CS_METRIC_DIST},
    {"contact_target", "", "target models in contact after the align move (charged)", 1.0, 0.0,
     40.0, CS_METRIC_DIST},
    {"final_gap", "in", "closest points after the Failed Charge Move (failed)", 0.1, 0.0, 40.0,
     CS_METRIC_DIST},
};

typedef struct t9a_ctx {
    int edition;        /* ED_3 or ED_2 */
    int reaction;       /* REACT_* */
    bool units_block;   /* other units block Line of Sight */
    bool die_rolled;    /* edition 2's failed move: highest of every die rolled */
    int n_dice;         /* dice that count towards the range: 1 (ed 3) or 2 (ed 2) */
    int extra;          /* extra dice rolled: |maximised - minimised| */
    bool keep_high;     /* the extra dice were Maximised: the lowest are discarded */
    int constant;       /* 4 + Charge Speed (ed 3) or Advance Rate (ed 2) */
    int max_range;      /* highest possible range: Declaring Charges' "maximum potential" */
    bool reroll_ones;   /* each natural 1 is re-rolled once before the discard */
    bool reroll_failed; /* a roll that falls short is rolled again, once */
    double joint[13][7]; /* P(kept dice sum to s and the failed charge die is h) */
    double flee[13];    /* P(2D6 = f) */
} t9a_ctx;

typedef struct t9a_layout {
    bool legal;         /* the charge can be declared */
    double distance;    /* closest points, in */
    double path_cost;   /* T9A distance of the snaking path, in */
    double wheel;       /* its wheel, degrees, unsigned */
    int contact_charger, contact_target;
    double gap[7];      /* final gap after a failed charge move: [0] of 4" (ed 3),
                           [h] of h inches (ed 2: the highest die) */
} t9a_layout;

/* ---- geometry ----------------------------------------------------------- */

static double cross(cs_vec2 a, cs_vec2 b)
{
    return a.x * b.y - a.y * b.x;
}

static double dot(cs_vec2 a, cs_vec2 b)
{
    return a.x * b.x + a.y * b.y;
}

static double deg(double rad)
{
    return rad * (180.0 / PI);
}

/* The charger's Front Facing as a strip of negligible depth. 3rd ed., Snaking
 * Forward Move: "Only consider the unit's Front Facing during the whole
 * Manoeuvre ... If the Snaking Move is made as a Charge Move, the Manoeuvre
 * also includes the Align": paths are swept with this strip, and only the
 * final placement uses the whole footprint. */
static cs_rect front_facing(const cs_rect *r)
{
    return cs_geom_rect_front_at(cs_geom_edge_centre(r, CS_FRONT), r->width, FRONT_DEPTH,
                                 r->facing);
}

/* A rectangle given as its four vertices (a terrain piece of the scenario),
 * back as a cs_rect for the path and sweep tests, which take rectangles. */
static cs_rect rect_of_poly(const cs_poly *p)
{
    cs_vec2 e0 = {p->v[1].x - p->v[0].x, p->v[1].y - p->v[0].y};
    cs_vec2 e1 = {p->v[2].x - p->v[1].x, p->v[2].y - p->v[1].y};
    cs_vec2 c = {0.5 * (p->v[0].x + p->v[2].x), 0.5 * (p->v[0].y + p->v[2].y)};
    return cs_geom_rect(c, hypot(e0.x, e0.y), hypot(e1.x, e1.y), deg(atan2(e0.y, e0.x)));
}

/* What a charge or a failed charge may not touch: every other unit (Charge
 * Move: no contact with an enemy other than the target; Unit Spacing: nor
 * with a friend) and impassable or solid terrain. */
static int movement_blockers(const cs_scenario *s, cs_rect *out)
{
    int n = 0;
    for (int i = 0; i < s->n_others; i++)
        out[n++] = s->others[i].r;
    for (int j = 0; j < s->n_terrain; j++)
        if (s->terrain[j].kind != CS_TERRAIN_BLOCKING && s->terrain[j].poly.n == 4)
            out[n++] = rect_of_poly(&s->terrain[j].poly);
    return n;
}

/* Base contact: the Unit Boundaries touch, corner to corner included. The
 * gap is a measured length, so it is read like every other one (reach.h):
 * a gap within CS_REACH_TOL of 0 is contact, i.e. a range of 0 reaches it. */
static bool in_base_contact(double gap)
{
    return cs_reaches(0.0, gap);
}

/* 3rd ed., Declaring Charges: "select one of your units ... that is not
 * Engaged in Combat"; a unit is Engaged in Combat while in base contact with
 * an enemy unit: the target itself (a gap of 0) or another enemy. Friends in
 * contact do not engage it. */
static bool charger_engaged(const cs_scenario *s, double target_gap)
{
    if (in_base_contact(target_gap))
        return true;
    for (int i = 0; i < s->n_others; i++)
        if (s->others[i].kind == CS_UNIT_ENEMY &&
            in_base_contact(cs_geom_dist_rect_rect(&s->charger.r, &s->others[i].r)))
            return true;
    return false;
}

/* Declaring Charges (LoS from the front; room), Charge Range (closest
 * points), Charge Move (the arc of the centre of the charger's Front Facing
 * gives the Target Facing; one Snaking Forward Move of unlimited distance;
 * the Align Move keeping the initial contact point and maximising models in
 * contact, the target's first). The cheapest path is the one taken: its
 * contact point then bounds the align (assumption: the owner's other paths
 * are not searched for a better align). When no flush align exists the
 * charge is Unaligned; its align moves are not modelled and the models at
 * the initial point of contact, one a side, are reported (assumption). */
void cs_t9a_charge_geometry(const cs_scenario *s, bool units_block_sight, cs_t9a_charge *out)
{
    const cs_rect *ch = &s->charger.r, *tg = &s->target.r;
    cs_poly sight_block[CS_LOS_MAX_BLOCK];
    cs_rect blk[CS_SCN_MAX_OTHERS + CS_SCN_MAX_TERRAIN];

    memset(out, 0, sizeof *out);
    out->overlap = cs_geom_rects_overlap(ch, tg);
    out->distance = cs_geom_dist_rect_rect(ch, tg);
    out->engaged = charger_engaged(s, out->distance);
    out->arc = cs_geom_arc_of_point(tg, cs_geom_edge_centre(ch, CS_FRONT));
    if (out->overlap)
        return;
    /* Line of Sight: lines from the Front Facing at most 45 degrees off
     * forward, blocked by opaque terrain and by "models from another unit
     * with a Height ... equal or greater" (assumption: all units of one
     * Height, so every other unit blocks; or none, as asked). */
    int n_sight = 0;
    if (units_block_sight) {
        n_sight = cs_scenario_sight_blockers(s, sight_block);
    } else {
        for (int j = 0; j < s->n_terrain; j++)
            if (s->terrain[j].kind != CS_TERRAIN_IMPASSABLE)
                sight_block[n_sight++] = s->terrain[j].poly;
    }
    out->sight = cs_geom_los(ch, 90.0, tg, sight_block, n_sight);

    int n_blk = movement_blockers(s, blk);
    cs_rect front = front_facing(ch);
    cs_geom_snake(&front, tg, out->arc, blk, n_blk, &out->path);
    out->room = out->path.found && out->path.touches < 0;
    if (!out->room)
        return;
    cs_rect placed = cs_geom_rect_front_at(cs_geom_edge_centre(&out->path.final, CS_FRONT),
                                           ch->width, ch->depth, out->path.final.facing);
    cs_geom_align(&placed, &s->charger.fm, tg, &s->target.fm, out->arc, out->path.contact, blk,
                  n_blk, &out->align);
    out->models_charger = out->align.flush ? out->align.models_charger : 1;
    out->models_target = out->align.flush ? out->align.models_target : 1;
}

static double dist_point_rect(cs_vec2 p, const cs_rect *r)
{
    double d = INFINITY;
    for (int f = CS_FRONT; f <= CS_REAR; f++) {
        double e = cs_geom_dist_point_seg(p, cs_geom_edge(r, (cs_facing)f));
        d = e < d ? e : d;
    }
    return d;
}

/* Whether wheeling the front strip by `turn` touches one of blk. The strip
 * never leaves the disc of radius width (+ its depth) about the pivot
 * corner, so only blockers reaching into that disc are swept. */
static bool wheel_hits_any(const cs_rect *front, double turn, const cs_rect *blk, int n)
{
    cs_vec2 k = cs_geom_corner(front, turn > 0.0 ? CS_CORNER_FL : CS_CORNER_FR);
    for (int i = 0; i < n; i++)
        if (dist_point_rect(k, &blk[i]) <= front->width + 2.0 * FRONT_DEPTH &&
            cs_geom_snake_sweep_hits(front, 0.0, turn, 0.0, &blk[i]))
            return true;
    return false;
}

/* 3rd ed., Failed Charge Move: a Snaking Forward Move of the Failed Charge
 * Distance with no initial forward; wheel towards the intended target until
 * "a forward move would bring the centre of the Charging unit straight
 * towards the centre of the Target Facing", or 90 degrees, or a wheeled
 * distance (outer corner's forward travel, w sin angle) equal to the
 * distance, or just before contact; then forward until the distance is
 * spent or just before contact ("not allowed to move into base contact").
 *
 * The facing condition in closed form: wheeling by phi about pivot corner K
 * keeps the centre line at the signed offset C = cross(fwd, centre - K)
 * (-w/2 about the front-left corner, +w/2 about the front-right one) from K,
 * so it passes through T when |KT| sin(alpha - phi) = C, alpha being the
 * angle from forward to KT: phi = alpha - asin(C / |KT|). */
void cs_t9a_failed_move(const cs_scenario *s, cs_facing f, double dist, cs_t9a_failed *out)
{
    const cs_rect *ch = &s->charger.r, *tg = &s->target.r;
    cs_vec2 t = cs_geom_edge_centre(tg, f);
    cs_vec2 to = {t.x - ch->c.x, t.y - ch->c.y};
    double side = cross(ch->fwd, to), w = ch->width, turn = 0.0;

    if (fabs(side) > CS_GEOM_EPS) {
        double sgn = side > 0.0 ? 1.0 : -1.0;
        cs_vec2 k = cs_geom_corner(ch, sgn > 0.0 ? CS_CORNER_FL : CS_CORNER_FR);
        cs_vec2 u = {t.x - k.x, t.y - k.y};
        double r = hypot(u.x, u.y);
        double cap = dist >= w ? 90.0 : deg(asin(dist / w));
        double want = 90.0; /* T within w/2 of the pivot: never faced, wheel on */
        if (r > 0.5 * w)
            want = sgn * (deg(atan2(cross(ch->fwd, u), dot(ch->fwd, u))) +
                          sgn * deg(asin(0.5 * w / r)));
        want = want < 0.0 ? 0.0 : want;
        turn = sgn * (want < cap ? want : cap);
    }

    cs_rect blk[CS_SCN_MAX_OTHERS + CS_SCN_MAX_TERRAIN + 1];
    int n_blk = movement_blockers(s, blk);
    blk[n_blk++] = *tg;
    cs_rect front = front_facing(ch);
    if (turn != 0.0 && wheel_hits_any(&front, turn, blk, n_blk)) {
        /* Stop just before contact: the largest wheel that touches nothing. */
        double lo = 0.0, hi = turn;
        for (int it = 0; it < 50; it++) {
            double mid = 0.5 * (lo + hi);
            if (wheel_hits_any(&front, mid, blk, n_blk))
                hi = mid;
            else
                lo = mid;
        }
        turn = lo;
    }

    cs_rect wheeled = cs_geom_wheel(ch, turn);
    double left = dist - cs_geom_wheel_cost(w, turn);
    cs_obstacle obs[CS_SCN_MAX_OTHERS + CS_SCN_MAX_TERRAIN + 1];
    int n_obs = cs_scenario_obstacles(s, true, 0.0, obs);
    cs_rect wfront = front_facing(&wheeled);
    cs_advance adv = cs_geom_advance(&wfront, left > 0.0 ? left : 0.0, obs, n_obs);

    out->wheel = turn;
    out->forward = adv.dist;
    out->final = cs_geom_forward(&wheeled, adv.dist);
    out->gap = cs_geom_dist_rect_rect(&out->final, tg);
}

/* ---- dice --------------------------------------------------------------- */

/* Dice, Maximised and Minimised Roll: roll the extra dice and discard the
 * lowest (Maximised) or highest (Minimised) before adding up. face[] is
 * sorted in place; returns the kept sum and stores edition 2's failed
 * charge distance, "the highest single D6 rolled": of the kept dice, or of
 * every die rolled when failed_die = rolled (they differ only where
 * Minimised discarded a higher die; the rulebook is silent: docs/rules/t9a.md). */
static int keep_dice(const t9a_ctx *c, int *face, int *high)
{
    int m = c->n_dice + c->extra;
    for (int i = 1; i < m; i++) {
        int v = face[i], j = i;
        for (; j > 0 && face[j - 1] < v; j--)
            face[j] = face[j - 1];
        face[j] = v;
    }
    int first = c->keep_high ? 0 : c->extra, sum = 0;
    for (int i = first; i < first + c->n_dice; i++)
        sum += face[i];
    *high = c->die_rolled ? face[0] : face[first];
    return sum;
}

/* One Charge Range roll: the dice of the roll and the extra dice of
 * Maximised / Minimised, each natural 1 rolled once more with reroll_ones
 * (Rerolling Dice: "the second result being final"), then keep_dice's
 * discard. Returns the range; *high is the failed charge die. */
static int roll_range(const t9a_ctx *c, cs_rng *rng, int *high)
{
    int face[MAX_DICE];
    for (int i = 0; i < c->n_dice + c->extra; i++) {
        face[i] = cs_rng_die(rng, 6);
        if (c->reroll_ones && face[i] == 1)
            face[i] = cs_rng_die(rng, 6);
    }
    return keep_dice(c, face, high) + c->constant;
}

/* A range of `range` inches reaches `need`: Charge Range "equal to or
 * greater than the distance", decided by reach.h (a distance within
 * CS_REACH_TOL of the range counts as equal: 8.3 - 4.3 is 4, not
 * 4.0000000000000002), in the exact and the sampled path alike. */
static bool reaches(int range, double need)
{
    return cs_reaches((double)range, need);
}

static cs_status prepare(const cs_params *p, void *vctx, cs_diag *diag)
{
    t9a_ctx *c = vctx;
    memset(c, 0, sizeof *c);
    *diag = (cs_diag){0, NULL, NULL};
    cs_status st = cs_scenario_check(p->num, P_SCN, diag);
    if (st != CS_OK)
        return st;

    int net = (int)p->num[P_MAXIMISED] - (int)p->num[P_MINIMISED];
    c->edition = (int)p->num[P_EDITION];
    c->reaction = (int)p->num[P_REACTION];
    c->units_block = p->num[P_UNITS_BLOCK_SIGHT] != 0.0;
    c->die_rolled = (int)p->num[P_FAILED_DIE] == DIE_ROLLED;
    c->n_dice = c->edition == ED_3 ? 1 : 2;
    c->extra = net < 0 ? -net : net;
    c->keep_high = net >= 0;
    c->constant = c->edition == ED_3 ? 4 + (int)p->num[P_CHARGE_SPEED]
                                     : (int)p->num[P_ADVANCE_RATE];
    c->max_range = 6 * c->n_dice + c->constant;
    c->reroll_ones = p->num[P_REROLL_ONES] != 0.0;
    c->reroll_failed = p->num[P_REROLL_FAILED] != 0.0;
    if (c->reroll_ones && c->reroll_failed) {
        /* Rerolling Dice: "a rerolled dice can never be rerolled again", so
         * a failed roll whose 1s were re-rolled could be rolled again only
         * in part; no unit of the data has both rules. Refused, not guessed. */
        *diag = (cs_diag){0, "reroll_failed",
                          "not with reroll_ones: a die re-rolled for its 1 may not be re-rolled "
                          "again (Dice, Rerolling Dice); give one of the two"};
        return CS_EINPUT;
    }

    /* Exact joint law of (kept sum, failed charge die): every one of the
     * 6^m equally likely rolls, m <= 5. */
    int m = c->n_dice + c->extra, total = 1;
    for (int i = 0; i < m; i++)
        total *= 6;
    for (int code = 0; code < total; code++) {
        int face[MAX_DICE], x = code, high;
        double w = 1.0 / (double)total;
        for (int i = 0; i < m; i++, x /= 6) {
            face[i] = x % 6 + 1;
            /* A 1 is rolled once more: a final 1 has 1/36, any other face
             * 1/6 + 1/36 = 7/36, i.e. 1/6 times 1/6 or 7/6. */
            if (c->reroll_ones)
                w *= face[i] == 1 ? 1.0 / 6.0 : 7.0 / 6.0;
        }
        int sum = keep_dice(c, face, &high);
        c->joint[sum][high] += w;
    }
    /* Flee Move: Flee Distance 2D6. */
    for (int a = 1; a <= 6; a++)
        for (int b = 1; b <= 6; b++)
            c->flee[a + b] += 1.0 / 36.0;
    return CS_OK;
}

static void draw_layout(const void *vctx, const double *num, cs_rng *rng, void *vl)
{
    const t9a_ctx *c = vctx;
    t9a_layout *l = vl;
    cs_scenario s;
    cs_t9a_charge g;
    (void)rng;

    memset(l, 0, sizeof *l);
    cs_scenario_build(num, P_SCN, &s);
    cs_t9a_charge_geometry(&s, c->units_block, &g);
    l->distance = g.distance;
    /* Declaring Charges: not Engaged in Combat (so a gap of 0, base
     * contact, is `illegal`, not a charge of 0"), Line of Sight from the
     * front rank, within the maximum potential Charge Range, room to move
     * into base contact. */
    l->legal = !g.engaged && g.sight && g.room && !g.overlap &&
               reaches(c->max_range, g.distance);
    if (!l->legal)
        return;
    l->path_cost = g.path.cost;
    l->wheel = fabs(g.path.wheel);
    l->contact_charger = g.models_charger;
    l->contact_target = g.models_target;
    if (c->reaction == REACT_FLEE)
        return; /* the charger's failed move after a flee is not reported */
    cs_t9a_failed fm;
    if (c->edition == ED_3) {
        cs_t9a_failed_move(&s, g.arc, 4.0, &fm); /* Failed Charge Distance "always 4"" */
        l->gap[0] = fm.gap;
    } else {
        for (int h = 1; h <= 6; h++) {
            cs_t9a_failed_move(&s, g.arc, (double)h, &fm);
            l->gap[h] = fm.gap;
        }
    }
}

static void resolve(const void *vctx, const void *vl, cs_rng *rng, cs_trial *out)
{
    const t9a_ctx *c = vctx;
    const t9a_layout *l = vl;

    for (int m = 0; m < M_COUNT; m++)
        out->m[m] = (double)NAN;
    out->m[M_DISTANCE] = l->distance;
    if (!l->legal) {
        out->outcome = O_ILLEGAL;
        return;
    }
    out->m[M_PATH_COST] = l->path_cost;
    out->m[M_WHEEL_ANGLE] = l->wheel;

    int high, range = roll_range(c, rng, &high);

    if (c->reaction == REACT_FLEE) {
        /* The gap grows by exactly the flee distance (docs/rules/t9a.md: the target
         * pivots in place and flees directly away); reaching it catches the
         * fleeing unit, which is then destroyed. */
        int flee = cs_rng_die(rng, 6) + cs_rng_die(rng, 6);
        if (c->reroll_failed && !reaches(range, l->distance + (double)flee))
            range = roll_range(c, rng, &high);
        out->m[M_RANGE] = (double)range;
        out->outcome = reaches(range, l->distance + (double)flee) ? O_CAUGHT : O_FLED;
        return;
    }
    if (c->reroll_failed && !reaches(range, l->distance))
        range = roll_range(c, rng, &high);
    out->m[M_RANGE] = (double)range;
    if (reaches(range, l->distance)) {
        out->outcome = O_CHARGED;
        out->m[M_CONTACT_CHARGER] = (double)l->contact_charger;
        out->m[M_CONTACT_TARGET] = (double)l->contact_target;
    } else {
        out->outcome = O_FAILED;
        out->m[M_FINAL_GAP] = l->gap[c->edition == ED_3 ? 0 : high];
    }
}

/* P(one roll falls short of need). */
static double p_short(const t9a_ctx *c, double need)
{
    double fail = 0.0;
    for (int s = 0; s <= 12; s++)
        if (!reaches(s + c->constant, need))
            for (int h = 1; h <= 6; h++)
                fail += c->joint[s][h];
    return fail;
}

/* reroll_failed, exactly: a first roll that reaches stands; one that falls
 * short (probability `fail`) gives way to a second roll, which is final. So
 * the final roll is (s, h) with probability joint[s][h] ([reaches] + fail).
 * Against a fleeing target the roll is made once the flee is known: one
 * such law per flee distance. */
static void probabilities_rerolled(const t9a_ctx *c, const t9a_layout *l, cs_probs *pr)
{
    bool flee = c->reaction == REACT_FLEE;
    double success = 0.0, failure = 0.0;
    for (int f = flee ? 2 : 0; f <= (flee ? 12 : 0); f++) {
        double pf = flee ? c->flee[f] : 1.0, need = l->distance + (double)f;
        double fail = p_short(c, need);
        for (int s = 0; s <= 12; s++) {
            int range = s + c->constant;
            bool hit = reaches(range, need);
            for (int h = 1; h <= 6; h++) {
                double q = pf * c->joint[s][h] * ((hit ? 1.0 : 0.0) + fail);
                if (q == 0.0)
                    continue;
                cs_probs_add(pr, M_RANGE, (double)range, q);
                if (hit) {
                    success += q;
                } else {
                    failure += q;
                    if (!flee)
                        cs_probs_add(pr, M_FINAL_GAP, l->gap[c->edition == ED_3 ? 0 : h], q);
                }
            }
        }
    }
    pr->p[flee ? O_CAUGHT : O_CHARGED] = success;
    pr->p[flee ? O_FLED : O_FAILED] = failure;
    if (!flee) {
        cs_probs_add(pr, M_CONTACT_CHARGER, (double)l->contact_charger, success);
        cs_probs_add(pr, M_CONTACT_TARGET, (double)l->contact_target, success);
    }
}

static void outcome_probabilities(const void *vctx, const void *vl, cs_probs *pr)
{
    const t9a_ctx *c = vctx;
    const t9a_layout *l = vl;

    /* Every metric is given exactly: an empty distribution is "never
     * defined" (mean and P(defined) 0), so the estimators sample none. */
    for (int m = 0; m < M_COUNT; m++) {
        pr->n[m] = 0;
        pr->mean[m] = 0.0;
        pr->pdef[m] = 0.0;
    }
    for (int o = 0; o < O_COUNT; o++)
        pr->p[o] = 0.0;
    cs_probs_add(pr, M_DISTANCE, l->distance, 1.0);
    if (!l->legal) {
        pr->p[O_ILLEGAL] = 1.0;
        return;
    }
    cs_probs_add(pr, M_PATH_COST, l->path_cost, 1.0);
    cs_probs_add(pr, M_WHEEL_ANGLE, l->wheel, 1.0);
    if (c->reroll_failed) {
        probabilities_rerolled(c, l, pr);
        return;
    }

    double success = 0.0, failure = 0.0;
    for (int s = 0; s <= 12; s++) {
        int range = s + c->constant;
        for (int h = 1; h <= 6; h++) {
            double q = c->joint[s][h];
            if (q == 0.0)
                continue;
            cs_probs_add(pr, M_RANGE, (double)range, q);
            if (c->reaction == REACT_FLEE) {
                double caught = 0.0;
                for (int f = 2; f <= 12; f++)
                    if (reaches(range, l->distance + (double)f))
                        caught += c->flee[f];
                success += q * caught;
                failure += q * (1.0 - caught);
            } else if (reaches(range, l->distance)) {
                success += q;
            } else {
                failure += q;
                cs_probs_add(pr, M_FINAL_GAP, l->gap[c->edition == ED_3 ? 0 : h], q);
            }
        }
    }
    if (c->reaction == REACT_FLEE) {
        pr->p[O_CAUGHT] = success;
        pr->p[O_FLED] = failure;
    } else {
        pr->p[O_CHARGED] = success;
        pr->p[O_FAILED] = failure;
        cs_probs_add(pr, M_CONTACT_CHARGER, (double)l->contact_charger, success);
        cs_probs_add(pr, M_CONTACT_TARGET, (double)l->contact_target, success);
    }
}

static void draw(const void *vctx, const double *num, const cs_rng *layout_rng,
                 const void *vl, const cs_rng *dice_rng, const cs_trial *tr, cs_drawing *d);
static cs_status map_place(cs_params *p, double x, double y, cs_map_spot *spot,
                            cs_diag *diag);

const cs_ruleset cs_rules_t9a = {
    .name = "t9a",
    .summary = "The Ninth Age: charge range, snaking charge move, align, failed charge, flee",
    .doc =
        "Readings (The Ninth Age: Fantasy Battles, 3rd edition rulebook, by section;\n"
        "the project's account: docs/rules/t9a.md):\n"
        "- Charge Range: edition 3 rolls D6 + 4 + charge_speed; edition 2 rolls 2D6 +\n"
        "  advance_rate. Dice, Maximised/Minimised: each extra D6 is rolled and the lowest\n"
        "  (maximised) or highest (minimised) discarded; one of each cancels. Swiftstride is\n"
        "  maximised = 1.\n"
        "- Re-rolls (Dice, Rerolling Dice: the die is rolled again, 'the second result\n"
        "  being final'): reroll_ones re-rolls every natural 1 of the range roll, the\n"
        "  extra dice of Maximised/Minimised included, before the discard (Greenfire\n"
        "  Eyes: 'must reroll any natural rolls of 1 when rolling for Charge Range').\n"
        "  reroll_failed rolls a range that falls short again, every die, once\n"
        "  (Devotees of Tyranny: 'may reroll failed Charge Range rolls'; taken whenever\n"
        "  the roll fails, against a fleeing target once the flee is rolled); range_rolled\n"
        "  is the final roll. Both together are refused: a re-rolled die may not be\n"
        "  re-rolled again.\n"
        "- Units that may not declare Charges are kept at p 0 by `chargesim units` (its\n"
        "  mapping's declare = no): War Machine ('cannot ... declare Charges') and Random\n"
        "  Movement ('cannot declare Charges in the Charge Phase').\n"
        "- Declaring Charges (else `illegal`): the charger is not Engaged in Combat, i.e.\n"
        "  not in base contact with the target or another enemy unit ('select one of your\n"
        "  units ... that is not Engaged in Combat'): units at a gap of 0 (within 1e-6\n"
        "  inch, corner to corner included) cannot charge each other. Line of Sight from\n"
        "  the front (lines from the front edge within 45 degrees of forward; opaque\n"
        "  terrain blocks it, other units too unless units_block_sight = false:\n"
        "  assumption, all units of one Height), the distance within the maximum\n"
        "  potential range, and room: a snaking path to the Target Facing touching no\n"
        "  other unit (enemy or friend) nor impassable terrain. Units that overlap are\n"
        "  illegal too.\n"
        "- Success (`charged`): range >= the distance between the units' closest points\n"
        "  (Measuring Distances), with room for the charge and align move. The wheel's cost\n"
        "  never decides: it is reported as path_cost.\n"
        "- Charge Move: the Target Facing is the facing of the target's arc holding the\n"
        "  centre of the charger's front edge (arcs: rays at 135 degrees from each corner; a\n"
        "  boundary counts as flank). One Snaking Forward Move of unlimited distance\n"
        "  (forward, one wheel of at most 90 degrees about a front corner, forward) brings\n"
        "  the front edge onto the Target Facing; only the Front Facing is swept (Snaking\n"
        "  Forward Move: 'Only consider the unit's Front Facing ... also includes the\n"
        "  Align'). The cheapest path is taken (cost forward + w sin(wheel) + forward).\n"
        "- Align Move: flush against the Target Facing keeping the initial contact point,\n"
        "  maximising target models in contact, then charger models; corner to corner\n"
        "  counts (Base Contact). Assumptions: the owner's other paths are not searched for\n"
        "  a better contact point; an Unaligned Charge (no flush placement) reports one\n"
        "  model a side, its align moves are not modelled.\n"
        "- Failed Charge Move (`failed`): edition 3, 4\"; edition 2, the highest D6 of the\n"
        "  range roll (failed_die: the kept dice by default, an assumption; Minimised may\n"
        "  have discarded a higher one). No initial forward; wheel towards the centre of\n"
        "  the Target Facing until the unit's centre would move straight at it, 90\n"
        "  degrees, a wheel cost (outer corner's forward travel, w sin(angle)) of the whole\n"
        "  distance, or just before contact; then forward for the rest, stopping just\n"
        "  before contact (final_gap 0 then). Edition 2 moves the same way (assumption).\n"
        "- Reaction flee: the target flees 2D6 directly away; the gap grows by exactly the\n"
        "  flee distance (Flee Move). Range >= distance + flee: `caught` (the fleeing unit is\n"
        "  destroyed: a success), else `fled`. Table edges are not modelled, and neither is\n"
        "  the charger's failed move after a flee (no final_gap then).\n"
        "- Reaches: range >= distance - 1e-6 inch (CS_REACH_TOL, reach.h; a millionth of\n"
        "  an inch is equality, so decimal distances such as 8.3\" are never flipped by\n"
        "  binary floating point), for the declaration limit, the charge and the flee.\n"
        "Exact: outcome probabilities and every metric's distribution given the layout\n"
        "(methods exact / conditional); the dice are enumerated, 6^5 rolls at most.",
    .params = params,
    .n_params = P_COUNT,
    .outcomes = outcomes,
    .outcome_help = outcome_help,
    .n_outcomes = O_COUNT,
    .games = games,
    .n_games = 1,
    .map_keys = cs_scenario_map_keys,
    .success_mask = (1u << O_CHARGED) | (1u << O_CAUGHT),
    .metrics = metrics,
    .n_metrics = M_COUNT,
    .ctx_size = sizeof(t9a_ctx),
    .layout_size = sizeof(t9a_layout),
    .prepare = prepare,
    .layout_is_random = NULL,
    .draw_layout = draw_layout,
    .resolve = resolve,
    .outcome_probabilities = outcome_probabilities,
    .map_place = map_place,
    .draw = draw,
};

/* ---- the picture of one trial (chargesim draw) -------------------------- */

static const char *const facing_names[] = {"front", "left", "right", "rear"};

/* Why a charge could not be declared (Declaring Charges). */
static void draw_illegal(const t9a_ctx *c, const cs_t9a_charge *g, cs_drawing *d)
{
    if (g->overlap)
        cs_drawing_caption(d, "Declaring Charges: the units overlap, no position the game allows");
    else if (!g->sight)
        cs_drawing_caption(d, "Declaring Charges: no Line of Sight from the charger's front");
    else if (!reaches(c->max_range, g->distance))
        cs_drawing_caption(d, "Declaring Charges: %.2f\" is beyond the maximum potential "
                              "Charge Range of %d\"", g->distance, c->max_range);
    else
        cs_drawing_caption(d, "Declaring Charges: no room for a snaking path to the %s facing",
                           facing_names[g->arc]);
}

/* The whole unit behind a front facing moved as a strip (FRONT_DEPTH). */
static cs_rect full_depth(const cs_rect *front, double depth)
{
    return cs_geom_rect_front_at(cs_geom_edge_centre(front, CS_FRONT), front->width, depth,
                                 front->facing);
}

/* The Snaking Forward Move to contact and the Align Move after it. */
static void draw_charged(const cs_t9a_charge *g, const cs_scenario *s, cs_drawing *d)
{
    const cs_snake *p = &g->path;
    double depth = s->charger.r.depth;
    cs_rect at = full_depth(&p->final, depth), aligned = full_depth(&g->align.final, depth);
    cs_draw_line *l = cs_drawing_line(d, CS_DRAW_PATH, NULL, 0,
                                      "Snaking Forward Move (forward, wheel, forward)");
    cs_drawing_line_wheel(l, &s->charger.r, p->forward1, p->wheel, p->forward2);
    if (l)
        l->arrow = true;
    if (p->wheel != 0.0) {
        cs_rect at1 = cs_geom_forward(&s->charger.r, p->forward1);
        cs_drawing_rect(d, CS_DRAW_MOVED, &at1, "wheels here");
    }
    cs_drawing_mark(d, p->contact, "contact");
    cs_vec2 moved_by = {aligned.c.x - at.c.x, aligned.c.y - at.c.y};
    if (g->align.flush && (hypot(moved_by.x, moved_by.y) > 1e-6 || aligned.facing != at.facing)) {
        cs_vec2 a[2] = {cs_geom_edge_centre(&at, CS_FRONT),
                        cs_geom_edge_centre(&aligned, CS_FRONT)};
        cs_drawing_rect(d, CS_DRAW_MOVED, &at, "at contact");
        cs_draw_line *al = cs_drawing_line(d, CS_DRAW_ALIGN, a, 2, "Align Move");
        if (al)
            al->arrow = true;
        cs_drawing_rect(d, CS_DRAW_FINAL, &aligned, "aligned");
    } else if (g->align.flush) {
        cs_drawing_rect(d, CS_DRAW_FINAL, &aligned, "aligned (no align move needed)");
    } else {
        cs_drawing_rect(d, CS_DRAW_FINAL, &at, "at contact");
    }
    cs_drawing_caption(d, "Snaking Forward Move: forward %.2f\", wheel %.1f deg, forward %.2f\" "
                          "(T9A distance %.2f\")", p->forward1, fabs(p->wheel), p->forward2,
                       p->cost);
    if (g->align.flush)
        cs_drawing_caption(d, "Align Move: flush on the %s facing, %d charger and %d target "
                              "models in contact", facing_names[g->arc], g->models_charger,
                           g->models_target);
    else
        cs_drawing_caption(d, "Unaligned Charge: no flush placement, one model a side");
}

/* The Failed Charge Move of `dist` inches towards the Target Facing. */
static void draw_failed(const cs_t9a_charge *g, const cs_scenario *s, double dist,
                        cs_drawing *d)
{
    cs_t9a_failed fm;
    cs_t9a_failed_move(s, g->arc, dist, &fm);
    cs_draw_line *l = cs_drawing_line(d, CS_DRAW_FAILED, NULL, 0, "Failed Charge Move");
    cs_drawing_line_wheel(l, &s->charger.r, 0.0, fm.wheel, fm.forward);
    if (l)
        l->arrow = true;
    cs_rect after = full_depth(&fm.final, s->charger.r.depth);
    cs_drawing_rect(d, CS_DRAW_FINAL, &after, "after the failed move");
    cs_drawing_caption(d, "Failed Charge Move: %.0f\" (wheel %.1f deg, forward %.2f\"), "
                          "final gap %.2f\"", dist, fabs(fm.wheel), fm.forward, fm.gap);
}

/* The table as draw_layout saw it, the charge as resolve settled it. The
 * dice are rolled again from the trial's stream, exactly as resolve rolls
 * them, for edition 2's failed charge die. */
static void draw(const void *vctx, const double *num, const cs_rng *layout_rng,
                 const void *vl, const cs_rng *dice_rng, const cs_trial *tr, cs_drawing *d)
{
    (void)layout_rng;
    const t9a_ctx *c = vctx;
    const t9a_layout *l = vl;
    cs_scenario s;
    cs_t9a_charge g;
    cs_scenario_build(num, P_SCN, &s);
    cs_t9a_charge_geometry(&s, c->units_block, &g);
    cs_drawing_scenario(d, &s);
    cs_drawing_arcs(d, &s.target.r);
    cs_drawing_sight(d, &s.charger.r, 90.0);
    d->outcome = outcomes[tr->outcome];
    d->needed = l->distance;
    cs_drawing_format(d->needed_what, CS_DRAW_TEXT, "closest points, Measuring Distances");
    if (c->edition == ED_3)
        cs_drawing_format(d->rolled_what, CS_DRAW_TEXT, "Charge Range D6 + %d", c->constant);
    else
        cs_drawing_format(d->rolled_what, CS_DRAW_TEXT, "Charge Range 2D6 + %d", c->constant);
    cs_drawing_caption(d, "The Ninth Age, edition %s: Target Facing %s (the arc holding the "
                          "centre of the charger's front)", c->edition == ED_3 ? "3" : "2",
                       facing_names[g.arc]);
    if (!l->legal) {
        draw_illegal(c, &g, d);
        return;
    }
    d->rolled = tr->m[M_RANGE];
    if (c->reaction == REACT_FLEE) {
        cs_drawing_caption(d, "Flee: the target flees 2D6 directly away; the range must "
                              "reach the distance plus the flee");
        return;
    }
    if (tr->outcome == O_CHARGED) {
        draw_charged(&g, &s, d);
        return;
    }
    cs_rng r = *dice_rng;
    int high, range = roll_range(c, &r, &high);
    if (c->reroll_failed && !reaches(range, l->distance))
        roll_range(c, &r, &high);
    draw_failed(&g, &s, c->edition == ED_3 ? 4.0 : (double)high, d);
}

/* Threat maps (issue 20): the head-on scenario with offset = x and
 * distance = y (scenario.h, cs_scenario_map_place). */
static cs_status map_place(cs_params *p, double x, double y, cs_map_spot *spot, cs_diag *diag)
{
    return cs_scenario_map_place(p, P_SCN, x, y, spot, diag);
}
