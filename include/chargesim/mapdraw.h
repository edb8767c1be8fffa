/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_MAPDRAW_H
#define CHARGESIM_MAPDRAW_H
/* The picture of a threat map as data (issues 20 and 51): what the map
 * shows, decided once, so that the command line's picture (heatmap.h,
 * cairo) and the page's (web/js/mapview.js, a canvas) render the same map
 * and neither decides it. As a trial's display list (drawing.h) says what
 * is on the table, this says:
 *   - the region shown (the cells and the charger, half an inch beyond)
 *     and the step between ticks on each axis;
 *   - the colour stops (viridis) and each cell's colour on them;
 *   - which cells are hatched and why: grey where the target cannot be
 *     placed (no odds, never 0%), over the colour where only some drawn
 *     placements cannot stand (the darker the larger their share);
 *   - the 50%, 75% and 90% contours as segments (marching squares over the
 *     cell centres), with their dashes;
 *   - the charger's footprint and front edge, and the legend's words.
 * A renderer decides only the layout: points per inch, margins, fonts,
 * where the legend goes, axis titles.
 *
 * Coordinates are inches in the map's frame (map.h): the charger's
 * front-edge centre at (0, 0), facing +y; a renderer flips y for its page.
 * Line widths, dashes and hatch spacing are in points (a CSS pixel on the
 * page). Colours are red, green and blue from 0 to 1. */
#include <stdbool.h>

#include "chargesim/map.h"
#include "chargesim/status.h"

#define CS_MAPDRAW_LEVELS 3 /* contours */
#define CS_MAPDRAW_STOPS 5  /* colour stops */
#define CS_MAPDRAW_LINES 4  /* lines of one legend entry */

typedef struct cs_maprgb {
    double r, g, b;
} cs_maprgb;

/* The values a map's picture is made from (the caller's memory). */
typedef struct cs_mapgrid {
    int nx, ny;            /* cells along x and y */
    double x0, dx, y0, dy; /* centre of cell (0, 0) and the steps, inches */
    const double *p;       /* ny * nx values, y outer; NAN: the target cannot be placed */
    const double *cannot;  /* ny * nx shares of drawn placements where the target cannot
                              stand, or NULL: every placement stands */
    double charger_width;  /* the charger's footprint, inches: */
    double charger_depth;  /* (-width/2, -depth) to (width/2, 0) */
} cs_mapgrid;

/* How a cell is drawn, and why. */
typedef enum cs_mapcell_kind {
    CS_MAPCELL_ODDS, /* its colour: p_success there */
    CS_MAPCELL_SOME, /* its colour (the odds over the placements that stand), hatched
                        over: some drawn placements cannot stand */
    CS_MAPCELL_NONE, /* hatched grey: the target cannot be placed; no odds */
} cs_mapcell_kind;

typedef struct cs_mapcell {
    cs_mapcell_kind kind;
    cs_maprgb colour;   /* ODDS and SOME: p's colour on the stops */
    double hatch_alpha; /* SOME: the hatching's opacity, larger the larger the share
                           that cannot stand; 0 otherwise */
} cs_mapcell;

/* A hatching: lines rising at 45 degrees to the right, `spacing` apart. */
typedef struct cs_maphatch {
    bool filled;       /* a background under the lines (NONE's; SOME lies over a colour) */
    cs_maprgb fill;    /* the background, when filled */
    cs_maprgb line;
    double width, spacing;                /* points */
    double legend_alpha;                  /* the lines' opacity in the legend's sample */
    const char *legend[CS_MAPDRAW_LINES]; /* its legend entry, a line each, NULL-ended */
} cs_maphatch;

/* A segment of a contour, inches. */
typedef struct cs_mapseg {
    double x0, y0, x1, y1;
} cs_mapseg;

typedef struct cs_maplevel {
    double value;        /* the contour where p crosses it */
    double dash[2];      /* on, off (points) when ndash is 2; ndash 0: solid */
    int ndash;
    double width;        /* points; the ends rounded */
    const char *legend;  /* "50% contour" */
    cs_mapseg *seg;      /* its segments, in the order they are stroked (owned) */
    int n, cap;
} cs_maplevel;

typedef struct cs_mapstop {
    double at;        /* p, 0 to 1 */
    cs_maprgb colour; /* the colour at p; linear between stops */
} cs_mapstop;

typedef struct cs_mapcharger {
    double width, depth;  /* the footprint (cs_mapgrid) */
    cs_maprgb fill, outline, front;
    double outline_width, front_width; /* points: the outline and its front edge (y = 0) */
    const char *legend;   /* the front edge's legend entry */
} cs_mapcharger;

typedef struct cs_mapdraw {
    int nx, ny;                    /* cells, as cs_mapgrid */
    double x0, dx, y0, dy;
    double xmin, xmax, ymin, ymax; /* the region shown, inches */
    double xtick, ytick;           /* a tick at every multiple, inches */
    cs_mapcell *cell;              /* ny * nx, y outer (owned) */
    bool any_some;                 /* some cell is CS_MAPCELL_SOME: the legend names it */
    cs_mapstop stop[CS_MAPDRAW_STOPS];
    cs_maplevel level[CS_MAPDRAW_LEVELS]; /* 50%, 75%, 90% */
    cs_maphatch none, some;        /* the hatchings of NONE and SOME cells */
    cs_mapcharger charger;
} cs_mapdraw;

/* Makes the picture of g into *out: CS_OK, or CS_ENOMEM with *out empty
 * (cs_mapdraw_free is still safe). g needs nx, ny >= 1. */
cs_status cs_mapdraw_build(const cs_mapgrid *g, cs_mapdraw *out);

/* The picture of a map's result: a cell shows p_success where the target
 * stands in some trial or layout, else it is NONE; its share of
 * placements that cannot stand is p_cannot_stand. */
cs_status cs_mapdraw_of_map(const cs_map_result *m, cs_mapdraw *out);

void cs_mapdraw_free(cs_mapdraw *d);

/* p's colour on the stops (p clamped to 0..1): what a cell of p shows, and
 * what a colour bar samples. */
cs_maprgb cs_mapdraw_colour(double p);

#endif
