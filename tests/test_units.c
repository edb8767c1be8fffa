/* Unit sources and the list-builder's table (issue 9): the value reader,
 * mapping files, BattleScribe catalogues of both schemas, units CSVs, the
 * exact per-unit analysis, the command, and every catalogue under
 * ../shared/data checked against an independent XPath count. */
#include <criterion/criterion.h>
#include <dirent.h>
#include <libxml/parser.h>
#include <libxml/xpath.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "chargesim/cli.h"
#include "chargesim/units.h"
#include "support/helpers.h"

#define EXACT 1e-12

/* The path of a test file; eight calls may be held at once. */
static const char *data(const char *name)
{
    static char path[8][1200];
    static int k;
    const char *root = getenv("CS_ROOT");
    k = (k + 1) % 8;
    snprintf(path[k], sizeof path[k], "%s/tests/data/units/%s", root ? root : ".", name);
    return path[k];
}

static void load_bound(const char *name, cs_units_mapping *m)
{
    cs_error err = {0};
    cr_assert_eq(cs_units_mapping_load(data(name), m, &err), CS_OK, "%s", err.msg);
    cr_assert_eq(cs_units_mapping_bind(m, &err), CS_OK, "%s", err.msg);
}

static const cs_unit *find_unit(const cs_units *u, const char *name)
{
    for (int i = 0; i < u->n; i++)
        if (strcmp(u->unit[i].name, name) == 0)
            return &u->unit[i];
    return NULL;
}

static const cs_unit_note *find_note(const cs_units *u, const char *name)
{
    for (int i = 0; i < u->n_notes; i++)
        if (strcmp(u->note[i].name, name) == 0)
            return &u->note[i];
    return NULL;
}

/* The unit's value of parameter `key` as handed to the experiment model. */
static const char *value(const cs_unit *u, const char *key)
{
    for (int i = 0; i < u->n_values; i++)
        if (strcmp(u->map->rs->params[u->value[i].param].key, key) == 0)
            return u->value[i].text;
    return NULL;
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

static const char *write_tmp(const char *text)
{
    static char path[320];
    snprintf(path, sizeof path, "%s/map-XXXXXX", th_tmpdir());
    int fd = mkstemp(path);
    cr_assert(fd >= 0);
    FILE *f = fdopen(fd, "w");
    fputs(text, f);
    fclose(f);
    return path;
}

static cs_status load_text(const char *text, cs_units_mapping *m, cs_error *err, bool bind)
{
    const char *path = write_tmp(text);
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
    load_bound("mappings/new.ini", &m);
    cr_expect_str_eq(m.ruleset, "generic");
    cr_expect_str_eq(m.game_system_id, "gs-new");
    cr_expect_eq(m.n_chars, 1);
    cr_expect_str_eq(m.chars[0].name, "Adv");
    cr_expect(m.chars[0].required);
    cr_expect_eq(m.n_fixed, 1);
    cr_expect_eq(m.speed_param, cs_ruleset_param_index(m.rs, "move"));

    load_bound("mappings/old.ini", &m);
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
        if (cs_ruleset_find(maps[i].ruleset))
            cr_expect_eq(st, CS_OK, "%s", err.msg);
        else
            cr_expect(st == CS_EINPUT && strstr(err.msg, "is not built"), "%s", err.msg);
    }
    free(maps);
}

/* ---- BattleScribe ------------------------------------------------------ */

