/* SPDX-License-Identifier: GPL-3.0-or-later */
/* resolve() and outcome_probabilities() agree in every branch of every
 * ruleset: for hand-picked layouts that reach each outcome (flee, caught,
 * fled, disordered, intercepted, diving, fell, declined, illegal, counter
 * charges...), every outcome's sampled frequency and every metric's sampled
 * distribution (or mean, where only the mean is exact) are compared with the
 * exact answer given the same layout, within 5 standard errors at a fixed
 * seed; and resolve_batch tallies exactly what n calls of resolve do. The
 * experiment test compares p_success only, so an outcome or a metric that
 * the two paths compute differently would pass it unseen. */
#include <criterion/criterion.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/registry.h"
#include "support/helpers.h"

#define MAXV 4096

typedef struct setup {
    const cs_ruleset *rs;
    cs_params p;
    void *ctx, *layout;
} setup;

/* The stream draw_layout uses (layouts with their own randomness). */
static uint64_t layout_seed = 1u;

/* Parameters from the table's defaults with "key=value" overrides, then
 * prepare and one draw_layout (stream layout_seed). */
static setup open_setup(const cs_ruleset *rs, const char *const *sets, int nsets)
{
    setup s;
    memset(&s, 0, sizeof s);
    s.rs = rs;
    for (int i = 0; i < rs->n_params; i++) {
        const cs_param_def *d = &rs->params[i];
        if (d->type == CS_PARAM_DICE || d->type == CS_PARAM_TEXT || d->type == CS_PARAM_POLYGON)
            s.p.text[i] = d->def;
        else
            s.p.num[i] = th_param_value(d, d->def);
    }
    for (int k = 0; k < nsets; k++) {
        const char *eq = strchr(sets[k], '=');
        cr_assert(eq, "bad setting %s", sets[k]);
        char key[64];
        size_t len = (size_t)(eq - sets[k]);
        cr_assert(len < sizeof key);
        memcpy(key, sets[k], len);
        key[len] = '\0';
        int i = cs_ruleset_param_index(rs, key);
        cr_assert(i >= 0, "%s: no parameter %s", rs->name, key);
        const cs_param_def *d = &rs->params[i];
        if (d->type == CS_PARAM_DICE || d->type == CS_PARAM_TEXT || d->type == CS_PARAM_POLYGON)
            s.p.text[i] = eq + 1;
        else
            s.p.num[i] = th_param_value(d, eq + 1);
    }
    s.ctx = calloc(1, rs->ctx_size);
    s.layout = calloc(1, rs->layout_size);
    cr_assert(s.ctx && s.layout);
    cs_diag diag;
    memset(&diag, 0, sizeof diag);
    cr_assert_eq(rs->prepare(&s.p, s.ctx, &diag), CS_OK, "%s prepare: %s %s", rs->name,
                 diag.key ? diag.key : "", diag.what ? diag.what : "");
    cs_rng rng;
    cs_rng_seed(&rng, layout_seed, 1u);
    rs->draw_layout(s.ctx, s.p.num, &rng, s.layout);
    return s;
}

static void close_setup(setup *s)
{
    free(s->ctx);
    free(s->layout);
}

static cs_probs exact_of(const setup *s)
{
    cs_probs pr;
    memset(&pr, 0, sizeof pr);
    for (int m = 0; m < s->rs->n_metrics; m++) {
        pr.mean[m] = (double)NAN;
        pr.pdef[m] = (double)NAN;
    }
    s->rs->outcome_probabilities(s->ctx, s->layout, &pr);
    return pr;
}

static double bound5(double p, int n)
{
    return 5.0 * sqrt(fmax(0.0, p * (1.0 - p)) / (double)n) + 1e-12;
}

/* Samples n trials and compares them with the exact answer; returns the
 * exact probabilities so a caller can also check the layout reached the
 * branch it was built for. */
