/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Test helpers; see tests/support/helpers.h. Compiled into the test binary
 * through tests/test_support.c. */
#define _DEFAULT_SOURCE
#define _XOPEN_SOURCE 700
#include "helpers.h"

#include <criterion/criterion.h>
#include <criterion/hooks.h>
#include <criterion/internal/ordered-set.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#ifdef CS_COVERAGE
#include <gcov.h>
#endif

#include "chargesim/tablewrite.h"

#include "chargesim/expfile.h"
#include "chargesim/output.h"
#include "chargesim/tablewrite.h"
#include "chargesim/report.h"

const char *th_root(void)
{
    const char *r = getenv("CS_ROOT");
    return r ? r : ".";
}

/* Every directory th_tmpdir made in this process, removed with all it
 * holds when the process exits (each Criterion test runs in its own), so
 * the tests leave nothing behind in /tmp. */
#define TH_MAX_DIRS 64
static char made[TH_MAX_DIRS][256];
static int n_made;

static int remove_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)flag;
    (void)ftw;
    /* A test may leave a directory read-only: open it up to empty it. */
    chmod(path, 0700);
    return remove(path) == 0 ? 0 : 0;
}

static void remove_made(void)
{
    for (int i = 0; i < n_made; i++) {
        chmod(made[i], 0700);
        nftw(made[i], remove_entry, 16, FTW_DEPTH | FTW_PHYS);
    }
    n_made = 0;
}

const char *th_tmpdir(void)
{
    if (n_made == TH_MAX_DIRS)
        return NULL;
    if (n_made == 0)
        atexit(remove_made);
    char *dir = made[n_made];
    const char *t = getenv("TMPDIR");
    snprintf(dir, sizeof made[0], "%s/chargesim-test-XXXXXX", t && t[0] ? t : "/tmp");
    if (!mkdtemp(dir))
        return NULL;
    n_made++;
    return dir;
}

bool th_can_unshare(void)
{
    return system("unshare -m true >/dev/null 2>&1") == 0;
}

void th_full_cmd(char *buf, size_t cap, const char *dir, const char *cmd)
{
    snprintf(buf, cap,
             "mkdir -p '%s/dev' && unshare -m sh -c 'mount -t tmpfs tmpfs \"$1/dev\" && "
             "mknod \"$1/dev/full\" c 1 7 && eval \"$2\" >\"$1/dev/full\"' sh '%s' '%s'",
             dir, dir, cmd);
}

cs_status th_load(const char *ini, const char *const *sets, int n_sets, cs_experiment *e,
                  cs_error *err)
{
    char path[] = "/tmp/chargesim-exp-XXXXXX";
    int fd = mkstemp(path);
    if (fd < 0)
        return CS_ERUNTIME;
    FILE *f = fdopen(fd, "w");
    fputs(ini, f);
    fclose(f);
    cs_status st = cs_expfile_load(path, sets, n_sets, e, err);
    unlink(path);
    return st;
}

cs_status th_run(const cs_experiment *e, int threads, cs_run_result *r)
{
    cs_run_opts o = {.threads = threads};
    cs_error err;
    return cs_sched_run(e, &o, r, &err);
}

static char *table_text(const cs_table *t)
{
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    cs_tablewrite(t, CS_FORMAT_CSV, f);
    fclose(f);
    return buf;
}

char *th_run_csv(const cs_experiment *e, int threads, char **dist)
{
    cs_run_opts o = {.threads = threads, .want_dist = dist != NULL};
    cs_run_result r;
    cs_error err;
    if (cs_sched_run(e, &o, &r, &err) != CS_OK)
        return NULL;
    cs_table t;
    cs_report_summary(&r, CS_FORMAT_CSV, &t);
    char *s = table_text(&t);
    cs_table_free(&t);
    if (dist) {
        cs_report_dist(&r, &t);
        *dist = table_text(&t);
        cs_table_free(&t);
    }
    cs_sched_result_free(&r);
    return s;
}

char *th_slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = NULL;
    size_t n = 0;
    FILE *m = open_memstream(&buf, &n);
    int c;
    while ((c = fgetc(f)) != EOF)
        fputc(c, m);
    fclose(m);
    fclose(f);
    if (len)
        *len = n;
    return buf;
}