Test(units, battlescribe_2_03_text_values_links_and_shared_profiles)
{
    cs_units_mapping m;
    load_bound("mappings/new.ini", &m);
    cs_units u = {0};
    cs_error err = {0};
    cr_assert_eq(cs_units_read_bs(data("new.cat"), &m, &u, &err), CS_OK, "%s", err.msg);

    /* Five units, in the order met: the two root links first, then the
     * catalogue's entries. */
    const char *names[] = {"Linked Hero", "Warband", "Swordsmen", "Knight", "Flier"};
    cr_assert_eq(u.n, 5);
    for (int i = 0; i < 5; i++)
        cr_expect_str_eq(u.unit[i].name, names[i]);

    /* A game-system unit reached by a root entry link, its Adv in a shared
     * profile of the game system behind an info link. */
    const cs_unit *hero = find_unit(&u, "Linked Hero");
    cr_expect_str_eq(value(hero, "move"), "5");
    cr_expect_str_eq(hero->id, "se-hero");
    cr_expect(strstr(hero->file, "new.gst"));
    cr_expect_eq(hero->points, 120.0);
    cr_expect_str_eq(hero->catalogue, "Test Army");
    /* Models as children: nested (Swordsmen, min 10 at 10 pts + 50) and
     * linked from a group to a shared library (Warband, min 5 on the link at
     * 12 pts + 20). The library model is not a unit of its own. */
    const cs_unit *sw = find_unit(&u, "Swordsmen");
    cr_expect_str_eq(value(sw, "move"), "4");
    cr_expect_eq(sw->points, 50.0 + 10.0 * 10.0);
    cr_expect_str_eq(sw->base, "20×20");
    cr_expect_str_eq(value(find_unit(&u, "Warband"), "move"), "6");
    cr_expect_eq(find_unit(&u, "Warband")->points, 20.0 + 5.0 * 12.0);
    cr_expect_null(find_unit(&u, "Warrior"));
    /* The Knight's Horse is an upgrade: its 9" is not the Knight's. */
    cr_expect_str_eq(value(find_unit(&u, "Knight"), "move"), "7");
    /* `2" (9")`: the ground rate, as the mapping keeps alternate = no. */
    cr_expect_str_eq(value(find_unit(&u, "Flier"), "move"), "2");
    cr_expect_str_eq(find_unit(&u, "Flier")->value[0].raw, "2\" (9\")");
    cr_expect_null(find_unit(&u, "Never Linked"), "a game-system unit no link reaches");

    /* Left out, each named with what is wrong and where. */
    cr_assert_eq(u.n_notes, 4);
    const cs_unit_note *n = find_note(&u, "Random Beast");
    cr_expect(n->kind == CS_UNIT_SKIPPED && n->problem == CS_UNIT_INVALID);
    cr_expect_eq(n->line, 73);
    cr_expect(strstr(n->what, "Adv `3D6` is not a distance"), "%s", n->what);
    n = find_note(&u, "Ghost");
    cr_expect(n->problem == CS_UNIT_MISSING && strcmp(n->what, "lacks Adv") == 0, "%s", n->what);
    n = find_note(&u, "Gremlin");
    cr_expect_eq(n->problem, CS_UNIT_CONFLICT);
    cr_expect(strstr(n->what, "`Standard`") && strstr(n->what, "`5\"`"), "%s", n->what);
    n = find_note(&u, "War Engine");
    cr_expect(n->problem == CS_UNIT_MISSING && strstr(n->what, "(`-`)"), "%s", n->what);
    cs_units_free(&u);
}

Test(units, battlescribe_2_01_value_attributes_and_melee_profiles)
{
    cs_units_mapping m;
    load_bound("mappings/old.ini", &m);
    cs_units u = {0};
    cs_error err = {0};
    cr_assert_eq(cs_units_read_bs(data("old.cat"), &m, &u, &err), CS_OK, "%s", err.msg);
    cr_assert_eq(u.n, 4);
    const cs_unit *g = find_unit(&u, "Guardsmen");
    cr_expect_str_eq(value(g, "speed"), "5");
    cr_expect_str_eq(value(g, "hit"), "3");
    cr_expect_str_eq(value(g, "attack_dice"), "7");
    cr_expect_eq(g->points, 7.0, "the \" Points\" cost, names compared trimmed");
    cr_expect(g->complete);
    /* Two attacks: only the Melee one is the charge attack. */
    const cs_unit *a = find_unit(&u, "Archers");
    cr_expect_str_eq(value(a, "attack_dice"), "5");
    cr_expect_str_eq(value(a, "speed"), "5", "`5` without the inch mark");
    /* Two melee attacks: kept for its charge odds, its attack not guessed. */
    const cs_unit *x = find_unit(&u, "Axemen");
    cr_expect_not(x->complete);
    cr_expect_null(value(x, "hit"));
    const cs_unit_note *n = find_note(&u, "Axemen");
    cr_expect(n->kind == CS_UNIT_INCOMPLETE && n->problem == CS_UNIT_CONFLICT);
    /* A game-system unit with its attack in a shared profile. */
    const cs_unit *merc = find_unit(&u, "Mercenaries");
    cr_expect_str_eq(value(merc, "speed"), "6");
    cr_expect_str_eq(value(merc, "hit"), "4");
    cr_expect(merc->complete);
    n = find_note(&u, "Lord");
    cr_expect(n->kind == CS_UNIT_SKIPPED && strcmp(n->what, "lacks Speed") == 0, "%s", n->what);
    cs_units_free(&u);
}

