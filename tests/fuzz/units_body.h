/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_FUZZ_UNITS_BODY_H
#define CHARGESIM_FUZZ_UNITS_BODY_H
/* The units harnesses' shared body: the input written to a file with the
 * given suffix (.csv, .cat or .rosz: `chargesim units` reads by the extension) in a
 * private temporary directory beside copies of the test game systems, then
 * `chargesim units FILE --mapping MAPPING --distance 4..8` through to the
 * analysis, its tables to /dev/null. Run from the repository root. */
#include <stddef.h>
#include <stdint.h>

void fuzz_units(const uint8_t *data, size_t size, const char *suffix, const char *mapping);

#endif
