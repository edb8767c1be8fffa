/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_HEATMAP_H
#define CHARGESIM_HEATMAP_H
/* The picture of a threat map (issue 20): p_success of every target position
 * as coloured cells, the 50%, 75% and 90% contours, the charger drawn to
 * scale at the origin facing +y, equal aspect, axes in inches, a colour bar,
 * a legend and a caption. Cells where the target cannot be placed are
 * hatched grey and named in the legend, never shown as 0%; where only some
 * drawn placements cannot stand, the cell shows the odds over those that
 * can, hatched over in proportion to the share that cannot. */
#include <stdio.h>

#include "chargesim/canvas.h"

typedef struct cs_heatmap {
    int nx, ny;              /* cells along x and y */
    double x0, dx, y0, dy;   /* centre of cell (0, 0) and the steps, inches */
    const double *p;         /* ny * nx values, y outer; NAN: the target cannot be placed */
    const double *cannot;    /* ny * nx shares of drawn placements where the target cannot
                                stand (hatched over the colour, the darker the larger), or
                                NULL: every placement stands */
    double charger_width;    /* the charger's footprint, inches: drawn from */
    double charger_depth;    /* (-w/2, -depth) to (w/2, 0) */
    const char *title;       /* first caption line, e.g. the experiment's name */
    const char *caption;     /* second line: ruleset, key parameters, method */
} cs_heatmap;

/* Draws h in the given format to out. */
cs_status cs_heatmap_draw(const cs_heatmap *h, cs_canvas_format format, FILE *out,
                          cs_error *err);

#endif
