/* SOVL: the unit types, the dice of the strategic and combat phases, and the
 * charge phase ruleset. The rules are shared/reference-rules/sovl-*.md and
 * the seeds shared/seeds/sovl-*.md, read as shared/RULES.md "sovl" says. */
#include "chargesim/sovl.h"

#include <ctype.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>

#include "chargesim/drawing.h"
#include "chargesim/geom.h"
#include "chargesim/reach.h"
#include "chargesim/rules.h"

/* ---- Unit types (sovl-UnitTypes.md "Unit Types") ---- */

static const cs_sovl_unit_type unit_types[CS_SOVL_N_TYPES] = {
    [CS_SOVL_INFANTRY_20] = {"infantry_20", 20.0, 20.0, 8, 1.0},
    [CS_SOVL_INFANTRY_25] = {"infantry_25", 25.0, 25.0, 8, 1.0},
    [CS_SOVL_CAVALRY] = {"cavalry", 25.0, 50.0, 16, 2.0},
    [CS_SOVL_MONSTROUS_INFANTRY] = {"monstrous_infantry", 40.0, 40.0, 12, 1.5},
    [CS_SOVL_LARGE_MONSTER] = {"large_monster", 50.0, 50.0, 12, 1.5},
    [CS_SOVL_CHARIOT] = {"chariot", 50.0, 100.0, 16, 2.0},
    [CS_SOVL_WAR_MACHINE] = {"war_machine", 50.0, 50.0, 0, 0.0},
    [CS_SOVL_WEAPON_TEAM] = {"weapon_team", 25.0, 50.0, 8, 1.0},
    [CS_SOVL_WAR_WAGON] = {"war_wagon", 50.0, 100.0, 12, 1.5},
    [CS_SOVL_SWARM] = {"swarm", 40.0, 40.0, 8, 1.0},
};

const char *const cs_sovl_type_keys[CS_SOVL_N_TYPES + 1] = {
    "infantry_20", "infantry_25", "cavalry", "monstrous_infantry", "large_monster",
    "chariot", "war_machine", "weapon_team", "war_wagon", "swarm", NULL,
};

const cs_sovl_unit_type *cs_sovl_type_get(int t)
{
    return (t >= 0 && t < CS_SOVL_N_TYPES) ? &unit_types[t] : NULL;
}

/* ---- Discipline tests ---- */

int cs_sovl_rank_bonus(int models, int frontage)
{
    if (models <= 0 || frontage <= 0)
        return 0;
    /* sovl-UnitTypes.md: "Each rank with at least 3 models gives +1 Rank
     * Bonus, including the first rank." Full ranks hold `frontage` models;
     * the rear rank holds the remainder. */
    int full = models / frontage;
    int rest = models % frontage;
    return (frontage >= 3 ? full : 0) + (rest >= 3 ? 1 : 0);
}

int cs_sovl_discipline_target(int discipline, int rank_bonus, int penalty, unsigned props)
{
    /* sovl-UnitProperties.md: Reanimated "Never fails Discipline tests";
     * Fearless "Ignores all penalties to Discipline tests". */
    if (props & CS_SOVL_REANIMATED)
        return 12;
    if (props & CS_SOVL_FEARLESS)
        penalty = 0;
    return discipline + rank_bonus - penalty;
}

double cs_sovl_discipline_p(int target)
{
    if (target < 2)
        return 0.0;
    if (target >= 12)
        return 1.0;
    /* Ways to roll s on 2D6: 6 - |s - 7|. */
    int ways = 0;
    for (int s = 2; s <= target; s++)
        ways += 6 - abs(s - 7);
    return (double)ways / 36.0;
}

bool cs_sovl_discipline_roll(int target, cs_rng *rng, int *roll)
{
    int r = cs_rng_die(rng, 6) + cs_rng_die(rng, 6);
    if (roll)
        *roll = r;
    /* sovl-UnitTypes.md: "If the result is lower than or equal to the units
     * Discipline stat, it is succesful." */
    return r <= target;
}

/* ---- Flight moves ---- */

int cs_sovl_flight_dice(int base_move)
{
    /* sovl-UnitTypes.md "Flight Move": "roll one d6 for each 4 points of
     * base movement allowance"; a remainder below 4 adds no die. */
    return base_move > 0 ? base_move / 4 : 0;
}

void cs_sovl_nd6(int n, double *p)
{
    /* Convolve one die at a time in place, from the top down so that each
     * p[s] still holds the previous sum's value when it is read. */
    p[0] = 1.0;
    for (int k = 1; k <= n; k++) {
        for (int s = 6 * k; s >= 0; s--) {
            double acc = 0.0;
            for (int f = 1; f <= 6; f++)
                if (s - f >= 0 && s - f <= 6 * (k - 1))
                    acc += p[s - f];
            p[s] = acc / 6.0;
        }
    }
}

double cs_sovl_flight_p_reach(int n, double edge_distance)
{
    double p[6 * CS_SOVL_MAX_DICE + 1];
    cs_sovl_nd6(n, p);
    /* "If a Flight Move reaches a table edge the unit flees the
     * battlefield": the move reaches the edge when it is at least the
     * distance to it, within the tape's tolerance (reach.h). */
    double reach = 0.0;
    for (int s = 0; s <= 6 * n; s++)
        if (cs_reaches((double)s, edge_distance))
            reach += p[s];
    return reach;
}

int cs_sovl_flight_roll(int n, cs_rng *rng)
{
    int total = 0;
    for (int k = 0; k < n; k++)
        total += cs_rng_die(rng, 6);
    return total;
}

/* ---- Ranged attacks and damage saves ---- */

static const cs_sovl_weapon_def weapons[CS_SOVL_N_WEAPONS] = {
    [CS_SOVL_LONGBOW] = {"longbow", 30, 3},
    [CS_SOVL_SHORTBOW] = {"shortbow", 20, 3},
    [CS_SOVL_CROSSBOW] = {"crossbow", 30, 3},
    [CS_SOVL_HANDGUN] = {"handgun", 24, 4},
    [CS_SOVL_SLING] = {"sling", 20, 2},
    [CS_SOVL_JAVELIN] = {"javelin", 8, 3},
};

