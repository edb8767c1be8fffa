/* SPDX-License-Identifier: GPL-3.0-or-later */
/* An entry's attributes (units_attr.h): names, rules and their numbers,
 * rule options, troop-type categories, costs and characteristics, as stage 2
 * of the units reads them for a unit's rows (a flier's row, a mount's troop
 * type), in the BattleScribe documents as libxml2 holds them.
 *
 * The Old World's data gives a flier's Fly Movement in the name of its
 * rule, written as an append modifier on the info link ("Fly" + "(10)"),
 * and its rule profile says a flier "may move as normal (i.e. they may
 * charge, march and manoeuvre as if moving on the ground)" using that
 * characteristic (Warhammer_Old_World.gst, profile "Fly"). Troop types are
 * the texts of the Unit profiles' Troop Type; a mount choice that has none
 * of its own is filed under a category of that name. */
#include <ctype.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "units_attr.h"

/* Does modifier list `mods` of a link hold only unconditional modifiers?
 * A conditional append (the Royal Pegasus's "(1, Royal Pegasus only)" is
 * plain, but a count that depends on a selection is not) is not the name
 * a list shows whatever is chosen, so it is not read. */
static bool unconditional(const xmlNode *mod)
{
    for (const xmlNode *c = mod->children; c; c = c->next)
        if (cs_units_xml_is(c, "conditions") || cs_units_xml_is(c, "conditionGroups") ||
            cs_units_xml_is(c, "repeats"))
            return false;
    return true;
}

void cs_units_profile_name(const xmlNode *profile, const xmlNode *via, char *buf, size_t cap)
{
    buf[0] = '\0';
    cs_units_xml_prop(profile, "name", buf, cap);
    for (const xmlNode *c = via ? via->children : NULL; c; c = c->next) {
        if (!cs_units_xml_is(c, "modifiers"))
            continue;
        for (const xmlNode *m = c->children; m; m = m->next) {
            char v[CS_UNITS_TEXT];
            if (!cs_units_xml_is(m, "modifier") || !cs_units_xml_prop_is(m, "type", "append") ||
                !cs_units_xml_prop_is(m, "field", "name") || !unconditional(m) ||
                !cs_units_xml_prop(m, "value", v, sizeof v))
                continue;
            size_t len = strlen(buf);
            snprintf(buf + len, cap - len, " %s", v);
        }
    }
}

bool cs_units_names_rule(const char *name, const char *rule)
{
    size_t n = strlen(rule);
    while (*name == ' ')
        name++;
    return n > 0 && strncasecmp(name, rule, n) == 0 &&
           (name[n] == '\0' || name[n] == ' ' || name[n] == '(');
}

bool cs_units_rule_number(const char *name, const char *rule, char *num, size_t ncap, char *rest,
                          size_t rcap)
{
    if (!cs_units_names_rule(name, rule))
        return false;
    while (*name == ' ')
        name++;
    const char *s = name + strlen(rule);
    while (*s == ' ')
        s++;
    if (*s != '(')
        return false;
    s++;
    while (*s == ' ')
        s++;
    /* The number and an inch mark as written: 9, 8", 8′′. */
    size_t k = 0;
    while (isdigit((unsigned char)s[k]) || s[k] == '.')
        k++;
    if (k == 0)
        return false;
    while (s[k] == '"' || s[k] == '\'' || (unsigned char)s[k] >= 0x80)
        k++;
    snprintf(num, ncap, "%.*s", (int)k, s);
    s += k;
    while (*s == ' ' || *s == ',')
        s++;
    const char *end = strchr(s, ')');
    size_t r = end ? (size_t)(end - s) : strlen(s);
    snprintf(rest, rcap, "%.*s", (int)r, s);
    return true;
}

