/* SPDX-License-Identifier: GPL-3.0-or-later */
/* Rosters, one unit (roster_doc.h: cs_roster_unit_read): a unit selection
 * of the roster's tree and its parts made rows for stage 3 of unitsrc.h
 * (cs_units_settle), with its models, points, mount and rules, and notes of
 * what the list tool changed; what each is: src/io/units/roster.c's banner.
 * src/io/units/roster.c walks the tree and calls this file, never the reverse.
 *
 * The rows themselves are the catalogue reader's (src/io/units/units_rows.c,
 * units_reader.h): a row is named `NAME (on MOUNT)`, a flier gets its
 * second row at the number of its Fly (X) (`Duke (on Royal Pegasus,
 * flying)`), a chosen mount's troop type is its own or that of a category
 * it is filed under. The roster hands them what a catalogue's entry would:
 * the unit's own profiles, its mount's, its texts. The roster's profiles
 * already carry what the list tool applied, Fly's number appended to its
 * name among them; the unit selection is the entry whose options a flier
 * row may name, and a roster holds only the options chosen. */
#include <libxml/tree.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "chargesim/grow.h"
#include "chargesim/unitsrc.h"

#include "roster_doc.h"
#include "units_reader.h"

typedef struct nodes {
    const xmlNode **v;
    int n, cap;
} nodes;

static bool push(nodes *l, const xmlNode *x)
{
    const xmlNode **q = cs_grow(l->v, l->n, &l->cap, sizeof *q, 32);
    if (!q)
        return false;
    l->v = q;
    l->v[l->n++] = x;
    return true;
}

/* Is x within the selection top (top itself included)? */
static bool within(const xmlNode *x, const xmlNode *top)
{
    for (; x; x = x->parent)
        if (x == top)
            return true;
    return false;
}

/* One unit's selections: the unit and its parts, in document order. */
typedef struct unit_tree {
    const xmlNode *sel;
    nodes parts;          /* sel first, then its parts; nested units aside */
    nodes nested;         /* unit-typed selections inside it: units of their own */
    const xmlNode *mount; /* the mount's selection, NULL: none */
    bool chosen;          /* the mount is a choice (the rider moves on its own) */
} unit_tree;

static cs_status gather(cs_roster_reader *r, unit_tree *t, const xmlNode *s, int depth)
{
    if (depth > CS_ROSTER_MAX_DEPTH)
        return cs_error_set(r->err, CS_EINPUT, "%s:%d: selections nested deeper than %d",
                            r->path, cs_units_xml_line(s), CS_ROSTER_MAX_DEPTH);
    if (!push(&t->parts, s))
        return CS_ENOMEM;
    cs_status st = CS_OK;
    CS_ROSTER_EACH_CHILD(s, "selections", "selection", c)
    {
        if (st != CS_OK)
            break;
        if (cs_roster_is_selection(c, "unit"))
            st = push(&t->nested, c) ? CS_OK : CS_ENOMEM;
        else
            st = gather(r, t, c, depth + 1);
    }
    return st;
}

/* The mapped characteristic c's texts in one selection's own profiles. */
static void sel_texts(const cs_roster_reader *r, const xmlNode *sel, int c, cs_units_found *f)
{
    const cs_units_char *ch = &r->m->chars[c];
    CS_ROSTER_EACH_CHILD(sel, "profiles", "profile", p)
    {
        const xmlNode *k = cs_units_find_char(p, ch->name);
        if (!k || !cs_units_profile_matches(p, ch))
            continue;
        char v[CS_UNITS_TEXT];
        cs_units_char_value(k, v, sizeof v);
        cs_units_found_add(f, v, r->path, cs_units_xml_line(k));
    }
}

/* A segment of a roster's id attribute `attr` (`link::...::entry`; last:
 * the entry, else the first link), looked up in the catalogue at hand. */
static const xmlNode *cat_node(const cs_roster_reader *r, const xmlNode *sel, const char *attr,
                               bool last)
{
    char id[4 * CS_UNITS_TEXT];
    if (r->cat.n == 0 || !cs_units_xml_prop(sel, attr, id, sizeof id))
        return NULL;
    const char *seg = id;
    for (const char *p = strstr(id, "::"); last && p; p = strstr(p + 2, "::"))
        seg = p + 2;
    char *cut = strstr(id, "::");
    if (!last && !cut)
        return NULL; /* no link: the entry itself */
    if (!last)
        *cut = '\0';
    return cs_units_docs_lookup(&r->cat, seg);
}

