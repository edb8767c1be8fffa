/* SPDX-License-Identifier: GPL-3.0-or-later */
/* compare's verdict in words (issue 52; include/chargesim/cmpverdict.h):
 * sentences of constructed results (B better, A better, none, mixed
 * ranges, exact, one point, two swept keys, another success set), and the
 * command line printing the same sentence after its CSV. */
#include <criterion/criterion.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/cmpverdict.h"
#include "support/helpers.h"

static const char *const ini =
    "[experiment]\nruleset = generic\ntrials = 1000\nseed = 1\n[params]\n";

/* A result over the experiment of `sets` whose point k has delta d[k] and
 * the interval [d - w, d + w] (w = 0: exact). */
typedef struct fixture {
    cs_experiment e;
    cs_cmp_result r;
    cs_cmp_point p[16];
} fixture;

static void make(fixture *f, const char *const *sets, int n, const double *d, double w)
{
    cs_error err;
    memset(f, 0, sizeof *f);
    cr_assert_eq(th_load(ini, sets, n, &f->e, &err), CS_OK, "%s", err.msg);
    cr_assert_leq(f->e.n_points, 16);
    f->r = (cs_cmp_result){.a = &f->e, .b = &f->e, .method = w > 0 ? CS_METHOD_MC : CS_METHOD_EXACT,
                           .n_points = f->e.n_points, .point = f->p};
    for (uint64_t k = 0; k < f->e.n_points; k++) {
        f->p[k].d[0] = d[k];
        f->p[k].lo[0] = d[k] - w;
        f->p[k].hi[0] = d[k] + w;
    }
}

static void expect(fixture *f, const char *want)
{
    char got[1024];
    cs_cmpverdict(&f->r, got, sizeof got);
    cr_expect_str_eq(got, want);
    cs_experiment_free(&f->e);
}

static const char *const dist4to14[] = {"distance=4..14:2"}; /* 4 6 8 10 12 14 */

Test(cmpverdict, mixed_ranges)
{
    fixture f;
    const double d[] = {0.001, 0.02, 0.028, 0.025, 0.004, 0.0};
    make(&f, dist4to14, 1, d, 0.005);
    expect(&f, "B reaches more often at 6\u201310\u2033 (+2.3 to +3.3 points at 8\u2033, 95%); "
               "no difference detected at 4\u2033 and from 12\u2033.");
}

Test(cmpverdict, a_better_up_to)
{
    fixture f;
    const double d[] = {-0.10, -0.05, -0.02, 0.0, 0.0, 0.0};
    make(&f, dist4to14, 1, d, 0.01);
    expect(&f, "A reaches more often up to 8\u2033 (-11.0 to -9.0 points at 4\u2033, 95%); "
               "no difference detected from 10\u2033.");
}

Test(cmpverdict, both_ways)
{
    fixture f;
    const double d[] = {0.05, 0.0, -0.03, 0.0, 0.05, 0.06};
    make(&f, dist4to14, 1, d, 0.01);
    expect(&f, "B reaches more often at 4\u2033 and from 12\u2033 (+5.0 to +7.0 points at 14\u2033, "
               "95%); A reaches more often at 8\u2033 (-4.0 to -2.0 points at 8\u2033, 95%); no "
               "difference detected at 6\u2033 and at 10\u2033.");
}

Test(cmpverdict, none)
{
    fixture f;
    const double d[] = {0.0, 0.001, -0.002, 0.0, 0.0, 0.0};
    make(&f, dist4to14, 1, d, 0.004);
    expect(&f, "No difference detected at 4\u201314\u2033 (-0.6 to +0.2 points at 8\u2033, 95%).");
}

Test(cmpverdict, exact)
{
    fixture f;
    const double d[] = {0.0, 0.028, 0.028, 0.0, 0.0, 0.0};
    make(&f, dist4to14, 1, d, 0.0);
    expect(&f, "B reaches more often at 6\u20138\u2033 (+2.8 points at 6\u2033, exact); no "
               "difference at 4\u2033 and from 10\u2033.");
}

Test(cmpverdict, one_point)
{
    fixture f;
    const double d[] = {0.0277};
    make(&f, NULL, 0, d, 0.001);
    expect(&f, "B reaches more often (+2.7 to +2.9 points, 95%).");
    make(&f, NULL, 0, d, 0.0);
    expect(&f, "B reaches more often (+2.8 points, exact).");
    const double z[] = {0.0};
    make(&f, NULL, 0, z, 0.0);
    expect(&f, "No difference (+0.0 points, exact).");
}