static cs_probs agree(const cs_ruleset *rs, const char *const *sets, int nsets, int n,
                      const char *label)
{
    setup s = open_setup(rs, sets, nsets);
    cs_probs pr = exact_of(&s);
    double total = 0.0;
    for (int o = 0; o < rs->n_outcomes; o++)
        total += pr.p[o];
    cr_expect_leq(fabs(total - 1.0), 1e-12, "%s %s: outcome probabilities sum to %.15g",
                  rs->name, label, total);

    static int count[CS_MAX_OUTCOMES];
    static double vals[CS_MAX_METRICS][MAXV];
    static int vn[CS_MAX_METRICS];
    static double vcount[CS_MAX_METRICS][MAXV];
    static int ndef[CS_MAX_METRICS];
    static double sum[CS_MAX_METRICS], sum2[CS_MAX_METRICS];
    memset(count, 0, sizeof count);
    memset(vn, 0, sizeof vn);
    memset(ndef, 0, sizeof ndef);
    memset(sum, 0, sizeof sum);
    memset(sum2, 0, sizeof sum2);

    cs_rng rng;
    cs_rng_seed(&rng, 20240601u, 3u);
    for (int t = 0; t < n; t++) {
        cs_trial tr;
        for (int m = 0; m < CS_MAX_METRICS; m++)
            tr.m[m] = -12345.0;
        rs->resolve(s.ctx, s.layout, &rng, &tr);
        cr_assert(tr.outcome >= 0 && tr.outcome < rs->n_outcomes);
        count[tr.outcome]++;
        for (int m = 0; m < rs->n_metrics; m++) {
            double v = tr.m[m];
            cr_assert_neq(v, -12345.0, "%s %s: resolve left metric %s unset", rs->name, label,
                          rs->metrics[m].name);
            if (v != v)
                continue;
            ndef[m]++;
            sum[m] += v;
            sum2[m] += v * v;
            int k = 0;
            while (k < vn[m] && fabs(vals[m][k] - v) > 1e-7)
                k++;
            if (k == vn[m] && vn[m] < MAXV) {
                vals[m][k] = v;
                vcount[m][k] = 0.0;
                vn[m]++;
            }
            if (k < MAXV)
                vcount[m][k] += 1.0;
        }
    }
    for (int o = 0; o < rs->n_outcomes; o++) {
        double ph = (double)count[o] / (double)n;
        cr_expect_leq(fabs(ph - pr.p[o]), bound5(pr.p[o], n),
                      "%s %s: outcome %s sampled %.5f, exact %.5f", rs->name, label,
                      rs->outcomes[o], ph, pr.p[o]);
    }
    for (int m = 0; m < rs->n_metrics; m++) {
        const char *mn = rs->metrics[m].name;
        double pdh = (double)ndef[m] / (double)n;
        if (pr.n[m] > 0) {
            double pdef = 0.0, e1 = 0.0, e2 = 0.0;
            for (int i = 0; i < pr.n[m]; i++) {
                pdef += pr.prob[m][i];
                e1 += pr.prob[m][i] * pr.value[m][i];
                e2 += pr.prob[m][i] * pr.value[m][i] * pr.value[m][i];
            }
            cr_expect_leq(fabs(pdh - pdef), bound5(pdef, n),
                          "%s %s: metric %s defined sampled %.5f, exact %.5f", rs->name, label,
                          mn, pdh, pdef);
            /* Every sampled value is in the exact support, with its
             * frequency within 5 binomial errors. */
            for (int k = 0; k < vn[m]; k++) {
                double q = 0.0;
                bool found = false;
                for (int i = 0; i < pr.n[m]; i++)
                    if (fabs(pr.value[m][i] - vals[m][k]) <= 1e-7) {
                        q += pr.prob[m][i];
                        found = true;
                    }
                cr_expect(found, "%s %s: metric %s sampled value %.9g not in the exact support",
                          rs->name, label, mn, vals[m][k]);
                double ph = vcount[m][k] / (double)n;
                cr_expect_leq(fabs(ph - q), bound5(q, n),
                              "%s %s: metric %s = %.9g sampled %.5f, exact %.5f", rs->name, label,
                              mn, vals[m][k], ph, q);
            }
            /* And the exact mean, with the exact variance. */
            double var = fmax(0.0, e2 - e1 * e1);
            double mh = sum[m] / (double)n;
            cr_expect_leq(fabs(mh - e1), 5.0 * sqrt(var / (double)n) + 1e-9,
                          "%s %s: metric %s E[X;def] sampled %.6f, exact %.6f", rs->name, label,
                          mn, mh, e1);
        } else if (pr.mean[m] == pr.mean[m]) {
            double pdef = pr.pdef[m] == pr.pdef[m] ? pr.pdef[m] : 1.0;
            cr_expect_leq(fabs(pdh - pdef), bound5(pdef, n),
                          "%s %s: metric %s defined sampled %.5f, exact %.5f", rs->name, label,
                          mn, pdh, pdef);
            /* Mean only: the sample's own variance gives the error. */
            double mh = sum[m] / (double)n;
            double var = fmax(0.0, sum2[m] / (double)n - mh * mh);
            cr_expect_leq(fabs(mh - pr.mean[m]), 5.0 * sqrt(var / (double)n) + 1e-9,
                          "%s %s: metric %s E[X;def] sampled %.6f, exact %.6f", rs->name, label,
                          mn, mh, pr.mean[m]);
        }
    }

    /* resolve_batch: exactly the tallies of n resolve calls, each on the
     * trial's stream the driver's loop gives it. */
    if (rs->resolve_batch) {
        int nb = n < 4000 ? n : 4000;
        cs_tally a, b;
        memset(&a, 0, sizeof a);
        memset(&b, 0, sizeof b);
        cs_rng r1, block;
        cs_rng_seed(&block, 77u, 5u);
        cs_rng_trials t1, t2;
        cs_rng_trials_init(&t1, &block);
        cs_rng_trials_init(&t2, &block);
        for (int t = 0; t < nb; t++) {
            cs_trial tr;
            cs_rng_trials_next(&t1, &r1);
            rs->resolve(s.ctx, s.layout, &r1, &tr);
            a.count[tr.outcome]++;
            for (int m = 0; m < rs->n_metrics; m++)
                if (tr.m[m] == tr.m[m]) {
                    a.mdef[m]++;
                    a.msum[m] += tr.m[m];
                }
        }
        rs->resolve_batch(s.ctx, s.layout, &t2, (uint64_t)nb, &b);
        for (int o = 0; o < rs->n_outcomes; o++)
            cr_expect_eq(a.count[o], b.count[o], "%s %s: batch outcome %s %llu vs %llu",
                         rs->name, label, rs->outcomes[o], (unsigned long long)b.count[o],
                         (unsigned long long)a.count[o]);
        for (int m = 0; m < rs->n_metrics; m++) {
            cr_expect_eq(a.mdef[m], b.mdef[m], "%s %s: batch metric %s defined", rs->name,
                         label, rs->metrics[m].name);
            cr_expect_eq(a.msum[m], b.msum[m], "%s %s: batch metric %s sum %.17g vs %.17g",
                         rs->name, label, rs->metrics[m].name, b.msum[m], a.msum[m]);
        }
    }
    close_setup(&s);
    return pr;
}

