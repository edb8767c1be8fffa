/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Issue 15.4 for t9a, sovl and sovl_dice: decimal distances are exact.
 *
 * Property tests over random parameter sets whose lengths are decimals with
 * 1 or 2 places, written as text and read as an experiment file reads them
 * (strtod), so 8.3 is the binary double nearest 8.3, never 8.3 itself. For
 * each set:
 *   - the exact path (outcome_probabilities) is compared, outcome by
 *     outcome, with a reference computed here in rational arithmetic: every
 *     length in integer hundredths of an inch, every dice law as integer
 *     counts of equally likely rolls, so no comparison in the reference can
 *     be flipped by rounding (layouts with a closed form only: head-on, where
 *     the gap is the distance, and sovl's offset layout, where the range line
 *     is sqrt(offset^2 + distance^2) and is compared squared, in integers);
 *   - the sampled path (resolve) is compared with the exact one: each
 *     outcome's share within 5 binomial standard errors at a fixed seed
 *     (an exact 0 or 1 therefore demands that every trial agrees), and the
 *     success count pooled over all sets within 5 standard errors.
 * At least 1,000 sets per ruleset. Gaps of 0 are drawn too: they are base
 * contact (issue 15.2), `illegal` in both rulesets. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/registry.h"
#include "chargesim/sovl.h"
#include "support/helpers.h"

#define N_SETS 1000

/* ---- parameters as text ------------------------------------------------ */

static void set_text(const cs_ruleset *rs, cs_params *p, const char *key, const char *text)
{
    int i = cs_ruleset_param_index(rs, key);
    cr_assert(i >= 0, "%s has no parameter %s", rs->name, key);
    p->num[i] = th_param_value(&rs->params[i], text);
}

static void set_int(const cs_ruleset *rs, cs_params *p, const char *key, long v)
{
    char text[32];
    snprintf(text, sizeof text, "%ld", v);
    set_text(rs, p, key, text);
}

/* A decimal of `places` (1 or 2) places, h hundredths of an inch, as the
 * user would type it ("8.3", "-0.07"). */
static void format_decimal(long h, int places, char *text, size_t size)
{
    long a = labs(h);
    if (places == 1)
        snprintf(text, size, "%s%ld.%ld", h < 0 ? "-" : "", a / 100, (a % 100) / 10);
    else
        snprintf(text, size, "%s%ld.%02ld", h < 0 ? "-" : "", a / 100, a % 100);
}

static void set_decimal(const cs_ruleset *rs, cs_params *p, const char *key, long h, int places)
{
    char text[32];
    format_decimal(h, places, text, sizeof text);
    set_text(rs, p, key, text);
}

static long pick(cs_rng *rng, long lo, long hi)
{
    return lo + (long)cs_rng_bounded(rng, (uint32_t)(hi - lo + 1));
}

/* A random decimal in hundredths within [lo, hi] (multiples of 10), with 1
 * or 2 places; *places says which. */
static long decimal(cs_rng *rng, long lo, long hi, int *places)
{
    *places = (int)pick(rng, 1, 2);
    long step = *places == 1 ? 10 : 1;
    return step * pick(rng, lo / step, hi / step);
}

/* ---- one parameter set through the ruleset ---------------------------- */

typedef struct bench {
    const cs_ruleset *rs;
    void *ctx, *layout;
    cs_probs pr;
} bench;

/* Pooled over the sets of one ruleset, per outcome: count minus its exact
 * expectation, and the variance of that difference. */
typedef struct pool {
    double dev[CS_MAX_OUTCOMES], var[CS_MAX_OUTCOMES];
} pool;

static void bench_open(bench *b, const cs_ruleset *rs, const cs_params *p, const char *what)
{
    cs_diag diag = {0};
    cs_rng rng;
    b->rs = rs;
    b->ctx = calloc(1, rs->ctx_size);
    b->layout = calloc(1, rs->layout_size);
    cr_assert(b->ctx && b->layout);
    cr_assert_eq(rs->prepare(p, b->ctx, &diag), CS_OK, "%s: prepare: %s %s", what,
                 diag.key ? diag.key : "", diag.what ? diag.what : "");
    cs_rng_seed(&rng, 1u, 1u);
    rs->draw_layout(b->ctx, p->num, &rng, b->layout);
    memset(&b->pr, 0, sizeof b->pr);
    rs->outcome_probabilities(b->ctx, b->layout, &b->pr);
}

