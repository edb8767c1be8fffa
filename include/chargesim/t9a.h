/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_T9A_H
#define CHARGESIM_T9A_H
/* The Ninth Age: the geometric half of a charge, exposed beside the ruleset
 * (cs_rules_t9a, src/rules/t9a.c) so tests and experiments can look at the
 * path, the align move and the failed charge move of one placement. Pure, no
 * allocation. The dice half lives only in the ruleset. */
#include <stdbool.h>

#include "chargesim/geom.h"
#include "chargesim/scenario.h"

/* Everything a declared charge needs from the table, dice aside
 * (3rd edition, Declaring Charges, Charge Range and Charge Move). */
typedef struct cs_t9a_charge {
    bool overlap;       /* charger and target overlap: no position the game allows */
    bool engaged;       /* the charger is in base contact (a gap within CS_REACH_TOL
                           of 0, corner to corner included) with the target or
                           another enemy unit: Engaged in Combat, so it cannot
                           declare a charge (3rd ed., Declaring Charges) */
    bool sight;         /* Line of Sight from the charger's front (90-degree field of
                           view from its front edge; terrain, and other units if
                           asked, block it) */
    cs_facing arc;      /* arc of the target holding the centre of the charger's front
                           edge: the Target Facing */
    double distance;    /* closest points of the two unit boundaries, in */
    bool room;          /* a snaking path reaches the Target Facing touching no other
                           unit nor movement-blocking terrain */
    cs_snake path;      /* the cheapest such path (front facing only: see t9a.c) */
    cs_align align;     /* the align move after it (valid when room) */
    int models_charger; /* models in contact after the charge (valid when room) */
    int models_target;
} cs_t9a_charge;

/* The geometry of the charge of s->charger on s->target. Other units block
 * sight when units_block_sight (t9a's parameter of that name). */
void cs_t9a_charge_geometry(const cs_scenario *s, bool units_block_sight, cs_t9a_charge *out);

/* One Failed Charge Move (3rd edition, Failed Charge Move). */
typedef struct cs_t9a_failed {
    double wheel;   /* degrees, > 0 to the left (about the front-left corner) */
    double forward; /* concluding forward move, in */
    cs_rect final;  /* the charger afterwards */
    double gap;     /* closest points to the target afterwards, in */
} cs_t9a_failed;

/* The failed charge move of `dist` inches towards the centre of the target's
 * facing f: no initial forward; a wheel towards it until the unit's centre
 * would move straight at that point, or 90 degrees, or a wheel cost
 * (width * sin angle) of `dist`, or just before contact; then forward until
 * `dist` in total is spent or just before contact. */
void cs_t9a_failed_move(const cs_scenario *s, cs_facing f, double dist, cs_t9a_failed *out);

#endif
