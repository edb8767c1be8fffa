/* SPDX-License-Identifier: GPL-3.0-or-later */
/* scripts/plot as a user runs it: charts from small hand-written CSVs into
 * a temporary directory; the PNG's signature and pixel size (its IHDR
 * chunk), the SVG's size, the same bytes twice, and exit status 2 with the
 * missing column named, leaving no chart behind. */
#define _DEFAULT_SOURCE
#include <cairo.h>
#include <criterion/criterion.h>
#include <stdbool.h>
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "support/helpers.h"

/* Two curves of a Monte Carlo summary (so intervals are drawn) and the
 * long-form distribution of one sweep point, as `chargesim run` writes them. */
static const char summary_csv[] =
    "move,distance,trials,successes,p_success,ci_low,ci_high,p_charged,p_failed,"
    "mean_roll,mean_range,method\n"
    "3,6,1000,972,0.972000,0.959700,0.980700,0.972000,0.028000,7.0100,10.0100,mc\n"
    "3,8,1000,831,0.831000,0.806500,0.853000,0.831000,0.169000,6.9900,9.9900,mc\n"
    "3,10,1000,584,0.584000,0.553200,0.614200,0.584000,0.416000,7.0200,10.0200,mc\n"
    "4,6,1000,1000,1.000000,0.996200,1.000000,1.000000,0.000000,7.0000,11.0000,mc\n"
    "4,8,1000,918,0.918000,0.899300,0.933600,0.918000,0.082000,6.9800,10.9800,mc\n"
    "4,10,1000,722,0.722000,0.693400,0.748900,0.722000,0.278000,7.0100,11.0100,mc\n";

static const char dist_csv[] = "distance,metric,value,count,p,method\n"
                               "8,outcome,charged,,0.416667,exact\n"
                               "8,outcome,failed,,0.583333,exact\n"
                               "8,roll,2,,0.027778,exact\n"
                               "8,roll,3,,0.055556,exact\n"
                               "8,roll,4,,0.083333,exact\n";

static char dir[256];
static char *errtext;

static void setup(void)
{
    const char *d = th_tmpdir();
    cr_assert(d);
    snprintf(dir, sizeof dir, "%s", d);
    char path[512];
    snprintf(path, sizeof path, "%s/summary.csv", dir);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs(summary_csv, f);
    fclose(f);
    snprintf(path, sizeof path, "%s/dist.csv", dir);
    f = fopen(path, "w");
    cr_assert(f);
    fputs(dist_csv, f);
    fclose(f);
}

static void teardown(void)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (dir[0] && system(cmd) != 0)
        fprintf(stderr, "note: could not remove %s\n", dir); /* not cr_log_warn: exit 1 */
    free(errtext);
    errtext = NULL;
}

TestSuite(plot, .init = setup, .fini = teardown);

/* Runs "scripts/plot ARGS" in the temporary directory; stderr kept in
 * errtext. Returns the exit status. */
static int plot(const char *args)
{
    char cmd[2048], errpath[512];
    snprintf(errpath, sizeof errpath, "%s/stderr", dir);
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s/scripts/plot' %s 2>'%s' </dev/null", dir,
             th_root(), args, errpath);
    int st = system(cmd);
    free(errtext);
    errtext = th_slurp(errpath, NULL);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

/* A PNG starts with its 8-byte signature, then the IHDR chunk: length 13,
 * "IHDR", width and height as big-endian 32-bit numbers. */
static void expect_png(const char *name, uint32_t w, uint32_t h)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    size_t len;
    unsigned char *png = (unsigned char *)th_slurp(path, &len);
    cr_assert(png, "%s was not written", name);
    cr_assert_geq(len, 33u, "%s is too short for a PNG", name);
    cr_expect_eq(memcmp(png, "\x89PNG\r\n\x1a\n", 8), 0, "%s: no PNG signature", name);
    cr_expect_eq(be32(png + 8), 13u);
    cr_expect_eq(memcmp(png + 12, "IHDR", 4), 0);
    cr_expect_eq(be32(png + 16), w, "%s: width %u", name, be32(png + 16));
    cr_expect_eq(be32(png + 20), h, "%s: height %u", name, be32(png + 20));
    free(png);
}

/* The temporary directory holds only the inputs, stderr and `keep`. */
static void expect_only(const char *keep)
{
    DIR *d = opendir(dir);
    cr_assert(d);
    struct dirent *e;
    while ((e = readdir(d))) {
        const char *n = e->d_name;
        if (!strcmp(n, ".") || !strcmp(n, "..") || !strcmp(n, "summary.csv") ||
            !strcmp(n, "dist.csv") || !strcmp(n, "stderr") || (keep && !strcmp(n, keep)))
            continue;
        cr_expect(false, "unexpected file left: %s", n);
    }
    closedir(d);
}

