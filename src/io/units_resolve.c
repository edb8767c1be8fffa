/* Units, stage 2 of 5: resolve entries (see unitsrc.h for the stages).
 *
 * The BattleScribe documents stage 1 opened (units_source.c) become units:
 * which entries are units, each unit's profiles (its own, linked, those of
 * its models and of the upgrades it must take), its points (the smallest
 * legal unit), and what its options say (mounts, upgrades, groups). For each
 * characteristic the mapping names, the texts found go to stage 3
 * (units_map.c, cs_units_settle), which reads them into the unit's values.
 * What is a unit, where its profiles and points come from: see
 * cs_units_read_bs in unitsrc.h. Not read: modifiers and conditions (a cost
 * or characteristic changed by an option), catalogue links between
 * catalogues, info groups (none in the data this was written against). */
#include <libxml/tree.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "chargesim/unitsrc.h"
#include "units_doc.h"

/* Entries and links nested deeper than this are refused: a guard for the
 * stack (cycles are found as cycles; shared entries are resolved once). */
#define LINK_DEPTH 256

typedef struct ptrset {
    const xmlNode **slot;
    size_t cap, n;
} ptrset;

static size_t ptr_hash(const xmlNode *n, size_t cap)
{
    return ((uintptr_t)n >> 4) & (cap - 1);
}

static bool ptrset_has(const ptrset *s, const xmlNode *n)
{
    if (s->cap == 0)
        return false;
    for (size_t j = ptr_hash(n, s->cap); s->slot[j]; j = (j + 1) & (s->cap - 1))
        if (s->slot[j] == n)
            return true;
    return false;
}

/* Adds n; *added says whether it was new. CS_ENOMEM if out of memory. */
static cs_status ptrset_add(ptrset *s, const xmlNode *n, bool *added)
{
    *added = false;
    if (ptrset_has(s, n))
        return CS_OK;
    if (2 * (s->n + 1) > s->cap) {
        size_t cap = s->cap ? s->cap * 2 : 1024;
        const xmlNode **q = calloc(cap, sizeof *q);
        if (!q)
            return CS_ENOMEM;
        for (size_t i = 0; i < s->cap; i++)
            if (s->slot[i]) {
                size_t j = ptr_hash(s->slot[i], cap);
                while (q[j])
                    j = (j + 1) & (cap - 1);
                q[j] = s->slot[i];
            }
        free(s->slot);
        s->slot = q;
        s->cap = cap;
    }
    size_t j = ptr_hash(n, s->cap);
    while (s->slot[j])
        j = (j + 1) & (s->cap - 1);
    s->slot[j] = n;
    s->n++;
    *added = true;
    return CS_OK;
}

/* What an entry contributes below it: the points of its model children. An
 * entry reached twice inside one unit (two links to one shared group) is
 * resolved the first time and its sum reused, so a link graph costs time
 * linear in its entries, not in its paths (issue 15.6, 18.2). */
typedef struct memo_slot {
    const xmlNode *node;
    bool done;      /* false while the entry is being resolved: a cycle if met */
    bool has_points;
    double points;
} memo_slot;

typedef struct memo {
    memo_slot *slot; /* open addressing, cap a power of two */
    size_t cap, n;
} memo;

static memo_slot *memo_find(const memo *m, const xmlNode *n)
{
    if (m->cap == 0)
        return NULL;
    for (size_t j = ptr_hash(n, m->cap); m->slot[j].node; j = (j + 1) & (m->cap - 1))
        if (m->slot[j].node == n)
            return &m->slot[j];
    return NULL;
}

/* A new slot for n (not in m); NULL if out of memory. */
static memo_slot *memo_insert(memo *m, const xmlNode *n)
{
    if (2 * (m->n + 1) > m->cap) {
        size_t cap = m->cap ? m->cap * 2 : 64;
        memo_slot *q = calloc(cap, sizeof *q);
        if (!q)
            return NULL;
        for (size_t i = 0; i < m->cap; i++)
            if (m->slot[i].node) {
                size_t j = ptr_hash(m->slot[i].node, cap);
                while (q[j].node)
                    j = (j + 1) & (cap - 1);
                q[j] = m->slot[i];
            }
        free(m->slot);
        m->slot = q;
        m->cap = cap;
    }
    size_t j = ptr_hash(n, m->cap);
    while (m->slot[j].node)
        j = (j + 1) & (m->cap - 1);
    m->slot[j] = (memo_slot){.node = n};
    m->n++;
    return &m->slot[j];
}

