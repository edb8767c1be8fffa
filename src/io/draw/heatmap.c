/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Threat-map pictures; see include/chargesim/heatmap.h. The map's display
 * list (mapdraw.h) says what is drawn; this file only lays it out, in
 * points on one frame: plot area left, colour bar and legend right, caption
 * below. */
#include "chargesim/heatmap.h"

#include <cairo.h>
#include <math.h>

#define LEFT 52.0
#define RIGHT 150.0
#define TOP 16.0
#define BOTTOM 78.0
#define FONT "DejaVu Sans"

typedef struct frame {
    double xmin, xmax, ymin, ymax; /* inches shown */
    double s;                      /* points per inch */
    double pw, ph;                 /* plot area, points */
} frame;

static double fx(const frame *f, double x) { return LEFT + (x - f->xmin) * f->s; }
static double fy(const frame *f, double y) { return TOP + (f->ymax - y) * f->s; }

static void rgb(cairo_t *cr, cs_maprgb c) { cairo_set_source_rgb(cr, c.r, c.g, c.b); }

/* Hatching on its background, the lines restarting at the box's corner. */
static void hatch(cairo_t *cr, const cs_maphatch *st, double x, double y, double w, double h)
{
    cairo_save(cr);
    cairo_rectangle(cr, x, y, w, h);
    rgb(cr, st->fill);
    cairo_fill_preserve(cr);
    cairo_clip(cr);
    rgb(cr, st->line);
    cairo_set_line_width(cr, st->width);
    for (double d = -h; d < w; d += st->spacing) {
        cairo_move_to(cr, x + d, y + h);
        cairo_line_to(cr, x + d + h, y);
    }
    cairo_stroke(cr);
    cairo_restore(cr);
}

/* Hatching over a cell's colour with the lines' opacity alpha. */
static void hatch_over(cairo_t *cr, const cs_maphatch *st, double x, double y, double w,
                       double h, double alpha)
{
    double sp = st->spacing;
    cairo_save(cr);
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
    cairo_rectangle(cr, x, y, w, h);
    cairo_clip(cr);
    cairo_set_source_rgba(cr, st->line.r, st->line.g, st->line.b, alpha);
    cairo_set_line_width(cr, st->width);
    /* Lines u + v = k * spacing on the page, so the hatching runs on from cell to cell. */
    for (double d = floor((x + y) / sp) * sp; d < x + y + w + h; d += sp) {
        cairo_move_to(cr, d - y - h, y + h);
        cairo_line_to(cr, d - y + h, y - h);
    }
    cairo_stroke(cr);
    cairo_restore(cr);
}

static void cells(cairo_t *cr, const cs_mapdraw *h, const frame *f)
{
    cairo_save(cr);
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
    for (int j = 0; j < h->ny; j++)
        for (int i = 0; i < h->nx; i++) {
            const cs_mapcell *c = &h->cell[(size_t)j * (size_t)h->nx + (size_t)i];
            double xc = h->x0 + i * h->dx, yc = h->y0 + j * h->dy;
            double x = fx(f, xc - h->dx / 2), y = fy(f, yc + h->dy / 2);
            double w = h->dx * f->s, ht = h->dy * f->s;
            if (c->kind == CS_MAPCELL_NONE) {
                hatch(cr, &h->none, x, y, w, ht);
            } else {
                rgb(cr, c->colour);
                cairo_rectangle(cr, x, y, w + 0.5, ht + 0.5);
                cairo_fill(cr);
                if (c->kind == CS_MAPCELL_SOME)
                    hatch_over(cr, &h->some, x, y, w, ht, c->hatch_alpha);
            }
        }
    cairo_restore(cr);
}

static void dash_of(cairo_t *cr, const cs_maplevel *l)
{
    cairo_set_dash(cr, l->dash, l->ndash, 0);
    cairo_set_line_width(cr, l->width);
}