Test(plot, summary_png_has_the_requested_size)
{
    cr_assert_eq(plot("summary summary.csv --x distance --group move --size 640x400 -o s.png"), 0,
                 "%s", errtext);
    expect_png("s.png", 640, 400);
    expect_only("s.png");
}

Test(plot, default_size_and_same_bytes_twice)
{
    cr_assert_eq(plot("summary summary.csv --x distance --group move --interval bars -o a.png"),
                 0, "%s", errtext);
    cr_assert_eq(plot("summary summary.csv --x distance --group move --interval bars -o b.png"),
                 0, "%s", errtext);
    expect_png("a.png", 900, 560);
    char pa[512], pb[512];
    snprintf(pa, sizeof pa, "%s/a.png", dir);
    snprintf(pb, sizeof pb, "%s/b.png", dir);
    size_t la = 0, lb = 0;
    char *a = th_slurp(pa, &la), *b = th_slurp(pb, &lb);
    cr_assert(a && b);
    cr_expect(la == lb && memcmp(a, b, la) == 0, "two runs gave different bytes");
    free(a);
    free(b);
}

Test(plot, svg_and_categorical_x)
{
    cr_assert_eq(plot("summary summary.csv --x move --group distance --y p_success,p_failed "
                      "--size 500x300 -o c.svg"),
                 0, "%s", errtext);
    char path[512];
    snprintf(path, sizeof path, "%s/c.svg", dir);
    char *svg = th_slurp(path, NULL);
    cr_assert(svg);
    cr_expect(strstr(svg, "<svg") && strstr(svg, "width=\"500\" height=\"300\""), "%.300s", svg);
    /* One curve per column and distance, named both ways. */
    cr_expect(strstr(svg, "outcome, distance"), "the legend has a title");
    cr_expect(strstr(svg, "success (total), 10") && strstr(svg, "failed, 6"),
              "the legend names the curves");
    free(svg);
}

/* An experiment's [labels] give a KEY_label column: the curves of KEY are
 * named by it, and the column (varying with KEY) is no ambiguity. */
Test(plot, labels_name_the_curves)
{
    char path[512];
    snprintf(path, sizeof path, "%s/lab.csv", dir);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs("dice,dice_label,distance,trials,successes,p_success,ci_low,ci_high,method\n", f);
    static const char *const dice[] = {"2d6kh1", "1d6-1"};
    static const char *const game[] = {"The Old World", "T9A 3rd"};
    for (int k = 0; k < 2; k++)
        for (int d = 6; d <= 8; d++)
            fprintf(f, "%s,%s,%d,1,,0.%d,0.%d,0.%d,exact\n", dice[k], game[k], d, d + k,
                    d + k, d + k);
    fclose(f);
    cr_assert_eq(plot("summary lab.csv --x distance --group dice -o lab.svg"), 0, "%s", errtext);
    snprintf(path, sizeof path, "%s/lab.svg", dir);
    char *svg = th_slurp(path, NULL);
    cr_assert(svg);
    cr_expect(strstr(svg, "The Old World") && strstr(svg, "T9A 3rd"), "legend by label");
    cr_expect(!strstr(svg, "2d6kh1"), "the dice expression is not the curve's name");
    free(svg);
}

Test(plot, two_group_keys_colour_one_and_dash_the_other)
{
    char path[512];
    snprintf(path, sizeof path, "%s/three.csv", dir);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs("reroll,move,distance,trials,successes,p_success,ci_low,ci_high,method\n", f);
    static const char *const rr[] = {"none", "failed"};
    for (int r = 0; r < 2; r++)
        for (int m = 3; m <= 5; m++)
            for (int d = 6; d <= 8; d++)
                fprintf(f, "%s,%d,%d,1,,0.5,0.5,0.5,exact\n", rr[r], m, d);
    fclose(f);
    cr_assert_eq(plot("summary three.csv --x distance --group reroll,move -o t.svg"), 0, "%s",
                 errtext);
    snprintf(path, sizeof path, "%s/t.svg", dir);
    char *svg = th_slurp(path, NULL);
    cr_assert(svg);
    /* Identical curves share one legend entry. */
    cr_expect(strstr(svg, "reroll, move"), "the legend names both keys");
    cr_expect(strstr(svg, "none, 3; none, 4"), "identical curves are merged");
    free(svg);
    unlink(path);
    snprintf(path, sizeof path, "%s/three.csv", dir);
    unlink(path);
}

