/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The request layer (include/chargesim/request.h, issue 51) as a binding
 * would use it: a command and its keys in, the command line's bytes out
 * (through the formatter, tablefmt.h), the parameter at fault named,
 * progress reported and a run cancelled. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/columns.h"
#include "chargesim/registry.h"
#include "chargesim/request.h"
#include "chargesim/tablefmt.h"
#include "support/helpers.h"

/* The request's first table as the command line writes it. */
static char *text_of(cs_request *r, cs_format fmt)
{
    cs_text t = {0};
    cr_assert_eq(cs_tablefmt(cs_request_table(r, 0), fmt, &t), CS_OK);
    return t.s;
}

Test(request, a_run_gives_the_command_lines_bytes)
{
    cs_request *r = cs_request_new("run");
    cr_assert(r);
    cr_assert_eq(cs_request_set(r, "experiment.ruleset", "t9a"), CS_OK);
    cr_assert_eq(cs_request_set(r, "distance", "5..9"), CS_OK);
    cr_assert_eq(cs_request_set(r, "format", "md"), CS_OK);
    cr_assert_eq(cs_request_run(r), CS_OK, "%s", cs_request_error(r)->msg);
    char line[512], *out = NULL;
    cs_request_command_line(r, line, sizeof line);
    cr_expect_str_eq(line, "chargesim run - --set experiment.ruleset=t9a --set distance=5..9 "
                           "--format md");
    cr_assert_eq(th_cli("run - --set experiment.ruleset=t9a --set distance=5..9 --format md",
                        &out, NULL), 0);
    char *md = text_of(r, CS_FORMAT_MD);
    /* The command line's note adds the provenance (csvw.h) after the table's. */
    cr_expect(strncmp(out, md, strlen(md) - 1) == 0, "%s\n---\n%s", out, md);
    cr_expect_str_eq(cs_request_method(r), "exact");
    cr_expect(cs_request_note(r)[0]);
    cr_expect_null(cs_request_warning(r));
    free(md);
    free(out);
    cs_request_free(r);
}

Test(request, a_refusal_names_the_parameter_at_fault)
{
    cs_request *r = cs_request_new("run");
    cs_request_set(r, "experiment.ruleset", "t9a");
    cs_request_set(r, "success", "charged");
    cs_request_set(r, "distance", "abc");
    cr_assert_neq(cs_request_run(r), CS_OK);
    cr_expect_eq(cs_request_fault(r), 2);
    cr_expect(strstr(cs_request_error(r)->msg, "distance"), "%s", cs_request_error(r)->msg);
    cs_request_free(r);

    r = cs_request_new("dice");
    cr_expect_eq(cs_request_set(r, "trials", "0"), CS_EINPUT);
    cr_expect_eq(cs_request_fault(r), 0);
    cs_request_free(r);

    r = cs_request_new("dice");
    cr_assert_neq(cs_request_run(r), CS_OK);
    cr_expect_str_eq(cs_request_fault_key(r), "expr");
    cs_request_free(r);
    cr_expect_null(cs_request_new("nonsense"));
}

static int calls;
static void count(void *user, uint64_t done, uint64_t total)
{
    (void)user;
    (void)done;
    (void)total;
    calls++;
}

static int always(void *user)
{
    (void)user;
    return 1;
}

Test(request, progress_is_reported_and_a_run_can_be_cancelled)
{
    cs_request *r = cs_request_new("run");
    cs_request_set(r, "experiment.ruleset", "t9a");
    cs_request_set(r, "distance", "uniform(4,10)");
    cs_request_set(r, "experiment.method", "mc");
    cs_request_set(r, "experiment.trials", "200000");
    cs_request_on_progress(r, count, NULL);
    cr_assert_eq(cs_request_run(r), CS_OK, "%s", cs_request_error(r)->msg);
    cr_expect(calls > 0);
    cs_request_free(r);

    r = cs_request_new("run");
    cs_request_set(r, "experiment.ruleset", "t9a");
    cs_request_set(r, "distance", "uniform(4,10)");
    cs_request_set(r, "experiment.method", "mc");
    cs_request_set(r, "experiment.trials", "4000000000");
    cs_request_on_cancel(r, always, NULL);
    cr_expect_eq(cs_request_run(r), CS_ESTOPPED);
    cr_expect_str_eq(cs_request_error(r)->msg, "cancelled");
    cr_expect_eq(cs_request_tables(r), 0);
    cs_request_free(r);
}

