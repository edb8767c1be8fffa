/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Property tests of issue 15.4 for coreheim and asoiaf: decimal distances
 * are exact.
 *
 * Each test draws 1,200 parameter sets with one or two decimal places
 * (distances, heights, tray sizes), written as text and read the way an
 * experiment file reads them. For each set:
 *   - a reference written here in rational arithmetic (every length in whole
 *     hundredths of an inch, every probability a product of small fractions)
 *     gives every outcome's probability, and the ruleset's exact path
 *     (outcome_probabilities) must agree to 1e-12;
 *   - the sampled path (resolve) at a fixed seed must agree with the exact
 *     one within 5 binomial standard errors per outcome, where the normal
 *     approximation holds (n p (1 - p) >= 9), exactly where p is 0 or 1,
 *     and over all sets together.
 * The sets lean on the boundaries: about half put a sum of decimals exactly
 * on a whole range (distance + climb = M, distance = speed + roll) or a
 * hundredth or a tenth either side, where binary floating point used to
 * flip the answer. Only layouts with a closed form are drawn: coreheim
 * without interceptors and with perfect judgement, asoiaf head-on with no
 * other unit or terrain. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/registry.h"
#include "support/helpers.h"

#define N_SETS 1200
#define N_TRIALS 2000

/* ---- shared helpers -------------------------------------------------------- */

static int param_index(const cs_ruleset *rs, const char *key)
{
    int i = cs_ruleset_param_index(rs, key);
    cr_assert_geq(i, 0, "no parameter %s", key);
    return i;
}

static void set_text(const cs_ruleset *rs, cs_params *p, const char *key, const char *text)
{
    int i = param_index(rs, key);
    p->num[i] = th_param_value(&rs->params[i], text);
}

static void set_int(const cs_ruleset *rs, cs_params *p, const char *key, long v)
{
    char buf[32];
    snprintf(buf, sizeof buf, "%ld", v);
    set_text(rs, p, key, buf);
}

/* A length of h hundredths written as a user writes it: "8.3" (one decimal
 * place) or "8.35" (two). */
static void set_hundredths(const cs_ruleset *rs, cs_params *p, const char *key, long h)
{
    cr_assert_geq(h, 0);
    char buf[32];
    if (h % 10 == 0)
        snprintf(buf, sizeof buf, "%ld.%ld", h / 100, (h % 100) / 10);
    else
        snprintf(buf, sizeof buf, "%ld.%02ld", h / 100, h % 100);
    set_text(rs, p, key, buf);
}

static long uniform_int(cs_rng *rng, long lo, long hi)
{
    return lo + (long)cs_rng_bounded(rng, (uint32_t)(hi - lo + 1));
}

/* A random length in [lo, hi] hundredths on the set's grid: whole tenths
 * (step 10) for one decimal place, hundredths (step 1) for two. */
static long uniform_len(cs_rng *rng, long lo, long hi, long step)
{
    return step * uniform_int(rng, (lo + step - 1) / step, hi / step);
}

/* A length at `at` hundredths or one grid step either side, or random. */
static long near_or_random(cs_rng *rng, long at, long lo, long hi, long step)
{
    static const long shift[] = {-1, 0, 0, 1};
    if (cs_rng_bounded(rng, 2) == 0) {
        long v = at + step * shift[cs_rng_bounded(rng, 4)];
        if (v >= lo && v <= hi)
            return v;
    }
    return uniform_len(rng, lo, hi, step);
}

/* The ruleset's context and layout for one set, prepared and drawn. */
typedef struct prepared {
    void *ctx;
    void *layout;
} prepared;

static prepared prepare_set(const cs_ruleset *rs, const cs_params *p)
{
    prepared s = {calloc(1, rs->ctx_size), calloc(1, rs->layout_size)};
    cr_assert(s.ctx && s.layout);
    cs_diag diag = {0, NULL, NULL};
    cr_assert_eq(rs->prepare(p, s.ctx, &diag), CS_OK, "prepare: %s %s",
                 diag.key ? diag.key : "", diag.what ? diag.what : "");
    cr_assert(rs->layout_is_random == NULL || !rs->layout_is_random(s.ctx));
    cs_rng rng;
    cs_rng_seed(&rng, 1u, 1u);
    rs->draw_layout(s.ctx, p->num, &rng, s.layout);
    return s;
}

/* Sums over every set of one ruleset, for the pooled 5-sigma check. */
typedef struct pooled {
    double dev[CS_MAX_OUTCOMES]; /* sum of (count - n p) */
    double var[CS_MAX_OUTCOMES]; /* sum of n p (1 - p) */
} pooled;

/* Compares the exact path with the reference, then samples N_TRIALS trials
 * of the same layout and compares them with the exact path. */
