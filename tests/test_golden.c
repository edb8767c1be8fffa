/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Golden outputs: each command (run, map, compare, dice, units, rules) run
 * by bin/chargesim on fixed arguments and seeds, its standard output, and
 * where a case says so its standard error and the files it writes, held
 * byte for byte against tests/expected/, as pcg-c's test-high holds its
 * generators against test-high/expected. A difference fails with `diff -u`
 * of the expected file against what the program printed.
 *
 * The cases are small (exact, or a few thousand trials on 2 threads) and
 * chosen to show each command's formats: CSV, Markdown, LaTeX, a CSV's
 * CSVW metadata, an estimate's intervals, notes and refusals on standard
 * error. Each runs in a fresh directory that links data/, tests/ and
 * experiments/mappings/ of the repository (an instrumented build's binary,
 * build-cov/bin/chargesim, finds no mappings beside it), with relative paths, so that the paths the outputs name
 * (a table's title, the metadata's provenance) are the same on every
 * machine. The experiments are this suite's own (tests/data/golden/), so
 * that an edit to experiments/ changes no golden file.
 *
 * A change that means to alter an output regenerates the files with
 * `make golden` (CS_GOLDEN_UPDATE=1 on this suite) and shows the change in
 * `git diff tests/expected/` for review; tests/README.md says so. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "support/helpers.h"

/* One golden case. Its standard output is held in tests/expected/NAME,
 * its standard error in tests/expected/NAME.stderr, each file it writes in
 * tests/expected/NAME.FILE; an output that is empty has no file (a file
 * that is missing holds the output empty). */
typedef struct {
    const char *name;     /* the files' name under tests/expected/ */
    const char *cmd;      /* the shell command; $B is the binary */
    int status;           /* the exit status the command must end with */
    const char *files[4]; /* files it writes, NULL-terminated */
} golden_case;

/* Whether this run writes the expected files instead of comparing. */
static bool updating(void)
{
    const char *u = getenv("CS_GOLDEN_UPDATE");
    return u && u[0] && strcmp(u, "0") != 0;
}

/* Holds len bytes of text against tests/expected/NAME, which holds it
 * empty when it does not exist (or writes them there when updating: an
 * empty output removes the file); dir is the case's directory, for the diff. */
static void hold(const char *dir, const char *name, const char *text, size_t len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/tests/expected/%s", th_root(), name);
    if (updating()) {
        if (len == 0) {
            remove(path);
            return;
        }
        FILE *f = fopen(path, "wb");
        cr_assert(f, "cannot write %s", path);
        cr_assert_eq(fwrite(text, 1, len, f), len);
        cr_assert_eq(fclose(f), 0);
        return;
    }
    size_t n = 0;
    char *want = th_slurp(path, &n);
    if (n != len || (len && memcmp(want, text, len) != 0)) {
        char actual[1024], script[2560];
        snprintf(actual, sizeof actual, "%s/actual-%s", dir, name);
        FILE *f = fopen(actual, "wb");
        cr_assert(f, "%s", actual);
        cr_assert_eq(fwrite(text, 1, len, f), len);
        cr_assert_eq(fclose(f), 0);
        snprintf(script, sizeof script, "diff -u \"%s\" \"%s\"", want ? path : "/dev/null", actual);
        char *diff = NULL;
        th_sh(dir, script, &diff, NULL);
        cr_expect_fail("tests/expected/%s%s differs from what the program printed (%zu bytes, "
                       "%zu expected); if the change is meant, `make golden` and review git "
                       "diff:\n%s",
                       name, want ? "" : " (no file: empty)", len, n, diff);
        free(diff);
    }
    free(want);
}

static void check(const golden_case *c)
{
    const char *d = th_tmpdir();
    cr_assert(d);
    cr_assert_eq(th_sh(d, "ln -s \"$R/data\" data && ln -s \"$R/tests\" tests && mkdir experiments && "
                          "ln -s \"$R/experiments/mappings\" experiments/mappings",
                       NULL, NULL),
                 0);
    char *out = NULL, *err = NULL;
    int rc = th_sh(d, c->cmd, &out, &err);
    cr_expect_eq(rc, c->status, "%s: exit status %d, %d expected: %s", c->name, rc, c->status, err);
    hold(d, c->name, out, strlen(out));
    char name[256];
    snprintf(name, sizeof name, "%s.stderr", c->name);
    hold(d, name, err, strlen(err));
    for (int i = 0; i < 4 && c->files[i]; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", d, c->files[i]);
        size_t len;
        char *text = th_slurp(path, &len);
        cr_assert(text, "%s: the command wrote no %s", c->name, c->files[i]);
        snprintf(name, sizeof name, "%s.%s", c->name, c->files[i]);
        hold(d, name, text, len);
        free(text);
    }
    free(out);
    free(err);
}

