/* The block driver; see include/chargesim/sim.h. The only file that uses
 * OpenMP. */
#include "chargesim/sim.h"

#include <math.h>
#include <omp.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* Everything one sweep point accumulates. Integer tallies are added with
 * atomics (order-free); double sums only ever in block order. */
typedef struct point_state {
    void *ctx;
    void *layout;          /* the fixed layout, when it does not vary */
    cs_params params;
    bool random_layout;
    bool active;           /* still running blocks (--precision) */
    uint64_t blocks_done;
    uint64_t trials;       /* trials or layouts accumulated */
    uint64_t count[CS_MAX_OUTCOMES];
    uint64_t mdef[CS_MAX_METRICS];    /* sampled: trials where the metric was defined */
    unsigned sampled_mask;            /* metrics estimated by sampling */
    double sum_p[CS_MAX_OUTCOMES];    /* conditional: sums of per-layout probabilities */
    double sum_ps, sum_ps2;           /* conditional: of p_success and its square */
    double comp_p[CS_MAX_OUTCOMES], comp_ps; /* their compensations */
    double sum_p2[CS_MAX_OUTCOMES];   /* conditional: sums of squared per-layout probabilities */
    double msum[CS_MAX_METRICS];      /* mc: sum; conditional: sum of E[X 1{def}] or sampled X */
    double mpdef[CS_MAX_METRICS];     /* conditional: sum of P(def) or sampled 1{def} */
} point_state;

/* Doubles one block contributes, in a fixed slot so they are added in block order. */
typedef struct slot_shape {
    int n_out, n_met, nd;
} slot_shape;

/* Slot layout: ps, ps2, p[o]..., m1[m]..., m2[m]..., the compensations of ps
 * and p[o], then p[o]^2... */
enum { S_PS = 0, S_PS2 = 1 };

static inline double *slot_p(double *s, const slot_shape *sh)
{
    (void)sh;
    return s + 2;
}
static inline double *slot_m1(double *s, const slot_shape *sh) { return s + 2 + sh->n_out; }
static inline double *slot_m2(double *s, const slot_shape *sh)
{
    return s + 2 + sh->n_out + sh->n_met;
}
/* Compensations of ps and p[o] (Neumaier summation): a fixed layout repeated
 * 10^6 times must still sum to n times its value to ~1e-16, so that
 * conditional equals exact to 1e-12. */
static inline double *slot_comp(double *s, const slot_shape *sh)
{
    return s + 2 + sh->n_out + 2 * sh->n_met;
}

static inline double *slot_p2(double *s, const slot_shape *sh)
{
    return s + 3 + 2 * sh->n_out + 2 * sh->n_met;
}

/* Neumaier's compensated addition: *sum + *comp tracks the exact sum. */
static inline void ksum(double *sum, double *comp, double x)
{
    double t = *sum + x;
    if (fabs(*sum) >= fabs(x))
        *comp += (*sum - t) + x;
    else
        *comp += (x - t) + *sum;
    *sum = t;
}

typedef struct drawn_param {
    int index;
    bool uniform;
    double a, b, min, max;
} drawn_param;

typedef struct run_ctx {
    const cs_experiment *e;
    const cs_ruleset *rs;
    cs_method method;
    const cs_run_opts *opts;
    uint64_t block_size, trials;
    point_state *pt;
    slot_shape sh;
    drawn_param drawn[CS_MAX_PARAMS];
    int n_drawn;
    unsigned success_mask;
    cs_binning bins[CS_MAX_METRICS];
    int bin_offset[CS_MAX_METRICS + 1]; /* offsets into one point's histogram */
    uint64_t **thread_hist;             /* [thread][point * bins] */
    unsigned hist_mask;                 /* metrics whose histogram this pass fills */
    uint64_t done, planned;             /* progress, trials */
} run_ctx;

uint64_t cs_sim_block_size(uint64_t trials)
{
    uint64_t b = (trials + CS_SIM_MAX_BLOCKS - 1) / CS_SIM_MAX_BLOCKS;
    return b < CS_SIM_MIN_BLOCK ? CS_SIM_MIN_BLOCK : b;
}

