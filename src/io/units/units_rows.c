/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Units, stage 2 of 5 (see unitsrc.h), its rows: what the reader of
 * units_resolve.c gathered for a unit becomes the rows the table shows.
 *
 * A unit that may fly gets a second row, "(flying)", at its flying
 * characteristic, the ground row staying: The Old World's Fly rule (its
 * profile in the game's data: a flier "may move as normal (i.e. they may
 * charge, march and manoeuvre as if moving on the ground)" using its Fly
 * Movement, the X of Fly (X)) and T9A 2nd edition's Adv printed as ground
 * and fly, `5" (8")`. A flier keeps its Swiftstride. A mount choice that
 * flies combines: "Duke (on Royal Pegasus, flying)". Odd cases are noted,
 * never silent: words after the number (`Fly (9, Dragon form)`), a rule
 * with no number, an optional upgrade giving Fly (its row names it), a
 * rule granted only in an item's prose (noted by units_resolve.c). An
 * upgrade that grants a rule mapped with `option = row` (T9A's Favour of
 * Kuulima, Greenfire Eyes; The Old World's Virtues) gives a row of its own
 * that names it; one marked `option_note` (a spell another unit's model
 * casts) a note. A
 * chosen mount's troop type is its own, else a category of the choice
 * that names one, else "not given", with a note. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "units_reader.h"

/* A row's name: the unit's, then in brackets its mount choice (`on
 * Royal Pegasus`, or a label such as `on foot`) and a second row's label
 * (`flying`), each when there is one. */
void cs_units_row_name(char *out, size_t cap, const base_unit *b, const char *label, int n_sel,
                       const char *extra)
{
    char full[3 * CS_UNITS_NAME + 16];
    if (!label[0] && !extra[0])
        snprintf(full, sizeof full, "%s", b->u.name);
    else
        snprintf(full, sizeof full, "%s (%s%s%s%s)", b->u.name, label[0] && n_sel ? "on " : "",
                 label, label[0] && extra[0] ? ", " : "", extra);
    snprintf(out, cap, "%.*s", (int)cap - 1, full);
}

/* Appends "; " and a formatted part to a row's note (cut short at its end:
 * a long file name shortens the note, never refuses the row). */
void cs_units_row_note(cs_unit *u, const char *fmt, ...)
{
    size_t len = strlen(u->note);
    if (len > 0 && len + 2 < sizeof u->note) {
        memcpy(u->note + len, "; ", 3);
        len += 2;
    }
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(u->note + len, sizeof u->note - len, fmt, ap);
    va_end(ap);
}

/* The first profile among `l` whose name (as a list shows it) carries rule
 * k with a number: *num, the words after it in *rest, where it is in *at.
 * Profiles only: a linked <rule> names a rule, not a row's number
 * (units_resolve.c, rules_of). */
static bool rule_number_in(const reader *r, const proflist *l, int k, char *num, char *rest,
                           char *at)
{
    for (int i = 0; i < l->n; i++) {
        char name[CS_UNITS_NAME];
        if (cs_units_xml_is(l->p[i], "rule"))
            continue;
        cs_units_profile_name(l->p[i], l->via[i], name, sizeof name);
        if (!cs_units_rule_number(name, r->m->rules[k].name, num, CS_UNITS_TEXT, rest,
                                  CS_UNITS_TEXT))
            continue;
        const xmlNode *where = l->via[i] ? l->via[i] : l->p[i];
        snprintf(at, CS_UNITS_PATH + 16, "%s:%d", path_of(r, where), cs_units_xml_line(where));
        return true;
    }
    return false;
}

/* Rule k's number for a row: from its mount levels first, then the unit's
 * own profiles. */
bool cs_units_row_number(const reader *r, const base_unit *b, const proflist *level, int n_lv,
                         int k, char *num, char *rest, char *at)
{
    for (int lv = 0; lv < n_lv; lv++)
        if (rule_number_in(r, &level[lv], k, num, rest, at))
            return true;
    return rule_number_in(r, &b->own, k, num, rest, at);
}

void cs_units_row_unnumbered(const reader *r, const base_unit *b, const proflist *level,
                             int n_lv, cs_unit *u)
{
    const cs_units_mapping *m = r->m;
    for (int k = 0; k < m->n_rules; k++) {
        char num[CS_UNITS_TEXT], rest[CS_UNITS_TEXT], at[CS_UNITS_PATH + 16];
        if (m->rules[k].row[0] && (u->rules & (1u << k)) &&
            !cs_units_row_number(r, b, level, n_lv, k, num, rest, at))
            cs_units_row_note(u, "has %s, but the data gives no number with it: no %s row",
                              m->rules[k].name, m->rules[k].row);
    }
}

/* Settles a second row: the row `u` with characteristic texts replaced,
 * those feeding `param` (a rule's row) by `num`, or with `alternate` each
 * characteristic's alternate_row text; named with `extra`, and marked as
 * the mapping's `row` (`flying`), which the page's chart shows (issue 52). */
static cs_status second_row(reader *r, const base_unit *b, const cs_unit *u,
                            const cs_units_found *found, const char *param, const char *num,
                            const char *label, int n_sel, const char *extra, const char *row)
{
    const cs_units_mapping *m = r->m;
    cs_unit v = *u;
    snprintf(v.row, sizeof v.row, "%s", row);
    cs_units_found f[CS_UNITS_MAX_CHARS];
    memcpy(f, found, sizeof f);
    for (int c = 0; c < m->n_chars; c++) {
        char alt[CS_UNITS_TEXT];
        const char *text = NULL;
        if (param && strcmp(m->chars[c].param, param) == 0)
            text = num;
        else if (!param && m->chars[c].alternate_row[0] && found[c].n == 1 &&
                 cs_units_alternate_text(found[c].text[0], alt, sizeof alt))
            text = alt;
        if (!text)
            continue;
        f[c] = (cs_units_found){.n = 1, .file = {found[c].file[0]}, .line = {found[c].line[0]}};
        if (param)
            f[c] = (cs_units_found){.n = 1, .line = {u->line}};
        snprintf(f[c].text[0], sizeof f[c].text[0], "%s", text);
    }
    cs_units_row_name(v.name, sizeof v.name, b, label, n_sel, extra);
    bool kept;
    return cs_units_settle(r->out, &v, f, false, &kept, r->err);
}

static cs_status option_rows(reader *r, const base_unit *b, const cs_unit *u,
                             const cs_units_found *found, const char *label, int n_sel);

/* The second rows of one row u (with the profiles of its mount levels):
 * for each rule with a row that the row has, one at the rule's number
 * (Fly (10): move 10), with a note for words after it (Fly (9, Dragon
 * form)) or a rule given with no number; on foot, one per optional upgrade
 * named after the rule, its cost added; for each alternate_row
 * characteristic written in a flier's form, one at its alternate value. */
cs_status cs_units_flying_rows(reader *r, const base_unit *b, const cs_unit *u,
                               const cs_units_found *found, const proflist *level, int n_lv,
                               const char *label, int n_sel)
{
    const cs_units_mapping *m = r->m;
    cs_status st = CS_OK;
    for (int k = 0; st == CS_OK && k < m->n_rules; k++) {
        const cs_units_rule *rule = &m->rules[k];
        if (!rule->row[0])
            continue;
        char num[CS_UNITS_TEXT], rest[CS_UNITS_TEXT], at[CS_UNITS_PATH + 16];
        bool has = cs_units_row_number(r, b, level, n_lv, k, num, rest, at);
        cs_unit v = *u;
        if (has && strpbrk(rest, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")) {
            cs_units_row_note(&v, "%s (%s, %s) (%s): this row takes %s; it holds only as "
                     "the rule's own words say", rule->name, num, rest, at, num);
        }
        if (has)
            st = second_row(r, b, &v, found, rule->row_param, num, label, n_sel, rule->row,
                            rule->row);
        cs_units_rule_option opt[4];
        int n_opt = has || n_sel ? 0 : cs_units_rule_options(b->node, rule->name, opt, 4);
        for (int i = 0; st == CS_OK && i < n_opt; i++) {
            char extra[CS_UNITS_NAME + CS_UNITS_TEXT + 16];
            double cost;
            cs_unit w = *u;
            snprintf(extra, sizeof extra, "%s, with %s", rule->row, opt[i].name);
            if (cs_units_entry_cost(opt[i].entry, r->m->cost, &cost)) {
                w.points += cost;
                w.has_points = true;
            }
            cs_units_row_note(&w, "this row takes the option `%s` (%s:%d)", opt[i].name,
                     path_of(r, opt[i].entry), cs_units_xml_line(opt[i].entry));
            st = second_row(r, b, &w, found, rule->row_param, opt[i].num, label, n_sel, extra,
                            rule->row);
        }
    }
    for (int c = 0; st == CS_OK && c < m->n_chars; c++) {
        char alt[CS_UNITS_TEXT];
        if (m->chars[c].alternate_row[0] && found[c].n == 1 &&
            cs_units_alternate_text(found[c].text[0], alt, sizeof alt))
            st = second_row(r, b, u, found, NULL, NULL, label, n_sel, m->chars[c].alternate_row,
                            m->chars[c].alternate_row);
    }
    return st == CS_OK ? option_rows(r, b, u, found, label, n_sel) : st;
}

/* ---- options that give a rule (option = row) ------------------------------ */

/* Does an upgrade's name name the rule: `Swiftstride`, or `Unit - Greenfire
 * Eyes` (T9A's Cultists and Daemon Legions name a manifestation by who takes
 * it, then the rule)? */
static bool named_after(const char *name, const char *rule)
{
    const char *dash = strstr(name, " - ");
    return cs_units_names_rule(name, rule) || (dash && cs_units_names_rule(dash + 3, rule));
}

/* Does entry t hold the rule itself: a <rule> or a rule info link so named
 * (T9A's Favour of Kuulima, the Daemon Legions' Greenfire Eyes)? */
static bool holds_rule(const xmlNode *t, const char *rule)
{
    for (const xmlNode *c = t->children; c; c = c->next) {
        bool rules = cs_units_xml_is(c, "rules"), links = cs_units_xml_is(c, "infoLinks");
        for (const xmlNode *k = rules || links ? c->children : NULL; k; k = k->next) {
            char name[CS_UNITS_NAME];
            if ((rules ? cs_units_xml_is(k, "rule")
                       : cs_units_xml_is(k, "infoLink") && cs_units_xml_prop_is(k, "type", "rule")) &&
                cs_units_xml_prop(k, "name", name, sizeof name) && cs_units_names_rule(name, rule))
                return true;
        }
    }
    return false;
}

/* Does entry t give one of the mapping's characteristics in a profile of
 * its own: a mount (a chariot giving Swiftstride), whose speed is not the
 * rider's? */
static bool gives_characteristic(const reader *r, const xmlNode *t)
{
    for (const xmlNode *c = t->children; c; c = c->next)
        for (const xmlNode *p = cs_units_xml_is(c, "profiles") ? c->children : NULL; p; p = p->next)
            for (int i = 0; cs_units_xml_is(p, "profile") && i < r->m->n_chars; i++)
                if (cs_units_find_char(p, r->m->chars[i].name))
                    return true;
    return false;
}

/* Does entry e hold a profile named `rule`: its own, or through its info
 * links and info groups (a lore's spells), at most `depth` links deep? */
static bool holds_profile(const reader *r, const xmlNode *e, const char *rule, int depth)
{
    for (const xmlNode *c = e->children; c; c = c->next) {
        if (!cs_units_xml_is(c, "profiles") && !cs_units_xml_is(c, "infoLinks") &&
            !cs_units_xml_is(c, "infoGroups"))
            continue;
        for (const xmlNode *k = c->children; k; k = k->next) {
            char name[CS_UNITS_NAME], id[CS_UNITS_TEXT];
            const xmlNode *t = k;
            if (cs_units_xml_is(k, "infoLink") &&
                (depth == 0 || !cs_units_xml_prop(k, "targetId", id, sizeof id) ||
                 !(t = cs_units_docs_lookup(&r->docs, id))))
                continue;
            if (cs_units_xml_is(t, "profile") && cs_units_xml_prop(t, "name", name, sizeof name) &&
                cs_units_names_rule(name, rule))
                return true;
            if (cs_units_xml_is(t, "infoGroup") &&
                holds_profile(r, t, rule, t == k ? depth : depth - 1))
                return true;
        }
    }
    return false;
}

/* Does `type` hold `word`, case aside? */
static bool type_holds(const char *type, const char *word)
{
    size_t n = strlen(word);
    for (const char *s = type; *s; s++)
        if (strncasecmp(s, word, n) == 0)
            return true;
    return false;
}

#define OPTION_DEPTH 8 /* groups within groups, linked or nested */

/* Is x (an entry, a group, or the link choosing one), and t, the entry or
 * group it is, offered where chain c (t pushed on it, as a group's own
 * conditions read it: its holder is its parent) stands: neither
 * hidden for the row (units_cond.h: The Empire of Man's Knightly Orders
 * are shown in its own lists only)? One a condition not decided would
 * show is not offered, and the catalogue's notes name it once. */
static bool offered(reader *r, const cs_units_chain *c, const xmlNode *x, const xmlNode *t)
{
    const xmlNode *h[2] = {x, t};
    for (int i = x == t ? 1 : 0; i < 2; i++) {
        char why[CS_UNITS_NOTE], name[CS_UNITS_NAME] = "";
        cs_units_shown s = cs_units_shown_for(&r->docs, c, h[i], why, sizeof why);
        if (s == CS_UNITS_SHOWN || s == CS_UNITS_UNSURE)
            continue;
        if (s == CS_UNITS_UNDECIDED) {
            char what[CS_UNITS_NOTE + 64];
            cs_units_xml_prop(t, "name", name, sizeof name);
            snprintf(what, sizeof what, "not offered: hidden unless a condition not read holds: %s",
                     why);
            cs_units_note_option(r->out, name, path_of(r, h[i]), cs_units_xml_line(h[i]), what);
        }
        return false;
    }
    return true;
}

/* The optional upgrades below entry or group e that give rule k, each
 * once: nested or linked (a shared Favour, a Virtue), offered to the row
 * (chain c: its selections down to e), named after the rule or holding it
 * as a rule or rule link; with `option_note`, holding its profile too (a
 * lore and its spell). At most max. */
static int givers_below(reader *r, cs_units_chain *c, const xmlNode *e, int k,
                        const xmlNode **out, int n, int max, int depth)
{
    const cs_units_rule *rule = &r->m->rules[k];
    const bool noted = rule->option_note[0] != '\0';
    for (const xmlNode *l = e->children; l && n < max && depth < OPTION_DEPTH; l = l->next) {
        if (!cs_units_xml_is(l, "selectionEntries") && !cs_units_xml_is(l, "selectionEntryGroups") &&
            !cs_units_xml_is(l, "entryLinks"))
            continue;
        for (const xmlNode *x = l->children; x && n < max; x = x->next) {
            const xmlNode *t = x;
            char id[CS_UNITS_TEXT], name[CS_UNITS_NAME];
            if (cs_units_xml_is(x, "entryLink"))
                t = cs_units_xml_prop(x, "targetId", id, sizeof id)
                        ? cs_units_docs_lookup(&r->docs, id) : NULL;
            bool seen = !t;
            for (int i = 0; i < n && !seen; i++)
                seen = out[i] == t;
            cs_units_chain saved = *c;
            if (seen || !cs_units_chain_push(c, t, x == t ? NULL : x) || !offered(r, c, x, t)) {
                *c = saved;
                continue;
            }
            if (cs_units_xml_is(t, "selectionEntry") && cs_units_xml_prop_is(t, "type", "upgrade") &&
                !cs_units_compulsory(x) && !cs_units_compulsory(t) &&
                cs_units_xml_prop(t, "name", name, sizeof name) &&
                (named_after(name, rule->name) || holds_rule(t, rule->name) ||
                 (noted && holds_profile(r, t, rule->name, 2)))) {
                if (noted || !gives_characteristic(r, t))
                    out[n++] = t;
            } else if (cs_units_xml_is(t, "selectionEntryGroup") || cs_units_xml_is(t, "selectionEntry")) {
                /* A group is no selection: what it holds has the group's
                 * holder as its parent. */
                if (cs_units_xml_is(t, "selectionEntryGroup"))
                    *c = saved;
                n = givers_below(r, c, t, k, out, n, max, depth + 1);
            }
            *c = saved;
        }
    }
    return n;
}

/* Rule k's option named once in an option note (`option_note`), or, for a
 * row whose type lacks `only_type`, the note that it gets no row. */
static cs_status option_noted(reader *r, const cs_unit *u, int k, const xmlNode *giver,
                              const char *name)
{
    const cs_units_rule *rule = &r->m->rules[k];
    char what[CS_UNITS_NOTE];
    if (rule->option_note[0]) {
        bool same = strcmp(name, rule->name) == 0;
        snprintf(what, sizeof what, "%s%s%s%s", same ? "" : "its ", same ? "" : rule->name,
                 same ? "" : ": ", rule->option_note);
    } else {
        snprintf(what, sizeof what,
                 "%s only: no row with it for `%s` (%s) nor any unit of another type",
                 rule->only_type, u->name, u->type[0] ? u->type : "no type given");
    }
    return cs_units_note_option(r->out, name, path_of(r, giver), cs_units_xml_line(giver), what);
}

/* The rows of u with each upgrade that gives it a rule it lacks (option =
 * row): `Name (with UPGRADE)`, the rule's param set as the rule sets it,
 * the upgrade's cost added, and its flying twin where u has one; or the
 * option's note (option_note, only_type). */
static cs_status option_rows(reader *r, const base_unit *b, const cs_unit *u,
                             const cs_units_found *found, const char *label, int n_sel)
{
    const cs_units_mapping *m = r->m;
    cs_status st = CS_OK;
    bool complete = true; /* a unit left out for a missing value has no option rows */
    for (int c = 0; c < m->n_chars; c++)
        complete = complete && (!m->chars[c].required || cs_units_found_has_digit(&found[c]));
    for (int k = 0; st == CS_OK && complete && k < m->n_rules; k++) {
        const cs_units_rule *rule = &m->rules[k];
        const xmlNode *giver[4];
        cs_units_chain chain = r->chain; /* the row's unit: its options' conditions */
        int n = (rule->option_row || rule->option_note[0]) && !(u->rules & (1u << k))
                    ? givers_below(r, &chain, b->node, k, giver, 0, 4, 0) : 0;
        for (int i = 0; st == CS_OK && i < n; i++) {
            char name[CS_UNITS_NAME], extra[CS_UNITS_NAME + 16];
            double cost;
            cs_unit w = *u;
            cs_units_xml_prop(giver[i], "name", name, sizeof name);
            if (rule->option_note[0] || (rule->only_type[0] && !type_holds(u->type, rule->only_type))) {
                st = option_noted(r, u, k, giver[i], name);
                continue;
            }
            w.rules |= 1u << k;
            if (cs_units_entry_cost(giver[i], m->cost, &cost)) {
                w.points += cost;
                w.has_points = true;
            }
            cs_units_row_note(&w, "this row takes the option `%s` (%s:%d), which gives %s", name,
                              path_of(r, giver[i]), cs_units_xml_line(giver[i]), rule->name);
            snprintf(extra, sizeof extra, "with %s", name);
            cs_unit v = w;
            cs_units_row_name(v.name, sizeof v.name, b, label, n_sel, extra);
            bool kept;
            st = cs_units_settle(r->out, &v, found, false, &kept, r->err);
            for (int c = 0; st == CS_OK && c < m->n_chars; c++) {
                char alt[CS_UNITS_TEXT];
                snprintf(extra, sizeof extra, "%s, with %s", m->chars[c].alternate_row, name);
                if (m->chars[c].alternate_row[0] && found[c].n == 1 &&
                    cs_units_alternate_text(found[c].text[0], alt, sizeof alt))
                    st = second_row(r, b, &w, found, NULL, NULL, label, n_sel, extra,
                                    m->chars[c].alternate_row);
            }
        }
    }
    return st;
}

/* A chosen mount's troop type: its own profile's, else a category of the
 * choice that names one, else "not given", with a note. */
void cs_units_mount_type(reader *r, const mount *mt, const proflist *level, cs_unit *u)
{
    const cs_units_mapping *m = r->m;
    cs_units_one_text(level->p, level->n, m->type, u->type, sizeof u->type);
    if (u->type[0] || !m->type[0] ||
        cs_units_troop_category(m->type_categories, mt->link, mt->entry, u->type,
                                sizeof u->type))
        return;
    snprintf(u->type, sizeof u->type, "not given");
    cs_units_row_note(u, "%s not given: the data gives the mount no %s, nor files the choice under "
                      "a category that names one", m->type, m->type);
}
