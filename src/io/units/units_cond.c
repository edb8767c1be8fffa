/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Hidden links and their conditions (units_cond.h).
 *
 * BattleScribe hides an element with hidden="true" and shows it where a
 * modifier `<modifier type="set" field="hidden" value="false">` has
 * conditions the selection meets (The Old World's War Boar: its Swiftstride
 * is shown only when an ancestor is a Character and none is a Light or Heavy
 * Chariot; Flesh Hounds of Khorne: only when the force holds Renegades).
 * The modifiers apply in document order, a later one winning, modifier
 * groups adding their own conditions to their modifiers'.
 *
 * What a row can decide, and nothing else (three-valued: a condition not
 * decided makes the element undecided where it would change it):
 * - instanceOf / notInstanceOf on `selections`, scope self, parent or
 *   ancestor: a selection is an instance of an id when its entry or the
 *   link that chose it has that id, or links that category (a categoryLink
 *   neither hidden nor modified); a category that a modifier of the entry
 *   or link adds, removes or sets is undecided, and so is one of a unit
 *   that no root link of the catalogue selects (a shared entry another
 *   catalogue links gets its categories there). The ancestors are the
 *   row's selections above self (the force above them is no instance of an
 *   entry or a category);
 * - atLeast / greaterThan on `selections`, scope self or parent: true when
 *   the row's own selections below that one (its direct child, or any with
 *   includeChildSelections) reach the value; a smaller count is undecided,
 *   as the row does not know the options a list takes;
 * - and/or condition groups of those.
 * - instanceOf / notInstanceOf of scope primary-catalogue: whether the
 *   catalogue read is the one named (its table is the army a list built on
 *   it fields);
 * Any other scope (force, roster, an entry id), field or type is
 * undecided. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "units_cond.h"

typedef enum tri { NO, YES, UNKNOWN } tri;

typedef struct ctx {
    const cs_units_docs *d;
    const cs_units_chain *c;
    char *why;
    size_t cap;
} ctx;

bool cs_units_chain_push(cs_units_chain *c, const xmlNode *entry, const xmlNode *link)
{
    if (c->n == CS_UNITS_CHAIN)
        return false;
    c->s[c->n++] = (cs_units_sel){entry, link};
    return true;
}

bool cs_units_mount_group_name(const cs_units_mapping *m, const char *name)
{
    size_t n = strlen(m->mount_group), k = strlen(name);
    if (!m->mount_group[0])
        return false;
    return strcasecmp(name, m->mount_group) == 0 ||
           (k == n + 1 && (name[n] == 's' || name[n] == 'S') &&
            strncasecmp(name, m->mount_group, n) == 0);
}

static tri undecided(const ctx *x, const xmlNode *k, const char *what)
{
    if (x->why[0] == '\0')
        snprintf(x->why, x->cap, "%s:%d: %s", cs_units_docs_path(x->d, k),
                 cs_units_xml_line(k), what);
    return UNKNOWN;
}

/* Does a modifier of holder h (direct, or in its modifier groups) change
 * the category `id`? */
static bool category_modified(const xmlNode *h, const char *id)
{
    for (const xmlNode *c = h ? h->children : NULL; c; c = c->next) {
        if (cs_units_xml_is(c, "modifiers") || cs_units_xml_is(c, "modifierGroups") ||
            cs_units_xml_is(c, "modifierGroup")) {
            if (category_modified(c, id))
                return true;
        } else if (cs_units_xml_is(c, "modifier") &&
                   cs_units_xml_prop_is(c, "field", "category") &&
                   cs_units_xml_prop_is(c, "value", id)) {
            return true;
        }
    }
    return false;
}

/* Is selection s an instance of id? */
static tri instance(const cs_units_sel *s, const char *id)
{
    const xmlNode *h[2] = {s->entry, s->link};
    tri t = NO;
    for (int i = 0; i < 2; i++) {
        if (!h[i])
            continue;
        if (cs_units_xml_prop_is(h[i], "id", id))
            return YES;
        for (const xmlNode *c = h[i]->children; c; c = c->next) {
            if (!cs_units_xml_is(c, "categoryLinks"))
                continue;
            for (const xmlNode *l = c->children; l; l = l->next) {
                if (!cs_units_xml_is(l, "categoryLink") ||
                    !cs_units_xml_prop_is(l, "targetId", id))
                    continue;
                bool plain = !cs_units_xml_prop_is(l, "hidden", "true");
                for (const xmlNode *m = l->children; m; m = m->next)
                    plain = plain && !cs_units_xml_is(m, "modifiers");
                if (!plain)
                    t = UNKNOWN;
                else
                    return YES;
            }
        }
        if (category_modified(h[i], id))
            t = UNKNOWN;
    }
    return t;
}

