/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rulesets as JSON for the page; see include/chargesim/webinfo.h. */
#include "chargesim/webinfo.h"

#include <stdio.h>
#include <string.h>

#include "chargesim/columns.h"
#include "chargesim/experiment.h"
#include "chargesim/map.h"
#include "chargesim/registry.h"

/* One setting of a command's form: its key in the link, its default as
 * text and what it does. */
typedef struct setting {
    const char *key, *def, *help;
} setting;

static void settings(cs_webjson *j, const char *cmd, const setting *s, int n)
{
    cs_webjson_key(j, cmd);
    cs_webjson_open(j, '[');
    for (int i = 0; i < n; i++) {
        cs_webjson_open(j, '{');
        cs_webjson_kstring(j, "key", s[i].key);
        cs_webjson_kstring(j, "default", s[i].def);
        cs_webjson_kstring(j, "help", s[i].help);
        cs_webjson_close(j, '}');
    }
    cs_webjson_close(j, ']');
}

/* The settings each command takes besides the ruleset's parameters, their
 * defaults those of a fresh experiment (experiment.c) and of the map. */
static void all_settings(cs_webjson *j)
{
    cs_experiment e;
    char trials[32], seed[32], conf[32];
    cs_experiment_init(&e, "-");
    snprintf(trials, sizeof trials, "%llu", (unsigned long long)e.trials);
    snprintf(seed, sizeof seed, "%llu", (unsigned long long)e.seed);
    snprintf(conf, sizeof conf, "%g", e.confidence);
    const char *method = cs_method_name(e.method);
    cs_experiment_free(&e);
    char methods[160] = "";
    for (int m = CS_METHOD_AUTO; m <= CS_METHOD_RQMC; m++) {
        size_t u = strlen(methods);
        snprintf(methods + u, sizeof methods - u, "%s%s", u ? ", " : "how to compute: ",
                 cs_method_name((cs_method)m));
    }
    size_t u = strlen(methods);
    snprintf(methods + u, sizeof methods - u, " (auto: the best this scenario allows)");
    const setting run[] = {
        {"experiment.trials", trials, "trials per sweep point (mc), or sampled layouts (conditional); "
                                     "exact rolls none, so it ignores this"},
        {"experiment.seed", seed, "the seed: the same seed gives the same numbers"},
        {"experiment.method", method, methods},
        {"experiment.confidence", conf, "the intervals' confidence"},
        {"experiment.precision", "0", "add trials until every interval half-width is at most this "
                                      "(0.001 or 0.1%); 0: off"},
        {"success", "", "the outcomes p_success counts, e.g. charged,caught (default: the "
                        "ruleset's success set)"},
        {"x", CS_MAP_DEFAULT_X, "the target's positions across the table, LO..HI:STEP inches"},
        {"y", CS_MAP_DEFAULT_Y, "the target's positions ahead of the charger, LO..HI:STEP inches"},
    };
    const setting dice[] = {
        {"expr", "", "a dice expression in Roll20 notation: 2d6, 3d6dl1, 2d6kh1, d6ro1, d6!, 2d6+4"},
        {"trials", "", "sample this many rolls instead of the exact distribution"},
        {"seed", seed, "the seed of the sampling"},
    };
    cs_webjson_key(j, "settings");
    cs_webjson_open(j, '{');
    settings(j, "run", run, 6);
    settings(j, "compare", run, 6);
    settings(j, "map", run, 8);
    settings(j, "dice", dice, 3);
    cs_webjson_close(j, '}');
}

static void param(cs_webjson *j, const cs_param_def *d)
{
    char accepted[512];
    cs_columns_accepted(d, accepted, sizeof accepted);
    cs_webjson_open(j, '{');
    cs_webjson_kstring(j, "key", d->key);
    cs_webjson_kstring(j, "type", cs_ruleset_type_name(d->type));
    cs_webjson_kstring(j, "default", d->def);
    cs_webjson_kstring(j, "unit", d->unit);
    cs_webjson_kstring(j, "help", d->help);
    cs_webjson_kstring(j, "accepted", accepted);
    cs_webjson_knumber(j, "min", d->min);
    cs_webjson_knumber(j, "max", d->max);
    cs_webjson_key(j, "choices");
    cs_webjson_open(j, '[');
    for (int c = 0; d->choices && d->choices[c]; c++)
        cs_webjson_string(j, d->choices[c]);
    cs_webjson_close(j, ']');
    cs_webjson_kbool(j, "layout", (d->flags & CS_PF_LAYOUT) != 0);
    cs_webjson_kbool(j, "assumption", (d->flags & CS_PF_ASSUMPTION) != 0);
    cs_webjson_close(j, '}');
}

static void ruleset(cs_webjson *j, const cs_ruleset *rs)
{
    cs_webjson_open(j, '{');
    cs_webjson_kstring(j, "name", rs->name);
    cs_webjson_kstring(j, "summary", rs->summary);
    cs_webjson_kstring(j, "doc", rs->doc);
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
    cs_webjson_key(j, "outcome_help");
    cs_webjson_open(j, '[');
    for (int o = 0; o < rs->n_outcomes; o++)
        cs_webjson_string(j, rs->outcome_help ? rs->outcome_help[o] : "");
    cs_webjson_close(j, ']');
    cs_webjson_key(j, "games");
    cs_webjson_open(j, '[');
    for (int g = 0; g < rs->n_games; g++) {
        cs_webjson_open(j, '{');
        cs_webjson_kstring(j, "title", rs->games[g].title);
        cs_webjson_kstring(j, "preset", rs->games[g].preset);
        cs_webjson_close(j, '}');
    }
    cs_webjson_close(j, ']');
    cs_webjson_key(j, "map_keys");
    cs_webjson_open(j, '[');
    for (int k = 0; rs->map_keys && rs->map_keys[k]; k++)
        cs_webjson_string(j, rs->map_keys[k]);
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
        cs_webjson_kstring(j, "name", rs->metrics[m].name);
        cs_webjson_kstring(j, "unit", rs->metrics[m].unit);
        cs_webjson_kstring(j, "help", rs->metrics[m].help);
        cs_webjson_close(j, '}');
    }
    cs_webjson_close(j, ']');
    cs_webjson_kbool(j, "map", rs->map_place != NULL);
    cs_webjson_kbool(j, "exact", rs->outcome_probabilities != NULL);
    cs_webjson_close(j, '}');
}

void cs_webinfo_write(cs_webjson *j)
{
    cs_webjson_open(j, '{');
    cs_webjson_kstring(j, "version", CS_VERSION);
    cs_webjson_key(j, "methods");
    cs_webjson_open(j, '[');
    for (int m = CS_METHOD_AUTO; m <= CS_METHOD_RQMC; m++)
        cs_webjson_string(j, cs_method_name((cs_method)m));
    cs_webjson_close(j, ']');
    all_settings(j);
    cs_webjson_key(j, "rulesets");
    cs_webjson_open(j, '[');
    for (int i = 0; i < cs_registry_count(); i++)
        ruleset(j, cs_registry_at(i));
    cs_webjson_close(j, ']');
    cs_webjson_close(j, '}');
}
