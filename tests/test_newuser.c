/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What a new user trips over (issue 28): a test for each point of its
 * sections 1 (misreads), 2 (a failed commit leaves nothing behind), 4 (a
 * threat map with a drawn angle, a sweep that misses its end) and 5
 * (provenance and messages), driving bin/chargesim as a user would and the
 * library where a picture's words are not text in the file. */
#define _DEFAULT_SOURCE
#define _XOPEN_SOURCE 700
#include <cairo.h>
#include <criterion/criterion.h>
#include <dirent.h>
#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "chargesim/expfile.h"
#include "chargesim/heatmap.h"
#include "chargesim/mapdraw.h"
#include "chargesim/map.h"
#include "chargesim/output.h"
#include "chargesim/parse.h"
#include "chargesim/replay.h"
#include "chargesim/sha256.h"
#include "support/helpers.h"

static char *out, *err;

static void release(void)
{
    free(out);
    free(err);
    out = err = NULL;
}

TestSuite(newuser, .fini = release);

/* ---- 1. Misreads ------------------------------------------------------ */

Test(newuser, a_sweep_past_the_limit_names_its_key_file_and_line)
{
    const char *d = th_tmpdir();
    th_write_file(d, "e.ini",
                  "[experiment]\nruleset = generic\n[params]\ndistance = 0..1000:0.01\n");
    cr_expect_eq(th_sh(d, "$B run e.ini", &out, &err), 2);
    cr_expect(strstr(err, "chargesim run: e.ini:4: distance = '0..1000:0.01': 100001 values; a "
                          "sweep may have at most 100000"),
              "%s", err);
    /* A list past the limit, as the loader is given it (no command line
     * or INI line is long enough to carry one; the loader checks anyway). */
    size_t cap = 100001 * 2 + 1;
    char *list = malloc(cap);
    cr_assert(list);
    for (size_t i = 0; i < 100001; i++)
        memcpy(list + 2 * i, "4,", 2);
    list[cap - 2] = '\0';
    cs_experiment e;
    cs_error er;
    cs_experiment_init(&e, "l.ini");
    cr_assert_eq(cs_experiment_set(&e, "experiment", "ruleset", "generic", "l.ini", 2, &er), CS_OK);
    cr_expect_eq(cs_experiment_set(&e, "params", "move", list, "l.ini", 4, &er), CS_ELIMIT);
    cr_expect(strstr(er.msg, "l.ini:4: move: more than 100000 values; a sweep may have at most "
                             "100000"),
              "%s", er.msg);
    cs_experiment_free(&e);
    free(list);
}

/* The distinct values of the first CSV column of text. */
static int distinct_first_column(const char *text, int *rows)
{
    char seen[64][64];
    int n = 0;
    *rows = 0;
    for (const char *l = strchr(text, '\n'); l && l[1]; l = strchr(l + 1, '\n')) {
        char v[64];
        snprintf(v, sizeof v, "%.*s", (int)strcspn(l + 1, ",\n"), l + 1);
        (*rows)++;
        bool dup = false;
        for (int i = 0; i < n; i++)
            dup |= strcmp(seen[i], v) == 0;
        if (!dup && n < 64)
            snprintf(seen[n++], sizeof seen[0], "%s", v);
    }
    return n;
}

Test(newuser, values_a_step_apart_print_apart)
{
    const char *d = th_tmpdir();
    cr_assert_eq(th_sh(d,
                       "$B run \"$R/experiments/default.ini\" --set move=4 "
                       "--set distance=8..8.000000001:0.0000000001 --quiet",
                       &out, &err),
                 0, "%s", err);
    int rows, n = distinct_first_column(out, &rows);
    cr_expect_eq(rows, 11);
    cr_expect_eq(n, 11, "11 rows, %d distinct distances:\n%s", n, out);
    cr_expect(strstr(out, "\n8.0000000001,") && strstr(out, "\n8.000000001,"), "%s", out);
    /* Few decimals print as they always did (results/ keeps its bytes). */
    cr_assert_eq(th_sh(d,
                       "$B run \"$R/experiments/default.ini\" --set move=4 "
                       "--set distance=0..1:0.1 --quiet",
                       &out, &err),
                 0);
    cr_expect(strstr(out, "\n0.3,") && strstr(out, "\n0.7,") && strstr(out, "\n1,"), "%s", out);
    /* The threat map's axes alike. */
    cr_assert_eq(th_sh(d,
                       "$B map \"$R/experiments/map-t9a.ini\" --x 8..8.000000001:0.0000000001 "
                       "--y 3..3 --quiet",
                       &out, &err),
                 0, "%s", err);
    n = distinct_first_column(out, &rows);
    cr_expect(rows == 11 && n == 11, "%d rows, %d distinct x:\n%s", rows, n, out);
}

