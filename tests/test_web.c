/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The web edition's C side (include/chargesim/web.h), built natively: a
 * link's pairs give the table, the command line and the refusal that
 * bin/chargesim gives for the command the page shows. The browser itself
 * is tested by make test-web (tests/web/test_web.py). */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/estimator.h"
#include "chargesim/experiment.h"
#include "chargesim/request.h"
#include "chargesim/web.h"
#include "chargesim/webkeys.h"
#include "support/helpers.h"

static json_t *result;
static char *out, *err;

static void release(void)
{
    json_decref(result);
    free(out);
    free(err);
    result = NULL;
    out = err = NULL;
}

TestSuite(web, .fini = release);

/* Runs cmd with pairs "KEY=VALUE" ("KEY" alone: no '='), NULL-terminated;
 * or with only checks them (cs_web_check). */
static json_t *serve(const char *cmd, const char *const *pairs, bool only_check)
{
    cs_web_link *link = cs_web_begin(cmd);
    for (int i = 0; pairs[i]; i++) {
        char key[512];
        const char *eq = strchr(pairs[i], '=');
        snprintf(key, sizeof key, "%.*s", eq ? (int)(eq - pairs[i]) : (int)strlen(pairs[i]),
                 pairs[i]);
        cs_web_pair(link, key, eq ? eq + 1 : NULL);
    }
    json_error_t je;
    json_decref(result);
    const char *json = only_check ? cs_web_check(link) : cs_web_exec(link);
    result = json_loads(json, 0, &je);
    cs_web_free(json);
    cr_assert(result, "not JSON: %s", je.text);
    return result;
}

static json_t *exec(const char *cmd, const char *const *pairs)
{
    return serve(cmd, pairs, false);
}

static json_t *check(const char *cmd, const char *const *pairs)
{
    return serve(cmd, pairs, true);
}

static const char *str(const char *key)
{
    return json_string_value(json_object_get(result, key));
}

static bool ok(void)
{
    return json_is_true(json_object_get(result, "ok"));
}

/* The result's table as CSV text (no cell here needs quoting). */
static char *table_csv(void)
{
    size_t cap = 1 << 20, used = 0;
    char *csv = malloc(cap);
    json_t *rows = json_object_get(result, "rows"), *row;
    size_t i;
    cr_assert(csv);
    csv[0] = '\0';
    for (int part = 0; part < 2; part++) {
        json_t *lines = part == 0 ? json_pack("[O]", json_object_get(result, "header")) : rows;
        json_array_foreach(lines, i, row)
        {
            size_t c;
            json_t *cell;
            json_array_foreach(row, c, cell)
            used += (size_t)snprintf(csv + used, cap - used, "%s%s", c ? "," : "",
                                     json_string_value(cell));
            used += (size_t)snprintf(csv + used, cap - used, "\n");
        }
        if (part == 0)
            json_decref(lines);
    }
    return csv;
}

/* The command the page shows, run by bin/chargesim: its CSV equals the
 * page's table. */
static void command_gives_the_table(void)
{
    const char *command = str("command");
    cr_assert(strncmp(command, "chargesim ", 10) == 0, "%s", command);
    char args[17000];
    snprintf(args, sizeof args, "%s%s", command + 10,
             strncmp(command + 10, "dice", 4) == 0 ? "" : " --quiet");
    free(out);
    free(err);
    cr_assert_eq(th_cli(args, &out, &err), 0, "%s: %s", args, err);
    char *csv = table_csv();
    cr_expect_str_eq(csv, out, "the page's table and `%s`", command);
    free(csv);
}

/* The refusal the page shows is the command line's, for its command. */
static void command_refuses_alike(int exit_status)
{
    const char *command = str("command");
    char args[17000];
    snprintf(args, sizeof args, "%s%s", command + 10,
             strncmp(command + 10, "dice", 4) == 0 ? "" : " --quiet");
    free(out);
    free(err);
    cr_expect_eq(th_cli(args, &out, &err), exit_status, "%s", args);
    char line[2048];
    snprintf(line, sizeof line, "%s\n", str("cli"));
    cr_expect_str_eq(err, line);
    cr_expect_eq(json_integer_value(json_object_get(result, "exit")) +
                     (long long)json_real_value(json_object_get(result, "exit")),
                 exit_status);
}

