/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Reports (src/sim/tables/report.c) and table writers (src/io/write/tablewrite.c), in process:
 * the summary's columns, pivot tables (shape, labels, rounding, one table
 * per value of further swept keys), and the CSV, Markdown and LaTeX
 * writers' escaping. The runs are exact, so every cell is hand-computed:
 * P(2D6 >= k) for k = 2..6 is 36, 35, 33, 30, 26 in 36. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/report.h"
#include "chargesim/tablewrite.h"
#include "chargesim/tablewrite.h"
#include "support/helpers.h"

/* WHFB 8th (M + 2D6 >= distance), exact. The distance list keeps 7.5 as
 * written, and a half inch rounds the needed roll up. */
static const char *const two_keys =
    "[experiment]\nname = pivot-test\nruleset = generic\nmethod = exact\n"
    "[params]\npreset = whfb8\nmove = 3,4\ndistance = 6, 7.5, 9\n";

/* The same with a third swept key, outermost. */
static const char *const three_keys =
    "[experiment]\nname = pivot-test\nruleset = generic\nmethod = exact\n"
    "[params]\npreset = whfb8\nreroll = none,failed\nmove = 3,4\ndistance = 6, 7.5, 9\n";

static cs_experiment exp_;
static cs_run_result res;
static bool loaded, ran;

static void run_ini(const char *ini)
{
    cs_error err;
    cr_assert_eq(th_load(ini, NULL, 0, &exp_, &err), CS_OK, "%s", err.msg);
    loaded = true;
    cr_assert_eq(th_run(&exp_, 2, &res), CS_OK);
    ran = true;
}

static void teardown(void)
{
    if (ran)
        cs_sched_result_free(&res);
    if (loaded)
        cs_experiment_free(&exp_);
    ran = loaded = false;
}

TestSuite(report, .fini = teardown);

/* The text a writer produces (malloc'd). */
static char *write_text(const cs_table *t, cs_format fmt)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert(f);
    cr_assert_eq(cs_tablewrite(t, fmt, f), CS_OK);
    fclose(f);
    return buf;
}

/* Several tables as `chargesim run` prints them: a blank line between
 * Markdown or LaTeX tables. */
static char *write_all(const cs_table *t, int n, cs_format fmt)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cr_assert(f);
    for (int i = 0; i < n; i++) {
        if (i && fmt != CS_FORMAT_CSV)
            fputc('\n', f);
        cr_assert_eq(cs_tablewrite(&t[i], fmt, f), CS_OK);
    }
    fclose(f);
    return buf;
}

static char *slurp_expected(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/tests/expected/%s", th_root(), name);
    char *buf = th_slurp(path, NULL);
    cr_assert(buf, "cannot read %s", path);
    return buf;
}

static const char *cell(const cs_table *t, int r, int c)
{
    const char *s = t->cell[(size_t)r * (size_t)t->ncols + (size_t)c];
    return s ? s : "";
}

static void free_tables(cs_table *t, int n)
{
    for (int i = 0; i < n; i++)
        cs_table_free(&t[i]);
    free(t);
}

/* Field i (0-based) of a CSV line without quotes, as a number; NAN when empty. */
static double csv_number(const char *line, int i)
{
    for (; i > 0 && line; i--)
        line = strchr(line, ',') ? strchr(line, ',') + 1 : NULL;
    cr_assert(line, "no field %d", i);
    return *line == ',' || *line == '\n' || *line == '\0' ? (double)NAN : strtod(line, NULL);
}

