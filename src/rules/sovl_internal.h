/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_SOVL_INTERNAL_H
#define CHARGESIM_SOVL_INTERNAL_H
/* Shared by the files of the `sovl` charge phase ruleset only (not a public
 * header): sovl_setup.c (parameters, placement, prepare, the ruleset
 * struct), sovl_phase.c (declarations and resolution, deterministic given
 * the placement) and sovl_exact.c (the flight dice: sampled and exact).
 *
 * The charge phase (SOVL Charge Phase; docs/rules/sovl.md): one trial is one
 * charge phase: up to three units a side, players alternating one
 * declaration at a time until both pass, then resolution. Given the
 * placement the declarations are deterministic (the policies are), so the
 * only dice of the phase are the flight moves of units fleeing from a
 * charge: resolve() rolls them, outcome_probabilities() sums their exact
 * distribution (issue 4). */
#include <stdbool.h>

#include "chargesim/geom.h"
#include "chargesim/poly_parse.h"
#include "chargesim/ruleset.h"

#define SIDE_UNITS  3
#define MAX_UNITS   (2 * SIDE_UNITS)
#define MAX_TERRAIN CS_POLY_LIST_MAX /* terrain pieces: one POLYGON parameter */
/* Each unit declares at most one ordinary charge; a counter charge needs the
 * unit to have no standing charge, which only an intercept (an ordinary
 * charge) takes away, so a phase holds at most 6 + 2 * 6 declarations. */
#define MAX_CHARGES 24
#define MAX_DECLARATIONS (2 * MAX_CHARGES + 4)
#define MAX_FLIGHT_DICE 4 /* 16" base movement at most (SOVL Unit Stats and Types) */

/* The parameters of one unit, UNIT_STRIDE apart from P_UNIT1 (a1..a3, b1..b3). */
enum { F_TYPE, F_FRONTAGE, F_RANKS, F_X, F_Y, F_FACING, F_MOVE_MOD, UNIT_STRIDE };

/* Parameter indexes of the ruleset's table (sovl_setup.c). */
enum {
    P_UNITS_A,
    P_UNITS_B,
    P_PLACEMENT,
    P_DISTANCE,
    P_OFFSET,
    P_ANGLE,
    P_AREA_WIDTH,
    P_AREA_DEPTH,
    P_FACING_SPREAD,
    P_LOS_ARC,
    P_LOS_BLOCK,
    P_PRIORITY,
    P_POLICY_A,
    P_POLICY_B,
    P_FLEE_A,
    P_FLEE_B,
    P_FIRST,
    P_FOCUS,
    P_TERRAIN,
    P_UNIT1,
    N_PARAMS = P_UNIT1 + MAX_UNITS * UNIT_STRIDE
};

/* The values of the CHOICE parameters, in their choices' order. */
enum { PLACE_FIXED, PLACE_HEAD_ON, PLACE_RANDOM };
enum { BLOCK_CENTRE_LINE, BLOCK_ANY_PART };
enum { PRIO_DISTANCE_FIRST, PRIO_FLANK_FIRST };
enum { POLICY_GREEDY, POLICY_PASS };
enum { TERRAIN_SOLID, TERRAIN_BLOCKING, TERRAIN_IMPASSABLE };

enum { O_CHARGED, O_COUNTER_CHARGED, O_INTERCEPTED, O_FLED, O_CAUGHT, O_ILLEGAL, N_OUTCOMES };
/* The outcomes' names (sovl_exact.c, which draws them; the ruleset's table
 * in sovl_setup.c points at them, so the files call one way). */
extern const char *const cs_sovl_charge_outcomes[N_OUTCOMES];

/* Metric indexes; the dice metrics are counts the chases can change. */
enum {
    M_DISTANCE,
    M_SIDE,
    M_FLIGHT,
    M_SUCCESSFUL_A,
    M_SUCCESSFUL_B,
    M_FLANK_A,
    M_FLANK_B,
    M_REAR_A,
    M_REAR_B,
    M_DECLARED,
    M_COUNTER_CHARGES,
    M_INTERCEPTS,
    M_FLEES,
    M_CAUGHT,
    M_NO_ROOM,
    N_METRICS
};