Test(request, dice_and_units_give_their_tables)
{
    cs_request *r = cs_request_new("dice");
    cs_request_set(r, "expr", "2d6");
    cr_assert_eq(cs_request_run(r), CS_OK);
    char *csv = text_of(r, CS_FORMAT_CSV), *out = NULL;
    cr_assert_eq(th_cli("dice 2d6", &out, NULL), 0);
    cr_expect_str_eq(csv, out);
    free(csv);
    free(out);
    cs_request_free(r);

    char src[512], maps[512], args[1200];
    snprintf(src, sizeof src, "%s/data/tow/Bretonnians.cat", th_root());
    snprintf(maps, sizeof maps, "%s/experiments/mappings", th_root());
    r = cs_request_new("units");
    cs_request_default(r, "mapping", maps);
    cs_request_set(r, "source", src);
    cs_request_set(r, "distance", "4..8:2");
    cr_assert_eq(cs_request_run(r), CS_OK, "%s", cs_request_error(r)->msg);
    cr_expect(cs_request_said(r) > 0);
    const char *path, *sha;
    cr_expect(cs_request_input(r, 0, &path, &sha) && strlen(sha) == 64);
    csv = text_of(r, CS_FORMAT_CSV);
    snprintf(args, sizeof args, "units %s --mapping %s --distance 4..8:2 --quiet", src, maps);
    cr_assert_eq(th_cli(args, &out, NULL), 0);
    cr_expect_str_eq(csv, out);
    free(csv);
    free(out);
    cs_request_free(r);
}

/* The kind of column `name` of r's first table, and its unit. */
static const char *kind_of(cs_request *r, const char *name, const char **unit)
{
    cs_request_column c;
    for (int k = 0; cs_request_column_at(r, 0, k, &c); k++)
        if (strcmp(c.name, name) == 0) {
            *unit = c.unit;
            cr_expect(c.description[0], "%s has a description", name);
            return c.kind;
        }
    cr_assert(false, "no column %s", name);
    return NULL;
}

Test(request, each_column_says_what_it_holds)
{
    static const char *const methods[] = {"exact", "mc"};
    for (int m = 0; m < 2; m++) {
        cs_request *r = cs_request_new("run");
        cs_request_set(r, "experiment.ruleset", "t9a");
        cs_request_set(r, "distance", "5..7");
        cs_request_set(r, "experiment.method", methods[m]);
        cs_request_set(r, "experiment.trials", "1000");
        cr_assert_eq(cs_request_run(r), CS_OK, "%s", cs_request_error(r)->msg);
        const char *unit;
        cr_expect_str_eq(kind_of(r, "distance", &unit), "key");
        cr_expect_str_eq(unit, "in");
        cr_expect_str_eq(kind_of(r, "p_success", &unit), m ? "estimate" : "exact");
        cr_expect_str_eq(kind_of(r, "ci_low", &unit), "interval");
        cr_expect_str_eq(kind_of(r, "trials", &unit), "count");
        cr_expect_str_eq(kind_of(r, "method", &unit), "text");
        cs_request_column c;
        cr_expect(!cs_request_column_at(r, 0, 999, &c));
        cs_request_free(r);
    }
}

/* rerun's table from the metadata of the CSV `args` wrote to DIR/o.csv
 * (-o added here): the CSV's own bytes, read back through the request. */