static void bench_close(bench *b)
{
    free(b->ctx);
    free(b->layout);
}

/* The exact path against the rational reference, every outcome. */
static void expect_reference(const bench *b, const double *ref, const char *what)
{
    for (int o = 0; o < b->rs->n_outcomes; o++)
        cr_assert_leq(fabs(b->pr.p[o] - ref[o]), 1e-12, "%s: P(%s) exact %.15f, reference %.15f",
                      what, b->rs->outcomes[o], b->pr.p[o], ref[o]);
}

/* n sampled trials against the exact path. An outcome of exact probability
 * 0 or 1 must come out in none or all of the trials (the sampled path takes
 * the same reach decisions); any other within 5 standard errors when the
 * normal approximation holds for this one set (n q (1 - q) >= 10), and in
 * every case its deviation goes into the pool, where it always holds. */
static void expect_sampled(const bench *b, int n, cs_rng *rng, pool *pl, const char *what)
{
    int count[CS_MAX_OUTCOMES] = {0};
    for (int t = 0; t < n; t++) {
        cs_trial tr;
        b->rs->resolve(b->ctx, b->layout, rng, &tr);
        cr_assert(tr.outcome >= 0 && tr.outcome < b->rs->n_outcomes);
        count[tr.outcome]++;
    }
    for (int o = 0; o < b->rs->n_outcomes; o++) {
        double q = fmin(fmax(b->pr.p[o], 0.0), 1.0), v = n * q * (1.0 - q);
        if (q < 1e-12 || q > 1.0 - 1e-12)
            cr_assert_eq(count[o], q < 0.5 ? 0 : n, "%s: P(%s) = %.0f exactly, sampled %d of %d",
                         what, b->rs->outcomes[o], q, count[o], n);
        else if (v >= 10.0)
            cr_assert_leq(fabs(count[o] - n * q), 5.0 * sqrt(v),
                          "%s: P(%s) sampled %d of %d, exact %.5f, 5 SE = %.1f trials", what,
                          b->rs->outcomes[o], count[o], n, q, 5.0 * sqrt(v));
        pl->dev[o] += count[o] - n * q;
        pl->var[o] += v;
    }
}

static void expect_pool(const cs_ruleset *rs, const pool *pl, const char *name)
{
    for (int o = 0; o < rs->n_outcomes; o++)
        cr_expect_leq(fabs(pl->dev[o]), 5.0 * sqrt(pl->var[o]) + 1e-6,
                      "%s: %s pooled over the sets off by %.1f trials, 5 SE = %.1f", name,
                      rs->outcomes[o], pl->dev[o], 5.0 * sqrt(pl->var[o]));
}

static void set_outcome(const cs_ruleset *rs, double *ref, const char *name, double q)
{
    int o = cs_ruleset_outcome_index(rs, name);
    cr_assert(o >= 0, "%s has no outcome %s", rs->name, name);
    ref[o] = q;
}

/* Ways to roll each total with n D6 (n <= 4), as integers: w[s], s = 0..6n. */
static void nd6_ways(int n, long *w)
{
    memset(w, 0, sizeof(long) * (size_t)(6 * n + 1));
    w[0] = 1;
    for (int k = 1; k <= n; k++)
        for (int s = 6 * k; s >= 0; s--) {
            long acc = 0;
            for (int f = 1; f <= 6 && f <= s; f++)
                acc += w[s - f];
            w[s] = acc;
        }
}

static long ipow(long b, int e)
{
    long r = 1;
    while (e-- > 0)
        r *= b;
    return r;
}

/* ---- t9a ---------------------------------------------------------------- */

/* The Charge Range law of t9a as integer counts over the 6^m equally likely
 * rolls: `keep` D6 kept of keep + extra rolled, the highest when high. */
