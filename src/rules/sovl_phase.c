/* SPDX-License-Identifier: GPL-3.0-or-later */
/* SOVL charge phase: the declarations (alternating, with counter charges,
 * Charge Intercepts and Flee From Charge) and the placements at resolution,
 * deterministic given the layout (SOVL Charge Phase; docs/rules/sovl.md). */
#include <math.h>
#include <stddef.h>

#include "chargesim/geom.h"
#include "chargesim/reach.h"
#include "sovl_internal.h"

/* ---- Geometry helpers geom.h does not provide ---- */

/* The direction the charger faces when flush against side f of a target
 * facing t_facing: opposite to that side's outward normal. */
static double facing_against(double t_facing, cs_facing f)
{
    switch (f) {
    case CS_FRONT: return t_facing + 180.0;
    case CS_LEFT: return t_facing - 90.0;
    case CS_RIGHT: return t_facing + 90.0;
    case CS_REAR: return t_facing;
    }
    return t_facing;
}

/* ---- The declarations ---- */

/* One possible declaration of a player's turn. */
enum { OPT_CHARGE, OPT_COUNTER, OPT_FLEE };

typedef struct option {
    int kind;
    int u, t;
    cs_facing side;
    double dist;
} option;

static bool is_flank_or_rear(cs_facing f)
{
    return f != CS_FRONT;
}

/* Charge distance a is shorter than b: two measured lengths within
 * CS_REACH_TOL of each other are equal (reach.h), so equal decimal distances
 * reached through different geometry tie. */
static bool shorter(double a, double b)
{
    return a < b - CS_REACH_TOL;
}

/* Charge Priority (SOVL Charge Phase "Charge Intercept"): "A shorter
 * charge distance has higher priority"; "A charge against the side or rear
 * of a unit has higher priority than one against the front". The page lists
 * distance first; which criterion decides first is the `priority` parameter
 * (docs/rules/sovl.md: shorter distance first, then flank/rear). True when charge 1
 * has strictly higher priority than charge 0. */
static bool outranks(const charge_ctx *c, double d1, cs_facing s1, double d0, cs_facing s0)
{
    bool f1 = is_flank_or_rear(s1), f0 = is_flank_or_rear(s0);
    if (c->priority == PRIO_DISTANCE_FIRST) {
        if (shorter(d1, d0))
            return true;
        if (shorter(d0, d1))
            return false;
        return f1 && !f0;
    }
    if (f1 != f0)
        return f1;
    return shorter(d1, d0);
}

/* Base contact: the two footprints touch (closest points within
 * CS_REACH_TOL of 0, corner to corner included: a range of 0 reaches the
 * gap). SOVL Combat Phase "Resolve Engagements": "Each grouping of two or
 * more units in base contact is considered an Engagement". */
static bool in_base_contact(const cs_rect *a, const cs_rect *b)
{
    return cs_reaches(0.0, cs_geom_dist_rect_rect(a, b));
}

/* Unit u is engaged in combat: in base contact with an enemy unit (at the
 * positions charges are declared from). */
static bool engaged(const charge_ctx *c, const phase *ph, int u)
{
    for (int k = 0; k < MAX_UNITS; k++)
        if (c->present[k] && side_of_unit(k) != side_of_unit(u) &&
            in_base_contact(&ph->pos[u], &ph->pos[k]))
            return true;
    return false;
}

/* True when the charger footprint r would overlap a unit other than the
 * charger u and target t (fleeing units are leaving and do not count) or
 * impassable terrain. */
static bool placement_blocked(const charge_ctx *c, const phase *ph, int u, int t, const cs_rect *r)
{
    for (int k = 0; k < MAX_UNITS; k++) {
        if (!c->present[k] || k == u || k == t || ph->fled[k])
            continue;
        if (cs_geom_rects_overlap(r, &ph->pos[k]))
            return true;
    }
    cs_poly rp = cs_geom_rect_poly(r);
    for (int j = 0; j < c->n_terrain; j++)
        if (c->ter[j].kind != TERRAIN_BLOCKING && cs_geom_polys_overlap(&rp, &c->ter[j].poly))
            return true;
    return false;
}

