/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The unit table as a user reads it (issue 28, section 4): a units CSV gives
 * its ruleset's parameters as `units --help` says (a t9a CSV in either
 * edition), every table names the ruleset's edition or preset and the
 * mapping, its metadata records each input's SHA-256, unknown points are
 * empty (never 0), and the metrics are properties of the unit, not of
 * --distance. Through the command, as a user runs it. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/sha256.h"
#include "support/helpers.h"

/* Runs `chargesim units ARGS --mapping <the shipped mappings>`; stdout and
 * stderr into *out and *err (malloc'd). */
static int units(const char *args, char **out, char **err)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "units %s --mapping '%s/experiments/mappings'", args, th_root());
    return th_cli(cmd, out, err);
}

/* A t9a units CSV in edition 3 (the ruleset's default) gives Charge Speed,
 * in edition 2 Advance Rate; the other edition's column is refused, not
 * ignored, and a row with neither is left out. Exact values: D6 + 4 + 2
 * reaches 8" with 5/6; 2D6 + 5 reaches 8" with 35/36. */
Test(units_table, t9a_csv_in_either_edition)
{
    char *out, *err;
    char cmd[1200];
    snprintf(
        cmd, sizeof cmd, "'%s' --distance 8 --format md",
        th_write_file(th_tmpdir(), "e3.csv", "name,ruleset,charge_speed,points\nA,t9a,2,100\n"));
    cr_assert_eq(units(cmd, &out, &err), 0, "%s", err);
    cr_expect(strstr(out, "(t9a edition 3, mapping t9a.ini;"), "%s", out);
    cr_expect(strstr(out, "| A | t9a | 100 | - | 2 |") && strstr(out, "| 83.33 |"), "%s", out);
    free(out);
    free(err);

    snprintf(
        cmd, sizeof cmd, "'%s' --distance 8 --format md",
        th_write_file(th_tmpdir(), "e2.csv", "name,ruleset,advance_rate,edition\nB,t9a,5,2\n"));
    cr_assert_eq(units(cmd, &out, &err), 0, "%s", err);
    cr_expect(strstr(out, "(t9a edition 2, mapping t9a.ini;"), "%s", out);
    cr_expect(strstr(out, "| 97.22 |"), "%s", out);
    free(out);
    free(err);

    /* Advance Rate under edition 3 would be ignored: refused. With --set
     * edition=2 the same file is read in edition 2. */
    const char *adv = th_write_file(th_tmpdir(), "adv.csv", "name,ruleset,advance_rate\nC,t9a,5\n");
    snprintf(cmd, sizeof cmd, "'%s' --distance 8", adv);
    cr_expect_eq(units(cmd, &out, &err), 2);
    cr_expect(strstr(err, "adv.csv:2: column `advance_rate` applies only when edition = 2; here "
                          "edition = 3 (the ruleset's default)"),
              "%s", err);
    cr_expect_str_eq(out, "");
    free(out);
    free(err);
    snprintf(cmd, sizeof cmd, "'%s' --distance 8 --set edition=2 --format md", adv);
    cr_expect_eq(units(cmd, &out, &err), 0, "%s", err);
    cr_expect(strstr(out, "(t9a edition 2, mapping t9a.ini;") && strstr(out, "| 97.22 |"), "%s",
              out);
    free(out);
    free(err);

    snprintf(
        cmd, sizeof cmd, "'%s' --distance 8",
        th_write_file(th_tmpdir(), "cha2.csv", "name,ruleset,charge_speed,edition\nD,t9a,1,2\n"));
    cr_expect_eq(units(cmd, &out, &err), 2);
    cr_expect(strstr(err, "column `charge_speed` applies only when edition = 3; here edition = 2 "
                          "(the unit's own)"),
              "%s", err);
    free(out);
    free(err);

    snprintf(cmd, sizeof cmd, "'%s' --distance 8",
             th_write_file(th_tmpdir(), "none.csv", "name,ruleset,points\nE,t9a,10\n"));
    cr_expect_eq(units(cmd, &out, &err), 2);
    cr_expect(strstr(err, "unit `E` left out: lacks charge_speed"), "%s", err);
    free(out);
    free(err);
}