Test(report, summary_csv_columns_and_exact_values)
{
    run_ini("[experiment]\nname = summary-test\nruleset = generic\nmethod = exact\n"
            "[params]\npreset = whfb8\nmove = 3\ndistance = 6,9\n");
    cs_table t;
    cr_assert_eq(cs_report_summary(&res, CS_FORMAT_CSV, &t), CS_OK);
    char *s = write_text(&t, CS_FORMAT_CSV);
    /* Swept keys, trials, successes, p_success, ci_low, ci_high, one p_ per
     * outcome, one mean_ per metric, each outcome's interval, method. Exact:
     * one layout, no success count, zero-width intervals. M3 at 6": 2D6 >= 3
     * = 35/36; at 9": 2D6 >= 6 = 26/36; mean roll 7, mean range 3 + 7. */
    const char *head = "distance,trials,successes,p_success,ci_low,ci_high,p_charged,p_failed,"
                       "p_illegal,mean_roll,mean_range,ci_low_charged,ci_high_charged,"
                       "ci_low_failed,ci_high_failed,ci_low_illegal,ci_high_illegal,method\n";
    cr_assert(strncmp(s, head, strlen(head)) == 0, "%s", s);
    /* Read back, every exact value equals its fraction within 1e-15 (issue
     * 52: printed whole, no longer rounded to six decimals). */
    static const double win[2] = {35.0 / 36.0, 26.0 / 36.0};
    const char *line = s + strlen(head);
    for (int r = 0; r < 2; r++, line = strchr(line, '\n') + 1) {
        cr_expect(strncmp(line, r ? "9,,," : "6,,,", 4) == 0, "%s", line);
        const double want[] = {win[r], win[r],     win[r],     win[r], 1.0 - win[r], 0.0, 7.0,
                               10.0,   win[r],     win[r],     1.0 - win[r], 1.0 - win[r], 0.0,
                               0.0};
        /* Within 1e-15 of each (relative for the means, whose sums of
         * doubles carry a few units of the last place: 6.999999999999998). */
        for (int i = 0; i < 14; i++)
            cr_expect(fabs(csv_number(line, 3 + i) - want[i]) <= 1e-15 * fmax(1.0, want[i]),
                      "row %d field %d: %.17g, exact %.17g", r, 3 + i, csv_number(line, 3 + i),
                      want[i]);
        cr_expect(strstr(line, ",exact\n") == strchr(line, '\n') - 6, "%s", line);
    }
    /* The shortest text that reads back: 0, not 0.000000. */
    cr_expect(strstr(s, ",0,6.99999") || strstr(s, ",0,7,"), "%s", s);
    free(s);
    cs_table_free(&t);
}

Test(report, summary_markdown_in_percent_with_title_and_note)
{
    run_ini("[experiment]\nname = summary-test\nruleset = generic\nmethod = exact\n"
            "[params]\npreset = whfb8\nmove = 3\ndistance = 6,9\n");
    cs_table t;
    cr_assert_eq(cs_report_summary(&res, CS_FORMAT_MD, &t), CS_OK);
    char *s = write_text(&t, CS_FORMAT_MD);
    cr_expect_str_eq(
        s, "### summary-test (generic)\n\n"
           "| distance | trials | successes | p_success % | ci_low % | ci_high % | p_charged % "
           "| p_failed % | p_illegal % | mean_roll | mean_range | method |\n"
           "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n"
           "| 6 |  |  | 97.22 | 97.22 | 97.22 | 97.22 | 2.78 | 0.00 | 7.00 | 10.00 | exact |\n"
           "| 9 |  |  | 72.22 | 72.22 | 72.22 | 72.22 | 27.78 | 0.00 | 7.00 | 10.00 | exact |\n"
           "\nExact probabilities (method exact: every dice outcome enumerated).\n");
    free(s);
    cs_table_free(&t);
}

Test(report, summary_monte_carlo_counts_and_interval)
{
    /* w40k at 8": the charge ends within Engagement Range (1"), so 2D6 >= 7,
     * p = 21/36 (the test said 2D6 >= 8 before issue 15.1). */
    run_ini("[experiment]\nname = mc-test\nruleset = generic\nmethod = mc\ntrials = 40000\n"
            "seed = 5\n[params]\npreset = w40k\ndistance = 8\n");
    cs_table t;
    cr_assert_eq(cs_report_summary(&res, CS_FORMAT_CSV, &t), CS_OK);
    cr_assert_eq(t.nrows, 1);
    cr_assert_eq(t.ncols, 17);
    cr_expect_str_eq(t.header[0], "trials");
    cr_expect_str_eq(cell(&t, 0, 0), "40000");
    long successes = strtol(cell(&t, 0, 1), NULL, 10);
    double p = strtod(cell(&t, 0, 2), NULL), lo = strtod(cell(&t, 0, 3), NULL),
           hi = strtod(cell(&t, 0, 4), NULL);
    char want[32];
    snprintf(want, sizeof want, "%.6f", (double)successes / 40000.0);
    cr_expect_str_eq(cell(&t, 0, 2), want, "p_success is successes / trials");
    cr_expect(lo < p && p < hi);
    cr_expect_leq(fabs(p - 21.0 / 36.0), th_5sigma(21.0 / 36.0, 40000));
    cr_expect_str_eq(cell(&t, 0, 5), cell(&t, 0, 2), "p_charged is the success");
    cr_expect_str_eq(cell(&t, 0, 7), "0.000000", "p_illegal: 8\" is declared");
    /* The outcome's interval is success's: charged is the success. */
    cr_expect_str_eq(cell(&t, 0, 10), cell(&t, 0, 3));
    cr_expect_str_eq(cell(&t, 0, 11), cell(&t, 0, 4));
    cr_expect_str_eq(cell(&t, 0, 16), "mc");
    char note[512];
    cs_report_method_note(&res, note, sizeof note);
    cr_expect(strstr(note, "Method mc: 40000 trials per row, seed 5; every probability's 95% "
                           "interval (Wilson score)"),
              "%s", note);
    cs_table_free(&t);
}

