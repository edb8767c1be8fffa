/* SPDX-License-Identifier: GPL-3.0-or-later */
/* One trial's picture with cairo; see include/chargesim/battlefield.h.
 *
 * The layout (sizes, text lines, legend entries) is computed once on a
 * scratch image surface, so the size cs_battlefield_size reports is the
 * size written whatever the format. Page coordinates are points, y down;
 * the table is drawn at CS_BATTLEFIELD_PT_PER_IN points an inch, y up. */
#include "chargesim/battlefield.h"

#include <cairo.h>
#include <math.h>
#include <string.h>

#define FONT "DejaVu Sans"
#define PI 3.14159265358979323846
#define PAD 18.0         /* points around everything */
#define MIN_WIDTH 540.0  /* points: room for the legend and the caption */
#define MARGIN_IN 1.5    /* inches of table around what is drawn */
#define LABEL_PT 9.0     /* label size; shrunk down to LABEL_MIN_PT to fit */
#define LABEL_MIN_PT 6.5
#define TEXT_PT 9.5      /* legend and caption */
#define MAX_TEXT 32      /* caption lines after wrapping */
#define MAX_LEGEND 24
#define MAX_BOXES (CS_DRAW_MAX_SHAPES + CS_DRAW_MAX_MARKS)

typedef struct box {
    double x0, y0, x1, y1;
} box;

typedef enum { LEG_ROLE, LEG_STROKE, LEG_RAY } leg_kind;

typedef struct legend_entry {
    leg_kind kind;
    int what;                 /* role, stroke or ray kind */
    char text[CS_DRAW_TEXT];
    double x, y;              /* swatch's left, row's baseline */
} legend_entry;

typedef struct page {
    double x0, y0, x1, y1;    /* the table shown, inches */
    double s;                 /* points per inch */
    double fx, fy, fw, fh;    /* the field on the page */
    double width, height;     /* points */
    double title_y[CS_BATTLEFIELD_MAX_TITLE];
    double scale_y;           /* baseline of the scale bar's numbers */
    int n_leg;
    legend_entry leg[MAX_LEGEND];
    int n_text, n_bold;       /* caption lines; the first n_bold in bold */
    char text[MAX_TEXT][CS_DRAW_LINE + 64];
    double text_y;            /* first caption baseline */
} page;

/* ---- styles ---------------------------------------------------------------- */

typedef struct rgb {
    double r, g, b;
} rgb;

static const struct role_style {
    rgb fill, stroke;
    double alpha;  /* fill opacity */
    bool dashed;
    const char *legend;
} roles[CS_DRAW_N_ROLES] = {
    [CS_DRAW_CHARGER] = {{0.12, 0.47, 0.71}, {0.06, 0.27, 0.45}, 0.45, false,
                         "charging unit (thick line: its front)"},
    [CS_DRAW_TARGET] = {{0.84, 0.15, 0.16}, {0.55, 0.08, 0.09}, 0.45, false, "target"},
    [CS_DRAW_ENEMY] = {{1.00, 0.50, 0.05}, {0.65, 0.32, 0.02}, 0.40, false, "other enemy unit"},
    [CS_DRAW_FRIEND] = {{0.17, 0.63, 0.17}, {0.08, 0.40, 0.08}, 0.40, false, "friendly unit"},
    [CS_DRAW_MOVED] = {{0.12, 0.47, 0.71}, {0.30, 0.50, 0.70}, 0.06, true,
                       "charger during its move"},
    [CS_DRAW_FINAL] = {{0.12, 0.47, 0.71}, {0.06, 0.27, 0.45}, 0.22, true,
                       "charger where its move ends"},
    [CS_DRAW_FINAL_ENEMY] = {{0.84, 0.15, 0.16}, {0.55, 0.08, 0.09}, 0.18, true,
                             "enemy unit where its move ends"},
    [CS_DRAW_TERRAIN_SIGHT] = {{0.70, 0.70, 0.70}, {0.45, 0.45, 0.45}, 0.45, false,
                               "terrain blocking sight"},
    [CS_DRAW_TERRAIN_MOVE] = {{0.63, 0.32, 0.18}, {0.36, 0.18, 0.07}, 0.40, false,
                              "impassable terrain"},
    [CS_DRAW_TERRAIN_SOLID] = {{0.35, 0.35, 0.35}, {0.15, 0.15, 0.15}, 0.70, false,
                               "solid terrain (sight and movement)"},
};