Test(units, battlescribe_errors_name_file_line_and_element)
{
    cs_units_mapping m;
    load_bound("mappings/new.ini", &m);
    cs_units u = {0};
    cs_error err = {0};
    cr_expect_eq(cs_units_read_bs(data("broken.cat"), &m, &u, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, "broken.cat:9: malformed XML") && strstr(err.msg, "characteristic"),
              "%s", err.msg);
    cr_expect_eq(cs_units_read_bs(data("badlink.cat"), &m, &u, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, "badlink.cat:4: <entryLink> `Nowhere`") &&
                  strstr(err.msg, "no-such-id"),
              "%s", err.msg);
    cr_expect_eq(cs_units_read_bs(data("nothing-here.cat"), &m, &u, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, "nothing-here.cat"), "%s", err.msg);
    /* A catalogue without its game system beside it. */
    char cmd[2048];
    const char *dir = th_tmpdir();
    cr_assert(dir);
    snprintf(cmd, sizeof cmd, "cp %s %s/", data("new.cat"), dir);
    cr_assert_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "%s/new.cat", dir);
    cr_expect_eq(cs_units_read_bs(cmd, &m, &u, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, "no game system file (.gst) with id gs-new"), "%s", err.msg);
    snprintf(cmd, sizeof cmd, "rm -r %s", dir);
    cr_expect_eq(system(cmd), 0);
    cr_expect_eq(u.n, 0);
    cs_units_free(&u);
}

/* ---- units CSV --------------------------------------------------------- */

static cs_units_mapping csv_maps[2];

static cs_status read_csv(const char *name, cs_units *u, cs_error *err)
{
    cs_error e = {0};
    cr_assert_eq(cs_units_mapping_load(data("mappings/new.ini"), &csv_maps[0], &e), CS_OK);
    cr_assert_eq(cs_units_mapping_load(data("mappings/old.ini"), &csv_maps[1], &e), CS_OK);
    return cs_units_read_csv(data(name), csv_maps, 2, NULL, u, err);
}

Test(units, csv_rows)
{
    cs_units u = {0};
    cs_error err = {0};
    cr_assert_eq(read_csv("units.csv", &u, &err), CS_OK, "%s", err.msg);
    cr_assert_eq(u.n, 5);
    const cs_unit *f = find_unit(&u, "Footmen");
    cr_expect_str_eq(f->map->rs->name, "generic");
    cr_expect_str_eq(value(f, "move"), "4");
    cr_expect_eq(f->points, 100.0);
    cr_expect_str_eq(f->base, "20x20");
    cr_expect_eq(f->line, 2);
    cr_expect_str_eq(value(find_unit(&u, "Knights, Heavy"), "move"), "7", "a quoted 7\"");
    const cs_unit *s = find_unit(&u, "Swift Riders");
    cr_expect_not(s->has_points);
    cr_expect_str_eq(value(s, "dice"), "3d6dl1", "a column the mapping does not feed");
    const cs_unit *sp = find_unit(&u, "Spearmen");
    cr_expect_str_eq(sp->map->rs->name, "asoiaf");
    cr_expect_str_eq(value(sp, "hit"), "4");
    cr_expect(sp->complete);
    cr_expect_not(find_unit(&u, "Scouts")->complete);
    const cs_unit_note *n = find_note(&u, "Statue");
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
    const char *p = write_tmp("ruleset,move\ngeneric,4\n");
    cr_expect_eq(cs_units_read_csv(p, csv_maps, 2, NULL, &u, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, ":1: no `name` column"), "%s", err.msg);
    p = write_tmp("name,move\nFootmen,4\n");
    cr_expect_eq(cs_units_read_csv(p, csv_maps, 2, "asoiaf", &u, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, ":2: column `move` is not a parameter of ruleset asoiaf"), "%s",
              err.msg);
    cr_expect_eq(cs_units_read_csv(p, csv_maps, 2, "generic", &u, &err), CS_OK, "%s", err.msg);
    cr_expect_eq(u.n, 1, "--rules stands in for a missing ruleset column");
    p = write_tmp("");
    cr_expect_eq(cs_units_read_csv(p, csv_maps, 2, NULL, &u, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, ":1: empty file"), "%s", err.msg);
    cs_units_free(&u);
    /* A spreadsheet's UTF-8 export starts with a byte order mark: skipped,
     * so the first column is still `name` (it read as "\xef\xbb\xbfname"). */
    cs_units v = {0};
    p = write_tmp("\xef\xbb\xbfname,ruleset,move\nFootmen,generic,4\n");
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
    const cs_unit *un = find_unit(u, unit);
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
    cr_expect(r.has_reach[0] && r.reach[0] == 11.0, "%g", r.reach[0]);
    cr_expect(r.has_reach[1] && r.reach[1] == 9.0, "%g", r.reach[1]);
    cr_expect(r.has_reach[2] && r.reach[2] == 8.0, "%g", r.reach[2]);
    /* +1 move adds P(2D6 = d - 5) at each d; over d = 1..24 those are all
     * eleven sums 2..12, whose probabilities add to 1: the mean is 1/24. */
    cr_expect(r.has_plus1);
    cr_expect_float_eq(r.plus1, 1.0 / 24.0, EXACT);
    cr_expect(r.has_ppi);
    cr_expect_float_eq(r.points_per_inch, 100.0 / 9.0, EXACT);

    /* The reach scan continues past the table's end: same reach on 1..5. */
    analyse(&u, "Footmen", "1..5", NULL, &r, p);
    cr_expect_eq(r.reach[0], 11.0);
    /* and a table starting beyond the 90% reach has none. */
    analyse(&u, "Footmen", "10..12", NULL, &r, p);
    cr_expect(r.has_reach[0] && r.reach[0] == 11.0);
    cr_expect_not(r.has_reach[1]);
    cr_expect_not(r.has_reach[2]);
    cr_expect_not(r.has_ppi);

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
    load_bound("mappings/old.ini", &m);
    cs_units u = {0};
    cs_error err = {0};
    cr_assert_eq(cs_units_read_bs(data("old.cat"), &m, &u, &err), CS_OK, "%s", err.msg);
    cs_unit_result r;
    double p[CS_UNITS_MAX_GRID];
    /* Guardsmen: speed 5 + D6 >= d; p = 1 to 6", (12 - d)/6 from 6" to 12". */
    analyse(&u, "Guardsmen", "1..12", NULL, &r, p);
    for (int d = 1; d <= 12; d++)
        cr_expect_float_eq(p[d - 1], d <= 6 ? 1.0 : (double)(12 - d) / 6.0, EXACT, "d = %d", d);
    cr_expect_eq(r.reach[0], 9.0);
    cr_expect_eq(r.reach[1], 7.0);
    cr_expect_eq(r.reach[2], 6.0);
    /* +1 speed adds P(D6 = d - 6) at d = 7..12: 6 x 1/6 over 12 distances. */
    cr_expect_float_eq(r.plus1, 1.0 / 12.0, EXACT);
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
        if (u->value[i].param == u->map->speed_param)
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
    cs_run_result_free(&r);
    cs_experiment_free(&e);
}