Test(report, pivot_shape_labels_and_rounding)
{
    run_ini(two_keys);
    cs_table *t;
    int n;
    cs_error err;
    cr_assert_eq(cs_report_pivot(&res, "distance", "move", CS_FORMAT_MD, &t, &n, &err), CS_OK);
    cr_assert_eq(n, 1);
    /* Rows: the distances as written; columns: the row key, then moves. */
    cr_expect_eq(t[0].nrows, 3);
    cr_expect_eq(t[0].ncols, 3);
    cr_expect_str_eq(t[0].header[0], "distance \\ move");
    cr_expect_str_eq(t[0].header[1], "3");
    cr_expect_str_eq(t[0].header[2], "4");
    cr_expect_str_eq(cell(&t[0], 1, 0), "7.5");
    /* M3: 6" needs 3+ (35/36 = 97.2222 -> 97.22), 7.5" needs 5+ (30/36 =
     * 83.333 -> 83.33), 9" needs 6+ (26/36 = 72.222 -> 72.22). M4: 2+
     * (100.00), 4+ (33/36 = 91.6667 -> 91.67, rounded up), 5+ (83.33). */
    static const char *const want[3][2] = {
        {"97.22", "100.00"}, {"83.33", "91.67"}, {"72.22", "83.33"}};
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 2; c++)
            cr_expect_str_eq(cell(&t[0], r, c + 1), want[r][c], "row %d col %d", r, c);
    char *s = write_all(t, n, CS_FORMAT_MD), *golden = slurp_expected("report_pivot.md");
    cr_expect_str_eq(s, golden);
    free(s);
    free(golden);
    free_tables(t, n);
}

Test(report, pivot_transposed)
{
    run_ini(two_keys);
    cs_table *t;
    int n;
    cs_error err;
    cr_assert_eq(cs_report_pivot(&res, "move", "distance", CS_FORMAT_MD, &t, &n, &err), CS_OK);
    cr_assert_eq(n, 1);
    cr_expect_eq(t[0].nrows, 2);
    cr_expect_eq(t[0].ncols, 4);
    cr_expect_str_eq(t[0].header[0], "move \\ distance");
    cr_expect_str_eq(t[0].header[2], "7.5");
    cr_expect_str_eq(cell(&t[0], 1, 0), "4");
    cr_expect_str_eq(cell(&t[0], 1, 2), "91.67");
    free_tables(t, n);
}

Test(report, pivot_extra_key_gives_one_table_per_value)
{
    run_ini(three_keys);
    cs_table *t;
    int n;
    cs_error err;
    cr_assert_eq(cs_report_pivot(&res, "distance", "move", CS_FORMAT_MD, &t, &n, &err), CS_OK);
    cr_assert_eq(n, 2);
    cr_expect_str_eq(t[0].title, "pivot-test: p_success (%), reroll = none");
    cr_expect_str_eq(t[1].title, "pivot-test: p_success (%), reroll = failed");
    /* A failed roll re-rolled once: 1 - (1 - p)^2. M3 6": 1 - (1/36)^2 =
     * 1295/1296 = 99.92; 7.5": 1 - (6/36)^2 = 35/36 = 97.22; 9": 1 -
     * (10/36)^2 = 1196/1296 = 92.28. M4 7.5": 1 - (3/36)^2 = 99.3056 ->
     * 99.31; 9": 97.22. */
    static const char *const want[3][2] = {
        {"99.92", "100.00"}, {"97.22", "99.31"}, {"92.28", "97.22"}};
    cr_assert_eq(t[1].nrows, 3);
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 2; c++)
            cr_expect_str_eq(cell(&t[1], r, c + 1), want[r][c], "row %d col %d", r, c);
    char *s = write_all(t, n, CS_FORMAT_MD), *golden = slurp_expected("report_pivot3.md");
    cr_expect_str_eq(s, golden);
    free(s);
    free(golden);
    free_tables(t, n);

    cr_assert_eq(cs_report_pivot(&res, "distance", "move", CS_FORMAT_TEX, &t, &n, &err), CS_OK);
    s = write_all(t, n, CS_FORMAT_TEX);
    golden = slurp_expected("report_pivot3.tex");
    cr_expect_str_eq(s, golden);
    free(s);
    free(golden);
    free_tables(t, n);
}