static const struct stroke_style {
    rgb c;
    double width;
    double dash; /* 0: solid */
} strokes[CS_DRAW_N_STROKES] = {
    [CS_DRAW_PATH] = {{0.03, 0.19, 0.36}, 2.0, 0.0},
    [CS_DRAW_ALIGN] = {{0.50, 0.15, 0.60}, 2.0, 4.0},
    [CS_DRAW_FAILED] = {{0.75, 0.10, 0.10}, 2.0, 5.0},
    [CS_DRAW_OTHER] = {{0.80, 0.42, 0.00}, 1.6, 0.0},
    [CS_DRAW_REACH] = {{0.40, 0.40, 0.40}, 1.0, 2.5},
};

static const struct ray_style {
    rgb c;
    double dash;
    const char *legend;
} rays[2] = {
    [CS_DRAW_ARC] = {{0.75, 0.22, 0.17}, 6.0, "target's arcs (rays at 135\xc2\xb0 from its corners)"},
    [CS_DRAW_SIGHT] = {{0.14, 0.44, 0.64}, 2.0, "charger's 90\xc2\xb0 field of view"},
};

static void set_rgb(cairo_t *cr, rgb c, double a)
{
    cairo_set_source_rgba(cr, c.r, c.g, c.b, a);
}

/* ---- text ------------------------------------------------------------------ */

static double text_width(cairo_t *cr, double size, const char *s)
{
    cairo_text_extents_t e;
    cairo_set_font_size(cr, size);
    cairo_text_extents(cr, s, &e);
    return e.x_advance;
}

static void show(cairo_t *cr, double x, double y, double size, const char *s)
{
    cairo_set_font_size(cr, size);
    cairo_move_to(cr, x, y);
    cairo_show_text(cr, s);
}

/* Appends src to the caption lines, wrapped at spaces to `width`. */
static void wrap(cairo_t *cr, page *pg, const char *src, double width)
{
    const char *p = src;
    while (*p && pg->n_text < MAX_TEXT) {
        char *line = pg->text[pg->n_text++];
        size_t cap = sizeof pg->text[0], n = 0, best = 0;
        const char *indent = p == src ? "" : "    ";
        strcpy(line, indent);
        size_t base = strlen(indent);
        for (;;) {
            size_t k = strcspn(p + n, " ");
            if (base + n + k >= cap - 1)
                break;
            memcpy(line + base, p, n + k);
            line[base + n + k] = '\0';
            if (best && text_width(cr, TEXT_PT, line) > width)
                break;
            best = n + k;
            if (p[n + k] == '\0')
                break;
            n += k + 1;
        }
        if (best == 0) /* one word longer than the line: cut it */
            best = strcspn(p, " ") < cap - base - 1 ? strcspn(p, " ") : cap - base - 1;
        memcpy(line + base, p, best);
        line[base + best] = '\0';
        p += best;
        while (*p == ' ')
            p++;
    }
}

/* ---- layout ------------------------------------------------------------------ */

static void grow(page *pg, cs_vec2 v)
{
    pg->x0 = fmin(pg->x0, v.x);
    pg->x1 = fmax(pg->x1, v.x);
    pg->y0 = fmin(pg->y0, v.y);
    pg->y1 = fmax(pg->y1, v.y);
}

static void extent(const cs_drawing *d, page *pg)
{
    pg->x0 = pg->y0 = INFINITY;
    pg->x1 = pg->y1 = -INFINITY;
    for (int i = 0; i < d->n_shapes; i++)
        for (int k = 0; k < d->shape[i].poly.n; k++)
            grow(pg, d->shape[i].poly.v[k]);
    for (int i = 0; i < d->n_lines; i++)
        for (int k = 0; k < d->line[i].n; k++)
            grow(pg, d->line[i].v[k]);
    for (int i = 0; i < d->n_marks; i++)
        grow(pg, d->mark[i].p);
    if (!isfinite(pg->x0))
        pg->x0 = pg->y0 = -1, pg->x1 = pg->y1 = 1;
    pg->x0 = floor(pg->x0 - MARGIN_IN);
    pg->y0 = floor(pg->y0 - MARGIN_IN);
    pg->x1 = ceil(pg->x1 + MARGIN_IN);
    pg->y1 = ceil(pg->y1 + MARGIN_IN);
}

static void add_legend(page *pg, leg_kind kind, int what, const char *text)
{
    for (int i = 0; i < pg->n_leg; i++)
        if (strcmp(pg->leg[i].text, text) == 0)
            return;
    if (pg->n_leg >= MAX_LEGEND || !text[0])
        return;
    legend_entry *e = &pg->leg[pg->n_leg++];
    e->kind = kind;
    e->what = what;
    snprintf(e->text, sizeof e->text, "%s", text);
}

