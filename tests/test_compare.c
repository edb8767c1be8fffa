/* SPDX-License-Identifier: GPL-3.0-or-later */
/* chargesim compare (issues 19 and 30): exact differences on fixed layouts,
 * the paired delta against exactly known differences within 5 standard
 * errors (mc, conditional, rqmc), the same bytes on 1, 2 and 7 threads, the
 * pairing's gain over two independent runs, and the command's refusals. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/compare.h"
#include "support/helpers.h"

static const char *const generic =
    "[experiment]\nruleset = generic\ntrials = 100000\nseed = 11\n[params]\n";

/* Loads A from `ini` with sets_a, and B with sets_b on top of them. */
static void load_pair(const char *ini, const char *const *sa, int na, const char *const *sb,
                      int nb, cs_experiment *a, cs_experiment *b)
{
    const char *all[32];
    cs_error err;
    for (int i = 0; i < na; i++)
        all[i] = sa[i];
    for (int i = 0; i < nb; i++)
        all[na + i] = sb[i];
    cr_assert_eq(th_load(ini, all, na, a, &err), CS_OK, "%s", err.msg);
    cr_assert_eq(th_load(ini, all, na + nb, b, &err), CS_OK, "%s", err.msg);
}

static void compare(const cs_experiment *a, const cs_experiment *b, int threads,
                    cs_cmp_result *r)
{
    cs_run_opts o = {.threads = threads};
    cs_error err;
    cr_assert_eq(cs_cmp_run(a, b, &o, r, &err), CS_OK, "%s", err.msg);
}

/* P(2D6 >= t), from the 36 outcomes. */
static double p2d6_at_least(double t)
{
    int n = 0;
    for (int x = 1; x <= 6; x++)
        for (int y = 1; y <= 6; y++)
            n += x + y >= t;
    return n / 36.0;
}

/* Fixed layouts: both sides exact, delta the exact difference, no width.
 * B = A + 1 move on a sweep of distances: P(2D6 >= d - 1) - P(2D6 >= d). */
Test(compare, fixed_layouts_exact_difference)
{
    const char *sa[] = {"distance=2..12"}, *sb[] = {"move=1"};
    cs_experiment a, b;
    cs_cmp_result r;
    load_pair(generic, sa, 1, sb, 1, &a, &b);
    compare(&a, &b, 2, &r);
    cr_assert_eq(r.method, CS_METHOD_EXACT);
    cr_assert_eq(r.n_points, 11);
    for (uint64_t k = 0; k < r.n_points; k++) {
        double d = 2.0 + (double)k;
        double want = p2d6_at_least(d - 1.0) - p2d6_at_least(d);
        cr_assert_float_eq(r.point[k].d[0], want, 1e-12, "distance %g", d);
        cr_assert(r.point[k].lo[0] == r.point[k].d[0] && r.point[k].hi[0] == r.point[k].d[0]);
        cr_assert_float_eq(r.point[k].b[0] - r.point[k].a[0], want, 1e-12);
    }
    cs_cmp_result_free(&r);
    cs_experiment_free(&a);
    cs_experiment_free(&b);
}

/* A re-roll of a failed charge at 8": 855/1296 - 15/36, exactly. */
Test(compare, fixed_layout_reroll)
{
    const char *sa[] = {"distance=8"}, *sb[] = {"reroll=failed"};
    cs_experiment a, b;
    cs_cmp_result r;
    load_pair(generic, sa, 1, sb, 1, &a, &b);
    compare(&a, &b, 1, &r);
    cr_assert_float_eq(r.point[0].d[0], 855.0 / 1296.0 - 15.0 / 36.0, 1e-12);
    cr_assert(r.point[0].lo[0] == r.point[0].d[0] && r.point[0].hi[0] == r.point[0].d[0]);
    cs_cmp_result_free(&r);
    cs_experiment_free(&a);
    cs_experiment_free(&b);
}

/* E over D ~ U[lo, hi) of P(2D6 + move >= D): for each total s the
 * integral of 1{s >= x} over [lo, hi) is clamp(s, lo, hi) - lo. */
static double uniform_p(double lo, double hi, double move)
{
    double p = 0.0;
    for (int x = 1; x <= 6; x++)
        for (int y = 1; y <= 6; y++) {
            double s = x + y + move;
            p += (fmin(fmax(s, lo), hi) - lo) / (hi - lo) / 36.0;
        }
    return p;
}

