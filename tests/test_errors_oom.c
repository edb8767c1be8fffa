/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Out of memory is an error like any other (issue 18, section 4): every
 * allocation of a command, one at a time, is made to fail, and the command
 * must then stop with exit status 1 and say it is out of memory (or finish,
 * where the allocation was optional, with the very tables of a run without
 * failures) without crashing. The test binary is linked with --wrap for malloc, calloc,
 * realloc and strdup, and for the library calls of ours that allocate
 * (fdopen, csv_init, xmlNewParserCtxt, gsl_qrng_alloc) (Makefile TEST_WRAP),
 * so the library's own calls come here; the product binary is not. --wrap
 * cannot reach the allocations inside a shared library: jansson's come here
 * all the same, through an allocator that calls our malloc
 * (json_set_alloc_funcs); the other library calls count as one allocation
 * each, failing as their documentation says they fail. */
#define _GNU_SOURCE /* unshare, CLONE_NEWNS: device_case */
#include <criterion/criterion.h>
#include <csv.h>
#include <dirent.h>
#include <errno.h>
#include <gsl/gsl_qrng.h>
#include <jansson.h>
#include <omp.h>
#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sched.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>
#include <unistd.h>

#include "chargesim/cli.h"
#include "chargesim/grow.h"
#include "chargesim/output.h"
#include "chargesim/status.h"
#include "chargesim/web.h"
#include "support/helpers.h"

void *__real_malloc(size_t n);
void *__real_calloc(size_t n, size_t size);
void *__real_realloc(void *p, size_t n);
char *__real_strdup(const char *s);
FILE *__real_fdopen(int fd, const char *mode);
int __real_csv_init(struct csv_parser *p, unsigned char options);
xmlParserCtxtPtr __real_xmlNewParserCtxt(void);
gsl_qrng *__real_gsl_qrng_alloc(const gsl_qrng_type *t, unsigned int dim);
void *__wrap_malloc(size_t n);
void *__wrap_calloc(size_t n, size_t size);
void *__wrap_realloc(void *p, size_t n);
char *__wrap_strdup(const char *s);
FILE *__wrap_fdopen(int fd, const char *mode);
int __wrap_csv_init(struct csv_parser *p, unsigned char options);
xmlParserCtxtPtr __wrap_xmlNewParserCtxt(void);
gsl_qrng *__wrap_gsl_qrng_alloc(const gsl_qrng_type *t, unsigned int dim);

/* The allocation to fail, counting down from the first after arming; 0 is
 * off. The commands run with --threads 1, so no two threads count. With
 * fail_rest, every allocation after it fails too (failing): memory gone for
 * good, which is what fails a library that asks again for less (libcsv). */
static long countdown;
static bool fail_rest, failing;

static bool fail_now(void)
{
    if (failing || (countdown > 0 && --countdown == 0)) {
        failing = fail_rest;
        errno = ENOMEM; /* as malloc(3) does */
        return true;
    }
    return false;
}

void *__wrap_malloc(size_t n)
{
    return fail_now() ? NULL : __real_malloc(n);
}

void *__wrap_calloc(size_t n, size_t size)
{
    return fail_now() ? NULL : __real_calloc(n, size);
}

void *__wrap_realloc(void *p, size_t n)
{
    return fail_now() ? NULL : __real_realloc(p, n);
}

char *__wrap_strdup(const char *s)
{
    return fail_now() ? NULL : __real_strdup(s);
}

/* fdopen allocates the FILE; it fails with ENOMEM when that fails. */
FILE *__wrap_fdopen(int fd, const char *mode)
{
    return fail_now() ? NULL : __real_fdopen(fd, mode);
}

/* libcsv documents that csv_init can fail (non-zero); 3.0.3 allocates
 * nothing there yet (a cell's buffer grows in csv_parse), so this stands for
 * a libcsv that does. */
int __wrap_csv_init(struct csv_parser *p, unsigned char options)
{
    return fail_now() ? -1 : __real_csv_init(p, options);
}

/* libxml2 2.9's own handling of a failed allocation deep in a parse is not
 * to be relied on, so its allocator is not routed here: only the context,
 * which it returns NULL for when it cannot allocate. */