Test(web, a_run_gives_the_command_lines_table)
{
    static const char *const runs[][8] = {
        {"experiment.ruleset=t9a", "edition=3", "distance=3..12", NULL},
        {"experiment.ruleset=generic", "preset=whfb8", "move=4,5", "distance=6..9",
         "success=charged,illegal", NULL},
        {"experiment.ruleset=asoiaf", "distance=4..8", "experiment.method=mc",
         "experiment.trials=5000", "experiment.seed=3", NULL},
        {"experiment.ruleset=sovl_dice", NULL},
    };
    for (size_t k = 0; k < sizeof runs / sizeof runs[0]; k++) {
        exec("run", runs[k]);
        cr_assert(ok(), "%s", str("cli"));
        cr_expect(str("note")[0]);
        command_gives_the_table();
    }
    cr_expect_str_eq(str("command"), "chargesim run - --set experiment.ruleset=sovl_dice");
}

Test(web, a_map_a_comparison_and_dice_give_their_tables)
{
    exec("map", (const char *const[]){"experiment.ruleset=t9a", "maximised=1", "x=-2..2:1",
                                      "y=1..3:1", NULL});
    cr_assert(ok(), "%s", str("cli"));
    json_t *grid = json_object_get(result, "grid");
    cr_expect_eq(json_number_value(json_object_get(grid, "nx")), 5);
    cr_expect_eq(json_number_value(json_object_get(grid, "ny")), 3);
    cr_expect_eq(json_number_value(json_object_get(grid, "x0")), -2);
    command_gives_the_table();
    exec("compare", (const char *const[]){"experiment.ruleset=generic", "preset=tow", "move=4",
                                          "distance=6..12", "b.move=5", NULL});
    cr_assert(ok(), "%s", str("cli"));
    /* A and B by the settings they differ in, and the verdict (issue 52). */
    cr_expect(strstr(str("note"), "A: move 4 \u00b7 B: move 5"), "%s", str("note"));
    cr_expect(strstr(str("verdict"), "B reaches more often"), "%s", str("verdict"));
    command_gives_the_table();
    exec("dice", (const char *const[]){"expr=3d6dl1", NULL});
    cr_assert(ok(), "%s", str("cli"));
    cr_expect_str_eq(str("method"), "exact");
    command_gives_the_table();
    exec("dice", (const char *const[]){"seed=4", "expr=2d6", "trials=2000", NULL});
    cr_assert(ok(), "%s", str("cli"));
    cr_expect_str_eq(str("command"), "chargesim dice --seed 4 2d6 --trials 2000");
    command_gives_the_table();
}

/* The answer's export (issue 52) is the command line's output for the
 * command shown: "csv" the bytes `COMMAND -o FILE.csv` writes, "markdown"
 * what `COMMAND --format md` prints (its provenance line quotes that
 * command, so it is run without --quiet, which the line would quote). */
static void export_is_the_command_lines(void)
{
    const char *command = str("command");
    char args[17000], path[4096];
    snprintf(path, sizeof path, "%s/web-export.csv", th_tmpdir());
    snprintf(args, sizeof args, "%s -o %s", command + 10, path);
    free(out);
    free(err);
    cr_assert_eq(th_cli(args, &out, &err), 0, "%s: %s", args, err);
    size_t len;
    char *csv = th_slurp(path, &len);
    cr_assert(csv && str("csv"));
    cr_expect_str_eq(str("csv"), csv, "the answer's CSV and `%s`", args);
    free(csv);
    if (strncmp(command, "chargesim map", 13) == 0) {
        cr_expect(json_is_null(json_object_get(result, "markdown")), "map has no --format");
        return;
    }
    snprintf(args, sizeof args, "%s --format md", command + 10);
    free(out);
    free(err);
    cr_assert_eq(th_cli(args, &out, &err), 0, "%s: %s", args, err);
    cr_assert(str("markdown"));
    cr_expect_str_eq(str("markdown"), out, "the answer's Markdown and `%s`", args);
}