/* The table's p_success, reach and +1 speed are the driver's exact method's
 * numbers, for every test unit of both rulesets. */
Test(units, table_equals_the_exact_method)
{
    cs_units_mapping m;
    load_bound("mappings/old.ini", &m);
    cs_units u = {0};
    cs_error err = {0};
    cr_assert_eq(cs_units_read_bs(data("old.cat"), &m, &u, &err), CS_OK, "%s", err.msg);
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
        double rise = 0.0;
        for (int k = 0; k < n; k++) {
            cr_expect_float_eq(p[k], base[k], EXACT, "%s at %d", un->name, k + 1);
            rise += plus[k] - base[k];
        }
        cr_expect_float_eq(r.plus1, rise / (double)n, EXACT, "%s", un->name);
        for (int q = 0; q < CS_UNITS_N_REACH; q++) {
            /* Every unit here reaches each level at 1" and falls below it
             * within 24", so the reach is read off the driver's sweep. */
            int k = 0;
            while (k + 1 < n && base[k + 1] >= cs_units_reach_levels[q])
                k++;
            cr_expect(r.has_reach[q] && r.reach[q] == (double)(k + 1), "%s reach %d: %g", un->name,
                      q, r.reach[q]);
        }
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
    cr_expect_eq(cs_units_analyse(find_unit(&u, "Footmen"), &s, &g, &r, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, "--set"), "%s", err.msg);
    /* A value a unit carries that the experiment model refuses. */
    cs_units_free(&u);
    cr_assert_eq(read_csv("bad_dice.csv", &u, &err), CS_OK, "%s", err.msg);
    cs_units_sets none = {0};
    cr_expect_eq(cs_units_analyse(find_unit(&u, "Odd Ones"), &none, &g, &r, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, "bad_dice.csv:3: dice = '2q6'"), "%s", err.msg);
    cs_units_free(&u);
}

/* ---- the command ------------------------------------------------------- */

/* Runs `chargesim units` in-process with a NULL-terminated argument list. */
static int run_units(const char *const *args)
{
    char *argv[32];
    int argc = 0;
    static char store[32][1200];
    for (; args[argc]; argc++) {
        snprintf(store[argc], sizeof store[argc], "%s", args[argc]);
        argv[argc] = store[argc];
    }
    return cs_cli_units(argc, argv);
}

