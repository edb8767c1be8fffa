/* SPDX-License-Identifier: GPL-3.0-or-later */
/* CSVW metadata beside each CSV (include/chargesim/csvw.h): valid JSON
 * whose columns are the CSV's header, the provenance it promises, and a
 * rerun from it alone that gives the same bytes. */
#include <criterion/criterion.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chargesim/csvw.h"
#include "support/helpers.h"

static char *out, *err;

static void release(void)
{
    free(out);
    free(err);
    out = err = NULL;
}

TestSuite(csvw, .fini = release);

static int cli(const char *fmt, const char *a, const char *b, const char *c)
{
    char args[4096];
    snprintf(args, sizeof args, fmt, a, b, c);
    release();
    return th_cli(args, &out, &err);
}

/* The metadata parses, and its columns' titles are the CSV's header, in
 * order, each with a name, a datatype and a description. */
static json_t *check_columns(const char *csv, const char *meta)
{
    json_error_t je;
    json_t *root = json_load_file(meta, 0, &je);
    cr_assert(root, "%s:%d: %s", meta, je.line, je.text);
    char *text = th_slurp(csv, NULL);
    cr_assert(text);
    *strchr(text, '\n') = '\0';
    json_t *cols = json_object_get(json_object_get(root, "tableSchema"), "columns"), *c;
    cr_assert(json_is_array(cols));
    size_t i, n = 0;
    char header[4096] = "";
    json_array_foreach(cols, i, c)
    {
        size_t used = strlen(header);
        snprintf(header + used, sizeof header - used, "%s%s", i ? "," : "",
                 json_string_value(json_object_get(c, "titles")));
        cr_expect(json_string_value(json_object_get(c, "name")));
        cr_expect(json_string_value(json_object_get(c, "datatype")));
        const char *d = json_string_value(json_object_get(c, "dc:description"));
        cr_expect(d && d[0] && !strchr(d, '\n'), "one line: %s", d ? d : "(none)");
        n++;
    }
    cr_expect_str_eq(header, text);
    free(text);
    cr_expect_str_eq(json_string_value(json_array_get(json_object_get(root, "@context"), 0)),
                     "http://www.w3.org/ns/csvw");
    cr_expect_str_eq(json_string_value(json_object_get(root, "chargesim:version")), CS_VERSION);
    return root;
}

Test(csvw, run_metadata_describes_the_csv_and_how_it_was_made)
{
    const char *d = th_tmpdir();
    char exp[512], csv[512], meta[600], cmd[2048];
    snprintf(exp, sizeof exp, "%s/e.ini", d);
    snprintf(csv, sizeof csv, "%s/a.csv", d);
    snprintf(meta, sizeof meta, "%s-metadata.json", csv);
    snprintf(cmd, sizeof cmd, "cp %s/experiments/default.ini %s", th_root(), exp);
    cr_assert_eq(system(cmd), 0);
    cr_assert_eq(cli("run %s --set move=4,5 --set distance=7..9 -o %s --quiet", exp, csv, ""), 0,
                 "%s", err);
    json_t *root = check_columns(csv, meta);
    cr_expect_str_eq(json_string_value(json_object_get(root, "url")), "a.csv");
    /* The experiment's digest, checked against coreutils' sha256sum. */
    snprintf(cmd, sizeof cmd, "sha256sum %s | cut -c1-64", exp);
    FILE *p = popen(cmd, "r");
    char want[80] = "";
    cr_assert(fgets(want, sizeof want, p));
    pclose(p);
    want[64] = '\0';
    json_t *input = json_object_get(root, "chargesim:input");
    cr_expect_str_eq(json_string_value(json_object_get(input, "sha256")), want);
    json_t *x = json_object_get(root, "chargesim:experiment");
    cr_expect_str_eq(json_string_value(json_object_get(x, "seed")), "2026");
    cr_expect_str_eq(json_string_value(json_object_get(x, "method_run")), "exact");
    cr_expect_eq(json_real_value(json_object_get(x, "confidence")), 0.95);
    cr_expect_str_eq(json_string_value(json_array_get(json_object_get(x, "success_outcomes"), 0)),
                     "charged");
    /* Every parameter, swept first in the order of the rows; --set named. */
    json_t *ps = json_object_get(x, "parameters");
    cr_expect_str_eq(json_string_value(json_object_get(json_array_get(ps, 0), "key")), "move");
    cr_expect_str_eq(json_string_value(json_object_get(json_array_get(ps, 0), "origin")),
                     "command line");
    cr_expect_str_eq(json_string_value(json_array_get(
                         json_object_get(json_array_get(ps, 1), "values"), 2)),
                     "9");
    cr_expect_str_eq(json_string_value(json_object_get(json_array_get(ps, 2), "key")), "preset");
    cr_expect(strstr(json_string_value(json_object_get(root, "chargesim:command_line")),
                     "--set move=4,5 --set distance=7..9"));
    json_decref(root);
}