/* A statistical test at a fixed seed: the paired delta within 5 standard
 * errors (the paired interval's half-width over z) of the exact one. */
static void check_uniform(const char *method)
{
    char m[64];
    snprintf(m, sizeof m, "experiment.method=%s", method);
    const char *sa[] = {"distance=uniform(2,12)", m}, *sb[] = {"move=1"};
    cs_experiment a, b;
    cs_cmp_result r;
    load_pair(generic, sa, 2, sb, 1, &a, &b);
    compare(&a, &b, 2, &r);
    double want = uniform_p(2.0, 12.0, 1.0) - uniform_p(2.0, 12.0, 0.0);
    double se = (r.point[0].hi[0] - r.point[0].lo[0]) / (2.0 * r.z);
    cr_assert(se > 0.0);
    cr_assert(fabs(r.point[0].d[0] - want) <= 5.0 * se, "%s: delta %.6f, exact %.6f, se %.2g",
              method, r.point[0].d[0], want, se);
    cs_cmp_result_free(&r);
    cs_experiment_free(&a);
    cs_experiment_free(&b);
}

Test(compare, uniform_distance_mc)
{
    check_uniform("mc");
}

Test(compare, uniform_distance_conditional)
{
    check_uniform("conditional");
}

/* rqmc, the default where parameters are drawn (issue 30): the delta of
 * every replicate from the same scrambled points in A and B. */
Test(compare, uniform_distance_rqmc)
{
    check_uniform("auto");
}

/* P(2D6 >= k) for integer k. */
static double q2d6(int k)
{
    return p2d6_at_least((double)k);
}

/* rqmc against a difference that is not linear in the probabilities: a
 * re-roll of a failed charge, distance ~ U(2, 12). Between integers k - 1
 * and k the chance of a roll is q = P(2D6 >= k), with a re-roll 1 - (1 -
 * q)^2, so each mean is the average over k = 3..12. Every outcome's delta
 * too: charged is p_success, failed its complement (generic's default has
 * no illegal layout). */
Test(compare, rqmc_reroll_exact_difference)
{
    const char *sa[] = {"distance=uniform(2,12)", "experiment.method=rqmc"},
               *sb[] = {"reroll=failed"};
    cs_experiment a, b;
    cs_cmp_result r;
    load_pair(generic, sa, 2, sb, 1, &a, &b);
    compare(&a, &b, 2, &r);
    cr_assert_eq(r.method, CS_METHOD_RQMC);
    double want = 0.0;
    for (int k = 3; k <= 12; k++)
        want += ((1.0 - (1.0 - q2d6(k)) * (1.0 - q2d6(k))) - q2d6(k)) / 10.0;
    int charged = cs_ruleset_outcome_index(a.rs, "charged"),
        failed = cs_ruleset_outcome_index(a.rs, "failed");
    cr_assert(charged >= 0 && failed >= 0);
    const int cell[] = {0, 1 + charged, 1 + failed};
    const double sign[] = {1.0, 1.0, -1.0};
    for (int i = 0; i < 3; i++) {
        const cs_cmp_point *p = &r.point[0];
        double se = (p->hi[cell[i]] - p->lo[cell[i]]) / (2.0 * r.z);
        cr_assert(se > 0.0);
        cr_assert(fabs(p->d[cell[i]] - sign[i] * want) <= 5.0 * se,
                  "cell %d: delta %.6f, exact %.6f, se %.2g", cell[i], p->d[cell[i]],
                  sign[i] * want, se);
    }
    cs_cmp_result_free(&r);
    cs_experiment_free(&a);
    cs_experiment_free(&b);
}

static const char *const t9a =
    "[experiment]\nruleset = t9a\ntrials = 3000\nseed = 19\n[params]\nedition = 3\n"
    "distance = 5..9\noffset = uniform(-6, 6)\nangle = uniform(-45, 45)\n";

/* Same seed, same numbers on 1, 2 and 7 threads: mc (the trial streams),
 * and rqmc under --precision (the shared point set grown between rounds). */
