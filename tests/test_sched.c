/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The scheduler's backend (include/chargesim/backend.h) without MPI: two
 * processes joined by a socket pair stand in for two ranks, so the default
 * build checks what `make test-mpi` checks with Open MPI (each rank computes
 * its share of every round, the tallies and histograms are gathered, and
 * rank 0 reports the bytes one process reports), the checkpoints of two
 * ranks (a signal on one stops both, rank 0 writes the file, which goes on
 * in one process), and the backend's failure paths: a rank that ended
 * before the run, a gather out of memory. */
#define _DEFAULT_SOURCE
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "chargesim/backend.h"
#include "chargesim/checkpoint.h"
#include "chargesim/dice.h"
#include "chargesim/dicesim.h"
#include "chargesim/sched.h"
#include "support/helpers.h"

/* The other rank's end of the socket pair, and this process's rank. */
static int peer = -1;
static cs_backend two;
static char failed_with[128];

/* A lost peer ends the test: rank 1 quietly (rank 0 reports), rank 0 with
 * an assertion (every call below is outside OpenMP regions). */
static void lost_peer(void)
{
    if (two.rank == 1)
        _exit(3);
    cr_assert_fail("the other rank went away");
}

static void send_all(const void *buf, size_t n)
{
    for (const char *p = buf; n > 0;) {
        ssize_t w = write(peer, p, n);
        if (w <= 0)
            lost_peer();
        p += w;
        n -= (size_t)w;
    }
}

static void recv_all(void *buf, size_t n)
{
    for (char *p = buf; n > 0;) {
        ssize_t r = read(peer, p, n);
        if (r <= 0)
            lost_peer();
        p += r;
        n -= (size_t)r;
    }
}

/* Rank 0 sends first and rank 1 receives first, so neither waits on a full
 * socket buffer while the other does too. */
static void exchange(const void *mine, size_t n_mine, void *theirs, size_t n_theirs)
{
    if (two.rank == 0) {
        send_all(mine, n_mine);
        recv_all(theirs, n_theirs);
    } else {
        recv_all(theirs, n_theirs);
        send_all(mine, n_mine);
    }
}

static bool pair_begin(void)
{
    char me = 0, other;
    exchange(&me, 1, &other, 1);
    return other == 0;
}

/* Each rank filled its share of the n units: the other's share is copied
 * into its place, as MPI_Allgatherv in place does. */
static void pair_allgather(void *buf, size_t unit, uint64_t n)
{
    uint64_t lo, hi, olo, ohi;
    cs_backend_share_of(n, two.rank, 2, &lo, &hi);
    cs_backend_share_of(n, 1 - two.rank, 2, &olo, &ohi);
    unsigned char *b = buf;
    exchange(b + lo * unit, (size_t)(hi - lo) * unit, b + olo * unit, (size_t)(ohi - olo) * unit);
}

static void *pair_gatherv(const void *mine, size_t bytes, size_t *total)
{
    uint64_t mb = bytes, ob;
    exchange(&mb, sizeof mb, &ob, sizeof ob);
    unsigned char *out = malloc(bytes + ob + 1);
    cr_assert(out);
    unsigned char *m = out + (two.rank == 0 ? 0 : ob), *o = out + (two.rank == 0 ? bytes : 0);
    memcpy(m, mine, bytes);
    exchange(mine, bytes, o, ob);
    *total = bytes + ob;
    return out;
}

static void pair_sum(uint64_t *v, uint64_t n)
{
    uint64_t *o = malloc(n * sizeof *o + 1);
    cr_assert(o);
    exchange(v, n * sizeof *v, o, n * sizeof *o);
    for (uint64_t i = 0; i < n; i++)
        v[i] += o[i];
    free(o);
}

static void note_failure(const char *what)
{
    snprintf(failed_with, sizeof failed_with, "%s", what);
}