static double p_out(const cs_ruleset *rs, const cs_probs *pr, const char *name)
{
    int o = cs_ruleset_outcome_index(rs, name);
    cr_assert(o >= 0, "%s: no outcome %s", rs->name, name);
    return pr->p[o];
}

/* The same settings on layouts drawn from seeds 1..nl, n trials each. */
#define AGREE_LAYOUTS(rs, nl, n, label, ...)                                                 \
    do {                                                                                     \
        static const char *const sets_[] = {__VA_ARGS__};                                   \
        for (uint64_t l_ = 1; l_ <= (nl); l_++) {                                           \
            char lab_[128];                                                                  \
            snprintf(lab_, sizeof lab_, "%s layout %llu", label, (unsigned long long)l_);   \
            layout_seed = l_;                                                                \
            agree(rs, sets_, (int)(sizeof sets_ / sizeof sets_[0]), n, lab_);                \
        }                                                                                    \
        layout_seed = 1u;                                                                    \
    } while (0)

#define AGREE(rs, label, ...)                                                                \
    do {                                                                                     \
        static const char *const sets_[] = {__VA_ARGS__};                                   \
        agree(rs, sets_, (int)(sizeof sets_ / sizeof sets_[0]), 20000, label);               \
    } while (0)

#define AGREE_P(var, rs, label, ...)                                                         \
    do {                                                                                     \
        static const char *const sets_[] = {__VA_ARGS__};                                   \
        var = agree(rs, sets_, (int)(sizeof sets_ / sizeof sets_[0]), 20000, label);         \
    } while (0)