/* instanceOf (negate: notInstanceOf) of scope primary-catalogue: is the
 * list's primary catalogue the one with id `id`? The table of a catalogue
 * is the army a list built on it fields, so its primary catalogue is the
 * file read (doc[0]; The Empire of Man's Knightly Orders are shown in its
 * own lists and its army variants'), known for a catalogue, undecided for
 * any other root. */
static tri primary_is(const ctx *x, const xmlNode *k, const char *id, bool negate)
{
    const xmlNode *root = x->d->n > 0 && x->d->doc[0].doc ? xmlDocGetRootElement(x->d->doc[0].doc)
                                                          : NULL;
    char own[CS_UNITS_TEXT];
    if (!root || !cs_units_xml_is(root, "catalogue") ||
        !cs_units_xml_prop(root, "id", own, sizeof own))
        return undecided(x, k, "a condition on the list's primary catalogue, not a catalogue read");
    return (strcmp(own, id) == 0) != negate ? YES : NO;
}

static tri condition(const ctx *x, const xmlNode *k)
{
    char type[CS_UNITS_TEXT] = "", scope[CS_UNITS_TEXT] = "", id[CS_UNITS_TEXT] = "",
         value[CS_UNITS_TEXT] = "0";
    cs_units_xml_prop(k, "type", type, sizeof type);
    cs_units_xml_prop(k, "scope", scope, sizeof scope);
    cs_units_xml_prop(k, "childId", id, sizeof id);
    cs_units_xml_prop(k, "value", value, sizeof value);
    int n = x->c->n;
    if (!cs_units_xml_prop_is(k, "field", "selections") || !id[0] || n < 1)
        return undecided(x, k, "a condition on something other than the row's selections");
    bool self = strcmp(scope, "self") == 0, parent = strcmp(scope, "parent") == 0;
    bool ancestor = strcmp(scope, "ancestor") == 0;
    bool negate = strcmp(type, "notInstanceOf") == 0;
    if (strcmp(scope, "primary-catalogue") == 0 && (negate || strcmp(type, "instanceOf") == 0))
        return primary_is(x, k, id, negate);
    if (!self && !parent && !ancestor)
        return undecided(x, k, "a condition of scope beyond the row's own selections");
    if (negate || strcmp(type, "instanceOf") == 0) {
        int lo = ancestor ? 0 : self ? n - 1 : n - 2, hi = ancestor ? n - 2 : lo;
        if (parent && n < 2)
            return undecided(x, k, "a condition on the unit's parent (its force)");
        const xmlNode *t = cs_units_docs_lookup(x->d, id);
        if (t && cs_units_xml_is(t, "forceEntry"))
            return undecided(x, k, "a condition on the force");
        /* An entry's own id is certain; a category of an unlinked unit not. */
        bool entry = t && (cs_units_xml_is(t, "selectionEntry") ||
                           cs_units_xml_is(t, "selectionEntryGroup"));
        tri r = NO;
        for (int i = lo; i <= hi && r != YES; i++) {
            tri s = instance(&x->c->s[i], id);
            if (i == 0 && x->c->unlinked && s == NO && !entry)
                s = UNKNOWN;
            r = s == YES ? YES : (s == UNKNOWN ? UNKNOWN : r);
        }
        if (r == UNKNOWN)
            return undecided(x, k, "a condition on a category that a modifier changes or that "
                                   "the unit's link, not in this catalogue, would give");
        return (r == YES) != negate ? YES : NO;
    }
    bool at_least = strcmp(type, "atLeast") == 0, greater = strcmp(type, "greaterThan") == 0;
    if ((!at_least && !greater) || ancestor || (parent && n < 2))
        return undecided(x, k, "a condition counting selections the row does not know");
    int from = self ? n - 1 : n - 2, count = 0;
    int to = cs_units_xml_prop_is(k, "includeChildSelections", "true") ? n - 1 : from + 1;
    for (int i = from + 1; i <= to && i < n; i++) {
        tri s = instance(&x->c->s[i], id);
        if (s == UNKNOWN)
            return undecided(x, k, "a condition on a category a modifier changes");
        count += s == YES;
    }
    double want = strtod(value, NULL);
    if (at_least ? count >= want : count > want)
        return YES;
    return undecided(x, k, "a condition counting options the row does not take");
}

