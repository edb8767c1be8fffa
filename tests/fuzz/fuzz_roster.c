/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer harness: a roster (issue 46) through its readers (the zip
 * container, XML, New Recruit's JSON: the reader goes by content, so one
 * file name serves all three) to the analysis, against the Age of Sigmar
 * 4.0 test mapping and the project's own mappings (The Old World, T9A,
 * ASOIAF), so that lists of either get past the game-system check. */
#include "fuzz.h"
#include "units_body.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_units(data, size, ".rosz", "tests/data/rosters/mappings");
    fuzz_units(data, size, ".rosz", "experiments/mappings");
    return 0;
}