static uint64_t block_trials(const run_ctx *rc, uint64_t b)
{
    /* Blocks past the initial trials (--precision) are all full size. */
    uint64_t start = b * rc->block_size;
    if (start >= rc->trials)
        return rc->block_size;
    uint64_t left = rc->trials - start;
    return left < rc->block_size ? left : rc->block_size;
}

static void draw_params(const run_ctx *rc, double *num, cs_rng *rng)
{
    for (int i = 0; i < rc->n_drawn; i++) {
        const drawn_param *d = &rc->drawn[i];
        double x = d->uniform ? d->a + (d->b - d->a) * cs_rng_uniform(rng)
                              : d->a + d->b * cs_rng_normal(rng);
        /* A normal draw is clamped to the parameter's valid range (a
         * distance cannot be negative); documented in the README. */
        num[d->index] = x < d->min ? d->min : x > d->max ? d->max : x;
    }
}

static void hist_add(uint64_t *h, const run_ctx *rc, int m, double v, uint64_t mass)
{
    if (!((rc->hist_mask >> m) & 1u))
        return;
    h[rc->bin_offset[m] + cs_binning_index(&rc->bins[m], v)] += mass;
}

/* Monte Carlo: sample layout and dice for every trial. */
static void block_mc(run_ctx *rc, uint64_t k, uint64_t b, double *slot, void *layout,
                     uint64_t *hist)
{
    const cs_ruleset *rs = rc->rs;
    point_state *ps = &rc->pt[k];
    const slot_shape *sh = &rc->sh;
    uint64_t n = block_trials(rc, b);
    cs_tally tl;
    double *m1 = slot_m1(slot, sh);
    double num[CS_MAX_PARAMS];
    cs_rng rng;
    cs_trial tr;
    const void *lay = ps->random_layout ? layout : ps->layout;
    const int nm = rs->n_metrics;

    memset(&tl, 0, sizeof tl);
    cs_rng_stream(&rng, rc->e->seed, k, b);
    if (!ps->random_layout && !hist && rs->resolve_batch) {
        /* The same draws and sums as the loop below, without a call per trial. */
        rs->resolve_batch(ps->ctx, lay, &rng, n, &tl);
    } else {
        memcpy(num, ps->params.num, sizeof num);
        for (uint64_t t = 0; t < n; t++) {
            if (ps->random_layout) {
                draw_params(rc, num, &rng);
                rs->draw_layout(ps->ctx, num, &rng, layout);
            }
            rs->resolve(ps->ctx, lay, &rng, &tr);
            tl.count[tr.outcome]++;
            for (int m = 0; m < nm; m++) {
                double v = tr.m[m];
                if (v == v) { /* not NAN: measured in this trial */
                    tl.mdef[m]++;
                    tl.msum[m] += v;
                    if (hist)
                        hist_add(hist, rc, m, v, 1u);
                }
            }
        }
    }
    for (int m = 0; m < nm; m++)
        m1[m] = tl.msum[m];
    for (int o = 0; o < rs->n_outcomes; o++) {
#pragma omp atomic
        ps->count[o] += tl.count[o];
    }
    for (int m = 0; m < nm; m++) {
#pragma omp atomic
        ps->mdef[m] += tl.mdef[m];
    }
}

static double success_of(const run_ctx *rc, const double *p)
{
    double s = 0.0;
    for (int o = 0; o < rc->rs->n_outcomes; o++)
        if (rc->success_mask & (1u << o))
            s += p[o];
    return s;
}

/* Adds one layout's exact answer (and, for metrics it leaves open, one
 * sampled value) to the block's slot. */