/* ---- What prepare fills (charge_ctx) and draw_layout places ---- */

typedef struct unit_def {
    double width, depth; /* inches */
    int move;            /* charge range: movement allowance + modifier */
    int flight_dice;     /* from the base movement allowance */
} unit_def;

typedef struct terrain {
    cs_poly poly;
    int kind;
} terrain;

typedef struct charge_ctx {
    int n_side[2];
    unit_def u[MAX_UNITS];
    bool present[MAX_UNITS];
    int placement;
    double area_w, area_d, spread;
    double los_arc;
    int los_block, priority;
    int policy[2];
    bool flee[2];
    int first;
    int focus; /* -1: the first charge declared; else a unit index */
    int n_terrain;
    terrain ter[MAX_TERRAIN];
    double nd6[MAX_FLIGHT_DICE + 1][6 * MAX_FLIGHT_DICE + 1]; /* P(nD6 = s) */
} charge_ctx;

typedef struct charge_layout {
    cs_rect r[MAX_UNITS]; /* units a1..a3, b1..b3; absent ones unused */
} charge_layout;

/* One declared charge (a counter charge included) and how it ended. */
typedef struct charge {
    int u, t;         /* charger and target unit */
    cs_facing side;   /* side of the target charged */
    double dist;      /* charge distance */
    bool counter;     /* declared as a counter charge */
    bool cancelled;   /* cancelled by a Charge Intercept */
    int partner;      /* counter charge meeting this one / charge this one counters; -1 */
    int outcome;      /* settled at resolution; chases are settled by the dice */
    bool chase;       /* its target fled: dice decide caught or fled */
    int chase_dice;   /* the fleeing target's flight dice */
    int chase_move;   /* the charger's full move: caught iff it reaches distance + flight */
} charge;

/* The state of one charge phase while charges are declared and resolved. */
typedef struct phase {
    int n;
    charge ch[MAX_CHARGES];
    int active[MAX_UNITS];         /* the unit's standing charge, -1 */
    bool declared[MAX_UNITS];      /* declared a charge this phase */
    int against[MAX_UNITS][4];     /* standing charge against each side, -1 */
    bool fled[MAX_UNITS];          /* declared Flee From Charge */
    int n_counters, n_intercepts, n_flees;
    cs_rect pos[MAX_UNITS];        /* positions, updated as charges resolve */
    /* Geometry of each ordered pair, fixed while charges are declared: up
     * to two candidate sides (two on an exact majority tie). */
    int n_cand[MAX_UNITS][MAX_UNITS];
    cs_facing cand_side[MAX_UNITS][MAX_UNITS][2];
    double cand_dist[MAX_UNITS][MAX_UNITS][2];
} phase;

/* 0 for player A's units (a1..a3), 1 for player B's. */
static inline int side_of_unit(int u)
{
    return u < SIDE_UNITS ? 0 : 1;
}

/* sovl_phase.c: the declarations and the placements of one phase on layout
 * l (chases left to the dice: charge.chase). Deterministic. */
void cs_sovl_phase_run(const charge_ctx *c, const charge_layout *l, phase *ph);

/* sovl_exact.c: the ruleset's resolve and outcome_probabilities. */
void cs_sovl_charge_resolve(const void *vctx, const void *vlayout, cs_rng *rng, cs_trial *out);
void cs_sovl_charge_probabilities(const void *vctx, const void *vlayout, cs_probs *out);
/* The picture of one phase for chargesim draw (drawing.h). */
struct cs_drawing;
void cs_sovl_charge_draw(const void *vctx, const double *num, const cs_rng *layout_rng,
                         const void *vlayout, const cs_rng *dice_rng, const cs_trial *tr,
                         struct cs_drawing *d);

#endif