xmlParserCtxtPtr __wrap_xmlNewParserCtxt(void)
{
    return fail_now() ? NULL : __real_xmlNewParserCtxt();
}

/* GSL returns NULL (its error handler off, qmc.c) when the generator's
 * memory cannot be had. */
gsl_qrng *__wrap_gsl_qrng_alloc(const gsl_qrng_type *t, unsigned int dim)
{
    return fail_now() ? NULL : __real_gsl_qrng_alloc(t, dim);
}

/* jansson allocates inside the shared library, out of --wrap's reach.
 * csvw.c hands it an allocator that calls malloc, so its allocations are
 * counted here; this one, which csvw.c's replaces as it starts, keeps them
 * counted should csvw.c ever stop (a failure it no longer sees would then
 * show as a wrong metadata file). Each test runs in a process of its own. */
static void count_jansson_allocations(void)
{
    json_set_alloc_funcs(__wrap_malloc, free);
}

typedef int (*command_fn)(int, char **);


/* The test's directory (th_tmpdir gives a new one at each call). */
static const char *tmp(void)
{
    static const char *dir;
    if (!dir)
        dir = th_tmpdir();
    cr_assert(dir);
    return dir;
}

/* The words of `args` (split at spaces; @ is the test's directory) into
 * argv, held in buf. */
static int split_args(const char *args, char *buf, size_t cap, char **argv)
{
    int argc = 0;
    size_t n = 0;
    for (const char *s = args; *s && n + 512 < cap; s++)
        n += (size_t)(*s == '@' ? snprintf(buf + n, cap - n, "%s", tmp())
                                : snprintf(buf + n, cap - n, "%c", *s));
    for (char *t = strtok(buf, " "); t && argc < 63; t = strtok(NULL, " "))
        argv[argc++] = t;
    argv[argc] = NULL;
    return argc;
}

/* The tables a command writes (-o and --dist, .csv or .md): compared byte
 * for byte, unlike pictures (cairo numbers its surfaces per process). */
#define MAX_TABLES 4
static int table_outputs(int argc, char **argv, const char **paths)
{
    int n = 0;
    for (int i = 0; i + 1 < argc && n < MAX_TABLES; i++) {
        const char *p = argv[i + 1];
        size_t len = strlen(p);
        if ((strcmp(argv[i], "-o") == 0 || strcmp(argv[i], "--dist") == 0) &&
            ((len > 4 && strcmp(p + len - 4, ".csv") == 0) ||
             (len > 3 && strcmp(p + len - 3, ".md") == 0)))
            paths[n++] = p;
    }
    return n;
}

/* Adds the CSVW metadata the run without failures wrote beside each CSV
 * table (named in side): a member dropped for want of memory must not pass
 * for metadata any more than a row for a table. */
static int with_metadata(const char **paths, int n, char (*side)[1100])
{
    int total = n;
    for (int t = 0; t < n; t++) {
        struct stat sb;
        snprintf(side[t], sizeof side[t], "%s-metadata.json", paths[t]);
        if (stat(side[t], &sb) == 0)
            paths[total++] = side[t];
    }
    return total;
}

/* What a run of each_allocation_fails_with asks beyond the rest. */
typedef struct oom_case {
    void (*before)(void);    /* called before every run (the files it finds), or NULL */
    const char *const *said; /* NULL-ended: each said on stderr by at least one run */
} oom_case;

/* Standard error of the command, into a file of its own (not among the
 * command's files, which a command may list): truncated before each run. */
static char *stderr_path(void)
{
    static char path[1100];
    if (!path[0])
        snprintf(path, sizeof path, "%s/stderr", th_tmpdir());
    cr_assert(freopen(path, "w", stderr), "%s", path);
    return path;
}

/* Whether a failed run said what failed: memory. */
static bool says_out_of_memory(const char *said)
{
    return strstr(said, "out of memory") || strstr(said, strerror(ENOMEM));
}

/* Runs cmd with the words of `args` once per allocation it makes, failing
 * that allocation; stops when a run makes no more allocations than were
 * counted, which must then succeed. A run that fails must say it is out of
 * memory (its exit status 1); one that succeeds although an allocation
 * failed (an optional one) must write the very tables (and their metadata)
 * a run without failures writes: no partial result may pass as a result.
 * Each of c's `said` must be said by some run. */