static void add_layout(run_ctx *rc, const point_state *ps, const void *lay, cs_rng *rng,
                       double *slot, uint64_t *hist, unsigned *sampled)
{
    const cs_ruleset *rs = rc->rs;
    const slot_shape *sh = &rc->sh;
    cs_probs pr;
    double *p = slot_p(slot, sh), *m1 = slot_m1(slot, sh), *m2 = slot_m2(slot, sh);
    double *comp = slot_comp(slot, sh);
    bool need_sample = false;

    for (int o = 0; o < rs->n_outcomes; o++)
        pr.p[o] = 0.0;
    for (int m = 0; m < rs->n_metrics; m++) {
        pr.n[m] = 0;
        pr.mean[m] = (double)NAN;
        pr.pdef[m] = (double)NAN;
    }
    rs->outcome_probabilities(ps->ctx, lay, &pr);
    double s = success_of(rc, pr.p);
    ksum(&slot[S_PS], &comp[0], s);
    slot[S_PS2] += s * s;
    double *p2 = slot_p2(slot, sh);
    for (int o = 0; o < rs->n_outcomes; o++) {
        ksum(&p[o], &comp[1 + o], pr.p[o]);
        p2[o] += pr.p[o] * pr.p[o];
    }
    for (int m = 0; m < rs->n_metrics; m++) {
        if (pr.n[m] > 0) {
            double mean = 0.0, def = 0.0;
            for (int i = 0; i < pr.n[m]; i++) {
                mean += pr.value[m][i] * pr.prob[m][i];
                def += pr.prob[m][i];
                if (hist)
                    hist_add(hist, rc, m, pr.value[m][i],
                             (uint64_t)llround(pr.prob[m][i] * CS_FIXED_ONE));
            }
            m1[m] += mean;
            m2[m] += def;
        } else if (pr.mean[m] == pr.mean[m]) {
            m1[m] += pr.mean[m];
            m2[m] += pr.pdef[m] == pr.pdef[m] ? pr.pdef[m] : 1.0;
        } else {
            need_sample = true;
        }
    }
    if (!need_sample)
        return;
    /* Metrics without exact information: one sampled trial on the same
     * layout estimates them without bias. */
    cs_trial tr;
    rs->resolve(ps->ctx, lay, rng, &tr);
    for (int m = 0; m < rs->n_metrics; m++) {
        if (pr.n[m] > 0 || pr.mean[m] == pr.mean[m])
            continue;
        *sampled |= 1u << m;
        double v = tr.m[m];
        if (v == v) {
            m1[m] += v;
            m2[m] += 1.0;
            if (hist)
                hist_add(hist, rc, m, v, (uint64_t)CS_FIXED_ONE);
        }
    }
}

/* Conditional Monte Carlo: sample layouts, exact dice given each. */
static void block_conditional(run_ctx *rc, uint64_t k, uint64_t b, double *slot, void *layout,
                              uint64_t *hist)
{
    point_state *ps = &rc->pt[k];
    uint64_t n = block_trials(rc, b);
    double num[CS_MAX_PARAMS];
    unsigned sampled = 0;
    cs_rng rng;
    const void *lay = ps->random_layout ? layout : ps->layout;

    cs_rng_stream(&rng, rc->e->seed, k, b);
    memcpy(num, ps->params.num, sizeof num);
    for (uint64_t t = 0; t < n; t++) {
        if (ps->random_layout) {
            draw_params(rc, num, &rng);
            rc->rs->draw_layout(ps->ctx, num, &rng, layout);
        }
        add_layout(rc, ps, lay, &rng, slot, hist, &sampled);
    }
    if (sampled) {
#pragma omp atomic
        ps->sampled_mask |= sampled;
    }
}

static void run_round(run_ctx *rc, const uint64_t *items, uint64_t n_items, double *slots)
{
    const cs_ruleset *rs = rc->rs;
    const int threads = rc->opts->threads;
#pragma omp parallel num_threads(threads > 0 ? threads : omp_get_max_threads())
    {
        void *layout = malloc(rs->layout_size ? rs->layout_size : 1);
        uint64_t *th = rc->thread_hist ? rc->thread_hist[omp_get_thread_num()] : NULL;
        int hb = rc->bin_offset[rs->n_metrics];
#pragma omp for schedule(dynamic, 1)
        for (uint64_t i = 0; i < n_items; i++) {
            uint64_t k = items[2 * i], b = items[2 * i + 1];
            double *slot = slots + i * (uint64_t)rc->sh.nd;
            uint64_t *hist = th ? th + k * (uint64_t)hb : NULL;
            memset(slot, 0, (size_t)rc->sh.nd * sizeof *slot);
            if (layout) {
                if (rc->method == CS_METHOD_MC)
                    block_mc(rc, k, b, slot, layout, hist);
                else
                    block_conditional(rc, k, b, slot, layout, hist);
            }
            uint64_t nt = block_trials(rc, b);
#pragma omp atomic
            rc->done += nt;
            if (omp_get_thread_num() == 0 && rc->opts->progress) {
                uint64_t seen;
#pragma omp atomic read
                seen = rc->done;
                rc->opts->progress(rc->opts->progress_user, seen, rc->planned);
            }
        }
        free(layout);
    }
}