static void same_bytes(const char *const *sa, int na)
{
    const char *sb[] = {"charge_speed=1"};
    cs_experiment a, b;
    cs_cmp_result r[3];
    load_pair(t9a, sa, na, sb, 1, &a, &b);
    const int threads[] = {1, 2, 7};
    for (int i = 0; i < 3; i++)
        compare(&a, &b, threads[i], &r[i]);
    for (int i = 1; i < 3; i++)
        cr_assert(memcmp(r[0].point, r[i].point, r[0].n_points * sizeof *r[0].point) == 0,
                  "%d threads", threads[i]);
    for (int i = 0; i < 3; i++)
        cs_cmp_result_free(&r[i]);
    cs_experiment_free(&a);
    cs_experiment_free(&b);
}

Test(compare, same_bytes_any_threads)
{
    const char *sa[] = {"experiment.method=mc", "experiment.trials=20000"};
    same_bytes(sa, 2);
}

Test(compare, same_bytes_any_threads_rqmc)
{
    const char *sa[] = {"experiment.precision=0.002"};
    same_bytes(sa, 1);
}

/* The pairing's gain: on t9a with random distance, offset and angle and
 * B = A + 1 charge speed, the conditional pair's interval is at least 3
 * times narrower than that of two independent conditional runs of the same
 * layouts (sqrt of the sum of the squared half-widths): 4.8 times at this
 * seed, 4.7 to 4.9 at each of 8 seeds tried. (rqmc's gain on such an
 * experiment is smaller and varies from seed to seed: `make bench`,
 * section 8.) */
Test(compare, paired_three_times_narrower)
{
    const char *sa[] = {"distance=normal(7,1.5)", "experiment.method=conditional"},
               *sb[] = {"charge_speed=1"};
    cs_experiment a, b;
    cs_cmp_result r;
    cs_run_result ra, rb;
    load_pair(t9a, sa, 2, sb, 1, &a, &b);
    compare(&a, &b, 2, &r);
    cr_assert_eq(r.method, CS_METHOD_CONDITIONAL);
    b.seed = a.seed + 1; /* independent */
    cr_assert_eq(th_run(&a, 2, &ra), CS_OK);
    cr_assert_eq(th_run(&b, 2, &rb), CS_OK);
    double paired = r.point[0].hi[0] - r.point[0].lo[0];
    double ha = ra.point[0].ci_high - ra.point[0].ci_low, hb = rb.point[0].ci_high - rb.point[0].ci_low;
    double indep = sqrt(ha * ha + hb * hb);
    cr_assert(indep >= 3.0 * paired, "paired %.5f, independent %.5f", paired, indep);
    cs_cmp_result_free(&r);
    cs_sched_result_free(&ra);
    cs_sched_result_free(&rb);
    cs_experiment_free(&a);
    cs_experiment_free(&b);
}

/* The rqmc pair reads the same scrambled points and streams in A and B: a
 * B equal to A gives a delta of exactly 0 in every replicate, so its
 * interval is the unseen-region floor alone, w = z^2 / (n + z^2) either
 * side, though A's own replicate means spread. */
Test(compare, rqmc_same_points_in_a_and_b)
{
    const char *sa[] = {"experiment.method=rqmc"}, *sb[] = {"experiment.name=b"};
    cs_experiment a, b;
    cs_cmp_result r;
    load_pair(t9a, sa, 1, sb, 1, &a, &b);
    compare(&a, &b, 2, &r);
    for (uint64_t k = 0; k < r.n_points; k++) {
        const cs_cmp_point *p = &r.point[k];
        double n = (double)p->trials, w = r.z * r.z / (n + r.z * r.z);
        for (int c = 0; c <= a.rs->n_outcomes; c++) {
            cr_assert(p->a[c] == p->b[c] && p->d[c] == 0.0, "point %llu cell %d",
                      (unsigned long long)k, c);
            cr_assert_float_eq(p->hi[c], w, 1e-15);
            cr_assert_float_eq(p->lo[c], -w, 1e-15);
        }
    }
    cs_cmp_result_free(&r);
    cs_experiment_free(&a);
    cs_experiment_free(&b);
}

