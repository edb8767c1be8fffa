/* SPDX-License-Identifier: GPL-3.0-or-later */
/* make bench: performance figures, printed, never asserted (a benchmark, not
 * a timed test). Every figure names what it measures.
 *   1. raw floor: an inline PCG32 loop rolling 2D6 against a distance, no engine
 *   2. the engine: experiments/default.ini (whfb8 head-on, 192 points) through
 *      the full driver with --method mc, trials per second, and its ratio to 1
 *   3. --method exact on the same table: the time it takes
 *   4. geometry-heavy trials per second (experiments/t9a-random-approach.ini, if present)
 *   5. precision per second, mc against conditional: the interval half-width
 *      each reaches in the same time, for experiments/t9a-random-approach.ini and
 *      experiments/coreheim-interception.ini
 *   6. conditional against rqmc on the same two files: the widest half-width
 *      each reaches in a fixed time, and the time to reach +-0.01 pp
 *      (--precision 0.0001): measured for rqmc where parameters are drawn,
 *      else extrapolated as 1/sqrt(trials) from the fixed-time run (said so)
 *   7. threat maps (issue 20): cells per second of the default 97 x 49 map of
 *      experiments/map-t9a.ini (exact: geometry once per cell, exact dice)
 *   8. compare's pairing gain (issue 30): on experiments/t9a-random-approach.ini
 *      with a random distance, offset and angle, B = A + 1 charge speed, the
 *      half-width of two independent runs' difference over the paired one,
 *      for mc, conditional, rqmc and the default method (auto: rqmc), which
 *      issue 30 asks to be at least 3, with the most the unseen-region floor
 *      lets any paired interval reach; then the default's ratio at 16 seeds
 *      (median, range, how many reach 3), since the ratio of estimated widths
 *      varies; each both against the 95% interval of the difference (root of
 *      the sum of squares) and against the two intervals subtracted by hand
 *   9. the cost of --checkpoint (issue 34): the same run without and with a
 *      checkpoint at the default interval (the best of 3 each, alternated),
 *      the time one checkpoint write of its state takes through the output
 *      module (temporary, fsync, rename) and what that adds at one write a
 *      minute; the same run with a write every second; wall and CPU time
 *      (the CPU time of this process, which other jobs change far less);
 *      and one write of a large state (a threat map of a drawn layout)
 * 1 thread and all threads. */
#include <math.h>
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "chargesim/checkpoint.h"
#include "chargesim/compare.h"
#include "chargesim/expfile.h"
#include "chargesim/geom.h"
#include "chargesim/map.h"
#include "chargesim/output.h"
#include "chargesim/quantile.h"
#include "chargesim/scenario.h"
#include "chargesim/rng.h"
#include "chargesim/sched.h"
#include "chargesim/stats.h"

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Trials per second of the bare loop: what no engine can beat. */
static double raw_floor(int threads, uint64_t n)
{
    uint64_t total = 0;
    double t0 = now();
#pragma omp parallel num_threads(threads) reduction(+ : total)
    {
        cs_rng r;
        cs_rng_stream(&r, 1, 0, (uint64_t)omp_get_thread_num());
        uint64_t ok = 0, mine = n / (uint64_t)threads;
        for (uint64_t i = 0; i < mine; i++) {
            int roll = (int)cs_rng_bounded(&r, 6) + (int)cs_rng_bounded(&r, 6) + 2;
            ok += roll >= 8;
        }
        total += ok;
    }
    double dt = now() - t0;
    if (total == 0)
        printf("(impossible)\n"); /* keeps the loop from being optimised away */
    return (double)n / dt;
}

/* Issue 3's geometry-heavy scenario through the kernel alone: per trial a
 * head-on layout at 3..10" with offset U(-6,6) and angle U(-45,45), the
 * majority arc of the charger in the target's arcs, and the cheapest
 * snaking path to the facing the charger is located in. */