/* The entries in drawing order, flowed into rows; returns the legend's height. */
static double legend(cairo_t *cr, const cs_drawing *d, page *pg, double x, double y, double w)
{
    for (int r = 0; r < CS_DRAW_N_ROLES; r++)
        for (int i = 0; i < d->n_shapes; i++)
            if ((int)d->shape[i].role == r) {
                add_legend(pg, LEG_ROLE, r, d->legend[r][0] ? d->legend[r] : roles[r].legend);
                break;
            }
    for (int i = 0; i < d->n_lines; i++)
        add_legend(pg, LEG_STROKE, (int)d->line[i].stroke, d->line[i].legend);
    for (int k = 0; k < 2; k++)
        for (int i = 0; i < d->n_rays; i++)
            if ((int)d->ray[i].kind == k) {
                add_legend(pg, LEG_RAY, k, rays[k].legend);
                break;
            }
    double cx = x, cy = y + 12.0;
    for (int i = 0; i < pg->n_leg; i++) {
        double ew = 30.0 + text_width(cr, TEXT_PT, pg->leg[i].text) + 16.0;
        if (cx > x && cx + ew > x + w) {
            cx = x;
            cy += 16.0;
        }
        pg->leg[i].x = cx;
        pg->leg[i].y = cy;
        cx += ew;
    }
    return pg->n_leg ? cy - y + 6.0 : 0.0;
}

static void format_len(char *buf, size_t cap, double v)
{
    if (fabs(v - round(v)) < 1e-9)
        snprintf(buf, cap, "%.0f\"", v);
    else
        snprintf(buf, cap, "%.2f\"", v);
}

/* The outcome line: what happened, the range the trial had, the distance it
 * needed. */
static void outcome_line(const cs_drawing *d, char *buf, size_t cap)
{
    char r[32], n[32];
    format_len(r, sizeof r, d->rolled);
    format_len(n, sizeof n, d->needed);
    int k = snprintf(buf, cap, "Outcome: %s.", d->outcome ? d->outcome : "none");
    if (k < 0 || (size_t)k >= cap)
        return;
    if (isfinite(d->rolled))
        k += snprintf(buf + k, cap - (size_t)k, " %s: %s.",
                      d->rolled_what[0] ? d->rolled_what : "range", r);
    else
        k += snprintf(buf + k, cap - (size_t)k, " No range rolled.");
    if (k >= 0 && (size_t)k < cap && isfinite(d->needed))
        snprintf(buf + k, cap - (size_t)k, " Needed: %s (%s).", n,
                 d->needed_what[0] ? d->needed_what : "distance");
}

static void layout(cairo_t *cr, const cs_drawing *d, const cs_battlefield_title *t, page *pg)
{
    memset(pg, 0, sizeof *pg);
    extent(d, pg);
    pg->s = CS_BATTLEFIELD_PT_PER_IN;
    pg->fw = (pg->x1 - pg->x0) * pg->s;
    pg->fh = (pg->y1 - pg->y0) * pg->s;
    double w = fmax(pg->fw, MIN_WIDTH);
    double y = PAD;
    for (int i = 0; i < t->n && i < CS_BATTLEFIELD_MAX_TITLE; i++) {
        y += i == 0 ? 13.0 : 14.0;
        pg->title_y[i] = y;
    }
    pg->fx = PAD + 0.5 * (w - pg->fw);
    pg->fy = y + 10.0;
    pg->scale_y = pg->fy + pg->fh + 24.0;
    y = pg->scale_y + 10.0;
    y += legend(cr, d, pg, PAD, y, w);
    char line[CS_DRAW_LINE + 64];
    outcome_line(d, line, sizeof line);
    /* the outcome line is printed in bold: measured so */
    cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_BOLD);
    wrap(cr, pg, line, w);
    pg->n_bold = pg->n_text;
    cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    for (int i = 0; i < d->n_caption; i++)
        wrap(cr, pg, d->caption[i], w);
    pg->text_y = y + 16.0;
    pg->width = ceil(w + 2 * PAD);
    pg->height = ceil(pg->text_y + 13.0 * (pg->n_text - 1) + PAD);
}

static void measure(const cs_drawing *d, const cs_battlefield_title *t, page *pg)
{
    cairo_surface_t *s = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1);
    cairo_t *cr = cairo_create(s);
    cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    layout(cr, d, t, pg);
    cairo_destroy(cr);
    cairo_surface_destroy(s);
}

