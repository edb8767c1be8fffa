/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Threat-map pictures: the display list both front ends render
 * (mapdraw.h: its levels, stops, contours, hatching and region, checked
 * against fields whose answers are worked out here), and the command
 * line's picture of it (heatmap.h) and its canvas (canvas.h): each format
 * by extension, a PNG of the size the layout promises, and the same bytes
 * from two renders of the same map in every format. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/heatmap.h"
#include "chargesim/mapdraw.h"
#include "support/helpers.h"

#define NX 21
#define NY 11

static double cells[NX * NY];

static cs_mapgrid sample_map(void)
{
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++) {
            double x = -10 + i, y = j, d = hypot(x, y);
            cells[j * NX + i] = (fabs(x) < 3 && y < 1) ? (double)NAN : 1.0 / (1.0 + exp(d - 6.0));
        }
    return (cs_mapgrid){NX, NY, -10, 1, 0, 1, cells, NULL, 5, 2};
}

static char *render(cs_canvas_format f, size_t *len)
{
    char *buf = NULL;
    FILE *out = open_memstream(&buf, len);
    cs_mapgrid g = sample_map();
    cs_mapdraw d;
    cr_assert_eq(cs_mapdraw_build(&g, &d), CS_OK);
    cs_heatmap h = {&d, "title", "caption"};
    cs_error err;
    cr_assert_eq(cs_heatmap_draw(&h, f, out, &err), CS_OK, "%s", err.msg);
    fclose(out);
    cs_mapdraw_free(&d);
    return buf;
}

Test(heatmap, format_follows_the_extension)
{
    cs_canvas_format f;
    cr_assert(cs_canvas_format_of("a/b.PNG", &f) && f == CS_CANVAS_PNG);
    cr_assert(cs_canvas_format_of("x.svg", &f) && f == CS_CANVAS_SVG);
    cr_assert(cs_canvas_format_of("x.pdf", &f) && f == CS_CANVAS_PDF);
    cr_assert(!cs_canvas_format_of("x.jpg", &f));
    cr_assert(!cs_canvas_format_of("noext", &f));
}

static char *render_format(int format, size_t *len)
{
    return render((cs_canvas_format)format, len);
}

Test(heatmap, two_renders_give_the_same_bytes)
{
    th_check_renders_identical(render_format);
}

/* The plot area is 640 points wide or 560 high at most (here the x span,
 * 23 inches, limits the scale), plus the fixed margins. */
Test(heatmap, png_has_the_laid_out_size)
{
    size_t len;
    unsigned char *png = (unsigned char *)render(CS_CANVAS_PNG, &len);
    cr_assert(len > 24);
    unsigned w = (unsigned)png[16] << 24 | (unsigned)png[17] << 16 | (unsigned)png[18] << 8 | png[19];
    unsigned h = (unsigned)png[20] << 24 | (unsigned)png[21] << 16 | (unsigned)png[22] << 8 | png[23];
    double s = fmin(640.0 / 21.0, 560.0 / 13.0); /* x: -10.5..10.5; y: -2.5..10.5 */
    s = fmin(s, 40.0);
    cr_assert_eq(w, (unsigned)ceil(52 + 21 * s + 150), "width %u", w);
    cr_assert_eq(h, (unsigned)ceil(16 + 13 * s + 78), "height %u", h);
    free(png);
}

/* A canvas cairo cannot make (a PNG wider than its 32767 pixels; else out
 * of memory) is a runtime error with cairo's reason, and nothing is
 * written. Neither picture reaches that size from the command line (a map
 * is 640 points wide at most, a drawing of the largest t9a table about
 * 12,400 pixels), so it is tested here. */
Test(heatmap, a_canvas_cairo_refuses_is_an_error)
{
    FILE *f = tmpfile();
    cr_assert(f);
    cs_canvas c;
    cs_error err;
    cr_assert_eq(cs_canvas_open(&c, CS_CANVAS_PNG, 40000.0, 10.0, f, &err), CS_ERUNTIME);
    cr_expect(strstr(err.msg, "cannot start the picture: invalid value"), "%s", err.msg);
    cr_expect_eq(ftell(f), 0);
    fclose(f);
}

/* The display list: the contours at 50%, 75% and 90%, the first solid and
 * the others dashed, each with its legend's words. */
Test(mapdraw, three_levels_with_their_dashes_and_words)
{
    cs_mapgrid g = sample_map();
    cs_mapdraw d;
    cr_assert_eq(cs_mapdraw_build(&g, &d), CS_OK);
    static const double want[3] = {0.5, 0.75, 0.9};
    static const char *const words[3] = {"50% contour", "75% contour", "90% contour"};
    for (int l = 0; l < 3; l++) {
        cr_expect_eq(d.level[l].value, want[l]);
        cr_expect_str_eq(d.level[l].legend, words[l]);
        cr_expect_eq(d.level[l].ndash, l == 0 ? 0 : 2, "level %d", l);
    }
    cs_mapdraw_free(&d);
}

