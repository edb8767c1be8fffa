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