Test(csvw, rerun_from_the_metadata_alone_gives_the_same_bytes)
{
    /* A sampled run with a drawn value and --set overrides, its
     * distributions, a pivot of another column, and a sampled dice table:
     * each made again from its metadata after the experiment file is gone. */
    const char *d = th_tmpdir();
    char exp[512], cmd[4096];
    snprintf(exp, sizeof exp, "%s/e.ini", d);
    snprintf(cmd, sizeof cmd, "cp %s/experiments/default.ini %s", th_root(), exp);
    cr_assert_eq(system(cmd), 0);
    static const char *const runs[] = {
        "run %s/e.ini --set move=4,5 --set 'distance=uniform(6,10)' --method mc --trials 20000 "
        "--seed 7 -o %s/a.csv --dist %s/a-dist.csv --quiet",
        "run %s/e.ini --set move=4,5 --set distance=7..9 --pivot distance:move:p_failed -o %s/p.csv "
        "--quiet%s",
        "dice 3d6dl1 --trials 5000 --seed 3 --confidence 0.9 -o %s/d.csv%s%s",
        "dice 2d6+1 -o %s/x.csv%s%s",
    };
    static const char *const csvs[] = {"a.csv", "a-dist.csv", "p.csv", "d.csv", "x.csv"};
    cr_assert_eq(cli(runs[0], d, d, d), 0, "%s", err);
    cr_assert_eq(cli(runs[1], d, d, ""), 0, "%s", err);
    cr_assert_eq(cli(runs[2], d, "", ""), 0, "%s", err);
    cr_assert_eq(cli(runs[3], d, "", ""), 0, "%s", err);
    unlink(exp);
    for (size_t i = 0; i < sizeof csvs / sizeof csvs[0]; i++) {
        char csv[512], meta[600], again[600];
        snprintf(csv, sizeof csv, "%s/%s", d, csvs[i]);
        snprintf(meta, sizeof meta, "%s-metadata.json", csv);
        snprintf(again, sizeof again, "%s/again-%s", d, csvs[i]);
        json_decref(check_columns(csv, meta));
        cr_assert_eq(cli("rerun %s -o %s%s", meta, again, ""), 0, "%s: %s", csvs[i], err);
        char *a = th_slurp(csv, NULL), *b = th_slurp(again, NULL);
        cr_expect(a && b && strcmp(a, b) == 0, "%s differs on rerun", csvs[i]);
        free(a);
        free(b);
    }
    /* The distributions' rerun records a command that runs again as it
     * stands: its unwanted summary goes to /dev/null, not to a temporary
     * directory removed since. */
    char meta[600];
    snprintf(meta, sizeof meta, "%s/again-a-dist.csv-metadata.json", d);
    json_t *j = json_load_file(meta, 0, NULL);
    cr_assert(j);
    const char *line = json_string_value(json_object_get(j, "chargesim:command_line"));
    cr_assert(line);
    size_t len = strlen(line);
    cr_expect(len > 13 && strcmp(line + len - 13, " -o /dev/null") == 0, "%s", line);
    cr_expect(!strstr(line, "chargesim-rerun"), "%s", line);
    json_decref(j);
}

