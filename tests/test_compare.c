/* chargesim compare (issue 19): exact differences on fixed layouts, the
 * paired delta against exactly known differences within 5 standard errors,
 * the same bytes on 1, 2 and 7 threads, the pairing's gain over two
 * independent runs, and the command's refusals. */
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
    cr_assert_eq(cs_sim_compare(a, b, &o, r, &err), CS_OK, "%s", err.msg);
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

static const char *const t9a =
    "[experiment]\nruleset = t9a\ntrials = 3000\nseed = 19\n[params]\nedition = 3\n"
    "distance = 5..9\noffset = uniform(-6, 6)\nangle = uniform(-45, 45)\n";

/* Same seed, same numbers on 1, 2 and 7 threads (mc: the trial streams). */
Test(compare, same_bytes_any_threads)
{
    const char *sa[] = {"experiment.method=mc", "experiment.trials=20000"},
               *sb[] = {"charge_speed=1"};
    cs_experiment a, b;
    cs_cmp_result r[3];
    load_pair(t9a, sa, 2, sb, 1, &a, &b);
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

/* The pairing's gain: on t9a with random distance, offset and angle and
 * B = A + 1 charge speed, the default method's paired interval is at least
 * 3 times narrower than that of two independent runs of the same trials
 * (sqrt of the sum of the squared half-widths), summed over the sweep. */
Test(compare, paired_three_times_narrower)
{
    const char *sa[] = {"distance=normal(7,1.5)"}, *sb[] = {"charge_speed=1"};
    cs_experiment a, b;
    cs_cmp_result r;
    cs_run_result ra, rb;
    load_pair(t9a, sa, 1, sb, 1, &a, &b);
    compare(&a, &b, 2, &r);
    cr_assert_eq(r.method, CS_METHOD_CONDITIONAL);
    b.seed = a.seed + 1; /* independent */
    /* The same method on both sides: run's auto now picks rqmc for drawn
     * layouts, which compare has no paired form of; the pairing's gain is
     * measured against the method the pair uses. */
    a.method = b.method = CS_METHOD_CONDITIONAL;
    cr_assert_eq(th_run(&a, 2, &ra), CS_OK);
    cr_assert_eq(th_run(&b, 2, &rb), CS_OK);
    double paired = r.point[0].hi[0] - r.point[0].lo[0];
    double ha = ra.point[0].ci_high - ra.point[0].ci_low, hb = rb.point[0].ci_high - rb.point[0].ci_low;
    double indep = sqrt(ha * ha + hb * hb);
    cr_assert(indep >= 3.0 * paired, "paired %.5f, independent %.5f", paired, indep);
    cs_cmp_result_free(&r);
    cs_run_result_free(&ra);
    cs_run_result_free(&rb);
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
    cr_assert(strstr(out, "| maximised | 3 | 4 |") && strstr(out, "B: A with charge_speed=1"),
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
 * against two different B. */
Test(compare, a_unaffected_by_b)
{
    const char *sa[] = {"distance=uniform(2,12)", "experiment.method=mc",
                        "experiment.trials=20000"};
    const char *b1[] = {"reroll=failed"}, *b2[] = {"move=1"};
    cs_experiment a, x, y;
    cs_cmp_result r1, r2;
    load_pair(generic, sa, 3, b1, 1, &a, &x);
    cs_experiment_free(&a);
    load_pair(generic, sa, 3, b2, 1, &a, &y);
    compare(&a, &x, 2, &r1);
    compare(&a, &y, 2, &r2);
    for (int c = 0; c < CS_CMP_CELLS; c++)
        cr_assert(r1.point[0].a[c] == r2.point[0].a[c], "cell %d", c);
    cs_cmp_result_free(&r1);
    cs_cmp_result_free(&r2);
    cs_experiment_free(&a);
    cs_experiment_free(&x);
    cs_experiment_free(&y);
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

/* --precision under the conditional pair: the half-width of every delta at
 * most H when met, the paired delta within 5 standard errors of the exact
 * one (the statistical check at a fixed seed). */
Test(compare, precision_conditional)
{
    const char *sa[] = {"distance=uniform(2,12)", "experiment.method=conditional",
                        "experiment.trials=500", "experiment.precision=0.003"};
    const char *sb[] = {"move=1"};
    cs_experiment a, b;
    cs_cmp_result r;
    load_pair(generic, sa, 4, sb, 1, &a, &b);
    compare(&a, &b, 2, &r);
    cr_assert_eq(r.method, CS_METHOD_CONDITIONAL);
    cr_assert(r.precision_met);
    cr_assert_gt(r.point[0].trials, 500);
    for (int c = 0; c <= a.rs->n_outcomes; c++)
        cr_assert_leq(0.5 * (r.point[0].hi[c] - r.point[0].lo[c]), 0.003, "cell %d", c);
    double want = uniform_p(2.0, 12.0, 1.0) - uniform_p(2.0, 12.0, 0.0);
    double se = (r.point[0].hi[0] - r.point[0].lo[0]) / (2.0 * r.z);
    cr_assert(fabs(r.point[0].d[0] - want) <= 5.0 * se, "delta %.6f, exact %.6f, se %.2g",
              r.point[0].d[0], want, se);
    cs_cmp_result_free(&r);
    cs_experiment_free(&a);
    cs_experiment_free(&b);
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
    cr_assert_eq(cs_sim_compare(&a, &b, &o, &r, &err), CS_EINPUT);
    cr_assert_str_eq(err.msg, "variant B must keep A's ruleset, sweep shape, trials and seed");
    cr_assert_null(r.point);
    cs_experiment_free(&a);
    cs_experiment_free(&b);
    /* A B whose method cannot run on its layouts is refused by name. */
    const char *da[] = {"distance=uniform(2,12)"}, *db[] = {"move=1"};
    load_pair(generic, da, 1, db, 1, &a, &b);
    b.method = CS_METHOD_EXACT;
    cr_assert_eq(cs_sim_compare(&a, &b, &o, &r, &err), CS_EINPUT);
    cr_assert(strstr(err.msg, "variant B: ") == err.msg, "%s", err.msg);
    cr_assert(strstr(err.msg, ": method = exact: the layout is drawn at random each trial "
                              "(distance = uniform(2,12), command line); use --method "
                              "conditional (exact dice, sampled layouts) or mc"),
              "%s", err.msg);
    cs_experiment_free(&a);
    cs_experiment_free(&b);
}

/* The command's tables on fixed layouts, where every number is exact:
 * B = A + 1 move at distances 7 and 8, then B = A + a re-roll of the
 * failed roll on a move x distance pivot. CSV with the swept key, md and
 * tex in percentage points, and the pivot's CSV of deltas. */
Test(compare, cli_exact_tables)
{
    const char *dir = th_tmpdir();
    char path[512], args[1024], *out = NULL, *err = NULL, want[512];
    snprintf(path, sizeof path, "%s/g.ini", dir);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs("[experiment]\nruleset = generic\ntrials = 200\n[params]\ndistance = 7,8\n", f);
    cr_assert_eq(fclose(f), 0);
    double a7 = p2d6_at_least(7), b7 = p2d6_at_least(6), a8 = p2d6_at_least(8);
    snprintf(args, sizeof args, "compare %s --b move=1 --quiet", path);
    cr_assert_eq(th_cli(args, &out, &err), 0, "%s", err);
    cr_assert(strncmp(out, "distance,trials,p_success_a,p_success_b,delta,delta_lo,delta_hi,",
                      64) == 0, "%s", out);
    snprintf(want, sizeof want, "\n7,1,%.6f,%.6f,%.6f,%.6f,%.6f,", a7, b7, b7 - a7, b7 - a7,
             b7 - a7);
    cr_expect(strstr(out, want), "%s in %s", want, out);
    snprintf(want, sizeof want, "\n8,1,%.6f,%.6f,%.6f,", a8, a7, a7 - a8);
    cr_expect(strstr(out, want), "%s in %s", want, out);
    free(out);
    free(err);
    static const char *const fmts[] = {"md", "tex"};
    static const char *const rows[] = {"| 7 | 1 | %.2f | %.2f | %+.2f | [%+.2f, %+.2f] |",
                                       "7 & 1 & %.2f & %.2f & %+.2f & [%+.2f, %+.2f] \\\\"};
    for (int i = 0; i < 2; i++) {
        snprintf(args, sizeof args, "compare %s --b move=1 --format %s --quiet", path, fmts[i]);
        cr_assert_eq(th_cli(args, &out, &err), 0, "%s", err);
        snprintf(want, sizeof want, rows[i], 100.0 * a7, 100.0 * b7, 100.0 * (b7 - a7),
                 100.0 * (b7 - a7), 100.0 * (b7 - a7));
        cr_expect(strstr(out, want), "%s in %s", want, out);
        cr_expect(strstr(out, "B: A with move=1") &&
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
    snprintf(want, sizeof want, "move,7,8\n0,%.6f,%.6f\n1,%.6f,%.6f\n", r70, r80, r71, r70);
    cr_expect_str_eq(out, want);
    free(out);
    free(err);
}

/* The md table of sampled layouts says how many per point, by method. */
Test(compare, cli_md_sampled)
{
    const char *dir = th_tmpdir();
    char path[512], args[1024], *out = NULL, *err = NULL;
    snprintf(path, sizeof path, "%s/g.ini", dir);
    FILE *f = fopen(path, "w");
    cr_assert(f);
    fputs("[experiment]\nruleset = generic\ntrials = 2000\n[params]\n"
          "distance = uniform(2,12)\n", f);
    cr_assert_eq(fclose(f), 0);
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
