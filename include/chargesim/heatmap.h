/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_HEATMAP_H
#define CHARGESIM_HEATMAP_H
/* The picture of a threat map (issue 20), drawn with cairo: the map's
 * display list (mapdraw.h: its cells, hatching, contours, charger and
 * legend's words, decided there) laid out with equal aspect, axes in
 * inches, a colour bar, a legend and a caption. */
#include <stdio.h>

#include "chargesim/canvas.h"
#include "chargesim/mapdraw.h"

typedef struct cs_heatmap {
    const cs_mapdraw *map;   /* what the picture shows */
    const char *title;       /* first caption line, e.g. the experiment's name */
    const char *caption;     /* second line: ruleset, key parameters, method */
} cs_heatmap;

/* Draws h in the given format to out. */
cs_status cs_heatmap_draw(const cs_heatmap *h, cs_canvas_format format, FILE *out,
                          cs_error *err);

#endif
