/* SPDX-License-Identifier: GPL-3.0-or-later */
/* SOVL: the unit types and weapons tables and the dice of the strategic and
 * combat phases (chargesim/sovl.h). The charge phase ruleset built on them is
 * src/rules/sovl_setup.c, sovl_phase.c and sovl_exact.c. The rules are the
 * SOVL "Game Loop" pages, cited below by page and section, read as
 * docs/rules/sovl.md says. */
#include "chargesim/sovl.h"

#include <stdlib.h>

#include "chargesim/reach.h"

/* ---- Unit types (SOVL Unit Stats and Types "Unit Types") ---- */

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
    /* SOVL Unit Stats and Types: "Each rank with at least 3 models gives +1 Rank
     * Bonus, including the first rank." Full ranks hold `frontage` models;
     * the rear rank holds the remainder. */
    int full = models / frontage;
    int rest = models % frontage;
    return (frontage >= 3 ? full : 0) + (rest >= 3 ? 1 : 0);
}

int cs_sovl_discipline_target(int discipline, int rank_bonus, int penalty, unsigned props)
{
    /* SOVL Equipment and Unit Properties: Reanimated "Never fails Discipline tests";
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
    /* SOVL Unit Stats and Types: "If the result is lower than or equal to the units
     * Discipline stat, it is succesful." */
    return r <= target;
}

/* ---- Flight moves ---- */

int cs_sovl_flight_dice(int base_move)
{
    /* SOVL Unit Stats and Types "Flight Move": "roll one d6 for each 4 points of
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
    /* SOVL Strategic Phase "Ranged Attacks": 4+, "Chance to hit increases
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
    /* SOVL Combat Phase "Damage Save": higher Power 5+, 6+ when "the
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
