/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_CANVAS_H
#define CHARGESIM_CANVAS_H
/* A picture in SVG, PNG or PDF, drawn with cairo and written to a stream, so
 * the output module decides where the bytes go (a temporary file renamed
 * into place, or a device written through). The format follows the output
 * file's extension. Two renders of the same drawing give the same bytes:
 * the PDF carries no creation date. */
#include <stdbool.h>
#include <stdio.h>

#include "chargesim/error.h"

typedef enum cs_canvas_format { CS_CANVAS_SVG, CS_CANVAS_PNG, CS_CANVAS_PDF } cs_canvas_format;

typedef struct cs_canvas {
    void *surface;          /* cairo_surface_t */
    void *cr;               /* cairo_t: draw with it (include <cairo.h>) */
    cs_canvas_format format;
    FILE *out;
    double width, height;   /* points (SVG, PDF) or pixels (PNG) */
} cs_canvas;

/* The format named by path's extension (.svg, .png, .pdf, any case); false
 * for another or none. */
bool cs_canvas_format_of(const char *path, cs_canvas_format *out);

/* Starts a width x height picture that will be written to out. */
cs_status cs_canvas_open(cs_canvas *c, cs_canvas_format format, double width, double height,
                         FILE *out, cs_error *err);
/* Finishes the picture and writes the rest of it; frees the canvas. */
cs_status cs_canvas_finish(cs_canvas *c, cs_error *err);

#endif