Test(newuser, the_text_of_a_swept_value)
{
    static const struct {
        double x;
        int places;
        const char *text;
    } cases[] = {
        {0.1 * 3, 1, "0.3"},              /* binary noise: the value as written */
        {8.0000000001, 10, "8.0000000001"}, /* "%.10g" would say 8 */
        {8.000000001, 10, "8.000000001"},
        {1e-5, 5, "1e-05"},               /* "%.10g" stands for the same number: kept */
        {123456789012.0, 0, "123456789012"}, /* "%.10g" would round it */
        {2.5, 1, "2.5"},
        {0.1 + 0.2, -1, "0.30000000000000004"}, /* places unknown: the shortest exact text */
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char buf[64];
        cs_parse_format_value(buf, sizeof buf, cases[i].x, cases[i].places);
        cr_expect_str_eq(buf, cases[i].text, "case %zu", i);
    }
    static const struct {
        const char *s;
        int places;
    } dec[] = {{"8", 0}, {"0.25", 2}, {"1e-10", 10}, {"2.5e1", 0}, {"-1.50", 2},
               {"0x10", -1}, {"inf", -1}, {"1e-30", -1}};
    for (size_t i = 0; i < sizeof dec / sizeof *dec; i++)
        cr_expect_eq(cs_parse_decimals(dec[i].s), dec[i].places, "%s", dec[i].s);
}

Test(newuser, method_exact_refused_with_file_line_and_key)
{
    const char *d = th_tmpdir();
    th_write_file(
        d, "e.ini",
        "[experiment]\nruleset = t9a\nmethod = exact\n[params]\noffset = uniform(-1,1)\n");
    cr_expect_eq(th_sh(d, "$B run e.ini", &out, &err), 2);
    cr_expect(strstr(err, "chargesim run: e.ini:3: method = exact: the layout is drawn at random "
                          "each trial (offset = uniform(-1,1), e.ini:5)"),
              "%s", err);
    cr_expect_eq(th_sh(d, "$B run e.ini --method exact", &out, &err), 2);
    cr_expect(strstr(err, "chargesim run: command line: method = exact:"), "%s", err);
}