/* The experiments both ranks run, in this order. */
static const char *const cases[] = {
    /* mc under --precision: several rounds, points dropping out. */
    "[experiment]\nruleset = generic\ntrials = 8192\nseed = 3\nmethod = mc\nprecision = 0.01\n"
    "[params]\nmove = 3..5\ndistance = uniform(4,12)\n",
    /* exact on fixed layouts, histograms; asoiaf's metrics without an
     * exact form resampled (their histograms rebuilt from the samples). */
    "[experiment]\nruleset = t9a\ntrials = 6000\nseed = 5\n[params]\ndistance = 6..9\n",
    "[experiment]\nruleset = asoiaf\ntrials = 3000\nseed = 5\n[params]\nspeed = 5\n"
    "distance = 6..8\n",
    /* conditional on drawn layouts, histograms. */
    "[experiment]\nruleset = t9a\ntrials = 3000\nseed = 7\nmethod = conditional\n[params]\n"
    "distance = 7\noffset = uniform(-6,6)\nangle = uniform(-30,30)\n",
    /* rqmc's doubling under --precision. */
    "[experiment]\nruleset = generic\ntrials = 4096\nseed = 9\nmethod = rqmc\nprecision = 0.002\n"
    "[params]\ndistance = uniform(2,12)\n",
};
#define N_CASES (sizeof cases / sizeof cases[0])

/* Dice sampled on both ranks: a narrow law, and one spanning millions of
 * totals, wider than a thread's window of counters. */
static const char *const dice[] = {"2d6+d3", "100d1000!+100d1000!+100d1000!+100d1000!+"
                                             "100d1000!+100d1000!+100d1000!+100d1000!"};
#define N_DICE (sizeof dice / sizeof dice[0])

typedef struct outputs {
    char *summary[N_CASES], *dist[N_CASES];
    cs_dicesim_count *counts[N_DICE];
    size_t n_counts[N_DICE];
} outputs;

/* Runs every case and dice expression (on whatever backend is set). */
static bool run_all(cs_experiment *e, cs_dice *d, int threads, outputs *o)
{
    cs_error err;
    for (size_t i = 0; i < N_CASES; i++) {
        o->summary[i] = th_run_csv(&e[i], threads, &o->dist[i]);
        if (!o->summary[i])
            return false;
    }
    for (size_t i = 0; i < N_DICE; i++)
        if (cs_dicesim_counts(&d[i], 30000, 11, threads, &o->counts[i], &o->n_counts[i], &err) !=
            CS_OK)
            return false;
    return true;
}

static void free_outputs(outputs *o)
{
    for (size_t i = 0; i < N_CASES; i++) {
        free(o->summary[i]);
        free(o->dist[i]);
    }
    for (size_t i = 0; i < N_DICE; i++)
        free(o->counts[i]);
}

/* Two ranks (this process and a child, on different thread counts) give the
 * bytes one process gives: every table, every histogram, every dice count. */
