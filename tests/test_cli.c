/* SPDX-License-Identifier: GPL-3.0-or-later */
/* bin/chargesim as a user runs it: outputs, exit statuses, error messages,
 * and no partial output files. */
#define _DEFAULT_SOURCE
#define _XOPEN_SOURCE 700
#include <criterion/criterion.h>
#include <fcntl.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "chargesim/cli.h"
#include "chargesim/parse.h"
#include "support/helpers.h"

static char *out, *err;

static void release(void)
{
    free(out);
    free(err);
    out = err = NULL;
}

TestSuite(cli, .fini = release);

/* The value of line `v,` of a dice CSV, field i (1: p, 2: p_at_least, 3:
 * p_at_most) read back; the line's text in *line. */
static double dice_field(const char *csv, int v, int i, const char **line)
{
    char key[16];
    snprintf(key, sizeof key, "\n%d,", v);
    const char *at = strstr(csv, key);
    cr_assert(at, "no row %d in %s", v, csv);
    *line = at + 1;
    for (at++; i > 0; i--)
        at = strchr(at, ',') + 1;
    return strtod(at, NULL);
}

/* The p_fraction cell of line (the last field). */
static void dice_fraction(const char *line, char *buf, size_t cap)
{
    const char *end = strchr(line, '\n'), *start = end;
    while (start > line && start[-1] != ',')
        start--;
    snprintf(buf, cap, "%.*s", (int)(end - start), start);
}

Test(cli, dice_exact_2d6)
{
    cr_assert_eq(th_cli("dice 2d6 --exact", &out, &err), 0, "%s", err);
    /* 1/36 .. 6/36 .. 1/36, each printed whole: the shortest text that
     * reads back as the double (issue 52), and as a fraction. */
    cr_expect(strstr(out, "value,p,p_at_least,p_at_most,p_fraction\n") == out);
    cr_expect(strstr(out, "\n2,0.0277777777777777") && strstr(out, ",1/36\n"), "%s", out);
    const char *line;
    for (int v = 2; v <= 12; v++) {
        int ways = v <= 7 ? v - 1 : 13 - v, below = 0;
        for (int u = 2; u < v; u++)
            below += u <= 7 ? u - 1 : 13 - u;
        cr_expect(fabs(dice_field(out, v, 1, &line) - ways / 36.0) <= 1e-15, "%s", line);
        cr_expect(fabs(dice_field(out, v, 2, &line) - (36 - below) / 36.0) <= 1e-15, "%s", line);
        cr_expect(fabs(dice_field(out, v, 3, &line) - (below + ways) / 36.0) <= 1e-15, "%s", line);
    }
    cr_expect(strstr(out, ",1/6\n"), "%s", out);
}

Test(cli, dice_exact_keeps_every_digit)
{
    /* 3d6kh2 totals 2 only on 1, 1, 1: 1/216, which six decimals printed
     * as 0.004630. */
    cr_assert_eq(th_cli("dice 3d6kh2 --exact", &out, &err), 0, "%s", err);
    const char *line;
    cr_expect(fabs(dice_field(out, 2, 1, &line) - 1.0 / 216.0) <= 1e-15, "%s", line);
    char frac[64];
    dice_fraction(line, frac, sizeof frac);
    cr_expect_str_eq(frac, "1/216");
    release();
    /* 10d6 totals 60 only on ten sixes: 1/6^10, which printed as 0.000000. */
    cr_assert_eq(th_cli("dice 10d6 --exact", &out, &err), 0, "%s", err);
    double p = dice_field(out, 60, 1, &line);
    cr_expect(p > 0.0, "%s", line);
    cr_expect(fabs(p - 1.0 / 60466176.0) <= 1e-15 * 1e-7, "%s", line);
    dice_fraction(line, frac, sizeof frac);
    cr_expect_str_eq(frac, "1/60466176");
    release();
    /* Markdown keeps its display rounding, and no fraction column. */
    cr_assert_eq(th_cli("dice 3d6kh2 --exact --format md", &out, &err), 0, "%s", err);
    cr_expect(strstr(out, "| value | p % | p_at_least % | p_at_most % |\n"), "%s", out);
    cr_expect(strstr(out, "| 2 | 0.4630 | 100.0000 | 0.4630 |\n"), "%s", out);
}

