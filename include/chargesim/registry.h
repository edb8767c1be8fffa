/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_REGISTRY_H
#define CHARGESIM_REGISTRY_H
/* The registry (src/rules/registry.c): the rulesets the program knows, in
 * the order `chargesim rules` lists them. A game is one file under
 * src/rules/ that defines `const cs_ruleset cs_rules_NAME` (ruleset.h) and
 * one line X(NAME) in CS_RULESETS below: the line declares cs_rules_NAME
 * for every file that includes this header and puts it in the table, and
 * nothing else in the program names a game (docs/ARCHITECTURE.md, "Where
 * to add things"). */
#include "chargesim/ruleset.h"

/* One line a ruleset, and the file that defines it. */
#define CS_RULESETS(X)                          \
    X(generic)   /* src/rules/generic.c */      \
    X(t9a)       /* src/rules/t9a.c */          \
    X(coreheim)  /* src/rules/coreheim.c */     \
    X(sovl)      /* src/rules/sovl_setup.c */   \
    X(sovl_dice) /* src/rules/sovl_dice.c */    \
    X(asoiaf)    /* src/rules/asoiaf.c */       \
    /* a new game: its line above this one */

#define CS_RULESET_EXTERN(name) extern const cs_ruleset cs_rules_##name;
CS_RULESETS(CS_RULESET_EXTERN)
#undef CS_RULESET_EXTERN

/* The ruleset called name, or NULL. */
const cs_ruleset *cs_registry_find(const char *name);
/* How many rulesets there are, and the i-th (NULL outside 0..count-1). */
int cs_registry_count(void);
const cs_ruleset *cs_registry_at(int i);

#endif