Test(newuser, every_option_is_checked_before_the_first_trial)
{
    /* Each run would take hours (10^12 trials per point): a refusal that
     * waits for the run never comes within the minute timeout gives it. */
    const char *d = th_tmpdir();
    static const struct {
        const char *cmd, *msg;
    } cases[] = {
        {"run \"$R/experiments/t9a-random-approach.ini\" --method mc --pivot bogus:keys",
         "chargesim run: --pivot bogus:keys: expected two different swept keys"},
        {"run \"$R/experiments/t9a-random-approach.ini\" --method mc --pivot "
         "maximised:distance:p_nothing",
         "'p_nothing' is not a reported column"},
        {"compare \"$R/experiments/compare-t9a-speed.ini\" --b charge_speed=1 --pivot a:b",
         "chargesim compare: --pivot a:b: compare pivots delta"},
        {"compare \"$R/experiments/compare-t9a-speed.ini\" --b charge_speed=1 -o nodir/x.csv",
         "chargesim compare: nodir/x.csv"},
        {"compare \"$R/experiments/compare-t9a-speed.ini\" --b charge_speed=1 -o "
         "\"$R/experiments/compare-t9a-speed.ini\"",
         "that is an input of this run"},
        {"map \"$R/experiments/map-t9a.ini\" --set 'angle=uniform(-45,45)' --success nothing",
         "chargesim map:"},
        {"map \"$R/experiments/map-t9a.ini\" --set 'angle=uniform(-45,45)' --x 0..1:0.3",
         "chargesim map: --x '0..1:0.3': the step does not land on 1"},
        {"map \"$R/experiments/map-t9a.ini\" --set 'angle=uniform(-45,45)' -o nodir/m.csv",
         "chargesim map: nodir/m.csv"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char script[2048];
        snprintf(script, sizeof script,
                 "timeout -s KILL 60 $B %s --trials 1000000000000 --method mc --quiet", cases[i].cmd);
        int rc = th_sh(d, script, &out, &err);
        cr_expect(rc == 2 || rc == 1, "%s: exit %d (137: still running after a minute)",
                  cases[i].cmd, rc);
        cr_expect(strstr(err, cases[i].msg), "%s: %s", cases[i].cmd, err);
    }
}

/* ---- 2. A failed commit leaves nothing behind -------------------------- */

/* The entries of dir, sorted, joined by spaces. */
static void listing(const char *dir, char *buf, size_t cap)
{
    struct dirent **names;
    int n = scandir(dir, &names, NULL, alphasort);
    buf[0] = '\0';
    for (int i = 0; i < n; i++) {
        if (strcmp(names[i]->d_name, ".") && strcmp(names[i]->d_name, ".."))
            snprintf(buf + strlen(buf), cap - strlen(buf), "%s%s", buf[0] ? " " : "",
                     names[i]->d_name);
        free(names[i]);
    }
    free(names);
}

/* h/ a sticky folder (1777, as /tmp) holding y.csv; w/ nobody's, holding
 * x.csv; each with its old contents. y.csv is writable by all, so the
 * kernel lets another user hard-link it (fs.protected_hardlinks): the
 * backup a commit makes of it. */
static void sticky_setup(const char *d, uid_t y_owner)
{
    char path[1024];
    cr_assert_eq(chmod(d, 0755), 0);
    snprintf(path, sizeof path, "%s/h", d);
    cr_assert_eq(mkdir(path, 0777), 0);
    cr_assert_eq(chmod(path, 01777), 0);
    snprintf(path, sizeof path, "%s/w", d);
    cr_assert_eq(mkdir(path, 0755), 0);
    cr_assert_eq(chown(path, 65534, 65534), 0);
    th_write_file(d, "h/y.csv", "old-y\n");
    th_write_file(d, "w/x.csv", "old-x\n");
    snprintf(path, sizeof path, "%s/h/y.csv", d);
    cr_assert_eq(chown(path, y_owner, y_owner), 0);
    cr_assert_eq(chmod(path, 0666), 0);
    snprintf(path, sizeof path, "%s/w/x.csv", d);
    cr_assert_eq(chown(path, 65534, 65534), 0);
}

/* Both old files kept, nothing else left in either folder. */
static void sticky_untouched(const char *d)
{
    char path[1024], names[1024];
    snprintf(path, sizeof path, "%s/h", d);
    listing(path, names, sizeof names);
    cr_expect_str_eq(names, "y.csv", "left behind in the sticky folder");
    snprintf(path, sizeof path, "%s/w", d);
    listing(path, names, sizeof names);
    cr_expect_str_eq(names, "x.csv", "left behind in w/");
    char *y, *x;
    snprintf(path, sizeof path, "%s/h/y.csv", d);
    cr_expect_str_eq((y = th_slurp(path, NULL)), "old-y\n");
    snprintf(path, sizeof path, "%s/w/x.csv", d);
    cr_expect_str_eq((x = th_slurp(path, NULL)), "old-x\n");
    free(x);
    free(y);
}

Test(newuser, a_file_another_user_owns_in_a_sticky_folder_is_refused_leaving_nothing)
{
    if (geteuid() != 0) {
        cr_skip_test(TH_SKIP_NOT_ROOT ": a file of another user in a sticky folder");
    }
    const char *d = th_tmpdir();
    sticky_setup(d, 1); /* y.csv: daemon's */
    /* Run as nobody: it may write w/ and h/, but not replace daemon's y.csv.
     * The binary and the experiment are copied into d, which nobody can
     * read, as it may not read the clone (under /root, say). */
    cr_assert_eq(
        th_sh(d, "cp \"$B\" chargesim && cp \"$R/experiments/default.ini\" e.ini", &out, &err), 0,
        "%s", err);
    int rc = th_sh(d,
                   "setpriv --reuid=65534 --regid=65534 --clear-groups "
                   "./chargesim run e.ini -o w/x.csv --dist h/y.csv --quiet",
                   &out, &err);
    cr_expect_eq(rc, 1, "%s", err);
    cr_expect(strstr(err, "chargesim run: h/y.csv: cannot replace it: Operation not permitted "
                          "(it belongs to another user"),
              "%s", err);
    sticky_untouched(d);
}

Test(newuser, a_file_that_changes_hands_before_the_commit_leaves_nothing)
{
    if (geteuid() != 0)
        cr_skip_test(TH_SKIP_NOT_ROOT ": a file of another user in a sticky folder");
    /* y.csv is nobody's when opened, daemon's by the commit: the commit
     * finds out before its first rename. */
    const char *d = th_tmpdir();
    sticky_setup(d, 65534);
    int ready[2], go[2];
    cr_assert_eq(pipe(ready), 0);
    cr_assert_eq(pipe(go), 0);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        /* Nobody in effect only (root's saved user id kept), so that the
         * child is root again to write its coverage counters on leaving. */
        char x[1024], y[1024], c;
        snprintf(x, sizeof x, "%s/w/x.csv", d);
        snprintf(y, sizeof y, "%s/h/y.csv", d);
        if (setegid(65534) != 0 || seteuid(65534) != 0)
            th_child_exit(3);
        cs_outfile a, b;
        cs_error e;
        if (cs_outfile_open(&a, x, &e) != CS_OK || cs_outfile_open(&b, y, &e) != CS_OK)
            th_child_exit(4);
        fputs("new\n", a.f);
        fputs("new\n", b.f);
        if (write(ready[1], "r", 1) != 1 || read(go[0], &c, 1) != 1)
            th_child_exit(5);
        cs_outfile *const both[] = {&a, &b};
        cs_status st = cs_outfile_commit_all(both, 2, &e);
        bool refused = st == CS_ERUNTIME && strstr(e.msg, "h/y.csv: cannot replace it: ");
        /* y.csv daemon's now, opening it again is refused at once. */
        cs_status again = cs_outfile_open(&b, y, &e);
        refused = refused && again == CS_ERUNTIME &&
                  strstr(e.msg, "h/y.csv: cannot replace it: Operation not permitted (it belongs "
                                "to another user") &&
                  strstr(e.msg, "; nothing was written");
        if (seteuid(0) != 0 || setegid(0) != 0)
            _exit(7);
        th_child_exit(refused ? 0 : 6);
    }
    char c, path[1024];
    cr_assert_eq(read(ready[0], &c, 1), 1);
    snprintf(path, sizeof path, "%s/h/y.csv", d);
    cr_assert_eq(chown(path, 1, 1), 0);
    cr_assert_eq(write(go[1], "g", 1), 1);
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0, "child: %d", WEXITSTATUS(status));
    sticky_untouched(d);
}