/* Viridis: the stops at 0, 1/4, 1/2, 3/4, 1 are matplotlib's colours
 * #440154, #3b528b, #21918c, #5ec962, #fde725; halfway between two stops
 * is their mean; below 0 and above 1 the ends. */
Test(mapdraw, colour_stops_are_viridis_and_linear_between)
{
    static const int hex[5] = {0x440154, 0x3b528b, 0x21918c, 0x5ec962, 0xfde725};
    cs_mapgrid g = sample_map();
    cs_mapdraw d;
    cr_assert_eq(cs_mapdraw_build(&g, &d), CS_OK);
    for (int k = 0; k < 5; k++) {
        double r = (hex[k] >> 16) / 255.0, gr = ((hex[k] >> 8) & 255) / 255.0,
               b = (hex[k] & 255) / 255.0;
        cr_expect_eq(d.stop[k].at, k / 4.0);
        cr_expect(fabs(d.stop[k].colour.r - r) < 1e-12 && fabs(d.stop[k].colour.g - gr) < 1e-12 &&
                      fabs(d.stop[k].colour.b - b) < 1e-12,
                  "stop %d", k);
        cs_maprgb c = cs_mapdraw_colour(k / 4.0);
        cr_expect(fabs(c.r - r) < 1e-12 && fabs(c.g - gr) < 1e-12 && fabs(c.b - b) < 1e-12);
    }
    cs_maprgb mid = cs_mapdraw_colour(0.125);
    cr_expect(fabs(mid.r - (0x44 + 0x3b) / 2.0 / 255.0) < 1e-12);
    cr_expect(fabs(mid.g - (0x01 + 0x52) / 2.0 / 255.0) < 1e-12);
    cr_expect(fabs(mid.b - (0x54 + 0x8b) / 2.0 / 255.0) < 1e-12);
    cs_maprgb lo = cs_mapdraw_colour(-0.5), hi = cs_mapdraw_colour(7);
    cr_expect(lo.r == d.stop[0].colour.r && lo.b == d.stop[0].colour.b);
    cr_expect(hi.r == d.stop[4].colour.r && hi.g == d.stop[4].colour.g);
    cs_mapdraw_free(&d);
}

/* p = i / 4 on a 5 x 3 grid of unit cells from x = 0: p crosses 0.5 at
 * x = 2 exactly, 0.75 at x = 3 and 0.9 at x = 3.6, the same on every row.
 * Marching squares gives each level one vertical segment per square
 * column it crosses, per row of squares: two segments (y 0..1, 1..2). */
Test(mapdraw, a_linear_field_has_straight_contours_where_p_crosses)
{
    double p[15];
    for (int j = 0; j < 3; j++)
        for (int i = 0; i < 5; i++)
            p[j * 5 + i] = i / 4.0;
    cs_mapgrid g = {5, 3, 0, 1, 0, 1, p, NULL, 2, 1};
    cs_mapdraw d;
    cr_assert_eq(cs_mapdraw_build(&g, &d), CS_OK);
    static const double at[3] = {2.0, 3.0, 3.6};
    for (int l = 0; l < 3; l++) {
        const cs_maplevel *lv = &d.level[l];
        cr_assert_eq(lv->n, 2, "level %d: %d segments", l, lv->n);
        double ylo = 10, yhi = -10;
        for (int k = 0; k < lv->n; k++) {
            const cs_mapseg *s = &lv->seg[k];
            cr_expect(fabs(s->x0 - at[l]) < 1e-12 && fabs(s->x1 - at[l]) < 1e-12,
                      "level %d: x %g, %g", l, s->x0, s->x1);
            cr_expect_eq(fabs(s->y1 - s->y0), 1.0);
            ylo = fmin(ylo, fmin(s->y0, s->y1));
            yhi = fmax(yhi, fmax(s->y0, s->y1));
        }
        cr_expect(ylo == 0.0 && yhi == 2.0, "level %d spans %g..%g", l, ylo, yhi);
    }
    cs_mapdraw_free(&d);
}

/* A saddle: corners (0, 0) and (1, 1) above 0.5, (1, 0) and (0, 1) below.
 * The level crosses each edge where linear interpolation puts it: edge
 * (0,0)-(1,0) (0.8 to 0.2) halfway, at (0.5, 0); (1,0)-(1,1) (0.2 to 0.8)
 * at (1, 0.5); (1,1)-(0,1) (0.8 to 0.4) three quarters along, at (0.25, 1);
 * (0,1)-(0,0) (0.4 to 0.8) a quarter along, at (0, 0.75). Two segments join
 * them in pairs, each cutting off one corner, two opposite corners in all. */