static void each_allocation_fails_with(command_fn cmd, const char *args, const oom_case *c)
{
    char buf[4096], *argv[64], side[MAX_TABLES][1100];
    const char *paths[2 * MAX_TABLES];
    char *want[2 * MAX_TABLES];
    bool heard[16] = {false};
    int n_said = 0;
    while (c && c->said && c->said[n_said])
        n_said++;
    cr_assert(n_said <= 16);
    if (c && c->before)
        c->before();
    const char *errpath = stderr_path();
    int argc = split_args(args, buf, sizeof buf, argv);
    cr_assert_eq(cmd(argc, argv), 0, "%s", args);
    int n_tables = with_metadata(paths, table_outputs(argc, argv, paths), side);
    for (int t = 0; t < n_tables; t++)
        cr_assert(want[t] = th_slurp(paths[t], NULL), "%s", paths[t]);
    for (long k = 1; k < 100000; k++) {
        if (c && c->before)
            c->before();
        stderr_path();
        argc = split_args(args, buf, sizeof buf, argv);
        countdown = k;
        int rc = cmd(argc, argv);
        bool injected = countdown == 0;
        countdown = 0;
        failing = false;
        fflush(stderr);
        char *said = th_slurp(errpath, NULL);
        cr_assert(said, "%s", errpath);
        for (int i = 0; i < n_said; i++)
            heard[i] = heard[i] || strstr(said, c->said[i]);
        if (!injected) {
            cr_expect_eq(rc, 0, "%s: exit %d with no allocation failing", args, rc);
            for (int t = 0; t < n_tables; t++)
                free(want[t]);
            for (int i = 0; i < n_said; i++)
                cr_expect(heard[i], "%s: no run said \"%s\"", args, c->said[i]);
            free(said);
            return;
        }
        cr_expect(rc == 0 || rc == 1, "%s: allocation %ld failed: exit %d, expected 1", args, k,
                  rc);
        cr_expect(rc != 1 || says_out_of_memory(said),
                  "%s: allocation %ld failed, exit 1, but it says:\n%s", args, k, said);
        free(said);
        for (int t = 0; rc == 0 && t < n_tables; t++) {
            char *got = th_slurp(paths[t], NULL);
            cr_expect(got && strcmp(got, want[t]) == 0,
                      "%s: allocation %ld failed, exit 0, but %s differs:\n%s", args, k, paths[t],
                      got ? got : "(none)");
            free(got);
        }
    }
    cr_expect(false, "%s: more than 100000 allocations", args);
}

static void each_allocation_fails(command_fn cmd, const char *args)
{
    each_allocation_fails_with(cmd, args, NULL);
}

TestSuite(oom, .init = count_jansson_allocations);

Test(oom, run_with_dist_and_metadata)
{
    th_write_file(tmp(), "e.ini",
                  "[experiment]\nruleset = generic\ntrials = 64\n[params]\nmove = 4..5\n"
                  "distance = 6,8\n");
    each_allocation_fails(cs_cli_run, "@/e.ini --threads 1 --quiet -o @/o.csv --dist @/d.csv");
}

Test(oom, run_pivot_and_precision)
{
    th_write_file(tmp(), "e.ini",
                  "[experiment]\nruleset = generic\ntrials = 64\nmethod = conditional\n"
                  "[params]\nmove = 4..5\ndistance = 6,8\n");
    each_allocation_fails(cs_cli_run, "@/e.ini --threads 1 --quiet --format md --pivot "
                                      "move:distance --precision 0.05 -o @/o.md");
}

/* Labels of a sweep, and asoiaf exact: its metrics without an exact form
 * are resampled (a second pass with its own allocations). */
Test(oom, run_labels_and_resampled_metrics)
{
    th_write_file(tmp(), "e.ini",
                  "[experiment]\nruleset = asoiaf\ntrials = 64\n[params]\nspeed = 5\n"
                  "distance = 6,8\n[labels]\ndistance = near, far\n");
    each_allocation_fails(cs_cli_run, "@/e.ini --threads 1 --quiet -o @/o.csv --dist @/d.csv");
}