Test(report, pivot_csv_puts_extra_keys_in_leading_columns)
{
    run_ini(three_keys);
    cs_table *t;
    int n;
    cs_error err;
    cr_assert_eq(cs_report_pivot(&res, "distance", "move", CS_FORMAT_CSV, &t, &n, &err), CS_OK);
    cr_assert_eq(n, 1);
    char *s = write_all(t, n, CS_FORMAT_CSV);
    /* Each row ends with its provenance: the method and the widest interval
     * half-width of its cells, in percentage points (0 when exact). */
    cr_expect_str_eq(s, "reroll,distance,move=3,move=4,method,max_ci_halfwidth_pct\n"
                        "none,6,97.22,100.00,exact,0.0000\n"
                        "none,7.5,83.33,91.67,exact,0.0000\n"
                        "none,9,72.22,83.33,exact,0.0000\n"
                        "failed,6,99.92,100.00,exact,0.0000\n"
                        "failed,7.5,97.22,99.31,exact,0.0000\n"
                        "failed,9,92.28,97.22,exact,0.0000\n");
    free(s);
    free_tables(t, n);
}

Test(report, pivot_errors_name_the_swept_keys)
{
    run_ini(two_keys);
    cs_table *t;
    int n;
    cs_error err;
    cr_expect_eq(cs_report_pivot(&res, "distance", "reroll", CS_FORMAT_MD, &t, &n, &err),
                 CS_EINPUT);
    cr_expect(strstr(err.msg, "this run sweeps: move, distance"), "%s", err.msg);
    cr_expect_null(t);
    cr_expect_eq(n, 0);
    cr_expect_eq(cs_report_pivot(&res, "move", "move", CS_FORMAT_MD, &t, &n, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, "two different swept keys"), "%s", err.msg);
}

Test(report, dist_long_form)
{
    /* The distributions are collected only when asked (--dist). */
    cs_error err;
    cr_assert_eq(th_load("[experiment]\nname = dist-test\nruleset = generic\nmethod = exact\n"
                         "[params]\npreset = w40k\ndistance = 8,9\n",
                         NULL, 0, &exp_, &err),
                 CS_OK, "%s", err.msg);
    loaded = true;
    cs_run_opts o = {.threads = 2, .want_dist = true};
    cr_assert_eq(cs_sched_run(&exp_, &o, &res, &err), CS_OK, "%s", err.msg);
    ran = true;
    cs_table t;
    cr_assert_eq(cs_report_dist(&res, &t), CS_OK);
    char *s = write_text(&t, CS_FORMAT_CSV);
    /* w40k ends within 1" (Engagement Range): 8" needs 2D6 >= 7, 21/36; 9"
     * needs 8, 15/36 (15/36 and 10/36 before issue 15.1); the roll 2..12 as
     * (6 - |7 - v|)/36. Exact: each interval is the value itself. */
    cr_expect(strstr(s, "distance,metric,value,count,p,ci_low,ci_high,method\n") == s, "%s", s);
    /* The outcomes whole (issue 52), read back within 1e-15 of 21/36, 15/36
     * and 0; a metric's masses are summed in units of 2^-40, six decimals. */
    static const struct {
        const char *row;
        double p;
    } outcome[] = {{"\n8,outcome,charged,,", 21.0 / 36.0},
                   {"\n8,outcome,failed,,", 15.0 / 36.0},
                   {"\n8,outcome,illegal,,", 0.0},
                   {"\n9,outcome,charged,,", 15.0 / 36.0}};
    for (size_t i = 0; i < sizeof outcome / sizeof outcome[0]; i++) {
        const char *row = strstr(s, outcome[i].row);
        cr_assert(row, "%s", s);
        row += strlen(outcome[i].row);
        for (int f = 0; f < 3; f++, row = strchr(row, ',') + 1)
            cr_expect(fabs(strtod(row, NULL) - outcome[i].p) <= 1e-15, "%s", outcome[i].row);
        cr_expect(strncmp(row, "exact\n", 6) == 0, "%s", row);
    }
    cr_expect(strstr(s, "\n8,outcome,illegal,,0,0,0,exact\n"), "%s", s);
    cr_expect(strstr(s, "\n8,roll,2,,0.027778,0.027778,0.027778,exact\n"), "%s", s);
    cr_expect(strstr(s, "\n8,roll,7,,0.166667,0.166667,0.166667,exact\n"), "%s", s);
    cr_expect(strstr(s, "\n9,roll,12,,0.027778,0.027778,0.027778,exact\n"), "%s", s);
    free(s);
    cs_table_free(&t);
}