/* Adds a round's slots into the points, in item order (point, then block). */
static void merge_round(run_ctx *rc, const uint64_t *items, uint64_t n_items, const double *slots)
{
    const slot_shape *sh = &rc->sh;
    for (uint64_t i = 0; i < n_items; i++) {
        point_state *ps = &rc->pt[items[2 * i]];
        double *s = (double *)(slots + i * (uint64_t)sh->nd);
        ps->trials += block_trials(rc, items[2 * i + 1]);
        ps->blocks_done++;
        ksum(&ps->sum_ps, &ps->comp_ps, s[S_PS] + slot_comp(s, sh)[0]);
        ps->sum_ps2 += s[S_PS2];
        for (int o = 0; o < sh->n_out; o++) {
            ksum(&ps->sum_p[o], &ps->comp_p[o], slot_p(s, sh)[o] + slot_comp(s, sh)[1 + o]);
            ps->sum_p2[o] += slot_p2(s, sh)[o];
        }
        for (int m = 0; m < sh->n_met; m++) {
            ps->msum[m] += slot_m1(s, sh)[m];
            if (rc->method != CS_METHOD_MC)
                ps->mpdef[m] += slot_m2(s, sh)[m];
        }
    }
}

/* The estimate and interval of a probability from a point's tallies: mc,
 * the Wilson interval of `count` in the trials; conditional, the mean of
 * the per-layout probabilities (sum, sum of squares) with its normal
 * interval. A layout drawn at random can always hide a rarer one the sample
 * missed: with n layouts all alike, up to w = z^2 / (n + z^2) of them (the
 * Wilson bound for none seen) could lie anywhere in [0, 1], so the interval
 * is never narrower than that. A fixed layout needs no such floor: there
 * the answer is exact. */
static void prob_interval(const run_ctx *rc, const point_state *ps, uint64_t count, double sum,
                          double sum2, double z, double *p, double *lo, double *hi)
{
    if (rc->method == CS_METHOD_MC) {
        *p = (double)count / (double)ps->trials;
        cs_stats_wilson(count, ps->trials, z, lo, hi);
        return;
    }
    cs_moments mo = {ps->trials, sum, sum2};
    /* A mean of probabilities may round a hair outside [0, 1]. */
    *p = fmin(1.0, fmax(0.0, cs_moments_mean(&mo)));
    double var = ps->trials > 1 ? cs_moments_variance(&mo) : 0.0;
    cs_stats_mean_interval(*p, var, ps->trials, z, lo, hi);
    if (ps->random_layout) {
        double w = z * z / ((double)ps->trials + z * z);
        *lo = fmin(*lo, *p - *p * w);
        *hi = fmax(*hi, *p + (1.0 - *p) * w);
    }
    /* Rounding must not push the estimate outside its own interval. */
    if (*lo > *p)
        *lo = *p;
    if (*hi < *p)
        *hi = *p;
}

/* The interval of p_success for a point as accumulated so far. */
static void point_interval(const run_ctx *rc, const point_state *ps, double z, double *p,
                           double *lo, double *hi)
{
    uint64_t succ = 0;
    for (int o = 0; o < rc->rs->n_outcomes; o++)
        if (rc->success_mask & (1u << o))
            succ += ps->count[o];
    prob_interval(rc, ps, succ, ps->sum_ps + ps->comp_ps, ps->sum_ps2, z, p, lo, hi);
}

