/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Scenario placement: the head-on layout and every placement parameter,
 * hand-computed. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>

#include "chargesim/scenario.h"

#define EX 1e-12

/* A ruleset-like table: one own parameter, then the scenario's. */
static const cs_param_def table[] = {
    { "own", CS_PARAM_REAL, "1", "", "a ruleset's own parameter", 0, 1, NULL, 0 },
    CS_SCENARIO_PARAMS("8", "5", "2", "1", "1", "6", "3", "1", "1"),
};
#define FIRST 1

/* The defaults of the table as numbers (what the loader would produce). */
static void defaults(double *num)
{
    for (size_t i = 0; i < sizeof table / sizeof table[0]; i++)
        num[i] = table[i].type == CS_PARAM_CHOICE ? 0 : atof(table[i].def);
    num[FIRST + CS_SCN_TERRAIN1 + CS_SCN_TERRAIN_KIND] = 2; /* "solid" */
    num[FIRST + CS_SCN_TERRAIN1 + CS_SCN_TERRAIN_STRIDE + CS_SCN_TERRAIN_KIND] = 2;
}

Test(scenario, table_layout)
{
    cr_expect_eq(sizeof table / sizeof table[0], (size_t)(1 + CS_SCN_N_PARAMS));
    cr_expect_str_eq(table[FIRST + CS_SCN_DISTANCE].key, "distance");
    cr_expect_str_eq(table[FIRST + CS_SCN_TARGET_MODELS].key, "target_models");
    cr_expect_str_eq(table[FIRST + CS_SCN_OTHER1 + CS_SCN_OTHER_STRIDE + CS_SCN_OTHER_Y].key,
                     "other2_y");
    cr_expect_str_eq(table[FIRST + CS_SCN_TERRAIN1 + CS_SCN_TERRAIN_DEPTH].key, "terrain1_depth");
    cr_expect_str_eq(table[CS_SCN_N_PARAMS].key, "terrain2_depth");
    cr_expect(table[FIRST + CS_SCN_OFFSET].flags & CS_PF_LAYOUT);
    cr_expect_str_eq(table[FIRST + CS_SCN_CHARGER_WIDTH].def, "5");
    cr_expect_str_eq(table[FIRST + CS_SCN_TARGET_DEPTH].def, "3");
}

Test(scenario, head_on_defaults)
{
    double num[1 + CS_SCN_N_PARAMS];
    defaults(num);
    cs_scenario s;
    cs_scenario_build(num, FIRST, &s);
    /* charger 5 x 2, front edge centred on the origin, facing +y */
    cr_expect_float_eq(s.charger.r.c.x, 0.0, EX);
    cr_expect_float_eq(s.charger.r.c.y, -1.0, EX);
    cr_expect_float_eq(s.charger.r.facing, 0.0, EX);
    cr_expect_eq(s.charger.fm.files, 5);
    cr_expect_eq(s.charger.fm.models, 10);
    /* target 6 x 3 facing 180, front edge centre (0, 8): centre (0, 9.5) */
    cr_expect_float_eq(s.target.r.c.x, 0.0, EX);
    cr_expect_float_eq(s.target.r.c.y, 9.5, EX);
    cr_expect_float_eq(s.target.r.facing, 180.0, EX);
    cr_expect_eq(s.target.fm.files, 6);
    cr_expect_eq(s.target.fm.models, 18);
    cr_expect_eq(s.n_others, 0);
    cr_expect_eq(s.n_terrain, 0);
    cr_expect_float_eq(cs_geom_dist_rect_rect(&s.charger.r, &s.target.r), 8.0, EX);
    cs_diag d = { 0, NULL, NULL };
    cr_expect_eq(cs_scenario_check(num, FIRST, &d), CS_OK);
}

Test(scenario, offset_angle_and_zero_distance)
{
    double num[1 + CS_SCN_N_PARAMS];
    defaults(num);
    num[FIRST + CS_SCN_OFFSET] = 2;
    num[FIRST + CS_SCN_ANGLE] = 90;
    cs_scenario s;
    cs_scenario_build(num, FIRST, &s);
    /* front-edge centre stays at (2, 8); facing 270 points along +x, so the
     * centre is 1.5 behind it, along -x: (0.5, 8) */
    cs_vec2 fc = cs_geom_edge_centre(&s.target.r, CS_FRONT);
    cr_expect_float_eq(fc.x, 2.0, 1e-12);
    cr_expect_float_eq(fc.y, 8.0, 1e-12);
    cr_expect_float_eq(s.target.r.c.x, 0.5, 1e-12);
    cr_expect_float_eq(s.target.r.c.y, 8.0, 1e-12);
    /* distance 0: the front edges touch, no overlap */
    defaults(num);
    num[FIRST + CS_SCN_DISTANCE] = 0;
    cs_scenario_build(num, FIRST, &s);
    cr_expect_float_eq(cs_geom_dist_rect_rect(&s.charger.r, &s.target.r), 0.0, EX);
    cr_expect(!cs_geom_rects_overlap(&s.charger.r, &s.target.r));
    cs_diag d = { 0, NULL, NULL };
    cr_expect_eq(cs_scenario_check(num, FIRST, &d), CS_OK);
    /* distance 0 and turned 30 degrees: the target's corner cuts into the
     * charger, which check rejects */
    num[FIRST + CS_SCN_ANGLE] = 30;
    cr_expect_eq(cs_scenario_check(num, FIRST, &d), CS_EINPUT);
    cr_expect_str_eq(d.key, "distance");
}