/* generic: every preset and re-roll policy. */
Test(review_agree, generic_branches, .timeout = 60)
{
    const cs_ruleset *rs = &cs_rules_generic;
    AGREE(rs, "default", "distance=8");
    AGREE(rs, "failed reroll", "distance=8", "reroll=failed");
    AGREE(rs, "one_die", "distance=8", "reroll=one_die");
    AGREE(rs, "one_die 3d6", "distance=11", "reroll=one_die", "dice=3d6");
    AGREE(rs, "tow", "preset=tow", "move=3", "distance=8");
    AGREE(rs, "tow swift", "preset=tow", "move=3", "distance=10", "swiftstride=true");
    AGREE(rs, "tow swift failed", "preset=tow", "move=3", "distance=10", "swiftstride=true",
          "reroll=failed");
    AGREE(rs, "whfb8 swift", "preset=whfb8", "move=4", "distance=13", "swiftstride=true");
    AGREE(rs, "w40k", "preset=w40k", "distance=9", "reroll=one_die");
    AGREE(rs, "aos", "preset=aos", "distance=0");
    AGREE(rs, "tow ones every swift", "preset=tow", "move=8", "distance=15",
          "swiftstride=true", "reroll_ones=every");
    AGREE(rs, "tow ones single", "preset=tow", "move=7", "distance=12", "reroll_ones=single");
    AGREE(rs, "tow bonus", "preset=tow", "move=4", "distance=12", "roll_bonus=1d3",
          "range_bonus=2");
    AGREE(rs, "tow halt", "preset=tow", "move=4", "distance=5", "halt_ones=2");
    AGREE(rs, "tow halt bonus", "preset=tow", "move=4", "distance=9", "halt_ones=1",
          "roll_bonus=d3");
    AGREE(rs, "ones failed", "distance=9", "reroll_ones=every", "reroll=failed");
}

/* t9a: charged, failed (both editions), caught, fled, illegal. */
Test(review_agree, t9a_branches, .timeout = 120)
{
    const cs_ruleset *rs = &cs_rules_t9a;
    cs_probs pr;
    AGREE(rs, "head-on 8", "distance=8");
    AGREE(rs, "maximised 9", "distance=9", "maximised=1");
    AGREE(rs, "min+max", "distance=7", "maximised=2", "minimised=1");
    AGREE(rs, "minimised", "distance=6", "minimised=1");
    AGREE(rs, "ed2", "edition=2", "distance=11");
    AGREE(rs, "ed2 minimised rolled", "edition=2", "distance=11", "minimised=1",
          "failed_die=rolled");
    AGREE(rs, "ed2 minimised kept", "edition=2", "distance=11", "minimised=1");
    AGREE(rs, "ed2 maximised", "edition=2", "distance=13", "maximised=2");
    AGREE_P(pr, rs, "flee", "distance=2", "reaction=flee");
    cr_expect_gt(p_out(rs, &pr, "caught"), 0.0);
    cr_expect_gt(p_out(rs, &pr, "fled"), 0.0);
    AGREE(rs, "flee ed2", "edition=2", "distance=3", "reaction=flee", "maximised=1");
    AGREE_P(pr, rs, "too far", "distance=30");
    cr_expect_eq(p_out(rs, &pr, "illegal"), 1.0);
    AGREE(rs, "offset angle", "distance=6", "offset=4", "angle=30");
    AGREE(rs, "flank", "distance=4", "offset=9", "angle=90");
    AGREE(rs, "short ranks", "distance=7", "charger_models=13", "target_models=7",
          "offset=2");
    AGREE(rs, "wheel near other", "distance=6", "offset=6", "other1_x=-3", "other1_y=6",
          "other1_width=3");
}

/* asoiaf: charged, disordered, failed (short, blocked), illegal; effects. */
Test(review_agree, asoiaf_branches, .timeout = 120)
{
    const cs_ruleset *rs = &cs_rules_asoiaf;
    cs_probs pr;
    AGREE(rs, "head-on 8", "distance=8");
    AGREE_P(pr, rs, "disordered", "distance=5");
    cr_expect_gt(p_out(rs, &pr, "disordered"), 0.0);
    AGREE(rs, "disordered none", "distance=5", "disordered_effect=none");
    AGREE(rs, "disordered no_attack", "distance=5", "disordered_effect=no_attack");
    AGREE(rs, "no save", "distance=7", "save=7", "hit=2");
    AGREE_P(pr, rs, "illegal", "distance=12");
    cr_expect_eq(p_out(rs, &pr, "illegal"), 1.0);
    AGREE(rs, "engaged", "distance=6", "charger_engaged=true");
    AGREE(rs, "blocked lane", "distance=10", "other1_width=3", "other1_y=6", "other1_x=0");
    AGREE(rs, "one engaged front", "distance=7", "engaged_front=1");
    AGREE(rs, "offset angle", "distance=6", "offset=3", "angle=40");
    AGREE(rs, "flank", "distance=4", "offset=9", "angle=90");
    AGREE(rs, "pivot none", "distance=6", "offset=5", "pivot=none");
    AGREE(rs, "pivot target", "distance=6", "offset=5", "pivot=target_centre");
}

