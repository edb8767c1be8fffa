/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Units, stage 2 of 5: resolve entries (see unitsrc.h for the stages).
 *
 * The BattleScribe documents stage 1 opened (units_source.c) become units:
 * which entries are units, each unit's profiles (its own, linked, those of
 * its models and of the upgrades it must take), its points (the smallest
 * legal unit), and what its options say (mounts, upgrades, groups). For each
 * characteristic the mapping names, the texts found go to stage 3
 * (units_settle.c, cs_units_settle), which reads them into the unit's values.
 * With the mapping's mount_type, mounts are rows of their own: a unit that
 * must take its mount moves at the mount's M, one that may choose gets a
 * row per choice (The Old World, issue 32). What is a unit, where its
 * profiles and points come from: see cs_units_read_bs in unitsrc.h. Of
 * the modifiers, only those that hide or show a profile, info link or
 * info group are read, under the conditions a row decides (units_cond.h:
 * the War Boar's Swiftstride, shown only to a character not on a chariot);
 * a cost or characteristic changed by an option is not. */
#include <libxml/tree.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "chargesim/grow.h"
#include "chargesim/unitsrc.h"

#include "units_reader.h"

/* Entries and links nested deeper than this are refused: a guard for the
 * stack (cycles are found as cycles; shared entries are resolved once). */
#define LINK_DEPTH 256
/* Mounts one unit must take together (a row holds them all). */
#define CS_UNITS_MAX_ROWS 32

/* ---- the reader's state ------------------------------------------------ */


/* The element a link's targetId names, in the file or its game system. */
static cs_status target(reader *r, const xmlNode *link, const xmlNode **out)
{
    char id[CS_UNITS_TEXT], name[CS_UNITS_NAME] = "";
    cs_units_xml_prop(link, "name", name, sizeof name);
    if (!cs_units_xml_prop(link, "targetId", id, sizeof id)) {
        cs_error_set(r->err, CS_EINPUT, "%s:%d: <%s> `%s` has no targetId", path_of(r, link),
                     cs_units_xml_line(link), (const char *)link->name, name);
        return CS_EINPUT;
    }
    *out = cs_units_docs_lookup(&r->docs, id);
    if (!*out) {
        cs_error_set(r->err, CS_EINPUT, "%s:%d: <%s> `%s`: targetId %s is in neither %s%s%s",
                     path_of(r, link), cs_units_xml_line(link), (const char *)link->name, name, id,
                     r->docs.doc[0].path, r->docs.n > 1 ? " nor " : "",
                     r->docs.n > 1 ? r->docs.doc[1].path : "");
        return CS_EINPUT;
    }
    return CS_OK;
}

static bool unit_type(const xmlNode *n)
{
    return cs_units_xml_is(n, "selectionEntry") && (cs_units_xml_prop_is(n, "type", "unit") || cs_units_xml_prop_is(n, "type", "model"));
}

/* ---- the profiles of one unit ------------------------------------------ */

static cs_status add_profile(reader *r, const xmlNode *p, const xmlNode *via)
{
    proflist *l = r->prof;
    const xmlNode **q = cs_grow(l->p, l->n, &l->cap, sizeof *q, 32);
    if (q)
        l->p = q;
    const xmlNode **v = q ? cs_grow(l->via, l->n, &l->cap_via, sizeof *v, 32) : NULL;
    if (!v)
        return CS_ENOMEM;
    l->via = v;
    l->p[l->n] = p;
    l->via[l->n++] = via;
    return CS_OK;
}

/* Is entry t (chosen by `link`, or NULL) a mount: the mapping's mount_type
 * is its subType, or it is a model in a mount group (in_group) or filed
 * under a category of that name (cs_units_mount_category)? */
static bool is_mount(const reader *r, const xmlNode *link, const xmlNode *t, bool in_group)
{
    bool model = cs_units_xml_prop_is(t, "type", "model");
    return (r->m->mount_type[0] && cs_units_xml_prop_is(t, "subType", r->m->mount_type)) ||
           (model && (in_group || cs_units_mount_category(&r->docs, r->m, link) ||
                      cs_units_mount_category(&r->docs, r->m, t)));
}

/* Is group g one of the mapping's mount groups (its name, case aside, or
 * its plural: units_cond.h)? */
static bool mount_group(const reader *r, const xmlNode *g)
{
    char name[CS_UNITS_NAME];
    return cs_units_xml_prop(g, "name", name, sizeof name) &&
           cs_units_mount_group_name(r->m, name);
}

/* Does profile p (reached through info link `via`, or NULL) name one of
 * the mapping's rules or hold one of its characteristics? */
static bool mapped(const reader *r, const xmlNode *p, const xmlNode *via)
{
    char name[CS_UNITS_NAME];
    cs_units_profile_name(p, via, name, sizeof name);
    for (int k = 0; k < r->m->n_rules; k++)
        if (cs_units_names_rule(name, r->m->rules[k].name))
            return true;
    for (int c = 0; c < r->m->n_chars; c++)
        if (cs_units_find_char(p, r->m->chars[c].name))
            return true;
    return false;
}

/* Names mapped profile p (through `via`), whose element n a condition
 * not decided (why) would show or hide, in the list's note. */
static void note_unsure(reader *r, const xmlNode *n, const xmlNode *p, const xmlNode *via,
                        bool shown, const char *why)
{
    char name[CS_UNITS_NAME] = "";
    if (!mapped(r, p, via))
        return;
    char *note = r->prof->unsure;
    size_t len = strlen(note);
    cs_units_xml_prop(p, "name", name, sizeof name);
    snprintf(note + len, sizeof r->prof->unsure - len, "%s`%s` (%s:%d) %s: %s", len ? "; " : "",
             name, path_of(r, n), cs_units_xml_line(n),
             shown ? "counted, though a condition not read may hide it"
                   : "not counted: hidden unless a condition not read holds",
             why);
}

/* The mapped profiles of an info group a condition not decided would
 * show or hide (shown: it is counted). */
static void note_group(reader *r, const xmlNode *g, bool shown, const char *why)
{
    for (const xmlNode *c = g->children; c; c = c->next)
        for (const xmlNode *l = c->children; l; l = l->next) {
            char id[CS_UNITS_TEXT];
            const xmlNode *t = NULL;
            if (cs_units_xml_is(l, "profile"))
                note_unsure(r, l, l, NULL, shown, why);
            else if (cs_units_xml_is(l, "infoLink") &&
                     cs_units_xml_prop(l, "targetId", id, sizeof id) &&
                     (t = cs_units_docs_lookup(&r->docs, id)) && cs_units_xml_is(t, "profile"))
                note_unsure(r, g, t, l, shown, why);
            else if (cs_units_xml_is(l, "infoGroup"))
                note_group(r, l, shown, why);
        }
}

/* Is element n (a profile, an info link to p, an info group: p NULL)
 * counted for the row being read (units_cond.h)? A mapped profile whose
 * state a condition not decided would change is named in the list's
 * note. */
static bool counted(reader *r, const xmlNode *n, const xmlNode *p, const xmlNode *via)
{
    char why[CS_UNITS_NOTE];
    cs_units_shown s = cs_units_shown_for(&r->docs, &r->chain, n, why, sizeof why);
    bool shown = s == CS_UNITS_SHOWN || s == CS_UNITS_UNSURE;
    if ((s == CS_UNITS_UNDECIDED || s == CS_UNITS_UNSURE) && p)
        note_unsure(r, n, p, via, shown, why);
    else if (s == CS_UNITS_UNDECIDED || s == CS_UNITS_UNSURE)
        note_group(r, n, shown, why);
    return shown;
}

/* An entry's own profiles: <profiles> and the targets of its profile
 * <infoLinks> (shared profiles of the catalogue or the game system), those
 * of its <infoGroups> too (The Old World lists special rules so). Its
 * rules join them, <rules> and the targets of rule <infoLinks> (T9A gives
 * a unit Swiftstride so), as a roster's do: they carry no characteristic,
 * only a name for the mapping's [rule NAME]. Each only where it is shown
 * for the row (counted: hidden links). */
static cs_status own_profiles(reader *r, const xmlNode *e)
{
    cs_status st = CS_OK;
    for (const xmlNode *c = e->children; st == CS_OK && c; c = c->next) {
        if (cs_units_xml_is(c, "profiles") || cs_units_xml_is(c, "rules")) {
            const char *kind = cs_units_xml_is(c, "rules") ? "rule" : "profile";
            for (const xmlNode *p = c->children; st == CS_OK && p; p = p->next)
                if (cs_units_xml_is(p, kind) && counted(r, p, p, NULL))
                    st = add_profile(r, p, NULL);
        } else if (cs_units_xml_is(c, "infoLinks")) {
            for (const xmlNode *l = c->children; st == CS_OK && l; l = l->next) {
                if (!cs_units_xml_is(l, "infoLink") || (!cs_units_xml_prop_is(l, "type", "profile") &&
                                                         !cs_units_xml_prop_is(l, "type", "rule")))
                    continue;
                const char *kind = cs_units_xml_prop_is(l, "type", "rule") ? "rule" : "profile";
                const xmlNode *t;
                st = target(r, l, &t);
                if (st == CS_OK && !cs_units_xml_is(t, kind)) {
                    cs_error_set(r->err, CS_EINPUT, "%s:%d: <infoLink> of type %s points to <%s>",
                                 path_of(r, l), cs_units_xml_line(l), kind, (const char *)t->name);
                    st = CS_EINPUT;
                }
                if (st == CS_OK && counted(r, l, t, l))
                    st = add_profile(r, t, l);
            }
        } else if (cs_units_xml_is(c, "infoGroups")) {
            for (const xmlNode *g = c->children; st == CS_OK && g; g = g->next)
                if (cs_units_xml_is(g, "infoGroup") && counted(r, g, NULL, NULL))
                    st = own_profiles(r, g);
        }
    }
    return st;
}

/* The minimum count of a model child: a <constraint type="min"
 * field="selections" scope="parent">, on the link first, then the entry. */
static double min_count(const xmlNode *link, const xmlNode *entry)
{
    const xmlNode *holders[2] = {link, entry};
    for (int h = 0; h < 2; h++) {
        if (!holders[h])
            continue;
        for (const xmlNode *c = holders[h]->children; c; c = c->next) {
            if (!cs_units_xml_is(c, "constraints"))
                continue;
            for (const xmlNode *k = c->children; k; k = k->next) {
                char v[CS_UNITS_TEXT];
                if (cs_units_xml_is(k, "constraint") && cs_units_xml_prop_is(k, "type", "min") &&
                    cs_units_xml_prop_is(k, "field", "selections") && cs_units_xml_prop_is(k, "scope", "parent") &&
                    cs_units_xml_prop(k, "value", v, sizeof v))
                    return strtod(v, NULL);
            }
        }
    }
    return 0.0;
}


/* A unit's own child entry typed "upgrade" that the unit must take at least
 * once (a min selections constraint >= 1, on the link or the entry): the
 * data types the unit's models so in places (T9A 2nd edition: Steppe
 * Wolfhounds, Feldraks), so its profiles are the models' profiles. An
 * optional upgrade (a mount, a weapon) or one inside a group is an option,
 * not read: its profile would contradict the unit's own. */
static bool unit_upgrade(const xmlNode *link, const xmlNode *t)
{
    return cs_units_xml_prop_is(t, "type", "upgrade") && min_count(link, t) >= 1.0;
}

/* Records a mount met among the unit's models, once. */
static cs_status add_mount(reader *r, const xmlNode *link, const xmlNode *t, bool in_choice,
                           const char *unsure)
{
    mounts *l = r->mounts;
    for (int i = 0; i < l->n; i++)
        if (l->m[i].entry == t)
            return CS_OK;
    mount *q = cs_grow(l->m, l->n, &l->cap, sizeof *q, 8);
    if (!q)
        return CS_ENOMEM;
    l->m = q;
    l->m[l->n] = (mount){link, t, min_count(link, t) >= 1.0, in_choice, r->chain, ""};
    snprintf(l->m[l->n++].unsure, sizeof q->unsure, "%s", unsure);
    return CS_OK;
}

/* Is entry t, chosen by `link` (NULL: nested), offered to the row being
 * read: neither the link nor the entry hidden for it (units_cond.h; the
 * Dark Elves' shared Mount group hides each mount but from the characters
 * its conditions name)? A model that a condition not decided would show or
 * hide keeps the state it is written with, and the list's note names it. A
 * mount (mount_why not NULL) that only a condition not decided would show
 * is offered, a choice the list may make (a Noble's Sun Dragon needs Blood
 * of Caledor, an option he takes), and mount_why names the condition for
 * the rows on it. */
static bool entry_counted(reader *r, const xmlNode *link, const xmlNode *t, char *mount_why)
{
    cs_units_chain saved = r->chain;
    bool shown = true;
    const xmlNode *h[2] = {link, t};
    for (int i = 0; i < 2 && cs_units_chain_push(&r->chain, t, link); i++) {
        char why[CS_UNITS_NOTE], name[CS_UNITS_NAME] = "";
        cs_units_shown s = h[i] ? cs_units_shown_for(&r->docs, &r->chain, h[i], why, sizeof why)
                                : CS_UNITS_SHOWN;
        r->chain = saved;
        if (mount_why && s == CS_UNITS_UNDECIDED) {
            snprintf(mount_why, CS_UNITS_NOTE, "%.*s", CS_UNITS_NOTE - 1, why);
            continue;
        }
        shown = shown && (s == CS_UNITS_SHOWN || s == CS_UNITS_UNSURE);
        if (s != CS_UNITS_UNDECIDED && s != CS_UNITS_UNSURE)
            continue;
        char *note = r->prof->unsure;
        size_t len = strlen(note);
        cs_units_xml_prop(t, "name", name, sizeof name);
        snprintf(note + len, sizeof r->prof->unsure - len, "%s`%s` (%s:%d) %s: %s",
                 len ? "; " : "", name, path_of(r, h[i]), cs_units_xml_line(h[i]),
                 s == CS_UNITS_UNSURE ? "offered, though a condition not read may hide it"
                                      : "not offered: hidden unless a condition not read holds",
                 why);
    }
    r->chain = saved;
    return shown;
}

/* ---- shared entries, resolved once per unit ----------------------------- */

static cs_status model_children(reader *r, const xmlNode *e, int depth, bool in_choice,
                                bool in_group, double *points, bool *has_points);

/* One model child t (reached through `link`, or nested when NULL): its
 * profiles join the unit's, its minimum count times its cost joins the
 * points, then what it holds itself. */
static cs_status model_child(reader *r, const xmlNode *link, const xmlNode *t, int depth,
                             double *points, bool *has_points)
{
    double cost, below = 0.0;
    bool has_below = false;
    if (cs_units_entry_cost(t, r->m->cost, &cost)) {
        *points += cost * min_count(link, t);
        *has_points = true;
    }
    cs_status st = model_children(r, t, depth + 1, false, false, &below, &has_below);
    *points += below;
    *has_points = *has_points || has_below;
    return st;
}

/* The points below entry e, resolved once per unit (r->memo): the first
 * visit adds the profiles of its models and stores the sum; a later visit
 * (a second link to a shared entry) reuses the sum; an entry met again
 * while it is being resolved is a cycle. */
static cs_status model_children(reader *r, const xmlNode *e, int depth, bool in_choice,
                                bool in_group, double *points, bool *has_points)
{
    cs_units_memo_slot *s = cs_units_memo_find(&r->memo, e);
    if (s && !s->done)
        return cs_error_set(r->err, CS_EINPUT, "%s:%d: entry links form a cycle through `%s`",
                            path_of(r, e), cs_units_xml_line(e), (const char *)e->name);
    if (s) {
        *points += s->points;
        *has_points = *has_points || s->has_points;
        return CS_OK;
    }
    if (depth > LINK_DEPTH)
        return cs_error_set(r->err, CS_EINPUT, "%s:%d: entries and links nested deeper than %d",
                            path_of(r, e), cs_units_xml_line(e), LINK_DEPTH);
    if (!cs_units_memo_insert(&r->memo, e))
        return CS_ENOMEM;
    double sum = 0.0;
    bool has = false;
    cs_status st = CS_OK;
    for (const xmlNode *c = e->children; st == CS_OK && c; c = c->next) {
        if (!cs_units_xml_is(c, "selectionEntries") && !cs_units_xml_is(c, "selectionEntryGroups") && !cs_units_xml_is(c, "entryLinks"))
            continue;
        for (const xmlNode *k = c->children; st == CS_OK && k; k = k->next) {
            const xmlNode *t = k, *link = NULL;
            if (cs_units_xml_is(k, "entryLink")) {
                link = k;
                st = target(r, k, &t);
                if (st != CS_OK)
                    break;
            }
            if (cs_units_xml_is(t, "selectionEntryGroup")) {
                bool choice = in_choice || min_count(link, t) >= 1.0;
                bool group = in_group || mount_group(r, t);
                st = model_children(r, t, depth + 1, choice, group, &sum, &has);
            } else if (cs_units_xml_is(t, "selectionEntry") && is_mount(r, link, t, in_group)) {
                char unsure[CS_UNITS_NOTE] = "";
                if (entry_counted(r, link, t, unsure))
                    st = add_mount(r, link, t, in_choice, unsure);
            } else if (cs_units_xml_is(t, "selectionEntry") &&
                       (cs_units_xml_prop_is(t, "type", "model") || unit_upgrade(link, t)) &&
                       entry_counted(r, link, t, NULL)) {
                cs_units_chain saved = r->chain;
                if (!cs_units_chain_push(&r->chain, t, link))
                    st = cs_error_set(r->err, CS_ELIMIT, "%s:%d: models nested deeper than %d",
                                      path_of(r, t), cs_units_xml_line(t), CS_UNITS_CHAIN);
                if (st == CS_OK)
                    st = cs_units_memo_find(&r->memo, t) ? CS_OK : own_profiles(r, t);
                if (st == CS_OK)
                    st = model_child(r, link, t, depth, &sum, &has);
                r->chain = saved;
            }
        }
    }
    /* The table may have moved while resolving what e holds. */
    s = cs_units_memo_find(&r->memo, e);
    s->done = true;
    s->points = sum;
    s->has_points = has;
    *points += sum;
    *has_points = *has_points || has;
    return st;
}

/* ---- characteristics --------------------------------------------------- */



/* ---- a unit's options --------------------------------------------------- */

static cs_status option_texts(reader *r, const xmlNode *n, int depth, cs_units_found *opt);

/* The mapped characteristics of one profile met among the options. One
 * that grants a row rule only in its prose (an item's "gains the Fly (8)
 * ... special rules") is noted once, as an option, and not read. */
static cs_status option_profile(reader *r, const xmlNode *p, cs_units_found *opt)
{
    cs_status st = CS_OK;
    for (int k = 0; st == CS_OK && k < r->m->n_rules; k++) {
        char name[CS_UNITS_NAME] = "", what[CS_UNITS_NOTE];
        if (!r->m->rules[k].row[0] || !cs_units_prose_gives_rule(p, r->m->rules[k].name))
            continue;
        cs_units_xml_prop(p, "name", name, sizeof name);
        snprintf(what, sizeof what, "grants %s only in its description: not read (a unit that "
                 "takes it has no %s row for it)", r->m->rules[k].name, r->m->rules[k].row);
        st = cs_units_note_option(r->out, name, path_of(r, p), cs_units_xml_line(p), what);
    }
    for (int c = 0; c < r->m->n_chars; c++) {
        const xmlNode *k = cs_units_find_char(p, r->m->chars[c].name);
        if (!k || !cs_units_profile_matches(p, &r->m->chars[c]))
            continue;
        char v[CS_UNITS_TEXT];
        cs_units_char_value(k, v, sizeof v);
        cs_units_found_add(&opt[c], v, path_of(r, k), cs_units_xml_line(k));
    }
    return st;
}

/* Every profile under n, following entry and info links (each target once
 * per unit, r->opts): what a list-builder may give the unit, its mounts
 * among them (T9A's Hobgoblin Conjurer: Mountain Wolf, Plains Tusker,
 * Colossal Camel). A link whose target is missing is an error already met
 * by the unit's own reading, or one in an option not read: skipped here. */
static cs_status option_texts(reader *r, const xmlNode *n, int depth, cs_units_found *opt)
{
    if (depth > LINK_DEPTH)
        return cs_error_set(r->err, CS_EINPUT, "%s:%d: entries and links nested deeper than %d",
                            path_of(r, n), cs_units_xml_line(n), LINK_DEPTH);
    cs_status st = CS_OK;
    for (const xmlNode *c = n->children; st == CS_OK && c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (cs_units_xml_is(c, "profile")) {
            st = option_profile(r, c, opt);
        } else if (cs_units_xml_is(c, "entryLink") || cs_units_xml_is(c, "infoLink")) {
            char id[CS_UNITS_TEXT];
            const xmlNode *t = NULL;
            bool added = false;
            if (cs_units_xml_prop(c, "targetId", id, sizeof id))
                t = cs_units_docs_lookup(&r->docs, id);
            /* A mount is a row of its own (mount_type), not an option. */
            if (t && (is_mount(r, c, t, false) || mount_group(r, t)))
                continue;
            if (t && (st = cs_units_nodes_add(&r->opts, t, &added)) == CS_OK && added) {
                if (cs_units_xml_is(t, "profile"))
                    st = option_profile(r, t, opt);
                else
                    st = option_texts(r, t, depth + 1, opt);
            }
        } else if (!is_mount(r, NULL, c, false) && !mount_group(r, c)) {
            /* Nesting in one file is bounded by the parser; links count. */
            st = option_texts(r, c, depth, opt);
        }
    }
    return st;
}

/* ---- units ------------------------------------------------------------- */

/* The texts of the mapped characteristics in a list of profiles. */
static void texts_of(const reader *r, const proflist *l, cs_units_found *found)
{
    const cs_units_mapping *m = r->m;
    for (int i = 0; i < l->n; i++)
        for (int c = 0; c < m->n_chars; c++) {
            const xmlNode *k = cs_units_find_char(l->p[i], m->chars[c].name);
            if (!k || !cs_units_profile_matches(l->p[i], &m->chars[c]))
                continue;
            char v[CS_UNITS_TEXT];
            cs_units_char_value(k, v, sizeof v);
            cs_units_found_add(&found[c], v, path_of(r, k), cs_units_xml_line(k));
        }
}


/* The mapping's rules among a list of profiles' names (as a list shows
 * them: Fly (10)), as bits. A rule with a row (Fly) is read from profiles
 * only, as its number is (units_rows.c): T9A's rule links to Fly restate
 * the Adv bracket that the alternate row reads already. */
static unsigned rules_of(const reader *r, const proflist *l)
{
    unsigned bits = 0;
    for (int i = 0; i < l->n; i++) {
        char name[CS_UNITS_NAME];
        cs_units_profile_name(l->p[i], l->via[i], name, sizeof name);
        for (int k = 0; k < r->m->n_rules; k++)
            if (cs_units_names_rule(name, r->m->rules[k].name) &&
                !(r->m->rules[k].row[0] && cs_units_xml_is(l->p[i], "rule")))
                bits |= 1u << k;
    }
    return bits;
}

/* A mount's cost: its link's, which replaces the entry's (BattleScribe),
 * else its entry's. */
static bool mount_cost(const reader *r, const mount *mt, double *v)
{
    return (mt->link && cs_units_entry_cost(mt->link, r->m->cost, v)) || cs_units_entry_cost(mt->entry, r->m->cost, v);
}

/* A mount's profiles into level[0], and those of the mounts it must take
 * itself (a chariot's steeds) into level[1], ... ; its points (cost times
 * the count taken, and its models') into *points. */
static cs_status gather_mount(reader *r, const mount *mt, int lv, proflist *level,
                              double *points, bool *has_points)
{
    mounts sub = {0};
    proflist *saved_p = r->prof;
    mounts *saved_m = r->mounts;
    cs_units_chain saved_c = r->chain;
    r->chain = mt->above;
    if (!cs_units_chain_push(&r->chain, mt->entry, mt->link))
        return cs_error_set(r->err, CS_ELIMIT, "%s:%d: mounts nested deeper than %d",
                            path_of(r, mt->entry), cs_units_xml_line(mt->entry), CS_UNITS_CHAIN);
    r->prof = &level[lv];
    r->mounts = &sub;
    cs_units_memo_clear(&r->memo);
    double cost;
    if (mount_cost(r, mt, &cost)) {
        *points += cost * (mt->required ? fmax(1.0, min_count(mt->link, mt->entry)) : 1.0);
        *has_points = true;
    }
    cs_status st = own_profiles(r, mt->entry);
    if (st == CS_OK)
        st = model_children(r, mt->entry, 1, false, false, points, has_points);
    for (int i = 0; st == CS_OK && lv + 1 < MOUNT_LEVELS && i < sub.n; i++)
        if (sub.m[i].required)
            st = gather_mount(r, &sub.m[i], lv + 1, level, points, has_points);
    r->prof = saved_p;
    r->mounts = saved_m;
    r->chain = saved_c;
    free(sub.m);
    return st;
}




/* One row: the unit with the mounts `sel` (none: on foot), named `label`
 * ("" keeps the unit's name), and its second rows (flying_rows). A
 * characteristic read from the mount (mount = yes) takes the first level
 * of the mount that gives a number for it, the unit's own texts when none
 * does. Handed to stage 3. */
static cs_status row(reader *r, const base_unit *b, const mount *const *sel, int n_sel,
                     const char *label)
{
    const cs_units_mapping *m = r->m;
    cs_unit u = b->u;
    proflist level[MOUNT_LEVELS] = {{0}};
    double points = 0.0;
    bool has_points = false;
    cs_status st = CS_OK;
    for (int i = 0; st == CS_OK && i < n_sel; i++)
        st = gather_mount(r, sel[i], 0, level, &points, &has_points);
    cs_units_found found[CS_UNITS_MAX_CHARS];
    memcpy(found, b->found, sizeof found);
    for (int c = 0; st == CS_OK && c < m->n_chars; c++) {
        for (int lv = 0; m->chars[c].mount && lv < MOUNT_LEVELS; lv++) {
            cs_units_found f[CS_UNITS_MAX_CHARS];
            memset(f, 0, sizeof f);
            texts_of(r, &level[lv], f);
            if (cs_units_found_has_digit(&f[c])) {
                /* The unit's options are the rider's: not the mount's values. */
                found[c] = f[c];
                found[c].options = NULL;
                cs_units_found_drop_words(&found[c]);
                break;
            }
        }
    }
    for (int lv = 0; lv < MOUNT_LEVELS; lv++)
        u.rules |= rules_of(r, &level[lv]);
    for (int lv = -1; lv < MOUNT_LEVELS; lv++) {
        const char *unsure = lv < 0 ? b->own.unsure : level[lv].unsure;
        if (unsure[0])
            cs_units_row_note(&u, "%s", unsure);
    }
    for (int i = 0; i < n_sel; i++) {
        char name[CS_UNITS_NAME] = "";
        cs_units_xml_prop(sel[i]->entry, "name", name, sizeof name);
        if (sel[i]->unsure[0])
            cs_units_row_note(&u, "`%s` is offered only where a condition not read holds (%s)",
                              name, sel[i]->unsure);
    }
    if (n_sel > 0 && label[0]) {
        cs_units_mount_type(r, sel[0], &level[0], &u);
        snprintf(u.mount, sizeof u.mount, "%s", label);
    }
    cs_units_row_name(u.name, sizeof u.name, b, label, n_sel, "");
    u.points += points;
    u.has_points = u.has_points || has_points;
    cs_units_row_unnumbered(r, b, level, n_sel ? MOUNT_LEVELS : 0, &u);
    cs_unit ground = u;
    bool kept;
    if (st == CS_OK)
        st = cs_units_settle(r->out, &u, found, false, &kept, r->err);
    if (st == CS_OK)
        st = cs_units_flying_rows(r, b, &ground, found, level, n_sel ? MOUNT_LEVELS : 0, label, n_sel);
    for (int lv = 0; lv < MOUNT_LEVELS; lv++) {
        free(level[lv].p);
        free(level[lv].via);
    }
    return st;
}

/* The rows of a unit with mounts: with the mounts it must take, one row;
 * else one per mount it may choose, and on foot unless it must choose one. */
static cs_status mount_rows(reader *r, const base_unit *b, const mounts *ms)
{
    const mount *sel[CS_UNITS_MAX_ROWS];
    int n = 0;
    bool foot = true;
    for (int i = 0; i < ms->n; i++) {
        if (ms->m[i].required && n == CS_UNITS_MAX_ROWS)
            return cs_error_set(r->err, CS_ELIMIT, "%s:%d: unit `%s` must take more than %d mounts",
                                b->u.file, b->u.line, b->u.name, CS_UNITS_MAX_ROWS);
        if (ms->m[i].required)
            sel[n++] = &ms->m[i];
        foot = foot && !ms->m[i].in_choice;
    }
    if (n > 0)
        return row(r, b, sel, n, "");
    cs_status st = foot ? row(r, b, NULL, 0, "on foot") : CS_OK;
    for (int i = 0; st == CS_OK && i < ms->n; i++) {
        char name[CS_UNITS_NAME];
        cs_units_xml_prop(ms->m[i].entry, "name", name, sizeof name);
        const mount *one = &ms->m[i];
        st = row(r, b, &one, 1, name);
    }
    return st;
}

/* Is e one of the catalogue's root <selectionEntries> (selected by the
 * catalogue itself, as a root entry link would)? */
static bool root_entry(const xmlNode *e)
{
    return e->parent && cs_units_xml_is(e->parent, "selectionEntries") && e->parent->parent &&
           e->parent->parent == xmlDocGetRootElement(e->doc);
}

/* The link of the catalogue's root <entryLinks> that selects entry e (one
 * not hidden first), or NULL: where the catalogue gives a shared unit its
 * categories (The Old World's Black Orc Warboss is a Character so), which
 * hidden links' conditions ask about. */
static const xmlNode *root_link(const reader *r, const xmlNode *e)
{
    char id[CS_UNITS_TEXT];
    const xmlNode *found = NULL;
    if (!cs_units_xml_prop(e, "id", id, sizeof id))
        return NULL;
    const xmlNode *root = xmlDocGetRootElement(r->docs.doc[0].doc);
    for (const xmlNode *c = root->children; c; c = c->next) {
        if (!cs_units_xml_is(c, "entryLinks"))
            continue;
        for (const xmlNode *l = c->children; l; l = l->next)
            if (cs_units_xml_is(l, "entryLink") && cs_units_xml_prop_is(l, "targetId", id)) {
                if (!cs_units_xml_prop_is(l, "hidden", "true"))
                    return l;
                found = found ? found : l;
            }
    }
    return found;
}

static cs_status read_unit(reader *r, const xmlNode *e, const xmlNode *link)
{
    const cs_units_mapping *m = r->m;
    base_unit *b = calloc(1, sizeof *b);
    mounts ms = {0};
    if (!b)
        return CS_ENOMEM;
    cs_unit *u = &b->u;
    b->node = e;
    cs_units_xml_prop(e, "name", u->name, sizeof u->name);
    cs_units_xml_prop(e, "id", u->id, sizeof u->id);
    snprintf(u->catalogue, sizeof u->catalogue, "%s", r->catalogue);
    snprintf(u->file, sizeof u->file, "%s", path_of(r, e));
    u->line = cs_units_xml_line(e);
    u->map = m;

    r->prof = &b->own;
    r->mounts = &ms;
    r->chain.n = 0;
    const xmlNode *root = root_link(r, e);
    cs_units_chain_push(&r->chain, e, root ? root : link);
    r->chain.unlinked = !root && !link && !root_entry(e);
    cs_units_memo_clear(&r->memo);
    double points = 0.0;
    bool has_points = cs_units_entry_cost(e, r->m->cost, &points);
    cs_status st = own_profiles(r, e);
    if (st == CS_OK)
        st = model_children(r, e, 0, false, false, &points, &has_points);
    u->has_points = has_points;
    u->points = points;
    texts_of(r, &b->own, b->found);
    for (int c = 0; c < m->n_chars; c++)
        if (m->chars[c].mount)
            cs_units_found_drop_words(&b->found[c]);
    cs_units_one_text(b->own.p, b->own.n, m->base, u->base, sizeof u->base);
    cs_units_one_text(b->own.p, b->own.n, m->type, u->type, sizeof u->type);
    u->rules = rules_of(r, &b->own);
    /* The whole entry, options included, for what settle tells the user. */
    cs_units_memo_clear(&r->opts); /* a set is a memo (units_doc.h) */
    bool added;
    if (st == CS_OK)
        st = cs_units_nodes_add(&r->opts, e, &added);
    if (st == CS_OK)
        st = option_texts(r, e, 0, b->opt);
    for (int c = 0; c < m->n_chars; c++)
        b->found[c].options = &b->opt[c];
    if (st == CS_OK)
        st = ms.n > 0 ? mount_rows(r, b, &ms) : row(r, b, NULL, 0, "");
    free(b->own.p);
    free(b->own.via);
    free(ms.m);
    free(b);
    return st;
}

/* Marks what entry links inside units point to: those entries are the
 * units' models (a model kept in a shared library and linked into its
 * unit), not units of their own. */
static cs_status mark_children(reader *r, const xmlNode *n, bool inside)
{
    cs_status st = CS_OK;
    for (const xmlNode *c = n->children; st == CS_OK && c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (inside && cs_units_xml_is(c, "entryLink")) {
            const xmlNode *t;
            bool added;
            st = target(r, c, &t);
            /* An entry typed unit stays a unit wherever it is linked from
             * (The Old World's Weapon Teams, attached to regiments). */
            if (st == CS_OK && !cs_units_xml_prop_is(t, "type", "unit"))
                st = cs_units_nodes_add(&r->children, t, &added);
        }
        if (st == CS_OK)
            st = mark_children(r, c, inside || unit_type(c));
    }
    return st;
}

static cs_status nested_units(reader *r, const xmlNode *e);

/* Reads a unit met by the walk (through `link`, or NULL), once, then the
 * units it holds. */
static cs_status unit_met(reader *r, const xmlNode *e, const xmlNode *link)
{
    bool added;
    if (cs_units_nodes_has(&r->children, e))
        return CS_OK;
    cs_status st = cs_units_nodes_add(&r->seen, e, &added);
    if (st == CS_OK && added)
        st = read_unit(r, e, link);
    return st == CS_OK && added ? nested_units(r, e) : st;
}

/* The units inside unit e: entries typed unit nested in it or linked from
 * it (The Old World's detachments and weapon teams), each a unit of its
 * own; its models and options are its own. */
static cs_status nested_units(reader *r, const xmlNode *e)
{
    cs_status st = CS_OK;
    for (const xmlNode *c = e->children; st == CS_OK && c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        const xmlNode *t = c;
        if (cs_units_xml_is(c, "entryLink") && (st = target(r, c, &t)) != CS_OK)
            break;
        if (cs_units_xml_is(t, "selectionEntry") && cs_units_xml_prop_is(t, "type", "unit"))
            st = unit_met(r, t, t == c ? NULL : c);
        else if (!cs_units_xml_is(c, "entryLink"))
            st = nested_units(r, c);
    }
    return st;
}

/* Walks a subtree for units: every unit or model entry met is one (and is
 * not entered but for the units it holds: what it nests belongs to it);
 * entry links met outside units are followed to their targets, which are
 * units or are walked in turn. */
static cs_status walk(reader *r, const xmlNode *n, int depth)
{
    if (depth > LINK_DEPTH)
        return cs_error_set(r->err, CS_EINPUT,
                            "%s:%d: entry links nested deeper than %d", path_of(r, n),
                            cs_units_xml_line(n), LINK_DEPTH);
    cs_status st = CS_OK;
    for (const xmlNode *c = n->children; st == CS_OK && c; c = c->next) {
        if (c->type != XML_ELEMENT_NODE)
            continue;
        if (unit_type(c) && is_mount(r, NULL, c, false) && !root_entry(c)) {
            /* A mount kept in the catalogue's shared entries is a unit
             * only where a root entry link selects it (below). */
            continue;
        } else if (cs_units_xml_is(c, "selectionEntryGroup") && mount_group(r, c)) {
            continue; /* so are a shared mount group's models */
        } else if (unit_type(c)) {
            st = unit_met(r, c, NULL);
        } else if (cs_units_xml_is(c, "entryLink")) {
            const xmlNode *t;
            bool added;
            st = target(r, c, &t);
            if (st == CS_OK && unit_type(t))
                st = unit_met(r, t, c);
            else if (st == CS_OK && (st = cs_units_nodes_add(&r->seen, t, &added)) == CS_OK && added)
                st = walk(r, t, depth + 1);
        } else {
            st = walk(r, c, depth);
        }
    }
    return st;
}


cs_status cs_units_read_bs(const char *path, const cs_units_mapping *map, cs_units *out,
                           cs_error *err)
{
    reader r = {.m = map, .out = out, .err = err};
    cs_status st = cs_units_docs_open(path, &r.docs, err);
    if (st == CS_OK) {
        const xmlNode *root = xmlDocGetRootElement(r.docs.doc[0].doc);
        cs_units_xml_prop(root, "name", r.catalogue, sizeof r.catalogue);
        for (int i = 0; st == CS_OK && i < r.docs.n; i++) {
            st = cs_units_add_input(out, r.docs.doc[i].path, r.docs.doc[i].sha256);
            if (r.docs.doc[i].no_namespace)
                cs_units_input_no_namespace(out, r.docs.doc[i].path);
        }
        if (st == CS_OK)
            st = mark_children(&r, root, false);
        if (st == CS_OK)
            st = walk(&r, root, 0);
    }
    if (st == CS_ENOMEM)
        cs_error_set(err, CS_ENOMEM, "%s: out of memory", path);
    free(r.seen.slot);
    free(r.children.slot);
    free(r.memo.slot);
    free(r.opts.slot);
    cs_units_docs_close(&r.docs);
    return st;
}