/* A drawn layout under mc and under rqmc, whose Sobol generator GSL
 * allocates. */
Test(oom, run_drawn_layout_mc_and_rqmc)
{
    th_write_file(tmp(), "e.ini",
                  "[experiment]\nruleset = t9a\ntrials = 32\n[params]\n"
                  "distance = uniform(6,10)\n");
    each_allocation_fails(cs_cli_run, "@/e.ini --threads 1 --method mc --quiet -o @/o.csv");
    each_allocation_fails(cs_cli_run, "@/e.ini --threads 1 --method rqmc --quiet -o @/q.csv");
}

Test(oom, dice_sampled_and_exact)
{
    each_allocation_fails(cs_cli_dice, "2d6+d3 --trials 200 --threads 1 -o @/d.csv");
    each_allocation_fails(cs_cli_dice, "3d6kh2 -o @/e.csv");
}

Test(oom, units_csv_and_catalogue)
{
    char args[2048];
    th_write_file(tmp(), "u.csv", "name,ruleset,move\nFootmen,generic,4\nKnights,generic,7\n");
    snprintf(args, sizeof args, "@/u.csv --mapping %s/experiments/mappings/generic.ini "
             "--distance 1..12 --quiet -o @/u.out.csv", th_root());
    each_allocation_fails(cs_cli_units, args);
    snprintf(args, sizeof args,
             "%s/tests/data/units/new.cat --mapping %s/tests/data/units/mappings "
             "--quiet -o @/c.csv", th_root(), th_root());
    each_allocation_fails(cs_cli_units, args);
    /* A catalogue that links another (issue 32): looking for it among the
     * folder's files allocates too. */
    char path[1024], *gst;
    snprintf(path, sizeof path, "%s/tests/data/units/new.gst", th_root());
    cr_assert(gst = th_slurp(path, NULL));
    th_write_file(tmp(), "new.gst", gst);
    free(gst);
    th_write_file(tmp(), "b.cat",
                  "<?xml version=\"1.0\"?>\n<catalogue id=\"b\" name=\"B\" "
                  "gameSystemId=\"gs-new\"/>\n");
    th_write_file(tmp(), "a.cat",
                  "<?xml version=\"1.0\"?>\n<catalogue id=\"a\" name=\"A\" "
                  "gameSystemId=\"gs-new\"><catalogueLinks><catalogueLink targetId=\"b\"/>"
                  "</catalogueLinks><selectionEntries><selectionEntry id=\"u\" name=\"U\" "
                  "type=\"unit\"><profiles><profile id=\"p\" name=\"U\" typeId=\"pt\" "
                  "typeName=\"Global\"><characteristics><characteristic name=\"Adv\" "
                  "typeId=\"ch\">5&quot;</characteristic></characteristics></profile>"
                  "</profiles></selectionEntry></selectionEntries></catalogue>\n");
    snprintf(args, sizeof args, "@/a.cat --mapping %s/tests/data/units/mappings/new.ini --quiet "
             "-o @/l.csv", th_root());
    each_allocation_fails(cs_cli_units, args);
}

/* libcsv asks for half as much when growing a cell fails, down to one
 * byte, so only memory gone for good fails it. */
Test(oom, units_csv_with_memory_gone_for_good)
{
    char args[2048];
    th_write_file(tmp(), "u.csv", "name,ruleset,move\nFootmen,generic,4\nKnights,generic,7\n");
    snprintf(args, sizeof args, "@/u.csv --mapping %s/experiments/mappings/generic.ini "
             "--distance 1..12 --quiet -o @/u.out.csv", th_root());
    fail_rest = true;
    each_allocation_fails(cs_cli_units, args);
}

Test(oom, draw_and_rerun)
{
    char args[2048];
    snprintf(args, sizeof args, "%s/experiments/t9a-head-on-ed2.ini --trial 3 -o @/p.svg",
             th_root());
    each_allocation_fails(cs_cli_draw, args);
    th_write_file(tmp(), "e.ini",
                  "[experiment]\nruleset = generic\ntrials = 64\n[params]\nmove = 4..5\n");
    char a1[1024], a2[] = "--quiet", a3[] = "-o", a4[1024];
    snprintf(a1, sizeof a1, "%s/e.ini", tmp());
    snprintf(a4, sizeof a4, "%s/o.csv", tmp());
    char *argv[] = {a1, a2, a3, a4, NULL};
    cr_assert_eq(cs_cli_run(4, argv), 0);
    each_allocation_fails(cs_cli_rerun, "@/o.csv-metadata.json -o @/again.csv");
}

