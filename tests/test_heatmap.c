/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Threat-map pictures (heatmap.h) and their canvas (canvas.h): each format
 * by extension, a PNG of the size the layout promises, and the same bytes
 * from two renders of the same map in every format. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>


#include "chargesim/heatmap.h"
#include "support/helpers.h"

#define NX 21
#define NY 11

static double cells[NX * NY];

static cs_heatmap sample_map(void)
{
    for (int j = 0; j < NY; j++)
        for (int i = 0; i < NX; i++) {
            double x = -10 + i, y = j, d = hypot(x, y);
            cells[j * NX + i] = (fabs(x) < 3 && y < 1) ? (double)NAN : 1.0 / (1.0 + exp(d - 6.0));
        }
    return (cs_heatmap){NX, NY, -10, 1, 0, 1, cells, NULL, 5, 2, "title", "caption"};
}

static char *render(cs_canvas_format f, size_t *len)
{
    char *buf = NULL;
    FILE *out = open_memstream(&buf, len);
    cs_heatmap h = sample_map();
    cs_error err;
    cr_assert_eq(cs_heatmap_draw(&h, f, out, &err), CS_OK, "%s", err.msg);
    fclose(out);
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