Test(mapdraw, a_saddle_gives_two_segments_through_the_four_crossings)
{
    double p[4] = {0.8, 0.2, 0.4, 0.8}; /* (0,0), (1,0), (0,1), (1,1) */
    cs_mapgrid g = {2, 2, 0, 1, 0, 1, p, NULL, 2, 1};
    cs_mapdraw d;
    cr_assert_eq(cs_mapdraw_build(&g, &d), CS_OK);
    const cs_maplevel *lv = &d.level[0];
    cr_assert_eq(lv->n, 2);
    static const double cx[4] = {0.5, 1, 0.25, 0}, cy[4] = {0, 0.5, 1, 0.75};
    int seen = 0, which[2][2];
    for (int k = 0; k < 2; k++)
        for (int e = 0; e < 2; e++) {
            double x = e ? lv->seg[k].x1 : lv->seg[k].x0, y = e ? lv->seg[k].y1 : lv->seg[k].y0;
            which[k][e] = -1;
            for (int c = 0; c < 4; c++)
                if (fabs(x - cx[c]) < 1e-12 && fabs(y - cy[c]) < 1e-12) {
                    which[k][e] = c;
                    seen |= 1 << c;
                }
        }
    cr_expect_eq(seen, 15, "every crossing is an end of one segment");
    /* Crossings c and c + 1 (mod 4) share a corner: a segment cuts it off.
     * The centre (the mean, 0.55) is above, as (0,0) and (1,1) are: the
     * segments go round the two corners below it, (1,0) between crossings
     * 0 and 1, (0,1) between 2 and 3, never round (0,0) (crossings 3, 0). */
    for (int k = 0; k < 2; k++) {
        int lo = which[k][0] < which[k][1] ? which[k][0] : which[k][1];
        int hi = which[k][0] < which[k][1] ? which[k][1] : which[k][0];
        cr_expect((lo == 0 && hi == 1) || (lo == 2 && hi == 3), "segment %d: %d-%d", k,
                  which[k][0], which[k][1]);
    }
    cs_mapdraw_free(&d);
}

/* Hatching: a cell where the target cannot be placed (NAN) is hatched grey
 * with no colour; one where a share s of the drawn placements cannot
 * stand keeps its colour with lines over it of opacity 0.3 + 0.7 s (a
 * quarter: 0.475); the others are plain colour; the legend names the
 * second hatching only when some cell has it. */
Test(mapdraw, which_cells_are_hatched_and_why)
{
    double p[3] = {0.25, (double)NAN, 1.0}, cannot[3] = {0.0, 1.0, 0.25};
    cs_mapgrid g = {3, 1, 0, 1, 0, 1, p, cannot, 2, 1};
    cs_mapdraw d;
    cr_assert_eq(cs_mapdraw_build(&g, &d), CS_OK);
    cr_expect_eq(d.cell[0].kind, CS_MAPCELL_ODDS);
    cr_expect_eq(d.cell[0].colour.r, d.stop[1].colour.r);
    cr_expect_eq(d.cell[1].kind, CS_MAPCELL_NONE);
    cr_expect_eq(d.cell[2].kind, CS_MAPCELL_SOME);
    cr_expect_eq(d.cell[2].colour.g, d.stop[4].colour.g);
    cr_expect(fabs(d.cell[2].hatch_alpha - 0.475) < 1e-12, "%g", d.cell[2].hatch_alpha);
    cr_expect(d.any_some);
    cr_expect(d.none.filled && !d.some.filled);
    cr_expect_str_eq(d.none.legend[0], "cannot be placed");
    cs_mapdraw_free(&d);
    g.cannot = NULL;
    cr_assert_eq(cs_mapdraw_build(&g, &d), CS_OK);
    cr_expect_eq(d.cell[2].kind, CS_MAPCELL_ODDS);
    cr_expect(!d.any_some);
    cs_mapdraw_free(&d);
}

/* The region shown holds every cell whole and the charger (5 wide, 2 deep,
 * behind y = 0) with half an inch beyond it: cells -10..10 by 0..10 of
 * 1 inch give x -10.5..10.5 and y -2.5..10.5; ticks at most ten a side. */
Test(mapdraw, the_region_holds_the_cells_and_the_charger)
{
    cs_mapgrid g = sample_map();
    cs_mapdraw d;
    cr_assert_eq(cs_mapdraw_build(&g, &d), CS_OK);
    cr_expect(d.xmin == -10.5 && d.xmax == 10.5 && d.ymin == -2.5 && d.ymax == 10.5,
              "%g..%g by %g..%g", d.xmin, d.xmax, d.ymin, d.ymax);
    cr_expect_eq(d.xtick, 3.0); /* 21 inches: 1 and 2 give more than ten ticks */
    cr_expect_eq(d.ytick, 2.0); /* 13 inches */
    cr_expect(d.charger.width == 5 && d.charger.depth == 2);
    cs_mapdraw_free(&d);
}