Test(plot, means_on_their_own_axis)
{
    cr_assert_eq(plot("summary summary.csv --x distance --group move --y mean_roll,mean_range "
                      "--size 400x300 -o m.png"),
                 0, "%s", errtext);
    expect_png("m.png", 400, 300);
    cr_expect_eq(plot("summary summary.csv --x distance --group move --y p_success,mean_roll "
                      "-o e.png"),
                 2);
    cr_expect(strstr(errtext, "do not share an axis"), "%s", errtext);
    cr_expect_eq(plot("summary summary.csv --x distance --group move --y trials -o e.png"), 2);
    cr_expect(strstr(errtext, "--y trials: expected"), "%s", errtext);
}

Test(plot, distribution_png)
{
    cr_assert_eq(plot("dist dist.csv --metric roll --size 480x320 -o d.png"), 0, "%s", errtext);
    expect_png("d.png", 480, 320);
    cr_assert_eq(plot("dist dist.csv --metric outcome --where distance=8 -o o.png"), 0, "%s",
                 errtext);
    expect_png("o.png", 900, 560);
}

Test(plot, missing_column_exits_2_and_names_it)
{
    cr_expect_eq(plot("summary summary.csv --x range -o e.png"), 2);
    cr_expect(strstr(errtext, "no column \"range\""), "%s", errtext);
    cr_expect(strstr(errtext, "columns: move, distance"), "%s", errtext);
    cr_expect_eq(plot("summary summary.csv --x distance --where reroll=none -o e.png"), 2);
    cr_expect(strstr(errtext, "no column \"reroll\""), "%s", errtext);
    cr_expect_eq(plot("summary dist.csv --x distance -o e.png"), 2);
    cr_expect(strstr(errtext, "no column \"trials\""), "%s", errtext);
    cr_expect_eq(plot("dist dist.csv --metric range -o e.png"), 2);
    cr_expect(strstr(errtext, "no metric \"range\"; metrics: outcome, roll"), "%s", errtext);
    expect_only(NULL);
}

Test(plot, ambiguous_rows_exit_2_and_say_which_key_to_fix)
{
    cr_expect_eq(plot("summary summary.csv --x distance -o e.png"), 2);
    cr_expect(strstr(errtext, "column \"move\" has several values (3, 4)"), "%s", errtext);
    cr_expect(strstr(errtext, "--where move=VALUE"), "%s", errtext);
    cr_expect_eq(plot("summary summary.csv --x distance --where move=5 -o e.png"), 2);
    cr_expect(strstr(errtext, "no row has move = 5"), "%s", errtext);
    expect_only(NULL);
}

Test(plot, usage_errors_exit_2)
{
    static const char *const bad[] = {
        "",
        "pie summary.csv -o e.png",
        "summary summary.csv --x distance --group move",
        "summary summary.csv --x distance --group move -o e.gif",
        "summary summary.csv --group move -o e.png",
        "summary summary.csv --x distance --group move --size 10x10 -o e.png",
        "summary summary.csv --x distance --group move --interval wide -o e.png",
        "summary summary.csv --x distance --group move --bogus -o e.png",
        "summary missing.csv --x distance -o e.png",
        "dist dist.csv -o e.png",
        "summary summary.csv --x distance --group move -o no/such/dir/e.png",
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        cr_expect_eq(plot(bad[i]), 2, "scripts/plot %s: %s", bad[i], errtext);
    expect_only(NULL);
}

Test(plot, help_exits_0)
{
    char cmd[600];
    snprintf(cmd, sizeof cmd, "'%s/scripts/plot' --help >/dev/null 2>&1", th_root());
    int st = system(cmd);
    cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 0);
}

