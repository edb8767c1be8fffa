/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The battlefield of one trial, placed relative to the head-on layout
 * (docs/rules/README.md, the head-on layout; frame and parameters in scenario.h). */
#include "chargesim/scenario.h"

#include <math.h>
#include <stddef.h>

#include "chargesim/reach.h"

const char *const cs_scenario_unit_kinds[] = { "enemy", "friend", NULL };
const char *const cs_scenario_terrain_kinds[] = { "blocking", "impassable", "solid", NULL };

/* Keys named in diagnostics (static strings, as cs_diag requires). */
static const char *const other_x_key[CS_SCN_MAX_OTHERS] = { "other1_x", "other2_x", "other3_x" };

static cs_vec2 pt(double x, double y)
{
    cs_vec2 p = { x, y };
    return p;
}

/* A drawn size below the accepted minimum (a normal draw can go negative)
 * is taken as the minimum. */
static double size_of(double v)
{
    return v < 0.01 ? 0.01 : v;
}

/* floor(x + 0.5), by a cast in the usual range (no libm call per trial). */
static double round_half_up(double x)
{
    if (x >= 0 && x < 1e15)
        return (double)(long long)(x + 0.5);
    return floor(x + 0.5);
}

/* Files and ranks from the rectangle and the base size; models 0 means full
 * ranks. */
static cs_formation formation(double width, double depth, double base_w, double base_d,
                              double models)
{
    cs_formation f;
    double files = round_half_up(width / size_of(base_w));
    double ranks = round_half_up(depth / size_of(base_d));
    if (files < 1)
        files = 1;
    if (ranks < 1)
        ranks = 1;
    f.files = (int)files;
    f.models = models >= 1 ? (int)models : (int)(files * ranks);
    return f;
}

static void place_units(const double *v, cs_scenario *out)
{
    double cw = size_of(v[CS_SCN_CHARGER_WIDTH]), cd = size_of(v[CS_SCN_CHARGER_DEPTH]);
    double tw = size_of(v[CS_SCN_TARGET_WIDTH]), td = size_of(v[CS_SCN_TARGET_DEPTH]);
    out->charger.r = cs_geom_rect_front_at(pt(0, 0), cw, cd, 0);
    out->charger.fm = formation(cw, cd, v[CS_SCN_CHARGER_BASE_WIDTH],
                                v[CS_SCN_CHARGER_BASE_DEPTH], v[CS_SCN_CHARGER_MODELS]);
    out->charger.kind = CS_UNIT_FRIEND;
    /* head-on the target faces 180 at (0, distance); offset shifts it, and
     * the rotation about its own front-edge centre is a change of facing */
    out->target.r = cs_geom_rect_front_at(pt(v[CS_SCN_OFFSET], v[CS_SCN_DISTANCE]), tw, td,
                                          180.0 + v[CS_SCN_ANGLE]);
    out->target.fm = formation(tw, td, v[CS_SCN_TARGET_BASE_WIDTH], v[CS_SCN_TARGET_BASE_DEPTH],
                               v[CS_SCN_TARGET_MODELS]);
    out->target.kind = CS_UNIT_ENEMY;
}

void cs_scenario_build(const double *num, int first, cs_scenario *out)
{
    const double *v = num + first;
    place_units(v, out);
    out->n_others = 0;
    for (int i = 0; i < CS_SCN_MAX_OTHERS; i++) {
        const double *o = v + CS_SCN_OTHER1 + i * CS_SCN_OTHER_STRIDE;
        if (!(o[CS_SCN_OTHER_WIDTH] > 0))
            continue;
        cs_unit *u = &out->others[out->n_others++];
        u->r = cs_geom_rect(pt(o[CS_SCN_OTHER_X], o[CS_SCN_OTHER_Y]), o[CS_SCN_OTHER_WIDTH],
                            size_of(o[CS_SCN_OTHER_DEPTH]), o[CS_SCN_OTHER_ANGLE]);
        u->fm.files = 0;
        u->fm.models = 0;
        u->kind = o[CS_SCN_OTHER_KIND] >= 0.5 ? CS_UNIT_FRIEND : CS_UNIT_ENEMY;
    }
    out->n_terrain = 0;
    for (int i = 0; i < CS_SCN_MAX_TERRAIN; i++) {
        const double *t = v + CS_SCN_TERRAIN1 + i * CS_SCN_TERRAIN_STRIDE;
        if (!(t[CS_SCN_TERRAIN_WIDTH] > 0))
            continue;
        cs_terrain *p = &out->terrain[out->n_terrain++];
        cs_rect r = cs_geom_rect(pt(t[CS_SCN_TERRAIN_X], t[CS_SCN_TERRAIN_Y]),
                                 t[CS_SCN_TERRAIN_WIDTH], size_of(t[CS_SCN_TERRAIN_DEPTH]),
                                 t[CS_SCN_TERRAIN_ANGLE]);
        p->poly = cs_geom_rect_poly(&r);
        int k = (int)(t[CS_SCN_TERRAIN_KIND] + 0.5);
        p->kind = k == 1 ? CS_TERRAIN_IMPASSABLE : k == 2 ? CS_TERRAIN_SOLID : CS_TERRAIN_BLOCKING;
    }
}