Test(cli, dice_sampled_has_counts_and_intervals)
{
    cr_assert_eq(th_cli("dice 2d6 --trials 100000 --seed 5", &out, &err), 0, "%s", err);
    cr_expect(strstr(out, "value,p,p_at_least,p_at_most,count,ci_low,ci_high,ci_low_at_least,"
                          "ci_high_at_least,ci_low_at_most,ci_high_at_most\n") == out);
    /* The value 2 is at least 2 in every roll: that share is 1 with a
     * one-sided interval. */
    cr_expect(strstr(out, "\n2,") && strstr(strstr(out, "\n2,"), ",1.000000,"), "%s", out);
    char *again = NULL;
    cr_assert_eq(th_cli("dice 2d6 --trials 100000 --seed 5 --threads 1", &again, NULL), 0);
    cr_expect_str_eq(out, again, "the counts do not depend on threads");
    free(again);
}

Test(cli, malformed_dice_names_the_column)
{
    cr_expect_eq(th_cli("dice 2d", &out, &err), 2);
    cr_expect(strstr(err, "column 3"), "%s", err);
    cr_expect(strstr(err, "sides"), "%s", err);
    release();
    cr_expect_eq(th_cli("dice 3d6kh4", &out, &err), 2);
    cr_expect(strstr(err, "keep count"), "%s", err);
}

Test(cli, unknown_key_and_bad_sweep_name_file_and_line)
{
    const char *dir = th_tmpdir();
    char path[512], args[1024];
    snprintf(path, sizeof path, "%s/bad.ini", dir);
    FILE *f = fopen(path, "w");
    fputs("[experiment]\nruleset = generic\n[params]\nmove = 4\ndistanse = 3\n", f);
    fclose(f);
    snprintf(args, sizeof args, "run %s", path);
    cr_expect_eq(th_cli(args, &out, &err), 2);
    cr_expect(strstr(err, "bad.ini:5: [params] unknown key 'distanse'"), "%s", err);
    release();
    f = fopen(path, "w");
    fputs("[experiment]\nruleset = generic\n[params]\ndistance = 1..\n", f);
    fclose(f);
    cr_expect_eq(th_cli(args, &out, &err), 2);
    cr_expect(strstr(err, "bad.ini:4: distance = '1..'"), "%s", err);
    release();
    snprintf(args, sizeof args, "run %s --set distance=3 --set experiment.seed=-1", path);
    cr_expect_eq(th_cli(args, &out, &err), 2);
    cr_expect(strstr(err, "seed = '-1'"), "%s", err);
}

Test(cli, unwritable_output_fails_before_running_and_leaves_nothing)
{
    char args[1024];
    snprintf(args, sizeof args, "run %s/experiments/default.ini -o /nonexistent-dir/x.csv",
             th_root());
    cr_expect_eq(th_cli(args, &out, &err), 2);
    cr_expect(strstr(err, "/nonexistent-dir/x.csv: cannot write"), "%s", err);
    cr_expect_eq(access("/nonexistent-dir/x.csv", F_OK), -1);
}

Test(cli, output_file_is_complete_and_no_temporary_is_left)
{
    const char *dir = th_tmpdir();
    char args[2048], path[512], dist[512];
    snprintf(path, sizeof path, "%s/out.csv", dir);
    snprintf(dist, sizeof dist, "%s/dist.csv", dir);
    snprintf(args, sizeof args,
             "run %s/experiments/default.ini --set move=5 --set distance=8,11 -o %s --dist %s",
             th_root(), path, dist);
    cr_assert_eq(th_cli(args, &out, &err), 0, "%s", err);
    FILE *f = fopen(path, "r");
    cr_assert(f);
    char line[512];
    cr_assert(fgets(line, sizeof line, f));
    /* move is fixed by the override, so only distance is swept. */
    cr_expect_str_eq(line, "distance,trials,successes,p_success,ci_low,ci_high,p_charged,"
                           "p_failed,p_illegal,mean_roll,mean_range,ci_low_charged,"
                           "ci_high_charged,ci_low_failed,ci_high_failed,ci_low_illegal,"
                           "ci_high_illegal,method\n");
    /* M5 + 2D6 >= 8 is 2D6 >= 3 = 35/36; >= 11 is 2D6 >= 6 = 26/36. */
    cr_assert(fgets(line, sizeof line, f));
    /* Exact values are written whole (issue 52): read back, each equals
     * its fraction within 1e-15. */
    cr_expect(strncmp(line, "8,,,", 4) == 0, "%s", line);
    const double q = 35.0 / 36.0;
    const double want[] = {q, q, q, q, 1 - q, 0, 7, 12, q, q, 1 - q, 1 - q, 0, 0};
    const char *cell = line + 4;
    for (int i = 0; i < 14; i++, cell = strchr(cell, ',') + 1)
        cr_expect(fabs(strtod(cell, NULL) - want[i]) <= 1e-15 * fmax(1.0, want[i]),
                  "field %d of %s", 3 + i, line); /* the means: relative */
    cr_expect_str_eq(cell, "exact\n");
    fclose(f);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "ls %s | grep -c tmp", dir);
    FILE *p = popen(cmd, "r");
    cr_assert(fgets(line, sizeof line, p));
    pclose(p);
    cr_expect_str_eq(line, "0\n");
}

