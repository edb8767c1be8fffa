/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Threat maps (map.h, issue 20): the cell at x = 0 is `run` of the same
 * experiment at distance y (t9a, asoiaf, coreheim, sovl; exact and
 * sampled) wherever every drawn placement stands, a symmetric set-up gives a map symmetric in x, p_success never
 * grows with y along x = 0, the same bytes on 1, 2 and 7 threads, the
 * cells where the target cannot stand, and the refusals. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chargesim/map.h"
#include "support/helpers.h"

static const char *const t9a_ini = "[experiment]\nruleset = t9a\nseed = 7\n"
                                   "[params]\nmaximised = 1\ncharge_speed = 1\n";
static const char *const t9a_random_ini =
    "[experiment]\nruleset = t9a\nseed = 11\ntrials = 3000\n"
    "[params]\nangle = uniform(-20,20)\ntarget_width = 6\n";
static const char *const asoiaf_ini = "[experiment]\nruleset = asoiaf\nseed = 5\n"
                                      "[params]\nspeed = 5\n";
static const char *const coreheim_ini = "[experiment]\nruleset = coreheim\n"
                                        "[params]\nmove = 5\ncharge_multiplier = 2\n"
                                        "visible = false\ninitiative = 6\n";
static const char *const coreheim_random_ini = "[experiment]\nruleset = coreheim\nseed = 3\n"
                                               "trials = 2000\n[params]\nmove = 6\n"
                                               "estimate_sd = 0.2\n";
static const char *const sovl_ini = "[experiment]\nruleset = sovl\n[params]\nflee_b = true\n";

static void load(const char *ini, cs_experiment *e)
{
    cs_error err;
    cr_assert_eq(th_load(ini, NULL, 0, e, &err), CS_OK, "%s", err.msg);
}

static void axis(const char *text, cs_map_axis *a)
{
    cs_error err;
    cr_assert_eq(cs_map_axis_parse(text, "--x", a, &err), CS_OK, "%s", err.msg);
}

static void run_map(const cs_experiment *e, const char *xs, const char *ys, int threads,
                    cs_map_result *m)
{
    cs_map_axis x, y;
    cs_error err;
    cs_run_opts o = {.threads = threads};
    axis(xs, &x);
    axis(ys, &y);
    cr_assert_eq(cs_map_run(e, &x, &y, &o, m, &err), CS_OK, "%s", err.msg);
}

static const cs_map_cell *cell(const cs_map_result *m, int i, int j)
{
    return &m->cell[(size_t)j * (size_t)m->x.n + (size_t)i];
}

/* Every placed cell at x = 0 against `run` with distance = y (the same
 * text an experiment file would hold): the same numbers, bit for bit,
 * wherever every drawn placement stands. Where some cannot (a drawn angle
 * turning the target onto the charger), run counts them as illegal
 * charges and the map leaves them out: the same trials in all, and odds
 * over the rest never below run's. */
static void check_equals_run(const char *ini)
{
    cs_experiment e;
    cs_map_result m;
    load(ini, &e);
    run_map(&e, "-2..2:1", "0..12:0.5", 2, &m);
    int i0 = 2, placed = 0;
    cr_assert_eq(cs_map_axis_value(&m.x, i0), 0.0);
    for (int j = 0; j < m.y.n; j++) {
        const cs_map_cell *c = cell(&m, i0, j);
        if (!c->placed) {
            cr_assert_eq(j, 0, "only the touching cell (0, 0) may be unplaced, not y = %g",
                         cs_map_axis_value(&m.y, j));
            continue;
        }
        placed++;
        char set[64];
        snprintf(set, sizeof set, "distance=%.10g", cs_map_axis_value(&m.y, j));
        const char *sets[] = {set};
        cs_experiment r;
        cs_run_result res;
        cs_error err;
        cr_assert_eq(th_load(ini, sets, 1, &r, &err), CS_OK, "%s", err.msg);
        cr_assert_eq(th_run(&r, 1, &res), CS_OK);
        const cs_point_result *p = &res.point[0];
        cr_assert_eq(res.method, m.method);
        if (c->cannot_stand > 0) {
            cr_assert_eq(c->trials + c->cannot_stand, p->trials, "%s", set);
            cr_assert_geq(c->p_success, p->p_success, "%s", set);
            cs_sched_result_free(&res);
            cs_experiment_free(&r);
            continue;
        }
        cr_assert_eq(c->trials, p->trials, "%s", set);
        cr_assert_eq(c->p_success, p->p_success, "%s: map %.17g, run %.17g", set, c->p_success,
                     p->p_success);
        cr_assert_eq(c->ci_low, p->ci_low, "%s", set);
        cr_assert_eq(c->ci_high, p->ci_high, "%s", set);
        for (int o = 0; o < e.rs->n_outcomes; o++)
            cr_assert_eq(c->p_outcome[o], p->p_outcome[o], "%s, %s", set, e.rs->outcomes[o]);
        cs_sched_result_free(&res);
        cs_experiment_free(&r);
    }
    cr_assert_geq(placed, m.y.n - 1);
    cs_map_result_free(&m);
    cs_experiment_free(&e);
}