static cs_status run_blocks(run_ctx *rc, double z, cs_error *err)
{
    const cs_experiment *e = rc->e;
    uint64_t n_points = e->n_points;
    uint64_t first_blocks = (rc->trials + rc->block_size - 1) / rc->block_size;
    uint64_t target_blocks = first_blocks; /* per active point, this round */
    bool precision = e->precision > 0.0;

    for (;;) {
        /* Items of this round: active points, blocks [done, target). */
        uint64_t n_items = 0;
        for (uint64_t k = 0; k < n_points; k++)
            if (rc->pt[k].active)
                n_items += target_blocks - rc->pt[k].blocks_done;
        if (n_items == 0)
            break;
        /* Rounds are cut into chunks so the slots stay small. */
        const uint64_t chunk = 65536;
        uint64_t *items = malloc(2 * (n_items < chunk ? n_items : chunk) * sizeof *items);
        double *slots = malloc((n_items < chunk ? n_items : chunk) * (uint64_t)rc->sh.nd *
                               sizeof *slots);
        if (!items || !slots) {
            free(items);
            free(slots);
            return cs_error_set(err, CS_ENOMEM, "out of memory for %llu blocks",
                                (unsigned long long)n_items);
        }
        rc->planned = rc->done + n_items * rc->block_size;
        uint64_t k = 0, b = 0;
        while (k < n_points && !rc->pt[k].active)
            k++;
        if (k < n_points)
            b = rc->pt[k].blocks_done;
        uint64_t left = n_items;
        while (left > 0) {
            uint64_t n = 0;
            while (n < chunk && k < n_points) {
                items[2 * n] = k;
                items[2 * n + 1] = b;
                n++;
                if (++b >= target_blocks) {
                    do
                        k++;
                    while (k < n_points && !rc->pt[k].active);
                    if (k < n_points)
                        b = rc->pt[k].blocks_done;
                }
            }
            run_round(rc, items, n, slots);
            merge_round(rc, items, n, slots);
            left -= n;
        }
        free(items);
        free(slots);
        if (!precision)
            break;
        /* Points whose interval is still wider than asked run on, with as
         * many blocks again: the stopping rule depends on merged results
         * only, so it is as reproducible as the rest. */
        bool any = false;
        for (uint64_t q = 0; q < n_points; q++) {
            point_state *ps = &rc->pt[q];
            if (!ps->active)
                continue;
            double p, lo, hi;
            point_interval(rc, ps, z, &p, &lo, &hi);
            if (0.5 * (hi - lo) <= e->precision || ps->trials >= CS_SIM_MAX_TRIALS)
                ps->active = false;
            else
                any = true;
        }
        if (!any)
            break;
        target_blocks *= 2;
    }
    return CS_OK;
}

static void fill_result(run_ctx *rc, uint64_t k, double z, cs_point_result *r)
{
    const cs_ruleset *rs = rc->rs;
    point_state *ps = &rc->pt[k];
    r->params = ps->params;
    r->trials = ps->trials;
    point_interval(rc, ps, z, &r->p_success, &r->ci_low, &r->ci_high);
    for (int o = 0; o < rs->n_outcomes; o++) {
        if (rc->method == CS_METHOD_MC) {
            r->outcome_count[o] = ps->count[o];
            r->p_outcome[o] = (double)ps->count[o] / (double)ps->trials;
            if (rc->success_mask & (1u << o))
                r->successes += ps->count[o];
        }
        prob_interval(rc, ps, ps->count[o], ps->sum_p[o] + ps->comp_p[o], ps->sum_p2[o], z,
                      &r->p_outcome[o], &r->outcome_low[o], &r->outcome_high[o]);
    }
    for (int m = 0; m < rs->n_metrics; m++) {
        if (rc->method == CS_METHOD_MC) {
            r->mean[m] = ps->mdef[m] ? ps->msum[m] / (double)ps->mdef[m] : (double)NAN;
            r->mean_sampled[m] = true;
        } else {
            r->mean[m] = ps->mpdef[m] > 0.0 ? ps->msum[m] / ps->mpdef[m] : (double)NAN;
            r->mean_sampled[m] = (ps->sampled_mask >> m) & 1u;
        }
    }
}

