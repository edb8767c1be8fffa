/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Builds the shared test helpers into the test binary (the Makefile compiles
 * tests/test_*.c only). */
#include "support/helpers.c"
#include "support/units_helpers.c"