/* coreheim: every outcome. */
Test(review_agree, coreheim_branches, .timeout = 120)
{
    const cs_ruleset *rs = &cs_rules_coreheim;
    AGREE(rs, "plain", "distance=6");
    AGREE(rs, "too far", "distance=9");
    AGREE(rs, "declined sd", "distance=6.5", "estimate_sd=0.2");
    AGREE(rs, "hidden", "hidden=true");
    AGREE(rs, "climb up", "distance=4", "climb=2", "climb_at=2");
    AGREE(rs, "climb down", "distance=3", "climb=3", "climb_at=1", "climb_direction=down");
    AGREE(rs, "climb illegal", "distance=1", "climb=7");
    AGREE(rs, "jump dive", "distance=3", "jump=4", "land_gap=1");
    AGREE(rs, "jump far", "distance=6", "jump=5", "land_gap=4");
    AGREE(rs, "jump 8", "distance=3", "jump=8", "land_gap=1");
    AGREE(rs, "unseen d6", "distance=5", "visible=false", "tests=d6_under", "initiative=4");
    AGREE(rs, "all tests", "distance=5", "visible=false", "climb=2", "climb_at=1", "jump=4",
          "land_gap=1");
    AGREE(rs, "intercept", "distance=6", "interceptors=2", "intercept_lateral_min=-2.5",
          "intercept_lateral_max=2.5", "intercept_along_min=0", "intercept_along_max=1.2");
    AGREE(rs, "intercept fixed", "distance=6", "interceptors=1");
    AGREE(rs, "intercept engaged", "distance=6", "interceptors=2", "interceptors_engaged=1");
    AGREE(rs, "intercept with tests", "distance=6", "interceptors=1", "visible=false",
          "climb=1", "climb_at=4", "intercept_along_min=0.8", "intercept_along_max=0.8");
    AGREE(rs, "out of range with interceptor", "distance=10", "interceptors=1",
          "intercept_along_min=0.2", "intercept_along_max=0.2");
    AGREE(rs, "double move", "distance=12", "charge_multiplier=2", "jump=2", "land_gap=1.5");
}

/* sovl_dice: every test kind. */
Test(review_agree, sovl_dice_branches, .timeout = 60)
{
    const cs_ruleset *rs = &cs_rules_sovl_dice;
    AGREE(rs, "discipline", "test=discipline");
    AGREE(rs, "break", "test=discipline", "penalty=3", "models=7", "frontage=3");
    AGREE(rs, "fearless", "test=discipline", "penalty=3", "fearless=true");
    AGREE(rs, "reanimated", "test=discipline", "penalty=9", "reanimated=true");
    AGREE(rs, "flight cav", "test=flight", "type=cavalry", "edge_distance=14");
    AGREE(rs, "flight inf", "test=flight", "edge_distance=6");
    AGREE(rs, "ranged", "test=ranged");
    AGREE(rs, "ranged long", "test=ranged", "target_distance=20", "skill=1", "defense=6");
    AGREE(rs, "ranged natural", "test=ranged", "target_distance=20", "skill=0",
          "natural_rolls=true");
    AGREE(rs, "ranged natural skilled", "test=ranged", "skill=7", "natural_rolls=true");
    AGREE(rs, "ranged out", "test=ranged", "target_distance=100");
}

/* coreheim with interceptors drawn per trial: many layouts. */
Test(review_agree, coreheim_random_layouts, .timeout = 120)
{
    const cs_ruleset *rs = &cs_rules_coreheim;
    AGREE_LAYOUTS(rs, 20, 4000, "interceptors", "distance=6", "interceptors=3",
                  "interceptors_engaged=1", "intercept_lateral_min=-3",
                  "intercept_lateral_max=3", "intercept_along_min=-0.2",
                  "intercept_along_max=1.3", "visible=false", "climb=2", "climb_at=3");
    AGREE_LAYOUTS(rs, 20, 4000, "misjudged", "distance=6.8", "estimate_sd=0.3", "jump=2",
                  "land_gap=1");
}