/* Is part x marked a mount: by its catalogue entry (its subType, group or
 * category), or by New Recruit's `group` attribute? */
static bool marked_mount(const cs_roster_reader *r, const xmlNode *x)
{
    const cs_units_mapping *m = r->m;
    char group[CS_UNITS_NAME];
    const xmlNode *e = cat_node(r, x, "entryId", true), *g = cat_node(r, x, "entryGroupId", true);
    if (e && m->mount_type[0] && cs_units_xml_prop_is(e, "subType", m->mount_type))
        return true;
    if (e && cs_units_xml_prop_is(e, "type", "model") &&
        (cs_units_mount_category(&r->cat, m, e) ||
         cs_units_mount_category(&r->cat, m, cat_node(r, x, "entryId", false))))
        return true;
    if (g && cs_units_xml_prop(g, "name", group, sizeof group) &&
        cs_units_mount_group_name(m, group))
        return true;
    return cs_units_xml_prop(x, "group", group, sizeof group) &&
           cs_units_mount_group_name(m, group);
}

/* What selection x's own profiles give the mount characteristic: 0
 * nothing, 1 only words (`-`: a rider), 2 a number. */
static int mount_text(const cs_roster_reader *r, const xmlNode *x)
{
    cs_units_found f = {0};
    sel_texts(r, x, r->mount_char, &f);
    return f.n == 0 ? 0 : cs_units_found_has_digit(&f) ? 2 : 1;
}

/* Is part x, giving a number, the child of a rider: the nearest selection
 * above it (up to the unit) that gives the characteristic gives `-`? */
static bool rides_below_dash(const cs_roster_reader *r, const unit_tree *t, const xmlNode *x)
{
    for (const xmlNode *a = x->parent; a; a = a->parent) {
        int k = cs_units_xml_is(a, "selection") ? mount_text(r, a) : 0;
        if (k > 0)
            return k == 1;
        if (a == t->sel)
            break;
    }
    return false;
}

/* The profiles (and rules: a list tool may write a rule so) of the unit's
 * parts within `top` (NULL: outside the mount; `only`: that selection
 * alone), each with no link to modify its name: the roster's name is the
 * one the list tool shows. */
static cs_status collect(const unit_tree *t, const xmlNode *top, bool only, proflist *l)
{
    static const char *const kinds[][2] = {{"profiles", "profile"}, {"rules", "rule"}};
    for (int i = 0; i < t->parts.n; i++) {
        const xmlNode *x = t->parts.v[i];
        if (only ? x != top : top ? !within(x, top) || x == top : t->mount && within(x, t->mount))
            continue;
        for (int k = 0; k < 2; k++)
            CS_ROSTER_EACH_CHILD(x, kinds[k][0], kinds[k][1], p)
            {
                const xmlNode **q = cs_grow(l->p, l->n, &l->cap, sizeof *q, 32);
                const xmlNode **v = q ? cs_grow(l->via, l->n, &l->cap_via, sizeof *v, 32) : NULL;
                if (q)
                    l->p = q;
                if (!v)
                    return CS_ENOMEM;
                l->via = v;
                l->p[l->n] = p;
                l->via[l->n++] = NULL;
            }
    }
    return CS_OK;
}

/* Does the mapping name the unit's own type in a [type NAME] section? */
static bool typed(const cs_roster_reader *r, const proflist *own)
{
    char type[CS_UNITS_TEXT];
    cs_units_one_text(own->p, own->n, r->m->type, type, sizeof type);
    for (int i = 0; type[0] && i < r->m->n_types; i++)
        if (strcasecmp(type, r->m->type_name[i]) == 0)
            return true;
    return false;
}

/* The unit's mount, if any (see the banner): a part marked so by the
 * catalogue or New Recruit; without the catalogue, else the first part
 * giving the mount characteristic a number below a rider giving `-` (the
 * catalogue at hand says what is a mount: a war machine's crew is not, nor
 * in a type the mapping names: a war machine is tabled at its crew's M).
 * A mount is a choice when the unit's other parts give a number of their
 * own (a character who may also go on foot), not when its riders give `-`. */