void cs_battlefield_size(const cs_drawing *d, const cs_battlefield_title *t,
                         cs_canvas_format format, double *width, double *height)
{
    page pg;
    measure(d, t, &pg);
    double k = format == CS_CANVAS_PNG ? CS_BATTLEFIELD_PNG_SCALE : 1.0;
    *width = pg.width * k;
    *height = pg.height * k;
}

/* ---- the table -------------------------------------------------------------- */

static double px(const page *pg, double x)
{
    return pg->fx + (x - pg->x0) * pg->s;
}

static double py(const page *pg, double y)
{
    return pg->fy + (pg->y1 - y) * pg->s;
}

static void grid(cairo_t *cr, const page *pg)
{
    cairo_save(cr);
    cairo_rectangle(cr, pg->fx, pg->fy, pg->fw, pg->fh);
    cairo_set_source_rgb(cr, 0.985, 0.98, 0.965);
    cairo_fill(cr);
    cairo_set_line_width(cr, 0.5);
    cairo_set_source_rgb(cr, 0.88, 0.87, 0.84);
    for (double x = pg->x0 + 1; x < pg->x1; x += 1.0) {
        cairo_move_to(cr, px(pg, x), pg->fy);
        cairo_line_to(cr, px(pg, x), pg->fy + pg->fh);
    }
    for (double y = pg->y0 + 1; y < pg->y1; y += 1.0) {
        cairo_move_to(cr, pg->fx, py(pg, y));
        cairo_line_to(cr, pg->fx + pg->fw, py(pg, y));
    }
    cairo_stroke(cr);
    cairo_restore(cr);
}

static void poly_path(cairo_t *cr, const page *pg, const cs_poly *p)
{
    for (int k = 0; k < p->n; k++)
        (k ? cairo_line_to : cairo_move_to)(cr, px(pg, p->v[k].x), py(pg, p->v[k].y));
    cairo_close_path(cr);
}

static void shape(cairo_t *cr, const page *pg, const cs_draw_shape *s)
{
    const struct role_style *st = &roles[s->role];
    static const double dash[] = {4.0, 3.0};
    cairo_save(cr);
    poly_path(cr, pg, &s->poly);
    set_rgb(cr, st->fill, st->alpha);
    cairo_fill_preserve(cr);
    set_rgb(cr, st->stroke, 1.0);
    cairo_set_line_width(cr, 1.2);
    cairo_set_dash(cr, dash, st->dashed ? 2 : 0, 0);
    cairo_stroke(cr);
    if (s->front >= 0) {
        cs_vec2 a = s->poly.v[s->front], b = s->poly.v[(s->front + 1) % s->poly.n];
        cairo_set_line_width(cr, 3.5);
        cairo_set_line_cap(cr, CAIRO_LINE_CAP_BUTT);
        cairo_move_to(cr, px(pg, a.x), py(pg, a.y));
        cairo_line_to(cr, px(pg, b.x), py(pg, b.y));
        cairo_stroke(cr);
    }
    cairo_restore(cr);
}

static void ray(cairo_t *cr, const page *pg, const cs_draw_ray *r)
{
    double len = hypot(pg->x1 - pg->x0, pg->y1 - pg->y0);
    const double dash[] = {rays[r->kind].dash, 3.0};
    cairo_save(cr);
    cairo_rectangle(cr, pg->fx, pg->fy, pg->fw, pg->fh);
    cairo_clip(cr);
    set_rgb(cr, rays[r->kind].c, 0.8);
    cairo_set_line_width(cr, 0.8);
    cairo_set_dash(cr, dash, 2, 0);
    cairo_move_to(cr, px(pg, r->p.x), py(pg, r->p.y));
    cairo_line_to(cr, px(pg, r->p.x + len * r->d.x), py(pg, r->p.y + len * r->d.y));
    cairo_stroke(cr);
    cairo_restore(cr);
}

static void arrowhead(cairo_t *cr, double x0, double y0, double x1, double y1, double size)
{
    double a = atan2(y1 - y0, x1 - x0);
    cairo_move_to(cr, x1, y1);
    cairo_line_to(cr, x1 - size * cos(a - 0.4), y1 - size * sin(a - 0.4));
    cairo_line_to(cr, x1 - size * cos(a + 0.4), y1 - size * sin(a + 0.4));
    cairo_close_path(cr);
    cairo_fill(cr);
}

