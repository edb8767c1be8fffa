/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_ASOIAF_H
#define CHARGESIM_ASOIAF_H
/* A Song of Ice and Fire TMG: the charge attack, exposed for tests and
 * experiments (the ruleset itself is cs_rules_asoiaf, registry.h).
 *
 * ASOIAF, Charge, "Résoudre l'Attaque": once in place the attacker makes one
 * melee attack; the charge bonus re-rolls every failed hit roll. Each hit
 * then asks the defender for a save (docs/rules/asoiaf.md, Charge attack). */
#include <stdbool.h>

#include "chargesim/rng.h"

#define CS_ASOIAF_MAX_DICE 40 /* attack dice; keeps the exact pmf in cs_probs */

/* One charge attack: `dice` D6 hitting on `hit`+, each hit saved on `save`+
 * (save 7 = no save). reroll_misses is the charge bonus. */
typedef struct cs_asoiaf_attack {
    int dice;           /* 0..CS_ASOIAF_MAX_DICE */
    int hit;            /* 2..6 */
    int save;           /* 2..7 */
    bool reroll_misses; /* ordered charge with its bonus */
} cs_asoiaf_attack;

/* P(one die scores a hit), including the re-roll of a miss. */
double cs_asoiaf_hit_probability(const cs_asoiaf_attack *a);

/* P(one die ends as an unsaved hit). */
double cs_asoiaf_wound_probability(const cs_asoiaf_attack *a);

/* Exact distributions of hits and of wounds: hits[k] = P(k hits),
 * wounds[k] = P(k wounds), k = 0..dice (both arrays hold dice + 1 values).
 * Every die is independent, so both are binomial (n = dice). */
void cs_asoiaf_attack_exact(const cs_asoiaf_attack *a, double *hits, double *wounds);

/* Samples one attack: the hit rolls (and re-rolls of misses), then one save
 * roll per hit. */
void cs_asoiaf_attack_roll(const cs_asoiaf_attack *a, cs_rng *rng, int *hits, int *wounds);

#endif