const char *const cs_sovl_weapon_keys[CS_SOVL_N_WEAPONS + 1] = {
    "longbow", "shortbow", "crossbow", "handgun", "sling", "javelin", NULL,
};

const cs_sovl_weapon_def *cs_sovl_weapon_get(int w)
{
    return (w >= 0 && w < CS_SOVL_N_WEAPONS) ? &weapons[w] : NULL;
}

int cs_sovl_hit_needed(int skill, bool long_range)
{
    /* sovl-StrategicPhase.md "Ranged Attacks": 4+, "Chance to hit increases
     * by one for each point of Skill over 3 and decreases by one for each
     * point of skill under 3"; beyond half the maximum range "a -1 penalty
     * to be hit". */
    return 4 - (skill - 3) + (long_range ? 1 : 0);
}

static int clamp_needed(int needed, bool natural)
{
    int lo = natural ? 2 : 1;
    int hi = natural ? 6 : 7;
    return needed < lo ? lo : needed > hi ? hi : needed;
}

double cs_sovl_d6_p_at_least(int needed, bool natural)
{
    return (double)(7 - clamp_needed(needed, natural)) / 6.0;
}

bool cs_sovl_d6_roll_at_least(int needed, bool natural, cs_rng *rng)
{
    return cs_rng_die(rng, 6) >= clamp_needed(needed, natural);
}

int cs_sovl_save_needed(int power, int defense)
{
    /* sovl-CombatPhase.md "Damage Save": higher Power 5+, 6+ when "the
     * difference is more than 2"; equal 4+; lower Power 3+, 2+ when more
     * than 2 lower. */
    int diff = power - defense;
    if (diff > 2)
        return 6;
    if (diff > 0)
        return 5;
    if (diff == 0)
        return 4;
    if (diff >= -2)
        return 3;
    return 2;
}

void cs_sovl_binomial(int n, double p, double *out)
{
    /* Built one trial at a time like the dice sums: exact up to rounding,
     * and no factorials to overflow. */
    out[0] = 1.0;
    for (int k = 1; k <= n; k++) {
        out[k] = out[k - 1] * p;
        for (int j = k - 1; j >= 1; j--)
            out[j] = out[j] * (1.0 - p) + out[j - 1] * p;
        out[0] *= 1.0 - p;
    }
}

/* ======================================================================
 * The charge phase (sovl-ChargePhase.md; RULES.md "sovl").
 *
 * One trial is one charge phase: up to three units a side, players
 * alternating one declaration at a time until both pass, then resolution.
 * Given the placement the declarations are deterministic (the policies are),
 * so the only dice of the phase are the flight moves of units fleeing from a
 * charge: resolve() rolls them, outcome_probabilities() sums their exact
 * distribution (issue 4).
 * ====================================================================== */

#define SIDE_UNITS  3
#define MAX_UNITS   (2 * SIDE_UNITS)
#define MAX_TERRAIN 4
/* Each unit declares at most one ordinary charge; a counter charge needs the
 * unit to have no standing charge, which only an intercept (an ordinary
 * charge) takes away, so a phase holds at most 6 + 2 * 6 declarations. */
#define MAX_CHARGES 24
#define MAX_DECLARATIONS (2 * MAX_CHARGES + 4)
#define MAX_FLIGHT_DICE 4 /* 16" base movement at most (sovl-UnitTypes.md) */

enum { F_TYPE, F_FRONTAGE, F_RANKS, F_X, F_Y, F_FACING, F_MOVE_MOD, UNIT_STRIDE };

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

enum { PLACE_FIXED, PLACE_HEAD_ON, PLACE_RANDOM };
enum { BLOCK_CENTRE_LINE, BLOCK_ANY_PART };
enum { PRIO_DISTANCE_FIRST, PRIO_FLANK_FIRST };
enum { POLICY_GREEDY, POLICY_PASS };
enum { TERRAIN_SOLID, TERRAIN_BLOCKING, TERRAIN_IMPASSABLE };

enum { O_CHARGED, O_COUNTER_CHARGED, O_INTERCEPTED, O_FLED, O_CAUGHT, O_ILLEGAL, N_OUTCOMES };

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

static const char *const placement_choices[] = {"fixed", "head_on", "random", NULL};
static const char *const block_choices[] = {"centre_line", "any_part", NULL};
static const char *const priority_choices[] = {"distance_first", "flank_first", NULL};
static const char *const policy_choices[] = {"greedy", "pass", NULL};
static const char *const player_choices[] = {"a", "b", NULL};
static const char *const focus_choices[] = {"first", "a1", "a2", "a3", "b1", "b2", "b3", NULL};

#define UNIT_PARAMS(id, x, y, facing)                                                          \
    {id "_type", CS_PARAM_CHOICE, "infantry_20", "",                                           \
     "unit " id ": unit type; base size and movement = charge range (sovl-UnitTypes.md)", 0, 0, \
     cs_sovl_type_keys, 0},                                                                    \
    {id "_frontage", CS_PARAM_INT, "5", "",                                                    \
     "unit " id ": models per rank; width = frontage x base width", 1, 20, NULL, 0},           \
    {id "_ranks", CS_PARAM_INT, "3", "", "unit " id ": ranks; depth = ranks x base depth", 1,  \
     10, NULL, 0},                                                                             \
    {id "_x", CS_PARAM_REAL, x, "in", "unit " id ": centre x (placement = fixed or head_on)",   \
     -200, 200, NULL, CS_PF_LAYOUT},                                                           \
    {id "_y", CS_PARAM_REAL, y, "in", "unit " id ": centre y (placement = fixed or head_on)",   \
     -200, 200, NULL, CS_PF_LAYOUT},                                                           \
    {id "_facing", CS_PARAM_REAL, facing, "deg",                                               \
     "unit " id ": facing, 0 = towards +y, counter-clockwise positive", -360, 360, NULL,       \
     CS_PF_LAYOUT},                                                                            \
    {id "_move_mod", CS_PARAM_INT, "0", "in",                                                  \
     "unit " id ": movement modifier (Swift +1, Heavy Armor -1...; sovl-UnitProperties.md); "  \
     "flight dice keep the base movement",                                                     \
     -4, 4, NULL, 0}