Test(map, x0_equals_run_t9a) { check_equals_run(t9a_ini); }
Test(map, x0_equals_run_t9a_sampled_layouts) { check_equals_run(t9a_random_ini); }
Test(map, x0_equals_run_asoiaf) { check_equals_run(asoiaf_ini); }
Test(map, x0_equals_run_coreheim) { check_equals_run(coreheim_ini); }
Test(map, x0_equals_run_coreheim_sampled_layouts) { check_equals_run(coreheim_random_ini); }
Test(map, x0_equals_run_sovl) { check_equals_run(sovl_ini); }

/* A symmetric set-up (nothing off the centre line) gives a map symmetric
 * in x, cell for cell. */
static void check_symmetric(const char *ini)
{
    cs_experiment e;
    cs_map_result m;
    load(ini, &e);
    run_map(&e, "-12..12:0.5", "0..12:0.5", 2, &m);
    int any = 0;
    for (int j = 0; j < m.y.n; j++)
        for (int i = 0; i < m.x.n; i++) {
            const cs_map_cell *a = cell(&m, i, j), *b = cell(&m, m.x.n - 1 - i, j);
            cr_assert_eq(a->placed, b->placed);
            if (!a->placed)
                continue;
            any += a->p_success > 0.0 && a->p_success < 1.0;
            cr_assert(fabs(a->p_success - b->p_success) < 1e-12,
                      "(%g, %g): %.17g, mirrored %.17g", cs_map_axis_value(&m.x, i),
                      cs_map_axis_value(&m.y, j), a->p_success, b->p_success);
        }
    cr_assert_gt(any, 0, "the map has no cell strictly between 0 and 1");
    cs_map_result_free(&m);
    cs_experiment_free(&e);
}

Test(map, symmetric_t9a) { check_symmetric(t9a_ini); }
Test(map, symmetric_asoiaf) { check_symmetric(asoiaf_ini); }
Test(map, symmetric_coreheim) { check_symmetric(coreheim_ini); }

/* sovl has no dice in the charge itself: its cells are 0 or 1 unless a
 * flight move is rolled; symmetric all the same. */
Test(map, symmetric_sovl)
{
    cs_experiment e;
    cs_map_result m;
    load(sovl_ini, &e);
    run_map(&e, "-12..12:0.5", "0..12:0.5", 2, &m);
    for (int j = 0; j < m.y.n; j++)
        for (int i = 0; i < m.x.n; i++) {
            const cs_map_cell *a = cell(&m, i, j), *b = cell(&m, m.x.n - 1 - i, j);
            cr_assert_eq(a->placed, b->placed);
            if (a->placed)
                cr_assert(fabs(a->p_success - b->p_success) < 1e-12, "(%g, %g)",
                          cs_map_axis_value(&m.x, i), cs_map_axis_value(&m.y, j));
        }
    cs_map_result_free(&m);
    cs_experiment_free(&e);
}

/* Along x = 0 a farther target is never likelier to be reached. */
static void check_monotone(const char *ini)
{
    cs_experiment e;
    cs_map_result m;
    load(ini, &e);
    run_map(&e, "0..0:1", "0..30:0.25", 1, &m);
    double prev = 1.0;
    bool fell = false;
    for (int j = 0; j < m.y.n; j++) {
        const cs_map_cell *c = cell(&m, 0, j);
        if (!c->placed)
            continue;
        cr_assert_leq(c->p_success, prev + 1e-12, "y = %g: %.17g after %.17g",
                      cs_map_axis_value(&m.y, j), c->p_success, prev);
        fell = fell || c->p_success < prev;
        prev = c->p_success;
    }
    cr_assert(fell, "p_success never falls over 0..30\"");
    cr_assert_eq(prev, 0.0, "still reachable at 30\"");
    cs_map_result_free(&m);
    cs_experiment_free(&e);
}

