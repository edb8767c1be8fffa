/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_SCENARIO_H
#define CHARGESIM_SCENARIO_H
/* The battlefield of one trial: charger, target, a few other units and a
 * few terrain pieces, placed relative to the canonical head-on layout
 * (docs/rules/README.md, the head-on layout). Pure; building one is cheap (a few sin/cos)
 * because every placement value may be drawn afresh each trial.
 *
 * The scenario frame (geom.h conventions, inches and degrees):
 *   - the charger's front-edge centre is the origin and it faces 0 (+y);
 *   - head-on, the target faces 180 with its front-edge centre at
 *     (0, distance): `distance` is the gap between the two front edges;
 *   - `offset` shifts the target along x (to the charger's right when > 0);
 *   - `angle` then rotates the target about its own front-edge centre,
 *     counter-clockwise (seen from above) when > 0;
 *   - other units and terrain give the centre (x, y) in this frame and an
 *     angle: a unit's facing (0 = facing the way the charger faces, 180 =
 *     facing the charger), a terrain piece's rotation.
 *
 * How a ruleset uses it:
 *   static const cs_param_def params[] = {
 *       { "my_rule_param", ... },
 *       CS_SCENARIO_PARAMS("8", "5", "2", "1", "1", "5", "2", "1", "1"),
 *   };
 *   #define FIRST_SCN 1   // index of "distance" in params
 *   ...draw_layout: cs_scenario_build(num, FIRST_SCN, &layout->scn);
 * and num[FIRST_SCN + CS_SCN_DISTANCE] etc. read single values.
 *
 * Layer: rules (src/rules/scenario.c), not core: its parameter entries and
 * checks are part of the ruleset interface (ruleset.h: cs_param_def,
 * CS_PF_LAYOUT), shared by the rulesets that place units on a table. Its
 * geometry comes from core (geom.h). */
#include <stdbool.h>

#include "chargesim/geom.h"
#include "chargesim/ruleset.h"
#include "chargesim/status.h"

#define CS_SCN_MAX_OTHERS  3 /* other units an experiment can place */
#define CS_SCN_MAX_TERRAIN 2 /* terrain rectangles an experiment can place */

typedef enum cs_unit_kind {
    CS_UNIT_ENEMY = 0,  /* an enemy of the charger: the charge may not touch it,
                           it may intercept, it blocks sight */
    CS_UNIT_FRIEND = 1, /* a friend of the charger: blocks movement (1" spacing)
                           and sight */
} cs_unit_kind;

typedef enum cs_terrain_kind {
    CS_TERRAIN_BLOCKING = 0,   /* blocks line of sight only */
    CS_TERRAIN_IMPASSABLE = 1, /* blocks movement only (1" spacing) */
    CS_TERRAIN_SOLID = 2,      /* blocks both */
} cs_terrain_kind;

typedef struct cs_unit {
    cs_rect r;
    cs_formation fm;
    cs_unit_kind kind;
} cs_unit;

typedef struct cs_terrain {
    cs_poly poly;
    cs_terrain_kind kind;
} cs_terrain;

typedef struct cs_scenario {
    cs_unit charger; /* kind unused */
    cs_unit target;  /* kind unused */
    int n_others;
    cs_unit others[CS_SCN_MAX_OTHERS];
    int n_terrain;
    cs_terrain terrain[CS_SCN_MAX_TERRAIN];
} cs_scenario;

/* Offsets of the scenario parameters from the first one (`distance`), in
 * the order CS_SCENARIO_PARAMS lists them. Other unit i (0-based) starts at
 * CS_SCN_OTHER1 + i * CS_SCN_OTHER_STRIDE, terrain piece j at
 * CS_SCN_TERRAIN1 + j * CS_SCN_TERRAIN_STRIDE. */
enum {
    CS_SCN_DISTANCE = 0,
    CS_SCN_OFFSET,
    CS_SCN_ANGLE,
    CS_SCN_CHARGER_WIDTH,
    CS_SCN_CHARGER_DEPTH,
    CS_SCN_CHARGER_BASE_WIDTH,
    CS_SCN_CHARGER_BASE_DEPTH,
    CS_SCN_CHARGER_MODELS,
    CS_SCN_TARGET_WIDTH,
    CS_SCN_TARGET_DEPTH,
    CS_SCN_TARGET_BASE_WIDTH,
    CS_SCN_TARGET_BASE_DEPTH,
    CS_SCN_TARGET_MODELS,
    CS_SCN_OTHER1,
};

/* Offsets within one other unit's block. */
enum {
    CS_SCN_OTHER_KIND = 0,
    CS_SCN_OTHER_X,
    CS_SCN_OTHER_Y,
    CS_SCN_OTHER_ANGLE,
    CS_SCN_OTHER_WIDTH,
    CS_SCN_OTHER_DEPTH,
    CS_SCN_OTHER_STRIDE,
};