static void rerun_gives_the_csv(const char *args)
{
    char cmd[1400], meta[600], csv_path[512];
    snprintf(csv_path, sizeof csv_path, "%s/o.csv", th_tmpdir());
    snprintf(meta, sizeof meta, "%s-metadata.json", csv_path);
    snprintf(cmd, sizeof cmd, "%s -o %s", args, csv_path);
    cr_assert_eq(th_cli(cmd, NULL, NULL), 0, "%s", cmd);
    char *want = th_slurp(csv_path, NULL);
    cs_request *r = cs_request_new("rerun");
    cr_assert(r);
    cr_assert_eq(cs_request_set(r, "metadata", meta), CS_OK);
    cr_assert_eq(cs_request_run(r), CS_OK, "%s", cs_request_error(r)->msg);
    char *got = text_of(r, CS_FORMAT_CSV);
    cr_expect_str_eq(got, want, "%s", args);
    cr_expect(cs_request_method(r)[0]);
    /* Checked, the request is the recorded command. */
    char line[2048], cmd0[16];
    cs_request_command_line(r, line, sizeof line);
    snprintf(cmd0, sizeof cmd0, "chargesim %.4s", args);
    cr_expect(strncmp(line, cmd0, strlen(cmd0)) == 0, "%s", line);
    free(got);
    free(want);
    cs_request_free(r);
}

Test(request, rerun_makes_the_csv_again_from_its_metadata)
{
    rerun_gives_the_csv("run - --set experiment.ruleset=t9a --set distance=5..9");
    rerun_gives_the_csv("run - --set experiment.ruleset=generic --set 'distance=uniform(4,10)' "
                        "--set experiment.method=mc --trials 2000 --seed 7");
    rerun_gives_the_csv("run - --set experiment.ruleset=generic --set distance=5..9 --set "
                        "move=4,5 --pivot distance:move");
    rerun_gives_the_csv("dice 3d6dl1 --trials 5000 --seed 3");
    rerun_gives_the_csv("dice 2d6 --exact");
}

Test(request, rerun_names_the_metadata_at_fault)
{
    const char *meta = th_write_file(th_tmpdir(), "m.json", "{\"chargesim:table\":\"dice\"}");
    cs_request *r = cs_request_new("rerun");
    cs_request_set(r, "metadata", meta);
    cr_assert_eq(cs_request_run(r), CS_EINPUT);
    const cs_error *e = cs_request_error(r);
    cr_expect(strstr(e->msg, meta), "%s", e->msg);
    cr_expect_str_eq(e->msg + e->detail, "no chargesim:dice expression and method");
    cr_expect_eq(cs_request_fault(r), 0);
    cr_expect_eq(cs_request_tables(r), 0);
    cs_request_free(r);

    r = cs_request_new("rerun");
    cr_assert_eq(cs_request_run(r), CS_EINPUT);
    cr_expect_str_eq(cs_request_fault_key(r), "metadata");
    cs_request_free(r);
}

Test(request, rerun_of_a_dist_csv_gives_the_distributions)
{
    char cmd[1400], dist[512], meta[600], out[512];
    snprintf(dist, sizeof dist, "%s/d.csv", th_tmpdir());
    snprintf(out, sizeof out, "%s/summary.csv", th_tmpdir());
    snprintf(meta, sizeof meta, "%s-metadata.json", dist);
    /* The summary goes to a file of the test's own, never to a device of
     * the machine's. */
    snprintf(cmd, sizeof cmd,
             "run - --set experiment.ruleset=generic --set distance=5..7 --dist %s -o %s", dist,
             out);
    cr_assert_eq(th_cli(cmd, NULL, NULL), 0, "%s", cmd);
    char *want = th_slurp(dist, NULL);
    cs_request *r = cs_request_new("rerun");
    cs_request_set(r, "metadata", meta);
    cr_assert_eq(cs_request_run(r), CS_OK, "%s", cs_request_error(r)->msg);
    cs_text got = {0};
    cr_assert_eq(cs_tablefmt(cs_request_named_table(r, "dist"), CS_FORMAT_CSV, &got), CS_OK);
    cr_expect_str_eq(got.s, want);
    free(got.s);
    free(want);
    cs_request_free(r);
}