Test(map, monotone_t9a) { check_monotone(t9a_ini); }
Test(map, monotone_asoiaf) { check_monotone(asoiaf_ini); }
Test(map, monotone_coreheim) { check_monotone(coreheim_ini); }
Test(map, monotone_sovl) { check_monotone(sovl_ini); }

/* coreheim's warriors are points charged along the straight line: the cell
 * (3, 4) is `run` at distance 5. */
Test(map, coreheim_route_is_the_straight_line)
{
    cs_experiment e, r;
    cs_map_result m;
    cs_run_result res;
    cs_error err;
    load(coreheim_ini, &e);
    run_map(&e, "3..3:1", "4..4:1", 1, &m);
    const char *sets[] = {"distance=5"};
    cr_assert_eq(th_load(coreheim_ini, sets, 1, &r, &err), CS_OK, "%s", err.msg);
    cr_assert_eq(th_run(&r, 1, &res), CS_OK);
    cr_assert_eq(m.cell[0].p_success, res.point[0].p_success);
    cr_assert(m.cell[0].p_success > 0.0 && m.cell[0].p_success < 1.0);
    cs_sched_result_free(&res);
    cs_experiment_free(&r);
    cs_map_result_free(&m);
    cs_experiment_free(&e);
}

/* Same seed, same numbers on 1, 2 and 7 threads, sampled layouts included. */
Test(map, same_numbers_on_any_thread_count)
{
    static const char *const inis[] = {"[experiment]\nruleset = t9a\nseed = 4\ntrials = 5000\n"
                                       "method = mc\n[params]\nangle = normal(0,10)\n",
                                       coreheim_random_ini};
    for (int k = 0; k < 2; k++) {
        cs_experiment e;
        cs_map_result m[3];
        static const int threads[3] = {1, 2, 7};
        load(inis[k], &e);
        for (int t = 0; t < 3; t++)
            run_map(&e, "-3..3:1", "3..9:1", threads[t], &m[t]);
        size_t n = (size_t)m[0].x.n * (size_t)m[0].y.n;
        for (int t = 1; t < 3; t++)
            cr_assert_eq(memcmp(m[0].cell, m[t].cell, n * sizeof *m[0].cell), 0,
                         "%d threads differ from 1", threads[t]);
        for (int t = 0; t < 3; t++)
            cs_map_result_free(&m[t]);
        cs_experiment_free(&e);
    }
}

/* The target cannot stand touching or overlapping the charger, nor on
 * another unit: those cells carry no numbers. */
Test(map, unplaceable_cells)
{
    cs_experiment e;
    cs_map_result m;
    load("[experiment]\nruleset = t9a\n[params]\nangle = 30\n"
         "other1_width = 4\nother1_x = 10\nother1_y = 8\n",
         &e);
    run_map(&e, "-12..12:1", "0..12:1", 1, &m);
    cr_assert(!cell(&m, 12, 0)->placed, "(0, 0) touches the charger");
    cr_assert(isnan(cell(&m, 12, 0)->p_success));
    /* turned 30 degrees about its front-edge centre, the target at (0, 1)
     * swings a corner into the charger */
    cr_assert(!cell(&m, 12, 1)->placed);
    cr_assert(!cell(&m, 22, 8)->placed, "(10, 8) stands on the other unit");
    cr_assert(cell(&m, 12, 6)->placed);
    cr_assert_eq(m.charger_w, 5.0);
    cs_map_result_free(&m);
    cs_experiment_free(&e);
}

static void check_refused(const char *ini, const char *what)
{
    cs_experiment e;
    cs_map_axis x, y;
    cs_map_result m;
    cs_error err;
    cs_run_opts o = {.threads = 1};
    load(ini, &e);
    axis("-2..2:1", &x);
    axis("0..4:1", &y);
    cr_assert_eq(cs_map_run(&e, &x, &y, &o, &m, &err), CS_EINPUT);
    cr_assert(strstr(err.msg, what), "message '%s' lacks '%s'", err.msg, what);
    cs_experiment_free(&e);
}