Test(cli, bad_usage_exits_2)
{
    cr_expect_eq(th_cli("", NULL, NULL), 2);
    cr_expect_eq(th_cli("frobnicate", NULL, NULL), 2);
    cr_expect_eq(th_cli("run", NULL, NULL), 2);
    cr_expect_eq(th_cli("run /nonexistent.ini", NULL, &err), 2);
    cr_expect(strstr(err, "/nonexistent.ini: cannot open"), "%s", err);
    cr_expect_eq(th_cli("run x.ini --bogus", NULL, NULL), 2);
    cr_expect_eq(th_cli("run x.ini --threads 0", NULL, NULL), 2);
    cr_expect_eq(th_cli("rules nope", NULL, NULL), 2);
    cr_expect_eq(th_cli("dice 2d6 --exact --trials 5", NULL, NULL), 2);
    /* A blank before the minus sign wrapped to 2^64 - 1 trials. */
    cr_expect_eq(th_cli("dice 2d6 --trials ' -1'", NULL, NULL), 2);
    cr_expect_eq(th_cli("dice 2d6 --trials ' 5'", NULL, NULL), 2);
}

Test(cli, help_for_every_command)
{
    static const char *const cmds[] = {"--help", "run --help", "dice --help", "rules --help",
                                       "units --help", "draw --help"};
    for (size_t i = 0; i < sizeof cmds / sizeof cmds[0]; i++) {
        cr_expect_eq(th_cli(cmds[i], &out, &err), 0, "%s", cmds[i]);
        cr_expect(strstr(out, "usage"), "%s prints a usage", cmds[i]);
        release();
    }
}

Test(cli, rules_lists_and_documents)
{
    cr_assert_eq(th_cli("rules", &out, &err), 0);
    cr_expect(strstr(out, "generic"));
    release();
    cr_assert_eq(th_cli("rules generic", &out, &err), 0);
    cr_expect(strstr(out, "distance"));
    cr_expect(strstr(out, "[layout]"));
    cr_expect(strstr(out, "charged*"));
}

Test(cli, no_progress_bar_when_not_a_terminal)
{
    char args[512];
    snprintf(args, sizeof args, "run %s/experiments/default.ini --method mc --trials 20000",
             th_root());
    cr_assert_eq(th_cli(args, &out, &err), 0);
    cr_expect_str_eq(err, "");
}

Test(cli, pivot_markdown_and_latex)
{
    char args[512];
    snprintf(args, sizeof args,
             "run %s/experiments/default.ini --set move=5,6 --set distance=7..9 --format md "
             "--pivot move:distance",
             th_root());
    cr_assert_eq(th_cli(args, &out, &err), 0, "%s", err);
    cr_expect(strstr(out, "| move \\ distance | 7 | 8 | 9 |"), "%s", out);
    /* M5: 2D6 >= 2, 3, 4 = 100, 97.22, 91.67 %. */
    cr_expect(strstr(out, "| 5 | 100.00 | 97.22 | 91.67 |"), "%s", out);
    cr_expect(strstr(out, "Exact probabilities"), "%s", out);
    release();
    snprintf(args, sizeof args,
             "run %s/experiments/default.ini --set move=5,6 --set distance=7..9 --format tex "
             "--pivot move:distance",
             th_root());
    cr_assert_eq(th_cli(args, &out, &err), 0, "%s", err);
    cr_expect(strstr(out, "\\begin{tabular}{rrrr}"), "%s", out);
    cr_expect(strstr(out, "5 & 100.00 & 97.22 & 91.67 \\\\"), "%s", out);
}