Test(web, the_export_is_the_command_lines_output)
{
    exec("run", (const char *const[]){"experiment.ruleset=t9a", "distance=3..6", NULL});
    cr_assert(ok(), "%s", str("cli"));
    export_is_the_command_lines();
    cr_expect(json_is_null(json_object_get(result, "seed")));
    cr_expect_str_eq(str("version"), CS_VERSION);
    exec("run", (const char *const[]){"experiment.ruleset=generic", "preset=whfb8", "move=4,5",
                                      "distance=6..8", "pivot=move:distance", NULL});
    cr_assert(ok(), "%s", str("cli"));
    export_is_the_command_lines();
    cr_expect(strstr(str("markdown"), "--pivot"), "%s", str("markdown"));
    exec("run", (const char *const[]){"experiment.ruleset=asoiaf", "distance=4..6",
                                      "experiment.method=mc", "experiment.trials=2000",
                                      "experiment.seed=3", NULL});
    cr_assert(ok(), "%s", str("cli"));
    export_is_the_command_lines();
    cr_expect_str_eq(str("seed"), "3");
    exec("map", (const char *const[]){"experiment.ruleset=t9a", "x=-1..1:1", "y=1..2:1", NULL});
    cr_assert(ok(), "%s", str("cli"));
    export_is_the_command_lines();
    exec("compare", (const char *const[]){"experiment.ruleset=generic", "preset=tow", "move=4",
                                          "distance=6..8", "b.move=5", NULL});
    cr_assert(ok(), "%s", str("cli"));
    export_is_the_command_lines();
    exec("dice", (const char *const[]){"seed=4", "expr=2d6", "trials=2000", NULL});
    cr_assert(ok(), "%s", str("cli"));
    export_is_the_command_lines();
    cr_expect_str_eq(str("seed"), "4");
}

/* The titles of the result's swept keys, joined by ',' into buf. */
static const char *swept(char *buf, size_t cap)
{
    json_t *keys = json_object_get(result, "swept"), *k;
    size_t i, used = 0;
    buf[0] = '\0';
    cr_assert(json_is_array(keys));
    json_array_foreach(keys, i, k)
    used += (size_t)snprintf(buf + used, cap - used, "%s%s", i ? "," : "", json_string_value(k));
    return buf;
}

/* The chart's axes are the core's: the swept keys in column order, no
 * [labels] column, none for dice. */
Test(web, the_swept_keys_come_with_the_table)
{
    char buf[256];
    exec("run", (const char *const[]){"experiment.ruleset=generic", "preset=whfb8", "move=4,5",
                                      "distance=6..9", NULL});
    cr_assert(ok(), "%s", str("cli"));
    cr_expect_str_eq(swept(buf, sizeof buf), "move,distance");
    exec("run", (const char *const[]){"experiment.ruleset=t9a", "distance=8", NULL});
    cr_expect_str_eq(swept(buf, sizeof buf), "");
    exec("compare", (const char *const[]){"experiment.ruleset=generic", "preset=tow", "move=4",
                                          "distance=6..12", "b.move=5", NULL});
    cr_expect_str_eq(swept(buf, sizeof buf), "distance");
    exec("dice", (const char *const[]){"expr=2d6", NULL});
    cr_expect_str_eq(swept(buf, sizeof buf), "");
}

/* Each column comes with the core's words for it: a player's label and a
 * one-line description (the CSVW metadata's), as the API gives them. */
Test(web, each_column_comes_with_its_label_and_description)
{
    exec("run", (const char *const[]){"experiment.ruleset=t9a", "distance=6..8", NULL});
    cr_assert(ok(), "%s", str("cli"));
    json_t *cols = json_object_get(result, "columns"), *c;
    size_t i;
    cr_assert(json_array_size(cols) > 0);
    json_array_foreach(cols, i, c) {
        const char *name = json_string_value(json_object_get(c, "name"));
        const char *label = json_string_value(json_object_get(c, "label"));
        cr_assert(label && label[0], "%s has no label", name);
        cr_expect(json_string_value(json_object_get(c, "description"))[0], "%s", name);
        if (strcmp(name, "p_success") == 0)
            cr_expect_str_eq(label, "chance to charge");
        if (strcmp(name, "ci_low") == 0)
            cr_expect_str_eq(label, "lower bound (95%)");
    }
}

/* A map's picture comes from the core: one colour per cell, y outer, the
 * colour of p = 1 viridis' yellow (#fde725) and of p = 0 its purple
 * (#440154), null where the target cannot be placed (an empty p_success);
 * the 50%, 75% and 90% levels with segments of four numbers; a fixed
 * layout hatches no cell over its colour. */