/* Offsets within one terrain piece's block. */
enum {
    CS_SCN_TERRAIN_KIND = 0,
    CS_SCN_TERRAIN_X,
    CS_SCN_TERRAIN_Y,
    CS_SCN_TERRAIN_ANGLE,
    CS_SCN_TERRAIN_WIDTH,
    CS_SCN_TERRAIN_DEPTH,
    CS_SCN_TERRAIN_STRIDE,
};

enum {
    CS_SCN_TERRAIN1 = CS_SCN_OTHER1 + CS_SCN_MAX_OTHERS * CS_SCN_OTHER_STRIDE,
    CS_SCN_N_PARAMS = CS_SCN_TERRAIN1 + CS_SCN_MAX_TERRAIN * CS_SCN_TERRAIN_STRIDE,
};

/* Choice lists of the kind parameters (NULL-terminated): "enemy", "friend";
 * "blocking", "impassable", "solid". */
extern const char *const cs_scenario_unit_kinds[];
extern const char *const cs_scenario_terrain_kinds[];

#define CS_SCN_UNIT_(n)                                                                  \
    { "other" #n "_kind", CS_PARAM_CHOICE, "enemy", "",                                  \
      "other unit " #n ": enemy (the charge may not touch it) or friend", 0, 0,          \
      cs_scenario_unit_kinds, 0 },                                                       \
    { "other" #n "_x", CS_PARAM_REAL, "0", "in",                                         \
      "other unit " #n ": centre x (charger front-edge centre = origin, +x its right)",  \
      -200, 200, NULL, CS_PF_LAYOUT },                                                   \
    { "other" #n "_y", CS_PARAM_REAL, "0", "in",                                         \
      "other unit " #n ": centre y (+y = the charger's forward direction)",              \
      -200, 200, NULL, CS_PF_LAYOUT },                                                   \
    { "other" #n "_angle", CS_PARAM_REAL, "180", "deg",                                  \
      "other unit " #n ": facing, 0 = as the charger, 180 = towards it",                 \
      -360, 360, NULL, CS_PF_LAYOUT },                                                   \
    { "other" #n "_width", CS_PARAM_REAL, "0", "in",                                     \
      "other unit " #n ": frontage; 0 = absent", 0, 100, NULL, CS_PF_LAYOUT },           \
    { "other" #n "_depth", CS_PARAM_REAL, "2", "in",                                     \
      "other unit " #n ": depth", 0.01, 100, NULL, CS_PF_LAYOUT }

#define CS_SCN_TERRAIN_(n)                                                               \
    { "terrain" #n "_kind", CS_PARAM_CHOICE, "solid", "",                                \
      "terrain " #n ": blocking (sight), impassable (movement) or solid (both)", 0, 0,   \
      cs_scenario_terrain_kinds, 0 },                                                    \
    { "terrain" #n "_x", CS_PARAM_REAL, "0", "in", "terrain " #n ": centre x",           \
      -200, 200, NULL, CS_PF_LAYOUT },                                                   \
    { "terrain" #n "_y", CS_PARAM_REAL, "0", "in", "terrain " #n ": centre y",           \
      -200, 200, NULL, CS_PF_LAYOUT },                                                   \
    { "terrain" #n "_angle", CS_PARAM_REAL, "0", "deg",                                  \
      "terrain " #n ": rotation, counter-clockwise", -360, 360, NULL, CS_PF_LAYOUT },    \
    { "terrain" #n "_width", CS_PARAM_REAL, "0", "in",                                   \
      "terrain " #n ": extent along x before rotation; 0 = absent", 0, 100, NULL,        \
      CS_PF_LAYOUT },                                                                    \
    { "terrain" #n "_depth", CS_PARAM_REAL, "1", "in",                                   \
      "terrain " #n ": extent along y before rotation", 0.01, 100, NULL, CS_PF_LAYOUT }

/* The scenario's parameter table entries, CS_SCN_N_PARAMS of them, to put
 * inside a ruleset's own cs_param_def array. The arguments are the default
 * texts of: distance, charger width, depth, base width, base depth, target
 * width, depth, base width, base depth (the unit sizes differ per game). */
#define CS_SCENARIO_PARAMS(dist, cw, cd, cbw, cbd, tw, td, tbw, tbd)                      \
    { "distance", CS_PARAM_REAL, dist, "in",                                             \
      "gap between the charger's and the target's front edges in the head-on layout",    \
      0, 200, NULL, CS_PF_LAYOUT },                                                      \
    { "offset", CS_PARAM_REAL, "0", "in",                                                \
      "lateral shift of the target, + = to the charger's right", -200, 200, NULL,        \
      CS_PF_LAYOUT },                                                                    \
    { "angle", CS_PARAM_REAL, "0", "deg",                                                \
      "rotation of the target about its front-edge centre, + = counter-clockwise",       \
      -180, 180, NULL, CS_PF_LAYOUT },                                                   \
    { "charger_width", CS_PARAM_REAL, cw, "in", "charger frontage", 0.01, 100, NULL,     \
      CS_PF_LAYOUT },                                                                    \
    { "charger_depth", CS_PARAM_REAL, cd, "in", "charger depth", 0.01, 100, NULL,        \
      CS_PF_LAYOUT },                                                                    \
    { "charger_base_width", CS_PARAM_REAL, cbw, "in",                                    \
      "charger model base width: files = round(width / base width)", 0.01, 100, NULL,   \
      0 },                                                                               \
    { "charger_base_depth", CS_PARAM_REAL, cbd, "in",                                    \
      "charger model base depth: ranks = round(depth / base depth)", 0.01, 100, NULL,   \
      0 },                                                                               \
    { "charger_models", CS_PARAM_INT, "0", "",                                           \
      "charger model count; 0 = full ranks (files x ranks); a short last rank is "       \
      "centred", 0, 10000, NULL, CS_PF_ASSUMPTION },                                     \
    { "target_width", CS_PARAM_REAL, tw, "in", "target frontage", 0.01, 100, NULL,       \
      CS_PF_LAYOUT },                                                                    \
    { "target_depth", CS_PARAM_REAL, td, "in", "target depth", 0.01, 100, NULL,          \
      CS_PF_LAYOUT },                                                                    \
    { "target_base_width", CS_PARAM_REAL, tbw, "in",                                     \
      "target model base width: files = round(width / base width)", 0.01, 100, NULL,    \
      0 },                                                                               \
    { "target_base_depth", CS_PARAM_REAL, tbd, "in",                                     \
      "target model base depth: ranks = round(depth / base depth)", 0.01, 100, NULL,    \
      0 },                                                                               \
    { "target_models", CS_PARAM_INT, "0", "",                                            \
      "target model count; 0 = full ranks (files x ranks); a short last rank is "        \
      "centred", 0, 10000, NULL, CS_PF_ASSUMPTION },                                     \
    CS_SCN_UNIT_(1), CS_SCN_UNIT_(2), CS_SCN_UNIT_(3),                                   \
    CS_SCN_TERRAIN_(1), CS_SCN_TERRAIN_(2)

/* Checks the scenario values of one sweep point (num[first..], centres of
 * drawn values included) beyond the per-key ranges: a model count larger
 * than files x ranks, or a unit overlapping the charger or target in the
 * fixed layout. Returns CS_EINPUT naming the key in diag. Call from the
 * ruleset's prepare. */
cs_status cs_scenario_check(const double *num, int first, cs_diag *diag);

/* Builds the scenario from num[first .. first + CS_SCN_N_PARAMS - 1]
 * (the trial's values, draws in place). Others and terrain with width 0
 * are left out (n_others, n_terrain count the present ones, in parameter
 * order). Never fails: values are range-checked by the loader and
 * cs_scenario_check; a drawn value outside the geometric sense (negative
 * width from a normal draw) is clamped to the smallest accepted value. */
void cs_scenario_build(const double *num, int first, cs_scenario *out);

/* The canonical head-on layout alone (no others, no terrain), full ranks:
 * for tests and for rulesets that place units themselves. */
void cs_scenario_head_on(double distance, double offset, double angle,
                         double charger_width, double charger_depth,
                         double target_width, double target_depth, cs_scenario *out);

/* The other units of one kind as an array of rectangles (for
 * cs_geom_snake's `others`), returning how many; out has room for
 * CS_SCN_MAX_OTHERS. */
int cs_scenario_units_of_kind(const cs_scenario *s, cs_unit_kind kind, cs_rect *out);

/* The blockers of movement with their clearance, for cs_geom_advance:
 * every other unit and every impassable or solid terrain piece, each with
 * `gap`; out has room for CS_SCN_MAX_OTHERS + CS_SCN_MAX_TERRAIN + 1. The
 * target is included first (index 0, gap 0) when with_target is true, so a
 * straight charge stops at contact with it. Returns the count. */
int cs_scenario_obstacles(const cs_scenario *s, bool with_target, double gap,
                          cs_obstacle *out);

/* The blockers of sight for cs_geom_los: other units (either kind) and
 * blocking or solid terrain. out has room for CS_LOS_MAX_BLOCK. */
int cs_scenario_sight_blockers(const cs_scenario *s, cs_poly *out);

/* The threat-map placement (issue 20, ruleset.h map_place) of a ruleset
 * built on this scenario: offset = x, distance = y, so the target's
 * front-edge centre stands at (x, y) facing the charger (angle turns it
 * about that point, as always). The target cannot stand where it touches
 * or overlaps the charger (already in base contact: there is no charge to
 * declare; touching within CS_REACH_TOL, reach.h), overlaps another unit,
 * or stands on impassable or solid terrain. A drawn distance or offset is
 * refused: the map sets both. */
cs_status cs_scenario_map_place(cs_params *p, int first, double x, double y, cs_map_spot *spot,
                                cs_diag *diag);

/* The keys that placement sets ("distance", "offset"; ruleset.h map_keys). */
extern const char *const cs_scenario_map_keys[];

#endif