static double geometry_kernel(int threads, uint64_t n)
{
    uint64_t found = 0;
    double t0 = now();
#pragma omp parallel num_threads(threads) reduction(+ : found)
    {
        cs_rng r;
        cs_rng_stream(&r, 9, 0, (uint64_t)omp_get_thread_num());
        uint64_t mine = n / (uint64_t)threads;
        for (uint64_t i = 0; i < mine; i++) {
            cs_scenario s;
            cs_arc_share share;
            cs_snake path;
            double dist = 3.0 + 7.0 * cs_rng_uniform(&r);
            double off = -6.0 + 12.0 * cs_rng_uniform(&r);
            double ang = -45.0 + 90.0 * cs_rng_uniform(&r);
            cs_scenario_head_on(dist, off, ang, 5.0, 2.0, 5.0, 2.0, &s);
            cs_geom_arc_share(&s.target.r, &s.charger.r, &share);
            cs_facing f = cs_geom_arc_of_point(&s.target.r,
                                               cs_geom_edge_centre(&s.charger.r, CS_FRONT));
            cs_geom_snake(&s.charger.r, &s.target.r, f, NULL, 0, &path);
            found += path.found && share.majority == f;
        }
    }
    double dt = now() - t0;
    if (found == 0)
        printf("(no path found: the scenario is broken)\n");
    return (double)n / dt;
}

static double precision_asked; /* item 6: --precision of the next runs, 0 = off */
static double widest_half;     /* item 6: the widest half-width of the last run */

static int load(const char *path, const char *method, uint64_t trials, cs_experiment *e)
{
    char m[64], t[64], p[64];
    snprintf(m, sizeof m, "experiment.method=%s", method);
    snprintf(t, sizeof t, "experiment.trials=%llu", (unsigned long long)trials);
    snprintf(p, sizeof p, "experiment.precision=%.17g", precision_asked);
    const char *sets[] = {m, t, p};
    cs_error err;
    if (cs_expfile_load(path, sets, 3, e, &err) != CS_OK) {
        fprintf(stderr, "bench: %s\n", err.msg);
        return -1;
    }
    return 0;
}

/* Runs an experiment; returns seconds, and total trials and the mean
 * interval half-width over its points. */
static double run(const char *path, const char *method, uint64_t trials, int threads,
                  uint64_t *total, double *half)
{
    cs_experiment e;
    if (load(path, method, trials, &e) != 0)
        return -1.0;
    cs_run_opts o = {.threads = threads};
    cs_run_result r;
    cs_error err;
    double t0 = now();
    if (cs_sched_run(&e, &o, &r, &err) != CS_OK) {
        fprintf(stderr, "bench: %s\n", err.msg);
        cs_experiment_free(&e);
        return -1.0;
    }
    double dt = now() - t0;
    *total = 0;
    *half = 0.0;
    widest_half = 0.0;
    for (uint64_t k = 0; k < r.n_points; k++) {
        const cs_point_result *pr = &r.point[k];
        *total += pr->trials;
        *half += 0.5 * (pr->ci_high - pr->ci_low) / (double)r.n_points;
        widest_half = fmax(widest_half, 0.5 * (pr->ci_high - pr->ci_low));
        for (int j = 0; j < e.rs->n_outcomes; j++)
            widest_half = fmax(widest_half, 0.5 * (pr->outcome_high[j] - pr->outcome_low[j]));
    }
    cs_sched_result_free(&r);
    cs_experiment_free(&e);
    return dt;
}

/* Trials per point such that a run lasts at least `secs`. */
static double timed(const char *path, const char *method, int threads, double secs,
                    uint64_t *total, double *half)
{
    uint64_t trials = 20000;
    for (;;) {
        double dt = run(path, method, trials, threads, total, half);
        if (dt < 0.0 || dt >= secs || trials > (1ull << 40))
            return dt;
        trials = (uint64_t)((double)trials * fmin(16.0, 1.3 * secs / fmax(dt, 1e-3)));
    }
}