Test(map, refusals)
{
    check_refused("[experiment]\nruleset = generic\n", "no threat map");
    check_refused("[experiment]\nruleset = sovl_dice\n", "no threat map");
    check_refused("[experiment]\nruleset = t9a\n[params]\ncharge_speed = 0..2\n",
                  "a map is one configuration");
    check_refused("[experiment]\nruleset = asoiaf\n[params]\ndistance = uniform(2,8)\n",
                  "drawn per trial");
    check_refused("[experiment]\nruleset = sovl\n[params]\nplacement = random\n",
                  "placement = head_on");
}

Test(map, axis_parsing)
{
    cs_map_axis a;
    cs_error err;
    axis("-24..24:0.5", &a);
    cr_assert_eq(a.n, 97);
    cr_assert_eq(cs_map_axis_value(&a, 96), 24.0);
    axis("0..1:0.1", &a);
    cr_assert_eq(a.n, 11);
    cr_assert_eq(cs_map_axis_value(&a, 3), 0.3);
    cr_assert_eq(cs_map_axis_parse("3..1:1", "--y", &a, &err), CS_EINPUT);
    cr_assert_eq(cs_map_axis_parse("0..4:0", "--y", &a, &err), CS_EINPUT);
    cr_assert_eq(cs_map_axis_parse("0:4", "--y", &a, &err), CS_EINPUT);
    cr_assert(strstr(err.msg, "--y"));
}

/* The command: CSV rows y outer, unplaced cells marked, the picture, and
 * the same bytes from another thread count. */
Test(map, cli_csv_and_plot)
{
    const char *dir = th_tmpdir();
    char args[1024], *out = NULL, *err = NULL;
    snprintf(args, sizeof args,
             "map %s/experiments/t9a-head-on-ed3.ini --set charge_speed=0 --set maximised=0 --set distance=1 "
             "--x -1..1:1 --y 0..2:1 -o %s/a.csv --plot %s/a.svg --threads 1 --quiet",
             th_root(), dir, dir);
    int rc = th_cli(args, &out, &err);
    cr_assert_eq(rc, 0, "%s", err);
    free(out);
    free(err);
    char path[512];
    snprintf(path, sizeof path, "%s/a.csv", dir);
    char *csv = th_slurp(path, NULL);
    cr_assert(csv);
    static const char head[] =
        "x,y,trials,p_success,ci_low,ci_high,p_charged,p_failed,p_caught,p_fled,p_illegal,"
        "p_cannot_stand,ci_low_cannot_stand,ci_high_cannot_stand,method\n"
        "-1,0,,,,,,,,,,1,1,1,none\n"
        "0,0,,,,,,,,,,1,1,1,none\n";
    cr_assert(strncmp(csv, head, strlen(head)) == 0, "%s", csv);
    /* (0, 2): D6 + 4 >= 2 always. Exact values are written whole (issue
     * 52): the sum of the dice's probabilities reads back within 1e-15 of 1
     * (it may show 0.9999999999999999), the others are 0. */
    const char *row = strstr(csv, "\n0,2,,");
    cr_assert(row, "%s", csv);
    row += strlen("\n0,2,,");
    for (int i = 0; i < 4; i++, row = strchr(row, ',') + 1)
        cr_expect(fabs(strtod(row, NULL) - 1.0) <= 1e-15, "cell %d of %s", i, csv);
    cr_expect(strncmp(row, "0,0,0,0,0,0,0,exact\n", 20) == 0, "%s", row);
    snprintf(path, sizeof path, "%s/a.svg", dir);
    char *svg = th_slurp(path, NULL);
    cr_assert(svg && strstr(svg, "<svg"));
    free(svg);
    snprintf(args, sizeof args,
             "map %s/experiments/t9a-head-on-ed3.ini --set charge_speed=0 --set maximised=0 --set distance=1 "
             "--x -1..1:1 --y 0..2:1 --threads 2 --quiet",
             th_root());
    rc = th_cli(args, &out, &err);
    cr_assert_eq(rc, 0, "%s", err);
    cr_assert_str_eq(out, csv);
    free(out);
    free(err);
    free(csv);
    rc = th_cli("map --help", &out, &err);
    cr_assert_eq(rc, 0);
    cr_assert(strstr(out, "--plot FILE"));
    free(out);
    free(err);
}