/* ---- 4. A sweep that misses its end ----------------------------------- */

Test(newuser, a_sweep_that_misses_its_end_is_refused)
{
    const char *d = th_tmpdir();
    th_write_file(d, "e.ini",
                  "[experiment]\nruleset = generic\n[params]\nmove = 4\ndistance = 7..9:1.5\n");
    cr_expect_eq(th_sh(d, "$B run e.ini", &out, &err), 2);
    cr_expect(strstr(err, "e.ini:5: distance = '7..9:1.5': the step does not land on 9 (the "
                          "last value would be 8.5); end the sweep at 8.5"),
              "%s", err);
    cr_expect_str_eq(out, "");
    /* One that lands, though binary fractions do not add up exactly. */
    th_write_file(d, "f.ini",
                  "[experiment]\nruleset = generic\n[params]\nmove = 4\ndistance = 7..9:0.1\n");
    cr_expect_eq(th_sh(d, "$B run f.ini --quiet", &out, &err), 0, "%s", err);
    cr_expect(strstr(out, "\n9,,"), "%s", out);
    /* A map's axes too. */
    cr_expect_eq(th_sh(d, "$B map \"$R/experiments/map-t9a.ini\" --y 0..10:3", &out, &err), 2);
    cr_expect(strstr(err, "--y '0..10:3': the step does not land on 10 (the last value would "
                          "be 9)"),
              "%s", err);
}

/* ---- 4. A threat map with a drawn angle ------------------------------ */

Test(newuser, a_map_gives_odds_over_the_placements_that_can_stand)
{
    /* A 5" target whose front-edge centre is 1" before the charger's,
     * turned by uniform(-45, 45): its front corner comes 2.5 |sin a| nearer,
     * so it overlaps the charger (cannot stand) when |a| >= asin(0.4). */
    const double share = (45.0 - asin(0.4) * 180.0 / M_PI) / 45.0;
    const char *d = th_tmpdir();
    const char *common = "\"$R/experiments/map-t9a.ini\" --set 'angle=uniform(-45,45)' "
                         "--method mc --trials 20000 --quiet";
    char script[1024];
    snprintf(script, sizeof script, "$B map %s --x 0..0 --y 1..1 -o m.csv --plot m.png", common);
    cr_assert_eq(th_sh(d, script, &out, &err), 0, "%s", err);
    char path[1024];
    snprintf(path, sizeof path, "%s/m.csv", d);
    char *csv = th_slurp(path, NULL);
    cr_assert(csv);
    cr_expect(strstr(csv, ",p_illegal,p_cannot_stand,ci_low_cannot_stand,ci_high_cannot_stand,"
                          "method\n"),
              "%s", csv);
    unsigned long long trials;
    double p, lo, hi, q, qlo, qhi;
    const char *row = strchr(csv, '\n') + 1;
    cr_assert_eq(sscanf(row, "0,1,%llu,%lf,%lf,%lf,%*f,%*f,%*f,%*f,%*f,%lf,%lf,%lf,mc", &trials, &p,
                        &lo, &hi, &q, &qlo, &qhi),
                 7, "%s", row);
    /* The share that cannot stand, reported with its interval: within 5
     * standard errors of the exact share, inside the interval it gives. */
    cr_expect_lt(fabs(q - share), th_5sigma(share, 20000), "share %.6f, exact %.6f", q, share);
    cr_expect(qlo <= q && q <= qhi && qhi - qlo < 0.02, "%f %f %f", qlo, q, qhi);
    /* Every placement that stands is reached (D6 + 4 maximised against 1"):
     * the hole run shows there (52%) is gone. */
    cr_expect_eq(p, 1.0, "p_success over the placements that stand: %f", p);
    cr_expect_eq((double)trials, round(20000 * (1.0 - q)));
    /* run counts those placements as illegal charges; the trials that
     * stand are the same trials (each trial its own stream). */
    snprintf(script, sizeof script,
             "$B run \"$R/experiments/map-t9a.ini\" --set 'angle=uniform(-45,45)' --set distance=1 "
             "--method mc --trials 20000 --quiet");
    cr_assert_eq(th_sh(d, script, &out, &err), 0, "%s", err);
    unsigned long long rt, rs;
    double rp;
    cr_assert_eq(sscanf(strchr(out, '\n') + 1, "%llu,%llu,%lf", &rt, &rs, &rp), 3, "%s", out);
    cr_expect_eq(rt, 20000);
    cr_expect_eq(rs, trials, "run's successes are the map's standing trials, all reached");
    free(csv);
    /* The picture shows the share: the cell is hatched over its colour. */
    snprintf(script, sizeof script, "$B map %s --x 0..0 --y 1..1 --plot n.png", common);
    snprintf(path, sizeof path, "%s/n.png", d);
    cr_assert_eq(th_sh(d, "$B map \"$R/experiments/map-t9a.ini\" --x 0..0 --y 1..1 --plot n.png",
                       &out, &err),
                 0, "%s", err);
    cr_assert_eq(th_sh(d, "cmp -s m.png n.png", &out, &err), 1, "the hatching is missing");
}