static void precision_per_second(const char *path, int threads)
{
    if (access(path, R_OK) != 0) {
        printf("  %-40s skipped: file not present\n", path);
        return;
    }
    uint64_t nm, nc;
    double hm, hc;
    double tm = timed(path, "mc", threads, 1.0, &nm, &hm);
    double tc = timed(path, "conditional", threads, 1.0, &nc, &hc);
    if (tm < 0.0 || tc < 0.0)
        return;
    /* Half-widths shrink as 1/sqrt(time): scale both to one second. */
    double hm1 = hm * sqrt(tm), hc1 = hc * sqrt(tc);
    printf("  %-40s mc %.5f, conditional %.5f (mean half-width after 1 s, %d threads); "
           "conditional %.1fx narrower\n",
           path, hm1, hc1, threads, hm1 / hc1);
    printf("  %-40s (mc %.3g trials/s, conditional %.3g layouts/s)\n", "",
           (double)nm / tm, (double)nc / tc);
}

/* Cells per second of the default 97 x 49 threat map of `path`. */
static void map_cells(const char *path, int threads)
{
    cs_experiment e;
    cs_error err;
    if (access(path, R_OK) != 0 || cs_expfile_load(path, NULL, 0, &e, &err) != CS_OK) {
        printf("   %s: skipped (not present or not loadable)\n", path);
        return;
    }
    cs_map_axis x, y;
    cs_map_axis_parse("-24..24:0.5", "--x", &x, &err);
    cs_map_axis_parse("0..24:0.5", "--y", &y, &err);
    cs_run_opts o = {.threads = threads};
    cs_map_result m;
    double t0 = now();
    if (cs_map_run(&e, &x, &y, &o, &m, &err) != CS_OK) {
        printf("   %s: %s\n", path, err.msg);
        cs_experiment_free(&e);
        return;
    }
    double dt = now() - t0;
    printf("   %s, %d x %d cells, %s, %d thread%s: %.3f s, %.0f cells/s\n", path, x.n, y.n,
           cs_method_name(m.method), threads, threads == 1 ? "" : "s", dt,
           (double)x.n * (double)y.n / dt);
    cs_map_result_free(&m);
    cs_experiment_free(&e);
}

/* Item 6: conditional against rqmc, widest half-width in a fixed time and
 * the time to +-0.01 pp. */
static void rqmc_against_conditional(const char *path, int threads)
{
    const double secs = 2.0, goal = 0.0001;
    if (access(path, R_OK) != 0) {
        printf("  %-40s skipped: file not present\n", path);
        return;
    }
    cs_experiment e;
    if (load(path, "rqmc", 1000, &e) != 0)
        return;
    bool drawn = e.n_drawn > 0;
    cs_experiment_free(&e);
    uint64_t nc, nq;
    double hc, hq;
    double tc = timed(path, "conditional", threads, secs, &nc, &hc);
    double wc = widest_half;
    double tq = timed(path, "rqmc", threads, secs, &nq, &hq);
    double wq = widest_half;
    if (tc < 0.0 || tq < 0.0)
        return;
    printf("  %s (%d threads):\n", path, threads);
    printf("    conditional: widest half-width %.6f after %.2f s (%.3g layouts)\n", wc, tc,
           (double)nc);
    printf("    rqmc:        widest half-width %.6f after %.2f s (%.3g points)\n", wq, tq,
           (double)nq);
    printf("    to +-0.01 pp: conditional %.3g s (extrapolated, 1/sqrt(layouts))",
           tc * (wc / goal) * (wc / goal));
    if (!drawn) {
        printf(", rqmc %.3g s (extrapolated, 1/sqrt(points): no drawn parameter, so the "
               "layouts are the ruleset's own draws)\n",
               tq * (wq / goal) * (wq / goal));
        return;
    }
    precision_asked = goal;
    double tp = run(path, "rqmc", 20000, threads, &nq, &hq);
    precision_asked = 0.0;
    printf(", rqmc %.3g s (measured, --precision 0.0001, widest %.6f, %.3g points)\n", tp,
           widest_half, (double)nq);
}