Test(web, a_map_hands_the_page_its_picture)
{
    exec("map", (const char *const[]){"experiment.ruleset=t9a", "maximised=1", "x=-12..12:1",
                                      "y=-1..12:1", NULL});
    cr_assert(ok(), "%s", str("cli"));
    json_t *pic = json_object_get(result, "picture");
    json_t *cells = json_object_get(pic, "cells"), *rows = json_object_get(result, "rows");
    cr_assert_eq(json_array_size(cells), json_array_size(rows));
    int seen[3] = {0, 0, 0};
    for (size_t k = 0; k < json_array_size(rows); k++) {
        const char *p = json_string_value(json_array_get(json_array_get(rows, k), 3));
        json_t *c = json_array_get(cells, k);
        if (p[0] == '\0') {
            cr_expect(json_is_null(c), "cell %zu", k);
            seen[0]++;
        } else if (strtod(p, NULL) == 1.0) { /* exact: "1" (issue 52) */
            cr_expect_str_eq(json_string_value(c), "#fde725", "cell %zu", k);
            seen[1]++;
        } else if (strtod(p, NULL) == 0.0) {
            cr_expect_str_eq(json_string_value(c), "#440154", "cell %zu", k);
            seen[2]++;
        }
    }
    cr_expect(seen[0] && seen[1] && seen[2], "%d %d %d", seen[0], seen[1], seen[2]);
    json_t *levels = json_object_get(pic, "levels");
    cr_assert_eq(json_array_size(levels), 3);
    static const double value[3] = {0.5, 0.75, 0.9};
    for (size_t l = 0; l < 3; l++) {
        json_t *lv = json_array_get(levels, l);
        cr_expect_eq(json_number_value(json_object_get(lv, "value")), value[l]);
        size_t n = json_array_size(json_object_get(lv, "segments"));
        cr_expect(n > 0 && n % 4 == 0, "level %zu: %zu numbers", l, n);
    }
    cr_expect_eq(json_array_size(json_object_get(pic, "some")), 0);
    cr_expect_str_eq(json_string_value(json_array_get(
                         json_array_get(json_object_get(pic, "stops"), 0), 1)),
                     "#440154");
    json_t *grid = json_object_get(result, "grid");
    cr_expect_eq(json_number_value(json_object_get(grid, "nx")), 25);
    cr_expect_eq(json_number_value(json_object_get(grid, "y0")), -1);
}

Test(web, where_auto_picks_rqmc_the_page_runs_rqmc_as_the_command_line)
{
    exec("run", (const char *const[]){"experiment.ruleset=t9a", "offset=uniform(-3,3)",
                                      "distance=8", "experiment.trials=1000", NULL});
    cr_assert(ok(), "%s", str("cli"));
    cr_expect_str_eq(str("method"), "rqmc");
    cr_expect(json_is_null(json_object_get(result, "notice")), "%s", str("notice"));
    cr_expect(!strstr(str("command"), "experiment.method"), "%s", str("command"));
    command_gives_the_table();
    /* A comparison likewise. */
    exec("compare", (const char *const[]){"experiment.ruleset=t9a", "offset=uniform(-3,3)",
                                          "distance=8", "experiment.trials=1000",
                                          "b.charge_speed=1", NULL});
    cr_assert(ok(), "%s", str("cli"));
    cr_expect(!strstr(str("command"), "experiment.method"), "%s", str("command"));
    command_gives_the_table();
    exec("run", (const char *const[]){"experiment.ruleset=t9a", "distance=8", NULL});
    cr_expect_str_eq(str("method"), "exact", "a fixed layout runs exact");
}

Test(web, a_bad_value_names_its_field_with_the_command_lines_message)
{
    exec("run", (const char *const[]){"experiment.ruleset=t9a", "edition=7", NULL});
    cr_assert(!ok());
    cr_expect_str_eq(str("field"), "edition");
    command_refuses_alike(2);
    exec("run", (const char *const[]){"experiment.ruleset=t9a", "nope=3", NULL});
    cr_expect_str_eq(str("field"), "nope");
    command_refuses_alike(2);
    exec("run", (const char *const[]){"experiment.ruleset=nothere", NULL});
    cr_expect_str_eq(str("field"), "experiment.ruleset");
    command_refuses_alike(2);
    exec("run", (const char *const[]){"experiment.ruleset=t9a", "distance", NULL});
    cr_expect_str_eq(str("field"), "distance", "a piece without '='");
    command_refuses_alike(2);
    exec("run", (const char *const[]){"experiment.ruleset=generic", "preset=w40k", "move=6", NULL});
    cr_expect_str_eq(str("field"), "move", "refused by the ruleset as a whole");
    command_refuses_alike(2);
    exec("run", (const char *const[]){"experiment.ruleset=t9a", "success=nope", NULL});
    cr_expect_str_eq(str("field"), "success");
    command_refuses_alike(2);
    exec("map", (const char *const[]){"experiment.ruleset=t9a", "y=5..1", NULL});
    cr_expect_str_eq(str("field"), "y");
    command_refuses_alike(2);
    exec("map", (const char *const[]){"experiment.ruleset=generic", NULL});
    cr_expect(json_is_null(json_object_get(result, "field")));
    command_refuses_alike(2);
}

