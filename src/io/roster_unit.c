/* Rosters, one unit (roster_doc.h: cs_roster_unit_read): a unit selection
 * of the roster's tree and its parts made a row for stage 3 of unitsrc.h
 * (cs_units_settle), with its models, points, mount and rules, and notes of
 * what the list tool changed; what each is: src/io/roster.c's banner.
 * src/io/roster.c walks the tree and calls this file, never the reverse. */
#include <libxml/tree.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "chargesim/grow.h"
#include "chargesim/unitsrc.h"

#include "roster_doc.h"
#include "units_doc.h"

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

/* Is `name` the mapping's cost type (trimmed, case aside: ASOIAF writes
 * " Points")? */
bool cs_roster_cost_is(const cs_units_mapping *m, const char *name)
{
    while (*name == ' ')
        name++;
    size_t n = strlen(name);
    while (n > 0 && name[n - 1] == ' ')
        n--;
    return m->cost[0] && n == strlen(m->cost) && strncasecmp(name, m->cost, n) == 0;
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
        const xmlNode *k = cs_units_xml_find_char(p, ch->name);
        if (!k || !cs_units_xml_profile_matches(p, ch))
            continue;
        char v[CS_UNITS_TEXT];
        cs_units_xml_char_value(k, v, sizeof v);
        cs_units_found_add(f, v, r->path, cs_units_xml_line(k));
    }
}

static bool has_digit(const cs_units_found *f)
{
    for (int i = 0; i < f->n && i < CS_UNITS_FOUND; i++)
        if (strpbrk(f->text[i], "0123456789"))
            return true;
    return false;
}

/* The last segment of a roster's entryId (`link::target`: the entry). */
static const xmlNode *cat_entry(const cs_roster_reader *r, const xmlNode *sel, const char *attr)
{
    char id[4 * CS_UNITS_TEXT];
    if (r->cat.n == 0 || !cs_units_xml_prop(sel, attr, id, sizeof id))
        return NULL;
    const char *last = id;
    for (const char *p = strstr(id, "::"); p; p = strstr(p + 2, "::"))
        last = p + 2;
    return cs_units_docs_lookup(&r->cat, last);
}

/* Is part x marked a mount: by its catalogue entry, or by New Recruit's
 * `group` attribute? */
static bool marked_mount(const cs_roster_reader *r, const xmlNode *x)
{
    const cs_units_mapping *m = r->m;
    char group[CS_UNITS_NAME];
    const xmlNode *e = cat_entry(r, x, "entryId"), *g = cat_entry(r, x, "entryGroupId");
    if (e && m->mount_type[0] && cs_units_xml_prop_is(e, "subType", m->mount_type))
        return true;
    if (g && m->mount_group[0] && cs_units_xml_prop(g, "name", group, sizeof group) &&
        strcasecmp(group, m->mount_group) == 0)
        return true;
    return m->mount_group[0] && cs_units_xml_prop(x, "group", group, sizeof group) &&
           strcasecmp(group, m->mount_group) == 0;
}

/* What selection x's own profiles give the mount characteristic: 0
 * nothing, 1 only words (`-`: a rider), 2 a number. */
