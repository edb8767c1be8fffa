/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Threat-map pictures; see include/chargesim/heatmap.h. Everything is laid
 * out in points on one frame: plot area left, colour bar and legend right,
 * caption below. */
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

static const double levels[3] = {0.5, 0.75, 0.9};

/* Viridis at 0, 1/4, 1/2, 3/4 and 1 (matplotlib's colour map), between them
 * linear: dark is unlikely, yellow is near certain. */
static void colour(cairo_t *cr, double p)
{
    static const double c[5][3] = {{0x44, 0x01, 0x54}, {0x3b, 0x52, 0x8b}, {0x21, 0x91, 0x8c},
                                   {0x5e, 0xc9, 0x62}, {0xfd, 0xe7, 0x25}};
    double t = fmin(fmax(p, 0.0), 1.0) * 4.0;
    int k = t >= 4.0 ? 3 : (int)t;
    double u = t - k;
    cairo_set_source_rgb(cr, (c[k][0] + u * (c[k + 1][0] - c[k][0])) / 255.0,
                         (c[k][1] + u * (c[k + 1][1] - c[k][1])) / 255.0,
                         (c[k][2] + u * (c[k + 1][2] - c[k][2])) / 255.0);
}

static void hatch(cairo_t *cr, double x, double y, double w, double h)
{
    cairo_save(cr);
    cairo_rectangle(cr, x, y, w, h);
    cairo_set_source_rgb(cr, 0.82, 0.82, 0.82);
    cairo_fill_preserve(cr);
    cairo_clip(cr);
    cairo_set_source_rgb(cr, 0.55, 0.55, 0.55);
    cairo_set_line_width(cr, 0.6);
    for (double d = -h; d < w; d += 4.0) {
        cairo_move_to(cr, x + d, y + h);
        cairo_line_to(cr, x + d + h, y);
    }
    cairo_stroke(cr);
    cairo_restore(cr);
}

static double cell(const cs_heatmap *h, int i, int j) { return h->p[(size_t)j * (size_t)h->nx + (size_t)i]; }

/* The share of cell (i, j)'s drawn placements where the target cannot stand. */
static double share(const cs_heatmap *h, int i, int j)
{
    return h->cannot ? h->cannot[(size_t)j * (size_t)h->nx + (size_t)i] : 0.0;
}

/* Hatching over a cell's colour, darker the larger the share s of its
 * placements where the target cannot stand (0 < s < 1). */
static void hatch_share(cairo_t *cr, double x, double y, double w, double h, double s)
{
    cairo_save(cr);
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_DEFAULT);
    cairo_rectangle(cr, x, y, w, h);
    cairo_clip(cr);
    cairo_set_source_rgba(cr, 0.1, 0.1, 0.1, 0.3 + 0.7 * s);
    cairo_set_line_width(cr, 0.7);
    /* Lines u + v = 4k on the page, so the hatching runs on from cell to cell. */
    for (double d = floor((x + y) / 4.0) * 4.0; d < x + y + w + h; d += 4.0) {
        cairo_move_to(cr, d - y - h, y + h);
        cairo_line_to(cr, d - y + h, y - h);
    }
    cairo_stroke(cr);
    cairo_restore(cr);
}

/* Whether some cell has placements that stand and some that do not. */
static bool any_share(const cs_heatmap *h)
{
    for (int j = 0; h->cannot && j < h->ny; j++)
        for (int i = 0; i < h->nx; i++)
            if (share(h, i, j) > 0.0 && !isnan(cell(h, i, j)))
                return true;
    return false;
}

static void cells(cairo_t *cr, const cs_heatmap *h, const frame *f)
{
    cairo_save(cr);
    cairo_set_antialias(cr, CAIRO_ANTIALIAS_NONE);
    for (int j = 0; j < h->ny; j++)
        for (int i = 0; i < h->nx; i++) {
            double xc = h->x0 + i * h->dx, yc = h->y0 + j * h->dy, v = cell(h, i, j);
            double x = fx(f, xc - h->dx / 2), y = fy(f, yc + h->dy / 2);
            double w = h->dx * f->s, ht = h->dy * f->s;
            if (isnan(v)) {
                hatch(cr, x, y, w, ht);
            } else {
                colour(cr, v);
                cairo_rectangle(cr, x, y, w + 0.5, ht + 0.5);
                cairo_fill(cr);
                if (share(h, i, j) > 0.0)
                    hatch_share(cr, x, y, w, ht, share(h, i, j));
            }
        }
    cairo_restore(cr);
}