static void contours(cairo_t *cr, const cs_mapdraw *h, const frame *f)
{
    cairo_save(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    for (int l = 0; l < CS_MAPDRAW_LEVELS; l++) {
        const cs_maplevel *lv = &h->level[l];
        dash_of(cr, lv);
        for (int k = 0; k < lv->n; k++) {
            cairo_move_to(cr, fx(f, lv->seg[k].x0), fy(f, lv->seg[k].y0));
            cairo_line_to(cr, fx(f, lv->seg[k].x1), fy(f, lv->seg[k].y1));
        }
        cairo_stroke(cr);
    }
    cairo_restore(cr);
}

static void charger(cairo_t *cr, const cs_mapcharger *c, const frame *f)
{
    double w = c->width, d = c->depth;
    cairo_save(cr);
    cairo_rectangle(cr, fx(f, -w / 2), fy(f, 0), w * f->s, d * f->s);
    rgb(cr, c->fill);
    cairo_fill_preserve(cr);
    rgb(cr, c->outline);
    cairo_set_line_width(cr, c->outline_width);
    cairo_stroke(cr);
    cairo_move_to(cr, fx(f, -w / 2), fy(f, 0));
    cairo_line_to(cr, fx(f, w / 2), fy(f, 0));
    rgb(cr, c->front);
    cairo_set_line_width(cr, c->front_width);
    cairo_stroke(cr);
    cairo_restore(cr);
}

static void text_at(cairo_t *cr, double x, double y, double size, const char *s, double align)
{
    cairo_text_extents_t e;
    cairo_set_font_size(cr, size);
    cairo_text_extents(cr, s, &e);
    cairo_move_to(cr, x - align * e.x_advance, y);
    cairo_show_text(cr, s);
}

static void axes(cairo_t *cr, const cs_mapdraw *h, const frame *f)
{
    char buf[32];
    cairo_save(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 0.8);
    cairo_rectangle(cr, LEFT, TOP, f->pw, f->ph);
    cairo_stroke(cr);
    double sx = h->xtick, sy = h->ytick;
    for (double x = ceil(f->xmin / sx) * sx; x <= f->xmax; x += sx) {
        cairo_move_to(cr, fx(f, x), TOP + f->ph);
        cairo_rel_line_to(cr, 0, 4);
        snprintf(buf, sizeof buf, "%g", x == 0 ? 0.0 : x);
        text_at(cr, fx(f, x), TOP + f->ph + 14, 9, buf, 0.5);
    }
    for (double y = ceil(f->ymin / sy) * sy; y <= f->ymax; y += sy) {
        cairo_move_to(cr, LEFT, fy(f, y));
        cairo_rel_line_to(cr, -4, 0);
        snprintf(buf, sizeof buf, "%g", y == 0 ? 0.0 : y);
        text_at(cr, LEFT - 6, fy(f, y) + 3, 9, buf, 1.0);
    }
    cairo_stroke(cr);
    text_at(cr, LEFT + f->pw / 2, TOP + f->ph + 28, 10, "x (inches)", 0.5);
    cairo_save(cr);
    cairo_translate(cr, 16, TOP + f->ph / 2);
    cairo_rotate(cr, -1.57079632679489661923);
    text_at(cr, 0, 0, 10, "y (inches)", 0.5);
    cairo_restore(cr);
    cairo_restore(cr);
}

static void colour_bar(cairo_t *cr, const frame *f, double *below)
{
    double x = LEFT + f->pw + 18, h = fmax(80.0, fmin(f->ph * 0.5, 220.0)), w = 14;
    char buf[16];
    for (int k = 0; k < 100; k++) {
        rgb(cr, cs_mapdraw_colour((k + 0.5) / 100.0));
        cairo_rectangle(cr, x, TOP + h * (1 - (k + 1) / 100.0), w, h / 100.0 + 0.3);
        cairo_fill(cr);
    }
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 0.8);
    cairo_rectangle(cr, x, TOP, w, h);
    cairo_stroke(cr);
    for (int q = 0; q <= 4; q++) {
        snprintf(buf, sizeof buf, "%d%%", q * 25);
        text_at(cr, x + w + 4, TOP + h * (1 - q / 4.0) + 3, 9, buf, 0.0);
    }
    text_at(cr, x, TOP + h + 14, 9, "p(success)", 0.0);
    *below = TOP + h + 30;
}

