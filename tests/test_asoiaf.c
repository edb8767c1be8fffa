#include <criterion/criterion.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/asoiaf.h"
#include "chargesim/rules.h"

/* ---- helpers: the ruleset called directly, parameters from its defaults -- */

static const cs_ruleset *const rs = &cs_rules_asoiaf;

static int key_index(const char *key)
{
    for (int i = 0; i < rs->n_params; i++)
        if (strcmp(rs->params[i].key, key) == 0)
            return i;
    cr_assert_fail("no parameter %s", key);
    return -1;
}

static double parse_value(const cs_param_def *d, const char *text)
{
    switch (d->type) {
    case CS_PARAM_BOOL:
        return strcmp(text, "true") == 0 ? 1.0 : 0.0;
    case CS_PARAM_CHOICE:
        for (int k = 0; d->choices[k]; k++)
            if (strcmp(d->choices[k], text) == 0)
                return (double)k;
        cr_assert_fail("bad choice %s for %s", text, d->key);
        return -1.0;
    default:
        return strtod(text, NULL);
    }
}

static void defaults(cs_params *p)
{
    memset(p, 0, sizeof *p);
    for (int i = 0; i < rs->n_params; i++) {
        const cs_param_def *d = &rs->params[i];
        p->num[i] = parse_value(d, d->def);
        if (d->type == CS_PARAM_DICE || d->type == CS_PARAM_TEXT)
            p->text[i] = d->def;
    }
}

static void set(cs_params *p, const char *key, const char *value)
{
    int i = key_index(key);
    p->num[i] = parse_value(&rs->params[i], value);
}

/* Context and layout buffers, large enough for the ruleset's sizes. */
typedef struct run {
    _Alignas(16) unsigned char ctx[1 << 16];
    _Alignas(16) unsigned char layout[1 << 12];
} run;

static run R;

static void setup(const cs_params *p)
{
    cr_assert_leq(rs->ctx_size, sizeof R.ctx);
    cr_assert_leq(rs->layout_size, sizeof R.layout);
    cs_diag diag = {0, NULL, NULL};
    cr_assert_eq(rs->prepare(p, R.ctx, &diag), CS_OK, "prepare: %s %s",
                 diag.key ? diag.key : "", diag.what ? diag.what : "");
    cs_rng rng;
    cs_rng_seed(&rng, 1u, 2u);
    rs->draw_layout(R.ctx, p->num, &rng, R.layout);
}

static void exact(cs_probs *pr)
{
    rs->outcome_probabilities(R.ctx, R.layout, pr);
}

static int outcome(const char *name)
{
    for (int i = 0; i < rs->n_outcomes; i++)
        if (strcmp(rs->outcomes[i], name) == 0)
            return i;
    cr_assert_fail("no outcome %s", name);
    return -1;
}

static int metric(const char *name)
{
    for (int i = 0; i < rs->n_metrics; i++)
        if (strcmp(rs->metrics[i].name, name) == 0)
            return i;
    cr_assert_fail("no metric %s", name);
    return -1;
}

static double p_success(const cs_probs *pr)
{
    double s = 0.0;
    for (int i = 0; i < rs->n_outcomes; i++)
        if (rs->success_mask & (1u << i))
            s += pr->p[i];
    return s;
}

/* |p_hat - p| <= 5 binomial standard errors; a p of 0 or 1 must be hit exactly. */
static void expect_within_5se(double p_hat, double p, int n, const char *what)
{
    double se = sqrt(p * (1.0 - p) / (double)n);
    cr_expect_leq(fabs(p_hat - p), 5.0 * se, "%s: %.6f vs exact %.6f (n = %d)", what, p_hat, p,
                  n);
}

/* Samples n trials on the current layout and returns outcome frequencies. */
static void sample(int n, uint64_t seed, double *freq)
{
    cs_rng rng;
    cs_rng_seed(&rng, seed, 7u);
    int count[CS_MAX_OUTCOMES] = {0};
    for (int t = 0; t < n; t++) {
        cs_trial tr;
        rs->resolve(R.ctx, R.layout, &rng, &tr);
        count[tr.outcome]++;
    }
    for (int i = 0; i < rs->n_outcomes; i++)
        freq[i] = (double)count[i] / (double)n;
}

static double head_on_success(const char *speed, const char *distance, cs_probs *pr)
{
    cs_params p;
    defaults(&p);
    set(&p, "speed", speed);
    set(&p, "distance", distance);
    setup(&p);
    exact(pr);
    return p_success(pr);
}

/* ---- head-on acceptance (issue 6) --------------------------------------- */

/* Speed 5 at 8": 5 + D6 >= 8 needs 3..6, 4/6. At 11": needs a 6, 1/6.
 * At 12": beyond speed + 6 = 11, the charge cannot be declared. */
