/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Building the display list of one trial; see include/chargesim/drawing.h. */
#include "chargesim/drawing.h"

#include <math.h>
#include <stdarg.h>
#include <string.h>

#include "chargesim/scenario.h"

#define DEG (3.14159265358979323846 / 180.0)

void cs_drawing_init(cs_drawing *d)
{
    memset(d, 0, sizeof *d);
    d->rolled = (double)NAN;
    d->needed = (double)NAN;
}

static void copy_text(char *dst, const char *src)
{
    size_t n = src ? strlen(src) : 0;
    if (n >= CS_DRAW_TEXT)
        n = CS_DRAW_TEXT - 1;
    if (n)
        memcpy(dst, src, n);
    dst[n] = '\0';
}

cs_draw_shape *cs_drawing_poly(cs_drawing *d, cs_draw_role role, const cs_poly *p,
                               const char *label)
{
    if (d->n_shapes >= CS_DRAW_MAX_SHAPES)
        return NULL;
    cs_draw_shape *s = &d->shape[d->n_shapes++];
    s->role = role;
    s->poly = *p;
    s->front = -1;
    copy_text(s->label, label);
    return s;
}

cs_draw_shape *cs_drawing_rect(cs_drawing *d, cs_draw_role role, const cs_rect *r,
                               const char *label)
{
    cs_poly p = cs_geom_rect_poly(r);
    cs_draw_shape *s = cs_drawing_poly(d, role, &p, label);
    if (s) {
        /* the front edge is the one whose two ends are the front corners */
        cs_vec2 fl = cs_geom_corner(r, CS_CORNER_FL), fr = cs_geom_corner(r, CS_CORNER_FR);
        for (int i = 0; i < p.n; i++) {
            cs_vec2 a = p.v[i], b = p.v[(i + 1) % p.n];
            if ((hypot(a.x - fl.x, a.y - fl.y) < 1e-9 && hypot(b.x - fr.x, b.y - fr.y) < 1e-9) ||
                (hypot(a.x - fr.x, a.y - fr.y) < 1e-9 && hypot(b.x - fl.x, b.y - fl.y) < 1e-9))
                s->front = i;
        }
    }
    return s;
}

cs_draw_line *cs_drawing_line(cs_drawing *d, cs_draw_stroke stroke, const cs_vec2 *v, int n,
                              const char *legend)
{
    if (d->n_lines >= CS_DRAW_MAX_LINES)
        return NULL;
    cs_draw_line *l = &d->line[d->n_lines++];
    memset(l, 0, sizeof *l);
    l->stroke = stroke;
    copy_text(l->legend, legend);
    for (int i = 0; i < n; i++)
        cs_drawing_line_add(l, v[i]);
    return l;
}

void cs_drawing_line_add(cs_draw_line *l, cs_vec2 p)
{
    if (l && l->n < CS_DRAW_MAX_POINTS)
        l->v[l->n++] = p;
}

void cs_drawing_line_arc(cs_draw_line *l, cs_vec2 centre, cs_vec2 p0, double turn)
{
    /* one point every 6 degrees at most: smooth at any printed size */
    int steps = (int)ceil(fabs(turn) / 6.0);
    double rx = p0.x - centre.x, ry = p0.y - centre.y;
    for (int i = 1; i <= steps; i++) {
        double a = turn * DEG * (double)i / (double)steps, c = cos(a), s = sin(a);
        cs_drawing_line_add(l, (cs_vec2){centre.x + c * rx - s * ry, centre.y + s * rx + c * ry});
    }
}

void cs_drawing_line_wheel(cs_draw_line *l, const cs_rect *r, double f1, double wheel,
                           double f2)
{
    cs_rect a = cs_geom_forward(r, f1);
    cs_drawing_line_add(l, cs_geom_edge_centre(r, CS_FRONT));
    cs_drawing_line_add(l, cs_geom_edge_centre(&a, CS_FRONT));
    if (wheel != 0.0)
        cs_drawing_line_arc(l, cs_geom_corner(&a, wheel > 0.0 ? CS_CORNER_FL : CS_CORNER_FR),
                            cs_geom_edge_centre(&a, CS_FRONT), wheel);
    cs_rect w = cs_geom_wheel(&a, wheel);
    cs_rect b = cs_geom_forward(&w, f2);
    cs_drawing_line_add(l, cs_geom_edge_centre(&b, CS_FRONT));
}

void cs_drawing_ray(cs_drawing *d, cs_draw_ray_kind kind, cs_vec2 p, cs_vec2 dir)
{
    if (d->n_rays < CS_DRAW_MAX_RAYS)
        d->ray[d->n_rays++] = (cs_draw_ray){kind, p, dir};
}

void cs_drawing_mark(cs_drawing *d, cs_vec2 p, const char *label)
{
    if (d->n_marks >= CS_DRAW_MAX_MARKS)
        return;
    cs_draw_mark *m = &d->mark[d->n_marks++];
    m->p = p;
    copy_text(m->label, label);
}

/* ---- the caption formatter (printf's subset, no stdio) ------------------- */

typedef struct sink {
    char *buf;
    int cap, n;
} sink;

static void put(sink *s, char c)
{
    if (s->n < s->cap - 1)
        s->buf[s->n++] = c;
}

