/* SPDX-License-Identifier: GPL-3.0-or-later */
/* What every ruleset shares beyond its own file (include/chargesim/ruleset.h):
 * names to indices, an exact metric distribution built value by value, and
 * the one exact evaluation of a layout through the interface. Pure, like
 * the rulesets. */
#include <math.h>
#include <string.h>

#include "chargesim/ruleset.h"

int cs_ruleset_param_index(const cs_ruleset *rs, const char *key)
{
    for (int i = 0; i < rs->n_params; i++)
        if (strcmp(rs->params[i].key, key) == 0)
            return i;
    return -1;
}

int cs_ruleset_outcome_index(const cs_ruleset *rs, const char *name)
{
    for (int i = 0; i < rs->n_outcomes; i++)
        if (strcmp(rs->outcomes[i], name) == 0)
            return i;
    return -1;
}

int cs_ruleset_metric_index(const cs_ruleset *rs, const char *name)
{
    for (int i = 0; i < rs->n_metrics; i++)
        if (strcmp(rs->metrics[i].name, name) == 0)
            return i;
    return -1;
}

void cs_probs_add(cs_probs *pr, int m, double v, double q)
{
    if (v != v)
        return;
    pr->mean[m] += q * v;
    pr->pdef[m] += q;
    if (pr->n[m] < 0)
        return;
    for (int i = 0; i < pr->n[m]; i++)
        if (pr->value[m][i] == v) {
            pr->prob[m][i] += q;
            return;
        }
    if (pr->n[m] == CS_PROBS_MAX_VALUES) {
        pr->n[m] = -1;
        return;
    }
    pr->value[m][pr->n[m]] = v;
    pr->prob[m][pr->n[m]++] = q;
}

double cs_ruleset_eval_layout(const cs_ruleset *rs, const void *ctx, const void *layout,
                              unsigned success_mask, cs_probs *pr)
{
    for (int o = 0; o < rs->n_outcomes; o++)
        pr->p[o] = 0.0;
    for (int m = 0; m < rs->n_metrics; m++) {
        pr->n[m] = 0;
        pr->mean[m] = (double)NAN;
        pr->pdef[m] = (double)NAN;
    }
    rs->outcome_probabilities(ctx, layout, pr);
    double s = 0.0;
    for (int o = 0; o < rs->n_outcomes; o++)
        if (success_mask & (1u << o))
            s += pr->p[o];
    return s;
}

const char *cs_ruleset_type_name(cs_param_type t)
{
    static const char *const names[] = {"real", "int", "bool", "choice", "dice", "text", "polygon"};
    return names[t];
}