Test(plot, charts_the_csv_dice_writes)
{
    /* Exact and sampled dice tables, as `chargesim dice` writes them; the
     * SVG carries the totals as tick labels. A run's summary is refused. */
    const char *bin = getenv("CS_BIN");
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && '%s' dice 3d6dl1 -o d.csv && '%s' dice 2d6 --trials 5000 -o s.csv", dir,
             bin ? bin : "bin/chargesim", bin ? bin : "bin/chargesim");
    cr_assert_eq(system(cmd), 0);
    cr_expect_eq(plot("dice d.csv -o d.png"), 0, "%s", errtext);
    expect_png("d.png", 900, 560);
    cr_expect_eq(plot("dice s.csv --y p_at_least --size 640x400 -o s.svg"), 0, "%s", errtext);
    char path[512];
    snprintf(path, sizeof path, "%s/s.svg", dir);
    char *svg = th_slurp(path, NULL);
    cr_assert(svg);
    cr_expect(strstr(svg, "chance of at least this total (%)") && strstr(svg, "<text> 12</text>"),
              "the axis and the highest total");
    cr_expect(strstr(svg, "Monte Carlo: 5000 trials counted."));
    free(svg);
    cr_expect_eq(plot("dice summary.csv -o x.png"), 2);
    cr_expect(strstr(errtext, "not a chargesim dice CSV"), "%s", errtext);
    cr_expect_eq(plot("dice d.csv --y p_success_maybe -o x.png"), 2);
}

/* Whether the picture at path has ink within 2 pixels of an edge: text
 * there is cut off (a title centred past the left edge read "9A 3rd
 * edition: ..."). */
static bool ink_at_edges(const char *path)
{
    cairo_surface_t *img = cairo_image_surface_create_from_png(path);
    cr_assert_eq(cairo_surface_status(img), CAIRO_STATUS_SUCCESS, "%s", path);
    cairo_surface_flush(img);
    int w = cairo_image_surface_get_width(img), h = cairo_image_surface_get_height(img);
    int stride = cairo_image_surface_get_stride(img);
    const unsigned char *px = cairo_image_surface_get_data(img);
    bool ink = false;
    for (int y = 0; y < h && !ink; y++)
        for (int x = 0; x < w && !ink; x++) {
            if (x >= 2 && x < w - 2 && y >= 2 && y < h - 2)
                continue;
            const unsigned char *q = px + y * stride + 4 * x; /* B, G, R, A */
            ink = q[3] > 0 && (q[0] < 200 || q[1] < 200 || q[2] < 200);
        }
    cairo_surface_destroy(img);
    return ink;
}

/* A compare CSV (delta columns): the curves are named by the [labels] of
 * their key, and a title too long for one line is wrapped beside the
 * legend, never cut off at the picture's edge. */
Test(plot, compare_chart_names_curves_by_label_and_fits_its_title)
{
    char path[512];
    snprintf(path, sizeof path, "%s/cmp.csv", dir);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs("maximised,maximised_label,distance,trials,p_success_a,p_success_b,delta,delta_lo,"
          "delta_hi,method\n", f);
    static const char *const lab[] = {"no Swiftstride", "Swiftstride (maximised)"};
    for (int m = 0; m < 2; m++)
        for (int d = 6; d <= 9; d++)
            fprintf(f, "%d,%s,%d,100,0.5,0.6,0.%d,0.0%d,0.%d,conditional\n", m, lab[m], d, d,
                    d, d + 1);
    fclose(f);
    static const char title[] = "T9A 3rd edition: what +1 charge speed adds to the chance of "
                                "a charge, random approach, a long title";
    char args[1024];
    snprintf(args, sizeof args, "summary cmp.csv --x distance --title '%s' -o cmp.svg", title);
    cr_assert_eq(plot(args), 0, "%s", errtext);
    snprintf(path, sizeof path, "%s/cmp.svg", dir);
    char *svg = th_slurp(path, NULL);
    cr_assert(svg);
    cr_expect(strstr(svg, "no Swiftstride") && strstr(svg, "Swiftstride (maximised)"),
              "legend by label");
    cr_expect(!strstr(svg, "maximised = 0"), "the curve is named by its value");
    free(svg);
    snprintf(args, sizeof args, "summary cmp.csv --x distance --title '%s' -o cmp.png", title);
    cr_assert_eq(plot(args), 0, "%s", errtext);
    snprintf(path, sizeof path, "%s/cmp.png", dir);
    cr_expect(!ink_at_edges(path), "the title runs off the picture");
}

/* Every chart in results/: nothing drawn at its edges, so no text cut off. */
Test(plot, no_chart_of_the_gallery_is_cut_off)
{
    char rdir[512];
    snprintf(rdir, sizeof rdir, "%s/results", th_root());
    DIR *d = opendir(rdir);
    cr_assert(d, "%s", rdir);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 5 || strcmp(e->d_name + len - 4, ".png") != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", rdir, e->d_name);
        cr_expect(!ink_at_edges(path), "%s: something is cut off at its edge", e->d_name);
        n++;
    }
    closedir(d);
    cr_expect_geq(n, 30, "results/ has its charts");
}
