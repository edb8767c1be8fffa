/* SPDX-License-Identifier: GPL-3.0-or-later */
#include <criterion/criterion.h>
#include <math.h>
#include <string.h>

#include "chargesim/dice.h"

#define EXACT_TOL 1e-12

static cs_dice parse_ok(const char *text)
{
    cs_dice d;
    cs_diag diag;
    cs_status st = cs_dice_parse(text, &d, &diag);
    cr_assert_eq(st, CS_OK, "parse \"%s\": column %d, %s", text, diag.column,
                 diag.what ? diag.what : "(null)");
    return d;
}

/* The exact distribution of `text`, with the checks every one must pass:
 * support = [cs_dice_min, cs_dice_max], probabilities in [0, 1] summing to 1. */
static void exact_ok(const char *text, cs_dist *out)
{
    cs_dice d = parse_ok(text);
    cs_diag diag;
    cs_status st = cs_dice_exact(&d, out, &diag);
    cr_assert_eq(st, CS_OK, "exact \"%s\": %s", text, diag.what ? diag.what : "(null)");
    cr_assert_eq(out->lo, cs_dice_min(&d), "%s lo", text);
    cr_assert_eq(out->hi, cs_dice_max(&d), "%s hi", text);
    double sum = 0.0;
    for (int i = 0; i <= out->hi - out->lo; i++) {
        cr_assert(out->p[i] >= 0.0 && out->p[i] <= 1.0, "%s p[%d] = %g", text, i, out->p[i]);
        sum += out->p[i];
    }
    cr_assert(fabs(sum - 1.0) <= EXACT_TOL, "%s sums to %.17g", text, sum);
}

static void expect_p(const cs_dist *d, int v, double p, const char *text)
{
    cr_expect(fabs(cs_dist_p_eq(d, v) - p) <= EXACT_TOL, "%s: P(X = %d) = %.17g, expected %.17g",
              text, v, cs_dist_p_eq(d, v), p);
}

/* ---- exact distributions against hand computations ---------------------- */

Test(dice_exact, two_d6_triangle)
{
    /* 2d6: of the 36 equally likely pairs, 6 - |v - 7| sum to v. */
    cs_dist d;
    exact_ok("2d6", &d);
    cr_assert_eq(d.lo, 2);
    cr_assert_eq(d.hi, 12);
    for (int v = 2; v <= 12; v++)
        expect_p(&d, v, (6.0 - fabs((double)v - 7.0)) / 36.0, "2d6");
    /* P(2d6 >= 8) = (5 + 4 + 3 + 2 + 1) / 36 = 15/36 = 41.67%. */
    cr_expect(fabs(cs_dist_p_at_least(&d, 8) - 15.0 / 36.0) <= EXACT_TOL);
    cr_expect(fabs(cs_dist_p_at_most(&d, 7) - 21.0 / 36.0) <= EXACT_TOL);
    /* E = 7, Var = 2 * 35/12. */
    cr_expect(fabs(cs_dist_mean(&d) - 7.0) <= EXACT_TOL);
    cr_expect(fabs(cs_dist_variance(&d) - 35.0 / 6.0) <= EXACT_TOL);
}

Test(dice_exact, three_d6_drop_lowest)
{
    /* 3d6dl1 >= 8: enumerating the 216 ordered rolls, the two highest dice
     * sum to 8 or more in 147 of them (complement: 69 rolls whose top two sum
     * to at most 7). 147/216 = 0.680555..., printed as 68.06%. */
    cs_dist d;
    exact_ok("3d6dl1", &d);
    double p = cs_dist_p_at_least(&d, 8);
    cr_expect(fabs(p - 147.0 / 216.0) <= EXACT_TOL, "P = %.17g", p);
    cr_expect(fabs(round(p * 10000.0) / 100.0 - 68.06) <= 1e-9, "printed %.2f%%", 100.0 * p);
    /* The extremes: top two = 2 only for (1,1,1); = 12 when at least two 6s:
     * 3 * 5 + 1 = 16 rolls. */
    expect_p(&d, 2, 1.0 / 216.0, "3d6dl1");
    expect_p(&d, 12, 16.0 / 216.0, "3d6dl1");
}

