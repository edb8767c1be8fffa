/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer harness: a BattleScribe catalogue through to the analysis
 * (issue 18), against the test game systems and their mappings. */
#include "fuzz.h"
#include "units_body.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_units(data, size, ".cat", "tests/data/units/mappings");
    return 0;
}