static cs_status prepare_points(run_ctx *rc, cs_error *err)
{
    const cs_experiment *e = rc->e;
    const cs_ruleset *rs = rc->rs;
    for (uint64_t k = 0; k < e->n_points; k++) {
        point_state *ps = &rc->pt[k];
        cs_diag diag = {0};
        cs_experiment_point(e, k, &ps->params);
        ps->ctx = calloc(1, rs->ctx_size ? rs->ctx_size : 1);
        ps->layout = calloc(1, rs->layout_size ? rs->layout_size : 1);
        if (!ps->ctx || !ps->layout)
            return cs_error_set(err, CS_ENOMEM, "out of memory");
        if (rs->prepare(&ps->params, ps->ctx, &diag) != CS_OK)
            return cs_error_set(err, CS_EINPUT, "%s: %s", diag.key ? diag.key : "parameters",
                                diag.what ? diag.what : "invalid");
        ps->random_layout =
            rc->n_drawn > 0 || (rs->layout_is_random && rs->layout_is_random(ps->ctx));
        ps->active = true;
        if (!ps->random_layout) {
            /* A fixed layout is built once, from a stream of its own. */
            cs_rng rng;
            cs_rng_stream(&rng, e->seed, k, UINT64_MAX);
            rs->draw_layout(ps->ctx, ps->params.num, &rng, ps->layout);
        }
    }
    return CS_OK;
}

/* Exact: one evaluation of the fixed layout per point. Metrics the ruleset
 * cannot give exactly are then sampled on that layout for `trials` trials. */
static void run_exact(run_ctx *rc)
{
    const cs_ruleset *rs = rc->rs;
    for (uint64_t k = 0; k < rc->e->n_points; k++) {
        point_state *ps = &rc->pt[k];
        double slot[3 + 3 * CS_MAX_OUTCOMES + 2 * CS_MAX_METRICS] = {0};
        unsigned sampled = 0;
        cs_rng rng;
        uint64_t *hist = rc->thread_hist
                             ? rc->thread_hist[0] + k * (uint64_t)rc->bin_offset[rs->n_metrics]
                             : NULL;
        cs_rng_stream(&rng, rc->e->seed, k, 0);
        add_layout(rc, ps, ps->layout, &rng, slot, hist, &sampled);
        ps->trials = 1;
        ps->sum_ps = slot[S_PS] + slot_comp(slot, &rc->sh)[0];
        ps->sum_ps2 = slot[S_PS2];
        for (int o = 0; o < rs->n_outcomes; o++) {
            ps->sum_p[o] = slot_p(slot, &rc->sh)[o] + slot_comp(slot, &rc->sh)[1 + o];
            ps->sum_p2[o] = slot_p2(slot, &rc->sh)[o];
        }
        for (int m = 0; m < rs->n_metrics; m++) {
            ps->msum[m] = slot_m1(slot, &rc->sh)[m];
            ps->mpdef[m] = slot_m2(slot, &rc->sh)[m];
        }
        ps->sampled_mask = sampled;
        ps->active = false;
    }
}

/* The sampled metrics of an exact run, with the mc driver on the same layout. */
static void sample_exact_metrics(run_ctx *rc, cs_run_result *out)
{
    const cs_ruleset *rs = rc->rs;
    unsigned any = 0;
    for (uint64_t k = 0; k < rc->e->n_points; k++)
        any |= rc->pt[k].sampled_mask;
    if (!any)
        return;
    run_ctx mc = *rc;
    mc.method = CS_METHOD_MC;
    point_state *saved = rc->pt;
    point_state *fresh = calloc(rc->e->n_points, sizeof *fresh);
    if (!fresh)
        return;
    for (uint64_t k = 0; k < rc->e->n_points; k++) {
        fresh[k] = saved[k];
        memset(fresh[k].count, 0, sizeof fresh[k].count);
        memset(fresh[k].mdef, 0, sizeof fresh[k].mdef);
        memset(fresh[k].msum, 0, sizeof fresh[k].msum);
        fresh[k].trials = 0;
        fresh[k].blocks_done = 0;
        fresh[k].active = true;
    }
    mc.pt = fresh;
    /* Their histograms are rebuilt from the samples alone (counts), the
     * exact metrics' ones are left as they are. */
    mc.hist_mask = any;
    if (mc.thread_hist) {
        int hb = rc->bin_offset[rs->n_metrics];
        for (uint64_t k = 0; k < rc->e->n_points; k++)
            for (int m = 0; m < rs->n_metrics; m++)
                if ((any >> m) & 1u)
                    memset(mc.thread_hist[0] + k * (uint64_t)hb + (uint64_t)rc->bin_offset[m], 0,
                           (size_t)rc->bins[m].nbins * sizeof(uint64_t));
    }
    cs_error ignored;
    mc.e = rc->e;
    cs_experiment noprec = *rc->e;
    noprec.precision = 0.0;
    mc.e = &noprec;
    (void)run_blocks(&mc, 0.0, &ignored);
    for (uint64_t k = 0; k < rc->e->n_points; k++)
        for (int m = 0; m < rs->n_metrics; m++)
            if ((saved[k].sampled_mask >> m) & 1u) {
                out->point[k].mean[m] = fresh[k].mdef[m]
                                            ? fresh[k].msum[m] / (double)fresh[k].mdef[m]
                                            : (double)NAN;
                out->point[k].mean_sampled[m] = true;
            }
    free(fresh);
}

