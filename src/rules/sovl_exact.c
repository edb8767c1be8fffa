/* SPDX-License-Identifier: GPL-3.0-or-later */
/* SOVL charge phase: the dice. The phase is deterministic given the layout
 * (sovl_phase.c) but for the flight moves of units fleeing a charge:
 * resolve samples them, outcome_probabilities sums their exact distribution
 * (issue 4); the focus charge gives the outcome (docs/rules/sovl.md: one per trial). */
#include <math.h>

#include "chargesim/reach.h"
#include "chargesim/sovl.h"
#include "chargesim/drawing.h"
#include "sovl_internal.h"

static bool succeeded(int outcome)
{
    return outcome == O_CHARGED || outcome == O_COUNTER_CHARGED || outcome == O_CAUGHT;
}

/* Whether a successful charge x counts toward per-phase metric m. */
static bool counts_toward(const charge *x, int m)
{
    int s = side_of_unit(x->u);
    bool flank = x->side == CS_LEFT || x->side == CS_RIGHT;
    switch (m) {
    case M_SUCCESSFUL_A: return s == 0;
    case M_SUCCESSFUL_B: return s == 1;
    case M_FLANK_A: return s == 0 && flank;
    case M_FLANK_B: return s == 1 && flank;
    case M_REAR_A: return s == 0 && x->side == CS_REAR;
    case M_REAR_B: return s == 1 && x->side == CS_REAR;
    case M_CAUGHT: return x->chase;
    }
    return false;
}

static const int dice_metrics[] = {M_SUCCESSFUL_A, M_SUCCESSFUL_B, M_FLANK_A, M_FLANK_B,
                                   M_REAR_A,       M_REAR_B,       M_CAUGHT};
#define N_DICE_METRICS ((int)(sizeof dice_metrics / sizeof dice_metrics[0]))

/* The focus charge (docs/rules/sovl.md: one outcome per trial): the first charge of
 * the phase, or the first one declared by the chosen unit; -1 if none. */
static int focus_index(const charge_ctx *c, const phase *ph)
{
    if (c->focus < 0)
        return ph->n > 0 ? 0 : -1;
    for (int k = 0; k < ph->n; k++)
        if (ph->ch[k].u == c->focus)
            return k;
    return -1;
}

static double side_code(cs_facing f)
{
    return f == CS_FRONT ? 0.0 : f == CS_REAR ? 2.0 : 1.0;
}

static int no_room(const phase *ph)
{
    int n = 0;
    for (int k = 0; k < ph->n; k++)
        n += !ph->ch[k].chase && ph->ch[k].outcome == O_ILLEGAL;
    return n;
}

/* A chase x ends caught when the charger's full move reaches the charge
 * distance plus the flight move (resolve_placements), in the sampled and the
 * exact path alike. */
static bool caught(const charge *x, int flight)
{
    return cs_reaches((double)x->chase_move, x->dist + (double)flight);
}

void cs_sovl_charge_resolve(const void *vctx, const void *vlayout, cs_rng *rng, cs_trial *out)
{
    const charge_ctx *c = vctx;
    phase ph;
    cs_sovl_phase_run(c, vlayout, &ph);
    int flight[MAX_CHARGES] = {0};
    for (int k = 0; k < ph.n; k++) {
        charge *x = &ph.ch[k];
        if (!x->chase)
            continue;
        flight[k] = cs_sovl_flight_roll(x->chase_dice, rng);
        x->outcome = caught(x, flight[k]) ? O_CAUGHT : O_FLED;
    }
    for (int i = 0; i < N_METRICS; i++)
        out->m[i] = NAN;
    int f = focus_index(c, &ph);
    out->outcome = f >= 0 ? ph.ch[f].outcome : O_ILLEGAL;
    if (f >= 0) {
        out->m[M_DISTANCE] = ph.ch[f].dist;
        out->m[M_SIDE] = side_code(ph.ch[f].side);
        if (ph.ch[f].chase)
            out->m[M_FLIGHT] = flight[f];
    }
    for (int i = 0; i < N_DICE_METRICS; i++) {
        int n = 0;
        for (int k = 0; k < ph.n; k++)
            n += succeeded(ph.ch[k].outcome) && counts_toward(&ph.ch[k], dice_metrics[i]);
        out->m[dice_metrics[i]] = n;
    }
    out->m[M_DECLARED] = ph.n;
    out->m[M_COUNTER_CHARGES] = ph.n_counters;
    out->m[M_INTERCEPTS] = ph.n_intercepts;
    out->m[M_FLEES] = ph.n_flees;
    out->m[M_NO_ROOM] = no_room(&ph);
}

