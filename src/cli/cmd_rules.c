/* SPDX-License-Identifier: GPL-3.0-or-later */
/* `chargesim rules`: the rulesets, their parameters, outcomes and readings. */
#include <stdio.h>
#include <string.h>

#include "chargesim/cli.h"
#include "chargesim/columns.h"
#include "chargesim/registry.h"

static void print_ruleset(const cs_ruleset *rs)
{
    printf("%s — %s\n\n%s\n\nparameters:\n", rs->name, rs->summary, rs->doc);
    for (int i = 0; i < rs->n_params; i++) {
        const cs_param_def *p = &rs->params[i];
        char accepted[512];
        cs_columns_accepted(p, accepted, sizeof accepted);
        printf("  %-18s %-6s default %-8s %-4s %s%s%s\n      %s\n", p->key, cs_ruleset_type_name(p->type),
               p->def[0] ? p->def : "\"\"", p->unit, accepted,
               (p->flags & CS_PF_LAYOUT) ? " [layout]" : "",
               (p->flags & CS_PF_ASSUMPTION) ? " [assumption]" : "", p->help);
    }
    printf("\noutcomes (* = success), each with what it means at the table:\n");
    for (int o = 0; o < rs->n_outcomes; o++)
        printf("  %s%-*s %s\n", rs->outcomes[o], 19 - (int)strlen(rs->outcomes[o]),
               (rs->success_mask >> o) & 1u ? "*" : "", rs->outcome_help[o]);
    /* The success set spelled out (issue 15, point 5): p_success counts
     * these, unless `run --success` names others. */
    printf("Success: ");
    for (int o = 0, n = 0; o < rs->n_outcomes; o++)
        if ((rs->success_mask >> o) & 1u)
            printf("%s%s", n++ ? ", " : "", rs->outcomes[o]);
    printf("\n\nmeasured (mean_<name> columns; mean+dist: --dist rows too):\n");
    for (int m = 0; m < rs->n_metrics; m++)
        printf("  %-18s %-4s %-9s %s\n", rs->metrics[m].name, rs->metrics[m].unit,
               rs->metrics[m].kind == CS_METRIC_DIST ? "mean+dist" : "mean", rs->metrics[m].help);
    printf("\nexact method: %s\n",
           rs->outcome_probabilities ? "yes (exact / conditional)" : "no (mc only)");
}

int cs_cli_rules(int argc, char **argv)
{
    if (argc > 0 && (strcmp(argv[0], "-h") == 0 || strcmp(argv[0], "--help") == 0)) {
        cs_cli_usage("rules", stdout);
        return 0;
    }
    if (argc > 1)
        return cs_cli_fail("rules", CS_EINPUT, "one ruleset name at a time");
    if (argc == 0) {
        for (int i = 0; i < cs_registry_count(); i++)
            printf("%-10s %s\n", cs_registry_at(i)->name, cs_registry_at(i)->summary);
        return 0;
    }
    const cs_ruleset *rs = cs_registry_find(argv[0]);
    if (!rs) {
        char list[256] = "";
        for (int i = 0; i < cs_registry_count(); i++) {
            size_t u = strlen(list);
            snprintf(list + u, sizeof list - u, "%s%s", i ? ", " : "", cs_registry_at(i)->name);
        }
        return cs_cli_fail("rules", CS_EINPUT, "unknown ruleset '%s'; expected one of: %s",
                           argv[0], list);
    }
    print_ruleset(rs);
    return 0;
}
