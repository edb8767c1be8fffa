/* The table of rulesets: the one place a new game is listed. */
#include <string.h>

#include "chargesim/ruleset.h"
#include "chargesim/rules.h"

static const cs_ruleset *const table[] = {
    &cs_rules_generic,
    &cs_rules_t9a,
    &cs_rules_coreheim,
    &cs_rules_sovl,
    &cs_rules_sovl_dice,
    &cs_rules_asoiaf,
};

int cs_ruleset_count(void)
{
    return (int)(sizeof table / sizeof table[0]);
}

const cs_ruleset *cs_ruleset_at(int i)
{
    return (i >= 0 && i < cs_ruleset_count()) ? table[i] : NULL;
}

const cs_ruleset *cs_ruleset_find(const char *name)
{
    for (int i = 0; i < cs_ruleset_count(); i++)
        if (strcmp(table[i]->name, name) == 0)
            return table[i];
    return NULL;
}

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

const char *cs_ruleset_type_name(cs_param_type t)
{
    static const char *const names[] = {"real", "int", "bool", "choice", "dice", "text", "polygon"};
    return names[t];
}