Test(units, command)
{
    char maps[1200], out[] = "/tmp/chargesim-units-out-XXXXXX";
    snprintf(maps, sizeof maps, "%s", data("mappings"));
    close(mkstemp(out));
    unlink(out);
    cr_expect_eq(run_units((const char *const[]){"--help", NULL}), 0);
    const char *good[] = {data("new.cat"), "--mapping", maps, "-o", out, "--quiet", NULL};
    cr_assert_eq(run_units(good), 0);
    char *text = th_slurp(out, NULL);
    cr_assert_not_null(text);
    cr_expect(strncmp(text, "catalogue,name,ruleset,points,base,move,reach_50,", 49) == 0, "%s",
              text);
    cr_expect(strstr(text, "Test Army,Swordsmen,generic,150,20×20,4,11,9,8,0.041667,"), "%s", text);
    int lines = 0;
    for (char *c = text; *c; c++)
        lines += *c == '\n';
    cr_expect_eq(lines, 6, "header and five units");
    unlink(out);

    /* Malformed input: status 2 and no output file at all. */
    const char *broken[] = {data("broken.cat"), "--mapping", maps, "-o", out, NULL};
    cr_expect_eq(run_units(broken), 2);
    cr_expect_neq(access(out, F_OK), 0);
    const char *bad_csv[] = {data("bad_value.csv"), "--mapping", maps, "-o", out, NULL};
    cr_expect_eq(run_units(bad_csv), 2);
    cr_expect_neq(access(out, F_OK), 0);
    const char *bad_set[] = {data("units.csv"), "--mapping", maps, "--set",
                             "move=5",          "-o",        out,  NULL};
    cr_expect_eq(run_units(bad_set), 2);
    cr_expect_neq(access(out, F_OK), 0);
    const char *bad_range[] = {data("units.csv"), "--mapping", maps, "--distance", "9..1", NULL};
    cr_expect_eq(run_units(bad_range), 2);
    cr_expect_eq(run_units((const char *const[]){data("units.csv"), "--frobnicate", NULL}), 2);
    cr_expect_eq(run_units((const char *const[]){data("units.csv"), "--format", "xls", NULL}), 2);
    cr_expect_eq(run_units((const char *const[]){"units.txt", "--mapping", maps, NULL}), 2);
    cr_expect_eq(run_units((const char *const[]){NULL}), 2);

    /* Markdown: percentages, one row per unit. */
    const char *md[] = {data("old.cat"), "--mapping", maps, "--format", "md", "--distance",
                        "6..8",          "-o",        out,  "--quiet",  NULL};
    cr_assert_eq(run_units(md), 0);
    free(text);
    text = th_slurp(out, NULL);
    cr_expect(strstr(text, "| Old House | Guardsmen | asoiaf | 7 | - | 5 | 3 | 7 | 9 | 7 | 6 |"),
              "%s", text);
    cr_expect(strstr(text, "| 100.0 | 83.3 | 66.7 |"), "%s", text);
    free(text);
    unlink(out);
}

/* ---- every catalogue under ../shared/data, against XPath --------------- */

/* The independent count: units found by XPath queries, following links by
 * id lookups, with no code shared with the reader but the value parser. */
typedef struct xdoc {
    xmlDocPtr doc;
    xmlXPathContextPtr ctx;
} xdoc;

#define SE "*[local-name()='selectionEntry']"
#define UNIT "[@type='unit' or @type='model']"

static xmlXPathObjectPtr xq(xdoc *d, xmlNodePtr at, const char *expr)
{
    d->ctx->node = at ? at : xmlDocGetRootElement(d->doc);
    xmlXPathObjectPtr o = xmlXPathEvalExpression((const xmlChar *)expr, d->ctx);
    cr_assert_not_null(o, "%s", expr);
    return o;
}

static int nodes(xmlXPathObjectPtr o)
{
    return o->nodesetval ? o->nodesetval->nodeNr : 0;
}

static void text_of(xmlNodePtr n, char *buf, size_t cap)
{
    xmlChar *v = xmlGetProp(n, (const xmlChar *)"value");
    if (!v)
        v = xmlNodeGetContent(n);
    const char *s = v ? (const char *)v : "";
    while (*s == ' ')
        s++;
    snprintf(buf, cap, "%s", s);
    size_t len = strlen(buf);
    while (len > 0 && buf[len - 1] == ' ')
        buf[--len] = '\0';
    xmlFree(v);
}