static void put_uint(sink *s, unsigned long long v)
{
    char tmp[24];
    int k = 0;
    do {
        tmp[k++] = (char)('0' + (int)(v % 10u));
        v /= 10u;
    } while (v);
    while (k)
        put(s, tmp[--k]);
}

/* x rounded to `prec` decimals, half away from zero; never "-0". */
static void put_fixed(sink *s, double x, int prec)
{
    if (!isfinite(x)) {
        for (const char *c = x != x ? "nan" : x > 0 ? "inf" : "-inf"; *c; c++)
            put(s, *c);
        return;
    }
    double scale = pow(10.0, prec);
    unsigned long long q = (unsigned long long)llround(fabs(x) * scale);
    unsigned long long p10 = (unsigned long long)scale;
    if (x < 0 && q != 0)
        put(s, '-');
    put_uint(s, q / p10);
    if (prec > 0) {
        put(s, '.');
        unsigned long long f = q % p10;
        for (unsigned long long d = p10 / 10u; d >= 1u; d /= 10u) {
            put(s, (char)('0' + (int)(f / d)));
            f %= d;
        }
    }
}

static void vformat(sink *s, const char *fmt, va_list ap)
{
    for (const char *c = fmt; *c; c++) {
        if (c[0] == '%' && c[1] == 's') {
            for (const char *t = va_arg(ap, const char *); t && *t; t++)
                put(s, *t);
            c++;
        } else if (c[0] == '%' && c[1] == 'd') {
            int v = va_arg(ap, int);
            if (v < 0)
                put(s, '-');
            put_uint(s, v < 0 ? (unsigned long long)(-(long long)v) : (unsigned long long)v);
            c++;
        } else if (c[0] == '%' && c[1] == '.' && c[2] >= '0' && c[2] <= '4' && c[3] == 'f') {
            put_fixed(s, va_arg(ap, double), c[2] - '0');
            c += 3;
        } else if (c[0] == '%' && c[1] == '%') {
            put(s, '%');
            c++;
        } else {
            put(s, *c);
        }
    }
    s->buf[s->n] = '\0';
}

void cs_drawing_format(char *buf, int cap, const char *fmt, ...)
{
    sink s = {buf, cap, 0};
    va_list ap;
    va_start(ap, fmt);
    vformat(&s, fmt, ap);
    va_end(ap);
}

void cs_drawing_caption(cs_drawing *d, const char *fmt, ...)
{
    if (d->n_caption >= CS_DRAW_MAX_CAPTION)
        return;
    sink s = {d->caption[d->n_caption++], CS_DRAW_LINE, 0};
    va_list ap;
    va_start(ap, fmt);
    vformat(&s, fmt, ap);
    va_end(ap);
}

/* ---- scenario pieces ---------------------------------------------------- */

void cs_drawing_scenario(cs_drawing *d, const cs_scenario *s)
{
    static const cs_draw_role terrain_role[] = {
        [CS_TERRAIN_BLOCKING] = CS_DRAW_TERRAIN_SIGHT,
        [CS_TERRAIN_IMPASSABLE] = CS_DRAW_TERRAIN_MOVE,
        [CS_TERRAIN_SOLID] = CS_DRAW_TERRAIN_SOLID,
    };
    static const char *const terrain_name[] = {"blocking terrain", "impassable terrain",
                                               "solid terrain"};
    char label[CS_DRAW_TEXT];
    for (int i = 0; i < s->n_terrain; i++)
        cs_drawing_poly(d, terrain_role[s->terrain[i].kind], &s->terrain[i].poly,
                        terrain_name[s->terrain[i].kind]);
    for (int i = 0; i < s->n_others; i++) {
        bool enemy = s->others[i].kind == CS_UNIT_ENEMY;
        cs_drawing_format(label, sizeof label, "%s %d", enemy ? "enemy" : "friend", i + 1);
        cs_drawing_rect(d, enemy ? CS_DRAW_ENEMY : CS_DRAW_FRIEND, &s->others[i].r, label);
    }
    cs_drawing_rect(d, CS_DRAW_TARGET, &s->target.r, "target");
    cs_drawing_rect(d, CS_DRAW_CHARGER, &s->charger.r, "charger");
}

void cs_drawing_arcs(cs_drawing *d, const cs_rect *r)
{
    static const double su[4] = {-1, 1, 1, -1}, sv[4] = {1, 1, -1, -1};
    cs_vec2 c[4];
    cs_geom_corners(r, c);
    for (int k = 0; k < 4; k++)
        cs_drawing_ray(d, CS_DRAW_ARC, c[k],
                       (cs_vec2){(su[k] * r->right.x + sv[k] * r->fwd.x) * sqrt(0.5),
                                 (su[k] * r->right.y + sv[k] * r->fwd.y) * sqrt(0.5)});
}

void cs_drawing_sight(cs_drawing *d, const cs_rect *r, double arc)
{
    double s = sin(0.5 * arc * DEG), c = cos(0.5 * arc * DEG);
    cs_drawing_ray(d, CS_DRAW_SIGHT, cs_geom_corner(r, CS_CORNER_FL),
                   (cs_vec2){c * r->fwd.x - s * r->right.x, c * r->fwd.y - s * r->right.y});
    cs_drawing_ray(d, CS_DRAW_SIGHT, cs_geom_corner(r, CS_CORNER_FR),
                   (cs_vec2){c * r->fwd.x + s * r->right.x, c * r->fwd.y + s * r->right.y});
}