Test(cli, draw_renders_a_trial_as_svg)
{
    const char *dir = th_tmpdir();
    char args[1024], path[512];
    snprintf(path, sizeof path, "%s/trial.svg", dir);
    snprintf(args, sizeof args, "draw %s/experiments/t9a-random-approach.ini --point 2 --trial 7 -o %s",
             th_root(), path);
    cr_assert_eq(th_cli(args, &out, &err), 0, "%s", err);
    FILE *f = fopen(path, "r");
    cr_assert(f);
    char buf[4096];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    buf[n] = '\0';
    fclose(f);
    cr_expect(strstr(buf, "<svg") != NULL);
    release();
    /* The same trial twice gives the same picture. */
    char *first = NULL, *second = NULL;
    snprintf(args, sizeof args, "draw %s/experiments/t9a-random-approach.ini --trial 7",
             th_root());
    cr_assert_eq(th_cli(args, &first, NULL), 0);
    cr_assert_eq(th_cli(args, &second, NULL), 0);
    cr_expect_str_eq(first, second);
    cr_expect(strstr(first, "<svg") != NULL); /* cairo draws text as glyphs */
    free(first);
    free(second);
}

Test(cli, draw_refuses_what_it_cannot_draw)
{
    char args[1024];
    snprintf(args, sizeof args, "draw %s/experiments/default.ini", th_root());
    cr_expect_eq(th_cli(args, &out, &err), 2);
    cr_expect(strstr(err, "has no table geometry to draw"), "%s", err);
    release();
    snprintf(args, sizeof args, "draw %s/experiments/t9a-random-approach.ini --trial 99999999",
             th_root());
    cr_expect_eq(th_cli(args, &out, &err), 2);
    cr_expect(strstr(err, "--trial"), "%s", err);
}

Test(cli, interrupt_leaves_no_file)
{
    /* A run far longer than the second it is given, interrupted as Ctrl-C
     * would: no output file, no temporary beside it, status 130. */
    const char *dir = th_tmpdir();
    const char *bin = getenv("CS_BIN");
    char cmd[2048], line[64];
    snprintf(cmd, sizeof cmd,
             "%s run %s/experiments/t9a-random-approach.ini --trials 50000000 -o %s/int.csv "
             "2>/dev/null & pid=$!; sleep 1; kill -INT $pid; wait $pid; echo $?; ls %s | wc -l",
             bin ? bin : "bin/chargesim", th_root(), dir, dir);
    FILE *p = popen(cmd, "r");
    cr_assert(p);
    cr_assert(fgets(line, sizeof line, p));
    cr_expect_str_eq(line, "130\n");
    cr_assert(fgets(line, sizeof line, p));
    cr_expect_str_eq(line, "0\n", "files left behind");
    pclose(p);
}

Test(cli, output_paths_that_cannot_work_fail_before_the_run)
{
    /* A directory as -o or --dist would only fail at the rename, after the
     * run, with status 1 (and --dist's summary already on stdout): it is bad
     * input, refused at once. -o and --dist naming one file would have one
     * overwrite the other: refused too, before anything is written. */
    const char *dir = th_tmpdir();
    char args[2048], path[512];
    snprintf(args, sizeof args, "run %s/experiments/default.ini -o %s", th_root(), dir);
    cr_expect_eq(th_cli(args, &out, &err), 2);
    cr_expect(strstr(err, "is a directory"), "%s", err);
    release();
    snprintf(args, sizeof args, "run %s/experiments/default.ini --dist %s", th_root(), dir);
    cr_expect_eq(th_cli(args, &out, &err), 2);
    cr_expect(strstr(err, "is a directory"), "%s", err);
    cr_expect_str_eq(out, "", "nothing on stdout");
    release();
    snprintf(path, sizeof path, "%s/same.csv", dir);
    snprintf(args, sizeof args, "run %s/experiments/default.ini -o %s --dist %s", th_root(),
             path, path);
    cr_expect_eq(th_cli(args, &out, &err), 2);
    cr_expect(strstr(err, "-o and --dist name the same file"), "%s", err);
    cr_expect_eq(access(path, F_OK), -1, "no file written");
}