Test(newuser, a_map_with_drawn_values_gives_the_same_bytes_on_any_thread_count)
{
    const char *d = th_tmpdir();
    static const char *const methods[] = {"mc", "conditional", "rqmc"};
    for (int m = 0; m < 3; m++) {
        char *first = NULL;
        for (int t = 1; t <= 7; t += 3) {
            char script[1024];
            snprintf(script, sizeof script,
                     "$B map \"$R/experiments/map-t9a.ini\" --set 'angle=uniform(-45,45)' "
                     "--method %s --trials 600 --x -3..3:1.5 --y 0..4:1 --threads %d --quiet",
                     methods[m], t);
            cr_assert_eq(th_sh(d, script, &out, &err), 0, "%s", err);
            cr_assert(strstr(out, ",0.4") || strstr(out, ",0.3"), "some share: %s", out);
            if (!first)
                first = strdup(out);
            else
                cr_expect_str_eq(out, first, "%s on %d threads", methods[m], t);
        }
        free(first);
    }
}

/* A 3 x 1 map at p = 1 with share[i] of cell i's placements unable to
 * stand, as PNG pixels: how much darker than its yellow the inside of cell
 * i is, summed over its pixels. */
static int dark_pixels(const double *share, int cell_i)
{
    static double p[3] = {1.0, 1.0, 1.0};
    cs_mapgrid g = {3, 1, 0, 1, 5, 1, p, share, 1, 1};
    cs_mapdraw d;
    cr_assert_eq(cs_mapdraw_build(&g, &d), CS_OK);
    cs_heatmap h = {&d, "t", "c"};
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cs_error e;
    cr_assert_eq(cs_heatmap_draw(&h, CS_CANVAS_PNG, f, &e), CS_OK, "%s", e.msg);
    fclose(f);
    cs_mapdraw_free(&d);
    char path[1024];
    snprintf(path, sizeof path, "%s/h.png", th_tmpdir());
    FILE *w = fopen(path, "wb");
    fwrite(buf, 1, len, w);
    fclose(w);
    free(buf);
    cairo_surface_t *img = cairo_image_surface_create_from_png(path);
    cr_assert_eq(cairo_surface_status(img), CAIRO_STATUS_SUCCESS);
    const unsigned char *px = cairo_image_surface_get_data(img);
    int stride = cairo_image_surface_get_stride(img), n = 0;
    /* heatmap.c's frame: x from -1 to 2.5, y from -1.5 to 5.5 inches, 40
     * points an inch, the plot 52 points from the left, 16 from the top. */
    int x0 = 52 + (int)((cell_i + 0.5) * 40) + 4, y0 = 16 + 4;
    for (int y = y0; y < y0 + 32; y++)
        for (int x = x0; x < x0 + 32; x++) {
            const unsigned char *q = px + y * stride + 4 * x; /* B, G, R, A */
            n += q[2] < 253 ? 253 - q[2] : 0; /* the yellow of p = 1 has red 253 */
        }
    cairo_surface_destroy(img);
    return n;
}

Test(newuser, the_share_that_cannot_stand_shows_in_the_picture)
{
    double none[3] = {0.0, 0.0, 0.0}, some[3] = {0.0, 0.2, 0.8};
    cr_expect_eq(dark_pixels(none, 1), 0);
    cr_expect_eq(dark_pixels(some, 0), 0, "a cell whose placements all stand is plain");
    int light = dark_pixels(some, 1), heavy = dark_pixels(some, 2);
    cr_expect_gt(light, 1000, "hatching over a cell where 20%% cannot stand");
    cr_expect_gt(heavy, light, "darker where more cannot stand (%d, %d)", heavy, light);
}

/* ---- 5. Provenance and messages --------------------------------------- */

/* Every character LaTeX treats specially, and some it turns into others:
 * in the experiment's name (the table's caption) and so in the command the
 * note quotes. */