static void dash_of(cairo_t *cr, int level)
{
    /* Short dashes: marching squares draws one short segment per cell and the
     * pattern restarts on each. */
    static const double dashes[3][2] = {{1, 0}, {3.5, 2.5}, {1, 2}};
    cairo_set_dash(cr, dashes[level], level ? 2 : 0, 0);
}

/* Where the level crosses the edge between corner values a and b (t in [0, 1]). */
static double cross(double a, double b, double level) { return (level - a) / (b - a); }

/* One square of marching squares: corners 0 (i, j), 1 (i+1, j), 2 (i+1, j+1),
 * 3 (i, j+1) at cell centres; a segment per pair of crossed edges. A saddle
 * (two opposite corners above) is split by the square's mean. */
static void square(cairo_t *cr, const cs_heatmap *h, const frame *f, int i, int j, double lv)
{
    double v[4] = {cell(h, i, j), cell(h, i + 1, j), cell(h, i + 1, j + 1), cell(h, i, j + 1)};
    double cx[4] = {0, 1, 1, 0}, cy[4] = {0, 0, 1, 1};
    int code = 0;
    for (int k = 0; k < 4; k++) {
        if (isnan(v[k]))
            return;
        code |= (v[k] >= lv) << k;
    }
    if (code == 0 || code == 15)
        return;
    double px[4], py[4];
    int n = 0;
    for (int k = 0; k < 4; k++) {
        int m = (k + 1) % 4;
        if (((code >> k) & 1) != ((code >> m) & 1)) {
            double t = cross(v[k], v[m], lv);
            px[n] = h->x0 + (i + cx[k] + t * (cx[m] - cx[k])) * h->dx;
            py[n] = h->y0 + (j + cy[k] + t * (cy[m] - cy[k])) * h->dy;
            n++;
        }
    }
    bool saddle_join = n == 4 && ((v[0] + v[1] + v[2] + v[3]) / 4 >= lv) == ((code & 1) != 0);
    /* Edges are found in order 0-1, 1-2, 2-3, 3-0; with four crossings pair
     * them so the segments go round the corners that differ from the centre. */
    int pair[4] = {0, 1, 2, 3};
    if (n == 4 && saddle_join) {
        pair[1] = 3;
        pair[3] = 1;
    }
    for (int k = 0; k + 1 < n; k += 2) {
        cairo_move_to(cr, fx(f, px[pair[k]]), fy(f, py[pair[k]]));
        cairo_line_to(cr, fx(f, px[pair[k + 1]]), fy(f, py[pair[k + 1]]));
    }
}

static void contours(cairo_t *cr, const cs_heatmap *h, const frame *f)
{
    cairo_save(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1.4);
    cairo_set_line_cap(cr, CAIRO_LINE_CAP_ROUND);
    for (int l = 0; l < 3; l++) {
        dash_of(cr, l);
        for (int j = 0; j + 1 < h->ny; j++)
            for (int i = 0; i + 1 < h->nx; i++)
                square(cr, h, f, i, j, levels[l]);
        cairo_stroke(cr);
    }
    cairo_restore(cr);
}

