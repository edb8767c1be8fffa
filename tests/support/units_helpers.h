/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_TEST_UNITS_HELPERS_H
#define CHARGESIM_TEST_UNITS_HELPERS_H
/* Shared by the unit-source tests (tests/test_units.c, test_units_bs.c). */
#include "chargesim/unitsrc.h"

/* The path of a file under tests/data/units; eight calls may be held at once. */
const char *th_units_data(const char *name);
/* Loads and binds the mapping tests/data/units/NAME (a test failure if not). */
void th_units_load_bound(const char *name, cs_units_mapping *m);
/* The unit or note of that name, or NULL. */
const cs_unit *th_units_find(const cs_units *u, const char *name);
const cs_unit_note *th_units_find_note(const cs_units *u, const char *name);
/* The unit's value of parameter `key` as handed to the experiment model. */
const char *th_units_value(const cs_unit *u, const char *key);
/* p_success of unit u with the target d inches away, exact (a test failure
 * if the analysis fails). */
double th_units_p_at(const cs_unit *u, double d);
/* Writes text to a new /tmp/chargesim-map-XXXXXX file; the path is static. */
const char *th_units_write_tmp(const char *text);
/* Runs `chargesim units` in-process with a NULL-terminated argument list. */
int th_units_run(const char *const *args);
/* Loads and binds the repository's mapping experiments/mappings/INI. */
void th_units_repo_mapping(const char *ini, cs_units_mapping *m);
/* Reads the repository's data/REL (a catalogue) with mapping m into *u. */
void th_units_repo_read(const char *rel, const cs_units_mapping *m, cs_units *u);

#endif