static void line(cairo_t *cr, const page *pg, const cs_draw_line *l)
{
    if (l->n < 2)
        return;
    const struct stroke_style *st = &strokes[l->stroke];
    const double dash[] = {st->dash, 0.6 * st->dash};
    cairo_save(cr);
    set_rgb(cr, st->c, 1.0);
    cairo_set_line_width(cr, st->width);
    cairo_set_line_join(cr, CAIRO_LINE_JOIN_ROUND);
    cairo_set_dash(cr, dash, st->dash > 0 ? 2 : 0, 0);
    for (int k = 0; k < l->n; k++)
        (k ? cairo_line_to : cairo_move_to)(cr, px(pg, l->v[k].x), py(pg, l->v[k].y));
    if (l->closed)
        cairo_close_path(cr);
    cairo_stroke(cr);
    if (l->arrow) {
        /* along the last segment of real length */
        int k = l->n - 2;
        while (k > 0 && hypot(l->v[l->n - 1].x - l->v[k].x, l->v[l->n - 1].y - l->v[k].y) < 0.05)
            k--;
        arrowhead(cr, px(pg, l->v[k].x), py(pg, l->v[k].y), px(pg, l->v[l->n - 1].x),
                  py(pg, l->v[l->n - 1].y), 8.0);
    }
    cairo_restore(cr);
}

/* ---- labels ------------------------------------------------------------------ */

/* A convex polygon on the page. */
typedef struct ppoly {
    int n;
    double x[CS_POLY_MAX], y[CS_POLY_MAX];
} ppoly;

typedef struct labeller {
    const page *pg;
    int n_poly;
    ppoly poly[MAX_BOXES];
    int n_box;
    box placed[MAX_BOXES];
} labeller;

static ppoly to_page(const page *pg, const cs_poly *p)
{
    ppoly q = {p->n, {0}, {0}};
    for (int k = 0; k < p->n; k++) {
        q.x[k] = px(pg, p->v[k].x);
        q.y[k] = py(pg, p->v[k].y);
    }
    return q;
}

/* Projections of polygon p and box b on the axis (ax, ay) are disjoint. */
static bool separated(const ppoly *p, box b, double ax, double ay)
{
    double pl = INFINITY, ph = -INFINITY, bl = INFINITY, bh = -INFINITY;
    for (int k = 0; k < p->n; k++) {
        double v = p->x[k] * ax + p->y[k] * ay;
        pl = fmin(pl, v);
        ph = fmax(ph, v);
    }
    double cx[4] = {b.x0, b.x1, b.x1, b.x0}, cy[4] = {b.y0, b.y0, b.y1, b.y1};
    for (int k = 0; k < 4; k++) {
        double v = cx[k] * ax + cy[k] * ay;
        bl = fmin(bl, v);
        bh = fmax(bh, v);
    }
    return ph <= bl || bh <= pl;
}

/* Separating axes: the box's two and each polygon edge's normal. */
static bool overlaps(const ppoly *p, box b)
{
    if (separated(p, b, 1, 0) || separated(p, b, 0, 1))
        return false;
    for (int k = 0; k < p->n; k++) {
        int j = (k + 1) % p->n;
        if (separated(p, b, -(p->y[j] - p->y[k]), p->x[j] - p->x[k]))
            return false;
    }
    return true;
}

static bool inside(const ppoly *p, double x, double y)
{
    int pos = 0, neg = 0;
    for (int k = 0; k < p->n; k++) {
        int j = (k + 1) % p->n;
        double c = (p->x[j] - p->x[k]) * (y - p->y[k]) - (p->y[j] - p->y[k]) * (x - p->x[k]);
        pos += c > 0;
        neg += c < 0;
    }
    return pos == 0 || neg == 0;
}

static bool boxes_meet(box a, box b)
{
    return a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;
}

/* The box is free: inside the field, over no polygon but `own` (-1: none)
 * and no label already placed. */
static bool free_box(const labeller *lb, box b, int own)
{
    const page *pg = lb->pg;
    if (b.x0 < pg->fx + 2 || b.y0 < pg->fy + 2 || b.x1 > pg->fx + pg->fw - 2 ||
        b.y1 > pg->fy + pg->fh - 2)
        return false;
    for (int i = 0; i < lb->n_poly; i++)
        if (i != own && overlaps(&lb->poly[i], b))
            return false;
    for (int i = 0; i < lb->n_box; i++)
        if (boxes_meet(lb->placed[i], b))
            return false;
    return true;
}

static void centroid(const ppoly *p, double *x, double *y)
{
    *x = *y = 0;
    for (int k = 0; k < p->n; k++) {
        *x += p->x[k] / p->n;
        *y += p->y[k] / p->n;
    }
}