Test(csvw, no_metadata_for_stdout_and_tables_carry_a_note)
{
    const char *d = th_tmpdir();
    char md[512];
    snprintf(md, sizeof md, "%s/t.md", d);
    cr_assert_eq(cli("run %s/experiments/default.ini --set move=5 --set distance=7,8 "
                     "--format md -o %s%s",
                     th_root(), md, ""),
                 0, "%s", err);
    char *text = th_slurp(md, NULL);
    cr_assert(text);
    /* One line under the table with the essentials. */
    const char *note = strstr(text, "Made by chargesim " CS_VERSION ": `chargesim run ");
    cr_expect(note, "%s", text);
    cr_expect(note && strstr(note, "default.ini SHA-256 ") && strstr(note, "seed 2026") &&
                  strstr(note, "confidence 0.95") && strstr(note, "success: charged.\n"),
              "%s", text);
    free(text);
    char listing[600];
    snprintf(listing, sizeof listing, "%s/t.md-metadata.json", d);
    cr_expect_eq(access(listing, F_OK), -1, "metadata only beside a CSV");
    cr_assert_eq(cli("dice 2d6 --format md%s%s%s", "", "", ""), 0);
    cr_expect(strstr(out, "Made by chargesim " CS_VERSION ": `chargesim dice 2d6 --format md`."),
              "%s", out);
}

Test(csvw, bad_metadata_is_refused_with_its_name)
{
    const char *d = th_tmpdir();
    char meta[512];
    snprintf(meta, sizeof meta, "%s/m.json", d);
    FILE *f = fopen(meta, "w");
    fputs("{\"chargesim:table\": \"summary\"}", f);
    fclose(f);
    cr_expect_eq(cli("rerun %s%s%s", meta, "", ""), 2);
    cr_expect(strstr(err, "m.json: no chargesim:experiment"), "%s", err);
    f = fopen(meta, "w");
    fputs("{nope", f);
    fclose(f);
    cr_expect_eq(cli("rerun %s%s%s", meta, "", ""), 2);
    cr_expect(strstr(err, "m.json:1: not JSON"), "%s", err);
}

Test(csvw, metadata_path_and_column_names)
{
    char *p = cs_csvw_path("out/x.csv");
    cr_expect_str_eq(p, "out/x.csv-metadata.json");
    free(p);
}

/* Every column of the tables a run, a comparison, a map and a dice
 * expression write is described by its definition (columns.h), never by
 * its bare name, and a column of numbers is typed as one. */
static void check_described(const char *csv)
{
    char meta[600];
    snprintf(meta, sizeof meta, "%s-metadata.json", csv);
    json_t *root = check_columns(csv, meta), *c;
    size_t i;
    json_array_foreach(json_object_get(json_object_get(root, "tableSchema"), "columns"), i, c)
    {
        const char *title = json_string_value(json_object_get(c, "titles"));
        const char *type = json_string_value(json_object_get(c, "datatype"));
        cr_expect_str_neq(json_string_value(json_object_get(c, "dc:description")), title,
                          "%s: column %s described by its name", meta, title);
        bool text = strcmp(title, "method") == 0 || strcmp(title, "success") == 0 ||
                    strcmp(title, "metric") == 0 || strcmp(title, "value") == 0 ||
                    strcmp(title, "move_label") == 0;
        if (strstr(csv, "dice"))
            text = false; /* a dice total is an integer */
        cr_expect(text == (strcmp(type, "string") == 0), "%s: %s is a %s", meta, title, type);
    }
    json_decref(root);
}

