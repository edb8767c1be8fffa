/* SPDX-License-Identifier: GPL-3.0-or-later */
/* SOVL charge phase ruleset `sovl`: its parameters, outcomes and metrics,
 * the placement of the units, prepare and the ruleset
 * struct. The phase itself is sovl_phase.c, its dice sovl_exact.c. */
#include <math.h>
#include <stddef.h>
#include <string.h>

#include "chargesim/geom.h"
#include "chargesim/reach.h"
#include "chargesim/poly_parse.h"
#include "chargesim/registry.h"
#include "chargesim/sovl.h"
#include "sovl_internal.h"

static const char *const placement_choices[] = {"fixed", "head_on", "random", NULL};
static const char *const block_choices[] = {"centre_line", "any_part", NULL};
static const char *const priority_choices[] = {"distance_first", "flank_first", NULL};
static const char *const policy_choices[] = {"greedy", "pass", NULL};
static const char *const player_choices[] = {"a", "b", NULL};
/* Indexed like TERRAIN_*; an unlabelled piece is solid. */
static const char *const terrain_kinds[] = {"solid", "blocking", "impassable", NULL};
static const char *const focus_choices[] = {"first", "a1", "a2", "a3", "b1", "b2", "b3", NULL};

#define UNIT_PARAMS(id, x, y, facing)                                                          \
    {id "_type", CS_PARAM_CHOICE, "infantry_20", "",                                           \
     "unit " id ": unit type; base size and movement = charge range (SOVL Unit Stats and Types)", 0, 0, \
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
     "unit " id ": movement modifier (Swift +1, Heavy Armor -1...; SOVL Equipment and Unit Properties); "  \
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
                   "arc\" (SOVL Charge Phase)",
                   1, 180, NULL, CS_PF_ASSUMPTION},
    [P_LOS_BLOCK] = {"los_block", CS_PARAM_CHOICE, "centre_line", "",
                     "centre_line: blocked when the range line (charger front-edge centre to "
                     "target-side centre) crosses LoS-blocking terrain; any_part (stricter): "
                     "blocked when terrain enters any line between the charger's front edge and "
                     "the target side",
                     0, 0, block_choices, CS_PF_ASSUMPTION},
    [P_PRIORITY] = {"priority", CS_PARAM_CHOICE, "distance_first", "",
                    "Charge Priority order (SOVL Charge Phase \"Charge Intercept\"): shorter "
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
    [P_TERRAIN] = {"terrain", CS_PARAM_POLYGON, "", "in",
                   "convex terrain pieces \"kind: x,y x,y x,y ...; ...\" (kind solid = cliff or "
                   "building, blocking = forest, impassable = river; SOVL Setup and Deployment)",
                   0, 0, terrain_kinds, 0},
    UNIT_PARAMS("a1", "0", "-1.181", "0"),
    UNIT_PARAMS("a2", "-8", "-1.181", "0"),
    UNIT_PARAMS("a3", "8", "-1.181", "0"),
    UNIT_PARAMS("b1", "0", "7.181", "180"),
    UNIT_PARAMS("b2", "-8", "7.181", "180"),
    UNIT_PARAMS("b3", "8", "7.181", "180"),
};

static const char *const charge_outcome_help[N_OUTCOMES] = {
    [O_CHARGED] = "the charger reached its target in base contact",
    [O_COUNTER_CHARGED] = "the target counter charged: both met halfway",
    [O_INTERCEPTED] = "a charge of higher priority hit the charger first, cancelling its own",
    [O_FLED] = "the target fled out of reach",
    [O_CAUGHT] = "the target fled and was caught",
    [O_ILLEGAL] = "no valid charge: out of range, out of sight, no room, or already engaged",
};
/* The default units from 4 to 14": charged, then out of reach. */
static const char *const charge_example = "distance=4..14";
static const cs_game charge_games[] = {
    {"SOVL: the charge phase", NULL, &charge_example}};
static const char *const charge_map_keys[] = {"distance", "offset", NULL};

