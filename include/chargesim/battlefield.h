/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_BATTLEFIELD_H
#define CHARGESIM_BATTLEFIELD_H
/* The picture of one trial (a ruleset's cs_drawing) with cairo, in SVG, PNG
 * or PDF (canvas.h): the table to scale with a 1-inch grid and a scale bar
 * in inches, the units labelled (inside a unit when the label fits, else
 * beside it with a leader line, never over another unit or label), the
 * charge path and align move, a legend of what is shown, and a caption with
 * the trial's outcome, its rolled and needed distances and the ruleset's
 * own lines. Two renders of one drawing give the same bytes (SVG: in one
 * process, cairo numbers its SVG surfaces). */
#include <stdio.h>

#include "chargesim/canvas.h"
#include "chargesim/drawing.h"
#include "chargesim/error.h"

#define CS_BATTLEFIELD_PT_PER_IN 24.0 /* points per table inch */
#define CS_BATTLEFIELD_PNG_SCALE 2.0  /* PNG pixels per point (144 dpi) */
#define CS_BATTLEFIELD_MAX_TITLE 4    /* title lines */

/* The title above the picture: up to CS_BATTLEFIELD_MAX_TITLE lines (the
 * first bold). */
typedef struct cs_battlefield_title {
    int n;
    const char *line[CS_BATTLEFIELD_MAX_TITLE];
} cs_battlefield_title;

/* The size the picture will have in `format`: points for SVG and PDF,
 * pixels for PNG (whole numbers). */
void cs_battlefield_size(const cs_drawing *d, const cs_battlefield_title *t,
                         cs_canvas_format format, double *width, double *height);

/* Draws d and writes it to out. CS_ERUNTIME when cairo or the stream fails. */
cs_status cs_battlefield_write(const cs_drawing *d, const cs_battlefield_title *t,
                               cs_canvas_format format, FILE *out, cs_error *err);

#endif