/* The element with id `id` in the catalogue, else the game system. */
static xmlNodePtr by_id(xdoc *cat, xdoc *gst, const char *id)
{
    char expr[256];
    snprintf(expr, sizeof expr, "//*[@id='%s']", id);
    xdoc *docs[2] = {cat, gst};
    for (int k = 0; k < 2; k++) {
        xmlXPathObjectPtr o = xq(docs[k], NULL, expr);
        xmlNodePtr n = nodes(o) ? o->nodesetval->nodeTab[0] : NULL;
        xmlXPathFreeObject(o);
        if (n)
            return n;
    }
    return NULL;
}

typedef struct texts {
    int n;
    char t[8][64];
} texts;

static void add_text(texts *v, const char *t)
{
    for (int i = 0; i < v->n; i++)
        if (strcmp(v->t[i], t) == 0)
            return;
    if (v->n < 8)
        snprintf(v->t[v->n++], sizeof v->t[0], "%s", t);
}

/* The characteristic's texts in an entry's own profiles and info-linked ones. */
static void own_texts(xdoc *cat, xdoc *gst, xmlNodePtr e, const char *key, texts *v)
{
    char expr[256], buf[64];
    xdoc *d = e->doc == cat->doc ? cat : gst;
    snprintf(expr, sizeof expr,
             "./*[local-name()='profiles']/*[local-name()='profile']//"
             "*[local-name()='characteristic'][@name='%s']",
             key);
    xmlXPathObjectPtr o = xq(d, e, expr);
    for (int i = 0; i < nodes(o); i++) {
        text_of(o->nodesetval->nodeTab[i], buf, sizeof buf);
        add_text(v, buf);
    }
    xmlXPathFreeObject(o);
    o = xq(d, e, "./*[local-name()='infoLinks']/*[local-name()='infoLink'][@type='profile']");
    for (int i = 0; i < nodes(o); i++) {
        xmlChar *t = xmlGetProp(o->nodesetval->nodeTab[i], (const xmlChar *)"targetId");
        xmlNodePtr p = by_id(cat, gst, (const char *)t);
        xmlFree(t);
        cr_assert_not_null(p);
        xdoc *pd = p->doc == cat->doc ? cat : gst;
        snprintf(expr, sizeof expr, ".//*[local-name()='characteristic'][@name='%s']", key);
        xmlXPathObjectPtr c = xq(pd, p, expr);
        for (int j = 0; j < nodes(c); j++) {
            text_of(c->nodesetval->nodeTab[j], buf, sizeof buf);
            add_text(v, buf);
        }
        xmlXPathFreeObject(c);
    }
    xmlXPathFreeObject(o);
}

/* Own texts, those of nested model entries, and of linked model entries. */
static void unit_texts(xdoc *cat, xdoc *gst, xmlNodePtr u, const char *key, texts *v)
{
    xdoc *d = u->doc == cat->doc ? cat : gst;
    own_texts(cat, gst, u, key, v);
    xmlXPathObjectPtr o = xq(d, u, ".//" SE "[@type='model']");
    for (int i = 0; i < nodes(o); i++)
        own_texts(cat, gst, o->nodesetval->nodeTab[i], key, v);
    xmlXPathFreeObject(o);
    o = xq(d, u, ".//*[local-name()='entryLink']");
    for (int i = 0; i < nodes(o); i++) {
        xmlChar *t = xmlGetProp(o->nodesetval->nodeTab[i], (const xmlChar *)"targetId");
        xmlNodePtr e = by_id(cat, gst, (const char *)t);
        xmlFree(t);
        xmlChar *type = e ? xmlGetProp(e, (const xmlChar *)"type") : NULL;
        if (type && strcmp((const char *)type, "model") == 0)
            own_texts(cat, gst, e, key, v);
        xmlFree(type);
    }
    xmlXPathFreeObject(o);
}

static bool open_xdoc(const char *path, xdoc *d)
{
    d->doc = xmlReadFile(path, NULL, XML_PARSE_NONET | XML_PARSE_NOERROR | XML_PARSE_NOWARNING);
    d->ctx = d->doc ? xmlXPathNewContext(d->doc) : NULL;
    return d->ctx != NULL;
}

static void close_xdoc(xdoc *d)
{
    if (d->ctx)
        xmlXPathFreeContext(d->ctx);
    if (d->doc)
        xmlFreeDoc(d->doc);
}

typedef struct idlist {
    int n;
    char id[1024][64];
} idlist;

static bool has_id(const idlist *l, const char *id)
{
    for (int i = 0; i < l->n; i++)
        if (strcmp(l->id[i], id) == 0)
            return true;
    return false;
}