/* Section 8: the independent runs' half-width of B - A over the paired
 * one, same trials and method, one point; A on `seed`, the independent B
 * on seed + 1. Two readings of "the interval of the difference of two
 * runs": the statistician's (the root of the sum of the squared
 * half-widths: a 95% interval of B - A), returned (0: failed), and the one
 * a balance tester gets by subtracting the two printed intervals by hand
 * (hi_B - lo_A to lo_B - hi_A: the sum of the half-widths), into *by_hand.
 * Prints the line when `print`. */
static double pairing_gain(const char *path, const char *method, int threads, uint64_t seed,
                           bool print, double *by_hand)
{
    char m[64], sd[64];
    snprintf(m, sizeof m, "experiment.method=%s", method);
    snprintf(sd, sizeof sd, "experiment.seed=%llu", (unsigned long long)seed);
    const char *sets[] = {m, sd, "experiment.trials=20000", "maximised=0",
                          "distance=uniform(3,10)", "charge_speed=1"};
    cs_experiment a, b;
    cs_error err;
    double ratio = 0.0;
    if (cs_expfile_load(path, sets, 5, &a, &err) != CS_OK) {
        fprintf(stderr, "bench: %s\n", err.msg);
        return 0.0;
    }
    if (cs_expfile_load(path, sets, 6, &b, &err) != CS_OK) {
        fprintf(stderr, "bench: %s\n", err.msg);
        cs_experiment_free(&a);
        return 0.0;
    }
    cs_run_opts o = {.threads = threads};
    cs_cmp_result r;
    cs_run_result ra, rb;
    double t0 = now();
    if (cs_cmp_run(&a, &b, &o, &r, &err) != CS_OK)
        fprintf(stderr, "bench: %s\n", err.msg);
    else {
        double tp = now() - t0;
        b.seed = a.seed + 1;
        if (cs_sched_run(&a, &o, &ra, &err) == CS_OK) {
            if (cs_sched_run(&b, &o, &rb, &err) == CS_OK) {
                double ha = ra.point[0].ci_high - ra.point[0].ci_low;
                double hb = rb.point[0].ci_high - rb.point[0].ci_low;
                double hp = r.point[0].hi[0] - r.point[0].lo[0];
                ratio = sqrt(ha * ha + hb * hb) / hp;
                *by_hand = (ha + hb) / hp;
                char name[64];
                snprintf(name, sizeof name, "%s%s%s", method,
                         a.method == CS_METHOD_AUTO ? ": " : "",
                         a.method == CS_METHOD_AUTO ? cs_method_name(r.method) : "");
                if (print)
                    printf("   %-12s paired half-width %.6f, independent %.6f (%llu %s each): "
                           "%.2fx narrower (by hand: %.2fx); paired %.2f s\n",
                           name, 0.5 * hp, 0.5 * sqrt(ha * ha + hb * hb),
                           (unsigned long long)r.point[0].trials,
                           r.method == CS_METHOD_MC ? "trials" : "layouts", ratio, *by_hand, tp);
                if (print && r.method == CS_METHOD_RQMC && a.method != CS_METHOD_AUTO) {
                    /* The unseen-region floor (compare.h) alone: a paired
                     * interval never narrower than it, whatever the points,
                     * is at most this much narrower than the independent one. */
                    double z = cs_quantile_normal(0.95), n = (double)r.point[0].trials;
                    double w = z * z / (n + z * z);
                    printf("   %-12s the unseen-region floor alone (half-width %.6f) caps that at "
                           "%.2fx\n", "", w, 0.5 * sqrt(ha * ha + hb * hb) / w);
                }
                cs_sched_result_free(&rb);
            }
            cs_sched_result_free(&ra);
        }
        cs_cmp_result_free(&r);
    }
    cs_experiment_free(&a);
    cs_experiment_free(&b);
    return ratio;
}

static int cmp_double(const void *x, const void *y)
{
    double a = *(const double *)x, b = *(const double *)y;
    return (a > b) - (a < b);
}

/* Section 8 for every method at the experiment's seed, then the default's
 * ratio at SEEDS seeds: an interval's width is itself an estimate (R - 1
 * degrees of freedom), and the ratio of three of them varies from seed to
 * seed. */