Test(sched, two_ranks_report_what_one_process_reports, .timeout = 120)
{
    cs_experiment e[N_CASES];
    cs_dice d[N_DICE];
    cs_error err;
    cs_diag diag = {0};
    for (size_t i = 0; i < N_CASES; i++)
        cr_assert_eq(th_load(cases[i], NULL, 0, &e[i], &err), CS_OK, "%s", err.msg);
    for (size_t i = 0; i < N_DICE; i++)
        cr_assert_eq(cs_dice_parse(dice[i], &d[i], &diag), CS_OK);
    int sv[2];
    cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    /* Forked before any OpenMP region: the child starts its own threads. */
    pid_t child = fork();
    cr_assert(child >= 0);
    two = (cs_backend){.rank = child == 0 ? 1 : 0, .size = 2,
                             .begin = pair_begin, .allgather = pair_allgather,
                             .gatherv = pair_gatherv, .sum_u64 = pair_sum,
                             .fail = note_failure};
    peer = sv[child == 0 ? 1 : 0];
    close(sv[child == 0 ? 0 : 1]);
    /* Ranks that disagree (a round more on one of them) wait for each
     * other: a bounded wait turns that into a failure, not a hang. */
    double limit = th_time_limit(10.0);
    struct timeval tv = {(time_t)limit, 0};
    cr_assert_eq(setsockopt(peer, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv), 0);
    cs_backend_set(&two);
    outputs ranks = {0}, one = {0};
    if (child == 0) {
        bool ok = run_all(e, d, 1, &ranks);
        _exit(ok ? 0 : 1);
    }
    bool ok = run_all(e, d, 2, &ranks);
    int status;
    cr_assert_eq(waitpid(child, &status, 0), child);
    cr_assert(ok, "a run failed on rank 0");
    cr_assert(WIFEXITED(status) && WEXITSTATUS(status) == 0, "rank 1 failed (status %d)", status);
    close(peer);
    cs_backend_set(NULL);
    cr_assert(run_all(e, d, 2, &one));
    for (size_t i = 0; i < N_CASES; i++) {
        cr_expect_str_eq(ranks.summary[i], one.summary[i], "case %zu", i);
        cr_expect_str_eq(ranks.dist[i], one.dist[i], "case %zu", i);
    }
    for (size_t i = 0; i < N_DICE; i++) {
        cr_assert_eq(ranks.n_counts[i], one.n_counts[i], "%s", dice[i]);
        for (size_t k = 0; k < one.n_counts[i]; k++) /* fields: the struct has padding */
            cr_assert(ranks.counts[i][k].value == one.counts[i][k].value &&
                          ranks.counts[i][k].count == one.counts[i][k].count,
                      "%s: pair %zu", dice[i], k);
    }
    cr_expect_str_eq(failed_with, "");
    free_outputs(&ranks);
    free_outputs(&one);
    for (size_t i = 0; i < N_CASES; i++)
        cs_experiment_free(&e[i]);
}

/* The shares: contiguous, in rank order, covering every item, the first
 * n % size ranks one item larger. */
Test(sched, shares_are_contiguous_and_balanced)
{
    for (uint64_t n = 0; n < 40; n++)
        for (int size = 1; size <= 7; size++) {
            uint64_t at = 0;
            for (int r = 0; r < size; r++) {
                uint64_t lo, hi;
                cs_backend_share_of(n, r, size, &lo, &hi);
                cr_assert_eq(lo, at, "n %llu, rank %d of %d", (unsigned long long)n, r, size);
                cr_assert_eq(hi - lo, n / (uint64_t)size + ((uint64_t)r < n % (uint64_t)size));
                at = hi;
            }
            cr_assert_eq(at, n);
        }
}

static bool refuse(void)
{
    return false;
}

static void *no_memory(const void *mine, size_t bytes, size_t *total)
{
    (void)mine, (void)bytes, (void)total;
    return NULL;
}

/* Another rank ended before the computation (a bad input there): this one
 * stops with a runtime failure instead of waiting in a gather. */
Test(sched, a_rank_that_ended_stops_the_others)
{
    const cs_backend ended = {.rank = 0, .size = 2, .begin = refuse,
                                   .fail = note_failure};
    cs_experiment e;
    cs_error err;
    cr_assert_eq(th_load(cases[0], NULL, 0, &e, &err), CS_OK, "%s", err.msg);
    cs_backend_set(&ended);
    cs_run_result r;
    cs_run_opts o = {.threads = 1};
    cr_expect_eq(cs_sched_run(&e, &o, &r, &err), CS_ERUNTIME);
    cr_expect_str_eq(err.msg, "another MPI rank ended before the run (a failure of its own "
                              "there, such as running out of memory)");
    cs_dice d;
    cs_diag diag = {0};
    cs_dicesim_count *c = NULL;
    size_t n;
    cr_assert_eq(cs_dice_parse("2d6", &d, &diag), CS_OK);
    cr_expect_eq(cs_dicesim_counts(&d, 1000, 1, 1, &c, &n, &err), CS_ERUNTIME);
    cr_expect_str_eq(err.msg, "another MPI rank ended before the rolls");
    cs_backend_set(NULL);
    cs_experiment_free(&e);
}