/* The command: a table, and its refusals. */
Test(compare, cli)
{
    char *out = NULL, *err = NULL, args[512];
    const char *exp = "experiments/t9a-random-approach.ini";
    snprintf(args, sizeof args, "compare %s/%s --set maximised=0 --set distance=6 --b "
             "charge_speed=1 --trials 2000 --quiet", th_root(), exp);
    cr_assert_eq(th_cli(args, &out, &err), 0, "%s", err);
    cr_assert(strncmp(out, "distance,trials,p_success_a,p_success_b,delta,delta_lo,delta_hi,", 64) == 0
              || strstr(out, "trials,p_success_a,p_success_b,delta,delta_lo,delta_hi,"), "%s", out);
    free(out);
    free(err);
    snprintf(args, sizeof args, "compare %s/%s --b charge_speed=1 --trials 500 --quiet --format md "
             "--pivot maximised:distance", th_root(), exp);
    cr_assert_eq(th_cli(args, &out, &err), 0, "%s", err);
    cr_assert(strstr(out, "| maximised | 3 | 4 |") && strstr(out, "\u00b7 B: charge_speed 1"),
              "%s", out);
    free(out);
    free(err);
    snprintf(args, sizeof args, "compare %s/%s --b charge_speed=0 --quiet", th_root(), exp);
    cr_assert_eq(th_cli(args, NULL, &err), 2);
    cr_assert(strstr(err, "changes nothing"), "%s", err);
    free(err);
    snprintf(args, sizeof args, "compare %s/%s --b maximised=1 --quiet", th_root(), exp);
    cr_assert_eq(th_cli(args, NULL, &err), 2);
    cr_assert(strstr(err, "sweep shape"), "%s", err);
    free(err);
    snprintf(args, sizeof args, "compare %s/%s --quiet", th_root(), exp);
    cr_assert_eq(th_cli(args, NULL, &err), 2);
    cr_assert(strstr(err, "--b"), "%s", err);
    free(err);
}

/* Each trial its own stream: A's numbers do not depend on what B draws
 * (a re-roll rolls extra dice in B only), so A's column is the same
 * against two different B; under rqmc too (B's extra dice come from the
 * paired streams, its drawn distance from the same points). */
static void a_unaffected(const char *method)
{
    char m[64];
    snprintf(m, sizeof m, "experiment.method=%s", method);
    const char *sa[] = {"distance=uniform(2,12)", m, "experiment.trials=20000"};
    const char *b1[] = {"reroll=failed"}, *b2[] = {"move=1"};
    cs_experiment a, x, y;
    cs_cmp_result r1, r2;
    load_pair(generic, sa, 3, b1, 1, &a, &x);
    cs_experiment_free(&a);
    load_pair(generic, sa, 3, b2, 1, &a, &y);
    compare(&a, &x, 2, &r1);
    compare(&a, &y, 2, &r2);
    for (int c = 0; c < CS_CMP_CELLS; c++)
        cr_assert(r1.point[0].a[c] == r2.point[0].a[c], "%s: cell %d", method, c);
    cs_cmp_result_free(&r1);
    cs_cmp_result_free(&r2);
    cs_experiment_free(&a);
    cs_experiment_free(&x);
    cs_experiment_free(&y);
}

Test(compare, a_unaffected_by_b)
{
    a_unaffected("mc");
    a_unaffected("rqmc");
}

/* B is run at its own values: B's column equals the A column of a compare
 * whose A is B (the streams are the variants' own, whichever side), here
 * with B at another fixed distance than A while offset and angle are
 * drawn (B's layout once took A's distance). */
static void b_at_its_values(const char *method)
{
    char m[64];
    snprintf(m, sizeof m, "experiment.method=%s", method);
    const char *sa[] = {"distance=6", m}, *sb[] = {"distance=8"};
    const char *sa2[] = {"distance=8", m}, *sb2[] = {"charge_speed=1"};
    cs_experiment a, b, a2, b2;
    cs_cmp_result r, r2;
    load_pair(t9a, sa, 2, sb, 1, &a, &b);
    load_pair(t9a, sa2, 2, sb2, 1, &a2, &b2);
    compare(&a, &b, 2, &r);
    compare(&a2, &b2, 2, &r2);
    cr_assert_eq(r.point[0].trials, r2.point[0].trials);
    for (int c = 0; c < CS_CMP_CELLS; c++)
        cr_assert(r.point[0].b[c] == r2.point[0].a[c], "%s: cell %d: %.6f against %.6f",
                  method, c, r.point[0].b[c], r2.point[0].a[c]);
    cr_assert(r.point[0].b[0] != r.point[0].a[0], "%s", method);
    cs_cmp_result_free(&r);
    cs_cmp_result_free(&r2);
    cs_experiment_free(&a);
    cs_experiment_free(&b);
    cs_experiment_free(&a2);
    cs_experiment_free(&b2);
}

Test(compare, b_at_its_own_values)
{
    b_at_its_values("mc");
    b_at_its_values("conditional");
    b_at_its_values("rqmc");
}

