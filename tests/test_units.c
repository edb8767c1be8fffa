/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Unit sources and the list-builder's table (issue 9): the value reader,
 * mapping files, units CSVs, the exact per-unit analysis (reach by exact
 * inversion), locked mapping values and the command. BattleScribe reading:
 * tests/test_units_bs.c. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "chargesim/registry.h"
#include "chargesim/unitsrc.h"
#include "support/helpers.h"
#include "support/units_helpers.h"

#define EXACT 1e-12

/* Removes a units CSV written by a test and the CSVW metadata beside it. */
static void unlink_output(const char *out)
{
    char meta[1100];
    snprintf(meta, sizeof meta, "%s-metadata.json", out);
    unlink(out);
    unlink(meta);
}

/* ---- reading characteristic values ------------------------------------- */

Test(units, values_in_every_written_form)
{
    double v;
    bool absent;
    const char *why;
    struct {
        const char *text;
        cs_units_format f;
        bool alt;
        double want;
    } good[] = {
        {"4\"", CS_UNITS_INCHES, false, 4.0},
        {" 4 ", CS_UNITS_INCHES, false, 4.0},
        {"4.5\"", CS_UNITS_INCHES, false, 4.5},
        {"2\" (9\")", CS_UNITS_INCHES, false, 2.0},
        {"2\" (9\")", CS_UNITS_INCHES, true, 9.0},
        {"7\"", CS_UNITS_INCHES, true, 7.0}, /* no alternate: the value itself */
        {"Ground 5\", Fly 9\"", CS_UNITS_INCHES, false, 5.0},
        {"Ground 5\", Fly 9\"", CS_UNITS_INCHES, true, 9.0},
        {"3+", CS_UNITS_TARGET, false, 3.0},
        {"3", CS_UNITS_TARGET, false, 3.0},
        {"8", CS_UNITS_NUMBER, false, 8.0},
    };
    for (size_t i = 0; i < sizeof good / sizeof good[0]; i++) {
        cr_assert(cs_units_parse_value(good[i].text, good[i].f, good[i].alt, &v, &absent, &why),
                  "`%s` should read", good[i].text);
        cr_expect_eq(v, good[i].want, "`%s` read %g", good[i].text, v);
    }
    const char *none[] = {"-", "", "  ", "*"};
    for (size_t i = 0; i < 4; i++) {
        cr_expect_not(cs_units_parse_value(none[i], CS_UNITS_INCHES, false, &v, &absent, &why));
        cr_expect(absent, "`%s` means no value", none[i]);
    }
    const char *bad[] = {"3D6", "3D6\"", "Standard", "C", "Ground C, Fly 6\"", "4\" (", "4\"x"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cr_expect_not(cs_units_parse_value(bad[i], CS_UNITS_INCHES, false, &v, &absent, &why),
                      "`%s` is not a distance", bad[i]);
        cr_expect_not(absent);
    }
    cr_expect_not(cs_units_parse_value("4\"", CS_UNITS_TARGET, false, &v, &absent, &why));
    cr_expect_not(cs_units_parse_value("3+", CS_UNITS_NUMBER, false, &v, &absent, &why));
}