static long t9a_range_ways(int keep, int extra, int high, long *ways)
{
    int m = keep + extra;
    long total = ipow(6, m);
    memset(ways, 0, sizeof(long) * 13);
    for (long code = 0; code < total; code++) {
        int face[5];
        long x = code;
        for (int i = 0; i < m; i++, x /= 6)
            face[i] = (int)(x % 6) + 1;
        for (int i = 1; i < m; i++) /* descending */
            for (int j = i; j > 0 && face[j - 1] < face[j]; j--) {
                int t = face[j];
                face[j] = face[j - 1];
                face[j - 1] = t;
            }
        int sum = 0;
        for (int i = 0; i < keep; i++)
            sum += face[high ? i : m - 1 - i];
        ways[sum]++;
    }
    return total;
}

/* Head-on at gap D (hundredths), target offset |O| <= 2.5" (half its 5"
 * frontage): the closest points are the front edges, D apart, the charger's
 * front-edge centre lies in the target's front arc and sight and room are
 * clear, so the reference needs the dice only. */
Test(decimal, t9a_exact_and_sampled_against_hundredths)
{
    const cs_ruleset *rs = &cs_rules_t9a;
    cs_rng gen, dice;
    pool pl = {{0}, {0}};
    cs_rng_seed(&gen, 1501u, 4u);
    cs_rng_seed(&dice, 1502u, 4u);
    for (int k = 0; k < N_SETS + 200; k++) {
        cs_params p;
        th_defaults(rs, &p);
        int ed2 = (int)pick(&gen, 0, 1), flee = pick(&gen, 0, 3) == 0;
        int mx = (int)pick(&gen, 0, 2), mn = (int)pick(&gen, 0, 2);
        long constant = ed2 ? pick(&gen, 0, 8) : 4 + pick(&gen, 0, 3);
        int keep = ed2 ? 2 : 1;
        long max_range = 6 * keep + constant;
        int dp, op;
        long D = pick(&gen, 0, 49) == 0 ? 0 : decimal(&gen, 0, 100 * max_range + 400, &dp);
        long O = decimal(&gen, -250, 250, &op);
        if (D == 0)
            dp = 1;
        set_text(rs, &p, "edition", ed2 ? "2" : "3");
        set_int(rs, &p, ed2 ? "advance_rate" : "charge_speed", ed2 ? constant : constant - 4);
        set_int(rs, &p, "maximised", mx);
        set_int(rs, &p, "minimised", mn);
        set_text(rs, &p, "reaction", flee ? "flee" : "hold");
        set_decimal(rs, &p, "distance", D, dp);
        set_decimal(rs, &p, "offset", O, op);
        char what[160], dt[32], ot[32];
        format_decimal(D, dp, dt, sizeof dt);
        format_decimal(O, op, ot, sizeof ot);
        snprintf(what, sizeof what, "set %d: edition %d, +%ld, max %d min %d, %s, distance %s, "
                 "offset %s", k, ed2 ? 2 : 3, constant, mx, mn, flee ? "flee" : "hold", dt, ot);

        /* Reference: gap 0 is base contact (Engaged in Combat) and beyond
         * the maximum range nothing can be declared: illegal. Else range r
         * reaches the gap iff 100 r >= D, and catches a unit fleeing f
         * inches iff 100 r >= D + 100 f. */
        double ref[CS_MAX_OUTCOMES] = {0};
        long ways[13], flee_ways[13];
        long total = t9a_range_ways(keep, abs(mx - mn), mx >= mn, ways);
        nd6_ways(2, flee_ways);
        if (D == 0 || 100 * max_range < D) {
            set_outcome(rs, ref, "illegal", 1.0);
        } else {
            long hit = 0, miss = 0;
            for (int s = 0; s <= 12; s++) {
                long r = s + constant;
                if (!flee) {
                    *(100 * r >= D ? &hit : &miss) += 36 * ways[s];
                    continue;
                }
                for (int f = 2; f <= 12; f++)
                    *(100 * r >= D + 100 * f ? &hit : &miss) += ways[s] * flee_ways[f];
            }
            cr_assert_eq(hit + miss, 36 * total);
            set_outcome(rs, ref, flee ? "caught" : "charged", (double)hit / (double)(36 * total));
            set_outcome(rs, ref, flee ? "fled" : "failed", (double)miss / (double)(36 * total));
        }
        bench b;
        bench_open(&b, rs, &p, what);
        expect_reference(&b, ref, what);
        expect_sampled(&b, 1000, &dice, &pl, what);
        bench_close(&b);
    }
    expect_pool(rs, &pl, "t9a");
}

