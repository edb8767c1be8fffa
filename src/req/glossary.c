/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The words a player may not know, each in one line; see
 * include/chargesim/glossary.h. The words follow the code and the rules
 * docs under docs/rules/ (the methods: include/chargesim/experiment.h). */
#include "chargesim/glossary.h"

#include <stddef.h>

static const cs_glossary_entry entries[] = {
    {"sweep point", "one combination of the values you swept (say distance 9 with move 5): one "
                    "row of the table, one point of the chart"},
    {"exact", "method: every dice roll counted with its chance; no trials, no random error"},
    {"auto", "method: the engine picks the best method this scenario allows"},
    {"mc", "method: Monte Carlo, random charges played and counted; the interval says how far "
           "off the count may be"},
    {"conditional", "method: layouts drawn at random, the dice of each counted exactly"},
    {"rqmc", "method: randomised quasi-Monte Carlo, layouts spread evenly at random, the dice "
             "of each counted exactly; its interval comes from independent repeats"},
    {"trials", "random charges played (mc) or layouts drawn (conditional, rqmc) for a row; "
               "exact plays none"},
    {"seed", "the starting number of the random draws: the same seed gives the same numbers"},
    {"confidence", "how sure an interval is to hold the true chance: 0.95 is 19 times in 20"},
    {"precision", "the widest interval half-width (\u00b1) allowed: trials are added until "
                  "every interval is that narrow"},
    {"interval", "lower and upper bound (ci_low, ci_high; delta_lo, delta_hi for a "
                 "difference): where the true chance lies, at the confidence chosen"},
    {"paired (common random numbers)", "compare plays A and B on the same dice and layouts, "
                                       "trial by trial, so their difference is measured more "
                                       "finely than two runs apart would measure it"},
    {"ruleset", "the charge rules the engine plays: generic is any \"move + dice\" charge, "
                "others are one game's rules (t9a, asoiaf, ...)"},
    {"preset", "a ruleset's settings for one game: generic preset tow is The Old World's "
               "charge (M + the higher of 2D6)"},
    {"Roll20 notation", "the dice syntax of the Roll20 site: 2d6, 3d6dl1 (drop the lowest), "
                        "2d6kh1 (keep the highest), d6ro1 (re-roll 1s once), d6! (explode)"},
    {"mapping", "a file (--mapping) that says which entries of a game's unit data give a "
                "unit's move, base and charge rules"},
    {"game system id", "the id a roster file gives its game (gameSystemId): it picks the "
                       "mapping"},
};

int cs_glossary_count(void)
{
    return (int)(sizeof entries / sizeof entries[0]);
}

const cs_glossary_entry *cs_glossary_at(int i)
{
    return i >= 0 && i < cs_glossary_count() ? &entries[i] : NULL;
}
