/* `compare`: the paired estimators (mc, conditional, exact) and the entry
 * point that runs them through the scheduler. See include/chargesim/
 * compare.h for the streams and the intervals. */
#include "chargesim/compare.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What every paired block shares besides the scheduler's run of A: the
 * scheduler sees `a` (first member), and the paired blocks recover the
 * whole from run->e, since a pointer to a struct's first member converts
 * to the struct (C17 6.7.2.1p15). */
typedef struct cmp_run {
    cs_experiment a;       /* a shallow copy of variant A, never freed */
    const cs_experiment *b;
    cs_est_run run_b;      /* B's draws */
    void **ctx_b;          /* B's prepared context per point */
    void **layout_b;       /* B's fixed layout per point */
    bool *random_b;        /* B's layout varies between trials */
} cmp_run;

/* One block's or one point's sums per cell: A's and B's values and the
 * per-trial (per-layout) differences with their squares. */
typedef struct cmp_tally {
    uint64_t trials;
    double sa[CS_CMP_CELLS], sb[CS_CMP_CELLS], sd[CS_CMP_CELLS], sd2[CS_CMP_CELLS];
} cmp_tally;

void cs_cmp_trial_rng(cs_rng *rng, uint64_t seed, uint64_t k, uint64_t b, uint64_t t)
{
    /* As cs_rng_stream, one more link for the trial; the salt keeps these
     * streams apart from run's (seed, k, b) ones. */
    uint64_t h = cs_rng_mix64(seed ^ 0x636f6d70617265ULL); /* "compare" */
    h = cs_rng_mix64(h ^ k);
    h = cs_rng_mix64(h ^ b);
    h = cs_rng_mix64(h ^ t);
    cs_rng_seed(rng, h, cs_rng_mix64(h ^ 0x5851f42d4c957f2dULL));
}

static const cmp_run *cmp_of(const cs_est_run *run)
{
    return (const cmp_run *)(const void *)run->e;
}

/* The layout of one variant for this trial: drawn from rng when random. */
static const void *variant_layout(const cs_est_run *run, const cs_est_point *pt, const void *ctx,
                                  const void *fixed, bool random, cs_rng *rng, void *scratch)
{
    if (!random)
        return fixed;
    double num[CS_MAX_PARAMS];
    memcpy(num, pt->params.num, sizeof num);
    cs_est_draw_params(run, num, rng);
    run->rs->draw_layout(ctx, num, rng, scratch);
    return scratch;
}

static void add_pair(cmp_tally *t, int c, double a, double b)
{
    double d = b - a;
    t->sa[c] += a;
    t->sb[c] += b;
    t->sd[c] += d;
    t->sd2[c] += d * d;
}

/* mc: one trial of each variant from a copy of the trial's sub-stream.
 * A's trial is resolved before B's layout is drawn, so both use the
 * scheduler's one scratch layout. */
static void mc_pair_block(const cs_est_run *run, const cs_est_point *pt, uint64_t b, uint64_t n,
                          void *layout, uint64_t *hist, void *tally)
{
    const cmp_run *c = cmp_of(run);
    const cs_ruleset *rs = run->rs;
    cmp_tally *t = tally;
    (void)hist;
    for (uint64_t i = 0; i < n; i++) {
        cs_rng r0, ra, rb;
        cs_trial ta, tb;
        cs_cmp_trial_rng(&r0, run->e->seed, pt->index, b, i);
        ra = r0;
        rb = r0;
        const void *la = variant_layout(run, pt, pt->ctx, pt->layout, pt->random_layout, &ra,
                                        layout);
        rs->resolve(pt->ctx, la, &ra, &ta);
        const void *lb = variant_layout(&c->run_b, pt, c->ctx_b[pt->index],
                                        c->layout_b[pt->index], c->random_b[pt->index], &rb,
                                        layout);
        rs->resolve(c->ctx_b[pt->index], lb, &rb, &tb);
        add_pair(t, 0, (run->success_mask >> ta.outcome) & 1u,
                 (run->success_mask >> tb.outcome) & 1u);
        for (int o = 0; o < rs->n_outcomes; o++)
            add_pair(t, 1 + o, ta.outcome == o, tb.outcome == o);
    }
    t->trials = n;
}

/* conditional and exact: one layout of each variant, its exact answer; A's
 * is evaluated before B's is drawn into the same scratch layout. */