/* SOVL Charge Phase: "there also needs to be enough space in base contact
 * to place the charger", and at resolution "The charger should be centered
 * against the target if possible. If it's blocked by terrain or other units,
 * place it in a way that maximises base contact." The charger is placed flush
 * against side f, shifted by s along it; the contact length depends on |s|
 * alone and never grows with it, so the free shift of least |s| maximises
 * contact. Shifts are scanned in 0.1" steps, then the first free one is
 * refined by bisection against the blocked one before it. Returns false when
 * no shift keeps any contact. */
static bool find_room(const charge_ctx *c, const phase *ph, int u, int t, cs_facing f,
                      cs_rect *out)
{
    const cs_rect *tr = &ph->pos[t];
    cs_seg e = cs_geom_edge(tr, f);
    double len = hypot(e.b.x - e.a.x, e.b.y - e.a.y);
    cs_vec2 dir = {(e.b.x - e.a.x) / len, (e.b.y - e.a.y) / len};
    cs_vec2 mid = {0.5 * (e.a.x + e.b.x), 0.5 * (e.a.y + e.b.y)};
    double facing = facing_against(tr->facing, f);
    const unit_def *ud = &c->u[u];
    double reach = 0.5 * (len + ud->width) - CS_GEOM_EPS;
#define AT(s) cs_geom_rect_front_at((cs_vec2){mid.x + (s) * dir.x, mid.y + (s) * dir.y}, \
                                    ud->width, ud->depth, facing)
    cs_rect r = AT(0.0);
    if (!placement_blocked(c, ph, u, t, &r)) {
        *out = r;
        return true;
    }
    const double step = 0.1;
    double prev = 0.0;
    for (int i = 1; prev < reach; i++) {
        double a = fmin((double)i * step, reach);
        for (int sg = 1; sg >= -1; sg -= 2) {
            r = AT(sg * a);
            if (placement_blocked(c, ph, u, t, &r))
                continue;
            double lo = prev, hi = a;
            for (int k = 0; k < 30; k++) {
                double m = 0.5 * (lo + hi);
                cs_rect rm = AT(sg * m);
                if (placement_blocked(c, ph, u, t, &rm))
                    lo = m;
                else {
                    hi = m;
                    r = rm;
                }
            }
            *out = r;
            return true;
        }
        prev = a;
    }
#undef AT
    return false;
}

/* Line of sight for a charge (SOVL Charge Phase: the target must be in
 * "Line of Sight of the charger"; SOVL Setup and Deployment: forests,
 * cliffs and buildings block it). centre_line: the range line crosses no
 * blocking terrain. any_part: no blocking terrain enters the region swept by
 * the lines from the charger's front edge to the target side (their convex
 * hull). Units do not block (the pages name only terrain). */
static bool sight_clear(const charge_ctx *c, const cs_rect *ur, const cs_rect *tr, cs_facing f)
{
    cs_seg line = {cs_geom_edge_centre(ur, CS_FRONT), cs_geom_edge_centre(tr, f)};
    cs_poly hull;
    if (c->los_block == BLOCK_ANY_PART) {
        cs_seg fe = cs_geom_edge(ur, CS_FRONT), te = cs_geom_edge(tr, f);
        cs_vec2 pts[4] = {fe.a, fe.b, te.a, te.b};
        hull.n = cs_geom_hull(pts, 4, hull.v); /* room for 2 x 4 <= CS_POLY_MAX */
    }
    for (int j = 0; j < c->n_terrain; j++) {
        if (c->ter[j].kind == TERRAIN_IMPASSABLE)
            continue;
        if (c->los_block == BLOCK_ANY_PART && hull.n >= 3) {
            if (cs_geom_polys_overlap(&hull, &c->ter[j].poly))
                return false;
        } else if (cs_geom_seg_crosses_poly(line, &c->ter[j].poly)) {
            return false;
        }
    }
    return true;
}