#define SPECIALS "a&b_c%d$e#f{g}h~i^j\\k|l<m>n\"o`p'q--r"

Test(newuser, the_latex_note_shows_the_command_as_typed)
{
    const char *d = th_tmpdir();
    /* The name as one shell word: single quotes, the ' inside as '\'' */
    cr_assert_eq(th_sh(d,
                       "$B run \"$R/experiments/default.ini\" --set move=4 --set distance=7,8 "
                       "--set 'experiment.name=a&b_c%d$e#f{g}h~i^j\\k|l<m>n\"o`p'\\''q--r' "
                       "--format tex -o t.tex",
                       &out, &err),
                 0, "%s", err);
    char path[1024];
    snprintf(path, sizeof path, "%s/t.tex", d);
    char *tex = th_slurp(path, NULL);
    cr_assert(tex);
    /* The caption: each special character escaped, no -- left to become a dash. */
    cr_expect(strstr(tex, "\\caption{a\\&b\\_c\\%d\\$e\\#f\\{g\\}h\\textasciitilde{}i"
                          "\\textasciicircum{}j\\textbackslash{}k\\textbar{}l\\textless{}m"
                          "\\textgreater{}n''o\\textasciigrave{}p'q-{}-r (generic)}"),
              "%s", tex);
    /* The command in \texttt, in the typewriter's own glyphs: hyphens kept
     * apart (no en dash), straight quotes, nothing in backquotes. */
    const char *cmd = strstr(tex, "\\texttt{chargesim run ");
    cr_assert(cmd, "%s", tex);
    cr_expect(strstr(cmd, " -{}-{}set move=4 -{}-{}set distance=7,8 -{}-{}set "
                          "\\textquotesingle{}experiment.name=a\\&b\\char95{}c\\%d\\$e\\#f"
                          "\\char123{}g\\char125{}h\\char126{}i\\char94{}j\\char92{}k\\char124{}"
                          "l\\char60{}m\\char62{}n\\char34{}o\\textasciigrave{}p"
                          "\\textquotesingle{}\\char92{}\\textquotesingle{}\\textquotesingle{}q"
                          "-{}-{}r\\textquotesingle{} -{}-{}format tex -{}o t.tex}"),
              "%s", cmd);
    cr_expect(!strchr(tex, '`'), "a backquote left for LaTeX to turn into a quote: %s", tex);
    free(tex);
    /* Compiled where a LaTeX is installed (Debian's texlive-latex-base),
     * and read back from the PDF where Ghostscript is. */
    if (th_sh(d, "command -v pdflatex", &out, &err) != 0) {
        /* A note, not cr_log_warn: Criterion exits 1 after any warning. */
        fprintf(stderr, "note: pdflatex not installed: the LaTeX table is checked by its escapes "
                        "only\n");
        return;
    }
    th_write_file(d, "doc.tex",
                  "\\documentclass{article}\n\\begin{document}\n\\input{t.tex}\n"
                  "\\end{document}\n");
    cr_assert_eq(th_sh(d, "pdflatex -interaction=nonstopmode -halt-on-error doc.tex", &out, &err),
                 0, "the table does not compile: %s", out);
    cr_expect(!strstr(out, "Font shape") && !strstr(out, "undefined"), "%s", out);
    if (th_sh(d, "command -v gs", &out, &err) != 0)
        return;
    cr_assert_eq(
        th_sh(d, "gs -q -sDEVICE=txtwrite -o - doc.pdf | tr -s ' \\r\\n' '   '", &out, &err), 0);
    cr_expect(strstr(out, "--set 'experiment.name=a&b_c%d$e#f{g}h~i^j\\k|l<m>n\"o`p'\\''q--r' "
                          "--format tex -o t.tex"),
              "the PDF does not show the command as typed: %s", out);
}

/* The metadata at path, parsed. */
static json_t *meta_of(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    json_t *j = json_load_file(path, 0, NULL);
    cr_assert(j, "%s", path);
    return j;
}

static const char *text_at(json_t *o, const char *a, const char *b)
{
    json_t *x = json_object_get(o, a);
    return json_string_value(b ? json_object_get(x, b) : x);
}