/* The heading names each ruleset's edition or preset and its mapping. */
Test(units_table, tables_name_the_edition_or_preset_and_the_mapping)
{
    struct {
        const char *args, *want;
    } cases[] = {
        {"'%s/data/bsdata-t9a-2nd/2nd-dreadElves.cat'", "(t9a edition 2, mapping t9a-2nd.ini;"},
        {"'%s/data/bsdata-asoiaf/House_Stark.cat'", "(asoiaf, mapping asoiaf.ini;"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char src[1200], cmd[1400], *out, *err;
        snprintf(src, sizeof src, cases[i].args, th_root());
        snprintf(cmd, sizeof cmd, "%s --distance 8 --format md --quiet", src);
        cr_assert_eq(units(cmd, &out, &err), 0, "%s", err);
        cr_expect(strstr(out, cases[i].want), "%s: %.300s", cases[i].want, out);
        free(out);
        free(err);
    }
    char cmd[1400], *out, *err;
    snprintf(cmd, sizeof cmd, "'%s' --distance 8 --format md",
             th_write_file(th_tmpdir(), "g.csv",
                           "name,ruleset,move,preset\nF,generic,5,tow\nG,generic,4,\n"));
    cr_assert_eq(units(cmd, &out, &err), 0, "%s", err);
    cr_expect(strstr(out, "(generic preset tow, mapping generic.ini; generic preset none, "
                          "mapping generic.ini;"),
              "%s", out);
    free(out);
    free(err);
}

/* The metadata names every file read, the catalogue, its game system and
 * the mapping, each with the SHA-256 of its bytes. */
Test(units_table, metadata_records_each_input_and_its_sha256)
{
    char cmd[1400], *out, *err, csv[1024], meta[1100];
    snprintf(csv, sizeof csv, "%s/stark.csv", th_tmpdir());
    snprintf(cmd, sizeof cmd, "'%s/data/bsdata-asoiaf/House_Stark.cat' --quiet -o '%s'",
             th_root(), csv);
    cr_assert_eq(units(cmd, &out, &err), 0, "%s", err);
    free(out);
    free(err);
    snprintf(meta, sizeof meta, "%s-metadata.json", csv);
    json_error_t je;
    json_t *root = json_load_file(meta, 0, &je);
    cr_assert_not_null(root, "%s", je.text);
    json_t *u = json_object_get(root, "chargesim:units");
    cr_assert_not_null(u);
    cr_expect_str_eq(json_string_value(json_object_get(u, "rulesets")),
                     "asoiaf, mapping asoiaf.ini");
    json_t *inputs = json_object_get(u, "inputs");
    cr_assert_eq(json_array_size(inputs), 3);
    const char *files[] = {"data/bsdata-asoiaf/House_Stark.cat",
                           "data/bsdata-asoiaf/A_Song_Of_Ice_and_Fire_Miniatures_Game.gst",
                           "experiments/mappings/asoiaf.ini"};
    for (size_t i = 0; i < 3; i++) {
        json_t *in = json_array_get(inputs, i);
        const char *path = json_string_value(json_object_get(in, "path"));
        const char *base = strrchr(files[i], '/') + 1;
        cr_expect(path && strstr(path, base), "%s", path ? path : "(none)");
        char full[1200], hex[65];
        size_t len;
        snprintf(full, sizeof full, "%s/%s", th_root(), files[i]);
        char *bytes = th_slurp(full, &len);
        cr_assert_not_null(bytes);
        cs_sha256_hex(bytes, len, hex);
        free(bytes);
        cr_expect_str_eq(json_string_value(json_object_get(in, "sha256")), hex, "%s", files[i]);
    }
    /* Columns are described, mean_wounds_ordered among them. */
    json_t *cols = json_object_get(json_object_get(root, "tableSchema"), "columns");
    bool found = false;
    for (size_t i = 0; i < json_array_size(cols); i++) {
        json_t *c = json_array_get(cols, i);
        if (strcmp(json_string_value(json_object_get(c, "name")), "mean_wounds_ordered") == 0) {
            found = true;
            cr_expect(strstr(json_string_value(json_object_get(c, "dc:description")),
                             "unsaved hits of an ordered charge"));
        }
    }
    cr_expect(found);
    json_decref(root);
}

/* A catalogue unit whose costs are all 0 (Grey Wind, Summer: they come with
 * Robb and Bran Stark) has unknown points: empty cells, not 0 and not a
 * points_per_inch_75 of 0 that sorts as the best buy; a note says why. */
Test(units_table, unknown_points_are_empty)
{
    char cmd[1400], *out, *err;
    snprintf(cmd, sizeof cmd, "'%s/data/bsdata-asoiaf/House_Stark.cat' --distance 8",
             th_root());
    cr_assert_eq(units(cmd, &out, &err), 0, "%s", err);
    const char *row = strstr(out, "\nHouse Stark,Grey Wind,asoiaf,,");
    cr_assert(row, "%s", out);
    /* catalogue, name, ruleset, points, base, speed, hit, attack_dice,
     * reach_50, reach_75, reach_90, plus1_speed, points_per_inch_75 */
    int commas = 0;
    const char *c = row + 1;
    while (commas < 12 && (c = strchr(c, ',')) != NULL) {
        commas++;
        c++;
    }
    cr_assert_not_null(c);
    cr_expect_eq(*c, ',', "points_per_inch_75 is empty: %.80s", row + 1);
    cr_expect(strstr(err, "unit `Grey Wind` kept, note: points unknown: its costs in the "
                          "catalogue are 0"),
              "%s", err);
    free(out);
    free(err);
}

/* The mean wounds of the charge attack are measured where every roll
 * reaches, just beyond base contact, whatever --distance is: the same
 * number for 1..10, 6..10 and 9..10 (they were 1.77 and 1.875), equal to
 * `chargesim run` at a gap every roll covers. */
Test(units_table, metrics_are_properties_of_the_unit)
{
    const char *ranges[] = {"1..10", "6..10", "9..10"};
    char first[64] = "";
    for (size_t i = 0; i < 3; i++) {
        char cmd[1400], *out, *err;
        snprintf(cmd, sizeof cmd, "'%s/data/bsdata-asoiaf/House_Stark.cat' --quiet --distance %s",
                 th_root(), ranges[i]);
        cr_assert_eq(units(cmd, &out, &err), 0, "%s", err);
        const char *row = strstr(out, "\nHouse Stark,Stark Bowmen,");
        cr_assert(row);
        /* mean_wounds is the 14th column. */
        const char *c = row + 1;
        for (int k = 0; k < 13; k++)
            c = strchr(c, ',') + 1;
        char val[64];
        snprintf(val, sizeof val, "%.*s", (int)strcspn(c, ","), c);
        if (i == 0)
            snprintf(first, sizeof first, "%s", val);
        cr_expect_str_eq(val, first, "--distance %s", ranges[i]);
        free(out);
        free(err);
    }
    char *out, *err;
    cr_assert_eq(th_cli("run - --set experiment.ruleset=asoiaf --set speed=5 --set hit=4 "
                        "--set attack_dice=5 --set distance=0.5",
                        &out, &err),
                 0, "%s", err);
    /* mean_wounds is run's 14th column too, given to 4 decimals. */
    const char *c = strchr(out, '\n') + 1;
    for (int k = 0; k < 13; k++)
        c = strchr(c, ',') + 1;
    cr_expect_lt(fabs(atof(c) - atof(first)), 5e-5, "units %s, run: %s", first, out);
    free(out);
    free(err);
}

/* A catalogue characteristic its `when` does not apply to is not used, and
 * the unit's note says so (a CSV would be refused: t9a_csv_in_either_edition). */
Test(units_table, a_catalogue_value_its_when_excludes_is_noted)
{
    char map[1024], cmd[2400], *out, *err;
    snprintf(map, sizeof map, "%s/m.ini", th_tmpdir());
    snprintf(cmd, sizeof cmd,
             "sed -e '/^required = yes/a when = preset = w40k' '%s/tests/data/units/mappings/new.ini' "
             ">'%s'",
             th_root(), map);
    cr_assert_eq(system(cmd), 0);
    snprintf(cmd, sizeof cmd, "units '%s/tests/data/units/new.cat' --mapping '%s' --distance 8",
             th_root(), map);
    cr_expect_eq(th_cli(cmd, &out, &err), 0, "%s", err);
    cr_expect(strstr(err, "unit `Swordsmen` kept, warning: Adv `4\"` is not used: it applies only "
                          "when preset = w40k, and preset = none (the ruleset's default)"),
              "%s", err);
    free(out);
    free(err);
}