/* The static part of "Valid Target" for charger u and target t: not in base
 * contact with the charger (a gap of 0: the two already form an Engagement,
 * SOVL Combat Phase, and "If a side of a unit is already engaged ... it's
 * not a valid target for a new charge", SOVL Charge Phase "Charge Side";
 * the charge is then never declared, so the focus charge reports
 * `illegal`, the outcome for "no valid target"), the side by
 * the majority of the charger in the target's arcs ("check wich side arc
 * contains a majority of the charging unit"; on an exact tie both sides are
 * candidates and the charger takes the better valid one), in range ("Charge
 * range is the same as the units movement speed and is measured from the
 * front center of the charger to the center of the side of the target"),
 * the side centre in the line-of-sight arc, sight not blocked, and room in
 * base contact. Units already overlapping cannot charge each other. */
static void pair_geometry(const charge_ctx *c, phase *ph, int u, int t)
{
    ph->n_cand[u][t] = 0;
    const cs_rect *ur = &ph->pos[u], *tr = &ph->pos[t];
    cs_arc_share sh;
    cs_geom_arc_share(tr, ur, &sh);
    if (sh.overlap > CS_GEOM_EPS || in_base_contact(ur, tr))
        return;
    cs_facing sides[2] = {sh.majority, sh.tie_with};
    for (int k = 0; k < (sh.tie ? 2 : 1); k++) {
        cs_facing f = sides[k];
        double d = cs_geom_front_to_facing(ur, tr, f);
        if (!cs_reaches((double)c->u[u].move, d))
            continue;
        if (!cs_geom_in_fov(ur, c->los_arc, cs_geom_edge_centre(tr, f)))
            continue;
        if (!sight_clear(c, ur, tr, f))
            continue;
        cs_rect room;
        if (!find_room(c, ph, u, t, f, &room))
            continue;
        int n = ph->n_cand[u][t]++;
        ph->cand_side[u][t][n] = f;
        ph->cand_dist[u][t][n] = d;
    }
}

static int incoming(const phase *ph, int u)
{
    int n = 0;
    for (int f = 0; f < 4; f++)
        n += ph->against[u][f] >= 0;
    return n;
}

/* An ordinary charge (or Charge Intercept) of u against t, the best of the
 * candidate sides still valid now: the side free ("If a side of a unit is
 * already engaged or has a charge declared against it, it's not a valid
 * target"), the target not fleeing (assumption: a unit that declared Flee
 * From Charge is leaving the fight and takes no new charges), and a target
 * that has declared a charge only when the new charge has higher Charge
 * Priority ("Charge Intercept"). */
static bool charge_option(const charge_ctx *c, const phase *ph, int u, int t, option *out)
{
    if (ph->fled[t])
        return false;
    bool found = false;
    for (int k = 0; k < ph->n_cand[u][t]; k++) {
        cs_facing f = ph->cand_side[u][t][k];
        double d = ph->cand_dist[u][t][k];
        if (ph->against[t][f] >= 0)
            continue;
        int a = ph->active[t];
        if (a >= 0 && !outranks(c, d, f, ph->ch[a].dist, ph->ch[a].side))
            continue;
        if (!found || outranks(c, d, f, out->dist, out->side)) {
            *out = (option){OPT_CHARGE, u, t, f, d};
            found = true;
        }
    }
    return found;
}

/* SOVL Charge Phase "Counter Charge": "if a unit has an incoming charge in
 * the front, and no other charges against the flanks or rear, it is allowed
 * to declare a Counter Charge ... against the incoming charger, and needs to
 * be in charge range." Range is measured front-edge centre to front-edge
 * centre, as the two units will turn to face each other; no arc or sight
 * test (the rule asks for range only). */
static bool counter_option(const charge_ctx *c, const phase *ph, int u, option *out)
{
    int k = ph->against[u][CS_FRONT];
    if (k < 0 || incoming(ph, u) != 1 || ph->active[u] >= 0 || ph->fled[u])
        return false;
    int v = ph->ch[k].u;
    if (ph->against[v][CS_FRONT] >= 0)
        return false;
    double d = cs_geom_front_to_facing(&ph->pos[u], &ph->pos[v], CS_FRONT);
    if (!cs_reaches((double)c->u[u].move, d))
        return false;
    *out = (option){OPT_COUNTER, u, v, CS_FRONT, d};
    return true;
}