Test(web, comparisons_are_refused_as_the_command_line_refuses_them)
{
    exec("compare", (const char *const[]){"experiment.ruleset=generic", "move=4", NULL});
    command_refuses_alike(2);
    cr_expect(strstr(str("message"), "no --b override"));
    exec("compare", (const char *const[]){"experiment.ruleset=generic", "move=4", "b.move=4",
                                          NULL});
    command_refuses_alike(2);
    exec("compare", (const char *const[]){"experiment.ruleset=generic", "b.distance=4..6", NULL});
    command_refuses_alike(2);
    exec("compare", (const char *const[]){"experiment.ruleset=generic", "b.nope=1", NULL});
    cr_expect_str_eq(str("field"), "b.nope");
    command_refuses_alike(2);
}

Test(web, dice_options_are_read_as_the_command_line_reads_them)
{
    exec("dice", (const char *const[]){"expr=2d6x", NULL});
    cr_expect_str_eq(str("field"), "expr");
    cr_expect(strchr(str("message"), '\n'), "the caret under the column");
    exec("dice", (const char *const[]){"expr=2d6", "seed=3", NULL});
    cr_expect_str_eq(str("field"), "seed");
    command_refuses_alike(2);
    exec("dice", (const char *const[]){"expr=2d6", "trials=0", NULL});
    cr_expect_str_eq(str("field"), "trials");
    command_refuses_alike(2);
    exec("dice", (const char *const[]){"seed=x", "expr=2d6", "trials=y", NULL});
    cr_expect_str_eq(str("field"), "seed", "the first option in the link's order");
    exec("dice", (const char *const[]){"expr=100d100kh50", NULL});
    cr_expect_str_eq(str("field"), "expr");
    command_refuses_alike(2);
    exec("dice", (const char *const[]){"trials=10", NULL});
    cr_expect(strstr(str("message"), "expr="));
    exec("dice", (const char *const[]){"expr=2d6", "move=3", NULL});
    cr_expect_str_eq(str("field"), "move");
}

Test(web, links_that_are_no_command_are_refused)
{
    exec("draw", (const char *const[]){NULL});
    cr_expect(strstr(str("message"), "unknown command 'draw'"));
    cr_expect_str_eq(str("cli"), "chargesim: unknown command 'draw': expected run, map, compare or dice");
    cs_web_link *link = cs_web_begin("run");
    for (int i = 0; i < 600; i++)
        cs_web_pair(link, "distance", "3");
    json_error_t je;
    json_decref(result);
    const char *json = cs_web_exec(link);
    result = json_loads(json, 0, &je);
    cs_web_free(json);
    cr_assert(result);
    cr_expect_str_eq(str("message"), "too many overrides");
}

Test(web, markup_and_control_characters_stay_text_in_the_json)
{
    const char *markup = "<img src=x onerror=\"alert(1)\">\t\\";
    char pair[128];
    snprintf(pair, sizeof pair, "edition=%s", markup);
    exec("run", (const char *const[]){"experiment.ruleset=t9a", pair, NULL});
    cr_assert(!ok());
    cr_expect(strstr(str("message"), markup), "%s", str("message"));
    /* A quote and a control character in a value come back as they went. */
    exec("run", (const char *const[]){"experiment.ruleset=t9a", "edition=a\"b\x01", NULL});
    cr_assert(!ok());
    cr_expect(strstr(str("message"), "a\"b\x01"), "%s", str("message"));
}

Test(web, the_rulesets_as_the_form_needs_them)
{
    json_error_t je;
    json_decref(result);
    const char *json = cs_web_rulesets();
    result = json_loads(json, 0, &je);
    cs_web_free(json);
    cr_assert(result, "%s", je.text);
    json_t *rs = json_object_get(result, "rulesets"), *r;
    size_t i;
    cr_expect_eq(json_array_size(rs), 6);
    json_array_foreach(rs, i, r)
    {
        const char *name = json_string_value(json_object_get(r, "name"));
        json_t *p = json_array_get(json_object_get(r, "params"), 0);
        cr_expect(json_string_value(json_object_get(p, "key")), "%s", name);
        cr_expect(json_string_value(json_object_get(p, "accepted")), "%s", name);
        cr_expect(json_array_size(json_object_get(r, "success")) > 0, "%s", name);
        if (strcmp(name, "t9a") == 0)
            cr_expect(json_is_true(json_object_get(r, "map")));
        if (strcmp(name, "generic") == 0)
            cr_expect(json_is_false(json_object_get(r, "map")));
    }
    json_t *run = json_object_get(json_object_get(result, "settings"), "run");
    cr_expect_str_eq(json_string_value(json_object_get(json_array_get(run, 0), "default")),
                     "100000");
    cr_expect_eq(json_array_size(json_object_get(json_object_get(result, "settings"), "map")), 8);
}