Test(newuser, rerun_keeps_the_original_provenance)
{
    const char *d = th_tmpdir();
    th_write_file(
        d, "e.ini",
        "[experiment]\nruleset = t9a\ntrials = 4000\nseed = 5\n[params]\n"
        "distance = 4..6\noffset = uniform(-2, 2)\n[labels]\ndistance = near, mid, far\n");
    cr_assert_eq(
        th_sh(d, "$B run e.ini --replicates 4 --set edition=2 -o a.csv --quiet", &out, &err), 0,
        "%s", err);
    cr_assert_eq(th_sh(d, "$B rerun a.csv-metadata.json -o b.csv && cmp a.csv b.csv", &out, &err),
                 0, "labels and replicates lost: %s%s", out, err);
    cr_assert_eq(th_sh(d, "$B rerun b.csv-metadata.json -o c.csv && cmp a.csv c.csv", &out, &err),
                 0, "%s", err);
    json_t *a = meta_of(d, "a.csv-metadata.json"), *b = meta_of(d, "b.csv-metadata.json"),
           *c = meta_of(d, "c.csv-metadata.json");
    /* The input and its digest, and prov:used, as the first run recorded them. */
    cr_expect_str_eq(text_at(b, "chargesim:input", "path"), "e.ini");
    cr_expect_str_eq(text_at(b, "chargesim:input", "sha256"),
                     text_at(a, "chargesim:input", "sha256"));
    json_t *used = json_object_get(json_object_get(b, "prov:wasGeneratedBy"), "prov:used");
    cr_expect_str_eq(text_at(used, "prov:location", NULL), "e.ini");
    cr_expect_str_eq(text_at(used, "chargesim:sha256", NULL),
                     text_at(a, "chargesim:input", "sha256"));
    /* Every parameter where it was set: the file's line, the command line, the default. */
    json_t *pa = json_object_get(json_object_get(a, "chargesim:experiment"), "parameters");
    json_t *pc = json_object_get(json_object_get(c, "chargesim:experiment"), "parameters");
    cr_assert_eq(json_array_size(pa), json_array_size(pc));
    for (size_t i = 0; i < json_array_size(pa); i++)
        cr_expect_str_eq(text_at(json_array_get(pc, i), "origin", NULL),
                         text_at(json_array_get(pa, i), "origin", NULL), "parameter %zu", i);
    cr_expect_str_eq(text_at(json_array_get(pa, 0), "origin", NULL), "e.ini:6");
    /* Said to be made again: from which metadata (its digest), first by which command. */
    char *bytes;
    size_t len;
    char path[1024], hex[65];
    snprintf(path, sizeof path, "%s/b.csv-metadata.json", d);
    cr_assert((bytes = th_slurp(path, &len)));
    cs_sha256_hex(bytes, len, hex);
    free(bytes);
    cr_expect_str_eq(text_at(c, "chargesim:remade_from", "metadata"), "b.csv-metadata.json");
    cr_expect_str_eq(text_at(c, "chargesim:remade_from", "sha256"), hex);
    cr_expect_str_eq(text_at(c, "chargesim:remade_from", "command_line"),
                     text_at(a, "chargesim:command_line", NULL));
    cr_expect(strstr(text_at(c, "chargesim:remade_from", "note"), "made again"));
    cr_expect_null(json_object_get(a, "chargesim:remade_from"));
    json_decref(a);
    json_decref(b);
    json_decref(c);
}

Test(newuser, run_without_a_file_is_named_after_its_ruleset)
{
    const char *d = th_tmpdir();
    cr_assert_eq(th_sh(d,
                       "$B run - --set experiment.ruleset=generic --set move=4,5 "
                       "--set distance=7,8 --format md --pivot move:distance",
                       &out, &err),
                 0, "%s", err);
    cr_expect(strncmp(out, "### generic: p_success (%)", 26) == 0, "%s", out);
    cr_expect(!strstr(out, "### -"), "%s", out);
    cr_expect_eq(th_sh(d, "$B run - --set move=4", &out, &err), 2);
    cr_expect(strstr(err, "command line: [params] move: no ruleset chosen"), "%s", err);
    cr_expect_eq(th_sh(d, "$B run -", &out, &err), 2);
    cr_expect(strstr(err, "chargesim run: command line: no ruleset: give --set "
                          "experiment.ruleset=NAME"),
              "%s", err);
    /* draw's title */
    cs_experiment e;
    cs_error er;
    const char *sets[] = {"experiment.ruleset=t9a"};
    cr_assert_eq(cs_expfile_load("-", sets, 1, &e, &er), CS_OK, "%s", er.msg);
    cs_replay r;
    cr_assert_eq(cs_replay_trial(&e, 0, 0, &r, &er), CS_OK, "%s", er.msg);
    char lines[3][CS_REPLAY_TITLE_LINE];
    cr_expect_eq(cs_replay_title(&e, 0, 0, &r, lines), 2);
    cr_expect_str_eq(lines[0], "ruleset t9a");
    cs_replay_free(&r);
    cs_experiment_free(&e);
}