TestSuite(golden);

/* One Test a case, so that `--filter 'golden/run*'` picks a command's. */
#define GOLDEN(id, ...)                                                                            \
    Test(golden, id)                                                                               \
    {                                                                                              \
        static const golden_case c = __VA_ARGS__;                                                  \
        check(&c);                                                                                 \
    }

/* WHFB 8th (M + 2D6), exact, six points. */
#define RUN "$B run tests/data/golden/whfb8.ini "

GOLDEN(run_csv, {"run.csv", RUN, 0, {NULL}})
GOLDEN(run_md_pivot, {"run-pivot.md", RUN "--format md --pivot move:distance", 0, {NULL}})
GOLDEN(run_tex, {"run.tex", RUN "--format tex", 0, {NULL}})
/* Monte Carlo on 2 threads at a fixed seed: the estimate's columns, the
 * --dist histograms, and the CSVW metadata beside the CSV. */
GOLDEN(run_mc_files,
       {"run-mc",
        "$B run tests/data/golden/whfb8.ini --set move=4 --set distance=7..8 --method mc "
        "--seed 5 --threads 2 --quiet -o a.csv --dist d.csv",
        0,
        {"a.csv", "a.csv-metadata.json", "d.csv", NULL}})
/* A refusal: the key at fault named, exit status 2, no output. */
GOLDEN(run_unknown_key,
       {"run-unknown-key", "$B run tests/data/golden/whfb8.ini --set zzzzzz=1", 2, {NULL}})

/* T9A's threat map, exact: cells where the target cannot stand (y = 0). */
GOLDEN(map_csv,
       {"map.csv", "$B map tests/data/golden/map-t9a.ini --x -3..3:3 --y 0..8:4", 0, {NULL}})
/* A drawn angle: each cell estimated (rqmc), the same bytes on any thread count. */
GOLDEN(map_drawn,
       {"map-drawn.csv",
        "$B map tests/data/golden/map-t9a.ini --x -3..3:3 --y 4..8:4 --set 'angle=uniform(-45,45)' "
        "--trials 500 --seed 7 --threads 2 --quiet",
        0,
        {NULL}})

/* Exact on both sides: B moves one inch further. */
GOLDEN(compare_csv, {"compare.csv",
                     "$B compare tests/data/golden/whfb8.ini --set move=4 --set distance=6..9 "
                     "--b move=5 --quiet",
                     0,
                     {NULL}})
/* rqmc pairs, a labelled sweep, Markdown in percentage points. */
GOLDEN(compare_md,
       {"compare.md",
        "$B compare tests/data/golden/t9a-speed.ini --b charge_speed=1 --threads 2 --quiet "
        "--format md",
        0,
        {NULL}})

GOLDEN(dice_csv, {"dice.csv", "$B dice 2d6", 0, {NULL}})
GOLDEN(dice_sampled_md, {"dice-sampled.md",
                         "$B dice 3d6dl1 --trials 10000 --seed 3 --threads 2 --format md",
                         0,
                         {NULL}})
GOLDEN(dice_tex, {"dice.tex", "$B dice 3d6kh2+1 --format tex", 0, {NULL}})
GOLDEN(dice_files,
       {"dice-files", "$B dice 1d6ro1 -o p.csv", 0, {"p.csv", "p.csv-metadata.json", NULL}})

/* A units CSV of this suite's own (generic and asoiaf rows, one left out,
 * one kept without metrics): the notes on standard error. */
GOLDEN(units_csv, {"units.csv", "$B units tests/data/golden/units.csv --distance 6..9", 0, {NULL}})
/* An ASOIAF catalogue as it stands in data/ (exact, head-on), Markdown. */
GOLDEN(units_asoiaf_md, {"units-asoiaf.md",
                         "$B units data/bsdata-asoiaf/Nights_Watch.cat --distance 6..8 --format md",
                         0,
                         {NULL}})

GOLDEN(rules_list, {"rules", "$B rules", 0, {NULL}})
GOLDEN(rules_generic, {"rules-generic", "$B rules generic", 0, {NULL}})