static cs_status find_mount(const cs_roster_reader *r, unit_tree *t)
{
    t->mount = NULL;
    if (r->mount_char < 0)
        return CS_OK;
    for (int i = 1; i < t->parts.n && !t->mount; i++)
        if (marked_mount(r, t->parts.v[i]))
            t->mount = t->parts.v[i];
    proflist own = {0};
    cs_status st = collect(t, NULL, false, &own);
    bool riders = st == CS_OK && r->cat.n == 0 && !typed(r, &own);
    for (int i = 1; !t->mount && riders && i < t->parts.n; i++)
        if (mount_text(r, t->parts.v[i]) == 2 && rides_below_dash(r, t, t->parts.v[i]))
            t->mount = t->parts.v[i];
    for (int i = 0; t->mount && i < t->parts.n && !t->chosen; i++)
        t->chosen = !within(t->parts.v[i], t->mount) && mount_text(r, t->parts.v[i]) == 2;
    free(own.p);
    free(own.via);
    return st;
}

/* The texts of characteristic c for the row: a mount characteristic from
 * the mount (its own profiles, else the first of its parts that gives a
 * number: a chariot's steeds), else from the unit's parts outside it. */
static void row_texts(const cs_roster_reader *r, const unit_tree *t, int c, cs_units_found *f)
{
    *f = (cs_units_found){0};
    if (t->mount && r->m->chars[c].mount) {
        for (int i = 0; i < t->parts.n && !cs_units_found_has_digit(f); i++)
            if (within(t->parts.v[i], t->mount)) {
                *f = (cs_units_found){0};
                sel_texts(r, t->parts.v[i], c, f);
            }
        if (cs_units_found_has_digit(f))
            return;
        *f = (cs_units_found){0};
    }
    for (int i = 0; i < t->parts.n; i++)
        if (!t->mount || !within(t->parts.v[i], t->mount))
            sel_texts(r, t->parts.v[i], c, f);
    if (r->m->chars[c].mount)
        cs_units_found_drop_words(f);
}

/* The mapping's rules that a list of profiles and rules names, as bits. */
static unsigned rules_in(const cs_roster_reader *r, const proflist *l)
{
    unsigned bits = 0;
    for (int i = 0; i < l->n; i++) {
        char name[CS_UNITS_NAME];
        cs_units_profile_name(l->p[i], NULL, name, sizeof name);
        for (int k = 0; k < r->m->n_rules; k++)
            if (cs_units_names_rule(name, r->m->rules[k].name))
                bits |= 1u << k;
    }
    return bits;
}

/* With the catalogue at hand: a mapped text of the unit's profiles that
 * differs from the catalogue's profile of the same id is the list tool's
 * doing (a modifier): the roster's text stands, and the row's note says so. */
static void compare_catalogue(const cs_roster_reader *r, const unit_tree *t, cs_unit *u)
{
    for (int i = 0; r->cat.n > 0 && i < t->parts.n; i++)
        CS_ROSTER_EACH_CHILD(t->parts.v[i], "profiles", "profile", p)
        {
            char id[CS_UNITS_TEXT], pname[CS_UNITS_NAME] = "";
            if (!cs_units_xml_prop(p, "id", id, sizeof id))
                continue;
            const xmlNode *cp = cs_units_docs_lookup(&r->cat, id);
            if (!cs_units_xml_is(cp, "profile"))
                continue;
            cs_units_xml_prop(p, "name", pname, sizeof pname);
            for (int c = 0; c < r->m->n_chars; c++) {
                const char *cname = r->m->chars[c].name;
                const xmlNode *a = cs_units_find_char(p, cname), *b = cs_units_find_char(cp, cname);
                char va[CS_UNITS_TEXT], vb[CS_UNITS_TEXT];
                if (!a || !b)
                    continue;
                cs_units_char_value(a, va, sizeof va);
                cs_units_char_value(b, vb, sizeof vb);
                if (!cs_units_same_value(va, vb))
                    cs_units_row_note(u, "%s of `%s` is `%s` in the roster, `%s` in the catalogue "
                                      "(%s:%d): the roster's is taken (a modifier the list tool "
                                      "applied)", cname, pname, va, vb,
                                      cs_units_docs_path(&r->cat, cp), cs_units_xml_line(cp));
            }
        }
}

/* A mapping rule that only an upgrade chosen for the unit names (a magic
 * item, a virtue) changes the row: its note names the option. An upgrade
 * whose profile grants a rule with a row only in its prose (the Flying
 * Carpet) is noted as an option, as the catalogue reader notes it. */