bool cs_units_prose_gives_rule(const xmlNode *profile, const char *rule)
{
    char name[CS_UNITS_NAME], pattern[CS_UNITS_TEXT];
    if (cs_units_xml_prop(profile, "name", name, sizeof name) && cs_units_names_rule(name, rule))
        return false;
    /* "Fly (8)" grants it; "the Fly (X) special rule" only names it. */
    snprintf(pattern, sizeof pattern, "%s (", rule);
    for (const xmlNode *c = profile->children; c; c = c->next) {
        if (!cs_units_xml_is(c, "characteristics"))
            continue;
        for (const xmlNode *k = c->children; k; k = k->next) {
            if (!cs_units_xml_is(k, "characteristic"))
                continue;
            xmlChar *t = xmlNodeGetContent(k);
            bool found = false;
            for (const char *s = t ? strstr((const char *)t, pattern) : NULL; s && !found;
                 s = strstr(s + 1, pattern))
                found = isdigit((unsigned char)s[strlen(pattern)]);
            xmlFree(t);
            if (found)
                return true;
        }
    }
    return false;
}

bool cs_units_compulsory(const xmlNode *e)
{
    for (const xmlNode *c = e->children; c; c = c->next) {
        if (!cs_units_xml_is(c, "constraints"))
            continue;
        for (const xmlNode *k = c->children; k; k = k->next) {
            char v[CS_UNITS_TEXT];
            if (cs_units_xml_is(k, "constraint") && cs_units_xml_prop_is(k, "type", "min") &&
                cs_units_xml_prop_is(k, "field", "selections") &&
                cs_units_xml_prop(k, "value", v, sizeof v) && atof(v) >= 1.0)
                return true;
        }
    }
    return false;
}

static int options_below(const xmlNode *e, const char *rule, cs_units_rule_option *out, int n,
                         int max)
{
    for (const xmlNode *c = e->children; c && n < max; c = c->next) {
        if (!cs_units_xml_is(c, "selectionEntries") && !cs_units_xml_is(c, "selectionEntryGroups"))
            continue;
        for (const xmlNode *k = c->children; k && n < max; k = k->next) {
            char rest[CS_UNITS_TEXT];
            cs_units_rule_option *o = &out[n];
            if (cs_units_xml_is(k, "selectionEntry") && cs_units_xml_prop_is(k, "type", "upgrade") &&
                !cs_units_compulsory(k) && cs_units_xml_prop(k, "name", o->name, sizeof o->name) &&
                cs_units_rule_number(o->name, rule, o->num, sizeof o->num, rest, sizeof rest)) {
                o->entry = k;
                n++;
            } else if (cs_units_xml_is(k, "selectionEntry") ||
                       cs_units_xml_is(k, "selectionEntryGroup")) {
                n = options_below(k, rule, out, n, max);
            }
        }
    }
    return n;
}

int cs_units_rule_options(const xmlNode *e, const char *rule, cs_units_rule_option *out, int max)
{
    return options_below(e, rule, out, 0, max);
}

/* Is `name` one of the comma-separated `types` (blanks around each and
 * case aside)? */
static bool listed(const char *types, const char *name)
{
    size_t n = strlen(name);
    for (const char *s = types; *s;) {
        while (*s == ' ' || *s == ',')
            s++;
        const char *e = s;
        while (*e && *e != ',')
            e++;
        const char *t = e;
        while (t > s && t[-1] == ' ')
            t--;
        if ((size_t)(t - s) == n && n > 0 && strncasecmp(s, name, n) == 0)
            return true;
        s = e;
    }
    return false;
}

/* The first of holder's categoryLinks named in `types`. */
static bool category_of(const xmlNode *holder, const char *types, char *buf, size_t cap)
{
    for (const xmlNode *c = holder ? holder->children : NULL; c; c = c->next) {
        /* A catalogue's categoryLinks, or a roster selection's categories. */
        if (!cs_units_xml_is(c, "categoryLinks") && !cs_units_xml_is(c, "categories"))
            continue;
        for (const xmlNode *k = c->children; k; k = k->next) {
            char name[CS_UNITS_TEXT];
            if ((cs_units_xml_is(k, "categoryLink") || cs_units_xml_is(k, "category")) &&
                cs_units_xml_prop(k, "name", name, sizeof name) &&
                listed(types, name)) {
                snprintf(buf, cap, "%s", name);
                return true;
            }
        }
    }
    return false;
}