static void memo_clear(memo *m)
{
    if (m->n > 0)
        memset(m->slot, 0, m->cap * sizeof *m->slot);
    m->n = 0;
}

/* ---- the reader's state ------------------------------------------------ */

typedef struct reader {
    cs_units_docs docs; /* the file read and its game system */
    const cs_units_mapping *m;
    cs_units *out;
    char catalogue[CS_UNITS_NAME];
    cs_error *err;
    ptrset seen;     /* units read and link targets walked */
    ptrset children; /* entries an entry link inside a unit points to: its models */
    memo memo;       /* entries resolved for the unit being read */
    ptrset opts;     /* link targets looked through for the unit's options */
    /* The profiles of the unit being read. */
    const xmlNode **prof;
    int n_prof, cap_prof;
} reader;

static const char *path_of(const reader *r, const xmlNode *n)
{
    return cs_units_docs_path(&r->docs, n);
}

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

static cs_status add_profile(reader *r, const xmlNode *p)
{
    if (r->n_prof == r->cap_prof) {
        int cap = r->cap_prof ? 2 * r->cap_prof : 32;
        const xmlNode **q = realloc(r->prof, (size_t)cap * sizeof *q);
        if (!q)
            return CS_ENOMEM;
        r->prof = q;
        r->cap_prof = cap;
    }
    r->prof[r->n_prof++] = p;
    return CS_OK;
}

/* An entry's own profiles: <profiles> and the targets of its profile
 * <infoLinks> (shared profiles of the catalogue or the game system). */
