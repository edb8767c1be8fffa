/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The request layer (include/chargesim/request.h, issue 51) as a binding
 * would use it: a command and its keys in, the command line's bytes out
 * (through the formatter, tablefmt.h), the parameter at fault named,
 * progress reported and a run cancelled. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
    char cmd[1400], dist[512], meta[600];
    snprintf(dist, sizeof dist, "%s/d.csv", th_tmpdir());
    snprintf(meta, sizeof meta, "%s-metadata.json", dist);
    snprintf(cmd, sizeof cmd,
             "run - --set experiment.ruleset=generic --set distance=5..7 --dist %s -o /dev/null",
             dist);
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
