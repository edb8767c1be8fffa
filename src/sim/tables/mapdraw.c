/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A threat map's picture as data; see include/chargesim/mapdraw.h. Every
 * decision about what the map shows is here, once: the renderers (heatmap.c
 * with cairo, web/js/mapview.js on a canvas) only lay it out. */
#include "chargesim/mapdraw.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/grow.h"

/* Viridis at 0, 1/4, 1/2, 3/4 and 1 (matplotlib's colour map), between them
 * linear: dark is unlikely, yellow is near certain. */
static const double viridis[CS_MAPDRAW_STOPS][3] = {
    {0x44, 0x01, 0x54}, {0x3b, 0x52, 0x8b}, {0x21, 0x91, 0x8c}, {0x5e, 0xc9, 0x62},
    {0xfd, 0xe7, 0x25}};

cs_maprgb cs_mapdraw_colour(double p)
{
    const double(*c)[3] = viridis;
    double t = fmin(fmax(p, 0.0), 1.0) * (CS_MAPDRAW_STOPS - 1);
    int k = t >= CS_MAPDRAW_STOPS - 1 ? CS_MAPDRAW_STOPS - 2 : (int)t;
    double u = t - k;
    return (cs_maprgb){(c[k][0] + u * (c[k + 1][0] - c[k][0])) / 255.0,
                       (c[k][1] + u * (c[k + 1][1] - c[k][1])) / 255.0,
                       (c[k][2] + u * (c[k + 1][2] - c[k][2])) / 255.0};
}

/* The opacity of the hatching over a cell whose placements cannot stand in
 * share s (0 < s < 1): faint for a few, near black for most. */
static double hatch_alpha(double s) { return 0.3 + 0.7 * s; }

/* The fixed parts: stops, levels and their dashes, hatchings, the charger's
 * colours, the legend's words. Short dashes: marching squares gives one
 * short segment per cell and the pattern restarts on each. */