/* sovl: counter charge, pass, flee (caught and fled), intercepts, random. */
Test(review_agree, sovl_branches, .timeout = 120)
{
    const cs_ruleset *rs = &cs_rules_sovl;
    cs_probs pr;
    AGREE_P(pr, rs, "counter", "distance=6");
    AGREE_P(pr, rs, "charged", "distance=6", "policy_b=pass");
    cr_expect_eq(p_out(rs, &pr, "charged"), 1.0);
    AGREE_P(pr, rs, "flee inf", "distance=6", "flee_b=true");
    cr_expect_gt(p_out(rs, &pr, "caught"), 0.0);
    cr_expect_gt(p_out(rs, &pr, "fled"), 0.0);
    AGREE(rs, "flee cav", "distance=6", "flee_b=true", "a1_type=cavalry");
    AGREE(rs, "flee monster", "distance=3", "flee_b=true", "a1_type=large_monster",
          "b1_type=large_monster", "b1_frontage=1", "b1_ranks=1", "a1_frontage=1",
          "a1_ranks=1");
    AGREE(rs, "out of range", "distance=9");
    AGREE(rs, "flank", "distance=2", "offset=4", "angle=90", "flee_b=true");
    AGREE(rs, "2v2 fixed", "units_a=2", "units_b=2", "placement=head_on", "distance=5",
          "flee_b=true", "flee_a=true");
    AGREE(rs, "3v3 focus b2", "units_a=3", "units_b=3", "distance=5", "focus=b2",
          "first_player=b", "flee_a=true");
}

Test(review_agree, sovl_random_layouts, .timeout = 200)
{
    const cs_ruleset *rs = &cs_rules_sovl;
    AGREE_LAYOUTS(rs, 30, 2000, "2v2 flee", "units_a=2", "units_b=2", "placement=random",
                  "flee_a=true", "flee_b=true", "area_depth=14");
    AGREE_LAYOUTS(rs, 30, 2000, "3v3 flee cav", "units_a=3", "units_b=3", "placement=random",
                  "flee_b=true", "a1_type=cavalry", "a2_type=chariot", "b3_type=swarm",
                  "facing_spread=180", "first_player=b", "area_width=40", "area_depth=24", "a1_ranks=1", "a2_ranks=1", "a2_frontage=2");
}

/* Samples one outcome's frequency on a fixed layout. */
static double sampled(const cs_ruleset *rs, const char *const *sets, int nsets,
                      const char *outcome, int n, uint64_t seed)
{
    setup s = open_setup(rs, sets, nsets);
    int o = cs_ruleset_outcome_index(rs, outcome), hits = 0;
    cr_assert(o >= 0);
    cs_rng rng;
    cs_rng_seed(&rng, seed, 9u);
    for (int t = 0; t < n; t++) {
        cs_trial tr;
        rs->resolve(s.ctx, s.layout, &rng, &tr);
        hits += tr.outcome == o;
    }
    close_setup(&s);
    return (double)hits / (double)n;
}

static double exact_p(const cs_ruleset *rs, const char *const *sets, int nsets,
                      const char *outcome)
{
    setup s = open_setup(rs, sets, nsets);
    cs_probs pr = exact_of(&s);
    close_setup(&s);
    return p_out(rs, &pr, outcome);
}

/* Issue 5's acceptance: the whole published table, plain and Maximised, by
 * Monte Carlo as well (the t9a tests sample 8" only). P(D6 + 4 >= d) =
 * (11 - d)/6; Maximised, the higher of two D6: 1 - ((d - 5)/6)^2. */
Test(review_agree, t9a_published_table_monte_carlo)
{
    const int n = 40000;
    for (int d = 5; d <= 10; d++) {
        char dist[32];
        snprintf(dist, sizeof dist, "distance=%d", d);
        for (int mx = 0; mx <= 1; mx++) {
            const char *sets[] = {dist, mx ? "maximised=1" : "maximised=0"};
            double want = mx ? 1.0 - ((d - 5.0) / 6.0) * ((d - 5.0) / 6.0) : (11.0 - d) / 6.0;
            cr_expect_leq(fabs(exact_p(&cs_rules_t9a, sets, 2, "charged") - want), 1e-12);
            double ph = sampled(&cs_rules_t9a, sets, 2, "charged", n,
                                (uint64_t)(100 + 2 * d + mx));
            cr_expect_leq(fabs(ph - want), bound5(want, n), "%s max %d: %.5f vs %.5f", dist, mx,
                          ph, want);
        }
    }
}