static cs_status own_profiles(reader *r, const xmlNode *e)
{
    cs_status st = CS_OK;
    for (const xmlNode *c = e->children; st == CS_OK && c; c = c->next) {
        if (cs_units_xml_is(c, "profiles")) {
            for (const xmlNode *p = c->children; st == CS_OK && p; p = p->next)
                if (cs_units_xml_is(p, "profile"))
                    st = add_profile(r, p);
        } else if (cs_units_xml_is(c, "infoLinks")) {
            for (const xmlNode *l = c->children; st == CS_OK && l; l = l->next) {
                if (!cs_units_xml_is(l, "infoLink") || !cs_units_xml_prop_is(l, "type", "profile"))
                    continue;
                const xmlNode *t;
                st = target(r, l, &t);
                if (st == CS_OK && !cs_units_xml_is(t, "profile")) {
                    cs_error_set(r->err, CS_EINPUT,
                                 "%s:%d: <infoLink> of type profile points to <%s>", path_of(r, l),
                                 cs_units_xml_line(l), (const char *)t->name);
                    st = CS_EINPUT;
                }
                if (st == CS_OK)
                    st = add_profile(r, t);
            }
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

/* The entry's cost of the mapping's cost type (names compared trimmed,
 * ignoring case: ASOIAF writes " Points"). */
static bool own_cost(const reader *r, const xmlNode *e, double *v)
{
    if (r->m->cost[0] == '\0')
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
            if (n == strlen(r->m->cost) && strncasecmp(a, r->m->cost, n) == 0) {
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

/* ---- shared entries, resolved once per unit ----------------------------- */

static cs_status model_children(reader *r, const xmlNode *e, int depth, double *points,
                                bool *has_points);

/* One model child t (reached through `link`, or nested when NULL): its
 * profiles join the unit's, its minimum count times its cost joins the
 * points, then what it holds itself. */
static cs_status model_child(reader *r, const xmlNode *link, const xmlNode *t, int depth,
                             double *points, bool *has_points)
{
    double cost, below = 0.0;
    bool has_below = false;
    if (own_cost(r, t, &cost)) {
        *points += cost * min_count(link, t);
        *has_points = true;
    }
    cs_status st = model_children(r, t, depth + 1, &below, &has_below);
    *points += below;
    *has_points = *has_points || has_below;
    return st;
}

/* The points below entry e, resolved once per unit (r->memo): the first
 * visit adds the profiles of its models and stores the sum; a later visit
 * (a second link to a shared entry) reuses the sum; an entry met again
 * while it is being resolved is a cycle. */
static cs_status model_children(reader *r, const xmlNode *e, int depth, double *points,
                                bool *has_points)
{
    memo_slot *s = memo_find(&r->memo, e);
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
    if (!memo_insert(&r->memo, e))
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
                st = model_children(r, t, depth + 1, &sum, &has);
            } else if (cs_units_xml_is(t, "selectionEntry") &&
                       (cs_units_xml_prop_is(t, "type", "model") || (depth == 0 && unit_upgrade(link, t)))) {
                st = memo_find(&r->memo, t) ? CS_OK : own_profiles(r, t);
                if (st == CS_OK)
                    st = model_child(r, link, t, depth, &sum, &has);
            }
        }
    }
    /* The table may have moved while resolving what e holds. */
    s = memo_find(&r->memo, e);
    s->done = true;
    s->points = sum;
    s->has_points = has;
    *points += sum;
    *has_points = *has_points || has;
    return st;
}

/* ---- characteristics --------------------------------------------------- */

/* A characteristic's value: the `value` attribute (2.01) or the text (2.03). */
static void char_value(const xmlNode *c, char *buf, size_t cap)
{
    if (cs_units_xml_prop(c, "value", buf, cap))
        return;
    xmlChar *t = xmlNodeGetContent(c);
    snprintf(buf, cap, "%s", t ? (const char *)t : "");
    xmlFree(t);
}

static const xmlNode *find_char(const xmlNode *profile, const char *name)
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

/* Does the profile satisfy a mapping's `where NAME = VALUE`? */
static bool profile_matches(const xmlNode *profile, const cs_units_char *c)
{
    if (c->where_name[0] == '\0')
        return true;
    const xmlNode *k = find_char(profile, c->where_name);
    char v[CS_UNITS_TEXT];
    if (!k)
        return false;
    char_value(k, v, sizeof v);
    const char *a = v;
    while (*a == ' ')
        a++;
    size_t n = strlen(a);
    while (n > 0 && a[n - 1] == ' ')
        n--;
    return n == strlen(c->where_value) && strncasecmp(a, c->where_value, n) == 0;
}

/* ---- a unit's options --------------------------------------------------- */

static void ptrset_clear(ptrset *s)
{
    if (s->n > 0)
        memset(s->slot, 0, s->cap * sizeof *s->slot);
    s->n = 0;
}

static cs_status option_texts(reader *r, const xmlNode *n, int depth, cs_units_found *opt);

/* The mapped characteristics of one profile met among the options. */
static void option_profile(reader *r, const xmlNode *p, cs_units_found *opt)
{
    for (int c = 0; c < r->m->n_chars; c++) {
        const xmlNode *k = find_char(p, r->m->chars[c].name);
        if (!k || !profile_matches(p, &r->m->chars[c]))
            continue;
        char v[CS_UNITS_TEXT];
        char_value(k, v, sizeof v);
        cs_units_found_add(&opt[c], v, path_of(r, k), cs_units_xml_line(k));
    }
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
            option_profile(r, c, opt);
        } else if (cs_units_xml_is(c, "entryLink") || cs_units_xml_is(c, "infoLink")) {
            char id[CS_UNITS_TEXT];
            const xmlNode *t = NULL;
            bool added = false;
            if (cs_units_xml_prop(c, "targetId", id, sizeof id))
                t = cs_units_docs_lookup(&r->docs, id);
            if (t && (st = ptrset_add(&r->opts, t, &added)) == CS_OK && added) {
                if (cs_units_xml_is(t, "profile"))
                    option_profile(r, t, opt);
                else
                    st = option_texts(r, t, depth + 1, opt);
            }
        } else {
            /* Nesting in one file is bounded by the parser; links count. */
            st = option_texts(r, c, depth, opt);
        }
    }
    return st;
}