Test(dice_exact, highest_of_two_d6)
{
    /* 2d6kh1 >= 5: 1 - P(both <= 4) = 1 - 16/36 = 20/36 = 55.56%;
     * P(max = v) = (2v - 1)/36. */
    cs_dist d;
    exact_ok("2d6kh1", &d);
    cr_expect(fabs(cs_dist_p_at_least(&d, 5) - 20.0 / 36.0) <= EXACT_TOL);
    for (int v = 1; v <= 6; v++)
        expect_p(&d, v, (2.0 * v - 1.0) / 36.0, "2d6kh1");
    /* and the lowest: P(min = v) = (13 - 2v)/36. */
    exact_ok("2d6kl1", &d);
    for (int v = 1; v <= 6; v++)
        expect_p(&d, v, (13.0 - 2.0 * v) / 36.0, "2d6kl1");
}

Test(dice_exact, four_d6_keep_three)
{
    /* 4d6kh3 by enumeration of the 1296 ordered rolls: counts of totals 3..18. */
    static const int count[16] = {1, 4, 10, 21, 38, 62, 91, 122, 148, 167, 172, 160, 131, 94, 54, 21};
    cs_dist d;
    exact_ok("4d6kh3", &d);
    cr_assert_eq(d.lo, 3);
    cr_assert_eq(d.hi, 18);
    for (int v = 3; v <= 18; v++)
        expect_p(&d, v, count[v - 3] / 1296.0, "4d6kh3");
    /* dl1 is the same term. */
    cs_dist e;
    exact_ok("4d6dl1", &e);
    for (int v = 3; v <= 18; v++)
        expect_p(&e, v, count[v - 3] / 1296.0, "4d6dl1");
}

Test(dice_exact, reroll_once_and_repeat)
{
    cs_dist d;
    /* d6ro1: a 1 needs a 1 then a 1, 1/36; any other face f is kept first
     * time (1/6) or comes after a re-rolled 1 (1/36): 7/36. */
    exact_ok("d6ro1", &d);
    expect_p(&d, 1, 1.0 / 36.0, "d6ro1");
    for (int v = 2; v <= 6; v++)
        expect_p(&d, v, 7.0 / 36.0, "d6ro1");
    /* d20ro1: 1/400 and 1/20 + 1/400 = 21/400. */
    exact_ok("d20ro1", &d);
    expect_p(&d, 1, 1.0 / 400.0, "d20ro1");
    for (int v = 2; v <= 20; v++)
        expect_p(&d, v, 21.0 / 400.0, "d20ro1");
    /* d6r1 and d6r<1 re-roll 1s until none: uniform on 2..6. */
    exact_ok("d6r1", &d);
    cr_assert_eq(d.lo, 2);
    for (int v = 2; v <= 6; v++)
        expect_p(&d, v, 1.0 / 5.0, "d6r1");
    exact_ok("d6r<1", &d);
    cr_assert_eq(d.lo, 2);
    for (int v = 2; v <= 6; v++)
        expect_p(&d, v, 1.0 / 5.0, "d6r<1");
    /* Roll20's '<' is <=: d6r<2 re-rolls 1s and 2s, uniform on 3..6. */
    exact_ok("d6r<2", &d);
    cr_assert_eq(d.lo, 3);
    for (int v = 3; v <= 6; v++)
        expect_p(&d, v, 1.0 / 4.0, "d6r<2");
    /* d10r>9: uniform on 1..8; d6r3: uniform on {1, 2, 4, 5, 6}. */
    exact_ok("d10r>9", &d);
    cr_assert_eq(d.hi, 8);
    for (int v = 1; v <= 8; v++)
        expect_p(&d, v, 1.0 / 8.0, "d10r>9");
    exact_ok("d6r3", &d);
    expect_p(&d, 3, 0.0, "d6r3");
    expect_p(&d, 4, 1.0 / 5.0, "d6r3");
    /* d6ro<6 re-rolls every die once: still uniform. */
    exact_ok("d6ro<6", &d);
    for (int v = 1; v <= 6; v++)
        expect_p(&d, v, 1.0 / 6.0, "d6ro<6");
    /* d6ro<2: once on <= 2 means P(1) = P(2) = 2/36, others 6/36 + 2/36. */
    exact_ok("d6ro<2", &d);
    expect_p(&d, 1, 2.0 / 36.0, "d6ro<2");
    expect_p(&d, 2, 2.0 / 36.0, "d6ro<2");
    expect_p(&d, 3, 8.0 / 36.0, "d6ro<2");
}