int th_cli(const char *args, char **out, char **err)
{
    const char *bin = getenv("CS_BIN");
    char o[] = "/tmp/chargesim-out-XXXXXX", e[] = "/tmp/chargesim-err-XXXXXX";
    close(mkstemp(o));
    close(mkstemp(e));
    size_t n = strlen(args) + strlen(bin ? bin : "bin/chargesim") + 128;
    char *cmd = malloc(n);
    snprintf(cmd, n, "%s %s >%s 2>%s </dev/null", bin ? bin : "bin/chargesim", args, o, e);
    int st = system(cmd);
    free(cmd);
    if (out)
        *out = th_slurp(o, NULL);
    if (err)
        *err = th_slurp(e, NULL);
    unlink(o);
    unlink(e);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

void th_expect_same_bytes(const char *ini, const char *const *sets, int n_sets,
                          const char *must_hold)
{
    cs_experiment e;
    cs_error err;
    cr_assert_eq(th_load(ini, sets, n_sets, &e, &err), CS_OK, "%s", err.msg);
    char *d1, *d2, *d7;
    char *s1 = th_run_csv(&e, 1, &d1), *s2 = th_run_csv(&e, 2, &d2), *s7 = th_run_csv(&e, 7, &d7);
    cr_assert(s1 && s2 && s7);
    if (must_hold)
        cr_expect(strstr(s1, must_hold) != NULL, "the summary holds %s: %s", must_hold, s1);
    cr_expect_str_eq(s1, s2);
    cr_expect_str_eq(s1, s7);
    cr_expect_str_eq(d1, d2);
    cr_expect_str_eq(d1, d7);
    free(s1), free(s2), free(s7), free(d1), free(d2), free(d7);
    cs_experiment_free(&e);
}

const char *th_write_file(const char *dir, const char *name, const char *text)
{
    static char paths[8][1024];
    static unsigned next;
    char *path = paths[next++ % 8];
    snprintf(path, sizeof paths[0], "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    cr_assert(f, "%s", path);
    fputs(text, f);
    cr_assert_eq(fclose(f), 0, "%s", path);
    return path;
}

/* The file at path into *dst, freeing what *dst held (dst NULL: dropped);
 * the file is removed. */
static void take_file(const char *path, char **dst)
{
    if (dst) {
        free(*dst);
        *dst = th_slurp(path, NULL);
        cr_assert(*dst, "%s", path);
    }
    unlink(path);
}

int th_sh(const char *dir, const char *script, char **out, char **err)
{
    const char *bin = getenv("CS_BIN");
    cr_assert(setenv("B", bin ? bin : "bin/chargesim", 1) == 0);
    cr_assert(setenv("R", th_root(), 1) == 0);
    cr_assert(setenv("D", dir, 1) == 0);
    /* The script runs in dir: the repository's mappings, which bin/chargesim
     * finds beside itself but an instrumented build's binary
     * (build-cov/bin/chargesim) does not. */
    char maps[1200];
    snprintf(maps, sizeof maps, "%s/experiments/mappings", th_root());
    cr_assert(setenv("CS_MAPPINGS", maps, 0) == 0);
    /* The captures live outside dir: a script may list what dir holds. */
    char o[] = "/tmp/chargesim-out-XXXXXX", e[] = "/tmp/chargesim-err-XXXXXX";
    int fo = mkstemp(o), fe = mkstemp(e);
    cr_assert(fo >= 0 && fe >= 0);
    close(fo);
    close(fe);
    size_t n = strlen(script) + strlen(dir) + sizeof o + sizeof e + 64;
    char *cmd = malloc(n);
    cr_assert(cmd);
    /* A newline closes the group whether or not the script ends in ';'. */
    snprintf(cmd, n, "cd '%s' && { %s\n} >'%s' 2>'%s' </dev/null", dir, script, o, e);
    int st = system(cmd);
    free(cmd);
    take_file(o, out);
    take_file(e, err);
    return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

double th_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

double th_time_limit(double seconds)
{
    const char *s = getenv("CS_TEST_TIME_SCALE");
    double scale = s ? atof(s) : 1.0;
    return seconds * (scale >= 1.0 ? scale : 1.0);
}

double th_5sigma(double p, uint64_t n)
{
    return 5.0 * sqrt(p * (1.0 - p) / (double)n);
}

double th_param_value(const cs_param_def *d, const char *text)
{
    switch (d->type) {
    case CS_PARAM_BOOL:
        return strcmp(text, "true") == 0 ? 1.0 : 0.0;
    case CS_PARAM_CHOICE:
        for (int k = 0; d->choices[k]; k++)
            if (strcmp(d->choices[k], text) == 0)
                return (double)k;
        cr_assert_fail("no choice %s for %s", text, d->key);
        return -1.0;
    case CS_PARAM_REAL:
    case CS_PARAM_INT:
        return strtod(text, NULL);
    default:
        return 0.0;
    }
}

void th_defaults(const cs_ruleset *rs, cs_params *p)
{
    memset(p, 0, sizeof *p);
    for (int i = 0; i < rs->n_params; i++) {
        const cs_param_def *d = &rs->params[i];
        p->num[i] = th_param_value(d, d->def);
        if (d->type == CS_PARAM_DICE || d->type == CS_PARAM_TEXT || d->type == CS_PARAM_POLYGON)
            p->text[i] = d->def;
    }
}

/* make(format) run in a child; its bytes through a pipe. */
static char *made_in_child(char *(*make)(int, size_t *), int format, size_t *len)
{
    int fds[2];
    cr_assert_eq(pipe(fds), 0);
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        close(fds[0]);
        size_t n;
        char *b = make(format, &n);
        _exit(write(fds[1], b, n) == (ssize_t)n ? 0 : 1);
    }
    close(fds[1]);
    char *buf = NULL;
    FILE *out = open_memstream(&buf, len);
    char chunk[4096];
    ssize_t r;
    while ((r = read(fds[0], chunk, sizeof chunk)) > 0)
        fwrite(chunk, 1, (size_t)r, out);
    fclose(out);
    close(fds[0]);
    int status;
    waitpid(pid, &status, 0);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    return buf;
}

void th_check_renders_identical(char *(*make)(int format, size_t *len))
{
    const char *magic[3] = {"<?xml", "\x89PNG", "%PDF"};
    for (int k = 0; k < 3; k++) {
        size_t la, lb;
        char *a = made_in_child(make, k, &la), *b = made_in_child(make, k, &lb);
        cr_assert_eq(memcmp(a, magic[k], strlen(magic[k])), 0, "format %d", k);
        cr_assert_eq(la, lb, "format %d: %zu and %zu bytes", k, la, lb);
        cr_assert_eq(memcmp(a, b, la), 0, "format %d differs", k);
        free(a);
        free(b);
    }
}

void th_child_exit(int code)
{
#ifdef CS_COVERAGE
    __gcov_dump();
#endif
    _exit(code);
}

void th_stopped_checkpoint(int (*cmd)(int, char **), int argc, char **argv)
{
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        /* The word on how to go on is the command line tests' to check. */
        if (!freopen("/dev/null", "w", stderr))
            _exit(3);
        cs_outfile_install_signal_cleanup();
        cs_outfile_defer_signals(true);
        raise(SIGTERM);
        int rc = cmd(argc, argv);
        th_child_exit(rc == 128 + SIGTERM ? 0 : rc == 0 ? 4 : 5);
    }
    int status;
    cr_assert_eq(waitpid(pid, &status, 0), pid);
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0,
              "the command stopped by SIGTERM at its start: status %d (4: it was not stopped)",
              status);
}

/* Criterion's `.timeout` of every test, times $CS_TEST_TIME_SCALE (as
 * th_time_limit scales a bound inside a test), set before the first test
 * starts: an instrumented build runs several times slower and its timeouts
 * must not fail a test that is only slow. The runner reads each test's
 * timeout from the data this hook is given, in the same process. */
ReportHook(PRE_ALL)(struct criterion_test_set *set)
{
    double scale = th_time_limit(1.0);
    if (scale == 1.0)
        return;
    FOREACH_SET(struct criterion_suite_set *suite, set->suites) {
        FOREACH_SET(struct criterion_test *test, suite->tests) {
            if (test->data && test->data->timeout > 0)
                test->data->timeout *= scale;
        }
    }
}
