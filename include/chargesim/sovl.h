/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_SOVL_H
#define CHARGESIM_SOVL_H
/* SOVL ("Game Loop" rules; docs/rules/sovl.md): the unit types
 * table and the dice of the strategic and combat phases as pure functions,
 * each with an exact probability beside its sampler (src/rules/sovl.c). The
 * charge phase itself is the `sovl` ruleset (src/rules/sovl_setup.c, with
 * sovl_phase.c and sovl_exact.c); the dice experiments are the `sovl_dice`
 * ruleset (src/rules/sovl_dice.c). Pure: no I/O, no allocation. */
#include <stdbool.h>

#include "chargesim/rng.h"

/* The unit types of SOVL Unit Stats and Types "Unit Types", in table order. */
typedef enum cs_sovl_type {
    CS_SOVL_INFANTRY_20,
    CS_SOVL_INFANTRY_25,
    CS_SOVL_CAVALRY,
    CS_SOVL_MONSTROUS_INFANTRY,
    CS_SOVL_LARGE_MONSTER,
    CS_SOVL_CHARIOT,
    CS_SOVL_WAR_MACHINE,
    CS_SOVL_WEAPON_TEAM,
    CS_SOVL_WAR_WAGON,
    CS_SOVL_SWARM,
    CS_SOVL_N_TYPES
} cs_sovl_type;

typedef struct cs_sovl_unit_type {
    const char *key;     /* as written in experiments: "infantry_20", "cavalry" ... */
    double base_w_mm;    /* model base frontage, millimetres */
    double base_d_mm;    /* model base depth, millimetres */
    int move;            /* movement allowance = charge range, inches */
    double pivot_cost;   /* movement points per pivot of up to 45 degrees */
} cs_sovl_unit_type;

/* The row of unit type `t` (0 <= t < CS_SOVL_N_TYPES); NULL otherwise. */
const cs_sovl_unit_type *cs_sovl_type_get(int t);

/* The type keys in table order, NULL-terminated, for CHOICE parameters
 * (constant data, so parameter tables can point at it). */
extern const char *const cs_sovl_type_keys[CS_SOVL_N_TYPES + 1];

/* Millimetres to inches (the rules give bases in mm and distances in inches). */
#define CS_SOVL_MM_PER_INCH 25.4

/* ---- Discipline tests (SOVL Unit Stats and Types "Discipline and Rank Bonus",
 * SOVL Combat Phase "Break Tests", SOVL Strategic Phase "Rally") ---- */

enum {
    CS_SOVL_FEARLESS = 1u << 0,   /* ignores all penalties to Discipline tests */
    CS_SOVL_REANIMATED = 1u << 1, /* never fails Discipline tests */
};

/* Rank Bonus: +1 for each rank holding at least 3 models, the first rank
 * included. `models` fill ranks of `frontage` from the front; the last rank
 * may be partial. 0 for models <= 0 or frontage <= 0. */
int cs_sovl_rank_bonus(int models, int frontage);

/* The largest 2D6 total that passes: discipline + rank bonus - penalty (the
 * combat score difference of a break test; 0 for a rally). FEARLESS drops
 * the penalty; REANIMATED passes whatever the dice (returns 12). */
int cs_sovl_discipline_target(int discipline, int rank_bonus, int penalty, unsigned props);

/* P(2D6 <= target), exactly: 0 below 2, 1 from 12. */
double cs_sovl_discipline_p(int target);

/* One sampled test: rolls 2D6 into *roll (if not NULL); true on a pass. */
bool cs_sovl_discipline_roll(int target, cs_rng *rng, int *roll);

/* ---- Flight moves (SOVL Unit Stats and Types "Flight Move") ---- */

/* One D6 for each 4 points of BASE movement allowance (modifiers such as
 * Swift do not count): infantry 2, monsters 3, cavalry 4, war machine 0. */
int cs_sovl_flight_dice(int base_move);

#define CS_SOVL_MAX_DICE 16

/* The exact distribution of the sum of n D6 (0 <= n <= CS_SOVL_MAX_DICE):
 * p[s] = P(sum = s) for s = 0..6n; p must hold 6n + 1 entries. */
void cs_sovl_nd6(int n, double *p);

/* P(a flight move of n D6 reaches a table edge `edge_distance` inches away),
 * i.e. P(nD6 >= edge_distance - CS_REACH_TOL), decided by cs_reaches
 * (reach.h): the unit then flees the battlefield. */
double cs_sovl_flight_p_reach(int n, double edge_distance);

/* One sampled flight move of n D6, in inches. */
int cs_sovl_flight_roll(int n, cs_rng *rng);

/* ---- Ranged attacks (SOVL Strategic Phase "Ranged Attacks") and the
 * damage save (SOVL Combat Phase "Damage Save") ---- */

typedef enum cs_sovl_weapon {
    CS_SOVL_LONGBOW,
    CS_SOVL_SHORTBOW,
    CS_SOVL_CROSSBOW,
    CS_SOVL_HANDGUN,
    CS_SOVL_SLING,
    CS_SOVL_JAVELIN,
    CS_SOVL_N_WEAPONS
} cs_sovl_weapon;

typedef struct cs_sovl_weapon_def {
    const char *key;  /* "longbow" ... */
    int range;        /* maximum range, inches */
    int power;        /* Power of the shot, against the target's Defense */
} cs_sovl_weapon_def;

/* The row of weapon `w` of SOVL Equipment and Unit Properties "Ranged Attacks"; NULL
 * outside the table. The war machines (D3 hits and such) are not modelled. */
const cs_sovl_weapon_def *cs_sovl_weapon_get(int w);

/* Weapon keys in table order, NULL-terminated, for CHOICE parameters. */
extern const char *const cs_sovl_weapon_keys[CS_SOVL_N_WEAPONS + 1];

/* The D6 score that hits: 4+, one better per point of Skill over 3, one worse
 * per point under 3, one worse at long range. Unclamped (may be <= 1 or >= 7). */
int cs_sovl_hit_needed(int skill, bool long_range);

/* P(one D6 >= needed). With `natural` a 1 always fails and a 6 always
 * succeeds (the needed score is clamped to 2..6); without it a score <= 1
 * always succeeds and >= 7 never does (the literal "chance increases by one"). */
double cs_sovl_d6_p_at_least(int needed, bool natural);

/* One D6 against `needed`, with the same reading of `natural`. */
bool cs_sovl_d6_roll_at_least(int needed, bool natural, cs_rng *rng);

/* The Damage Save score: Power above Defense 5+ (6+ if more than 2 above),
 * equal 4+, Power below Defense 3+ (2+ if more than 2 below). */
int cs_sovl_save_needed(int power, int defense);

/* Binomial(n, p) probabilities into out[0..n] (n >= 0). */
void cs_sovl_binomial(int n, double p, double *out);

#endif