static void check_set(const cs_ruleset *rs, const cs_params *p, const double *ref, int set,
                      pooled *pool, const char *what)
{
    prepared s = prepare_set(rs, p);
    cs_probs probs;
    memset(&probs, 0, sizeof probs);
    rs->outcome_probabilities(s.ctx, s.layout, &probs);
    for (int o = 0; o < rs->n_outcomes; o++)
        cr_assert_float_eq(probs.p[o], ref[o], 1e-12,
                           "set %d (%s): p(%s) exact %.15g, reference %.15g", set, what,
                           rs->outcomes[o], probs.p[o], ref[o]);

    cs_rng rng;
    cs_rng_seed(&rng, 1000u + (uint64_t)set, 3u);
    long count[CS_MAX_OUTCOMES] = {0};
    for (int t = 0; t < N_TRIALS; t++) {
        cs_trial trial;
        rs->resolve(s.ctx, s.layout, &rng, &trial);
        cr_assert(trial.outcome >= 0 && trial.outcome < rs->n_outcomes);
        count[trial.outcome]++;
    }
    for (int o = 0; o < rs->n_outcomes; o++) {
        double pe = probs.p[o], n = (double)N_TRIALS;
        double var = n * pe * (1.0 - pe);
        if (pe == 0.0 || pe == 1.0)
            cr_assert_eq((double)count[o], n * pe,
                         "set %d (%s): %s sampled %ld times, exact p %g", set, what,
                         rs->outcomes[o], count[o], pe);
        else if (var >= 9.0)
            cr_assert_leq(fabs((double)count[o] - n * pe), 5.0 * sqrt(var),
                          "set %d (%s): %s sampled %ld of %d, exact p %.6f", set, what,
                          rs->outcomes[o], count[o], N_TRIALS, pe);
        pool->dev[o] += (double)count[o] - n * pe;
        pool->var[o] += var;
    }
    free(s.ctx);
    free(s.layout);
}

static void check_pooled(const cs_ruleset *rs, const pooled *pool)
{
    for (int o = 0; o < rs->n_outcomes; o++)
        cr_expect_leq(fabs(pool->dev[o]), 5.0 * sqrt(pool->var[o]),
                      "%s: pooled deviation %.1f, 5 sigma %.1f", rs->outcomes[o], pool->dev[o],
                      5.0 * sqrt(pool->var[o]));
}

/* ---- coreheim ---------------------------------------------------------------- */

/* One coreheim set, every length in hundredths. */
typedef struct ch_set {
    long move, mult, initiative;
    bool d6_under, visible, climb_down;
    long distance, climb, climb_at, jump, land_gap;
} ch_set;

/* Passing faces of one Initiative test over the die's sides (1.1; the
 * classic D6 test fails on a 6 and at 0, WFB 7th ed. Characteristic Tests). */
static double ch_pass(const ch_set *c)
{
    long faces = 0;
    if (c->d6_under) {
        for (long r = 1; r <= 6; r++)
            faces += c->initiative > 0 && r != 6 && r <= c->initiative;
        return (double)faces / 6.0;
    }
    for (long r = 1; r <= 12; r++)
        faces += r == 12 || (r != 1 && r >= c->initiative);
    return (double)faces / 12.0;
}

enum { CH_CHARGED, CH_DIVING, CH_INTERCEPTED, CH_FAILED, CH_FAILED_TEST, CH_FELL, CH_DECLINED,
       CH_ILLEGAL, CH_N };

/* The reference: docs/rules/coreheim.md in whole hundredths. Tests come in route
 * order (out of sight at the start, then the climb and the jump by where
 * they stand, the climb first on a tie); each failure ends the charge. */
static void ch_reference(const ch_set *c, const char *const *names, double *out)
{
    static const char *const want[CH_N] = {"charged", "diving", "intercepted", "failed",
                                          "failed_test", "fell", "declined", "illegal"};
    for (int o = 0; o < CH_N; o++) {
        cr_assert_str_eq(names[o], want[o]);
        out[o] = 0.0;
    }
    if (c->climb > 600) { /* 1.4: climbing over 6" */
        out[CH_ILLEGAL] = 1.0;
        return;
    }
    if (c->distance + c->climb > 100 * c->move * c->mult) { /* perfect judgement */
        out[CH_DECLINED] = 1.0;
        return;
    }
    double p = ch_pass(c), reach = 1.0;
    if (!c->visible) {
        out[CH_FAILED_TEST] += 1.0 - p;
        reach *= p;
    }
    long x_climb = c->climb_at < c->distance ? c->climb_at : c->distance;
    long land = c->land_gap < c->distance ? c->land_gap : c->distance;
    long x_jump = c->distance - land;
    bool climb_first = c->climb > 0 && (c->jump == 0 || x_climb <= x_jump);
    for (int step = 0; step < 2; step++) {
        bool do_climb = (step == 0) == climb_first;
        if (do_climb && c->climb > 0) {
            int fail = c->climb_down && c->climb >= 200 ? CH_FELL : CH_FAILED_TEST;
            out[fail] += reach * (1.0 - p);
            reach *= p;
        } else if (!do_climb && c->jump > 0) {
            if (c->jump > 700) { /* 1.3: over 7" always falls */
                out[CH_FELL] += reach;
                return;
            }
            for (long t = 0; t < c->jump / 200; t++) { /* a test per full 2" */
                out[CH_FELL] += reach * (1.0 - p);
                reach *= p;
            }
        }
    }
    out[c->jump > 0 && land <= 200 ? CH_DIVING : CH_CHARGED] += reach;
}