static void charger(cairo_t *cr, const cs_heatmap *h, const frame *f)
{
    double w = h->charger_width, d = h->charger_depth;
    cairo_save(cr);
    cairo_rectangle(cr, fx(f, -w / 2), fy(f, 0), w * f->s, d * f->s);
    cairo_set_source_rgb(cr, 0.93, 0.93, 0.93);
    cairo_fill_preserve(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 1.0);
    cairo_stroke(cr);
    cairo_move_to(cr, fx(f, -w / 2), fy(f, 0));
    cairo_line_to(cr, fx(f, w / 2), fy(f, 0));
    cairo_set_source_rgb(cr, 0.75, 0.1, 0.1);
    cairo_set_line_width(cr, 2.5);
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

/* A tick step of 1, 2, 3, 6, 12 or 24 inches giving at most ten ticks. */
static double tick_step(double span)
{
    static const double steps[] = {1, 2, 3, 6, 12, 24, 48};
    for (size_t k = 0; k < sizeof steps / sizeof *steps; k++)
        if (span / steps[k] <= 10.0)
            return steps[k];
    return 96;
}

static void axes(cairo_t *cr, const frame *f)
{
    char buf[32];
    cairo_save(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    cairo_set_line_width(cr, 0.8);
    cairo_rectangle(cr, LEFT, TOP, f->pw, f->ph);
    cairo_stroke(cr);
    double sx = tick_step(f->xmax - f->xmin), sy = tick_step(f->ymax - f->ymin);
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
        colour(cr, (k + 0.5) / 100.0);
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

static void legend(cairo_t *cr, const cs_heatmap *h, const frame *f, double y)
{
    static const char *names[3] = {"50% contour", "75% contour", "90% contour"};
    double x = LEFT + f->pw + 18;
    cairo_save(cr);
    cairo_set_line_width(cr, 1.4);
    for (int l = 0; l < 3; l++, y += 15) {
        cairo_set_source_rgb(cr, 0, 0, 0);
        dash_of(cr, l);
        cairo_move_to(cr, x, y - 3);
        cairo_rel_line_to(cr, 22, 0);
        cairo_stroke(cr);
        text_at(cr, x + 28, y, 9, names[l], 0.0);
    }
    cairo_set_dash(cr, NULL, 0, 0);
    hatch(cr, x, y - 9, 22, 10);
    cairo_set_source_rgb(cr, 0, 0, 0);
    text_at(cr, x + 28, y, 9, "cannot be placed", 0.0);
    y += 15;
    if (any_share(h)) {
        hatch_share(cr, x, y - 9, 22, 10, 0.5);
        cairo_set_source_rgb(cr, 0, 0, 0);
        text_at(cr, x + 28, y, 9, "some draws cannot", 0.0);
        text_at(cr, x + 28, y + 11, 9, "stand: odds over", 0.0);
        text_at(cr, x + 28, y + 22, 9, "the rest (darker:", 0.0);
        text_at(cr, x + 28, y + 33, 9, "more cannot)", 0.0);
        y += 48;
    }
    cairo_set_source_rgb(cr, 0.75, 0.1, 0.1);
    cairo_set_line_width(cr, 2.5);
    cairo_move_to(cr, x, y - 3);
    cairo_rel_line_to(cr, 22, 0);
    cairo_stroke(cr);
    cairo_set_source_rgb(cr, 0, 0, 0);
    text_at(cr, x + 28, y, 9, "charger's front", 0.0);
    cairo_restore(cr);
}

static frame frame_of(const cs_heatmap *h)
{
    frame f;
    f.xmin = fmin(h->x0 - h->dx / 2, -h->charger_width / 2 - 0.5);
    f.xmax = fmax(h->x0 + (h->nx - 0.5) * h->dx, h->charger_width / 2 + 0.5);
    f.ymin = fmin(h->y0 - h->dy / 2, -h->charger_depth - 0.5);
    f.ymax = fmax(h->y0 + (h->ny - 0.5) * h->dy, 0.5);
    f.s = fmin(640.0 / (f.xmax - f.xmin), 560.0 / (f.ymax - f.ymin));
    f.s = fmin(fmax(f.s, 4.0), 40.0);
    f.pw = (f.xmax - f.xmin) * f.s;
    f.ph = (f.ymax - f.ymin) * f.s;
    return f;
}

cs_status cs_heatmap_draw(const cs_heatmap *h, cs_canvas_format format, FILE *out, cs_error *err)
{
    frame f = frame_of(h);
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
    cells(cr, h, &f);
    contours(cr, h, &f);
    charger(cr, h, &f);
    cairo_restore(cr);
    axes(cr, &f);
    double below;
    colour_bar(cr, &f, &below);
    legend(cr, h, &f, below);
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
