/* One trial's battlefield as SVG (see include/chargesim/svg.h). The picture
 * is drawn in the scenario frame, flipped so that +y points up the page. */
#include "chargesim/svg.h"

#include <math.h>

#define PX 20.0     /* pixels per inch */
#define MARGIN 3.0  /* inches around everything drawn */
#define DEG (3.14159265358979323846 / 180.0)

typedef struct box {
    double x0, y0, x1, y1;
} box;

static void grow(box *b, cs_vec2 p)
{
    b->x0 = fmin(b->x0, p.x);
    b->y0 = fmin(b->y0, p.y);
    b->x1 = fmax(b->x1, p.x);
    b->y1 = fmax(b->y1, p.y);
}

static void grow_rect(box *b, const cs_rect *r)
{
    cs_vec2 c[4];
    cs_geom_corners(r, c);
    for (int i = 0; i < 4; i++)
        grow(b, c[i]);
}

static double sx(const box *b, double x)
{
    return (x - b->x0) * PX;
}

static double sy(const box *b, double y)
{
    return (b->y1 - y) * PX;
}

static void polygon(FILE *out, const box *b, const cs_vec2 *v, int n, const char *style)
{
    fprintf(out, "<polygon points=\"");
    for (int i = 0; i < n; i++)
        fprintf(out, "%s%.2f,%.2f", i ? " " : "", sx(b, v[i].x), sy(b, v[i].y));
    fprintf(out, "\" style=\"%s\"/>\n", style);
}

static void line(FILE *out, const box *b, cs_vec2 p, cs_vec2 q, const char *style)
{
    fprintf(out, "<line x1=\"%.2f\" y1=\"%.2f\" x2=\"%.2f\" y2=\"%.2f\" style=\"%s\"/>\n",
            sx(b, p.x), sy(b, p.y), sx(b, q.x), sy(b, q.y), style);
}

/* A unit: its outline, its front edge thick, and a label at its centre. */
static void unit(FILE *out, const box *b, const cs_rect *r, const char *fill, const char *stroke,
                 const char *label, bool dashed)
{
    cs_vec2 c[4];
    cs_geom_corners(r, c);
    char style[160];
    snprintf(style, sizeof style, "fill:%s;fill-opacity:%s;stroke:%s;stroke-width:1.5%s", fill,
             dashed ? "0.08" : "0.35", stroke, dashed ? ";stroke-dasharray:4,3" : "");
    polygon(out, b, c, 4, style);
    snprintf(style, sizeof style, "stroke:%s;stroke-width:4%s", stroke,
             dashed ? ";stroke-dasharray:4,3" : "");
    line(out, b, c[CS_CORNER_FL], c[CS_CORNER_FR], style);
    if (label != NULL)
        fprintf(out,
                "<text x=\"%.2f\" y=\"%.2f\" font-family=\"sans-serif\" font-size=\"11\" "
                "text-anchor=\"middle\" fill=\"%s\">%s</text>\n",
                sx(b, r->c.x), sy(b, r->c.y) + 4, stroke, label);
}

/* The ray from p along d, cut where it leaves the picture. */
static void ray(FILE *out, const box *b, cs_vec2 p, cs_vec2 d, const char *style)
{
    double t = INFINITY;
    if (d.x > 0)
        t = fmin(t, (b->x1 - p.x) / d.x);
    if (d.x < 0)
        t = fmin(t, (b->x0 - p.x) / d.x);
    if (d.y > 0)
        t = fmin(t, (b->y1 - p.y) / d.y);
    if (d.y < 0)
        t = fmin(t, (b->y0 - p.y) / d.y);
    if (!(t > 0) || !isfinite(t))
        return;
    cs_vec2 q = { p.x + t * d.x, p.y + t * d.y };
    line(out, b, p, q, style);
}

/* The target's arcs: a ray from each corner at 135 degrees to both edges. */
static void arcs(FILE *out, const box *b, const cs_rect *r)
{
    static const double su[4] = { -1, 1, 1, -1 }, sv[4] = { 1, 1, -1, -1 };
    cs_vec2 c[4];
    cs_geom_corners(r, c);
    for (int k = 0; k < 4; k++) {
        cs_vec2 d = { (su[k] * r->right.x + sv[k] * r->fwd.x) * sqrt(0.5),
                      (su[k] * r->right.y + sv[k] * r->fwd.y) * sqrt(0.5) };
        ray(out, b, c[k], d, "stroke:#c0392b;stroke-width:1;stroke-dasharray:6,4;opacity:0.7");
    }
}