static void cond_pair_block(const cs_est_run *run, const cs_est_point *pt, uint64_t b, uint64_t n,
                            void *layout, uint64_t *hist, void *tally)
{
    const cmp_run *c = cmp_of(run);
    const cs_ruleset *rs = run->rs;
    cmp_tally *t = tally;
    (void)hist;
    for (uint64_t i = 0; i < n; i++) {
        cs_rng r0, ra, rb;
        cs_probs pa, pb;
        cs_cmp_trial_rng(&r0, run->e->seed, pt->index, b, i);
        ra = r0;
        rb = r0;
        const void *la = variant_layout(run, pt, pt->ctx, pt->layout, pt->random_layout, &ra,
                                        layout);
        double sa = cs_sim_eval_layout(rs, pt->ctx, la, run->success_mask, &pa);
        const void *lb = variant_layout(&c->run_b, pt, c->ctx_b[pt->index],
                                        c->layout_b[pt->index], c->random_b[pt->index], &rb,
                                        layout);
        double sb = cs_sim_eval_layout(rs, c->ctx_b[pt->index], lb, run->success_mask, &pb);
        add_pair(t, 0, sa, sb);
        for (int o = 0; o < rs->n_outcomes; o++)
            add_pair(t, 1 + o, pa.p[o], pb.p[o]);
    }
    t->trials = n;
}

static void pair_merge(void *into, const void *block)
{
    cmp_tally *t = into;
    const cmp_tally *s = block;
    t->trials += s->trials;
    for (int c = 0; c < CS_CMP_CELLS; c++) {
        t->sa[c] += s->sa[c];
        t->sb[c] += s->sb[c];
        t->sd[c] += s->sd[c];
        t->sd2[c] += s->sd2[c];
    }
}

/* Whether the pair's difference is random: mc always (the dice), the
 * others when either variant's layout varies. */
static bool pair_random(const cs_est_run *run, const cs_est_point *pt, bool mc)
{
    return mc || pt->random_layout || cmp_of(run)->random_b[pt->index];
}

/* delta of cell c with its interval (compare.h): the CLT interval on the
 * differences, floored by the Wilson "none seen" bound when random. */
static void delta_interval(const cmp_tally *t, int c, bool random, double z, double *d,
                           double *lo, double *hi)
{
    double n = (double)t->trials;
    *d = fmin(1.0, fmax(-1.0, t->sd[c] / n));
    double var = t->trials > 1 ? fmax(0.0, (t->sd2[c] - t->sd[c] * t->sd[c] / n) / (n - 1.0))
                               : 0.0;
    double h = z * sqrt(var / n);
    *lo = *d - h;
    *hi = *d + h;
    if (random) {
        double w = z * z / (n + z * z);
        *lo = fmin(*lo, *d - (1.0 + *d) * w);
        *hi = fmax(*hi, *d + (1.0 - *d) * w);
    }
    *lo = fmax(-1.0, *lo);
    *hi = fmin(1.0, *hi);
}

static double halfwidth_of(const cs_est_run *run, const cs_est_point *pt, const void *tally,
                           double z, bool mc)
{
    double w = 0.0, d, lo, hi;
    for (int c = 0; c <= run->rs->n_outcomes; c++) {
        delta_interval(tally, c, pair_random(run, pt, mc), z, &d, &lo, &hi);
        w = fmax(w, 0.5 * (hi - lo));
    }
    return w;
}

static double mc_pair_halfwidth(const cs_est_run *run, const cs_est_point *pt, const void *tally,
                                double z)
{
    return halfwidth_of(run, pt, tally, z, true);
}

static double cond_pair_halfwidth(const cs_est_run *run, const cs_est_point *pt,
                                  const void *tally, double z)
{
    return halfwidth_of(run, pt, tally, z, false);
}

/* A difference lies in [-1, 1]: its sample variance (n - 1 in the
 * denominator, delta_interval) is at most n / (n - 1), so the half-width
 * z sqrt(var / n) is at most z / sqrt(n - 1): n = (z / h)^2 + 1. */
static double pair_worst_trials(double h, double z)
{
    double s = z / h;
    return s * s + 1.0;
}

static uint64_t pair_first_trials(const cs_experiment *e)
{
    return e->trials;
}

static uint64_t exact_pair_first_trials(const cs_experiment *e)
{
    (void)e;
    return 1;
}

static void no_report(const cs_est_run *run, const cs_est_point *pt, const void *tally, double z,
                      cs_point_result *out)
{
    (void)run, (void)pt, (void)tally, (void)z, (void)out;
}