static bool go_on(void)
{
    return true;
}

/* The dice counts' gather out of memory: the rank tells the backend (which
 * ends the other ranks) and fails with the message one process gives. */
Test(sched, a_gather_out_of_memory_fails_the_rolls)
{
    const cs_backend starved = {.rank = 0, .size = 2, .begin = go_on,
                                     .gatherv = no_memory, .fail = note_failure};
    cs_dice d;
    cs_diag diag = {0};
    cs_error err;
    cs_dicesim_count *c = NULL;
    size_t n;
    cr_assert_eq(cs_dice_parse("2d6", &d, &diag), CS_OK);
    cs_backend_set(&starved);
    cr_expect_eq(cs_dicesim_counts(&d, 20000, 1, 1, &c, &n, &err), CS_ENOMEM);
    cs_backend_set(NULL);
    cr_expect_str_eq(err.msg, "out of memory");
    cr_expect_str_eq(failed_with, "out of memory");
}

/* Checkpoints on two ranks: rank 0's sink writes the file; rank 1's says
 * stop (a signal there only). */
typedef struct file_sink {
    const char *path;
    long asked, stop_after;
} file_sink;

static cs_status file_write(void *user, const cs_ckpt_piece *pc, int n, cs_error *err)
{
    (void)err;
    file_sink *f = user;
    FILE *out = fopen(f->path, "wb");
    cr_assert(out);
    for (int i = 0; i < n; i++)
        cr_assert_eq(fwrite(pc[i].p, 1, pc[i].n, out), pc[i].n);
    cr_assert_eq(fclose(out), 0);
    return CS_OK;
}

static int file_stop(void *user)
{
    file_sink *f = user;
    return ++f->asked > f->stop_after ? 15 : 0;
}

/* Every number of two results, bit for bit (histograms too). */
static void same_numbers(const cs_run_result *a, const cs_run_result *b, const char *what)
{
    cr_assert_eq(a->n_points, b->n_points);
    for (uint64_t k = 0; k < a->n_points; k++) {
        const cs_point_result *p = &a->point[k], *q = &b->point[k];
        cr_assert(p->trials == q->trials && memcmp(&p->p_success, &q->p_success, 8) == 0 &&
                      memcmp(&p->ci_low, &q->ci_low, 8) == 0 &&
                      memcmp(p->p_outcome, q->p_outcome, sizeof p->p_outcome) == 0 &&
                      memcmp(p->mean, q->mean, sizeof p->mean) == 0,
                  "%s: point %llu", what, (unsigned long long)k);
        for (int m = 0; m < a->exp->rs->n_metrics; m++)
            cr_assert(!p->hist[m] || memcmp(p->hist[m], q->hist[m],
                                            (size_t)a->bins[m].nbins * sizeof *p->hist[m]) == 0,
                      "%s: point %llu histogram %d", what, (unsigned long long)k, m);
    }
}

/* A checkpoint of one run of e on two ranks (this process and a child,
 * 2 threads and 1), stopped by rank 1's sink after `stop_after` asks,
 * into path; false when the run ended first. */
