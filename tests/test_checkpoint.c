/* Checkpoints (checkpoint.h, issue 34). In the library: a run stopped at
 * chosen items (the sink's stop), resumed from its checkpoint on another
 * thread count, again and again, ends with every number of the run that
 * was never stopped, bit for bit, for mc, conditional, exact (with its
 * resampled metrics and --dist), rqmc and --precision, compare's paired
 * estimators and a map of more cells than one scheduler run takes; each
 * kind of mismatch is refused with what differs. On the command line:
 * SIGKILL at random moments, SIGTERM, the refusals that leave every file
 * as it was, and the file removed when done. */
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
static void arm(cs_ckpt *ck, mem_sink *m, const char *cmd, const cs_experiment *e,
                const cs_run_opts *o, const char *extra, unsigned char **copy)
{
    cs_ckpt_sink sink = {mem_write, mem_stop, m};
    cs_error err;
    cs_ckpt_init(ck, 1e9, &sink);
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
    cr_assert_eq(cs_sim_run(e, &o, &ref, &err), CS_OK, "%s", err.msg);
    mem_sink m = {0};
    int stopped = 0;
    for (int seg = 0;; seg++) {
        cs_ckpt ck;
        unsigned char *copy;
        arm(&ck, &m, "run", e, &o, NULL, &copy);
        m.asked = 0;
        m.stop_after = seg < n ? stops[seg] : 1L << 60;
        o.checkpoint = &ck;
        o.threads = 1 + seg % 3;
        cs_status st = cs_sim_run(e, &o, &r, &err);
        free(copy);
        cs_ckpt_free(&ck);
        o.checkpoint = NULL;
        if (st == CS_OK)
            break;
        cr_assert(ck.stopped, "%s: stop %d: %s", what, seg, err.msg);
        cr_assert_eq(ck.last_write, CS_OK);
        stopped++;
    }
    same_results(&ref, &r, what);
    cs_run_result_free(&ref);
    cs_run_result_free(&r);
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

/* compare's paired estimators, stopped and resumed through cs_sim_compare. */
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
    cr_assert_eq(cs_sim_compare(&a, &b, &o, &ref, &err), CS_OK, "%s", err.msg);
    mem_sink m = {0};
    for (int seg = 0;; seg++) {
        cs_ckpt ck;
        unsigned char *copy;
        arm(&ck, &m, "compare", &a, &o, NULL, &copy);
        m.asked = 0;
        m.stop_after = seg < n ? stops[seg] : 1L << 60;
        cs_run_opts oc = {.threads = 1 + seg % 2, .checkpoint = &ck};
        cs_status st = cs_sim_compare(&a, &b, &oc, &r, &err);
        free(copy);
        cs_ckpt_free(&ck);
        if (st == CS_OK)
            break;
        cr_assert(ck.stopped, "%s", err.msg);
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
        cs_ckpt ck;
        unsigned char *copy;
        arm(&ck, &m, "map", &e, &o, "--x ...\n", &copy);
        m.asked = 0;
        m.stop_after = seg < 4 ? stops[seg] : 1L << 60;
        cs_run_opts oc = {.threads = 1 + seg % 2, .checkpoint = &ck};
        cs_status st = cs_map_run(&e, &x, &y, &oc, &r, &err);
        free(copy);
        cs_ckpt_free(&ck);
        if (st == CS_OK)
            break;
        cr_assert(ck.stopped, "%s", err.msg);
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