/* [labels] name a swept key's values: a KEY_label column beside KEY in
 * the summary, and "label (value)" rows and columns in a Markdown pivot. */
Test(report, labels_reach_summary_and_pivot)
{
    run_ini("[experiment]\nname = label-test\nruleset = generic\nmethod = exact\n"
            "[params]\nmove = 5\ndice = 2d6, 0\ndistance = 6, 7\n"
            "[labels]\ndice = WHFB 8th, SOVL\n");
    cs_table t;
    cr_assert_eq(cs_report_summary(&res, CS_FORMAT_CSV, &t), CS_OK);
    char *s = write_text(&t, CS_FORMAT_CSV);
    /* M5 + 2D6 >= 6 or 7: certain; M5 + 0 < 6: never. */
    cr_expect(strstr(s, "dice,dice_label,distance,trials,") == s, "%s", s);
    /* Exact: 1 and 0 written whole (issue 52). */
    cr_expect(strstr(s, "\n2d6,WHFB 8th,6,,,1,"), "%s", s);
    cr_expect(strstr(s, "\n0,SOVL,7,,,0,"), "%s", s);
    free(s);
    cs_table_free(&t);
    cs_table *pt;
    int n;
    cs_error err;
    cr_assert_eq(cs_report_pivot(&res, "dice", "distance", CS_FORMAT_MD, &pt, &n, &err), CS_OK);
    s = write_text(&pt[0], CS_FORMAT_MD);
    cr_expect(strstr(s, "| WHFB 8th (2d6) | 100.00 | 100.00 |\n| SOVL (0) | 0.00 | 0.00 |\n"), "%s", s);
    free(s);
    for (int i = 0; i < n; i++)
        cs_table_free(&pt[i]);
    free(pt);
}

/* A table with the characters each format must escape. */
static void special_table(cs_table *t)
{
    cr_assert_eq(cs_table_init(t, 3), CS_OK);
    cr_assert_eq(cs_table_set_header(t, 0, "unit_name", false), CS_OK);
    cr_assert_eq(cs_table_set_header(t, 1, "a|b", true), CS_OK);
    cr_assert_eq(cs_table_set_header(t, 2, "p %", true), CS_OK);
    int r = cs_table_add_row(t);
    cr_assert_eq(r, 0);
    cr_assert_eq(cs_table_set(t, r, 0, "%s", "Knights & Squires"), CS_OK);
    cr_assert_eq(cs_table_set(t, r, 1, "%s", "1|2"), CS_OK);
    cr_assert_eq(cs_table_set(t, r, 2, "%.2f%%", 41.666), CS_OK);
    r = cs_table_add_row(t);
    cr_assert_eq(cs_table_set(t, r, 0, "%s", "say \"hi\", then_go"), CS_OK);
    cr_assert_eq(cs_table_set(t, r, 2, "%s", "$5 #1 {x} ~ ^ \\"), CS_OK);
    cr_assert_eq(cs_table_set_title(t, "T_1 & 50%%"), CS_OK);
    cr_assert_eq(cs_table_set_note(t, "n_2"), CS_OK);
}