#define SEEDS 16
static void pairing_gains(const char *path, int threads)
{
    static const char *const methods[] = {"mc", "conditional", "rqmc", "auto"};
    double at_seed = 0.0, hand_at_seed = 0.0, r[SEEDS], hand[SEEDS];
    for (int i = 0; i < 4; i++)
        at_seed = pairing_gain(path, methods[i], threads, 904, true, &hand_at_seed);
    int n_met = 0;
    for (int i = 0; i < SEEDS; i++) {
        r[i] = pairing_gain(path, "auto", threads, 904 + 2 * (uint64_t)i, false, &hand[i]);
        n_met += r[i] >= 3.0;
    }
    qsort(r, SEEDS, sizeof r[0], cmp_double);
    qsort(hand, SEEDS, sizeof hand[0], cmp_double);
    printf("   default (auto) at seed 904: %.2fx, issue 30 asks >= 3 (%s); at seeds 904, 906, "
           "..., %d: median %.2fx, %.2fx to %.2fx, >= 3 at %d of %d\n",
           at_seed, at_seed >= 3.0 ? "met" : "NOT met", 904 + 2 * (SEEDS - 1),
           0.5 * (r[SEEDS / 2 - 1] + r[SEEDS / 2]), r[0], r[SEEDS - 1], n_met, SEEDS);
    printf("   the same against the two intervals subtracted by hand: %.2fx at seed 904; "
           "median %.2fx, %.2fx to %.2fx\n",
           hand_at_seed, 0.5 * (hand[SEEDS / 2 - 1] + hand[SEEDS / 2]), hand[0],
           hand[SEEDS - 1]);
}

/* Item 9: checkpoints written as the command line writes them (the output
 * module), timed and counted. */
typedef struct bench_sink {
    const char *path;
    int writes;
    double seconds;
    size_t bytes;
} bench_sink;

static cs_status bench_write(void *user, const cs_ckpt_piece *pc, int n, cs_error *err)
{
    bench_sink *b = user;
    double t0 = now();
    cs_outfile o;
    cs_status st = cs_outfile_open(&o, b->path, err);
    b->bytes = 0;
    for (int i = 0; st == CS_OK && i < n; i++) {
        if (fwrite(pc[i].p, 1, pc[i].n, o.f) != pc[i].n)
            st = cs_outfile_write_error(&o, err);
        b->bytes += pc[i].n;
    }
    st = st == CS_OK ? cs_outfile_commit(&o, err) : (cs_outfile_abort(&o), st);
    b->seconds += now() - t0;
    b->writes++;
    return st;
}

/* CPU seconds of this process so far (every thread), which other jobs on
 * the machine change far less than the wall clock. */