/* ---- sovl --------------------------------------------------------------- */

static const int sovl_move[CS_SOVL_N_TYPES] = {8, 8, 16, 12, 12, 16, 0, 8, 12, 8};

/* Head-on, no offset: a1 (one model wide, so wholly inside b1's front arc)
 * charges b1 (five wide) from D hundredths; b1 flees when it may, else
 * counter charges when a1 is within its move; the outcome of a1's charge is
 * reported (focus = a1). Moves are whole inches (type + move_mod). */
Test(decimal, sovl_flee_and_counter_against_hundredths)
{
    const cs_ruleset *rs = &cs_rules_sovl;
    cs_rng gen, dice;
    pool pl = {{0}, {0}};
    cs_rng_seed(&gen, 1511u, 4u);
    cs_rng_seed(&dice, 1512u, 4u);
    for (int k = 0; k < N_SETS; k++) {
        cs_params p;
        th_defaults(rs, &p);
        int ta = (int)pick(&gen, 0, CS_SOVL_N_TYPES - 1), tb = (int)pick(&gen, 0, CS_SOVL_N_TYPES - 1);
        long ma = pick(&gen, -2, 2), mb = pick(&gen, -2, 2);
        long cm = sovl_move[ta] + ma, tm = sovl_move[tb] + mb;
        cm = cm > 0 ? cm : 0;
        tm = tm > 0 ? tm : 0;
        int n = sovl_move[tb] / 4, dp;
        long D = pick(&gen, 0, 49) == 0 ? 0 : decimal(&gen, 0, 100 * cm + 400, &dp);
        if (D == 0)
            dp = 1;
        set_text(rs, &p, "a1_type", cs_sovl_type_keys[ta]);
        set_text(rs, &p, "b1_type", cs_sovl_type_keys[tb]);
        set_int(rs, &p, "a1_move_mod", ma);
        set_int(rs, &p, "b1_move_mod", mb);
        set_int(rs, &p, "a1_frontage", 1);
        set_text(rs, &p, "flee_b", "true");
        set_text(rs, &p, "focus", "a1");
        set_decimal(rs, &p, "distance", D, dp);
        char what[160], dt[32];
        format_decimal(D, dp, dt, sizeof dt);
        snprintf(what, sizeof what, "set %d: %s (%ld\") on %s (%ld\", %dD6) from %s", k,
                 cs_sovl_type_keys[ta], cm, cs_sovl_type_keys[tb], tm, n, dt);

        /* Reference (SOVL Charge Phase): gap 0 is an Engagement, no valid
         * target; out of range (100 cm < D) no valid target either, and a1
         * never charges (illegal). Else b1 may flee iff tm > 0 and
         * tm > cm - d, i.e. 100 cm < D + 100 tm; the chase is caught iff
         * 100 cm >= D + 100 s for the flight move s. Else b1 counter
         * charges iff 100 tm >= D; else a1's charge lands. */
        double ref[CS_MAX_OUTCOMES] = {0};
        long ways[25];
        nd6_ways(n, ways);
        bool random = false;
        if (D == 0 || 100 * cm < D) {
            set_outcome(rs, ref, "illegal", 1.0);
        } else if (tm > 0 && 100 * cm < D + 100 * tm) {
            long caught = 0, total = ipow(6, n);
            for (int s = 0; s <= 6 * n; s++)
                if (100 * cm >= D + 100 * s)
                    caught += ways[s];
            set_outcome(rs, ref, "caught", (double)caught / (double)total);
            set_outcome(rs, ref, "fled", (double)(total - caught) / (double)total);
            random = caught > 0 && caught < total;
        } else if (100 * tm >= D) {
            set_outcome(rs, ref, "counter_charged", 1.0);
        } else {
            set_outcome(rs, ref, "charged", 1.0);
        }
        bench b;
        bench_open(&b, rs, &p, what);
        expect_reference(&b, ref, what);
        /* A phase given its placement is deterministic but for the flight
         * dice: a few trials must all agree where P is 0 or 1. */
        expect_sampled(&b, random ? 200 : 4, &dice, &pl, what);
        bench_close(&b);
    }
    expect_pool(rs, &pl, "sovl");
}