static const cs_estimator est_pair_mc = {
    .name = "mc", .method = CS_METHOD_MC, .tally_size = sizeof(cmp_tally),
    .first_trials = pair_first_trials, .block = mc_pair_block, .merge = pair_merge,
    .halfwidth = mc_pair_halfwidth, .report = no_report, .worst_trials = pair_worst_trials,
};
static const cs_estimator est_pair_cond = {
    .name = "conditional", .method = CS_METHOD_CONDITIONAL, .tally_size = sizeof(cmp_tally),
    .first_trials = pair_first_trials, .block = cond_pair_block, .merge = pair_merge,
    .halfwidth = cond_pair_halfwidth, .report = no_report, .worst_trials = pair_worst_trials,
};
static const cs_estimator est_pair_exact = {
    .name = "exact", .method = CS_METHOD_EXACT, .tally_size = sizeof(cmp_tally),
    .first_trials = exact_pair_first_trials, .block = cond_pair_block, .merge = pair_merge,
    .halfwidth = cond_pair_halfwidth, .report = no_report,
};

/* The method both variants allow: AUTO takes the less exact of the two. */
static cs_status pair_method(const cs_experiment *a, const cs_experiment *b, cs_method *m,
                             cs_error *err)
{
    cs_method ma, mb;
    /* There is no paired RQMC estimator: paired layouts already cancel most
     * of the layout noise, so where auto would pick rqmc the pair runs
     * conditional; asking for rqmc is refused. */
    if (a->method == CS_METHOD_RQMC)
        return cs_error_set(err, CS_EINPUT,
                            "method rqmc has no paired estimator; use conditional "
                            "(the default for drawn layouts), mc or exact");
    cs_status st = cs_experiment_method(a, &ma, err);
    if (st == CS_OK && (st = cs_experiment_method(b, &mb, err)) != CS_OK) {
        char why[sizeof err->msg];
        snprintf(why, sizeof why, "%s", err->msg);
        cs_error_set(err, st, "variant B: %s", why);
    }
    if (st != CS_OK)
        return st;
    ma = ma == CS_METHOD_RQMC ? CS_METHOD_CONDITIONAL : ma;
    mb = mb == CS_METHOD_RQMC ? CS_METHOD_CONDITIONAL : mb;
    /* MC < CONDITIONAL < EXACT in the enum: the smaller is the less exact.
     * EXACT only when both are (neither layout is then random: see
     * cs_experiment_method). */
    *m = ma < mb ? ma : mb;
    return CS_OK;
}

/* B's context and fixed layout per point, as the scheduler prepares A's. */
static cs_status prepare_b(cmp_run *c, cs_error *err)
{
    const cs_experiment *b = c->b;
    const cs_ruleset *rs = b->rs;
    uint64_t n = b->n_points;
    c->ctx_b = calloc((size_t)n, sizeof *c->ctx_b);
    c->layout_b = calloc((size_t)n, sizeof *c->layout_b);
    c->random_b = calloc((size_t)n, sizeof *c->random_b);
    if (!c->ctx_b || !c->layout_b || !c->random_b)
        return cs_error_set(err, CS_ENOMEM, "out of memory");
    for (uint64_t k = 0; k < n; k++) {
        cs_params p;
        cs_experiment_point(b, k, &p);
        c->ctx_b[k] = calloc(1, rs->ctx_size ? rs->ctx_size : 1);
        c->layout_b[k] = calloc(1, rs->layout_size ? rs->layout_size : 1);
        if (!c->ctx_b[k] || !c->layout_b[k])
            return cs_error_set(err, CS_ENOMEM, "out of memory");
        cs_status st = cs_experiment_prepare(b, k, &p, c->ctx_b[k], err);
        if (st != CS_OK)
            return st;
        c->random_b[k] = c->run_b.n_draw > 0 ||
                         (rs->layout_is_random && rs->layout_is_random(c->ctx_b[k]));
        if (!c->random_b[k]) {
            cs_rng rng; /* the stream run builds A's fixed layout from */
            cs_rng_stream(&rng, b->seed, k, UINT64_MAX);
            rs->draw_layout(c->ctx_b[k], p.num, &rng, c->layout_b[k]);
        }
    }
    return CS_OK;
}

static void free_b(cmp_run *c)
{
    for (uint64_t k = 0; c->ctx_b && k < c->b->n_points; k++) {
        free(c->ctx_b[k]);
        if (c->layout_b)
            free(c->layout_b[k]);
    }
    free(c->ctx_b);
    free(c->layout_b);
    free(c->random_b);
}