static const cs_param_def charge_params[N_PARAMS] = {
    [P_UNITS_A] = {"units_a", CS_PARAM_INT, "1", "", "units of player A on the table (a1..a3)",
                   0, SIDE_UNITS, NULL, 0},
    [P_UNITS_B] = {"units_b", CS_PARAM_INT, "1", "", "units of player B on the table (b1..b3)",
                   0, SIDE_UNITS, NULL, 0},
    [P_PLACEMENT] = {"placement", CS_PARAM_CHOICE, "head_on", "",
                     "fixed: every unit at its x, y, facing; head_on: a1's front-edge centre at "
                     "the origin facing +y and b1 placed by distance, offset, angle, the others "
                     "fixed; random: every unit drawn in the engagement area",
                     0, 0, placement_choices, 0},
    [P_DISTANCE] = {"distance", CS_PARAM_REAL, "6", "in",
                    "head_on: gap from a1's front edge to the nearest point of b1 (the gap "
                    "between the front edges when angle = 0)",
                    0, 200, NULL, CS_PF_LAYOUT},
    [P_OFFSET] = {"offset", CS_PARAM_REAL, "0", "in",
                  "head_on: b1's centre shifted along x, + = to a1's right", -200, 200, NULL,
                  CS_PF_LAYOUT},
    [P_ANGLE] = {"angle", CS_PARAM_REAL, "0", "deg",
                 "head_on: b1 turned about its centre from facing a1 (0), counter-clockwise; 90 "
                 "shows a1 its right flank, 180 its rear",
                 -360, 360, NULL, CS_PF_LAYOUT},
    [P_AREA_WIDTH] = {"area_width", CS_PARAM_REAL, "24", "in",
                      "random: width of the engagement area; unit centres uniform across it", 1,
                      400, NULL, 0},
    [P_AREA_DEPTH] = {"area_depth", CS_PARAM_REAL, "16", "in",
                      "random: depth of the engagement area; A's centres in its lower half "
                      "(y < 0), B's in its upper half",
                      1, 400, NULL, 0},
    [P_FACING_SPREAD] = {"facing_spread", CS_PARAM_REAL, "45", "deg",
                         "random: facings uniform within this many degrees of facing the enemy "
                         "(A 0, B 180)",
                         0, 180, NULL, 0},
    [P_LOS_ARC] = {"los_arc", CS_PARAM_REAL, "90", "deg",
                   "total line-of-sight arc: rays at los_arc/2 outward from the two front "
                   "corners; 90 as the rules page's figure draws it, 45 the literal \"45 degree "
                   "arc\" (sovl-ChargePhase.md)",
                   1, 180, NULL, CS_PF_ASSUMPTION},
    [P_LOS_BLOCK] = {"los_block", CS_PARAM_CHOICE, "centre_line", "",
                     "centre_line: blocked when the range line (charger front-edge centre to "
                     "target-side centre) crosses LoS-blocking terrain; any_part (stricter): "
                     "blocked when terrain enters any line between the charger's front edge and "
                     "the target side",
                     0, 0, block_choices, CS_PF_ASSUMPTION},
    [P_PRIORITY] = {"priority", CS_PARAM_CHOICE, "distance_first", "",
                    "Charge Priority order (sovl-ChargePhase.md \"Charge Intercept\"): shorter "
                    "distance first, flank/rear over front on equal distance; or flank/rear "
                    "first, then distance",
                    0, 0, priority_choices, CS_PF_ASSUMPTION},
    [P_POLICY_A] = {"policy_a", CS_PARAM_CHOICE, "greedy", "",
                    "player A's declarations: greedy (its valid charge of highest Charge "
                    "Priority each turn) or pass",
                    0, 0, policy_choices, 0},
    [P_POLICY_B] = {"policy_b", CS_PARAM_CHOICE, "greedy", "", "player B's declarations", 0, 0,
                    policy_choices, 0},
    [P_FLEE_A] = {"flee_a", CS_PARAM_BOOL, "false", "",
                  "player A's charged units declare Flee From Charge whenever eligible, before "
                  "anything else",
                  0, 1, NULL, 0},
    [P_FLEE_B] = {"flee_b", CS_PARAM_BOOL, "false", "", "the same for player B", 0, 1, NULL, 0},
    [P_FIRST] = {"first_player", CS_PARAM_CHOICE, "a", "", "the player who declares first", 0, 0,
                 player_choices, 0},
    [P_FOCUS] = {"focus", CS_PARAM_CHOICE, "first", "",
                 "the charge whose outcome is reported: the first declared in the phase, or the "
                 "first declared by unit a1..b3 (illegal if there is none)",
                 0, 0, focus_choices, 0},
    [P_TERRAIN] = {"terrain", CS_PARAM_TEXT, "", "",
                   "convex terrain pieces \"kind: x,y x,y x,y ...; ...\" (kind solid = cliff or "
                   "building, blocking = forest, impassable = river; sovl-SetupAndDeployment.md)",
                   0, 0, NULL, 0},
    UNIT_PARAMS("a1", "0", "-1.181", "0"),
    UNIT_PARAMS("a2", "-8", "-1.181", "0"),
    UNIT_PARAMS("a3", "8", "-1.181", "0"),
    UNIT_PARAMS("b1", "0", "7.181", "180"),
    UNIT_PARAMS("b2", "-8", "7.181", "180"),
    UNIT_PARAMS("b3", "8", "7.181", "180"),
};

static const char *const charge_outcomes[N_OUTCOMES] = {
    [O_CHARGED] = "charged",
    [O_COUNTER_CHARGED] = "counter_charged",
    [O_INTERCEPTED] = "intercepted",
    [O_FLED] = "fled",
    [O_CAUGHT] = "caught",
    [O_ILLEGAL] = "illegal",
};