/* --precision H: every delta's half-width (p_success and each outcome) is
 * at most H when the run says it met it. */
Test(compare, precision_every_delta)
{
    const char *sa[] = {"distance=uniform(2,12)", "experiment.method=mc",
                        "experiment.trials=10000", "experiment.precision=0.004"};
    const char *sb[] = {"move=1"};
    cs_experiment a, b;
    cs_cmp_result r;
    load_pair(generic, sa, 4, sb, 1, &a, &b);
    compare(&a, &b, 2, &r);
    cr_assert(r.precision_met);
    cr_assert_gt(r.point[0].trials, 10000);
    for (int c = 0; c <= a.rs->n_outcomes; c++)
        cr_assert_leq(0.5 * (r.point[0].hi[c] - r.point[0].lo[c]), 0.004, "cell %d", c);
    cs_cmp_result_free(&r);
    cs_experiment_free(&a);
    cs_experiment_free(&b);
}

/* --precision H on the generic U(2, 12) pair B = A + 1 move: met, past the
 * first round, every delta's half-width at most H, and the delta within 5
 * standard errors of the exact one (the statistical check at a fixed
 * seed). Returns the layouts run, more than the first round's. */
static uint64_t check_precision(const char *method, const char *trials, const char *h,
                                cs_method want_method, uint64_t first_round)
{
    char m[64], n[64], p[64];
    snprintf(m, sizeof m, "experiment.method=%s", method);
    snprintf(n, sizeof n, "experiment.trials=%s", trials);
    snprintf(p, sizeof p, "experiment.precision=%s", h);
    const char *sa[] = {"distance=uniform(2,12)", m, n, p};
    const char *sb[] = {"move=1"};
    cs_experiment a, b;
    cs_cmp_result r;
    load_pair(generic, sa, 4, sb, 1, &a, &b);
    compare(&a, &b, 2, &r);
    cr_assert_eq(r.method, want_method);
    cr_assert(r.precision_met);
    cr_assert_gt(r.point[0].trials, first_round);
    for (int c = 0; c <= a.rs->n_outcomes; c++)
        cr_assert_leq(0.5 * (r.point[0].hi[c] - r.point[0].lo[c]), a.precision, "cell %d", c);
    double want = uniform_p(2.0, 12.0, 1.0) - uniform_p(2.0, 12.0, 0.0);
    double se = (r.point[0].hi[0] - r.point[0].lo[0]) / (2.0 * r.z);
    cr_assert(fabs(r.point[0].d[0] - want) <= 5.0 * se, "delta %.6f, exact %.6f, se %.2g",
              r.point[0].d[0], want, se);
    uint64_t done = r.point[0].trials;
    cs_cmp_result_free(&r);
    cs_experiment_free(&a);
    cs_experiment_free(&b);
    return done;
}

Test(compare, precision_conditional)
{
    check_precision("conditional", "500", "0.003", CS_METHOD_CONDITIONAL, 500);
}

/* rqmc: the first round is 16 replicates of 32 points; rounds double every
 * replicate's points, so the layouts stay 16 replicates of a power of two. */
Test(compare, precision_rqmc)
{
    uint64_t n = check_precision("auto", "500", "0.0005", CS_METHOD_RQMC, 512);
    uint64_t per = n / 16;
    cr_assert(n % 16 == 0 && (per & (per - 1)) == 0,
              "%llu layouts: not 16 replicates of a power of two", (unsigned long long)n);
}

static bool place_anywhere(void *user, uint64_t k, cs_params *p)
{
    (void)user, (void)k, (void)p;
    return true;
}

/* B that does not pair with A, or whose method cannot run (a caller that
 * skipped the checks of the command): refused, nothing run. */