Test(dice_exact, explode_with_cap)
{
    /* d6!: 1..5 at 1/6; a 6 always explodes, so 6 is never a total; 7..11 is
     * a 6 then 1..5 (1/36); 12 never; ... With the cap of 10 extra rolls, the
     * eleventh roll is kept as it is: 61..66 each (1/6)^11, 66 included. */
    cs_dist d;
    exact_ok("d6!", &d);
    cr_assert_eq(d.lo, 1);
    cr_assert_eq(d.hi, 66);
    for (int v = 1; v <= 5; v++)
        expect_p(&d, v, 1.0 / 6.0, "d6!");
    expect_p(&d, 6, 0.0, "d6!");
    for (int v = 7; v <= 11; v++)
        expect_p(&d, v, 1.0 / 36.0, "d6!");
    expect_p(&d, 12, 0.0, "d6!");
    expect_p(&d, 13, 1.0 / 216.0, "d6!");
    expect_p(&d, 60, 0.0, "d6!");
    for (int v = 61; v <= 66; v++)
        cr_expect(fabs(cs_dist_p_eq(&d, v) - pow(6.0, -11.0)) <= 1e-12 * pow(6.0, -11.0),
                  "P(%d) relative", v);
    /* Mean: sum_k (1/6)^k (6k + 3) for k < 10 (a non-6 face averages 3 after
     * k sixes, with probability 5/6 * ... ) computed directly below. */
    double mean = 0.0;
    for (int k = 0; k < 10; k++)
        mean += pow(1.0 / 6.0, k) * (5.0 / 6.0) * (6.0 * k + 3.0);
    mean += pow(1.0 / 6.0, 10) * (60.0 + 3.5);
    cr_expect(fabs(cs_dist_mean(&d) - mean) <= EXACT_TOL);
    /* A die that can only show its maximum always reaches the cap. */
    exact_ok("d1!", &d);
    cr_assert_eq(d.lo, 11);
    cr_assert_eq(d.hi, 11);
    exact_ok("d6r<5!", &d);
    cr_assert_eq(d.lo, 66);
    expect_p(&d, 66, 1.0, "d6r<5!");
    /* Re-rolled maximum: d6r6! can never explode, uniform 1..5. */
    exact_ok("d6r6!", &d);
    cr_assert_eq(d.hi, 5);
    expect_p(&d, 5, 0.2, "d6r6!");
}

Test(dice_exact, constants_and_subtraction)
{
    cs_dist d;
    exact_ok("2d6-1", &d);
    cr_assert_eq(d.lo, 1);
    cr_assert_eq(d.hi, 11);
    for (int v = 1; v <= 11; v++)
        expect_p(&d, v, (6.0 - fabs((double)v + 1.0 - 7.0)) / 36.0, "2d6-1");
    exact_ok("10", &d);
    cr_assert_eq(d.lo, 10);
    cr_assert_eq(d.hi, 10);
    expect_p(&d, 10, 1.0, "10");
    /* -d4+3: -4..-1 shifted by 3: -1..2, each 1/4. */
    exact_ok("-d4+3", &d);
    cr_assert_eq(d.lo, -1);
    cr_assert_eq(d.hi, 2);
    for (int v = -1; v <= 2; v++)
        expect_p(&d, v, 0.25, "-d4+3");
    /* d6-d6: 6 - |v| of 36 for v in -5..5. */
    exact_ok("d6 - d6", &d);
    for (int v = -5; v <= 5; v++)
        expect_p(&d, v, (6.0 - fabs((double)v)) / 36.0, "d6-d6");
    /* -10: a negated constant. */
    exact_ok("-10+2d6kl1", &d);
    expect_p(&d, -9, 11.0 / 36.0, "-10+2d6kl1");
}

