/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_MAP_H
#define CHARGESIM_MAP_H
/* Threat maps (issue 20): p_success of one experiment for every target
 * position on a grid around the charger. Coordinates are inches in the
 * scenario frame: the charger's front-edge centre at (0, 0), facing +y;
 * cell (x, y) puts the target's front-edge centre at (x, y) through the
 * ruleset's map_place hook (ruleset.h), which also says where the target
 * cannot stand. Every other value comes from the experiment (which must
 * have no sweep), drawn ones included; each cell is then estimated by the
 * usual scheduler and estimators (cs_sched_points in sched.h): exact for a
 * fixed layout, else the experiment's method. All cells draw from the
 * streams of sweep point 0 (common random numbers), so the cell at x = 0
 * is `chargesim run` of the experiment at distance y, and the same seed
 * gives the same bytes on any thread count. */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "chargesim/experiment.h"
#include "chargesim/sched.h"

#define CS_MAP_MAX_AXIS 10001        /* values along one axis */
#define CS_MAP_MAX_CELLS 4000000ULL  /* cells in one map */
#define CS_MAP_DEFAULT_X "-24..24:0.5" /* the axes when none is given */
#define CS_MAP_DEFAULT_Y "0..24:0.5"

/* One axis: n values lo + i * step (i < n), the last of them hi, each the
 * number its text (cs_map_axis_text) stands for, so a value equals the
 * same number written in an experiment file. */
typedef struct cs_map_axis {
    double lo, hi, step;
    int n;
    int places; /* decimal places of LO and STEP as written (parse.h), -1 unknown */
} cs_map_axis;

/* Parses "LO..HI:STEP" (or "LO..HI" with step 0.5) into *out; CS_EINPUT
 * with a message naming `what` (e.g. "--x") otherwise, also when STEP
 * does not land on HI (HI would be dropped unsaid). */
cs_status cs_map_axis_parse(const char *text, const char *what, cs_map_axis *out, cs_error *err);
/* Value i of the axis as the CSV writes it: the text of a swept value
 * (cs_parse_format_value), so values a step apart never print alike. */
void cs_map_axis_text(const cs_map_axis *a, int i, char *buf, size_t cap);
/* Value i of the axis: the number its text stands for. */
double cs_map_axis_value(const cs_map_axis *a, int i);

/* One cell's estimate. Where values are drawn per trial, a trial whose
 * draws put the target where it cannot stand (a drawn angle turning it
 * onto the charger) is no failed charge: it is left out, the cell's odds
 * are over the placements that can stand, and their share is reported. */
typedef struct cs_map_cell {
    bool placed;        /* false: the target cannot stand here (no numbers) */
    uint64_t trials;    /* trials (mc) or layouts (conditional, exact) where it stands */
    double p_success, ci_low, ci_high;
    double p_outcome[CS_MAX_OUTCOMES];
    uint64_t cannot_stand; /* trials left out: the target could not stand */
    double p_cannot_stand, cannot_stand_low, cannot_stand_high; /* their share of all, with
                                                       its interval; 1 where !placed */
} cs_map_cell;

typedef struct cs_map_result {
    const cs_experiment *exp;
    cs_map_axis x, y;
    cs_map_cell *cell;        /* y.n * x.n cells, row-major, y outer */
    cs_method method;         /* the method that ran */
    unsigned success_mask;    /* the outcomes p_success counts */
    double charger_w, charger_d; /* the charger's footprint, inches */
    bool precision_met;       /* every placed cell met --precision */
    uint64_t max_trials;      /* the cap --precision ran under */
    double seconds;
} cs_map_result;

/* Runs the map of e (finished) over the axes. opts as for cs_sched_run
 * (its `points` is the map's own and must be NULL). Refused with CS_EINPUT:
 * a ruleset without map_place, a swept key, a value the map sets drawn. */
cs_status cs_map_run(const cs_experiment *e, const cs_map_axis *x, const cs_map_axis *y,
                     const cs_run_opts *opts, cs_map_result *out, cs_error *err);
void cs_map_result_free(cs_map_result *r);

#endif