Test(report, markdown_escapes_pipes_only)
{
    cs_table t;
    special_table(&t);
    char *s = write_text(&t, CS_FORMAT_MD);
    /* A pipe would end a cell; %, _, & and the rest are plain text in a
     * GitHub table (intraword underscores do not emphasise). An unset cell
     * is empty. */
    cr_expect_str_eq(s, "### T_1 & 50%\n\n"
                        "| unit_name | a\\|b | p % |\n"
                        "| --- | ---: | ---: |\n"
                        "| Knights & Squires | 1\\|2 | 41.67% |\n"
                        "| say \"hi\", then_go |  | $5 #1 {x} ~ ^ \\ |\n"
                        "\nn_2\n");
    free(s);
    cs_table_free(&t);
}

Test(report, latex_escapes_specials)
{
    cs_table t;
    special_table(&t);
    char *s = write_text(&t, CS_FORMAT_TEX);
    cr_expect(strstr(s, "\\caption{T\\_1 \\& 50\\%}\n"), "%s", s);
    cr_expect(strstr(s, "\\begin{tabular}{lrr}\n"), "%s", s);
    cr_expect(strstr(s, "unit\\_name & "), "%s", s);
    cr_expect(strstr(s, " & p \\% \\\\\n"), "%s", s);
    cr_expect(strstr(s, "Knights \\& Squires & "), "%s", s);
    cr_expect(strstr(s, " & 41.67\\% \\\\\n"), "%s", s);
    cr_expect(strstr(s, "say ''hi'', then\\_go &  & \\$5 \\#1 \\{x\\} \\textasciitilde{} "
                        "\\textasciicircum{} \\textbackslash{} \\\\\n"),
              "%s", s);
    cr_expect(strstr(s, "\\footnotesize n\\_2\n\\end{table}\n"), "%s", s);
    free(s);
    cs_table_free(&t);
}

Test(report, csv_quotes_only_where_needed)
{
    cs_table t;
    special_table(&t);
    char *s = write_text(&t, CS_FORMAT_CSV);
    /* No title or note in CSV; a comma or a quote makes libcsv quote the
     * field and double the quotes. */
    cr_expect_str_eq(s, "unit_name,a|b,p %\n"
                        "Knights & Squires,1|2,41.67%\n"
                        "\"say \"\"hi\"\", then_go\",,$5 #1 {x} ~ ^ \\\n");
    free(s);
    cs_table_free(&t);
}

Test(report, pivot_any_reported_column)
{
    /* --pivot ROW:COL:COLUMN: p_failed is 1 - p_success (M3 at 6": 1/36 =
     * 2.78%); the mean roll of 2D6 is 7 at every point; trials are 1 for
     * an exact run; an unknown column names the accepted ones. */
    run_ini(two_keys);
    cs_table *t;
    int n;
    cs_error err;
    cr_assert_eq(cs_report_pivot_column(&res, "distance", "move", "p_failed", CS_FORMAT_MD, &t,
                                        &n, &err),
                 CS_OK, "%s", err.msg);
    cr_expect_str_eq(cell(&t[0], 0, 1), "2.78");
    cr_expect_str_eq(cell(&t[0], 0, 2), "0.00");
    cr_expect_str_eq(t[0].title, "pivot-test: p_failed (%)");
    cr_expect(strstr(t[0].note, "Cells: p_failed in percent."), "%s", t[0].note);
    free_tables(t, n);
    cr_assert_eq(cs_report_pivot_column(&res, "distance", "move", "mean_roll", CS_FORMAT_CSV, &t,
                                        &n, &err),
                 CS_OK, "%s", err.msg);
    /* The exact mean whole: the double of 7 up to its last bits. */
    cr_expect(fabs(strtod(cell(&t[0], 2, 2), NULL) - 7.0) <= 1e-14, "%s", cell(&t[0], 2, 2));
    cr_expect_str_eq(t[0].header[4], "max_ci_halfwidth_pct");
    cr_expect_str_eq(cell(&t[0], 2, 4), "", "a mean has no interval here");
    free_tables(t, n);
    cr_assert_eq(cs_report_pivot_column(&res, "move", "distance", "trials", CS_FORMAT_MD, &t, &n,
                                        &err),
                 CS_OK, "%s", err.msg);
    cr_expect_str_eq(cell(&t[0], 1, 3), "", "an exact result claims no trial count");
    free_tables(t, n);
    cr_expect_eq(cs_report_pivot_column(&res, "move", "distance", "p_nope", CS_FORMAT_MD, &t, &n,
                                        &err),
                 CS_EINPUT);
    cr_expect(strstr(err.msg, "'p_nope' is not a reported column"), "%s", err.msg);
}