/* generic reroll = one_die, by hand: 2D6 needing 8, the lower die re-rolled
 * on a failure. A roll a + b >= 8 stands; otherwise the final total is
 * max(a, b) + f, and the top two of {a, b, f} sum to at least 8 exactly when
 * max(a, b) + f does (a + b < 8 and min + f <= max + f): the same event as
 * 3D6 drop lowest >= 8, 147/216 (docs/rules/generic.md's 68.06%). */
Test(review_agree, generic_one_die_by_hand)
{
    const char *sets[] = {"distance=8", "reroll=one_die"};
    cr_expect_leq(fabs(exact_p(&cs_rules_generic, sets, 2, "charged") - 147.0 / 216.0), 1e-12);
    const int n = 40000;
    double ph = sampled(&cs_rules_generic, sets, 2, "charged", n, 5u);
    cr_expect_leq(fabs(ph - 147.0 / 216.0), bound5(147.0 / 216.0, n), "%.5f", ph);
}

/* The Old World's unit rules (issue 50), each probability enumerated here
 * over the dice the rule text names, never taken from the program. The
 * charge dice are two D6 a, b, the highest kept; a re-roll of a natural 1
 * shows a fresh face. Every sum runs over equally likely tuples. */

/* P(max(a', b') + bonus >= need): `ones` 0 plain, 1 every 1 re-rolled once
 * (Finest Warhorses), 2 one die showing 1 re-rolled (Knights Panther); the
 * bonus a D6 (swift, Swiftstride's "+D6 modifier to the result", not
 * re-rolled under our reading), a D3 (d3) and a constant; halt: the charge
 * fails on two natural 1s (Temperamental). */
static double tow_enum(int ones, bool swift, bool d3, int constant, bool halt, int need)
{
    double hits = 0.0, all = 0.0;
    for (int a = 1; a <= 6; a++)
        for (int b = 1; b <= 6; b++)
            for (int ra = 1; ra <= 6; ra++)
                for (int rb = 1; rb <= 6; rb++)
                    for (int s = 1; s <= 6; s++)
                        for (int t = 1; t <= 3; t++) {
                            int x = a, y = b;
                            if (ones == 1) {
                                x = a == 1 ? ra : a;
                                y = b == 1 ? rb : b;
                            } else if (ones == 2 && (a == 1 || b == 1)) {
                                if (a == 1)
                                    x = ra; /* one die only: b stays */
                                else
                                    y = rb;
                            }
                            int roll = (x > y ? x : y) + (swift ? s : 0) + (d3 ? t : 0) + constant;
                            bool halted = halt && a == 1 && b == 1;
                            all += 1.0;
                            hits += !halted && roll >= need ? 1.0 : 0.0;
                        }
    return hits / all;
}

static void by_hand(const char *const *sets, int nsets, double want, uint64_t seed)
{
    double got = exact_p(&cs_rules_generic, sets, nsets, "charged");
    cr_expect_leq(fabs(got - want), 1e-12, "%s ...: exact %.15f, by hand %.15f", sets[1], got,
                  want);
    const int n = 40000;
    double ph = sampled(&cs_rules_generic, sets, nsets, "charged", n, seed);
    cr_expect_leq(fabs(ph - want), bound5(want, n), "%s ...: sampled %.5f, by hand %.5f", sets[1],
                  ph, want);
}