Test(scenario, others_terrain_and_lists)
{
    double num[1 + CS_SCN_N_PARAMS];
    defaults(num);
    double *o2 = num + FIRST + CS_SCN_OTHER1 + CS_SCN_OTHER_STRIDE;
    o2[CS_SCN_OTHER_KIND] = 1; /* friend */
    o2[CS_SCN_OTHER_X] = -10;
    o2[CS_SCN_OTHER_Y] = 4;
    o2[CS_SCN_OTHER_ANGLE] = 90;
    o2[CS_SCN_OTHER_WIDTH] = 4;
    double *o3 = num + FIRST + CS_SCN_OTHER1 + 2 * CS_SCN_OTHER_STRIDE;
    o3[CS_SCN_OTHER_X] = 10;
    o3[CS_SCN_OTHER_Y] = 4;
    o3[CS_SCN_OTHER_WIDTH] = 3;
    double *t1 = num + FIRST + CS_SCN_TERRAIN1;
    t1[CS_SCN_TERRAIN_KIND] = 0; /* blocking */
    t1[CS_SCN_TERRAIN_Y] = 4;
    t1[CS_SCN_TERRAIN_WIDTH] = 2;
    cs_scenario s;
    cs_scenario_build(num, FIRST, &s);
    cr_assert_eq(s.n_others, 2);
    cr_expect_eq(s.others[0].kind, CS_UNIT_FRIEND);
    cr_expect_float_eq(s.others[0].r.c.x, -10.0, EX);
    cr_expect_float_eq(s.others[0].r.facing, 90.0, EX);
    cr_expect_eq(s.others[1].kind, CS_UNIT_ENEMY);
    cr_expect_float_eq(s.others[1].r.facing, 180.0, EX); /* the default: facing the charger */
    cr_assert_eq(s.n_terrain, 1);
    cr_expect_eq(s.terrain[0].kind, CS_TERRAIN_BLOCKING);
    cr_expect_float_eq(cs_geom_poly_area(&s.terrain[0].poly), 2.0, EX);
    cs_rect enemies[CS_SCN_MAX_OTHERS];
    cr_expect_eq(cs_scenario_units_of_kind(&s, CS_UNIT_ENEMY, enemies), 1);
    cr_expect_float_eq(enemies[0].c.x, 10.0, EX);
    cs_obstacle ob[CS_SCN_MAX_OTHERS + CS_SCN_MAX_TERRAIN + 1];
    /* target, two units; the terrain only blocks sight */
    cr_expect_eq(cs_scenario_obstacles(&s, true, 1.0, ob), 3);
    cr_expect_float_eq(ob[0].gap, 0.0, EX);
    cr_expect_float_eq(ob[2].gap, 1.0, EX);
    cs_poly bl[CS_LOS_MAX_BLOCK];
    cr_expect_eq(cs_scenario_sight_blockers(&s, bl), 3);
    /* the blocking terrain [-1,1]x[3.5,4.5] sits on the centre line: the
     * simple range line is blocked, but the whole-front reading still sees */
    cs_seg line = { cs_geom_edge_centre(&s.charger.r, CS_FRONT),
                    cs_geom_edge_centre(&s.target.r, CS_FRONT) };
    cr_expect(cs_geom_seg_crosses_poly(line, &s.terrain[0].poly));
    cr_expect(cs_geom_los(&s.charger.r, 90, &s.target.r, bl, 3));
    /* an other unit overlapping the target is refused, naming its key */
    o3[CS_SCN_OTHER_X] = 1;
    o3[CS_SCN_OTHER_Y] = 9;
    cs_diag d = { 0, NULL, NULL };
    cr_expect_eq(cs_scenario_check(num, FIRST, &d), CS_EINPUT);
    cr_expect_str_eq(d.key, "other3_x");
}

Test(scenario, models_and_clamping)
{
    double num[1 + CS_SCN_N_PARAMS];
    defaults(num);
    num[FIRST + CS_SCN_CHARGER_MODELS] = 7; /* 5 files: ranks of 5 and 2 */
    cs_scenario s;
    cs_scenario_build(num, FIRST, &s);
    cr_expect_eq(s.charger.fm.models, 7);
    cr_expect_eq(cs_geom_models_on_edge(&s.charger.r, &s.charger.fm, CS_REAR, 0, 5), 2);
    cs_diag d = { 0, NULL, NULL };
    cr_expect_eq(cs_scenario_check(num, FIRST, &d), CS_OK);
    num[FIRST + CS_SCN_CHARGER_MODELS] = 11; /* 5 x 2 hold 10 */
    cr_expect_eq(cs_scenario_check(num, FIRST, &d), CS_EINPUT);
    cr_expect_str_eq(d.key, "charger_models");
    /* a negative drawn width is taken as the smallest accepted one */
    defaults(num);
    num[FIRST + CS_SCN_TARGET_WIDTH] = -3;
    cs_scenario_build(num, FIRST, &s);
    cr_expect_float_eq(s.target.r.width, 0.01, EX);
    /* the convenience builder agrees with the table */
    cs_scenario h;
    cs_scenario_head_on(8, 0, 0, 5, 2, 6, 3, &h);
    cr_expect_float_eq(h.target.r.c.y, 9.5, EX);
    cr_expect_eq(h.target.fm.models, 18);
}