Test(asoiaf, head_on_exact)
{
    cs_probs pr;
    cr_expect_float_eq(head_on_success("5", "8", &pr), 4.0 / 6.0, 1e-12);
    cr_expect_float_eq(pr.p[outcome("failed")], 2.0 / 6.0, 1e-12);
    cr_expect_float_eq(head_on_success("5", "11", &pr), 1.0 / 6.0, 1e-12);
    cr_expect_float_eq(pr.p[outcome("disordered")], 0.0, 1e-12);
    cr_expect_float_eq(head_on_success("5", "12", &pr), 0.0, 1e-12);
    cr_expect_float_eq(pr.p[outcome("illegal")], 1.0, 1e-12);
    /* At 5" every roll connects, and the 1 is disordered: 1/6. At 7" the 1
     * (5 + 1 = 6 < 7) falls short, so no disordered charge connects. */
    head_on_success("5", "5", &pr);
    cr_expect_float_eq(pr.p[outcome("disordered")], 1.0 / 6.0, 1e-12);
    cr_expect_float_eq(pr.p[outcome("charged")], 5.0 / 6.0, 1e-12);
    head_on_success("5", "7", &pr);
    cr_expect_float_eq(pr.p[outcome("disordered")], 0.0, 1e-12);
    cr_expect_float_eq(pr.p[outcome("failed")], 1.0 / 6.0, 1e-12);
    cr_expect_float_eq(pr.p[outcome("charged")], 5.0 / 6.0, 1e-12);
}

Test(asoiaf, head_on_monte_carlo)
{
    static const struct {
        const char *distance;
        double p_charged, p_disordered, p_illegal;
    } cases[] = {
        {"8", 4.0 / 6.0, 0.0, 0.0},
        {"11", 1.0 / 6.0, 0.0, 0.0},
        {"12", 0.0, 0.0, 1.0},
        {"5", 5.0 / 6.0, 1.0 / 6.0, 0.0},
        {"7", 5.0 / 6.0, 0.0, 0.0},
    };
    const int n = 20000;
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        cs_probs pr;
        head_on_success("5", cases[i].distance, &pr);
        double f[CS_MAX_OUTCOMES];
        sample(n, 100u + i, f);
        expect_within_5se(f[outcome("charged")], cases[i].p_charged, n, cases[i].distance);
        expect_within_5se(f[outcome("disordered")], cases[i].p_disordered, n, cases[i].distance);
        expect_within_5se(f[outcome("illegal")], cases[i].p_illegal, n, cases[i].distance);
    }
}

/* An engaged charger cannot charge; nor can a charger whose located side
 * (the front, head-on) already holds two units. One unit leaves room. */
Test(asoiaf, declaration_engagement)
{
    cs_params p;
    cs_probs pr;
    defaults(&p);
    set(&p, "charger_engaged", "true");
    setup(&p);
    exact(&pr);
    cr_expect_float_eq(pr.p[outcome("illegal")], 1.0, 1e-12);
    defaults(&p);
    set(&p, "engaged_front", "2");
    setup(&p);
    exact(&pr);
    cr_expect_float_eq(pr.p[outcome("illegal")], 1.0, 1e-12);
    set(&p, "engaged_front", "1");
    setup(&p);
    exact(&pr);
    cr_expect_float_eq(pr.p[outcome("illegal")], 0.0, 1e-12);
}

/* ---- the charge attack --------------------------------------------------- */

/* 6 dice hitting on 4+: p = 1/2, and with misses re-rolled 1/2 + 1/4 = 3/4.
 * Hand values: P(k hits) = C(6,k) 3^k / 4^6 with re-rolls (4^6 = 4096), and
 * C(6,k) / 64 without. */