static void put_point(cs_probs *out, int m, double v)
{
    out->n[m] = 1;
    out->value[m][0] = v;
    out->prob[m][0] = 1.0;
    out->mean[m] = v;
    out->pdef[m] = 1.0;
}

/* The flight move of n D6 (the unit fleeing the focus charge): its whole
 * distribution, n..6n. */
static void put_flight(cs_probs *out, const charge_ctx *c, int n)
{
    double mean = 0.0;
    out->n[M_FLIGHT] = 5 * n + 1;
    for (int s = n; s <= 6 * n; s++) {
        out->value[M_FLIGHT][s - n] = s;
        out->prob[M_FLIGHT][s - n] = c->nd6[n][s];
        mean += s * c->nd6[n][s];
    }
    out->mean[M_FLIGHT] = mean;
    out->pdef[M_FLIGHT] = 1.0;
}

/* Per-phase count m: a constant plus independent Bernoulli terms, one per
 * chase that counts toward it (caught with probability q[k]): a
 * Poisson-binomial law, built one chase at a time. */
static void put_count(cs_probs *out, const phase *ph, const double *q, int m)
{
    int base = 0, top = 0;
    double d[MAX_CHARGES + 1] = {1.0};
    for (int k = 0; k < ph->n; k++) {
        const charge *x = &ph->ch[k];
        if (!counts_toward(x, m))
            continue;
        if (!x->chase) {
            base += succeeded(x->outcome);
            continue;
        }
        top++;
        d[top] = 0.0;
        for (int j = top; j >= 1; j--)
            d[j] = d[j] * (1.0 - q[k]) + d[j - 1] * q[k];
        d[0] *= 1.0 - q[k];
    }
    double mean = 0.0;
    out->n[m] = top + 1;
    for (int j = 0; j <= top; j++) {
        out->value[m][j] = base + j;
        out->prob[m][j] = d[j];
        mean += (base + j) * d[j];
    }
    out->mean[m] = mean;
    out->pdef[m] = 1.0;
}

void cs_sovl_charge_probabilities(const void *vctx, const void *vlayout, cs_probs *out)
{
    const charge_ctx *c = vctx;
    phase ph;
    cs_sovl_phase_run(c, vlayout, &ph);
    /* P(caught) of each chase: the same test on every flight move nD6. */
    double q[MAX_CHARGES];
    for (int k = 0; k < ph.n; k++) {
        const charge *x = &ph.ch[k];
        q[k] = 0.0;
        if (!x->chase)
            continue;
        for (int s = 0; s <= 6 * x->chase_dice; s++)
            if (caught(x, s))
                q[k] += c->nd6[x->chase_dice][s];
    }
    for (int o = 0; o < N_OUTCOMES; o++)
        out->p[o] = 0.0;
    int f = focus_index(c, &ph);
    if (f < 0) {
        out->p[O_ILLEGAL] = 1.0;
    } else if (ph.ch[f].chase) {
        out->p[O_CAUGHT] = q[f];
        out->p[O_FLED] = 1.0 - q[f];
    } else {
        out->p[ph.ch[f].outcome] = 1.0;
    }
    if (f >= 0) {
        const charge *x = &ph.ch[f];
        put_point(out, M_DISTANCE, x->dist);
        put_point(out, M_SIDE, side_code(x->side));
        if (x->chase)
            put_flight(out, c, x->chase_dice);
    }
    for (int i = 0; i < N_DICE_METRICS; i++)
        put_count(out, &ph, q, dice_metrics[i]);
    put_point(out, M_DECLARED, ph.n);
    put_point(out, M_COUNTER_CHARGES, ph.n_counters);
    put_point(out, M_INTERCEPTS, ph.n_intercepts);
    put_point(out, M_FLEES, ph.n_flees);
    put_point(out, M_NO_ROOM, no_room(&ph));
}