static box text_box(double cx, double cy, double w, double size)
{
    return (box){cx - 0.5 * w - 1.5, cy - 0.5 * size - 1.5, cx + 0.5 * w + 1.5,
                 cy + 0.5 * size + 1.5};
}

static void put_label(cairo_t *cr, labeller *lb, box b, double size, const char *text)
{
    lb->placed[lb->n_box++] = b;
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    show(cr, b.x0 + 1.5, b.y1 - 1.5 - 0.12 * size, size, text);
}

/* Inside polygon i, at the largest size from LABEL_PT down that fits: at
 * its centre, or the free place inside it nearest the centre (on a grid of
 * eighths of its extent). */
static bool label_inside(cairo_t *cr, labeller *lb, int i, const char *text)
{
    const ppoly *p = &lb->poly[i];
    double cx, cy, x0 = INFINITY, x1 = -INFINITY, y0 = INFINITY, y1 = -INFINITY;
    centroid(p, &cx, &cy);
    for (int k = 0; k < p->n; k++) {
        x0 = fmin(x0, p->x[k]);
        x1 = fmax(x1, p->x[k]);
        y0 = fmin(y0, p->y[k]);
        y1 = fmax(y1, p->y[k]);
    }
    for (double size = LABEL_PT; size >= LABEL_MIN_PT - 1e-9; size -= 0.5) {
        double w = text_width(cr, size, text), best = INFINITY;
        box found = {0, 0, 0, 0};
        for (int a = 0; a <= 8; a++)
            for (int b = 0; b <= 8; b++) {
                double x = x0 + (x1 - x0) * a / 8.0, y = y0 + (y1 - y0) * b / 8.0;
                double dist = hypot(x - cx, y - cy);
                if (a == 4 && b == 4)
                    x = cx, y = cy, dist = 0;
                box t = text_box(x, y, w, size);
                if (dist < best && inside(p, t.x0, t.y0) && inside(p, t.x1, t.y0) &&
                    inside(p, t.x1, t.y1) && inside(p, t.x0, t.y1) && free_box(lb, t, i)) {
                    best = dist;
                    found = t;
                }
            }
        if (isfinite(best)) {
            put_label(cr, lb, found, size, text);
            return true;
        }
    }
    return false;
}

/* The point of polygon p's boundary nearest (x, y). */
static void nearest_on(const ppoly *p, double x, double y, double *nx, double *ny)
{
    double best = INFINITY;
    for (int k = 0; k < p->n; k++) {
        int j = (k + 1) % p->n;
        double ex = p->x[j] - p->x[k], ey = p->y[j] - p->y[k], l2 = ex * ex + ey * ey;
        double t = l2 > 0 ? ((x - p->x[k]) * ex + (y - p->y[k]) * ey) / l2 : 0;
        t = t < 0 ? 0 : t > 1 ? 1 : t;
        double qx = p->x[k] + t * ex, qy = p->y[k] + t * ey, d = hypot(qx - x, qy - y);
        if (d < best) {
            best = d;
            *nx = qx;
            *ny = qy;
        }
    }
}

/* Outside, the nearest free place around polygon i, with a leader line to
 * its centre. */
static void label_outside(cairo_t *cr, labeller *lb, int i, const char *text)
{
    const ppoly *p = &lb->poly[i];
    double cx, cy, reach = 0, w = text_width(cr, LABEL_PT, text);
    centroid(p, &cx, &cy);
    for (int k = 0; k < p->n; k++)
        reach = fmax(reach, hypot(p->x[k] - cx, p->y[k] - cy));
    box b = text_box(cx, cy - reach - 10, w, LABEL_PT);
    bool found = false;
    for (double r = reach + 8; r < reach + 400 && !found; r += 6)
        for (int k = 0; k < 16 && !found; k++) {
            double a = -0.5 * PI + (k % 2 ? 1 : -1) * ((k + 1) / 2) * (PI / 8);
            box c = text_box(cx + (r + 0.5 * w * fabs(cos(a))) * cos(a), cy + r * sin(a), w,
                             LABEL_PT);
            if (free_box(lb, c, -1)) {
                b = c;
                found = true;
            }
        }
    /* the leader runs from the label to the nearest point of the outline */
    double bx = 0.5 * (b.x0 + b.x1), by = 0.5 * (b.y0 + b.y1);
    nearest_on(p, bx, by, &cx, &cy);
    double lx = fmin(fmax(cx, b.x0), b.x1), ly = fmin(fmax(cy, b.y0), b.y1);
    cairo_save(cr);
    cairo_set_source_rgb(cr, 0.35, 0.35, 0.35);
    cairo_set_line_width(cr, 0.6);
    cairo_move_to(cr, lx, ly);
    cairo_line_to(cr, cx, cy);
    cairo_stroke(cr);
    cairo_arc(cr, cx, cy, 1.6, 0, 2 * PI);
    cairo_fill(cr);
    cairo_restore(cr);
    put_label(cr, lb, b, LABEL_PT, text);
}