cs_status cs_sim_run(const cs_experiment *e, const cs_run_opts *opts, cs_run_result *out,
                     cs_error *err)
{
    run_ctx rc;
    cs_status st;
    struct timespec t0, t1;
    clock_gettime(CLOCK_MONOTONIC, &t0);
    memset(out, 0, sizeof *out);
    memset(&rc, 0, sizeof rc);
    rc.e = e;
    rc.rs = e->rs;
    rc.opts = opts;
    rc.trials = e->trials;
    rc.block_size = cs_sim_block_size(e->trials);
    rc.success_mask = e->rs->success_mask;
    rc.hist_mask = ~0u;
    rc.sh.n_out = e->rs->n_outcomes;
    rc.sh.n_met = e->rs->n_metrics;
    rc.sh.nd = 3 + 3 * rc.sh.n_out + 2 * rc.sh.n_met;
    if ((st = cs_experiment_method(e, &rc.method, err)) != CS_OK)
        return st;
    for (int i = 0; i < e->rs->n_params; i++) {
        const cs_value_spec *v = &e->param[i];
        if (v->kind != CS_VAL_UNIFORM && v->kind != CS_VAL_NORMAL)
            continue;
        rc.drawn[rc.n_drawn++] = (drawn_param){i, v->kind == CS_VAL_UNIFORM, v->a, v->b,
                                               e->rs->params[i].min, e->rs->params[i].max};
    }
    rc.bin_offset[0] = 0;
    for (int m = 0; m < e->rs->n_metrics; m++) {
        const cs_metric_def *md = &e->rs->metrics[m];
        rc.bins[m] = cs_binning_make(md->lo, md->hi, md->resolution);
        rc.bin_offset[m + 1] = rc.bin_offset[m] + rc.bins[m].nbins;
        out->bins[m] = rc.bins[m];
    }
    rc.pt = calloc(e->n_points, sizeof *rc.pt);
    out->point = calloc(e->n_points, sizeof *out->point);
    int n_threads = opts->threads > 0 ? opts->threads : omp_get_max_threads();
    if (!rc.pt || !out->point) {
        st = cs_error_set(err, CS_ENOMEM, "out of memory");
        goto done;
    }
    if (opts->want_dist) {
        uint64_t hb = (uint64_t)rc.bin_offset[e->rs->n_metrics] * e->n_points;
        rc.thread_hist = calloc((size_t)n_threads, sizeof *rc.thread_hist);
        if (!rc.thread_hist) {
            st = cs_error_set(err, CS_ENOMEM, "out of memory");
            goto done;
        }
        for (int t = 0; t < n_threads; t++)
            if (!(rc.thread_hist[t] = calloc(hb ? hb : 1, sizeof **rc.thread_hist))) {
                st = cs_error_set(err, CS_ENOMEM, "out of memory for histograms");
                goto done;
            }
    }
    if ((st = prepare_points(&rc, err)) != CS_OK)
        goto done;
    out->exp = e;
    out->method = rc.method;
    out->z = cs_stats_z(e->confidence);
    out->n_points = e->n_points;
    if (rc.method == CS_METHOD_EXACT)
        run_exact(&rc);
    else if ((st = run_blocks(&rc, out->z, err)) != CS_OK)
        goto done;
    out->precision_met = true;
    for (uint64_t k = 0; k < e->n_points; k++) {
        fill_result(&rc, k, out->z, &out->point[k]);
        if (e->precision > 0.0 &&
            0.5 * (out->point[k].ci_high - out->point[k].ci_low) > e->precision)
            out->precision_met = false;
    }
    if (rc.method == CS_METHOD_EXACT)
        sample_exact_metrics(&rc, out);
    if (rc.thread_hist) {
        int hb = rc.bin_offset[e->rs->n_metrics];
        for (uint64_t k = 0; k < e->n_points; k++)
            for (int m = 0; m < e->rs->n_metrics; m++) {
                uint64_t *h = calloc((size_t)rc.bins[m].nbins, sizeof *h);
                if (!h) {
                    st = cs_error_set(err, CS_ENOMEM, "out of memory for histograms");
                    goto done;
                }
                double total = 0.0;
                for (int i = 0; i < rc.bins[m].nbins; i++) {
                    for (int t = 0; t < n_threads; t++)
                        h[i] += rc.thread_hist[t][k * (uint64_t)hb +
                                                  (uint64_t)(rc.bin_offset[m] + i)];
                    total += (double)h[i];
                }
                out->point[k].hist[m] = h;
                out->point[k].hist_total[m] = total;
            }
    }
done:
    if (rc.thread_hist) {
        for (int t = 0; t < n_threads; t++)
            free(rc.thread_hist[t]);
        free(rc.thread_hist);
    }
    if (rc.pt) {
        for (uint64_t k = 0; k < e->n_points; k++) {
            free(rc.pt[k].ctx);
            free(rc.pt[k].layout);
        }
        free(rc.pt);
    }
    if (st != CS_OK) {
        cs_run_result_free(out);
        return st;
    }
    clock_gettime(CLOCK_MONOTONIC, &t1);
    out->seconds = (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec);
    return CS_OK;
}