static void fill_points(const cmp_run *c, const cs_estimator *est, const cmp_tally *tl,
                        cs_cmp_result *out)
{
    bool mc = est == &est_pair_mc;
    for (uint64_t k = 0; k < out->n_points; k++) {
        const cmp_tally *t = &tl[k];
        cs_cmp_point *p = &out->point[k];
        double n = (double)t->trials;
        bool random = mc || c->a.layout_random || c->random_b[k];
        cs_experiment_point(&c->a, k, &p->params);
        p->trials = t->trials;
        for (int j = 0; j <= c->a.rs->n_outcomes; j++) {
            p->a[j] = fmin(1.0, fmax(0.0, t->sa[j] / n));
            p->b[j] = fmin(1.0, fmax(0.0, t->sb[j] / n));
            delta_interval(t, j, random, out->z, &p->d[j], &p->lo[j], &p->hi[j]);
        }
    }
}

cs_status cs_sim_compare(const cs_experiment *a, const cs_experiment *b, const cs_run_opts *opts,
                         cs_cmp_result *out, cs_error *err)
{
    cmp_run c;
    cs_method m = CS_METHOD_MC;
    memset(out, 0, sizeof *out);
    memset(&c, 0, sizeof c);
    if (a->rs != b->rs || a->n_points != b->n_points || a->trials != b->trials ||
        a->seed != b->seed)
        return cs_error_set(err, CS_EINPUT,
                            "variant B must keep A's ruleset, sweep shape, trials and seed");
    cs_status st = pair_method(a, b, &m, err);
    if (st != CS_OK)
        return st;
    const cs_estimator *est = m == CS_METHOD_MC            ? &est_pair_mc
                              : m == CS_METHOD_CONDITIONAL ? &est_pair_cond
                                                           : &est_pair_exact;
    c.a = *a;
    c.a.method = m;
    c.b = b;
    cs_est_run_init(&c.run_b, b, est, opts->success_mask);
    cmp_tally *tl = calloc(a->n_points ? (size_t)a->n_points : 1, sizeof *tl);
    out->point = calloc(a->n_points ? (size_t)a->n_points : 1, sizeof *out->point);
    if (!tl || !out->point)
        st = cs_error_set(err, CS_ENOMEM, "out of memory");
    if (st == CS_OK)
        st = prepare_b(&c, err);
    if (st == CS_OK)
        st = cs_sim_run_tallies(&c.a, est, opts, tl, &out->precision_met, err);
    if (st == CS_OK) {
        out->a = a;
        out->b = b;
        out->method = m;
        out->z = cs_stats_z(a->confidence);
        out->n_points = a->n_points;
        out->success_mask = c.run_b.success_mask;
        fill_points(&c, est, tl, out);
    }
    free(tl);
    free_b(&c);
    if (st != CS_OK)
        cs_cmp_result_free(out);
    return st;
}

void cs_cmp_result_free(cs_cmp_result *r)
{
    free(r->point);
    memset(r, 0, sizeof *r);
}

/* Why B cannot pair with A, or NULL: rows pair by sweep point, so B must
 * keep the sweep; the same trials and seed are what makes the pairing. */
const char *cs_cmp_pair_problem(const cs_experiment *a, const cs_experiment *b, char *buf,
                                size_t cap)
{
    if (a->trials != b->trials || a->seed != b->seed)
        return "--b changes trials or seed: both variants run the same trials on the same "
               "seed (set them with --trials and --seed)";
    bool same_sweep = a->n_sweep == b->n_sweep && a->n_points == b->n_points;
    for (int s = 0; same_sweep && s < a->n_sweep; s++)
        same_sweep = a->sweep[s] == b->sweep[s] &&
                     a->param[a->sweep[s]].n == b->param[b->sweep[s]].n;
    if (!same_sweep) {
        snprintf(buf, cap,
                 "--b changes the sweep shape (A has %llu sweep points, B %llu): rows pair "
                 "point by point, so sweep a key with --set (both variants) and give B fixed "
                 "values",
                 (unsigned long long)a->n_points, (unsigned long long)b->n_points);
        return buf;
    }
    bool same = a->method == b->method && a->confidence == b->confidence &&
                a->precision == b->precision;
    for (int i = 0; same && i < a->rs->n_params; i++)
        same = strcmp(a->param[i].raw ? a->param[i].raw : "",
                      b->param[i].raw ? b->param[i].raw : "") == 0;
    return same ? "--b changes nothing: variant B equals A" : NULL;
}