/* Checks one catalogue: the units XPath finds with the key characteristic
 * are exactly the table's rows plus the units left out for an unreadable or
 * contradictory value; each row once, with the value the XML holds. */
static void check_catalogue(const char *cat_path, const char *gst_path, const cs_units_mapping *m,
                            const char *key, int *rows_total)
{
    xdoc cat = {0}, gst = {0};
    cr_assert(open_xdoc(cat_path, &cat), "%s", cat_path);
    cr_assert(open_xdoc(gst_path, &gst), "%s", gst_path);
    idlist *expected = calloc(1, sizeof *expected), *readable = calloc(1, sizeof *readable);
    texts *vals = calloc(1024, sizeof *vals);
    xmlNodePtr cand[1024];
    int nc = 0;

    /* Units of the catalogue: not nested in a unit, not a unit's linked
     * model; then game-system units a link outside any unit reaches. */
    xmlXPathObjectPtr o = xq(&cat, NULL, "//" SE UNIT "[not(ancestor::" SE UNIT ")]");
    xmlXPathObjectPtr linked =
        xq(&cat, NULL, "//" SE UNIT "//*[local-name()='entryLink']/@targetId");
    for (int i = 0; i < nodes(o); i++) {
        xmlNodePtr e = o->nodesetval->nodeTab[i];
        xmlChar *id = xmlGetProp(e, (const xmlChar *)"id");
        bool child = false;
        for (int j = 0; j < nodes(linked); j++) {
            xmlChar *t = xmlNodeGetContent(linked->nodesetval->nodeTab[j]);
            child = child || strcmp((const char *)t, (const char *)id) == 0;
            xmlFree(t);
        }
        xmlFree(id);
        if (!child)
            cand[nc++] = e;
    }
    xmlXPathFreeObject(o);
    xmlXPathFreeObject(linked);
    o = xq(&cat, NULL, "//*[local-name()='entryLink'][not(ancestor::" SE UNIT ")]/@targetId");
    for (int i = 0; i < nodes(o); i++) {
        xmlChar *t = xmlNodeGetContent(o->nodesetval->nodeTab[i]);
        char expr[256];
        snprintf(expr, sizeof expr, "//" SE UNIT "[@id='%s']", (const char *)t);
        xmlFree(t);
        xmlXPathObjectPtr g = xq(&gst, NULL, expr);
        for (int j = 0; j < nodes(g); j++) {
            bool dup = false;
            for (int k = 0; k < nc; k++)
                dup = dup || cand[k] == g->nodesetval->nodeTab[j];
            if (!dup)
                cand[nc++] = g->nodesetval->nodeTab[j];
        }
        xmlXPathFreeObject(g);
    }
    xmlXPathFreeObject(o);

    for (int i = 0; i < nc; i++) {
        unit_texts(&cat, &gst, cand[i], key, &vals[i]);
        xmlChar *id = xmlGetProp(cand[i], (const xmlChar *)"id");
        double num;
        bool absent;
        const char *why;
        if (vals[i].n > 0)
            snprintf(expected->id[expected->n++], 64, "%s", (const char *)id);
        if (vals[i].n == 1 && cs_units_parse_value(vals[i].t[0], CS_UNITS_INCHES,
                                                   m->chars[0].alternate, &num, &absent, &why))
            snprintf(readable->id[readable->n++], 64, "%s", (const char *)id);
        xmlFree(id);
    }

    cs_units u = {0};
    cs_error err = {0};
    cr_assert_eq(cs_units_read_bs(cat_path, m, &u, &err), CS_OK, "%s", err.msg);
    /* Rows: exactly the units whose one value reads, each once, with it. */
    cr_expect_eq(u.n, readable->n, "%s: %d rows, XPath finds %d units with a readable %s", cat_path,
                 u.n, readable->n, key);
    for (int i = 0; i < u.n; i++) {
        cr_expect(has_id(readable, u.unit[i].id), "%s: row %s (%s) not found by XPath", cat_path,
                  u.unit[i].name, u.unit[i].id);
        for (int j = 0; j < i; j++)
            cr_expect(strcmp(u.unit[i].id, u.unit[j].id) != 0, "%s: %s twice", cat_path,
                      u.unit[i].name);
        for (int k = 0; k < nc; k++) {
            xmlChar *id = xmlGetProp(cand[k], (const xmlChar *)"id");
            if (strcmp((const char *)id, u.unit[i].id) == 0)
                cr_expect_str_eq(u.unit[i].value[0].raw, vals[k].t[0], "%s: %s", cat_path,
                                 u.unit[i].name);
            xmlFree(id);
        }
    }
    /* Left out for an unreadable or contradictory value: the rest of the
     * units that have the characteristic. */
    int with_value_left_out = 0;
    for (int i = 0; i < u.n_notes; i++) {
        const cs_unit_note *n = &u.note[i];
        if (n->kind == CS_UNIT_SKIPPED && n->problem != CS_UNIT_MISSING) {
            with_value_left_out++;
            cr_expect(has_id(expected, n->id) && !has_id(readable, n->id), "%s: note %s", cat_path,
                      n->name);
        }
    }
    cr_expect_eq(u.n + with_value_left_out, expected->n,
                 "%s: %d rows + %d left out, XPath finds %d units with %s", cat_path, u.n,
                 with_value_left_out, expected->n, key);
    *rows_total += u.n;
    cs_units_free(&u);
    free(vals);
    free(expected);
    free(readable);
    close_xdoc(&cat);
    close_xdoc(&gst);
}