static const cs_metric_def charge_metrics[N_METRICS] = {
    [M_DISTANCE] = {"distance", "in", "the focus charge's distance", 0.1, 0, 20, CS_METRIC_DIST},
    [M_SIDE] = {"side", "", "the focus charge's side: 0 front, 1 flank, 2 rear", 1, 0, 2,
                CS_METRIC_DIST},
    [M_FLIGHT] = {"flight", "in", "flight move of the unit fleeing the focus charge", 1, 0, 24,
                  CS_METRIC_DIST},
    [M_SUCCESSFUL_A] = {"successful_a", "", "A's charges ending in base contact", 1, 0, 6,
                        CS_METRIC_DIST},
    [M_SUCCESSFUL_B] = {"successful_b", "", "B's charges ending in base contact", 1, 0, 6,
                        CS_METRIC_DIST},
    [M_FLANK_A] = {"flank_a", "", "A's successful charges into a flank", 1, 0, 6, CS_METRIC_DIST},
    [M_FLANK_B] = {"flank_b", "", "B's successful charges into a flank", 1, 0, 6, CS_METRIC_DIST},
    [M_REAR_A] = {"rear_a", "", "A's successful charges into the rear", 1, 0, 6, CS_METRIC_DIST},
    [M_REAR_B] = {"rear_b", "", "B's successful charges into the rear", 1, 0, 6, CS_METRIC_DIST},
    [M_DECLARED] = {"declared", "", "charges declared, counter charges included", 1, 0, 12,
                    CS_METRIC_DIST},
    [M_COUNTER_CHARGES] = {"counter_charges", "", "counter charges declared", 1, 0, 6,
                           CS_METRIC_DIST},
    [M_INTERCEPTS] = {"intercepts", "", "charges cancelled by a Charge Intercept", 1, 0, 6,
                      CS_METRIC_DIST},
    [M_FLEES] = {"flees", "", "Flee From Charge declarations", 1, 0, 6, CS_METRIC_DIST},
    [M_CAUGHT] = {"caught", "", "fleeing units caught by their charger", 1, 0, 6, CS_METRIC_DIST},
    [M_NO_ROOM] = {"no_room", "", "charges left without room in base contact at resolution", 1,
                   0, 6, CS_METRIC_DIST},
};

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

/* ---- prepare ---- */

/* Which units are on the table, their footprints (frontage and ranks of
 * bases, SOVL Unit Stats and Types "Unit Types"), charge range and flight dice. */
static void prepare_units(charge_ctx *c, const double *num)
{
    c->n_side[0] = (int)num[P_UNITS_A];
    c->n_side[1] = (int)num[P_UNITS_B];
    for (int u = 0; u < MAX_UNITS; u++) {
        const double *v = num + P_UNIT1 + u * UNIT_STRIDE;
        c->present[u] = u % SIDE_UNITS < c->n_side[side_of_unit(u)];
        /* an index of the unit types, checked by the loader (ruleset.h, prepare) */
        const cs_sovl_unit_type *ty = cs_sovl_type_get((int)v[F_TYPE]);
        c->u[u].width = v[F_FRONTAGE] * ty->base_w_mm / CS_SOVL_MM_PER_INCH;
        c->u[u].depth = v[F_RANKS] * ty->base_d_mm / CS_SOVL_MM_PER_INCH;
        int move = ty->move + (int)v[F_MOVE_MOD];
        c->u[u].move = move > 0 ? move : 0;
        c->u[u].flight_dice = cs_sovl_flight_dice(ty->move);
    }
}

/* The terrain pieces (SOVL Setup and Deployment), parsed by the one
 * polygon parser (the loader has checked the same text with it). */
static cs_status prepare_terrain(charge_ctx *c, const char *text, cs_diag *diag)
{
    cs_poly_list pl;
    cs_status st = cs_poly_parse(text, text ? strlen(text) : 0, terrain_kinds, &pl, diag);
    if (st != CS_OK) {
        diag->key = charge_params[P_TERRAIN].key;
        return st;
    }
    c->n_terrain = pl.n;
    for (int j = 0; j < pl.n; j++)
        c->ter[j] = (terrain){pl.poly[j], pl.kind[j]};
    return CS_OK;
}

/* random: rejection placement stays quick while each player's units cover
 * at most a quarter of its half of the area. */