Test(units, distance_grids)
{
    cs_units_grid g;
    cs_error err;
    cr_assert_eq(cs_units_grid_parse("1..24", &g, &err), CS_OK);
    cr_expect_eq(cs_units_grid_count(&g), 24);
    cr_expect_eq(cs_units_grid_at(&g, 23), 24.0);
    cr_assert_eq(cs_units_grid_parse("0.5..2:0.5", &g, &err), CS_OK);
    cr_expect_eq(cs_units_grid_count(&g), 4);
    cr_assert_eq(cs_units_grid_parse("0..1:0.1", &g, &err), CS_OK);
    cr_expect_eq(cs_units_grid_count(&g), 11, "0.1 steps keep the end");
    cr_assert_eq(cs_units_grid_parse("6", &g, &err), CS_OK);
    cr_expect_eq(cs_units_grid_count(&g), 1);
    const char *bad[] = {"", "a..b", "5..1", "1..5:0", "1..5:-1", "1...5", "1..5x", "-1..3"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_expect_neq(cs_units_grid_parse(bad[i], &g, &err), CS_OK, "`%s`", bad[i]);
    cr_expect_eq(cs_units_grid_parse("0..1000:0.1", &g, &err), CS_ELIMIT);
}

/* ---- mapping files ----------------------------------------------------- */

static cs_status load_text(const char *text, cs_units_mapping *m, cs_error *err, bool bind)
{
    const char *path = th_units_write_tmp(text);
    cs_status st = cs_units_mapping_load(path, m, err);
    if (st == CS_OK && bind)
        st = cs_units_mapping_bind(m, err);
    unlink(path);
    return st;
}

Test(units, mapping_files)
{
    cs_units_mapping m;
    cs_error err = {0};
    th_units_load_bound("mappings/new.ini", &m);
    cr_expect_str_eq(m.ruleset, "generic");
    cr_expect_str_eq(m.game_system_id, "gs-new");
    cr_expect_eq(m.n_chars, 1);
    cr_expect_str_eq(m.chars[0].name, "Adv");
    cr_expect(m.chars[0].required);
    cr_expect_eq(m.n_fixed, 1);
    cr_expect_eq(m.speed_param[0], cs_ruleset_param_index(m.rs, "move"));

    th_units_load_bound("mappings/old.ini", &m);
    cr_expect_eq(m.n_chars, 3);
    cr_expect_str_eq(m.chars[1].where_name, "Type");
    cr_expect_str_eq(m.chars[1].where_value, "Melee");
    cr_expect_not(m.chars[1].required);
    cr_expect_eq(m.n_metrics, 1);

    /* Errors name the line inih stopped at, or the offending name. */
    cr_expect_eq(load_text("[units]\nruleset = generic\nspeeed = move\n", &m, &err, false),
                 CS_EINPUT);
    cr_expect(strstr(err.msg, ":3: unknown key `speeed`"), "%s", err.msg);
    cr_expect_eq(load_text("[units]\nruleset = generic\n[wings]\nx = 1\n", &m, &err, false),
                 CS_EINPUT);
    cr_expect(strstr(err.msg, ":4: unknown section [wings]"), "%s", err.msg);
    cr_expect_eq(load_text("[units]\nruleset = generic\n[characteristic M]\nparam = move\n"
                           "format = feet\n",
                           &m, &err, false),
                 CS_EINPUT);
    cr_expect(strstr(err.msg, ":5: format `feet`"), "%s", err.msg);
    cr_expect_eq(load_text("[units]\ncost = pts\n", &m, &err, false), CS_EINPUT);
    cr_expect(strstr(err.msg, "ruleset is missing"), "%s", err.msg);
    cr_expect_eq(load_text("[units]\nruleset = chess\n", &m, &err, true), CS_EINPUT);
    cr_expect(strstr(err.msg, "ruleset `chess` is not built"), "%s", err.msg);
    cr_expect_eq(
        load_text("[units]\nruleset = generic\n[characteristic M]\nparam = mv\n", &m, &err, true),
        CS_EINPUT);
    cr_expect(strstr(err.msg, "param `mv` is not a parameter of generic"), "%s", err.msg);
    cr_expect_eq(load_text("[units]\nruleset = generic\n[fixed]\ndice = 2q6\n", &m, &err, true),
                 CS_EINPUT);
    cr_expect(strstr(err.msg, "dice = '2q6'"), "%s", err.msg);
    cr_expect_eq(load_text("[units]\nruleset = generic\nspeed = preset\n", &m, &err, true),
                 CS_EINPUT);
    cr_expect(strstr(err.msg, "speed `preset` is not a numeric parameter"), "%s", err.msg);
    cr_expect_eq(load_text("[units]\nruleset = generic\nmetrics = wounds\n", &m, &err, true),
                 CS_EINPUT);
    cr_expect(strstr(err.msg, "metric `wounds` is not a metric of generic"), "%s", err.msg);
}

/* The mappings shipped under experiments/mappings load, and bind wherever
 * their ruleset is built in. */
Test(units, shipped_mappings)
{
    char dir[1200];
    const char *root = getenv("CS_ROOT");
    snprintf(dir, sizeof dir, "%s/experiments/mappings", root ? root : ".");
    cs_units_mapping *maps;
    int n;
    cs_error err = {0};
    cr_assert_eq(cs_units_mapping_load_dir(dir, &maps, &n, &err), CS_OK, "%s", err.msg);
    cr_assert_geq(n, 3);
    for (int i = 0; i < n; i++) {
        cs_status st = cs_units_mapping_bind(&maps[i], &err);
        if (cs_registry_find(maps[i].ruleset))
            cr_expect_eq(st, CS_OK, "%s", err.msg);
        else
            cr_expect(st == CS_EINPUT && strstr(err.msg, "is not built"), "%s", err.msg);
    }
    free(maps);
}

/* ---- units CSV --------------------------------------------------------- */

static cs_units_mapping csv_maps[2];

static cs_status read_csv(const char *name, cs_units *u, cs_error *err)
{
    cs_error e = {0};
    cr_assert_eq(cs_units_mapping_load(th_units_data("mappings/new.ini"), &csv_maps[0], &e), CS_OK);
    cr_assert_eq(cs_units_mapping_load(th_units_data("mappings/old.ini"), &csv_maps[1], &e), CS_OK);
    return cs_units_read_csv(th_units_data(name), csv_maps, 2, NULL, u, err);
}

Test(units, csv_rows)
{
    cs_units u = {0};
    cs_error err = {0};
    cr_assert_eq(read_csv("units.csv", &u, &err), CS_OK, "%s", err.msg);
    cr_assert_eq(u.n, 5);
    const cs_unit *f = th_units_find(&u, "Footmen");
    cr_expect_str_eq(f->map->rs->name, "generic");
    cr_expect_str_eq(th_units_value(f, "move"), "4");
    cr_expect_eq(f->points, 100.0);
    cr_expect_str_eq(f->base, "20x20");
    cr_expect_eq(f->line, 2);
    cr_expect_str_eq(th_units_value(th_units_find(&u, "Knights, Heavy"), "move"), "7", "a quoted 7\"");
    const cs_unit *s = th_units_find(&u, "Swift Riders");
    cr_expect_not(s->has_points);
    cr_expect_str_eq(th_units_value(s, "dice"), "3d6dl1", "a column the mapping does not feed");
    const cs_unit *sp = th_units_find(&u, "Spearmen");
    cr_expect_str_eq(sp->map->rs->name, "asoiaf");
    cr_expect_str_eq(th_units_value(sp, "hit"), "4");
    cr_expect(sp->complete);
    cr_expect_not(th_units_find(&u, "Scouts")->complete);
    const cs_unit_note *n = th_units_find_note(&u, "Statue");
    cr_expect(n->kind == CS_UNIT_SKIPPED && n->line == 7 && strstr(n->what, "lacks move"), "%s",
              n->what);
    cs_units_free(&u);
}

Test(units, csv_errors_name_file_line_and_column)
{
    struct {
        const char *file, *want;
    } cases[] = {
        {"bad_value.csv", "bad_value.csv:3: column `move`: `fast` is not a distance"},
        {"ragged.csv", "ragged.csv:3: 2 fields, the header has 3"},
        {"bad_quote.csv", "bad_quote.csv:3: column 1 (`name`): malformed CSV"},
        {"unknown_column.csv", "unknown_column.csv:2: column `wings` is not a parameter"},
        {"no-such.csv", "no-such.csv: cannot open"},
        {"nul_cell.csv", "nul_cell.csv:3: a NUL byte in column 1"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cs_units u = {0};
        cs_error err = {0};
        cr_expect_eq(read_csv(cases[i].file, &u, &err), CS_EINPUT, "%s", cases[i].file);
        cr_expect(strstr(err.msg, cases[i].want), "%s", err.msg);
        cs_units_free(&u);
    }
    cs_units u = {0};
    cs_error err = {0};
    const char *p = th_units_write_tmp("ruleset,move\ngeneric,4\n");
    cr_expect_eq(cs_units_read_csv(p, csv_maps, 2, NULL, &u, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, ":1: no `name` column"), "%s", err.msg);
    p = th_units_write_tmp("name,move\nFootmen,4\n");
    cr_expect_eq(cs_units_read_csv(p, csv_maps, 2, "asoiaf", &u, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, ":2: column `move` is not a parameter of ruleset asoiaf"), "%s",
              err.msg);
    cr_expect_eq(cs_units_read_csv(p, csv_maps, 2, "generic", &u, &err), CS_OK, "%s", err.msg);
    cr_expect_eq(u.n, 1, "--rules stands in for a missing ruleset column");
    p = th_units_write_tmp("");
    cr_expect_eq(cs_units_read_csv(p, csv_maps, 2, NULL, &u, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, ":1: empty file"), "%s", err.msg);
    cs_units_free(&u);
    /* A spreadsheet's UTF-8 export starts with a byte order mark: skipped,
     * so the first column is still `name` (it read as "\xef\xbb\xbfname"). */
    cs_units v = {0};
    p = th_units_write_tmp("\xef\xbb\xbfname,ruleset,move\nFootmen,generic,4\n");
    cr_expect_eq(cs_units_read_csv(p, csv_maps, 2, NULL, &v, &err), CS_OK, "%s", err.msg);
    cr_expect_eq(v.n, 1);
    cs_units_free(&v);
}

/* ---- the analysis: exact values computed by hand ----------------------- */

/* Runs the analysis of `unit` in `u` on grid `range`; p has room for 400. */
static void analyse(const cs_units *u, const char *unit, const char *range,
                    const cs_units_sets *sets, cs_unit_result *r, double *p)
{
    cs_units_grid g;
    cs_error err = {0};
    cr_assert_eq(cs_units_grid_parse(range, &g, &err), CS_OK);
    r->p = p;
    const cs_unit *un = th_units_find(u, unit);
    cr_assert_not_null(un);
    cs_units_sets none = {0};
    cr_assert_eq(cs_units_analyse(un, sets ? sets : &none, &g, r, &err), CS_OK, "%s", err.msg);
}

/* P(2D6 >= k): the number of the 36 outcomes with a sum of k or more. */
static double p2d6_at_least(int k)
{
    int n = 0;
    for (int a = 1; a <= 6; a++)
        for (int b = 1; b <= 6; b++)
            n += a + b >= k;
    return (double)n / 36.0;
}

/* P(the best two of 3D6 >= k), counted over the 216 outcomes. */
static double p3d6dl1_at_least(int k)
{
    int n = 0;
    for (int a = 1; a <= 6; a++)
        for (int b = 1; b <= 6; b++)
            for (int c = 1; c <= 6; c++) {
                int low = a < b ? (a < c ? a : c) : (b < c ? b : c);
                n += a + b + c - low >= k;
            }
    return (double)n / 216.0;
}

Test(units, exact_generic_table_reach_plus_one_and_points_per_inch)
{
    cs_units u = {0};
    cs_error err = {0};
    cr_assert_eq(read_csv("units.csv", &u, &err), CS_OK, "%s", err.msg);
    cs_unit_result r;
    double p[CS_UNITS_MAX_GRID];
    /* Footmen: move 4 + 2D6 >= d, so p(d) = P(2D6 >= d - 4). */
    analyse(&u, "Footmen", "1..24", NULL, &r, p);
    for (int d = 1; d <= 24; d++)
        cr_expect_float_eq(p[d - 1], p2d6_at_least(d - 4), EXACT, "d = %d", d);
    /* Reach: p(11) = P(2D6 >= 7) = 21/36 >= 50% > p(12) = 15/36;
     * p(9) = 30/36 >= 75% > p(10) = 26/36; p(8) = 33/36 >= 90% > p(9). */
    cr_expect(r.has_reach[0] && r.reach[0] == 11.0, "%.17g %d", r.reach[0], r.has_reach[0]);
    cr_expect(r.has_reach[1] && r.reach[1] == 9.0, "%g", r.reach[1]);
    cr_expect(r.has_reach[2] && r.reach[2] == 8.0, "%g", r.reach[2]);
    /* +1 move: 2D6 + 5 reaches 75% to 10 (P(2D6 >= 5) = 30/36), one inch
     * more than 2D6 + 4. */
    cr_expect(r.has_plus1);
    cr_expect_eq(r.plus1, 1.0, "%.17g", r.plus1);
    cr_expect(r.has_ppi);
    cr_expect_float_eq(r.points_per_inch, 100.0 / 9.0, EXACT);

    /* Reach and +1 speed are the unit's: the same whatever the table's
     * distances, even one that ends before them or starts past them. */
    const char *tables[] = {"1..5", "10..12", "0..0:0.01", "30..40:0.5", "7.3..7.4:0.05"};
    for (size_t t = 0; t < sizeof tables / sizeof *tables; t++) {
        cs_unit_result o;
        analyse(&u, "Footmen", tables[t], NULL, &o, p);
        for (int k = 0; k < CS_UNITS_N_REACH; k++)
            cr_expect(o.has_reach[k] && o.reach[k] == r.reach[k], "%s: reach %d = %.17g",
                      tables[t], k, o.reach[k]);
        cr_expect(o.has_plus1 && o.plus1 == r.plus1, "%s", tables[t]);
        cr_expect(o.has_ppi && o.points_per_inch == r.points_per_inch, "%s", tables[t]);
    }

    /* A unit's own dice column, 3D6 drop lowest, with move 8. */
    analyse(&u, "Swift Riders", "9..20", NULL, &r, p);
    for (int d = 9; d <= 20; d++)
        cr_expect_float_eq(p[d - 9], p3d6dl1_at_least(d - 8), EXACT, "d = %d", d);
    cr_expect_not(r.has_ppi, "no points");
    cs_units_free(&u);
}

Test(units, exact_asoiaf_reach_plus_one_and_charge_attack)
{
    cs_units_mapping m;
    th_units_load_bound("mappings/old.ini", &m);
    cs_units u = {0};
    cs_error err = {0};
    cr_assert_eq(cs_units_read_bs(th_units_data("old.cat"), &m, &u, &err), CS_OK, "%s", err.msg);
    cs_unit_result r;
    double p[CS_UNITS_MAX_GRID];
    /* Guardsmen: speed 5 + D6 >= d; p = 1 to 6", (12 - d)/6 from 6" to 12". */
    analyse(&u, "Guardsmen", "1..12", NULL, &r, p);
    for (int d = 1; d <= 12; d++)
        cr_expect_float_eq(p[d - 1], d <= 6 ? 1.0 : (double)(12 - d) / 6.0, EXACT, "d = %d", d);
    cr_expect_eq(r.reach[0], 9.0);
    cr_expect_eq(r.reach[1], 7.0);
    cr_expect_eq(r.reach[2], 6.0);
    /* +1 speed: speed 6 + D6 reaches 75% (P(D6 >= 2) = 5/6) to 8, one more. */
    cr_expect_eq(r.plus1, 1.0, "%.17g", r.plus1);
    cr_expect_float_eq(r.points_per_inch, 7.0 / 7.0, EXACT);
    /* At 1" every roll connects: a 1 (1/6) is disordered and loses the
     * re-roll of misses. Hit on 3+: p = 2/3, re-rolled 2/3 + 1/3 * 2/3 = 8/9.
     * Mixed 5/6 * 8/9 + 1/6 * 2/3 = 23/27 per die; the default save 4+ lets
     * half through; 7 dice: 7 * 23/27 / 2 = 161/54 wounds. */
    cr_expect(r.has_metric[0]);
    cr_expect_float_eq(r.metric[0], 161.0 / 54.0, EXACT);
    /* --set save=3 lets a third through: 161/81. */
    char key[] = "save", val[] = "3";
    cs_units_sets sets = {1, {key}, {val}};
    analyse(&u, "Guardsmen", "1..12", &sets, &r, p);
    cr_expect_float_eq(r.metric[0], 161.0 / 81.0, EXACT);
    /* Axemen keep their charge odds but not the attack they did not choose. */
    analyse(&u, "Axemen", "1..12", NULL, &r, p);
    cr_expect_not(r.has_metric[0]);
    cr_expect_float_eq(p[8], 2.0 / 6.0, EXACT, "speed 4 + D6 >= 9 on a 5 or a 6");
    cs_units_free(&u);
}

/* p_success from `chargesim run --method exact` (the driver) for the
 * unit's values over distances lo..hi, speed raised by `plus`. */
static void driver_p(const cs_unit *u, const cs_units_grid *g, int plus, double *out)
{
    char ini[2048];
    int n = snprintf(ini, sizeof ini,
                     "[experiment]\nruleset = %s\nmethod = exact\n[params]\ndistance = "
                     "%g..%g:%g\n",
                     u->map->rs->name, g->lo, g->hi, g->step);
    /* The unit's own value replaces a fixed one (as cs_units applies them, in
     * that order); a file gives each key once. */
    for (int i = 0; i < u->map->n_fixed; i++) {
        bool own = false;
        for (int j = 0; j < u->n_values; j++)
            own |= strcmp(u->map->rs->params[u->value[j].param].key, u->map->fixed_key[i]) == 0;
        if (!own)
            n += snprintf(ini + n, sizeof ini - (size_t)n, "%s = %s\n", u->map->fixed_key[i],
                          u->map->fixed_val[i]);
    }
    for (int i = 0; i < u->n_values; i++) {
        const char *key = u->map->rs->params[u->value[i].param].key;
        if (u->value[i].param == u->map->speed_param[0])
            n += snprintf(ini + n, sizeof ini - (size_t)n, "%s = %g\n", key,
                          atof(u->value[i].text) + plus);
        else
            n += snprintf(ini + n, sizeof ini - (size_t)n, "%s = %s\n", key, u->value[i].text);
    }
    cs_experiment e;
    cs_error err = {0};
    cr_assert_eq(th_load(ini, NULL, 0, &e, &err), CS_OK, "%s\n%s", err.msg, ini);
    cs_run_result r;
    cr_assert_eq(th_run(&e, 1, &r), CS_OK);
    cr_assert_eq(r.method, CS_METHOD_EXACT);
    cr_assert_eq((int)r.n_points, cs_units_grid_count(g));
    for (uint64_t k = 0; k < r.n_points; k++)
        out[k] = r.point[k].p_success;
    cs_sched_result_free(&r);
    cs_experiment_free(&e);
}

/* The farthest whole distance of a 1..n sweep where p is still >= level. */
static int sweep_reach(const double *p, int n, double level)
{
    int k = 0;
    while (k + 1 < n && p[k + 1] >= level)
        k++;
    return k + 1;
}

/* The table's p_success, reach and +1 speed are the driver's exact method's
 * numbers, for every test unit of both rulesets. */
Test(units, table_equals_the_exact_method)
{
    cs_units_mapping m;
    th_units_load_bound("mappings/old.ini", &m);
    cs_units u = {0};
    cs_error err = {0};
    cr_assert_eq(cs_units_read_bs(th_units_data("old.cat"), &m, &u, &err), CS_OK, "%s", err.msg);
    cr_assert_eq(read_csv("units.csv", &u, &err), CS_OK, "%s", err.msg);
    cs_units_grid g = {1, 24, 1};
    const int n = cs_units_grid_count(&g);
    double p[CS_UNITS_MAX_GRID], base[CS_UNITS_MAX_GRID], plus[CS_UNITS_MAX_GRID];
    cs_units_sets none = {0};
    for (int i = 0; i < u.n; i++) {
        const cs_unit *un = &u.unit[i];
        cs_unit_result r = {.p = p};
        cr_assert_eq(cs_units_analyse(un, &none, &g, &r, &err), CS_OK, "%s", err.msg);
        driver_p(un, &g, 0, base);
        driver_p(un, &g, 1, plus);
        for (int k = 0; k < n; k++)
            cr_expect_float_eq(p[k], base[k], EXACT, "%s at %d", un->name, k + 1);
        /* Every unit here has whole-inch atoms, reaches each level at 1" and
         * falls below it within 24" (with +1 speed too), so the reach is read
         * off the driver's sweep, and +1 speed is the rise of reach_75. */
        for (int q = 0; q < CS_UNITS_N_REACH; q++)
            cr_expect(r.has_reach[q] &&
                          r.reach[q] == (double)sweep_reach(base, n, cs_units_reach_levels[q]),
                      "%s reach %d: %g", un->name, q, r.reach[q]);
        cr_expect_eq(r.plus1, (double)(sweep_reach(plus, n, 0.75) - sweep_reach(base, n, 0.75)),
                     "%s", un->name);
    }
    cs_units_free(&u);
}

Test(units, sets_are_checked)
{
    cs_units u = {0};
    cs_error err = {0};
    cr_assert_eq(read_csv("units.csv", &u, &err), CS_OK, "%s", err.msg);
    char k1[] = "move", k2[] = "wings", k3[] = "distance", k4[] = "reroll", v[] = "failed";
    cs_units_sets s = {1, {k1}, {v}};
    cr_expect_eq(cs_units_check_sets(&u, &s, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, "carries its own move"), "%s", err.msg);
    s.key[0] = k2;
    cr_expect_eq(cs_units_check_sets(&u, &s, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, "--set wings: not a parameter"), "%s", err.msg);
    s.key[0] = k3;
    cr_expect_eq(cs_units_check_sets(&u, &s, &err), CS_EINPUT);
    s.key[0] = k4;
    cr_expect_eq(cs_units_check_sets(&u, &s, &err), CS_OK, "%s", err.msg);
    /* A sweep is refused at analysis, naming --set. */
    char sweep[] = "none,failed";
    s.val[0] = sweep;
    cs_units_grid g = {1, 3, 1};
    double p[3];
    cs_unit_result r = {.p = p};
    cr_expect_eq(cs_units_analyse(th_units_find(&u, "Footmen"), &s, &g, &r, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, "--set"), "%s", err.msg);
    /* A value a unit carries that the experiment model refuses. */
    cs_units_free(&u);
    cr_assert_eq(read_csv("bad_dice.csv", &u, &err), CS_OK, "%s", err.msg);
    cs_units_sets none = {0};
    cr_expect_eq(cs_units_analyse(th_units_find(&u, "Odd Ones"), &none, &g, &r, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, "bad_dice.csv:3: dice = '2q6'"), "%s", err.msg);
    cs_units_free(&u);
}

/* ---- the command ------------------------------------------------------- */

Test(units, command)
{
    char maps[1200], out[] = "/tmp/chargesim-units-out-XXXXXX";
    snprintf(maps, sizeof maps, "%s", th_units_data("mappings"));
    close(mkstemp(out));
    unlink_output(out);
    cr_expect_eq(th_units_run((const char *const[]){"--help", NULL}), 0);
    const char *good[] = {th_units_data("new.cat"), "--mapping", maps, "-o", out, "--quiet", NULL};
    cr_assert_eq(th_units_run(good), 0);
    char *text = th_slurp(out, NULL);
    cr_assert_not_null(text);
    cr_expect(strncmp(text, "catalogue,name,ruleset,points,base,move,reach_50,", 49) == 0, "%s",
              text);
    cr_expect(strstr(text, "Test Army,Swordsmen,generic,150,20×20,4,11,9,8,1,"), "%s", text);
    int lines = 0;
    for (char *c = text; *c; c++)
        lines += *c == '\n';
    cr_expect_eq(lines, 8, "header and seven units");
    unlink_output(out);

    /* Malformed input: status 2 and no output file at all. */
    const char *broken[] = {th_units_data("broken.cat"), "--mapping", maps, "-o", out, NULL};
    cr_expect_eq(th_units_run(broken), 2);
    cr_expect_neq(access(out, F_OK), 0);
    const char *bad_csv[] = {th_units_data("bad_value.csv"), "--mapping", maps, "-o", out, NULL};
    cr_expect_eq(th_units_run(bad_csv), 2);
    cr_expect_neq(access(out, F_OK), 0);
    const char *bad_set[] = {th_units_data("units.csv"), "--mapping", maps, "--set",
                             "move=5",          "-o",        out,  NULL};
    cr_expect_eq(th_units_run(bad_set), 2);
    cr_expect_neq(access(out, F_OK), 0);
    const char *bad_range[] = {th_units_data("units.csv"), "--mapping", maps, "--distance", "9..1", NULL};
    cr_expect_eq(th_units_run(bad_range), 2);
    cr_expect_eq(th_units_run((const char *const[]){th_units_data("units.csv"), "--frobnicate", NULL}), 2);
    cr_expect_eq(th_units_run((const char *const[]){th_units_data("units.csv"), "--format", "xls", NULL}), 2);
    cr_expect_eq(th_units_run((const char *const[]){"units.txt", "--mapping", maps, NULL}), 2);
    cr_expect_eq(th_units_run((const char *const[]){NULL}), 2);

    /* Markdown: percentages, one row per unit. */
    const char *md[] = {th_units_data("old.cat"), "--mapping", maps, "--format", "md", "--distance",
                        "6..8",          "-o",        out,  "--quiet",  NULL};
    cr_assert_eq(th_units_run(md), 0);
    free(text);
    text = th_slurp(out, NULL);
    cr_expect(strstr(text, "| Old House | Guardsmen | asoiaf | 7 | - | 5 | 3 | 7 | 9 | 7 | 6 |"),
              "%s", text);
    /* percentages with two decimals, as chargesim run writes them (issue 17.3) */
    cr_expect(strstr(text, "| 100.00 | 83.33 | 66.67 |"), "%s", text);
    free(text);
    unlink_output(out);
}

Test(units, mapping_file_read_errors_name_the_file_and_line)
{
    cs_units_mapping m;
    cs_error err;
    /* A directory is not a mapping file. */
    cr_expect_eq(cs_units_mapping_load("/tmp", &m, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, "/tmp: cannot read"), "%s", err.msg);
    /* A line longer than the INI reader takes is named, not split. */
    char path[] = "/tmp/chargesim-map-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fdopen(fd, "w");
    fputs("[units]\nruleset = generic\n; ", f);
    for (int i = 0; i < 300; i++)
        fputc('x', f);
    fputs("\n", f);
    fclose(f);
    cr_expect_eq(cs_units_mapping_load(path, &m, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, ":3: line longer than"), "%s", err.msg);
    unlink(path);
}

/* ---- reach by exact inversion ------------------------------------------ */

/* Writes `text` to DIR/name under a fresh temporary directory; *dir gets
 * the directory (rmdir it after unlinking the file). */
static void write_in_tmpdir(char *dir, const char *name, const char *text, char *path, size_t cap)
{
    cr_assert_not_null(mkdtemp(dir));
    snprintf(path, cap, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs(text, f);
    fclose(f);
}

/* The farthest whole distance a = move + s with P(N d S >= s) >= q, from the
 * integer counts of the N d S sum (exact: every count is below 2^53), q as
 * num/den: count(>= s) * den >= num * total. */
static int quantile_reach(int n, int sides, int move, long num, long den)
{
    double count[4000] = {1.0};
    int hi = 0;
    for (int d = 0; d < n; d++) {
        double next[4000] = {0.0};
        for (int v = 0; v <= hi; v++)
            for (int f = 1; f <= sides; f++)
                next[v + f] += count[v];
        hi += sides;
        memcpy(count, next, sizeof next);
    }
    double total = pow((double)sides, (double)n), at_least = 0.0;
    for (int s = hi; s >= 0; s--) {
        at_least += count[s];
        if (at_least * (double)den >= (double)num * total)
            return move + s;
    }
    return -1;
}

/* Issue 15.6 / 18.2: reach is the range distribution inverted, exactly,
 * whatever the dice: 5d162 has a tie at 50% (P(sum >= 408) = 1/2 exactly,
 * by symmetry), 22d162 a range past the distance parameter's 1000". */
Test(units, reach_is_the_inverted_range_distribution, .timeout = 30)
{
    char dir[] = "/tmp/chargesim-reach-XXXXXX", path[300];
    write_in_tmpdir(dir, "big.csv",
                    "name,ruleset,move,dice\n"
                    "Mid,generic,3,5d162\n"
                    "Decimal,generic,1.3,2d6\n"
                    "Huge,generic,0,22d162\n",
                    path, sizeof path);
    cs_units_mapping maps[1];
    cs_error err = {0};
    cr_assert_eq(cs_units_mapping_load(th_units_data("mappings/new.ini"), &maps[0], &err), CS_OK);
    cs_units u = {0};
    cr_assert_eq(cs_units_read_csv(path, maps, 1, NULL, &u, &err), CS_OK, "%s", err.msg);
    cs_unit_result r;
    double p[CS_UNITS_MAX_GRID];
    const long num[CS_UNITS_N_REACH] = {1, 3, 9}, den[CS_UNITS_N_REACH] = {2, 4, 10};
    analyse(&u, "Mid", "1", NULL, &r, p);
    for (int k = 0; k < CS_UNITS_N_REACH; k++) {
        double want = quantile_reach(5, 162, 3, num[k], den[k]);
        cr_expect(r.has_reach[k] && r.reach[k] == want, "reach %d: %.17g, want %g", k, r.reach[k],
                  want);
    }
    cr_expect_eq(r.reach[0], 3.0 + 408.0, "the tie at exactly 1/2 counts");
    /* 1.3 + 2D6: the atoms are decimals, given as the doubles nearest them. */
    analyse(&u, "Decimal", "1", NULL, &r, p);
    cr_expect(r.reach[0] == 8.3 && r.reach[1] == 6.3 && r.reach[2] == 5.3, "%.17g %.17g %.17g",
              r.reach[0], r.reach[1], r.reach[2]);
    /* 22d162 (22 to 3564) still reaches 90% at the parameter's maximum. */
    analyse(&u, "Huge", "1", NULL, &r, p);
    for (int k = 0; k < CS_UNITS_N_REACH; k++)
        cr_expect(r.has_reach[k] && r.reach[k] == 1000.0, "%.17g", r.reach[k]);
    cs_units_free(&u);

    /* The whole command on 22d162 with a one-cell table: under a second
     * (the step scan it replaces took 145 s). */
    char maps_dir[1200], out[] = "/tmp/chargesim-reach-out-XXXXXX";
    snprintf(maps_dir, sizeof maps_dir, "%s", th_units_data("mappings"));
    close(mkstemp(out));
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("name,ruleset,move,dice\nHuge,generic,0,22d162\n", f);
    fclose(f);
    const char *args[] = {path,         "--mapping", maps_dir, "--distance", "0..0:0.01",
                          "--quiet",    "-o",        out,      NULL};
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    cr_expect_eq(th_units_run(args), 0);
    clock_gettime(CLOCK_MONOTONIC, &t1);
    double took = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    cr_expect_lt(took, th_time_limit(1.0), "22d162 at --distance 0..0:0.01 took %.3f s", took);
    char *text = th_slurp(out, NULL);
    cr_expect(text && strstr(text, "\nbig.csv,Huge,generic,,,0,22d162,1000,1000,1000,0,,1\n"),
              "%s", text ? text : "");
    free(text);
    unlink_output(out);
    unlink(path);
    cr_expect_eq(rmdir(dir), 0);
}

/* Issue 15.6: the T9A 2nd-edition catalogue has no Charge Speed, which
 * edition 3's range needs (D6 + 4 + Cha, T9A 3rd ed., Charge Range;
 * docs/rules/t9a.md); the mapping locks edition = 2, so asking for 3 is refused with
 * what is missing, from --set and from a CSV column alike. */
Test(units, t9a_edition_3_without_charge_speed_is_refused)
{
    char map[1200];
    const char *root = getenv("CS_ROOT");
    snprintf(map, sizeof map, "%s/experiments/mappings/t9a-2nd.ini", root ? root : ".");
    char dir[] = "/tmp/chargesim-ed3-XXXXXX", path[300], out[] = "/tmp/chargesim-ed3-out-XXXXXX";
    write_in_tmpdir(dir, "elves.csv", "name,ruleset,advance_rate\nElf,t9a,5\n", path, sizeof path);
    close(mkstemp(out));
    unlink_output(out);
    const char *ed3[] = {path, "--mapping", map, "--set", "edition=3", "-o", out, "--quiet", NULL};
    cr_expect_eq(th_units_run(ed3), 2);
    cr_expect_neq(access(out, F_OK), 0, "no table under an edition-3 heading");
    cs_units_mapping m;
    cs_error err = {0};
    cr_assert_eq(cs_units_mapping_load(map, &m, &err), CS_OK, "%s", err.msg);
    cr_assert_eq(cs_units_mapping_bind(&m, &err), CS_OK, "%s", err.msg);
    cs_units u = {0};
    cr_assert_eq(cs_units_read_csv(path, &m, 1, NULL, &u, &err), CS_OK, "%s", err.msg);
    char key[] = "edition", three[] = "3", two[] = "2";
    cs_units_sets sets = {1, {key}, {three}};
    cr_expect_eq(cs_units_check_sets(&u, &sets, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, "--set edition = 3") && strstr(err.msg, "fixes edition = 2") &&
                  strstr(err.msg, "Charge Speed (Cha, parameter charge_speed)"),
              "%s", err.msg);
    /* edition = 2, the fixed value, is no change. */
    sets.val[0] = two;
    cr_expect_eq(cs_units_check_sets(&u, &sets, &err), CS_OK, "%s", err.msg);
    cs_units_free(&u);
    const char *ed2[] = {path, "--mapping", map, "--set", "edition=2", "-o", out, "--quiet", NULL};
    cr_expect_eq(th_units_run(ed2), 0);
    unlink_output(out);

    /* A unit's own edition column is refused the same way. */
    FILE *f = fopen(path, "w");
    cr_assert_not_null(f);
    fputs("name,ruleset,advance_rate,edition\nElf,t9a,5,3\n", f);
    fclose(f);
    const char *col[] = {path, "--mapping", map, "-o", out, "--quiet", NULL};
    cr_expect_eq(th_units_run(col), 2);
    cr_expect_neq(access(out, F_OK), 0);
    unlink(path);
    cr_expect_eq(rmdir(dir), 0);
}

/* Issue 17.2: a units CSV file gets its CSVW metadata beside it, naming every
 * column of the header and the command that made it. */
Test(units, csv_file_gets_its_metadata)
{
    char out[512], args[1536];
    snprintf(out, sizeof out, "%s/u.csv", th_tmpdir());
    snprintf(args, sizeof args, "units %s --mapping %s/experiments/mappings -o %s --quiet",
             th_units_data("units.csv"), th_root(), out);
    char *so = NULL, *se = NULL;
    cr_assert_eq(th_cli(args, &so, &se), 0, "%s", se);
    char meta[600];
    snprintf(meta, sizeof meta, "%s-metadata.json", out);
    char *json = th_slurp(meta, NULL), *csv = th_slurp(out, NULL);
    cr_assert_not_null(json);
    cr_expect(strstr(json, "\"chargesim:table\": \"units\""), "%s", json);
    cr_expect(strstr(json, "\"chargesim units "), "%s", json);
    /* every header column is described */
    char *nl = strchr(csv, '\n');
    *nl = '\0';
    for (char *col = strtok(csv, ","); col; col = strtok(NULL, ",")) {
        char want[256];
        snprintf(want, sizeof want, "\"titles\": \"%s\"", col);
        cr_expect(strstr(json, want), "column %s missing", col);
    }
    free(json);
    free(csv);
    free(so);
    free(se);
}

/* A directory holding a catalogue and its game system: the catalogue is
 * the source (the .gst only its game system), so the table is the
 * catalogue's own; a directory of a game system alone reads that. */
Test(units, directory_prefers_its_catalogues)
{
    const char *dir = th_tmpdir();
    char cmd[2048], args[2048], *from_dir = NULL, *from_cat = NULL, *err = NULL;
    snprintf(cmd, sizeof cmd, "mkdir %s/both %s/gst && cp %s %s %s/both && cp %s %s/gst", dir,
             dir, th_units_data("new.cat"), th_units_data("new.gst"), dir,
             th_units_data("new.gst"), dir);
    cr_assert_eq(system(cmd), 0);
    const char *maps = th_units_data("mappings/new.ini");
    snprintf(args, sizeof args, "units %s/both --mapping %s --quiet", dir, maps);
    cr_assert_eq(th_cli(args, &from_dir, &err), 0, "%s", err);
    free(err);
    snprintf(args, sizeof args, "units %s/both/new.cat --mapping %s --quiet", dir, maps);
    cr_assert_eq(th_cli(args, &from_cat, &err), 0, "%s", err);
    free(err);
    cr_expect_str_eq(from_dir, from_cat);
    cr_expect(!strstr(from_dir, "Test System"), "%s", from_dir);
    free(from_dir);
    snprintf(args, sizeof args, "units %s/gst --mapping %s --quiet", dir, maps);
    cr_assert_eq(th_cli(args, &from_dir, &err), 0, "%s", err);
    cr_expect(strstr(from_dir, "\nTest System 2.03,Linked Hero,generic,120,"), "%s", from_dir);
    free(from_dir);
    free(from_cat);
    free(err);
}

/* The unit table is built from exact probabilities: a ruleset without
 * them (the hook is optional; a copy of generic without it stands in) is
 * refused by name. */
Test(units, a_ruleset_without_exact_probabilities_is_refused)
{
    cs_units_mapping m;
    th_units_load_bound("mappings/old.ini", &m);
    cs_units u = {0};
    cs_error err = {0};
    cr_assert_eq(cs_units_read_bs(th_units_data("old.cat"), &m, &u, &err), CS_OK, "%s", err.msg);
    cr_assert_gt(u.n, 0);
    cr_assert_eq(u.unit[0].map, &m);
    cs_ruleset bare = *m.rs;
    bare.outcome_probabilities = NULL;
    m.rs = &bare;
    double p[CS_UNITS_MAX_GRID];
    cs_units_grid g = {1, 6, 1};
    cs_units_sets none = {0};
    cs_unit_result r = {.p = p};
    cr_expect_eq(cs_units_analyse(&u.unit[0], &none, &g, &r, &err), CS_EINPUT);
    char want[128];
    snprintf(want, sizeof want, "ruleset %s has no exact outcome probabilities", bare.name);
    cr_expect_str_eq(err.msg, want);
    cs_units_free(&u);
}