static int mount_text(const cs_roster_reader *r, const xmlNode *x)
{
    cs_units_found f = {0};
    sel_texts(r, x, r->mount_char, &f);
    return f.n == 0 ? 0 : has_digit(&f) ? 2 : 1;
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

/* The unit's mount, if any (see the banner): a part marked so by the
 * catalogue or New Recruit; without the catalogue, else the first part
 * giving the mount characteristic a number below a rider giving `-` (the
 * catalogue at hand says what is a mount: a war machine's crew is not). */
static void one_text(const cs_roster_reader *r, const unit_tree *t, const xmlNode *top, const char *name,
                     char *buf, size_t cap);

/* Does the mapping name the unit's own type in a [type NAME] section? */
static bool typed(const cs_roster_reader *r, const unit_tree *t)
{
    char type[CS_UNITS_TEXT];
    one_text(r, t, NULL, r->m->type, type, sizeof type);
    for (int i = 0; type[0] && i < r->m->n_types; i++)
        if (strcmp(type, r->m->type_name[i]) == 0)
            return true;
    return false;
}

static void find_mount(const cs_roster_reader *r, unit_tree *t)
{
    t->mount = NULL;
    if (r->mount_char < 0)
        return;
    for (int i = 1; i < t->parts.n && !t->mount; i++)
        if (marked_mount(r, t->parts.v[i]))
            t->mount = t->parts.v[i];
    /* A type the mapping names is tabled as its note says (a war machine
     * at its crew's M, the crew under the machine of M `-`): no rider. */
    bool riders = r->cat.n == 0 && !typed(r, t);
    for (int i = 1; !t->mount && riders && i < t->parts.n; i++)
        if (mount_text(r, t->parts.v[i]) == 2 && rides_below_dash(r, t, t->parts.v[i]))
            t->mount = t->parts.v[i];
}

/* For a characteristic read from the mount (mount = yes), a `-` beside a
 * number is a model that moves with the others (a war machine beside its
 * crew), no value of its own: only the texts with a digit stay. */
static void drop_words(cs_units_found *f)
{
    if (!has_digit(f) || f->n > CS_UNITS_FOUND)
        return;
    int k = 0;
    for (int i = 0; i < f->n; i++)
        if (strpbrk(f->text[i], "0123456789")) {
            memmove(f->text[k], f->text[i], sizeof f->text[k]);
            f->file[k] = f->file[i];
            f->line[k++] = f->line[i];
        }
    f->n = k;
}

/* The texts of characteristic c for the row: a mount characteristic from
 * the mount (its own profiles, else the first of its parts that gives a
 * number: a chariot's steeds), else from the unit's parts outside it. */
static void row_texts(const cs_roster_reader *r, const unit_tree *t, int c, cs_units_found *f)
{
    *f = (cs_units_found){0};
    if (t->mount && r->m->chars[c].mount) {
        for (int i = 0; i < t->parts.n && !has_digit(f); i++)
            if (within(t->parts.v[i], t->mount)) {
                *f = (cs_units_found){0};
                sel_texts(r, t->parts.v[i], c, f);
            }
        if (has_digit(f))
            return;
        *f = (cs_units_found){0};
    }
    for (int i = 0; i < t->parts.n; i++)
        if (!t->mount || !within(t->parts.v[i], t->mount))
            sel_texts(r, t->parts.v[i], c, f);
    if (r->m->chars[c].mount)
        drop_words(f);
}

/* The text of characteristic `name` over the parts within `top` (NULL:
 * those outside the mount): "" when none gives it or two differ. */
static void one_text(const cs_roster_reader *r, const unit_tree *t, const xmlNode *top, const char *name,
                     char *buf, size_t cap)
{
    buf[0] = '\0';
    bool conflict = false;
    for (int i = 0; name[0] && i < t->parts.n; i++) {
        const xmlNode *x = t->parts.v[i];
        if (top ? !within(x, top) : (t->mount && within(x, t->mount)))
            continue;
        CS_ROSTER_EACH_CHILD(x, "profiles", "profile", p)
        {
            const xmlNode *k = cs_units_xml_find_char(p, name);
            char v[CS_UNITS_TEXT];
            if (!k)
                continue;
            cs_units_xml_char_value(k, v, sizeof v);
            conflict = conflict || (buf[0] && strcmp(buf, v) != 0);
            snprintf(buf, cap, "%s", v);
        }
    }
    if (conflict)
        buf[0] = '\0';
    (void)r;
}

/* Does a profile or rule named `name` (or `name (...)`: Fly (10)) carry
 * rule `rule`? */
static bool names_rule(const char *name, const char *rule)
{
    size_t n = strlen(rule);
    while (*name == ' ')
        name++;
    return strncasecmp(name, rule, n) == 0 &&
           (name[n] == '\0' || name[n] == ' ' || name[n] == '(');
}

/* The mapping's rules that selection x's profiles and rules name, as bits. */
static unsigned sel_rules(const cs_roster_reader *r, const xmlNode *x)
{
    unsigned bits = 0;
    static const char *const kinds[][2] = {{"profiles", "profile"}, {"rules", "rule"}};
    for (int kind = 0; kind < 2; kind++)
        CS_ROSTER_EACH_CHILD(x, kinds[kind][0], kinds[kind][1], p)
        {
            char name[CS_UNITS_NAME];
            if (!cs_units_xml_prop(p, "name", name, sizeof name))
                continue;
            for (int k = 0; k < r->m->n_rules; k++)
                if (names_rule(name, r->m->rules[k].name))
                    bits |= 1u << k;
        }
    return bits;
}

/* A note about row u (kept, note). */
static cs_status note(cs_roster_reader *r, const cs_unit *u, int line, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static cs_status note(cs_roster_reader *r, const cs_unit *u, int line, const char *fmt, ...)
{
    cs_units *out = r->out;
    cs_unit_note *q = cs_grow(out->note, out->n_notes, &out->cap_notes, sizeof *q, 64);
    if (!q)
        return CS_ENOMEM;
    out->note = q;
    cs_unit_note *n = &out->note[out->n_notes++];
    *n = (cs_unit_note){.kind = CS_UNIT_NOTED, .problem = CS_UNIT_TYPED, .line = line};
    snprintf(n->name, sizeof n->name, "%s", u->name);
    snprintf(n->id, sizeof n->id, "%s", u->id);
    snprintf(n->file, sizeof n->file, "%s", r->path);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(n->what, sizeof n->what, fmt, ap);
    va_end(ap);
    return CS_OK;
}

/* With the catalogue at hand: a mapped text of the unit's profiles that
 * differs from the catalogue's profile of the same id is the list tool's
 * doing (a modifier): the roster's text stands, and a note says so. */
static cs_status compare_catalogue(cs_roster_reader *r, const unit_tree *t, const cs_unit *u)
{
    cs_status st = CS_OK;
    for (int i = 0; r->cat.n > 0 && st == CS_OK && i < t->parts.n; i++)
        CS_ROSTER_EACH_CHILD(t->parts.v[i], "profiles", "profile", p)
        {
            char id[CS_UNITS_TEXT], pname[CS_UNITS_NAME] = "";
            if (st != CS_OK || !cs_units_xml_prop(p, "id", id, sizeof id))
                continue;
            const xmlNode *cp = cs_units_docs_lookup(&r->cat, id);
            if (!cs_units_xml_is(cp, "profile"))
                continue;
            cs_units_xml_prop(p, "name", pname, sizeof pname);
            for (int c = 0; st == CS_OK && c < r->m->n_chars; c++) {
                const char *cname = r->m->chars[c].name;
                const xmlNode *a = cs_units_xml_find_char(p, cname);
                const xmlNode *b = cs_units_xml_find_char(cp, cname);
                char va[CS_UNITS_TEXT], vb[CS_UNITS_TEXT];
                if (!a || !b)
                    continue;
                cs_units_xml_char_value(a, va, sizeof va);
                cs_units_xml_char_value(b, vb, sizeof vb);
                if (!cs_units_same_value(va, vb))
                    st = note(r, u, cs_units_xml_line(a),
                              "%s of `%s` is `%s` in the roster, `%s` in the catalogue (%s:%d): "
                              "the roster's is taken (a modifier the list tool applied)",
                              cname, pname, va, vb, cs_units_docs_path(&r->cat, cp),
                              cs_units_xml_line(cp));
            }
        }
    return st;
}

/* A mapping rule that only an upgrade chosen for the unit names (a magic
 * item, a virtue) changes the row: a note names the option. */
static cs_status option_rules(cs_roster_reader *r, const unit_tree *t, const cs_unit *u)
{
    unsigned base = 0;
    for (int i = 0; i < t->parts.n; i++)
        if (!cs_roster_is_selection(t->parts.v[i], "upgrade") || within(t->parts.v[i], t->mount))
            base |= sel_rules(r, t->parts.v[i]);
    cs_status st = CS_OK;
    for (int i = 0; st == CS_OK && i < t->parts.n; i++) {
        const xmlNode *x = t->parts.v[i];
        if (!cs_roster_is_selection(x, "upgrade") || within(x, t->mount))
            continue;
        unsigned extra = sel_rules(r, x) & ~base;
        char opt[CS_UNITS_NAME] = "";
        cs_units_xml_prop(x, "name", opt, sizeof opt);
        for (int k = 0; st == CS_OK && k < r->m->n_rules; k++)
            if (extra & (1u << k))
                st = note(r, u, cs_units_xml_line(x), "has %s from the option `%s` chosen",
                          r->m->rules[k].name, opt);
        base |= extra;
    }
    return st;
}

static double number_of(const xmlNode *x)
{
    char v[CS_UNITS_TEXT];
    return cs_units_xml_prop(x, "number", v, sizeof v) ? strtod(v, NULL) : 1.0;
}

/* The row's name, mount, models, points, base, type and rules. */
static void fill_unit(const cs_roster_reader *r, const unit_tree *t, cs_unit *u)
{
    const xmlNode *s = t->sel;
    char name[CS_UNITS_NAME] = "", mount[CS_UNITS_NAME] = "", id[4 * CS_UNITS_TEXT] = "";
    if (!cs_units_xml_prop(s, "customName", name, sizeof name) || !name[0])
        cs_units_xml_prop(s, "name", name, sizeof name);
    if (t->mount && (!cs_units_xml_prop(t->mount, "customName", mount, sizeof mount) || !mount[0]))
        cs_units_xml_prop(t->mount, "name", mount, sizeof mount);
    if (t->mount) {
        char full[2 * CS_UNITS_NAME + 8];
        snprintf(full, sizeof full, "%s (on %s)", name, mount);
        snprintf(u->name, sizeof u->name, "%.*s", (int)sizeof u->name - 1, full);
        snprintf(u->mount, sizeof u->mount, "%s", mount);
    } else {
        snprintf(u->name, sizeof u->name, "%s", name);
    }
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
        if (i > 0 && cs_roster_is_selection(x, "model") && !within(x, t->mount))
            models += number_of(x);
        u->rules |= sel_rules(r, x);
        CS_ROSTER_EACH_CHILD(x, "costs", "cost", k)
        {
            char cname[CS_UNITS_TEXT] = "", val[CS_UNITS_TEXT];
            char *end;
            cs_units_xml_prop(k, "name", cname, sizeof cname);
            if (!cs_roster_cost_is(r->m, cname) || !cs_units_xml_prop(k, "value", val, sizeof val))
                continue;
            double v = strtod(val, &end);
            if (end != val) {
                u->points += v;
                u->has_points = true;
            }
        }
    }
    double own = number_of(s);
    u->models = (int)(models > 0.0 ? models : own > 0.0 ? own : 1.0);
    one_text(r, t, NULL, r->m->base, u->base, sizeof u->base);
    one_text(r, t, t->mount, r->m->type, u->type, sizeof u->type);
}

cs_status cs_roster_unit_read(cs_roster_reader *r, const xmlNode *s, int depth)
{
    unit_tree t = {.sel = s};
    cs_unit *u = calloc(1, sizeof *u);
    cs_units_found *found = calloc(CS_UNITS_MAX_CHARS, sizeof *found);
    cs_status st = u && found ? gather(r, &t, s, depth) : CS_ENOMEM;
    if (st == CS_OK) {
        find_mount(r, &t);
        fill_unit(r, &t, u);
        for (int c = 0; c < r->m->n_chars; c++)
            row_texts(r, &t, c, &found[c]);
        bool kept;
        st = cs_units_settle(r->out, u, found, false, &kept, r->err);
    }
    if (st == CS_OK)
        st = compare_catalogue(r, &t, u);
    if (st == CS_OK)
        st = option_rules(r, &t, u);
    for (int i = 0; st == CS_OK && i < t.nested.n; i++)
        st = cs_roster_unit_read(r, t.nested.v[i], depth + 1);
    free(t.parts.v);
    free(t.nested.v);
    free(found);
    free(u);
    return st;
}