Test(oom, compare_table_and_pivot)
{
    th_write_file(tmp(), "e.ini",
                  "[experiment]\nruleset = generic\ntrials = 64\n[params]\n"
                  "move = 4..5\ndistance = 6,8\n");
    each_allocation_fails(cs_cli_compare, "@/e.ini --b reroll=failed --threads 1 --quiet "
                                          "-o @/c.csv");
    each_allocation_fails(cs_cli_compare, "@/e.ini --b reroll=failed --threads 1 --quiet "
                                          "--format md --pivot move:distance -o @/c.md");
}

/* The default pairs on rqmc here (its point set, B's points), then conditional. */
Test(oom, compare_drawn_layouts)
{
    th_write_file(tmp(), "e.ini",
                  "[experiment]\nruleset = generic\ntrials = 64\n[params]\n"
                  "distance = uniform(4,10)\n");
    each_allocation_fails(cs_cli_compare, "@/e.ini --b move=1 --threads 1 --quiet -o @/c.csv");
    each_allocation_fails(cs_cli_compare, "@/e.ini --b move=1 --method conditional --threads 1 "
                                          "--quiet -o @/c.csv");
}

Test(oom, map_csv_and_plot)
{
    char args[2048];
    snprintf(args, sizeof args, "%s/experiments/map-t9a.ini --x 0..2:1 --y 5..6:1 --threads 1 "
             "--quiet -o @/m.csv --plot @/m.svg", th_root());
    each_allocation_fails(cs_cli_map, args);
}

/* --checkpoint (issue 34). Before each run the checkpoint file is as the
 * test wants it: none (a run that starts afresh) or the bytes of one stopped
 * at its start (a run that goes on from it); a run that failed half-way
 * would otherwise leave its own for the next. */
static char ck_path[1100];
static char *ck_bytes;
static size_t ck_len;

static void no_checkpoint(void)
{
    cr_assert(unlink(ck_path) == 0 || errno == ENOENT, "%s", ck_path);
}

static void stopped_checkpoint(void)
{
    FILE *f = fopen(ck_path, "wb");
    cr_assert(f, "%s", ck_path);
    cr_assert_eq(fwrite(ck_bytes, 1, ck_len, f), ck_len);
    cr_assert_eq(fclose(f), 0);
}

/* The checkpoint cmd writes on `args` stopped at its start, kept for
 * stopped_checkpoint (th_stopped_checkpoint: before any OpenMP here). */
static void keep_stopped_checkpoint(command_fn cmd, const char *args)
{
    char buf[4096], *argv[64];
    snprintf(ck_path, sizeof ck_path, "%s/ck", tmp());
    no_checkpoint();
    th_stopped_checkpoint(cmd, split_args(args, buf, sizeof buf, argv), argv);
    free(ck_bytes);
    cr_assert(ck_bytes = (char *)th_slurp(ck_path, &ck_len), "%s", ck_path);
}

/* Its identity, the state of every round's end (--precision: one written
 * at each) with the histograms of --dist, the file written and removed. */
Test(oom, run_with_a_checkpoint_afresh)
{
    th_write_file(tmp(), "e.ini",
                  "[experiment]\nruleset = generic\ntrials = 64\nmethod = mc\n"
                  "[params]\nmove = 4\ndistance = 8\n");
    snprintf(ck_path, sizeof ck_path, "%s/ck", tmp());
    char removal[1300];
    snprintf(removal, sizeof removal,
             "chargesim run: warning: the run is done but its checkpoint stays: %s: cannot "
             "remove it: %s\n",
             ck_path, strerror(ENOMEM));
    const char *const said[] = {
        "chargesim run: out of memory\n",
        "chargesim run: out of memory for the checkpoint\n",
        "chargesim run: warning: the checkpoint was not written: out of memory; the run goes on",
        removal,
        NULL};
    oom_case c = {no_checkpoint, said};
    each_allocation_fails_with(cs_cli_run, "@/e.ini --threads 1 --quiet --precision 0.05 "
                                           "-o @/o.csv --dist @/d.csv --checkpoint @/ck", &c);
    cr_expect(access(ck_path, F_OK) != 0, "the checkpoint stays after the run");
}

