/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Pictures with cairo; see include/chargesim/canvas.h. */
#include "chargesim/canvas.h"

#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <cairo.h>
#include <string.h>
#include <strings.h>

bool cs_canvas_format_of(const char *path, cs_canvas_format *out)
{
    const char *dot = path ? strrchr(path, '.') : NULL;
    if (!dot)
        return false;
    static const struct {
        const char *ext;
        cs_canvas_format f;
    } known[] = {{".svg", CS_CANVAS_SVG}, {".png", CS_CANVAS_PNG}, {".pdf", CS_CANVAS_PDF}};
    for (size_t i = 0; i < sizeof known / sizeof *known; i++)
        if (strcasecmp(dot, known[i].ext) == 0) {
            *out = known[i].f;
            return true;
        }
    return false;
}

static cairo_status_t write_out(void *closure, const unsigned char *data, unsigned int length)
{
    return fwrite(data, 1, length, (FILE *)closure) == length ? CAIRO_STATUS_SUCCESS
                                                              : CAIRO_STATUS_WRITE_ERROR;
}

cs_status cs_canvas_open(cs_canvas *c, cs_canvas_format format, double width, double height,
                         FILE *out, cs_error *err)
{
    memset(c, 0, sizeof *c);
    cairo_surface_t *s;
    switch (format) {
    case CS_CANVAS_SVG:
        s = cairo_svg_surface_create_for_stream(write_out, out, width, height);
        break;
    case CS_CANVAS_PDF:
        s = cairo_pdf_surface_create_for_stream(write_out, out, width, height);
        /* No creation date: the same drawing gives the same bytes. */
        if (cairo_surface_status(s) == CAIRO_STATUS_SUCCESS)
            cairo_pdf_surface_set_metadata(s, CAIRO_PDF_METADATA_CREATE_DATE, "");
        break;
    default:
        s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, (int)width, (int)height);
        break;
    }
    if (cairo_surface_status(s) != CAIRO_STATUS_SUCCESS) {
        const char *why = cairo_status_to_string(cairo_surface_status(s));
        cairo_surface_destroy(s);
        return cs_error_set(err, CS_ERUNTIME, "cannot start the picture: %s", why);
    }
    c->surface = s;
    c->cr = cairo_create(s);
    c->format = format;
    c->out = out;
    c->width = width;
    c->height = height;
    return CS_OK;
}

cs_status cs_canvas_finish(cs_canvas *c, cs_error *err)
{
    cairo_t *cr = c->cr;
    cairo_surface_t *s = c->surface;
    cairo_status_t st = cairo_status(cr);
    cairo_destroy(cr);
    cairo_surface_flush(s);
    if (st == CAIRO_STATUS_SUCCESS && c->format == CS_CANVAS_PNG)
        st = cairo_surface_write_to_png_stream(s, write_out, c->out);
    cairo_surface_finish(s);
    if (st == CAIRO_STATUS_SUCCESS)
        st = cairo_surface_status(s);
    cairo_surface_destroy(s);
    memset(c, 0, sizeof *c);
    if (st != CAIRO_STATUS_SUCCESS)
        return cs_error_set(err, CS_ERUNTIME, "cannot write the picture: %s",
                            cairo_status_to_string(st));
    return CS_OK;
}