/* Units first, then what moved, then terrain; marks last. */
static void labels(cairo_t *cr, const page *pg, const cs_drawing *d)
{
    static const cs_draw_role order[] = {
        CS_DRAW_CHARGER, CS_DRAW_TARGET, CS_DRAW_ENEMY, CS_DRAW_FRIEND, CS_DRAW_FINAL,
        CS_DRAW_FINAL_ENEMY, CS_DRAW_MOVED, CS_DRAW_TERRAIN_SOLID, CS_DRAW_TERRAIN_MOVE, CS_DRAW_TERRAIN_SIGHT};
    static labeller lb; /* large; drawing is single-threaded */
    memset(&lb, 0, sizeof lb);
    lb.pg = pg;
    for (int i = 0; i < d->n_shapes; i++)
        lb.poly[lb.n_poly++] = to_page(pg, &d->shape[i].poly);
    for (int i = 0; i < d->n_marks; i++) {
        double x = px(pg, d->mark[i].p.x), y = py(pg, d->mark[i].p.y);
        lb.poly[lb.n_poly++] = (ppoly){4, {x - 3, x + 3, x + 3, x - 3}, {y - 3, y - 3, y + 3, y + 3}};
    }
    cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    for (size_t r = 0; r < sizeof order / sizeof *order; r++)
        for (int i = 0; i < d->n_shapes; i++)
            if (d->shape[i].role == order[r] && d->shape[i].label[0] &&
                !label_inside(cr, &lb, i, d->shape[i].label))
                label_outside(cr, &lb, i, d->shape[i].label);
    for (int i = 0; i < d->n_marks; i++)
        if (d->mark[i].label[0])
            label_outside(cr, &lb, d->n_shapes + i, d->mark[i].label);
}

static void marks(cairo_t *cr, const page *pg, const cs_drawing *d)
{
    for (int i = 0; i < d->n_marks; i++) {
        cairo_arc(cr, px(pg, d->mark[i].p.x), py(pg, d->mark[i].p.y), 3.0, 0, 2 * PI);
        cairo_set_source_rgb(cr, 0, 0, 0);
        cairo_fill_preserve(cr);
        cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_set_line_width(cr, 0.8);
        cairo_stroke(cr);
    }
}

/* ---- around the table ---------------------------------------------------------- */

/* A bar of whole inches, alternately dark and light, under the field. */
static void scale_bar(cairo_t *cr, const page *pg)
{
    double span = pg->x1 - pg->x0;
    int n = span >= 30 ? 12 : span >= 14 ? 6 : 3;
    double x = pg->fx, y = pg->scale_y - 16, h = 5;
    cairo_save(cr);
    cairo_set_line_width(cr, 0.6);
    for (int i = 0; i < n; i++) {
        cairo_rectangle(cr, x + i * pg->s, y, pg->s, h);
        if (i % 2 == 0)
            cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
        else
            cairo_set_source_rgb(cr, 1, 1, 1);
        cairo_fill_preserve(cr);
        cairo_set_source_rgb(cr, 0.15, 0.15, 0.15);
        cairo_stroke(cr);
    }
    char buf[32];
    int step = n / 3;
    for (int i = 0; i <= n; i += step) {
        snprintf(buf, sizeof buf, i == n ? "%d in" : "%d", i);
        double tw = i == n ? text_width(cr, 8.0, "0") : text_width(cr, 8.0, buf);
        show(cr, x + i * pg->s - 0.5 * tw, pg->scale_y, 8.0, buf);
    }
    snprintf(buf, sizeof buf, "grid: 1 inch");
    show(cr, pg->fx + pg->fw - text_width(cr, 8.0, buf), pg->scale_y, 8.0, buf);
    cairo_restore(cr);
}