/* ---- the picture of one phase (chargesim draw) ----------------------------- */

static const char *const unit_names[MAX_UNITS] = {"a1", "a2", "a3", "b1", "b2", "b3"};
static const char *const sovl_sides[] = {"front", "left flank", "right flank", "rear"};

/* The units where the phase started, the focus charge's charger and target
 * picked out, and the terrain. */
static void draw_table(const charge_ctx *c, const charge_layout *l, int fu, int ft,
                       cs_drawing *d)
{
    static const cs_draw_role ter[] = {[TERRAIN_SOLID] = CS_DRAW_TERRAIN_SOLID,
                                       [TERRAIN_BLOCKING] = CS_DRAW_TERRAIN_SIGHT,
                                       [TERRAIN_IMPASSABLE] = CS_DRAW_TERRAIN_MOVE};
    for (int j = 0; j < c->n_terrain; j++)
        cs_drawing_poly(d, ter[c->ter[j].kind], &c->ter[j].poly, "terrain");
    int own = fu >= 0 ? side_of_unit(fu) : 0;
    for (int u = 0; u < MAX_UNITS; u++) {
        if (!c->present[u])
            continue;
        cs_draw_role role = u == fu   ? CS_DRAW_CHARGER
                            : u == ft ? CS_DRAW_TARGET
                            : side_of_unit(u) == own ? CS_DRAW_FRIEND : CS_DRAW_ENEMY;
        cs_drawing_rect(d, role, &l->r[u], unit_names[u]);
    }
    cs_drawing_format(d->legend[CS_DRAW_FRIEND], CS_DRAW_TEXT, "other unit of the charger's side");
    cs_drawing_format(d->legend[CS_DRAW_ENEMY], CS_DRAW_TEXT, "other unit of the target's side");
    cs_drawing_format(d->legend[CS_DRAW_FINAL], CS_DRAW_TEXT,
                      "a unit of the charger's side placed by its charge");
    cs_drawing_format(d->legend[CS_DRAW_FINAL_ENEMY], CS_DRAW_TEXT,
                      "a unit of the target's side placed by its charge");
}

/* One declared charge: an arrow from where the charger stood to where
 * Resolve Charges placed it (or, chasing a unit that fled, as far as its
 * move takes it along the line of the charge), and its caption line. */
static void draw_charge(const charge_ctx *c, const charge_layout *l, const phase *ph,
                        const charge *x, int flight, int own_side, cs_drawing *d)
{
    cs_vec2 p0 = cs_geom_edge_centre(&l->r[x->u], CS_FRONT);
    bool ok = succeeded(x->outcome);
    static const char *const how[N_OUTCOMES] = {
        [O_CHARGED] = "placed in base contact", [O_COUNTER_CHARGED] = "met halfway",
        [O_INTERCEPTED] = "cancelled by a Charge Intercept", [O_FLED] = "its target fled",
        [O_CAUGHT] = "caught the fleeing unit", [O_ILLEGAL] = "no room to place it"};
    if (x->chase) {
        cs_vec2 q = cs_geom_edge_centre(&l->r[x->t], CS_FRONT);
        double len = hypot(q.x - p0.x, q.y - p0.y), m = (double)c->u[x->u].move;
        cs_vec2 dir = {len > 0 ? (q.x - p0.x) / len : 0, len > 0 ? (q.y - p0.y) / len : 1};
        cs_vec2 a[2] = {p0, {p0.x + m * dir.x, p0.y + m * dir.y}};
        cs_vec2 f[2] = {l->r[x->t].c, {l->r[x->t].c.x + flight * dir.x,
                                       l->r[x->t].c.y + flight * dir.y}};
        cs_draw_line *ln = cs_drawing_line(d, ok ? CS_DRAW_PATH : CS_DRAW_FAILED, a, 2,
                                           "chase: the charger's full move towards it");
        if (ln)
            ln->arrow = true;
        ln = cs_drawing_line(d, CS_DRAW_OTHER, f, 2, "Flight Move of the fleeing unit");
        if (ln)
            ln->arrow = true;
        cs_drawing_caption(d, "%s charges %s (%s, %.2f\"): %s; flight %d\" against a move of "
                              "%d\"", unit_names[x->u], unit_names[x->t], sovl_sides[x->side],
                           x->dist, how[x->outcome], flight, c->u[x->u].move);
        return;
    }
    if (ok) {
        cs_vec2 a[2] = {p0, cs_geom_edge_centre(&ph->pos[x->u], CS_FRONT)};
        cs_draw_line *ln = cs_drawing_line(d, CS_DRAW_PATH, a, 2,
                                           "charge: placed in contact (Resolve Charges)");
        if (ln)
            ln->arrow = true;
        cs_drawing_rect(d, side_of_unit(x->u) == own_side ? CS_DRAW_FINAL : CS_DRAW_FINAL_ENEMY,
                        &ph->pos[x->u], NULL);
    }
    cs_drawing_caption(d, "%s %s %s (%s, %.2f\" of %d\"): %s", unit_names[x->u],
                       x->counter ? "counter-charges" : "charges", unit_names[x->t],
                       sovl_sides[x->side], x->dist, c->u[x->u].move, how[x->outcome]);
}

