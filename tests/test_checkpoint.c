/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Checkpoints (checkpoint.h, issue 34). In the library: a run stopped at
 * chosen items (the sink's stop), resumed from its checkpoint on another
 * thread count, again and again, ends with every number of the run that
 * was never stopped, bit for bit, for mc, conditional, exact (with its
 * resampled metrics and --dist), rqmc and --precision, compare's paired
 * estimators and a map of more cells than one scheduler run takes; each
 * kind of mismatch is refused with what differs. On the command line:
 * SIGKILL at random moments, SIGTERM, the refusals that leave every file
 * as it was, and the file removed when done. */
#define _GNU_SOURCE /* memmem */
#include <criterion/criterion.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "chargesim/checkpoint.h"
#include "chargesim/compare.h"
#include "chargesim/map.h"
#include "chargesim/sha256.h"
#include "support/helpers.h"

/* The last checkpoint kept in memory; stop() says stop once it has been
 * asked more than stop_after times (once per item taken, once per chunk). */
typedef struct mem_sink {
    unsigned char *buf;
    size_t len;
    long stop_after, asked;
    int writes;
} mem_sink;

static cs_status mem_write(void *user, const cs_ckpt_piece *pc, int n, cs_error *err)
{
    (void)err;
    mem_sink *m = user;
    size_t len = 0;
    for (int i = 0; i < n; i++)
        len += pc[i].n;
    unsigned char *b = malloc(len ? len : 1);
    cr_assert(b);
    len = 0;
    for (int i = 0; i < n; i++) {
        memcpy(b + len, pc[i].p, pc[i].n);
        len += pc[i].n;
    }
    free(m->buf);
    m->buf = b;
    m->len = len;
    m->writes++;
    return CS_OK;
}

static int mem_stop(void *user)
{
    mem_sink *m = user;
    return ++m->asked > m->stop_after;
}

static void load(const char *ini, const char *const *sets, int n, cs_experiment *e)
{
    cs_error err;
    cr_assert_eq(th_load(ini, sets, n, e, &err), CS_OK, "%s", err.msg);
}

/* A checkpoint for a run of e with o, resuming from the sink's last one
 * when it holds one (a copy in *copy, which the run reads). */
static void arm(cs_ckpt **pck, mem_sink *m, const char *cmd, const cs_experiment *e,
                const cs_run_opts *o, const char *extra, unsigned char **copy)
{
    cs_ckpt_sink sink = {mem_write, mem_stop, m};
    cs_error err;
    cs_ckpt *ck = *pck = cs_ckpt_new(1e9, &sink);
    cr_assert(ck);
    cr_assert_eq(cs_ckpt_identify(ck, cmd, e, o, extra, "a note", &err), CS_OK, "%s", err.msg);
    *copy = NULL;
    if (m->len) {
        *copy = malloc(m->len);
        memcpy(*copy, m->buf, m->len);
        cr_assert_eq(cs_ckpt_load(ck, "mem", *copy, m->len, &err), CS_OK, "%s", err.msg);
    }
}

static bool same_double(double a, double b)
{
    return memcmp(&a, &b, sizeof a) == 0;
}

/* Every number of two runs' results, bit for bit. */
static void same_results(const cs_run_result *a, const cs_run_result *b, const char *what)
{
    const cs_ruleset *rs = a->exp->rs;
    cr_assert_eq(a->n_points, b->n_points, "%s", what);
    cr_assert_eq(a->precision_met, b->precision_met, "%s", what);
    for (uint64_t k = 0; k < a->n_points; k++) {
        const cs_point_result *p = &a->point[k], *q = &b->point[k];
        cr_assert_eq(p->trials, q->trials, "%s: point %llu trials %llu vs %llu", what,
                     (unsigned long long)k, (unsigned long long)p->trials,
                     (unsigned long long)q->trials);
        cr_assert_eq(p->successes, q->successes, "%s", what);
        cr_assert_eq(p->cannot_stand, q->cannot_stand, "%s", what);
        cr_assert(same_double(p->p_success, q->p_success) && same_double(p->ci_low, q->ci_low) &&
                      same_double(p->ci_high, q->ci_high),
                  "%s: point %llu p_success %.17g vs %.17g", what, (unsigned long long)k,
                  p->p_success, q->p_success);
        for (int o = 0; o < rs->n_outcomes; o++)
            cr_assert(same_double(p->p_outcome[o], q->p_outcome[o]) &&
                          same_double(p->outcome_low[o], q->outcome_low[o]) &&
                          same_double(p->outcome_high[o], q->outcome_high[o]),
                      "%s: point %llu outcome %d", what, (unsigned long long)k, o);
        for (int m = 0; m < rs->n_metrics; m++) {
            cr_assert(same_double(p->mean[m], q->mean[m]), "%s: point %llu mean %d", what,
                      (unsigned long long)k, m);
            cr_assert_eq(!p->hist[m], !q->hist[m], "%s", what);
            if (p->hist[m])
                cr_assert(memcmp(p->hist[m], q->hist[m],
                                 (size_t)a->bins[m].nbins * sizeof *p->hist[m]) == 0 &&
                              same_double(p->hist_total[m], q->hist_total[m]),
                          "%s: point %llu histogram %d", what, (unsigned long long)k, m);
        }
        if (p->pair)
            cr_assert(memcmp(p->pair, q->pair, sizeof *p->pair) == 0, "%s: pair %llu", what,
                      (unsigned long long)k);
    }
}

/* Runs e with o stopped after stops[0] items, resumed and stopped after
 * stops[1], ... (threads 1, 2, 3 in turn), then to the end; every number
 * must be those of the uninterrupted run. Returns the checkpoints taken. */
static int stop_and_resume(const cs_experiment *e, cs_run_opts o, const long *stops, int n,
                           const char *what)
{
    cs_run_result ref, r;
    cs_error err;
    o.threads = 2;
    cr_assert_eq(cs_sched_run(e, &o, &ref, &err), CS_OK, "%s", err.msg);
    mem_sink m = {0};
    int stopped = 0;
    for (int seg = 0;; seg++) {
        cs_ckpt *ck;
        unsigned char *copy;
        arm(&ck, &m, "run", e, &o, NULL, &copy);
        m.asked = 0;
        m.stop_after = seg < n ? stops[seg] : 1L << 60;
        o.checkpoint = ck;
        o.threads = 1 + seg % 3;
        cs_status st = cs_sched_run(e, &o, &r, &err);
        free(copy);
        int stop = cs_ckpt_stopped(ck);
        cs_status written = cs_ckpt_last_write(ck);
        cs_ckpt_free(ck);
        o.checkpoint = NULL;
        if (st == CS_OK)
            break;
        cr_assert(stop, "%s: stop %d: %s", what, seg, err.msg);
        cr_assert_eq(written, CS_OK);
        stopped++;
    }
    same_results(&ref, &r, what);
    cs_sched_result_free(&ref);
    cs_sched_result_free(&r);
    free(m.buf);
    return stopped;
}

static const char *const t9a_random =
    "[experiment]\nruleset = t9a\nseed = 904\ntrials = 20000\n"
    "[params]\ndistance = 6,8,9\noffset = uniform(-6,6)\nangle = uniform(-45,45)\n";

Test(checkpoint, mc_stopped_anywhere_ends_as_uninterrupted)
{
    static const char *const sets[] = {"experiment.method=mc"};
    cs_experiment e;
    load(t9a_random, sets, 1, &e);
    /* 3 points of 5 blocks: the first item, mid-point, a point's end. */
    static const long stops[] = {0, 1, 4, 7, 3};
    cr_expect_eq(stop_and_resume(&e, (cs_run_opts){0}, stops, 5, "mc"), 5);
    cs_experiment_free(&e);
}

Test(checkpoint, mc_dist_and_precision)
{
    static const char *const sets[] = {"experiment.method=mc", "experiment.trials=4000",
                                       "experiment.precision=0.006"};
    cs_experiment e;
    load(t9a_random, sets, 3, &e);
    static const long stops[] = {2, 9, 5, 30, 11};
    cr_expect_geq(stop_and_resume(&e, (cs_run_opts){.want_dist = true}, stops, 5, "mc --dist"),
                  3);
    cs_experiment_free(&e);
}

Test(checkpoint, conditional_with_precision)
{
    static const char *const sets[] = {"experiment.method=conditional",
                                       "experiment.trials=4096", "experiment.precision=0.003"};
    cs_experiment e;
    load(t9a_random, sets, 3, &e);
    static const long stops[] = {1, 6, 2, 13};
    stop_and_resume(&e, (cs_run_opts){0}, stops, 4, "conditional");
    cs_experiment_free(&e);
}

Test(checkpoint, rqmc_replicates_and_precision)
{
    static const char *const sets[] = {"experiment.method=rqmc", "experiment.trials=4096",
                                       "experiment.replicates=4", "experiment.precision=0.0004"};
    cs_experiment e;
    load(t9a_random, sets, 4, &e);
    static const long stops[] = {3, 1, 10, 7, 25};
    cr_expect_geq(stop_and_resume(&e, (cs_run_opts){0}, stops, 5, "rqmc"), 4);
    cs_experiment_free(&e);
}

/* Exact dice on a fixed layout and metrics only sampling gives (asoiaf's
 * charge attack): its resampling pass is stopped too, with --dist. */
Test(checkpoint, exact_with_resampled_metrics_and_dist)
{
    static const char *const ini = "[experiment]\nruleset = asoiaf\ntrials = 60000\nseed = 5\n"
                                   "[params]\nspeed = 5\ndistance = 6..8\n";
    cs_experiment e;
    load(ini, NULL, 0, &e);
    /* 3 exact items, then 15 blocks per point resampled. */
    static const long stops[] = {1, 8, 3, 30, 5};
    cr_expect_eq(stop_and_resume(&e, (cs_run_opts){.want_dist = true}, stops, 5, "exact"), 5);
    cs_experiment_free(&e);
}

/* compare's paired estimators, stopped and resumed through cs_cmp_run. */
static void paired(const char *method, const long *stops, int n)
{
    const char *sa[] = {method, "experiment.trials=8192"};
    const char *sb[] = {method, "experiment.trials=8192", "charge_speed=1"};
    cs_experiment a, b;
    cs_error err;
    load(t9a_random, sa, 2, &a);
    load(t9a_random, sb, 3, &b);
    cs_run_opts o = {.threads = 2, .pair = &b};
    cs_cmp_result ref, r;
    cr_assert_eq(cs_cmp_run(&a, &b, &o, &ref, &err), CS_OK, "%s", err.msg);
    mem_sink m = {0};
    for (int seg = 0;; seg++) {
        cs_ckpt *ck;
        unsigned char *copy;
        arm(&ck, &m, "compare", &a, &o, NULL, &copy);
        m.asked = 0;
        m.stop_after = seg < n ? stops[seg] : 1L << 60;
        cs_run_opts oc = {.threads = 1 + seg % 2, .checkpoint = ck};
        cs_status st = cs_cmp_run(&a, &b, &oc, &r, &err);
        free(copy);
        int stop = cs_ckpt_stopped(ck);
        cs_ckpt_free(ck);
        if (st == CS_OK)
            break;
        cr_assert(stop, "%s", err.msg);
    }
    cr_assert_eq(ref.n_points, r.n_points);
    for (uint64_t k = 0; k < ref.n_points; k++) {
        const cs_cmp_point *p = &ref.point[k], *q = &r.point[k];
        cr_assert_eq(p->trials, q->trials, "%s", method);
        cr_assert(memcmp(p->a, q->a, sizeof p->a) == 0 && memcmp(p->b, q->b, sizeof p->b) == 0 &&
                      memcmp(p->d, q->d, sizeof p->d) == 0 &&
                      memcmp(p->lo, q->lo, sizeof p->lo) == 0 &&
                      memcmp(p->hi, q->hi, sizeof p->hi) == 0,
                  "%s: point %llu of the resumed comparison differs", method,
                  (unsigned long long)k);
    }
    cs_cmp_result_free(&ref);
    cs_cmp_result_free(&r);
    free(m.buf);
    cs_experiment_free(&a);
    cs_experiment_free(&b);
}

Test(checkpoint, compare_mc_and_rqmc)
{
    static const long stops[] = {1, 3, 2};
    paired("experiment.method=mc", stops, 3);
    paired("experiment.method=rqmc", stops, 3);
}

/* A map of 9,821 cells runs as two scheduler runs (8,192 cells each at
 * most): stopped in the first, in the second, and at its first cell. */
Test(checkpoint, map_of_two_scheduler_runs)
{
    static const char *const ini = "[experiment]\nruleset = t9a\nseed = 7\n[params]\n"
                                   "maximised = 1\n";
    cs_experiment e;
    cs_map_axis x, y;
    cs_error err;
    load(ini, NULL, 0, &e);
    cr_assert_eq(cs_map_axis_parse("-20..20:0.25", "--x", &x, &err), CS_OK);
    cr_assert_eq(cs_map_axis_parse("0..30:0.5", "--y", &y, &err), CS_OK);
    cs_map_result ref, r;
    cs_run_opts o = {.threads = 2};
    cr_assert_eq(cs_map_run(&e, &x, &y, &o, &ref, &err), CS_OK, "%s", err.msg);
    static const long stops[] = {100, 8300, 0, 1000};
    mem_sink m = {0};
    for (int seg = 0;; seg++) {
        cs_ckpt *ck;
        unsigned char *copy;
        arm(&ck, &m, "map", &e, &o, "--x ...\n", &copy);
        m.asked = 0;
        m.stop_after = seg < 4 ? stops[seg] : 1L << 60;
        cs_run_opts oc = {.threads = 1 + seg % 2, .checkpoint = ck};
        cs_status st = cs_map_run(&e, &x, &y, &oc, &r, &err);
        free(copy);
        int stop = cs_ckpt_stopped(ck);
        cs_ckpt_free(ck);
        if (st == CS_OK)
            break;
        cr_assert(stop, "%s", err.msg);
    }
    size_t n = (size_t)x.n * (size_t)y.n;
    cr_assert_eq(n, 9821u);
    cr_assert(memcmp(ref.cell, r.cell, n * sizeof *ref.cell) == 0, "the resumed map differs");
    cr_assert_eq(ref.method, r.method);
    cr_assert_eq(ref.precision_met, r.precision_met);
    cs_map_result_free(&ref);
    cs_map_result_free(&r);
    free(m.buf);
    cs_experiment_free(&e);
}

/* A checkpoint of a run of e with o, stopped at its first item, in m. */
static void checkpoint_of(const char *cmd, const cs_experiment *e, cs_run_opts o,
                          const char *extra, mem_sink *m)
{
    cs_ckpt *ck;
    cs_run_result r;
    cs_error err;
    cs_ckpt_sink sink = {mem_write, mem_stop, m};
    *m = (mem_sink){.stop_after = 0};
    ck = cs_ckpt_new(1e9, &sink);
    cr_assert_eq(cs_ckpt_identify(ck, cmd, e, &o, extra, NULL, &err), CS_OK);
    o.checkpoint = ck;
    cr_assert_eq(cs_sched_run(e, &o, &r, &err), CS_ESTOPPED);
    cr_assert(cs_ckpt_stopped(ck) && m->len > 0);
    cs_ckpt_free(ck);
}

/* Loading bytes for a run of e with o: CS_OK, or the message in msg. */
static cs_status load_for(const char *cmd, const cs_experiment *e, const cs_run_opts *o,
                          const char *extra, const unsigned char *b, size_t len, char *msg,
                          size_t cap)
{
    cs_ckpt *ck;
    cs_error err;
    cs_ckpt_sink sink = {mem_write, mem_stop, NULL};
    ck = cs_ckpt_new(1e9, &sink);
    cr_assert_eq(cs_ckpt_identify(ck, cmd, e, o, extra, "another note", &err), CS_OK);
    cs_status st = cs_ckpt_load(ck, "ck", b, len, &err);
    snprintf(msg, cap, "%s", st == CS_OK ? "" : err.msg);
    cs_ckpt_free(ck);
    return st;
}

typedef struct mismatch {
    const char *set;    /* an override of the second run, or NULL */
    cs_run_opts opts;   /* its options */
    const char *cmd, *extra;
    const char *said;   /* what the message must say */
} mismatch;

/* Everything that changes a number is refused, with what differs; the
 * thread count, which changes none, is not. */
Test(checkpoint, each_mismatch_is_refused_with_what_differs)
{
    cs_experiment e, f, b;
    mem_sink m;
    char msg[1024];
    load(t9a_random, NULL, 0, &e);
    checkpoint_of("run", &e, (cs_run_opts){.threads = 2}, NULL, &m);
    static const char *const b_set[] = {"charge_speed=2"};
    load(t9a_random, b_set, 1, &b);
    const mismatch cases[] = {
        {"distance=6,8", {0}, "run", NULL, "params.distance is 6,8,9 in it, 6,8 here"},
        {"experiment.ruleset=asoiaf", {0}, "run", NULL, "ruleset is t9a in it, asoiaf here"},
        {"charge_speed=1", {0}, "run", NULL, "params.charge_speed is 0 in it, 1 here"},
        {"offset=uniform(-5,6)", {0}, "run", NULL, "params.offset is uniform(-6,6) in it"},
        {"experiment.seed=905", {0}, "run", NULL, "experiment.seed is 904 in it, 905 here"},
        {"experiment.trials=20001", {0}, "run", NULL, "experiment.trials is 20000 in it"},
        {"experiment.method=mc", {0}, "run", NULL, "experiment.method is rqmc in it, mc here"},
        {"experiment.precision=0.01", {0}, "run", NULL, "experiment.precision is 0 in it"},
        {"experiment.confidence=0.99", {0}, "run", NULL, "experiment.confidence is 0.94999"},
        {"experiment.replicates=8", {0}, "run", NULL, "experiment.replicates is 16 in it, 8"},
        {NULL, {.max_trials = 5000000}, "run", NULL, "--max-trials is 1000000000 in it"},
        {NULL, {.success_mask = 3}, "run", NULL, "--success is charged,caught in it, charged,failed here"},
        {NULL, {.want_dist = true}, "run", NULL, "--dist is no in it, yes here"},
        {NULL, {.pair = &b}, "compare", NULL, "command is run in it, compare here"},
        {NULL, {0}, "run", "--x 1,2\n", "--x is (none) in it, 1,2 here"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        const mismatch *c = &cases[i];
        load(t9a_random, &c->set, c->set ? 1 : 0, &f);
        cr_expect_eq(load_for(c->cmd, &f, &c->opts, c->extra, m.buf, m.len, msg, sizeof msg),
                     CS_EINPUT, "case %zu accepted", i);
        cr_expect(strstr(msg, c->said) && strstr(msg, "--checkpoint ck: it was written by "
                                                      "another command"),
                  "case %zu: %s", i, msg);
        cs_experiment_free(&f);
    }
    /* B's own values are part of compare's identity. */
    mem_sink mb;
    checkpoint_of("compare", &e, (cs_run_opts){.pair = &b}, NULL, &mb);
    static const char *const b3[] = {"charge_speed=3"};
    load(t9a_random, b3, 1, &f);
    cr_expect_eq(load_for("compare", &e, &(cs_run_opts){.pair = &f}, NULL, mb.buf, mb.len, msg,
                          sizeof msg),
                 CS_EINPUT);
    cr_expect(strstr(msg, "b.params.charge_speed is 2 in it, 3 here"), "%s", msg);
    cs_experiment_free(&f);
    /* Another thread count, another note (the command line): accepted. */
    cr_expect_eq(load_for("run", &e, &(cs_run_opts){.threads = 1}, NULL, m.buf, m.len, msg,
                          sizeof msg),
                 CS_OK, "%s", msg);
    free(m.buf);
    free(mb.buf);
    cs_experiment_free(&b);
    cs_experiment_free(&e);
}

/* The bytes with line `from` replaced by `to` and the digest made again:
 * a checkpoint another version or machine would have written. */
static unsigned char *rewritten(const mem_sink *m, const char *from, const char *to,
                                size_t *len)
{
    const char *at = memmem(m->buf, m->len, from, strlen(from));
    cr_assert(at);
    size_t head = (size_t)(at - (const char *)m->buf);
    *len = m->len - strlen(from) + strlen(to);
    unsigned char *b = malloc(*len);
    memcpy(b, m->buf, head);
    memcpy(b + head, to, strlen(to));
    memcpy(b + head + strlen(to), at + strlen(from), m->len - head - strlen(from));
    cs_sha256 h;
    cs_sha256_init(&h);
    cs_sha256_update(&h, b, *len - 32);
    cs_sha256_final(&h, b + *len - 32);
    return b;
}

Test(checkpoint, another_version_machine_format_or_damage_is_refused)
{
    cs_experiment e;
    mem_sink m;
    char msg[1024];
    size_t len;
    load(t9a_random, NULL, 0, &e);
    const cs_run_opts o = {0};
    checkpoint_of("run", &e, o, NULL, &m);
    unsigned char *b = rewritten(&m, "\nversion " CS_VERSION "\n", "\nversion 0.1.0\n", &len);
    cr_expect_eq(load_for("run", &e, &o, NULL, b, len, msg, sizeof msg), CS_EINPUT);
    cr_expect(strstr(msg, "written by chargesim version 0.1.0, this is version " CS_VERSION),
              "%s", msg);
    free(b);
    b = rewritten(&m, "\nabi ", "\nabi big-endian 16-bit ", &len);
    cr_expect_eq(load_for("run", &e, &o, NULL, b, len, msg, sizeof msg), CS_EINPUT);
    cr_expect(strstr(msg, "on a big-endian 16-bit"), "%s", msg);
    free(b);
    b = rewritten(&m, "chargesim checkpoint 1\n", "chargesim checkpoint 2\n", &len);
    cr_expect_eq(load_for("run", &e, &o, NULL, b, len, msg, sizeof msg), CS_EINPUT);
    cr_expect(strstr(msg, "a checkpoint in a format this version cannot read"), "%s", msg);
    free(b);
    /* One bit changed anywhere, or the file cut short anywhere: damaged. */
    b = malloc(m.len);
    for (size_t at = 30; at < m.len; at += m.len / 7) {
        memcpy(b, m.buf, m.len);
        b[at] ^= 0x10;
        cr_expect_eq(load_for("run", &e, &o, NULL, b, m.len, msg, sizeof msg), CS_EINPUT);
        cr_expect(strstr(msg, "damaged or truncated"), "bit at %zu: %s", at, msg);
        cr_expect_eq(load_for("run", &e, &o, NULL, m.buf, at, msg, sizeof msg), CS_EINPUT);
        cr_expect(strstr(msg, "damaged or truncated"), "cut at %zu: %s", at, msg);
    }
    free(b);
    cr_expect_eq(load_for("run", &e, &o, NULL, m.buf, 9, msg, sizeof msg), CS_EINPUT);
    cr_expect(strstr(msg, "damaged or truncated"), "%s", msg);
    static const unsigned char csv[] = "x,y\n1,2\n";
    cr_expect_eq(load_for("run", &e, &o, NULL, csv, sizeof csv - 1, msg, sizeof msg), CS_EINPUT);
    cr_expect(strstr(msg, "not a chargesim checkpoint"), "%s", msg);
    cr_expect_eq(load_for("run", &e, &o, NULL, csv, 0, msg, sizeof msg), CS_EINPUT);
    cr_expect(strstr(msg, "the file is empty"), "%s", msg);
    cr_expect_eq(load_for("run", &e, &o, NULL, m.buf, m.len, msg, sizeof msg), CS_OK, "%s", msg);
    free(m.buf);
    cs_experiment_free(&e);
}

/* On the command line. */

static bool exists(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0;
}

static void path_in(char *buf, size_t cap, const char *dir, const char *name)
{
    snprintf(buf, cap, "%s/%s", dir, name);
}

/* "$CS_BIN ARGS" started in the background, its output thrown away. */
static pid_t spawn(const char *args)
{
    pid_t pid = fork();
    cr_assert(pid >= 0);
    if (pid == 0) {
        char cmd[4200];
        snprintf(cmd, sizeof cmd, "exec \"$CS_BIN\" %.4000s >/dev/null 2>&1 </dev/null", args);
        execl("/bin/sh", "sh", "-c", cmd, (char *)NULL);
        _exit(127);
    }
    return pid;
}

static void same_file(const char *a, const char *b, const char *what)
{
    size_t la, lb;
    char *x = th_slurp(a, &la), *y = th_slurp(b, &lb);
    cr_assert(x && y, "%s: %s or %s missing", what, a, b);
    cr_assert(la == lb && memcmp(x, y, la) == 0, "%s: %s differs from %s", what, b, a);
    free(x);
    free(y);
}

/* The acceptance test of issue 34: the command (ARGS, which -o, the
 * checkpoint and a short interval complete) is killed by SIGKILL after a
 * random delay `kills` times, started again each time, then let finish:
 * its CSV and metadata are those of the same command run once. The
 * delays add up to about 0.6 of an uninterrupted run on average, so each
 * start goes on from the last one's checkpoint; the seed of the delays
 * is in every message. */
static void killed_and_resumed(const char *what, const char *args, int kills)
{
    const char *dir = th_tmpdir();
    char cmd[4096], out[512], meta[512], ref[512], refmeta[512], ck[512];
    path_in(out, sizeof out, dir, "out.csv");
    path_in(meta, sizeof meta, dir, "out.csv-metadata.json");
    path_in(ref, sizeof ref, dir, "ref.csv");
    path_in(refmeta, sizeof refmeta, dir, "ref.json");
    path_in(ck, sizeof ck, dir, "ck");
    /* A first run, timed: its time sizes the checkpoints' interval (about
     * 20 a run, so a kill finds one written whatever the build's speed) and
     * the kills' delays. Then the uninterrupted run of the very command the
     * kills interrupt (the metadata records the command line). */
    snprintf(cmd, sizeof cmd, "%s --quiet -o %s", args, out);
    double t0 = th_now();
    cr_assert_eq(th_cli(cmd, NULL, NULL), 0, "%s: the timed run", what);
    double whole = th_now() - t0, every = fmax(0.005, whole / 20.0);
    snprintf(cmd, sizeof cmd, "%s --quiet -o %s --checkpoint %s --checkpoint-every %.3f", args,
             out, ck, every);
    cr_assert_eq(th_cli(cmd, NULL, NULL), 0, "%s: the uninterrupted run", what);
    cr_assert(!exists(ck), "%s: the checkpoint stays after a run that ended", what);
    cr_assert(rename(out, ref) == 0 && rename(meta, refmeta) == 0);
    unsigned seed = (unsigned)time(NULL) ^ (unsigned)getpid();
    srand(seed);
    int found = 0;
    for (int i = 0; i < kills; i++) {
        double delay = every + 1.2 * whole / kills * (double)rand() / RAND_MAX;
        pid_t pid = spawn(cmd);
        struct timespec ts = {(time_t)delay, (long)((delay - floor(delay)) * 1e9)};
        nanosleep(&ts, NULL);
        kill(pid, SIGKILL);
        int status;
        waitpid(pid, &status, 0);
        found += exists(ck);
    }
    char *err = NULL;
    cr_assert_eq(th_cli(cmd, NULL, &err), 0, "%s (delays' seed %u): %s", what, seed, err);
    cr_expect(found > 0, "%s (delays' seed %u): no kill found a checkpoint written", what, seed);
    same_file(ref, out, what);
    same_file(refmeta, meta, what);
    cr_assert(!exists(ck), "%s: the checkpoint stays after the run ended", what);
    free(err);
}

/* Alone and without a checkpoint, a round visits the points in a stride
 * over the sweep (sched.c, visit: the page's estimate then measures every
 * part of a map); with a checkpoint, in order. The numbers are the same
 * bytes either way: each point's blocks still merge in their order. */
Test(checkpoint_cli, the_order_points_are_visited_in_changes_no_number, .timeout = 120)
{
    const char *dir = th_tmpdir();
    char cmd[4096], a[512], b[512], ck[512];
    path_in(a, sizeof a, dir, "strided.csv");
    path_in(b, sizeof b, dir, "in-order.csv");
    path_in(ck, sizeof ck, dir, "ck");
    const char *args[] = {
        "map %s/experiments/map-t9a.ini --set 'angle=uniform(-30,30)' --x -3..3:1 --y 1..4:1 "
        "--trials 2000",
        "run %s/experiments/t9a-random-approach.ini --method mc --trials 2000 --precision 0.01",
    };
    for (size_t i = 0; i < sizeof args / sizeof *args; i++) {
        char base[1024];
        snprintf(base, sizeof base, args[i], th_root());
        snprintf(cmd, sizeof cmd, "%s --quiet -o %s", base, a);
        cr_assert_eq(th_cli(cmd, NULL, NULL), 0, "%s", cmd);
        snprintf(cmd, sizeof cmd, "%s --quiet -o %s --checkpoint %s", base, b, ck);
        cr_assert_eq(th_cli(cmd, NULL, NULL), 0, "%s", cmd);
        same_file(a, b, base);
    }
}

Test(checkpoint_cli, sigkill_mc_with_precision, .timeout = 300)
{
    char args[1024];
    snprintf(args, sizeof args,
             "run %s/experiments/t9a-random-approach.ini --method mc --trials 4000 "
             "--precision 0.004 --dist %s/d.csv",
             th_root(), th_tmpdir());
    killed_and_resumed("mc --precision", args, 10);
}

Test(checkpoint_cli, sigkill_rqmc_with_precision, .timeout = 300)
{
    char args[1024];
    snprintf(args, sizeof args,
             "run %s/experiments/t9a-random-approach.ini --trials 1024 --precision 0.0002",
             th_root());
    killed_and_resumed("rqmc --precision", args, 10);
}

Test(checkpoint_cli, sigkill_map_of_a_drawn_layout, .timeout = 300)
{
    char args[1024];
    snprintf(args, sizeof args,
             "map %s/experiments/map-t9a.ini --set 'angle=uniform(-30,30)' --x -2..2:1 "
             "--y 6..10:1 --trials 8192",
             th_root());
    killed_and_resumed("map, drawn angle", args, 10);
}

/* SIGTERM (Slurm's before its SIGKILL) and SIGINT: a last checkpoint, the
 * word on how to go on, the process ends by the signal, no output and no
 * temporary left; the same command then ends as an uninterrupted run. */
static void stopped_by(int sig, const char *name)
{
    const char *dir = th_tmpdir();
    char cmd[2048], out[512], ref[512], ck[512], errpath[512];
    path_in(out, sizeof out, dir, "out.csv");
    path_in(ref, sizeof ref, dir, "ref.csv");
    path_in(ck, sizeof ck, dir, "ck");
    path_in(errpath, sizeof errpath, dir, "err");
    snprintf(cmd, sizeof cmd,
             "run %s/experiments/t9a-random-approach.ini --method mc --trials 30000 --quiet "
             "-o %s --checkpoint %s",
             th_root(), out, ck);
    double t0 = th_now();
    cr_assert_eq(th_cli(cmd, NULL, NULL), 0);
    /* The signal comes half-way through a run as long as this one. */
    double half = (th_now() - t0) / 2.0;
    cr_assert(rename(out, ref) == 0);
    char meta[600];
    snprintf(meta, sizeof meta, "%s-metadata.json", out);
    cr_assert(unlink(meta) == 0);
    pid_t pid = fork();
    if (pid == 0) {
        char full[4200];
        snprintf(full, sizeof full, "exec \"$CS_BIN\" %s 2>%s </dev/null", cmd, errpath);
        execl("/bin/sh", "sh", "-c", full, (char *)NULL);
        _exit(127);
    }
    struct timespec ts = {(time_t)half, (long)((half - floor(half)) * 1e9)};
    nanosleep(&ts, NULL);
    kill(pid, sig);
    int status;
    waitpid(pid, &status, 0);
    char *err = th_slurp(errpath, NULL);
    cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == sig, "%s: status %d: %s", name, status,
              err);
    char said[700];
    snprintf(said, sizeof said, "chargesim run: stopped by %s: the checkpoint %s is written",
             name, ck);
    cr_expect(strstr(err, said) && strstr(err, "run the same command to go on from it:\n  "
                                                "chargesim run "),
              "%s", err);
    cr_assert(exists(ck) && !exists(out));
    char ls[600], *names = NULL;
    snprintf(ls, sizeof ls, "ls -A %s", dir);
    FILE *p = popen(ls, "r");
    size_t len = 0;
    cr_assert(getdelim(&names, &len, '\0', p) > 0);
    pclose(p);
    cr_expect_str_eq(names, "ck\nerr\nref.csv\n", "%s", names);
    free(names);
    free(err);
    err = NULL;
    cr_assert_eq(th_cli(cmd, NULL, &err), 0, "%s", err);
    cr_expect(strstr(err, "going on from the checkpoint"), "%s", err);
    same_file(ref, out, name);
    cr_assert(!exists(ck));
    free(err);
}

Test(checkpoint_cli, sigterm_and_sigint_write_a_last_checkpoint, .timeout = 300)
{
    stopped_by(SIGTERM, "SIGTERM");
    stopped_by(SIGINT, "SIGINT");
}

/* A refused checkpoint leaves it, the outputs and their metadata as they
 * were, byte for byte, and runs nothing (exit 2). */
Test(checkpoint_cli, a_refused_checkpoint_changes_no_file)
{
    const char *dir = th_tmpdir();
    char e[512], out[512], ck[512], cmd[2048], *before, *err = NULL;
    size_t len, len2;
    path_in(e, sizeof e, dir, "e.ini");
    path_in(out, sizeof out, dir, "out.csv");
    path_in(ck, sizeof ck, dir, "ck");
    FILE *f = fopen(e, "w");
    fputs(t9a_random, f);
    fclose(f);
    f = fopen(out, "w");
    fputs("an older table\n", f);
    fclose(f);
    /* A checkpoint written by the run with seed 904, stopped by SIGTERM. */
    snprintf(cmd, sizeof cmd, "run %s --method mc --trials 4000000 --quiet -o %s --checkpoint %s",
             e, out, ck);
    pid_t pid = spawn(cmd);
    struct timespec ts = {0, 400000000};
    nanosleep(&ts, NULL);
    kill(pid, SIGTERM);
    waitpid(pid, NULL, 0);
    cr_assert(before = th_slurp(ck, &len));
    snprintf(cmd, sizeof cmd,
             "run %s --method mc --trials 4000000 --seed 905 --quiet -o %s --checkpoint %s", e,
             out, ck);
    cr_assert_eq(th_cli(cmd, NULL, &err), 2);
    cr_expect(strstr(err, "experiment.seed is 904 in it, 905 here"), "%s", err);
    char *now_ck = th_slurp(ck, &len2), *now_out = th_slurp(out, NULL);
    cr_assert(len2 == len && memcmp(now_ck, before, len) == 0, "the checkpoint changed");
    cr_assert_str_eq(now_out, "an older table\n");
    char m[600];
    snprintf(m, sizeof m, "%s-metadata.json", out);
    cr_assert(!exists(m));
    free(now_ck);
    free(now_out);
    free(err);
    /* Not a checkpoint at all (here, a table): refused, left as it is. */
    snprintf(cmd, sizeof cmd, "run %s --quiet -o %s.2 --checkpoint %s", e, out, out);
    cr_assert_eq(th_cli(cmd, NULL, &err), 2);
    cr_expect(strstr(err, "not a chargesim checkpoint"), "%s", err);
    now_out = th_slurp(out, NULL);
    cr_assert_str_eq(now_out, "an older table\n");
    free(now_out);
    free(err);
    free(before);
}

typedef struct refusal {
    const char *args; /* @ stands for the test's directory */
    const char *said;
} refusal;

/* What --checkpoint may not name, and --checkpoint-every's values. */
Test(checkpoint_cli, bad_options_are_refused)
{
    const char *dir = th_tmpdir();
    char e[512];
    path_in(e, sizeof e, dir, "e.ini");
    FILE *f = fopen(e, "w");
    fputs(t9a_random, f);
    fclose(f);
    char fifo[600];
    path_in(fifo, sizeof fifo, dir, "fifo");
    cr_assert_eq(mkfifo(fifo, 0600), 0);
    static const refusal cases[] = {
        {"run @/e.ini --checkpoint @/e.ini", "that is an input of this run"},
        {"run @/e.ini -o @/o.csv --checkpoint @/o.csv", "that is an output of this run"},
        {"run @/e.ini -o @/o.csv --checkpoint @/o.csv-metadata.json", "an output of this run"},
        {"run @/e.ini --dist @/d.csv --checkpoint @/d.csv", "that is an output of this run"},
        {"map @/e.ini --plot @/p.svg --checkpoint @/p.svg", "that is an output of this run"},
        {"run @/e.ini --checkpoint @", "not a regular file"},
        /* A FIFO of the test's own (never a device of the machine's: a bug
         * here must not replace /dev/null). */
        {"run @/e.ini --checkpoint @/fifo", "not a regular file"},
        {"run @/e.ini --checkpoint -", "expected a file name"},
        {"run @/e.ini --checkpoint ''", "expected a file name"},
        {"run @/e.ini --checkpoint @/no/ck", "No such file or directory"},
        {"run @/e.ini --checkpoint-every 5", "--checkpoint-every applies only with --checkpoint"},
        {"compare @/e.ini --b charge_speed=1 --checkpoint @/c --checkpoint-every 0",
         "expected seconds above 0"},
        {"map @/e.ini --checkpoint @/c --checkpoint-every 1e9", "at most 604800"},
        {"run @/e.ini --checkpoint @/c --checkpoint-every x", "expected seconds above 0"},
        {"run @/e.ini --checkpoint", "--checkpoint needs a file name"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        char args[1024], *err = NULL;
        size_t u = 0;
        for (const char *p = cases[i].args; *p && u + 300 < sizeof args; p++)
            u += *p == '@' ? (size_t)snprintf(args + u, sizeof args - u, "%s", dir)
                           : (size_t)snprintf(args + u, sizeof args - u, "%c", *p);
        cr_expect_eq(th_cli(args, NULL, &err), 2, "%s: %s", args, err);
        cr_expect(strstr(err, cases[i].said), "%s: %s", args, err);
        free(err);
    }
    char c[600];
    path_in(c, sizeof c, dir, "c");
    cr_expect(!exists(c));
}

/* The bytes of m with `edit` applied at `off` bytes past "RUNSTATE" (or
 * past "MAPCELLS" when map), and the digest made again: a state that no run
 * wrote, behind a right digest. */
static unsigned char *edited(const mem_sink *m, const char *tag, size_t off, const void *edit,
                             size_t n)
{
    unsigned char *b = malloc(m->len);
    memcpy(b, m->buf, m->len);
    unsigned char *at = memmem(b, m->len, tag, 8);
    cr_assert(at);
    memcpy(at + off, edit, n);
    cs_sha256 h;
    cs_sha256_init(&h);
    cs_sha256_update(&h, b, m->len - 32);
    cs_sha256_final(&h, b + m->len - 32);
    return b;
}

/* Resumes a run of e from b: the status, the message in msg. */
static cs_status resume_from(const cs_experiment *e, cs_run_opts o, const unsigned char *b,
                             size_t len, char *msg, size_t cap)
{
    cs_ckpt *ck;
    cs_error err;
    cs_run_result r;
    cs_ckpt_sink sink = {mem_write, mem_stop, &(mem_sink){.stop_after = 1L << 60}};
    ck = cs_ckpt_new(1e9, &sink);
    cr_assert_eq(cs_ckpt_identify(ck, "run", e, &o, NULL, NULL, &err), CS_OK);
    cs_status st = cs_ckpt_load(ck, "ck", b, len, &err);
    if (st == CS_OK) {
        o.checkpoint = ck;
        st = cs_sched_run(e, &o, &r, &err);
        if (st == CS_OK)
            cs_sched_result_free(&r);
    }
    snprintf(msg, cap, "%s", st == CS_OK ? "" : err.msg);
    cs_ckpt_free(ck);
    return st;
}

/* Behind a right digest, a state that does not fit the run is refused,
 * never run: a point past its round, another estimator, a round this run
 * never reaches, histograms it does not keep, a section that is no state. */
Test(checkpoint, a_state_that_does_not_fit_is_refused)
{
    static const char *const sets[] = {"experiment.method=mc"};
    cs_experiment e;
    mem_sink m;
    char msg[1024];
    load(t9a_random, sets, 1, &e);
    checkpoint_of("run", &e, (cs_run_opts){0}, NULL, &m);
    /* RUNSTATE's head is 32 bytes, a pass's head 40: target, points,
     * tally size, the estimator's name; then the blocks done. */
    const uint64_t huge = 1000, round = 7;
    const struct {
        size_t off;
        const void *edit;
        size_t n;
        const char *said;
    } cases[] = {
        {32 + 40, &huge, 8, "a point's blocks"},
        {32 + 24, "xx", 3, "its points, estimator or round"},
        {32, &round, 8, "its points, estimator or round"},
        {0, "RUNSTATX", 8, "not one this version writes"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        unsigned char *b = edited(&m, "RUNSTATE", cases[i].off, cases[i].edit, cases[i].n);
        cr_expect_eq(resume_from(&e, (cs_run_opts){0}, b, m.len, msg, sizeof msg), CS_EINPUT,
                     "case %zu", i);
        cr_expect(strstr(msg, cases[i].said), "case %zu: %s", i, msg);
        free(b);
    }
    /* A run without --dist, its identity rewritten to say --dist. */
    size_t len;
    unsigned char *d = rewritten(&m, "\n--dist no\n", "\n--dist yes\n", &len);
    cr_expect_eq(resume_from(&e, (cs_run_opts){.want_dist = true}, d, len, msg, sizeof msg),
                 CS_EINPUT);
    cr_expect(strstr(msg, "its histograms"), "%s", msg);
    free(d);
    free(m.buf);
    cs_experiment_free(&e);
    /* A map's own section: its first cell past the map. */
    static const char *const ini = "[experiment]\nruleset = t9a\nseed = 7\n[params]\n";
    cs_map_axis x, y;
    cs_error err;
    load(ini, NULL, 0, &e);
    cs_map_axis_parse("-2..2:1", "--x", &x, &err);
    cs_map_axis_parse("1..3:1", "--y", &y, &err);
    cs_ckpt *ck;
    cs_map_result r;
    cs_ckpt_sink sink = {mem_write, mem_stop, &m};
    m = (mem_sink){.stop_after = 2};
    ck = cs_ckpt_new(1e9, &sink);
    cr_assert_eq(cs_ckpt_identify(ck, "map", &e, &(cs_run_opts){0}, NULL, NULL, &err), CS_OK);
    cr_assert_eq(cs_map_run(&e, &x, &y, &(cs_run_opts){.checkpoint = ck}, &r, &err),
                 CS_ESTOPPED);
    unsigned char *b = edited(&m, "MAPCELLS", 8, &huge, 8);
    cr_assert_eq(cs_ckpt_load(ck, "ck", b, m.len, &err), CS_OK, "%s", err.msg);
    cr_expect_eq(cs_map_run(&e, &x, &y, &(cs_run_opts){.checkpoint = ck}, &r, &err), CS_EINPUT);
    cr_expect(strstr(err.msg, "the map's state in it does not fit this map"), "%s", err.msg);
    free(b);
    free(m.buf);
    cs_ckpt_free(ck);
    cs_experiment_free(&e);
}

/* A checkpoint that cannot be written (here a file size limit, as a full
 * disk): a warning each time, the run goes on and ends as it would have,
 * and no temporary is left; stopped then, it says no checkpoint holds its
 * state. */
Test(checkpoint_cli, a_checkpoint_not_written_is_a_warning)
{
    const char *dir = th_tmpdir();
    char cmd[2048], *err = NULL, *out = NULL, *ref = NULL;
    snprintf(cmd, sizeof cmd, "run %s/experiments/t9a-random-approach.ini --method mc "
             "--trials 100000 --quiet", th_root());
    cr_assert_eq(th_cli(cmd, &ref, NULL), 0);
    char limited[4096];
    snprintf(limited, sizeof limited,
             "-c 'trap \"\" XFSZ; ulimit -f 8; exec \"$CS_BIN\" %s --checkpoint %s/ck "
             "--checkpoint-every 0.05'",
             cmd, dir);
    char shell[4200];
    /* The table goes through a pipe, which no file size limit holds. */
    snprintf(shell, sizeof shell, "{ sh %s 2>%s/err; echo $? >%s/rc; } | cat >%s/out", limited,
             dir, dir, dir);
    cr_assert_eq(system(shell), 0);
    char path[600];
    snprintf(path, sizeof path, "%s/rc", dir);
    char *rc = th_slurp(path, NULL);
    snprintf(path, sizeof path, "%s/out", dir);
    out = th_slurp(path, NULL);
    snprintf(path, sizeof path, "%s/err", dir);
    err = th_slurp(path, NULL);
    cr_assert_str_eq(rc, "0\n", "%s", err);
    free(rc);
    cr_expect(strstr(err, "chargesim run: warning: the checkpoint was not written: ") &&
                  strstr(err, "the run goes on"),
              "%s", err);
    cr_expect_str_eq(out, ref, "the run's table differs");
    char ls[700], *names = NULL;
    size_t len = 0;
    snprintf(ls, sizeof ls, "ls -A %s", dir);
    FILE *p = popen(ls, "r");
    cr_assert(getdelim(&names, &len, '\0', p) > 0);
    pclose(p);
    cr_expect_str_eq(names, "err\nout\nrc\n", "files left: %s", names);
    free(names);
    free(out);
    free(err);
    free(ref);
}