Test(csvw, every_column_is_described_by_its_definition)
{
    const char *d = th_tmpdir(), *r = th_root();
    char csv[512], dist[600];
    static const char *const cmds[] = {
        "run %s/experiments/default.ini --set move=4,5 --set distance=7..9 --set labels.move=a,b "
        "--success charged,illegal --method mc --trials 5000 -o %s --dist %s",
        "run %s/experiments/default.ini --set move=4,5 --set distance=7..9 --pivot "
        "move:distance:trials --success charged,illegal -o %s%s",
        "compare %s/experiments/default.ini --set move=4,5 --set distance=7..9 --b swiftstride=1 "
        "-o %s%s",
        "compare %s/experiments/default.ini --set move=4,5 --set distance=7..9 --b swiftstride=1 "
        "--pivot move:distance -o %s%s",
        "map %s/experiments/map-t9a.ini --x -1..1:1 --y 1..2:1 -o %s%s",
    };
    for (size_t k = 0; k < sizeof cmds / sizeof cmds[0]; k++) {
        snprintf(csv, sizeof csv, "%s/t%zu.csv", d, k);
        snprintf(dist, sizeof dist, "%s/t%zu-dist.csv", d, k);
        cr_assert_eq(cli(cmds[k], r, csv, k ? "" : dist), 0, "%s", err);
        check_described(csv);
        if (k == 0)
            check_described(dist);
    }
    snprintf(csv, sizeof csv, "%s/dice.csv", d);
    cr_assert_eq(cli("dice 2d6 --trials 1000 -o %s%s%s", csv, "", ""), 0, "%s", err);
    check_described(csv);
}

/* Each refusal of a metadata file names the file as where it was found,
 * once, and keeps the rest apart as err.detail (error.h: a front end showing
 * the error beside its field reads msg + detail, never the message's words). */
Test(csvw, rerun_errors_carry_the_file_as_data)
{
    static const struct {
        const char *json, *detail;
    } c[] = {
        {"{}", "no chargesim:table"},
        {"{\"chargesim:table\": \"summary\"}", "no chargesim:experiment object"},
        {"{\"chargesim:table\": \"dice\"}", "no chargesim:dice expression and method"},
        {"{\"chargesim:table\": \"dice\", \"chargesim:dice\": {\"expression\": \"2d6\", "
         "\"method\": \"mc\"}}",
         "chargesim:dice lacks trials, seed or confidence"},
        {"{\"chargesim:table\": \"summary\", \"chargesim:experiment\": {}}",
         "chargesim:experiment has no text 'ruleset'"},
    };
    const char *d = th_tmpdir();
    char meta[512], want[1024];
    snprintf(meta, sizeof meta, "%s/m.json", d);
    for (size_t i = 0; i < sizeof c / sizeof *c; i++) {
        FILE *f = fopen(meta, "w");
        cr_assert(f);
        fputs(c[i].json, f);
        fclose(f);
        char **argv = NULL;
        int argc = 0;
        cs_error e;
        cr_assert_eq(cs_csvwread_args(meta, &argv, &argc, NULL, &e), CS_EINPUT, "%s", c[i].json);
        snprintf(want, sizeof want, "%s: %s", meta, c[i].detail);
        cr_expect_str_eq(e.msg, want);
        cr_expect_eq(e.detail, (int)strlen(meta) + 2, "%s", e.msg);
        cr_expect_str_eq(e.msg + e.detail, c[i].detail);
        cr_expect_null(argv);
    }
    FILE *f = fopen(meta, "w");
    fputs("{\n  nope", f);
    fclose(f);
    char **argv = NULL;
    int argc = 0;
    cs_error e;
    cr_assert_eq(cs_csvwread_args(meta, &argv, &argc, NULL, &e), CS_EINPUT);
    snprintf(want, sizeof want, "%s:2: ", meta);
    cr_expect_eq(strncmp(e.msg, want, strlen(want)), 0, "%s", e.msg);
    cr_expect_eq(e.detail, (int)strlen(want), "%s", e.msg);
    cr_expect_eq(strncmp(e.msg + e.detail, "not JSON: ", 10), 0, "%s", e.msg);
}