static const cs_metric_def charge_metrics[N_METRICS] = {
    [M_DISTANCE] = {"distance", "in", "the focus charge's distance", 0.1, 0, 20},
    [M_SIDE] = {"side", "", "the focus charge's side: 0 front, 1 flank, 2 rear", 1, 0, 2},
    [M_FLIGHT] = {"flight", "in", "flight move of the unit fleeing the focus charge", 1, 0, 24},
    [M_SUCCESSFUL_A] = {"successful_a", "", "A's charges ending in base contact", 1, 0, 6},
    [M_SUCCESSFUL_B] = {"successful_b", "", "B's charges ending in base contact", 1, 0, 6},
    [M_FLANK_A] = {"flank_a", "", "A's successful charges into a flank", 1, 0, 6},
    [M_FLANK_B] = {"flank_b", "", "B's successful charges into a flank", 1, 0, 6},
    [M_REAR_A] = {"rear_a", "", "A's successful charges into the rear", 1, 0, 6},
    [M_REAR_B] = {"rear_b", "", "B's successful charges into the rear", 1, 0, 6},
    [M_DECLARED] = {"declared", "", "charges declared, counter charges included", 1, 0, 12},
    [M_COUNTER_CHARGES] = {"counter_charges", "", "counter charges declared", 1, 0, 6},
    [M_INTERCEPTS] = {"intercepts", "", "charges cancelled by a Charge Intercept", 1, 0, 6},
    [M_FLEES] = {"flees", "", "Flee From Charge declarations", 1, 0, 6},
    [M_CAUGHT] = {"caught", "", "fleeing units caught by their charger", 1, 0, 6},
    [M_NO_ROOM] = {"no_room", "", "charges left without room in base contact at resolution", 1,
                   0, 6},
};

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

/* ---- Geometry helpers geom.h does not provide ---- */

/* Facing (geom.h convention: fwd = (-sin f, cos f)) of direction v. */
static double facing_of(cs_vec2 v)
{
    return atan2(-v.x, v.y) * (180.0 / 3.14159265358979323846);
}

/* Interior overlap of two convex polygons (separating axis test); touching
 * within CS_GEOM_EPS is not overlap. */
static bool polys_overlap(const cs_poly *a, const cs_poly *b)
{
    const cs_poly *pp[2] = {a, b};
    for (int w = 0; w < 2; w++) {
        const cs_poly *p = pp[w];
        for (int i = 0; i < p->n; i++) {
            cs_vec2 e0 = p->v[i], e1 = p->v[(i + 1) % p->n];
            double nx = -(e1.y - e0.y), ny = e1.x - e0.x;
            double len = sqrt(nx * nx + ny * ny);
            if (len <= 0.0)
                continue;
            nx /= len;
            ny /= len;
            double amin = INFINITY, amax = -INFINITY, bmin = INFINITY, bmax = -INFINITY;
            for (int k = 0; k < a->n; k++) {
                double t = a->v[k].x * nx + a->v[k].y * ny;
                amin = fmin(amin, t);
                amax = fmax(amax, t);
            }
            for (int k = 0; k < b->n; k++) {
                double t = b->v[k].x * nx + b->v[k].y * ny;
                bmin = fmin(bmin, t);
                bmax = fmax(bmax, t);
            }
            if (amax <= bmin + CS_GEOM_EPS || bmax <= amin + CS_GEOM_EPS)
                return false;
        }
    }
    return true;
}

