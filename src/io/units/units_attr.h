/* SPDX-License-Identifier: GPL-3.0-or-later */
#ifndef CHARGESIM_UNITS_ATTR_H
#define CHARGESIM_UNITS_ATTR_H
/* An entry's attributes as the BattleScribe documents give them, private
 * to the io layer's unit stages: src/io/units/units_attr.c reads a
 * profile's name (with its link's appended text), the rules a name or a
 * profile's prose carries and their numbers, an entry's rule options
 * (Fly options), troop-type categories, costs and characteristics. Stage 2
 * (src/io/units/units_resolve.c, resolve entries; src/io/units/units_rows.c,
 * the rows) reads them to build a unit's rows: a flier's own row for The
 * Old World's Fly (X) (a flier charges at its Fly Movement, issue 42) and a
 * mount's troop type among them. It calls nothing of units_resolve.c: the
 * walk stays there. */
#include <libxml/tree.h>
#include <stdbool.h>
#include <stddef.h>

#include "units_doc.h"

/* A profile's name as a list shows it: its own, then the text of every
 * unconditional `<modifier type="append" field="name">` on the info link
 * `via` that brought it (NULL: none). The Old World writes a flier's X so:
 * the profile "Fly" and, on its link, append "(10)": "Fly (10)". */
void cs_units_profile_name(const xmlNode *profile, const xmlNode *via, char *buf, size_t cap);

/* Does `name` carry rule `rule`: the name itself, or `rule (...)`, or
 * `rule ...` (Fly (10), Fly (8", 16") and Light Troops)? Case aside. */
bool cs_units_names_rule(const char *name, const char *rule);

/* The number in the brackets after rule's name: "Fly (9, Dragon form)" gives
 * num "9" and rest "Dragon form"; "Fly (8\", 16\")" gives "8\"" and rest
 * "16\"". False when no bracket follows or it holds no leading number. */
bool cs_units_rule_number(const char *name, const char *rule, char *num, size_t ncap, char *rest,
                          size_t rcap);

/* Does a profile give `rule (` in the text of one of its characteristics
 * while its own name does not carry the rule: a rule granted only in an
 * item's prose (the Flying Carpet: "gains the Fly (8) and Swiftstride
 * special rules")? */
bool cs_units_prose_gives_rule(const xmlNode *profile, const char *rule);

/* Is there a min selections constraint >= 1 on entry e: the unit must
 * take it? */
bool cs_units_compulsory(const xmlNode *e);

/* An optional upgrade of a unit whose name carries a rule: `Fly (9)` in
 * The Old World's Daemons and Warriors of Chaos, `Fly (8", 16")` in T9A's. */
typedef struct cs_units_rule_option {
    const xmlNode *entry;
    char name[CS_UNITS_NAME];
    char num[CS_UNITS_TEXT]; /* the rule's number, as written */
} cs_units_rule_option;

/* The optional upgrades nested in entry e (its selection entries and
 * groups, not what it links: those are shared items, not this unit's own
 * options) whose name carries `rule` with a number, in document order; at
 * most `max`. Upgrades the unit must take are its profile, not options. */
/* Is there a min selections constraint >= 1 on entry (or link) e: the
 * unit must take it? */
bool cs_units_compulsory(const xmlNode *e);

int cs_units_rule_options(const xmlNode *e, const char *rule, cs_units_rule_option *out, int max);

/* The first category of a mount choice named in `types` (a comma-separated
 * list, case aside), the choice's link's categories before its entry's: The
 * Old World files the Royal Pegasus under "Monstrous Creature" and a Duke's
 * Bretonnian Warhorse link under "Heavy Cavalry". False when none is. A
 * roster's selection may stand for the link: its categories are read. */
bool cs_units_troop_category(const char *types, const xmlNode *link, const xmlNode *entry,
                             char *buf, size_t cap);

/* ---- element helpers shared by the reader and its rows ------------------ */

/* Entry e's cost of the cost type `cost` (names compared trimmed, case
 * aside: ASOIAF writes " Points"); false when it has none ("" = none). */
bool cs_units_entry_cost(const xmlNode *e, const char *cost, double *v);

/* A characteristic's value: the `value` attribute (2.01) or the text (2.03). */
void cs_units_char_value(const xmlNode *c, char *buf, size_t cap);

/* The characteristic `name` of a profile, or NULL. */
const xmlNode *cs_units_find_char(const xmlNode *profile, const char *name);

/* Does the profile satisfy a mapping's `where NAME = VALUE` (the value
 * trimmed, case aside)? True without a where. */
bool cs_units_profile_matches(const xmlNode *profile, const cs_units_char *c);

/* The text of characteristic `name` among n profiles into buf: "" when
 * none gives it, or when two give different texts (a unit with mixed
 * models: none is the unit's). */
void cs_units_one_text(const xmlNode *const *p, int n, const char *name, char *buf, size_t cap);

#endif