/* -o and --plot naming one file, however spelt and whether or not it exists
 * yet, are refused before the run and nothing is written (the picture was
 * committed over the CSV, exit 0, and the CSV's metadata described an SVG). */
Test(map, one_file_for_csv_and_plot_is_refused)
{
    const char *dir = th_tmpdir();
    char args[1024], *out = NULL, *err = NULL;
    static const char *const spellings[][2] = {{"m.svg", "m.svg"}, {"./m.svg", "m.svg"},
                                               {"m.svg", "sub/../m.svg"}};
    char sub[512];
    snprintf(sub, sizeof sub, "%s/sub", dir);
    cr_assert(mkdir(sub, 0700) == 0);
    for (size_t i = 0; i < sizeof spellings / sizeof spellings[0]; i++) {
        snprintf(args, sizeof args,
                 "map %s/experiments/map-t9a.ini --x 0..1:1 --y 6..6:1 --quiet "
                 "-o %s/%s --plot %s/%s",
                 th_root(), dir, spellings[i][0], dir, spellings[i][1]);
        cr_assert_eq(th_cli(args, &out, &err), 2, "%s", err);
        cr_assert(strstr(err, "chargesim map: -o and --plot name the same file '"), "%s", err);
        free(out);
        free(err);
        char path[512];
        snprintf(path, sizeof path, "%s/m.svg", dir);
        cr_assert(access(path, F_OK) != 0, "%s was written", path);
    }
}

/* The contract the scheduler relies on (ruleset.h, map_place): a cell the
 * ruleset places is one its prepare accepts, so a map never stops on a
 * refusal halfway. Checked over a fine grid around set-ups that refuse some
 * cells: other units, a climb and a jump on coreheim's route, a turned
 * target. */
static void check_placed_are_prepared(const char *ini)
{
    cs_experiment e;
    load(ini, &e);
    const cs_ruleset *rs = e.rs;
    cr_assert(rs->map_place);
    void *ctx = calloc(1, rs->ctx_size ? rs->ctx_size : 1);
    cr_assert(ctx);
    int placed = 0, refused = 0;
    for (int j = -40; j <= 120; j++)
        for (int i = -60; i <= 60; i++) {
            cs_params p;
            cs_map_spot spot;
            cs_diag diag = {0};
            cs_experiment_point(&e, 0, &p);
            cr_assert_eq(rs->map_place(&p, i * 0.25, j * 0.25, &spot, &diag), CS_OK);
            if (!spot.placed) {
                refused++;
                continue;
            }
            placed++;
            cr_expect_eq(rs->prepare(&p, ctx, &diag), CS_OK, "%s: (%g, %g) placed but %s: %s",
                         rs->name, i * 0.25, j * 0.25, diag.key ? diag.key : "",
                         diag.what ? diag.what : "");
        }
    cr_expect(placed > 0 && refused > 0, "%s: %d placed, %d not", rs->name, placed, refused);
    free(ctx);
    cs_experiment_free(&e);
}

Test(map, placed_cells_are_prepared_t9a)
{
    check_placed_are_prepared("[experiment]\nruleset = t9a\n[params]\nangle = 30\n"
                              "other1_width = 4\nother1_x = 10\nother1_y = 8\n"
                              "other2_kind = friend\nother2_width = 3\nother2_x = -8\n"
                              "other2_y = 14\n");
}

Test(map, placed_cells_are_prepared_asoiaf)
{
    check_placed_are_prepared("[experiment]\nruleset = asoiaf\n[params]\nangle = -20\n"
                              "other1_width = 4\nother1_x = 14\nother1_y = 10\n");
}

Test(map, placed_cells_are_prepared_coreheim)
{
    check_placed_are_prepared("[experiment]\nruleset = coreheim\n[params]\nmove = 5\n"
                              "distance = 12\nclimb = 1\nclimb_at = 6\njump = 1\nland_gap = 9\n");
}

Test(map, placed_cells_are_prepared_sovl) { check_placed_are_prepared(sovl_ini); }