static cs_status option_rules(const cs_roster_reader *r, const unit_tree *t, cs_unit *u)
{
    unsigned base = 0;
    for (int i = 0; i < t->parts.n; i++) {
        const xmlNode *x = t->parts.v[i];
        proflist one = {0};
        if (cs_roster_is_selection(x, "upgrade") && !within(x, t->mount))
            continue;
        cs_status st = collect(t, x, true, &one);
        base |= rules_in(r, &one);
        free(one.p);
        free(one.via);
        if (st != CS_OK)
            return st;
    }
    cs_status st = CS_OK;
    for (int i = 0; st == CS_OK && i < t->parts.n; i++) {
        const xmlNode *x = t->parts.v[i];
        proflist one = {0};
        char opt[CS_UNITS_NAME] = "", what[CS_UNITS_NOTE];
        if (!cs_roster_is_selection(x, "upgrade") || within(x, t->mount))
            continue;
        st = collect(t, x, true, &one);
        unsigned extra = rules_in(r, &one) & ~base;
        cs_units_xml_prop(x, "name", opt, sizeof opt);
        for (int k = 0; k < r->m->n_rules; k++)
            if (extra & (1u << k))
                cs_units_row_note(u, "has %s from the option `%s` chosen", r->m->rules[k].name,
                                  opt);
        base |= extra;
        for (int p = 0; st == CS_OK && p < one.n; p++)
            for (int k = 0; st == CS_OK && k < r->m->n_rules; k++) {
                if (!r->m->rules[k].row[0] || !cs_units_prose_gives_rule(one.p[p],
                                                                         r->m->rules[k].name))
                    continue;
                snprintf(what, sizeof what, "grants %s only in its description: not read (`%s` "
                         "took it, and has no %s row for it)", r->m->rules[k].name, u->name,
                         r->m->rules[k].row);
                st = cs_units_note_option(r->out, opt, r->path, cs_units_xml_line(one.p[p]),
                                          what);
            }
        free(one.p);
        free(one.via);
    }
    return st;
}

static double number_of(const xmlNode *x)
{
    char v[CS_UNITS_TEXT];
    return cs_units_xml_prop(x, "number", v, sizeof v) ? strtod(v, NULL) : 1.0;
}

/* The unit as the row's base: its name (custom, else its own), id,
 * catalogue, models and points (all its parts'), base, type and rules. */
static void fill_unit(const cs_roster_reader *r, const unit_tree *t, const proflist *own,
                      cs_unit *u)
{
    const xmlNode *s = t->sel;
    char id[4 * CS_UNITS_TEXT] = "";
    if (!cs_units_xml_prop(s, "customName", u->name, sizeof u->name) || !u->name[0])
        cs_units_xml_prop(s, "name", u->name, sizeof u->name);
    cs_units_xml_prop(s, "entryId", id, sizeof id);
    const char *last = id;
    for (const char *p = strstr(id, "::"); p; p = strstr(p + 2, "::"))
        last = p + 2;
    snprintf(u->id, sizeof u->id, "%.*s", (int)sizeof u->id - 1, last);
    snprintf(u->catalogue, sizeof u->catalogue, "%s", r->force_cat);
    snprintf(u->file, sizeof u->file, "%s", r->path);
    u->line = cs_units_xml_line(s);
    u->map = r->m;
    double models = 0.0;
    for (int i = 0; i < t->parts.n; i++) {
        const xmlNode *x = t->parts.v[i];
        double cost;
        if (i > 0 && cs_roster_is_selection(x, "model") && !within(x, t->mount))
            models += number_of(x);
        if (cs_units_entry_cost(x, r->m->cost, &cost)) {
            u->points += cost;
            u->has_points = true;
        }
    }
    double n = number_of(s);
    u->models = (int)(models > 0.0 ? models : n > 0.0 ? n : 1.0);
    cs_units_one_text(own->p, own->n, r->m->base, u->base, sizeof u->base);
    cs_units_one_text(own->p, own->n, r->m->type, u->type, sizeof u->type);
    u->rules = rules_in(r, own);
}

/* Is a unit without a catalogue at hand and without a mount told giving
 * the mount characteristic two numbers (a rider of M 4 on a Griffon of M 6,
 * New Recruit's `group` attribute absent)? Then a mount cannot be told
 * from a second model. */
static bool untold(const cs_roster_reader *r, const unit_tree *t, const cs_units_found *found)
{
    int digits = 0;
    for (int i = 0; r->mount_char >= 0 && i < found[r->mount_char].n && i < CS_UNITS_FOUND; i++)
        digits += strpbrk(found[r->mount_char].text[i], "0123456789") != NULL;
    return r->cat.n == 0 && !t->mount && digits > 1;
}

