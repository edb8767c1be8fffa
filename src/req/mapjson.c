/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A threat map's display list as JSON; see include/chargesim/mapjson.h.
 * Only a translation: every number and word comes from mapdraw.c. */
#include "chargesim/mapjson.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>

/* Member key of o set to v (taken); a failure (v NULL) sets *oom. */
static void set(json_t *o, const char *key, json_t *v, bool *oom)
{
    if (json_object_set_new(o, key, v) != 0)
        *oom = true;
}

/* v (taken) appended to array a; a failure sets *oom. */
static void add(json_t *a, json_t *v, bool *oom)
{
    if (json_array_append_new(a, v) != 0)
        *oom = true;
}

/* A colour as CSS writes it, each channel rounded to 0..255. */
static json_t *colour(cs_maprgb c)
{
    char buf[8];
    snprintf(buf, sizeof buf, "#%02x%02x%02x", (unsigned)lround(c.r * 255.0),
             (unsigned)lround(c.g * 255.0), (unsigned)lround(c.b * 255.0));
    return json_string(buf);
}

static json_t *number(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

static json_t *numbers(const double *x, int n, bool *oom)
{
    json_t *a = json_array();
    for (int k = 0; k < n; k++)
        add(a, number(x[k]), oom);
    return a;
}

static json_t *words(const char *const *lines, bool *oom)
{
    json_t *a = json_array();
    for (int k = 0; k < CS_MAPDRAW_LINES && lines[k]; k++)
        add(a, json_string_nocheck(lines[k]), oom);
    return a;
}

static json_t *hatch(const cs_maphatch *h, bool *oom)
{
    json_t *o = json_object();
    if (h->filled)
        set(o, "fill", colour(h->fill), oom);
    set(o, "line", colour(h->line), oom);
    set(o, "width", number(h->width), oom);
    set(o, "spacing", number(h->spacing), oom);
    set(o, "alpha", number(h->legend_alpha), oom);
    set(o, "legend", words(h->legend, oom), oom);
    return o;
}

static json_t *level(const cs_maplevel *l, bool *oom)
{
    json_t *o = json_object(), *seg = json_array();
    set(o, "value", number(l->value), oom);
    set(o, "dash", numbers(l->dash, l->ndash, oom), oom);
    set(o, "width", number(l->width), oom);
    set(o, "legend", l->legend ? json_string_nocheck(l->legend) : json_null(), oom);
    for (int k = 0; k < l->n; k++) {
        const cs_mapseg *s = &l->seg[k];
        double xy[4] = {s->x0, s->y0, s->x1, s->y1};
        for (int i = 0; i < 4; i++)
            add(seg, number(xy[i]), oom);
    }
    set(o, "segments", seg, oom);
    return o;
}

/* "cells" (each cell's colour, or null) and "some" ([cell, opacity]). */
static void cells(json_t *o, const cs_mapdraw *d, bool *oom)
{
    int n = d->nx * d->ny;
    json_t *all = json_array(), *some = json_array();
    for (int k = 0; k < n; k++) {
        add(all, d->cell[k].kind == CS_MAPCELL_NONE ? json_null() : colour(d->cell[k].colour),
                       oom);
        if (d->cell[k].kind == CS_MAPCELL_SOME) {
            double pair[2] = {k, d->cell[k].hatch_alpha};
            add(some, numbers(pair, 2, oom), oom);
        }
    }
    set(o, "cells", all, oom);
    set(o, "some", some, oom);
}

static json_t *charger(const cs_mapcharger *c, bool *oom)
{
    json_t *o = json_object();
    set(o, "width", number(c->width), oom);
    set(o, "depth", number(c->depth), oom);
    set(o, "fill", colour(c->fill), oom);
    set(o, "outline", colour(c->outline), oom);
    set(o, "front", colour(c->front), oom);
    set(o, "outline_width", number(c->outline_width), oom);
    set(o, "front_width", number(c->front_width), oom);
    set(o, "legend", c->legend ? json_string_nocheck(c->legend) : json_null(), oom);
    return o;
}

void cs_mapjson_write(json_t *o, const cs_mapdraw *d, bool *oom)
{
    double g[8] = {d->nx, d->ny, d->x0, d->dx, d->y0, d->dy, d->charger.width, d->charger.depth};
    static const char *const names[8] = {"nx", "ny", "x0", "dx", "y0", "dy", "charger_w",
                                         "charger_d"};
    json_t *grid = json_object(), *pic = json_object(), *stops = json_array(),
           *levels = json_array();
    for (int k = 0; k < 8; k++)
        set(grid, names[k], number(g[k]), oom);
    set(o, "grid", grid, oom);
    double extent[4] = {d->xmin, d->xmax, d->ymin, d->ymax}, ticks[2] = {d->xtick, d->ytick};
    set(pic, "extent", numbers(extent, 4, oom), oom);
    set(pic, "ticks", numbers(ticks, 2, oom), oom);
    for (int k = 0; k < CS_MAPDRAW_STOPS; k++) {
        json_t *stop = json_array();
        add(stop, number(d->stop[k].at), oom);
        add(stop, colour(d->stop[k].colour), oom);
        add(stops, stop, oom);
    }
    set(pic, "stops", stops, oom);
    cells(pic, d, oom);
    for (int l = 0; l < CS_MAPDRAW_LEVELS; l++)
        add(levels, level(&d->level[l], oom), oom);
    set(pic, "levels", levels, oom);
    set(pic, "none", hatch(&d->none, oom), oom);
    set(pic, "over", hatch(&d->some, oom), oom);
    set(pic, "charger", charger(&d->charger, oom), oom);
    set(o, "picture", pic, oom);
}