/* Every column of table t has a label, a description and a kind. */
static void expect_said(const cs_table *t, const char *what)
{
    for (int c = 0; c < t->ncols; c++) {
        cr_expect(t->label[c] && t->label[c][0], "%s: %s has no label", what, t->header[c]);
        cr_expect(t->desc[c] && t->desc[c][0], "%s: %s has no description", what,
                  t->header[c]);
        cr_expect_neq(t->meta[c].kind, CS_COL_UNSAID, "%s: %s has no kind", what,
                      t->header[c]);
    }
}

/* Runs command cmd with n key/value pairs and checks every column of every
 * table it gives (the distributions too), through the API's columns as well. */
static void expect_all_said(const char *cmd, int n, const char *const *kv)
{
    char what[512];
    int used = snprintf(what, sizeof what, "%s", cmd);
    cs_request *r = cs_request_new(cmd);
    for (int i = 0; i < n; i++) {
        used += snprintf(what + used, sizeof what - (size_t)used, " %s=%s", kv[2 * i],
                         kv[2 * i + 1] ? kv[2 * i + 1] : "");
        cr_assert_eq(cs_request_set(r, kv[2 * i], kv[2 * i + 1]), CS_OK, "%s: %s", what,
                     cs_request_error(r)->msg);
    }
    if (strcmp(cmd, "units") == 0) {
        char maps[512];
        snprintf(maps, sizeof maps, "%s/experiments/mappings", th_root());
        cs_request_default(r, "mapping", maps);
    }
    cr_assert_eq(cs_request_run(r), CS_OK, "%s: %s", what, cs_request_error(r)->msg);
    cr_assert_gt(cs_request_tables(r), 0, "%s", what);
    for (int i = 0; i < cs_request_tables(r); i++) {
        expect_said(cs_request_table(r, i), what);
        cs_request_column c;
        for (int k = 0; cs_request_column_at(r, i, k, &c); k++) {
            cr_expect(c.label[0] && c.description[0] && c.kind[0], "%s: %s", what, c.name);
            cr_expect_str_eq(c.label, cs_request_table(r, i)->label[k]);
        }
    }
    if (cs_request_named_table(r, "dist"))
        expect_said(cs_request_named_table(r, "dist"), what);
    cs_request_free(r);
}

Test(request, every_column_of_every_command_has_a_label_a_description_and_a_kind)
{
    char def[512], bret[512];
    snprintf(def, sizeof def, "%s/experiments/default.ini", th_root());
    snprintf(bret, sizeof bret, "%s/data/tow/Bretonnians.cat", th_root());
    const char *const t9a[] = {"experiment.ruleset", "t9a", "distance", "5..7"};
    const char *const t9a_mc[] = {"experiment.ruleset", "t9a", "distance", "5..7",
                                  "experiment.method", "mc", "experiment.trials", "500",
                                  "dist", "/dev/null"};
    const char *const t9a_md[] = {"experiment.ruleset", "t9a", "distance", "5..7", "format",
                                  "md"};
    const char *const pivot[] = {"input", def, "pivot", "move:distance"};
    const char *const pivot_md[] = {"input", def, "pivot", "move:distance", "format", "md"};
    const char *const map[] = {"experiment.ruleset", "t9a", "x", "0..1:1", "y", "4..5:1"};
    const char *const cmp[] = {"input", def, "b.roll_bonus", "1"};
    const char *const cmp_md[] = {"input", def, "b.roll_bonus", "1", "format", "md"};
    const char *const cmp_pivot[] = {"input", def, "b.roll_bonus", "1", "pivot",
                                     "move:distance"};
    const char *const exact[] = {"expr", "3d6kh2", "exact", NULL};
    const char *const exact_md[] = {"expr", "3d6kh2", "exact", NULL, "format", "md"};
    const char *const sampled[] = {"expr", "2d6", "trials", "1000"};
    const char *const units[] = {"source", bret, "distance", "4..8:2"};
    const char *const units_md[] = {"source", bret, "distance", "4..8:2", "format", "md"};
    expect_all_said("run", 2, t9a);
    expect_all_said("run", 5, t9a_mc);
    expect_all_said("run", 3, t9a_md);
    expect_all_said("run", 2, pivot);
    expect_all_said("run", 3, pivot_md);
    expect_all_said("map", 3, map);
    expect_all_said("compare", 2, cmp);
    expect_all_said("compare", 3, cmp_md);
    expect_all_said("compare", 3, cmp_pivot);
    expect_all_said("dice", 2, exact);
    expect_all_said("dice", 3, exact_md);
    expect_all_said("dice", 2, sampled);
    expect_all_said("units", 2, units);
    expect_all_said("units", 3, units_md);
}