/* The unit's rows: its own (with its mount), then its second rows (a
 * flier's), by the catalogue reader's rows (units_rows.c) on what this
 * unit's parts give. */
static cs_status rows(cs_roster_reader *r, const unit_tree *t, base_unit *b, proflist *level)
{
    reader *cr = &r->rows;
    char label[CS_UNITS_NAME] = "";
    const int n_sel = t->mount != NULL, n_lv = n_sel ? MOUNT_LEVELS : 0;
    cs_status st = collect(t, t->mount, true, &level[0]);
    if (st == CS_OK && t->mount)
        st = collect(t, t->mount, false, &level[1]);
    cs_unit u = b->u;
    cs_units_found found[CS_UNITS_MAX_CHARS];
    for (int c = 0; c < r->m->n_chars; c++)
        row_texts(r, t, c, &found[c]);
    if (t->mount && (!cs_units_xml_prop(t->mount, "customName", label, sizeof label) ||
                     !label[0]))
        cs_units_xml_prop(t->mount, "name", label, sizeof label);
    for (int lv = 0; lv < n_lv; lv++)
        u.rules |= rules_in(r, &level[lv]);
    if (t->mount && t->chosen) {
        /* The mount's catalogue link and entry when at hand, else the
         * categories the roster files the choice under. */
        const xmlNode *entry = cat_node(r, t->mount, "entryId", true);
        const xmlNode *link = cat_node(r, t->mount, "entryId", false);
        mount mt = {.link = entry ? link : t->mount, .entry = entry, .in_choice = true};
        cs_units_mount_type(cr, &mt, &level[0], &u);
    }
    snprintf(u.mount, sizeof u.mount, "%s", label);
    cs_units_row_name(u.name, sizeof u.name, b, label, n_sel, "");
    cs_units_row_unnumbered(cr, b, level, n_lv, &u);
    compare_catalogue(r, t, &u);
    if (st == CS_OK)
        st = option_rules(r, t, &u);
    cs_unit ground = u;
    bool kept;
    int notes = r->out->n_notes;
    if (st == CS_OK)
        st = cs_units_settle(r->out, &u, found, false, &kept, r->err);
    if (st == CS_OK && !kept && untold(r, t, found) && r->out->n_notes > notes) {
        /* Mixed models are never tabled as one: no second row either. */
        cs_unit_note *n = &r->out->note[r->out->n_notes - 1];
        size_t len = strlen(n->what);
        snprintf(n->what + len, sizeof n->what - len, "; no catalogue found for the roster (not "
                 "beside it, not in the shipped data), so a mount cannot be told from a model");
        return st;
    }
    if (st == CS_OK)
        st = cs_units_flying_rows(cr, b, &ground, found, level, n_lv, label, n_sel);
    return st;
}

cs_status cs_roster_unit_read(cs_roster_reader *r, const xmlNode *s, int depth)
{
    if (!r->rows.m) {
        /* The catalogue reader's state, as its rows use it: the mapping,
         * the output, and every element's file the roster. */
        r->rows.m = r->m;
        r->rows.out = r->out;
        r->rows.err = r->err;
        snprintf(r->rows.docs.doc[0].path, sizeof r->rows.docs.doc[0].path, "%s", r->path);
    }
    unit_tree t = {.sel = s};
    base_unit *b = calloc(1, sizeof *b);
    proflist level[MOUNT_LEVELS] = {{0}};
    cs_status st = b ? gather(r, &t, s, depth) : CS_ENOMEM;
    if (st == CS_OK)
        st = find_mount(r, &t);
    if (st == CS_OK)
        st = collect(&t, NULL, false, &b->own);
    if (st == CS_OK) {
        b->node = s;
        fill_unit(r, &t, &b->own, &b->u);
        st = rows(r, &t, b, level);
    }
    for (int i = 0; st == CS_OK && i < t.nested.n; i++)
        st = cs_roster_unit_read(r, t.nested.v[i], depth + 1);
    for (int lv = 0; lv < MOUNT_LEVELS; lv++) {
        free(level[lv].p);
        free(level[lv].via);
    }
    if (b) {
        free(b->own.p);
        free(b->own.via);
    }
    free(b);
    free(t.parts.v);
    free(t.nested.v);
    return st;
}