/* Brute force: all ordered rolls of n dice with the per-die distribution
 * `die` (itself checked by hand above), keep the k highest or lowest. */
static void brute_keep(const cs_dist *die, int n, int k, bool low, cs_dist *out)
{
    int w = die->hi - die->lo + 1;
    out->lo = k * die->lo;
    out->hi = k * die->hi;
    for (int i = 0; i <= out->hi - out->lo; i++)
        out->p[i] = 0.0;
    int idx[8] = {0};
    for (;;) {
        int v[8];
        double p = 1.0;
        for (int i = 0; i < n; i++) {
            v[i] = die->lo + idx[i];
            p *= die->p[idx[i]];
        }
        for (int i = 1; i < n; i++) /* sort ascending */
            for (int j = i; j > 0 && v[j - 1] > v[j]; j--) {
                int t = v[j];
                v[j] = v[j - 1];
                v[j - 1] = t;
            }
        int s = 0;
        for (int i = 0; i < k; i++)
            s += low ? v[i] : v[n - 1 - i];
        out->p[s - out->lo] += p;
        int i = 0;
        while (i < n && ++idx[i] == w)
            idx[i++] = 0;
        if (i == n)
            break;
    }
}

Test(dice_exact, keep_drop_against_brute_force)
{
    static const struct {
        const char *expr, *die;
        int n, k;
        bool low;
    } cases[] = {
        {"5d6kh3", "d6", 5, 3, false},      {"4d3dh1", "d3", 4, 3, true},
        {"3d4kl2", "d4", 3, 2, true},       {"5d4r1dl2", "d4r1", 5, 3, false},
        {"3d6!kh2", "d6!", 3, 2, false},    {"3d6!kl2", "d6!", 3, 2, true},
        {"4d6ro<2kh2", "d6ro<2", 4, 2, false}, {"2d20kh1", "d20", 2, 1, false},
        {"6d3kh5", "d3", 6, 5, false},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        cs_dist die, got, want;
        exact_ok(cases[c].die, &die);
        exact_ok(cases[c].expr, &got);
        brute_keep(&die, cases[c].n, cases[c].k, cases[c].low, &want);
        cr_assert_eq(got.lo, want.lo, "%s", cases[c].expr);
        cr_assert_eq(got.hi, want.hi, "%s", cases[c].expr);
        for (int v = want.lo; v <= want.hi; v++)
            cr_expect(fabs(cs_dist_p_eq(&got, v) - cs_dist_p_eq(&want, v)) <= EXACT_TOL,
                      "%s: P(%d) = %.17g, brute force %.17g", cases[c].expr, v,
                      cs_dist_p_eq(&got, v), cs_dist_p_eq(&want, v));
    }
}

Test(dice_exact, large_expressions_sum_to_one)
{
    static const char *const ok[] = {
        "100d6", "100d6kh50", "100d6dl99", "100d40kh99", "4d1000", "4d1000kh3", "10d10!dl3",
        "d300!", "8d6+8d6-8d6+3d6kh1-2+d20ro<3+d4r>3+100",
    };
    for (size_t i = 0; i < sizeof ok / sizeof ok[0]; i++) {
        cs_dist d;
        exact_ok(ok[i], &d);
    }
    /* 100d6: mean 350, variance 100 * 35/12. */
    cs_dist d;
    exact_ok("100d6", &d);
    cr_expect(fabs(cs_dist_mean(&d) - 350.0) <= 1e-9);
    cr_expect(fabs(cs_dist_variance(&d) - 3500.0 / 12.0) <= 1e-9);
}

/* 'rs' by brute force, written from the rule ("re-roll a single dice that
 * rolls a natural 1 ... before discarding any dice that are required to be
 * discarded", the Knights Panther): every ordered first roll of n d6, and if
 * one shows a face <= top, the lowest such die rolled again over its six
 * faces; then the k highest (k = n: all) are summed. Independent of dice.c. */