bool cs_units_troop_category(const char *types, const xmlNode *link, const xmlNode *entry,
                             char *buf, size_t cap)
{
    return types[0] && (category_of(link, types, buf, cap) || category_of(entry, types, buf, cap));
}

/* The entry's cost of the mapping's cost type (names compared trimmed,
 * ignoring case: ASOIAF writes " Points"). */
bool cs_units_entry_cost(const xmlNode *e, const char *cost, double *v)
{
    if (cost[0] == '\0')
        return false;
    for (const xmlNode *c = e->children; c; c = c->next) {
        if (!cs_units_xml_is(c, "costs"))
            continue;
        for (const xmlNode *k = c->children; k; k = k->next) {
            char name[CS_UNITS_TEXT], val[CS_UNITS_TEXT];
            if (!cs_units_xml_is(k, "cost") || !cs_units_xml_prop(k, "name", name, sizeof name) ||
                !cs_units_xml_prop(k, "value", val, sizeof val))
                continue;
            const char *a = name;
            while (*a == ' ')
                a++;
            size_t n = strlen(a);
            while (n > 0 && a[n - 1] == ' ')
                n--;
            if (n == strlen(cost) && strncasecmp(a, cost, n) == 0) {
                char *end;
                double x = strtod(val, &end);
                if (end != val) {
                    *v = x;
                    return true;
                }
            }
        }
    }
    return false;
}

/* A characteristic's value: the `value` attribute (2.01) or the text (2.03). */
void cs_units_char_value(const xmlNode *c, char *buf, size_t cap)
{
    if (cs_units_xml_prop(c, "value", buf, cap))
        return;
    xmlChar *t = xmlNodeGetContent(c);
    snprintf(buf, cap, "%s", t ? (const char *)t : "");
    xmlFree(t);
}

const xmlNode *cs_units_find_char(const xmlNode *profile, const char *name)
{
    for (const xmlNode *c = profile->children; c; c = c->next) {
        if (!cs_units_xml_is(c, "characteristics"))
            continue;
        for (const xmlNode *k = c->children; k; k = k->next)
            if (cs_units_xml_is(k, "characteristic") && cs_units_xml_prop_is(k, "name", name))
                return k;
    }
    return NULL;
}

bool cs_units_profile_matches(const xmlNode *profile, const cs_units_char *c)
{
    if (c->where_name[0] == '\0')
        return true;
    const xmlNode *k = cs_units_find_char(profile, c->where_name);
    char v[CS_UNITS_TEXT];
    if (!k)
        return false;
    cs_units_char_value(k, v, sizeof v);
    const char *a = v;
    while (*a == ' ')
        a++;
    size_t n = strlen(a);
    while (n > 0 && a[n - 1] == ' ')
        n--;
    return n == strlen(c->where_value) && strncasecmp(a, c->where_value, n) == 0;
}

/* The text of characteristic `name` in a list of profiles into buf: "" when
 * none gives it, or when two give different texts (a unit with mixed
 * models: none is the unit's). */
void cs_units_one_text(const xmlNode *const *p, int n, const char *name, char *buf, size_t cap)
{
    bool conflict = false;
    buf[0] = '\0';
    for (int i = 0; name[0] && i < n; i++) {
        const xmlNode *k = cs_units_find_char(p[i], name);
        if (!k)
            continue;
        char v[CS_UNITS_TEXT];
        cs_units_char_value(k, v, sizeof v);
        if (buf[0] && strcmp(buf, v) != 0)
            conflict = true;
        snprintf(buf, cap, "%s", v);
    }
    if (conflict)
        buf[0] = '\0';
}
