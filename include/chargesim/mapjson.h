/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_MAPJSON_H
#define CHARGESIM_MAPJSON_H
/* A threat map's display list (mapdraw.h) as JSON (jansson), for the page
 * and the bindings: what web/js/mapview.js draws, so that the page renders
 * the map the command line's picture renders and decides none of it. */
#include <stdbool.h>

#include "chargesim/mapdraw.h"

struct json_t;

/* Writes two keys of the object being written: "grid" (nx, ny, x0, dx, y0,
 * dy, charger_w, charger_d: where each row of the table is drawn) and
 * "picture": the region ("extent": xmin, xmax, ymin, ymax; "ticks": x, y),
 * the colour "stops" ([at, "#rrggbb"]), "cells" (each cell's colour, y
 * outer, or null where the target cannot be placed), "some" ([cell, the
 * hatching's opacity] where only some placements stand), the "levels"
 * (value, dash, width, legend and "segments": x0, y0, x1, y1 flat, in
 * inches), the hatchings "none" and "over" (fill, line, width, spacing,
 * alpha, legend lines) and the "charger". Colours are "#rrggbb". A
 * failed allocation sets *oom. */
void cs_mapjson_write(struct json_t *o, const cs_mapdraw *d, bool *oom);

#endif