/* Column c of t and column 0 of the registry's one agree in everything. */
static void expect_same_column(const cs_table *t, int c, const cs_table *ref)
{
    const char *name = t->header[c];
    cr_expect_str_eq(t->header[c], ref->header[0]);
    cr_expect_str_eq(t->label[c], ref->label[0], "%s", name);
    cr_expect_str_eq(t->desc[c], ref->desc[0], "%s", name);
    cr_expect_eq(t->type[c], ref->type[0], "%s", name);
    cr_expect_eq(t->right[c], ref->right[0], "%s", name);
    cr_expect_eq(t->meta[c].kind, ref->meta[0].kind, "%s", name);
    cr_expect_str_eq(t->meta[c].unit, ref->meta[0].unit, "%s", name);
}

Test(request, the_units_tables_columns_come_from_the_registry)
{
    char src[512], maps[512];
    snprintf(src, sizeof src, "%s/data/tow/Bretonnians.cat", th_root());
    snprintf(maps, sizeof maps, "%s/experiments/mappings", th_root());
    cs_request *r = cs_request_new("units");
    cs_request_default(r, "mapping", maps);
    cs_request_set(r, "source", src);
    cs_request_set(r, "distance", "4..12:8");
    cr_assert_eq(cs_request_run(r), CS_OK, "%s", cs_request_error(r)->msg);
    const cs_table *t = cs_request_table(r, 0);
    const cs_ruleset *rs = cs_registry_find(cs_table_cell(t, 0, 2));
    cr_assert(rs, "ruleset %s", cs_table_cell(t, 0, 2));
    int n_p = 0, n_params = 0, n_fixed = 0;
    for (int c = 0; c < t->ncols; c++) {
        const char *name = t->header[c];
        cs_table ref;
        cr_assert_eq(cs_table_init(&ref, 1), CS_OK);
        int k = cs_ruleset_param_index(rs, name);
        if (cs_columns_fixed(&ref, 0, name, NULL) == CS_OK) {
            n_fixed++;
        } else if (k >= 0) {
            cr_assert_eq(cs_columns_unit_param(&ref, 0, &rs->params[k]), CS_OK);
            n_params++;
        } else if (strncmp(name, "mean_", 5) == 0) {
            int m = cs_ruleset_metric_index(rs, name + 5);
            cr_assert_geq(m, 0, "%s", name);
            cr_assert_eq(cs_columns_unit_mean(&ref, 0, &rs->metrics[m]), CS_OK);
        } else {
            cr_assert_eq(strncmp(name, "p_", 2), 0, "%s: a column of no kind", name);
            cr_assert_eq(cs_columns_unit_distance(&ref, 0, strtod(name + 2, NULL)), CS_OK);
            n_p++;
        }
        expect_same_column(t, c, &ref);
        cs_table_free(&ref);
    }
    /* catalogue, name, ruleset, points, base, type, reach_50/75/90, plus1_speed,
     * points_per_inch_75; move and more; p_4, p_12. */
    cr_expect_eq(n_fixed, 11);
    cr_expect_gt(n_params, 0);
    cr_expect_eq(n_p, 2);
    cs_request_column c;
    for (int k = 0; cs_request_column_at(r, 0, k, &c); k++) {
        if (strcmp(c.name, "p_12") == 0) {
            cr_expect_str_eq(c.label, "12\u2033");
            cr_expect_str_eq(c.kind, "exact");
        }
        if (strcmp(c.name, "reach_75") == 0) {
            cr_expect_str_eq(c.label, "reach 75%");
            cr_expect_str_eq(c.unit, "in");
        }
        if (strcmp(c.name, "name") == 0)
            cr_expect_str_eq(c.kind, "key");
    }
    cs_request_free(r);
}