/* b1 slid sideways by |O| <= D: the range line runs from a1's front-edge
 * centre (0, 0) to b1's front-edge centre (o, d), so a1 (same type and
 * frontage) is wholly in b1's front arc and b1's front centre in a1's
 * 90-degree sight. In range iff (100 cm)^2 >= O^2 + D^2, in integers. */
Test(decimal, sovl_offset_range_against_hundredths)
{
    const cs_ruleset *rs = &cs_rules_sovl;
    cs_rng gen, dice;
    pool pl = {{0}, {0}};
    cs_rng_seed(&gen, 1521u, 4u);
    cs_rng_seed(&dice, 1522u, 4u);
    for (int k = 0; k < N_SETS; k++) {
        cs_params p;
        th_defaults(rs, &p);
        int t = (int)pick(&gen, 0, CS_SOVL_N_TYPES - 1);
        long ma = pick(&gen, -2, 2), cm = sovl_move[t] + ma;
        cm = cm > 0 ? cm : 0;
        int dp, op;
        long D = pick(&gen, 0, 49) == 0 ? 0 : decimal(&gen, 0, 100 * cm + 300, &dp);
        long O = decimal(&gen, -D / 10 * 10, D / 10 * 10, &op);
        if (D == 0)
            dp = 1;
        set_text(rs, &p, "a1_type", cs_sovl_type_keys[t]);
        set_text(rs, &p, "b1_type", cs_sovl_type_keys[t]);
        set_int(rs, &p, "a1_move_mod", ma);
        set_text(rs, &p, "policy_b", "pass");
        set_decimal(rs, &p, "distance", D, dp);
        set_decimal(rs, &p, "offset", O, op);
        char what[160], dt[32], ot[32];
        format_decimal(D, dp, dt, sizeof dt);
        format_decimal(O, op, ot, sizeof ot);
        snprintf(what, sizeof what, "set %d: %s (%ld\"), distance %s, offset %s", k,
                 cs_sovl_type_keys[t], cm, dt, ot);

        double ref[CS_MAX_OUTCOMES] = {0};
        long long r2 = (long long)(100 * cm) * (100 * cm);
        long long d2 = (long long)O * O + (long long)D * D;
        set_outcome(rs, ref, D > 0 && r2 >= d2 ? "charged" : "illegal", 1.0);
        bench b;
        bench_open(&b, rs, &p, what);
        expect_reference(&b, ref, what);
        expect_sampled(&b, 4, &dice, &pl, what);
        bench_close(&b);
    }
    expect_pool(rs, &pl, "sovl offset");
}

/* ---- sovl_dice ------------------------------------------------------------ */