static void legend_swatch(cairo_t *cr, const legend_entry *e)
{
    double x = e->x, y = e->y - 7;
    cairo_save(cr);
    if (e->kind == LEG_ROLE) {
        const struct role_style *st = &roles[e->what];
        static const double dash[] = {3.0, 2.0};
        cairo_rectangle(cr, x, y - 1, 22, 9);
        set_rgb(cr, st->fill, st->alpha);
        cairo_fill_preserve(cr);
        set_rgb(cr, st->stroke, 1.0);
        cairo_set_line_width(cr, 1.0);
        cairo_set_dash(cr, dash, st->dashed ? 2 : 0, 0);
        cairo_stroke(cr);
    } else {
        rgb c = e->kind == LEG_STROKE ? strokes[e->what].c : rays[e->what].c;
        double dw = e->kind == LEG_STROKE ? strokes[e->what].dash : rays[e->what].dash;
        const double dash[] = {dw, 0.6 * (dw > 0 ? dw : 1)};
        set_rgb(cr, c, 1.0);
        cairo_set_line_width(cr, e->kind == LEG_STROKE ? strokes[e->what].width : 0.9);
        cairo_set_dash(cr, dash, dw > 0 ? 2 : 0, 0);
        cairo_move_to(cr, x, y + 3.5);
        cairo_line_to(cr, x + 22, y + 3.5);
        cairo_stroke(cr);
    }
    cairo_restore(cr);
    cairo_set_source_rgb(cr, 0.1, 0.1, 0.1);
    show(cr, x + 30, e->y, TEXT_PT, e->text);
}

static void texts(cairo_t *cr, const page *pg, const cs_battlefield_title *t)
{
    cairo_set_source_rgb(cr, 0.05, 0.05, 0.05);
    for (int i = 0; i < t->n && i < CS_BATTLEFIELD_MAX_TITLE; i++) {
        cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL,
                               i == 0 ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
        show(cr, PAD, pg->title_y[i], i == 0 ? 12.0 : 10.0, t->line[i]);
    }
    for (int i = 0; i < pg->n_leg; i++)
        legend_swatch(cr, &pg->leg[i]);
    for (int i = 0; i < pg->n_text; i++) {
        /* the outcome line in bold */
        cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL,
                               i < pg->n_bold ? CAIRO_FONT_WEIGHT_BOLD : CAIRO_FONT_WEIGHT_NORMAL);
        cairo_set_source_rgb(cr, 0.05, 0.05, 0.05);
        show(cr, PAD, pg->text_y + 13.0 * i, TEXT_PT, pg->text[i]);
    }
}

static void render(cairo_t *cr, const page *pg, const cs_drawing *d, const cs_battlefield_title *t)
{
    cairo_set_source_rgb(cr, 1, 1, 1);
    cairo_paint(cr);
    cairo_select_font_face(cr, FONT, CAIRO_FONT_SLANT_NORMAL, CAIRO_FONT_WEIGHT_NORMAL);
    grid(cr, pg);
    /* terrain and units, then where the charger went over them */
    for (int pass = 0; pass < 2; pass++)
        for (int i = 0; i < d->n_shapes; i++) {
            cs_draw_role r = d->shape[i].role;
            bool moved = r == CS_DRAW_MOVED || r == CS_DRAW_FINAL || r == CS_DRAW_FINAL_ENEMY;
            if (moved == (pass == 1))
                shape(cr, pg, &d->shape[i]);
        }
    for (int i = 0; i < d->n_rays; i++)
        ray(cr, pg, &d->ray[i]);
    for (int i = 0; i < d->n_lines; i++)
        line(cr, pg, &d->line[i]);
    marks(cr, pg, d);
    labels(cr, pg, d);
    cairo_set_source_rgb(cr, 0.3, 0.3, 0.3);
    cairo_set_line_width(cr, 0.8);
    cairo_rectangle(cr, pg->fx, pg->fy, pg->fw, pg->fh);
    cairo_stroke(cr);
    scale_bar(cr, pg);
    texts(cr, pg, t);
}

cs_status cs_battlefield_write(const cs_drawing *d, const cs_battlefield_title *t,
                               cs_canvas_format format, FILE *out, cs_error *err)
{
    page pg;
    measure(d, t, &pg);
    double k = format == CS_CANVAS_PNG ? CS_BATTLEFIELD_PNG_SCALE : 1.0;
    cs_canvas cv;
    cs_status st = cs_canvas_open(&cv, format, pg.width * k, pg.height * k, out, err);
    if (st != CS_OK)
        return st;
    cairo_t *cr = cv.cr;
    cairo_scale(cr, k, k);
    render(cr, &pg, d, t);
    return cs_canvas_finish(&cv, err);
}