/* The field of view: rays from the front corners turned arc/2 outward. */
static void fov(FILE *out, const box *b, const cs_rect *r, double arc)
{
    double s = sin(0.5 * arc * DEG), c = cos(0.5 * arc * DEG);
    cs_vec2 dl = { c * r->fwd.x - s * r->right.x, c * r->fwd.y - s * r->right.y };
    cs_vec2 dr = { c * r->fwd.x + s * r->right.x, c * r->fwd.y + s * r->right.y };
    const char *st = "stroke:#2471a3;stroke-width:1;stroke-dasharray:2,3";
    ray(out, b, cs_geom_corner(r, CS_CORNER_FL), dl, st);
    ray(out, b, cs_geom_corner(r, CS_CORNER_FR), dr, st);
}

/* The charge path: the track of the front-edge centre, straight, then an
 * arc of radius width/2 about the wheel's pivot corner, then straight; the
 * charger's outline where the wheel starts and at contact. */
static void snake(FILE *out, const box *b, const cs_rect *ch, const cs_snake *p)
{
    cs_rect at1 = cs_geom_forward(ch, p->forward1);
    cs_rect at2 = cs_geom_wheel(&at1, p->wheel);
    cs_vec2 p0 = cs_geom_edge_centre(ch, CS_FRONT), p1 = cs_geom_edge_centre(&at1, CS_FRONT);
    cs_vec2 p2 = cs_geom_edge_centre(&at2, CS_FRONT), p3 = cs_geom_edge_centre(&p->final, CS_FRONT);
    double r = 0.5 * ch->width * PX;
    /* y is flipped: a counter-clockwise (left) wheel is clockwise on the
     * page, SVG's positive sweep */
    fprintf(out,
            "<path d=\"M %.2f %.2f L %.2f %.2f A %.2f %.2f 0 0 %d %.2f %.2f L %.2f %.2f\" "
            "style=\"fill:none;stroke:#1b4f72;stroke-width:2\"/>\n",
            sx(b, p0.x), sy(b, p0.y), sx(b, p1.x), sy(b, p1.y), r, r, p->wheel > 0 ? 1 : 0,
            sx(b, p2.x), sy(b, p2.y), sx(b, p3.x), sy(b, p3.y));
    if (p->wheel != 0)
        unit(out, b, &at1, "#2e86c1", "#2e86c1", NULL, true);
    unit(out, b, &p->final, "#2e86c1", "#1b4f72", NULL, true);
    fprintf(out, "<circle cx=\"%.2f\" cy=\"%.2f\" r=\"3.5\" style=\"fill:#000\"/>\n",
            sx(b, p->contact.x), sy(b, p->contact.y));
    fprintf(out,
            "<text x=\"%.2f\" y=\"%.2f\" font-family=\"sans-serif\" font-size=\"10\" "
            "fill=\"#1b4f72\">forward %.2f, wheel %.1f deg, forward %.2f: %.2f in "
            "(T9A distance)</text>\n",
            sx(b, p3.x) + 6, sy(b, p3.y) - 6, p->forward1, p->wheel, p->forward2, p->cost);
}