/* SOVL Charge Phase "Fleeing from a Charge": one enemy unit has declared a
 * charge against it and it has not declared a counter charge; it is not
 * already engaged in combat (in base contact with an enemy) or fleeing; it
 * has more than 0 movement; its Move Speed is greater than the charger's
 * Move Speed minus the Charge Distance, i.e. the charger's move does not
 * reach the distance plus the fleeing unit's move (reach.h: equal within
 * CS_REACH_TOL is not greater). (Reanimated and Frenzy units never flee:
 * give their player flee = false.) */
static bool flee_option(const charge_ctx *c, const phase *ph, int u, option *out)
{
    if (ph->fled[u] || ph->active[u] >= 0 || incoming(ph, u) != 1 || c->u[u].move <= 0 ||
        engaged(c, ph, u))
        return false;
    for (int f = 0; f < 4; f++) {
        int k = ph->against[u][f];
        if (k < 0)
            continue;
        const charge *x = &ph->ch[k];
        if (cs_reaches((double)c->u[x->u].move, x->dist + (double)c->u[u].move))
            return false;
        *out = (option){OPT_FLEE, u, x->u, (cs_facing)f, x->dist};
        return true;
    }
    return false;
}

/* The declaration a player makes on its turn, or false to pass. Greedy: a
 * charged unit that may flee flees first (when its player flees); otherwise
 * the valid charge, intercept or counter charge of highest Charge Priority,
 * ties to the lower unit, then the lower target. */
static bool choose(const charge_ctx *c, const phase *ph, int s, option *out)
{
    if (c->policy[s] == POLICY_PASS)
        return false;
    int u0 = s * SIDE_UNITS, e0 = (1 - s) * SIDE_UNITS;
    if (c->flee[s])
        for (int u = u0; u < u0 + SIDE_UNITS; u++)
            if (c->present[u] && flee_option(c, ph, u, out))
                return true;
    bool found = false;
    option o = {0};
    for (int u = u0; u < u0 + SIDE_UNITS; u++) {
        if (!c->present[u] || ph->fled[u])
            continue;
        if (incoming(ph, u) > 0) {
            /* "a unit that already has a charge declared against it is not a
             * Valid Charger": only the counter charge is open to it. */
            if (counter_option(c, ph, u, &o) &&
                (!found || outranks(c, o.dist, o.side, out->dist, out->side))) {
                *out = o;
                found = true;
            }
            continue;
        }
        /* "has not already declared a charge" */
        if (ph->declared[u])
            continue;
        for (int t = e0; t < e0 + SIDE_UNITS; t++)
            if (c->present[t] && charge_option(c, ph, u, t, &o) &&
                (!found || outranks(c, o.dist, o.side, out->dist, out->side))) {
                *out = o;
                found = true;
            }
    }
    return found;
}

static void cancel(phase *ph, int k)
{
    charge *x = &ph->ch[k];
    x->cancelled = true;
    ph->against[x->t][x->side] = -1;
    ph->active[x->u] = -1;
    ph->n_intercepts++;
}

static void apply(phase *ph, const option *o)
{
    if (o->kind == OPT_FLEE) {
        ph->fled[o->u] = true;
        ph->n_flees++;
        return;
    }
    /* "If the new charge has higher priority a Charge Intercept can be
     * declared and the previous charge is canceled." */
    if (o->kind == OPT_CHARGE && ph->active[o->t] >= 0)
        cancel(ph, ph->active[o->t]);
    int k = ph->n++;
    ph->ch[k] = (charge){o->u, o->t, o->side, o->dist, o->kind == OPT_COUNTER, false, -1,
                         O_ILLEGAL, false, 0, 0};
    if (o->kind == OPT_COUNTER) {
        int orig = ph->against[o->u][CS_FRONT];
        ph->ch[k].partner = orig;
        ph->ch[orig].partner = k;
        ph->n_counters++;
    }
    ph->active[o->u] = k;
    ph->declared[o->u] = true;
    ph->against[o->t][o->side] = k;
}