static void brute_single(int n, int k, int top, double *p /* [37] by total */)
{
    int f[4];
    for (int t = 0; t <= 36; t++)
        p[t] = 0.0;
    int rolls = 1;
    for (int i = 0; i < n; i++)
        rolls *= 6;
    for (int r = 0; r < rolls; r++) {
        for (int i = 0, x = r; i < n; i++, x /= 6)
            f[i] = x % 6 + 1;
        int pick = -1;
        for (int i = 0; i < n; i++)
            if (f[i] <= top && (pick < 0 || f[i] < f[pick]))
                pick = i;
        for (int g = 1; g <= (pick < 0 ? 1 : 6); g++) {
            int v[4];
            for (int i = 0; i < n; i++)
                v[i] = (i == pick) ? g : f[i];
            int total = 0;
            for (int j = 0; j < k; j++) { /* k times: take the highest left */
                int hi = 0;
                for (int i = 1; i < n; i++)
                    hi = v[i] > v[hi] ? i : hi;
                total += v[hi];
                v[hi] = 0;
            }
            p[total] += (pick < 0 ? 1.0 : 1.0 / 6.0) / (double)rolls;
        }
    }
}

Test(dice_exact, reroll_single_die)
{
    static const struct {
        const char *text;
        int n, k, top;
    } cases[] = {
        {"2d6rs1kh1", 2, 1, 1}, {"2d6rs1", 2, 2, 1}, {"3d6rs1kh1", 3, 1, 1},
        {"3d6rs<2dl1", 3, 2, 2}, {"d6rs1", 1, 1, 1}, {"4d6rs1kh3", 4, 3, 1},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        double want[37];
        cs_dist d;
        brute_single(cases[c].n, cases[c].k, cases[c].top, want);
        exact_ok(cases[c].text, &d);
        for (int v = 0; v <= 36; v++)
            expect_p(&d, v, want[v], cases[c].text);
    }
    /* By hand, The Old World's Knights Panther, highest of 2D6 with one 1
     * re-rolled: it shows 1 only when both dice show 1 and the re-roll 1
     * again, 1/216; without the re-roll 1/36; with every 1 re-rolled (ro1)
     * (1/6 * 1/6)^2 = 1/1296. */
    cs_dist d;
    exact_ok("2d6rs1kh1", &d);
    expect_p(&d, 1, 1.0 / 216.0, "2d6rs1kh1");
    exact_ok("2d6ro1kh1", &d);
    expect_p(&d, 1, 1.0 / 1296.0, "2d6ro1kh1");
    /* Past the enumeration's cap: 8d6rs1 would take 6^9 > 2e6 rolls. */
    cs_dice big = parse_ok("8d6rs1");
    cs_diag diag;
    cr_expect_eq(cs_dice_exact(&big, &d, &diag), CS_ELIMIT);
    cr_expect(diag.what != NULL);
}

Test(dice_exact, limits)
{
    static const char *const too_big[] = {
        "100d1000",        /* 99901 totals */
        "d1000!",          /* one exploding die spans 1..11000 */
        "100d6!",          /* 100..6600 */
        "5d1000kh4",       /* width 3997, but ~1e9 multiply-adds */
        "6d820kh5",        /* width 4096, ~1.1e9 multiply-adds */
    };
    for (size_t i = 0; i < sizeof too_big / sizeof too_big[0]; i++) {
        cs_dice d = parse_ok(too_big[i]);
        cs_dist out;
        cs_diag diag;
        cr_expect_eq(cs_dice_exact(&d, &out, &diag), CS_ELIMIT, "%s", too_big[i]);
        cr_expect(diag.what != NULL, "%s", too_big[i]);
    }
}

/* ---- sampling ----------------------------------------------------------- */