cs_status cs_svg_write(FILE *out, const cs_scenario *s, const cs_svg_path *path)
{
    box b = { INFINITY, INFINITY, -INFINITY, -INFINITY };
    grow_rect(&b, &s->charger.r);
    grow_rect(&b, &s->target.r);
    for (int i = 0; i < s->n_others; i++)
        grow_rect(&b, &s->others[i].r);
    for (int i = 0; i < s->n_terrain; i++)
        for (int k = 0; k < s->terrain[i].poly.n; k++)
            grow(&b, s->terrain[i].poly.v[k]);
    if (path != NULL && path->snake != NULL && path->snake->found)
        grow_rect(&b, &path->snake->final);
    if (path != NULL && path->aligned != NULL)
        grow_rect(&b, path->aligned);
    b.x0 = floor(b.x0 - MARGIN);
    b.y0 = floor(b.y0 - MARGIN);
    b.x1 = ceil(b.x1 + MARGIN);
    b.y1 = ceil(b.y1 + MARGIN);
    double w = (b.x1 - b.x0) * PX, h = (b.y1 - b.y0) * PX;
    /* The title: one line per '\n', in a band above the field, the picture
     * wide enough for its longest line (about 7 px a character). */
    int title_lines = 0, longest = 0, run = 0;
    for (const char *c = path != NULL && path->title != NULL ? path->title : ""; ; c++) {
        if (*c == '\n' || *c == '\0') {
            title_lines++;
            longest = run > longest ? run : longest;
            run = 0;
            if (*c == '\0')
                break;
        } else {
            run++;
        }
    }
    if (path == NULL || path->title == NULL)
        title_lines = 0;
    double band = title_lines > 0 ? 18.0 * title_lines + 8.0 : 0.0;
    double total_w = fmax(w, 7.0 * longest + 16.0);
    fprintf(out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\">\n",
            total_w, h + band, total_w, h + band);
    fprintf(out, "<rect width=\"%.0f\" height=\"%.0f\" style=\"fill:#fbfbf8\"/>\n", total_w,
            h + band);
    fprintf(out, "<g transform=\"translate(0,%.0f)\">\n", band);
    /* a 1-inch grid, the origin (the charger's front-edge centre) darker */
    for (double x = b.x0; x <= b.x1; x += 1.0) {
        cs_vec2 p = { x, b.y0 }, q = { x, b.y1 };
        line(out, &b, p, q, x == 0 ? "stroke:#bbb;stroke-width:1" : "stroke:#eee;stroke-width:1");
    }
    for (double y = b.y0; y <= b.y1; y += 1.0) {
        cs_vec2 p = { b.x0, y }, q = { b.x1, y };
        line(out, &b, p, q, y == 0 ? "stroke:#bbb;stroke-width:1" : "stroke:#eee;stroke-width:1");
    }
    static const char *const terrain_style[] = {
        [CS_TERRAIN_BLOCKING] = "fill:#bbb;fill-opacity:0.6;stroke:#777;stroke-width:1",
        [CS_TERRAIN_IMPASSABLE] = "fill:#a0522d;fill-opacity:0.45;stroke:#5d2f12;stroke-width:1.5",
        [CS_TERRAIN_SOLID] = "fill:#666;fill-opacity:0.8;stroke:#333;stroke-width:1.5",
    };
    for (int i = 0; i < s->n_terrain; i++)
        polygon(out, &b, s->terrain[i].poly.v, s->terrain[i].poly.n,
                terrain_style[s->terrain[i].kind]);
    arcs(out, &b, &s->target.r);
    if (path != NULL && path->los_arc > 0)
        fov(out, &b, &s->charger.r, path->los_arc);
    for (int i = 0; i < s->n_others; i++) {
        char label[32];
        bool enemy = s->others[i].kind == CS_UNIT_ENEMY;
        snprintf(label, sizeof label, "%s %d", enemy ? "enemy" : "friend", i + 1);
        unit(out, &b, &s->others[i].r, enemy ? "#e67e22" : "#27ae60",
             enemy ? "#a04000" : "#1e8449", label, false);
    }
    unit(out, &b, &s->target.r, "#e74c3c", "#922b21", "target", false);
    unit(out, &b, &s->charger.r, "#3498db", "#1b4f72", "charger", false);
    if (path != NULL && path->snake != NULL && path->snake->found)
        snake(out, &b, &s->charger.r, path->snake);
    if (path != NULL && path->aligned != NULL)
        unit(out, &b, path->aligned, "#85c1e9", "#1b4f72", "aligned", false);
    fprintf(out, "</g>\n");
    if (title_lines > 0) {
        fprintf(out,
                "<text x=\"8\" y=\"18\" font-family=\"sans-serif\" font-size=\"13\" "
                "fill=\"#222\"><tspan x=\"8\">");
        for (const char *c = path->title; *c; c++) {
            switch (*c) {
            case '<': fputs("&lt;", out); break;
            case '>': fputs("&gt;", out); break;
            case '&': fputs("&amp;", out); break;
            case '\n': fputs("</tspan><tspan x=\"8\" dy=\"18\">", out); break;
            default: fputc(*c, out);
            }
        }
        fprintf(out, "</tspan></text>\n");
    }
    fprintf(out, "</svg>\n");
    return ferror(out) ? CS_ERUNTIME : CS_OK;
}