cs_status cs_scenario_check(const double *num, int first, cs_diag *diag)
{
    const double *v = num + first;
    cs_scenario s;
    cs_scenario_build(num, first, &s);
    static const struct {
        int models, depth, base_depth;
        const char *key;
    } sides[2] = {
        { CS_SCN_CHARGER_MODELS, CS_SCN_CHARGER_DEPTH, CS_SCN_CHARGER_BASE_DEPTH,
          "charger_models" },
        { CS_SCN_TARGET_MODELS, CS_SCN_TARGET_DEPTH, CS_SCN_TARGET_BASE_DEPTH, "target_models" },
    };
    for (int i = 0; i < 2; i++) {
        const cs_unit *u = i ? &s.target : &s.charger;
        double ranks = floor(v[sides[i].depth] / size_of(v[sides[i].base_depth]) + 0.5);
        if (ranks < 1)
            ranks = 1;
        if (v[sides[i].models] > u->fm.files * ranks) {
            diag->column = 0;
            diag->key = sides[i].key;
            diag->what = "more models than files x ranks fit in the unit's width and depth";
            return CS_EINPUT;
        }
    }
    if (cs_geom_rects_overlap(&s.charger.r, &s.target.r)) {
        diag->column = 0;
        diag->key = "distance";
        diag->what = "the target overlaps the charger in this layout";
        return CS_EINPUT;
    }
    int k = 0;
    for (int i = 0; i < CS_SCN_MAX_OTHERS; i++) {
        if (!(v[CS_SCN_OTHER1 + i * CS_SCN_OTHER_STRIDE + CS_SCN_OTHER_WIDTH] > 0))
            continue;
        const cs_rect *o = &s.others[k++].r;
        if (cs_geom_rects_overlap(o, &s.charger.r) || cs_geom_rects_overlap(o, &s.target.r)) {
            diag->column = 0;
            diag->key = other_x_key[i];
            diag->what = "this unit overlaps the charger or the target in this layout";
            return CS_EINPUT;
        }
    }
    return CS_OK;
}

void cs_scenario_head_on(double distance, double offset, double angle, double charger_width,
                         double charger_depth, double target_width, double target_depth,
                         cs_scenario *out)
{
    /* only the parameters place_units reads: without other units and
     * terrain the rest of the table is not needed (cs_scenario_build would
     * skip every zero-width entry) */
    double v[CS_SCN_OTHER1] = { 0 };
    v[CS_SCN_DISTANCE] = distance;
    v[CS_SCN_OFFSET] = offset;
    v[CS_SCN_ANGLE] = angle;
    v[CS_SCN_CHARGER_WIDTH] = charger_width;
    v[CS_SCN_CHARGER_DEPTH] = charger_depth;
    v[CS_SCN_CHARGER_BASE_WIDTH] = 1;
    v[CS_SCN_CHARGER_BASE_DEPTH] = 1;
    v[CS_SCN_TARGET_WIDTH] = target_width;
    v[CS_SCN_TARGET_DEPTH] = target_depth;
    v[CS_SCN_TARGET_BASE_WIDTH] = 1;
    v[CS_SCN_TARGET_BASE_DEPTH] = 1;
    place_units(v, out);
    out->n_others = 0;
    out->n_terrain = 0;
}

int cs_scenario_units_of_kind(const cs_scenario *s, cs_unit_kind kind, cs_rect *out)
{
    int n = 0;
    for (int i = 0; i < s->n_others; i++)
        if (s->others[i].kind == kind)
            out[n++] = s->others[i].r;
    return n;
}

int cs_scenario_obstacles(const cs_scenario *s, bool with_target, double gap, cs_obstacle *out)
{
    int n = 0;
    if (with_target) {
        out[n].poly = cs_geom_rect_poly(&s->target.r);
        out[n++].gap = 0;
    }
    for (int i = 0; i < s->n_others; i++) {
        out[n].poly = cs_geom_rect_poly(&s->others[i].r);
        out[n++].gap = gap;
    }
    for (int i = 0; i < s->n_terrain; i++) {
        if (s->terrain[i].kind == CS_TERRAIN_BLOCKING)
            continue;
        out[n].poly = s->terrain[i].poly;
        out[n++].gap = gap;
    }
    return n;
}

int cs_scenario_sight_blockers(const cs_scenario *s, cs_poly *out)
{
    int n = 0;
    for (int i = 0; i < s->n_others && n < CS_LOS_MAX_BLOCK; i++)
        out[n++] = cs_geom_rect_poly(&s->others[i].r);
    for (int i = 0; i < s->n_terrain && n < CS_LOS_MAX_BLOCK; i++)
        if (s->terrain[i].kind != CS_TERRAIN_IMPASSABLE)
            out[n++] = s->terrain[i].poly;
    return n;
}

const char *const cs_scenario_map_keys[] = { "distance", "offset", NULL };

cs_status cs_scenario_map_place(cs_params *p, int first, double x, double y, cs_map_spot *spot,
                                cs_diag *diag)
{
    for (int i = 0; i < 2; i++)
        if (p->drawn[first + CS_SCN_DISTANCE + i]) {
            *diag = (cs_diag){ 0, cs_scenario_map_keys[i],
                               "is drawn per trial, but a threat map sets it from the cell "
                               "(distance = y, offset = x): fix it or leave it out" };
            return CS_EINPUT;
        }
    double *v = p->num + first;
    v[CS_SCN_DISTANCE] = y;
    v[CS_SCN_OFFSET] = x;
    cs_scenario s;
    cs_diag ignored = { 0, NULL, NULL };
    cs_scenario_build(p->num, first, &s);
    spot->charger_w = s.charger.r.width;
    spot->charger_d = s.charger.r.depth;
    spot->placed = cs_scenario_check(p->num, first, &ignored) == CS_OK &&
                   !cs_reaches(0.0, cs_geom_dist_rect_rect(&s.charger.r, &s.target.r));
    cs_poly t = cs_geom_rect_poly(&s.target.r);
    for (int i = 0; spot->placed && i < s.n_terrain; i++)
        if (s.terrain[i].kind != CS_TERRAIN_BLOCKING && cs_geom_polys_overlap(&t, &s.terrain[i].poly))
            spot->placed = false;
    return CS_OK;
}
