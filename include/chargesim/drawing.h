/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_DRAWING_H
#define CHARGESIM_DRAWING_H
/* The picture of one trial as data: a small display list a ruleset's draw
 * hook fills (cs_ruleset.draw) and `chargesim draw` renders (battlefield.h).
 * The rules layer says what is on the table and which rules moved it; the
 * renderer decides colours, scale, labels and legend. Pure: no I/O, no
 * allocation; a cs_drawing is a plain value (a few kilobytes).
 *
 * Coordinates are the ruleset's own table frame in inches, +y away from the
 * viewer (geom.h conventions); the renderer flips y for the page. */
#include <stdbool.h>

#include "chargesim/geom.h"

#define CS_DRAW_MAX_SHAPES  24
#define CS_DRAW_MAX_LINES   12
#define CS_DRAW_MAX_POINTS  48  /* vertices of one polyline */
#define CS_DRAW_MAX_RAYS    12
#define CS_DRAW_MAX_MARKS   12
#define CS_DRAW_MAX_CAPTION 8
#define CS_DRAW_TEXT        96  /* bytes of a label or legend text */
#define CS_DRAW_LINE        160 /* bytes of a caption line */

/* What a shape is; the renderer gives each role its colour and legend. */
typedef enum cs_draw_role {
    CS_DRAW_CHARGER,     /* the charging unit where it starts */
    CS_DRAW_TARGET,      /* the unit it charges */
    CS_DRAW_ENEMY,       /* another unit of the target's side */
    CS_DRAW_FRIEND,      /* another unit of the charger's side */
    CS_DRAW_MOVED,       /* a unit part-way through its move (dashed) */
    CS_DRAW_FINAL,       /* a unit where its move ends (dashed) */
    CS_DRAW_FINAL_ENEMY, /* a unit of the target's side where its move ends (dashed) */
    CS_DRAW_TERRAIN_SIGHT,   /* blocks sight only */
    CS_DRAW_TERRAIN_MOVE,    /* blocks movement only */
    CS_DRAW_TERRAIN_SOLID,   /* blocks both */
    CS_DRAW_N_ROLES
} cs_draw_role;

/* The kinds of line; the renderer's stroke for each. */
typedef enum cs_draw_stroke {
    CS_DRAW_PATH,    /* the charge move as the ruleset moves it */
    CS_DRAW_ALIGN,   /* the align move after contact */
    CS_DRAW_FAILED,  /* a failed charge's move */
    CS_DRAW_OTHER,   /* another unit's move (flee, counter charge) */
    CS_DRAW_REACH,   /* a reach or zone outline (interception band) */
    CS_DRAW_N_STROKES
} cs_draw_stroke;

/* Rays from a point to the edge of the picture. */
typedef enum cs_draw_ray_kind {
    CS_DRAW_ARC,   /* a boundary of the target's arcs */
    CS_DRAW_SIGHT, /* a boundary of the charger's field of view */
} cs_draw_ray_kind;

typedef struct cs_draw_shape {
    cs_draw_role role;
    cs_poly poly;               /* counter-clockwise */
    int front;                  /* vertex i: the front edge is v[i]..v[i+1]; -1 none */
    char label[CS_DRAW_TEXT];   /* written on it (or beside it with a leader) */
} cs_draw_shape;

typedef struct cs_draw_line {
    cs_draw_stroke stroke;
    int n;                          /* 2..CS_DRAW_MAX_POINTS */
    cs_vec2 v[CS_DRAW_MAX_POINTS];
    bool closed;                    /* an outline (CS_DRAW_REACH) */
    bool arrow;                     /* an arrowhead at the last point */
    char legend[CS_DRAW_TEXT];      /* its legend entry, naming the rule */
} cs_draw_line;

typedef struct cs_draw_ray {
    cs_draw_ray_kind kind;
    cs_vec2 p, d;                   /* from p along the unit vector d */
} cs_draw_ray;

/* A point of note: the contact point, an obstacle on a route. */
typedef struct cs_draw_mark {
    cs_vec2 p;
    char label[CS_DRAW_TEXT];
} cs_draw_mark;