/* A legend entry's words, a line each from y, 11 points apart. */
static double entry(cairo_t *cr, double x, double y, const char *const *lines)
{
    int n = 0;
    cairo_set_source_rgb(cr, 0, 0, 0);
    for (; n < CS_MAPDRAW_LINES && lines[n]; n++)
        text_at(cr, x, y + 11 * n, 9, lines[n], 0.0);
    return 15 + 11 * (n - 1);
}

static void legend(cairo_t *cr, const cs_mapdraw *h, const frame *f, double y)
{
    double x = LEFT + f->pw + 18;
    cairo_save(cr);
    for (int l = 0; l < CS_MAPDRAW_LEVELS; l++, y += 15) {
        cairo_set_source_rgb(cr, 0, 0, 0);
        dash_of(cr, &h->level[l]);
        cairo_move_to(cr, x, y - 3);
        cairo_rel_line_to(cr, 22, 0);
        cairo_stroke(cr);
        text_at(cr, x + 28, y, 9, h->level[l].legend, 0.0);
    }
    cairo_set_dash(cr, NULL, 0, 0);
    hatch(cr, &h->none, x, y - 9, 22, 10);
    y += entry(cr, x + 28, y, h->none.legend);
    if (h->any_some) {
        hatch_over(cr, &h->some, x, y - 9, 22, 10, h->some.legend_alpha);
        y += entry(cr, x + 28, y, h->some.legend);
    }
    rgb(cr, h->charger.front);
    cairo_set_line_width(cr, h->charger.front_width);
    cairo_move_to(cr, x, y - 3);
    cairo_rel_line_to(cr, 22, 0);
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    text_at(cr, x + 28, y, 9, h->charger.legend, 0.0);
    cairo_restore(cr);
}

static frame frame_of(const cs_mapdraw *h)
{
    frame f;
    f.xmin = h->xmin;
    f.xmax = h->xmax;
    f.ymin = h->ymin;
    f.ymax = h->ymax;
    f.s = fmin(640.0 / (f.xmax - f.xmin), 560.0 / (f.ymax - f.ymin));
    f.s = fmin(fmax(f.s, 4.0), 40.0);
    f.pw = (f.xmax - f.xmin) * f.s;
    f.ph = (f.ymax - f.ymin) * f.s;
    return f;
}

cs_status cs_heatmap_draw(const cs_heatmap *h, cs_canvas_format format, FILE *out, cs_error *err)
{
    const cs_mapdraw *m = h->map;
    frame f = frame_of(m);
    cs_canvas cv;
    cs_status st = cs_canvas_open(&cv, format, ceil(LEFT + f.pw + RIGHT),
                                  ceil(TOP + f.ph + BOTTOM), out, err);
    if (st != CS_OK)
        return st;
    cairo_t *cr = cv.cr;
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    cairo_save(cr);
    cairo_rectangle(cr, LEFT, TOP, f.pw, f.ph);
    cairo_clip(cr);
    cells(cr, m, &f);
    contours(cr, m, &f);
    charger(cr, &m->charger, &f);
    cairo_restore(cr);
    axes(cr, m, &f);
    double below;
    colour_bar(cr, &f, &below);
    legend(cr, m, &f, below);
    cairo_set_source_rgb(cr, 0, 0, 0);
    double ybase = TOP + f.ph + 48;
    if (h->title) {
        cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
        text_at(cr, LEFT, ybase, 10, h->title, 0.0);
        cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    }
    if (h->caption)
        text_at(cr, LEFT, ybase + 15, 9, h->caption, 0.0);
    return cs_canvas_finish(&cv, err);
}
