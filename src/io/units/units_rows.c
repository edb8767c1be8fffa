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
 * rule granted only in an item's prose (noted by units_resolve.c). A
 * chosen mount's troop type is its own, else a category of the choice
 * that names one, else "not given", with a note. An optional upgrade that
 * gives a rule the mapping marks `option = yes` (a Bretonnian Virtue, the
 * Order of the Knights Panther) gets a row of its own, `(with OPTION)`;
 * one marked `option_note` (a spell another unit's model casts) a note. */
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
 * k with a number: *num, the words after it in *rest, where it is in *at. */
static bool rule_number_in(const reader *r, const proflist *l, int k, char *num, char *rest,
                           char *at)
{
    for (int i = 0; i < l->n; i++) {
        char name[CS_UNITS_NAME];
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
 * characteristic's alternate_row text; named with `extra`. */
static cs_status second_row(reader *r, const base_unit *b, const cs_unit *u,
                            const cs_units_found *found, const char *param, const char *num,
                            const char *label, int n_sel, const char *extra)
{
    const cs_units_mapping *m = r->m;
    cs_unit v = *u;
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

/* Up to max optional upgrades named `rule` (with `held`, or holding its
 * profile) below entry e, each once: its selection entries and groups, and
 * the targets of its entry links (found by id), at most `depth` links deep
 * (link graphs may loop). */
static int named_options(const reader *r, const xmlNode *e, const char *rule, bool held,
                         const xmlNode **out, int n, int max, int depth)
{
    for (const xmlNode *c = e->children; c && n < max; c = c->next) {
        if (!cs_units_xml_is(c, "selectionEntries") &&
            !cs_units_xml_is(c, "selectionEntryGroups") && !cs_units_xml_is(c, "entryLinks"))
            continue;
        for (const xmlNode *k = c->children; k && n < max; k = k->next) {
            char name[CS_UNITS_NAME], id[CS_UNITS_TEXT];
            const xmlNode *t = k;
            if (cs_units_xml_is(k, "entryLink")) {
                if (depth == 0 || cs_units_compulsory(k) ||
                    !cs_units_xml_prop(k, "targetId", id, sizeof id) ||
                    !(t = cs_units_docs_lookup(&r->docs, id)))
                    continue;
            } else if (!cs_units_xml_is(k, "selectionEntry") &&
                       !cs_units_xml_is(k, "selectionEntryGroup")) {
                continue;
            }
            bool dup = false;
            for (int i = 0; i < n; i++)
                dup = dup || out[i] == t;
            if (dup)
                continue;
            if (cs_units_xml_is(t, "selectionEntry") &&
                cs_units_xml_prop_is(t, "type", "upgrade") && !cs_units_compulsory(t) &&
                cs_units_xml_prop(t, "name", name, sizeof name) &&
                (cs_units_names_rule(name, rule) || (held && holds_profile(r, t, rule, 2))))
                out[n++] = t;
            else
                n = named_options(r, t, rule, held, out, n, max, t == k ? depth : depth - 1);
        }
    }
    return n;
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

/* The option rows of row u (`option = yes`): one per optional upgrade named
 * after a rule the row lacks, the row with the rule, `(with OPTION)`; or,
 * with `option_note`, the option named in a note and no row. */
static cs_status option_rows(reader *r, const base_unit *b, const cs_unit *u,
                             const cs_units_found *found, const char *label, int n_sel)
{
    const cs_units_mapping *m = r->m;
    cs_status st = CS_OK;
    for (int k = 0; st == CS_OK && k < m->n_rules; k++) {
        const cs_units_rule *rule = &m->rules[k];
        const xmlNode *opt[4];
        bool noted = rule->option_note[0] != '\0';
        if (!(rule->option || noted) || (u->rules & (1u << k)))
            continue;
        int n_opt = named_options(r, b->node, rule->name, noted, opt, 0, 4, 4);
        for (int i = 0; st == CS_OK && i < n_opt; i++) {
            char name[CS_UNITS_NAME], extra[CS_UNITS_NAME + 8];
            cs_units_xml_prop(opt[i], "name", name, sizeof name);
            if (noted) {
                /* Once per option (file:line), whichever unit meets it first. */
                char what[CS_UNITS_NOTE];
                bool same = strcmp(name, rule->name) == 0;
                snprintf(what, sizeof what, "%s%s%s%s", same ? "" : "its ",
                         same ? "" : rule->name, same ? "" : ": ", rule->option_note);
                st = cs_units_note_option(r->out, name, path_of(r, opt[i]),
                                          cs_units_xml_line(opt[i]), what);
                continue;
            }
            if (rule->only_type[0] && !type_holds(u->type, rule->only_type)) {
                char what[CS_UNITS_NOTE];
                snprintf(what, sizeof what,
                         "%s only: no row with it for `%s` (%s) nor any unit of another type",
                         rule->only_type, u->name, u->type[0] ? u->type : "no type given");
                st = cs_units_note_option(r->out, name, path_of(r, opt[i]),
                                          cs_units_xml_line(opt[i]), what);
                continue;
            }
            cs_unit w = *u;
            double cost;
            w.rules |= 1u << k;
            if (cs_units_entry_cost(opt[i], m->cost, &cost)) {
                w.points += cost;
                w.has_points = true;
            }
            cs_units_row_note(&w, "this row takes the option `%s` (%s:%d)", name,
                              path_of(r, opt[i]), cs_units_xml_line(opt[i]));
            snprintf(extra, sizeof extra, "with %s", name);
            st = second_row(r, b, &w, found, "", NULL, label, n_sel, extra);
        }
    }
    return st;
}

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
            st = second_row(r, b, &v, found, rule->row_param, num, label, n_sel, rule->row);
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
            st = second_row(r, b, &w, found, rule->row_param, opt[i].num, label, n_sel, extra);
        }
    }
    for (int c = 0; st == CS_OK && c < m->n_chars; c++) {
        char alt[CS_UNITS_TEXT];
        if (m->chars[c].alternate_row[0] && found[c].n == 1 &&
            cs_units_alternate_text(found[c].text[0], alt, sizeof alt))
            st = second_row(r, b, u, found, NULL, NULL, label, n_sel, m->chars[c].alternate_row);
    }
    if (st == CS_OK)
        st = option_rows(r, b, u, found, label, n_sel);
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