typedef struct cs_drawing {
    int n_shapes, n_lines, n_rays, n_marks, n_caption;
    cs_draw_shape shape[CS_DRAW_MAX_SHAPES];
    cs_draw_line line[CS_DRAW_MAX_LINES];
    cs_draw_ray ray[CS_DRAW_MAX_RAYS];
    cs_draw_mark mark[CS_DRAW_MAX_MARKS];
    char legend[CS_DRAW_N_ROLES][CS_DRAW_TEXT]; /* per role, "" = the renderer's */
    /* The trial: its outcome (a name from the ruleset's table), the charge
     * range it had and the distance it needed (NAN when the trial has none:
     * an illegal charge rolls nothing), and how each is called here. */
    const char *outcome;
    double rolled, needed;
    char rolled_what[CS_DRAW_TEXT];  /* "Charge Range D6 + 4", "Move x 2" */
    char needed_what[CS_DRAW_TEXT];  /* "closest points", "straight move to contact" */
    /* Lines naming the rules this picture shows, most important first. */
    char caption[CS_DRAW_MAX_CAPTION][CS_DRAW_LINE];
} cs_drawing;

/* Starts an empty drawing (no range, no need, no outcome). */
void cs_drawing_init(cs_drawing *d);

/* Adds a shape; returns it, or NULL when the list is full (the shape is
 * dropped: a picture never fails). label may be NULL. The rectangle form
 * marks its front edge. */
cs_draw_shape *cs_drawing_poly(cs_drawing *d, cs_draw_role role, const cs_poly *p,
                               const char *label);
cs_draw_shape *cs_drawing_rect(cs_drawing *d, cs_draw_role role, const cs_rect *r,
                               const char *label);

/* Adds a line of two or more points (extra points are dropped); NULL when
 * full. legend may be NULL (no legend entry). */
cs_draw_line *cs_drawing_line(cs_drawing *d, cs_draw_stroke stroke, const cs_vec2 *v, int n,
                              const char *legend);

/* Appends point p to line l (ignored when l is NULL or full). */
void cs_drawing_line_add(cs_draw_line *l, cs_vec2 p);

/* Adds the arc of radius |p0 - centre| about centre from p0, turning by
 * `turn` degrees (counter-clockwise > 0), as points of l. */
void cs_drawing_line_arc(cs_draw_line *l, cs_vec2 centre, cs_vec2 p0, double turn);

/* Adds to l the track of r's front-edge centre along a forward move of f1,
 * a wheel of `wheel` degrees (geom.h: > 0 left about the front-left corner)
 * and a forward move of f2, starting with the centre itself. */
void cs_drawing_line_wheel(cs_draw_line *l, const cs_rect *r, double f1, double wheel,
                           double f2);

void cs_drawing_ray(cs_drawing *d, cs_draw_ray_kind kind, cs_vec2 p, cs_vec2 dir);
void cs_drawing_mark(cs_drawing *d, cs_vec2 p, const char *label);

/* Adds one caption line, dropped past CS_DRAW_MAX_CAPTION. The format is
 * printf's subset %s, %d, %.Nf (N = 0..4) and %% (no stdio in the rules
 * layer); anything else is copied as written. cs_drawing_format writes the
 * same into buf (cap bytes, always terminated). */
void cs_drawing_caption(cs_drawing *d, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void cs_drawing_format(char *buf, int cap, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* The scenario's units and terrain (scenario.h): the charger, the target,
 * the other units as enemy or friend and the terrain by kind, labelled. */
struct cs_scenario;
void cs_drawing_scenario(cs_drawing *d, const struct cs_scenario *s);

/* The target's arcs: a ray from each corner at 135 degrees to both edges
 * (docs/rules/README.md, units as rectangles). */
void cs_drawing_arcs(cs_drawing *d, const cs_rect *target);

/* The field of view `arc` degrees wide from the front corners of r. */
void cs_drawing_sight(cs_drawing *d, const cs_rect *r, double arc);

#endif