void cs_run_result_free(cs_run_result *r)
{
    if (r->point)
        for (uint64_t k = 0; k < r->n_points; k++)
            for (int m = 0; m < CS_MAX_METRICS; m++)
                free(r->point[k].hist[m]);
    free(r->point);
    memset(r, 0, sizeof *r);
}

cs_status cs_sim_trial_params(const cs_experiment *e, uint64_t point, uint64_t trial,
                              double *num, cs_error *err)
{
    const cs_ruleset *rs = e->rs;
    run_ctx rc;
    cs_params p;
    cs_diag diag = {0};
    cs_status st = CS_OK;
    if (point >= e->n_points)
        return cs_error_set(err, CS_EINPUT, "sweep point %llu: the experiment has %llu",
                            (unsigned long long)point, (unsigned long long)e->n_points);
    memset(&rc, 0, sizeof rc);
    rc.e = e;
    rc.trials = e->trials;
    rc.block_size = cs_sim_block_size(e->trials);
    for (int i = 0; i < rs->n_params; i++) {
        const cs_value_spec *v = &e->param[i];
        if (v->kind == CS_VAL_UNIFORM || v->kind == CS_VAL_NORMAL)
            rc.drawn[rc.n_drawn++] = (drawn_param){i, v->kind == CS_VAL_UNIFORM, v->a, v->b,
                                                   rs->params[i].min, rs->params[i].max};
    }
    cs_experiment_point(e, point, &p);
    void *ctx = calloc(1, rs->ctx_size ? rs->ctx_size : 1);
    void *layout = calloc(1, rs->layout_size ? rs->layout_size : 1);
    if (!ctx || !layout) {
        st = cs_error_set(err, CS_ENOMEM, "out of memory");
        goto done;
    }
    if (rs->prepare(&p, ctx, &diag) != CS_OK) {
        st = cs_error_set(err, CS_EINPUT, "%s: %s", diag.key ? diag.key : "parameters",
                          diag.what ? diag.what : "invalid");
        goto done;
    }
    memcpy(num, p.num, sizeof p.num);
    bool random = rc.n_drawn > 0 || (rs->layout_is_random && rs->layout_is_random(ctx));
    if (!random)
        goto done; /* every trial has the point's own values */
    cs_rng rng;
    cs_trial tr;
    uint64_t b = trial / rc.block_size;
    cs_rng_stream(&rng, e->seed, point, b);
    for (uint64_t t = b * rc.block_size;; t++) {
        draw_params(&rc, num, &rng);
        if (t == trial)
            break;
        rs->draw_layout(ctx, num, &rng, layout);
        rs->resolve(ctx, layout, &rng, &tr);
    }
done:
    free(ctx);
    free(layout);
    return st;
}