Test(newuser, draw_names_the_values_its_trial_drew)
{
    cs_experiment e;
    cs_error er;
    char path[1024];
    snprintf(path, sizeof path, "%s/experiments/t9a-random-approach.ini", th_root());
    cr_assert_eq(cs_expfile_load(path, NULL, 0, &e, &er), CS_OK, "%s", er.msg);
    cs_replay r;
    cr_assert_eq(cs_replay_trial(&e, 3, 17, &r, &er), CS_OK, "%s", er.msg);
    char lines[3][CS_REPLAY_TITLE_LINE], want[256];
    cr_assert_eq(cs_replay_title(&e, 3, 17, &r, lines), 3);
    cr_expect_str_eq(lines[0], "t9a-random-approach (ruleset t9a)");
    cr_expect(strstr(lines[1], "trial 17 of 20000, seed 904"), "%s", lines[1]);
    int io = cs_ruleset_param_index(e.rs, "offset"), ia = cs_ruleset_param_index(e.rs, "angle");
    snprintf(want, sizeof want, "drawn for this trial: offset = %.2f in (uniform(-6, 6)), "
                                "angle = %.2f deg (uniform(-45, 45))",
             r.num[io], r.num[ia]);
    cr_expect_str_eq(lines[2], want);
    cr_expect(r.num[io] != 0.0 && r.num[ia] != 0.0, "drawn, not the centre");
    cs_replay_free(&r);
    cs_experiment_free(&e);
}

Test(newuser, messages_give_the_right_cause_once)
{
    const char *d = th_tmpdir();
    cr_expect_eq(th_sh(d, "$B rerun nope.json", &out, &err), 2);
    cr_expect_str_eq(err, "chargesim rerun: nope.json: cannot open it: No such file or "
                          "directory\n");
    cr_expect_eq(th_sh(d, "$B map --help", &out, &err), 0);
    cr_expect(strstr(out, "50/75/90% contours") && !strstr(out, "%%"), "%s", out);
    /* Whatever compare makes of rqmc, it names itself once. */
    th_sh(d,
          "$B compare \"$R/experiments/compare-t9a-speed.ini\" --b charge_speed=1 "
          "--method rqmc --trials 64 --quiet",
          &out, &err);
    cr_expect(!strstr(err, "compare: compare:"), "%s", err);
    /* The cause: a message below the command line never names the command,
     * which cs_cli_fail puts in front of it. */
    cr_assert_eq(th_sh(d,
                       "cd \"$R/src\" && grep -rnE "
                       "'cs_error_set\\([^\"]*\"(run|compare|map|draw|units|rerun|dice|rules): ' "
                       "core rules sim io",
                       &out, &err),
                 1, "%s", out);
}

Test(newuser, a_typo_gets_a_suggestion)
{
    const char *d = th_tmpdir();
    static const struct {
        const char *cmd, *msg;
    } cases[] = {
        {"run \"$R/experiments/t9a-random-approach.ini\" --set chrage_speed=1",
         "[params] unknown key 'chrage_speed' for ruleset t9a; did you mean charge_speed? "
         "(chargesim rules t9a lists its "},
        {"run \"$R/experiments/default.ini\" --trails 5",
         "chargesim run: unknown option '--trails'; did you mean --trials? (see chargesim run "
         "--help)"},
        {"run \"$R/experiments/default.ini\" --set experiment.trails=5",
         "[experiment] unknown key 'trails'; did you mean trials?"},
        {"run \"$R/experiments/default.ini\" --set experiment.ruleset=t9b",
         "ruleset = 't9b': did you mean t9a?"},
        {"map \"$R/experiments/map-t9a.ini\" --plto m.png", "did you mean --plot?"},
        {"compare \"$R/experiments/compare-t9a-speed.ini\" --b=x=1 --trails 5",
         "did you mean --trials?"},
        {"dice 2d6 --exat", "did you mean --exact?"},
        {"draw \"$R/experiments/default.ini\" --trail 3", "did you mean --trial?"},
        {"rerun m.json --o x", "did you mean -o?"},
        {"runn", "chargesim: unknown command 'runn'; did you mean run?"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char script[1024];
        snprintf(script, sizeof script, "$B %s", cases[i].cmd);
        cr_expect_eq(th_sh(d, script, &out, &err), 2, "%s", cases[i].cmd);
        cr_expect(strstr(err, cases[i].msg), "%s: %s", cases[i].cmd, err);
    }
    /* Nothing near: no guess, the whole list. */
    cr_expect_eq(th_sh(d, "$B run \"$R/experiments/default.ini\" --set zzzzzz=1", &out, &err), 2);
    cr_expect(strstr(err, "unknown key 'zzzzzz' for ruleset generic; expected one of: preset,"),
              "%s", err);
    cr_expect_eq(th_sh(d, "$B run \"$R/experiments/default.ini\" --zzzzzz", &out, &err), 2);
    cr_expect(strstr(err, "unknown option '--zzzzzz' (see chargesim run --help)"), "%s", err);
    /* Short words are not "corrected" into others. */
    cs_parse_suggest s = {"ab", NULL, 0};
    cs_parse_suggest_offer(&s, "xy");
    cs_parse_suggest_offer(&s, "a");
    cr_expect_null(s.best);
    s = (cs_parse_suggest){"charge_sped", NULL, 0};
    cs_parse_suggest_offer(&s, "charger_depth");
    cs_parse_suggest_offer(&s, "charge_speed");
    cr_expect_str_eq(s.best, "charge_speed");
}
