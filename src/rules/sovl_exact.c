/* SOVL charge phase: the dice. The phase is deterministic given the layout
 * (sovl_phase.c) but for the flight moves of units fleeing a charge:
 * resolve samples them, outcome_probabilities sums their exact distribution
 * (issue 4); the focus charge gives the outcome (RULES.md: one per trial). */
#include <math.h>

#include "chargesim/reach.h"
#include "chargesim/sovl.h"
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

/* The focus charge (RULES.md: one outcome per trial): the first charge of
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