/* The file read, checked and its state taken; the run then goes on and
 * ends with the tables of a run never stopped. */
Test(oom, run_going_on_from_a_checkpoint)
{
    th_write_file(tmp(), "e.ini",
                  "[experiment]\nruleset = generic\ntrials = 64\nmethod = mc\n"
                  "[params]\nmove = 4\ndistance = 8\n");
    const char *args = "@/e.ini --threads 1 --quiet --precision 0.05 -o @/o.csv --dist @/d.csv "
                       "--checkpoint @/ck";
    keep_stopped_checkpoint(cs_cli_run, args);
    char read[1300];
    snprintf(read, sizeof read, "chargesim run: --checkpoint %s: cannot read it: %s\n", ck_path,
             strerror(ENOMEM));
    const char *const said[] = {"note: going on from the checkpoint", read, NULL};
    oom_case c = {stopped_checkpoint, said};
    each_allocation_fails_with(cs_cli_run, args, &c);
}

/* A map's axes in its identity and its finished cells in the file. */
Test(oom, map_with_a_checkpoint_afresh_and_going_on)
{
    char args[2048];
    snprintf(args, sizeof args, "%s/experiments/map-t9a.ini --x 0..2:1 --y 5..6:1 --threads 1 "
             "--quiet -o @/m.csv --checkpoint @/ck", th_root());
    keep_stopped_checkpoint(cs_cli_map, args);
    static const char *const said[] = {"chargesim map: out of memory\n", NULL};
    oom_case fresh = {no_checkpoint, said};
    each_allocation_fails_with(cs_cli_map, args, &fresh);
    static const char *const going_on[] = {"chargesim map: note: going on from the checkpoint",
                                           NULL};
    oom_case resumed = {stopped_checkpoint, going_on};
    each_allocation_fails_with(cs_cli_map, args, &resumed);
}

/* The web edition's C side (web.h): each allocation of a request fails in
 * turn (on one thread, as the commands above); the result is then the
 * refusal "out of memory" with exit status 1, or, where the allocation was
 * optional, the very result of a request without failures. */
static void web_each_allocation_fails(const char *cmd, const char *const *pairs)
{
    omp_set_num_threads(1);
    cs_web_link *link = cs_web_begin(cmd);
    for (int i = 0; pairs[i]; i += 2)
        cs_web_pair(link, pairs[i], pairs[i + 1]);
    const char *first = cs_web_exec(link);
    char *want = strdup(first);
    cs_web_free(first);
    cr_assert(want && strstr(want, "\"ok\":true"), "%s", want);
    for (long k = 1; k < 100000; k++) {
        countdown = k;
        link = cs_web_begin(cmd);
        for (int i = 0; pairs[i]; i += 2)
            cs_web_pair(link, pairs[i], pairs[i + 1]);
        const char *got = cs_web_exec(link);
        bool injected = countdown == 0;
        countdown = 0;
        if (!injected) {
            cr_expect_str_eq(got, want);
            cs_web_free(got);
            free(want);
            return;
        }
        cr_expect(strcmp(got, want) == 0 ||
                      (strstr(got, "\"ok\":false") && strstr(got, "out of memory") &&
                       strstr(got, "\"exit\":1")),
                  "%s: allocation %ld failed: %s", cmd, k, got);
        cs_web_free(got);
    }
    cr_expect(false, "%s: more than 100000 allocations", cmd);
}