static void styles(cs_mapdraw *d)
{
    static const double values[CS_MAPDRAW_LEVELS] = {0.5, 0.75, 0.9};
    static const double dashes[CS_MAPDRAW_LEVELS][2] = {{1, 0}, {3.5, 2.5}, {1, 2}};
    static const char *const names[CS_MAPDRAW_LEVELS] = {"50% contour", "75% contour",
                                                         "90% contour"};
    for (int k = 0; k < CS_MAPDRAW_STOPS; k++)
        d->stop[k] = (cs_mapstop){(double)k / (CS_MAPDRAW_STOPS - 1),
                                  {viridis[k][0] / 255.0, viridis[k][1] / 255.0,
                                   viridis[k][2] / 255.0}};
    for (int l = 0; l < CS_MAPDRAW_LEVELS; l++) {
        cs_maplevel *v = &d->level[l];
        v->value = values[l];
        v->dash[0] = dashes[l][0];
        v->dash[1] = dashes[l][1];
        v->ndash = l ? 2 : 0;
        v->width = 1.4;
        v->legend = names[l];
    }
    d->none = (cs_maphatch){true, {0.82, 0.82, 0.82}, {0.55, 0.55, 0.55}, 0.6, 4.0, 1.0,
                            {"cannot be placed", NULL}};
    d->some = (cs_maphatch){false, {0, 0, 0}, {0.1, 0.1, 0.1}, 0.7, 4.0, hatch_alpha(0.5),
                            {"some draws cannot", "stand: odds over", "the rest (darker:",
                             "more cannot)"}};
    d->charger.fill = (cs_maprgb){0.93, 0.93, 0.93};
    d->charger.outline = (cs_maprgb){0, 0, 0};
    d->charger.front = (cs_maprgb){0.75, 0.1, 0.1};
    d->charger.outline_width = 1.0;
    d->charger.front_width = 2.5;
    d->charger.legend = "charger's front";
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

static double value(const cs_mapgrid *g, int i, int j)
{
    return g->p[(size_t)j * (size_t)g->nx + (size_t)i];
}

static double share(const cs_mapgrid *g, int i, int j)
{
    return g->cannot ? g->cannot[(size_t)j * (size_t)g->nx + (size_t)i] : 0.0;
}

static void cells(const cs_mapgrid *g, cs_mapdraw *d)
{
    for (int j = 0; j < g->ny; j++)
        for (int i = 0; i < g->nx; i++) {
            cs_mapcell *c = &d->cell[(size_t)j * (size_t)g->nx + (size_t)i];
            double v = value(g, i, j), s = share(g, i, j);
            memset(c, 0, sizeof *c);
            if (isnan(v)) {
                c->kind = CS_MAPCELL_NONE;
                continue;
            }
            c->colour = cs_mapdraw_colour(v);
            if (s > 0.0) {
                c->kind = CS_MAPCELL_SOME;
                c->hatch_alpha = hatch_alpha(s);
                d->any_some = true;
            }
        }
}

static bool add(cs_maplevel *l, double x0, double y0, double x1, double y1)
{
    cs_mapseg *s = cs_grow(l->seg, l->n, &l->cap, sizeof *s, 64);
    if (!s)
        return false;
    l->seg = s;
    s[l->n++] = (cs_mapseg){x0, y0, x1, y1};
    return true;
}

/* Where the level crosses the edge between corner values a and b (t in [0, 1]). */
static double cross(double a, double b, double level) { return (level - a) / (b - a); }

/* One square of marching squares: corners 0 (i, j), 1 (i+1, j), 2 (i+1, j+1),
 * 3 (i, j+1) at cell centres; a segment per pair of crossed edges. A saddle
 * (two opposite corners above) is split by the square's mean. A square with
 * a cell where the target cannot be placed has no contour. */
static bool square(const cs_mapgrid *g, int i, int j, cs_maplevel *l)
{
    double lv = l->value;
    double v[4] = {value(g, i, j), value(g, i + 1, j), value(g, i + 1, j + 1),
                   value(g, i, j + 1)};
    double cx[4] = {0, 1, 1, 0}, cy[4] = {0, 0, 1, 1};
    int code = 0;
    for (int k = 0; k < 4; k++) {
        if (isnan(v[k]))
            return true;
        code |= (v[k] >= lv) << k;
    }
    if (code == 0 || code == 15)
        return true;
    double px[4], py[4];
    int n = 0;
    for (int k = 0; k < 4; k++) {
        int m = (k + 1) % 4;
        if (((code >> k) & 1) != ((code >> m) & 1)) {
            double t = cross(v[k], v[m], lv);
            px[n] = g->x0 + (i + cx[k] + t * (cx[m] - cx[k])) * g->dx;
            py[n] = g->y0 + (j + cy[k] + t * (cy[m] - cy[k])) * g->dy;
            n++;
        }
    }
    /* Corner 0 on the centre's side: the segments cut off corners 1 and 3,
     * as found (0-1 with 1-2, 2-3 with 3-0); otherwise corners 0 and 2. */
    bool saddle_join = n == 4 && ((v[0] + v[1] + v[2] + v[3]) / 4 >= lv) != ((code & 1) != 0);
    /* Edges are found in order 0-1, 1-2, 2-3, 3-0; with four crossings pair
     * them so the segments go round the corners that differ from the centre. */
    int pair[4] = {0, 1, 2, 3};
    if (n == 4 && saddle_join) {
        pair[1] = 3;
        pair[3] = 1;
    }
    for (int k = 0; k + 1 < n; k += 2)
        if (!add(l, px[pair[k]], py[pair[k]], px[pair[k + 1]], py[pair[k + 1]]))
            return false;
    return true;
}

static bool contours(const cs_mapgrid *g, cs_mapdraw *d)
{
    for (int l = 0; l < CS_MAPDRAW_LEVELS; l++)
        for (int j = 0; j + 1 < g->ny; j++)
            for (int i = 0; i + 1 < g->nx; i++)
                if (!square(g, i, j, &d->level[l]))
                    return false;
    return true;
}

cs_status cs_mapdraw_build(const cs_mapgrid *g, cs_mapdraw *out)
{
    cs_mapdraw *d = out;
    memset(d, 0, sizeof *d);
    styles(d);
    d->nx = g->nx;
    d->ny = g->ny;
    d->x0 = g->x0;
    d->dx = g->dx;
    d->y0 = g->y0;
    d->dy = g->dy;
    d->charger.width = g->charger_width;
    d->charger.depth = g->charger_depth;
    d->xmin = fmin(g->x0 - g->dx / 2, -g->charger_width / 2 - 0.5);
    d->xmax = fmax(g->x0 + (g->nx - 0.5) * g->dx, g->charger_width / 2 + 0.5);
    d->ymin = fmin(g->y0 - g->dy / 2, -g->charger_depth - 0.5);
    d->ymax = fmax(g->y0 + (g->ny - 0.5) * g->dy, 0.5);
    d->xtick = tick_step(d->xmax - d->xmin);
    d->ytick = tick_step(d->ymax - d->ymin);
    d->cell = malloc((size_t)g->nx * (size_t)g->ny * sizeof *d->cell);
    if (d->cell) {
        cells(g, d);
        if (contours(g, d))
            return CS_OK;
    }
    cs_mapdraw_free(d);
    return CS_ENOMEM;
}

cs_status cs_mapdraw_of_map(const cs_map_result *m, cs_mapdraw *out)
{
    size_t n = (size_t)m->x.n * (size_t)m->y.n;
    double *p = malloc(2 * n * sizeof *p), *cannot = p + n;
    if (!p) {
        memset(out, 0, sizeof *out);
        return CS_ENOMEM;
    }
    for (size_t k = 0; k < n; k++) {
        p[k] = m->cell[k].placed && m->cell[k].trials ? m->cell[k].p_success : (double)NAN;
        cannot[k] = m->cell[k].p_cannot_stand;
    }
    cs_mapgrid g = {m->x.n, m->y.n, cs_map_axis_value(&m->x, 0), m->x.step,
                    cs_map_axis_value(&m->y, 0), m->y.step, p, cannot, m->charger_w,
                    m->charger_d};
    cs_status st = cs_mapdraw_build(&g, out);
    free(p);
    return st;
}

void cs_mapdraw_free(cs_mapdraw *d)
{
    free(d->cell);
    d->cell = NULL;
    for (int l = 0; l < CS_MAPDRAW_LEVELS; l++) {
        free(d->level[l].seg);
        d->level[l].seg = NULL;
        d->level[l].n = d->level[l].cap = 0;
    }
}