/* Flight moves: off the table iff 100 s >= E for the nD6 total s. */
Test(decimal, sovl_dice_flight_against_hundredths)
{
    const cs_ruleset *rs = &cs_rules_sovl_dice;
    cs_rng gen, dice;
    pool pl = {{0}, {0}};
    cs_rng_seed(&gen, 1531u, 4u);
    cs_rng_seed(&dice, 1532u, 4u);
    for (int k = 0; k < N_SETS; k++) {
        cs_params p;
        th_defaults(rs, &p);
        int t = (int)pick(&gen, 0, CS_SOVL_N_TYPES - 1), n = sovl_move[t] / 4, ep;
        long E = decimal(&gen, 0, 2600, &ep);
        set_text(rs, &p, "test", "flight");
        set_text(rs, &p, "type", cs_sovl_type_keys[t]);
        set_decimal(rs, &p, "edge_distance", E, ep);
        char what[120], et[32];
        format_decimal(E, ep, et, sizeof et);
        snprintf(what, sizeof what, "set %d: %s (%dD6), edge %s", k, cs_sovl_type_keys[t], n, et);

        double ref[CS_MAX_OUTCOMES] = {0};
        long ways[25], off = 0, total = ipow(6, n);
        nd6_ways(n, ways);
        for (int s = 0; s <= 6 * n; s++)
            if (100L * s >= E)
                off += ways[s];
        set_outcome(rs, ref, "off_table", (double)off / (double)total);
        set_outcome(rs, ref, "on_table", (double)(total - off) / (double)total);
        bench b;
        bench_open(&b, rs, &p, what);
        expect_reference(&b, ref, what);
        expect_sampled(&b, 400, &dice, &pl, what);
        bench_close(&b);
    }
    expect_pool(rs, &pl, "sovl_dice flight");
}

/* Ranged attacks: out of range iff T > 100 R, long range iff 2 T > 100 R;
 * then each model independently hits (h of 6 faces) and the hit fails its
 * save (f of 6 faces): P(no casualties) = ((36 - h f) / 36)^models. */
Test(decimal, sovl_dice_ranged_against_hundredths)
{
    static const int range[CS_SOVL_N_WEAPONS] = {30, 20, 30, 24, 20, 8};
    static const int power[CS_SOVL_N_WEAPONS] = {3, 3, 3, 4, 2, 3};
    const cs_ruleset *rs = &cs_rules_sovl_dice;
    cs_rng gen, dice;
    pool pl = {{0}, {0}};
    cs_rng_seed(&gen, 1541u, 4u);
    cs_rng_seed(&dice, 1542u, 4u);
    for (int k = 0; k < N_SETS; k++) {
        cs_params p;
        th_defaults(rs, &p);
        int w = (int)pick(&gen, 0, CS_SOVL_N_WEAPONS - 1), tp;
        int skill = (int)pick(&gen, 0, 6), defense = (int)pick(&gen, 0, 6);
        int models = (int)pick(&gen, 1, 20), natural = (int)pick(&gen, 0, 1);
        long R = range[w], T = decimal(&gen, 0, 100 * R + 500, &tp);
        set_text(rs, &p, "test", "ranged");
        set_text(rs, &p, "weapon", cs_sovl_weapon_keys[w]);
        set_int(rs, &p, "skill", skill);
        set_int(rs, &p, "defense", defense);
        set_int(rs, &p, "models", models);
        set_text(rs, &p, "natural_rolls", natural ? "true" : "false");
        set_decimal(rs, &p, "target_distance", T, tp);
        char what[160], tt[32];
        format_decimal(T, tp, tt, sizeof tt);
        snprintf(what, sizeof what, "set %d: %d %s (%ld\"), skill %d, defense %d, natural %d, at %s",
                 k, models, cs_sovl_weapon_keys[w], R, skill, defense, natural, tt);

        double ref[CS_MAX_OUTCOMES] = {0};
        if (T > 100 * R) {
            set_outcome(rs, ref, "out_of_range", 1.0);
        } else {
            int needed = 4 - (skill - 3) + (2 * T > 100 * R ? 1 : 0);
            int lo = natural ? 2 : 1, hi = natural ? 6 : 7;
            needed = needed < lo ? lo : needed > hi ? hi : needed;
            int diff = power[w] - defense;
            int save = diff > 2 ? 6 : diff > 0 ? 5 : diff == 0 ? 4 : diff >= -2 ? 3 : 2;
            long h = 7 - needed, f = save - 1;
            double none = pow((double)(36 - h * f) / 36.0, models);
            set_outcome(rs, ref, "no_casualties", none);
            set_outcome(rs, ref, "casualties", 1.0 - none);
        }
        bench b;
        bench_open(&b, rs, &p, what);
        expect_reference(&b, ref, what);
        expect_sampled(&b, 400, &dice, &pl, what);
        bench_close(&b);
    }
    expect_pool(rs, &pl, "sovl_dice ranged");
}