Test(dice_roll, plain_term_is_n_bounded_draws)
{
    /* The hot path: 3d6 + 2 must equal three cs_rng_die calls + 2 on the same
     * stream, leaving the stream in the same state. */
    cs_dice d = parse_ok("3d6+2");
    cs_rng a, b;
    cs_rng_seed(&a, 99u, 7u);
    b = a;
    for (int t = 0; t < 1000; t++) {
        int want = cs_rng_die(&b, 6) + cs_rng_die(&b, 6) + cs_rng_die(&b, 6) + 2;
        cr_assert_eq(cs_dice_roll(&d, &a), want);
    }
    cr_expect_eq(a.state, b.state);
}

/* 200k rolls at a fixed seed: each value's frequency within 5 binomial
 * standard errors of the exact probability, and nothing outside the support. */
static void mc_matches_exact(const char *text, uint64_t seed)
{
    enum { N = 200000 };
    cs_dice d = parse_ok(text);
    cs_dist p;
    exact_ok(text, &p);
    static int count[CS_DIST_CAP];
    memset(count, 0, sizeof count);
    cs_rng rng;
    cs_rng_seed(&rng, seed, 1u);
    for (int i = 0; i < N; i++) {
        int x = cs_dice_roll(&d, &rng);
        cr_assert(x >= p.lo && x <= p.hi, "%s rolled %d outside %d..%d", text, x, p.lo, p.hi);
        count[x - p.lo]++;
    }
    for (int v = p.lo; v <= p.hi; v++) {
        double pe = cs_dist_p_eq(&p, v);
        double ph = (double)count[v - p.lo] / N;
        double se = sqrt(pe * (1.0 - pe) / N);
        cr_expect(fabs(ph - pe) <= 5.0 * se, "%s: value %d frequency %.6f, exact %.6f (5 SE %.6f)",
                  text, v, ph, pe, 5.0 * se);
    }
}

Test(dice_roll, monte_carlo_matches_exact)
{
    static const char *const exprs[] = {
        "2d6", "3d6dl1", "2d6kh1", "4d6kh3", "3d6kl2", "5d4dh2", "d6!", "d6ro1", "d8r<3",
        "d10r>8", "d6r3", "d6r3!", "2d6-d4+1", "-d4+3", "3d6!r1kh2", "2d6rs1kh1",
        "3d6rs<2dl1+d6", "-2d4rs1",
    };
    for (size_t i = 0; i < sizeof exprs / sizeof exprs[0]; i++)
        mc_matches_exact(exprs[i], 20240601u + i);
}

/* ---- parsing and canonical text ----------------------------------------- */

Test(dice_parse, fields)
{
    cs_dice d = parse_ok(" 4D6 kh3 - 2 ");
    cr_assert_eq(d.n_terms, 2);
    cr_expect_eq(d.term[0].sign, 1);
    cr_expect_eq(d.term[0].count, 4);
    cr_expect_eq(d.term[0].sides, 6);
    cr_expect_eq(d.term[0].keep, CS_KEEP_HIGH);
    cr_expect_eq(d.term[0].keep_n, 3);
    cr_expect_eq(d.term[0].reroll, CS_REROLL_NONE);
    cr_expect_eq(d.term[1].sign, -1);
    cr_expect_eq(d.term[1].count, 2);
    cr_expect_eq(d.term[1].sides, 0);
    d = parse_ok("d20ro<2!");
    cr_expect_eq(d.term[0].count, 1);
    cr_expect_eq(d.term[0].reroll, CS_REROLL_ONCE);
    cr_expect_eq(d.term[0].reroll_cmp, CS_CMP_LE);
    cr_expect_eq(d.term[0].reroll_value, 2);
    cr_expect(d.term[0].explode);
    d = parse_ok("2d6-1");
    cr_expect_eq(cs_dice_min(&d), 1);
    d = parse_ok("-d4+3");
    cr_expect_eq(cs_dice_max(&d), 2);
}