Test(cli, dice_refuses_sampling_options_without_trials)
{
    /* The exact distribution has no seed, threads or interval: these
     * options were read and then ignored. */
    static const char *const cases[] = {"dice 2d6 --seed 5", "dice 2d6 --exact --threads 2",
                                        "dice 2d6 --confidence 0.9"};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cr_expect_eq(th_cli(cases[i], &out, &err), 2, "%s", cases[i]);
        cr_expect(strstr(err, "applies only to sampling (--trials N)"), "%s: %s", cases[i], err);
        cr_expect_str_eq(out, "", "%s: no table", cases[i]);
        release();
    }
    cr_expect_eq(th_cli("dice 2d6 --trials 1000 --confidence 0.9 --seed 3", &out, &err), 0,
                 "%s", err);
}

Test(cli, dice_error_caret_under_the_named_column)
{
    /* "3d6kh4": column 6 is the '4'. The message echoes the expression after
     * two spaces, so the caret line has 2 + 5 spaces before the '^'. */
    cr_expect_eq(th_cli("dice 3d6kh4", &out, &err), 2);
    cr_expect(strstr(err, "column 6"), "%s", err);
    cr_expect(strstr(err, "\n  3d6kh4\n       ^\n"), "%s", err);
    release();
    /* Column 1: the caret under the first character. */
    cr_expect_eq(th_cli("dice 0d6", &out, &err), 2);
    cr_expect(strstr(err, "column 1"), "%s", err);
    cr_expect(strstr(err, "\n  0d6\n  ^\n"), "%s", err);
}

Test(cli, a_failed_write_to_stdout_is_not_success)
{
    /* A full device takes nothing: every command that prints must say so
     * and exit 1 (these exited 0 with the text lost). The device is the
     * test's own (th_full_cmd), never the machine's /dev/full. */
    static const char *const cases[] = {"rules", "rules generic", "--help", "run --help",
                                        "dice 2d6"};
    if (!th_can_unshare())
        cr_skip(TH_SKIP_NO_NAMESPACE ": a full device is tested only in a private "
                "mount namespace");
    const char *bin = getenv("CS_BIN");
    const char *dir = th_tmpdir();
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char inner[2048], cmd[6144], line[512] = "";
        snprintf(inner, sizeof inner, "%s %s 2>%s/err", bin ? bin : "bin/chargesim", cases[i],
                 dir);
        th_full_cmd(cmd, sizeof cmd - 100, dir, inner);
        size_t n = strlen(cmd);
        snprintf(cmd + n, sizeof cmd - n, "; echo $?; cat %s/err", dir);
        FILE *p = popen(cmd, "r");
        cr_assert(p);
        cr_assert(fgets(line, sizeof line, p));
        cr_expect_str_eq(line, "1\n", "%s", cases[i]);
        cr_expect(fgets(line, sizeof line, p) && strstr(line, "No space left"), "%s: %s",
                  cases[i], line);
        pclose(p);
    }
}

/* Integers are parsed as integers in one place (issue 18, section 3): a
 * seed above 2^53 keeps its last digit, and hex, a fraction or an exponent
 * are refused the same way by every integer option. */