const char *const cs_sovl_charge_outcomes[N_OUTCOMES] = {
    [O_CHARGED] = "charged",
    [O_COUNTER_CHARGED] = "counter_charged",
    [O_INTERCEPTED] = "intercepted",
    [O_FLED] = "fled",
    [O_CAUGHT] = "caught",
    [O_ILLEGAL] = "illegal",
};

/* The phase replayed from its layout (it is deterministic given the
 * layout), its flight dice rolled again from the trial's stream in the
 * order charge_resolve rolls them. */
void cs_sovl_charge_draw(const void *vctx, const double *num, const cs_rng *layout_rng,
                        const void *vlayout, const cs_rng *dice_rng, const cs_trial *tr,
                        cs_drawing *d)
{
    const charge_ctx *c = vctx;
    const charge_layout *l = vlayout;
    (void)num;
    (void)layout_rng;
    static phase ph; /* large; draw runs once */
    cs_sovl_phase_run(c, l, &ph);
    cs_rng rng = *dice_rng;
    int flight[MAX_CHARGES] = {0};
    for (int k = 0; k < ph.n; k++)
        if (ph.ch[k].chase) {
            flight[k] = cs_sovl_flight_roll(ph.ch[k].chase_dice, &rng);
            ph.ch[k].outcome = caught(&ph.ch[k], flight[k]) ? O_CAUGHT : O_FLED;
        }
    int f = focus_index(c, &ph);
    int fu = f >= 0 ? ph.ch[f].u : -1, ft = f >= 0 ? ph.ch[f].t : -1;
    draw_table(c, l, fu, ft, d);
    if (f >= 0) {
        cs_drawing_arcs(d, &l->r[ft]);
        cs_drawing_sight(d, &l->r[fu], c->los_arc);
        d->rolled = (double)c->u[fu].move;
        d->needed = ph.ch[f].dist;
        cs_drawing_format(d->rolled_what, CS_DRAW_TEXT,
                          "%s's charge range (movement allowance + modifier, no dice)",
                          unit_names[fu]);
        cs_drawing_format(d->needed_what, CS_DRAW_TEXT, "charge distance to the %s",
                          sovl_sides[ph.ch[f].side]);
    }
    d->outcome = cs_sovl_charge_outcomes[tr->outcome];
    cs_drawing_caption(d, "SOVL charge phase: players alternate declarations until both pass, "
                          "then Resolve Charges in declaration order; the focus is %s",
                       f >= 0 ? unit_names[fu] : "none (no charge declared)");
    for (int k = 0; k < ph.n; k++)
        draw_charge(c, l, &ph, &ph.ch[k], flight[k], fu >= 0 ? side_of_unit(fu) : 0, d);
    for (int u = 0; u < MAX_UNITS; u++)
        if (c->present[u] && ph.fled[u])
            cs_drawing_caption(d, "%s declared Flee From Charge", unit_names[u]);
}
