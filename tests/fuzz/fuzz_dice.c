/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer harness: the dice language (issue 18). An input is one dice
 * expression; a parsed one is formatted and re-parsed (the canonical text
 * must give the same dice), its exact distribution computed (within the
 * documented work limit) and a few totals sampled, each inside [min, max]. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/dice.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char text[256];
    if (size >= sizeof text || memchr(data, 0, size))
        return 0;
    memcpy(text, data, size);
    text[size] = '\0';

    cs_dice d;
    cs_diag diag;
    if (cs_dice_parse(text, &d, &diag) != CS_OK)
        return 0;
    char canon[256];
    cs_dice_format(&d, canon, (int)sizeof canon);
    cs_dice again;
    if (cs_dice_parse(canon, &again, &diag) != CS_OK)
        abort(); /* the canonical text must parse */

    int lo = cs_dice_min(&d), hi = cs_dice_max(&d);
    static cs_dist dist;
    if (cs_dice_exact(&d, &dist, &diag) == CS_OK && (dist.lo != lo || dist.hi != hi))
        abort();
    cs_rng rng;
    cs_rng_stream(&rng, 1, 0, 0);
    for (int i = 0; i < 16; i++) {
        int v = cs_dice_roll(&d, &rng);
        if (v < lo || v > hi)
            abort();
    }
    return 0;
}
