/* SPDX-License-Identifier: GPL-3.0-or-later */
/* The table of rulesets (include/chargesim/registry.h): built from
 * CS_RULESETS, the one place a game is listed, so this file does not
 * change when a game is added. */
#include "chargesim/registry.h"

#include <string.h>

#define CS_RULESET_ENTRY(name) &cs_rules_##name,
static const cs_ruleset *const table[] = {CS_RULESETS(CS_RULESET_ENTRY)};

int cs_registry_count(void)
{
    return (int)(sizeof table / sizeof table[0]);
}

const cs_ruleset *cs_registry_at(int i)
{
    return (i >= 0 && i < cs_registry_count()) ? table[i] : NULL;
}

const cs_ruleset *cs_registry_find(const char *name)
{
    for (int i = 0; i < cs_registry_count(); i++)
        if (strcmp(table[i]->name, name) == 0)
            return table[i];
    return NULL;
}
