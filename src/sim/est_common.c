/* Helpers every estimator shares; see include/chargesim/estimator.h. */
#include "chargesim/estimator.h"

const cs_estimator *cs_estimator_for(cs_method m)
{
    switch (m) {
    case CS_METHOD_MC:
        return &cs_est_mc;
    case CS_METHOD_CONDITIONAL:
        return &cs_est_conditional;
    case CS_METHOD_EXACT:
        return &cs_est_exact;
    case CS_METHOD_AUTO:
        break;
    }
    return NULL;
}

void cs_est_draw_params(const cs_est_run *run, double *num, cs_rng *rng)
{
    for (int i = 0; i < run->n_draw; i++) {
        const cs_est_draw *d = &run->draw[i];
        double x = d->uniform ? d->a + (d->b - d->a) * cs_rng_uniform(rng)
                              : d->a + d->b * cs_rng_normal(rng);
        /* A normal draw is clamped to the parameter's valid range (a
         * distance cannot be negative); documented in the README. */
        num[d->index] = x < d->min ? d->min : x > d->max ? d->max : x;
    }
}

void cs_est_hist_add(const cs_est_run *run, uint64_t *h, int m, double v, uint64_t mass)
{
    if (!((run->hist_mask >> m) & 1u))
        return;
    h[run->bin_offset[m] + cs_binning_index(&run->bins[m], v)] += mass;
}

double cs_est_success_of(const cs_est_run *run, const double *p)
{
    double s = 0.0;
    for (int o = 0; o < run->rs->n_outcomes; o++)
        if (run->success_mask & (1u << o))
            s += p[o];
    return s;
}