Test(compare, unpaired_variant_refused)
{
    const char *sa[] = {"distance=8"}, *sb[] = {"experiment.trials=999"};
    cs_experiment a, b;
    cs_cmp_result r;
    cs_error err;
    cs_run_opts o = {.threads = 1};
    load_pair(generic, sa, 1, sb, 1, &a, &b);
    cr_assert_eq(cs_cmp_run(&a, &b, &o, &r, &err), CS_EINPUT);
    cr_assert_str_eq(err.msg, "variant B must keep A's ruleset, sweep shape, trials and seed");
    cr_assert_null(r.point);
    cs_experiment_free(&a);
    cs_experiment_free(&b);
    /* A B whose method cannot run on its layouts is refused by name. */
    const char *da[] = {"distance=uniform(2,12)"}, *db[] = {"move=1"};
    load_pair(generic, da, 1, db, 1, &a, &b);
    b.method = CS_METHOD_EXACT;
    cr_assert_eq(cs_cmp_run(&a, &b, &o, &r, &err), CS_EINPUT);
    cr_assert(strstr(err.msg, "variant B: ") == err.msg, "%s", err.msg);
    cr_assert(strstr(err.msg, ": method = exact: the layout is drawn at random each trial "
                              "(distance = uniform(2,12), command line); use --method "
                              "conditional (exact dice, sampled layouts) or mc"),
              "%s", err.msg);
    /* B's own replicates (or confidence, precision) would be ignored. */
    b.method = a.method;
    b.replicates = a.replicates / 2;
    cr_assert_eq(cs_cmp_run(&a, &b, &o, &r, &err), CS_EINPUT);
    cr_assert_str_eq(err.msg, "variant B must keep A's confidence, precision and replicates");
    /* A paired run has the experiment's sweep points, not a caller's. */
    b.replicates = a.replicates;
    cs_sched_points pts = {.n = 1, .place = place_anywhere};
    cs_run_result rr;
    o.pair = &b;
    o.points = &pts;
    cr_assert_eq(cs_sched_run(&a, &o, &rr, &err), CS_EINPUT);
    cr_assert_str_eq(err.msg, "a paired run takes the experiment's sweep points");
    cs_experiment_free(&a);
    cs_experiment_free(&b);
}

/* Writes an experiment file into the test's temporary directory; its path
 * into path. */
static void write_ini(char *path, size_t cap, const char *text)
{
    snprintf(path, cap, "%s/g.ini", th_tmpdir());
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs(text, f);
    cr_assert_eq(fclose(f), 0);
}

/* The comma-separated cells after `lead` in csv, read back, are want[0..n)
 * within 1e-15. */
static void expect_cells(const char *csv, const char *lead, const double *want, int n)
{
    const char *at = strstr(csv, lead);
    cr_assert(at, "%s in %s", lead, csv);
    at += strlen(lead);
    for (int i = 0; i < n; i++, at = strchr(at, ',') + 1) {
        cr_expect(fabs(strtod(at, NULL) - want[i]) <= 1e-15, "%s cell %d: %.17g", lead, i,
                  want[i]);
        if (i + 1 < n)
            cr_assert(strchr(at, ','), "%s", csv);
    }
}

/* The command's tables on fixed layouts, where every number is exact:
 * B = A + 1 move at distances 7 and 8, then B = A + a re-roll of the
 * failed roll on a move x distance pivot. CSV with the swept key, md and
 * tex in percentage points, and the pivot's CSV of deltas. */
Test(compare, cli_exact_tables)
{
    char path[512], args[1024], *out = NULL, *err = NULL, want[512];
    write_ini(path, sizeof path,
              "[experiment]\nruleset = generic\ntrials = 200\n[params]\ndistance = 7,8\n");
    double a7 = p2d6_at_least(7), b7 = p2d6_at_least(6), a8 = p2d6_at_least(8);
    snprintf(args, sizeof args, "compare %s --b move=1 --quiet", path);
    cr_assert_eq(th_cli(args, &out, &err), 0, "%s", err);
    cr_assert(strncmp(out, "distance,trials,p_success_a,p_success_b,delta,delta_lo,delta_hi,",
                      64) == 0, "%s", out);
    /* Exact values are written whole (issue 52): each reads back within
     * 1e-15 of its value. */
    const double row7[] = {a7, b7, b7 - a7, b7 - a7, b7 - a7}, row8[] = {a8, a7, a7 - a8};
    expect_cells(out, "\n7,,", row7, 5);
    expect_cells(out, "\n8,,", row8, 3);
    free(out);
    free(err);
    static const char *const fmts[] = {"md", "tex"};
    static const char *const rows[] = {"| 7 |  | %.2f | %.2f | %+.2f | [%+.2f, %+.2f] |",
                                       "7 &  & %.2f & %.2f & %+.2f & [%+.2f, %+.2f] \\\\"};
    for (int i = 0; i < 2; i++) {
        snprintf(args, sizeof args, "compare %s --b move=1 --format %s --quiet", path, fmts[i]);
        cr_assert_eq(th_cli(args, &out, &err), 0, "%s", err);
        snprintf(want, sizeof want, rows[i], 100.0 * a7, 100.0 * b7, 100.0 * (b7 - a7),
                 100.0 * (b7 - a7), 100.0 * (b7 - a7));
        cr_expect(strstr(out, want), "%s in %s", want, out);
        cr_expect(strstr(out, "B: move 1 (all else as in") &&
                      strstr(out, "exact on both sides (one fixed layout per point)"),
                  "%s", out);
        free(out);
        free(err);
    }
    snprintf(args, sizeof args, "compare %s --set move=0,1 --b reroll=failed --pivot "
             "move:distance --quiet", path);
    cr_assert_eq(th_cli(args, &out, &err), 0, "%s", err);
    /* A re-roll of a failed roll: 1 - (1 - p)^2 - p. */
    double r70 = (1.0 - (1.0 - a7) * (1.0 - a7)) - a7, r71 = (1.0 - (1.0 - b7) * (1.0 - b7)) - b7,
           r80 = (1.0 - (1.0 - a8) * (1.0 - a8)) - a8;
    cr_expect(strncmp(out, "move,7,8\n", 9) == 0, "%s", out);
    const double piv0[] = {r70, r80}, piv1[] = {r71, r70};
    expect_cells(out, "\n0,", piv0, 2);
    expect_cells(out, "\n1,", piv1, 2);
    free(out);
    free(err);
}