/* ---- units ------------------------------------------------------------- */

static cs_status read_unit(reader *r, const xmlNode *e)
{
    const cs_units_mapping *m = r->m;
    cs_unit u = {0};
    cs_units_found found[CS_UNITS_MAX_CHARS];
    memset(found, 0, sizeof found);
    cs_units_xml_prop(e, "name", u.name, sizeof u.name);
    cs_units_xml_prop(e, "id", u.id, sizeof u.id);
    snprintf(u.catalogue, sizeof u.catalogue, "%s", r->catalogue);
    snprintf(u.file, sizeof u.file, "%s", path_of(r, e));
    u.line = cs_units_xml_line(e);
    u.map = m;

    r->n_prof = 0;
    memo_clear(&r->memo);
    double points = 0.0;
    bool has_points = own_cost(r, e, &points);
    cs_status st = own_profiles(r, e);
    if (st == CS_OK)
        st = model_children(r, e, 0, &points, &has_points);
    if (st != CS_OK)
        return st;
    u.has_points = has_points;
    u.points = points;

    bool base_conflict = false;
    for (int i = 0; i < r->n_prof; i++) {
        const xmlNode *p = r->prof[i];
        for (int c = 0; c < m->n_chars; c++) {
            const xmlNode *k = find_char(p, m->chars[c].name);
            if (!k || !profile_matches(p, &m->chars[c]))
                continue;
            char v[CS_UNITS_TEXT];
            char_value(k, v, sizeof v);
            cs_units_found_add(&found[c], v, path_of(r, k), cs_units_xml_line(k));
        }
        const xmlNode *b = m->base[0] ? find_char(p, m->base) : NULL;
        if (b) {
            char v[CS_UNITS_TEXT];
            char_value(b, v, sizeof v);
            if (u.base[0] && strcmp(u.base, v) != 0)
                base_conflict = true;
            snprintf(u.base, sizeof u.base, "%s", v);
        }
    }
    /* Two base sizes (a unit with mixed models): none is the unit's. */
    if (base_conflict)
        u.base[0] = '\0';
    /* The whole entry, options included, for what settle tells the user. */
    cs_units_found opt[CS_UNITS_MAX_CHARS];
    memset(opt, 0, sizeof opt);
    ptrset_clear(&r->opts);
    bool added;
    st = ptrset_add(&r->opts, e, &added);
    if (st == CS_OK)
        st = option_texts(r, e, 0, opt);
    if (st != CS_OK)
        return st;
    for (int c = 0; c < m->n_chars; c++)
        found[c].options = &opt[c];
    bool kept;
    return cs_units_settle(r->out, &u, found, false, &kept, r->err);
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
            if (st == CS_OK)
                st = ptrset_add(&r->children, t, &added);
        }
        if (st == CS_OK)
            st = mark_children(r, c, inside || unit_type(c));
    }
    return st;
}

/* Reads a unit met by the walk, once. */
static cs_status unit_met(reader *r, const xmlNode *e)
{
    bool added;
    if (ptrset_has(&r->children, e))
        return CS_OK;
    cs_status st = ptrset_add(&r->seen, e, &added);
    return st == CS_OK && added ? read_unit(r, e) : st;
}

/* Walks a subtree for units: every unit or model entry met is one (and is
 * not entered: what it nests belongs to it); entry links met outside units
 * are followed to their targets, which are units or are walked in turn. */
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
        if (unit_type(c)) {
            st = unit_met(r, c);
        } else if (cs_units_xml_is(c, "entryLink")) {
            const xmlNode *t;
            bool added;
            st = target(r, c, &t);
            if (st == CS_OK && unit_type(t))
                st = unit_met(r, t);
            else if (st == CS_OK && (st = ptrset_add(&r->seen, t, &added)) == CS_OK && added)
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
        for (int i = 0; st == CS_OK && i < r.docs.n; i++)
            st = cs_units_add_input(out, r.docs.doc[i].path, r.docs.doc[i].sha256);
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
    free(r.prof);
    cs_units_docs_close(&r.docs);
    return st;
}
