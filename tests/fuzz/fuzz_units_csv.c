/* SPDX-License-Identifier: GPL-3.0-or-later */
/* libFuzzer harness: a units CSV through to the analysis (issue 18). */
#include "fuzz.h"
#include "units_body.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fuzz_units(data, size, ".csv", "experiments/mappings");
    return 0;
}