Test(cli, integer_options_are_integers_everywhere)
{
    uint64_t v;
    cr_expect(cs_parse_u64("9007199254740993", &v, NULL));
    cr_expect_eq(v, 9007199254740993ULL);
    cr_expect(cs_parse_u64("18446744073709551615", &v, NULL));
    cr_expect_eq(v, UINT64_MAX);
    cr_expect_not(cs_parse_u64("18446744073709551616", &v, NULL));
    static const char *const bad[] = {"0x10", "5.0", "1e3", "-1", "+4", "", "12a"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_expect_not(cs_parse_u64(bad[i], &v, NULL), "%s", bad[i]);

    cr_assert_eq(th_cli("dice 2d6 --trials 1000 --seed 9007199254740993 --format md", &out, &err),
                 0, "%s", err);
    cr_expect(strstr(out, "seed 9007199254740993;"), "%s", out);
    release();
    char args[1024];
    snprintf(args, sizeof args,
             "run %s/experiments/generic-w40k.ini --method mc --trials 1000 --set distance=8 "
             "--set reroll=none --seed 9007199254740993 --format md",
             th_root());
    cr_assert_eq(th_cli(args, &out, &err), 0, "%s", err);
    cr_expect(strstr(out, "seed 9007199254740993;"), "%s", out);
    release();
    static const char *const opts[] = {"dice 2d6 --trials %s", "dice 2d6 --trials 10 --seed %s",
                                       "dice 2d6 --trials 10 --threads %s"};
    for (size_t o = 0; o < 3; o++)
        for (size_t i = 0; i < 3; i++) {
            snprintf(args, sizeof args, opts[o], bad[i]);
            cr_expect_eq(th_cli(args, &out, &err), 2, "%s", args);
            cr_expect(strstr(err, "expected a whole number in decimal digits"), "%s: %s", args,
                      err);
            release();
        }
    static const char *const run_opts[] = {"--trials", "--seed"};
    for (size_t o = 0; o < 2; o++)
        for (size_t i = 0; i < 3; i++) {
            snprintf(args, sizeof args, "run %s/experiments/generic-w40k.ini %s %s", th_root(),
                     run_opts[o], bad[i]);
            cr_expect_eq(th_cli(args, &out, &err), 2, "%s", args);
            cr_expect(strstr(err, "expected a whole number"), "%s: %s", args, err);
            release();
        }
}

Test(cli, threads_above_the_processors_are_capped_with_a_note)
{
    cr_assert_eq(th_cli("dice 2d6 --trials 100000 --seed 5 --threads 1024", &out, &err), 0, "%s",
                 err);
    cr_expect(strstr(err, "--threads 1024 capped at the"), "%s", err);
    char *again = NULL;
    cr_assert_eq(th_cli("dice 2d6 --trials 100000 --seed 5 --threads 1", &again, NULL), 0);
    cr_expect_str_eq(out, again);
    free(again);
}

/* --success (issue 15, point 5): the set is chosen, checked and named. */
Test(cli, success_outcomes_are_chosen_checked_and_named)
{
    char args[1024];
    const char *ini = "experiments/generic-w40k.ini --set reroll=none --set distance=8";
    snprintf(args, sizeof args, "run %s/%s", th_root(), ini);
    cr_assert_eq(th_cli(args, &out, &err), 0, "%s", err);
    cr_expect(!strstr(out, "success\n"), "the default output has no success column");
    /* w40k at 8": 2D6 >= 8 - 1 (Engagement Range), 21/36 */
    const char *row = strstr(out, "\n,,");
    cr_assert(row, "%s", out);
    cr_expect(fabs(strtod(row + 3, NULL) - 21.0 / 36.0) <= 1e-15, "%s", out);
    release();
    snprintf(args, sizeof args, "run %s/%s --success failed", th_root(), ini);
    cr_assert_eq(th_cli(args, &out, &err), 0, "%s", err);
    cr_expect(strstr(out, ",method,success\n"), "%s", out);
    /* 1 - 21/36 = 15/36 */
    row = strstr(out, "\n,,");
    cr_assert(row, "%s", out);
    cr_expect(fabs(strtod(row + 3, NULL) - 15.0 / 36.0) <= 1e-15, "%s", out);
    cr_expect(strstr(out, ",exact,failed\n"), "%s", out);
    release();
    snprintf(args, sizeof args, "run %s/%s --success charged,failed --format md", th_root(), ini);
    cr_assert_eq(th_cli(args, &out, &err), 0, "%s", err);
    cr_expect(strstr(out, "p_success counts charged,failed (--success)."), "%s", out);
    cr_expect(strstr(out, "| 100.00 |"), "%s", out);
    release();
    snprintf(args, sizeof args, "run %s/%s --success charged,fled", th_root(), ini);
    cr_expect_eq(th_cli(args, &out, &err), 2);
    cr_expect(strstr(err, "unknown outcome 'fled' of generic; expected one or more of: charged, "
                          "failed"),
              "%s", err);
    release();
    cr_assert_eq(th_cli("rules t9a", &out, &err), 0);
    cr_expect(strstr(out, "\nSuccess: charged, caught\n"), "%s", out);
    release();
    cr_assert_eq(th_cli("rules generic", &out, &err), 0);
    cr_expect(strstr(out, "\nSuccess: charged\n"), "%s", out);
}

/* Bounded work (issue 18, section 2): a precision that could need more
 * than the cap is refused at once, naming the trials; --max-trials lifts
 * the cap and means nothing without --precision. */
Test(cli, precision_beyond_the_trial_cap_is_refused_at_once, .timeout = 10)
{
    char args[1024];
    const char *ini = "experiments/generic-w40k.ini --set reroll=none --set distance=8 "
                      "--method mc";
    snprintf(args, sizeof args, "run %s/%s --precision 1e-300", th_root(), ini);
    cr_expect_eq(th_cli(args, &out, &err), 2);
    cr_expect(strstr(err, "would need more than 2e+308 trials per sweep point"), "%s", err);
    release();
    snprintf(args, sizeof args, "run %s/%s --precision 1e-12", th_root(), ini);
    cr_expect_eq(th_cli(args, &out, &err), 2);
    cr_expect(strstr(err, "would need up to 9.6e+23 trials per sweep point, above the cap of "
                          "1000000000"),
              "%s", err);
    cr_expect(strstr(err, "--max-trials"), "%s", err);
    release();
    snprintf(args, sizeof args, "run %s/%s --precision 0.0001 --max-trials 1000000", th_root(),
             ini);
    cr_expect_eq(th_cli(args, &out, &err), 2);
    cr_expect(strstr(err, "would need up to 9.6e+07 trials"), "%s", err);
    release();
    snprintf(args, sizeof args, "run %s/%s --max-trials 1000000", th_root(), ini);
    cr_expect_eq(th_cli(args, &out, &err), 2);
    cr_expect(strstr(err, "--max-trials applies only with --precision"), "%s", err);
    release();
    snprintf(args, sizeof args, "run %s/%s --precision 0.01 --max-trials 5e6", th_root(), ini);
    cr_expect_eq(th_cli(args, &out, &err), 2);
    cr_expect(strstr(err, "--max-trials '5e6'"), "%s", err);
}

/* The refusal's bound is a true worst case, and the cap is kept exactly:
 * at p = 1/2 (1d2 to cover 2"), the worst case of Wilson's corrected
 * interval, --max-trials at the bound always meets the precision, whatever
 * the seed, in exactly that many trials or fewer; one trial less is
 * refused. (The bound (z / 2h)^2 = 385 left the interval 0.051 wide.) */
Test(cli, precision_bound_is_a_worst_case, .timeout = 30)
{
    const char *base = "run - --set experiment.ruleset=generic --set dice=1d2 --set move=0 "
                       "--set distance=2 --trials 100 --method mc --precision 0.05";
    char args[1024];
    snprintf(args, sizeof args, "%s --max-trials 403", base);
    cr_expect_eq(th_cli(args, &out, &err), 2);
    cr_expect(strstr(err, "would need up to 404 trials per sweep point"), "%s", err);
    for (int seed = 1; seed <= 30; seed++) {
        release();
        snprintf(args, sizeof args, "%s --max-trials 404 --seed %d", base, seed);
        cr_assert_eq(th_cli(args, &out, &err), 0, "%s", err);
        cr_expect(!strstr(err, "warning"), "seed %d: %s", seed, err);
        unsigned long long trials = 0;
        double p, lo, hi;
        const char *row = strchr(out, '\n');
        cr_assert(row && sscanf(row + 1, "%llu,%*u,%lf,%lf,%lf", &trials, &p, &lo, &hi) == 4,
                  "%s", out);
        cr_expect(trials <= 404 && hi - lo <= 0.1, "seed %d: %llu trials, [%g, %g]", seed,
                  trials, lo, hi);
    }
}

/* A picture the output refuses (a full device takes nothing) is a runtime
 * failure, exit 1, whether it goes to standard output or through a link
 * to /dev/stdout: draw's SVG and PNG, map's --plot. The shell opens the
 * test's own full device (th_full_cmd); the program only writes to its
 * standard output. */
Test(cli, a_picture_that_cannot_be_written_exits_1)
{
    if (!th_can_unshare())
        cr_skip(TH_SKIP_NO_NAMESPACE ": a full device is tested only in a private "
                "mount namespace");
    const char *bin = getenv("CS_BIN");
    const char *dir = th_tmpdir();
    char exp[512], map[512];
    snprintf(exp, sizeof exp, "%s/experiments/t9a-head-on-ed2.ini", th_root());
    snprintf(map, sizeof map, "%s/experiments/map-t9a.ini --x 0..2:1 --y 6..7:1 --quiet",
             th_root());
    const char *const cases[][2] = {{"draw", exp}, {"draw -o p.png", exp},
                                    {"map --plot p.svg", map}};
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char inner[4096], cmd[9216], line[512] = "";
        snprintf(inner, sizeof inner,
                 "cd %s && rm -f p.png p.svg && ln -s /dev/stdout p.png && ln -s /dev/stdout p.svg"
                 " && %s %s %s 2>err",
                 dir, bin ? bin : "bin/chargesim", cases[i][0], cases[i][1]);
        th_full_cmd(cmd, sizeof cmd - 100, dir, inner);
        size_t n = strlen(cmd);
        snprintf(cmd + n, sizeof cmd - n, "; echo $?; cat %s/err", dir);
        FILE *p = popen(cmd, "r");
        cr_assert(p);
        cr_assert(fgets(line, sizeof line, p));
        cr_expect_str_eq(line, "1\n", "%s", cases[i][0]);
        cr_expect(fgets(line, sizeof line, p) &&
                      strstr(line, ": cannot write the picture: error while writing to output "
                                   "stream"),
                  "%s: %s", cases[i][0], line);
        pclose(p);
    }
}