static cs_status check_random_area(const charge_ctx *c, cs_diag *diag)
{
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
static cs_status check_fixed_overlap(const charge_ctx *c, const cs_params *p, cs_diag *diag)
{
    bool drawn = p->drawn[P_DISTANCE] || p->drawn[P_OFFSET] || p->drawn[P_ANGLE];
    for (int i = P_UNIT1; i < N_PARAMS; i++)
        drawn = drawn || p->drawn[i];
    if (drawn)
        return CS_OK;
    charge_layout l;
    charge_draw_layout(c, p->num, NULL, &l);
    for (int u = 0; u < MAX_UNITS; u++)
        for (int t = u + 1; t < MAX_UNITS; t++)
            if (c->present[u] && c->present[t] && cs_geom_rects_overlap(&l.r[u], &l.r[t])) {
                *diag = (cs_diag){0, charge_params[P_UNIT1 + t * UNIT_STRIDE + F_X].key,
                                  "this unit overlaps another one in the fixed placement"};
                return CS_EINPUT;
            }
    return CS_OK;
}

static cs_status charge_prepare(const cs_params *p, void *vctx, cs_diag *diag)
{
    charge_ctx *c = vctx;
    const double *num = p->num;
    prepare_units(c, num);
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
    cs_status st = prepare_terrain(c, p->text[P_TERRAIN], diag);
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
    if (c->placement == PLACE_RANDOM)
        return check_random_area(c, diag);
    return check_fixed_overlap(c, p, diag);
}

static const char charge_doc[] =
    "SOVL charge phase (SOVL rules, Charge Phase; the project's account: docs/rules/sovl.md).\n"
    "No charge dice: charge range = movement allowance (+ move_mod) of the\n"
    "unit type (SOVL Unit Stats and Types), measured from the centre of the charger's front edge to\n"
    "the centre of the target side. One trial is one charge phase with up to 3 units a side.\n"
    "Valid target: not in base contact with the charger: at a gap of 0 (closest points\n"
    "within 1e-6\", corner to corner included) the two already form an Engagement\n"
    "(SOVL Combat Phase \"Resolve Engagements\") and an engaged side is no valid target\n"
    "(SOVL Charge Phase \"Charge Side\"), so no charge is declared and the focus charge\n"
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
    "shorter distance, then flank/rear over front on equal distance, as docs/rules/sovl.md reads the\n"
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

static cs_status charge_map_place(cs_params *p, double x, double y, cs_map_spot *spot,
                                  cs_diag *diag);

const cs_ruleset cs_rules_sovl = {
    .name = "sovl",
    .summary = "SOVL charge phase: alternating declarations, counter charges, intercepts, "
               "fleeing",
    .doc = charge_doc,
    .params = charge_params,
    .n_params = N_PARAMS,
    .outcomes = cs_sovl_charge_outcomes,
    .outcome_help = charge_outcome_help,
    .n_outcomes = N_OUTCOMES,
    .games = charge_games,
    .n_games = 1,
    .map_keys = charge_map_keys,
    .success_mask = (1u << O_CHARGED) | (1u << O_COUNTER_CHARGED) | (1u << O_CAUGHT),
    .metrics = charge_metrics,
    .n_metrics = N_METRICS,
    .ctx_size = sizeof(charge_ctx),
    .layout_size = sizeof(charge_layout),
    .prepare = charge_prepare,
    .layout_is_random = charge_layout_is_random,
    .draw_layout = charge_draw_layout,
    .resolve = cs_sovl_charge_resolve,
    .outcome_probabilities = cs_sovl_charge_probabilities,
    .draw = cs_sovl_charge_draw,
    .map_place = charge_map_place,
};

/* ---- Threat maps (issue 20) ---- */

/* b1 placed head-on with its front-edge centre at (x, y): at angle 0 that is
 * offset = x, distance = y; turned, head_on_target turns b1 about its
 * centre and measures `distance` to its nearest point, so the centre is
 * worked back from the front-edge centre. b1 cannot stand touching or
 * overlapping a1 (already in base contact: an engaged side is no valid
 * target, SOVL Charge Phase "Charge Side"), overlapping another unit, or
 * on solid or impassable terrain (SOVL Setup and Deployment). */
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
        if (c.ter[i].kind != TERRAIN_BLOCKING && cs_geom_polys_overlap(&bp, &c.ter[i].poly))
            spot->placed = false;
    return CS_OK;
}