Test(oom, web_run_map_compare_and_dice)
{
    web_each_allocation_fails("run", (const char *const[]){
        "experiment.ruleset", "generic", "move", "4,5", "distance", "6..8", "success",
        "charged,illegal", NULL});
    web_each_allocation_fails("run", (const char *const[]){
        "experiment.ruleset", "generic", "distance", "uniform(4,10)", "experiment.trials", "64",
        NULL});
    web_each_allocation_fails("map", (const char *const[]){
        "experiment.ruleset", "t9a", "x", "0..1:1", "y", "5..6:1", NULL});
    web_each_allocation_fails("compare", (const char *const[]){
        "experiment.ruleset", "generic", "distance", "6..7", "b.move", "1", NULL});
    web_each_allocation_fails("dice", (const char *const[]){"expr", "2d6", NULL});
    web_each_allocation_fails("dice", (const char *const[]){"expr", "2d6", "trials", "100", NULL});
}

/* Entries in dir other than . and .. */
static int entries(const char *dir)
{
    DIR *d = opendir(dir);
    cr_assert(d, "%s", dir);
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

/* Each allocation of cs_outfile_open(path) fails in turn, fdopen's FILE
 * among them: every failure must be out of memory with a message, create no
 * file in dir and leave a device a device; the open without failures is then
 * aborted, and leaves no file either (checked after the abort). NULL when all held, else what did not
 * (in why). Plain checks, not Criterion's: the device case runs in a child
 * process of its own (device_case). */
static const char *each_open_allocation_fails(const char *path, bool regular, const char *dir,
                                         char *why, size_t cap)
{
    struct stat before;
    bool device = stat(path, &before) == 0 && S_ISCHR(before.st_mode);
    for (long k = 1; k < 1000; k++) {
        cs_outfile o;
        cs_error err = {0};
        countdown = k;
        cs_status st = cs_outfile_open(&o, path, &err);
        bool injected = countdown == 0;
        countdown = 0;
        bool opened = !injected && st == CS_OK, is_regular = opened && cs_outfile_is_regular(&o);
        if (opened)
            cs_outfile_abort(&o);
        struct stat sb;
        if (!injected && st != CS_OK)
            snprintf(why, cap, "%s: %s", path, err.msg);
        else if (!injected && is_regular != regular)
            snprintf(why, cap, "%s: taken for %sa regular file", path, regular ? "not " : "");
        else if (injected && (st != CS_ENOMEM || err.msg[0] == '\0'))
            snprintf(why, cap, "%s, allocation %ld: status %d, message '%s'", path, k, st, err.msg);
        else if (device && !(stat(path, &sb) == 0 && S_ISCHR(sb.st_mode)))
            snprintf(why, cap, "%s, allocation %ld: no longer a device", path, k);
        else if (entries(dir) != 0)
            snprintf(why, cap, "%s, allocation %ld: a file was left", path, k);
        else
            why[0] = '\0';
        if (why[0] || !injected)
            return why[0] ? why : NULL;
    }
    snprintf(why, cap, "%s: more than 1000 allocations", path);
    return why;
}

/* A device written through, tested only on a device of our own: this
 * process's child, in a private mount namespace (a tmpfs over /dev there,
 * holding a /dev/full made with mknod), never the machine's. "" when it ran
 * and held, NULL when the namespace is not permitted here, else what failed. */
static const char *device_case(char *why, size_t cap)
{
    int fd[2];
    if (pipe(fd) != 0)
        return snprintf(why, cap, "pipe: %s", strerror(errno)), why;
    pid_t pid = fork();
    if (pid == 0) {
        close(fd[0]);
        char msg[2400] = "";
        const char *r;
        if (unshare(CLONE_NEWNS) != 0 || mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) != 0 ||
            mount("tmpfs", "/dev", "tmpfs", 0, "mode=755") != 0 ||
            mknod("/dev/full", S_IFCHR | 0666, makedev(1, 7)) != 0)
            th_child_exit(3);
        r = each_open_allocation_fails("/dev/full", false, tmp(), msg, sizeof msg);
        if (r && write(fd[1], r, strlen(r)) < 0)
            th_child_exit(4);
        th_child_exit(r ? 1 : 0);
    }
    close(fd[1]);
    ssize_t n = pid > 0 ? read(fd[0], why, cap - 1) : -1;
    close(fd[0]);
    why[n > 0 ? n : 0] = '\0';
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid || !WIFEXITED(status))
        return why[0] ? why : (snprintf(why, cap, "the device case's child died"), why);
    if (WEXITSTATUS(status) == 3)
        return NULL;
    return WEXITSTATUS(status) == 0 ? "" : why[0] ? why : "the device case failed";
}