static double cross3(cs_vec2 o, cs_vec2 a, cs_vec2 b)
{
    return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

/* Convex hull of four points, counter-clockwise (Andrew's monotone chain);
 * fewer than 3 vertices when they are collinear. */
static void hull4(const cs_vec2 in[4], cs_poly *out)
{
    cs_vec2 p[4];
    for (int i = 0; i < 4; i++)
        p[i] = in[i];
    for (int i = 1; i < 4; i++)
        for (int j = i; j > 0 && (p[j].x < p[j - 1].x ||
                                  (p[j].x == p[j - 1].x && p[j].y < p[j - 1].y));
             j--) {
            cs_vec2 t = p[j];
            p[j] = p[j - 1];
            p[j - 1] = t;
        }
    cs_vec2 h[8];
    int k = 0;
    for (int i = 0; i < 4; i++) {
        while (k >= 2 && cross3(h[k - 2], h[k - 1], p[i]) <= 0.0)
            k--;
        h[k++] = p[i];
    }
    for (int i = 2, lo = k + 1; i >= 0; i--) {
        while (k >= lo && cross3(h[k - 2], h[k - 1], p[i]) <= 0.0)
            k--;
        h[k++] = p[i];
    }
    out->n = k - 1;
    for (int i = 0; i < k - 1; i++)
        out->v[i] = h[i];
}

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

/* ---- The phase ---- */

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

enum { OPT_CHARGE, OPT_COUNTER, OPT_FLEE };

typedef struct option {
    int kind;
    int u, t;
    cs_facing side;
    double dist;
} option;

static int side_of_unit(int u)
{
    return u < SIDE_UNITS ? 0 : 1;
}

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

/* Charge Priority (sovl-ChargePhase.md "Charge Intercept"): "A shorter
 * charge distance has higher priority"; "A charge against the side or rear
 * of a unit has higher priority than one against the front". The page lists
 * distance first; which criterion decides first is the `priority` parameter
 * (RULES.md: shorter distance first, then flank/rear). True when charge 1
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
 * gap). sovl-CombatPhase.md "Resolve Engagements": "Each grouping of two or
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
        if (c->ter[j].kind != TERRAIN_BLOCKING && polys_overlap(&rp, &c->ter[j].poly))
            return true;
    return false;
}

/* sovl-ChargePhase.md: "there also needs to be enough space in base contact
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

/* Line of sight for a charge (sovl-ChargePhase.md: the target must be in
 * "Line of Sight of the charger"; sovl-SetupAndDeployment.md: forests,
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
        hull4(pts, &hull);
    }
    for (int j = 0; j < c->n_terrain; j++) {
        if (c->ter[j].kind == TERRAIN_IMPASSABLE)
            continue;
        if (c->los_block == BLOCK_ANY_PART && hull.n >= 3) {
            if (polys_overlap(&hull, &c->ter[j].poly))
                return false;
        } else if (cs_geom_seg_crosses_poly(line, &c->ter[j].poly)) {
            return false;
        }
    }
    return true;
}

/* The static part of "Valid Target" for charger u and target t: not in base
 * contact with the charger (a gap of 0: the two already form an Engagement,
 * sovl-CombatPhase.md, and "If a side of a unit is already engaged ... it's
 * not a valid target for a new charge", sovl-ChargePhase.md "Charge Side";
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

/* sovl-ChargePhase.md "Counter Charge": "if a unit has an incoming charge in
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

/* sovl-ChargePhase.md "Fleeing from a Charge": one enemy unit has declared a
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

/* sovl-ChargePhase.md "Resolve Charges", in declaration order; chases of
 * fleeing units last (assumption: the page fixes no order; this keeps their
 * dice from moving the other placements). A counter charge pair: "rotate
 * both units so they face eachother. Find the half way point between them,
 * then move them into base contact on that point" (between the front-edge
 * centres; no room test). Fleeing: "make a Flight Move away from the
 * charging unit. Then, move the charging unit it's full move speed towards
 * the fleeing unit": the fleeing unit moves straight away along the line of
 * the charge, so the charger catches it iff its move reaches distance +
 * flight move (reach.h; RULES.md: reaching it counts as a success). */
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
                fx = facing_of((cs_vec2){q.x - p.x, q.y - p.y});
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

/* Declarations (sovl-ChargePhase.md: "Players take turns using Alternating
 * Activations to declare one charge at a time, until both players pass"),
 * then the placements. Deterministic given the layout. */
static void run_phase(const charge_ctx *c, const charge_layout *l, phase *ph)
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

/* ---- Outcomes and metrics ---- */

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

static void charge_resolve(const void *vctx, const void *vlayout, cs_rng *rng, cs_trial *out)
{
    const charge_ctx *c = vctx;
    phase ph;
    run_phase(c, vlayout, &ph);
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

static void charge_probabilities(const void *vctx, const void *vlayout, cs_probs *out)
{
    const charge_ctx *c = vctx;
    phase ph;
    run_phase(c, vlayout, &ph);
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
        if (x->chase) {
            int n = x->chase_dice;
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
    }
    /* Each per-phase count is a constant plus independent Bernoulli terms,
     * one per chase that counts toward it: a Poisson-binomial law. */
    for (int i = 0; i < N_DICE_METRICS; i++) {
        int m = dice_metrics[i];
        int base = 0, top = 0;
        double d[MAX_CHARGES + 1] = {1.0};
        for (int k = 0; k < ph.n; k++) {
            const charge *x = &ph.ch[k];
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
    put_point(out, M_DECLARED, ph.n);
    put_point(out, M_COUNTER_CHARGES, ph.n_counters);
    put_point(out, M_INTERCEPTS, ph.n_intercepts);
    put_point(out, M_FLEES, ph.n_flees);
    put_point(out, M_NO_ROOM, no_room(&ph));
}

/* ---- Placement ---- */

static cs_rect fixed_rect(const charge_ctx *c, const double *num, int u)
{
    const double *v = num + P_UNIT1 + u * UNIT_STRIDE;
    return cs_geom_rect((cs_vec2){v[F_X], v[F_Y]}, c->u[u].width, c->u[u].depth, v[F_FACING]);
}

/* head_on: b1 turned about its centre by `angle` from facing a1, centred at
 * x = offset, then pushed along y until its nearest point is `distance`
 * beyond a1's front edge, so no distance >= 0 and no angle overlaps a1. */
static cs_rect head_on_target(const charge_ctx *c, const double *num)
{
    const unit_def *t = &c->u[SIDE_UNITS];
    cs_rect r = cs_geom_rect((cs_vec2){num[P_OFFSET], 0.0}, t->width, t->depth,
                             180.0 + num[P_ANGLE]);
    cs_vec2 k[4];
    cs_geom_corners(&r, k);
    double lo = fmin(fmin(k[0].y, k[1].y), fmin(k[2].y, k[3].y));
    return cs_geom_rect((cs_vec2){num[P_OFFSET], num[P_DISTANCE] - lo}, t->width, t->depth,
                        180.0 + num[P_ANGLE]);
}

static void charge_draw_layout(const void *vctx, const double *num, cs_rng *rng, void *vlayout)
{
    const charge_ctx *c = vctx;
    charge_layout *l = vlayout;
    if (c->placement != PLACE_RANDOM) {
        for (int u = 0; u < MAX_UNITS; u++)
            if (c->present[u])
                l->r[u] = fixed_rect(c, num, u);
        if (c->placement == PLACE_HEAD_ON) {
            l->r[0] = cs_geom_rect_front_at((cs_vec2){0.0, 0.0}, c->u[0].width, c->u[0].depth,
                                            0.0);
            l->r[SIDE_UNITS] = head_on_target(c, num);
        }
        return;
    }
    /* random: centres uniform in the player's half of the engagement area,
     * facing the enemy within +-facing_spread; a unit overlapping one
     * already placed is drawn again (prepare keeps the area ample, so the
     * attempt cap is never the limit in practice). */
    int placed[MAX_UNITS], n_placed = 0;
    for (int u = 0; u < MAX_UNITS; u++) {
        if (!c->present[u])
            continue;
        int s = side_of_unit(u);
        for (int attempt = 0; attempt < 1000; attempt++) {
            double x = (cs_rng_uniform(rng) - 0.5) * c->area_w;
            double y = cs_rng_uniform(rng) * 0.5 * c->area_d * (s == 0 ? -1.0 : 1.0);
            double f = (s == 0 ? 0.0 : 180.0) + (2.0 * cs_rng_uniform(rng) - 1.0) * c->spread;
            l->r[u] = cs_geom_rect((cs_vec2){x, y}, c->u[u].width, c->u[u].depth, f);
            bool clash = false;
            for (int j = 0; j < n_placed && !clash; j++)
                clash = cs_geom_rects_overlap(&l->r[u], &l->r[placed[j]]);
            if (!clash)
                break;
        }
        placed[n_placed++] = u;
    }
}

static bool charge_layout_is_random(const void *vctx)
{
    const charge_ctx *c = vctx;
    return c->placement == PLACE_RANDOM;
}

/* ---- Terrain text ---- */

static const char *skip_space(const char *s)
{
    while (*s == ' ' || *s == '\t')
        s++;
    return s;
}

static cs_status terrain_error(cs_diag *diag, const char *text, const char *at, const char *what)
{
    *diag = (cs_diag){(int)(at - text) + 1, "terrain", what};
    return CS_EINPUT;
}

/* Checks a piece is strictly convex and makes it counter-clockwise. */
static bool make_convex_ccw(cs_poly *p)
{
    double area = 0.0, turn = 0.0;
    int sign = 0;
    for (int i = 0; i < p->n; i++) {
        cs_vec2 a = p->v[i], b = p->v[(i + 1) % p->n], d = p->v[(i + 2) % p->n];
        double cr = cross3(a, b, d);
        int sg = cr > 0.0 ? 1 : cr < 0.0 ? -1 : 0;
        if (sg == 0 || (sign != 0 && sg != sign))
            return false;
        sign = sg;
        area += a.x * b.y - b.x * a.y;
        turn += atan2(cr, (b.x - a.x) * (d.x - b.x) + (b.y - a.y) * (d.y - b.y));
    }
    /* a convex outline turns once around: +-2 pi; a star turns twice */
    if (fabs(fabs(turn) - 2.0 * 3.14159265358979323846) > 1e-6)
        return false;
    if (area < 0.0)
        for (int i = 0, j = p->n - 1; i < j; i++, j--) {
            cs_vec2 t = p->v[i];
            p->v[i] = p->v[j];
            p->v[j] = t;
        }
    return true;
}

/* "kind: x,y x,y x,y ...; kind: ..." with kind solid (default), blocking or
 * impassable; each piece convex with 3..CS_POLY_MAX vertices. */
static cs_status parse_terrain(const char *text, charge_ctx *c, cs_diag *diag)
{
    static const char *const kinds[] = {"solid", "blocking", "impassable"};
    c->n_terrain = 0;
    const char *s = text ? text : "";
    for (;;) {
        s = skip_space(s);
        if (*s == '\0')
            return CS_OK;
        if (c->n_terrain == MAX_TERRAIN)
            return terrain_error(diag, text, s, "at most 4 terrain pieces");
        terrain *t = &c->ter[c->n_terrain];
        t->kind = TERRAIN_SOLID;
        t->poly.n = 0;
        const char *piece = s;
        if (isalpha((unsigned char)*s)) {
            int k = 0;
            for (; k < 3; k++) {
                size_t n = 0;
                while (kinds[k][n] && kinds[k][n] == s[n])
                    n++;
                if (kinds[k][n] == '\0' && !isalpha((unsigned char)s[n])) {
                    s = skip_space(s + n);
                    break;
                }
            }
            if (k == 3 || *s != ':')
                return terrain_error(diag, text, s, "expected solid:, blocking: or impassable:");
            t->kind = k;
            s++;
        }
        for (;;) {
            s = skip_space(s);
            if (*s == ';' || *s == '\0')
                break;
            if (t->poly.n == CS_POLY_MAX)
                return terrain_error(diag, text, s, "at most 12 vertices per piece");
            char *end;
            double x = strtod(s, &end);
            if (end == s)
                return terrain_error(diag, text, s, "expected a vertex x,y");
            s = skip_space(end);
            if (*s != ',')
                return terrain_error(diag, text, s, "expected ',' between x and y");
            s = skip_space(s + 1);
            double y = strtod(s, &end);
            if (end == s)
                return terrain_error(diag, text, s, "expected the vertex's y");
            s = end;
            t->poly.v[t->poly.n++] = (cs_vec2){x, y};
        }
        if (t->poly.n < 3 || !make_convex_ccw(&t->poly))
            return terrain_error(diag, text, piece,
                                 "a piece needs 3 or more vertices forming a convex outline");
        c->n_terrain++;
        if (*s == ';')
            s++;
    }
}

/* ---- prepare ---- */

static cs_status charge_prepare(const cs_params *p, void *vctx, cs_diag *diag)
{
    charge_ctx *c = vctx;
    const double *num = p->num;
    c->n_side[0] = (int)num[P_UNITS_A];
    c->n_side[1] = (int)num[P_UNITS_B];
    for (int u = 0; u < MAX_UNITS; u++) {
        const double *v = num + P_UNIT1 + u * UNIT_STRIDE;
        c->present[u] = u % SIDE_UNITS < c->n_side[side_of_unit(u)];
        const cs_sovl_unit_type *ty = cs_sovl_type_get((int)v[F_TYPE]);
        if (!ty) {
            *diag = (cs_diag){0, charge_params[P_UNIT1 + u * UNIT_STRIDE + F_TYPE].key,
                              "not one of the unit types"};
            return CS_EINPUT;
        }
        c->u[u].width = v[F_FRONTAGE] * ty->base_w_mm / CS_SOVL_MM_PER_INCH;
        c->u[u].depth = v[F_RANKS] * ty->base_d_mm / CS_SOVL_MM_PER_INCH;
        int move = ty->move + (int)v[F_MOVE_MOD];
        c->u[u].move = move > 0 ? move : 0;
        c->u[u].flight_dice = cs_sovl_flight_dice(ty->move);
    }
    c->placement = (int)num[P_PLACEMENT];
    c->area_w = num[P_AREA_WIDTH];
    c->area_d = num[P_AREA_DEPTH];
    c->spread = num[P_FACING_SPREAD];
    c->los_arc = num[P_LOS_ARC];
    c->los_block = (int)num[P_LOS_BLOCK];
    c->priority = (int)num[P_PRIORITY];
    c->policy[0] = (int)num[P_POLICY_A];
    c->policy[1] = (int)num[P_POLICY_B];
    c->flee[0] = num[P_FLEE_A] != 0.0;
    c->flee[1] = num[P_FLEE_B] != 0.0;
    c->first = (int)num[P_FIRST];
    c->focus = (int)num[P_FOCUS] - 1;
    for (int n = 0; n <= MAX_FLIGHT_DICE; n++)
        cs_sovl_nd6(n, c->nd6[n]);
    cs_status st = parse_terrain(p->text[P_TERRAIN], c, diag);
    if (st != CS_OK)
        return st;
    if (c->focus >= 0 && !c->present[c->focus]) {
        *diag = (cs_diag){0, "focus", "names a unit that is not on the table (units_a, units_b)"};
        return CS_EINPUT;
    }
    if (c->placement == PLACE_HEAD_ON && (c->n_side[0] < 1 || c->n_side[1] < 1)) {
        *diag = (cs_diag){0, "placement", "head_on needs a1 and b1 (units_a, units_b >= 1)"};
        return CS_EINPUT;
    }
    if (c->placement == PLACE_RANDOM) {
        /* Rejection placement stays quick while each player's units cover
         * at most a quarter of its half of the area. */
        for (int s = 0; s < 2; s++) {
            double area = 0.0;
            for (int u = s * SIDE_UNITS; u < (s + 1) * SIDE_UNITS; u++)
                if (c->present[u])
                    area += c->u[u].width * c->u[u].depth;
            if (area > 0.25 * c->area_w * 0.5 * c->area_d) {
                *diag = (cs_diag){0, "area_width",
                                  "the engagement area is too small: each player's units may "
                                  "cover at most a quarter of its half"};
                return CS_EINPUT;
            }
        }
        return CS_OK;
    }
    /* A fixed placement (nothing drawn) must not overlap units. */
    bool drawn = p->drawn[P_DISTANCE] || p->drawn[P_OFFSET] || p->drawn[P_ANGLE];
    for (int i = P_UNIT1; i < N_PARAMS; i++)
        drawn = drawn || p->drawn[i];
    if (!drawn) {
        charge_layout l;
        charge_draw_layout(c, num, NULL, &l);
        for (int u = 0; u < MAX_UNITS; u++)
            for (int t = u + 1; t < MAX_UNITS; t++)
                if (c->present[u] && c->present[t] && cs_geom_rects_overlap(&l.r[u], &l.r[t])) {
                    *diag = (cs_diag){0, charge_params[P_UNIT1 + t * UNIT_STRIDE + F_X].key,
                                      "this unit overlaps another one in the fixed placement"};
                    return CS_EINPUT;
                }
    }
    return CS_OK;
}

static const char charge_doc[] =
    "SOVL charge phase (shared/seeds/sovl-charge-phase.md, reference-rules/sovl-ChargePhase.md,\n"
    "RULES.md \"sovl\"). No charge dice: charge range = movement allowance (+ move_mod) of the\n"
    "unit type (sovl-UnitTypes.md), measured from the centre of the charger's front edge to\n"
    "the centre of the target side. One trial is one charge phase with up to 3 units a side.\n"
    "Valid target: not in base contact with the charger: at a gap of 0 (closest points\n"
    "within 1e-6\", corner to corner included) the two already form an Engagement\n"
    "(sovl-CombatPhase.md \"Resolve Engagements\") and an engaged side is no valid target\n"
    "(sovl-ChargePhase.md \"Charge Side\"), so no charge is declared and the focus charge\n"
    "reports `illegal`, this ruleset's outcome for \"no valid target\". The side is the\n"
    "target arc holding the majority of the charger's area (exact clipping; on an exact\n"
    "tie the better valid side by Charge Priority); in range (move >= distance - 1e-6\",\n"
    "CS_REACH_TOL: decimal distances are never flipped by binary floating point);\n"
    "that side's centre inside the charger's line-of-sight arc (los_arc total, rays at\n"
    "los_arc/2 outward from the front corners: 90 by the rules page's figure, 45 the literal\n"
    "text); sight not blocked by solid or blocking terrain (los_block: centre_line = the\n"
    "range line, any_part = the hull of the charger's front edge and the target side); room\n"
    "to place the charger flush in base contact; the side free; a target that declared a\n"
    "charge only by a Charge Intercept of higher priority (priority: distance_first =\n"
    "shorter distance, then flank/rear over front on equal distance, as RULES.md reads the\n"
    "page; flank_first the other order), which cancels its charge.\n"
    "Valid charger: not fleeing, no charge declared, no charge declared against it; except\n"
    "the counter charge: a unit charged only in the front may charge its charger if it is\n"
    "in range (front centre to front centre; no arc or sight test).\n"
    "Declarations: players alternate one at a time (first_player starts) until both pass\n"
    "in a row. Policies: greedy = a charged unit flees first when its player flees (flee_a,\n"
    "flee_b) and may; otherwise the valid charge, intercept or counter charge of highest\n"
    "priority, ties to the lower unit; pass = never declares.\n"
    "Flee From Charge (current rules page): one enemy charge against it, no counter charge\n"
    "of its own, not engaged (in base contact with an enemy), movement > 0 and > charger\n"
    "movement - charge distance (equal within 1e-6\" is not greater). Resolution, in\n"
    "declaration order: charger placed flush against the side, centred, else shifted to\n"
    "keep the most contact (0.1\" scan refined by bisection); no room at all -> illegal.\n"
    "Counter charge pairs turn to face each other and meet halfway between their front\n"
    "centres (counter_charged for both). Chases last: the fleeing unit moves its flight move\n"
    "(one D6 per 4\" of base movement) straight away along the charge line, then the charger\n"
    "moves its full move: caught iff move >= distance + flight - 1e-6\" (success), else\n"
    "fled. Charge distances within 1e-6\" of each other are equal for Charge Priority.\n"
    "Outcome reported: the focus charge (focus = first: the phase's first declared charge;\n"
    "a1..b3: that unit's first declared charge; illegal when there is none). A charge\n"
    "cancelled by an intercept is intercepted. Metrics give per-phase counts.\n"
    "Placement: fixed (x, y, facing per unit), head_on (a1 at the origin facing +y, b1 by\n"
    "distance = gap to its nearest point, offset, angle), random (engagement area, units\n"
    "redrawn until none overlap). Fixed positions are taken as given: prepare refuses\n"
    "overlapping units when no position is drawn; drawn positions are not checked.\n"
    "Assumptions: los_arc 90, centre_line, distance_first; units do not block sight; a\n"
    "fleeing unit takes no new charges; a unit whose charge was intercepted may be charged\n"
    "again like any other; table edges and difficult terrain are not modelled in this phase;\n"
    "no path is checked for a charge (the page places the charger directly).\n"
    "Exact: the declarations are deterministic given the placement, so outcome_probabilities\n"
    "sums the flight-move dice of every chase (Poisson-binomial counts).\n";

static void charge_draw(const void *vctx, const double *num, const cs_rng *layout_rng,
                        const void *vlayout, const cs_rng *dice_rng, const cs_trial *tr,
                        cs_drawing *d);
static cs_status charge_map_place(cs_params *p, double x, double y, cs_map_spot *spot,
                                  cs_diag *diag);

const cs_ruleset cs_rules_sovl = {
    .name = "sovl",
    .summary = "SOVL charge phase: alternating declarations, counter charges, intercepts, "
               "fleeing",
    .doc = charge_doc,
    .params = charge_params,
    .n_params = N_PARAMS,
    .outcomes = charge_outcomes,
    .n_outcomes = N_OUTCOMES,
    .success_mask = (1u << O_CHARGED) | (1u << O_COUNTER_CHARGED) | (1u << O_CAUGHT),
    .metrics = charge_metrics,
    .n_metrics = N_METRICS,
    .ctx_size = sizeof(charge_ctx),
    .layout_size = sizeof(charge_layout),
    .prepare = charge_prepare,
    .layout_is_random = charge_layout_is_random,
    .draw_layout = charge_draw_layout,
    .resolve = charge_resolve,
    .outcome_probabilities = charge_probabilities,
    .map_place = charge_map_place,
    .draw = charge_draw,
};

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

/* The phase replayed from its layout (it is deterministic given the
 * layout), its flight dice rolled again from the trial's stream in the
 * order charge_resolve rolls them. */
static void charge_draw(const void *vctx, const double *num, const cs_rng *layout_rng,
                        const void *vlayout, const cs_rng *dice_rng, const cs_trial *tr,
                        cs_drawing *d)
{
    const charge_ctx *c = vctx;
    const charge_layout *l = vlayout;
    (void)num;
    (void)layout_rng;
    static phase ph; /* large; draw runs once */
    run_phase(c, l, &ph);
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
    d->outcome = charge_outcomes[tr->outcome];
    cs_drawing_caption(d, "SOVL charge phase: players alternate declarations until both pass, "
                          "then Resolve Charges in declaration order; the focus is %s",
                       f >= 0 ? unit_names[fu] : "none (no charge declared)");
    for (int k = 0; k < ph.n; k++)
        draw_charge(c, l, &ph, &ph.ch[k], flight[k], fu >= 0 ? side_of_unit(fu) : 0, d);
    for (int u = 0; u < MAX_UNITS; u++)
        if (c->present[u] && ph.fled[u])
            cs_drawing_caption(d, "%s declared Flee From Charge", unit_names[u]);
}

/* ---- Threat maps (issue 20) ---- */

/* b1 placed head-on with its front-edge centre at (x, y): at angle 0 that is
 * offset = x, distance = y; turned, head_on_target turns b1 about its
 * centre and measures `distance` to its nearest point, so the centre is
 * worked back from the front-edge centre. b1 cannot stand touching or
 * overlapping a1 (already in base contact: an engaged side is no valid
 * target, sovl-ChargePhase.md "Charge Side"), overlapping another unit, or
 * on solid or impassable terrain (sovl-SetupAndDeployment.md). */
static cs_status charge_map_place(cs_params *p, double x, double y, cs_map_spot *spot,
                                  cs_diag *diag)
{
    double *num = p->num;
    if ((int)num[P_PLACEMENT] != PLACE_HEAD_ON) {
        *diag = (cs_diag){0, "placement",
                          "a threat map places b1 head-on against a1: set placement = head_on"};
        return CS_EINPUT;
    }
    static const int keys[] = {P_DISTANCE, P_OFFSET, P_ANGLE};
    for (int i = 0; i < 3; i++)
        if (p->drawn[keys[i]]) {
            *diag = (cs_diag){0, charge_params[keys[i]].key,
                              "is drawn per trial, but a threat map places b1's front-edge "
                              "centre at the cell: fix it or leave it out"};
            return CS_EINPUT;
        }
    charge_ctx c;
    num[P_DISTANCE] = 1000.0; /* far from every unit while prepare checks them */
    if (charge_prepare(p, &c, diag) != CS_OK)
        return CS_EINPUT;
    const unit_def *t = &c.u[SIDE_UNITS];
    num[P_OFFSET] = x;
    num[P_DISTANCE] = y;
    if (num[P_ANGLE] != 0.0) {
        cs_rect r = cs_geom_rect_front_at((cs_vec2){x, y}, t->width, t->depth,
                                          180.0 + num[P_ANGLE]);
        cs_vec2 k[4];
        cs_geom_corners(&r, k);
        num[P_OFFSET] = r.c.x;
        num[P_DISTANCE] = fmin(fmin(k[0].y, k[1].y), fmin(k[2].y, k[3].y));
    }
    charge_layout l;
    charge_draw_layout(&c, num, NULL, &l);
    const cs_rect *b1 = &l.r[SIDE_UNITS];
    spot->charger_w = c.u[0].width;
    spot->charger_d = c.u[0].depth;
    spot->placed = !cs_reaches(0.0, cs_geom_dist_rect_rect(&l.r[0], b1));
    for (int u = 1; spot->placed && u < MAX_UNITS; u++)
        if (u != SIDE_UNITS && c.present[u] && cs_geom_rects_overlap(b1, &l.r[u]))
            spot->placed = false;
    cs_poly bp = cs_geom_rect_poly(b1);
    for (int i = 0; spot->placed && i < c.n_terrain; i++)
        if (c.ter[i].kind != TERRAIN_BLOCKING && polys_overlap(&bp, &c.ter[i].poly))
            spot->placed = false;
    return CS_OK;
}
