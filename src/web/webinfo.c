/* The rulesets as JSON for the page; see include/chargesim/webinfo.h. */
#include "chargesim/webinfo.h"

#include "chargesim/columns.h"
#include "chargesim/experiment.h"
#include "chargesim/ruleset.h"

static void param(cs_webjson *j, const cs_param_def *d)
{
    char accepted[512];
    cs_columns_accepted(d, accepted, sizeof accepted);
    cs_webjson_open(j, '{');
    cs_webjson_key(j, "key");
    cs_webjson_string(j, d->key);
    cs_webjson_key(j, "type");
    cs_webjson_string(j, cs_ruleset_type_name(d->type));
    cs_webjson_key(j, "default");
    cs_webjson_string(j, d->def);
    cs_webjson_key(j, "unit");
    cs_webjson_string(j, d->unit);
    cs_webjson_key(j, "help");
    cs_webjson_string(j, d->help);
    cs_webjson_key(j, "accepted");
    cs_webjson_string(j, accepted);
    cs_webjson_key(j, "min");
    cs_webjson_number(j, d->min);
    cs_webjson_key(j, "max");
    cs_webjson_number(j, d->max);
    cs_webjson_key(j, "choices");
    cs_webjson_open(j, '[');
    for (int c = 0; d->choices && d->choices[c]; c++)
        cs_webjson_string(j, d->choices[c]);
    cs_webjson_close(j, ']');
    cs_webjson_key(j, "layout");
    cs_webjson_bool(j, (d->flags & CS_PF_LAYOUT) != 0);
    cs_webjson_key(j, "assumption");
    cs_webjson_bool(j, (d->flags & CS_PF_ASSUMPTION) != 0);
    cs_webjson_close(j, '}');
}

static void ruleset(cs_webjson *j, const cs_ruleset *rs)
{
    cs_webjson_open(j, '{');
    cs_webjson_key(j, "name");
    cs_webjson_string(j, rs->name);
    cs_webjson_key(j, "summary");
    cs_webjson_string(j, rs->summary);
    cs_webjson_key(j, "doc");
    cs_webjson_string(j, rs->doc);
    cs_webjson_key(j, "params");
    cs_webjson_open(j, '[');
    for (int i = 0; i < rs->n_params; i++)
        param(j, &rs->params[i]);
    cs_webjson_close(j, ']');
    cs_webjson_key(j, "outcomes");
    cs_webjson_open(j, '[');
    for (int o = 0; o < rs->n_outcomes; o++)
        cs_webjson_string(j, rs->outcomes[o]);
    cs_webjson_close(j, ']');
    cs_webjson_key(j, "success");
    cs_webjson_open(j, '[');
    for (int o = 0; o < rs->n_outcomes; o++)
        if ((rs->success_mask >> o) & 1u)
            cs_webjson_string(j, rs->outcomes[o]);
    cs_webjson_close(j, ']');
    cs_webjson_key(j, "metrics");
    cs_webjson_open(j, '[');
    for (int m = 0; m < rs->n_metrics; m++) {
        cs_webjson_open(j, '{');
        cs_webjson_key(j, "name");
        cs_webjson_string(j, rs->metrics[m].name);
        cs_webjson_key(j, "unit");
        cs_webjson_string(j, rs->metrics[m].unit);
        cs_webjson_key(j, "help");
        cs_webjson_string(j, rs->metrics[m].help);
        cs_webjson_close(j, '}');
    }
    cs_webjson_close(j, ']');
    cs_webjson_key(j, "map");
    cs_webjson_bool(j, rs->map_place != NULL);
    cs_webjson_key(j, "exact");
    cs_webjson_bool(j, rs->outcome_probabilities != NULL);
    cs_webjson_close(j, '}');
}

void cs_webinfo_write(cs_webjson *j)
{
    cs_webjson_open(j, '{');
    cs_webjson_key(j, "version");
    cs_webjson_string(j, CS_VERSION);
    cs_webjson_key(j, "methods");
    cs_webjson_open(j, '[');
    for (int m = CS_METHOD_AUTO; m <= CS_METHOD_RQMC; m++)
        cs_webjson_string(j, cs_method_name((cs_method)m));
    cs_webjson_close(j, ']');
    cs_webjson_key(j, "rulesets");
    cs_webjson_open(j, '[');
    for (int i = 0; i < cs_ruleset_count(); i++)
        ruleset(j, cs_ruleset_at(i));
    cs_webjson_close(j, ']');
    cs_webjson_close(j, '}');
}
