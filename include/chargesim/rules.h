#ifndef CHARGESIM_RULES_H
#define CHARGESIM_RULES_H
/* The rulesets, one per file under src/rules/. Listed in src/rules/registry.c. */
#include "chargesim/ruleset.h"

extern const cs_ruleset cs_rules_generic; /* src/rules/generic.c */
extern const cs_ruleset cs_rules_t9a;     /* src/rules/t9a.c */
extern const cs_ruleset cs_rules_coreheim; /* src/rules/coreheim.c */
extern const cs_ruleset cs_rules_asoiaf;  /* src/rules/asoiaf.c */

extern const cs_ruleset cs_rules_sovl;      /* src/rules/sovl_setup.c */
extern const cs_ruleset cs_rules_sovl_dice; /* src/rules/sovl_dice.c */

#endif