Test(cmpverdict, small_delta_keeps_digits)
{
    fixture f;
    const double d[] = {0.0004};
    make(&f, NULL, 0, d, 0.0001);
    expect(&f, "B reaches more often (+0.03 to +0.05 points, 95%).");
}

Test(cmpverdict, other_key_is_named)
{
    fixture f;
    static const char *const sets[] = {"move=3..6"};
    const double d[] = {0.0, 0.0, 0.05, 0.05};
    make(&f, sets, 1, d, 0.01);
    expect(&f, "B reaches more often from move 5\u2033 (+4.0 to +6.0 points at move 5\u2033, "
               "95%); no difference detected up to move 4\u2033.");
}

/* Two swept keys, the same classes along distance at each move: ranges
 * of distance, alike for every move. */
Test(cmpverdict, two_keys_alike)
{
    fixture f;
    static const char *const sets[] = {"move=4,5", "distance=6..8"};
    const double d[] = {0.0, 0.1, 0.2, 0.0, 0.1, 0.1};
    make(&f, sets, 2, d, 0.01);
    expect(&f, "B reaches more often from 7\u2033 (+19.0 to +21.0 points at move 4\u2033, "
               "distance 8\u2033, 95%); no difference detected at 6\u2033; alike for every "
               "move.");
}

/* Not alike: the points counted, or named when one or two. */
Test(cmpverdict, two_keys)
{
    fixture f;
    static const char *const sets[] = {"move=4,5", "distance=6..8"};
    const double d[] = {0.0, 0.1, 0.2, 0.1, 0.1, 0.1};
    make(&f, sets, 2, d, 0.01);
    expect(&f, "B reaches more often in 5 of 6 cases (+19.0 to +21.0 points at move 4\u2033, "
               "distance 8\u2033, 95%); no difference detected at move 4\u2033, distance "
               "6\u2033.");
}

Test(cmpverdict, other_success)
{
    fixture f;
    const double d[] = {0.05};
    make(&f, NULL, 0, d, 0.01);
    f.r.success_mask = 1u << 1; /* generic's "failed" */
    expect(&f, "B ends failed more often (+4.0 to +6.0 points, 95%).");
}

/* The command line: the CSV on standard output unchanged, the sentence
 * after it on standard error, the page's words (web.c, "verdict"). */
Test(cmpverdict, cli_prints_the_sentence)
{
    char *out = NULL, *err = NULL;
    int rc = th_cli("compare tests/data/golden/whfb8.ini --set move=4 --set distance=6..9 "
                    "--b move=5 --quiet",
                    &out, &err);
    cr_assert_eq(rc, 0, "%s", err);
    cr_expect(strstr(out, "delta_lo") != NULL);
    cr_expect(strstr(out, "reaches more often") == NULL, "%s", out);
    cr_expect_str_eq(err, "B reaches more often from 7\u2033 (+8.3 points at 9\u2033, exact); no "
                          "difference at 6\u2033.\n");
    free(out);
    free(err);
}

/* LaTeX: the verdict opens the note, its marks as LaTeX commands (the
 * inch mark is no character pdflatex's default encoding declares). */
Test(cmpverdict, tex_note_marks)
{
    char *out = NULL, *err = NULL;
    int rc = th_cli("compare tests/data/golden/whfb8.ini --set move=4 --set distance=6..9 "
                    "--b move=5 --quiet --format tex",
                    &out, &err);
    cr_assert_eq(rc, 0, "%s", err);
    cr_expect(strstr(out, "\\footnotesize B reaches more often from 7$''$ (+8.3 points at "
                          "9$''$, exact); no difference at 6$''$. A: move 4 "
                          "\\textperiodcentered{} B: move 5") != NULL,
              "%s", out);
    cr_expect(strstr(out, "\u2033") == NULL && strstr(out, "\u00b7") == NULL, "%s", out);
    cr_expect_str_eq(err, "");
    free(out);
    free(err);
}

/* A sweep whose kinds alternate more often than a sentence can list:
 * counted, so the verdict stays one sentence. */
Test(cmpverdict, many_runs_counted)
{
    fixture f;
    static const char *const sets[] = {"distance=1..16"};
    double d[16];
    for (int k = 0; k < 16; k++)
        d[k] = k % 2 ? 0.05 : 0.0;
    make(&f, sets, 1, d, 0.01);
    expect(&f, "B reaches more often in 8 of 16 cases (+4.0 to +6.0 points at 2\u2033, 95%); "
               "no difference detected in 8 of 16 cases.");
}
