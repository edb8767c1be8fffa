/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_GEOM_ALIGN_H
#define CHARGESIM_GEOM_ALIGN_H
/* The align move after a charge (src/core/geom_align.c). */
#include "chargesim/geom_vec.h"

/* The align move (T9A, Align Move): the charger is placed with its front
 * edge flush against the target's facing f, still touching the initial
 * contact point, overlapping no unit in `others`, maximising the target's
 * models in contact, then the charger's; among equal placements the one
 * moved least from the charger's contact position. */
typedef struct cs_align {
    bool flush;        /* a flush placement exists (else Unaligned Charges
                          apply: the ruleset decides) */
    cs_rect final;     /* the charger after the align move */
    double overlap;    /* length of front edge on the facing, in */
    int models_target; /* target models in contact (0 without a formation) */
    int models_charger;
} cs_align;

void cs_geom_align(const cs_rect *charger, const cs_formation *charger_models,
                   const cs_rect *target, const cs_formation *target_models,
                   cs_facing f, cs_vec2 contact,
                   const cs_rect *others, int n_others, cs_align *out);

#endif
