/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The rulesets and the commands' form fields as JSON for the page; see
 * include/chargesim/webinfo.h. */
#include "chargesim/webinfo.h"

#include <jansson.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "chargesim/columns.h"
#include "chargesim/experiment.h"
#include "chargesim/glossary.h"
#include "chargesim/options.h"
#include "chargesim/registry.h"
#include "chargesim/webjson.h"

/* A field of the form: its key (the command line's), a player's label,
 * its default and its one-line help (options.h: the words --help lists). */
static json_t *field(const char *key, const char *label, const char *def, const char *help)
{
    return json_pack("{s:s, s:s, s:s, s:s}", "key", key, "label", label, "default", def, "help",
                     help);
}

/* A default of the experiment's own keys: a fresh experiment's value. */
static void experiment_default(const char *key, char *buf, size_t cap)
{
    cs_experiment e;
    cs_experiment_init(&e, "-");
    buf[0] = '\0';
    if (strcmp(key, "experiment.trials") == 0)
        snprintf(buf, cap, "%llu", (unsigned long long)e.trials);
    else if (strcmp(key, "experiment.seed") == 0)
        snprintf(buf, cap, "%llu", (unsigned long long)e.seed);
    else if (strcmp(key, "experiment.confidence") == 0)
        snprintf(buf, cap, "%g", e.confidence);
    else if (strcmp(key, "experiment.method") == 0)
        snprintf(buf, cap, "%s", cs_method_name(e.method));
    cs_experiment_free(&e);
}

/* A command's form from its table t: its operand when the page asks for
 * it, then each option that is a field of the page, in the table's order. */
static json_t *fields(const cs_opt_table *t, bool *oom)
{
    json_t *a = json_array();
    if (t->operand_field)
        cs_webjson_add(a, field(t->operand, t->operand_label ? t->operand_label : t->operand, "",
                                 t->operand_field), oom);
    for (int i = 0; i < t->n; i++) {
        const cs_opt *o = &t->opt[i];
        char def[64];
        if (!o->field)
            continue;
        if (o->def)
            snprintf(def, sizeof def, "%s", o->def);
        else
            experiment_default(o->key, def, sizeof def);
        cs_webjson_add(a, field(o->key, o->label ? o->label : o->key, def, o->field), oom);
    }
    return a;
}

/* A number; one that is not finite, null (JSON has none). */
static json_t *number(double x)
{
    return isfinite(x) ? json_real(x) : json_null();
}

static json_t *param(const cs_param_def *d, bool *oom)
{
    char accepted[512], label[128];
    cs_columns_accepted(d, accepted, sizeof accepted);
    cs_columns_words(d->key, label, sizeof label);
    json_t *choices = json_array();
    for (int c = 0; d->choices && d->choices[c]; c++)
        cs_webjson_add(choices, json_string(d->choices[c]), oom);
    return json_pack("{s:s?, s:s, s:s?, s:s?, s:s?, s:s?, s:s?, s:o, s:o, s:o, s:b, s:b}", "key",
                     d->key, "label", label,
                     "type", cs_ruleset_type_name(d->type), "default", d->def, "unit", d->unit,
                     "help", d->help, "accepted", accepted, "min", number(d->min), "max",
                     number(d->max),
                     "choices", choices, "layout", (d->flags & CS_PF_LAYOUT) != 0,
                     "assumption", (d->flags & CS_PF_ASSUMPTION) != 0);
}

/* The strings of a NULL-terminated list, or of the first n. */
static json_t *strings(const char *const *s, int n, bool *oom)
{
    json_t *a = json_array();
    for (int i = 0; s && (n < 0 ? s[i] != NULL : i < n); i++)
        cs_webjson_add(a, json_string(s[i]), oom);
    return a;
}

static json_t *ruleset(const cs_ruleset *rs, bool *oom)
{
    json_t *params = json_array(), *help = json_array(), *games = json_array();
    json_t *success = json_array(), *metrics = json_array();
    for (int i = 0; i < rs->n_params; i++)
        cs_webjson_add(params, param(&rs->params[i], oom), oom);
    for (int o = 0; o < rs->n_outcomes; o++) {
        cs_webjson_add(help, json_string(rs->outcome_help ? rs->outcome_help[o] : ""), oom);
        if ((rs->success_mask >> o) & 1u)
            cs_webjson_add(success, json_string(rs->outcomes[o]), oom);
    }
    for (int g = 0; g < rs->n_games; g++)
        cs_webjson_add(games, json_pack("{s:s?, s:s?, s:s?}", "title", rs->games[g].title,
                                               "preset", rs->games[g].preset, "example",
                                               rs->games[g].example ? *rs->games[g].example
                                                                    : NULL), oom);
    for (int m = 0; m < rs->n_metrics; m++)
        cs_webjson_add(metrics, json_pack("{s:s?, s:s?, s:s?}", "name", rs->metrics[m].name,
                                                 "unit", rs->metrics[m].unit, "help",
                                                 rs->metrics[m].help), oom);
    return json_pack("{s:s?, s:s?, s:s?, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:b, s:b}", "name",
                     rs->name, "summary", rs->summary, "doc", rs->doc, "params", params,
                     "outcomes", strings(rs->outcomes, rs->n_outcomes, oom), "outcome_help", help,
                     "games", games, "map_keys", strings(rs->map_keys, -1, oom), "success", success,
                     "metrics", metrics, "map", rs->map_place != NULL, "exact",
                     rs->outcome_probabilities != NULL);
}

char *cs_webinfo_json(void)
{
    bool flag = false, *oom = &flag;
    json_t *methods = json_array(), *rulesets = json_array(), *settings = json_object();
    for (int m = CS_METHOD_AUTO; m <= CS_METHOD_RQMC; m++)
        cs_webjson_add(methods, json_string(cs_method_name((cs_method)m)), oom);
    static const char *const cmds[] = {"run", "compare", "map", "dice"};
    for (int c = 0; c < 4; c++)
        cs_webjson_set(settings, cmds[c], fields(cs_opt_table_of(cmds[c]), oom), oom);
    for (int i = 0; i < cs_registry_count(); i++)
        cs_webjson_add(rulesets, ruleset(cs_registry_at(i), oom), oom);
    /* The words a player may not know, one line each (glossary.h). */
    json_t *glossary = json_array();
    for (int i = 0; i < cs_glossary_count(); i++)
        cs_webjson_add(glossary, json_pack("{s:s, s:s}", "term", cs_glossary_at(i)->term, "words",
                                           cs_glossary_at(i)->words),
                       oom);
    json_t *o = json_pack("{s:s, s:o, s:o, s:o, s:o}", "version", CS_VERSION, "methods", methods,
                          "settings", settings, "rulesets", rulesets, "glossary", glossary);
    char *s = cs_webjson_dump(o, oom);
    json_decref(o);
    return s;
}

char *cs_webinfo_fields(const cs_opt_table *t)
{
    bool oom = false;
    json_t *a = fields(t, &oom);
    char *s = cs_webjson_dump(a, &oom);
    json_decref(a);
    return s;
}