/* SOVL Charge Phase "Resolve Charges", in declaration order; chases of
 * fleeing units last (assumption: the page fixes no order; this keeps their
 * dice from moving the other placements). A counter charge pair: "rotate
 * both units so they face eachother. Find the half way point between them,
 * then move them into base contact on that point" (between the front-edge
 * centres; no room test). Fleeing: "make a Flight Move away from the
 * charging unit. Then, move the charging unit it's full move speed towards
 * the fleeing unit": the fleeing unit moves straight away along the line of
 * the charge, so the charger catches it iff its move reaches distance +
 * flight move (reach.h; docs/rules/sovl.md: reaching it counts as a success). */
static void resolve_placements(const charge_ctx *c, phase *ph)
{
    for (int k = 0; k < ph->n; k++) {
        charge *x = &ph->ch[k];
        if (x->cancelled) {
            x->outcome = O_INTERCEPTED;
            continue;
        }
        if (ph->fled[x->t]) {
            x->chase = true;
            x->chase_dice = c->u[x->t].flight_dice;
            x->chase_move = c->u[x->u].move;
            x->outcome = O_FLED;
            continue;
        }
        if (x->partner >= 0 && !ph->ch[x->partner].cancelled) {
            if (x->counter)
                continue; /* met when its partner, declared earlier, resolved */
            charge *y = &ph->ch[x->partner];
            cs_vec2 p = cs_geom_edge_centre(&ph->pos[x->u], CS_FRONT);
            cs_vec2 q = cs_geom_edge_centre(&ph->pos[y->u], CS_FRONT);
            cs_vec2 m = {0.5 * (p.x + q.x), 0.5 * (p.y + q.y)};
            double fx = ph->pos[x->u].facing, fy = ph->pos[y->u].facing;
            if (hypot(q.x - p.x, q.y - p.y) > CS_GEOM_EPS) {
                fx = cs_geom_facing_of((cs_vec2){q.x - p.x, q.y - p.y});
                fy = fx + 180.0;
            }
            ph->pos[x->u] = cs_geom_rect_front_at(m, c->u[x->u].width, c->u[x->u].depth, fx);
            ph->pos[y->u] = cs_geom_rect_front_at(m, c->u[y->u].width, c->u[y->u].depth, fy);
            x->outcome = O_COUNTER_CHARGED;
            y->outcome = O_COUNTER_CHARGED;
            continue;
        }
        cs_rect r;
        if (find_room(c, ph, x->u, x->t, x->side, &r)) {
            ph->pos[x->u] = r;
            x->outcome = O_CHARGED;
        } else {
            x->outcome = O_ILLEGAL;
        }
    }
}

/* Declarations (SOVL Charge Phase: "Players take turns using Alternating
 * Activations to declare one charge at a time, until both players pass"),
 * then the placements. Deterministic given the layout. */
void cs_sovl_phase_run(const charge_ctx *c, const charge_layout *l, phase *ph)
{
    ph->n = 0;
    ph->n_counters = ph->n_intercepts = ph->n_flees = 0;
    for (int u = 0; u < MAX_UNITS; u++) {
        ph->active[u] = -1;
        ph->declared[u] = false;
        ph->fled[u] = false;
        for (int f = 0; f < 4; f++)
            ph->against[u][f] = -1;
        ph->pos[u] = l->r[u];
    }
    for (int u = 0; u < MAX_UNITS; u++)
        for (int t = 0; t < MAX_UNITS; t++) {
            ph->n_cand[u][t] = 0;
            if (c->present[u] && c->present[t] && side_of_unit(u) != side_of_unit(t))
                pair_geometry(c, ph, u, t);
        }
    int turn = c->first, passes = 0;
    for (int i = 0; i < MAX_DECLARATIONS && passes < 2 && ph->n < MAX_CHARGES; i++) {
        option o = {0};
        if (choose(c, ph, turn, &o)) {
            apply(ph, &o);
            passes = 0;
        } else {
            passes++;
        }
        turn = 1 - turn;
    }
    resolve_placements(c, ph);
}