static ch_set ch_draw(cs_rng *rng, long step)
{
    ch_set c;
    c.move = uniform_int(rng, 1, 10);
    c.mult = cs_rng_bounded(rng, 4) == 0 ? 2 : 1;
    c.d6_under = cs_rng_bounded(rng, 2) == 0;
    c.initiative = uniform_int(rng, 0, c.d6_under ? 7 : 13);
    c.visible = cs_rng_bounded(rng, 2) == 0;
    c.climb_down = cs_rng_bounded(rng, 2) == 0;
    long range = 100 * c.move * c.mult;
    /* Heights near their limits: a climb of 2" (a fall) or 6" (the most), a
     * jump of a full 2", 4", 6" or of 7" (the most). */
    static const long climb_at[] = {200, 600}, jump_at[] = {200, 400, 600, 700};
    long climb_mark = climb_at[cs_rng_bounded(rng, 2)];
    long jump_mark = jump_at[cs_rng_bounded(rng, 4)];
    c.climb = cs_rng_bounded(rng, 3) == 0 ? 0 : near_or_random(rng, climb_mark, 0, 700, step);
    c.jump = cs_rng_bounded(rng, 3) == 0 ? 0 : near_or_random(rng, jump_mark, 0, 800, step);
    /* Half the distances put distance + climb on the range or a step off. */
    long hi = range + 300 < 4800 ? range + 300 : 4800;
    c.distance = near_or_random(rng, range - c.climb, 0, hi, step);
    c.land_gap = near_or_random(rng, 200, 0, c.distance, step);
    long x_jump = c.distance - c.land_gap;
    c.climb_at = near_or_random(rng, x_jump, 0, c.distance, step);
    return c;
}

static void ch_params(const ch_set *c, cs_params *p)
{
    const cs_ruleset *rs = &cs_rules_coreheim;
    th_defaults(rs, p);
    set_int(rs, p, "move", c->move);
    set_int(rs, p, "charge_multiplier", c->mult);
    set_int(rs, p, "initiative", c->initiative);
    set_text(rs, p, "tests", c->d6_under ? "d6_under" : "d12_high");
    set_text(rs, p, "visible", c->visible ? "true" : "false");
    set_text(rs, p, "climb_direction", c->climb_down ? "down" : "up");
    set_hundredths(rs, p, "distance", c->distance);
    set_hundredths(rs, p, "climb", c->climb);
    set_hundredths(rs, p, "climb_at", c->climb_at);
    set_hundredths(rs, p, "jump", c->jump);
    set_hundredths(rs, p, "land_gap", c->land_gap);
}

Test(decimal, coreheim_exact_matches_rational_reference_and_sampling, .timeout = 60)
{
    const cs_ruleset *rs = &cs_rules_coreheim;
    cr_assert_eq(rs->n_outcomes, CH_N);
    cs_rng rng;
    cs_rng_seed(&rng, 15u, 4u);
    pooled pool;
    memset(&pool, 0, sizeof pool);
    int on_range = 0;
    for (int set = 0; set < N_SETS; set++) {
        long step = set % 2 == 0 ? 10 : 1; /* one decimal place, then two */
        ch_set c = ch_draw(&rng, step);
        on_range += c.distance + c.climb == 100 * c.move * c.mult;
        cs_params p;
        ch_params(&c, &p);
        double ref[CH_N];
        ch_reference(&c, rs->outcomes, ref);
        char what[160];
        snprintf(what, sizeof what,
                 "M%ld x%ld %s I%ld visible=%d distance=%ld climb=%ld%s at %ld jump=%ld "
                 "land_gap=%ld (hundredths)",
                 c.move, c.mult, c.d6_under ? "d6" : "d12", c.initiative, c.visible, c.distance,
                 c.climb, c.climb_down ? " down" : "", c.climb_at, c.jump, c.land_gap);
        check_set(rs, &p, ref, set, &pool, what);
    }
    check_pooled(rs, &pool);
    /* The boundary itself was drawn often enough to matter. */
    cr_expect_geq(on_range, N_SETS / 10, "%d sets on the range", on_range);
}