Test(review_agree, generic_tow_unit_rules_by_hand, .timeout = 60)
{
    /* Knights Errant, M 8, Swiftstride and Finest Warhorses, at 15": M + 9 =
     * 17 lets them declare; they need 7 from the highest of 2D6 (1s re-rolled)
     * + D6. Without the re-roll as a check on the enumeration. */
    const char *ke[] = {"preset=tow", "reroll_ones=every", "move=8", "swiftstride=true",
                        "distance=15"};
    by_hand(ke, 5, tow_enum(1, true, false, 0, false, 7), 11u);
    const char *ke0[] = {"preset=tow", "reroll_ones=none", "move=8", "swiftstride=true",
                         "distance=15"};
    by_hand(ke0, 5, tow_enum(0, true, false, 0, false, 7), 12u);
    cr_expect_gt(tow_enum(1, true, false, 0, false, 7), tow_enum(0, true, false, 0, false, 7));
    /* Knights Panther, M 7, no Swiftstride, at 12": need 5, one 1 re-rolled. */
    const char *kp[] = {"preset=tow", "reroll_ones=single", "move=7", "distance=12"};
    by_hand(kp, 4, tow_enum(2, false, false, 0, false, 5), 13u);
    /* Crusader's Zeal, M 8 at 15": M + 6 + 1 = 15 declares, need 7 - 1 = 6
     * from the highest of 2D6: 11/36. Without it 15" is past M + 6: illegal. */
    const char *cz[] = {"preset=tow", "roll_bonus=1", "move=8", "range_bonus=1",
                        "distance=15"};
    by_hand(cz, 5, 11.0 / 36.0, 14u);
    cr_expect_leq(fabs(tow_enum(0, false, false, 1, false, 7) - 11.0 / 36.0), 1e-15);
    const char *cz0[] = {"preset=tow", "move=8", "distance=15"};
    cr_expect_eq(exact_p(&cs_rules_generic, cz0, 3, "illegal"), 1.0);
    /* Battle Hunger, infantry M 4 at 12": M + 6 + 2 = 12, need 8 from the
     * highest of 2D6 + D3. */
    const char *bh[] = {"preset=tow", "roll_bonus=1d3", "move=4", "range_bonus=2",
                        "distance=12"};
    by_hand(bh, 5, tow_enum(0, false, true, 0, false, 8), 15u);
    /* The Steam Tank, M 4, Temperamental, at 5": the highest of 2D6 always
     * reaches, but two natural 1s halt it: 35/36. */
    const char *st[] = {"preset=tow", "halt_ones=2", "move=4", "distance=5"};
    by_hand(st, 4, 35.0 / 36.0, 16u);
    cr_expect_leq(fabs(tow_enum(0, false, false, 0, true, 1) - 35.0 / 36.0), 1e-15);
}

/* prepare's refusal of sets, naming key. */
static void refused(const char *const *sets, int nsets, const char *key)
{
    const cs_ruleset *rs = &cs_rules_generic;
    cs_params p;
    memset(&p, 0, sizeof p);
    for (int i = 0; i < rs->n_params; i++) {
        const cs_param_def *d = &rs->params[i];
        if (d->type == CS_PARAM_DICE)
            p.text[i] = d->def;
        else
            p.num[i] = th_param_value(d, d->def);
    }
    for (int k = 0; k < nsets; k++) {
        const char *eq = strchr(sets[k], '=');
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(eq - sets[k]), sets[k]);
        int i = cs_ruleset_param_index(rs, name);
        cr_assert(i >= 0, "%s", name);
        if (rs->params[i].type == CS_PARAM_DICE)
            p.text[i] = eq + 1;
        else
            p.num[i] = th_param_value(&rs->params[i], eq + 1);
    }
    void *ctx = calloc(1, rs->ctx_size);
    cs_diag diag;
    memset(&diag, 0, sizeof diag);
    cs_status st = rs->prepare(&p, ctx, &diag);
    free(ctx);
    cr_expect_neq(st, CS_OK, "%s: accepted", sets[0]);
    cr_expect(diag.key && strcmp(diag.key, key) == 0, "%s: key %s, expected %s", sets[0],
              diag.key ? diag.key : "(none)", key);
    cr_expect(diag.what != NULL);
}

Test(review_agree, generic_unit_rules_refused)
{
    const char *a[] = {"range_bonus=1"}; /* preset none: no maximum range */
    refused(a, 1, "range_bonus");
    const char *b[] = {"preset=tow", "halt_ones=3"}; /* two charge dice */
    refused(b, 2, "halt_ones");
    const char *c[] = {"preset=tow", "halt_ones=2", "reroll=failed"};
    refused(c, 3, "halt_ones");
    const char *d[] = {"dice=d6!", "reroll_ones=every"};
    refused(d, 2, "reroll_ones");
    const char *e[] = {"roll_bonus=d6+d6+d6+d6+d6+d6+d6+d6"};
    refused(e, 1, "roll_bonus");
    const char *f[] = {"preset=tow", "reroll_ones=single", "reroll=one_die"};
    refused(f, 3, "reroll");
}