static bool game_system_of_dir(const char *dir, char *gst, size_t cap)
{
    DIR *d = opendir(dir);
    if (!d)
        return false;
    bool found = false;
    for (struct dirent *e; !found && (e = readdir(d));) {
        size_t n = strlen(e->d_name);
        if (n > 4 && strcmp(e->d_name + n - 4, ".gst") == 0) {
            snprintf(gst, cap, "%s/%s", dir, e->d_name);
            found = true;
        }
    }
    closedir(d);
    return found;
}

Test(units, every_shared_catalogue_against_xpath, .timeout = 60)
{
    char shared[1200];
    const char *root = getenv("CS_ROOT");
    snprintf(shared, sizeof shared, "%s/../shared/data", root ? root : ".");
    struct stat sb;
    if (stat(shared, &sb) != 0) {
        /* A skip, not a warning: Criterion exits 1 after any cr_log_warn. */
        cr_skip_test("%s is absent: the shared-data integration test is skipped", shared);
    }
    /* The shipped mappings where their ruleset is built in; for T9A before
     * the t9a ruleset exists, the same reading through generic (2D6 + Adv,
     * edition 2's range), so the catalogues are still read and counted. */
    cs_units_mapping asoiaf, t9a;
    cs_error err = {0};
    char path[1400];
    snprintf(path, sizeof path, "%s/experiments/mappings/asoiaf.ini", root ? root : ".");
    cr_assert_eq(cs_units_mapping_load(path, &asoiaf, &err), CS_OK, "%s", err.msg);
    cr_assert_eq(cs_units_mapping_bind(&asoiaf, &err), CS_OK, "%s", err.msg);
    snprintf(path, sizeof path, "%s/experiments/mappings/t9a-2nd.ini", root ? root : ".");
    cr_assert_eq(cs_units_mapping_load(path, &t9a, &err), CS_OK, "%s", err.msg);
    if (cs_units_mapping_bind(&t9a, &err) != CS_OK) {
        const char *p = write_tmp("[units]\nruleset = generic\n"
                                  "game_system_id = aa64-1e8e-66fc-9abf\ncost = pts\n"
                                  "speed = move\n[fixed]\ndice = 2d6\n"
                                  "[characteristic Adv]\nparam = move\nformat = inches\n");
        cr_assert_eq(cs_units_mapping_load(p, &t9a, &err), CS_OK, "%s", err.msg);
        cr_assert_eq(cs_units_mapping_bind(&t9a, &err), CS_OK, "%s", err.msg);
        unlink(p);
    }
    const struct {
        const char *dir, *key;
        cs_units_mapping *m;
        int min_rows;
    } sets[] = {{"bsdata-asoiaf", "Speed", &asoiaf, 30}, {"bsdata-t9a-2nd", "Adv", &t9a, 100}};
    for (size_t s = 0; s < 2; s++) {
        char dir[1400], gst[1700];
        snprintf(dir, sizeof dir, "%s/%s", shared, sets[s].dir);
        cr_assert(game_system_of_dir(dir, gst, sizeof gst), "no .gst in %s", dir);
        static const char *const cat[] = {".cat", NULL};
        char(*files)[CS_UNITS_PATH];
        int n, rows = 0;
        cr_assert_eq(cs_units_list_files(dir, cat, &files, &n, &err), CS_OK, "%s", err.msg);
        for (int i = 0; i < n; i++)
            check_catalogue(files[i], gst, sets[s].m, sets[s].key, &rows);
        free(files);
        cr_expect_gt(n, 0);
        cr_expect_geq(rows, sets[s].min_rows, "%s: only %d rows", sets[s].dir, rows);
    }
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
