/* SPDX-License-Identifier: GPL-3.0-or-later */
/* A threat map's display list as JSON; see include/chargesim/webmap.h.
 * Only a translation: every number and word comes from mapdraw.c. */
#include "chargesim/webmap.h"

#include <math.h>
#include <stdio.h>

/* A colour as CSS writes it, each channel rounded to 0..255. */
static void colour(cs_webjson *o, cs_maprgb c)
{
    char buf[8];
    snprintf(buf, sizeof buf, "#%02x%02x%02x", (unsigned)lround(c.r * 255.0),
             (unsigned)lround(c.g * 255.0), (unsigned)lround(c.b * 255.0));
    cs_webjson_string(o, buf);
}

static void kcolour(cs_webjson *o, const char *key, cs_maprgb c)
{
    cs_webjson_key(o, key);
    colour(o, c);
}

static void numbers(cs_webjson *o, const char *key, const double *x, int n)
{
    cs_webjson_key(o, key);
    cs_webjson_open(o, '[');
    for (int k = 0; k < n; k++)
        cs_webjson_number(o, x[k]);
    cs_webjson_close(o, ']');
}

static void words(cs_webjson *o, const char *const *lines)
{
    cs_webjson_key(o, "legend");
    cs_webjson_open(o, '[');
    for (int k = 0; k < CS_MAPDRAW_LINES && lines[k]; k++)
        cs_webjson_string(o, lines[k]);
    cs_webjson_close(o, ']');
}

static void hatch(cs_webjson *o, const char *key, const cs_maphatch *h)
{
    cs_webjson_key(o, key);
    cs_webjson_open(o, '{');
    if (h->filled)
        kcolour(o, "fill", h->fill);
    kcolour(o, "line", h->line);
    cs_webjson_knumber(o, "width", h->width);
    cs_webjson_knumber(o, "spacing", h->spacing);
    cs_webjson_knumber(o, "alpha", h->legend_alpha);
    words(o, h->legend);
    cs_webjson_close(o, '}');
}

static void level(cs_webjson *o, const cs_maplevel *l)
{
    cs_webjson_open(o, '{');
    cs_webjson_knumber(o, "value", l->value);
    numbers(o, "dash", l->dash, l->ndash);
    cs_webjson_knumber(o, "width", l->width);
    cs_webjson_kstring(o, "legend", l->legend);
    cs_webjson_key(o, "segments");
    cs_webjson_open(o, '[');
    for (int k = 0; k < l->n; k++) {
        const cs_mapseg *s = &l->seg[k];
        cs_webjson_number(o, s->x0);
        cs_webjson_number(o, s->y0);
        cs_webjson_number(o, s->x1);
        cs_webjson_number(o, s->y1);
    }
    cs_webjson_close(o, ']');
    cs_webjson_close(o, '}');
}

static void cells(cs_webjson *o, const cs_mapdraw *d)
{
    int n = d->nx * d->ny;
    cs_webjson_key(o, "cells");
    cs_webjson_open(o, '[');
    for (int k = 0; k < n; k++) {
        if (d->cell[k].kind == CS_MAPCELL_NONE)
            cs_webjson_string(o, NULL);
        else
            colour(o, d->cell[k].colour);
    }
    cs_webjson_close(o, ']');
    cs_webjson_key(o, "some");
    cs_webjson_open(o, '[');
    for (int k = 0; k < n; k++)
        if (d->cell[k].kind == CS_MAPCELL_SOME) {
            double pair[2] = {k, d->cell[k].hatch_alpha};
            cs_webjson_open(o, '[');
            cs_webjson_number(o, pair[0]);
            cs_webjson_number(o, pair[1]);
            cs_webjson_close(o, ']');
        }
    cs_webjson_close(o, ']');
}

static void charger(cs_webjson *o, const cs_mapcharger *c)
{
    cs_webjson_key(o, "charger");
    cs_webjson_open(o, '{');
    cs_webjson_knumber(o, "width", c->width);
    cs_webjson_knumber(o, "depth", c->depth);
    kcolour(o, "fill", c->fill);
    kcolour(o, "outline", c->outline);
    kcolour(o, "front", c->front);
    cs_webjson_knumber(o, "outline_width", c->outline_width);
    cs_webjson_knumber(o, "front_width", c->front_width);
    cs_webjson_kstring(o, "legend", c->legend);
    cs_webjson_close(o, '}');
}

void cs_webmap_write(cs_webjson *o, const cs_mapdraw *d)
{
    double grid[8] = {d->nx, d->ny, d->x0, d->dx, d->y0, d->dy, d->charger.width,
                      d->charger.depth};
    static const char *const names[8] = {"nx", "ny", "x0", "dx", "y0", "dy", "charger_w",
                                         "charger_d"};
    cs_webjson_key(o, "grid");
    cs_webjson_open(o, '{');
    for (int k = 0; k < 8; k++)
        cs_webjson_knumber(o, names[k], grid[k]);
    cs_webjson_close(o, '}');
    cs_webjson_key(o, "picture");
    cs_webjson_open(o, '{');
    double extent[4] = {d->xmin, d->xmax, d->ymin, d->ymax}, ticks[2] = {d->xtick, d->ytick};
    numbers(o, "extent", extent, 4);
    numbers(o, "ticks", ticks, 2);
    cs_webjson_key(o, "stops");
    cs_webjson_open(o, '[');
    for (int k = 0; k < CS_MAPDRAW_STOPS; k++) {
        cs_webjson_open(o, '[');
        cs_webjson_number(o, d->stop[k].at);
        colour(o, d->stop[k].colour);
        cs_webjson_close(o, ']');
    }
    cs_webjson_close(o, ']');
    cells(o, d);
    cs_webjson_key(o, "levels");
    cs_webjson_open(o, '[');
    for (int l = 0; l < CS_MAPDRAW_LEVELS; l++)
        level(o, &d->level[l]);
    cs_webjson_close(o, ']');
    hatch(o, "none", &d->none);
    hatch(o, "over", &d->some);
    charger(o, &d->charger);
    cs_webjson_close(o, '}');
}