static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* One run of e (a map of m's axes when m is not NULL), with a checkpoint
 * every `every` seconds (0: none): wall seconds, CPU seconds into *cpu. */
static double run_checkpointed(const cs_experiment *e, const cs_map_axis *m, int threads,
                               double every, bench_sink *b, double *cpu)
{
    cs_ckpt *ck = NULL;
    cs_ckpt_sink sink = {bench_write, NULL, b};
    cs_run_opts o = {.threads = threads};
    cs_run_result r;
    cs_map_result mr;
    cs_error err;
    if (every > 0.0) {
        ck = cs_ckpt_new(every, &sink);
        if (cs_ckpt_identify(ck, m ? "map" : "run", e, &o, NULL, NULL, &err) != CS_OK)
            return -1.0;
        o.checkpoint = ck;
    }
    double t0 = now(), c0 = cpu_now();
    cs_status st = m ? cs_map_run(e, &m[0], &m[1], &o, &mr, &err) : cs_sched_run(e, &o, &r, &err);
    double dt = now() - t0;
    *cpu = cpu_now() - c0;
    if (every > 0.0)
        cs_ckpt_free(ck);
    if (st != CS_OK) {
        fprintf(stderr, "bench: %s\n", err.msg);
        return -1.0;
    }
    if (m)
        cs_map_result_free(&mr);
    else
        cs_sched_result_free(&r);
    return dt;
}

/* The state of the default map of map-t9a.ini with a drawn angle (rqmc,
 * every cell's replicates): a large checkpoint, timed as it is written. */
static void checkpoint_map_write(const char *file, int threads)
{
    const char *path = "experiments/map-t9a.ini";
    static const char *const sets[] = {"angle=uniform(-30,30)", "experiment.trials=32"};
    cs_experiment e;
    cs_map_axis ax[2];
    cs_error err;
    double cpu;
    if (access(path, R_OK) != 0 || cs_expfile_load(path, sets, 2, &e, &err) != CS_OK)
        return;
    cs_map_axis_parse("-24..24:0.5", "--x", &ax[0], &err);
    cs_map_axis_parse("0..24:0.5", "--y", &ax[1], &err);
    bench_sink b = {file, 0, 0.0, 0};
    double dt = run_checkpointed(&e, ax, threads, 0.25, &b, &cpu);
    if (dt >= 0.0 && b.writes)
        printf("   %s, angle drawn, %d x %d cells (rqmc, 16 replicates each): %d write%s of up\n"
               "   to %.1f MB in %.3f s; one takes %.0f ms, %+.2f%% at the default interval\n",
               path, ax[0].n, ax[1].n, b.writes, b.writes == 1 ? "" : "s",
               (double)b.bytes / 1e6, dt,
               1e3 * b.seconds / b.writes, 100.0 * b.seconds / b.writes / CS_CKPT_DEFAULT_EVERY);
    cs_experiment_free(&e);
}

static void checkpoint_cost(const char *path, int threads)
{
    uint64_t n;
    double half, wall[2] = {INFINITY, INFINITY}, cpu[2] = {INFINITY, INFINITY}, c;
    char file[] = "/tmp/chargesim-bench-ckpt-XXXXXX";
    int fd = mkstemp(file);
    if (fd < 0 || access(path, R_OK) != 0) {
        printf("   skipped (%s not present, or no temporary file)\n", path);
        return;
    }
    close(fd);
    /* Trials for a run of about 3 s (n: the trials of all points). */
    double t = timed(path, "mc", threads, 3.0, &n, &half);
    cs_experiment e;
    if (t < 0.0 || load(path, "mc", 1, &e) != 0)
        return;
    uint64_t per = n / e.n_points;
    cs_experiment_free(&e);
    if (load(path, "mc", per, &e) != 0)
        return;
    bench_sink b = {file, 0, 0.0, 0};
    for (int i = 0; i < 8; i++) {
        double dt = run_checkpointed(&e, NULL, threads, i % 2 ? CS_CKPT_DEFAULT_EVERY : 0.0, &b, &c);
        wall[i % 2] = fmin(wall[i % 2], dt);
        cpu[i % 2] = fmin(cpu[i % 2], c);
    }
    b = (bench_sink){file, 0, 0.0, 0};
    double each = INFINITY, each_cpu = INFINITY;
    for (int i = 0; i < 2; i++) {
        each = fmin(each, run_checkpointed(&e, NULL, threads, 1.0, &b, &c));
        each_cpu = fmin(each_cpu, c);
    }
    double per_write = b.writes ? b.seconds / b.writes : 0.0;
    printf("   %s, --method mc, %llu points x %llu trials, %d threads (best of 4, "
           "alternated):\n",
           path, (unsigned long long)e.n_points, (unsigned long long)e.trials, threads);
    printf("   no checkpoint %.3f s (CPU %.3f s); --checkpoint at the default %.0f s %.3f s "
           "(CPU %.3f s):\n"
           "   %+.2f%% wall, %+.2f%% CPU (no write falls in a run this short: what every block "
           "pays)\n",
           wall[0], cpu[0], CS_CKPT_DEFAULT_EVERY, wall[1], cpu[1],
           100.0 * (wall[1] / wall[0] - 1.0), 100.0 * (cpu[1] / cpu[0] - 1.0));
    printf("   one write of its state (%zu bytes; output module: temporary, fsync, rename): "
           "%.2f ms,\n   %+.3f%% at the default interval\n",
           b.bytes, 1e3 * per_write, 100.0 * per_write / CS_CKPT_DEFAULT_EVERY);
    printf("   --checkpoint-every 1 (best of 2): %.3f s (CPU %.3f s), %d writes in all: %+.2f%% "
           "wall,\n   %+.2f%% CPU\n",
           each, each_cpu, b.writes, 100.0 * (each / wall[0] - 1.0),
           100.0 * (each_cpu / cpu[0] - 1.0));
    cs_experiment_free(&e);
    checkpoint_map_write(file, threads);
    unlink(file);
}

int main(void)
{
    int all = omp_get_max_threads();
    const char *table = "experiments/default.ini";
    const char *geo = "experiments/t9a-random-approach.ini";
    uint64_t n;
    double half;

    printf("chargesim bench (%d threads available)\n\n", all);
    const uint64_t raw_n = 400000000u;
    double raw1 = raw_floor(1, raw_n), rawn = raw_floor(all, raw_n * (uint64_t)all);
    double t1 = timed(table, "mc", 1, 1.5, &n, &half);
    double eng1 = (double)n / t1;
    double tn = timed(table, "mc", all, 1.5, &n, &half);
    double engn = (double)n / tn;
    printf("1. raw floor (inline PCG32, 2D6 >= 8):   1 thread %7.1f M trials/s, %d threads "
           "%7.1f M trials/s\n",
           raw1 / 1e6, all, rawn / 1e6);
    printf("2. engine, whfb8 head-on (%s, --method mc, full driver):\n", table);
    printf("   1 thread %7.1f M trials/s (%.2f of the raw floor), %d threads %7.1f M trials/s "
           "(%.2f of the floor); scaling %.2fx\n",
           eng1 / 1e6, eng1 / raw1, all, engn / 1e6, engn / rawn, engn / eng1);
    uint64_t nx;
    double tx = run(table, "exact", 1, all, &nx, &half);
    printf("3. --method exact, same table (%llu points): %.4f s\n", (unsigned long long)nx, tx);
    double k1 = geometry_kernel(1, 2000000), kn = geometry_kernel(all, 2000000u * (uint64_t)all);
    printf("4. geometry-heavy, kernel (random offset and angle, majority arc + snaking path):\n"
           "   1 thread %.2f M trials/s, %d threads %.2f M trials/s\n",
           k1 / 1e6, all, kn / 1e6);
    if (access(geo, R_OK) == 0) {
        double g1 = timed(geo, "mc", 1, 1.0, &n, &half);
        double r1 = (double)n / g1;
        double gn = timed(geo, "mc", all, 1.0, &n, &half);
        printf("   whole t9a ruleset (%s, --method mc): 1 thread %.3f M trials/s, %d threads "
               "%.3f M trials/s\n",
               geo, r1 / 1e6, all, (double)n / gn / 1e6);
    } else {
        printf("   whole t9a ruleset: skipped (%s not present)\n", geo);
    }
    printf("5. precision per second (mean 95%% interval half-width reached in 1 s):\n");
    precision_per_second(geo, all);
    precision_per_second("experiments/coreheim-interception.ini", all);
    printf("6. conditional against rqmc (widest 95%% half-width of any probability column):\n");
    rqmc_against_conditional(geo, all);
    rqmc_against_conditional("experiments/coreheim-interception.ini", all);
    printf("7. threat maps (chargesim map, default grid):\n");
    map_cells("experiments/map-t9a.ini", 1);
    map_cells("experiments/map-t9a.ini", all);
    if (access(geo, R_OK) == 0) {
        printf("8. compare, pairing gain (%s, distance uniform(3,10), B = +1 charge_speed,\n"
               "   20000 trials, p_success; independent: two runs of the method, seeds 904 and 905):\n",
               geo);
        pairing_gains(geo, all);
    }
    printf("9. the cost of --checkpoint:\n");
    checkpoint_cost(geo, all);
    return 0;
}