static tri all_of(const ctx *x, const xmlNode *holder, bool any);

/* A <conditionGroup>: and (default) or or. */
static tri group(const ctx *x, const xmlNode *g)
{
    return all_of(x, g, cs_units_xml_prop_is(g, "type", "or"));
}

/* The conditions and condition groups of a holder, all of them (any: one
 * of them) met. */
static tri all_of(const ctx *x, const xmlNode *holder, bool any)
{
    tri r = any ? NO : YES;
    bool some = false;
    for (const xmlNode *c = holder->children; c; c = c->next) {
        bool conds = cs_units_xml_is(c, "conditions");
        if (!conds && !cs_units_xml_is(c, "conditionGroups"))
            continue;
        for (const xmlNode *k = c->children; k; k = k->next) {
            tri t;
            if (conds && cs_units_xml_is(k, "condition"))
                t = condition(x, k);
            else if (!conds && cs_units_xml_is(k, "conditionGroup"))
                t = group(x, k);
            else
                continue;
            some = true;
            if (any)
                r = t == YES || r == YES ? YES : (t == UNKNOWN || r == UNKNOWN ? UNKNOWN : NO);
            else
                r = t == NO || r == NO ? NO : (t == UNKNOWN || r == UNKNOWN ? UNKNOWN : YES);
        }
    }
    return some ? r : YES;
}

/* Applies the hidden modifiers under holder (a <modifiers> or
 * <modifierGroups> list) whose own conditions and those inherited (`met`)
 * hold, in order, to *state. */
static void apply(const ctx *x, const xmlNode *list, tri met, tri *state)
{
    for (const xmlNode *m = list->children; m; m = m->next) {
        if (cs_units_xml_is(m, "modifierGroup")) {
            tri g = all_of(x, m, false);
            tri both = met == NO || g == NO ? NO : (met == UNKNOWN || g == UNKNOWN ? UNKNOWN : YES);
            for (const xmlNode *c = m->children; c; c = c->next)
                if (cs_units_xml_is(c, "modifiers") || cs_units_xml_is(c, "modifierGroups"))
                    apply(x, c, both, state);
            continue;
        }
        if (!cs_units_xml_is(m, "modifier") || !cs_units_xml_prop_is(m, "field", "hidden") ||
            !cs_units_xml_prop_is(m, "type", "set"))
            continue;
        tri to = cs_units_xml_prop_is(m, "value", "true") ? YES : NO;
        tri c = all_of(x, m, false);
        tri when = met == NO || c == NO ? NO : (met == UNKNOWN || c == UNKNOWN ? UNKNOWN : YES);
        if (when == YES)
            *state = to;
        else if (when == UNKNOWN && *state != to)
            *state = UNKNOWN;
    }
}

cs_units_shown cs_units_shown_for(const cs_units_docs *d, const cs_units_chain *c,
                                  const xmlNode *n, char *why, size_t cap)
{
    ctx x = {d, c, why, cap};
    why[0] = '\0';
    bool written = cs_units_xml_prop_is(n, "hidden", "true");
    tri hidden = written ? YES : NO;
    for (const xmlNode *k = n->children; k; k = k->next)
        if (cs_units_xml_is(k, "modifiers") || cs_units_xml_is(k, "modifierGroups"))
            apply(&x, k, YES, &hidden);
    if (hidden == UNKNOWN)
        return written ? CS_UNITS_UNDECIDED : CS_UNITS_UNSURE;
    return hidden == NO ? CS_UNITS_SHOWN : CS_UNITS_HIDDEN;
}

bool cs_units_mount_category(const cs_units_docs *d, const cs_units_mapping *m,
                             const xmlNode *h)
{
    for (const xmlNode *c = h ? h->children : NULL; c; c = c->next) {
        if (!cs_units_xml_is(c, "categoryLinks"))
            continue;
        for (const xmlNode *l = c->children; l; l = l->next) {
            char name[CS_UNITS_NAME] = "", id[CS_UNITS_TEXT];
            if (!cs_units_xml_is(l, "categoryLink") || cs_units_xml_prop_is(l, "hidden", "true"))
                continue;
            const xmlNode *t = cs_units_xml_prop(l, "targetId", id, sizeof id)
                                   ? cs_units_docs_lookup(d, id)
                                   : NULL;
            if (!(t && cs_units_xml_prop(t, "name", name, sizeof name)))
                cs_units_xml_prop(l, "name", name, sizeof name);
            if (cs_units_mount_group_name(m, name))
                return true;
        }
    }
    return false;
}