static bool two_rank_checkpoint(const cs_experiment *e, const char *path, long stop_after)
{
    int sv[2];
    cr_assert_eq(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
    pid_t child = fork();
    cr_assert(child >= 0);
    two = (cs_backend){.rank = child == 0 ? 1 : 0, .size = 2, .begin = pair_begin,
                             .allgather = pair_allgather, .gatherv = pair_gatherv,
                             .sum_u64 = pair_sum, .fail = note_failure};
    peer = sv[child == 0 ? 1 : 0];
    close(sv[child == 0 ? 0 : 1]);
    double limit = th_time_limit(10.0);
    struct timeval tv = {(time_t)limit, 0};
    cr_assert_eq(setsockopt(peer, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv), 0);
    cs_backend_set(&two);
    file_sink f = {path, 0, child == 0 ? stop_after : 1L << 60};
    cs_ckpt_sink sink = {file_write, file_stop, &f};
    cs_ckpt *ck;
    cs_error err;
    cs_run_opts o = {.threads = child == 0 ? 1 : 2, .want_dist = true};
    ck = cs_ckpt_new(0.001, &sink);
    cr_assert_eq(cs_ckpt_identify(ck, "run", e, &o, NULL, NULL, &err), CS_OK);
    o.checkpoint = ck;
    cs_run_result r;
    cs_status st = cs_sched_run(e, &o, &r, &err);
    if (st == CS_OK)
        cs_sched_result_free(&r);
    if (child == 0)
        _exit(st == CS_ESTOPPED && cs_ckpt_stopped(ck) == 15 ? 0 : st == CS_OK ? 4 : 1);
    int status;
    cr_assert_eq(waitpid(child, &status, 0), child);
    close(peer);
    cs_backend_set(NULL);
    int stop = cs_ckpt_stopped(ck);
    cs_ckpt_free(ck);
    cr_assert(WIFEXITED(status), "rank 1 died");
    if (st == CS_OK && WEXITSTATUS(status) == 4)
        return false;
    cr_assert(st == CS_ESTOPPED && stop == 15 && WEXITSTATUS(status) == 0,
              "rank 0: %s; rank 1 status %d", err.msg, WEXITSTATUS(status));
    return true;
}

/* A signal that reaches rank 1 only stops both ranks after a checkpoint
 * (every thousandth of a second, at the end of each chunk); the file goes on in
 * one process to the numbers one uninterrupted process gives: mc under
 * --precision with histograms, and rqmc. */
Test(sched, a_checkpoint_of_two_ranks_goes_on_in_one_process, .timeout = 120)
{
    const char *dir = th_tmpdir();
    char path[512];
    snprintf(path, sizeof path, "%s/ck", dir);
    for (size_t c = 0; c < N_CASES; c += 4) { /* mc --precision, rqmc --precision */
        cs_experiment e;
        cs_error err;
        cr_assert_eq(th_load(cases[c], NULL, 0, &e, &err), CS_OK, "%s", err.msg);
        cs_run_result ref, r;
        cs_run_opts o = {.threads = 2, .want_dist = true};
        cr_assert_eq(cs_sched_run(&e, &o, &ref, &err), CS_OK, "%s", err.msg);
        int stopped = 0;
        for (long stop = 1; stop < 40; stop = 2 * stop + 1) {
            unlink(path);
            if (!two_rank_checkpoint(&e, path, stop))
                continue;
            stopped++;
            size_t len;
            unsigned char *bytes = (unsigned char *)th_slurp(path, &len);
            cr_assert(bytes);
            cs_ckpt *ck;
            cs_ckpt_sink sink = {file_write, NULL, &(file_sink){path, 0, 0}};
            ck = cs_ckpt_new(1e9, &sink);
            cr_assert_eq(cs_ckpt_identify(ck, "run", &e, &o, NULL, NULL, &err), CS_OK);
            cr_assert_eq(cs_ckpt_load(ck, path, bytes, len, &err), CS_OK, "%s", err.msg);
            o.checkpoint = ck;
            cr_assert_eq(cs_sched_run(&e, &o, &r, &err), CS_OK, "%s", err.msg);
            o.checkpoint = NULL;
            char what[64];
            snprintf(what, sizeof what, "case %zu, stopped after %ld", c, stop);
            same_numbers(&ref, &r, what);
            cs_sched_result_free(&r);
            cs_ckpt_free(ck);
            free(bytes);
        }
        cr_expect_geq(stopped, 1, "case %zu: the run ended before its stops", c);
        cs_sched_result_free(&ref);
        cs_experiment_free(&e);
    }
}

/* A job beside an experiment (cs_sched_job_run): every block runs exactly
 * once, on whichever thread; every thread's state is closed; the joined
 * result does not depend on the thread count. */
typedef struct job_count {
    uint64_t seen[300]; /* times each block ran, joined */
    int opened, closed;
} job_count;

static void *job_open(void *user)
{
    job_count *j = user;
#pragma omp atomic
    j->opened++;
    return calloc(1, sizeof(job_count));
}

static bool job_block(void *user, void *state, uint64_t b)
{
    (void)user;
    ((job_count *)state)->seen[b]++;
    return true;
}

static bool job_close(void *user, void *state)
{
    job_count *j = user, *t = state;
    for (int b = 0; b < 300; b++)
        j->seen[b] += t->seen[b];
    j->closed++;
    free(t);
    return true;
}

Test(sched, a_job_runs_every_block_once_on_any_thread_count)
{
    static const int threads[] = {1, 2, 7};
    for (int i = 0; i < 3; i++) {
        job_count j = {0};
        cs_sched_job job = {.n_blocks = 300, .threads = threads[i], .what = "the count",
                            .user = &j, .open = job_open, .block = job_block,
                            .close = job_close};
        cs_error err;
        cr_assert_eq(cs_sched_job_run(&job, &err), CS_OK, "%s", err.msg);
        for (int b = 0; b < 300; b++)
            cr_assert_eq(j.seen[b], 1, "block %d on %d threads", b, threads[i]);
        cr_expect_eq(j.closed, j.opened);
        cr_expect_eq(j.opened, threads[i]);
    }
}

/* The progress's total under --precision is the whole run's (issue 52: a
 * page models the run's time from it): once the first points are merged
 * it counts the rounds their intervals say they need, so it passes the
 * first round's trials long before the run ends and comes within a factor
 * of two of the trials the run took. */
typedef struct seen_progress {
    uint64_t first_total, most, last_done, early_total;
    int calls;
} seen_progress;

static void note_progress(void *user, uint64_t done, uint64_t total)
{
    seen_progress *s = user;
    if (s->calls++ == 0)
        s->first_total = total;
    if (total > s->most)
        s->most = total;
    /* The total the page would have planned with at a tenth of the work. */
    if (!s->early_total && total > s->first_total && done * 10 <= total)
        s->early_total = total;
    s->last_done = done;
}

Test(sched, progress_under_precision_counts_the_rounds_needed)
{
    const char *text = "[experiment]\nruleset = generic\ntrials = 8192\nseed = 3\nmethod = mc\n"
                       "precision = 0.002\n[params]\nmove = 4\ndistance = 6..9\n";
    cs_experiment e;
    cs_error err;
    cr_assert_eq(th_load(text, NULL, 0, &e, &err), CS_OK, "%s", err.msg);
    seen_progress s = {0};
    cs_run_result r;
    cs_run_opts o = {.threads = 1, .progress = note_progress, .progress_user = &s};
    cr_assert_eq(cs_sched_run(&e, &o, &r, &err), CS_OK, "%s", err.msg);
    uint64_t took = 0;
    for (uint64_t k = 0; k < r.n_points; k++)
        took += r.point[k].trials + r.point[k].cannot_stand;
    cr_expect_gt(took, 2 * s.first_total, "the run took one round only: %llu",
                 (unsigned long long)took);
    cr_expect(s.early_total > 0, "no whole-run total within the first tenth of the work");
    cr_expect(s.early_total * 2 >= took && s.early_total <= 2 * took,
              "planned %llu early, took %llu", (unsigned long long)s.early_total,
              (unsigned long long)took);
    cr_expect_eq(s.last_done, took);
    cs_sched_result_free(&r);
    cs_experiment_free(&e);
}