/* /dev/fd/N and /proc/self/fd/N are that descriptor: the table goes to
 * standard output, no file is made. */
Test(cli, output_to_a_descriptor_name)
{
    static const char *const names[] = {"/dev/fd/1", "/proc/self/fd/1"};
    for (size_t i = 0; i < 2; i++) {
        char args[1024];
        snprintf(args, sizeof args, "run %s/experiments/generic-w40k.ini --set distance=8 "
                 "--set reroll=none --quiet -o %s", th_root(), names[i]);
        cr_assert_eq(th_cli(args, &out, &err), 0, "%s", err);
        cr_expect(strncmp(out, "trials,", 7) == 0, "%s: %s", names[i], out);
        const char *row = strstr(out, "\n,,");
        cr_expect(row && fabs(strtod(row + 3, NULL) - 21.0 / 36.0) <= 1e-15,
                  "%s: P(2D6 >= 7) = 21/36: %s", names[i], out);
        release();
    }
}

/* The progress bar, on a terminal (a pseudo-terminal as stderr): nothing
 * in the first second nor more often than every 0.1 s, then the bar, the
 * per cent and the ETA, capped at 100 %; erased at the end. Not shown with
 * --quiet. The run's start is moved 10 s back rather than waited for. */
Test(cli, progress_bar_on_a_terminal)
{
    int master = posix_openpt(O_RDWR | O_NOCTTY);
    cr_assert(master >= 0);
    cr_assert(grantpt(master) == 0 && unlockpt(master) == 0);
    int slave = open(ptsname(master), O_RDWR | O_NOCTTY);
    cr_assert(slave >= 0);
    int saved = dup(STDERR_FILENO);
    cr_assert(dup2(slave, STDERR_FILENO) == STDERR_FILENO);
    cs_progress q, p;
    cs_cli_progress_init(&q, true);
    cs_cli_progress_update(&q, 1, 2);
    cs_cli_progress_finish(&q);
    cs_cli_progress_init(&p, false);
    cs_cli_progress_update(&p, 1, 2); /* within the first second: nothing */
    p.start -= 10.0;
    cs_cli_progress_update(&p, 1, 4);
    cs_cli_progress_update(&p, 3, 4); /* within 0.1 s of the last: nothing */
    p.last -= 1.0;
    cs_cli_progress_update(&p, 9, 4);
    cs_cli_progress_finish(&p);
    fflush(stderr);
    cr_assert(dup2(saved, STDERR_FILENO) == STDERR_FILENO);
    close(saved);
    close(slave);
    /* A terminal hands its output over in pieces: read until the closed
     * side has nothing left (EIO). */
    char buf[512] = "";
    size_t n = 0;
    ssize_t got;
    while (n < sizeof buf - 1 && (got = read(master, buf + n, sizeof buf - 1 - n)) > 0)
        n += (size_t)got;
    close(master);
    cr_assert(n > 0);
    buf[n] = '\0';
    const char *want = "\r[#######                       ]  25%  ETA 30s "
                       "\r[##############################] 100%  ETA 0s ";
    cr_expect(strncmp(buf, want, strlen(want)) == 0, "%s", buf);
    char erase[64];
    snprintf(erase, sizeof erase, "\r%60s\r", "");
    cr_expect_str_eq(buf + strlen(want), erase);
    cr_expect(!q.shown);
}