/* The JavaScript package's keys (webkeys.h): an option's name is the key
 * it sets, as --method sets experiment.method; any other key is the
 * caller's, an override. */
Test(web, an_options_name_is_its_request_key)
{
    cr_assert_str_eq(cs_web_key_of("run", "method"), "experiment.method");
    cr_assert_str_eq(cs_web_key_of("run", "--trials"), "experiment.trials");
    cr_assert_str_eq(cs_web_key_of("map", "seed"), "experiment.seed");
    cr_assert_str_eq(cs_web_key_of("run", "charge_speed"), "charge_speed");
    cr_assert_str_eq(cs_web_key_of("run", "experiment.seed"), "experiment.seed");
    cr_assert_str_eq(cs_web_key_of("nosuch", "method"), "method");
}

/* The trials the core's rqmc takes for run's KEY=VALUE pairs: the request
 * checked, then cs_est_qmc_trials of its experiment. */
static long long core_rqmc_trials(const char *const *pairs)
{
    cs_request *r = cs_request_new("run");
    cr_assert(r);
    for (int i = 0; pairs[i]; i++) {
        char key[512];
        const char *eq = strchr(pairs[i], '=');
        cr_assert(eq);
        snprintf(key, sizeof key, "%.*s", (int)(eq - pairs[i]), pairs[i]);
        cr_assert_eq(cs_request_set(r, key, eq + 1), CS_OK, "%s", pairs[i]);
    }
    cr_assert_eq(cs_request_check(r), CS_OK, "%s", cs_request_error(r)->msg);
    const cs_experiment *e = cs_request_experiment(r);
    long long n = (long long)cs_est_qmc_trials(e, e->n_drawn);
    cs_request_free(r);
    return n;
}

static long long num(const char *key)
{
    return (long long)json_integer_value(json_object_get(result, key));
}

/* Issue 52: the method field says before a run whether exact can run the
 * settings and what rqmc rounds the trials up to, from a check that runs
 * nothing. */
Test(web, a_check_says_the_method_facts_without_running)
{
    check("run", (const char *const[]){"experiment.ruleset=t9a", "distance=8",
                                       "experiment.method=mc", NULL});
    cr_assert(ok(), "%s", str("cli"));
    cr_expect(json_is_true(json_object_get(result, "exact_available")), "a fixed layout");
    cr_expect_str_eq(str("method"), "mc");
    cr_expect_str_eq(str("resolved"), "mc");
    cr_expect_eq(num("rqmc_trials"), 0);
    cr_expect(!json_object_get(result, "rows"), "nothing ran");
    check("run", (const char *const[]){"experiment.ruleset=t9a", "distance=8", NULL});
    cr_expect_str_eq(str("method"), "auto");
    cr_expect_str_eq(str("resolved"), "exact");
    check("run", (const char *const[]){"experiment.ruleset=t9a", "distance=8",
                                       "angle=uniform(-30,30)", NULL});
    cr_assert(ok(), "%s", str("cli"));
    cr_expect(json_is_false(json_object_get(result, "exact_available")), "a drawn layout");
    const char *const rqmc[] = {"experiment.ruleset=t9a", "distance=8", "offset=uniform(-3,3)",
                                "experiment.method=rqmc", "experiment.trials=10000", NULL};
    check("run", rqmc);
    cr_assert(ok(), "%s", str("cli"));
    cr_expect_str_eq(str("method"), "rqmc");
    cr_expect_eq(num("trials"), 10000);
    long long want = core_rqmc_trials(rqmc);
    cr_expect_geq(want, 10000);
    cr_expect_eq(num("rqmc_trials"), want);
    check("run", (const char *const[]){"experiment.ruleset=t9a", "edition=7", NULL});
    cr_assert(!ok());
    cr_expect_str_eq(str("field"), "edition");
    command_refuses_alike(2);
}