/* The md table of sampled layouts says how many per point, by method. */
Test(compare, cli_md_sampled)
{
    char path[512], args[1024], *out = NULL, *err = NULL;
    write_ini(path, sizeof path, "[experiment]\nruleset = generic\ntrials = 2000\n[params]\n"
              "distance = uniform(2,12)\n");
    static const char *const methods[] = {"mc", "conditional"};
    static const char *const how[] = {"mc, 2000 trials per point, seed 1, 95% confidence",
                                      "conditional, 2000 layouts per point, seed 1, 95% "
                                      "confidence"};
    for (int i = 0; i < 2; i++) {
        snprintf(args, sizeof args, "compare %s --b move=1 --method %s --format md --quiet",
                 path, methods[i]);
        cr_assert_eq(th_cli(args, &out, &err), 0, "%s", err);
        cr_expect(strstr(out, "| trials | A % | B % | delta (pp) | interval (pp) |\n"), "%s",
                  out);
        cr_expect(strstr(out, "\n| 2000 | "), "%s", out);
        cr_expect(strstr(out, how[i]), "%s", out);
        free(out);
        free(err);
    }
}

/* rqmc on the command line (issue 30): auto picks it for drawn layouts,
 * --method rqmc and --replicates are taken as run takes them (R times a
 * power of two layouts), the md note names them, and --precision that no
 * round within --max-trials can meet warns and still writes the table. */
Test(compare, cli_rqmc)
{
    char path[512], args[1024], *out = NULL, *err = NULL;
    write_ini(path, sizeof path, "[experiment]\nruleset = generic\ntrials = 3000\n[params]\n"
              "distance = uniform(2,12)\n");
    snprintf(args, sizeof args, "compare %s --b move=1 --quiet", path);
    cr_assert_eq(th_cli(args, &out, &err), 0, "%s", err);
    cr_expect(strstr(out, "\n4096,") && strstr(out, ",rqmc\n"), "%s", out);
    free(out);
    free(err);
    snprintf(args, sizeof args,
             "compare %s --b move=1 --method rqmc --replicates 5 --format md --quiet", path);
    cr_assert_eq(th_cli(args, &out, &err), 0, "%s", err);
    cr_expect(strstr(out, "\n| 5120 | ") &&
                  strstr(out, "rqmc, 5120 randomised quasi-Monte Carlo layouts per point (5 "
                              "replicates, A and B on the same points), seed 1, 95% confidence"),
              "%s", out);
    free(out);
    free(err);
    snprintf(args, sizeof args,
             "compare %s --b move=1 --precision 0.00001 --max-trials 5000 --quiet", path);
    cr_assert_eq(th_cli(args, &out, &err), 0, "%s", err);
    cr_expect(strstr(out, "\n4096,"), "%s", out);
    cr_expect(strstr(err, "chargesim compare: warning: some points stopped before reaching the "
                          "requested precision"),
              "%s", err);
    free(out);
    free(err);
}