Test(asoiaf, attack_exact_binomial)
{
    static const double c6[7] = {1, 6, 15, 20, 15, 6, 1};
    double hits[7], wounds[7];
    cs_asoiaf_attack a = {6, 4, 4, true};
    cs_asoiaf_attack_exact(&a, hits, wounds);
    for (int k = 0; k <= 6; k++)
        cr_expect_float_eq(hits[k], c6[k] * pow(3.0, (double)k) / 4096.0, 1e-12, "k=%d", k);
    /* Wounds: a die ends unsaved with 3/4 * 3/6 = 3/8: C(6,k) 3^k 5^(6-k) / 8^6. */
    for (int k = 0; k <= 6; k++)
        cr_expect_float_eq(wounds[k],
                           c6[k] * pow(3.0, (double)k) * pow(5.0, (double)(6 - k)) / 262144.0,
                           1e-12, "k=%d", k);
    a.reroll_misses = false;
    cs_asoiaf_attack_exact(&a, hits, wounds);
    for (int k = 0; k <= 6; k++)
        cr_expect_float_eq(hits[k], c6[k] / 64.0, 1e-12, "k=%d", k);
    /* Save 7 is no save: every hit wounds. */
    a.save = 7;
    cs_asoiaf_attack_exact(&a, hits, wounds);
    for (int k = 0; k <= 6; k++)
        cr_expect_float_eq(wounds[k], hits[k], 1e-12, "k=%d", k);
    /* The largest attack still sums to one. */
    double big_h[CS_ASOIAF_MAX_DICE + 1], big_w[CS_ASOIAF_MAX_DICE + 1];
    cs_asoiaf_attack b = {CS_ASOIAF_MAX_DICE, 3, 5, true};
    cs_asoiaf_attack_exact(&b, big_h, big_w);
    double sh = 0.0, sw = 0.0;
    for (int k = 0; k <= CS_ASOIAF_MAX_DICE; k++) {
        sh += big_h[k];
        sw += big_w[k];
    }
    cr_expect_float_eq(sh, 1.0, 1e-12);
    cr_expect_float_eq(sw, 1.0, 1e-12);
}

Test(asoiaf, attack_monte_carlo)
{
    const int n = 20000;
    for (int reroll = 0; reroll <= 1; reroll++) {
        cs_asoiaf_attack a = {6, 4, 4, reroll == 1};
        double hits[7], wounds[7];
        cs_asoiaf_attack_exact(&a, hits, wounds);
        int ch[7] = {0}, cw[7] = {0};
        cs_rng rng;
        cs_rng_seed(&rng, 42u, (uint64_t)reroll);
        for (int t = 0; t < n; t++) {
            int h, w;
            cs_asoiaf_attack_roll(&a, &rng, &h, &w);
            ch[h]++;
            cw[w]++;
        }
        for (int k = 0; k <= 6; k++) {
            expect_within_5se((double)ch[k] / n, hits[k], n, reroll ? "hits rr" : "hits");
            expect_within_5se((double)cw[k] / n, wounds[k], n, reroll ? "wounds rr" : "wounds");
        }
    }
}

/* At 5" every roll connects: hits are 5/6 of the ordered binomial (p = 3/4)
 * plus 1/6 of the disordered one, whose attack depends on the effect. */
Test(asoiaf, disordered_effect_on_attack)
{
    static const char *const effects[] = {"no_bonus", "none", "no_attack"};
    double ord[7], dis[7], w[7];
    cs_asoiaf_attack a = {6, 4, 4, true};
    cs_asoiaf_attack_exact(&a, ord, w);
    for (int e = 0; e < 3; e++) {
        cs_params p;
        defaults(&p);
        set(&p, "distance", "5");
        set(&p, "disordered_effect", effects[e]);
        setup(&p);
        cs_probs pr;
        exact(&pr);
        a.reroll_misses = e == 1;
        a.dice = e == 2 ? 0 : 6;
        cs_asoiaf_attack_exact(&a, dis, w);
        int mh = metric("hits");
        cr_expect_float_eq(pr.pdef[mh], 1.0, 1e-12);
        double mean = 0.0;
        for (int k = 0; k <= 6; k++) {
            double want = 5.0 / 6.0 * ord[k] + 1.0 / 6.0 * (k <= a.dice ? dis[k] : 0.0);
            cr_expect_float_eq(pr.value[mh][k], (double)k, 1e-12);
            cr_expect_float_eq(pr.prob[mh][k], want, 1e-12, "%s k=%d", effects[e], k);
            mean += want * k;
        }
        cr_expect_float_eq(pr.mean[mh], mean, 1e-12);
    }
}

/* Wounds delivered count a failed charge as 0: at 8" (speed 5) the mean is
 * 4/6 of the ordered mean 6 * 3/8 = 2.25, as the 1 never connects: 1.5. */
Test(asoiaf, wounds_delivered_mean)
{
    cs_probs pr;
    head_on_success("5", "8", &pr);
    int md = metric("wounds_delivered"), mw = metric("wounds");
    cr_expect_float_eq(pr.mean[md], 1.5, 1e-12);
    cr_expect_float_eq(pr.pdef[md], 1.0, 1e-12);
    cr_expect_float_eq(pr.pdef[mw], 4.0 / 6.0, 1e-12);
    cr_expect_float_eq(pr.mean[mw] / pr.pdef[mw], 2.25, 1e-12);
    double s = 0.0;
    for (int k = 0; k < pr.n[md]; k++)
        s += pr.prob[md][k];
    cr_expect_float_eq(s, 1.0, 1e-12);
}