/* Opening an output under every allocation failure, for two of the three
 * kinds of target: a descriptor by name (/dev/stderr) and a regular file made
 * through a temporary. The third, a device, is the next test's. */
Test(oom, every_allocation_of_opening_an_output_fails)
{
    char regular[1100], why[2400];
    snprintf(regular, sizeof regular, "%s/new.csv", tmp());
    const char *r = each_open_allocation_fails("/dev/stderr", false, tmp(), why, sizeof why);
    cr_expect_null(r, "%s", r);
    r = each_open_allocation_fails(regular, true, tmp(), why, sizeof why);
    cr_expect_null(r, "%s", r);
}

/* The same for a device written through (/dev/full, device_case): a skip
 * where a private mount namespace is not permitted (a normal user, most
 * containers), never a warning (Criterion exits 1 after any warning, with
 * every test passed) and never a try on the machine's own /dev/full. */
Test(oom, every_allocation_of_opening_a_device_fails)
{
    char why[2400];
    const char *r = device_case(why, sizeof why);
    if (!r)
        cr_skip_test(TH_SKIP_NO_NAMESPACE ": the device case runs only on a /dev/full of its own");
    cr_expect_str_empty(r, "/dev/full: %s", r);
}

/* Every status has a name and an exit code (status.h). */
Test(oom, every_status_has_a_name_and_exit_code)
{
    const cs_status all[] = {CS_OK, CS_EINPUT, CS_ERUNTIME, CS_ENOMEM, CS_ELIMIT};
    const int code[] = {0, 2, 1, 1, 2};
    for (int i = 0; i < 5; i++) {
        cr_expect(strcmp(cs_strerror(all[i]), "unknown status") != 0);
        cr_expect_eq(cs_status_exit_code(all[i]), code[i]);
    }
    cr_expect_str_eq(cs_strerror((cs_status)99), "unknown status");
    cr_expect_eq(cs_status_exit_code((cs_status)99), 1);
}

/* cs_grow (grow.h): the array itself while there is room, twice the slots
 * (first: `first`) when full, and on a failed allocation NULL with the
 * array and its capacity untouched. */
Test(oom, an_array_grows_by_doubling_and_keeps_what_it_had_on_failure)
{
    int cap = 0, *a = NULL;
    for (int n = 0; n < 20; n++) {
        int *q = cs_grow(a, n, &cap, sizeof *a, 4);
        cr_assert(q);
        cr_expect(n < 4 ? cap == 4 : n < 8 ? cap == 8 : n < 16 ? cap == 16 : cap == 32,
                  "n %d: capacity %d", n, cap);
        a = q;
        a[n] = n;
    }
    cr_expect_eq(cs_grow(a, 31, &cap, sizeof *a, 4), a, "room left: the same array");
    countdown = 1;
    cr_expect_null(cs_grow(a, 32, &cap, sizeof *a, 4));
    cr_expect_eq(cap, 32);
    for (int n = 0; n < 20; n++)
        cr_expect_eq(a[n], n);
    free(a);
}

/* cs_text (grow.h): NUL-terminated as it grows; once an allocation fails,
 * oom and the text as it was, and later writes do nothing. */
Test(oom, a_text_grows_and_stops_whole_on_failure)
{
    cs_text t = {0};
    char chunk[300];
    memset(chunk, 'x', sizeof chunk);
    for (int i = 0; i < 10; i++)
        cs_text_put(&t, chunk, sizeof chunk);
    cr_assert(!t.oom);
    cr_expect_eq(t.len, 3000);
    cr_expect_eq(strlen(t.s), 3000);
    while (t.len + sizeof chunk + 1 <= t.cap) /* fill the room left */
        cs_text_put(&t, chunk, sizeof chunk);
    size_t len = t.len;
    countdown = 1;
    cs_text_put(&t, chunk, sizeof chunk); /* must grow, and cannot */
    cr_expect(t.oom);
    cr_expect_eq(t.len, len);
    cs_text_put(&t, "y", 1);
    cr_expect_eq(t.len, len);
    cr_expect_eq(strlen(t.s), len);
    free(t.s);
}