/* ---- asoiaf ------------------------------------------------------------------ */

enum { AS_CHARGED, AS_DISORDERED, AS_FAILED, AS_ILLEGAL, AS_N };

typedef struct as_set {
    long speed, distance;        /* distance in hundredths */
    long cw, cd, tw, td;         /* tray sizes in hundredths, cw <= tw */
    bool charger_engaged;
    long engaged_front;
} as_set;

/* The reference, head-on with nothing else on the table: the straight move
 * needs exactly `distance`; the charge may be declared when the charger is
 * not engaged (nor touching the target: distance 0), the front has room
 * (fewer than two engaged there) and speed + 6 reaches; then speed + roll
 * reaches on the rolls with 100 (speed + roll) >= distance, a natural 1
 * being disordered (docs/rules/asoiaf.md). A charger no wider than the target
 * lies wholly in its front arc, so the located side is the front. */
static void as_reference(const as_set *a, const char *const *names, double *out)
{
    static const char *const want[AS_N] = {"charged", "disordered", "failed", "illegal"};
    for (int o = 0; o < AS_N; o++) {
        cr_assert_str_eq(names[o], want[o]);
        out[o] = 0.0;
    }
    if (a->charger_engaged || a->distance == 0 || a->engaged_front >= 2 ||
        a->distance > 100 * (a->speed + 6)) {
        out[AS_ILLEGAL] = 1.0;
        return;
    }
    for (long roll = 1; roll <= 6; roll++) {
        bool reach = 100 * (a->speed + roll) >= a->distance;
        out[!reach ? AS_FAILED : roll == 1 ? AS_DISORDERED : AS_CHARGED] += 1.0 / 6.0;
    }
}

static as_set as_draw(cs_rng *rng, long step)
{
    as_set a;
    a.speed = uniform_int(rng, 0, 12);
    a.charger_engaged = cs_rng_bounded(rng, 20) == 0;
    a.engaged_front = cs_rng_bounded(rng, 10) == 0 ? 2 : (long)cs_rng_bounded(rng, 2);
    /* Half the gaps sit on speed + r (r = 1..7: 7 is past the legal limit)
     * or a step either side. */
    a.distance = near_or_random(rng, 100 * (a.speed + uniform_int(rng, 1, 7)), 0, 2000, step);
    a.tw = uniform_len(rng, 200, 1000, step);
    a.cw = uniform_len(rng, 100, a.tw, step);
    a.td = uniform_len(rng, 100, 600, step);
    a.cd = uniform_len(rng, 100, 600, step);
    return a;
}

static void as_params(const as_set *a, cs_params *p)
{
    const cs_ruleset *rs = &cs_rules_asoiaf;
    th_defaults(rs, p);
    set_int(rs, p, "speed", a->speed);
    set_text(rs, p, "charger_engaged", a->charger_engaged ? "true" : "false");
    set_int(rs, p, "engaged_front", a->engaged_front);
    set_hundredths(rs, p, "distance", a->distance);
    set_hundredths(rs, p, "charger_width", a->cw);
    set_hundredths(rs, p, "charger_depth", a->cd);
    set_hundredths(rs, p, "target_width", a->tw);
    set_hundredths(rs, p, "target_depth", a->td);
    /* One model per tray, so that any tray size is a whole formation. */
    set_hundredths(rs, p, "charger_base_width", a->cw);
    set_hundredths(rs, p, "charger_base_depth", a->cd);
    set_hundredths(rs, p, "target_base_width", a->tw);
    set_hundredths(rs, p, "target_base_depth", a->td);
}

Test(decimal, asoiaf_exact_matches_rational_reference_and_sampling, .timeout = 60)
{
    const cs_ruleset *rs = &cs_rules_asoiaf;
    cr_assert_eq(rs->n_outcomes, AS_N);
    cs_rng rng;
    cs_rng_seed(&rng, 15u, 5u);
    pooled pool;
    memset(&pool, 0, sizeof pool);
    int on_roll = 0;
    for (int set = 0; set < N_SETS; set++) {
        long step = set % 2 == 0 ? 10 : 1;
        as_set a = as_draw(&rng, step);
        on_roll += a.distance % 100 == 0;
        cs_params p;
        as_params(&a, &p);
        double ref[AS_N];
        as_reference(&a, rs->outcomes, ref);
        char what[160];
        snprintf(what, sizeof what,
                 "speed %ld distance=%ld charger %ldx%ld target %ldx%ld engaged=%d front=%ld "
                 "(hundredths)",
                 a.speed, a.distance, a.cw, a.cd, a.tw, a.td, a.charger_engaged,
                 a.engaged_front);
        check_set(rs, &p, ref, set, &pool, what);
    }
    check_pooled(rs, &pool);
    cr_expect_geq(on_roll, N_SETS / 10, "%d sets on a whole distance", on_roll);
}