Test(dice_parse, canonical_text)
{
    static const struct {
        const char *in, *out;
    } cases[] = {
        {"2d6", "2d6"},           {"3D6DL1", "3d6dl1"},       {"1d6! + 4", "d6!+4"},
        {"4d6kh3r1!", "4d6!r1kh3"}, {"-d4+3", "-d4+3"},        {"d20RO1", "d20ro1"},
        {"d6r<2", "d6r<2"},       {"d10 r > 8", "d10r>8"},    {"2d6-1", "2d6-1"},
        {"10", "10"},             {"0", "0"},                 {"2d6kl1+d4-1d8ro>7", "2d6kl1+d4-d8ro>7"},
        {"2D6 KH1 RS1", "2d6rs1kh1"}, {"3d6rs<2", "3d6rs<2"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cs_dice d = parse_ok(cases[i].in);
        char buf[64];
        cs_dice_format(&d, buf, (int)sizeof buf);
        cr_expect_str_eq(buf, cases[i].out, "format of \"%s\"", cases[i].in);
        /* The canonical text parses back to the same terms. */
        cs_dice e = parse_ok(buf);
        cr_expect_eq(memcmp(&d.term, &e.term, sizeof d.term[0] * (size_t)d.n_terms), 0,
                     "round trip of \"%s\"", cases[i].in);
    }
    /* Truncation keeps a terminated prefix. */
    cs_dice d = parse_ok("4d6kh3");
    char small[4];
    cs_dice_format(&d, small, 4);
    cr_expect_str_eq(small, "4d6");
}

Test(dice_parse, errors_name_column_and_expectation)
{
    static const struct {
        const char *text;
        cs_status status;
        int column;
        const char *fragment;
    } cases[] = {
        {"", CS_EINPUT, 1, "a dice expression"},
        {"   ", CS_EINPUT, 4, "a dice expression"},
        {"2d", CS_EINPUT, 3, "number of sides after 'd'"},
        {"d0", CS_EINPUT, 2, "sides of at least 1"},
        {"0d6", CS_EINPUT, 1, "dice count of at least 1"},
        {"2x6", CS_EINPUT, 2, "'d', '+', '-' or the end"},
        {"2d6x", CS_EINPUT, 4, "unknown modifier"},
        {"3d6kh4", CS_EINPUT, 6, "keep count larger than the dice count"},
        {"3d6kh0", CS_EINPUT, 6, "keep count of at least 1"},
        {"3d6dl3", CS_EINPUT, 6, "drop count smaller than the dice count"},
        {"3d6dh0", CS_EINPUT, 6, "drop count of at least 1"},
        {"3d6k1", CS_EINPUT, 5, "'h' or 'l' after 'k'"},
        {"3d6d1", CS_EINPUT, 5, "'h' or 'l' after 'd'"},
        {"3d6kh", CS_EINPUT, 6, "a count after kh"},
        {"3d6kh1dl1", CS_EINPUT, 7, "one keep/drop modifier"},
        {"d6r<6", CS_EINPUT, 3, "re-roll would match every face"},
        {"d6r>1", CS_EINPUT, 3, "re-roll would match every face"},
        {"d1r1", CS_EINPUT, 3, "re-roll would match every face"},
        {"d6r1r2", CS_EINPUT, 5, "one re-roll modifier"},
        {"d6r", CS_EINPUT, 4, "after 'r'"},
        {"d6ro", CS_EINPUT, 5, "after 'ro'"},
        {"d6rs", CS_EINPUT, 5, "after 'rs'"},
        {"d6rs1!", CS_EINPUT, 6, "'rs' does not combine with '!'"},
        {"d6!rs1", CS_EINPUT, 4, "'rs' does not combine with '!'"},
        {"d6ro1rs1", CS_EINPUT, 6, "one re-roll modifier"},
        {"d6r<", CS_EINPUT, 5, "a number after '<'"},
        {"d6!!", CS_EINPUT, 4, "one '!'"},
        {"2d6++1", CS_EINPUT, 5, "a number or a die after '+' or '-'"},
        {"2d6+", CS_EINPUT, 5, "a number or a die after '+' or '-'"},
        {"-", CS_EINPUT, 2, "a number or a die after '-'"},
        {"+3", CS_EINPUT, 1, "a number or a die"},
        {"1 0", CS_EINPUT, 3, "'d', '+', '-' or the end"},
        {"d6!>5", CS_EINPUT, 4, "unknown modifier"},
        {"101d6", CS_ELIMIT, 1, "at most 100 dice"},
        {"d1001", CS_ELIMIT, 2, "at most 1000 sides"},
        {"1+9999999", CS_ELIMIT, 3, "at most 1000000"},
        {"1+1+1+1+1+1+1+1+ 1", CS_ELIMIT, 18, "at most 8 terms"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cs_dice d;
        cs_diag diag;
        cs_status st = cs_dice_parse(cases[i].text, &d, &diag);
        cr_expect_eq(st, cases[i].status, "\"%s\": status %d", cases[i].text, st);
        cr_expect_eq(diag.column, cases[i].column, "\"%s\": column %d, expected %d", cases[i].text,
                     diag.column, cases[i].column);
        cr_expect(diag.what != NULL && strstr(diag.what, cases[i].fragment) != NULL,
                  "\"%s\": what \"%s\", expected \"%s\"", cases[i].text,
                  diag.what ? diag.what : "(null)", cases[i].fragment);
    }
}

/* ---- distribution helpers ----------------------------------------------- */

Test(dist, helpers)
{
    cs_dist d;
    exact_ok("2d6", &d);
    /* Exact ceiling: 8.0 and 7.5 both mean >= 8 (15/36); 8.0000001 means >= 9 (10/36). */
    cr_expect(fabs(cs_dist_p_at_least_real(&d, 8.0) - 15.0 / 36.0) <= EXACT_TOL);
    cr_expect(fabs(cs_dist_p_at_least_real(&d, 7.5) - 15.0 / 36.0) <= EXACT_TOL);
    cr_expect(fabs(cs_dist_p_at_least_real(&d, 7.9999999999) - 15.0 / 36.0) <= EXACT_TOL);
    cr_expect(fabs(cs_dist_p_at_least_real(&d, 8.0000001) - 10.0 / 36.0) <= EXACT_TOL);
    cr_expect_eq(cs_dist_p_at_least_real(&d, -1e300), 1.0);
    cr_expect_eq(cs_dist_p_at_least_real(&d, -INFINITY), 1.0);
    cr_expect_eq(cs_dist_p_at_least_real(&d, 12.5), 0.0);
    cr_expect_eq(cs_dist_p_at_least_real(&d, INFINITY), 0.0);
    cr_expect_eq(cs_dist_p_at_least_real(&d, NAN), 0.0);
    cr_expect_eq(cs_dist_p_at_least(&d, 2), 1.0);
    cr_expect_eq(cs_dist_p_at_least(&d, 13), 0.0);
    cr_expect_eq(cs_dist_p_at_most(&d, 12), 1.0);
    cr_expect_eq(cs_dist_p_at_most(&d, 1), 0.0);
    cr_expect_eq(cs_dist_p_eq(&d, 1), 0.0);
    /* shift: 2d6 + 3 */
    cs_dist_shift(&d, 3);
    cr_expect_eq(d.lo, 5);
    cr_expect(fabs(cs_dist_p_eq(&d, 10) - 6.0 / 36.0) <= EXACT_TOL);
    /* point + convolve, in place: 4 + d6 is uniform 5..10. */
    cs_dist a, six;
    cs_dist_point(&a, 4);
    exact_ok("d6", &six);
    cr_assert_eq(cs_dist_convolve(&a, &six, &a), CS_OK);
    cr_expect_eq(a.lo, 5);
    cr_expect_eq(a.hi, 10);
    cr_expect(fabs(cs_dist_p_eq(&a, 7) - 1.0 / 6.0) <= EXACT_TOL);
    cr_expect(fabs(cs_dist_mean(&a) - 7.5) <= EXACT_TOL);
    /* too wide: 3d1000 (2998 wide) + itself. */
    cs_dist w;
    exact_ok("3d1000", &w);
    cs_dist before = a;
    cr_expect_eq(cs_dist_convolve(&w, &w, &a), CS_ELIMIT);
    cr_expect_eq(a.lo, before.lo);
    cr_expect_eq(a.hi, before.hi);
}
